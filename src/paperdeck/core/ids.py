"""Stable paper ids: a short hash of the abstract's normalised content."""

from __future__ import annotations

import hashlib
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

MIN_ID_LENGTH = 8
_ASCII_WHITESPACE = b" \t\n\r\x0b\x0c"
_ASCII_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")


def identity_text(record: Mapping[str, Any]) -> str:
    """The text a list record's id is made from: its abstract, else (some BibTeX entries) its
    title."""
    return str(record.get("abstract") or record.get("title") or "")


def normalise_for_id(text: str) -> bytes:
    """Case, width, whitespace and line breaks do not change a paper's identity."""
    # Bytes and translate, because this runs over every abstract of a 100,000-paper list.
    if not text.isascii() and not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
    return text.casefold().encode("utf-8").translate(None, _ASCII_WHITESPACE)


def plain_ascii_key(lines: bytes) -> bytes:
    """`normalise_for_id` of the text of one paragraph's lines, read from their bytes alone: the
    bytes must be ASCII with no control character but tab and newline (so decoding and cleaning
    them changes nothing, and joining or stripping their lines changes only whitespace)."""
    # ASCII case folding is lowering A-Z; one pass over the bytes does both.
    return lines.translate(_ASCII_LOWER, _ASCII_WHITESPACE)


def assign_ids(texts: Sequence[str]) -> list[str]:
    """Ids for texts in list order: identical texts get distinct, deterministic ids.

    An id is the first 8 hex digits of a SHA-1 of the normalised text, longer only where two
    different texts of the same batch share the shorter prefix.
    """
    made = IdMaker()
    for text in texts:
        made.add(normalise_for_id(text))
    return made.ids()


class IdMaker:
    """`assign_ids` a text at a time, each given by its `normalise_for_id` key, in list order;
    only the keys' digests are kept (a list's keys are about as large as its text)."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}
        self._digests: list[str] = []

    def __len__(self) -> int:
        return len(self._digests)

    def add(self, key: bytes) -> None:
        """The next text's key."""
        digest = hashlib.sha1(key).hexdigest()
        # A text is known again by its digest: only equal keys have equal SHA-1 digests.
        count = self._seen.get(digest, 0)
        self._seen[digest] = count + 1
        if count:
            # The n-th repeat of a text hashes with its ordinal after a newline, a byte that no
            # normalised text contains, so a salted key can never equal another paper's key.
            digest = hashlib.sha1(key + b"\n%d" % (count + 1)).hexdigest()
        self._digests.append(digest)

    def ids(self) -> list[str]:
        """The ids of the texts added so far."""
        return _shortest_unique(self._digests)


def _shortest_unique(digests: list[str]) -> list[str]:
    length = MIN_ID_LENGTH
    ids = [d[:length] for d in digests]
    while True:
        if len(set(ids)) == len(ids):  # mostly: counting each one is then not needed
            return ids
        clashing = {short for short, n in Counter(ids).items() if n > 1}
        if not clashing or length == len(digests[0]):
            # Only equal SHA-1 digests could clash at full length, and equal keys are salted.
            return ids
        length += 1
        ids = [
            d[:length] if short in clashing else short
            for short, d in zip(ids, digests, strict=True)
        ]

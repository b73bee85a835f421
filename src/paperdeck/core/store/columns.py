"""Papers to stored chunks and back: one NUL-joined UTF-8 column per field, checksummed, and every
value read back checked and cleaned like text from a list (a stored file may be crafted)."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

import xxhash

from paperdeck.core.ids import MIN_ID_LENGTH
from paperdeck.core.model import NO_EXTRA, Paper
from paperdeck.core.text.sanitize import clean_line, clean_text

CHUNK_PAPERS = 256
"""Papers per stored chunk: `show 5` reads one chunk, and no column string grows past ~1 MB
(one character above U+FFFF makes a whole string four bytes a character)."""
SEPARATOR = "\0"
"""Between the values of a column: cleaned text never holds NUL."""
AUTHOR_SEPARATOR = "\x1e"
HEAD_COLUMNS = (
    "ids", "titles", "flags", "methods", "authors", "venues", "years", "urls", "links", "extras",
    "sources", "uncut_titles",
)  # fmt: skip
"""Every column but the abstracts, which are stored apart so listing never reads them."""
_LINE_COLUMNS = frozenset(
    {"ids", "titles", "methods", "venues", "years", "urls", "sources", "uncut_titles"}
)


class Damaged(Exception):
    """A stored chunk that fails its checksum or does not hold what it says."""


@dataclass(frozen=True)
class Chunk:
    """One chunk as stored: the head columns, the abstracts, and a checksum of each."""

    count: int
    head: tuple[bytes, ...]
    abstracts: bytes
    head_sum: int
    abstracts_sum: int


def encode(papers: Sequence[Paper], key: str, number: int) -> Chunk:
    """The stored form of some papers; ValueError when a value holds a separator."""
    columns = {
        "ids": [p.id for p in papers],
        "titles": [p.title for p in papers],
        "flags": ["1" if p.title_derived else "0" for p in papers],
        "methods": [p.method or "" for p in papers],
        "authors": [_join_authors(p.authors) for p in papers],
        "venues": [p.venue or "" for p in papers],
        "years": ["" if p.year is None else str(p.year) for p in papers],
        "urls": [p.url or "" for p in papers],
        "links": ["\n".join(p.links) for p in papers],
        "extras": [json.dumps(p.extra, ensure_ascii=False) if p.extra else "" for p in papers],
        "sources": [p.meta_source for p in papers],
        "uncut_titles": [p.uncut_title or "" for p in papers],
    }
    head = tuple(_join(columns[name]) for name in HEAD_COLUMNS)
    abstracts = _join([p.abstract for p in papers])
    return Chunk(
        len(papers),
        head,
        abstracts,
        _checksum(key, number, len(papers), head),
        _checksum(key, number, len(papers), (abstracts,)),
    )


def decode_head(
    chunk: Chunk, key: str, number: int, first_position: int, list_name: str
) -> list[Paper]:
    """The papers of a stored chunk without their abstracts (each abstract is "")."""
    return decode(chunk, key, number, first_position, list_name, with_abstracts=False)


def decode_ids(chunk: Chunk, key: str, number: int) -> list[str]:
    """The paper ids of a stored chunk, checked like `decode` checks them."""
    check_head(chunk, key, number)
    return _ids(chunk.head[0], chunk.count)


def decode_abstracts(chunk: Chunk, key: str, number: int) -> tuple[list[str], list[str]]:
    """The ids and abstracts of a stored chunk, checked like `decode` checks them, without
    making its papers (a third of the time)."""
    ids = decode_ids(chunk, key, number)
    if _checksum(key, number, chunk.count, (chunk.abstracts,)) != chunk.abstracts_sum:
        raise Damaged("a chunk's checksum")
    return ids, _split(chunk.abstracts, chunk.count, line=False)


def decode_flags(data: bytes, count: int) -> bytes:
    """Per paper of a chunk whose head `decode_ids` checked, 1 when its title was derived."""
    # Each flag is one byte, "0" or "1", and NULs stand between them.
    flags = data[::2]
    if len(data) != 2 * count - 1 or data[1::2].strip(b"\0") or flags.translate(None, b"01"):
        raise Damaged("a title flag")
    return flags.translate(_FLAG_VALUES)


_FLAG_VALUES = bytes.maketrans(b"01", b"\x00\x01")


def decode_titles(data: bytes, count: int) -> list[str]:
    """The titles of a chunk whose head `decode_ids` checked, cleaned as `decode` cleans them."""
    return _split(data, count, line=True)


def check_head(chunk: Chunk, key: str, number: int) -> None:
    """Damaged unless a chunk's count, columns and head checksum hold."""
    if not 0 < chunk.count <= CHUNK_PAPERS or len(chunk.head) != len(HEAD_COLUMNS):
        raise Damaged("a chunk's count or columns")
    if _checksum(key, number, chunk.count, chunk.head) != chunk.head_sum:
        raise Damaged("a chunk's checksum")


def _ids(data: bytes, count: int) -> list[str]:
    ids = _split(data, count, line=True)
    if data.translate(None, _ID_BYTES) or min(map(len, ids)) < MIN_ID_LENGTH:
        raise Damaged("a paper id")
    return ids


def decode(
    chunk: Chunk,
    key: str,
    number: int,
    first_position: int,
    list_name: str,
    *,
    with_abstracts: bool = True,
) -> list[Paper]:
    """The papers of a stored chunk; Damaged unless checksums, counts and values all hold."""
    columns = decode_columns(
        chunk, key, number, first_position, list_name, with_abstracts=with_abstracts
    )
    return _papers(columns)


def decode_columns(
    chunk: Chunk,
    key: str,
    number: int,
    first_position: int,
    list_name: str,
    *,
    with_abstracts: bool = True,
) -> dict[str, Any]:
    """What `decode` checks and makes its papers of: per Paper field, its values in order
    (`paper_at` makes one paper of them)."""
    count = chunk.count
    check_head(chunk, key, number)
    if with_abstracts:
        if _checksum(key, number, count, (chunk.abstracts,)) != chunk.abstracts_sum:
            raise Damaged("a chunk's checksum")
        abstracts = _split(chunk.abstracts, count, line=False)
    else:
        abstracts = [""] * count
    values = {
        name: _split(data, count, line=name in _LINE_COLUMNS, authors=name == "authors")
        for name, data in zip(HEAD_COLUMNS[1:], chunk.head[1:], strict=True)
    }
    values["ids"] = ids = _ids(chunk.head[0], count)
    flags = values["flags"]
    if any(flag not in ("0", "1") for flag in flags):
        raise Damaged("a title flag")
    columns: dict[str, Any] = {
        "id": ids,
        "position": range(first_position, first_position + count),
        "list_name": [list_name] * count,
        "title": values["titles"],
        "title_derived": [flag == "1" for flag in flags],
        "abstract": abstracts,
        "method": [method or None for method in values["methods"]],
        "authors": [_split_authors(text) for text in values["authors"]],
        "venue": [venue or None for venue in values["venues"]],
        "year": [_year(text) for text in values["years"]],
        "url": [url or None for url in values["urls"]],
        "links": [tuple(text.split("\n")) if text else () for text in values["links"]],
        "extra": [_extra(text) for text in values["extras"]],
        # A handful of distinct values: one string each, not one a paper (5 MiB of 100,000).
        "meta_source": [sys.intern(source) for source in values["sources"]],
        "uncut_title": [title or None for title in values["uncut_titles"]],
    }
    return columns


def decode_column(chunk: Chunk, name: str) -> list[str]:
    """One head column of a chunk `check_head` passed, its values checked and cleaned as
    `decode_columns` has them (the authors of a paper still joined by AUTHOR_SEPARATOR)."""
    data = chunk.head[HEAD_COLUMNS.index(name)]
    if name == "ids":
        return _ids(data, chunk.count)
    return _split(data, chunk.count, line=name in _LINE_COLUMNS, authors=name == "authors")


def paper_at(columns: dict[str, Any], at: int) -> Paper:
    """Paper `at` of a chunk's `decode_columns`."""
    return Paper(**{name: columns[name][at] for name in _FIELD_ORDER})


# ---------------------------------------------------------------------------- writing


def _join(values: list[str]) -> bytes:
    text = SEPARATOR.join(values)
    if text.count(SEPARATOR) != len(values) - 1:
        raise ValueError("a value holds the column separator")
    return text.encode("utf-8", "surrogatepass")


def _join_authors(authors: Sequence[str]) -> str:
    if any(AUTHOR_SEPARATOR in name for name in authors):
        raise ValueError("an author name holds the separator")
    return AUTHOR_SEPARATOR.join(authors)


def _checksum(key: str, number: int, count: int, parts: Sequence[bytes]) -> int:
    # The key and chunk number are hashed in, so a chunk moved from another list or another
    # place never passes as this one.
    digest = xxhash.xxh3_64(f"{key}\0{number}\0{count}".encode())
    for part in parts:
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    # SQLite integers are signed 64-bit.
    return digest.intdigest() - (1 << 63)


# ---------------------------------------------------------------------------- reading

_PLAIN_BYTES = bytes(
    b
    for b in range(256)
    if not (b < 0x20 and b not in (0x00, 0x09, 0x0A)) and b not in (0x7F, 0xC2, 0xD8, 0xE2, 0xEF)
)
"""Bytes that are neither an unsafe character nor the lead byte of one (NUL separates values;
surrogates, lead byte ED, never decode)."""
_UNSAFE_AFTER_LEAD = {
    0xC2: re.compile(rb"\xc2[\x80-\x9f]"),
    0xD8: re.compile(rb"\xd8\x9c"),
    0xE2: re.compile(rb"\xe2(?:\x80[\x8e\x8f\xa8-\xae]|\x81[\xa6-\xa9])"),
    0xEF: re.compile(rb"\xef\xbb\xbf"),
}
"""The unsafe characters sanitize.clean_text removes beyond C0 and DEL, as UTF-8: C1, U+061C,
bidi marks and controls, line and paragraph separators, the byte order mark."""


_ID_BYTES = b"0123456789abcdef\0"


def may_hold_unsafe(data: bytes) -> bool:
    """Whether UTF-8 `data` may hold a character clean_text would remove (NUL aside)."""
    leads = data.translate(None, _PLAIN_BYTES)
    if not leads:
        return False
    for lead in set(leads):
        pattern = _UNSAFE_AFTER_LEAD.get(lead)
        if pattern is None or pattern.search(data) is not None:
            return True  # a C0 control or DEL itself, or a lead byte starting an unsafe one
    return False


def _split(data: bytes, count: int, *, line: bool, authors: bool = False) -> list[str]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Damaged("a column that is not UTF-8") from None
    values = text.split(SEPARATOR)
    if len(values) != count:
        raise Damaged("a column's count")
    inner = AUTHOR_SEPARATOR.encode() if authors else b""
    if may_hold_unsafe(data.replace(inner, b"") if authors else data) or (
        line and ("\n" in text or "\t" in text)
    ):
        if authors:
            values = [_join_cleaned(value.split(AUTHOR_SEPARATOR)) for value in values]
        else:
            clean = clean_line if line else clean_text
            values = [clean(value) for value in values]
    return values


def _join_cleaned(names: list[str]) -> str:
    return AUTHOR_SEPARATOR.join(clean_line(name) for name in names)


def _split_authors(text: str) -> tuple[str, ...]:
    return tuple(text.split(AUTHOR_SEPARATOR)) if text else ()


def _year(text: str) -> int | None:
    if not text:
        return None
    if not (text.isascii() and text.isdigit() and len(text) == 4):
        raise Damaged("a year")
    return int(text)


def _extra(text: str) -> Mapping[str, Any]:
    if not text:
        return NO_EXTRA
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise Damaged("extra fields") from None
    if type(value) is not dict:
        raise Damaged("extra fields")
    cleaned = _clean_json(value)
    assert isinstance(cleaned, dict)
    return cleaned


def _clean_json(value: Any) -> Any:
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list):
        return [_clean_json(item) for item in value]
    if isinstance(value, dict):
        return {clean_line(str(k)): _clean_json(v) for k, v in value.items()}
    return value


_FIELD_ORDER = (
    "id", "position", "list_name", "title", "title_derived", "abstract", "method", "authors",
    "venue", "year", "url", "links", "extra", "meta_source", "uncut_title",
)  # fmt: skip
_POSITIONAL = tuple(f.name for f in fields(Paper)) == _FIELD_ORDER


def _papers(columns: dict[str, Any]) -> list[Paper]:
    if _POSITIONAL:
        # Positional arguments make a paper ~1/3 faster than keywords.
        return list(map(Paper, *(columns[name] for name in _FIELD_ORDER)))
    names = list(columns)
    return [Paper(**dict(zip(names, row, strict=True))) for row in zip(*columns.values())]  # noqa: B905

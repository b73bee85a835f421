"""Reading a list: its format from the name or the first bytes, then that format's reader."""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable
from itertools import chain
from pathlib import Path

from paperdeck.core.errors import LoadError
from paperdeck.core.formats.bibtex_lists import read_bib
from paperdeck.core.formats.csv_lists import csv_delimiter, read_csv
from paperdeck.core.formats.decoding import as_utf8_or_legacy, read_bytes
from paperdeck.core.formats.json_lists import read_json, read_jsonl
from paperdeck.core.formats.plain_text import TextParagraphs, read_txt, reads_as_prose
from paperdeck.core.formats.raw_list import FORMAT_NAMES, HEAD_BYTES, RawList
from paperdeck.core.formats.records import names_a_paper
from paperdeck.core.formats.sidecar import SIDECAR_SUFFIX
from paperdeck.core.text.sanitize import clean_line

_EXTENSIONS = {
    ".txt": "txt",
    ".text": "txt",
    ".md": "txt",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
    ".bib": "bib",
    ".bibtex": "bib",
    ".csv": "csv",
    ".tsv": "csv",
}


def looks_like_list(name: str) -> bool:
    """Whether a file's name says it is a paper list (a list's metadata sidecar is not one)."""
    lowered = name.lower()
    return not lowered.endswith(SIDECAR_SUFFIX) and Path(lowered).suffix in _EXTENSIONS


def read_list(path: Path, fmt: str | None = None) -> RawList:
    """Read one paper list; `fmt` (one of FORMAT_NAMES) overrides the extension and sniffing."""
    raw, _ = _read(path, fmt, in_two=False)
    return raw


def open_list(path: Path, fmt: str | None = None) -> tuple[RawList, TextParagraphs | None]:
    """`read_list`, but a plain-text list only up to its papers' ids (and its first papers):
    the TextParagraphs returned then reads the rest of its records."""
    return _read(path, fmt, in_two=True)


def _read(path: Path, fmt: str | None, *, in_two: bool) -> tuple[RawList, TextParagraphs | None]:
    path = Path(path)
    if fmt is not None and fmt not in FORMAT_NAMES:
        raise LoadError(f"{path}: unknown format {fmt!r} (choose from {', '.join(FORMAT_NAMES)})")
    data = read_bytes(path)
    data = as_utf8_or_legacy(path, data)
    fmt = fmt or sniff_format(path, data[:HEAD_BYTES])
    raw = RawList(path, clean_line(path.stem), fmt, None, None, None, [])
    rest = None
    try:
        if in_two and fmt == "txt":
            rest = TextParagraphs(raw, data)
        else:
            _READERS[fmt](raw, data)
    except RecursionError:
        # json and the BibTeX parser recurse on nesting; a hostile file must not crash us.
        raise LoadError(f"{path}: nested too deeply to read") from None
    if not (rest.count if rest is not None else raw.records):
        skipped = [w for w in raw.warnings if w.endswith("; skipped")]
        # The first reason, so that a list nothing of which reads says why without a rerun.
        first = skipped[0].removeprefix(f"{raw.path}:").removesuffix("; skipped") if skipped else ""
        detail = f" ({len(skipped)} skipped; line {first})" if skipped else ""
        raise LoadError(f"{path}: no papers found{detail}")
    if fmt == "txt":
        # Any text file has paragraphs: /etc/passwd opened as one paper. A list is refused
        # only when not one of them reads as an abstract (the first that does ends the look).
        texts = (record["abstract"] for record in raw.records)
        if not any(map(reads_as_prose, chain(texts, rest.texts() if rest else ()))):
            raise LoadError(
                f"{path}: not a paper list (no paragraph of it reads as an abstract; a"
                " plain-text list has one abstract a paragraph)"
            )
    return raw, rest


def sniff_format(path: Path, head: bytes) -> str:
    """The format named by the extension, else guessed from the first bytes of the file."""
    by_extension = _EXTENSIONS.get(path.suffix.lower())
    if by_extension is not None:
        return by_extension
    text = head.removeprefix(codecs.BOM_UTF8).decode("utf-8", errors="replace").lstrip()
    if text.startswith("["):
        return "json"
    if text.startswith("{"):
        first_line = text.split("\n", 1)[0].strip()
        try:
            first = json.loads(first_line)
        except (ValueError, RecursionError):
            return "json"
        return "jsonl" if isinstance(first, dict) and names_a_paper(first) else "json"
    if re.search(r"(?m)^[ \t]*@[A-Za-z]+[ \t]*[{(]", text):
        return "bib"
    first_line = text.split("\n", 1)[0]
    if csv_delimiter(first_line) is not None:
        return "csv"
    return "txt"


_READERS: dict[str, Callable[[RawList, bytes], None]] = {
    "txt": read_txt,
    "jsonl": read_jsonl,
    "json": read_json,
    "bib": read_bib,
    "csv": read_csv,
}

"""What a file about to be replaced holds, in a few words: `40 entries`, `12 lines`."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from paperdeck.core.text.wording import plural

MAX_COUNTED_BYTES = 16 * 1024 * 1024
"""A file larger than this is described by its size: it is not read."""

_BIBTEX_ENTRY = re.compile(r"^[ \t]*@(?!comment\b|string\b|preamble\b)\w+[ \t]*[{(]", re.I | re.M)
_MARKDOWN_ITEM = re.compile(r"^[0-9]+\. ", re.M)
_RIS_RECORD = re.compile(r"^TY  - ", re.M)


def summary(path: Path, fmt: str) -> str:
    """How much the file at `path` holds, read as `fmt` (a reading list's format id):
    entries when they can be counted, else lines, else its size."""
    try:
        size = path.stat().st_size
        if size > MAX_COUNTED_BYTES:
            return f"{size / 1024 / 1024:,.0f} MB"
        text = path.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return "unreadable"
    count = _entries(text, fmt)
    if count is not None:
        return f"{count:,} {'entry' if count == 1 else 'entries'}"
    return plural(len(text.splitlines()), "line")


def _entries(text: str, fmt: str) -> int | None:
    if fmt == "bibtex":
        return len(_BIBTEX_ENTRY.findall(text)) or None
    if fmt == "markdown":
        return len(_MARKDOWN_ITEM.findall(text)) or None
    if fmt == "ris":
        return len(_RIS_RECORD.findall(text)) or None
    if fmt == "json":
        try:
            value = json.loads(text)
        except ValueError:
            return None
        return len(value) if isinstance(value, list) else None
    if fmt == "csv":
        try:
            rows = [row for row in csv.reader(io.StringIO(text)) if row]
        except csv.Error:
            return None
        return max(len(rows) - 1, 0) if rows else None
    return None

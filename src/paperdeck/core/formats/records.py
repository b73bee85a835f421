"""One paper's record from any structured format: keys, authors and year made uniform."""

from __future__ import annotations

import json
import re
from typing import Any

from paperdeck.core.formats.plain_text import join_lines, split_paragraphs
from paperdeck.core.names import NAMES_FIELD, name_from_json, parse_name
from paperdeck.core.text.sanitize import clean_line, clean_text

_KEY_ALIASES = {
    "title": "title",
    "authors": "authors",
    "author": "authors",
    "abstract": "abstract",
    "year": "year",
    "venue": "venue",
    "url": "url",
}
AUTHOR_AND = re.compile(r"\s+and\s+")
_FIRST_YEAR = re.compile(r"(?<![0-9])[0-9]{4}(?![0-9])")


def record_from(obj: dict[Any, Any], where: str, warnings: list[str]) -> dict[str, Any] | None:
    """A normalised record from one JSON object or CSV row, or None (with a warning)."""
    record: dict[str, Any] = {"abstract": ""}
    for key, value in obj.items():
        name = clean_text(str(key))
        canonical = _KEY_ALIASES.get(name.strip().lower())
        if canonical is not None and record.get(canonical):
            # A second key for a field already read ("Title" then "title"): the first wins, and
            # the later one is kept only under a name nothing uses yet.
            canonical = None
        if canonical is None:
            if name not in record:
                record[name] = _clean_value(value)
            continue
        if value is None:
            continue
        if canonical == "abstract":
            if isinstance(value, list):
                value = "\n".join(str(part) for part in value)
            record["abstract"] = unwrap(clean_text(str(value)))
        elif canonical == "authors":
            _set_authors(record, value, where, warnings)
        elif canonical == "year":
            year = parse_year(value)
            if year is None:
                if str(value).strip():
                    warnings.append(f"{where}: year {clean_line(str(value))[:40]!r} ignored")
            else:
                record["year"] = year
        else:
            text = _one_line_text(value)
            if text is None:
                warnings.append(f"{where}: {canonical} {_shown(value)} ignored (not text)")
            elif text:
                record[canonical] = text
    if not record["abstract"] and "title" not in record:
        warnings.append(f"{where}: no abstract or title; skipped")
        return None
    return record


def unwrap(text: str) -> str:
    if "\n" not in text:
        return text.strip()
    return " ".join(join_lines(lines) for lines in split_paragraphs(text))


def _clean_value(value: Any) -> Any:
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list):
        return [_clean_value(item) for item in value]
    if isinstance(value, dict):
        return {clean_text(str(key)): _clean_value(item) for key, item in value.items()}
    return value


def _one_line_text(value: Any) -> str | None:
    """A title, venue or URL given as text, a number, or a list of one string (as Crossref gives
    titles); None for anything else, which would only read as its Python spelling."""
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if isinstance(value, str):
        return clean_line(value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return None


def _shown(value: Any) -> str:
    """A value a warning names: one clean line, short."""
    text = clean_line(json.dumps(value, ensure_ascii=False, default=str))
    return text if len(text) <= 40 else text[:39] + "…"


def _set_authors(record: dict[str, Any], value: Any, where: str, warnings: list[str]) -> None:
    """`authors` as display strings and, where the source gave parts, NAMES_FIELD beside it;
    a value that names no one (a number, a list holding one) is told, not read as a name."""
    if not isinstance(value, str | list | dict) or (
        isinstance(value, list)
        and not all(item is None or isinstance(item, str | dict) for item in value)
    ):
        warnings.append(f"{where}: authors {_shown(value)} ignored (not names)")
        return
    names = _authors(value)
    if not names:
        return
    record["authors"] = [display for display, _ in names]
    if any(parts is not None for _, parts in names):
        record[NAMES_FIELD] = [parts for _, parts in names]


Author = tuple[str, dict[str, str] | None]
"""A name's display string, and its parts when the source gave them."""


def _authors(value: Any) -> list[Author]:
    if isinstance(value, list):
        names = [_author_name(item) for item in value]
    elif isinstance(value, dict):
        names = [_author_name(value)]
    else:
        names = _split_author_string(clean_line(str(value)))
    return [name for name in names if name[0]]


def _author_name(item: Any) -> Author:
    if isinstance(item, dict):
        if "name" in item and not any(key in item for key in ("family", "last", "literal")):
            return _author_name(item["name"])
        name = name_from_json(_clean_value(item))
        return (name.display, name.to_json()) if name is not None else ("", None)
    if not isinstance(item, str):
        return ("", None)
    text = clean_line(item)
    if "," in text:
        # "Kleine Buening, Thomas": the source says where the family name starts.
        return _structured(text)
    return (text, None)


def _structured(text: str) -> Author:
    name = parse_name(text)
    if name.literal:
        return (name.literal, None)
    return (name.display, name.to_json())


def _split_author_string(text: str) -> list[Author]:
    """ "A and B", "A, B and C", "A; B" or "Last, First and Last, First" as names."""
    if not text:
        return []
    parts = [part.strip() for chunk in text.split(";") for part in AUTHOR_AND.split(chunk)]
    parts = [part for part in parts if part]
    if len(parts) > 1 and all(part.count(",") == 1 for part in parts):
        return [_structured(part) for part in parts]
    return [(name.strip(), None) for part in parts for name in part.split(",") if name.strip()]


def parse_year(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 1000 <= value <= 9999 else None
    match = _FIRST_YEAR.search(str(value))
    return int(match.group(0)) if match else None


def names_a_paper(obj: dict[Any, Any]) -> bool:
    return any(str(key).strip().lower() in ("abstract", "title") for key in obj)

"""Candidate records from the web: what every source gives, made safe to show and to store."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from paperdeck.core.enrich.client import PoliteClient
from paperdeck.core.text.sanitize import clean_line, clean_text

MAX_LINE = 1000
"""A title, venue or identifier longer than this is cut (a hostile answer can be huge)."""
MAX_AUTHORS = 200
MAX_ABSTRACT = 20_000

Record = dict[str, Any]


class Garbage(Exception):
    """A source answered something that is not what its API documents."""


class Source(Protocol):
    """A search API that proposes candidate records for a few words of an abstract."""

    name: str
    """The name `--source` takes: openalex, arxiv, s2."""
    label: str
    """The name users read: OpenAlex, arXiv, Semantic Scholar."""
    base_url: str
    max_queries: int
    """Word sets tried per paper: a second set costs arXiv another 3 s, so it tries one."""

    def search(self, client: PoliteClient, words: Sequence[str], limit: int) -> list[Record]:
        """Up to `limit` candidate records (raises Garbage, GaveUp, Unreachable)."""
        ...


def line(value: Any) -> str:
    """One untrusted value as a safe single line ("" for anything that is not text or a number)."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return ""
    return clean_line(str(value))[:MAX_LINE]


def candidate(
    *,
    source: str,
    identifier: Any,
    title: Any,
    abstract: Any,
    authors: Iterable[Any] = (),
    **fields: Any,
) -> Record | None:
    """A clean record, or None when it lacks what matching needs (an id, a title, an abstract)."""
    record: Record = {
        "title": line(title),
        "authors": [name for name in (line(a) for a in _first(authors, MAX_AUTHORS)) if name],
        "abstract": clean_text(abstract)[:MAX_ABSTRACT] if isinstance(abstract, str) else "",
    }
    for key, value in fields.items():
        if key == "year":
            year = value if isinstance(value, int) and not isinstance(value, bool) else None
            if year is not None and 1000 <= year <= 9999:
                record["year"] = year
        elif text := line(value):
            record[key] = text
    ident = line(identifier)
    if not ident or not record["title"] or not record["abstract"]:
        return None
    record["online"] = {"source": source, "id": ident}
    return record


def _first(values: Iterable[Any], count: int) -> list[Any]:
    out: list[Any] = []
    for value in values:
        if len(out) >= count:
            break
        out.append(value)
    return out


def as_list(value: Any, what: str) -> list[Any]:
    """`value` when the API gave a list where it documents one; else the answer is garbage."""
    if not isinstance(value, list):
        raise Garbage(f"no {what} list in the answer")
    return value


def as_objects(value: Any, what: str) -> list[dict[str, Any]]:
    """`as_list`, of JSON objects only: an item of another type means the answer is garbage
    (dropped alone, it would leave the paper counted as unmatched without a word)."""
    items = as_list(value, what)
    if not all(isinstance(item, dict) for item in items):
        raise Garbage(f"{what} that are not objects in the answer")
    return items


def json_object(text: str) -> dict[str, Any]:
    """The JSON object a source answered; Garbage when it is cut short or not an object."""
    try:
        body = json.loads(text)
    except ValueError:
        raise Garbage("truncated or invalid JSON") from None
    if not isinstance(body, dict):
        raise Garbage("the answer is not a JSON object")
    return body

"""The arXiv API: candidates from its Atom feed for a few words of an abstract."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from xml.etree.ElementTree import Element

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError, fromstring

from paperdeck.core.enrich.candidates import Garbage, Record, candidate
from paperdeck.core.enrich.client import PoliteClient

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
MAX_PAGES = 3
_VERSION = re.compile(r"v\d+$")


@dataclass
class Arxiv:
    """GET /query?search_query=all:w1 AND all:w2 ...; arXiv asks for one request every 3 s."""

    base_url: str
    interval: float = 3.0
    max_queries: int = 1
    name: str = "arxiv"
    label: str = "arXiv"

    def search(self, client: PoliteClient, words: Sequence[str], limit: int) -> list[Record]:
        query = " AND ".join(f"all:{word}" for word in words)
        found: list[Record] = []
        start = 0
        for _ in range(MAX_PAGES):
            params: dict[str, str | int] = {
                "search_query": query,
                "start": start,
                "max_results": limit - len(found),
            }
            response = client.get(
                self.label, f"{self.base_url}/query", params, interval=self.interval
            )
            feed = _feed(response.text)
            entries = feed.findall(f"{ATOM}entry")
            for entry in entries:
                entry_id = _text(entry, f"{ATOM}id")
                if "/api/errors" in entry_id:
                    raise Garbage("arXiv: " + (_text(entry, f"{ATOM}summary") or "an error"))
                record = entry_record(entry)
                if record is not None:
                    found.append(record)
            start += len(entries)
            total = _int(_text(feed, f"{OPENSEARCH}totalResults"))
            if not entries or len(found) >= limit or total is None or start >= total:
                break
        return found[:limit]


def _feed(text: str) -> Element:
    try:
        feed: Element = fromstring(text)
    except (ParseError, DefusedXmlException, ValueError):
        raise Garbage("not an Atom feed") from None
    if feed.tag != f"{ATOM}feed":
        raise Garbage("not an Atom feed")
    return feed


def entry_record(entry: Element) -> Record | None:
    """A candidate from one Atom entry of an arXiv answer."""
    entry_id = _text(entry, f"{ATOM}id")
    arxiv_id = _VERSION.sub("", entry_id.rsplit("/abs/", 1)[-1]) if "/abs/" in entry_id else ""
    published = _text(entry, f"{ATOM}published")
    year = _int(published[:4])
    return candidate(
        source="arXiv",
        identifier=arxiv_id,
        title=_text(entry, f"{ATOM}title"),
        abstract=_text(entry, f"{ATOM}summary"),
        authors=[_text(author, f"{ATOM}name") for author in entry.findall(f"{ATOM}author")],
        year=year,
        doi=_text(entry, f"{ARXIV}doi") or None,
        journal_ref=_text(entry, f"{ARXIV}journal_ref") or None,
        url=f"https://arxiv.org/abs/{arxiv_id}" if arxiv_id else None,
        arxiv=f"https://arxiv.org/abs/{arxiv_id}" if arxiv_id else None,
    )


def _text(element: Element, tag: str) -> str:
    found = element.find(tag)
    return " ".join((found.text or "").split()) if found is not None else ""


def _int(text: Any) -> int | None:
    return int(text) if isinstance(text, str) and text.strip().isdigit() else None

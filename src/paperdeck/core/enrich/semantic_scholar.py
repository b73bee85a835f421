"""Semantic Scholar paper search: candidates for a few words of an abstract."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from paperdeck.core.enrich.candidates import Record, as_objects, candidate, json_object
from paperdeck.core.enrich.client import PoliteClient

FIELDS = "title,abstract,authors,year,venue,externalIds,url"
MAX_PAGES = 3


@dataclass
class SemanticScholar:
    """GET /paper/search?query=...&fields=...; without a key the shared pool is slow."""

    base_url: str
    api_key: str | None = None
    interval: float = 1.0
    max_queries: int = 2
    name: str = "s2"
    label: str = "Semantic Scholar"

    def search(self, client: PoliteClient, words: Sequence[str], limit: int) -> list[Record]:
        headers = {"x-api-key": self.api_key} if self.api_key else None
        found: list[Record] = []
        offset = 0
        for _ in range(MAX_PAGES):
            params: dict[str, str | int] = {
                "query": " ".join(words),
                "fields": FIELDS,
                "offset": offset,
                "limit": limit - len(found),
            }
            response = client.get(
                self.label,
                f"{self.base_url}/paper/search",
                params,
                headers=headers,
                interval=self.interval,
            )
            body = json_object(response.text)
            data = as_objects(body.get("data", []), "data")
            found.extend(record for record in map(paper_record, data) if record is not None)
            following = body.get("next")
            if not data or len(found) >= limit or not isinstance(following, int):
                break
            offset = following
        return found[:limit]


def paper_record(paper: Any) -> Record | None:
    """A candidate from one Semantic Scholar paper object."""
    if not isinstance(paper, dict):
        return None
    ids = paper.get("externalIds")
    ids = ids if isinstance(ids, dict) else {}
    arxiv_id = ids.get("ArXiv")
    authors = [a.get("name") for a in paper.get("authors") or [] if isinstance(a, dict)]
    return candidate(
        source="Semantic Scholar",
        identifier=paper.get("paperId"),
        title=paper.get("title"),
        abstract=paper.get("abstract"),
        authors=authors,
        year=paper.get("year"),
        venue=paper.get("venue") or None,
        doi=ids.get("DOI"),
        url=paper.get("url"),
        arxiv=f"https://arxiv.org/abs/{arxiv_id}" if isinstance(arxiv_id, str) else None,
        s2=paper.get("paperId"),
    )

"""OpenAlex works search: candidates for a few words of an abstract, abstracts rebuilt."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from paperdeck.core.enrich.candidates import Record, as_objects, candidate, json_object
from paperdeck.core.enrich.client import PoliteClient

SELECT = (
    "id,doi,display_name,publication_year,authorships,primary_location,biblio,"
    "abstract_inverted_index"
)
MAX_PAGES = 3
MAX_WORDS = 20_000
"""An inverted index placing a word past this position is not an abstract."""
_REPOSITORY_TYPES = frozenset({"repository"})
"""A preprint server is where a paper sits, not the venue it appeared at."""


@dataclass
class OpenAlex:
    """GET /works with `filter=title_and_abstract.search:` (a filter costs less than `search`)."""

    base_url: str
    email: str | None = None
    api_key: str | None = None
    interval: float = 0.1
    """The polite pool allows ten requests a second."""
    max_queries: int = 2
    name: str = "openalex"
    label: str = "OpenAlex"

    def search(self, client: PoliteClient, words: Sequence[str], limit: int) -> list[Record]:
        params: dict[str, str | int] = {
            "filter": "title_and_abstract.search:" + " ".join(words),
            "select": SELECT,
            "per-page": limit,
        }
        if self.email:
            params["mailto"] = self.email
        if self.api_key:
            params["api_key"] = self.api_key
        found: list[Record] = []
        for page in range(1, MAX_PAGES + 1):
            params["page"] = page
            response = client.get(
                self.label, f"{self.base_url}/works", params, interval=self.interval
            )
            body = json_object(response.text)
            results = as_objects(body.get("results"), "results")
            found.extend(record for record in map(work_record, results) if record is not None)
            meta = body.get("meta")
            meta = meta if isinstance(meta, dict) else {}
            count, per_page = meta.get("count"), meta.get("per_page")
            per_page = per_page if isinstance(per_page, int) and per_page > 0 else len(results)
            # A server may hold pages shorter than asked; more pages follow while count says so.
            if not results or len(found) >= limit or not isinstance(count, int):
                break
            if page * per_page >= count:
                break
        return found[:limit]


def work_record(work: Any) -> Record | None:
    """A candidate from one OpenAlex Work object (None when it has no abstract)."""
    if not isinstance(work, dict):
        return None
    identifier = str(work.get("id") or "").rsplit("/", 1)[-1]
    authors = [
        (authorship.get("author") or {}).get("display_name")
        for authorship in work.get("authorships") or []
        if isinstance(authorship, dict) and isinstance(authorship.get("author") or {}, dict)
    ]
    location = work.get("primary_location")
    location = location if isinstance(location, dict) else {}
    venue_source = location.get("source")
    venue_source = venue_source if isinstance(venue_source, dict) else {}
    repository = venue_source.get("type") in _REPOSITORY_TYPES
    venue = None if repository else venue_source.get("display_name")
    biblio = work.get("biblio")
    biblio = biblio if isinstance(biblio, dict) else {}
    first, last = biblio.get("first_page"), biblio.get("last_page")
    pages = f"{first}--{last}" if first and last and first != last else first or None
    doi = str(work.get("doi") or "")
    return candidate(
        source="OpenAlex",
        identifier=identifier,
        title=work.get("display_name") or work.get("title"),
        abstract=rebuild_abstract(work.get("abstract_inverted_index")),
        authors=authors,
        year=work.get("publication_year"),
        venue=venue,
        pages=pages,
        doi=doi.removeprefix("https://doi.org/") if doi else None,
        url=location.get("landing_page_url") or work.get("id"),
        openalex=identifier,
    )


def rebuild_abstract(index: Any) -> str:
    """The text an inverted index ({word: [positions]}) stands for ("" when it is not one)."""
    if not isinstance(index, Mapping):
        return ""
    placed: dict[int, str] = {}
    for word, positions in index.items():
        if not isinstance(word, str) or not isinstance(positions, list):
            return ""
        for position in positions:
            if not isinstance(position, int) or not 0 <= position < MAX_WORDS:
                return ""
            placed[position] = word
    return " ".join(placed[position] for position in sorted(placed))

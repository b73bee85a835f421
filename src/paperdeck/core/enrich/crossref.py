"""Crossref: the DOI, venue and pages of a paper whose title and authors are already known."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from paperdeck.core.enrich.candidates import Garbage, Record, as_objects, json_object, line
from paperdeck.core.enrich.client import PoliteClient
from paperdeck.core.enrich.matcher import normalise_abstract
from paperdeck.core.names import NAMES_FIELD, name_from_json

ROWS = 5
SELECT = "DOI,title,container-title,page,author,type"


@dataclass
class Crossref:
    """GET /works?query.bibliographic=TITLE; an item counts only with the very same title and
    (when both have authors) the same first author's family name."""

    base_url: str
    email: str | None = None
    interval: float = 0.1
    name: str = "crossref"
    label: str = "Crossref"

    def details(self, client: PoliteClient, title: str, authors: Sequence[str]) -> Record | None:
        """{"doi", "venue", "pages"} (those it has) of the work with this title, else None;
        with NAMES_FIELD, where Crossref gives `authors` in parts."""
        params: dict[str, str | int] = {
            "query.bibliographic": title,
            "rows": ROWS,
            "select": SELECT,
        }
        if self.email:
            params["mailto"] = self.email
        response = client.get(self.label, f"{self.base_url}/works", params, interval=self.interval)
        message = json_object(response.text).get("message")
        if not isinstance(message, dict):
            raise Garbage("no message in the answer")
        wanted = normalise_abstract(title)
        for item in as_objects(message.get("items"), "items"):
            if _same_work(item, wanted, authors):
                return _details(item, authors)
        return None


def _same_work(item: dict[str, Any], wanted: str, authors: Sequence[str]) -> bool:
    titles = item.get("title")
    title = titles[0] if isinstance(titles, list) and titles else titles
    if not wanted or normalise_abstract(line(title)) != wanted:
        return False
    people = item.get("author")
    first = people[0] if isinstance(people, list) and people else None
    family = normalise_abstract(line(first.get("family"))) if isinstance(first, dict) else ""
    if not authors or not family:
        return True
    return family in normalise_abstract(authors[0])


def _details(item: dict[str, Any], authors: Sequence[str]) -> Record:
    venues = item.get("container-title")
    venue = venues[0] if isinstance(venues, list) and venues else venues
    found: Record = {}
    for key, value in (("doi", item.get("DOI")), ("venue", venue), ("pages", item.get("page"))):
        if text := line(value):
            found[key] = text
    parts = name_parts(item.get("author"), authors)
    if parts is not None:
        found[NAMES_FIELD] = parts
    return found


def name_parts(people: Any, authors: Sequence[str]) -> list[dict[str, str] | None] | None:
    """For each of `authors` (a record's flat names) its given and family parts as Crossref
    splits the same name ("Manuel" and "Gomez Rodriguez", which no parser can tell from
    "Daniel Alexander" and "Braun"), in the record's own spelling; None for a name Crossref
    spells otherwise, and None in all when it lists other people or says nothing of use."""
    if not isinstance(people, list) or len(people) != len(authors) or not authors:
        return None
    out: list[dict[str, str] | None] = []
    for person, display in zip(people, authors, strict=True):
        out.append(_split_as(person, display) if isinstance(person, dict) else None)
    return out if any(parts is not None for parts in out) else None


def _split_as(person: dict[str, Any], display: str) -> dict[str, str] | None:
    given, family = (
        normalise_abstract(line(person.get("given"))),
        normalise_abstract(line(person.get("family"))),
    )
    words = display.split()
    if not given or not family or len(words) < 2:
        return None
    for cut in range(1, len(words)):
        if (
            normalise_abstract(" ".join(words[:cut])) == given
            and normalise_abstract(" ".join(words[cut:])) == family
        ):
            name = name_from_json({"given": " ".join(words[:cut]), "family": " ".join(words[cut:])})
            return name.to_json() if name is not None and name.display == display else None
    return None

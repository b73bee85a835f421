"""Facts about proceedings (booktitle, editors, volume ...) by venue and year, from venues.json."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from paperdeck.core.names import PersonName, parse_name


@dataclass(frozen=True)
class Edition:
    """One year of one venue, as venues.json tells it."""

    short: str
    name: str
    year: int
    booktitle: str
    series: str | None = None
    series_short: str | None = None
    volume: str | None = None
    publisher: str | None = None
    editors: tuple[PersonName, ...] = ()
    location: str | None = None
    start: str | None = None
    end: str | None = None


@lru_cache(maxsize=1)
def _venue_table() -> tuple[dict[str, Any], ...]:
    source = resources.files("paperdeck.core.citations").joinpath("venues.json")
    return tuple(json.loads(source.read_text(encoding="utf-8"))["venues"])


_YEAR_IN_TEXT = re.compile(r"\b(19|20)\d\d\b")


def venue_edition(venue: str | None, year: int | None) -> Edition | None:
    """The facts about `venue` in `year` ("ICML", 2026), or None when venues.json has none."""
    if not venue:
        return None
    entry = _venue_entry(venue)
    if entry is None:
        return None
    if year is None and (found := _YEAR_IN_TEXT.search(venue)):
        year = int(found.group(0))
    facts = entry["editions"].get(str(year))
    if facts is None or year is None:
        return None
    return Edition(
        short=entry["short"],
        name=entry["name"],
        year=year,
        booktitle=facts["booktitle"],
        series=facts.get("series"),
        series_short=facts.get("series_short"),
        volume=facts.get("volume"),
        publisher=facts.get("publisher"),
        editors=tuple(parse_name(name) for name in facts.get("editors", ())),
        location=facts.get("location"),
        start=facts.get("start"),
        end=facts.get("end"),
    )


def known_venue_name(venue: str) -> str | None:
    """The full name of a venue venues.json knows ("ICML" -> "International Conference ...")."""
    entry = _venue_entry(venue)
    return str(entry["name"]) if entry is not None else None


# What may surround a venue's name: "Proceedings of the 38th ...", a year. Anything more (a
# workshop, a findings track) is another venue, whose facts venues.json does not hold.
_VENUE_FRAME = re.compile(r"(?:proceedings of (?:the )?(?:(?:st|nd|rd|th) )?)?(?P<name>.+)")


def _folded(text: str) -> str:
    return " ".join(re.findall(r"[a-z]+", text.casefold()))


def _venue_entry(venue: str) -> dict[str, Any] | None:
    # "... Machine Learning (ICML 2021)": a bracketed short name of the same venue may follow.
    bracketed = re.search(r"\s*\(([^()]*)\)\s*$", venue)
    for entry in _venue_table():
        aliases = entry["aliases"]
        same_venue = bracketed is not None and _folded(bracketed.group(1)) in aliases
        bare = venue[: bracketed.start()] if bracketed is not None and same_venue else venue
        framed = _VENUE_FRAME.fullmatch(_folded(bare))
        if framed is not None and framed.group("name") in aliases:
            return entry
    return None

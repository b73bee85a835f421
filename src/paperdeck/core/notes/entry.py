"""One paper's note entry: what the user keeps about it, and how its parts are normalised."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from paperdeck.core import model
from paperdeck.core.model import Paper
from paperdeck.core.text.fold import fold
from paperdeck.core.text.sanitize import clean_line

ReadingState = model.ReadingState
STATES: tuple[str, ...] = ("unread", "reading", "read")
EXCERPT_CHARS = 200
_FINGERPRINT_CHARS = 120
FIELD_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,39}")
"""What a correctable metadata field is called."""
# The same name as citations.CITATION_KEY_FIELD; the notes know it without importing citations.
CITATION_KEY = "citation_key"


@dataclass(frozen=True, slots=True)
class NoteEntry:
    """What the user keeps about one paper (satisfies `paperdeck.core.model.Annotation`)."""

    paper_id: str
    note: str = ""
    tags: tuple[str, ...] = ()
    state: str = "unread"
    starred: bool = False
    created: float = 0.0
    updated: float = 0.0
    """Epoch seconds of the last change."""
    corrections: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """The user's fixes to the paper's metadata: "title", "authors" (a list), "url" ..."""
    excerpt: str = ""
    """The start of the paper's abstract, so the file reads well and orphans can re-attach."""
    list_name: str = ""

    @property
    def is_empty(self) -> bool:
        """Nothing worth keeping: no note, tags, corrections, star, and unread."""
        return (
            not self.note
            and not self.tags
            and self.state == "unread"
            and not self.starred
            and not self.corrections
        )


def normalise_tag(text: str) -> str:
    """A tag as stored: one line, inner whitespace made "-", no leading "#", "+" or "-"."""
    tag = clean_line(text).lstrip("#+-").strip()
    return re.sub(r"\s+", "-", tag)


def excerpt_of(paper: Paper) -> str:
    """The first ~200 characters of the abstract (the title when there is none), one line."""
    text = clean_line(paper.abstract or paper.title)
    if len(text) <= EXCERPT_CHARS:
        return text
    cut = text[:EXCERPT_CHARS]
    # End on a whole word when one ends in the last quarter, so the file reads well.
    space = cut.rfind(" ", EXCERPT_CHARS * 3 // 4)
    return (cut[:space] if space > 0 else cut).rstrip()


def fingerprint(excerpt: str) -> str:
    """What re-attaching compares: the excerpt without case, spacing, punctuation or markup."""
    # Only excerpts are stored, and both sides of a comparison are fingerprinted afresh.
    return fold(excerpt).replace(" ", "")[:_FINGERPRINT_CHARS]


def clean_correction(value: Any) -> Any | None:
    """A correction as stored: a one-line string or a list of them; None when empty."""
    if value is None:
        return None
    if isinstance(value, str):
        return clean_line(value) or None
    if isinstance(value, list | tuple) and all(isinstance(item, str) for item in value):
        items = [clean_line(item) for item in value]
        return [item for item in items if item] or None
    return None


def unique_tags(tags: Iterable[str]) -> tuple[str, ...]:
    """Tags normalised, without duplicates (ignoring case), in their first order."""
    seen: dict[str, str] = {}
    for raw in tags:
        tag = normalise_tag(raw)
        if tag and tag.casefold() not in seen:
            seen[tag.casefold()] = tag
    return tuple(seen.values())

"""A paper as the user corrected it in the notes store: the title and authors every place that
shows a paper's shows (the list's rows, the detail pane, the CLI's lines)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from paperdeck.core.model import Paper
from paperdeck.core.names import NAMES_FIELD, parse_name

_AUTHOR_SPLIT = re.compile(r"\s+and\s+|;|\n")


def author_parts(value: Any) -> list[str]:
    """The names a correction of the authors gives, as written: "A and B", "Family, Given;
    ...", or a list; [] when it gives none."""
    if isinstance(value, str):
        parts = _AUTHOR_SPLIT.split(value)
    elif isinstance(value, Sequence):
        parts = [str(name) for name in value]
    else:
        return []
    return [part.strip() for part in parts if part.strip()]


def corrected_authors(value: Any) -> tuple[str, ...]:
    """The authors a correction gives, each given names first as a paper's are ("Doe, Jane"
    reads "Jane Doe"); () when it gives none."""
    names = (parse_name(part) for part in author_parts(value))
    return tuple(name.display for name in names if name.display)


def has_shown_correction(corrections: Mapping[str, Any]) -> bool:
    """Whether the corrections change what a paper's row shows (its title or authors)."""
    return bool(corrections.get("title") or corrections.get("authors"))


def corrected_title(corrections: Mapping[str, Any]) -> str:
    """The title the user corrected a paper to, "" when they did not."""
    title = corrections.get("title")
    return title if isinstance(title, str) else ""


def corrected_paper(paper: Paper, corrections: Mapping[str, Any]) -> Paper:
    """The paper with the title and authors the user corrected it to; the paper itself when
    they corrected neither. A corrected title is the user's, not made up: no marker says so."""
    changes: dict[str, Any] = {}
    title = corrected_title(corrections)
    if title:
        changes.update(title=title, title_derived=False, uncut_title=None)
    authors = corrected_authors(corrections.get("authors"))
    if authors:
        changes["authors"] = authors
        if NAMES_FIELD in paper.extra:
            # The list's parts of its own names would be read for the corrected ones.
            extra = {key: value for key, value in paper.extra.items() if key != NAMES_FIELD}
            changes["extra"] = MappingProxyType(extra)
    return paper.with_changes(**changes) if changes else paper

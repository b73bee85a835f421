"""Fixtures shared by the command tests."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import pytest

if TYPE_CHECKING:
    from paperdeck.core.model import Paper

SAMPLE = Path(__file__).parents[1] / "data" / "abstracts_sample.txt"


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    """A notes file of the test's own (not made until a command writes it)."""
    return tmp_path / "notes.json"


class Corrected(NamedTuple):
    """A paper of SAMPLE with a made-up title, and the title and authors the user gave it."""

    paper: Paper
    title: str
    authors: str


@pytest.fixture
def corrected(notes: Path) -> Corrected:
    """SAMPLE's 41st paper (made up "The quadratic problems") with its real title and authors
    written in `notes` as the user's corrections."""
    from paperdeck.core.library import load_library
    from paperdeck.core.notes.store import NotesStore

    paper = load_library([SAMPLE]).papers[40]
    store = NotesStore(notes)
    fixed = Corrected(
        paper,
        "A Modular Analysis of Provable Acceleration via Polyak's Momentum",
        "Wang, Jun-Kun and Abernethy, Jacob",
    )
    store.set_correction(paper, "title", fixed.title)
    store.set_correction(paper, "authors", fixed.authors)
    store.save()
    return fixed

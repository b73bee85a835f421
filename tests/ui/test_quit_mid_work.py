"""Quitting while a search is part way through its slices ends the reader cleanly: the slices
left do not reach for widgets that are gone (the test fails without the guard)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from paperdeck.core.library import Library, load_library
from paperdeck.core.notes.store import NotesStore
from paperdeck.core.resources import bundled_list
from paperdeck.ui.app import PaperdeckApp

PAPERS = 3000


@pytest.fixture
def big_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Library:
    monkeypatch.setenv("PAPERDECK_CACHE", "off")
    text = bundled_list().read_text(encoding="utf-8")
    abstracts = [part.strip() for part in text.split("\n\n")[1:] if part.strip()]
    papers = [f"{abstracts[i % len(abstracts)]} (Variant {i}.)" for i in range(PAPERS)]
    path = tmp_path / "big.txt"
    path.write_text("A big list\n\n" + "\n\n".join(papers) + "\n", encoding="utf-8")
    return load_library([path])


async def quit_after(tmp_path: Path, library: Library, slices: int, query: str) -> None:
    app = PaperdeckApp(
        library, NotesStore(tmp_path / "notes.json"), settings_file=tmp_path / "settings.json"
    )
    # run_test raises on leaving what a worker raised while the reader shut down.
    async with app.run_test(size=(120, 40)):
        if query:
            app.search.query_changed(query)
        for _ in range(slices):
            await asyncio.sleep(0)


async def test_quitting_while_a_query_is_searched_ends_cleanly(
    tmp_path: Path, big_library: Library
) -> None:
    # Where in the build and the search the quit lands depends on the machine: try many.
    for slices in range(0, 40, 2):
        await quit_after(tmp_path, big_library, slices, "graph")

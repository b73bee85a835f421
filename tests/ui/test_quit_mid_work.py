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


async def test_keys_typed_behind_q_leave_the_closing_reader_alone(tmp_path: Path) -> None:
    """ "question" typed with the list focused (the search not opened): q quit, and the e
    behind it opened the export dialog on the closing reader, which stopped on an internal
    error (exit status 1, a crash report) instead of quitting."""
    import json

    from textual import events

    from paperdeck.core.config import sessions_path

    settings = tmp_path / "settings.json"
    app = PaperdeckApp(
        load_library([bundled_list()]), NotesStore(tmp_path / "notes.json"), settings_file=settings
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app._driver is not None
        for character in "question":
            app._driver.send_message(events.Key(character, character))
        for _ in range(100):
            if not app.is_running:
                break
            await asyncio.sleep(0.02)
    assert app.return_code == 0
    saved = json.loads(sessions_path(settings).read_text(encoding="utf-8"))
    (session,) = saved["lists"].values()
    assert session["views"] == [] and session["marked"] == []

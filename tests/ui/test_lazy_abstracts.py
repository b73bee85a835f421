"""The reader on a library opened without abstracts: the detail pane and the notes still get
each paper's own abstract, read back from the list store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from paperdeck.core.library import Library, load_library
from paperdeck.core.notes.entry import excerpt_of
from paperdeck.core.notes.store import NotesStore
from paperdeck.core.resources import bundled_list
from paperdeck.core.text.render import render_abstract
from paperdeck.ui.app import PaperdeckApp


@pytest.fixture
def lists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Library, Library]:
    """A 300-paper list read whole (and so stored), then reopened without abstracts."""
    monkeypatch.setenv("PAPERDECK_CACHE", str(tmp_path / "cache"))
    text = bundled_list().read_text(encoding="utf-8")
    abstracts = [part.strip() for part in text.split("\n\n")[1:] if part.strip()]
    papers = [f"{abstracts[i % len(abstracts)]} (Variant {i}.)" for i in range(300)]
    path = tmp_path / "long.txt"
    path.write_text("A long list\n\n" + "\n\n".join(papers) + "\n", encoding="utf-8")
    whole = load_library([path])
    light = load_library([path], abstracts=False)
    assert not light.abstracts_loaded
    return whole, light


def make_app(library: Library, tmp_path: Path) -> PaperdeckApp:
    store = NotesStore(tmp_path / "notes.json")
    return PaperdeckApp(library, store, settings_file=tmp_path / "settings.json")


def shown_abstract_start(abstract: str) -> str:
    return " ".join(render_abstract(abstract).text.split()[:6])


def pane_text(app: PaperdeckApp) -> str:
    return " ".join(app.detail.content.plain.split())


async def settle(app: PaperdeckApp, pilot: Any) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_the_detail_pane_shows_each_papers_abstract_read_back(
    lists: tuple[Library, Library], tmp_path: Path
) -> None:
    whole, light = lists
    app = make_app(light, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert shown_abstract_start(whole.papers[0].abstract) in pane_text(app)
        await pilot.press("j", "j")
        await pilot.pause(0.2)
        await settle(app, pilot)
        assert app.paper_list.paper_index == 2
        assert shown_abstract_start(whole.papers[2].abstract) in pane_text(app)
        assert "(Variant 2.)" in pane_text(app)
        # The papers of the list stay without: only the pane's copy has it.
        assert app.papers[2].abstract == ""


async def test_read_and_notes_keep_the_abstracts_excerpt(
    lists: tuple[Library, Library], tmp_path: Path
) -> None:
    whole, light = lists
    app = make_app(light, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("r")  # read, and on to the second paper
        await settle(app, pilot)
        entry = app.store.get(whole.papers[0].id)
        assert entry is not None and entry.state == "read"
        assert entry.excerpt == excerpt_of(whole.papers[0])
        # Every paper of the list marked, then starred at once: each its own excerpt.
        await pilot.press("a", "s")
        await settle(app, pilot)
        entries = app.store.entries
        assert len(entries) == 300
        assert all(entries[p.id].excerpt == excerpt_of(p) for p in whole.papers)
    reads = light.abstract_reader().reads
    assert reads <= 4  # two chunks, each read once for the bulk star (and the pane's)

"""SVG snapshots of the reader: the main screen, a search, and the narrow layout."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from paperdeck.core.library import load_library
from paperdeck.core.notes.store import NotesStore
from paperdeck.core.resources import bundled_list
from paperdeck.ui.app import PaperdeckApp

SnapCompare = Callable[..., bool]


def reader(tmp_path: Path) -> PaperdeckApp:
    return PaperdeckApp(load_library([bundled_list()]), NotesStore(tmp_path / "notes.json"))


async def settle(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, PaperdeckApp)
    app.search_box.cursor_blink = False
    app.notes.editor.cursor_blink = False
    await app.workers.wait_for_complete()
    await pilot.pause()


def test_main_screen(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("j", "j", "j", "s")
        await settle(pilot)

    assert snap_compare(reader(tmp_path), terminal_size=(120, 36), run_before=run_before)


def test_search(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("slash", *"speculative", "space", *"decoding")
        await settle(pilot)

    assert snap_compare(reader(tmp_path), terminal_size=(120, 36), run_before=run_before)


def test_narrow_layout(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("j")
        await settle(pilot)

    assert snap_compare(reader(tmp_path), terminal_size=(80, 24), run_before=run_before)

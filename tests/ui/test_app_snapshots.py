"""SVG snapshots of the reader: two-line rows with visible matches at 80x24, 120x40 and 200x60
in a dark and a light theme, compact rows, a note written at 80x24, and the help screen."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
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


def keys(text: str) -> Iterable[str]:
    return [{" ": "space"}.get(c, c) for c in text]


def searched(theme: str, *more: str) -> Callable[[Pilot[Any]], Any]:
    """Star a paper, tag it, then search "learning" (matches in many titles) and go back to
    the list."""

    async def run_before(pilot: Pilot[Any]) -> None:
        pilot.app.theme = theme
        await settle(pilot)
        await pilot.press("j", "s", "t", *keys("to-read"), "enter")
        await settle(pilot)
        await pilot.press("slash", *keys("learning"))
        await settle(pilot)
        await pilot.press("enter", *more)
        await settle(pilot)

    return run_before


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
def test_search_rows_dark(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    app = reader(tmp_path)
    assert snap_compare(app, terminal_size=size, run_before=searched("textual-dark"))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_search_rows_light(
    snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]
) -> None:
    app = reader(tmp_path)
    assert snap_compare(app, terminal_size=size, run_before=searched("textual-light"))


def test_compact_rows(snap_compare: SnapCompare, tmp_path: Path) -> None:
    app = reader(tmp_path)
    assert snap_compare(app, terminal_size=(120, 40), run_before=searched("textual-dark", "z"))


def test_writing_a_note_at_80x24(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("j", "n", *keys("read the proofs"))
        await settle(pilot)

    assert snap_compare(reader(tmp_path), terminal_size=(80, 24), run_before=run_before)


def test_help(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)

    assert snap_compare(reader(tmp_path), terminal_size=(120, 40), run_before=run_before)

"""The notes panel follows the notes file when another paperdeck (the CLI) changed it."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from tests.ui.test_app import settle, type_text
from textual import events

from paperdeck.core.library import load_library
from paperdeck.core.notes.store import NotesStore
from paperdeck.core.resources import bundled_list
from paperdeck.ui.app import PaperdeckApp


def make(tmp_path: Path, poll: float) -> PaperdeckApp:
    library = load_library([bundled_list()])
    return PaperdeckApp(
        library,
        NotesStore(tmp_path / "notes.json"),
        settings_file=tmp_path / "settings.json",
        autosave_delay=30.0,
        notes_poll=poll,
    )


async def until(pilot: object, done: Callable[[], bool]) -> None:
    """Wait for the timers (autosave, the notes file's poll) to have done their work."""
    deadline = time.monotonic() + 30
    while not done() and time.monotonic() < deadline:
        await pilot.pause(0.05)  # type: ignore[attr-defined]
    assert done()


def elsewhere(tmp_path: Path, app: PaperdeckApp, index: int, note: str, star: bool = False) -> None:
    """What `paperdeck note REF --set` does in another process: its own store, saved."""
    other = NotesStore(tmp_path / "notes.json")
    other.set_note(app.papers[index], note)
    if star:
        other.set_starred(app.papers[index], True)
    other.save()


async def test_a_note_changed_by_another_process_shows_in_the_panel(tmp_path: Path) -> None:
    app = make(tmp_path, poll=0.2)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        await type_text(pilot, "first thoughts")
        await pilot.press("escape")
        assert app.notes.editor.text == "first thoughts"
        elsewhere(tmp_path, app, 0, "first thoughts\nadded from the CLI", star=True)
        await pilot.pause(0.6)
        assert app.notes.editor.text == "first thoughts\nadded from the CLI"
        assert "★ starred" in str(app.query_one("#notes-status").render())
        assert "★" in app.paper_list.row_text(0)
        assert "1 starred" in str(app.query_one("#header").render())


async def test_the_text_being_typed_is_never_replaced(tmp_path: Path) -> None:
    app = make(tmp_path, poll=0.2)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        await type_text(pilot, "mine")
        elsewhere(tmp_path, app, 0, "theirs")
        await pilot.pause(0.6)
        assert app.notes.editor.text == "mine"  # still being typed: a save merges both
        await type_text(pilot, " too")
        assert app.notes.editor.text == "mine too"
        await pilot.press("escape")
        note = app.store.get(app.papers[0].id)
        assert note is not None and "mine too" in note.note and "theirs" in note.note


async def test_coming_back_to_the_window_reads_the_notes_file(tmp_path: Path) -> None:
    app = make(tmp_path, poll=0)  # no timer: only the focus event
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        elsewhere(tmp_path, app, 0, "written while away")
        await pilot.pause(0.3)
        assert app.notes.editor.text == ""
        app.post_message(events.AppFocus())
        await pilot.pause()
        assert app.notes.editor.text == "written while away"
        assert "✎" in app.paper_list.row_text(0)


async def test_a_note_replaced_elsewhere_while_written_takes_the_next_keys_at_its_end(
    tmp_path: Path,
) -> None:
    # Seen in tmux: the note being written was saved (a pause), `paperdeck note 1 --set` put
    # "cli wrote this meanwhile" in its place, and the next keys went in at the old cursor's
    # row and column: "cli wrote this meanwhil and moree".
    from tests.ui.test_narrow_notices import said, shown
    from tests.ui.test_reading import screen_text

    library = load_library([bundled_list()])
    app = PaperdeckApp(
        library,
        NotesStore(tmp_path / "notes.json"),
        settings_file=tmp_path / "settings.json",
        autosave_delay=0.1,
        notes_poll=0.2,
    )
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        await type_text(pilot, "reader text in progress")
        # Saved as it was typed (a pause): nothing is left to merge.
        await until(pilot, lambda: not app.store.dirty and app.notes.loaded_text != "")
        elsewhere(tmp_path, app, 0, "cli wrote this meanwhile")
        await until(pilot, lambda: app.notes.editor.text == "cli wrote this meanwhile")
        await shown(pilot)
        assert app.screen.focused is app.notes.editor
        assert "changed by another paperdeck" in said(app), said(app)
        await type_text(pilot, " and more")
        assert app.notes.editor.text == "cli wrote this meanwhile and more"
        assert any("cli wrote this meanwhile and more" in line for line in screen_text(app))
        await pilot.press("escape")  # leaving the note saves it
        note = app.store.get(app.papers[0].id)
        assert note is not None and note.note == "cli wrote this meanwhile and more"

"""The open note editor after a save merged another writer's text into its note (issue 19, 1).

Another reader, `paperdeck note --append` or a hand edit changes the note being edited; the
reader's next save merges both. The editor must then show the merge, so that the next key
typed edits the merged note instead of saving the old buffer over it.
"""

from __future__ import annotations

import json
from pathlib import Path

from paperdeck.core.library import load_library
from paperdeck.core.notes.merge import CONFLICT_END, CONFLICT_START
from paperdeck.core.notes.store import NotesStore
from paperdeck.core.resources import bundled_list
from paperdeck.ui.app import PaperdeckApp


def make_app(tmp_path: Path) -> PaperdeckApp:
    library = load_library([bundled_list()])
    store = NotesStore(tmp_path / "notes.json")
    return PaperdeckApp(
        library, store, settings_file=tmp_path / "settings.json", autosave_delay=60.0
    )


def note_on_disk(tmp_path: Path, paper_id: str) -> str:
    papers = json.loads((tmp_path / "notes.json").read_text(encoding="utf-8"))["papers"]
    note: str = papers[paper_id]["note"]
    return note


async def test_text_another_writer_appended_survives_the_next_keystrokes(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        paper = app.papers[0]
        await pilot.press("n", *"mine")
        app.note_flow.save_open_note()
        # `paperdeck note 1 --append theirs` meanwhile, as another process would.
        other = NotesStore(tmp_path / "notes.json")
        other.set_note(paper, other.get(paper.id).note + "\ntheirs")  # type: ignore[union-attr]
        other.save()
        await pilot.press("!")
        app.note_flow.save_open_note()  # this save merges "theirs" in
        await pilot.pause()
        editor = app.notes.editor
        assert editor.text == "mine!\ntheirs"
        # The cursor stays where the user was typing, after "mine!".
        assert editor.cursor_location == (0, 5)
        await pilot.press("?")
        app.note_flow.save_open_note()
        await pilot.pause()
        assert note_on_disk(tmp_path, paper.id) == "mine!?\ntheirs"
        assert editor.text == "mine!?\ntheirs"


async def test_a_conflicting_hand_edit_keeps_both_texts_through_later_saves(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        paper = app.papers[1]
        await pilot.press("j", "n", *"draft")
        app.note_flow.save_open_note()
        # A hand edit of the same line in the notes file.
        document = json.loads((tmp_path / "notes.json").read_text(encoding="utf-8"))
        document["papers"][paper.id]["note"] = "edited by hand"
        document["papers"][paper.id]["updated"] += 1
        (tmp_path / "notes.json").write_text(json.dumps(document), encoding="utf-8")
        await pilot.press("x")
        app.note_flow.save_open_note()  # "both texts kept", the reader says
        await pilot.pause()
        shown = app.notes.editor.text
        assert "draftx" in shown and "edited by hand" in shown
        assert CONFLICT_START in shown and CONFLICT_END in shown
        await pilot.press("end", "y")
        app.note_flow.save_open_note()
        await pilot.pause()
        saved = note_on_disk(tmp_path, paper.id)
        assert "draftx" in saved and "edited by hand" in saved


async def test_saving_an_unchanged_merge_does_not_move_the_cursor(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("n", *"one line", "enter", *"two", "up")
        app.note_flow.save_open_note()
        await pilot.pause()
        assert app.notes.editor.text == "one line\ntwo"
        assert app.notes.editor.cursor_location == (0, 3)

"""At a failed quit, unsaved notes land in a recovery file in the store's own format."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from paperdeck.core.model import Paper
from paperdeck.core.notes.codec import encode_file, parse_document
from paperdeck.core.notes.recovery import save_or_recover
from paperdeck.core.notes.store import NotesStore


def paper(number: int) -> Paper:
    return Paper(
        id=f"paper{number:04d}",
        position=number,
        list_name="recovery",
        title=f"Paper {number}",
        title_derived=True,
        abstract=f"An abstract about recovery number {number}.",
    )


def test_a_store_that_saves_needs_no_recovery(tmp_path: Path) -> None:
    store = NotesStore(tmp_path / "notes.json")
    store.set_note(paper(1), "saved")
    assert save_or_recover(store) is None
    assert not list(tmp_path.glob("*.recovered-*"))


def test_the_recovery_file_is_a_notes_file_written_by_the_stores_codec(tmp_path: Path) -> None:
    store = NotesStore(tmp_path / "notes.json")
    store.set_note(paper(1), "saved before the disk failed")
    store.save()
    # Saving now fails: a folder took the notes file's place.
    broken = tmp_path / "broken"
    (broken / "notes.json").mkdir(parents=True)
    store.path = broken / "notes.json"
    store.set_note(paper(2), "typed while the disk failed\nwith a second line and \\LaTeX")
    store.set_tags(paper(2), ["urgent"])
    message = save_or_recover(store)
    [recovered] = list(broken.glob("notes.json.recovered-*"))
    assert message == (
        f"paperdeck: notes not saved (could not save notes: {broken / 'notes.json'} is a "
        f"folder, not a file); your unsaved notes are in {recovered}"
    )
    unsaved = {entry.paper_id: entry for entry in store.unsaved_entries()}
    assert recovered.read_bytes() == encode_file(unsaved)
    assert parse_document(recovered.read_bytes()) == unsaved
    # It opens as a notes file of its own, with nothing to repair.
    reopened = NotesStore(recovered)
    assert reopened.messages == []
    assert reopened.get("paper0002") == unsaved["paper0002"]


def test_a_recovery_file_goes_to_the_temporary_folder_when_the_notes_folder_is_unwritable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = NotesStore(tmp_path / "notes.json")
    store.set_note(paper(1), "unsaved words")
    (tmp_path / "file").write_text("not a folder")
    store.path = tmp_path / "file" / "notes.json"
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    message = save_or_recover(store)
    [recovered] = list(temporary.glob("notes.json.recovered-*"))
    assert message is not None and message.endswith(f"your unsaved notes are in {recovered}")
    assert parse_document(recovered.read_bytes())["paper0001"].note == "unsaved words"
    assert store.dirty  # kept in memory too

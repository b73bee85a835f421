"""Backups of the notes file move only after a save worked; a linked notes file stays linked."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from paperdeck.core.model import Paper
from paperdeck.core.notes.backups import BACKUPS, backup_path
from paperdeck.core.notes.store import NotesStore


def paper(number: int) -> Paper:
    return Paper(
        id=f"paper{number:04d}",
        position=number,
        list_name="backups",
        title=f"Paper {number}",
        title_derived=True,
        abstract=f"An abstract about learning number {number}.",
    )


def test_a_symlinked_notes_file_stays_a_link_and_its_target_gets_the_notes(
    tmp_path: Path,
) -> None:
    synced = tmp_path / "synced"
    synced.mkdir()
    target = synced / "notes.json"
    link = tmp_path / "notes.json"
    store = NotesStore(target)
    store.set_note(paper(1), "first, written before the link")
    store.save()
    link.symlink_to(target)
    linked = NotesStore(link)
    linked.set_note(paper(2), "written through the link")
    linked.save()
    linked.set_note(paper(3), "and again")
    linked.save()
    assert link.is_symlink() and link.resolve() == target
    reread = NotesStore(target)
    assert reread.get("paper0002").note == "written through the link"  # type: ignore[union-attr]
    assert reread.get("paper0003").note == "and again"  # type: ignore[union-attr]
    # The link's folder holds no stray temporaries; the target's folder none either.
    assert [p.name for p in synced.iterdir() if ".tmp-" in p.name] == []


def test_a_damaged_symlinked_file_is_restored_behind_the_link(tmp_path: Path) -> None:
    synced = tmp_path / "synced"
    synced.mkdir()
    target = synced / "notes.json"
    link = tmp_path / "notes.json"
    link.symlink_to(target)
    store = NotesStore(link)
    store.set_note(paper(1), "kept")
    store.save()
    store.set_note(paper(2), "also kept")
    store.save()
    target.write_text("{ damaged", encoding="utf-8")
    reopened = NotesStore(link)
    assert reopened.get("paper0001").note == "kept"  # type: ignore[union-attr]
    assert link.is_symlink() and link.resolve() == target
    assert any(p.name.startswith("notes.json.corrupt-") for p in synced.iterdir())


def _fill_backups(path: Path) -> list[bytes]:
    store = NotesStore(path)
    for number in range(BACKUPS + 1):
        store.set_note(paper(number), f"version {number}")
        store.save()
    return [backup_path(path, number).read_bytes() for number in range(1, BACKUPS + 1)]


def test_failed_saves_leave_the_backups_as_they_were(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    before = _fill_backups(path)
    current = path.read_bytes()
    assert len({*before, current}) == BACKUPS + 1
    # A real write failure: the child may not write files larger than the notes file now is
    # (RLIMIT_FSIZE; SIGXFSZ ignored so that write() fails with EFBIG instead of killing it).
    code = textwrap.dedent(
        f"""
        import resource, signal, sys
        from paperdeck.core.model import Paper
        from paperdeck.core.notes.store import NotesSaveError, NotesStore
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, ({len(current) + 64}, {len(current) + 64}))
        store = NotesStore(sys.argv[1])
        paper = Paper(id="paper0099", position=99, list_name="backups", title="t",
                      title_derived=True, abstract="a big one")
        failures = 0
        for attempt in range(3):
            store.set_note(paper, "too long to fit " * 500 + str(attempt))
            try:
                store.save()
            except NotesSaveError:
                failures += 1
        print(failures)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "3", result.stderr
    assert path.read_bytes() == current
    after = [backup_path(path, number).read_bytes() for number in range(1, BACKUPS + 1)]
    assert after == before
    assert [p.name for p in tmp_path.iterdir() if ".tmp-" in p.name] == []


def test_a_successful_save_after_failures_rotates_once(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    before = _fill_backups(path)
    current = path.read_bytes()
    store = NotesStore(path)
    store.set_note(paper(50), "one more")
    store.save()
    after = [backup_path(path, number).read_bytes() for number in range(1, BACKUPS + 1)]
    assert after == [current, *before[:-1]]
    assert os.stat(path).st_ino != os.stat(backup_path(path, 1)).st_ino

"""The notes file under faults: killed writers, rival processes, damaged files, no room."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from paperdeck.core.ids import assign_ids
from paperdeck.core.model import Paper
from paperdeck.core.notes.store import NotesSaveError, NotesStore

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork"), reason="the fault tests fork and SIGKILL writer processes"
)


def make_papers(count: int, prefix: str = "paper") -> list[Paper]:
    texts = [
        f"{prefix} {number}: an abstract about learning {number * 7}" for number in range(count)
    ]
    return [
        Paper(
            id=paper_id,
            position=position,
            list_name="faults",
            title=text[:20],
            title_derived=True,
            abstract=text,
        )
        for position, (text, paper_id) in enumerate(zip(texts, assign_ids(texts), strict=True), 1)
    ]


def tokens_in(path: Path) -> set[str]:
    """Every word of every note in the file, which must parse."""
    document = json.loads(path.read_text(encoding="utf-8"))
    return {word for entry in document["papers"].values() for word in entry["note"].split()}


def acked(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split() if path.exists() else []


def in_child(work: Callable[[], None]) -> int:
    """Run `work` in a forked process; its pid. The child never returns into pytest."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 0
        try:
            work()
        except BaseException:
            import traceback

            traceback.print_exc()
            code = 1
        os._exit(code)
    return pid


def append_loop(path: Path, ack: Path, papers: list[Paper], name: str, rounds: int) -> None:
    """Append a new word to a note and save, then acknowledge it; reopen now and then."""
    store = NotesStore(path, lock_timeout=30)
    descriptor = os.open(ack, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    for number in range(rounds):
        if number % 7 == 6:
            store = NotesStore(path, lock_timeout=30)  # like one CLI run after another
        paper = papers[number % len(papers)]
        entry = store.get(paper)
        token = f"{name}-{number}"
        store.set_note(paper, f"{entry.note}\n{token}" if entry and entry.note else token)
        store.save()
        # Only after save() returned: these are the words that must survive anything.
        os.write(descriptor, f"{token}\n".encode())


# -- SIGKILL at random moments -------------------------------------------------------------


@pytest.mark.slow
def test_a_writer_killed_at_random_moments_never_loses_a_saved_note(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    ack = tmp_path / "acks"
    papers = make_papers(12)
    rng = random.Random(20261202)
    kills = 250
    # Kill within a few saves' time, measured here: a busy machine saves more slowly.
    probe = NotesStore(tmp_path / "probe.json")
    started = time.perf_counter()
    for number in range(5):
        probe.set_note(papers[number], "probe")
        probe.save()
    window = 0.01 + 6 * (time.perf_counter() - started) / 5
    for run in range(kills):
        before = len(acked(ack))
        pid = in_child(functools.partial(append_loop, path, ack, papers, f"r{run}", 10**9))
        # Each writer is killed at a random moment after its first acknowledged save, so that
        # every run puts acknowledged words at risk however slowly this machine saves today.
        deadline = time.monotonic() + 60
        while len(acked(ack)) == before and time.monotonic() < deadline:
            time.sleep(0.001)
        time.sleep(rng.uniform(0.0, window))
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (
            f"run {run}: the writer stopped by itself (status {status})"
        )
        saved = acked(ack)
        assert len(saved) > before, f"run {run}: the writer saved nothing in a minute"
        assert path.exists(), f"run {run}: saves were acknowledged but there is no file"
        missing = set(saved) - tokens_in(path)
        assert not missing, f"run {run}: lost {sorted(missing)[:5]}"
        check = NotesStore(path)
        assert check.messages == [], check.messages


# -- rival processes -----------------------------------------------------------------------


def _run_rivals(tmp_path: Path, papers_a: list[Paper], papers_b: list[Paper], rounds: int) -> Path:
    path = tmp_path / "notes.json"
    pids = [
        in_child(lambda: append_loop(path, tmp_path / "ack-a", papers_a, "a", rounds)),
        in_child(lambda: append_loop(path, tmp_path / "ack-b", papers_b, "b", rounds)),
    ]
    for pid in pids:
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"a writer failed: {status}"
    return path


def test_two_processes_writing_different_papers_lose_nothing(tmp_path: Path) -> None:
    papers = make_papers(20)
    rounds = 150
    path = _run_rivals(tmp_path, papers[:10], papers[10:], rounds)
    words = tokens_in(path)
    expected = {f"a-{n}" for n in range(rounds)} | {f"b-{n}" for n in range(rounds)}
    assert expected <= words
    assert set(acked(tmp_path / "ack-a")) | set(acked(tmp_path / "ack-b")) == expected
    document = json.loads(path.read_text(encoding="utf-8"))
    assert "<<<<<<<" not in path.read_text(encoding="utf-8")
    assert len(document["papers"]) == 20


def test_two_processes_writing_the_same_paper_lose_nothing(tmp_path: Path) -> None:
    papers = make_papers(1)
    rounds = 120
    path = _run_rivals(tmp_path, papers, papers, rounds)
    words = tokens_in(path)
    expected = {f"a-{n}" for n in range(rounds)} | {f"b-{n}" for n in range(rounds)}
    assert expected <= words
    # Concurrent appends merge line by line: each word is kept once, not copied over and over.
    note = json.loads(path.read_text(encoding="utf-8"))["papers"][papers[0].id]["note"]
    assert len(note.split()) < 3 * len(expected)


# -- damaged files -------------------------------------------------------------------------

GOOD_THEN_BAD = {
    "corrupt": b'{"version": 1, "papers": {"abc',
    "empty": b"",
    "whitespace": b"  \n",
    "binary": bytes(range(256)),
    "a list": b"[1, 2, 3]",
    "no version": b'{"papers": {}}',
    "papers not an object": b'{"version": 1, "papers": []}',
    "entry not an object": b'{"version": 1, "papers": {"abcd1234": "a note"}}',
    "note not text": b'{"version": 1, "papers": {"abcd1234": {"note": 5}}}',
    "bad state": b'{"version": 1, "papers": {"abcd1234": {"state": "done"}}}',
}


def _saved_twice(path: Path) -> tuple[list[Paper], bytes]:
    papers = make_papers(3)
    store = NotesStore(path)
    store.set_note(papers[0], "in the backup")
    store.save()
    store.set_note(papers[1], "in the file")
    store.save()
    return papers, path.read_bytes()


@pytest.mark.parametrize("kind", [*GOOD_THEN_BAD, "truncated"])
def test_a_damaged_file_is_moved_aside_and_the_newest_backup_restored(
    tmp_path: Path, kind: str
) -> None:
    path = tmp_path / "notes.json"
    papers, good = _saved_twice(path)
    damaged = good[: len(good) // 2] if kind == "truncated" else GOOD_THEN_BAD[kind]
    path.write_bytes(damaged)

    store = NotesStore(path)
    assert len(store.messages) == 1 and "\n" not in store.messages[0]
    message = store.messages[0]
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("notes.json.corrupt-")]
    assert len(aside) == 1 and aside[0].read_bytes() == damaged
    assert str(aside[0]) in message and "restored the backup" in message
    # bak1 held the version before the last save.
    assert store.get(papers[0]).note == "in the backup"  # type: ignore[union-attr]
    assert store.get(papers[1]) is None
    assert json.loads(path.read_bytes())  # the restored file is in place
    store.set_note(papers[2], "after the recovery")
    store.save()
    again = NotesStore(path)
    assert again.messages == []
    assert again.get(papers[2]).note == "after the recovery"  # type: ignore[union-attr]


def test_a_damaged_file_without_backups_starts_empty_and_keeps_running(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    # Torn in its first save, so no backup: the start of a notes file, not someone else's file.
    damaged = b'{\n  "papers": {\n    "abcd1234": {"no'
    path.write_bytes(damaged)
    store = NotesStore(path)
    assert len(store.messages) == 1 and "no good backup" in store.messages[0]
    assert dict(store.entries) == {}
    paper = make_papers(1)[0]
    store.set_note(paper, "fresh")
    store.save()
    assert NotesStore(path).get(paper).note == "fresh"  # type: ignore[union-attr]
    assert [p.read_bytes() for p in tmp_path.glob("notes.json.corrupt-*")] == [damaged]


def test_a_file_damaged_while_open_is_recovered_at_save(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    papers, _ = _saved_twice(path)
    store = NotesStore(path)
    path.write_bytes(b"\x00\x00garbage")
    store.set_note(papers[2], "written after the damage")
    store.save()
    assert any("moved it to" in message for message in store.messages)
    again = NotesStore(path)
    assert again.get(papers[2]).note == "written after the damage"  # type: ignore[union-attr]
    assert again.get(papers[1]).note == "in the file"  # type: ignore[union-attr]


def test_a_file_from_a_newer_paperdeck_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    newer = b'{"version": 2, "papers": {"abcd1234": {"note": "future"}}, "more": true}\n'
    path.write_bytes(newer)
    store = NotesStore(path)
    assert len(store.messages) == 1 and "newer paperdeck" in store.messages[0]
    paper = make_papers(1)[0]
    store.set_note(paper, "mine")
    with pytest.raises(NotesSaveError, match="newer paperdeck"):
        store.save()
    assert path.read_bytes() == newer
    assert store.dirty and store.get(paper).note == "mine"  # type: ignore[union-attr]


def test_a_folder_where_the_file_should_be(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.mkdir()
    store = NotesStore(path)
    assert len(store.messages) == 1 and "is a folder" in store.messages[0]
    paper = make_papers(1)[0]
    store.set_note(paper, "kept in memory")
    with pytest.raises(NotesSaveError) as raised:
        store.save()
    assert "\n" not in str(raised.value) and "folder" in str(raised.value)
    assert store.dirty
    path.rmdir()
    store.save()  # the retry
    assert NotesStore(path).get(paper).note == "kept in memory"  # type: ignore[union-attr]


# -- nowhere to write ----------------------------------------------------------------------


@contextlib.contextmanager
def read_only_folder(folder: Path) -> Iterator[None]:
    """Make `folder` refuse new files, by a means that also binds root."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    # Root ignores permission bits; the immutable attribute binds root too.
    chattr = shutil.which("chattr")
    made = chattr is not None and (
        subprocess.run([chattr, "+i", str(folder)], capture_output=True).returncode == 0
    )
    if not made:
        pytest.skip("running as root without a working `chattr +i`: cannot make a read-only folder")
    try:
        yield
    finally:
        subprocess.run([str(chattr), "-i", str(folder)], check=True)


def test_a_read_only_folder_keeps_notes_in_memory_and_retries(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "notes.json"
    papers, before = _saved_twice(path)
    store = NotesStore(path, lock_timeout=1)
    store.set_note(papers[2], "written while read-only")
    with read_only_folder(folder):
        with pytest.raises(NotesSaveError) as raised:
            store.save()
        assert "\n" not in str(raised.value)
        assert store.dirty
        assert path.read_bytes() == before
    store.save()
    again = NotesStore(path)
    assert again.get(papers[2]).note == "written while read-only"  # type: ignore[union-attr]
    assert again.get(papers[1]).note == "in the file"  # type: ignore[union-attr]


def test_a_path_under_a_regular_file_cannot_be_saved(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    store = NotesStore(blocker / "notes.json")
    paper = make_papers(1)[0]
    store.set_note(paper, "nowhere to go")
    with pytest.raises(NotesSaveError) as raised:
        store.save()
    assert "\n" not in str(raised.value)
    assert store.dirty and store.get(paper).note == "nowhere to go"  # type: ignore[union-attr]


@contextlib.contextmanager
def tiny_filesystem(folder: Path) -> Iterator[Path]:
    """A 256 KiB tmpfs at `folder`, when this process may mount one."""
    folder.mkdir()
    mounted = (
        os.geteuid() == 0
        and shutil.which("mount") is not None
        and subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)], capture_output=True
        ).returncode
        == 0
    )
    if not mounted:
        pytest.skip("a full disk needs a small tmpfs, which only root may mount")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_a_full_disk_keeps_the_old_file_and_the_new_notes(tmp_path: Path) -> None:
    with tiny_filesystem(tmp_path / "small") as folder:
        path = folder / "notes.json"
        papers = make_papers(2)
        store = NotesStore(path)
        store.set_note(papers[0], "fits")
        store.save()
        before = path.read_bytes()
        filler = folder / "filler"
        with contextlib.suppress(OSError), filler.open("wb") as handle:
            while True:
                handle.write(b"\0" * 4096)
                handle.flush()
        store.set_note(papers[1], "long note " * 2000)
        with pytest.raises(NotesSaveError) as raised:
            store.save()
        assert "\n" not in str(raised.value)
        assert path.read_bytes() == before
        assert [p.name for p in folder.iterdir() if ".tmp-" in p.name] == []
        filler.unlink()
        store.save()
        assert NotesStore(path).get(papers[1]).note == "long note " * 2000  # type: ignore[union-attr]

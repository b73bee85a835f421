"""atomic_write: the mode of new and existing files, and what a failure leaves behind."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from paperdeck.core.plumbing import atomic_write as module
from paperdeck.core.plumbing.atomic_write import atomic_write, replace_keeping_backup


@pytest.fixture
def umask_022() -> Iterator[None]:
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


def _mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


@pytest.mark.usefixtures("umask_022")
@pytest.mark.parametrize("sync", [True, False])
def test_a_new_file_gets_the_mode_the_umask_allows(tmp_path: Path, sync: bool) -> None:
    path = tmp_path / "out.jsonl"
    atomic_write(path, "é\n", sync=sync)
    assert path.read_bytes() == "é\n".encode()
    assert _mode(path) == 0o644
    assert [one.name for one in tmp_path.iterdir()] == ["out.jsonl"]


@pytest.mark.usefixtures("umask_022")
def test_a_stricter_umask_gives_a_stricter_mode(tmp_path: Path) -> None:
    os.umask(0o077)
    path = tmp_path / "private"
    atomic_write(path, b"x")
    assert _mode(path) == 0o600


@pytest.mark.usefixtures("umask_022")
def test_an_existing_files_mode_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_bytes(b"old")
    path.chmod(0o640)
    atomic_write(path, b"new")
    assert path.read_bytes() == b"new"
    assert _mode(path) == 0o640


def test_a_failure_mid_write_keeps_the_old_file_and_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "settings.json"
    path.write_text("old\n", encoding="utf-8")

    def fail_fsync(descriptor: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(module.os, "fsync", fail_fsync)
    with pytest.raises(OSError, match="No space left"):
        atomic_write(path, "new\n")
    assert path.read_text(encoding="utf-8") == "old\n"
    assert [one.name for one in tmp_path.iterdir()] == ["settings.json"]


def test_a_failed_rename_keeps_the_old_file_and_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "cache.bin"
    path.write_bytes(b"old")

    def fail_replace(source: object, target: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(module.os, "replace", fail_replace)
    with pytest.raises(PermissionError):
        atomic_write(path, b"new", sync=False)
    assert path.read_bytes() == b"old"
    assert [one.name for one in tmp_path.iterdir()] == ["cache.bin"]


def test_a_missing_folder_raises_and_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        atomic_write(tmp_path / "no" / "such" / "file", b"x")
    assert list(tmp_path.iterdir()) == []


def test_a_device_or_pipe_is_written_to_not_replaced(tmp_path: Path) -> None:
    """PAPERDECK_CONFIG=/dev/null, `-o >(gzip > x.gz)`: before, the rename put a plain file
    in the device's or pipe's place (as root, /dev/null's own). A FIFO stands in for both."""
    fifo = tmp_path / "settings.json"
    os.mkfifo(fifo)
    # The reading end open first, as a shell's is; the pipe's buffer holds what is written.
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        atomic_write(fifo, "written\n")
        assert os.read(reader, 100) == b"written\n"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_pipe_nobody_reads_is_an_error_not_a_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError):
        replace_keeping_backup(fifo, "nobody reads this")
    assert stat.S_ISFIFO(fifo.stat().st_mode)

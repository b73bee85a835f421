"""Replacing a file so that a reader or a crash sees either the old or the new contents."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import sys
from pathlib import Path


def atomic_write(path: Path, data: bytes | str, *, sync: bool = True) -> None:
    """Replace `path` with `data` (str is written as UTF-8), keeping an existing file's mode.

    A symbolic link stays one: the file it points to is replaced (a notes file linked into a
    synced folder keeps syncing). A new file gets the mode the umask allows, as `open()` would
    give it. With `sync` the data
    and the rename are flushed to disk; caches pass `sync=False`, as losing one costs little.
    Raises OSError; the temporary file is removed on any failure.
    """
    content = data.encode("utf-8") if isinstance(data, str) else data
    if _write_in_place(path, content):
        return
    if os.path.islink(path):
        path = Path(os.path.realpath(path))
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}-{secrets.token_hex(4)}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(content)
            handle.flush()
            if sync:
                os.fsync(handle.fileno())
        with contextlib.suppress(OSError):
            os.chmod(temporary, path.stat().st_mode & 0o777)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    if sync:
        fsync_folder(path.parent)


def fsync_folder(folder: Path) -> None:
    """Make a rename or a new entry in `folder` durable."""
    # Not possible (nor needed) on Windows.
    if sys.platform == "win32":
        return
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def backup_name(path: Path) -> Path:
    """Where `replace_keeping_backup` keeps the file it replaced: NAME~, as editors do."""
    return path.with_name(f"{path.name}~")


def replace_keeping_backup(path: Path, data: bytes | str) -> Path | None:
    """`atomic_write`, the file it replaces kept as NAME~ (that file's earlier NAME~ is
    dropped): returns NAME~, or None when there was no file to keep.

    The old file gets its second name before the write and NAME~ only once the write worked,
    so a failed write leaves both as they were. Raises OSError.
    """
    if _write_in_place(path, data.encode("utf-8") if isinstance(data, str) else data):
        return None
    if os.path.islink(path):
        path = Path(os.path.realpath(path))
    if not path.is_file():
        atomic_write(path, data)
        return None
    backup = backup_name(path)
    held = path.with_name(f".{backup.name}.tmp-{os.getpid()}-{secrets.token_hex(4)}")
    try:
        # A second name costs no copy: writers replace the file, they never change it.
        os.link(path, held)
    except OSError:
        atomic_write(held, path.read_bytes(), sync=False)
    try:
        atomic_write(path, data)
        os.replace(held, backup)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(held)
    return backup


def _write_in_place(path: Path, content: bytes) -> bool:
    """Write to `path` when it is a device or a pipe (/dev/null, `-o >(gzip > x.gz)`, whose
    /dev/fd/N a link leads nowhere from): True if so. A rename would put a plain file in its
    place, as root /dev/null's own."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return False
    # Not blocking on opening: a pipe nobody reads is an error (ENXIO), not a hang.
    descriptor = os.open(path, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0))
    os.set_blocking(descriptor, True)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(content)
    return True

"""The advisory lock that lets one paperdeck at a time write a notes file."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

if sys.platform == "win32":
    import msvcrt
else:
    import fcntl

_BUSY_ERRNOS = {errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK, errno.EDEADLK}


class LockBusy(Exception):
    """Another process held the lock for the whole wait."""


@contextlib.contextmanager
def exclusive_lock(lock_path: Path, timeout: float) -> Iterator[None]:
    """Hold an exclusive lock on `lock_path` (created if missing), waiting up to `timeout` s.

    Raises LockBusy when the wait runs out, OSError when the lock file cannot be opened. The
    lock file itself is never removed: removing it would let two processes lock two files.
    """
    descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        deadline = time.monotonic() + timeout
        while not _try_lock(descriptor):
            if time.monotonic() >= deadline:
                raise LockBusy(str(lock_path))
            time.sleep(0.005)
        try:
            yield
        finally:
            _unlock(descriptor)
    finally:
        os.close(descriptor)


def _try_lock(descriptor: int) -> bool:
    try:
        if sys.platform == "win32":
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
        else:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        if error.errno in _BUSY_ERRNOS:
            return False
        raise
    return True


def _unlock(descriptor: int) -> None:
    if sys.platform == "win32":
        with contextlib.suppress(OSError):
            os.lseek(descriptor, 0, os.SEEK_SET)
            msvcrt.locking(descriptor, msvcrt.LK_UNLCK, 1)
    else:
        fcntl.flock(descriptor, fcntl.LOCK_UN)

"""Reading a file that must be a regular file of bounded size, without ever blocking on it."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


class NotRegularFile(OSError):
    """A pipe, device or socket where a file was expected (reading could block or never end)."""


class FileTooLarge(OSError):
    """A file larger than the caller's limit."""


def read_regular(path: Path, limit: int | None = None) -> tuple[bytes, os.stat_result]:
    """A regular file's bytes and the status of the very file they were read from.

    Opening does not block (a FIFO without a writer would), a folder raises IsADirectoryError,
    anything else that is not a regular file NotRegularFile, and a file of more than `limit`
    bytes FileTooLarge before any of it is read (and if it grows past `limit` while read).
    """
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        status = os.fstat(descriptor)
        if stat.S_ISDIR(status.st_mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder", str(path))
        if not stat.S_ISREG(status.st_mode):
            raise NotRegularFile(errno.EINVAL, "not a regular file", str(path))
        if limit is not None and status.st_size > limit:
            raise FileTooLarge(errno.EFBIG, f"larger than {describe_size(limit)}", str(path))
        with os.fdopen(os.dup(descriptor), "rb") as handle:
            if limit is None:
                data = handle.read()
            else:
                # Sized to the file, not to the limit: read(n) sets n bytes aside first (2 GB
                # for every sidecar of a few kB).
                data = handle.read(min(limit, status.st_size) + 1)
                if len(data) > status.st_size:  # it grew while read
                    data += handle.read(limit + 1 - len(data))
        if limit is not None and len(data) > limit:
            raise FileTooLarge(errno.EFBIG, f"larger than {describe_size(limit)}", str(path))
        return data, status
    finally:
        os.close(descriptor)


def describe_size(size: int) -> str:
    """A byte count as people say it: "512 MB", "64 KB", "100 bytes"."""
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:g} {unit}"
    return f"{size} bytes"

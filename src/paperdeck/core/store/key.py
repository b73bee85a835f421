"""What a stored list is keyed by: its bytes (a fast hash), how it is read, the code reading it.

Hashing a 100,000-paper list reads its 109 MB on every command, so a file's digest is also kept
under its fingerprint: resolved path, size, mtime_ns, ctime_ns, inode and device, read with
fstat on an open handle (on NFS, opening revalidates the attributes a bare stat may serve from
a cache). Any difference in any of them and the file is hashed again.

Why that never yields the old papers of a changed file: a content change by any means (write,
truncate, `touch -r` or `cp -p` restoring the mtime, replacing by rename) sets the file's
ctime to the clock of that moment, and no program can set a ctime back. A fingerprint is only
kept when the file's ctime lies SETTLED_SECONDS before the clock read just ahead of hashing, and
the file's fstat after hashing equals the one before. So any later change gets a ctime later than
the kept one, even on filesystems whose timestamps advance by a coarse tick (Linux's ~4 ms) or by
two seconds (FAT): a file rewritten within the same tick as the kept ctime is not possible,
because the kept ctime is older than the tick in which the file was hashed. A file changed just
now is simply hashed every time until it has settled. What this does not cover, knowingly: the
system clock stepped back by more than SETTLED_SECONDS and then a same-size rewrite landing on
the kept ctime to the nanosecond; and a filesystem that reports no timestamps (a zero ctime or
mtime: such a file is never fingerprinted).
"""

from __future__ import annotations

import hashlib
import io
import os
import sys
import time
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

import xxhash

if TYPE_CHECKING:
    from paperdeck.core.store.database import ListStore

READ_BYTES = 1 << 22
"""The file is hashed this much at a time: a 1 GB list never sits in memory to be keyed."""
SETTLED_SECONDS = 2.0
"""How long before its hashing a file must have last changed for its fingerprint to be kept."""
_KEYED_SOURCES = (
    "formats/__init__.py",
    "ids.py",
    "library.py",
    "names.py",
    "store/columns.py",
    "text/dollars.py",
    "text/render.py",
    "text/sanitize.py",
    "titles/derive.py",
)
"""Relative to paperdeck/core: the code whose output the store keeps (a package by its
`__init__.py`, for all its modules). Found by path, so keying imports none of it."""
_code_version: str | None = None


def file_digest(path: Path) -> str:
    """A 128-bit xxh3 of the file's bytes (~10 GB/s: reading is the cost, not hashing)."""
    with path.open("rb", buffering=0) as handle:
        return _digest_of(handle)


def _digest_of(handle: io.RawIOBase) -> str:
    digest = xxhash.xxh3_128()
    buffer = bytearray(READ_BYTES)
    view = memoryview(buffer)
    while read := handle.readinto(buffer):
        digest.update(view[:read])
    return digest.hexdigest()


def content_digest(path: Path, store: ListStore | None) -> str:
    """`file_digest`, or the digest the store keeps for the file's unchanged fingerprint."""
    if store is None:
        return file_digest(path)
    with path.open("rb", buffering=0) as handle:
        clock = time.time_ns()
        before = os.fstat(handle.fileno())
        where = os.fsencode(os.path.realpath(path))
        fingerprint = _fingerprint(before)
        known = store.known_digest(where, fingerprint)
        if known is not None:
            return known
        digest = _digest_of(handle)
        after = _fingerprint(os.fstat(handle.fileno()))
    if after == fingerprint and _settled(before, clock):
        store.remember_digest(where, fingerprint, digest)
    return digest


def _fingerprint(status: os.stat_result) -> str:
    return (
        f"{status.st_size}:{status.st_mtime_ns}:{status.st_ctime_ns}:"
        f"{status.st_ino}:{status.st_dev}"
    )


def _settled(status: os.stat_result, clock_ns: int) -> bool:
    """The file last changed well before `clock_ns` (see the module's docstring)."""
    if status.st_ctime_ns <= 0 or status.st_mtime_ns <= 0:
        return False
    return status.st_ctime_ns < clock_ns - int(SETTLED_SECONDS * 1e9)


def code_version() -> str:
    """A hash of the modules whose output the store keeps, and of the Unicode tables they use.

    Any change to how lists are read, papers identified, titles derived or links found makes
    every stored list stale. Empty when a source cannot be read (a frozen build): nothing is
    stored then, as nothing could tell a stale entry from a good one.
    """
    global _code_version
    if _code_version is None:
        core = Path(__file__).parent.parent
        hasher = hashlib.sha1()
        try:
            for name in _KEYED_SOURCES:
                for source in _sources(core / name):
                    hasher.update(source.read_bytes())
        except OSError:
            _code_version = ""
            return _code_version
        hasher.update(unicodedata.unidata_version.encode("ascii"))
        hasher.update(sys.version.encode("utf-8", "replace"))
        _code_version = hasher.hexdigest()[:24]
    return _code_version


def _sources(module_file: Path) -> list[Path]:
    """A module's source file, or every source file of a package (its `__init__.py` given)."""
    if module_file.name == "__init__.py":
        return sorted(module_file.parent.rglob("*.py"))
    return [module_file]


def list_key(path: Path, fmt: str | None, store: ListStore | None = None) -> str | None:
    """The key of one list as it is on disk now; None when it cannot be read or keyed.

    With a store, an unchanged file is recognised by its fingerprint without reading it.
    """
    code = code_version()
    if not code:
        return None
    try:
        content = content_digest(path, store)
    except OSError:
        return None
    # The extension decides the format when none is given, so it is part of what was read.
    how = f"{fmt or 'auto'}:{path.suffix.lower()}"
    return hashlib.sha1(f"{content}\0{how}\0{code}".encode("utf-8", "surrogatepass")).hexdigest()

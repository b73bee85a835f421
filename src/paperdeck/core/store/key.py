"""What a stored list is keyed by: its bytes (a fast hash), how it is read, the code reading it."""

from __future__ import annotations

import hashlib
import sys
import unicodedata
from pathlib import Path

import xxhash

READ_BYTES = 1 << 22
"""The file is hashed this much at a time: a 1 GB list never sits in memory to be keyed."""
_code_version: str | None = None


def file_digest(path: Path) -> str:
    """A 128-bit xxh3 of the file's bytes (~10 GB/s: reading is the cost, not hashing)."""
    digest = xxhash.xxh3_128()
    buffer = bytearray(READ_BYTES)
    view = memoryview(buffer)
    with path.open("rb", buffering=0) as handle:
        while read := handle.readinto(buffer):
            digest.update(view[:read])
    return digest.hexdigest()


def code_version() -> str:
    """A hash of the modules whose output the store keeps, and of the Unicode tables they use.

    Any change to how lists are read, papers identified, titles derived or links found makes
    every stored list stale. Empty when a source cannot be read (a frozen build): nothing is
    stored then, as nothing could tell a stale entry from a good one.
    """
    global _code_version
    if _code_version is None:
        from paperdeck.core import formats, ids, library, names
        from paperdeck.core.store import columns
        from paperdeck.core.text import render, sanitize
        from paperdeck.core.titles import derive

        hasher = hashlib.sha1()
        try:
            for module in (formats, ids, library, names, columns, render, sanitize, derive):
                for source in _sources(Path(module.__file__ or "")):
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


def list_key(path: Path, fmt: str | None) -> str | None:
    """The key of one list as it is on disk now; None when it cannot be read or keyed."""
    code = code_version()
    if not code:
        return None
    try:
        content = file_digest(path)
    except OSError:
        return None
    # The extension decides the format when none is given, so it is part of what was read.
    how = f"{fmt or 'auto'}:{path.suffix.lower()}"
    return hashlib.sha1(f"{content}\0{how}\0{code}".encode("utf-8", "surrogatepass")).hexdigest()

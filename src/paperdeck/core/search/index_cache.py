"""A persistent cache of built search indexes, keyed by what they index, loaded in slices."""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import sys
import tempfile
from array import array
from collections.abc import Generator, Iterable, Sequence
from operator import attrgetter
from pathlib import Path
from typing import Any, BinaryIO

from paperdeck.core.config import cache_dir
from paperdeck.core.model import Paper

FORMAT = "paperdeck-search-1"
MAX_FILES = 4
"""Search caches kept in the folder, most recently used first (a 100k list makes ~60 MB)."""
_PREFIX = "search-v1-"
_HEAD = 8
# Papers per piece of the key's digest: ~5 ms each at 100k.
_KEY_BATCH = 2000
_NAME_BATCH = 32768
"""Ids per piece of `ids_name_steps`'s digest (~2 ms)."""

_algorithm_version: str | None = None


def algorithm_version() -> str:
    """A hash of the sources that shape a cached index (its build, its codec, folding, this
    module) and of the machine's array layout; "" when a source cannot be read."""
    global _algorithm_version
    if _algorithm_version is None:
        from paperdeck.core.search import build, codec, index_parts, word_index
        from paperdeck.core.text import fold

        digest = hashlib.sha1()
        try:
            for module in (build, codec, word_index, index_parts, fold, sys.modules[__name__]):
                digest.update(Path(str(module.__file__)).read_bytes())
        except (OSError, TypeError):
            _algorithm_version = ""
            return _algorithm_version
        digest.update(f"{array('I').itemsize}{sys.byteorder}{sys.version_info[:2]}".encode())
        _algorithm_version = digest.hexdigest()[:16]
    return _algorithm_version


def ids_name_steps(papers: Sequence[Paper]) -> Generator[None, None, str]:
    """The first half of the papers' cache name: a digest of their ids (~8 ms at 100,000).
    When no cache file starts with it (`any_named`), the index is built at once."""
    digest = _digest_start(papers, b"ids")
    for start in range(0, len(papers), _NAME_BATCH):
        digest.update(marshal.dumps(list(map(_ID, papers[start : start + _NAME_BATCH])), 2))
        yield
    return digest.hexdigest()[:16]


def name_steps(papers: Sequence[Paper], ids_name: str) -> Generator[None, None, str]:
    """The name of the papers' cache file: `ids_name` and a digest of what else the index
    reads but the abstracts (their ids stand for them). Cheap; `key_steps` then tells
    whether the file is this index."""
    rest = yield from _digest_steps(papers, abstracts=False)
    return ids_name + rest[:16]


def key_steps(papers: Sequence[Paper]) -> Generator[None, None, str]:
    """A digest of everything of the papers the index reads, in order; in slices."""
    return _digest_steps(papers, abstracts=True)


def _digest_start(papers: Sequence[Paper], kind: bytes) -> hashlib.blake2b:
    digest = hashlib.blake2b(algorithm_version().encode(), digest_size=20)
    digest.update(len(papers).to_bytes(8, "little") + kind)
    return digest


def _digest_steps(papers: Sequence[Paper], *, abstracts: bool) -> Generator[None, None, str]:
    digest = _digest_start(papers, bytes([abstracts]))
    for start in range(0, len(papers), _KEY_BATCH):
        batch = papers[start : start + _KEY_BATCH]
        # Marshal version 2 has no back-references, so equal papers give equal bytes.
        fields = (
            [p.id for p in batch],
            [p.title for p in batch],
            [p.method for p in batch],
            [tuple(p.authors) for p in batch],
            [p.abstract for p in batch] if abstracts else [],
            [p.year for p in batch],
            [p.venue for p in batch],
        )
        digest.update(marshal.dumps(fields, 2))
        yield
    return digest.hexdigest()


_ID = attrgetter("id")


def enabled() -> bool:
    """Whether indexes are cached (not when `$PAPERDECK_CACHE` is `off`)."""
    return cache_dir() is not None and bool(algorithm_version())


def cache_path(name: str) -> Path | None:
    """Where the index of the papers with this name is kept; None when caching is off."""
    folder = cache_dir()
    if folder is None or not algorithm_version():
        return None
    return folder / f"{_PREFIX}{name[:32]}.bin"


def any_named(ids_name: str) -> bool:
    """Whether a cache file's name starts with this `ids_name_steps` digest."""
    path = cache_path(ids_name)
    return path is not None and any(path.parent.glob(f"{_PREFIX}{ids_name}*.bin"))


def exists(name: str) -> bool:
    """Whether a cache file has this name (it may still hold another index)."""
    path = cache_path(name)
    return path is not None and path.is_file()


def open_chunks(name: str, key: str) -> Generator[Any, None, None] | None:
    """The chunks of the index with `key` saved under `name`, read one at a time; None when
    absent, stale or another index.

    Each chunk's digest is checked before it is read, and a damaged chunk (or a file with
    more or fewer bytes than its header says) stops the iteration with ValueError: take
    nothing from a cache that did not end well.
    """
    path = cache_path(name)
    if path is None:
        return None
    try:
        handle = path.open("rb")
    except OSError:
        return None
    try:
        head_size = int.from_bytes(handle.read(_HEAD), "little")
        head = marshal.loads(handle.read(head_size))
    except Exception:  # whatever a damaged file makes these raise: it is only a cache
        handle.close()
        return None
    if (
        type(head) is not tuple
        or len(head) != 4
        or head[0] != FORMAT
        or head[1] != algorithm_version()
        or head[2] != key
        or type(head[3]) is not list
    ):
        handle.close()
        return None
    with contextlib.suppress(OSError):
        # Marks the file as recently used, so pruning removes the caches of lists not opened lately.
        os.utime(path)
    return _chunks(handle, head[3])


def _chunks(handle: BinaryIO, entries: list[Any]) -> Generator[Any, None, None]:
    with handle:
        for size, expected in entries:
            piece = handle.read(size)
            if len(piece) != size or hashlib.blake2b(piece, digest_size=16).digest() != expected:
                raise ValueError("damaged search cache")
            try:
                chunk = marshal.loads(piece)
            except Exception as error:  # a damaged chunk with an intact digest: still a cache
                raise ValueError("damaged search cache") from error
            del piece
            yield chunk
        if handle.read(1):
            raise ValueError("damaged search cache")


def save_steps(name: str, key: str, chunks: Iterable[object | None]) -> Generator[None, None, None]:
    """Write the chunks of the index with `key` under `name` atomically, a chunk per slice
    (a None among them is only a pause); failures are ignored."""
    path = cache_path(name)
    if path is None:
        return
    pieces: list[bytes] = []
    entries: list[tuple[int, bytes]] = []
    try:
        for chunk in chunks:
            if chunk is None:
                yield
                continue
            piece = marshal.dumps(chunk)  # type: ignore[arg-type]
            pieces.append(piece)
            entries.append((len(piece), hashlib.blake2b(piece, digest_size=16).digest()))
            yield
    except ValueError:  # something marshal cannot write: then there is no cache
        return
    head = marshal.dumps((FORMAT, algorithm_version(), key, entries))
    pieces.insert(0, len(head).to_bytes(_HEAD, "little") + head)
    temp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=".tmp-", suffix=".bin", dir=path.parent)
        with os.fdopen(fd, "wb") as handle:
            for piece in pieces:
                handle.write(piece)
                yield
        os.replace(temp, path)
        temp = None
        _prune(path.parent, keep=path)
    except OSError:
        pass
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)


def _prune(folder: Path, keep: Path) -> None:
    """Remove the least recently used search caches beyond MAX_FILES."""
    found: list[tuple[float, Path]] = []
    for path in folder.glob(f"{_PREFIX}*.bin"):
        with contextlib.suppress(OSError):
            found.append((path.stat().st_mtime, path))
    found.sort(reverse=True)
    for index, (_, path) in enumerate(found):
        if path != keep and index >= MAX_FILES:
            with contextlib.suppress(OSError):
                path.unlink()

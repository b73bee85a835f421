"""A persistent cache of each paper's method name and derived title (and a list's ids), per list."""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import unicodedata
from collections.abc import Callable
from pathlib import Path

from paperdeck.core.config import cache_dir
from paperdeck.core.plumbing.atomic_write import atomic_write

"""A folder for the cache files; the value `off` disables the cache."""
FORMAT = "paperdeck-titles-3"
MAX_FILES = 16
MAX_TOTAL_BYTES = 96 * 1024 * 1024
"""Older list caches are removed once the folder holds more than this (a 100k list is ~10 MB)."""
_PREFIX = "titles-v1-"

Entry = tuple[str | None, str]

_algorithm_version: str | None = None


def algorithm_version() -> str:
    """A hash of titles.py's source: any change to the titles algorithm invalidates every cache."""
    global _algorithm_version
    if _algorithm_version is None:
        from paperdeck.core.titles import derive as titles

        try:
            source = Path(titles.__file__).read_bytes()
        except (OSError, TypeError):
            # Without the source (a frozen build) there is nothing to tie the cache to.
            source = b""
        _algorithm_version = hashlib.sha1(source).hexdigest()[:16] if source else ""
    return _algorithm_version


def ids_key(list_path: Path, fmt: str, count: int) -> str:
    """What a list's ids rest on: the file as it is on disk, how it is read, and the code.

    The file's size and modification time stand for its texts (hashing 100 MB of abstracts
    again would cost 0.17 s of a 1.2 s load); the sources of the modules that read and hash it
    and the Unicode tables stand for the code.
    """
    try:
        stat = list_path.stat()
        where = str(list_path.resolve())
    except OSError:
        return ""
    code = _ids_code_version()
    if not code:
        return ""
    digest = hashlib.blake2b(digest_size=20)
    digest.update(f"{where}\0{stat.st_size}\0{stat.st_mtime_ns}\0{fmt}\0{count}\0".encode())
    digest.update(code)
    return digest.hexdigest()


_ids_code: bytes | None = None


def _ids_code_version() -> bytes:
    global _ids_code
    if _ids_code is None:
        from paperdeck.core import formats, ids
        from paperdeck.core.text import sanitize

        try:
            sources = b"".join(
                Path(m.__file__ or "").read_bytes() for m in (formats, ids, sanitize)
            )
        except OSError:
            sources = b""
        unicode_tables = unicodedata.unidata_version.encode("ascii")
        _ids_code = hashlib.sha1(sources + unicode_tables).digest() if sources else b""
    return _ids_code


def cache_file(list_path: Path) -> Path | None:
    """The cache file of one list (by its resolved path), or None when caching is off."""
    folder = cache_dir()
    if folder is None or not algorithm_version():
        return None
    try:
        resolved = str(list_path.resolve())
    except (OSError, RuntimeError):
        resolved = str(list_path.absolute())
    digest = hashlib.sha1(resolved.encode("utf-8", "surrogatepass")).hexdigest()[:20]
    return folder / f"{_PREFIX}{digest}.bin"


class TitleCache:
    """Method and derived title by paper id, checked against the abstract's length; and the ids
    of the list's texts as last computed, reused only when the texts are exactly the same.

    The id hashes the abstract's content up to case and whitespace; the length catches most
    edits the id ignores. Everything that goes wrong with the file is ignored: it is only a cache.
    """

    def __init__(
        self,
        path: Path | None,
        entries: dict[str, tuple[int, str | None, str]],
        ids: tuple[str, list[str]] | None = None,
        list_path: Path | None = None,
    ) -> None:
        self.path = path
        self.list_path = list_path
        self._old = entries
        self._new: dict[str, tuple[int, str | None, str]] = {}
        self._computed = 0
        self._ids = ids
        self._ids_changed = False

    @classmethod
    def for_list(cls, list_path: Path) -> TitleCache:
        """The cache of one list, loaded from disk (empty when absent, stale, corrupt or off)."""
        path = cache_file(list_path)
        if path is None:
            return cls(None, {})
        return cls(path, *_load(path), list_path=list_path)

    def ids_for(
        self, texts: list[str], assign: Callable[[list[str]], list[str]], fmt: str
    ) -> list[str]:
        """The ids of a list's identity texts: as last time when its file has not changed."""
        if self.path is None or self.list_path is None:
            return assign(texts)
        key = ids_key(self.list_path, fmt, len(texts))
        cached = self._ids
        if key and cached is not None and cached[0] == key and len(cached[1]) == len(texts):
            return list(cached[1])
        found = assign(texts)
        if key:
            self._ids, self._ids_changed = (key, found), True
        return found

    def get(self, paper_id: str, abstract: str) -> Entry | None:
        """The cached (method, title) of a paper, or None."""
        entry = self._old.get(paper_id)
        if type(entry) is not tuple or len(entry) != 3:
            return None
        length, method, title = entry
        if length != len(abstract) or type(title) is not str:
            return None
        if method is not None and type(method) is not str:
            return None
        self._new[paper_id] = entry
        return method, title

    def put(self, paper_id: str, abstract: str, method: str | None, title: str) -> None:
        """Record a freshly computed (method, title)."""
        self._new[paper_id] = (len(abstract), method, title)
        self._computed += 1

    @property
    def computed(self) -> int:
        """How many entries were computed (not found) since loading."""
        return self._computed

    def save(self) -> None:
        """Write this list's entries when anything new was computed; failures are ignored."""
        if self.path is None or not (self._computed or self._ids_changed):
            return
        data = marshal.dumps((FORMAT, algorithm_version(), self._new, self._ids))
        with contextlib.suppress(OSError, ValueError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self.path, data, sync=False)
            _prune(self.path.parent, keep=self.path)
        self._old, self._computed, self._ids_changed = self._new, 0, False
        self._new = dict(self._new)


def _load(
    path: Path,
) -> tuple[dict[str, tuple[int, str | None, str]], tuple[str, list[str]] | None]:
    try:
        data = path.read_bytes()
    except OSError:
        return {}, None
    try:
        loaded = marshal.loads(data)
    except Exception:  # whatever a damaged file makes marshal raise: it is only a cache
        return {}, None
    if (
        type(loaded) is not tuple
        or len(loaded) != 4
        or loaded[0] != FORMAT
        or loaded[1] != algorithm_version()
        or type(loaded[2]) is not dict
    ):
        return {}, None
    # Marks the file as recently used, so pruning removes the caches of lists not opened lately.
    with contextlib.suppress(OSError):
        os.utime(path)
    entries: dict[str, tuple[int, str | None, str]] = loaded[2]
    ids = loaded[3]
    valid_ids = (
        type(ids) is tuple
        and len(ids) == 2
        and type(ids[0]) is str
        and type(ids[1]) is list
        and all(type(one) is str for one in ids[1])
    )
    return entries, ids if valid_ids else None


def _prune(folder: Path, keep: Path) -> None:
    """Remove the least recently used list caches beyond MAX_FILES or MAX_TOTAL_BYTES."""
    found: list[tuple[float, int, Path]] = []
    for path in folder.glob(f"{_PREFIX}*.bin"):
        with contextlib.suppress(OSError):
            stat = path.stat()
            found.append((stat.st_mtime, stat.st_size, path))
    found.sort(reverse=True)
    total = 0
    for index, (_, size, path) in enumerate(found):
        total += size
        if path != keep and (index >= MAX_FILES or total > MAX_TOTAL_BYTES):
            with contextlib.suppress(OSError):
                path.unlink()

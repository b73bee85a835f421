"""The store file: one SQLite database in the cache folder holding every recently opened list.

Whatever goes wrong with it (damaged, locked, from another version, unwritable) costs a rebuild
or a read without it, said in one line; never a crash, and never another list's papers.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from array import array
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import xxhash

from paperdeck.core.config import cache_dir
from paperdeck.core.model import Paper
from paperdeck.core.store.columns import (
    CHUNK_PAPERS,
    HEAD_COLUMNS,
    Chunk,
    Damaged,
    check_head,
    decode,
    decode_abstracts,
    decode_column,
    decode_flags,
    decode_ids,
    decode_titles,
    encode,
)
from paperdeck.core.text.sanitize import clean_line

FILE_NAME = "lists-1.sqlite3"
APPLICATION_ID = 0x70646B31  # "pdk1"
SCHEMA_VERSION = 4
MAX_LISTS = 16
MAX_BYTES = 2 * 1024**3
"""Least recently opened lists are dropped beyond this many, or beyond this much stored text
(a 100,000-paper list takes ~130 MB; a 1,000,000-paper one ~1.3 GB)."""
READ_PATIENCE = 1.0
"""Seconds a read waits for a lock held by another process before reading the list itself."""
WRITE_PATIENCE = 20.0
"""Seconds a save waits for another process's save (a big list's takes seconds)."""
_TOUCH_AFTER = 3600.0
_WORDS_PER_QUERY = 500
MAX_FINGERPRINTS = 256
"""Files whose content digest is kept under their fingerprint (the most recently keyed)."""
_FINGERPRINTS_TABLE = """CREATE TABLE IF NOT EXISTS fingerprints (
    path BLOB PRIMARY KEY, fingerprint TEXT NOT NULL, digest TEXT NOT NULL,
    row_sum INTEGER NOT NULL, used REAL NOT NULL
)"""
_POSTINGS_BATCH = 2048
"""Postings rows inserted at once between two pauses of a save."""
SEPARATOR_BYTE = b"\0"

# SQLite reaches a column of a row through the columns before it: the abstracts (hundreds of
# KB in overflow pages) come last, so a chunk's abstract ends and head are read without them.
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS lists (
    key TEXT PRIMARY KEY, count INTEGER NOT NULL, info TEXT NOT NULL, info_sum INTEGER NOT NULL,
    bytes INTEGER NOT NULL, used REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS chunks (
    key TEXT NOT NULL, number INTEGER NOT NULL, count INTEGER NOT NULL,
    abstract_ends BLOB NOT NULL,
    {", ".join(f"{name} BLOB NOT NULL" for name in HEAD_COLUMNS)},
    head_sum INTEGER NOT NULL, abstracts_sum INTEGER NOT NULL, abstracts BLOB NOT NULL,
    PRIMARY KEY (key, number)
);
CREATE TABLE IF NOT EXISTS postings (
    key TEXT NOT NULL, field INTEGER NOT NULL, word TEXT NOT NULL, docs BLOB NOT NULL,
    PRIMARY KEY (key, field, word)
);
CREATE TABLE IF NOT EXISTS blobs (
    key TEXT NOT NULL, name TEXT NOT NULL, data BLOB NOT NULL, data_sum INTEGER NOT NULL,
    PRIMARY KEY (key, name)
);
"""
_HEAD_SELECT = ", ".join(HEAD_COLUMNS)
_CHUNK_COLUMNS = (
    "key",
    "number",
    "count",
    "abstract_ends",
    *HEAD_COLUMNS,
    "head_sum",
    "abstracts_sum",
    "abstracts",
)


class StoreUnavailable(Exception):
    """The store cannot be used now; the message says why in one line."""


class StoreDamaged(StoreUnavailable):
    """SQLite finds the file itself damaged: it is to be started afresh."""


@dataclass
class ListInfo:
    """What a stored list keeps besides its papers."""

    format: str
    header: str | None
    venue: str | None
    year: int | None
    warnings: list[str] = field(default_factory=list)
    """Loading warnings with the list's path written as PATH_MARK."""


PATH_MARK = "\0"
"""Stands for the list's path in stored warnings (a list may be opened under other names)."""


class ListStore:
    """An open store file. Methods raise StoreUnavailable when the file fails them."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._db = connection
        self.path = path
        self.damaged = False
        """Whether SQLite found the file damaged: it is discarded then (see `_failure`)."""

    # ------------------------------------------------------------------------ opening

    @classmethod
    def open(cls, messages: list[str]) -> ListStore | None:
        """The store in the cache folder; None when caching is off or the file cannot be used
        (the reason appended to `messages`). A damaged or foreign file is started afresh."""
        folder = cache_dir()
        if folder is None:
            return None
        path = folder / FILE_NAME
        try:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except (FileExistsError, NotADirectoryError):
                # mkdir's own reason ("File exists") does not say which file is in the way.
                blocker = next(p for p in (folder, *folder.parents) if p.exists())
                raise StoreUnavailable(f"{blocker} is a file, not a folder") from None
            return cls._open_file(path, messages)
        except (OSError, sqlite3.Error, UnicodeDecodeError, StoreUnavailable) as error:
            messages.append(
                f"list store {path} unavailable ({_reason(error)}); lists read without it"
            )
            return None

    @classmethod
    def _open_file(cls, path: Path, messages: list[str]) -> ListStore:
        for attempt in range(2):
            connection = sqlite3.connect(
                path, timeout=READ_PATIENCE, isolation_level=None, check_same_thread=False
            )
            try:
                problem = _prepare(connection)
            except (sqlite3.DatabaseError, UnicodeDecodeError) as error:
                # A bit flipped in the schema's text fails SQLite's message about it to decode.
                busy = isinstance(error, sqlite3.DatabaseError) and _is_busy(error)
                if busy or attempt:
                    connection.close()
                    raise
                problem = "damaged"
            if problem is None:
                return cls(connection, path)
            connection.close()
            if attempt:
                break
            _discard(path)
            messages.append(f"list store {path} was {problem}; started afresh")
        raise StoreUnavailable("cannot be started afresh")

    def close(self) -> None:
        """Close the file."""
        with contextlib.suppress(sqlite3.Error):
            self._db.close()

    # ------------------------------------------------------------------------ reading

    def info(self, key: str) -> tuple[int, ListInfo] | None:
        """The paper count and info of a stored list; None when it is not stored (or damaged:
        then it is dropped)."""
        row = self._query_one("SELECT count, info, info_sum, used FROM lists WHERE key = ?", key)
        if row is None:
            return None
        count, info_text, info_sum, used = row
        try:
            if type(count) is not int or type(info_text) is not str or count <= 0:
                raise Damaged("a list's count")
            if _text_sum(key, count, info_text) != info_sum:
                raise Damaged("a list's checksum")
            info = _info_from_json(info_text)
        except Damaged:
            self.drop(key)
            raise
        if type(used) is not float or time.time() - used > _TOUCH_AFTER:
            # Marks the list as recently opened, so pruning drops the others first.
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("UPDATE lists SET used = ? WHERE key = ?", (time.time(), key))
        return count, info

    def papers(
        self,
        key: str,
        count: int,
        list_name: str,
        *,
        with_abstracts: bool = True,
        report: Callable[[list[Paper], int], None] | None = None,
    ) -> list[Paper]:
        """Every paper of a stored list (abstracts "" unless asked for); Damaged drops it.

        `report` gets the papers read so far, and the count, after each chunk."""
        columns = f"number, count, {_HEAD_SELECT}, head_sum, abstracts_sum"
        if with_abstracts:
            columns += ", abstracts"
        papers: list[Paper] = []
        try:
            for number, row in enumerate(
                self._query(f"SELECT {columns} FROM chunks WHERE key = ? ORDER BY number", key)
            ):
                papers.extend(_chunk_papers(row, key, number, len(papers) + 1, list_name))
                if report is not None:
                    report(papers, count)
            if len(papers) != count or len({paper.id for paper in papers}) != count:
                raise Damaged("a list's count or ids")
        except Damaged:
            self.drop(key)
            raise
        return papers

    def ids(self, key: str, count: int) -> list[str]:
        """The ids of a stored list's papers in order, checked, without building the papers."""
        return self._head_columns(key, count, ids=True)[0]

    def ids_and_flags(self, key: str, count: int) -> tuple[list[str], bytes]:
        """The ids of a stored list's papers in order, and per paper 1 when its title was
        derived from its abstract: both checked, without building the papers."""
        ids, _, flags = self._head_columns(key, count, ids=True, flags=True)
        return ids, flags

    def ids_titles_and_flags(self, key: str, count: int) -> tuple[list[str], list[str], bytes]:
        """The ids and titles of a stored list's papers in order, checked and cleaned as
        `papers` has them, and per paper 1 when its title was derived, without building the
        papers (what `paperdeck list` prints)."""
        return self._head_columns(key, count, ids=True, titles=True, flags=True)

    def titles_and_flags(self, key: str, count: int) -> tuple[list[str], bytes]:
        """The titles of a stored list's papers in order, cleaned as `papers` has them, and
        per paper 1 when its title was derived: checked, without the ids or the papers (what
        the reader measures its rows by)."""
        _, titles, flags = self._head_columns(key, count, titles=True, flags=True)
        return titles, flags

    def _head_columns(
        self,
        key: str,
        count: int,
        *,
        ids: bool = False,
        titles: bool = False,
        flags: bool = False,
        whole: bool = False,
    ) -> tuple[list[str], list[str], bytes]:
        """The ids, titles and derived-title flags asked for, of every chunk in order, each
        chunk's head checked (and the ids: as many as `count`, none twice); with `whole`, a
        title the list cut is whole where it was kept so. Damaged drops the list."""
        found_ids: list[str] = []
        found_titles: list[str] = []
        found_flags = bytearray()
        titles_at = HEAD_COLUMNS.index("titles")
        flags_at = HEAD_COLUMNS.index("flags")
        try:
            for number, row in enumerate(
                self._query(
                    f"SELECT number, count, {_HEAD_SELECT}, head_sum FROM chunks "
                    "WHERE key = ? ORDER BY number",
                    key,
                )
            ):
                chunk = _chunk_of((*row, 0), number)
                if ids:
                    found_ids.extend(decode_ids(chunk, key, number))  # checks the head
                else:
                    check_head(chunk, key, number)
                if titles:
                    cut = decode_titles(chunk.head[titles_at], chunk.count)
                    if whole:  # "" where a title was not cut (uncut_title None)
                        kept = decode_column(chunk, "uncut_titles")
                        cut = [title or shown for shown, title in zip(cut, kept, strict=True)]
                    found_titles.extend(cut)
                if flags:
                    found_flags += decode_flags(chunk.head[flags_at], chunk.count)
            if ids and (len(found_ids) != count or len(set(found_ids)) != count):
                raise Damaged("a list's count or ids")
            if titles and len(found_titles) != count:
                raise Damaged("a list's count")
        except Damaged:
            self.drop(key)
            raise
        return found_ids, found_titles, bytes(found_flags)

    def row_titles(self, key: str, count: int) -> list[str]:
        """The titles of a stored list's papers as its rows show them, checked: a made-up
        title the list cut, whole when it was kept so (what the reader measures its rows by;
        `titles_and_flags` gives them cut)."""
        return self._head_columns(key, count, titles=True, whole=True)[1]

    def chunk(self, key: str, number: int, list_name: str) -> list[Paper]:
        """The papers of one stored chunk, abstracts and all; Damaged drops the list."""
        row = self._query_one(
            f"SELECT number, count, {_HEAD_SELECT}, head_sum, abstracts_sum, abstracts "
            "FROM chunks WHERE key = ? AND number = ?",
            key,
            number,
        )
        try:
            if row is None:
                raise Damaged("a missing chunk")
            return _chunk_papers(row, key, number, number * CHUNK_PAPERS + 1, list_name)
        except Damaged:
            self.drop(key)
            raise

    def chunk_head(self, key: str, number: int) -> Chunk:
        """One stored chunk without its abstracts, its checksum checked (`columns` decodes
        it); Damaged drops the list."""
        row = self._query_one(
            f"SELECT number, count, {_HEAD_SELECT}, head_sum, abstracts_sum "
            "FROM chunks WHERE key = ? AND number = ?",
            key,
            number,
        )
        try:
            if row is None:
                raise Damaged("a missing chunk")
            chunk = _chunk_of(row, number)
            check_head(chunk, key, number)
        except Damaged:
            self.drop(key)
            raise
        return chunk

    def abstracts(self, key: str, number: int) -> tuple[list[str], list[str]]:
        """The ids and abstracts of one stored chunk, its papers not made; Damaged drops the
        list."""
        row = self._query_one(
            f"SELECT number, count, {_HEAD_SELECT}, head_sum, abstracts_sum, abstracts "
            "FROM chunks WHERE key = ? AND number = ?",
            key,
            number,
        )
        try:
            if row is None:
                raise Damaged("a missing chunk")
            return decode_abstracts(_chunk_of(row, number), key, number)
        except Damaged:
            self.drop(key)
            raise

    # ------------------------------------------------------------------------ writing

    def save(self, key: str, info: ListInfo, papers: Sequence[Paper]) -> None:
        """Keep a list's papers (unless another process already did) and prune old lists."""
        chunks = [
            encode(papers[start : start + CHUNK_PAPERS], key, number)
            for number, start in enumerate(range(0, len(papers), CHUNK_PAPERS))
        ]
        info_text = json.dumps(
            {
                "format": info.format,
                "header": info.header,
                "venue": info.venue,
                "year": info.year,
                "warnings": info.warnings,
            },
            ensure_ascii=False,
        )
        size = sum(len(c.abstracts) + sum(map(len, c.head)) for c in chunks)
        with self._writing():
            if self._db.execute("SELECT 1 FROM lists WHERE key = ?", (key,)).fetchone():
                return  # another process kept it meanwhile
            self._delete(key)
            self._db.execute(
                "INSERT INTO lists VALUES (?, ?, ?, ?, ?, ?)",
                (
                    key,
                    len(papers),
                    info_text,
                    _text_sum(key, len(papers), info_text),
                    size,
                    time.time(),
                ),
            )
            marks = ", ".join("?" * len(_CHUNK_COLUMNS))
            self._db.executemany(
                f"INSERT INTO chunks ({', '.join(_CHUNK_COLUMNS)}) VALUES ({marks})",
                (
                    (
                        key,
                        number,
                        c.count,
                        _ends(c.abstracts),
                        *c.head,
                        c.head_sum,
                        c.abstracts_sum,
                        c.abstracts,
                    )
                    for number, c in enumerate(chunks)
                ),
            )
            self._prune(keep=key)

    def drop(self, key: str) -> None:
        """Forget a stored list (a damaged one); failures are ignored."""
        with contextlib.suppress(sqlite3.Error, StoreUnavailable), self._writing():
            self._delete(key)

    # ------------------------------------------------------------------------ opaque blobs

    def put_blob(
        self, key: str, name: str, data: bytes, *, patience: float = WRITE_PATIENCE
    ) -> None:
        """Keep bytes a client derived from a stored list (a search index), under its key,
        waiting up to `patience` seconds for another process's write.

        They go when the list goes; a list not stored takes none.
        """
        with self._writing(patience):
            if self._db.execute("SELECT 1 FROM lists WHERE key = ?", (key,)).fetchone() is None:
                return
            self._db.execute(
                "INSERT OR REPLACE INTO blobs VALUES (?, ?, ?, ?)",
                (key, name, data, _blob_sum(key, name, data)),
            )

    def get_blob(self, key: str, name: str) -> bytes | None:
        """Bytes kept by put_blob, checked against their checksum; None when absent or damaged."""
        row = self._query_one(
            "SELECT data, data_sum FROM blobs WHERE key = ? AND name = ?", key, name
        )
        if row is None:
            return None
        data, data_sum = row
        if type(data) is not bytes or _blob_sum(key, name, data) != data_sum:
            with contextlib.suppress(sqlite3.Error, StoreUnavailable), self._writing():
                self._db.execute("DELETE FROM blobs WHERE key = ? AND name = ?", (key, name))
            return None
        return data

    # ------------------------------------------------------------------------ file fingerprints

    def known_digest(self, path: bytes, fingerprint: str) -> str | None:
        """The content digest kept for the file at `path` when its fingerprint was this one
        (see paperdeck.core.store.key); None when unknown, damaged or unreadable."""
        try:
            row = self._db.execute(
                "SELECT digest, row_sum FROM fingerprints WHERE path = ? AND fingerprint = ?",
                (path, fingerprint),
            ).fetchone()
        except sqlite3.Error:
            return None  # a store made before fingerprints were kept, or a busy file
        if row is None:
            return None
        digest, row_sum = row
        if type(digest) is not str or _fingerprint_sum(path, fingerprint, digest) != row_sum:
            return None
        return digest

    def remember_digest(self, path: bytes, fingerprint: str, digest: str) -> None:
        """Keep a file's content digest under its fingerprint, replacing what that path had.

        Only a moment's wait for another process's write: keying must not stall behind a big
        list's save, and a digest not kept costs one hashing of the file next time.
        """
        with contextlib.suppress(sqlite3.Error, StoreUnavailable), self._writing(patience=0.1):
            # Made here rather than with the store, so a store from before it gains the table.
            self._db.execute(_FINGERPRINTS_TABLE)
            self._db.execute(
                "INSERT OR REPLACE INTO fingerprints VALUES (?, ?, ?, ?, ?)",
                (
                    path,
                    fingerprint,
                    digest,
                    _fingerprint_sum(path, fingerprint, digest),
                    time.time(),
                ),
            )
            self._db.execute(
                "DELETE FROM fingerprints WHERE path NOT IN "
                "(SELECT path FROM fingerprints ORDER BY used DESC LIMIT ?)",
                (MAX_FINGERPRINTS,),
            )

    def drop_blob(self, key: str, name: str) -> None:
        """Forget bytes kept by put_blob (found wrong by their client); failures are ignored."""
        with contextlib.suppress(sqlite3.Error, StoreUnavailable), self._writing():
            self._db.execute("DELETE FROM blobs WHERE key = ? AND name = ?", (key, name))

    # ------------------------------------------------------------------------ word postings

    def postings(self, key: str, field: int, word: str) -> bytes | None:
        """The bytes kept for one word of one field by `save_postings_steps`, if any."""
        row = self._query_one(
            "SELECT docs FROM postings WHERE key = ? AND field = ? AND word = ?", key, field, word
        )
        return row[0] if row is not None and type(row[0]) is bytes else None

    def postings_of(self, key: str, field: int, words: Sequence[str]) -> dict[str, bytes]:
        """`postings` of several words of one field, read by one query per few hundred (a word
        start stands for hundreds of words); a word without any is left out."""
        found: dict[str, bytes] = {}
        for start in range(0, len(words), _WORDS_PER_QUERY):
            part = words[start : start + _WORDS_PER_QUERY]
            marks = ", ".join("?" * len(part))
            for word, docs in self._query(
                "SELECT word, docs FROM postings WHERE key = ? AND field = ? "
                f"AND word IN ({marks})",
                key,
                field,
                *part,
            ):
                if type(docs) is bytes:
                    found[word] = docs
        return found

    def has_postings(self, key: str, field: int) -> bool:
        """Whether some word of one field is kept (without reading the field's words)."""
        return (
            self._query_one(
                "SELECT 1 FROM postings WHERE key = ? AND field = ? LIMIT 1", key, field
            )
            is not None
        )

    def postings_words(self, key: str, field: int) -> list[str]:
        """Every word kept for one field, sorted."""
        return [
            row[0]
            for row in self._query(
                "SELECT word FROM postings WHERE key = ? AND field = ? ORDER BY word", key, field
            )
        ]

    def save_postings_steps(
        self,
        key: str,
        rows: Iterable[tuple[int, str, bytes] | None],
        blobs: dict[str, bytes],
    ) -> Generator[None, None, bool]:
        """Keep a list's word postings (field, word, bytes) in place of any it had, then the
        blobs, in one transaction; a None among the rows is a pause (the caller's slice ends).

        Returns False when the list is no longer stored (nothing is kept then).
        """
        with self._writing():
            if self._db.execute("SELECT 1 FROM lists WHERE key = ?", (key,)).fetchone() is None:
                return False
            self._db.execute("DELETE FROM postings WHERE key = ?", (key,))
            batch: list[tuple[str, int, str, bytes]] = []
            for row in rows:
                if row is not None:
                    batch.append((key, *row))
                    if len(batch) < _POSTINGS_BATCH:
                        continue
                if batch:
                    self._db.executemany("INSERT INTO postings VALUES (?, ?, ?, ?)", batch)
                    batch = []
                if row is None:
                    yield
            self._db.executemany("INSERT INTO postings VALUES (?, ?, ?, ?)", batch)
            for name, data in blobs.items():
                self._db.execute(
                    "INSERT OR REPLACE INTO blobs VALUES (?, ?, ?, ?)",
                    (key, name, data, _blob_sum(key, name, data)),
                )
        return True

    # ------------------------------------------------------------------------ single abstracts

    def abstract_places(self, key: str) -> list[tuple[int, array[int]]]:
        """Per chunk of a stored list, in order: its row and where each abstract ends in its
        abstracts (what `abstract_bytes` reads one abstract with)."""
        places: list[tuple[int, array[int]]] = []
        for number, (rowid, stored, ends) in enumerate(
            self._query(
                "SELECT rowid, number, abstract_ends FROM chunks WHERE key = ? ORDER BY number",
                key,
            )
        ):
            if stored != number or type(ends) is not bytes or len(ends) % 4:
                raise Damaged("a chunk's abstract ends")
            places.append((rowid, array("I", ends)))
        return places

    def abstract_bytes(self, rowid: int, start: int, stop: int) -> bytes:
        """Bytes `start` to `stop` of one chunk's abstracts, read without the rest of them."""
        try:
            with self._db.blobopen("chunks", "abstracts", rowid, readonly=True) as blob:
                if stop > len(blob):
                    raise Damaged("a chunk's abstract ends")
                blob.seek(start)
                return blob.read(stop - start)
        except sqlite3.Error as error:
            raise self._read_failure(error) from None

    def abstracts_bytes(self, rowid: int, spans: Sequence[tuple[int, int]]) -> list[bytes]:
        """Bytes `start` to `stop` of one chunk's abstracts for each of `spans` (ascending),
        read through one handle: SQLite walks the chunk's overflow pages once for them all."""
        try:
            with self._db.blobopen("chunks", "abstracts", rowid, readonly=True) as blob:
                size = len(blob)
                read: list[bytes] = []
                for start, stop in spans:
                    if stop > size:
                        raise Damaged("a chunk's abstract ends")
                    blob.seek(start)
                    read.append(blob.read(stop - start))
                return read
        except sqlite3.Error as error:
            raise self._read_failure(error) from None

    # ------------------------------------------------------------------------ internals

    def _query(self, sql: str, *parameters: Any) -> Iterator[tuple[Any, ...]]:
        try:
            yield from self._db.execute(sql, parameters)
        except sqlite3.Error as error:
            raise self._read_failure(error) from None

    def _query_one(self, sql: str, *parameters: Any) -> tuple[Any, ...] | None:
        for row in self._query(sql, *parameters):
            return row
        return None

    def _read_failure(self, error: sqlite3.Error) -> StoreUnavailable:
        """`_failure`, counted (see `read_failures`)."""
        failure = self._failure(error)
        count_failed_read(str(failure))
        return failure

    def _failure(self, error: sqlite3.Error) -> StoreUnavailable:
        """What to raise for a statement that failed. A file SQLite finds damaged is discarded
        at once: the next opening, in this process (a command reading its list again) or
        another, starts it afresh instead of meeting the damage again; this connection reads
        on from the file it has open and writes nothing more."""
        failure = _failure(error)
        if isinstance(failure, StoreDamaged) and not self.damaged:
            self.damaged = True
            _discard(self.path)
        return failure

    @contextlib.contextmanager
    def _writing(self, patience: float = WRITE_PATIENCE) -> Iterator[None]:
        if self.damaged:
            raise StoreDamaged("the file was found damaged and discarded")
        db = self._db
        try:
            db.execute(f"PRAGMA busy_timeout = {int(patience * 1000)}")
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise StoreUnavailable(_reason(error)) from None
        try:
            yield
            db.execute("COMMIT")
        except BaseException as error:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            if isinstance(error, sqlite3.Error):
                raise self._failure(error) from None
            raise
        finally:
            with contextlib.suppress(sqlite3.Error):
                db.execute(f"PRAGMA busy_timeout = {int(READ_PATIENCE * 1000)}")

    def _delete(self, key: str) -> None:
        for table in ("lists", "chunks", "blobs", "postings"):
            self._db.execute(f"DELETE FROM {table} WHERE key = ?", (key,))

    def _prune(self, keep: str) -> None:
        rows = self._db.execute("SELECT key, bytes FROM lists ORDER BY used DESC").fetchall()
        total = 0
        for index, (key, size) in enumerate(rows):
            total += size if type(size) is int else 0
            if key != keep and (index >= MAX_LISTS or total > MAX_BYTES):
                self._delete(key)


def _prepare(connection: sqlite3.Connection) -> str | None:
    """Make the file ready; what is wrong with it (it is not ours, or another version's)."""
    # One read transaction: another process making the store between two of these reads
    # would otherwise show tables without the store's id, as if the file were not ours.
    connection.execute("BEGIN")
    try:
        application_id = connection.execute("PRAGMA application_id").fetchone()[0]
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        tables = connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    finally:
        connection.execute("COMMIT")
    if application_id == APPLICATION_ID and version == SCHEMA_VERSION:
        connection.execute("PRAGMA synchronous = NORMAL")
        return None
    if application_id not in (0, APPLICATION_ID) or (tables and application_id == 0):
        return "not a paperdeck list store"
    if application_id == APPLICATION_ID:
        return f"written by another version (schema {version})"
    # Before anything writes the file's first page (the switch to WAL does), or it is not kept.
    # It also maps each overflow page: an abstract read alone then skips the pages before it.
    connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = NORMAL")
    connection.execute(f"PRAGMA busy_timeout = {int(WRITE_PATIENCE * 1000)}")
    connection.execute("BEGIN IMMEDIATE")
    try:
        # Another process may have made the store while this one waited for the lock.
        if connection.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID:
            connection.execute("COMMIT")
            connection.execute(f"PRAGMA busy_timeout = {int(READ_PATIENCE * 1000)}")
            return _prepare(connection)
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                connection.execute(statement)
        connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        connection.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            connection.execute("ROLLBACK")
        raise
    connection.execute(f"PRAGMA busy_timeout = {int(READ_PATIENCE * 1000)}")
    return None


def _chunk_papers(
    row: tuple[Any, ...], key: str, number: int, first: int, list_name: str
) -> list[Paper]:
    with_abstracts = len(row) > 4 + len(HEAD_COLUMNS)
    chunk = _chunk_of(row, number)
    return decode(chunk, key, number, first, list_name, with_abstracts=with_abstracts)


def _chunk_of(row: tuple[Any, ...], number: int) -> Chunk:
    """A chunk's row as read (its abstracts b"" when not read), its types checked."""
    width = len(HEAD_COLUMNS)
    stored_number, count = row[0], row[1]
    head = row[2 : 2 + width]
    head_sum, abstracts_sum = row[2 + width], row[3 + width]
    abstracts = row[4 + width] if len(row) > 4 + width else b""
    if stored_number != number or type(count) is not int:
        raise Damaged("a chunk's number")
    if not all(type(part) is bytes for part in (*head, abstracts)):
        raise Damaged("a chunk's columns")
    if type(head_sum) is not int or type(abstracts_sum) is not int:
        raise Damaged("a chunk's checksum")
    return Chunk(count, tuple(head), abstracts, head_sum, abstracts_sum)


def _info_from_json(text: str) -> ListInfo:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise Damaged("a list's info") from None
    if type(value) is not dict:
        raise Damaged("a list's info")
    fmt, header, venue, year, warnings = (
        value.get(name) for name in ("format", "header", "venue", "year", "warnings")
    )
    if (
        type(fmt) is not str
        or not (header is None or type(header) is str)
        or not (venue is None or type(venue) is str)
        or not (year is None or (type(year) is int and 1000 <= year <= 9999))
        or type(warnings) is not list
        or not all(type(w) is str for w in warnings)
    ):
        raise Damaged("a list's info")
    return ListInfo(
        clean_line(fmt),
        None if header is None else clean_line(header),
        None if venue is None else clean_line(venue),
        year,
        # The path mark is NUL, which clean_line would remove: keep it between cleaned parts.
        [PATH_MARK.join(clean_line(part) for part in w.split(PATH_MARK)) for w in warnings],
    )


def _ends(abstracts: bytes) -> bytes:
    """Where each abstract of a chunk's NUL-joined abstracts ends."""
    ends = array("I")
    end = -1
    for part in abstracts.split(SEPARATOR_BYTE):
        end += len(part) + 1
        ends.append(end)
    return ends.tobytes()


def _text_sum(key: str, count: int, text: str) -> int:
    digest = xxhash.xxh3_64(f"{key}\0{count}\0".encode())
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.intdigest() - (1 << 63)


def _blob_sum(key: str, name: str, data: bytes) -> int:
    digest = xxhash.xxh3_64(f"{key}\0{name}\0".encode("utf-8", "surrogatepass"))
    digest.update(data)
    return digest.intdigest() - (1 << 63)


def _fingerprint_sum(path: bytes, fingerprint: str, digest: str) -> int:
    digest_of_row = xxhash.xxh3_64(path)
    digest_of_row.update(f"\0{fingerprint}\0{digest}".encode("utf-8", "surrogatepass"))
    return digest_of_row.intdigest() - (1 << 63)


_failed_reads: list[str] = []


def read_failures() -> int:
    """How many reads of a list store SQLite failed in this process so far. Parts of a search
    index read from the store as a query asks answer a failed read as nothing kept (a word no
    paper has, an empty abstract) rather than stop the search: a caller that needs its result
    whole checks that this did not grow meanwhile, and else works without the store."""
    return len(_failed_reads)


def count_failed_read(reason: str) -> None:
    """Count a read that its caller found damaged (a checksum, a paper number beyond the list)
    and answers as nothing kept, as `read_failures` counts those SQLite failed."""
    _failed_reads.append(reason)


def last_read_failure() -> str:
    """Why the last failed read of `read_failures` failed, in a few words ("" before any)."""
    return _failed_reads[-1] if _failed_reads else ""


def _failure(error: sqlite3.Error) -> StoreUnavailable:
    text = str(error)
    if "malformed" in text or "not a database" in text or "corrupt" in text:
        return StoreDamaged(_reason(error))
    return StoreUnavailable(_reason(error))


def discard(path: Path) -> None:
    """Delete a store file and its companions (a damaged one)."""
    _discard(path)


def _is_busy(error: sqlite3.Error) -> bool:
    return "locked" in str(error) or "busy" in str(error)


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error) or type(error).__name__


def _discard(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(OSError):
            Path(f"{path}{suffix}").unlink()

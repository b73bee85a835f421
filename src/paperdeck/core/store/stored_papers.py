"""The papers of one stored list as a sequence read a chunk at a time, for commands that show a
few papers of a big list (`paperdeck search` prints 20 of 100,000; building them all took most
of its time)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, overload

from paperdeck.core.formats import check_list_file
from paperdeck.core.formats.sidecar import sidecar_for
from paperdeck.core.model import NO_EXTRA, Paper
from paperdeck.core.papers import Column, Papers
from paperdeck.core.store.columns import (
    AUTHOR_SEPARATOR,
    CHUNK_PAPERS,
    HEAD_COLUMNS,
    Chunk,
    Damaged,
    decode_column,
    decode_columns,
    decode_flags,
    paper_at,
)
from paperdeck.core.store.database import PATH_MARK, ListStore, StoreUnavailable
from paperdeck.core.store.key import list_key
from paperdeck.core.text.sanitize import clean_line


class StoredPapers(Papers):
    """A stored list's papers without their abstracts, each chunk decoded when first asked for.

    Reading may raise Damaged (the store then drops the list) or StoreUnavailable: a caller
    falls back to loading the list whole. With `stand_ins` a chunk that cannot be read gives
    stand-in papers instead, which say so in their title (and the store drops the list, so
    the next opening reads it again): a reader showing the list cannot load it again midway.
    """

    def __init__(
        self, store: ListStore, key: str, count: int, list_name: str, *, stand_ins: bool = False
    ) -> None:
        self.store = store
        self.key = key
        self._count = count
        self._list_name = list_name
        self._stand_ins = stand_ins
        self._chunks: dict[int, dict[str, Any]] = {}
        self._papers: dict[int, Paper] = {}
        self._heads: dict[int, Chunk] = {}
        self._columns: dict[tuple[int, str], list[str]] = {}
        self._flags: dict[int, bytes] = {}
        self._ids_and_flags: tuple[list[str], bytes] | None = None
        self._titles_and_flags: tuple[list[str], bytes] | None = None

    def __len__(self) -> int:
        return self._count

    @property
    def list_name(self) -> str:
        """The `list_name` of its papers."""
        return self._list_name

    @overload
    def __getitem__(self, at: int) -> Paper: ...
    @overload
    def __getitem__(self, at: slice) -> list[Paper]: ...
    def __getitem__(self, at: int | slice) -> Paper | list[Paper]:
        if isinstance(at, slice):
            return [self[i] for i in range(*at.indices(self._count))]
        if at < 0:
            at += self._count
        if not 0 <= at < self._count:
            raise IndexError(at)
        paper = self._papers.get(at)
        if paper is None:
            number, local = divmod(at, CHUNK_PAPERS)
            # Ranking looks at a few papers in each of many chunks: only those are made.
            paper = self._papers[at] = paper_at(self._chunk(number), local)
        return paper

    def _chunk(self, number: int) -> dict[str, Any]:
        """Chunk `number`'s `decode_columns`, decoded when first asked for."""
        columns = self._chunks.get(number)
        if columns is None:
            first = number * CHUNK_PAPERS + 1
            try:
                columns = decode_columns(
                    self._head(number), self.key, number, first, self._list_name,
                    with_abstracts=False,
                )  # fmt: skip
            except (Damaged, StoreUnavailable):
                self._failed()
                columns = _stand_in_columns(self._positions(number), self._list_name)
            self._chunks[number] = columns
        return columns

    def text(self, at: int, column: Column) -> str:
        """Paper `at`'s id, title, method or authors (see Column), read from that column of
        its chunk alone: ranking reads these of many papers, and a line of `search` two of a
        few."""
        number, local = divmod(at, CHUNK_PAPERS)
        values = self._columns.get((number, column))
        if values is None:
            try:
                values = decode_column(self._head(number), column)
            except (Damaged, StoreUnavailable):
                self._failed()
                values = _stand_in_texts(self._positions(number), column)
            self._columns[number, column] = values
        value = values[local]
        return ", ".join(value.split(AUTHOR_SEPARATOR)) if column == "authors" else value

    def title_derived(self, at: int) -> bool:
        """Whether paper `at`'s title was made up, read from its chunk's flags alone."""
        number, local = divmod(at, CHUNK_PAPERS)
        flags = self._flags.get(number)
        if flags is None:
            try:
                head = self._head(number)
                flags = decode_flags(head.head[HEAD_COLUMNS.index("flags")], head.count)
            except (Damaged, StoreUnavailable):
                self._failed()
                flags = bytes(len(self._positions(number)))
            self._flags[number] = flags
        return bool(flags[local])

    def _head(self, number: int) -> Chunk:
        head = self._heads.get(number)
        if head is None:
            head = self._heads[number] = self.store.chunk_head(self.key, number)
        return head

    def _positions(self, number: int) -> range:
        """The 1-based positions of chunk `number`'s papers."""
        first = number * CHUNK_PAPERS
        return range(first + 1, min(first + CHUNK_PAPERS, self._count) + 1)

    def _failed(self) -> None:
        """A read failed: raised again, unless stand-ins are to be given (the list is dropped
        then, as a Damaged chunk has it already)."""
        if not self._stand_ins:
            raise
        self.store.drop(self.key)

    def __iter__(self) -> Iterator[Paper]:
        for at in range(self._count):
            yield self[at]

    def ids(self) -> list[str]:
        """Every paper's id in order, read without decoding the papers."""
        return self._read_ids_and_flags()[0]

    def derived_flags(self, start: int = 0) -> bytes:
        """Per paper from `start` on, 1 when its title was derived from its abstract (as
        `title_derived`)."""
        if self._ids_and_flags is not None:
            return self._ids_and_flags[1][start:]
        return self._read_titles_and_flags()[1][start:]

    def titles(self) -> list[str]:
        """Every paper's title in order, read without decoding the papers."""
        return self._read_titles_and_flags()[0]

    def _read_titles_and_flags(self) -> tuple[list[str], bytes]:
        if self._titles_and_flags is None:
            try:
                self._titles_and_flags = self.store.titles_and_flags(self.key, self._count)
            except (Damaged, StoreUnavailable):
                self._failed()
                flags = bytes(self._by_chunk("title_derived"))
                self._titles_and_flags = self._by_chunk("title"), flags
        return self._titles_and_flags

    def row_titles(self, start: int = 0) -> Sequence[str | None]:
        """Every paper's title from `start` on as its row shows it (see Papers.row_titles),
        read without decoding the papers (a stored list does not grow: `start` is 0)."""
        try:
            titles = self.store.row_titles(self.key, self._count)
        except (Damaged, StoreUnavailable):
            self._failed()
            cut, whole = self._by_chunk("title"), self._by_chunk("uncut_title")
            titles = [kept or title for title, kept in zip(cut, whole, strict=True)]
        return titles[start:] if start else titles

    def per_paper(self, name: str, make: Callable[[], bytes]) -> bytes:
        """`make()`, kept in the list store under `name` the first time: a reader painting
        the list again reads them instead of every title."""
        try:
            kept = self.store.get_blob(self.key, name)
        except StoreUnavailable:
            kept = None
        if kept is not None and len(kept) == self._count:
            return kept
        made = make()
        # Only a moment's wait for another process's write: they are made again next time.
        with contextlib.suppress(StoreUnavailable):
            self.store.put_blob(self.key, name, made, patience=0.1)
        return made

    def ids_titles_and_flags(self) -> tuple[list[str], list[str], bytes]:
        """Every paper's id and title in order, and per paper 1 when its title was derived,
        read without decoding the papers."""
        return self.store.ids_titles_and_flags(self.key, self._count)

    def _read_ids_and_flags(self) -> tuple[list[str], bytes]:
        if self._ids_and_flags is None:
            try:
                self._ids_and_flags = self.store.ids_and_flags(self.key, self._count)
            except (Damaged, StoreUnavailable):
                self._failed()
                flags = bytes(self._by_chunk("title_derived"))
                self._ids_and_flags = self._by_chunk("id"), flags
        return self._ids_and_flags

    def _by_chunk(self, field: str) -> list[Any]:
        """One field of every paper, chunk by chunk (stand-ins where a chunk fails)."""
        values: list[Any] = []
        for number in range(-(-self._count // CHUNK_PAPERS)):
            values.extend(self._chunk(number)[field])
        return values


STAND_IN_TITLE = "(unreadable: this list's copy in the list store is damaged; open it again)"


def _stand_in_columns(positions: range, list_name: str) -> dict[str, Any]:
    """`decode_columns` of stand-ins for the papers at these positions of an unreadable
    chunk: their ids are no paper's (not hex), their titles say what happened."""
    count = len(positions)
    return {
        "id": _stand_in_texts(positions, "ids"),
        "position": positions,
        "list_name": [list_name] * count,
        "title": [STAND_IN_TITLE] * count,
        "title_derived": [False] * count,
        "abstract": [""] * count,
        "method": [None] * count,
        "authors": [()] * count,
        "venue": [None] * count,
        "year": [None] * count,
        "url": [None] * count,
        "links": [()] * count,
        "extra": [NO_EXTRA] * count,
        "meta_source": ["list"] * count,
        "uncut_title": [None] * count,
    }


def _stand_in_texts(positions: range, column: str) -> list[str]:
    if column == "ids":
        return [f"unreadable-{position}" for position in positions]
    return [STAND_IN_TITLE if column == "titles" else ""] * len(positions)


@dataclass
class StoredList:
    """One stored list opened lazily: its papers and the loading warnings it had."""

    papers: StoredPapers
    warnings: list[str]
    path: Path
    format: str | None

    def with_abstracts(self, papers: Sequence[Paper]) -> list[Paper]:
        """The papers with their abstracts, read back from the store (or the list file)."""
        from paperdeck.core.stored_abstracts import AbstractReader, ListPart

        part = ListPart(
            self.papers.list_name, self.path, self.format, self.papers.key, len(self.papers), True
        )
        return AbstractReader([part]).fill_many(papers)


def open_stored(
    store: ListStore, path: Path, fmt: str | None, *, use_sidecar: bool
) -> StoredList | None:
    """The list at `path` as the store keeps it, or None when it is not kept as it is now, or
    when a metadata sidecar beside it changes its papers (those are loaded whole).

    The store stays open for the papers' reading: the caller closes it.
    """
    if not path.is_file() or (use_sidecar and sidecar_for(path) is not None):
        return None
    check_list_file(path)
    key = list_key(path, fmt, store)
    found = store.info(key) if key is not None else None
    if key is None or found is None:
        return None
    count, info = found
    warnings = [w.replace(PATH_MARK, str(path)) for w in info.warnings]
    papers = StoredPapers(store, key, count, clean_line(path.stem))
    return StoredList(papers, warnings, path, fmt)

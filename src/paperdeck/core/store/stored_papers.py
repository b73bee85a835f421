"""The papers of one stored list as a sequence read a chunk at a time, for commands that show a
few papers of a big list (`paperdeck search` prints 20 of 100,000; building them all took most
of its time)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, overload

from paperdeck.core.formats import check_list_file
from paperdeck.core.model import Paper
from paperdeck.core.store.columns import (
    AUTHOR_SEPARATOR,
    CHUNK_PAPERS,
    Chunk,
    Damaged,
    decode_column,
    decode_columns,
    paper_at,
)
from paperdeck.core.store.database import PATH_MARK, ListStore
from paperdeck.core.store.key import list_key
from paperdeck.core.text.sanitize import clean_line


class StoredPapers(Sequence[Paper]):
    """A stored list's papers without their abstracts, each chunk decoded when first asked for.

    Reading may raise Damaged (the store then drops the list) or StoreUnavailable: a caller
    falls back to loading the list whole.
    """

    def __init__(self, store: ListStore, key: str, count: int, list_name: str) -> None:
        self.store = store
        self.key = key
        self._count = count
        self._list_name = list_name
        self._chunks: dict[int, dict[str, Any]] = {}
        self._papers: dict[int, Paper] = {}
        self._heads: dict[int, Chunk] = {}
        self._columns: dict[tuple[int, str], list[str]] = {}
        self._ids_and_flags: tuple[list[str], bytes] | None = None

    def __len__(self) -> int:
        return self._count

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
            columns = self._chunks.get(number)
            if columns is None:
                first = number * CHUNK_PAPERS + 1
                try:
                    columns = self._chunks[number] = decode_columns(
                        self._head(number),
                        self.key,
                        number,
                        first,
                        self._list_name,
                        with_abstracts=False,
                    )
                except Damaged:
                    self.store.drop(self.key)
                    raise
            # Ranking looks at a few papers in each of many chunks: only those are made.
            paper = self._papers[at] = paper_at(columns, local)
        return paper

    def text(self, at: int, column: str) -> str:
        """Paper `at`'s id ("ids"), title ("titles"), method ("methods", "" when none) or
        authors ("authors", joined by ", "), read from that column of its chunk alone:
        ranking reads these of many papers, and a line of `search` two of a few."""
        number, local = divmod(at, CHUNK_PAPERS)
        values = self._columns.get((number, column))
        if values is None:
            values = self._columns[number, column] = decode_column(self._head(number), column)
        value = values[local]
        return ", ".join(value.split(AUTHOR_SEPARATOR)) if column == "authors" else value

    def _head(self, number: int) -> Chunk:
        head = self._heads.get(number)
        if head is None:
            head = self._heads[number] = self.store.chunk_head(self.key, number)
        return head

    def __iter__(self) -> Iterator[Paper]:
        for at in range(self._count):
            yield self[at]

    def ids(self) -> list[str]:
        """Every paper's id in order, read without decoding the papers."""
        return self._read_ids_and_flags()[0]

    def numbers(self) -> Mapping[str, int]:
        """Each paper's number by its id, the ids read when first looked up (a search on a
        note, a tag or `like:` does; most never do)."""
        return _Numbers(self)

    def derived_flags(self) -> bytes:
        """Per paper, 1 when its title was derived from its abstract (as `title_derived`)."""
        return self._read_ids_and_flags()[1]

    def ids_and_titles(self) -> tuple[list[str], list[str]]:
        """Every paper's id and title in order, read without decoding the papers."""
        return self.store.ids_and_titles(self.key, self._count)

    def _read_ids_and_flags(self) -> tuple[list[str], bytes]:
        if self._ids_and_flags is None:
            self._ids_and_flags = self.store.ids_and_flags(self.key, self._count)
        return self._ids_and_flags


class _Numbers(Mapping[str, int]):
    """`StoredPapers.numbers`: a paper's number by its id, read on the first look-up."""

    def __init__(self, papers: StoredPapers) -> None:
        self._papers = papers
        self._known: dict[str, int] | None = None

    def _numbers(self) -> dict[str, int]:
        if self._known is None:
            self._known = dict(zip(self._papers.ids(), itertools.count()))
        return self._known

    def __getitem__(self, paper_id: str) -> int:
        return self._numbers()[paper_id]

    def get(self, paper_id: str, default: int | None = None) -> int | None:  # type: ignore[override]
        return self._numbers().get(paper_id, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._numbers())

    def __len__(self) -> int:
        return len(self._papers)


@dataclass
class StoredList:
    """One stored list opened lazily: its papers and the loading warnings it had."""

    papers: StoredPapers
    warnings: list[str]


def open_stored(
    store: ListStore, path: Path, fmt: str | None, *, use_sidecar: bool
) -> StoredList | None:
    """The list at `path` as the store keeps it, or None when it is not kept as it is now, or
    when a metadata sidecar beside it changes its papers (those are loaded whole).

    The store stays open for the papers' reading: the caller closes it.
    """
    from paperdeck.core.library import sidecar_for

    if not path.is_file() or (use_sidecar and sidecar_for(path) is not None):
        return None
    check_list_file(path)
    key = list_key(path, fmt, store)
    found = store.info(key) if key is not None else None
    if key is None or found is None:
        return None
    count, info = found
    warnings = [w.replace(PATH_MARK, str(path)) for w in info.warnings]
    return StoredList(StoredPapers(store, key, count, clean_line(path.stem)), warnings)

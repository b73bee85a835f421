"""Abstracts read back on demand for papers loaded without them: from the list store, a chunk at
a time, else from the list file itself, and always the paper's own (its id is checked)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from paperdeck.core.errors import PaperdeckError
from paperdeck.core.ids import assign_ids, identity_text
from paperdeck.core.model import Paper
from paperdeck.core.plumbing.recent import Recent
from paperdeck.core.store.columns import CHUNK_PAPERS, Damaged
from paperdeck.core.store.database import ListStore, StoreUnavailable

KEPT_CHUNKS = 8
"""Chunks whose abstracts stay read (~250 KB each): moving down a list reads each chunk once."""
KEPT_PAPERS = 64
"""Papers whose filled copy is handed out again as the same object (the detail pane keys its
rendering on the paper it is given)."""


@dataclass(frozen=True)
class ListPart:
    """One list of a library, as the reader of its abstracts needs it."""

    name: str
    """The `list_name` of its papers."""
    path: Path
    format: str | None
    key: str | None
    """Its key in the list store (None: not stored)."""
    count: int
    lazy: bool
    """Its papers were loaded without their abstracts."""


class AbstractReader:
    """Gives papers loaded without their abstract a copy with it. Thread-safe.

    A paper is found by its list's name and its position in that list, then its id is checked
    against what was read: a paper never gets another's abstract. A store that is gone or
    damaged costs one read of the list file (kept, then, as the store would have been).
    """

    def __init__(self, parts: Sequence[ListPart]) -> None:
        self._parts = list(parts)
        self._lock = threading.Lock()
        self._chunks: Recent[tuple[str, int], tuple[list[str], list[str]]] = Recent(KEPT_CHUNKS)
        self._filled: Recent[Paper, Paper] = Recent(KEPT_PAPERS)
        self._from_files: dict[int, dict[str, str]] = {}
        """Per part read from its file: each id's abstract."""
        self.reads = 0
        """Chunks read from the store and lists read from their files so far."""

    @property
    def lazy(self) -> bool:
        """Whether any list's papers were loaded without their abstracts."""
        return any(part.lazy for part in self._parts)

    def fill(self, paper: Paper) -> Paper:
        """The paper with its abstract: itself when it has one or its list was loaded whole."""
        return self.fill_many([paper])[0]

    def fill_many(self, papers: Sequence[Paper]) -> list[Paper]:
        """`fill` of each paper, in order; each stored chunk is read once for them all."""
        out = list(papers)
        chunks: dict[tuple[int, int], list[int]] = {}
        """(list, chunk number) -> where its papers are in `out`."""
        for at, paper in enumerate(out):
            if not paper.abstract and (place := self._place(paper)) is not None:
                part, local = place
                chunks.setdefault((part, local // CHUNK_PAPERS), []).append(at)
        if not chunks:
            return out
        # A few papers (the detail pane's) are kept, to be handed out again as the same object.
        keep = len(out) <= KEPT_PAPERS
        with self._lock:
            store: ListStore | None = None
            try:
                for (part, number), places in sorted(chunks.items()):
                    read, store = self._chunk(self._parts[part], number, store)
                    for at in places:
                        paper = out[at]
                        filled = self._filled.get(paper)
                        if filled is not None:
                            out[at] = filled
                            continue
                        local = (paper.position - 1) % CHUNK_PAPERS
                        if read is not None and local < len(read[0]) and read[0][local] == paper.id:
                            abstract = read[1][local]
                        else:  # another list of the same name, or the store failed
                            abstract, store = self._abstract_of(paper, store)
                        if abstract:
                            out[at] = paper.with_changes(abstract=abstract)
                            if keep:
                                self._filled[paper] = out[at]
            finally:
                if store is not None:
                    store.close()
        return out

    def _place(self, paper: Paper) -> tuple[int, int] | None:
        """The first lazy list that may hold the paper, and its 0-based place there."""
        local = paper.position - 1
        for index, part in enumerate(self._parts):
            if part.lazy and part.name == paper.list_name and 0 <= local < part.count:
                return index, local
        return None

    def _abstract_of(self, paper: Paper, store: ListStore | None) -> tuple[str, ListStore | None]:
        """The paper's abstract ("" when no list holds it any more) and the store to go on with."""
        local = paper.position - 1
        candidates = [
            index
            for index, part in enumerate(self._parts)
            if part.lazy and part.name == paper.list_name and 0 <= local < part.count
        ]
        for index in candidates:
            part = self._parts[index]
            if index in self._from_files:
                continue
            found, store = self._stored(part, local, store)
            if found is None:
                self._from_files[index] = self._read_file(part)
                continue
            paper_id, abstract = found
            if paper_id == paper.id:
                return abstract, store
        for index in candidates:
            read = self._from_files.get(index, {}).get(paper.id)
            if read is not None:
                return read, store
        return "", store

    def _stored(
        self, part: ListPart, local: int, store: ListStore | None
    ) -> tuple[tuple[str, str] | None, ListStore | None]:
        """The id and abstract at `local` in a stored list (None: the store cannot say)."""
        read, store = self._chunk(part, local // CHUNK_PAPERS, store)
        at = local % CHUNK_PAPERS
        if read is None or at >= len(read[0]):
            return None, store
        return (read[0][at], read[1][at]), store

    def _chunk(
        self, part: ListPart, number: int, store: ListStore | None
    ) -> tuple[tuple[list[str], list[str]] | None, ListStore | None]:
        """The ids and abstracts of one stored chunk (None: the store cannot say), and the store
        to go on with (opened here when needed)."""
        if part.key is None:
            return None, store
        read = self._chunks.get((part.key, number))
        if read is not None:
            return read, store
        if store is None:
            store = ListStore.open([])
            if store is None:
                return None, None
        try:
            read = store.abstracts(part.key, number)
        except (Damaged, StoreUnavailable):
            return None, store
        self.reads += 1
        self._chunks[(part.key, number)] = read
        return read, store

    def _read_file(self, part: ListPart) -> dict[str, str]:
        """Each id's abstract, from the list file as it is now ({} when it cannot be read)."""
        from paperdeck.core.formats import read_list

        try:
            raw = read_list(part.path, part.format)
        except (PaperdeckError, OSError):
            return {}
        self.reads += 1
        records = raw.records
        # As papers_from_raw makes them: ids from the same texts, the abstract as it keeps it.
        ids = assign_ids([identity_text(record) for record in records])
        return {
            paper_id: str(record.get("abstract") or "")
            for paper_id, record in zip(ids, records, strict=True)
        }

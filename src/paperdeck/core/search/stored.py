"""The search index kept in the list store beside its list: saved once, then read lazily.

A reopened list's index answers at once: only the vocabulary and a few small arrays are read on
opening, a query reads the postings of its own words, and ranking reads the abstracts of its
best few papers. Nothing in the store is trusted: a posting that does not hold paper numbers of
this list is taken as missing, and the index is saved again on the next opening.
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import json
import sys
from array import array
from collections.abc import Generator, Iterable, Iterator, Mapping, MutableMapping, Sequence
from itertools import accumulate
from pathlib import Path

from paperdeck.core.config import cache_dir
from paperdeck.core.model import Paper
from paperdeck.core.plumbing.recent import Recent
from paperdeck.core.plumbing.slices import Clock
from paperdeck.core.search.build import ids_steps
from paperdeck.core.search.steps import as_progress
from paperdeck.core.search.word_index import (
    ABSTRACT,
    FIELDS,
    MAX_CHAR,
    Buckets,
    WordIndex,
    by_length,
    paper_text,
)
from paperdeck.core.store.columns import CHUNK_PAPERS, Damaged
from paperdeck.core.store.database import ListStore, StoreUnavailable, count_failed_read
from paperdeck.core.text.fold import words

META_BLOB = "search-index"
VOCABULARY_BLOB = "search-vocabulary"
LENGTHS_BLOB = "search-lengths"
DERIVED_BLOB = "search-derived"
"""Per paper, 1 when its title was derived: read with the index, not from every chunk."""
TEXTS_BLOB = "search-texts-{field}"
TEXT_ENDS_BLOB = "search-text-ends-{field}"
"""Per field but the abstract: every paper's text, one after the other, and where each ends.
Ranking reads the titles (methods, authors) of a query's best few, scattered over the list:
each from a chunk of its own otherwise, with all the chunk's other columns."""
_SHORT_FIELDS = tuple(field for field in range(len(FIELDS)) if field != ABSTRACT)
_PREFIX_FIELD = len(FIELDS)
"""Field number under which a field's one- and two-letter word starts are kept (added to it)."""
_YEAR_FIELD = 2 * len(FIELDS)
_VENUE_FIELD = _YEAR_FIELD + 1
_ROWS_PER_PAUSE = 2048
_NUMPY_MAX_ABOVE = 1024
"""Postings longer than this are checked with numpy, when imported."""
_ABSTRACTS_KEPT = 4096
"""Abstracts read from the store kept in memory: typing a query ranks the same papers again."""

_version: str | None = None


def index_version() -> str:
    """A hash of the sources that shape a kept index, and of the machine's array layout; ""
    when a source cannot be read (a frozen build: nothing is kept then)."""
    global _version
    if _version is None:
        from paperdeck.core.search import build, index_parts, word_index
        from paperdeck.core.text import fold

        digest = hashlib.sha1()
        try:
            for module in (build, word_index, index_parts, fold, sys.modules[__name__]):
                digest.update(Path(str(module.__file__)).read_bytes())
        except (OSError, TypeError):
            _version = ""
            return _version
        digest.update(f"{array('I').itemsize}{sys.byteorder}".encode())
        _version = digest.hexdigest()[:16]
    return _version


def enabled() -> bool:
    """Whether indexes are kept (not when `$PAPERDECK_CACHE` is `off`)."""
    return cache_dir() is not None and bool(index_version())


class StoredPostings(MutableMapping[str, "array[int]"]):
    """One field's postings in the store, each read when first asked for and kept."""

    def __init__(
        self, store: ListStore, key: str, field: int, count: int, *, complete: bool = False
    ) -> None:
        self._store = store
        self._key = key
        self._field = field
        self._count = count
        self._complete = complete
        """Whether a word not in the store has no papers (the word starts of a field, all
        kept), rather than not being known."""
        self._known: dict[str, array[int] | None] = {}
        self._words: list[str] | None = None
        self._any: bool | None = None

    def get(self, word: str, default: array[int] | None = None) -> array[int] | None:  # type: ignore[override]
        try:
            found = self._known[word]
        except KeyError:
            found = self._known[word] = self._read(word)
        return default if found is None else found

    def read_ahead(self, words: Iterable[str]) -> None:
        """Read the postings of those of `words` not read yet together (one query per few
        hundred words rather than one each)."""
        known = self._known
        wanted = [word for word in dict.fromkeys(words) if word not in known]
        if len(wanted) < 2:
            return  # read alone when asked for
        try:
            found = self._store.postings_of(self._key, self._field, wanted)
        except StoreUnavailable:
            return  # each is read alone when asked for
        for word in wanted:
            known[word] = self._docs(found.get(word))

    def _read(self, word: str) -> array[int] | None:
        try:
            data = self._store.postings(self._key, self._field, word)
        except StoreUnavailable:
            return None  # the store went away: this index answers with what it has read
        return self._docs(data)

    def _docs(self, data: bytes | None) -> array[int] | None:
        """The paper numbers of one word's kept postings (None: the word is not known)."""
        if data is None:
            # A word start no word of the field has: an empty answer, not one to work out
            # from every word of the vocabulary that has it (thousands of reads).
            return array("I") if self._complete else None
        docs = array("I")
        if len(data) % docs.itemsize == 0:
            docs.frombytes(data)
            if docs and _largest(docs) < self._count:
                return docs
        # Not this list's paper numbers: the word is taken as missing (counted: a caller that
        # needs the result whole searches without the store), and the index is built afresh
        # on the next opening.
        count_failed_read("a word's kept postings are damaged")
        self._store.drop_blob(self._key, META_BLOB)
        return None

    def __getitem__(self, word: str) -> array[int]:
        found = self.get(word)
        if found is None:
            raise KeyError(word)
        return found

    def __setitem__(self, word: str, docs: array[int]) -> None:
        self._known[word] = docs

    def __delitem__(self, word: str) -> None:
        self._known[word] = None

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.get(word) is not None

    def __iter__(self) -> Iterator[str]:
        if self._words is None:
            try:
                self._words = self._store.postings_words(self._key, self._field)
            except StoreUnavailable:
                self._words = []
        return iter(self._words)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __bool__(self) -> bool:
        """Whether the field has any word, asked of the store without reading every word."""
        if self._words is not None:
            return bool(self._words)
        if self._any is None:
            try:
                self._any = self._store.has_postings(self._key, self._field)
            except StoreUnavailable:
                return False
        return self._any


def _largest(docs: array[int]) -> int:
    """The largest of `docs`, with numpy where a reader has imported it (a common word's
    postings hold a good part of the list's paper numbers)."""
    if len(docs) > _NUMPY_MAX_ABOVE and "numpy" in sys.modules:
        # An import statement, not the sys.modules entry: another thread may be importing numpy
        # right now, and the statement waits until that module is whole.
        import numpy

        return int(numpy.frombuffer(docs, dtype=numpy.uintc).max())
    return max(docs)


class VocabularyBuckets(Buckets):
    """Words of three letters or more by first letter and length, worked out per letter from
    the sorted vocabulary the first time a typo-tolerant match looks there."""

    def __init__(self, vocabulary: list[str]) -> None:
        self._vocabulary = vocabulary
        self._known: dict[str, tuple[list[str], list[int]]] = {}
        firsts: list[str] = []
        at = 0
        while at < len(vocabulary):
            first = vocabulary[at][0]
            firsts.append(first)
            at = bisect.bisect_left(vocabulary, first + MAX_CHAR, at)
        self._firsts = firsts

    def __getitem__(self, first: str) -> tuple[list[str], list[int]]:
        found = self._known.get(first)
        if found is None:
            if first not in self._firsts:
                raise KeyError(first)
            low = bisect.bisect_left(self._vocabulary, first)
            high = bisect.bisect_left(self._vocabulary, first + MAX_CHAR, low)
            found = self._known[first] = by_length(self._vocabulary[low:high])
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._firsts)

    def __len__(self) -> int:
        return len(self._firsts)


class StoredAbstracts:
    """The abstracts of a stored list, each read alone from its chunk when ranking needs it."""

    def __init__(
        self, store: ListStore, key: str, lengths: array[int], average: float, count: int
    ) -> None:
        self._store = store
        self._key = key
        self._lengths = lengths
        self._average = average
        self._count = count
        self._places: list[tuple[int, array[int]]] | None = None
        self._kept: Recent[int, str] = Recent(_ABSTRACTS_KEPT)

    def text(self, i: int) -> str:
        kept = self._kept.get(i)
        if kept is None:
            kept = self._read(i)
            if kept is None:
                # Ranked as a paper without an abstract: never a crash; and read again next
                # time, the store may have been busy.
                return ""
            self._kept[i] = kept
        return kept

    def read_ahead(self, papers: Sequence[int]) -> None:
        """Read the abstracts of `papers` not kept yet, each chunk's through one handle (a
        phrase checks hundreds of papers at once; a few share a chunk)."""
        by_chunk: dict[int, list[int]] = {}
        for i in papers:
            if i not in self._kept and 0 <= i < self._count:
                by_chunk.setdefault(i // CHUNK_PAPERS, []).append(i)
        for number, wanted in by_chunk.items():
            if len(wanted) < 2:
                continue  # read alone when asked for
            try:
                if self._places is None:
                    self._places = self._store.abstract_places(self._key)
                rowid, ends = self._places[number]
                wanted.sort()
                spans = []
                for i in wanted:
                    local = i % CHUNK_PAPERS
                    spans.append((ends[local - 1] + 1 if local else 0, ends[local]))
                read = self._store.abstracts_bytes(rowid, spans)
            except (Damaged, StoreUnavailable, IndexError):
                return  # each is read alone when asked for, and found missing then
            for i, data in zip(wanted, read, strict=True):
                self._kept[i] = data.decode("utf-8", "replace")

    def make_ready(self) -> None:
        # Where each chunk's abstracts end: otherwise read by the first key that reads one.
        with contextlib.suppress(Damaged, StoreUnavailable):
            if self._places is None:
                self._places = self._store.abstract_places(self._key)

    def _read(self, i: int) -> str | None:
        try:
            if self._places is None:
                self._places = self._store.abstract_places(self._key)
            rowid, ends = self._places[i // CHUNK_PAPERS]
            local = i % CHUNK_PAPERS
            start = ends[local - 1] + 1 if local else 0
            data = self._store.abstract_bytes(rowid, start, ends[local])
        except (Damaged, IndexError):
            count_failed_read("a chunk's abstracts are damaged")
            return None
        except StoreUnavailable:
            return None  # counted by the store
        # Matched and counted, never shown: a damaged byte costs a word, not the terminal.
        return data.decode("utf-8", "replace")

    def length(self, i: int) -> int:
        return self._lengths[i]

    def average_length(self) -> float:
        return self._average


class StoredShortTexts:
    """The titles, methods and authors of a stored list, each field's read together (two
    blobs) when the first is asked for."""

    def __init__(self, store: ListStore, key: str, count: int) -> None:
        self._store = store
        self._key = key
        self._count = count
        self._texts: dict[int, tuple[bytes, array[int]] | None] = {}

    def text(self, i: int, field: int) -> str | None:
        if field not in self._texts:
            self._texts[field] = self._read(field)
        texts = self._texts[field]
        if texts is None:
            return None
        data, ends = texts
        return data[ends[i - 1] if i else 0 : ends[i]].decode("utf-8", "replace")

    def make_ready(self) -> None:
        for field in _SHORT_FIELDS:
            if field not in self._texts:
                self._texts[field] = self._read(field)

    def _read(self, field: int) -> tuple[bytes, array[int]] | None:
        """A field's texts and where each ends; None when they are missing or damaged (each
        paper's own is read instead)."""
        if field not in _SHORT_FIELDS:
            return None
        try:
            data = self._store.get_blob(self._key, TEXTS_BLOB.format(field=field))
            ends_data = self._store.get_blob(self._key, TEXT_ENDS_BLOB.format(field=field))
        except StoreUnavailable:
            return None
        if data is None or ends_data is None or len(ends_data) != 4 * self._count:
            return None
        ends = array("I")
        ends.frombytes(ends_data)
        if self._count and ends[-1] != len(data):
            return None
        return data, ends


def open_steps(
    papers: Sequence[Paper], key: str, messages: list[str]
) -> Generator[float, None, WordIndex | None]:
    """The index kept for the stored list `key` (whose papers are `papers`), or None when none
    is kept for this version and these papers. The store stays open while the index lives."""
    store = ListStore.open(messages)
    if store is None:
        return None
    try:
        meta = _meta(store, key)
        if meta is None or meta.get("count") != len(papers):
            store.close()
            return None
        vocabulary_data = store.get_blob(key, VOCABULARY_BLOB)
        lengths_data = store.get_blob(key, LENGTHS_BLOB)
        derived = store.get_blob(key, DERIVED_BLOB)
        lengths = array("I")
        if vocabulary_data is None or lengths_data is None or len(lengths_data) % 4:
            store.close()
            return None
        lengths.frombytes(lengths_data)
        text = vocabulary_data.decode("utf-8", "replace")
        vocabulary = text.split("\n") if text else []
        if (
            len(lengths) != len(papers)
            or derived is None
            or len(derived) != len(papers)
            or derived.translate(None, b"\0\1")
        ):
            store.close()
            return None
        yield 0.5
        count = len(papers)
        years_postings = StoredPostings(store, key, _YEAR_FIELD, count)
        years: dict[int, array[int]] = {}
        for year in years_postings:
            docs = years_postings.get(year)
            if year.isdigit() and docs is not None:
                years[int(year)] = docs
        venue_postings = StoredPostings(store, key, _VENUE_FIELD, count)
        venues: dict[str, tuple[tuple[str, ...], array[int]]] = {}
        for venue in venue_postings:
            docs = venue_postings.get(venue)
            if docs is not None:
                venues[venue] = (tuple(words(venue)), docs)
        ids = yield from as_progress(ids_steps(papers), 0.9)
    except StoreUnavailable as error:
        messages.append(f"the search index in the list store is unavailable ({error})")
        store.close()
        return None
    yield 1.0
    return WordIndex(
        papers=papers,
        abstracts=StoredAbstracts(store, key, lengths, float(meta["average"]), count),
        ids=ids,
        postings=tuple(StoredPostings(store, key, field, count) for field in range(len(FIELDS))),
        vocabulary=vocabulary,
        buckets=VocabularyBuckets(vocabulary),
        short_prefixes=[
            # Every word start of a field is kept, but the abstract's (worked out if asked).
            StoredPostings(store, key, _PREFIX_FIELD + field, count, complete=field != ABSTRACT)
            for field in range(len(FIELDS))
        ],
        years=years,
        venues=venues,
        derived=derived,
        short_texts=StoredShortTexts(store, key, count),
    )


def _meta(store: ListStore, key: str) -> dict[str, float] | None:
    data = store.get_blob(key, META_BLOB)
    if data is None:
        return None
    try:
        meta = json.loads(data)
    except ValueError:
        return None
    if (
        type(meta) is not dict
        or meta.get("version") != index_version()
        or type(meta.get("count")) is not int
        or type(meta.get("average")) not in (int, float)
    ):
        return None
    return meta


def save_steps(
    index: WordIndex, key: str, papers: Sequence[Paper], messages: list[str]
) -> Generator[None, None, bool]:
    """Keep a freshly built index in the store under its list's key, in slices, with the
    texts of `papers` (those it was built from) that `StoredShortTexts` reads; False when it
    could not be kept (the reason in `messages`)."""
    yield from index.all_word_starts_steps(Clock())
    store = ListStore.open(messages)
    if store is None:
        return False
    count = len(index)
    lengths = array("I", map(index.abstracts.length, range(count)))
    blobs = {
        VOCABULARY_BLOB: "\n".join(index.vocabulary).encode("utf-8", "surrogatepass"),
        LENGTHS_BLOB: lengths.tobytes(),
        DERIVED_BLOB: index.derived_titles(),
        **_short_text_blobs(papers),
        # Written last, in the same transaction: an index without it is never read.
        META_BLOB: json.dumps(
            {
                "version": index_version(),
                "count": count,
                "average": index.abstracts.average_length(),
            }
        ).encode(),
    }
    try:
        return (yield from store.save_postings_steps(key, _rows(index), blobs))
    except (StoreUnavailable, UnicodeEncodeError) as error:
        messages.append(f"the search index could not be kept in the list store ({error})")
        return False
    finally:
        store.close()


def _short_text_blobs(papers: Sequence[Paper]) -> dict[str, bytes]:
    """Per field but the abstract, `StoredShortTexts`' two blobs."""
    blobs: dict[str, bytes] = {}
    for field in _SHORT_FIELDS:
        texts = [paper_text(paper, field).encode("utf-8", "surrogatepass") for paper in papers]
        ends = array("I", accumulate(map(len, texts)))
        blobs[TEXTS_BLOB.format(field=field)] = b"".join(texts)
        blobs[TEXT_ENDS_BLOB.format(field=field)] = ends.tobytes()
    return blobs


def _rows(index: WordIndex) -> Iterator[tuple[int, str, bytes] | None]:
    """Every posting of the index as a store row, with a pause (None) every few thousand."""
    parts: list[tuple[int, Mapping[str, array[int]]]] = []
    for field in range(len(FIELDS)):
        parts.append((field, index.postings[field]))
        if field != ABSTRACT:
            parts.append((_PREFIX_FIELD + field, index.short_prefixes[field]))
    parts.append((_YEAR_FIELD, {str(year): docs for year, docs in index.years.items()}))
    parts.append((_VENUE_FIELD, {venue: docs for venue, (_, docs) in index.venues.items()}))
    done = 0
    for field, postings in parts:
        # A copy: searches meanwhile may add word starts to the index (a save runs on a thread).
        for word, docs in list(postings.items()):
            yield field, word, docs.tobytes()
            done += 1
            if done % _ROWS_PER_PAUSE == 0:
                yield None

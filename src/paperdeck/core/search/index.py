"""Search: a word index over the papers, query matching, ranking and match spans, in slices."""

from __future__ import annotations

import bisect
import functools
import gc
import itertools
import math
import re
import time
from array import array
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress, filterfalse, pairwise, repeat
from operator import add, attrgetter, is_not, mul
from typing import Any, Literal, TypeVar

from rapidfuzz import process
from rapidfuzz.distance import OSA

from paperdeck.core.model import Annotation, Paper
from paperdeck.core.plumbing import helper_process
from paperdeck.core.plumbing.slices import Clock, finish
from paperdeck.core.search import index_cache, index_parts
from paperdeck.core.search.index_parts import as_array, split_arrays
from paperdeck.core.search.query import Clause, Flag, Query, Term, YearRange, parse_query
from paperdeck.core.text.fold import raw_tokens, words

_T = TypeVar("_T")
_Y = TypeVar("_Y")
SortMode = Literal["relevance", "list", "noted"]

FIELDS = ("title", "method", "authors", "abstract")
_TITLE, _METHOD, _AUTHORS, _ABSTRACT = range(4)
# A match in the title or method name outranks one in the authors, which outranks the abstract.
_FIELD_WEIGHT = (10.0, 9.0, 7.0, 4.0)
_EXACT, _PREFIX, _FUZZY = range(3)
# A whole word outranks a word start, which outranks a typo-tolerant match; a typo in the
# title ranks below the exact word in an abstract.
_KIND_WEIGHT = (10.0, 7.0, 3.5)
_TERM_FIELDS = {"any": (0, 1, 2, 3), "title": (_TITLE,), "author": (_AUTHORS,)}
# Bonus for query words that follow each other in this field, as in the query.
_ADJACENT_BONUS = (30.0, 25.0, 10.0, 12.0)
_RERANK = 300
_RERANK_ABSTRACT = 40
_CHUNK = 16384
_CACHE_SIZE = 8
# Postings per chunk of the index cache: loading one (~2 MB) takes a few milliseconds.
_PART = 250_000
_VOCABULARY_PIECE = 32768
"""Words per chunk of the index cache's vocabulary."""
# A short word in more than 1 in this many abstracts says nothing about a paper.
_COMMON_SHORT = 10
_MAX_CHAR = "\U0010ffff"


@dataclass(frozen=True)
class SearchResult:
    """The papers a query matched, best first (or in the chosen sort order)."""

    query: str
    indices: Sequence[int]
    """Indexes into the papers given to the SearchIndex."""
    scores: Sequence[float]
    """One per index; higher is better."""
    message: str | None
    """One line when the query could not be parsed fully, else None."""


_NUMBERS_PER_SLICE = 16384
"""Papers numbered per slice by `_ids_steps` and `_years_venues_steps` (~3 ms)."""
_ID = attrgetter("id")
_YEAR = attrgetter("year")
_VENUE = attrgetter("venue")


def _ids_steps(papers: Sequence[Paper]) -> Generator[None, None, dict[str, int]]:
    """Each paper's number by its id (the last paper's with a repeated id), in slices."""
    ids: dict[str, int] = {}
    for start in range(0, len(papers), _NUMBERS_PER_SLICE):
        ids.update(
            zip(map(_ID, papers[start : start + _NUMBERS_PER_SLICE]), itertools.count(start))
        )
        yield
    return ids


def _years_venues_steps(
    papers: Sequence[Paper],
) -> Generator[None, None, tuple[dict[int, array[int]], dict[str, array[int]]]]:
    """The numbers of the papers of each year and of each venue, in slices."""
    years: defaultdict[int, array[int]] = defaultdict(_new_postings)
    venues: defaultdict[str, array[int]] = defaultdict(_new_postings)
    for start in range(0, len(papers), _NUMBERS_PER_SLICE):
        chunk = papers[start : start + _NUMBERS_PER_SLICE]
        # Only the papers that have one take a step in Python: a plain text list has none.
        year_of = list(map(_YEAR, chunk))
        for i in compress(range(len(chunk)), map(is_not, year_of, repeat(None))):
            years[year_of[i]].append(start + i)
        venue_of = list(map(_VENUE, chunk))
        for i in compress(range(len(chunk)), venue_of):
            venues[venue_of[i]].append(start + i)
        yield
    return dict(years), dict(venues)


def _new_postings() -> array[int]:
    return array("I")


def _update(target: set[int], docs: array[int], clock: Clock) -> Generator[None, None, None]:
    """`target.update(docs)`, in pieces small enough to yield between."""
    if len(docs) <= _CHUNK:
        target.update(docs)
    else:
        for start in range(0, len(docs), _CHUNK):
            target.update(docs[start : start + _CHUNK])
            if clock.due():
                yield
                clock.reset()
    if clock.due():
        yield
        clock.reset()


def _without_gc(steps: Generator[_Y, None, None]) -> Generator[_Y, None, None]:
    """Run `steps` with the cyclic collector off during its slices (and on between them).

    The build makes millions of small objects, none in a cycle: the collector would rescan
    them again and again for nothing.
    """
    while True:
        enabled = gc.isenabled()
        gc.disable()
        try:
            progress = next(steps)
        except StopIteration:
            return
        finally:
            if enabled:
                gc.enable()
        yield progress


def _as_progress(steps: Generator[None, None, _T], progress: float) -> Generator[float, None, _T]:
    """A generator's slices as progress, for build_steps."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            result: _T = done.value
            return result
        yield progress


def _scaled(
    steps: Generator[float, None, _T], low: float, high: float
) -> Generator[float, None, _T]:
    """A generator's progress from 0 to 1 mapped onto `low` to `high`."""
    while True:
        try:
            progress = next(steps)
        except StopIteration as done:
            result: _T = done.value
            return result
        yield low + (high - low) * progress


def _postings_chunk(
    field: int, part: list[str], postings: dict[str, array[int]], number: dict[str, int]
) -> tuple[int, bytes, bytes, bytes]:
    docs = list(map(postings.__getitem__, part))
    return (
        field,
        array("I", map(number.__getitem__, part)).tobytes(),
        array("I", map(len, docs)).tobytes(),
        b"".join(map(array.tobytes, docs)),
    )


def _by_length(group: list[str]) -> tuple[list[str], list[int]]:
    """Words of three letters or more sorted by length, and where each length starts."""
    ordered = sorted(group, key=len)  # stable: alphabetical within a length, as `group` is
    lengths = list(map(len, ordered))
    short = bisect.bisect_left(lengths, 3)
    del ordered[:short], lengths[:short]
    longest = lengths[-1] if lengths else 0
    starts = [bisect.bisect_left(lengths, length) for length in range(longest + 2)]
    return ordered, starts


def _fuzzy_distance(word: str) -> int:
    """How many edits a typo-tolerant match of `word` allows: none for short words."""
    if len(word) >= 8:
        return 2
    if len(word) >= 4:
        return 1
    return 0


class _TermHits:
    """What one term matched: paper index -> score of its best match, and words it matched."""

    __slots__ = ("_scores", "matched", "tiers")

    def __init__(
        self,
        scores: dict[int, float] | None,
        matched: frozenset[str] = frozenset(),
        tiers: list[tuple[float, array[int]]] | None = None,
    ) -> None:
        self._scores = scores
        self.matched = matched
        self.tiers = tiers
        """Where known: the postings with their weights that the scores are made of, so that a
        one-term query can be ranked with set operations, without building the scores."""

    def scores_steps(self, clock: Clock) -> Generator[None, None, dict[int, float]]:
        """Paper -> best weight: weights applied lowest first so that the best one wins."""
        if self._scores is None:
            assert self.tiers is not None
            scores: dict[int, float] = {}
            done = 0
            for weight, docs in sorted(self.tiers, key=lambda item: item[0]):
                scores.update(dict.fromkeys(docs, weight))
                done += len(docs)
                if done > 20000:
                    done = 0
                    if clock.due():
                        yield
                        clock.reset()
            self._scores = scores
        return self._scores

    def has_scores(self) -> bool:
        """Whether the scores are built."""
        return self._scores is not None

    def size_estimate(self) -> int:
        """How many papers matched, or an upper bound while the scores are not built."""
        if self._scores is not None or self.tiers is None:
            return len(self.scores)
        return sum(len(docs) for _, docs in self.tiers)

    @property
    def scores(self) -> dict[int, float]:
        """The scores (built now if need be)."""
        return finish(self.scores_steps(Clock()))


class SearchIndex:
    """A word index over title, method, authors and abstract of a sequence of papers."""

    _papers: Sequence[Paper]
    _n: int
    _ids: dict[str, int]
    _common_short: int
    _cache: OrderedDict[tuple[object, ...], _TermHits]
    _note_tokens: dict[str, tuple[str, ...]]
    _all: array[int]
    """Every paper's number, in order: what `is:unread` or a negation starts from."""
    """A note's raw tokens by its text: notes change rarely, queries on every keystroke."""
    _postings: tuple[dict[str, array[int]], ...]
    _vocabulary: list[str]
    _buckets: dict[str, tuple[list[str], list[int]]]
    _short_prefixes: list[dict[str, array[int]]]
    _years: dict[int, array[int]]
    _venues: dict[str, tuple[tuple[str, ...], array[int]]]
    _unsaved: tuple[Sequence[Paper], str, str | None, str | None] | None
    """What a new index is cached under (papers, ids name, and name and key once worked
    out), until `save_steps` has written it."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        """Build the whole index now (or load it from the cache), and cache a new one."""
        for _ in _without_gc(self._build_or_load(papers)):
            pass
        for _ in _without_gc(self.save_steps()):
            pass

    @classmethod
    def build_steps(cls, papers: Sequence[Paper]) -> Generator[float, None, SearchIndex]:
        """Build the index in slices of a few milliseconds, yielding progress from 0 to 1.

        The index it returns answers at once; a new one is cached by `save_steps` after.
        """
        index = cls.__new__(cls)
        yield from _without_gc(index._build_or_load(papers))
        return index

    def save_steps(self) -> Generator[None, None, None]:
        """Write a freshly built index to the cache, in slices; nothing to do after a load."""
        unsaved, self._unsaved = self._unsaved, None
        if unsaved is None:
            return
        papers, ids_name, name, key = unsaved
        yield from self._all_word_starts_steps(Clock())
        if name is None:
            name = yield from index_cache.name_steps(papers, ids_name)
        if key is None:
            key = yield from index_cache.key_steps(papers)
        yield from index_cache.save_steps(name, key, self._pack())

    def _build_or_load(self, papers: Sequence[Paper]) -> Generator[float, None, None]:
        """The index from the cache when these papers were indexed before, else built."""
        self._unsaved = None
        if not index_cache.enabled():
            yield from self._build(papers)
            return
        # The full name takes ~30 ms at 100,000 papers, the full key (it reads every abstract)
        # ~0.2 s: each is only worked out when a cache file may be this index.
        ids_name = yield from _as_progress(index_cache.ids_name_steps(papers), 0.0)
        name: str | None = None
        key: str | None = None
        if index_cache.any_named(ids_name):
            name = yield from _as_progress(index_cache.name_steps(papers, ids_name), 0.0)
        if name is not None and index_cache.exists(name):
            key = yield from _as_progress(index_cache.key_steps(papers), 0.0)
            chunks = index_cache.open_chunks(name, key)
            if chunks is not None:
                try:
                    yield from self._restore(papers, chunks)
                except Exception:  # damaged, or written by a buggy version: build afresh
                    pass
                else:
                    yield 1.0
                    return
                finally:
                    chunks.close()
        yield from self._build(papers)
        self._unsaved = (papers, ids_name, name, key)

    def _pack(self) -> Iterator[object | None]:
        """The index as plain containers for the cache, a few megabytes per chunk: words as
        numbers into the vocabulary, postings as one array's bytes with their lengths. A None
        between chunks is a pause: the index answers searches meanwhile."""
        vocabulary = self._vocabulary
        number: dict[str, int] = {}
        for at, word in enumerate(vocabulary):
            number[word] = at
            if at & 8191 == 8191:
                yield None
        # Words by field, in parts of about _PART postings' worth.
        parts: list[tuple[int, list[str]]] = []
        for field, postings in enumerate(self._postings):
            size = _PART
            for count, (word, docs) in enumerate(postings.items()):
                if size >= _PART:
                    parts.append((field, []))
                    size = 0
                parts[-1][1].append(word)
                # Each word costs as much as some postings: a part of rare words is no faster.
                size += len(docs) + 16
                if count & 8191 == 8191:
                    yield None
        pieces = range(0, len(vocabulary), _VOCABULARY_PIECE)
        yield (self._n, len(vocabulary), len(pieces), len(parts))
        for start in pieces:
            yield vocabulary[start : start + _VOCABULARY_PIECE]
        for field, part in parts:
            yield _postings_chunk(field, part, self._postings[field], number)
        buckets: dict[str, tuple[bytes, list[int]]] = {}
        for first, (ordered, starts) in self._buckets.items():
            buckets[first] = (array("I", map(number.__getitem__, ordered)).tobytes(), starts)
            if len(ordered) > 4096:
                yield None
        prefixes = []
        for unions in self._short_prefixes:
            prefixes.append(
                (
                    list(unions),
                    array("I", map(len, unions.values())).tobytes(),
                    b"".join(map(array.tobytes, unions.values())),
                )
            )
            yield None
        years = {year: docs.tobytes() for year, docs in self._years.items()}
        venues = {venue: (names, docs.tobytes()) for venue, (names, docs) in self._venues.items()}
        yield ("rest", buckets, prefixes, years, venues)

    def _restore(
        self, papers: Sequence[Paper], chunks: Iterator[Any]
    ) -> Generator[float, None, None]:
        """Set the index up from what `_pack` made, a chunk per slice; raises on anything
        unexpected, leaving the index as it was."""
        count, words, pieces, parts = next(chunks)
        if count != len(papers):
            raise ValueError("not this index")
        vocabulary: list[str] = []
        for _ in range(pieces):
            piece = next(chunks)
            if type(piece) is not list:
                raise ValueError("not this index")
            vocabulary.extend(piece)
            yield 0.2 * len(vocabulary) / max(1, words)
        if len(vocabulary) != words:
            raise ValueError("not this index")
        word_at = vocabulary.__getitem__
        postings: list[dict[str, array[int]]] = [{} for _ in FIELDS]
        for done, chunk in enumerate(chunks, 1):
            if chunk[0] == "rest":
                break
            field, numbers, lengths, blob = chunk
            postings[field].update(
                zip(map(word_at, as_array(numbers)), split_arrays(blob, lengths), strict=True)
            )
            yield 0.2 + 0.7 * min(1, done / max(1, parts))
        else:
            raise ValueError("incomplete index")
        _, buckets, prefixes, years, venues = chunk
        yield 0.91
        if next(chunks, None) is not None:
            raise ValueError("not this index")
        if len(prefixes) != len(FIELDS):
            raise ValueError("not this index")
        short_prefixes: list[dict[str, array[int]]] = []
        for names, lengths, blob in prefixes:
            short_prefixes.append(dict(zip(names, split_arrays(blob, lengths), strict=True)))
            yield 0.92
        restored_buckets: dict[str, tuple[list[str], list[int]]] = {}
        clock = Clock()
        for first, (numbers, starts) in buckets.items():
            restored_buckets[first] = (list(map(word_at, as_array(numbers))), starts)
            if clock.due():
                yield 0.93
                clock.reset()
        restored_years = {year: as_array(docs) for year, docs in years.items()}
        restored_venues = {
            venue: (names, as_array(docs)) for venue, (names, docs) in venues.items()
        }
        ids = yield from _as_progress(_ids_steps(papers), 0.98)
        self._papers = papers
        self._n = len(papers)
        self._ids = ids
        self._common_short = max(1000, self._n // _COMMON_SHORT)
        self._cache = OrderedDict()
        self._note_tokens = {}
        self._all = array("I", range(self._n))
        self._postings = tuple(postings)
        self._vocabulary = vocabulary
        self._buckets = restored_buckets
        self._short_prefixes = short_prefixes
        self._years = restored_years
        self._venues = restored_venues

    def _build(self, papers: Sequence[Paper]) -> Generator[float, None, None]:
        self._papers = papers
        self._n = len(papers)
        self._common_short = max(1000, self._n // _COMMON_SHORT)
        self._cache = OrderedDict()
        self._note_tokens = {}
        self._all = array("I", range(self._n))
        ranges = helper_process.plan(
            self._n, index_parts.helper_count(self._n), index_parts.OWN_WEIGHT
        )
        # Helpers start first: they index their parts while this process indexes its own.
        helpers = [index_parts.Helper(papers[start:stop], start) for start, stop in ranges[1:]]
        try:
            yield from self._build_parts(papers, ranges, helpers)
        finally:
            for helper in helpers:
                helper.close()

    def _build_parts(
        self,
        papers: Sequence[Paper],
        ranges: list[tuple[int, int]],
        helpers: list[index_parts.Helper],
    ) -> Generator[float, None, None]:
        clock = Clock()
        began = time.monotonic()
        start, stop = ranges[0] if ranges else (0, 0)
        # The helpers index their parts at the same pace: this part's progress is the whole's.
        postings = yield from _scaled(
            index_parts.postings_steps(index_parts.field_texts(papers[start:stop]), start, clock),
            0.0,
            0.85,
        )
        own_part = time.monotonic() - began
        self._ids = yield from _as_progress(_ids_steps(papers), 0.86)
        years, venues = yield from _as_progress(_years_venues_steps(papers), 0.87)
        for helper, (start, stop) in zip(helpers, ranges[1:], strict=True):
            merged = yield from _as_progress(helper.merge_steps(postings, own_part), 0.88)
            if not merged:  # the helper failed: its part is indexed here instead
                part = yield from _scaled(
                    index_parts.postings_steps(
                        index_parts.field_texts(papers[start:stop]), start, clock
                    ),
                    0.88,
                    0.88,
                )
                yield from _as_progress(index_parts.merge_steps(postings, part, clock), 0.9)
        self._postings = tuple(postings)
        # Filled as queries need them, and all of them before the index is cached.
        self._short_prefixes = [{} for _ in FIELDS]
        by_first: defaultdict[str, set[str]] = defaultdict(set)
        for known in self._postings:
            for count, text in enumerate(known):
                by_first[text[0]].add(text)
                if count & 1023 == 1023 and clock.due():
                    yield 0.93
                    clock.reset()
        # Sorted group by group: one sort of the whole vocabulary would hold the GIL.
        self._vocabulary = []
        self._buckets = {}
        for first in sorted(by_first):
            group = sorted(by_first.pop(first))
            self._vocabulary.extend(group)
            self._buckets[first] = _by_length(group)
            if clock.due():
                yield 0.95
                clock.reset()
        self._years = years
        self._venues = {venue: (tuple(words(venue)), docs) for venue, docs in venues.items()}
        yield 1.0

    def _word_starts_steps(
        self, field: int, prefix: str, clock: Clock
    ) -> Generator[None, None, array[int]]:
        """The papers with a word in `field` starting with this one- or two-letter prefix
        (worked out the first time it is asked for)."""
        known = self._short_prefixes[field]
        found = known.get(prefix)
        if found is not None:
            return found
        postings = self._postings[field]
        vocabulary = self._vocabulary
        low = bisect.bisect_left(vocabulary, prefix)
        high = bisect.bisect_left(vocabulary, prefix + _MAX_CHAR, low)
        papers: set[int] = set()
        for word in vocabulary[low:high]:
            docs = postings.get(word)
            if docs is not None:
                yield from _update(papers, docs, clock)
        found = array("I", sorted(papers))
        known[prefix] = found
        return found

    def _all_word_starts_steps(self, clock: Clock) -> Generator[None, None, None]:
        """Work out every word start of every field but the abstract (for the cache)."""
        for field in range(len(FIELDS)):
            if field == _ABSTRACT:
                continue
            prefixes: set[str] = set()
            for count, word in enumerate(self._postings[field]):
                prefixes.add(word[:1])
                prefixes.add(word[:2])
                if count & 1023 == 1023 and clock.due():
                    yield
                    clock.reset()
            for prefix in sorted(prefixes):
                yield from self._word_starts_steps(field, prefix, clock)
                if clock.due():
                    yield
                    clock.reset()

    def __len__(self) -> int:
        return self._n

    # ---- searching ----

    def search(
        self,
        query: str,
        *,
        annotations: Mapping[str, Annotation] | None = None,
        sort: SortMode = "relevance",
    ) -> SearchResult:
        """Papers matching `query`, best first (or in `sort` order)."""
        return finish(self.search_steps(query, annotations=annotations, sort=sort))

    def search_steps(
        self,
        query: str,
        *,
        annotations: Mapping[str, Annotation] | None = None,
        sort: SortMode = "relevance",
    ) -> Generator[None, None, SearchResult]:
        """The work of `search` in slices of a few milliseconds; stop resuming to abandon it."""
        clock = Clock()
        parsed = parse_query(query)
        if not parsed.clauses:
            indices = self._sorted_all(range(self._n), annotations, sort)
            return SearchResult(query, indices, [0.0] * len(indices), parsed.message)
        positive: list[tuple[_TermHits, float]] = []
        excluded: set[int] = set()
        for clause in parsed.clauses:
            hits, weight, negative = yield from self._clause(clause, annotations, clock)
            if negative:
                excluded.update((yield from hits.scores_steps(clock)))
            else:
                positive.append((hits, weight))
            if clock.due():
                yield
                clock.reset()
        if len(positive) == 1 and positive[0][0].tiers is not None and sort == "relevance":
            ranked, scores = yield from self._rank_tiers(positive[0][0], excluded, clock)
            return SearchResult(query, ranked, scores, parsed.message)
        candidates, columns = yield from self._intersect(positive, excluded, clock)
        totals = yield from self._totals(candidates, columns, clock)
        if sort != "relevance":
            indices = self._sorted_all(candidates, annotations, sort)
            return SearchResult(
                query, indices, list(map(totals.__getitem__, indices)), parsed.message
            )
        ranked = sorted(candidates, key=totals.__getitem__, reverse=True)
        if clock.due():
            yield
            clock.reset()
        yield from self._rerank(ranked, totals, parsed, clock)
        return SearchResult(query, ranked, list(map(totals.__getitem__, ranked)), parsed.message)

    def _rank_tiers(
        self, hits: _TermHits, excluded: set[int], clock: Clock
    ) -> Generator[None, None, tuple[list[int], list[float]]]:
        """Best weight first, list order within a weight: set operations, no sort by score."""
        assert hits.tiers is not None
        by_weight: defaultdict[float, list[array[int]]] = defaultdict(list)
        for weight, docs in hits.tiers:
            by_weight[weight].append(docs)
        seen = set(excluded)
        ranked: list[int] = []
        scores: list[float] = []
        for weight in sorted(by_weight, reverse=True):
            tier: set[int] = set()
            for docs in by_weight[weight]:
                yield from _update(tier, docs, clock)
            tier -= seen
            seen |= tier
            ranked.extend(sorted(tier))
            scores.extend(repeat(weight, len(tier)))
            if clock.due():
                yield
                clock.reset()
        return ranked, scores

    def _sorted_all(
        self,
        candidates: Iterable[int],
        annotations: Mapping[str, Annotation] | None,
        sort: SortMode,
    ) -> list[int]:
        """List order; for "noted", papers with a note first, most recently updated first."""
        if sort != "noted" or not annotations:
            return sorted(candidates)
        wanted = set(candidates)
        noted: list[tuple[float, int]] = []
        for paper_id, entry in annotations.items():
            i = self._ids.get(paper_id)
            if i is not None and i in wanted and entry.note.strip():
                noted.append((-entry.updated, i))
        noted.sort()
        return [i for _, i in noted] + sorted(wanted.difference(i for _, i in noted))

    def _intersect(
        self, positive: list[tuple[_TermHits, float]], excluded: set[int], clock: Clock
    ) -> Generator[None, None, tuple[list[int], list[tuple[dict[int, float], float]]]]:
        """Papers passing every clause, and each clause's scores for (at least) those papers.

        The smallest clause goes first; a large term is then only scored for the papers still
        in the running, which costs one pass over its postings instead of building its scores.
        """
        if not positive:
            kept: list[int] = []
            for start in range(0, self._n, _CHUNK):
                kept.extend(filterfalse(excluded.__contains__, self._all[start : start + _CHUNK]))
                if clock.due():
                    yield
                    clock.reset()
            return kept, []
        columns: list[tuple[dict[int, float], float]] = []
        alive: set[int] | None = None
        for hits, weight in sorted(positive, key=lambda item: item[0].size_estimate()):
            if alive is None:
                scores = yield from hits.scores_steps(clock)
                alive = set(scores).difference(excluded)
            elif hits.tiers is None or hits.has_scores():
                scores = yield from hits.scores_steps(clock)
                alive.intersection_update(scores)
            else:
                scores = {}
                for tier_weight, docs in sorted(hits.tiers, key=lambda item: item[0]):
                    scores.update(dict.fromkeys(alive.intersection(docs), tier_weight))
                    if clock.due():
                        yield
                        clock.reset()
                alive.intersection_update(scores)
            columns.append((scores, weight))
            if clock.due():
                yield
                clock.reset()
        return sorted(alive or ()), columns

    def _totals(
        self,
        candidates: list[int],
        columns: list[tuple[dict[int, float], float]],
        clock: Clock,
    ) -> Generator[None, None, dict[int, float]]:
        """Each candidate's weighted sum over the columns, a chunk of candidates per slice."""
        totals: dict[int, float] = {}
        for start in range(0, len(candidates), _CHUNK):
            chunk = candidates[start : start + _CHUNK]
            total: list[float] = [0.0] * len(chunk)
            for scores, weight in columns:
                column = map(scores.__getitem__, chunk)
                if weight != 1.0:
                    column = map(mul, column, repeat(weight))
                total = list(map(add, total, column))
            totals.update(zip(chunk, total, strict=True))
            if clock.due():
                yield
                clock.reset()
        return totals

    def _clause(
        self,
        clause: Clause,
        annotations: Mapping[str, Annotation] | None,
        clock: Clock,
    ) -> Generator[None, None, tuple[_TermHits, float, bool]]:
        """Papers passing the clause with their scores, its weight, and whether it excludes."""
        atoms = clause.alternatives
        if len(atoms) == 1:
            hits = yield from self._atom(atoms[0], annotations, clock)
            if atoms[0].negated:
                return hits, 1.0, True
        else:
            alternatives: list[_TermHits] = []
            for atom in atoms:
                alternatives.append((yield from self._atom(atom, annotations, clock)))
            hits = yield from self._either(atoms, alternatives, clock)
        # Rare terms tell papers apart better than common ones.
        weight = 1.0 + math.log((self._n + 1) / (min(self._n, hits.size_estimate()) + 1))
        return hits, weight, False

    def _either(
        self, atoms: Sequence[Term | YearRange | Flag], alternatives: list[_TermHits], clock: Clock
    ) -> Generator[None, None, _TermHits]:
        """Papers passing any alternative, each scored by its best one."""
        if not any(atom.negated for atom in atoms) and all(
            found.tiers is not None for found in alternatives
        ):
            # Tiers already mean "the best weight wins": the union of all of them is the answer.
            return _TermHits(
                None,
                frozenset().union(*(found.matched for found in alternatives)),
                [tier for found in alternatives for tier in found.tiers or ()],
            )
        merged: dict[int, float] = {}
        for atom, found in zip(atoms, alternatives, strict=True):
            scores = yield from found.scores_steps(clock)
            if atom.negated:
                # Every paper the atom does not match scores 0: added where nothing better is.
                everything = self._all
                for start in range(0, self._n, _CHUNK):
                    chunk = everything[start : start + _CHUNK]
                    outside = filterfalse(scores.__contains__, chunk)
                    merged.update(dict.fromkeys(filterfalse(merged.__contains__, outside), 0.0))
                    if clock.due():
                        yield
                        clock.reset()
                continue
            for i, score in scores.items():
                if merged.get(i, -1.0) < score:
                    merged[i] = score
            if clock.due():
                yield
                clock.reset()
        return _TermHits(merged)

    def _atom(
        self,
        atom: Term | YearRange | Flag,
        annotations: Mapping[str, Annotation] | None,
        clock: Clock,
    ) -> Generator[None, None, _TermHits]:
        if isinstance(atom, YearRange):
            low = -(10**9) if atom.low is None else atom.low
            high = 10**9 if atom.high is None else atom.high
            found: dict[int, float] = {}
            for year, docs in self._years.items():
                if low <= year <= high:
                    found.update(dict.fromkeys(docs, 0.0))
            return _TermHits(found)
        if isinstance(atom, Flag):
            if atom.name == "unread":
                return self._unread(annotations)
            return _TermHits(self._flag(atom, annotations))
        if atom.field == "venue":
            return _TermHits(self._venue(atom))
        if atom.field in ("tag", "note"):
            return _TermHits((yield from self._annotation_term(atom, annotations, clock)))
        hits = yield from self._term(atom, clock)
        return hits

    def _unread(self, annotations: Mapping[str, Annotation] | None) -> _TermHits:
        """Papers not marked read or reading: every paper but the few that are, as one tier
        cut out of `_all` (copies of its runs, not a set or dict of every paper)."""
        ids = self._ids
        marked = sorted(
            {
                i
                for paper_id, entry in (annotations or {}).items()
                if entry.state != "unread" and (i := ids.get(paper_id)) is not None
            }
        )
        if not marked:
            return _TermHits(None, frozenset(), [(0.0, self._all)])
        everything = self._all
        docs = array("I")
        previous = 0
        for i in marked:
            docs.extend(everything[previous:i])
            previous = i + 1
        docs.extend(everything[previous:])
        return _TermHits(None, frozenset(), [(0.0, docs)])

    def _flag(self, flag: Flag, annotations: Mapping[str, Annotation] | None) -> dict[int, float]:
        if annotations is None:
            return {}
        found: dict[int, float] = {}
        for paper_id, entry in annotations.items():
            i = self._ids.get(paper_id)
            if i is None:
                continue
            if (
                (flag.name == "starred" and entry.starred)
                or (flag.name in ("read", "reading") and entry.state == flag.name)
                or (flag.name == "note" and entry.note.strip())
                or (flag.name == "tags" and entry.tags)
            ):
                found[i] = 0.0
        return found

    def _venue(self, term: Term) -> dict[int, float]:
        wanted = tuple(word.lower() for word in term.words)
        found: dict[int, float] = {}
        for venue_words, docs in self._venues.values():
            if all(any(v.startswith(w) for v in venue_words) for w in wanted):
                found.update(dict.fromkeys(docs, 0.0))
        return found

    def _annotation_term(
        self, term: Term, annotations: Mapping[str, Annotation] | None, clock: Clock
    ) -> Generator[None, None, dict[int, float]]:
        """Papers whose tags or note match `term`, a few hundred entries per slice."""
        if not annotations:
            return {}
        found: dict[int, float] = {}
        weight = _FIELD_WEIGHT[_TITLE] * _KIND_WEIGHT[_EXACT]
        # Each distinct note word is tested once per term, however many notes share it.
        verdicts: dict[str, bool] = {}
        tokens_of = self._note_tokens
        if len(tokens_of) > 2 * len(annotations) + 1024:
            tokens_of.clear()
        for count, (paper_id, entry) in enumerate(annotations.items()):
            i = self._ids.get(paper_id)
            if i is not None:
                if term.field == "tag":
                    ok = any(
                        tuple(words(tag, keep_case=term.case_sensitive)) == term.words
                        for tag in entry.tags
                    )
                else:
                    note = entry.note
                    tokens = tokens_of.get(note)
                    if tokens is None:
                        tokens = tokens_of[note] = tuple(token for token, _, _ in raw_tokens(note))
                    ok = bool(tokens) and _tokens_match(term, tokens, verdicts)
                if ok:
                    found[i] = weight
            if count & 31 == 31 and clock.due():
                yield
                clock.reset()
        return found

    # ---- one term ----

    def _term(self, term: Term, clock: Clock) -> Generator[None, None, _TermHits]:
        key = (term.words, term.mode, term.field, term.case_sensitive, term.negated)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        fields = _TERM_FIELDS.get(term.field, (0, 1, 2, 3))
        lowered = tuple(word.lower() for word in term.words)
        if term.mode == "exact":
            hits = yield from self._exact_term(term, lowered, fields, clock)
        elif len(lowered) > 1 or term.mode == "phrase":
            hits = yield from self._phrase_term(term, lowered, fields, clock)
        else:
            hits = yield from self._word_term(term, lowered[0], fields, clock)
        self._cache[key] = hits
        if len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)
        return hits

    def _expand(self, word: str, prefix: bool, fuzzy: bool) -> list[tuple[int, str]]:
        """Vocabulary words `word` stands for, each with how it matched."""
        found: list[tuple[int, str]] = []
        vocabulary = self._vocabulary
        at = bisect.bisect_left(vocabulary, word)
        if at < len(vocabulary) and vocabulary[at] == word:
            found.append((_EXACT, word))
            at += 1
        if prefix:
            stop = bisect.bisect_left(vocabulary, word + _MAX_CHAR, at)
            found.extend((_PREFIX, other) for other in vocabulary[at:stop])
        limit = _fuzzy_distance(word) if fuzzy else 0
        if limit:
            typos = self._typos(word, limit, [word[:1]])
            if not typos and not found:
                # Nothing at all: perhaps the typo is in the first letter.
                typos = self._typos(
                    word, limit, [first for first in self._buckets if first != word[:1]]
                )
            # With word starts allowed, a word that starts with this one is one of those.
            found.extend(
                (_FUZZY, other) for other in typos if not (prefix and other.startswith(word))
            )
        return found

    def _typos(self, word: str, limit: int, firsts: list[str]) -> list[str]:
        """Words within `limit` edits of `word` (not itself), among those starting with `firsts`."""
        found: list[str] = []
        for first in firsts:
            bucket = self._buckets.get(first)
            if bucket is None:
                continue
            group, starts = bucket
            low = starts[min(len(starts) - 1, max(0, len(word) - limit))]
            high = starts[min(len(starts) - 1, len(word) + limit + 1)]
            if high > low:
                found.extend(
                    other
                    for other, _, _ in process.extract(
                        word, group[low:high], scorer=OSA.distance, score_cutoff=limit, limit=None
                    )
                    if other != word
                )
        return found

    def _word_term(
        self, term: Term, word: str, fields: tuple[int, ...], clock: Clock
    ) -> Generator[None, None, _TermHits]:
        weighted: list[tuple[float, array[int]]] = []
        if len(word) < 3:
            # One or two letters: a word or word start in the short fields, and in the
            # abstract only as a whole word that is not in most abstracts ("rl", not "in").
            expansions = [(_EXACT, word)]
            for field in fields:
                exact = self._postings[field].get(word)
                if field == _ABSTRACT:
                    if exact is not None and len(exact) <= self._common_short:
                        weighted.append((_FIELD_WEIGHT[field] * _KIND_WEIGHT[_EXACT], exact))
                    continue
                if exact is not None:
                    weighted.append((_FIELD_WEIGHT[field] * _KIND_WEIGHT[_EXACT], exact))
                starts = yield from self._word_starts_steps(field, word, clock)
                if starts:
                    weighted.append((_FIELD_WEIGHT[field] * _KIND_WEIGHT[_PREFIX], starts))
        else:
            # Excluding papers on a guess would hide what the user did not ask to hide.
            expansions = self._expand(word, prefix=True, fuzzy=not term.negated)
            # A start of three letters is a word start in every field, abstracts included: as
            # a word is typed, each key must keep every paper the finished word will match.
            for field in fields:
                postings = self._postings[field]
                if clock.due():
                    yield
                    clock.reset()
                for kind, other in expansions:
                    docs = postings.get(other)
                    if docs is not None:
                        weighted.append((_FIELD_WEIGHT[field] * _KIND_WEIGHT[kind], docs))
            if (
                not term.negated
                and len(word) >= 6
                and all(kind == _FUZZY for kind, _ in expansions)
            ):
                yield from self._compound(term, word, fields, weighted, clock)
        hits = _TermHits(None, frozenset(other for _, other in expansions), weighted)
        if term.case_sensitive:
            yield from hits.scores_steps(clock)
            hits = yield from self._verify(term, hits, fields, clock)
        return hits

    def _compound(
        self,
        term: Term,
        word: str,
        fields: tuple[int, ...],
        weighted: list[tuple[float, array[int]]],
        clock: Clock,
    ) -> Generator[None, None, None]:
        """A word no paper has may be two that one has, hyphenated: `selfsupervised`."""
        vocabulary = self._vocabulary
        for cut in range(2, len(word) - 1):
            left, right = word[:cut], word[cut:]
            if not (_in_sorted(vocabulary, left) and _in_sorted(vocabulary, right)):
                continue
            cased = term.words[0]
            pair = Term(
                term.text, (cased[:cut], cased[cut:]), "phrase", term.field, term.case_sensitive
            )
            found = yield from self._phrase_term(pair, (left, right), fields, clock)
            by_weight: defaultdict[float, list[int]] = defaultdict(list)
            for i, score in found.scores.items():
                by_weight[score].append(i)
            weighted.extend((score, array("I", sorted(docs))) for score, docs in by_weight.items())

    def _union(
        self, postings: dict[str, array[int]], matched: Iterable[str], clock: Clock
    ) -> Generator[None, None, set[int]]:
        """Papers with any of the `matched` words in one field."""
        docs: set[int] = set()
        for count, other in enumerate(matched):
            found = postings.get(other)
            if found is not None:
                yield from _update(docs, found, clock)
            if count & 255 == 255 and clock.due():
                yield
                clock.reset()
        return docs

    def _phrase_term(
        self, term: Term, lowered: tuple[str, ...], fields: tuple[int, ...], clock: Clock
    ) -> Generator[None, None, _TermHits]:
        """Words next to each other: a quoted phrase, or a term like `self-supervised`.

        A plain term's words are typo-tolerant and its last word may be a word start once it
        has three letters ("self-sup"); a quoted phrase takes its words as they are.
        """
        plain = term.mode != "phrase"
        fuzzy = plain and not term.case_sensitive and not term.negated
        last_prefix = plain and len(lowered[-1]) >= 3
        # For each position: the vocabulary words allowed there, with how they match.
        allowed: list[dict[str, int]] = []
        for at, word in enumerate(lowered):
            prefix = last_prefix and at == len(lowered) - 1
            kinds: dict[str, int] = {}
            for kind, other in reversed(self._expand(word, prefix=prefix, fuzzy=fuzzy)):
                kinds[other] = kind
            allowed.append(kinds)
        scores: dict[int, float] = {}
        for field in sorted(fields, key=lambda f: _FIELD_WEIGHT[f]):
            candidates: set[int] | None = None
            # Rarest position first: the intersection shrinks fastest.
            for kinds in sorted(allowed, key=len):
                docs = yield from self._union(self._postings[field], kinds, clock)
                candidates = docs if candidates is None else candidates & docs
                if not candidates:
                    break
            for count, i in enumerate(sorted(candidates or ())):
                quality = _window_kind(term, allowed, self._field_text(i, field))
                if quality is not None:
                    scores[i] = _FIELD_WEIGHT[field] * _KIND_WEIGHT[quality]
                if count & 15 == 15 and clock.due():
                    yield
                    clock.reset()
        return _TermHits(scores, frozenset(w for kinds in allowed for w in kinds))

    def _exact_term(
        self, term: Term, lowered: tuple[str, ...], fields: tuple[int, ...], clock: Clock
    ) -> Generator[None, None, _TermHits]:
        # Words of the vocabulary that contain each word of the term.
        containing: list[list[str]] = []
        vocabulary = self._vocabulary
        for word in lowered:
            found: list[str] = []
            for start in range(0, len(vocabulary), 8192):
                found.extend(other for other in vocabulary[start : start + 8192] if word in other)
                if clock.due():
                    yield
                    clock.reset()
            containing.append(found)
        needle = " ".join(term.words)
        scores: dict[int, float] = {}
        tiers: list[tuple[float, array[int]]] = []
        for field in sorted(fields, key=lambda f: _FIELD_WEIGHT[f]):
            candidates: set[int] | None = None
            for matched in sorted(containing, key=len):
                docs = yield from self._union(self._postings[field], matched, clock)
                candidates = docs if candidates is None else candidates & docs
                if not candidates:
                    break
            weight = _FIELD_WEIGHT[field] * _KIND_WEIGHT[_EXACT]
            if len(term.words) == 1 and not term.case_sensitive:
                # Nothing to check: ranked like a plain term, from its tiers.
                tiers.append((weight, array("I", sorted(candidates or ()))))
                continue
            for count, i in enumerate(sorted(candidates or ())):
                text = " " + " ".join(
                    words(self._field_text(i, field), keep_case=term.case_sensitive)
                )
                if needle in text:
                    scores[i] = weight
                if count & 15 == 15 and clock.due():
                    yield
                    clock.reset()
        words_found = frozenset(word for found in containing for word in found)
        if len(term.words) == 1 and not term.case_sensitive:
            return _TermHits(None, words_found, tiers)
        return _TermHits(scores, words_found)

    def _verify(
        self, term: Term, hits: _TermHits, fields: tuple[int, ...], clock: Clock
    ) -> Generator[None, None, _TermHits]:
        """Keep papers where a case-sensitive term matches with its case; rescore them."""
        word = term.words[0]
        limit = _fuzzy_distance(word)
        scores: dict[int, float] = {}
        for count, i in enumerate(sorted(hits.scores)):
            best = 0.0
            for field in fields:
                text = self._field_text(i, field)
                # Folding makes no capitals in ASCII text: the cased word must be there as is,
                # unless a typo-tolerant match is allowed.
                if not text or (not limit and text.isascii() and word not in text):
                    continue
                for token in set(words(text, keep_case=True)):
                    if token == word:
                        kind = _EXACT
                    elif token.startswith(word) and (len(word) >= 3 or field != _ABSTRACT):
                        kind = _PREFIX
                    elif (
                        limit
                        and token.lower() in hits.matched
                        and OSA.distance(token, word) <= limit
                    ):
                        kind = _FUZZY
                    else:
                        continue
                    best = max(best, _FIELD_WEIGHT[field] * _KIND_WEIGHT[kind])
            if best:
                scores[i] = best
            if count & 31 == 31 and clock.due():
                yield
                clock.reset()
        return _TermHits(scores, hits.matched)

    def _field_text(self, i: int, field: int) -> str:
        paper = self._papers[i]
        if field == _TITLE:
            return paper.title
        if field == _METHOD:
            return paper.method or ""
        if field == _AUTHORS:
            return ", ".join(paper.authors)
        return paper.abstract

    # ---- ranking ----

    def _rerank(
        self, ranked: list[int], totals: dict[int, float], query: Query, clock: Clock
    ) -> Generator[None, None, None]:
        """Reorder the best few by how closely the query's words follow each other in them."""
        terms = [t for t in query.positive_terms() if t.field in ("any", "title", "author")]
        sequence = [word.lower() for t in terms for word in t.words]
        if len(sequence) < 2 or not ranked:
            return
        # Query words next to each other, in order, each may be a word start.
        pairs = [
            re.compile(r"(?<!\S)" + re.escape(first) + r"\S* " + re.escape(second))
            for first, second in pairwise(sequence)
        ]
        head = ranked[:_RERANK]
        for count, i in enumerate(head):
            bonus = 0.0
            fields = (_TITLE, _METHOD, _ABSTRACT) if count < _RERANK_ABSTRACT else (_TITLE, _METHOD)
            for field in fields:
                text = self._field_text(i, field)
                if text:
                    folded = " ".join(words(text))
                    found = sum(1 for pattern in pairs if pattern.search(folded))
                    if found:
                        bonus = max(bonus, _ADJACENT_BONUS[field] * found / len(pairs))
            totals[i] += bonus
            if count & 15 == 15 and clock.due():
                yield
                clock.reset()
        head.sort(key=totals.__getitem__, reverse=True)
        ranked[: len(head)] = head

    # ---- spans ----

    def match_spans(self, query: str, index: int) -> dict[str, list[tuple[int, int]]]:
        """Spans per field ("title", "method", "authors", "abstract") of the paper's raw text.

        The authors' text is their names joined by ", "; a missing method is "". Every field is
        in the answer, with an empty list where nothing matched.
        """
        terms = parse_query(query).positive_terms()
        spans: dict[str, list[tuple[int, int]]] = {}
        for field, name in enumerate(FIELDS):
            text = self._field_text(index, field)
            applicable = [
                t for t in terms if t.field == "any" or (t.field, field) in _FIELD_OF_TERM
            ]
            spans[name] = (
                _merge_spans(span for t in applicable for span in _text_spans(t, text))
                if text
                else []
            )
        return spans


_FIELD_OF_TERM = {("title", _TITLE), ("author", _AUTHORS)}


def _in_sorted(ordered: list[str], word: str) -> bool:
    at = bisect.bisect_left(ordered, word)
    return at < len(ordered) and ordered[at] == word


def _window_kind(term: Term, allowed: list[dict[str, int]], text: str) -> int | None:
    """How well the best run of consecutive words of `text` matches the allowed words, if any
    does.

    A run is as good as its worst word (a typo anywhere makes it a typo-tolerant match).
    """
    tokens = words(text)
    # Smart case: the words as typed must be there with their capitals.
    cased = words(text, keep_case=True) if term.case_sensitive else None
    size = len(allowed)
    last = len(tokens) - size
    best: int | None = None
    # Where a run can start, found without a Python step per word (texts run to 300 words).
    for start in compress(itertools.count(), map(allowed[0].__contains__, tokens)):
        if start > last:
            break
        worst = _EXACT
        for offset, kinds in enumerate(allowed):
            kind = kinds.get(tokens[start + offset])
            if kind is None or (
                cased is not None and not cased[start + offset].startswith(term.words[offset])
            ):
                break
            worst = max(worst, kind)
        else:
            if best is None or worst < best:
                best = worst
            if best == _EXACT:
                break
    return best


def _token_matches(term: Term, token: str) -> bool:
    word = term.words[0]
    candidate = token if term.case_sensitive else token.lower()
    if term.mode == "exact":
        return word in candidate
    if candidate.startswith(word):
        return True
    limit = _fuzzy_distance(word)
    return (
        bool(limit)
        and abs(len(candidate) - len(word)) <= limit
        and (OSA.distance(candidate, word, score_cutoff=limit) <= limit)
        and candidate[:1] == word[:1]
    )


def _tokens_match(term: Term, tokens: tuple[str, ...], verdicts: dict[str, bool]) -> bool:
    """Whether `_text_spans(term, text)` finds anything in a text of these raw tokens.

    `verdicts` remembers each one-word test, so a word common to many notes costs one test.
    """
    if len(term.words) == 1:
        for token in tokens:
            verdict = verdicts.get(token)
            if verdict is None:
                verdict = verdicts[token] = _token_matches(term, token)
            if verdict:
                return True
        return False
    count = len(term.words)
    for at in range(len(tokens) - count + 1):
        # Most windows fail on their first word: that test is remembered like a one-word one.
        verdict = verdicts.get(tokens[at])
        if verdict is None:
            verdict = verdicts[tokens[at]] = _phrase_word_matches(term, 0, tokens[at])
        if verdict and all(
            _phrase_word_matches(term, position, tokens[at + position])
            for position in range(1, count)
        ):
            return True
    return False


def _text_spans(term: Term, text: str) -> list[tuple[int, int]]:
    """Where `term` matches in `text`, as spans of `text`."""
    tokens = list(raw_tokens(text))
    spans: list[tuple[int, int]] = []
    count = len(term.words)
    if count == 1:
        for token, start, end in tokens:
            if _token_matches(term, token):
                spans.append(_inner_span(term, token, text, start, end))
        return spans
    for at in range(len(tokens) - count + 1):
        window = tokens[at : at + count]
        if all(
            _phrase_word_matches(term, position, token)
            for position, (token, _, _) in enumerate(window)
        ):
            spans.append((window[0][1], window[-1][2]))
    return spans


def _phrase_word_matches(term: Term, position: int, token: str) -> bool:
    word = term.words[position]
    candidate = token if term.case_sensitive else token.lower()
    last = position == len(term.words) - 1
    if term.mode == "exact":
        if position == 0:
            return candidate.endswith(word)
        return candidate.startswith(word) if last else candidate == word
    if last and term.mode == "fuzzy" and len(word) >= 3:
        return candidate.startswith(word)
    return candidate == word


def _inner_span(term: Term, token: str, text: str, start: int, end: int) -> tuple[int, int]:
    """For an exact substring inside a plain word, just the substring; else the whole word."""
    if term.mode == "exact" and text[start:end] == token:
        haystack = token if term.case_sensitive else token.lower()
        offset = haystack.find(term.words[0])
        if offset >= 0:
            return start + offset, start + offset + len(term.words[0])
    return start, end


def _merge_spans(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def highlight_spans(query: str, text: str) -> list[tuple[int, int]]:
    """Spans of `text` where the query's positive terms match, merged and sorted."""
    terms = [
        t for t in parse_query(query).positive_terms() if t.field in ("any", "title", "author")
    ]
    if not terms or not text:
        return []
    return _merge_spans(span for t in terms for span in _text_spans(t, text))


@functools.lru_cache(maxsize=32)
def highlighter(query: str, field: str) -> Callable[[str], list[tuple[int, int]]]:
    """Spans in a text of `field` ("title", "method", "authors" or "abstract") where the
    query's terms for that field match, as `match_spans` finds them; the query parsed once."""
    at = FIELDS.index(field)
    terms = tuple(
        t
        for t in parse_query(query).positive_terms()
        if t.field == "any" or (t.field, at) in _FIELD_OF_TERM
    )

    def spans(text: str) -> list[tuple[int, int]]:
        if not terms or not text:
            return []
        return _merge_spans(span for t in terms for span in _text_spans(t, text))

    return spans

"""Building the word index of a list of papers, in slices, with helper processes for big lists."""

from __future__ import annotations

import itertools
import time
from array import array
from collections import defaultdict
from collections.abc import Generator, Mapping, Sequence
from concurrent.futures import Future
from itertools import compress, repeat
from operator import attrgetter, is_not
from typing import Any

from paperdeck.core.model import Paper
from paperdeck.core.plumbing import helper_process
from paperdeck.core.plumbing.slices import Clock, on_thread
from paperdeck.core.search import index_parts
from paperdeck.core.search.steps import as_progress, scaled
from paperdeck.core.search.word_index import (
    AUTHORS,
    FIELDS,
    PaperAbstracts,
    WordIndex,
    by_length,
)
from paperdeck.core.store.stored_papers import StoredPapers
from paperdeck.core.text.fold import words

_NUMBERS_PER_SLICE = 16384
"""Papers numbered per slice by `ids_steps` and `_years_venues_steps` (~3 ms)."""
_ID = attrgetter("id")
_YEAR = attrgetter("year")
_VENUE = attrgetter("venue")


def build_steps(
    papers: Sequence[Paper], grown: index_parts.Growing | None = None
) -> Generator[float | Future[Any], None, WordIndex]:
    """The word index of `papers`, built in slices yielding progress from 0 to 1; parts of a
    big list are indexed by helper processes meanwhile.

    `grown`: their postings, made as the list loaded, when it is `complete` for these papers
    (it is used up then); while the list still loads, the index covers only the first papers
    indexed so far, their postings copied on a thread (a step that yields its future: see
    `slices.on_thread`); else it is built as without.
    """
    if grown is not None and grown.complete == len(papers):
        postings = yield from as_progress(grown.postings_steps(papers), 0.9)
        return (yield from _finish_steps(papers, postings, Clock()))
    if grown is not None and grown.complete is None and grown.covers():
        # The copy takes tens of milliseconds, under the lock the load holds while it indexes.
        limit = len(papers)
        papers, postings = yield from on_thread(lambda: grown.snapshot(limit))
        return (yield from _finish_steps(papers, postings, Clock()))
    ranges = helper_process.plan(
        len(papers), index_parts.helper_count(len(papers)), index_parts.OWN_WEIGHT
    )
    # Helpers start first: they index their parts while this process indexes its own.
    helpers = [index_parts.Helper(papers[start:stop], start) for start, stop in ranges[1:]]
    try:
        return (yield from _build_parts(papers, ranges, helpers))
    finally:
        for helper in helpers:
            helper.close()


def _build_parts(
    papers: Sequence[Paper],
    ranges: list[tuple[int, int]],
    helpers: list[index_parts.Helper],
) -> Generator[float, None, WordIndex]:
    clock = Clock()
    began = time.monotonic()
    start, stop = ranges[0] if ranges else (0, 0)
    # The helpers index their parts at the same pace: this part's progress is the whole's.
    postings = yield from scaled(
        index_parts.postings_steps(index_parts.field_texts(papers[start:stop]), start, clock),
        0.0,
        0.85,
    )
    own_part = time.monotonic() - began
    ids = yield from as_progress(ids_steps(papers), 0.86)
    years, venues = yield from as_progress(_years_venues_steps(papers), 0.87)
    for helper, (start, stop) in zip(helpers, ranges[1:], strict=True):
        merged = yield from as_progress(helper.merge_steps(postings, own_part), 0.88)
        if not merged:  # the helper failed: its part is indexed here instead
            part = yield from scaled(
                index_parts.postings_steps(
                    index_parts.field_texts(papers[start:stop]), start, clock
                ),
                0.88,
                0.88,
            )
            yield from as_progress(index_parts.merge_steps(postings, part, clock), 0.9)
    return (yield from _finish_steps(papers, postings, clock, ids, years, venues))


def _finish_steps(
    papers: Sequence[Paper],
    postings: index_parts.Postings,
    clock: Clock,
    ids: Mapping[str, int] | None = None,
    years: dict[int, array[int]] | None = None,
    venues: dict[str, array[int]] | None = None,
) -> Generator[float, None, WordIndex]:
    if ids is None:
        ids = yield from as_progress(ids_steps(papers), 0.91)
    if years is None or venues is None:
        years, venues = yield from as_progress(_years_venues_steps(papers), 0.92)
    vocabulary, buckets = yield from as_progress(_vocabulary_steps(postings, clock), 0.95)
    yield 1.0
    return WordIndex(
        papers=papers,
        abstracts=PaperAbstracts(papers),
        ids=ids,
        postings=tuple(postings),
        vocabulary=vocabulary,
        buckets=buckets,
        # Filled as queries need them, and all of them before the index is cached.
        short_prefixes=[{} for _ in FIELDS],
        years=years,
        venues={venue: (tuple(words(venue)), docs) for venue, docs in venues.items()},
    )


def _vocabulary_steps(
    postings: Sequence[Mapping[str, array[int]]], clock: Clock
) -> Generator[None, None, tuple[list[str], dict[str, tuple[list[str], list[int]]]]]:
    """Every word of every field, sorted, and by first letter the words by length."""
    by_first: defaultdict[str, set[str]] = defaultdict(set)
    for known in postings:
        for count, text in enumerate(known):
            by_first[text[0]].add(text)
            if count & 1023 == 1023 and clock.due():
                yield
                clock.reset()
    # Sorted group by group: one sort of the whole vocabulary would hold the GIL.
    vocabulary: list[str] = []
    buckets: dict[str, tuple[list[str], list[int]]] = {}
    for first in sorted(by_first):
        group = sorted(by_first.pop(first))
        vocabulary.extend(group)
        buckets[first] = by_length(group)
        if clock.due():
            yield
            clock.reset()
    return vocabulary, buckets


def titled_steps(index: WordIndex) -> Generator[float, None, WordIndex]:
    """`index` with the postings of its papers' titles and methods, for an index built while
    some titles were still to be derived (see `model.TitledLater`): call it once all are. The
    other fields' postings are shared with `index`, which stays as it was."""
    clock = Clock()
    papers = index.papers
    texts = index_parts.field_texts(papers)[:AUTHORS]
    short = yield from index_parts.postings_steps(texts, 0, clock)
    postings = (*short, *index.postings[AUTHORS:])
    vocabulary, buckets = yield from as_progress(_vocabulary_steps(postings, clock), 1.0)
    return WordIndex(
        papers=papers,
        abstracts=index.abstracts,
        ids=index.ids,
        postings=postings,
        vocabulary=vocabulary,
        buckets=buckets,
        short_prefixes=[{} for _ in FIELDS],
        years=index.years,
        venues=index.venues,
        derived=index.derived,
    )


def ids_steps(papers: Sequence[Paper]) -> Generator[None, None, Mapping[str, int]]:
    """Each paper's number by its id (the last paper's with a repeated id), in slices."""
    if isinstance(papers, StoredPapers):
        return papers.numbers()  # read when first looked up, without building the papers
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

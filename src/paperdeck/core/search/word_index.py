"""The search index's data: per field, each folded word's papers; the sorted vocabulary; years.

Built in memory from papers (`build`), or read lazily from the list store (`stored`): every
part a query reads is a mapping, and a paper's abstract is asked of an `Abstracts` source.
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Generator, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Protocol, runtime_checkable

from paperdeck.core.model import Paper, title_known
from paperdeck.core.papers import Column
from paperdeck.core.plumbing.slices import Clock, finish
from paperdeck.core.search.steps import update_steps
from paperdeck.core.store.stored_papers import StoredPapers

FIELDS = ("title", "method", "authors", "abstract")
TITLE, METHOD, AUTHORS, ABSTRACT = range(4)
_STORED_COLUMNS: dict[int, Column] = {TITLE: "titles", METHOD: "methods", AUTHORS: "authors"}
MAX_CHAR = "\U0010ffff"
_DERIVED = attrgetter("title_derived")
_ABSTRACT_OF = attrgetter("abstract")
_COMMON_SHORT = 10
"""A short word in more than 1 in this many abstracts says nothing about a paper."""
Postings = Mapping[str, "array[int]"]
"""Folded word -> the numbers of the papers that have it in one field, ascending."""
Buckets = Mapping[str, tuple[list[str], list[int]]]


class Abstracts(Protocol):
    """Where the index reads a paper's abstract: only a query's best few need their text."""

    def text(self, i: int) -> str:
        """Paper `i`'s abstract."""
        ...

    def length(self, i: int) -> int:
        """How many characters paper `i`'s abstract has."""
        ...

    def average_length(self) -> float:
        """The mean abstract length, at least 1."""
        ...

    def read_ahead(self, papers: Sequence[int]) -> None:
        """Make the abstracts of these papers quick to ask for next (as the source sees fit)."""
        ...

    def make_ready(self) -> None:
        """Work out now what the first query reading abstracts would on its key (off the
        event loop, as `SearchIndex.prepare_arrays` is called)."""
        ...


def paper_text(paper: Paper, field: int) -> str:
    """The raw text of one field of a paper but its abstract (the authors joined by ", "); a
    title left to be derived later (and its method) is "" until it is, as in the index."""
    if field == TITLE:
        return paper.title if title_known(paper) else ""
    if field == METHOD:
        return (paper.method or "") if title_known(paper) else ""
    return ", ".join(paper.authors)


@runtime_checkable
class ReadsAhead(Protocol):
    """Postings read from somewhere slower than memory, which can read many words at once."""

    def read_ahead(self, words: Iterable[str]) -> None:
        """Make the postings of these words quick to ask for next."""
        ...


class PaperAbstracts:
    """The abstracts of papers held in memory."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self._papers = papers
        self._average: float | None = None

    def text(self, i: int) -> str:
        return self._papers[i].abstract

    def length(self, i: int) -> int:
        return len(self._papers[i].abstract)

    def read_ahead(self, papers: Sequence[int]) -> None:
        pass  # in memory already

    def make_ready(self) -> None:
        self.average_length()

    def average_length(self) -> float:
        if self._average is None:
            papers = self._papers
            total = sum(map(len, map(_ABSTRACT_OF, papers)))
            self._average = max(1.0, total / max(1, len(papers)))
        return self._average


class ShortTexts(Protocol):
    """Where a stored index reads a paper's title, method and authors: ranking reads those of
    a query's best few, scattered over the list."""

    def text(self, i: int, field: int) -> str | None:
        """Paper `i`'s text in `field` (not ABSTRACT); None when it cannot be read here (the
        paper's own is used then)."""
        ...

    def make_ready(self) -> None:
        """Read them all now (off the event loop, as `SearchIndex.prepare_arrays` is called)."""
        ...


@dataclass(eq=False, slots=True, weakref_slot=True)
class WordIndex:
    """What a query is evaluated against; built by `build`, kept and reopened by `stored`."""

    papers: Sequence[Paper]
    """The papers, their abstracts possibly left out (see `abstracts`)."""
    abstracts: Abstracts
    ids: Mapping[str, int]
    """Each paper's number by its id."""
    postings: tuple[Postings, ...]
    """Per field: folded word -> the numbers of the papers that have it, ascending."""
    vocabulary: list[str]
    """Every word of every field, sorted."""
    buckets: Buckets
    """By first letter: words of three letters or more by length, and where each length starts
    (where typo-tolerant matches are looked for)."""
    short_prefixes: list[MutableMapping[str, array[int]]]
    """Per field: the papers with a word starting with a one- or two-letter prefix."""
    years: dict[int, array[int]]
    venues: dict[str, tuple[tuple[str, ...], array[int]]]
    """By venue: its folded words and its papers."""
    derived: bytes | None = None
    """Per paper, 1 when its title was derived from its abstract (worked out from the papers
    when first asked for, when None)."""
    short_texts: ShortTexts | None = None
    """The titles, methods and authors read apart from the papers (a stored index), or None:
    the papers' own."""
    all: array[int] = field(init=False)
    """Every paper's number, in order: what `is:unread` or a negation starts from."""
    common_short: int = field(init=False)
    """A one- or two-letter word in more abstracts than this is not searched in them."""
    derived_count: int = field(init=False)
    """How many papers' titles were derived from their abstract (known once asked for)."""

    def __post_init__(self) -> None:
        self.all = array("I", range(len(self.papers)))
        self.common_short = max(1000, len(self.papers) // _COMMON_SHORT)
        self.derived_count = 0 if self.derived is None else self.derived.count(1)

    def derived_titles(self) -> bytes:
        """Per paper, 1 when its title was derived from its abstract (worked out once)."""
        if self.derived is None:
            papers = self.papers
            if isinstance(papers, StoredPapers):
                self.derived = papers.derived_flags()  # read without building the papers
            else:
                self.derived = bytes(map(_DERIVED, papers))
            self.derived_count = self.derived.count(1)
        return self.derived

    def __len__(self) -> int:
        return len(self.papers)

    def field_text(self, i: int, field: int) -> str:
        """The raw text of one field of paper `i` (the authors joined by ", ")."""
        if field == ABSTRACT:
            return self.abstracts.text(i)
        if self.short_texts is not None:
            text = self.short_texts.text(i, field)
            if text is not None:
                return text
        if isinstance(self.papers, StoredPapers):
            # Read from the one column of the paper's chunk, without making the paper.
            return self.papers.text(i, _STORED_COLUMNS[field])
        return paper_text(self.papers[i], field)

    def read_ahead(self, field: int, papers: Sequence[int]) -> None:
        """Make the texts of these papers in `field` quick to ask for next."""
        if field == ABSTRACT:
            self.abstracts.read_ahead(papers)

    def read_postings_ahead(self, field: int, words: Iterable[str]) -> None:
        """Make the postings of these words in `field` quick to ask for next (a stored index
        reads them together)."""
        postings = self.postings[field]
        if isinstance(postings, ReadsAhead):
            postings.read_ahead(words)

    def word_starts_steps(
        self, field: int, prefix: str, clock: Clock, *, as_arrays: bool = False
    ) -> Generator[None, None, array[int]]:
        """The papers with a word in `field` starting with this one- or two-letter prefix
        (worked out the first time it is asked for; by numpy if `as_arrays`, where the words
        starting with a letter have a few hundred thousand papers between them)."""
        known = self.short_prefixes[field]
        found = known.get(prefix)
        if found is not None:
            return found
        postings = self.postings[field]
        vocabulary = self.vocabulary
        low = bisect.bisect_left(vocabulary, prefix)
        high = bisect.bisect_left(vocabulary, prefix + MAX_CHAR, low)
        united: array[int] | None = None
        if as_arrays:
            from paperdeck.core.search import arrays

            parts = [docs for word in vocabulary[low:high] if (docs := postings.get(word))]
            if clock.due():
                yield
                clock.reset()
            united = arrays.union(len(self), parts)
        if united is None:
            papers: set[int] = set()
            for word in vocabulary[low:high]:
                docs = postings.get(word)
                if docs is not None:
                    yield from update_steps(papers, docs, clock)
            united = array("I", sorted(papers))
        known[prefix] = united
        return united

    def letter_starts(self) -> None:
        """Work out, as arrays, the papers with a word starting with each letter in each field
        but the abstract (a one-letter word start is only looked for there): each word typed
        after the first is one letter long on its first key."""
        clock = Clock()
        for field_number in range(len(FIELDS)):
            if field_number == ABSTRACT:
                continue
            for letter in self.buckets:
                finish(self.word_starts_steps(field_number, letter, clock, as_arrays=True))

    def all_word_starts_steps(self, clock: Clock) -> Generator[None, None, None]:
        """Work out every word start of every field but the abstract (for the cache)."""
        for field_number in range(len(FIELDS)):
            if field_number == ABSTRACT:
                continue
            prefixes: set[str] = set()
            for count, word in enumerate(self.postings[field_number]):
                prefixes.add(word[:1])
                prefixes.add(word[:2])
                if count & 1023 == 1023 and clock.due():
                    yield
                    clock.reset()
            for prefix in sorted(prefixes):
                yield from self.word_starts_steps(field_number, prefix, clock)
                if clock.due():
                    yield
                    clock.reset()


def by_length(group: list[str]) -> tuple[list[str], list[int]]:
    """Words of three letters or more sorted by length, and where each length starts."""
    ordered = sorted(group, key=len)  # stable: alphabetical within a length, as `group` is
    lengths = list(map(len, ordered))
    short = bisect.bisect_left(lengths, 3)
    del ordered[:short], lengths[:short]
    longest = lengths[-1] if lengths else 0
    starts = [bisect.bisect_left(lengths, length) for length in range(longest + 2)]
    return ordered, starts

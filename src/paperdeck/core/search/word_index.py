"""The search index's data: per field, each folded word's papers; the sorted vocabulary; years."""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from operator import attrgetter

from paperdeck.core.model import Paper
from paperdeck.core.plumbing.slices import Clock
from paperdeck.core.search.steps import update_steps

FIELDS = ("title", "method", "authors", "abstract")
TITLE, METHOD, AUTHORS, ABSTRACT = range(4)
MAX_CHAR = "\U0010ffff"
_DERIVED = attrgetter("title_derived")
_COMMON_SHORT = 10
"""A short word in more than 1 in this many abstracts says nothing about a paper."""


@dataclass(eq=False, slots=True)
class WordIndex:
    """What a query is evaluated against; built by `build`, kept by `codec` and `index_cache`."""

    papers: Sequence[Paper]
    ids: dict[str, int]
    """Each paper's number by its id."""
    postings: tuple[dict[str, array[int]], ...]
    """Per field: folded word -> the numbers of the papers that have it, ascending."""
    vocabulary: list[str]
    """Every word of every field, sorted."""
    buckets: dict[str, tuple[list[str], list[int]]]
    """By first letter: words of three letters or more by length, and where each length starts
    (where typo-tolerant matches are looked for)."""
    short_prefixes: list[dict[str, array[int]]]
    """Per field: the papers with a word starting with a one- or two-letter prefix."""
    years: dict[int, array[int]]
    venues: dict[str, tuple[tuple[str, ...], array[int]]]
    """By venue: its folded words and its papers."""
    all: array[int] = field(init=False)
    """Every paper's number, in order: what `is:unread` or a negation starts from."""
    common_short: int = field(init=False)
    """A one- or two-letter word in more abstracts than this is not searched in them."""
    derived_count: int = field(init=False)
    """How many papers' titles were derived from their abstract (known once asked for)."""
    _derived: bytes | None = field(init=False)

    def __post_init__(self) -> None:
        self.all = array("I", range(len(self.papers)))
        self.common_short = max(1000, len(self.papers) // _COMMON_SHORT)
        self.derived_count = 0
        self._derived = None

    def derived_titles(self) -> bytes:
        """Per paper, 1 when its title was derived from its abstract (worked out once)."""
        if self._derived is None:
            self._derived = bytes(map(_DERIVED, self.papers))
            self.derived_count = self._derived.count(1)
        return self._derived

    def __len__(self) -> int:
        return len(self.papers)

    def field_text(self, i: int, field: int) -> str:
        """The raw text of one field of paper `i` (the authors joined by ", ")."""
        paper = self.papers[i]
        if field == TITLE:
            return paper.title
        if field == METHOD:
            return paper.method or ""
        if field == AUTHORS:
            return ", ".join(paper.authors)
        return paper.abstract

    def word_starts_steps(
        self, field: int, prefix: str, clock: Clock
    ) -> Generator[None, None, array[int]]:
        """The papers with a word in `field` starting with this one- or two-letter prefix
        (worked out the first time it is asked for)."""
        known = self.short_prefixes[field]
        found = known.get(prefix)
        if found is not None:
            return found
        postings = self.postings[field]
        vocabulary = self.vocabulary
        low = bisect.bisect_left(vocabulary, prefix)
        high = bisect.bisect_left(vocabulary, prefix + MAX_CHAR, low)
        papers: set[int] = set()
        for word in vocabulary[low:high]:
            docs = postings.get(word)
            if docs is not None:
                yield from update_steps(papers, docs, clock)
        found = array("I", sorted(papers))
        known[prefix] = found
        return found

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

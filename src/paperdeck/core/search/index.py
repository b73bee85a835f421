"""The search index of a list: opened from the list store or built, then searched, in slices."""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from concurrent.futures import Future
from typing import Any

from paperdeck.core.model import Annotation, Paper
from paperdeck.core.plumbing.slices import finish
from paperdeck.core.search import arrays, build, stored
from paperdeck.core.search.evaluate import Evaluator, SearchResult
from paperdeck.core.search.index_parts import Growing
from paperdeck.core.search.query import Query, parse_query
from paperdeck.core.search.rank import SortMode
from paperdeck.core.search.spans import match_spans
from paperdeck.core.search.steps import without_gc
from paperdeck.core.search.word_index import FIELDS, WordIndex

__all__ = ["FIELDS", "SearchIndex", "SearchResult", "SortMode"]


class SearchIndex:
    """A word index over title, method, authors and abstract of a sequence of papers."""

    word_index: WordIndex
    _evaluator: Evaluator
    _unsaved: tuple[str, Sequence[Paper]] | None
    """The list store key a freshly built index is to be kept under by `save_steps`, and the
    papers it was built from (their titles, methods and authors are kept with it)."""
    messages: list[str]
    """What went wrong with the list store, one line each (the index works without it)."""

    def __init__(
        self,
        papers: Sequence[Paper],
        key: str | None = None,
        full_papers: Callable[[], Sequence[Paper]] | None = None,
    ) -> None:
        """Open the index kept for the stored list `key`, or build it now (and keep it)."""
        for _ in without_gc(self._build_or_load(papers, key, full_papers)):
            pass
        for _ in without_gc(self.save_steps()):
            pass

    @classmethod
    def build_steps(
        cls,
        papers: Sequence[Paper],
        key: str | None = None,
        full_papers: Callable[[], Sequence[Paper]] | None = None,
        grown: Growing | None = None,
    ) -> Generator[float | Future[Any], None, SearchIndex]:
        """Open or build the index in slices of a few milliseconds, yielding progress 0 to 1,
        or the future of a step done on a thread meanwhile (see `slices.on_thread`).

        `key` is the list store key of the one stored list `papers` are (None for anything
        else: several lists, metadata applied, a list not stored): its kept index is opened,
        or the one built is kept by `save_steps` after. `full_papers` gives the papers with
        their abstracts when `papers` were read without them (a build needs them). `grown`:
        the postings the list's load made (see `build.build_steps`).
        """
        index = cls.__new__(cls)
        yield from without_gc(index._build_or_load(papers, key, full_papers, grown))
        return index

    def titled_steps(self) -> Generator[float, None, SearchIndex]:
        """This index with its papers' titles and methods searchable: for one built while
        some of their titles were still to be derived (`model.TitledLater`), once all are.
        In slices yielding progress; the index returned is kept by its `save_steps`, not
        this one (a list is kept with its titles)."""
        titled = type(self).__new__(type(self))
        titled.messages = self.messages
        titled._unsaved, self._unsaved = self._unsaved, None
        titled._use((yield from build.titled_steps(self.word_index)))
        return titled

    def save_steps(self) -> Generator[None, None, None]:
        """Keep a freshly built index in the list store, in slices; nothing to do after an
        opening or for papers that are not one stored list."""
        unsaved, self._unsaved = self._unsaved, None
        if unsaved is not None:
            key, papers = unsaved
            yield from stored.save_steps(self.word_index, key, papers, self.messages)

    def _build_or_load(
        self,
        papers: Sequence[Paper],
        key: str | None,
        full_papers: Callable[[], Sequence[Paper]] | None,
        grown: Growing | None = None,
    ) -> Generator[float | Future[Any], None, None]:
        self._unsaved = None
        self.messages = []
        kept_under = key if key is not None and stored.enabled() else None
        if kept_under is not None:
            kept = yield from stored.open_steps(papers, kept_under, self.messages)
            if kept is not None:
                self._use(kept)
                return
        built_from = papers if full_papers is None else full_papers()
        built = yield from build.build_steps(built_from, grown)
        if kept_under is not None:
            self._unsaved = kept_under, built_from
        if full_papers is not None:
            built.papers = papers
        self._use(built)

    def _use(self, word_index: WordIndex) -> None:
        self.word_index = word_index
        self._evaluator = Evaluator(word_index)

    def __len__(self) -> int:
        return len(self.word_index)

    def prepare_arrays(self) -> bool:
        """Import numpy if this index's queries may be scored as arrays, and score them so from
        now on (a reader searches on every key; a command's one search spares the import).
        Then works out what the first key of each next word needs (`letter_starts`). Call it
        off the event loop. Whether it did."""
        if not arrays.prepare(len(self)):
            return False
        self.word_index.abstracts.make_ready()
        if self.word_index.short_texts is not None:
            self.word_index.short_texts.make_ready()
        self._evaluator.use_arrays()
        self.word_index.letter_starts()
        return True

    @property
    def arrays_prepared(self) -> bool:
        """Whether `prepare_arrays` made this index score large queries as arrays."""
        return self._evaluator.arrays_prepared

    def search(
        self,
        query: str | Query,
        *,
        annotations: Mapping[str, Annotation] | None = None,
        sort: SortMode = "relevance",
        all_terms: bool = False,
        shown: int | None = None,
    ) -> SearchResult:
        """Papers matching `query`, best first (or in `sort` order); then, unless `all_terms`,
        the papers with some of its words (from `result.matched_all` on).

        `shown`: the caller shows only the first this many, so the papers with some of the
        words are left out when at least that many have them all.
        """
        return finish(
            self.search_steps(
                query, annotations=annotations, sort=sort, all_terms=all_terms, shown=shown
            )
        )

    def search_steps(
        self,
        query: str | Query,
        *,
        annotations: Mapping[str, Annotation] | None = None,
        sort: SortMode = "relevance",
        all_terms: bool = False,
        shown: int | None = None,
    ) -> Generator[None, None, SearchResult]:
        """The work of `search` in slices of a few milliseconds; stop resuming to abandon it."""
        parsed = query if isinstance(query, Query) else parse_query(query)
        return (
            yield from self._evaluator.search_steps(parsed, annotations, sort, all_terms, shown)
        )

    def match_spans(self, query: str | Query, index: int) -> dict[str, list[tuple[int, int]]]:
        """Spans per field ("title", "method", "authors", "abstract") of the paper's raw text.

        The authors' text is their names joined by ", "; a missing method is "". Every field is
        in the answer, with an empty list where nothing matched.
        """
        texts = [self.word_index.field_text(index, field) for field in range(len(FIELDS))]
        return match_spans(query, texts)

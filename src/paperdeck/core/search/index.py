"""The search index of a list: built or loaded from the cache, then searched, in slices."""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence

from paperdeck.core.model import Annotation, Paper
from paperdeck.core.plumbing.slices import Clock, finish
from paperdeck.core.search import build, codec, index_cache
from paperdeck.core.search.evaluate import Evaluator, SearchResult
from paperdeck.core.search.query import Query, parse_query
from paperdeck.core.search.rank import SortMode
from paperdeck.core.search.spans import match_spans
from paperdeck.core.search.steps import as_progress, without_gc
from paperdeck.core.search.word_index import FIELDS, WordIndex

__all__ = ["FIELDS", "SearchIndex", "SearchResult", "SortMode"]


class SearchIndex:
    """A word index over title, method, authors and abstract of a sequence of papers."""

    word_index: WordIndex
    _evaluator: Evaluator
    _unsaved: tuple[Sequence[Paper], str, str | None, str | None] | None
    """What a new index is cached under (papers, ids name, and name and key once worked
    out), until `save_steps` has written it."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        """Build the whole index now (or load it from the cache), and cache a new one."""
        for _ in without_gc(self._build_or_load(papers)):
            pass
        for _ in without_gc(self.save_steps()):
            pass

    @classmethod
    def build_steps(cls, papers: Sequence[Paper]) -> Generator[float, None, SearchIndex]:
        """Build the index in slices of a few milliseconds, yielding progress from 0 to 1.

        The index it returns answers at once; a new one is cached by `save_steps` after.
        """
        index = cls.__new__(cls)
        yield from without_gc(index._build_or_load(papers))
        return index

    def save_steps(self) -> Generator[None, None, None]:
        """Write a freshly built index to the cache, in slices; nothing to do after a load."""
        unsaved, self._unsaved = self._unsaved, None
        if unsaved is None:
            return
        papers, ids_name, name, key = unsaved
        yield from self.word_index.all_word_starts_steps(Clock())
        if name is None:
            name = yield from index_cache.name_steps(papers, ids_name)
        if key is None:
            key = yield from index_cache.key_steps(papers)
        yield from index_cache.save_steps(name, key, codec.pack(self.word_index))

    def _build_or_load(self, papers: Sequence[Paper]) -> Generator[float, None, None]:
        """The index from the cache when these papers were indexed before, else built."""
        self._unsaved = None
        loaded = yield from self._load_steps(papers)
        if loaded is not None:
            self._use(loaded)
            return
        self._use((yield from build.build_steps(papers)))

    def _load_steps(self, papers: Sequence[Paper]) -> Generator[float, None, WordIndex | None]:
        """The cached index of these papers, if any; else None (and what to save it under)."""
        if not index_cache.enabled():
            return None
        # The full name takes ~30 ms at 100,000 papers, the full key (it reads every abstract)
        # ~0.2 s: each is only worked out when a cache file may be this index.
        ids_name = yield from as_progress(index_cache.ids_name_steps(papers), 0.0)
        name: str | None = None
        key: str | None = None
        if index_cache.any_named(ids_name):
            name = yield from as_progress(index_cache.name_steps(papers, ids_name), 0.0)
        if name is not None and index_cache.exists(name):
            key = yield from as_progress(index_cache.key_steps(papers), 0.0)
            chunks = index_cache.open_chunks(name, key)
            if chunks is not None:
                try:
                    loaded = yield from codec.restore_steps(papers, chunks)
                except Exception:  # damaged, or written by a buggy version: build afresh
                    pass
                else:
                    yield 1.0
                    return loaded
                finally:
                    chunks.close()
        self._unsaved = (papers, ids_name, name, key)
        return None

    def _use(self, word_index: WordIndex) -> None:
        self.word_index = word_index
        self._evaluator = Evaluator(word_index)

    def __len__(self) -> int:
        return len(self.word_index)

    def search(
        self,
        query: str | Query,
        *,
        annotations: Mapping[str, Annotation] | None = None,
        sort: SortMode = "relevance",
        all_terms: bool = False,
    ) -> SearchResult:
        """Papers matching `query`, best first (or in `sort` order); then, unless `all_terms`,
        the papers with some of its words (from `result.matched_all` on)."""
        return finish(
            self.search_steps(query, annotations=annotations, sort=sort, all_terms=all_terms)
        )

    def search_steps(
        self,
        query: str | Query,
        *,
        annotations: Mapping[str, Annotation] | None = None,
        sort: SortMode = "relevance",
        all_terms: bool = False,
    ) -> Generator[None, None, SearchResult]:
        """The work of `search` in slices of a few milliseconds; stop resuming to abandon it."""
        parsed = query if isinstance(query, Query) else parse_query(query)
        return (yield from self._evaluator.search_steps(parsed, annotations, sort, all_terms))

    def match_spans(self, query: str | Query, index: int) -> dict[str, list[tuple[int, int]]]:
        """Spans per field ("title", "method", "authors", "abstract") of the paper's raw text.

        The authors' text is their names joined by ", "; a missing method is "". Every field is
        in the answer, with an empty list where nothing matched.
        """
        texts = [self.word_index.field_text(index, field) for field in range(len(FIELDS))]
        return match_spans(query, texts)

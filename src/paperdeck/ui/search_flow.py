"""The reader's search: the index built in slices, each query run in slices, results to the list."""

from __future__ import annotations

import asyncio
import importlib
import itertools
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING, NamedTuple

from textual.worker import Worker, get_current_worker

from paperdeck.ui.loading import freeze_long_lived
from paperdeck.ui.related_view import RelatedView, SharedWordsHints, related_view, words_query
from paperdeck.ui.safe_text import cut, one_line
from paperdeck.ui.widgets.match_hint import HintFinder
from paperdeck.ui.widgets.paper_list import Highlighter, PaperList, no_highlight
from paperdeck.ui.widgets.paper_rows import DERIVED_MARKER
from paperdeck.ui.widgets.search_status import SearchStatus, Unmatched

if TYPE_CHECKING:
    from paperdeck.core.library import Library
    from paperdeck.core.papers import Papers
    from paperdeck.core.search.index import SearchIndex, SearchResult, SortMode
    from paperdeck.core.search.index_parts import Growing
    from paperdeck.core.search.near import NearSpelling
    from paperdeck.core.search.query import Query
    from paperdeck.ui.app import PaperdeckApp

BIG_LIST = 2000
"""Papers above which the header shows the indexing progress."""


class SearchFlow:
    """Owns the index and the query; filters the list as the user types."""

    def __init__(self, app: PaperdeckApp) -> None:
        self.app = app
        self.index: SearchIndex | None = None
        self.covered = 0
        """How many papers, from the first, the index the result shown came from holds."""
        self.query = ""
        self.filtered: int | None = None
        """How many papers the query keeps; None when nothing is filtered."""
        self.index_progress: float | None = None
        self.titling = False
        """Whether the titles the papers were loaded without are being derived (then the
        index is built again with them: `titles_known`)."""
        self.parsed: Query | None = None
        """The shown result's parsed query: highlighting does not parse it again."""
        self.view_terms = ""
        """Terms the triage views add to every query (`is:unread is:starred`)."""
        self._applied = ""
        """The query whose result the list shows."""
        self._best: int | None = None
        """The paper at the top of that result: a cursor left on it follows the top."""
        self.related: RelatedView | None = None
        """Why each paper of a shown `like:` result is there."""
        self._views = itertools.count()
        self._likes: list[LikeStep] = []
        """The `like:` views `l` opened, the latest last: Esc goes back along them."""
        self._back_to: tuple[str, int] | None = None
        """A query Esc went back to and the paper its result puts the cursor on."""
        self._after_result: Callable[[], object] | None = None
        """Started once the next result is painted (the index's save: it would take the GIL
        from that search and its paint)."""

    def reset(self) -> None:
        """A new library: no index, no query."""
        self.index = None
        self.covered = 0
        self.filtered = None
        self.query = ""
        self.parsed = None
        self.related = None
        self._applied = ""
        self._best = None
        self._after_result = None
        self.titling = False

    def build_index(self, grown: Growing | None = None) -> Worker[None]:
        """Build the index of the shown papers in slices (from the postings their load made,
        `grown`, when it made them); searches wait for it."""

        async def build() -> None:
            await self._build_index(grown)

        return self.app.run_worker(build, exclusive=True, group="index")

    async def _build_index(self, grown: Growing | None) -> None:
        # The search's modules take tens of milliseconds to import (a list still loading is
        # searched before anything imported them): on a thread, as keys go on.
        await asyncio.to_thread(importlib.import_module, "paperdeck.core.search.index")
        from paperdeck.core.search.index import SearchIndex

        app = self.app
        papers = app.papers
        # A list still loading is indexed as far as it goes: only the whole list's is kept
        # (even when the load ends while the rows so far are indexed).
        library = app.library
        whole = not app.loading.loading
        key = library.index_key() if whole else None
        # Papers opened without their abstracts: a build (no index kept yet) reads them all.
        full = None if library.abstracts_loaded else lambda: library.with_abstracts(papers)
        steps = SearchIndex.build_steps(papers, key, full, grown)
        while True:
            try:
                progress = next(steps)
            except StopIteration as stop:
                self.index = stop.value
                break
            if isinstance(progress, Future):
                await asyncio.wrap_future(progress)  # a step on a thread: keys go on meanwhile
            elif len(papers) > BIG_LIST:
                self.index_progress = float(progress) if progress <= 1 else None
                app.update_header()
            if not await self._next_slice():
                return
        self.index_progress = None
        if not app.is_running:
            return
        # The latest year the papers have, not the one a header or another list had.
        app.search_box.suggest_year(max(self.index.word_index.years, default=None))
        freeze_long_lived()  # the index lives as long as its papers
        # Each key searches a big list again: its scores as arrays, numpy imported on a thread.
        index = self.index
        app.run_worker(index.prepare_arrays, thread=True, group="arrays")
        self.titling = whole and library.titles_later
        app.update_header()
        save = None
        if whole:
            # On its own thread (SQLite writes without the GIL: later searches run meanwhile),
            # once a query typed while loading has its result painted.
            def save() -> object:
                return app.run_worker(
                    lambda: _save(app, library, index), thread=True, group="index-save"
                )

        if self.query or self.view_terms or app.settings.sort == "noted":
            self._after_result = save
            self.run(self.query)
        elif save is not None:
            save()

    def titles_known(
        self, before: SearchIndex, titled: SearchIndex, papers: Papers, title_cells: bytes
    ) -> None:
        """Every paper's title is derived now, and `titled` is `before` searching them (its
        arrays prepared): the rows take the lines their titles need (`title_cells`, measured on
        the thread that derived them), and unless another index replaced `before` meanwhile,
        `titled` takes its place and the query shown is searched again."""
        app = self.app
        if papers is not app.papers:
            return  # another list is shown: its own titles, if any, are being made
        self.titling = False
        app.loading.after_work()
        app.paper_list.titles_derived(papers, title_cells)
        app.update_header()
        if self.index is not before:
            return
        self.index = titled
        if self.query or self.view_terms or app.settings.sort == "noted":
            self.run(self.query)

    @property
    def best_shown(self) -> int | None:
        """The paper at the top of the shown result of a query."""
        return self._best

    def resume(self, query: str, best: int | None = None) -> None:
        """A query put back (a reopened session, a list done loading): its result keeps the
        paper under the cursor, as the user left it — the best one when `best` (the paper at
        the top of its result so far) is under the cursor."""
        self.query = self._applied = query
        self._best = best

    def query_changed(self, query: str) -> None:
        self.query = query
        self.run(query)

    def run(self, query: str) -> Worker[None]:
        """Search for `query` in slices (a newer query cancels it) and show the result."""

        async def search() -> None:
            await self._run(query)

        return self.app.run_worker(search, exclusive=True, group="search")

    async def _next_slice(self) -> bool:
        """Let keys and paints in, then say whether to go on: the reader quitting closes its
        screens before it cancels its workers, and a slice after that finds no widgets."""
        await asyncio.sleep(0)
        return self.app.is_running

    async def _run(self, query: str) -> None:
        app = self.app
        if not app.is_running:
            return
        # The view's terms go first: the query's end is where its last word is being typed
        # (`coin ` has finished `coin`), and an unclosed quote would take in terms after it.
        text = f"{self.view_terms} {query}" if self.view_terms else query
        if not text.strip() and app.settings.sort != "noted":
            self.apply(query, None)  # no filter: needs no index
            return
        index = self.index
        if index is None:
            # Applied when the index is ready; until then the list stays as it is.
            self.set_status("indexing… the search runs when the index is ready")
            return
        sort: SortMode = (
            "noted"
            if app.settings.sort == "noted"
            else ("list" if app.settings.sort == "list" else "relevance")
        )
        from paperdeck.core.store.database import read_failures

        failures = read_failures()
        steps = index.search_steps(text, annotations=app.entries(), sort=sort)
        while True:
            try:
                next(steps)
            except StopIteration as stop:
                result: SearchResult = stop.value
                break
            if not await self._next_slice():
                return
        if query == self.query:
            self.covered = len(index)
            self.apply(query, result)
        if read_failures() != failures:
            # A kept index answers a read it could not make as nothing kept: the result may
            # lack papers, and the list's copy in the store may be damaged.
            app.loading.store_failed()

    def apply(self, query: str, result: SearchResult | None) -> None:
        """Show a search's result in the list: a new query from its best paper, as fzf does;
        the same query again (more papers loaded, a view, a mark) keeping the paper under the
        cursor if it can, as does clearing the query — unless the cursor was left on the best
        paper, which then stays the best paper (a better one loaded later comes first)."""
        app = self.app
        paper_list = app.paper_list
        new_query = bool(query.strip()) and query != self._applied
        self._applied = query
        # Clearing the query keeps the paper, the best one too: it is what was found.
        on_best = bool(query.strip()) and paper_list.paper_index == self._best
        # A paper matching some of the words may rank thousands down: not where to stay.
        keep = None if new_query or on_best else paper_list.paper_index
        if self._back_to is not None and self._back_to[0] == query:
            # Back from a `like:` view: on the paper it was opened from.
            keep = self._back_to[1]
            self._back_to = None
        # A result never moves the note being typed to another paper.
        edited = app.note_flow.paper_being_edited()
        if edited is not None:
            app.note_flow.commit()
            if keep is None or app.papers[keep] is not edited:
                keep = app.paper_ids.get(edited.id)
        views = app.triage.views
        self.related = None
        if result is None or not query.strip():
            rows: Sequence[int] = result.indices if result is not None else range(len(app.papers))
            self.filtered = None
            self.parsed = None
            paper_list.set_highlighter("", no_highlight)
            self.set_status(result.message if result is not None else "")
        else:
            rows = result.indices
            self.filtered = len(rows)
            self.parsed = result.parsed
            related = self._related_view(result)
            status: list[str] = []
            if related is None:
                paper_list.set_highlighter(
                    query,
                    highlighter(result.parsed),
                    highlighter(result.parsed, "authors"),
                    HintFinder(result.parsed, result.found),
                )
            else:
                status = self._like_status(related, query)
                if result.message:
                    status = [f"{result.message}; {form}" for form in status]
                # Each view its own key: `like:starred` again, after a star, shares other words.
                paper_list.set_highlighter(
                    f"{query}\0{next(self._views)}",
                    highlighter(words_query(related.words, result.parsed)),
                    no_highlight,
                    SharedWordsHints(related),
                )
            if status:
                self.app.query_one("#search-status", SearchStatus).show(
                    status[0], fallbacks=status[1:]
                )
            else:
                self.app.query_one("#search-status", SearchStatus).show(
                    result.message,
                    result.near,
                    unmatched=_unmatched(result),
                    extra=self._made_up_titles(result.parsed),
                )
        divider = result.matched_all if result is not None and query.strip() else None
        if views:
            rows = app.triage.keep_marked(rows)
            self.filtered = len(rows)
            if "marked" in views:
                divider = None  # counted before the marked view dropped rows
        shown = f"No {app.triage.view_label()} papers" if views else "No papers"
        paper_list.empty_text = f"{shown} match {one_line(query)!r}" if query.strip() else shown
        index = self.index
        nothing = query.strip() and result is not None and not result.indices
        # Said of the whole list only: one still loading may have it further on.
        if nothing and result is not None and index is not None and not app.loading.loading:
            from paperdeck.core.search.nothing import why_nothing

            why = why_nothing(index.word_index, result.parsed)
            if why:
                paper_list.empty_text += f"\n{why[0].upper()}{why[1:]}"
        paper_list.set_rows(rows, keep_paper=keep, divider=divider)
        self._best = rows[0] if query.strip() and rows else None
        if edited is not None and app.current_paper is not edited:
            app.note_flow.left_results(edited)
        app.update_header()
        if not app.loading.panes_deferred:
            app.show_current()
        if self._after_result is not None:
            app.call_after_refresh(self._after_result)
            self._after_result = None

    def _made_up_titles(self, parsed: Query) -> tuple[str, ...]:
        """Said when `title:` looks in titles most of which paperdeck made up from the
        abstracts: a real title half remembered is not in them, its abstract may have it.
        Longest form first."""
        index = self.index
        if index is None or not any(term.field == "title" for term in parsed.positive_terms()):
            return ()
        marker = DERIVED_MARKER.strip()
        if self.titling:  # searched again once they are made (`titles_known`)
            return (
                f"{marker} titles are still being made: title: finds those made so far",
                f"{marker} titles still being made",
            )
        words = index.word_index
        words.derived_titles()  # counts them, read once
        if 2 * words.derived_count < len(words):
            return ()
        return (
            f"{marker} titles are made up: drop title: to search abstracts",
            f"{marker} titles made up: drop title:",
        )

    def _related_view(self, result: SearchResult) -> RelatedView | None:
        """The shown result's `like:` view, if its query has one."""
        index = self.index
        if index is None:
            return None
        try:
            self.related = related_view(index, result.parsed, self.app.entries(), result.related)
        except Exception:  # decoration: the list is shown without it
            self.related = None
        return self.related

    def went_like(self, like: str, before: str, paper: int) -> None:
        """`l` on `paper` searched `like`, in place of the search `before`."""
        self._likes = [step for step in self._likes if step.like != like][1 - LIKE_STEPS :]
        self._likes.append(LikeStep(like, before, paper))

    def goes_back(self, query: str) -> bool:
        """Whether Esc on `query` goes back to the search a `like:` view replaced."""
        return any(step.like == query.strip() for step in self._likes)

    def back_from_like(self) -> str:
        """What Esc puts in the search field: in a `like:` view that `l` opened, the search it
        replaced (whose result then puts the cursor back on the paper `l` was pressed on);
        otherwise nothing."""
        query = self.app.search_box.value.strip()
        while self._likes and self._likes[-1].like != query:
            self._likes.pop()  # searched elsewhere since: not the way back
        if not self._likes:
            return ""
        step = self._likes.pop()
        self._back_to = (step.before, step.paper)
        return step.before

    def _like_status(self, related: RelatedView, query: str) -> list[str]:
        """Ways of saying what a `like:` view lists and where Esc goes, longest first."""
        papers = self.app.papers
        if len(related.seeds) == 1:
            seed = papers[related.seeds[0]]
            number = f"#{seed.position}"
            title = one_line(self.app.note_flow.shown_title(seed))
            names = [
                f"papers like {number} “{title}”, sharing its rarest words",
                f"like {number} “{cut(title, 40)}”",
                f"like {number} “{cut(title, 20)}”",
                f"like {number}",
            ]
        elif related.starred:
            count = f"{len(related.seeds):,}"
            names = [
                f"papers like the {count} starred ones, sharing their rarest words",
                f"like the {count} starred",
            ]
        else:
            numbers = [f"#{papers[seed].position}" for seed in related.seeds]
            said = ", ".join(numbers[:-1]) + " and " + numbers[-1]
            names = [
                f"papers like {said}, sharing their rarest words",
                f"like {said}",
                f"like {len(numbers):,} papers",
            ]
        step = next((s for s in reversed(self._likes) if s.like == query.strip()), None)
        if step is None:
            return names
        before = one_line(step.before.strip())
        like = (
            self.app.paper_ids.get(before.removeprefix("like:"))
            if before.startswith("like:")
            else None
        )
        if like is not None:
            # The view `l` was pressed in: its paper's number, not its id.
            back = short = f"like #{self.app.papers[like].position}"
        else:
            back = f"“{before}”" if before else "every paper"
            short = f"“{cut(before, 12)}”" if before else "all"
        # The paper's title is worth more than the whole of the search Esc goes back to.
        return [f"{name} · Esc: back to {said}" for name in names for said in (back, short)]

    def set_status(self, message: str | None, near: Sequence[NearSpelling] = ()) -> None:
        """Say `message` under the search field, with the query's words no paper has."""
        self.app.query_one("#search-status", SearchStatus).show(message, near)

    def shown_query(self) -> Query | str:
        """The query the panes highlight: none while the list is not filtered."""
        if self.filtered is None:
            return ""
        return self.parsed if self.parsed is not None else self.query


LIKE_STEPS = 20
"""`like:` views Esc goes back along."""


class LikeStep(NamedTuple):
    """A `like:` search `l` opened, the search it replaced and the paper it was opened on."""

    like: str
    before: str
    paper: int


SLASH_HINT = "a new search: Enter, then /"
"""After a word joined by "/" that no paper has: "/" typed in the field is a character (it joins
words, as in k-median/means); pressed there to start a new search, it glued the two."""
SLASH_HINT_SHORT = "new search: Enter, /"
"""SLASH_HINT where the line is short of room."""


def _unmatched(result: SearchResult) -> list[Unmatched]:
    """The query's phrases and words that no paper has, with no near spelling shown instead
    (`no paper has "DC programming"`), when other words found papers: without it the list said
    only that no paper has every word, not which of them. Each as said, then said shorter."""
    from paperdeck.core.search.near import NONE_HAS

    out: list[Unmatched] = []
    for term, count in result.found.items():
        # The empty list says why, but not that a "/" glued two searches.
        if count == 0 and term.field in NONE_HAS and (result.indices or "/" in term.text):
            said = f'"{one_line(term.text)}"'
            glued = "/" in term.text
            out.append(
                (
                    term.field,
                    said + (f" ({SLASH_HINT})" if glued else ""),
                    said + (f" ({SLASH_HINT_SHORT})" if glued else ""),
                )
            )
    return out


def highlighter(query: Query | str, field: str = "title") -> Highlighter:
    """Match spans of `query` in one field's text (each field highlights only its own terms)."""
    from paperdeck.core.search.spans import highlighter as spans_of

    def spans(text: str) -> Sequence[tuple[int, int]]:
        try:
            return spans_of(query, field)(text)
        except Exception:  # a highlight is decoration: never let it break a paint
            return ()

    return spans


def _save(app: PaperdeckApp, library: Library, index: SearchIndex) -> None:
    """Derive the titles a list was read without, if it was, for the index to search them
    too; then keep the list, then its freshly built index, in the list store. Stopped
    (nothing kept) if the reader quits first."""
    worker = get_current_worker()

    def going_on() -> bool:
        # Quitting, or another list opened meanwhile: nothing of this one is wanted now.
        return not worker.is_cancelled and app.library is library

    if library.titles_later:
        step_aside = app.loading.step_aside

        def stepping() -> bool:
            step_aside()
            return going_on()

        titled = _with_titles(index, stepping)
        if titled is None:
            return
        # Before it answers: a key would otherwise be scored without the arrays meanwhile.
        titled.prepare_arrays()
        library.titles_later = False
        papers = titled.word_index.papers
        cells = PaperList.title_cells_from(papers)
        if not going_on():
            return
        app.call_from_thread(app.search.titles_known, index, titled, papers, cells)
        index = titled
    # The rows' measures are those of the list shown: of this one only while it is.
    measures = app.paper_list.measures() if going_on() else {}
    for message in library.keep(measures):
        app.call_from_thread(app.notify, one_line(message), severity="warning", markup=False)
    steps = index.save_steps()
    for _ in steps:
        if worker.is_cancelled:
            steps.close()
            return


def _with_titles(index: SearchIndex, going_on: Callable[[], bool]) -> SearchIndex | None:
    """`index` with the titles of its papers that were still to be derived (they are derived
    now); None if `going_on` says to stop first."""
    from paperdeck.core.titles.later import derive_later

    if not derive_later(index.word_index.papers, going_on):
        return None
    steps = index.titled_steps()
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            titled: SearchIndex = stop.value
            return titled
        if not going_on():
            steps.close()
            return None

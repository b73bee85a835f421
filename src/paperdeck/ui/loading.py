"""Loading lists into the reader: a load on its own thread, the loading line, the first rows
of a big list while the rest loads, swapping libraries."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import gc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textual.timer import Timer
from textual.widgets import Input
from textual.worker import Worker

from paperdeck.core.plumbing.slices import Foreground
from paperdeck.ui.background_load import BackgroundLoad, Load, LoadedSoFar
from paperdeck.ui.busy_loop import BusyLoop
from paperdeck.ui.safe_text import one_line
from paperdeck.ui.widgets.notes_panel import NoteEditor
from paperdeck.ui.widgets.paper_list import PaperList

if TYPE_CHECKING:
    from paperdeck.core.library import Library, LoadOptions
    from paperdeck.core.model import Paper
    from paperdeck.core.search.index_parts import Growing
    from paperdeck.core.search.query import Query
    from paperdeck.ui.app import PaperdeckApp

LOADING_TICK = 0.3
"""Seconds between repaints of the loading line: each one takes the GIL from the loader."""
LOADING_FRAMES = ("·  ", "·· ", "···", " ··", "  ·", "   ")
PARTIAL_INDEX_ENOUGH = 10_000
"""Papers an index of the rows so far covers after which it is not built again while the list
loads: a bigger one takes the loader's GIL and memory for a result the whole list's index
soon replaces."""


Loader = Load | BackgroundLoad


class LoadingFlow:
    """Runs the reader's loads and shows a new library: list first, then panes and index."""

    def __init__(
        self, app: PaperdeckApp, loader: Loader | None, label: str, paths: Sequence[Path] = ()
    ) -> None:
        self.app = app
        self.loader = loader
        self.label = label
        self.paths = list(paths)
        """The lists loading (their session's key); empty when not known."""
        self.error: str | None = None
        self._timer: Timer | None = None
        self._frame = 0
        self.panes_deferred = False
        """True between a load's list paint and the deferred paint of the panes."""
        self._so_far = LoadedSoFar()
        self._foreground = loader.foreground if isinstance(loader, BackgroundLoad) else Foreground()
        self._busy: BusyLoop | None = None
        self.shown_so_far = 0
        """Papers of the loading list already shown (0 before the first rows)."""
        self.expected = 0
        """How many papers the loading lists hold, as far as the load knows."""
        self._indexed_so_far = 0
        self._indexing: Worker[None] | None = None
        self._grown: Growing | None = None
        self.index_covers = 0
        """Papers the last index finished while loading covers (its results are shown)."""
        self._left: _LeftList | None = None
        """The list shown before another was opened, while that one loads."""
        self._generation = 0
        """Counts loads started: a report or result of an earlier one is not shown."""
        self._failed_reads = 0
        """`read_failures()` when the library shown was shown."""
        self._read_again: set[Path] = set()
        """The lists read again after the list store failed them (see `store_failed`)."""
        if isinstance(loader, BackgroundLoad):
            loader.so_far.started()

    @property
    def loading(self) -> bool:
        return self.loader is not None

    def start(self) -> None:
        """Called at mount: start the pending load, if any, after the first paint."""
        if self.loader is None:
            self.app.session.restore()
            self.app.search.build_index()
            return
        # A plain line, repainted a few times a second: Textual's loading indicator
        # repaints at 16 frames a second and slows the loader it waits for.
        self._tick()
        self._timer = self.app.set_interval(LOADING_TICK, self._tick)
        loop, context = asyncio.get_running_loop(), contextvars.copy_context()
        if self._busy is None:
            self._busy = BusyLoop(loop, self._foreground)
        self._busy.start()
        source = self._source()
        source.on_first(lambda: _call_soon(loop, context, self._tick))
        source.measure_with(PaperList.title_cells_from)
        if isinstance(self.loader, BackgroundLoad):
            # No thread waits for it, so quitting while it reads does not wait either.
            self.loader.when_done(lambda: _call_soon(loop, context, self._take_background_load))
        else:
            # Start after the first paint: the loader competes for the GIL.
            self.app.call_after_refresh(self._start_thread)

    def title(self) -> str:
        """The header's title while loading: what is loading; once rows show, the list's name
        (how far it is, `progress`, is a fact of its own)."""
        return self.label if self.shown_so_far else f"Loading {self.label}…"

    def progress(self) -> tuple[int, int] | None:
        """How many papers are shown of how many, while a load has shown its first rows."""
        return (self.shown_so_far, self.expected) if self.loading and self.shown_so_far else None

    def _tick(self) -> None:
        frame = LOADING_FRAMES[self._frame % len(LOADING_FRAMES)]
        self._frame += 1
        if self._left is None:  # a list left on screen while another loads keeps its words
            paper_list = self.app.paper_list
            paper_list.empty_text = f"Loading {one_line(self.label)} {frame}"
            if not paper_list.rows:  # the words show only in an empty list
                paper_list.refresh()
        source = self._source()
        reported = source.take()
        if reported is not None and self.loader is not None:
            self._show_so_far(*reported, source.measures(reported[0]))
            self.app.call_after_refresh(source.painted)
        if self.shown_so_far:
            self._index_so_far()

    def _source(self) -> LoadedSoFar:
        """What the load reports its papers so far to."""
        return self.loader.so_far if isinstance(self.loader, BackgroundLoad) else self._so_far

    def _show_so_far(
        self, papers: list[Paper], total: int, title_cells: tuple[int, bytes] = (0, b"")
    ) -> None:
        """Show the papers loaded so far: the first time as a new list, then growing it.

        Each report starts with the papers of the one before, so rows, results and the cursor
        stay valid as it grows; a load that starts again (a damaged store) starts over here.
        """
        from paperdeck.core.library import Library
        from paperdeck.core.papers import LoadedPapers

        app = self.app
        if not papers:
            return
        paper_list = app.paper_list
        if not self.shown_so_far or app.papers[0] is not papers[0]:
            query = app.search_box.value
            left = self._left
            if left is not None and not self.shown_so_far:
                self._leave_shown_list()
                if query == left.query:
                    query = ""  # typed for the list left, not while this one loaded
            app.set_papers(Library(papers=LoadedPapers(papers), lists=[]))
            paper_list.empty_text = "No papers"
            paper_list.set_papers(app.papers, title_cells=title_cells)
            if query:
                app.search_box.value = query  # the query typed while loading applies
                # Emptied and filled again, the field's cursor was left at its start: the keys
                # still on their way were typed before the first ("robust" became "obustr").
                app.search_box.cursor_position = len(query)
            self._indexed_so_far = 0
            app.show_current()
        else:
            app.papers = app.library.papers = LoadedPapers(papers)
            app.paper_ids = app.papers.numbers()
            # Longer, without moving the cursor or the view.
            paper_list.grow(
                app.papers, show_all=app.search.filtered is None, title_cells=title_cells
            )
        self.shown_so_far, self.expected = len(papers), max(total, len(papers))
        app.update_header()

    def grown(self) -> Growing | None:
        """The search postings the load makes as it goes, if it makes them."""
        if isinstance(self.loader, BackgroundLoad):
            return self.loader.grown
        return self._grown

    def _index_so_far(self) -> None:
        """While a query is typed, search covers the rows loaded so far: they are indexed, and
        again each time they have doubled since (a build started over with every report would
        never finish), until one covers PARTIAL_INDEX_ENOUGH. The load indexes the papers it
        makes as it goes: then the index is made from those postings."""
        if self._note_index_done() or not self.app.search.query.strip():
            return
        grown = self.grown()
        covered = grown.covers() if grown is not None else 0
        loaded = min(covered, self.shown_so_far) if covered else self.shown_so_far
        if loaded >= 2 * self._indexed_so_far and self._indexed_so_far < PARTIAL_INDEX_ENOUGH:
            self._indexed_so_far = loaded
            self._indexing = self.app.search.build_index(grown if covered else None)

    def _take_background_load(self) -> None:
        from paperdeck.core.errors import PaperdeckError

        if not isinstance(self.loader, BackgroundLoad) or not self.app.is_running:
            return
        try:
            library = self.loader.wait()
        except PaperdeckError as error:
            self.error = str(error)
            self.app.exit(2)
            return
        self.show(library)

    def _start_thread(self) -> None:
        loader, generation = self.loader, self._generation
        assert loader is not None
        self.app.run_worker(lambda: self._run_loader(loader, generation), thread=True, group="load")

    def _run_loader(self, loader: Loader, generation: int) -> None:
        from paperdeck.core.errors import PaperdeckError
        from paperdeck.core.library import LoadOptions
        from paperdeck.core.search.index_parts import Growing

        grown = self._grown = Growing(between=self._foreground.step_aside)
        try:
            if isinstance(loader, BackgroundLoad):
                library = loader.wait()
            else:
                library = loader(
                    LoadOptions(self._so_far, grown, keep_later=True, titles_later=True)
                )
        except PaperdeckError as error:
            self.app.call_from_thread(self._failed, str(error), generation)
            return
        self.app.call_from_thread(self._loaded, library, generation)

    def _loaded(self, library: Library, generation: int) -> None:
        if generation == self._generation:
            self.show(library)

    def _failed(self, message: str, generation: int) -> None:
        """A load failed: the first list's ends the reader; another's leaves the list shown
        before it, saying why."""
        if generation != self._generation:
            return
        left = self._left
        if left is None:
            self.error = message
            self.app.exit(2)
            return
        self._stop()
        self._grown = None  # the failed list's postings
        if self.shown_so_far:
            self.show(left.library)  # its saved session puts the cursor back
        else:
            self._left = None
            self.app.session.key = left.session_key
            self.app.update_header()
        self.app.notify(one_line(message), severity="error", markup=False)

    def open_file(self, path: Path) -> None:
        """Load another list on a thread as the first one was: its first rows show while the
        rest loads. A list that cannot be read leaves the one shown, saying why in one line."""
        from paperdeck.core.library import load_library

        app = self.app
        self._stop()
        self._generation += 1
        if self._left is None:
            self._left = _LeftList(app.library, app.session.key, app.search_box.value)

        def load(options: LoadOptions) -> Library:
            # Read from the store as the rows are shown, as the first list is.
            return load_library([path], abstracts=False, options=options)

        self.loader = load
        self.label = path.name
        self.paths = [path]
        self.error = None
        self._so_far = LoadedSoFar()
        self._so_far.started()
        self._forget_progress()
        self.expected = 0
        app.update_header()
        self.start()

    def _leave_shown_list(self) -> None:
        """Keep the note and the place of the list shown before another replaces it."""
        app = self.app
        app.note_flow.save_open_note()
        app.session.save()
        app.session.key = None  # the rows that follow are the new list's

    def _forget_progress(self) -> None:
        """What the load shown so far had reached: rows, partial indexes, postings."""
        self.shown_so_far = self._indexed_so_far = self.index_covers = 0
        self._indexing = None
        self._grown = None

    def _stop(self, *, watching: bool = False) -> None:
        """The load is over; with `watching`, work after it still steps aside (`step_aside`)
        until `after_work`."""
        self.loader = None
        if self._busy is not None and not watching:
            self._busy.stop()
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def step_aside(self) -> None:
        """Called between slices of work on another thread that a load left (its list's
        titles): waits while the event loop is busy, as the load did (see Foreground)."""
        self._foreground.step_aside()

    def after_work(self) -> None:
        """The work the load left is done: the event loop is no longer watched for it."""
        if self._busy is not None and self.loader is None:
            self._busy.stop()

    def show(self, library: Library) -> None:
        """Show another library (the current note is saved first)."""
        from paperdeck.core.store.database import read_failures

        app = self.app
        self._failed_reads = read_failures()
        freeze_long_lived()  # before the list's paint
        app.note_flow.save_open_note()
        carried = self._carried_over(library)
        grown = self.grown()
        title_cells = self._source().measures(library.papers) if self.loading else (0, b"")
        app.session.save()  # where the list shown so far was left
        # The query typed while loading is put back without an event: its results so far stay
        # shown until the whole list's index answers.
        with app.search_box.prevent(Input.Changed):
            app.set_papers(library)
            if carried is not None:
                app.search_box.value = carried.query
                app.search_box.cursor_position = len(carried.query)
        self._left = None
        self._forget_progress()
        # Its titles are made after its search is ready: that work steps aside as the load did.
        self._stop(watching=library.titles_later)
        if not isinstance(app.focused, Input | NoteEditor):
            app.focus_now(app.paper_list)
        app.paper_list.empty_text = "No papers in this list" if not app.papers else "No papers"
        # The list and its counts paint first; the panes, warnings and index follow.
        self.panes_deferred = True
        app.paper_list.set_papers(app.papers, title_cells=title_cells)
        if carried is not None and carried.touched():
            carried.restore(app)  # what the user did while it loaded wins over the last session
            app.session.adopt(app.session.key_of_library())
        else:
            app.session.restore()
        app.update_header()
        app.call_after_refresh(self._after_list_paint, library.warnings, grown)

    def store_failed(self) -> None:
        """The list store failed a read of the list shown (its rows or a search's result may
        lack papers): read the list again from its file, saying so in one line. A damaged
        store file is gone by then (the next one starts afresh)."""
        from paperdeck.core.store.database import last_read_failure

        app = self.app
        if self.loading or len(app.library.lists) != 1:
            return
        path = app.library.lists[0].path
        if path in self._read_again:
            return  # once: a store failing each time is told by the reads themselves
        self._read_again.add(path)
        reason = last_read_failure()
        app.notify(
            one_line(f"The list store could not be read ({reason}): reading {path.name} again"),
            severity="warning",
            markup=False,
        )
        self.open_file(path)

    def quitting(self) -> None:
        """Quitting while a list loads: what the user did with its rows shown so far is the
        list's session, as it would be at the load's end (the papers loaded so far are the
        first of the whole list, their ids its ids). Nothing done, the last session stays."""
        from paperdeck.core.session import session_key

        app = self.app
        if not self.loading or not self.shown_so_far or app.session.key is not None:
            return
        if not self.paths or not app.papers:
            return
        paper_list = app.paper_list
        if (
            app.search.query.strip()
            or paper_list.marked
            or paper_list.paper_index
            or app.triage.views
        ):
            app.session.adopt(session_key(self.paths))

    def _note_index_done(self) -> bool:
        """Whether an index of the rows so far is being built; notes what a finished one covers."""
        if self._indexing is None:
            return False
        if self._indexing.is_finished:
            self.index_covers = self._indexed_so_far
            return False
        return True

    def _carried_over(self, library: Library) -> _ShownWhileLoading | None:
        """What the user did with the rows shown while loading, when the loaded library
        begins with those same papers (it does unless the load had to start over)."""
        app = self.app
        shown = app.papers
        if not self.shown_so_far or not shown or not library.papers:
            return None
        if library.papers[0] is not shown[0]:
            return None
        paper_list = app.paper_list
        self._note_index_done()
        return _ShownWhileLoading(
            query=app.search_box.value,
            filtered=app.search.filtered,
            parsed=app.search.parsed,
            rows=paper_list.rows,
            current=paper_list.paper_index,
            best=app.search.best_shown,
            marked=set(paper_list.marked),
            searched=self.index_covers,
        )

    def _after_list_paint(self, warnings: Sequence[str], grown: Growing | None) -> None:
        from paperdeck.core.store.database import read_failures

        if read_failures() != self._failed_reads:
            # Rows the store could not give stand in as "unreadable": read the list again.
            self.store_failed()
            return
        self.panes_deferred = False
        self.app.show_current()
        for message in warnings:
            self.app.notify(one_line(message), severity="warning", markup=False)
        self.app.search.build_index(grown)


@dataclass(frozen=True)
class _LeftList:
    """The list shown when another was opened: put back if that one cannot be read."""

    library: Library
    session_key: str | None
    query: str


@dataclass
class _ShownWhileLoading:
    """The query, results, cursor and marks of the rows shown while a list loaded."""

    query: str
    filtered: int | None
    parsed: Query | None
    rows: Sequence[int]
    current: int | None
    best: int | None
    marked: set[int]
    searched: int

    def touched(self) -> bool:
        """Whether the user searched, marked or moved while the list loaded."""
        return bool(self.query.strip() or self.marked or self.current)

    def restore(self, app: PaperdeckApp) -> None:
        """Put them back over the whole list (each loaded row keeps its index in it)."""
        paper_list = app.paper_list
        paper_list.marked.update(self.marked)
        search = app.search
        search.resume(self.query, best=self.best)
        if self.filtered is not None and self.query.strip():
            search.filtered, search.parsed = self.filtered, self.parsed
            paper_list.set_rows(self.rows, keep_paper=self.current)
            search.set_status(
                f"results from the first {self.searched:,} papers: the rest is being indexed"
            )
        elif self.current is not None:
            paper_list.set_rows(range(len(app.papers)), keep_paper=self.current)


def _call_soon(
    loop: asyncio.AbstractEventLoop, context: contextvars.Context, callback: Callable[[], None]
) -> None:
    # The context is the app's (Textual finds its active app there), not the load thread's.
    # The reader may have closed its loop while the load ran: then there is nobody to tell.
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(callback, context=context)


def freeze_long_lived() -> None:
    """Keep the collector from walking the papers and their index again.

    They live as long as the reader, and a full collection over a big list delays a paint.
    """
    gc.freeze()

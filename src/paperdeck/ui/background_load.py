"""A list's load, started on a thread before the reader is imported, and its reports."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from paperdeck.core.plumbing.slices import Foreground

if TYPE_CHECKING:
    from paperdeck.core.library import Library, LoadOptions
    from paperdeck.core.model import Paper
    from paperdeck.core.search.index_parts import Growing

FIRST_PAINT_WAIT = 0.5
"""Seconds at most a load waits after its first report for the reader to paint those rows."""
READER_START_WAIT = 2.0
"""Seconds at most a load started before the reader waits for the reader."""
READ_WHILE_IMPORTING_BYTES = 16 << 20
"""A list up to this size is read while the reader is imported (a few thousand papers take
about a tenth of a second); a longer read, sharing the GIL with those imports, would leave the
terminal blank for a second or more, so it waits until the reader is built."""


class LoadedSoFar:
    """The latest papers a load reported (from its thread), taken by the reader's timer."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._latest: tuple[list[Paper], int] | None = None
        self._first: Callable[[], None] | None = None
        self._reported = False
        self._painted = threading.Event()
        self._started = threading.Event()
        self._count = 0
        """How many papers the last report held."""
        self._measure: Callable[[list[Paper]], bytes] | None = None
        self._measures: tuple[int, bytes] = (0, b"")
        """The measures of the papers from the first number on."""
        self._measured: Paper | None = None
        """The first paper of the reports measured: one that begins with another starts over."""

    def __call__(self, papers: list[Paper], total: int) -> None:
        measure = self._measure
        if measure is not None and papers:
            # Before the papers are handed over: the reader takes them with their measures.
            start, done = self._measures
            if papers[0] is not self._measured:  # the first report measured, or a new start
                start, done = (self._count if self._measured is None else 0), b""
            end = start + len(done)
            more = measure(papers[end:]) if len(papers) > end else b""
            with self._lock:
                self._measures, self._measured = (start, done + more), papers[0]
        with self._lock:
            self._latest = (papers, total)
            self._count = len(papers)
            first = None if self._reported else self._first
            was_reported, self._reported = self._reported, True
        if was_reported:
            return
        if first is not None:
            first()
        # The load waits while the first rows are painted: sharing the GIL with it, that
        # paint took several times its own CPU time. Before the reader is built, it waits for
        # the reader's start (which takes the rows reported so far) as well.
        self._painted.wait(FIRST_PAINT_WAIT if self._started.is_set() else READER_START_WAIT)

    def before_read(self, size: int) -> None:
        """A load about to read a list of `size` bytes: a long read waits until the reader is
        built (see READ_WHILE_IMPORTING_BYTES)."""
        if size > READ_WHILE_IMPORTING_BYTES:
            self._started.wait(READER_START_WAIT)

    def started(self) -> None:
        """The reader is built (it paints next): a load held back goes on."""
        self._started.set()

    def painted(self) -> None:
        """The first rows are on the screen: the load goes on (see FIRST_PAINT_WAIT)."""
        self._painted.set()

    def on_first(self, callback: Callable[[], None]) -> None:
        """Call `callback` (from the load's thread) at the first report: the first rows are
        shown then, not at the next tick of the loading line."""
        with self._lock:
            if not self._reported:
                self._first = callback

    def measure_with(self, measure: Callable[[list[Paper]], bytes]) -> None:
        """Have the papers of later reports measured on the load's thread (a byte per paper),
        where the reader would measure them between two keys: see `measures`. The papers
        reported before are not (the reader has them)."""
        self._measure = measure

    def measures(self, papers: Sequence[Paper]) -> tuple[int, bytes]:
        """What `measure_with` gave of `papers`, a byte each from the paper numbered first,
        when they are the papers reported (else nothing)."""
        with self._lock:
            (start, measures), first = self._measures, self._measured
        if not papers or papers[0] is not first or start + len(measures) > len(papers):
            return 0, b""
        return start, measures

    def take(self) -> tuple[list[Paper], int] | None:
        """The papers reported since the last take and the total expected, or None."""
        with self._lock:
            latest, self._latest = self._latest, None
        return latest


Load = Callable[["LoadOptions"], "Library"]
"""Loads the reader's lists with the options given (the reader's: reported as it goes)."""


class BackgroundLoad:
    """A load that starts at once on its own thread; `wait` gives its library or its error."""

    def __init__(self, load: Load) -> None:
        self._load = load
        self.so_far = LoadedSoFar()
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []
        self._library: Library | None = None
        self._error: BaseException | None = None
        self.grown: Growing | None = None
        """The search postings the load makes as it goes (set once it has started)."""
        self.foreground = Foreground()
        """The reader's event loop: the load steps aside while it is busy."""
        threading.Thread(target=self._run, name="paperdeck-load", daemon=True).start()

    def _run(self) -> None:
        from paperdeck.core.library import LoadOptions
        from paperdeck.core.search.index_parts import Growing

        try:
            self.grown = Growing(between=self.foreground.step_aside)
            # The list is kept in the list store once its search is ready and its titles are
            # made (SearchFlow).
            options = LoadOptions(
                self.so_far,
                self.grown,
                keep_later=True,
                before_read=self.so_far.before_read,
                titles_later=True,
            )
            self._library = self._load(options)
        except BaseException as error:  # handed to whoever waits, which reports it
            self._error = error
        finally:
            with self._lock:
                self._done.set()
                callbacks, self._callbacks = self._callbacks, []
            for callback in callbacks:
                callback()

    def when_done(self, callback: Callable[[], None]) -> None:
        """Call `callback` once the load is over (from the load's thread, or now if it is)."""
        with self._lock:
            if not self._done.is_set():
                self._callbacks.append(callback)
                return
        callback()

    def wait(self) -> Library:
        """The loaded library (blocks until the load is over); re-raises the load's error."""
        self._done.wait()
        if self._error is not None:
            raise self._error
        assert self._library is not None
        return self._library

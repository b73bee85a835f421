"""Loading lists into the reader: a load on its own thread, the loading line, swapping libraries."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import gc
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual.timer import Timer
from textual.widgets import Input

from paperdeck.ui.safe_text import one_line
from paperdeck.ui.widgets.notes_panel import NoteEditor

if TYPE_CHECKING:
    from paperdeck.core.library import Library
    from paperdeck.ui.app import PaperdeckApp

LOADING_TICK = 0.3
"""Seconds between repaints of the loading line: each one takes the GIL from the loader."""
LOADING_FRAMES = ("·  ", "·· ", "···", " ··", "  ·", "   ")


class BackgroundLoad:
    """A load that starts at once on its own thread; `wait` gives its library or its error."""

    def __init__(self, load: Callable[[], Library]) -> None:
        self._load = load
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []
        self._library: Library | None = None
        self._error: BaseException | None = None
        threading.Thread(target=self._run, name="paperdeck-load", daemon=True).start()

    def _run(self) -> None:
        try:
            self._library = self._load()
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


Loader = Callable[[], "Library"] | BackgroundLoad


class LoadingFlow:
    """Runs the reader's loads and shows a new library: list first, then panes and index."""

    def __init__(self, app: PaperdeckApp, loader: Loader | None, label: str) -> None:
        self.app = app
        self.loader = loader
        self.label = label
        self.error: str | None = None
        self._timer: Timer | None = None
        self._frame = 0
        self.panes_deferred = False
        """True between a load's list paint and the deferred paint of the panes."""

    @property
    def loading(self) -> bool:
        return self.loader is not None

    def start(self) -> None:
        """Called at mount: start the pending load, if any, after the first paint."""
        if self.loader is None:
            self.app.search.build_index()
            return
        # A plain line, repainted a few times a second: Textual's loading indicator
        # repaints at 16 frames a second and slows the loader it waits for.
        self._tick()
        self._timer = self.app.set_interval(LOADING_TICK, self._tick)
        if isinstance(self.loader, BackgroundLoad):
            # No thread waits for it, so quitting while it reads does not wait either.
            loop, context = asyncio.get_running_loop(), contextvars.copy_context()
            self.loader.when_done(lambda: _call_soon(loop, context, self._take_background_load))
        else:
            # Start after the first paint: the loader competes for the GIL.
            self.app.call_after_refresh(self._start_thread)

    def _tick(self) -> None:
        frame = LOADING_FRAMES[self._frame % len(LOADING_FRAMES)]
        self._frame += 1
        paper_list = self.app.paper_list
        paper_list.empty_text = f"Loading {one_line(self.label)} {frame}"
        paper_list.refresh()

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
        self.app.run_worker(self._run_loader, thread=True, exclusive=True, group="load")

    def _run_loader(self) -> None:
        from paperdeck.core.errors import PaperdeckError

        assert self.loader is not None
        load = self.loader.wait if isinstance(self.loader, BackgroundLoad) else self.loader
        try:
            library = load()
        except PaperdeckError as error:
            self.error = str(error)
            self.app.call_from_thread(self.app.exit, 2)
            return
        self.app.call_from_thread(self.show, library)

    def open_file(self, path: Path) -> None:
        """Load another list on a thread; show it, or say in one line why it cannot be."""
        self.app.run_worker(
            lambda: self._load_file(path), thread=True, exclusive=True, group="load"
        )

    def _load_file(self, path: Path) -> None:
        from paperdeck.core.errors import PaperdeckError
        from paperdeck.core.library import load_library

        try:
            library = load_library([path])
        except PaperdeckError as error:
            self.app.call_from_thread(
                self.app.notify, one_line(str(error)), severity="error", markup=False
            )
            return
        self.app.call_from_thread(self.show, library)

    def show(self, library: Library) -> None:
        """Show another library (the current note is saved first)."""
        app = self.app
        freeze_long_lived()  # before the list's paint
        app.note_flow.save_open_note()
        app.set_papers(library)
        self.loader = None
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if not isinstance(app.focused, Input | NoteEditor):
            app.focus_now(app.paper_list)
        app.paper_list.empty_text = "No papers in this list" if not app.papers else "No papers"
        # The list and its counts paint first; the panes, warnings and index follow.
        self.panes_deferred = True
        app.paper_list.set_papers(app.papers)
        app.update_header()
        app.call_after_refresh(self._after_list_paint, library.warnings)

    def _after_list_paint(self, warnings: Sequence[str]) -> None:
        self.panes_deferred = False
        self.app.show_current()
        for message in warnings:
            self.app.notify(one_line(message), severity="warning", markup=False)
        self.app.search.build_index()


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

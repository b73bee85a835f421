"""Looking up titles online from the reader: a background run, its progress in the header."""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import TYPE_CHECKING

from paperdeck.core.papers import LoadedPapers
from paperdeck.ui.safe_text import one_line

if TYPE_CHECKING:
    from paperdeck.core.enrich.online import OnlineReport
    from paperdeck.core.library import Library
    from paperdeck.core.model import Paper
    from paperdeck.ui.app import PaperdeckApp


class EnrichFlow:
    """Runs `enrich --online` on the shown lists in a thread; shows the matches when it ends."""

    def __init__(self, app: PaperdeckApp) -> None:
        self.app = app
        self.progress: str | None = None
        """The header's line about a run under way ("online 12/40 · 9 matched"), or None."""
        self._stop = threading.Event()
        self._running = False

    @property
    def running(self) -> bool:
        return self._running

    def start(self) -> None:
        """Look up every paper without metadata; refuses while a load or a run is under way."""
        from paperdeck.core.enrich.online import needs_metadata

        app = self.app
        if self._running:
            app.notify("Titles are already being looked up online")
            return
        if app.loading.loading:
            app.notify("The list is still loading", severity="warning")
            return
        library = app.library
        if library.abstracts_loaded:
            wanted = sum(1 for paper in app.papers if needs_metadata(paper))
        else:
            # Papers loaded without their abstract: the run reads them and judges then.
            wanted = sum(1 for paper in app.papers if paper.meta_source == "derived")
        if not wanted:
            app.notify("Every paper already has its title and authors")
            return
        self._running = True
        self._stop.clear()
        self._show_progress(0, wanted, 0)
        papers = list(app.papers)
        app.run_worker(
            lambda: self._run(papers, library), thread=True, exclusive=True, group="enrich"
        )

    def stop(self) -> None:
        """Ask a run under way to stop after the paper it is on (the reader is closing)."""
        self._stop.set()

    def _run(self, papers: list[Paper], library: Library) -> None:
        from paperdeck.core import config
        from paperdeck.core.enrich.cache import AnswerCache
        from paperdeck.core.enrich.client import PoliteClient
        from paperdeck.core.enrich.online import SOURCE_NAMES, enrich_online, make_sources

        app = self.app
        searches, crossref = make_sources(SOURCE_NAMES)
        cache = AnswerCache(config.cache_dir())

        def notice(message: str) -> None:
            app.call_from_thread(app.notify, one_line(message), severity="warning", markup=False)

        def progress(done: int, total: int, matched: int) -> None:
            app.call_from_thread(self._show_progress, done, total, matched)

        client = PoliteClient(
            email=config.contact_email(), pacing=config.pacing_wanted(), notice=notice
        )
        try:
            filled = library.with_abstracts(papers)
            report = enrich_online(
                filled,
                searches,
                crossref,
                client=client,
                cache=cache,
                notice=notice,
                progress=progress,
                stop=self._stop.is_set,
            )
        except Exception as error:  # a lookup may fail; the reader stays up
            app.call_from_thread(self._finished, None, library, f"{type(error).__name__}: {error}")
            return
        finally:
            client.close()
            cache.close()
        # Only the papers a match changed keep the abstract read for the run.
        report.papers = [
            paper if after is before else after
            for paper, before, after in zip(papers, filled, report.papers, strict=True)
        ]
        app.call_from_thread(self._finished, report, library, None)

    def _show_progress(self, done: int, total: int, matched: int) -> None:
        self.progress = f"online {done}/{total} · {matched} matched"
        self.app.update_header()

    def _finished(self, report: OnlineReport | None, library: Library, failure: str | None) -> None:
        from paperdeck.core.enrich.sidecar import save_matches
        from paperdeck.core.errors import PaperdeckError

        app = self.app
        self._running = False
        self.progress = None
        app.update_header()
        if report is None or not app.is_running:
            if failure:
                # An error can quote a web answer: its brackets are not markup.
                message = one_line(f"Online lookup failed: {failure}")
                app.notify(message, severity="error", markup=False)
            return
        unreadable = report.unreadable_summary()
        garbled = f"; {unreadable}" if unreadable else ""
        if not report.matched:
            if report.unreachable is not None:
                message = f"{report.unreachable}; nothing changed"
            else:
                message = f"No paper found online (of {report.to_ask} asked){garbled}"
            app.notify(one_line(message), severity="warning", markup=False, timeout=10)
            return
        saved = ""
        try:
            written = save_matches(library.lists, library.counts, report.papers, report.matched)
            saved = "; added to " + ", ".join(path.name for path in written)
        except PaperdeckError as error:
            app.notify(one_line(f"{error}; shown until you quit"), severity="error", markup=False)
        stopped = f" ({report.unreachable})" if report.unreachable else ""
        app.notify(
            one_line(
                f"Found {len(report.matched)} of {report.to_ask} papers online{stopped}{saved}"
                f"{garbled}"
            ),
            severity="warning" if unreadable else "information",
            markup=False,
            timeout=10,
        )
        if app.library is library:  # no other list was opened meanwhile
            papers = LoadedPapers(report.papers)
            app.loading.show(replace(library, papers=papers, warnings=[]))

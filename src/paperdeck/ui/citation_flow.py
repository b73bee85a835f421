"""The reader's citations: copying the selected papers' citation, and choosing its format."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdeck.ui.clipboard_copy import copy_from_worker, unconfirmed_reason
from paperdeck.ui.safe_text import one_line, short
from paperdeck.ui.widgets.detail_pane import CiteKey, KeyLater

if TYPE_CHECKING:
    from textual.timer import Timer

    from paperdeck.core.citations import KeyNotes
    from paperdeck.core.clipboard import CopyReport
    from paperdeck.core.model import Paper
    from paperdeck.ui.app import PaperdeckApp


KEYS_AHEAD = 20_000
"""Papers in the lists up to which the keys are worked out for the detail pane as soon as they
are open: it makes every paper (a list reopened from the store makes only those it shows).
A longer list's keys are worked out by the first cite or export, on a thread."""

KEYS_AFTER_TITLES = 0.25
"""Seconds between two looks at whether the titles being made are, for the keys to wait."""
KEYS_QUIET = 0.5
"""Seconds without a paper shown (a key pressed, a search answered) and with no search or
index build running, after which the detail pane's keys are worked out: not while the first
search of a list just opened runs, which they would slow."""


class CitationFlow:
    """Cites the marked papers (or the one under the cursor) through every clipboard."""

    def __init__(self, app: PaperdeckApp) -> None:
        self.app = app
        self._keys: dict[str, str] | None = None
        self._shown_keys: dict[str, str] | None = None
        """The keys the detail pane shows, worked out on a thread: the same keys, pinned by
        nothing (a cite or an export pins a noted paper's key; reading a paper writes no note)."""
        self._generation = 0
        """Counts `forget_keys`: keys worked out on a thread for older papers are dropped."""
        self._working = False
        self._waiting: list[Callable[[dict[str, str]], None]] | None = None
        """What waits for the keys a cite or export has asked a thread for."""
        self._asked = 0.0
        """When the detail pane last asked for a key (time.monotonic)."""
        self._quiet: Timer | None = None
        self.last_copied = ""
        """The last citation text handed to the clipboard (what tests read)."""

    def forget_keys(self) -> None:
        """The papers changed: their citation keys are worked out again when needed."""
        self._keys = self._shown_keys = None
        self._generation += 1
        self._working = False
        self._waiting = None

    def keys(self) -> dict[str, str]:
        from paperdeck.core.citations import citation_keys

        if self._keys is None:
            self._keys = dict(citation_keys(self.app.papers, self.app.store))
        return self._keys

    def with_keys(self, then: Callable[[dict[str, str]], None]) -> None:
        """Call `then` with the keys (see `keys`): at once, or, on a list of more than
        KEYS_AHEAD papers whose keys take seconds, once a thread has worked them out (a key
        pressed never freezes the reader; a toast says what it waits for)."""
        from paperdeck.core.citations import citation_keys

        app = self.app
        if self._keys is not None or len(app.papers) <= KEYS_AHEAD:
            then(self.keys())
            return
        if self._waiting is not None:
            self._waiting.append(then)
            return
        self._waiting = [then]
        app.notify(f"Working out the citation keys of {len(app.papers):,} papers…", timeout=4)
        generation, papers, notes = self._generation, app.papers, _Pinning(app.store)

        def work() -> None:
            keys = citation_keys(papers, notes)
            app.call_from_thread(self._pinned, generation, keys, notes.pins)

        app.run_worker(work, thread=True, group="citation-keys-pinned")

    def _pinned(self, generation: int, keys: dict[str, str], pins: list[tuple[Paper, str]]) -> None:
        if generation != self._generation or self._waiting is None:
            return  # other papers now: what waited was for the papers gone
        # Pinned here, on the app's thread, as `keys` pins them.
        for paper, key in pins:
            self.app.store.pin_citation_key(paper, key)
        self._keys = keys
        waiting, self._waiting = self._waiting, None
        for then in waiting:
            then(keys)
        self.app.show_current()

    def shown_key(self, paper: Paper | None) -> CiteKey | KeyLater:
        """The paper's citation key for the detail pane, or why it has none yet: the keys are
        worked out on a thread (they take seconds at 100,000 papers) once the reader is quiet
        (see KEYS_QUIET), and the pane is shown again when they are. A list of more than
        KEYS_AHEAD papers has them worked out by the first cite or export."""
        from paperdeck.core.citations import is_stand_in

        if paper is None:
            return KeyLater.WORKING
        keys = self._keys if self._keys is not None else self._shown_keys
        if keys is None:
            if len(self.app.papers) > KEYS_AHEAD:
                return KeyLater.ON_FIRST_CITE
            self._asked = time.monotonic()
            self._work_out_keys_when_quiet()
            return KeyLater.WORKING
        key = keys.get(paper.id)
        if key is None:
            return KeyLater.WORKING
        return CiteKey(key, is_stand_in(paper, self.app.note_flow.corrections(paper)))

    def _work_out_keys_when_quiet(self) -> None:
        if self._working or self._quiet is not None:
            return
        if KEYS_QUIET <= 0:
            self._work_out_keys()
            return
        self._quiet = self.app.set_timer(KEYS_QUIET, self._when_quiet)

    def _when_quiet(self) -> None:
        app = self.app
        self._quiet = None
        if self._keys is not None or self._shown_keys is not None:
            return
        busy = any(
            worker.group in ("search", "index") and not worker.is_finished for worker in app.workers
        )
        waited = time.monotonic() - self._asked
        if busy or waited < KEYS_QUIET or app.library.titles_later:
            self._quiet = app.set_timer(max(KEYS_QUIET - waited, 0.05), self._when_quiet)
            return
        self._work_out_keys()

    def _work_out_keys(self) -> None:
        app = self.app
        if self._working or app.loading.loading:
            return
        if app.library.titles_later:
            # The keys of made-up titles would derive them here, as they are made elsewhere.
            if self._quiet is None:
                self._quiet = app.set_timer(KEYS_AFTER_TITLES, self._when_quiet)
            return
        self._working = True
        generation, papers, notes = self._generation, app.papers, _Unpinned(app.store)

        def work() -> None:
            from paperdeck.core.citations import citation_keys

            keys = citation_keys(papers, notes)
            app.call_from_thread(self._worked_out, generation, keys)

        app.run_worker(work, thread=True, group="citation-keys")

    def _worked_out(self, generation: int, keys: dict[str, str]) -> None:
        if generation != self._generation:
            return
        self._working = False
        self._shown_keys = keys
        self.app.show_current()

    @staticmethod
    def format_names() -> list[tuple[str, str]]:
        """(format id, label) for every citation format the menu lists, CSL styles last."""
        from paperdeck.core.citations import FORMATS, OFFERED_STYLES

        return [*FORMATS.items(), *OFFERED_STYLES.items()]

    def _chosen_format(self, fmt: str | None) -> str:
        from paperdeck.core.citations import StyleError, resolve_format

        app = self.app
        wanted = fmt or app.settings.citation_format
        try:
            return resolve_format(wanted)
        except StyleError as error:
            # A remembered style file that has gone: say so, and cite in the default.
            app.notify(one_line(f"{error}; copying BibTeX"), severity="warning", markup=False)
            return "bibtex"

    def copy(self, fmt: str | None = None) -> None:
        from paperdeck.core.citations import format_label, renders_with_csl
        from paperdeck.ui.app import NARROW_WIDTH

        app = self.app
        chosen = self._chosen_format(fmt)
        indices = app.paper_list.selected_indices()
        if not indices:
            app.notify("No paper to cite", severity="warning")
            return
        papers = with_cited_abstracts(app, [app.papers[i] for i in indices])
        # Narrow, the notice is two lines with the title's start: the detail pane shows it whole.
        length = 30 if app.size.width < NARROW_WIDTH else 40
        title = short(app.note_flow.shown_title(papers[0]), length)
        what = f"“{title}”" if len(papers) == 1 else f"{len(papers)} papers"
        label = format_label(chosen)

        def cite(keys: dict[str, str]) -> None:
            # Corrections read the notes store: here, on the app's thread.
            fixes = {paper.id: app.note_flow.corrections(paper) for paper in papers}
            if renders_with_csl(chosen) and len(papers) >= 10:
                # citeproc-py takes ~10-20 ms a paper: 40 papers are most of a second.
                app.notify(one_line(f"Formatting {what} in {label}…"), markup=False, timeout=2)
            app.run_worker(
                lambda: self._cite_and_copy(papers, chosen, keys, fixes, f"{label} for {what}"),
                thread=True,
                exclusive=True,
                group="copy",
            )

        self.with_keys(cite)

    def _cite_and_copy(
        self,
        papers: list[Paper],
        fmt: str,
        keys: dict[str, str],
        fixes: dict[str, Mapping[str, Any]],
        what: str,
    ) -> None:
        """In a worker thread: a CSL style's render must not hold up the keys."""
        from paperdeck.core.citations import (
            StyleError,
            cite_many,
            describe_provenance,
        )

        app = self.app
        try:
            citation = cite_many(papers, fmt, keys=keys, corrections=fixes)
        except StyleError as error:
            app.call_from_thread(
                app.notify, one_line(str(error)), severity="error", markup=False, timeout=10
            )
            return
        sources = [source for paper in papers if (source := describe_provenance(paper))]
        origin = ""
        if sources:
            more = f" (and {len(sources) - 1} more)" if len(sources) > 1 else ""
            origin = f"Metadata from {sources[0]}{more}"
        self._copy(citation.text.rstrip("\n") + "\n", what, citation.missing, origin)

    def _copy(self, text: str, what: str, missing: tuple[str, ...], origin: str) -> None:
        result = copy_from_worker(self.app, text)
        if isinstance(result, str):
            self.app.call_from_thread(self._copy_failed, text, what, result, missing, origin)
        else:
            self.app.call_from_thread(self._copied, text, what, missing, origin, result)

    def _copied(
        self, text: str, what: str, missing: tuple[str, ...], origin: str, report: CopyReport
    ) -> None:
        from paperdeck.core.citations import describe_missing
        from paperdeck.ui.app import NARROW_WIDTH

        self.last_copied = text
        if not report.confirmed:
            self._copy_failed(text, what, unconfirmed_reason(report), missing, origin)
            return
        # One notice says it all: at 80x24 each toast hides rows of the abstract being read.
        # Narrow, the same facts in fewer words: two lines, not three, over the abstract.
        brief = self.app.size.width < NARROW_WIDTH
        said = [f"Copied {what} to {report.describe(brief=brief)}"]
        if missing:
            lacking = describe_missing(missing, brief=brief)
            said.append(f"Incomplete: {lacking}" if brief else f"Incomplete citation: {lacking}")
        if origin:
            said.append(origin)
        self.app.notify(
            one_line(". ".join(said)),
            severity="warning" if missing else "information",
            markup=False,
            timeout=8 if missing or origin else 5,
        )

    def _copy_failed(
        self, text: str, what: str, reason: str, missing: tuple[str, ...] = (), origin: str = ""
    ) -> None:
        from paperdeck.core.citations import describe_missing
        from paperdeck.ui.dialogs.citation_dialog import CitationDialog, sentences

        # The dialog shows the citation itself: what is missing from it, and whence it came,
        # stay beside it as notices.
        if missing:
            self.app.notify(
                one_line(f"Incomplete citation: {describe_missing(missing)}"),
                severity="warning",
                markup=False,
                timeout=8,
            )
        if origin:
            self.app.notify(one_line(origin), markup=False, timeout=8)

        suffix = {"BibTeX": ".bib", "BibLaTeX": ".bib", "RIS": ".ris", "CSL-JSON": ".json"}.get(
            what.split(" for ", 1)[0], ".txt"
        )
        default = Path.cwd() / f"citations{suffix}"
        reason = sentences(f"Could not confirm the copy of {what}", reason)
        self.app.push_screen(CitationDialog(text, reason, default))

    def copy_as(self) -> None:
        """Ask for a format, then copy the selected papers' citation in it (c keeps its own)."""
        from paperdeck.ui.dialogs.copy_as_dialog import CopyAsDialog

        def done(name: str | None) -> None:
            if name:
                self.copy(name)

        self.app.push_screen(
            CopyAsDialog(self.format_names(), self.app.settings.citation_format), done
        )

    def choose_format(self) -> None:
        from paperdeck.core.citations import FORMATS, format_label, resolve_format
        from paperdeck.ui.dialogs.format_dialog import FormatDialog

        app = self.app
        current = app.settings.citation_format
        styles = [item for item in self.format_names() if item[0] not in FORMATS]
        if current not in dict(self.format_names()):
            styles.append((current, format_label(current)))

        def done(name: str | None) -> None:
            if name:
                app.settings.citation_format = name
                app.save_settings()
                app.notify(one_line(f"c now copies {format_label(name)}"), markup=False)

        dialog = FormatDialog(list(FORMATS.items()), current, styles=styles, resolve=resolve_format)
        app.push_screen(dialog, done)


class _Pinning:
    """The notes store as `citation_keys` reads it on a thread for a cite or export: the keys
    it pins are kept, to be pinned on the app's thread."""

    def __init__(self, store: KeyNotes) -> None:
        self.store = store
        self.pins: list[tuple[Paper, str]] = []

    def get(self, paper: Paper) -> Any:
        return self.store.get(paper)

    def pin_citation_key(self, paper: Paper, key: str) -> None:
        self.pins.append((paper, key))


class _Unpinned:
    """The notes store as `citation_keys` reads it for the detail pane: the keys noted papers
    have pinned are read, and none is pinned."""

    def __init__(self, store: KeyNotes) -> None:
        self.store = store

    def get(self, paper: Paper) -> Any:
        return self.store.get(paper)

    def pin_citation_key(self, paper: Paper, key: str) -> None:
        pass


def with_cited_abstracts(app: PaperdeckApp, papers: list[Paper]) -> list[Paper]:
    """`papers`, each that a citation needs the abstract of (a made-up title cut to fit a row)
    read with it from the list store when the list was opened without."""
    from paperdeck.core.citations import wants_abstract

    wanting = [paper for paper in papers if wants_abstract(paper)]
    if not wanting:
        return papers
    filled = {paper.id: paper for paper in app.library.with_abstracts(wanting)}
    return [filled.get(paper.id, paper) for paper in papers]

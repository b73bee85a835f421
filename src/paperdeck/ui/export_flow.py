"""Reading lists from the reader: the marked, starred or shown papers to a file or the clipboard."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdeck.core.reading_list import CITED, unused_path
from paperdeck.core.text.wording import plural
from paperdeck.ui.citation_flow import with_cited_abstracts
from paperdeck.ui.clipboard_copy import copy_from_worker, unconfirmed_reason
from paperdeck.ui.safe_text import one_line, quoted

if TYPE_CHECKING:
    from collections.abc import Mapping

    from paperdeck.core.clipboard import CopyReport
    from paperdeck.core.model import Paper
    from paperdeck.ui.app import PaperdeckApp
    from paperdeck.ui.dialogs.export_dialog import ExportChoice

SCOPES = {
    "marked": "Marked papers",
    "starred": "Starred papers",
    "every": "Papers shown with every word",
    "view": "Papers in this view",
}
NONE = {
    "marked": "marked papers",
    "starred": "starred papers",
    "every": "papers with every word",
    "view": "papers shown",
}


class ExportFlow:
    """Asks what to export and where, writes or copies it, and says what happened."""

    def __init__(self, app: PaperdeckApp) -> None:
        self.app = app
        self.last_text = ""
        """The last reading list written or copied."""
        self.last_path: Path | None = None
        """The file the last reading list was written to."""

    def papers(self, scope: str) -> list[Paper]:
        """The papers of a scope, in list order (a view in the order shown)."""
        app = self.app
        if scope == "marked":
            return [app.papers[i] for i in sorted(app.paper_list.marked)]
        if scope == "starred":
            entries = app.entries()
            return [p for p in app.papers if (e := entries.get(p.id)) is not None and e.starred]
        rows = app.paper_list.rows
        if scope == "every":
            # Above the divider: below it are papers with only some of the words.
            divider = app.paper_list.divider
            return [] if divider is None else [app.papers[i] for i in rows[:divider]]
        return [app.papers[i] for i in rows]

    def ask(self, again: ExportChoice | None = None, error: str = "") -> None:
        """Ask which papers and where; `again`: the choice whose export failed, for `error`,
        offered again as it was typed."""
        from paperdeck.ui.dialogs.export_dialog import ExportDialog

        counts = {scope: len(self.papers(scope)) for scope in SCOPES}
        labels = {**SCOPES, "view": self._view_label(), "every": self._every_label()}
        # "Marked papers (0)" offered right after A cleared the marks exports nothing: a
        # scope with no paper is offered only when no scope has any (the view, what is shown).
        scopes = [(scope, labels[scope], counts[scope]) for scope in SCOPES if counts[scope]]
        scopes = scopes or [("view", labels["view"], 0)]
        offered = {scope for scope, _, _ in scopes}
        if again is not None:
            chosen, default = again.scope, again.typed
        else:
            # Where and in what format the last one went: the same 40 papers as BibTeX, then as
            # CSV to the same folder, was the whole path typed again from ./reading-list.md.
            default = str(unused_path(self._next_path()))
            # What the user picked last: 40 papers marked while the unread are shown are what
            # `e` is pressed for, not the 2,960 unread; the starred view chosen after marking
            # three papers (to tag them) is. With no view, the papers marked, else those
            # starred, else the view: Enter at once exports a few papers, not the whole list.
            # A search's papers with only some of its words (below the divider) are seldom
            # what is exported: those with every word are offered before the whole view.
            triage = self.app.triage
            order: tuple[str, ...] = ("marked", "starred", "every")
            if triage.views:
                picked_view = triage.picked_last == "view"
                order = ("every", "view") if picked_view else ("marked", "every", "view")
            chosen = next((scope for scope in order if counts[scope]), scopes[0][0])
        if chosen not in offered:
            chosen = scopes[0][0]  # emptied since it failed (A while BibTeX keys were worked out)
        self.app.push_screen(ExportDialog(scopes, chosen, default, error), self._chosen)

    def _view_label(self) -> str:
        """The view scope named by what it shows: "Papers in this view (15)" beside "Starred
        papers (40)" did not say the 15 were the starred ones matching the search."""
        views = self.app.triage.view_label()
        query = self.app.search.query.strip()
        if not query:
            return f"Papers shown: {views}" if views else SCOPES["view"]
        matching = f"matching {quoted(query, 24)}"
        return f"Papers shown: {views} {matching}" if views else f"Papers shown {matching}"

    def _every_label(self) -> str:
        """ "Papers shown with every word of “diffusion model”" (the rows above the divider)."""
        views = self.app.triage.view_label()
        words = f"with every word of {quoted(self.app.search.query.strip(), 24)}"
        return f"Papers shown: {views}, {words}" if views else f"Papers shown {words}"

    def _next_path(self) -> Path:
        last = self.last_path
        if last is None:
            return Path.cwd() / "reading-list.md"
        # marked-2.bib is followed by marked-3.bib, not marked-2-2.bib.
        stem = re.sub(r"-[0-9]+$", "", last.stem) or last.stem
        return last.with_name(stem + last.suffix)

    def _chosen(self, choice: ExportChoice | None) -> None:
        if choice is not None:
            self.export(choice)

    def text(self, papers: list[Paper], fmt: str, keys: dict[str, str]) -> str:
        """`papers` in the format `fmt`, BibTeX and RIS with the citation `keys`."""
        from paperdeck.core.reading_list import export

        app = self.app
        fixes: dict[str, Mapping[str, Any]] = {
            paper.id: app.note_flow.corrections(paper) for paper in papers
        }
        if fmt in CITED:
            papers = with_cited_abstracts(app, papers)
        else:
            # Every other format carries the abstract: a list opened from the store has none.
            papers = app.library.with_abstracts(papers)
        return export(papers, fmt, annotations=app.entries(), keys=keys, corrections=fixes)

    def export(self, choice: ExportChoice) -> None:
        """Write the chosen papers to the file, or copy them (BibTeX, RIS once their keys are
        worked out, which takes a long list seconds on a thread)."""
        app = self.app
        app.note_flow.commit()  # a note being typed goes out as it is now
        papers = self.papers(choice.scope)
        if not papers:
            app.notify(f"No {NONE[choice.scope]} to export", severity="warning")
            return
        if choice.fmt in CITED:
            app.citations.with_keys(lambda keys: self._write(choice, papers, keys))
        else:
            self._write(choice, papers, {})

    def _write(self, choice: ExportChoice, papers: list[Paper], keys: dict[str, str]) -> None:
        from paperdeck.core.plumbing.atomic_write import replace_keeping_backup
        from paperdeck.core.reading_list import FORMATS

        app = self.app
        text = self.text(papers, choice.fmt, keys)
        what = f"{plural(len(papers), 'paper')} as {FORMATS[choice.fmt]}"
        if choice.path is None:
            self.copy(text, what, self._still_marked(choice))
            return
        try:
            if choice.path.is_dir():
                raise IsADirectoryError(21, "is a folder", str(choice.path))
            folder = choice.path.parent
            try:
                # A folder named in the path but not there yet is made, as `mkdir -p` would.
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                reason = error.strerror or str(error)
                raise OSError(error.errno, f"no folder {folder} ({reason})") from error
            # Replaced only after a second Enter on the dialog's word that it exists; what it
            # held is kept as NAME~ all the same, as the notes file keeps its backups.
            backup = replace_keeping_backup(choice.path, text)
        except OSError as error:
            # The dialog comes back with the path as typed, to be corrected, not typed again.
            self.ask(choice, one_line(f"Not exported: {error.strerror or error}"))
            return
        self.last_text = text
        self.last_path = choice.path.resolve()
        kept = f" (the file it replaced is {backup.name})" if backup is not None else ""
        still = self._still_marked(choice)
        app.notify(one_line(f"Exported {what} to {self.last_path}{kept}{still}"), markup=False)

    def _still_marked(self, choice: ExportChoice) -> str:
        """Said after the marked papers went out: `r` pressed next, to read the paper under
        the cursor, read the 40 exported instead."""
        if choice.scope != "marked" or not self.app.paper_list.marked:
            return ""
        return " · still marked: r s t c act on them until A clears the marks"

    def copy(self, text: str, what: str, after: str = "") -> None:
        """Copy `text` on a thread; say where it went (then `after`), or show it when no copy
        is confirmed."""
        self.app.run_worker(
            lambda: self._copy(text, what, after), thread=True, exclusive=True, group="copy"
        )

    def _copy(self, text: str, what: str, after: str) -> None:
        result = copy_from_worker(self.app, text)
        if isinstance(result, str):
            self.app.call_from_thread(self._copy_failed, text, what, result)
        else:
            self.app.call_from_thread(self._copied, text, what, result, after)

    def _copied(self, text: str, what: str, report: CopyReport, after: str) -> None:
        self.last_text = text
        if not report.confirmed:
            self._copy_failed(text, what, unconfirmed_reason(report))
            return
        said = f"Copied {what} to {report.describe()}{after}"
        self.app.notify(one_line(said), markup=False)

    def _copy_failed(self, text: str, what: str, reason: str) -> None:
        from paperdeck.ui.dialogs.citation_dialog import CitationDialog

        self.last_text = text
        reason = f"Could not confirm the copy of {what}. {reason}".strip()
        self.app.push_screen(
            CitationDialog(text, reason, unused_path(Path.cwd() / "reading-list.md"))
        )

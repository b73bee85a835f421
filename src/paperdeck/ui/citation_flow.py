"""The reader's citations: copying the selected papers' citation, and choosing its format."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from paperdeck.ui.safe_text import one_line, short
from paperdeck.ui.textual_private import write_to_terminal

if TYPE_CHECKING:
    from paperdeck.core.clipboard import CopyReport
    from paperdeck.ui.app import PaperdeckApp


class CitationFlow:
    """Cites the marked papers (or the one under the cursor) through every clipboard."""

    def __init__(self, app: PaperdeckApp) -> None:
        self.app = app
        self._keys: dict[str, str] | None = None
        self.last_copied = ""
        """The last citation text handed to the clipboard (what tests read)."""

    def forget_keys(self) -> None:
        """The papers changed: their citation keys are worked out again when needed."""
        self._keys = None

    def keys(self) -> dict[str, str]:
        from paperdeck.core.citations import citation_keys

        if self._keys is None:
            self._keys = dict(citation_keys(self.app.papers, self.app.store))
        return self._keys

    @staticmethod
    def format_names() -> list[tuple[str, str]]:
        """(format id, label) for every citation format."""
        from paperdeck.core.citations import FORMATS

        return list(FORMATS.items())

    def copy(self, fmt: str | None = None) -> None:
        from paperdeck.core.citations import FORMATS, cite_many, describe_missing

        app = self.app
        chosen = fmt if fmt in FORMATS else app.settings.citation_format
        if chosen not in FORMATS:
            chosen = "bibtex"
        indices = app.paper_list.selected_indices()
        if not indices:
            app.notify("No paper to cite", severity="warning")
            return
        papers = [app.papers[i] for i in indices]
        fixes = {paper.id: app.note_flow.corrections(paper) for paper in papers}
        citation = cite_many(papers, chosen, keys=self.keys(), corrections=fixes)
        what = f"“{short(papers[0].title)}”" if len(papers) == 1 else f"{len(papers)} papers"
        missing = describe_missing(citation.missing) if citation.missing else ""
        text = citation.text.rstrip("\n") + "\n"
        app.run_worker(
            lambda: self._copy(text, f"{FORMATS[chosen]} for {what}", missing),
            thread=True,
            exclusive=True,
            group="copy",
        )
        if app.paper_list.marked:
            app.paper_list.clear_marks()

    def _copy(self, text: str, what: str, missing: str) -> None:
        from paperdeck.core.clipboard import copy_text

        app = self.app

        def terminal_write(sequence: str) -> None:
            app.call_from_thread(write_to_terminal, app, sequence)

        try:
            report = copy_text(text, terminal_write=terminal_write)
        except Exception as error:  # no clipboard failure may take the reader down
            app.call_from_thread(self._copy_failed, text, what, f"{type(error).__name__}: {error}")
            return
        app.call_from_thread(self._copied, text, what, missing, report)

    def _copied(self, text: str, what: str, missing: str, report: CopyReport) -> None:
        app = self.app
        self.last_copied = text
        if missing:
            app.notify(
                one_line(f"Incomplete citation: {missing}"),
                severity="warning",
                markup=False,
                timeout=8,
            )
        if not report.confirmed:
            sent = (
                f"Sent to {report.describe()}, which cannot confirm it."
                if report.mechanisms
                else ""
            )
            errors = "; ".join(report.errors)
            self._copy_failed(text, what, " ".join(part for part in (sent, errors) if part))
            return
        app.notify(one_line(f"Copied {what} to {report.describe()}"), markup=False)

    def _copy_failed(self, text: str, what: str, reason: str) -> None:
        from paperdeck.ui.dialogs.citation_dialog import CitationDialog

        suffix = ".bib" if what.startswith(("BibTeX", "BibLaTeX")) else ".txt"
        default = Path.cwd() / f"citations{suffix}"
        reason = f"Could not confirm the copy of {what}. {reason}".strip()
        self.app.push_screen(CitationDialog(text, reason, default))

    def choose_format(self) -> None:
        from paperdeck.ui.dialogs.format_dialog import FormatDialog

        app = self.app

        def done(name: str | None) -> None:
            if name:
                app.settings.citation_format = name
                app.save_settings()
                app.notify(f"c now copies {dict(self.format_names()).get(name, name)}")

        app.push_screen(FormatDialog(self.format_names(), app.settings.citation_format), done)

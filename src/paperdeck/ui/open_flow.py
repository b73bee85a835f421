"""Opening a paper's page or PDF in a browser, or offering to copy the link when none can."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paperdeck.ui.safe_text import one_line

if TYPE_CHECKING:
    from paperdeck.ui.app import PaperdeckApp


class OpenFlow:
    """`o` opens the paper's page, `p` its PDF."""

    def __init__(self, app: PaperdeckApp) -> None:
        self.app = app

    def open(self, what: str) -> None:
        """Open the cursor's paper's "page" or "pdf"."""
        from paperdeck.core.browser import usable_browser
        from paperdeck.core.reading_list import abstract_links, page_url, pdf_url

        app = self.app
        paper = app.current_paper
        if paper is None:
            return
        fixes = app.note_flow.corrections(paper)
        url = pdf_url(paper, fixes) if what == "pdf" else page_url(paper, fixes)
        label = "PDF" if what == "pdf" else "paper's page"
        said = ""
        if not url and what != "pdf":
            # No page: the abstract's own link (its code, most often), said for what it is.
            links = abstract_links(paper)
            if links:
                kind, url = links[0]
                said = f"No page is known for this paper; its abstract's {_kind_words(kind)}: "
                label = f"abstract's {_kind_words(kind)}"
        if not url:
            missing = "PDF" if what == "pdf" else "page"
            app.notify(f"No {missing} is known for this paper", severity="warning")
            return
        browser = usable_browser()
        if browser is None:
            self._offer_copy(label, url)
            return
        app.open_url(url)
        message = f"{said}asked {browser} to open {url}"
        app.notify(one_line(message[:1].upper() + message[1:]), markup=False)

    def _offer_copy(self, label: str, url: str) -> None:
        from paperdeck.ui.dialogs.open_dialog import NoBrowserDialog

        app = self.app

        def done(copy: bool | None) -> None:
            if copy:
                app.export.copy(url, "the link")

        app.push_screen(NoBrowserDialog(label, url), done)


def _kind_words(kind: str) -> str:
    """ "Code" -> "code link", "arXiv" -> "arXiv link", "Link" -> "link"."""
    return "link" if kind == "Link" else f"{kind if kind == 'arXiv' else kind.lower()} link"

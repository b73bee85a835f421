"""The palette's "Copy as…" dialog: the format dialog, asking for one copy's format."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from paperdeck.ui.dialogs.format_dialog import FormatDialog


class CopyAsDialog(FormatDialog):
    """The same list of formats; the choice is used once and not remembered."""

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(".dialog-title", Static).update(Content("Copy the citation as…"))
        hints = self.query(".dialog-hint").results(Static)
        *_, last = hints
        last.update(Content("Type a name · Enter copies in that format once · Esc cancels"))

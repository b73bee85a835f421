"""Shown when no browser can open a link: the link, and a key to copy it instead."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from paperdeck.ui.dialogs.dialog import Dialog
from paperdeck.ui.safe_text import one_line


class NoBrowserDialog(Dialog[bool]):
    """Enter or c copies the URL (True); Esc closes (False)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("enter,c", "copy", "Copy the link"),
    ]

    def __init__(self, what: str, url: str) -> None:
        super().__init__()
        self.what = what
        self.url = url

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static(
                Content(f"No browser can open the {self.what} here"), classes="dialog-title"
            )
            yield Static(
                Content(
                    "This terminal has no display and no browser set in $BROWSER (over SSH, "
                    "for instance)."
                )
            )
            yield Static(Content(one_line(self.url)), id="open-url")
            yield Static(Content("Enter copies the link · Esc closes"), classes="dialog-hint")

    def action_copy(self) -> None:
        self.dismiss(True)

    def action_close(self) -> None:
        self.dismiss(False)

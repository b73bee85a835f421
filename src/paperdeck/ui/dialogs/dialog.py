"""The base of the reader's dialogs: the notices raised before one opens give way to it."""

from __future__ import annotations

from typing import TypeVar

from textual import events, on
from textual.screen import ModalScreen

from paperdeck.ui.textual_private import drop_notices

Result = TypeVar("Result")


class Dialog(ModalScreen[Result]):
    """A modal screen that takes down the information toasts shown when it opens.

    A toast stays 5 s and sits over the bottom of the screen, where a dialog says its keys
    (at 80x24 a toggled view's notice hid the export dialog's hints); what it told is done.
    Warnings and errors stay: the dialog may be the next step of what they explain.
    """

    @on(events.Mount)
    def _drop_stale_notices(self) -> None:
        drop_notices(self.app, "information")

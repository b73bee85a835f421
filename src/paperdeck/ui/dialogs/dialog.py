"""The base of the reader's dialogs: the notices raised before one opens give way to it."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual import events, on
from textual.notifications import SeverityLevel
from textual.screen import ModalScreen
from textual.widgets import Static

from paperdeck.ui.contrast import TEXT_READABLE, readable_on
from paperdeck.ui.textual_private import drop_notices

Result = TypeVar("Result")
UNDER_DIALOG = "-under-dialog"
"""The reader's screen while a dialog is open over it: its footer's keys are not the dialog's."""


class Dialog(ModalScreen[Result]):
    """A modal screen that takes down the information and warning toasts shown when it opens.

    A toast stays 5-8 s and sits over the bottom of the screen, where a dialog says its keys
    (at 80x24 a toggled view's notice hid the export dialog's hints, two "Incomplete
    citation" warnings the C dialog's field); what they told is about a step done. Errors
    stay. A dialog that is the next step of a warning keeps warnings (see STALE).
    """

    STALE: ClassVar[tuple[SeverityLevel, ...]] = ("information", "warning")
    """The toasts taken down when the dialog opens."""

    @on(events.Mount)
    def _drop_stale_notices(self) -> None:
        for severity in self.STALE:
            drop_notices(self.app, severity)

    @on(events.Mount)
    def _readable_title(self) -> None:
        self._shade_titles()
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._shade_titles())

    def _shade_titles(self) -> None:
        """The title in the styles' colour, shaded until it reads on the dialog (4.5:1): the
        accent read 3.0:1 on textual-light's. Again for another theme, from the styles."""
        for title in self.query(".dialog-title").results(Static):
            title.styles.inline.clear_rule("color")
            color, background = title.styles.color, title.background_colors[1]
            if color.ansi is None and background.ansi is None:  # else the terminal's own
                title.styles.color = readable_on(background, background + color, TEXT_READABLE)

    @on(events.Mount)
    def _hide_the_readers_keys(self) -> None:
        self.app.screen_stack[0].add_class(UNDER_DIALOG)

    @on(events.Unmount)
    def _show_the_readers_keys(self) -> None:
        stack = self.app.screen_stack
        if stack and not any(isinstance(screen, Dialog) and screen is not self for screen in stack):
            stack[0].remove_class(UNDER_DIALOG)

"""The `C` dialog: choose the citation format `c` copies in."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option


class FormatDialog(ModalScreen[str | None]):
    """A list of (format id, label); Enter picks, Esc cancels."""

    AUTO_FOCUS = "#format-options"

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, formats: Sequence[tuple[str, str]], current: str) -> None:
        super().__init__()
        self.formats = list(formats)
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Content("Citation format for c"), classes="dialog-title")
            yield OptionList(
                *(Option(Content(label), id=name) for name, label in self.formats),
                id="format-options",
            )
            yield Static(Content("Enter chooses (remembered) · Esc cancels"), classes="dialog-hint")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        names = [name for name, _ in self.formats]
        if self.current in names:
            options.highlighted = names.index(self.current)
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)

"""A dialog that asks for a file path (open another list, export notes)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class PathDialog(ModalScreen[str | None]):
    """One input line; Enter returns the path typed, Esc cancels."""

    AUTO_FOCUS = "#path-input"

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, default: str = "", hint: str = "") -> None:
        super().__init__()
        self.dialog_title = title
        self.default = default
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Content(self.dialog_title), classes="dialog-title")
            yield Input(self.default, placeholder="a path", id="path-input")
            yield Static(
                Content((self.hint + " · " if self.hint else "") + "Enter confirms · Esc cancels"),
                classes="dialog-hint",
            )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        value = event.value.strip()
        self.dismiss(value or None)

    def action_cancel(self) -> None:
        self.dismiss(None)

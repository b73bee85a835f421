"""The `t` dialog: edit a paper's tags as a space-separated line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from paperdeck.ui.safe_text import one_line


def parse_tags(text: str) -> list[str]:
    """Tags from a line: split on spaces and commas, `#` dropped, repeats dropped, order kept."""
    tags: list[str] = []
    for word in text.replace(",", " ").split():
        tag = one_line(word.lstrip("#"))
        if tag and tag not in tags:
            tags.append(tag)
    return tags


class TagsDialog(ModalScreen[list[str] | None]):
    """An input prefilled with the paper's tags; Enter saves, Esc cancels."""

    AUTO_FOCUS = "#tags-input"

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, tags: Sequence[str]) -> None:
        super().__init__()
        self.paper_title = title
        self.tags = list(tags)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(
                Content.assemble(("Tags for ", "bold"), (one_line(self.paper_title), "italic")),
                classes="dialog-title",
            )
            yield Input(
                " ".join(self.tags), placeholder="tags, separated by spaces", id="tags-input"
            )
            yield Static(
                Content("Enter saves · Esc cancels · an empty line removes every tag"),
                classes="dialog-hint",
            )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(parse_tags(event.value))

    def action_cancel(self) -> None:
        self.dismiss(None)

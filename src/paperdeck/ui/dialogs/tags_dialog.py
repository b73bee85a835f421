"""The `t` dialog: tags to add (`-name` removes) to a paper or the marked ones, with completion."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.suggester import Suggester
from textual.widgets import Input, Static

from paperdeck.ui.dialogs.dialog import Dialog
from paperdeck.ui.safe_text import one_line


@dataclass(frozen=True)
class TagsEdit:
    """What the user asked for: tags to add and tags to remove."""

    add: list[str]
    remove: list[str]


def parse_edit(text: str) -> TagsEdit:
    """`theory -rl #new` adds theory and new, removes rl."""
    add: list[str] = []
    remove: list[str] = []
    for word in text.replace(",", " ").split():
        target = remove if word.startswith("-") else add
        tag = one_line(word.lstrip("-").lstrip("#"))
        if tag and tag not in target:
            target.append(tag)
    return TagsEdit(add=[tag for tag in add if tag not in remove], remove=remove)


class TagSuggester(Suggester):
    """Completes the word being typed from the tags already used (a `-` word from the paper's)."""

    def __init__(self, known: Sequence[str], current: Sequence[str]) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.known = list(known)
        self.current = list(current)

    async def get_suggestion(self, value: str) -> str | None:
        if not value or value[-1] in " ,":
            return None
        head, _, word = value.rpartition(" ")
        sign = "-" if word.startswith("-") else ""
        stem = word.lstrip("-").lstrip("#").lower()
        if not stem:
            return None
        for tag in self.current if sign else self.known:
            if tag.lower().startswith(stem) and tag.lower() != stem:
                return (head + " " if head else "") + sign + tag
        return None


class TagsDialog(Dialog[TagsEdit | None]):
    """An empty input: words typed are added, `-word` removed; Enter saves, Esc cancels."""

    AUTO_FOCUS = "#tags-input"

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, subject: str, current: Sequence[str], known: Sequence[str] = ()) -> None:
        super().__init__()
        self.subject = subject
        self.tags = list(current)
        self.known = list(known)

    def compose(self) -> ComposeResult:
        has = " ".join("#" + one_line(tag) for tag in self.tags) or "no tags yet"
        with Vertical(classes="dialog"):
            yield Static(
                Content.assemble(("Tags for ", "bold"), (one_line(self.subject), "italic")),
                classes="dialog-title",
            )
            yield Static(Content.assemble(("Has: ", "bold"), has), id="tags-current")
            yield Input(
                placeholder="tags to add; -name removes one",
                id="tags-input",
                suggester=TagSuggester(self.known, self.tags),
            )
            yield Static(
                Content("→ completes a tag used before · Enter saves · Esc cancels"),
                classes="dialog-hint",
            )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(parse_edit(event.value))

    def action_cancel(self) -> None:
        self.dismiss(None)

"""A dialog that asks for a file path (open another list, export notes), completing it as typed."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.suggester import Suggester
from textual.widgets import Input, Static

from paperdeck.ui.dialogs.dialog import Dialog
from paperdeck.ui.safe_text import one_line

MAX_NAMES = 2000
"""Names read from one folder to complete from: a huge folder is not listed whole."""


class PathSuggester(Suggester):
    """Completes the last part of a path from the names in its folder (→ accepts): the first
    by name of the folders and of the files `wanted` takes, else of the others."""

    def __init__(self, wanted: Callable[[str], bool] | None = None) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.wanted = wanted

    async def get_suggestion(self, value: str) -> str | None:
        if not value:
            return None
        typed = Path(value).expanduser()
        folder, prefix = (typed, "") if value.endswith(os.sep) else (typed.parent, typed.name)
        try:
            with os.scandir(folder) as entries:
                names = []
                for number, entry in enumerate(entries):
                    if number >= MAX_NAMES:
                        break
                    hidden = entry.name.startswith(".") and not prefix
                    if entry.name.startswith(prefix) and entry.name != prefix and not hidden:
                        names.append((entry.name, entry.is_dir()))
        except OSError:
            return None
        if not names:
            return None
        wanted = self.wanted

        def order(item: tuple[str, bool]) -> tuple[bool, str]:
            name, is_dir = item
            return (not (wanted is None or is_dir or wanted(name)), name)

        name, is_dir = min(names, key=order)
        return value + name[len(prefix) :] + (os.sep if is_dir else "")


class PathDialog(Dialog[str | None]):
    """One input line; Enter returns the path typed, Esc cancels."""

    AUTO_FOCUS = "#path-input"

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self, title: str, default: str = "", hint: str = "", *, asks_to_replace: bool = False
    ) -> None:
        """`asks_to_replace`: a path to a file that exists is taken only on a second Enter."""
        super().__init__()
        self.dialog_title = title
        self.default = default
        self.hint = hint
        self.asks_to_replace = asks_to_replace
        self.replacing = ""
        """The path, as typed, whose file a second Enter replaces: it was said to exist."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Content(self.dialog_title), classes="dialog-title")
            yield Input(
                self.default, placeholder="a path", id="path-input", suggester=PathSuggester()
            )
            yield Static(Content(self._keys()), id="path-hint", classes="dialog-hint")

    def _keys(self) -> str:
        return (
            self.hint + " · " if self.hint else ""
        ) + "→ completes · Enter confirms · Esc cancels"

    def on_input_changed(self, event: Input.Changed) -> None:
        if self.replacing and event.value.strip() != self.replacing:
            self.replacing = ""
            hint = self.query_one("#path-hint", Static)
            hint.remove_class("-warning")
            hint.update(Content(self._keys()))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        value = event.value.strip()
        if value and self.asks_to_replace and value != self.replacing:
            path = Path(value).expanduser()
            if path.is_file():
                # Notes exported over a file of the user's own replaced it without a word.
                self.replacing = value
                hint = self.query_one("#path-hint", Static)
                hint.add_class("-warning")
                hint.update(
                    Content(
                        one_line(
                            f"{path.name} exists — Enter again to replace it (kept as {path.name}~)"
                        )
                    )
                )
                return
        self.dismiss(value or None)

    def action_cancel(self) -> None:
        self.dismiss(None)

"""Ctrl+P › Open another list: a path typed (completing list files), or a recent list picked."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from paperdeck.core.formats.reader import looks_like_list
from paperdeck.ui.dialogs.dialog import Dialog
from paperdeck.ui.dialogs.path_dialog import PathSuggester
from paperdeck.ui.dialogs.typed_into_field import type_into
from paperdeck.ui.safe_text import one_line

FORMATS = "txt, JSONL, JSON, BibTeX, CSV"


def shown_path(path: Path) -> str:
    """`path` on one line, the home folder as ~."""
    home = Path.home()
    text = f"~/{path.relative_to(home)}" if path.is_relative_to(home) else str(path)
    return one_line(text)


def _cannot_open(path: Path) -> str:
    """Why `path` cannot be opened as a list file ("" when it can be tried)."""
    try:
        if path.is_dir():
            return "is a directory"
        if not path.exists():
            return "no such file"
    except OSError as error:  # a name too long, a folder not to be read
        return error.strerror or "cannot be read"
    return ""


class OpenListDialog(Dialog[str | None]):
    """A path field over the lists to pick (recent first, then the bundled one); ↑/↓ from the
    field go to the list, letters typed in the list go on in the field. Enter opens the typed
    path, or with none typed the highlighted list."""

    AUTO_FOCUS = "#path-input"

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, choices: Sequence[tuple[Path, str]]) -> None:
        super().__init__()
        self.choices = list(choices)
        """Each list to offer, with what it is said to be ("" for nothing)."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Content("Open a paper list"), classes="dialog-title")
            yield Input(
                placeholder=f"a list file's path ({FORMATS})",
                id="path-input",
                suggester=PathSuggester(looks_like_list),
                select_on_focus=False,
            )
            if self.choices:
                options = [
                    Option(self._label(path, said), id=str(path)) for path, said in self.choices
                ]
                yield OptionList(*options, id="open-choices")
            yield Static(Content(self._keys()), id="open-hint", classes="dialog-hint")

    def _keys(self) -> str:
        keys = "↑↓ picks · " if self.choices else ""
        return f"{keys}→ completes · Enter opens · Esc cancels"

    @staticmethod
    def _label(path: Path, said: str) -> Content:
        """The file's name, then (dim) what it is and its folder: a long folder is cut at the
        end, where it tells least."""
        where = " · ".join(part for part in (one_line(said), shown_path(path.parent)) if part)
        return Content(one_line(path.name)) + Content.styled(f" · {where}", "dim")

    def on_mount(self) -> None:
        if self.choices:
            self.query_one(OptionList).highlighted = 0

    def on_key(self, event: events.Key) -> None:
        if not self.choices:
            return
        field = self.query_one(Input)
        options = self.query_one(OptionList)
        if self.focused is field:
            if event.key in ("up", "down"):
                event.stop()
                event.prevent_default()
                options.focus()
                if event.key == "down" and options.highlighted not in (None, 0):
                    options.action_cursor_down()
            return
        if self.focused is not options:
            return
        type_into(field, event)

    def on_input_changed(self, event: Input.Changed) -> None:
        """What was said of the path typed before (or of nothing typed) no longer holds."""
        hint = self.query_one("#open-hint", Static)
        if hint.has_class("-warning") or hint.has_class("-error"):
            hint.remove_class("-warning", "-error")
            hint.update(Content(self._keys()))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        value = event.value.strip()
        if value:
            problem = _cannot_open(Path(value).expanduser())
            if problem:
                # Said here, the dialog and the path kept: closed with a toast, the path typed
                # again went to the list as keys (p a r s: the PDF, mark all, read, star).
                hint = self.query_one("#open-hint", Static)
                hint.update(Content(one_line(f"{value}: {problem} · Esc cancels")))
                hint.add_class("-error")
                return
            self.dismiss(value)
            return
        if self.choices:
            options = self.query_one(OptionList)
            if options.highlighted is not None:
                self.dismiss(options.get_option_at_index(options.highlighted).id)
                return
        hint = self.query_one("#open-hint", Static)
        hint.update(Content(f"Type the path of a list file ({FORMATS}) · Esc cancels"))
        hint.add_class("-warning")

    def action_cancel(self) -> None:
        self.dismiss(None)

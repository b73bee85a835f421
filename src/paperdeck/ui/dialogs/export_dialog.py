"""The `e` dialog: which papers (marked, starred, this view) go to a reading list, and where."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.geometry import Size
from textual.widgets import Input, RadioButton, RadioSet, Static

from paperdeck.core.file_summary import summary
from paperdeck.core.reading_list import FORMATS, SUFFIXES, format_for, format_named, path_asked
from paperdeck.ui.dialogs.dialog import Dialog
from paperdeck.ui.dialogs.path_dialog import PathSuggester
from paperdeck.ui.safe_text import one_line


@dataclass(frozen=True)
class ExportChoice:
    """The papers (a scope id), the format, and a file (None: the clipboard)."""

    scope: str
    fmt: str
    path: Path | None
    typed: str = ""
    """The path as typed (offered again when the export fails)."""


class ScopeButton(RadioButton):
    """A choice of papers drawn ● when chosen and ○ when not: Textual draws both as ● told
    apart by colour alone, which some themes make black on navy."""

    BUTTON_LEFT = ""
    BUTTON_RIGHT = ""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]
        """The mark, read as the button paints: a paint assigns nothing."""
        return "●" if self.value else "○"

    def render(self) -> Content:
        """The mark and the label, with no space after it: Textual's trailing space made a
        label one cell too long cut with "…" where it should have wrapped."""
        label = self.label.pad_left(1).stylize_before(self.get_visual_style("toggle--label"))
        return Content.assemble(self._button, label)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As many lines as the label wraps to (the stylesheet wraps it): Textual's one line
        cut "Papers shown with every word of “offline reinforcement” (70)" before its count."""
        return self.render().get_height(self.styles.get_render_rules(), width)


class ExportDialog(Dialog[ExportChoice | None]):
    """Scopes to pick from, a path whose extension picks the format; Enter saves, Ctrl+Y copies."""

    AUTO_FOCUS = "#export-path"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+y", "copy", "Copy to the clipboard instead"),
    ]

    def __init__(
        self,
        scopes: Sequence[tuple[str, str, int]],
        chosen: str,
        default: Path | str,
        error: str = "",
    ) -> None:
        """`scopes`: (id, label, how many papers); `chosen`: the scope selected at first;
        `default`: the path offered; `error`: why the last export with it failed."""
        super().__init__()
        self.scopes = list(scopes)
        self.chosen = chosen
        self.default = str(default)
        self.error = error
        self.replacing = ""
        """The path, as typed, whose file a second Enter replaces: it was said to exist."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog export"):
            yield Static(Content("Export a reading list"), classes="dialog-title")
            with RadioSet(id="export-scope"):
                for scope, label, count in self.scopes:
                    # Pressed at mount, not here: then the set's cursor starts on it too.
                    yield ScopeButton(Content(f"{label} ({count:,})"), id=f"scope-{scope}")
            yield Input(self.default, id="export-path", suggester=PathSuggester())
            # The format line says why the last export failed until the path is changed: a
            # line of its own pushed the keys' hint out of a 24-line terminal.
            yield Static(Content(""), id="export-format", classes="dialog-hint")
            yield Static(
                Content(
                    "the extension picks the format: "
                    + " · ".join(f"{SUFFIXES[f]} {label}" for f, label in FORMATS.items())
                    + "\nEnter saves · Ctrl+Y copies · "
                    + ("Tab: which papers · " if len(self.scopes) > 1 else "")
                    + "Esc cancels"
                ),
                id="export-keys",
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        self.query_one(f"#scope-{self.chosen}", RadioButton).value = True
        self._show_format(self.default)

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.value.strip() != self.replacing:
            self.replacing = ""
        self._show_format(event.value)

    def _show_format(self, value: str) -> None:
        line = self.query_one("#export-format", Static)
        line.set_class(bool(self.replacing), "-warning")
        failed = bool(self.error) and value == self.default
        line.set_class(failed, "-error")
        if failed:
            line.update(Content(self.error))
            return
        path = path_asked(value or "x.md", Path(self.default))
        said = f"Format: {FORMATS[format_for(path)]}"
        if format_named(value) is not None:
            said += f" · to {path}"  # the file the format's name stands for
        line.update(Content(one_line(said)))

    def _scope(self) -> str:
        pressed = self.query_one("#export-scope", RadioSet).pressed_button
        if pressed is None or pressed.id is None:
            return self.chosen
        return pressed.id.removeprefix("scope-")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        value = event.value.strip()
        if not value:
            return
        path = path_asked(value, Path(self.default))
        fmt = format_for(path)
        if path.is_file() and value != self.replacing:
            # A reading list of 40 papers was replaced by the 3 just starred, without a word.
            self.replacing = value
            line = self.query_one("#export-format", Static)
            line.set_class(False, "-error")
            line.set_class(True, "-warning")
            line.update(
                Content(
                    one_line(
                        f"{path.name} exists ({summary(path, fmt)}) — Enter again to replace it"
                    )
                )
            )
            return
        self.dismiss(ExportChoice(self._scope(), fmt, path, value))

    def action_copy(self) -> None:
        value = self.query_one("#export-path", Input).value.strip()
        fmt = format_for(path_asked(value or "x.md", Path(self.default)))
        self.dismiss(ExportChoice(self._scope(), fmt, None))

    def action_cancel(self) -> None:
        self.dismiss(None)

"""Shown when no copy could be confirmed: the citation to select by hand, or write to a file."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Input, Static, TextArea

from paperdeck.ui.dialogs.dialog import Dialog
from paperdeck.ui.safe_text import clean, one_line


def sentences(*parts: str) -> str:
    """Parts joined as sentences: each on one line, ended by a full stop unless it has one."""
    out: list[str] = []
    for part in parts:
        text = one_line(part).strip()
        if text:
            out.append(text if text.endswith((".", "!", "?", "…")) else text + ".")
    return " ".join(out)


class CitationDialog(Dialog[None]):
    """The citation in a read-only text area, and a file it can be written to."""

    # What a copy's warning says ("Incomplete citation") is about the citation shown here.
    STALE = ("information",)

    AUTO_FOCUS = "#citation-text"

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close")]

    def __init__(self, text: str, reason: str, default_file: Path) -> None:
        super().__init__()
        self.text = text
        self.reason = reason
        self.default_file = default_file

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static(Content("The copy could not be confirmed"), classes="dialog-title")
            yield Static(
                Content(
                    sentences(
                        self.reason,
                        "Select the text below by hand (drag, or Shift+arrows then Ctrl+C),"
                        " or write it to a file.",
                    )
                ),
                classes="dialog-hint",
            )
            yield TextArea(clean(self.text), read_only=True, id="citation-text")
            yield Input(str(self.default_file), id="citation-file")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Write to file", id="citation-write", variant="primary")
                yield Button("Close", id="citation-close")
            yield Static(Content(""), id="citation-result", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#citation-text", TextArea).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "citation-write":
            self.write_file(self.query_one("#citation-file", Input).value)
        else:
            self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.write_file(event.value)

    def write_file(self, name: str) -> None:
        """Append the citation to the file (appending keeps earlier citations)."""
        result = self.query_one("#citation-result", Static)
        path = Path(name.strip()).expanduser()
        if not name.strip():
            result.update(Content("Type a file name first."))
            return
        try:
            with path.open("a", encoding="utf-8") as stream:
                stream.write(self.text.rstrip("\n") + "\n\n")
        except OSError as error:
            result.update(Content(one_line(f"Could not write {path}: {error.strerror or error}")))
            return
        result.update(Content(one_line(f"Written to {path.resolve()}")))
        self.notify(one_line(f"Citation written to {path.resolve()}"), markup=False)
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)

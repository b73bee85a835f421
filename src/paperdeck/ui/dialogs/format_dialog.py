"""The `C` dialog: choose the citation format `c` copies in, or any CSL style by name or file."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from paperdeck.ui.dialogs.dialog import Dialog
from paperdeck.ui.safe_text import one_line


class FormatDialog(Dialog[str | None]):
    """paperdeck's formats, then CSL styles (a heading between), then a field for any other
    CSL style; Enter picks, Esc cancels."""

    AUTO_FOCUS = "#format-options"

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        formats: Sequence[tuple[str, str]],
        current: str,
        *,
        styles: Sequence[tuple[str, str]] = (),
        resolve: Callable[[str], str] | None = None,
    ) -> None:
        super().__init__()
        self.formats = list(formats)
        self.csl_styles = list(styles)
        self.current = current
        self.resolve = resolve
        """Turns what is typed into a format id; raises ValueError (one line) when it cannot."""

    def compose(self) -> ComposeResult:
        options: list[Option] = [Option(Content(label), id=name) for name, label in self.formats]
        if self.csl_styles:
            options.append(
                Option(Content.styled("CSL styles, rendered by citeproc-py", "dim"), disabled=True)
            )
            options.extend(Option(Content(label), id=name) for name, label in self.csl_styles)
        with Vertical(classes="dialog formats"):
            yield Static(Content("Citation format for c"), classes="dialog-title")
            yield OptionList(*options, id="format-options")
            if self.resolve is not None:
                yield Input(
                    placeholder="Other CSL style: a name (elsevier-harvard) or a FILE.csl",
                    id="format-other",
                )
                yield Static(Content(""), id="format-error", classes="dialog-hint")
            yield Static(
                Content("Enter chooses (remembered) · Tab: other style · Esc cancels"),
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        for index in range(options.option_count):
            if options.get_option_at_index(index).id == self.current:
                options.highlighted = index
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.resolve is None or not event.value.strip():
            return
        try:
            chosen = self.resolve(event.value)
        except ValueError as error:
            message = str(getattr(error, "short", "") or error)
            self.query_one("#format-error", Static).update(Content(one_line(message)))
            return
        self.dismiss(chosen)

    def action_cancel(self) -> None:
        self.dismiss(None)

"""The `C` dialog: choose the citation format `c` copies in, or any CSL style by name or file."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from paperdeck.ui.dialogs.dialog import Dialog
from paperdeck.ui.dialogs.typed_into_field import type_into
from paperdeck.ui.safe_text import one_line

TYPED_PAUSE = 1.0
"""Seconds after which a letter typed in the list starts a new name instead of going on."""


class FormatDialog(Dialog[str | None]):
    """paperdeck's formats, then CSL styles (a heading between), then a field for any other
    CSL style; Enter picks, Esc cancels. With the field, what is typed goes to it and the
    list highlights the style it names the start of; without (Copy as…), letters typed in
    the list go to the first format named so ("ris" to RIS)."""

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
        self._typed = ""
        self._typed_at = 0.0

    def compose(self) -> ComposeResult:
        options: list[Option] = [Option(Content(label), id=name) for name, label in self.formats]
        if self.csl_styles:
            options.append(Option(Content("CSL styles, rendered by citeproc-py"), disabled=True))
            options.extend(Option(Content(label), id=name) for name, label in self.csl_styles)
        with Vertical(classes="dialog formats"):
            yield Static(Content("Citation format for c"), classes="dialog-title")
            yield OptionList(*options, id="format-options")
            if self.resolve is not None:
                yield Input(
                    placeholder="Other CSL style: a name (elsevier-harvard) or a FILE.csl",
                    id="format-other",
                    select_on_focus=False,  # letters typed in the list go on after it
                )
                yield Static(Content(""), id="format-error", classes="dialog-hint")
            yield Static(
                Content("Type a name · Enter chooses (remembered) · Esc cancels"),
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = self._current_index()
        options.focus()

    def on_key(self, event: events.Key) -> None:
        options = self.query_one(OptionList)
        if self.resolve is not None:
            self._follow_field(event, options)
            return
        character = event.character
        if self.focused is not options or character is None or not character.isprintable():
            return
        if character == " " and not self._typed:
            return
        event.stop()
        event.prevent_default()
        now = time.monotonic()
        typed = (self._typed if now - self._typed_at < TYPED_PAUSE else "") + character
        self._typed, self._typed_at = typed, now
        found = self._named(typed)
        if found is not None:
            options.highlighted = found

    def _follow_field(self, event: events.Key, options: OptionList) -> None:
        """What is typed goes to the other-style field, wherever the focus is; ↑/↓ from the
        field go on in the list."""
        field = self.query_one("#format-other", Input)
        if self.focused is field:
            if event.key in ("up", "down"):
                event.stop()
                event.prevent_default()
                options.focus()
                if options.highlighted is None:
                    options.highlighted = self._current_index()
                elif event.key == "up":
                    options.action_cursor_up()
                else:
                    options.action_cursor_down()
            return
        if self.focused is not options:
            return
        type_into(field, event)

    def on_input_changed(self, event: Input.Changed) -> None:
        """The list highlights the style the field names the start of (none when it names
        none, so Enter is seen to take the typed name)."""
        event.stop()
        self.query_one("#format-error", Static).update(Content(""))
        typed = event.value.strip()
        options = self.query_one(OptionList)
        options.highlighted = self._named(typed) if typed else self._current_index()

    def _current_index(self) -> int | None:
        options = self.query_one(OptionList)
        for index in range(options.option_count):
            if options.get_option_at_index(index).id == self.current:
                return index
        return None

    def _named(self, typed: str) -> int | None:
        """The first enabled option whose name (or id) starts with `typed`, else has a word
        starting with it."""
        options = self.query_one(OptionList)
        wanted = typed.casefold()
        words: int | None = None
        for index in range(options.option_count):
            option = options.get_option_at_index(index)
            if option.disabled:
                continue
            name = str(option.prompt).casefold()
            if name.startswith(wanted) or (option.id or "").casefold().startswith(wanted):
                return index
            if words is None and any(word.startswith(wanted) for word in name.split()):
                words = index
        return words

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """The listed style highlighted for what is typed (or for nothing typed), else the
        CSL style the field names."""
        event.stop()
        options = self.query_one(OptionList)
        typed = event.value.strip()
        listed = self._named(typed) if typed else options.highlighted
        if listed is not None:
            self.dismiss(options.get_option_at_index(listed).id)
            return
        if self.resolve is None or not typed:
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

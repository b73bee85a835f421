"""The `?` help screen, generated from the bindings of the app and its widgets."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

Section = tuple[str, Iterable[BindingType]]

QUERY_HELP = (
    'words are ANDed and typo-tolerant · \'exact · !exclude · a | b · "a phrase" · '
    "title: author: venue: year:2020..2023 · tag:NAME note:WORD is:starred is:unread has:note"
)


def binding_rows(
    bindings: Iterable[BindingType], key_display: dict[str, str]
) -> list[tuple[str, str]]:
    """(keys, description) per action, keys of the same action joined, in binding order."""
    rows: dict[str, tuple[list[str], str]] = {}
    for item in bindings:
        found = [item] if isinstance(item, Binding) else list(Binding.make_bindings([item]))
        for binding in found:
            keys, description = rows.setdefault(binding.action, ([], binding.description))
            for key in binding.key.split(","):
                shown = key_display.get(key.strip(), key.strip())
                if shown not in keys:
                    keys.append(shown)
            if not description and binding.description:
                rows[binding.action] = (keys, binding.description)
    return [(" ".join(keys), description) for keys, description in rows.values() if description]


KEY_NAMES = {
    "down": "↓",
    "up": "↑",
    "home": "Home",
    "end": "End",
    "pageup": "PgUp",
    "pagedown": "PgDn",
    "space": "Space",
    "escape": "Esc",
    "enter": "Enter",
    "tab": "Tab",
    "shift+tab": "Shift+Tab",
    "question_mark": "?",
    "slash": "/",
    "ctrl+p": "Ctrl+P",
}


class HelpScreen(ModalScreen[None]):
    """Every key, grouped by where it applies."""

    AUTO_FOCUS = "#help-body"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss_help", "Close help"),
    ]

    def __init__(self, sections: list[Section]) -> None:
        super().__init__()
        self.sections = sections

    def compose(self) -> ComposeResult:
        lines: list[Content] = [Content.assemble(("paperdeck keys", "bold $text-accent"))]
        for title, bindings in self.sections:
            lines.append(Content(""))
            lines.append(Content.assemble((title, "bold $text-primary")))
            for keys, description in binding_rows(bindings, KEY_NAMES):
                lines.append(Content.assemble((f"  {keys:<14}", "bold"), description))
        lines.append(Content(""))
        lines.append(Content.assemble(("Search syntax", "bold $text-primary")))
        lines.append(Content("  " + QUERY_HELP))
        lines.append(Content(""))
        lines.append(Content.assemble(("Esc, q or ? closes this screen.", "$text-muted")))
        with VerticalScroll(id="help-body"):
            yield Static(Content("\n").join(lines), id="help-text")

    def action_dismiss_help(self) -> None:
        self.dismiss(None)

"""The `?` help screen, generated from the bindings of the app and its widgets."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.color import Color
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from paperdeck.ui.contrast import TEXT_READABLE, readable_on
from paperdeck.ui.dialogs.dialog import Dialog

Section = tuple[str, Iterable[BindingType]]

QUERY_LINES = (
    "papers with every word first, then",
    "those with some; typo-tolerant",
    '\'exact  !exclude  a | b  "a phrase"',
    "title: author: venue: tag: note:",
    "year:2026  year:2020..2023",
    "has:note  is:starred  is:unread",
    "like:REF  like:starred (similar)",
)
"""The query language, each line short enough for a column."""
COLUMNS = 3
COLUMN_WIDTH = 36
"""Cells a column of keys needs (key names, a description)."""
KEYS_WIDTH = 12
"""Cells of the key names before a description."""


def _balance(blocks: list[list[Content]], columns: int) -> list[list[list[Content]]]:
    """Blocks split, in order, into `columns` columns of about the same number of lines (a
    block longer than a column goes on in the next, its heading repeated)."""
    total = sum(len(block) + 1 for block in blocks)
    target = max(4, -(-total // columns))
    pieces: list[list[Content]] = []
    for block in blocks:
        heading, rows = block[0], block[1:]
        while len(rows) > target:
            pieces.append([heading, *rows[: target - 1]])
            rows = rows[target - 1 :]
            heading = Content.assemble(heading, (" (more)", "$text-muted"))
        pieces.append([heading, *rows])
    out: list[list[list[Content]]] = [[]]
    lines = 0
    for piece in pieces:
        if out[-1] and lines + len(piece) / 2 > target and len(out) < columns:
            out.append([])
            lines = 0
        out[-1].append(piece)
        lines += len(piece) + 1
    return out


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
    "asterisk": "*",
    "slash": "/",
    "ctrl+p": "Ctrl+P",
}


class HelpScreen(Dialog[None]):
    """Every key, grouped by where it applies."""

    # Focused so that ↓ and PgDn scroll it where it does not fit (80x24).
    AUTO_FOCUS = "#help-body"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss_help", "Close help"),
    ]

    def __init__(self, sections: list[Section]) -> None:
        super().__init__()
        self.sections = sections

    def compose(self) -> ComposeResult:
        blocks: list[list[Content]] = []
        for title, bindings in self.sections:
            block = [Content.assemble((title, "bold $text-primary"))]
            for keys, description in binding_rows(bindings, KEY_NAMES):
                # A long description goes on under itself, not under the keys.
                first, *more = textwrap.wrap(description, COLUMN_WIDTH - KEYS_WIDTH - 1)
                block.append(Content.assemble((f"{keys:<{KEYS_WIDTH}}", "bold"), " ", first))
                block.extend(Content(" " * (KEYS_WIDTH + 1) + line) for line in more)
            blocks.append(block)
        blocks.append(
            [
                Content.assemble(("Search syntax", "bold $text-primary")),
                *(Content(line) for line in QUERY_LINES),
            ]
        )
        columns = max(1, min(COLUMNS, (self.app.size.width - 8) // COLUMN_WIDTH))
        with VerticalScroll(id="help-body"):
            # Docked: what closes the screen, and that it scrolls, stay in sight as it scrolls.
            yield Static(
                Content.assemble(
                    ("Esc, q or ? closes this screen · Ctrl+P finds any command", "$text-muted")
                ),
                id="help-footer",
            )
            # Its colour is the styles' dialog title's, shaded by the dialog to read (4.5:1).
            yield Static("paperdeck keys", classes="dialog-title", id="help-title")
            with Horizontal(id="help-columns"):
                for column in _balance(blocks, columns):
                    text = Content("\n\n").join(Content("\n").join(block) for block in column)
                    yield Static(text, classes="help-column")

    def on_mount(self) -> None:
        body = self.query_one("#help-body", VerticalScroll)
        self.watch(body, "scroll_y", self._say_scrolls, init=False)
        self.call_after_refresh(self._say_scrolls)
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._say_scrolls())

    def on_resize(self) -> None:
        self.call_after_refresh(self._say_scrolls)

    def _say_scrolls(self) -> None:
        """The footer says more keys are below while the body does not show them all."""
        body = self.query_one("#help-body", VerticalScroll)
        more = body.scroll_y < body.max_scroll_y
        footer = self.query_one("#help-footer", Static)
        footer.update(
            Content.assemble(
                ("↓ PgDn: more keys below", f"bold {self._warning(footer)}"),
                ("  ·  Esc, q or ? closes", "$text-muted"),
            )
            if more
            else Content.assemble(
                ("Esc, q or ? closes this screen · Ctrl+P finds any command", "$text-muted")
            )
        )

    def _warning(self, footer: Static) -> str:
        """The theme's warning colour, shaded until it reads on the footer (4.5:1): it read
        3.0:1 on textual-light's."""
        background = footer.background_colors[1]
        warning = self.app.get_css_variables().get("text-warning")
        if warning is None or background.ansi is not None:
            return "$text-warning"
        return readable_on(background, background + Color.parse(warning), TEXT_READABLE).hex

    def action_dismiss_help(self) -> None:
        self.dismiss(None)

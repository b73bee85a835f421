"""Untrusted text made safe for the screen: control characters removed, never parsed as markup."""

from __future__ import annotations

from collections.abc import Iterable

from rich.cells import cell_len, set_cell_size
from textual.content import Content
from textual.style import Style

from paperdeck.core.text.sanitize import clean_line, clean_text


def clean(text: str) -> str:
    """Text without escape sequences, control characters or bidi overrides (tabs as spaces)."""
    return clean_text(text).replace("\t", "    ")


def one_line(text: str) -> str:
    """Clean text on a single line: every run of whitespace one space."""
    return clean_line(text)


def plain(text: str, style: Style | str = "") -> Content:
    """Content that shows `text` literally, whatever brackets or escapes it holds."""
    content = Content(clean(text))
    return content.stylize(style) if style else content


def with_spans(
    text: str, spans: Iterable[tuple[int, int]], style: Style | str, base: Style | str = ""
) -> Content:
    """Literal content with `style` over each (start, end) span, clipped to the text."""
    content = plain(text, base)
    length = len(content)
    for start, end in spans:
        start, end = max(0, start), min(length, end)
        if end > start:
            content = content.stylize(style, start, end)
    return content


def cut(text: str, cells: int) -> str:
    """`text` in at most `cells` terminal cells, cut with "…" when longer (a wide character
    takes two)."""
    if cell_len(text) <= cells:
        return text
    return set_cell_size(text, max(0, cells - 1)).rstrip() + "…"


def short(title: str, length: int = 40) -> str:
    """A title cut to `length` cells on one line, for messages."""
    return cut(one_line(title), length)


def quoted(query: str, length: int = 30) -> str:
    """A search in quotes, on one line and cut to `length` cells, for messages."""
    return f"“{cut(one_line(query), length)}”"

"""The line under the search field: what the query could not mean, and words no paper has."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len, set_cell_size
from textual.content import Content
from textual.widget import Widget

from paperdeck.ui.safe_text import one_line

if TYPE_CHECKING:
    from paperdeck.core.search.near import NearSpelling

LINES = 2
"""Lines the status takes at most (its style's max-height)."""


def near_forms(near: Sequence[NearSpelling]) -> list[str]:
    """Ways of saying which words no paper has, longest first: fewer near spellings named,
    then fewer words."""
    from paperdeck.core.search.near import SHOWN, notice

    forms = [notice(near, shown) for shown in range(SHOWN, 0, -1)]

    def short(shown: int) -> str:
        parts = []
        for item in near:
            more = len(item.near) - shown
            named = ", ".join(item.near[:shown]) + (f" +{more}" if more > 0 else "")
            parts.append(f'no "{item.word}"; near: {named}')
        return "; ".join(parts)

    forms.extend(short(shown) for shown in (2, 1))
    return forms


def status_text(message: str, near: Sequence[NearSpelling], width: int) -> str:
    """The status in at most LINES lines of `width` cells: the message, then the longest way
    of saying the words no paper has that fits (cut with an ellipsis if none does)."""
    forms = near_forms(near) if near else [""]
    for form in forms:
        text = one_line("; ".join(filter(None, [message, form])))
        if len(textwrap.wrap(text, max(1, width))) <= LINES:
            return text
    text = one_line("; ".join(filter(None, [message, forms[-1]])))
    room = max(1, LINES * width - 1)
    return set_cell_size(text, room - 1).rstrip() + "…" if cell_len(text) > room else text


class SearchStatus(Widget):
    """Shown only when it has something to say."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.message = ""
        self.near: tuple[NearSpelling, ...] = ()

    def show(self, message: str | None, near: Sequence[NearSpelling] = ()) -> None:
        """Say `message` (a line of the query's parse, or of the search) and which words no
        paper has; hidden when there is neither."""
        message, near = message or "", tuple(near)
        if (message, near) != (self.message, self.near):
            self.message, self.near = message, near
            self.refresh(layout=True)
        self.display = bool(message or near)

    def render(self) -> Content:
        return Content(status_text(self.message, self.near, self.content_region.width))

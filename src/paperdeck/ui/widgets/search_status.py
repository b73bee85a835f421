"""The line under the search field: what the query could not mean, and words no paper has."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len
from textual.content import Content
from textual.widget import Widget

from paperdeck.ui.safe_text import cut, one_line

if TYPE_CHECKING:
    from paperdeck.core.search.near import NearSpelling


def near_forms(near: Sequence[NearSpelling]) -> list[str]:
    """Ways of saying which words no paper has, longest first: the notice the command line
    prints, naming fewer near spellings; then each word with its near spellings in brackets
    (`no paper has "domian" (showing domain) or "agregation" (showing aggregation)`), fewer
    of them; then what was shown for each word, tersely; then the words alone."""
    from paperdeck.core.search.near import SHOWN, notice

    forms = [notice(near, shown) for shown in range(SHOWN, 0, -1)]
    forms.extend(_bracketed(near, shown) for shown in range(SHOWN, 0, -1))
    forms.append(_shown_for(near))
    forms.append(_bracketed(near, 0))
    return forms


def _shown_for(near: Sequence[NearSpelling]) -> str:
    """What was shown for each word no paper has, tersely:
    `showing domain for "domian", aggregation +1 for "agregation"`."""
    parts = []
    for item in near:
        more = len(item.near) - 1
        parts.append(f'{item.near[0]}{f" +{more}" if more > 0 else ""} for "{item.word}"')
    return "showing " + ", ".join(parts)


def _bracketed(near: Sequence[NearSpelling], shown: int) -> str:
    """The words no paper has, each followed by up to `shown` of its near spellings in
    brackets; the words looked for in the same place said together."""
    from paperdeck.core.search.near import named, none_has

    return none_has(
        (
            item.field,
            f'"{item.word}"' + (f" (showing {named(item, shown, more='')})" if shown else ""),
        )
        for item in near
    )


def status_text(message: str, near: Sequence[NearSpelling], width: int) -> str:
    """The status in one line of `width` cells: the message, then the longest way of saying
    the words no paper has that fits (cut with an ellipsis if none does)."""
    forms = near_forms(near) if near else [""]
    width = max(1, width)
    for form in forms:
        text = one_line("; ".join(filter(None, [message, form])))
        if cell_len(text) <= width:
            return text
    text = one_line("; ".join(filter(None, [message, forms[-1]])))
    return cut(text, width)


class SearchStatus(Widget):
    """Shown only when it has something to say."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.message = ""
        self.near: tuple[NearSpelling, ...] = ()
        self.fallbacks: tuple[str, ...] = ()

    def show(
        self,
        message: str | None,
        near: Sequence[NearSpelling] = (),
        *,
        fallbacks: Sequence[str] = (),
    ) -> None:
        """Say `message` (a line of the query's parse, or of the search) and which words no
        paper has; hidden when there is neither. `fallbacks`: shorter ways of saying `message`,
        the first that fits said when it does not."""
        message, near, fallbacks = message or "", tuple(near), tuple(fallbacks)
        if (message, near, fallbacks) != (self.message, self.near, self.fallbacks):
            self.message, self.near, self.fallbacks = message, near, fallbacks
            self.refresh(layout=True)
        self.display = bool(message or near)

    def render(self) -> Content:
        width = self.content_region.width
        forms = (self.message, *self.fallbacks)
        message = next((form for form in forms if cell_len(form) <= width), forms[-1])
        return Content(status_text(message, self.near, width))

"""The line under the search field: what the query could not mean, and words no paper has."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len
from textual.content import Content
from textual.geometry import Size
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


def _bracketed(
    near: Sequence[NearSpelling], shown: int, unmatched: Sequence[tuple[str, str]] = ()
) -> str:
    """The words no paper has, each followed by up to `shown` of its near spellings in
    brackets; the words looked for in the same place said together, after the `unmatched`
    ones ((field, word as said) pairs: words with no near spelling shown)."""
    from paperdeck.core.search.near import named, none_has

    return none_has(
        [
            *unmatched,
            *(
                (
                    item.field,
                    f'"{item.word}"'
                    + (f" (showing {named(item, shown, more='')})" if shown else ""),
                )
                for item in near
            ),
        ]
    )


def _words_forms(near: Sequence[NearSpelling], unmatched: Sequence[Unmatched]) -> list[str]:
    """Ways of saying every word no paper has, longest first. Words with no near spelling
    shown join those with one in a single `no paper has "zzyzx" or "speculatve" (showing
    speculative)`, not one "no paper has" after another."""
    if not unmatched:
        return near_forms(near) if near else [""]
    forms: list[str] = []
    for shown in range(SHOWN_NEAR, -1, -1):
        for which in (1, 2):
            said = [(item[0], item[which]) for item in unmatched]
            forms.append(_bracketed(near, shown, said))
    return list(dict.fromkeys(forms))


SHOWN_NEAR = 3
"""Near spellings said in brackets beside words with none, at most (see near.SHOWN)."""

Unmatched = tuple[str, str, str]
"""A word or phrase no paper has, with nothing shown instead: (field, as said, said shorter)."""


def status_text(
    message: str,
    near: Sequence[NearSpelling],
    width: int,
    unmatched: Sequence[Unmatched] = (),
    extra: Sequence[str] = (),
) -> str:
    """The status in one line of `width` cells: the message, then the longest way of saying
    the words no paper has that fits, then `extra` (a remark, longest form first) in the
    longest form that still fits (cut with an ellipsis if none does)."""
    fits = _one_line(message, near, width, unmatched, extra)
    if fits is not None:
        return fits
    shortest = [message, _words_forms(near, unmatched)[-1], extra[-1] if extra else ""]
    return cut(one_line("; ".join(filter(None, shortest))), max(1, width))


def _one_line(
    message: str,
    near: Sequence[NearSpelling],
    width: int,
    unmatched: Sequence[Unmatched],
    extra: Sequence[str],
) -> str | None:
    for form in _words_forms(near, unmatched):
        for remark in extra or [""]:
            text = one_line("; ".join(filter(None, [message, form, remark])))
            if cell_len(text) <= max(1, width):
                return text
    return None


def status_lines(
    message: str,
    near: Sequence[NearSpelling],
    width: int,
    unmatched: Sequence[Unmatched] = (),
    extra: Sequence[str] = (),
) -> list[str]:
    """The status in one line when some way of saying it fits, else in two: the words no paper
    has on the first, the remark on the second, each whole where it fits (a remark cut off
    was an instruction lost: `≈ titles are made up: drop title: to search abstracts`); with no
    remark, the longest way of saying the words that fits in two lines."""
    fits = _one_line(message, near, width, unmatched, extra)
    if fits is not None:
        return [fits]
    if extra:
        first = status_text(message, near, width, unmatched)
        second = next((r for r in extra if cell_len(one_line(r)) <= width), extra[-1])
        return [first, cut(one_line(second), max(1, width))]
    width = max(1, width)
    texts = [
        one_line("; ".join(filter(None, [message, form]))) for form in _words_forms(near, unmatched)
    ]
    for text in texts:
        lines = textwrap.wrap(text, width)
        if len(lines) <= 2 and all(cell_len(line) <= width for line in lines):
            return lines
    lines = textwrap.wrap(texts[-1], width)
    return [cut(lines[0], width), cut(" ".join(lines[1:]), width)]


class SearchStatus(Widget):
    """Shown only when it has something to say."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.message = ""
        self.near: tuple[NearSpelling, ...] = ()
        self.fallbacks: tuple[str, ...] = ()
        self.unmatched: tuple[Unmatched, ...] = ()
        self.extra: tuple[str, ...] = ()

    def show(
        self,
        message: str | None,
        near: Sequence[NearSpelling] = (),
        *,
        fallbacks: Sequence[str] = (),
        unmatched: Sequence[Unmatched] = (),
        extra: Sequence[str] = (),
    ) -> None:
        """Say `message` (a line of the query's parse, or of the search) and which words no
        paper has (`near`, with what was shown instead; `unmatched`, with nothing); hidden when
        there is nothing to say. `fallbacks`: shorter ways of saying `message`, the first that
        fits said when it does not; `extra`: a remark said last, longest form first."""
        state = (message or "", tuple(near), tuple(fallbacks), tuple(unmatched), tuple(extra))
        if state != (self.message, self.near, self.fallbacks, self.unmatched, self.extra):
            self.message, self.near, self.fallbacks, self.unmatched, self.extra = state
            self.refresh(layout=True)
        self.display = any(state[:2]) or bool(state[3] or state[4])

    def _lines(self, width: int) -> list[str]:
        forms = (self.message, *self.fallbacks)
        message = next((form for form in forms if cell_len(form) <= width), forms[-1])
        return status_lines(message, self.near, width, self.unmatched, self.extra)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._lines(width))

    def render(self) -> Content:
        return Content("\n".join(self._lines(self.content_region.width)))

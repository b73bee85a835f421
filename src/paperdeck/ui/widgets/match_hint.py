"""Why a row matched when its title and authors do not say: its abstract where most words match."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

from rich.cells import cell_len, set_cell_size

from paperdeck.core.text.sanitize import clean_text

if TYPE_CHECKING:
    from paperdeck.core.search.query import Query, Term

TermSpans = Callable[[str], Sequence[Sequence[tuple[int, int]]]]
"""Each term's spans in a text, one list per term."""

BEFORE = 80
"""Characters of the abstract's source kept before the matches shown (a row shows fewer)."""
AFTER = 200
"""Characters kept after the first of them: enough to fill the widest row."""
SPREAD = 160
"""The widest stretch of source looked at as one piece: about what a wide row shows."""
ELLIPSIS = "…"

_SPACES = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Hint:
    """A piece of the abstract, rendered and on one line, with the matches in it."""

    text: str
    spans: tuple[tuple[int, int], ...]
    """Sorted, inside `text`; never empty."""
    cut_before: bool
    """The abstract goes on before `text` (an ellipsis says so)."""
    cut_after: bool
    marks: tuple[Mark, ...] = ()
    """Where each wanted word matches in `text`, in order: what `fit` keeps in view."""


Mark = tuple[int, int, int, float]
"""A match: its start and end, the number of its term and that term's weight (a term the row
lacks outweighs any number of the others; among those, the rarer the heavier)."""


def _flat(text: str) -> str:
    """Clean text on one line, spaces at its ends kept (pieces are joined)."""
    return _SPACES.sub(" ", clean_text(text))


def marks_in(per_term: Sequence[Sequence[tuple[int, int]]], weights: Sequence[float]) -> list[Mark]:
    """Every match of each term (`per_term`: each term's spans), in text order."""
    found = [
        (first, last, number, weights[number])
        for number, spans in enumerate(per_term)
        for first, last in spans
    ]
    found.sort()
    return found


def best_stretch(marks: Sequence[Mark], width: int) -> tuple[int, int] | None:
    """The first and last mark of the stretch at most `width` long whose distinct terms weigh
    the most (the first such stretch on a tie); None without marks."""
    best: tuple[int, int] | None = None
    best_weight = -1.0
    for first, (start, _, _, _) in enumerate(marks):
        seen: dict[int, float] = {}
        last = first
        for at in range(first, len(marks)):
            if at > first and marks[at][1] - start > width:
                break
            seen[marks[at][2]] = marks[at][3]
            last = at
        weight = sum(seen.values())
        if weight > best_weight:
            best, best_weight = (first, last), weight
    return best


def hint_of(abstract: str, each: TermSpans, weights: Sequence[float]) -> Hint | None:
    """The abstract where the weightiest terms match close together, or None when no term
    weighing 1 or more (a term the row lacks) matches in it; `each` finds each term's spans
    in a text, `weights` are the terms' weights."""
    from paperdeck.core.search.spans import merge_spans

    marks = marks_in(each(abstract), weights)
    chosen = best_stretch(marks, SPREAD)
    if chosen is None or max(mark[3] for mark in marks) < 1:
        return None
    first, last = marks[chosen[0]][0], marks[chosen[1]][1]
    start = max(0, first - BEFORE)
    if start:
        # From a word's start, and never inside $...$ (a window would render half a formula).
        space = abstract.find(" ", start, first)
        start = space + 1 if space >= 0 else start
        if abstract.count("$", 0, start) % 2:
            start = max(0, abstract.rfind("$", 0, start))
    end = min(len(abstract), max(last, first + AFTER))
    if end < len(abstract):
        space = abstract.rfind(" ", last, end)
        end = space if space >= 0 else end
        if abstract.count("$", 0, end) % 2:
            closing = abstract.find("$", end)
            end = closing + 1 if 0 <= closing < end + BEFORE else last
    window = abstract[start:end]
    text = _flat(_rendered(window)).strip()
    per_term = each(text)
    if not any(per_term):
        # The rendering lost the matched word (a macro's name): the source as it is.
        text = _flat(window).strip()
        per_term = each(text)
        if not any(per_term):
            return None
    spans = merge_spans(span for found in per_term for span in found)
    marks = marks_in(per_term, weights)
    return Hint(text, tuple(spans), start > 0, end < len(abstract), tuple(marks))


def _rendered(source: str) -> str:
    from paperdeck.core.text.render import render_abstract

    try:
        return render_abstract(source).text
    except Exception:  # a half-formula the renderer refuses: shown as written
        return source


def fit(hint: Hint, room: int) -> tuple[str, list[tuple[int, int]]]:
    """The hint in at most `room` cells: the stretch of it that fits with the weightiest
    matches (at a narrow room, the rarest word the row lacks), after a little of what comes
    before (a third of the room at most, from a word's start), ellipses where the abstract
    goes on; and the matches' spans in that text."""
    text = hint.text
    first, lead = hint.spans[0][0], room // 3
    chosen = best_stretch(hint.marks, room - 2 * len(ELLIPSIS))
    if chosen is not None:
        first, last = hint.marks[chosen[0]][0], hint.marks[chosen[1]][1]
        # Room for the whole stretch after the lead.
        lead = max(0, min(lead, room - 2 * len(ELLIPSIS) - cell_len(text[first:last])))
    start = 0
    if cell_len(text[:first]) > lead:
        start = first
        cells = 0
        while start > 0 and cells + cell_len(text[start - 1]) <= lead:
            start -= 1
            cells += cell_len(text[start])
        if start:
            space = text.find(" ", start, first)
            start = space + 1 if space >= 0 else first
    prefix = ELLIPSIS if (start > 0 or hint.cut_before) else ""
    body = text[start:]
    left = max(1, room - len(prefix))
    suffix = ELLIPSIS if hint.cut_after else ""
    if cell_len(body) + len(suffix) > left:
        body, suffix = set_cell_size(body, max(0, left - 1)).rstrip(), ELLIPSIS
    offset = len(prefix) - start
    end = len(prefix) + len(body)
    spans = [(max(len(prefix), s + offset), min(end, e + offset)) for s, e in hint.spans]
    return prefix + body + suffix, [(s, e) for s, e in spans if e > s]


class HintUnavailable(Exception):
    """A row's hint could not be worked out now (its abstract unread or empty: a store busy,
    a list still loading); asked again at the row's next paint, never kept as no hint."""


class RowHints(Protocol):
    """What gives each row of a search its hint."""

    def row_hint(
        self, index: int, title: str, authors: str, abstract: Callable[[], str]
    ) -> Hint | None:
        """The hint of paper `index`, with this title and authors (`abstract` reads its
        abstract), or None; `HintUnavailable` when it cannot be told now."""
        ...


class HintFinder:
    """A query's hints: for a paper whose title and authors lack some of its words, the
    abstract where most of its words match close together, those the row lacks first (every
    word of the query drawn as a match there)."""

    def __init__(self, query: Query, found: Mapping[Term, int] | None = None) -> None:
        """`found`: how many papers each term matches (the rarer, the more a hint shows it)."""
        # Imported with the first search, not with the reader (its first paint waits for it).
        from paperdeck.core.search.spans import field_terms, highlighter, term_highlighter

        self.query = query
        terms = field_terms(query, "abstract")
        self._each = term_highlighter(query, "abstract")
        found = found or {}
        # A term the row lacks weighs 1 and outweighs all the others together; the rarer,
        # the heavier; a term typed twice counts once.
        first = {term: number for number, term in reversed(list(enumerate(terms)))}
        self._bonus = [
            1 / (2 + found.get(term, 0)) / (1 + len(terms)) if first[term] == number else 0.0
            for number, term in enumerate(terms)
        ]
        self._in = [
            (highlighter(_single(term), "title"), highlighter(_single(term), "authors"))
            for term in terms
        ]

    def row_hint(
        self, index: int, title: str, authors: str, abstract: Callable[[], str]
    ) -> Hint | None:
        return self.hint(title, authors, abstract)

    def hint(self, title: str, authors: str, abstract: Callable[[], str]) -> Hint | None:
        """The hint of a paper with this title and authors (`abstract` reads its abstract only
        when a word of the query is missing from both), or None; `HintUnavailable` when the
        abstract cannot be read now (or reads empty: a paper shown for a word its row lacks
        has one)."""
        try:
            lacking = [
                not in_title(title) and not (authors and in_authors(authors))
                for in_title, in_authors in self._in
            ]
            if not any(lacking):
                return None
            weights = [
                bonus + (1.0 if lacks and bonus else 0.0)
                for bonus, lacks in zip(self._bonus, lacking, strict=True)
            ]
        except Exception:  # a hint is decoration: never let it break a paint
            return None
        try:
            text = abstract()
        except Exception as error:
            raise HintUnavailable(str(error)) from None
        if not text.strip():
            raise HintUnavailable("no abstract")
        try:
            return hint_of(text, self._each, weights)
        except Exception:
            return None


@lru_cache(maxsize=64)
def _clauses(terms: tuple[Term, ...]) -> Query:
    """A query of these terms, each a clause (the same object for the same terms: the spans'
    highlighters are cached by query)."""
    from paperdeck.core.search.query import Clause, Query

    return Query(" ".join(term.text for term in terms), tuple(Clause((t,)) for t in terms), None)


def _single(term: Term) -> Query:
    return _clauses((term,))

"""Why a row matched when its title and authors do not say: its abstract around the match."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from rich.cells import cell_len, set_cell_size

from paperdeck.core.text.sanitize import clean_text

if TYPE_CHECKING:
    from paperdeck.core.search.query import Query, Term

Highlighter = Callable[[str], Sequence[tuple[int, int]]]

BEFORE = 80
"""Characters of the abstract's source kept before the first match (a row shows fewer)."""
AFTER = 200
"""Characters kept after it: enough to fill the widest row."""
ELLIPSIS = "…"
WINDOWS = (300, 900)
"""The stretches of an abstract searched in turn for its first match (then the rest)."""
OVERLAP = 80
"""Characters each stretch repeats of the one before (longer than a phrase searched for)."""

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


def _flat(text: str) -> str:
    """Clean text on one line, spaces at its ends kept (pieces are joined)."""
    return _SPACES.sub(" ", clean_text(text))


def first_match(abstract: str, highlight: Highlighter) -> tuple[int, int] | None:
    """Where the abstract's first match is: looked for in a first stretch of it, then in the
    rest (most first matches are early; a whole abstract costs several times a stretch)."""
    start = 0
    for size in WINDOWS:
        end = abstract.rfind(" ", start, start + size)
        if start + size >= len(abstract) or end <= start:
            break
        spans = highlight(abstract[start:end])
        if spans:
            return spans[0][0] + start, spans[0][1] + start
        # The next stretch overlaps this one's end: a phrase across it is found whole there.
        start = abstract.find(" ", max(start, end - OVERLAP), end) + 1
    spans = highlight(abstract[start:])
    return (spans[0][0] + start, spans[0][1] + start) if spans else None


def hint_of(abstract: str, highlight: Highlighter, shown: Highlighter | None = None) -> Hint | None:
    """The abstract around its first match, or None when nothing in it matches; `shown`
    finds the matches drawn in that piece (by default, `highlight` does)."""
    found = first_match(abstract, highlight)
    if found is None:
        return None
    first, last = found
    start = max(0, first - BEFORE)
    if start:
        # From a word's start, and never inside $...$ (a window would render half a formula).
        space = abstract.find(" ", start, first)
        start = space + 1 if space >= 0 else start
        if abstract.count("$", 0, start) % 2:
            start = max(0, abstract.rfind("$", 0, start))
    end = min(len(abstract), last + AFTER)
    if end < len(abstract):
        space = abstract.rfind(" ", last, end)
        end = space if space >= 0 else end
        if abstract.count("$", 0, end) % 2:
            closing = abstract.find("$", end)
            end = closing + 1 if 0 <= closing < end + BEFORE else last
    window = abstract[start:end]
    shown = shown or highlight
    text = _flat(_rendered(window)).strip()
    spans = shown(text)
    if not spans:
        # The rendering lost the matched word (a macro's name): the source as it is.
        text = _flat(window).strip()
        spans = shown(text)
        if not spans:
            return None
    return Hint(text, tuple(spans), start > 0, end < len(abstract))


def _rendered(source: str) -> str:
    from paperdeck.core.text.render import render_abstract

    try:
        return render_abstract(source).text
    except Exception:  # a half-formula the renderer refuses: shown as written
        return source


def fit(hint: Hint, room: int) -> tuple[str, list[tuple[int, int]]]:
    """The hint in at most `room` cells: its first match after a little of what comes before
    (a third of the room at most, from a word's start), ellipses where the abstract goes on;
    and the matches' spans in that text."""
    text = hint.text
    first = hint.spans[0][0]
    start = 0
    if cell_len(text[:first]) > room // 3:
        start = first
        cells = 0
        while start > 0 and cells + cell_len(text[start - 1]) <= room // 3:
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


class HintFinder:
    """A query's hints: for a paper whose title and authors lack some of its words, the
    abstract around the first of those (every word of the query drawn as a match there)."""

    def __init__(self, query: Query) -> None:
        # Imported with the first search, not with the reader (its first paint waits for it).
        from paperdeck.core.search.spans import highlighter

        self.query = query
        terms = [term for term in query.positive_terms() if term.field == "any"]
        self._terms = [
            (term, highlighter(_single(term), "title"), highlighter(_single(term), "authors"))
            for term in terms
        ]
        self._shown = highlighter(query, "abstract")

    def hint(self, title: str, authors: str, abstract: Callable[[], str]) -> Hint | None:
        """The hint of a paper with this title and authors (`abstract` reads its abstract only
        when a word of the query is missing from both), or None."""
        try:
            missing = tuple(
                term
                for term, in_title, in_authors in self._terms
                if not in_title(title) and not (authors and in_authors(authors))
            )
            if not missing:
                return None
            from paperdeck.core.search.spans import highlighter

            wanted = highlighter(_clauses(missing), "abstract")
            return hint_of(abstract(), wanted, self._shown)
        except Exception:  # a hint is decoration: never let it break a paint
            return None


@lru_cache(maxsize=64)
def _clauses(terms: tuple[Term, ...]) -> Query:
    """A query of these terms, each a clause (the same object for the same terms: the spans'
    highlighters are cached by query)."""
    from paperdeck.core.search.query import Clause, Query

    return Query(" ".join(term.text for term in terms), tuple(Clause((t,)) for t in terms), None)


def _single(term: Term) -> Query:
    return _clauses((term,))

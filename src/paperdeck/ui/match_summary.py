"""Which words of a search a paper has and where (its title, authors, abstract), and which it
lacks: what the detail pane says first during a search."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from paperdeck.ui.safe_text import cut, one_line

if TYPE_CHECKING:
    from paperdeck.core.search.query import Query, Term

FORM_CELLS = 30
"""The most of a matched form ("errors" for "erors") said."""


@dataclass(frozen=True, slots=True)
class WordsFound:
    """A search's words in one paper."""

    places: tuple[tuple[str, tuple[str, ...]], ...]
    """("title", words), ("authors", ...), ("abstract", ...): where each word matches, as typed
    or, when only another form of it matched, that form and the word typed ("errors (erors)")."""
    missing: tuple[str, ...]
    """The words typed that it does not have."""


def words_found(query: Query, title: str, authors: str, abstract: str) -> WordsFound | None:
    """Where the query's words match in the paper with these texts; None for a query of no
    words (`is:starred`, `like:REF`, a year)."""
    from paperdeck.core.search.spans import field_terms, term_highlighter

    terms = [term for term in query.positive_terms() if term.field in ("any", "title", "author")]
    if not terms:
        return None
    found = dict.fromkeys(terms, False)
    places: list[tuple[str, tuple[str, ...]]] = []
    for place, text in (("title", title), ("authors", authors), ("abstract", abstract)):
        if not text:
            continue
        said: list[str] = []
        place_terms = field_terms(query, place)
        for term, spans in zip(place_terms, term_highlighter(query, place)(text), strict=True):
            if spans and term in found:
                found[term] = True
                said.append(_said(term, text, spans))
        if said:
            places.append((place, tuple(dict.fromkeys(said))))
    # A clause is missing when none of its alternatives is found (`fednl | newton` is there
    # with newton alone).
    missing: list[str] = []
    for clause in query.clauses:
        wanted = [atom for atom in clause.alternatives if atom in found]
        if wanted and not any(found[term] for term in wanted):
            missing.append(" | ".join(_named(term) for term in wanted))
    return WordsFound(tuple(places), tuple(dict.fromkeys(missing)))


def _named(term: Term) -> str:
    """A word as typed; one looked for in one field only with it (`title:adaptive` may well be
    in the abstract)."""
    text = f'"{term.text}"' if term.mode == "phrase" else term.text
    return one_line(text if term.field == "any" else f"{term.field}:{text}")


def _said(term: Term, text: str, spans: Sequence[tuple[int, int]]) -> str:
    """The word as typed, or the form that matched and the word typed when no form starts
    with what was typed (a near spelling, another form of the word, a LaTeX name)."""
    typed = one_line(term.text)
    forms = [one_line(text[start:end]) for start, end in spans]
    wanted = typed.casefold()
    if any(form.casefold().startswith(wanted) for form in forms):
        return typed
    return f"{cut(forms[0], FORM_CELLS)} ({typed})"

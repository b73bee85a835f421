"""Why a search found no paper: a filter on what no paper of the list has, else the query."""

from __future__ import annotations

from paperdeck.core.search.query import Flag, Query, Term, YearRange
from paperdeck.core.search.terms import in_sorted
from paperdeck.core.search.word_index import AUTHORS, WordIndex


def missing_field(index: WordIndex, query: Query) -> tuple[str, str] | None:
    """What no paper of the list has and the filter that asked for it, ("a year", "year:2021"),
    when some clause filters only on such a field; else None."""
    for clause in query.clauses:
        lacked = [_lacked(index, atom) for atom in clause.alternatives]
        if lacked and all(lacked):
            what = " or ".join(dict.fromkeys(item[0] for item in lacked if item))
            typed = " | ".join(item[1] for item in lacked if item)
            return what, typed
    return None


def _lacked(index: WordIndex, atom: Term | YearRange | Flag) -> tuple[str, str] | None:
    if isinstance(atom, Flag) or atom.negated:
        return None
    if isinstance(atom, YearRange):
        if index.years:
            return None
        low = "" if atom.low is None else str(atom.low)
        high = "" if atom.high is None else str(atom.high)
        return "a year", f"year:{low}" if atom.low == atom.high else f"year:{low}..{high}"
    if atom.field == "venue" and not index.venues:
        return "a venue", f"venue:{atom.text}"
    if atom.field == "author" and not index.postings[AUTHORS]:
        return "authors", f"author:{atom.text}"
    return None


PHRASE_TYPED = "a phrase is matched as typed"
DROP_QUOTES = "Drop the quotes to allow typos"


def phrase_word_missing(index: WordIndex, query: Query) -> str | None:
    """A word of a phrase in the query that no paper has ("layred" of "layred sampling"), or
    None: a phrase is matched as typed, a half-remembered one with a typo finds nothing."""
    vocabulary = index.vocabulary
    for term in query.positive_terms():
        if term.mode != "phrase":
            continue
        for word in term.words:
            if not in_sorted(vocabulary, word.lower()):
                return word
    return None


def why_nothing(index: WordIndex, query: Query) -> str | None:
    """The reason, for the reader's empty list: "no paper in this list has a year", or
    'no paper has "layred": a phrase is matched as typed' and how to search with typos."""
    missing = missing_field(index, query)
    if missing is not None:
        return f"no paper in this list has {missing[0]}"
    word = phrase_word_missing(index, query)
    # Two lines: the reader's empty list does not wrap them, and 80 columns cut one.
    return None if word is None else f'no paper has "{word}": {PHRASE_TYPED}\n{DROP_QUOTES}'


def nothing_found(index: WordIndex, query: Query) -> str:
    """One line for `search` on stderr: "no paper in this list has a year (year:2021 matches
    nothing)", else "no paper matches 'zzzqqq'" (and a phrase's word no paper has)."""
    missing = missing_field(index, query)
    if missing is None:
        said = f"no paper matches {query.text.strip()!r}"
        word = phrase_word_missing(index, query)
        if word is None:
            return said
        return f'{said}; no paper has "{word}" ({PHRASE_TYPED}: {DROP_QUOTES.lower()})'
    return f"no paper in this list has {missing[0]} ({missing[1]} matches nothing)"

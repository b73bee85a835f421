"""Why a search found no paper: a filter on what no paper of the list has, else the query."""

from __future__ import annotations

from paperdeck.core.search.query import Flag, Query, Term, YearRange
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


def why_nothing(index: WordIndex, query: Query) -> str | None:
    """The reason, for the reader's empty list: "no paper in this list has a year"."""
    missing = missing_field(index, query)
    return None if missing is None else f"no paper in this list has {missing[0]}"


def nothing_found(index: WordIndex, query: Query) -> str:
    """One line for `search` on stderr: "no paper in this list has a year (year:2021 matches
    nothing)", else "no paper matches 'zzzqqq'"."""
    missing = missing_field(index, query)
    if missing is None:
        return f"no paper matches {query.text.strip()!r}"
    return f"no paper in this list has {missing[0]} ({missing[1]} matches nothing)"

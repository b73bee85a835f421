"""The search query language: parse a query string into terms, phrases, fields and filters."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from paperdeck.core.text.fold import words

TermField = Literal["any", "title", "author", "venue", "note", "tag", "like"]
TermMode = Literal["fuzzy", "exact", "phrase"]
FlagName = Literal["starred", "unread", "reading", "read", "note", "tags"]

_FIELDS: dict[str, TermField] = {
    "title": "title",
    "author": "author",
    "authors": "author",
    "venue": "venue",
    "note": "note",
    "tag": "tag",
    "like": "like",
}
_IS_FLAGS: dict[str, FlagName] = {
    "starred": "starred",
    "unread": "unread",
    "reading": "reading",
    "read": "read",
}
_HAS_FLAGS: dict[str, FlagName] = {"note": "note", "notes": "note", "tag": "tags", "tags": "tags"}
_FIELD_PREFIX = re.compile(r"([A-Za-z]+):")
_YEAR = re.compile(r"(\d{4})?(?:\.\.(\d{4})?)?")
_FILLER_WORDS = (
    "a an the and or of for to in on at by with from into via as is are its our their how "
    "what when why can towards toward using"
)
FILLERS = frozenset(_FILLER_WORDS.split())
"""Words a search box should not require: typed plainly among others they are left out."""


@dataclass(frozen=True, slots=True)
class Term:
    """Words to find: a plain term (typo-tolerant, prefix), an exact substring or a phrase."""

    text: str
    """The term as typed, without its operators."""
    words: tuple[str, ...]
    """Its folded words; lower-case unless case_sensitive."""
    mode: TermMode
    field: TermField
    case_sensitive: bool
    negated: bool = False
    prefix: bool = True
    """Whether its last word may be a word start: only in the query's last term, the one
    being typed, while nothing is typed after it (and in an excluded one). A finished word is
    matched as a word, its other forms and typos: `coin` of `coin sampling`, or of `coin `
    with a space typed after it, no longer finds `coincide`."""
    typos: bool = True
    """Whether near spellings of its word match it. The search decides, by the papers' words
    (a short word they have takes none), so highlighting marks only what the search used."""


@dataclass(frozen=True, slots=True)
class YearRange:
    """`year:2026` (low == high) or `year:2020..2023`; an open end is None."""

    low: int | None
    high: int | None
    negated: bool = False


@dataclass(frozen=True, slots=True)
class Flag:
    """`is:starred`, `is:unread`, `is:reading`, `is:read`, `has:note`, `has:tags`."""

    name: FlagName
    negated: bool = False


Atom = Term | YearRange | Flag


@dataclass(frozen=True, slots=True)
class Clause:
    """Alternatives joined by `|`: a paper passes when any of them does."""

    alternatives: tuple[Atom, ...]


@dataclass(frozen=True, slots=True)
class Query:
    """A parsed query: every clause must pass. No clauses means no filter."""

    text: str
    clauses: tuple[Clause, ...]
    message: str | None
    """One line saying what could not be parsed and how it was read, else None."""
    typed: tuple[Clause, ...] | None = None
    """Every clause as typed, when filler words ("for", "the") were left out of `clauses`."""

    def positive_terms(self) -> list[Term]:
        """The terms a match must contain (for ranking and highlighting), in query order."""
        return _positive(self.clauses)

    def typed_terms(self) -> list[Term]:
        """The positive terms as typed, filler words included (for words side by side)."""
        return _positive(self.clauses if self.typed is None else self.typed)


def _positive(clauses: tuple[Clause, ...]) -> list[Term]:
    return [
        atom
        for clause in clauses
        for atom in clause.alternatives
        if isinstance(atom, Term) and not atom.negated
    ]


@dataclass(frozen=True, slots=True)
class _Or:
    """A `|` between two atoms."""


def parse_query(text: str) -> Query:
    """Parse `text`; anything unparseable is read literally or skipped, and said in `message`."""
    messages: list[str] = []
    items: list[Atom | _Or] = []
    filler_at: list[int] = []
    pos, end = 0, len(text)
    atom_end = -1
    while pos < end:
        if text[pos].isspace():
            pos += 1
            continue
        token_end = _token_end(text, pos)
        if text[pos:token_end] == "|":
            items.append(_Or())
            pos = token_end
            continue
        start = pos
        atom, pos = _parse_atom(text, pos, messages)
        if atom is not None:
            if _is_filler(atom, text[start:pos]):
                filler_at.append(len(items))
            items.append(atom)
            atom_end = pos
    # The last term is still being typed only when it ends the text (an unclosed phrase
    # reaches the end with the space typed after its last word).
    typing = atom_end == end and not text[end - 1].isspace()
    items = _finished(items, typing)
    fillers = [items[at] for at in filler_at]
    clauses = _group(items)
    message = "; ".join(dict.fromkeys(messages)) if messages else None
    kept = tuple(
        clause
        for clause in clauses
        if not (len(clause.alternatives) == 1 and any(a is clause.alternatives[0] for a in fillers))
    )
    if fillers and kept and len(kept) < len(clauses):
        return Query(text=text, clauses=kept, message=message, typed=clauses)
    return Query(text=text, clauses=clauses, message=message)


def _finished(items: list[Atom | _Or], typing: bool) -> list[Atom | _Or]:
    """The items with every plain term made whole words (`Term.prefix`) but the last one
    while it is `typing`: a word with anything typed after it, a space too, is finished. An
    excluded term keeps its word starts (`!gen` hides the papers with `generative`, wherever
    it is typed)."""
    last = len(items) - 1 if typing else -1
    return [
        replace(item, prefix=False)
        if at != last and isinstance(item, Term) and item.mode == "fuzzy" and not item.negated
        else item
        for at, item in enumerate(items)
    ]


def _is_filler(atom: Atom, typed: str) -> bool:
    """Whether an atom is a filler word typed plainly: not in quotes, after a field or `'`,
    negated or in capitals (`OR`, `IS`)."""
    return (
        isinstance(atom, Term)
        and atom.text == typed
        and atom.mode == "fuzzy"
        and atom.field == "any"
        and not atom.negated
        and not (typed.isupper() and len(typed) > 1)
        and all(word.lower() in FILLERS for word in atom.words)
    )


def _token_end(text: str, pos: int) -> int:
    while pos < len(text) and not text[pos].isspace():
        pos += 1
    return pos


def _parse_atom(text: str, pos: int, messages: list[str]) -> tuple[Atom | None, int]:
    negated = text[pos] == "!"
    if negated:
        pos += 1
        if pos >= len(text) or text[pos].isspace():
            messages.append('a lone "!" was ignored (write !word to exclude a word)')
            return None, pos
    field: TermField | Literal["year", "is", "has"] = "any"
    prefix = _FIELD_PREFIX.match(text, pos)
    if prefix is not None:
        name = prefix.group(1).lower()
        if name in _FIELDS:
            field = _FIELDS[name]
            pos = prefix.end()
        elif name in ("year", "is", "has"):
            field = name  # type: ignore[assignment]
            pos = prefix.end()
        else:
            meant = _field_meant(name)
            if meant is not None:
                # Searched as words, as any `word:` (`arXiv:2101`); "titel:transport" matched
                # nothing, and nothing said why.
                messages.append(f"{name}: is not a field (did you mean {meant}:?)")
    if pos < len(text) and text[pos] == '"':
        close = text.find('"', pos + 1)
        if close < 0:
            messages.append('unclosed " read as a phrase to the end of the query')
            body, pos = text[pos + 1 :], len(text)
            # Still being typed: its last word may be a word start, as in a plain term.
            mode: TermMode = "fuzzy"
        else:
            body, pos = text[pos + 1 : close], close + 1
            mode = "phrase"
    else:
        token_end = _token_end(text, pos)
        # An open parenthesis groups a formula to its closing one: `O(n log n)` is one term.
        while text.count("(", pos, token_end) > text.count(")", pos, token_end) and (
            token_end < len(text)
        ):
            token_end = _token_end(text, token_end + 1)
        body, pos = text[pos:token_end], token_end
        mode = "fuzzy"
        if body.startswith("'"):
            body, mode = body[1:], "exact"
    if field == "year":
        return _parse_year(body, negated, messages), pos
    if field in ("is", "has"):
        return _parse_flag(field, body, negated, messages), pos
    folded = tuple(words(body, keep_case=True))
    # Smart case; a lone capital letter (`O` of `O(n)`, typed first) is not worth the cost.
    case_sensitive = any(char.isupper() for char in "".join(folded)) and len("".join(folded)) > 1
    if not case_sensitive:
        folded = tuple(word.lower() for word in folded)
    if not folded:
        return None, pos
    term_field: TermField = field  # type: ignore[assignment]
    return Term(body, folded, mode, term_field, case_sensitive, negated), pos


def _field_meant(name: str) -> str | None:
    """The field a `name:` that is none was a typo of (`titel`: title), or None."""
    if len(name) < 3:
        return None
    from rapidfuzz.distance import OSA

    best: tuple[int, str] | None = None
    for field in (*_FIELDS, "year", "is", "has"):
        allowed = 1 if min(len(name), len(field)) <= 4 else 2
        distance = OSA.distance(name, field, score_cutoff=allowed)
        if distance <= allowed and (best is None or distance < best[0]):
            best = (distance, field)
    return best[1] if best is not None else None


def _parse_year(body: str, negated: bool, messages: list[str]) -> YearRange | None:
    if not body:
        return None
    match = _YEAR.fullmatch(body.strip())
    if match is None or not (match.group(1) or match.group(2)):
        messages.append(f"year:{body} is not a year or range (year:2026, year:2020..2023); ignored")
        return None
    low = int(match.group(1)) if match.group(1) else None
    high = (int(match.group(2)) if match.group(2) else None) if ".." in body else low
    if low is not None and high is not None and low > high:
        low, high = high, low
    return YearRange(low, high, negated)


def _parse_flag(kind: str, body: str, negated: bool, messages: list[str]) -> Flag | None:
    if not body:
        return None
    table = _IS_FLAGS if kind == "is" else _HAS_FLAGS
    name = table.get(body.lower())
    if name is None:
        known = ", ".join(f"{kind}:{key}" for key in table)
        messages.append(f"unknown filter {kind}:{body} (known: {known}); ignored")
        return None
    return Flag(name, negated)


def _group(items: list[Atom | _Or]) -> tuple[Clause, ...]:
    """Clauses of the atoms, `|` joining its neighbours.

    A bar missing a term on one side (`a |`, `| a`, `a | | b`) is ignored without a message:
    the query means what its terms say, and a trailing one is just the next alternative not
    typed yet; a message for the leading one only and not the trailing one would be arbitrary.
    """
    groups: list[list[Atom]] = []
    joining = False
    for item in items:
        if isinstance(item, _Or):
            joining = bool(groups)
            continue
        if joining:
            groups[-1].append(item)
        else:
            groups.append([item])
        joining = False
    return tuple(Clause(tuple(group)) for group in groups)

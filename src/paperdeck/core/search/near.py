"""Query words no paper has, and the near spellings the typo-tolerant search matched instead."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz.distance import OSA

from paperdeck.core.search.query import Query, Term
from paperdeck.core.search.terms import fuzzy_distance, same_stem, spellings_of
from paperdeck.core.search.word_index import AUTHORS, MAX_CHAR, TITLE, WordIndex

_TERM_FIELDS = {"any": (0, 1, 2, 3), "title": (TITLE,), "author": (AUTHORS,)}
"""The fields a plain term is looked for in, by its field (others are not typo-tolerant)."""
NONE_HAS = {"any": "no paper has", "title": "no title has", "author": "no author named"}
"""How a notice begins, by where the word was looked for."""
SHOWN = 3
"""Near spellings a notice names before saying how many more there are."""


@dataclass(frozen=True, slots=True)
class NearSpelling:
    """A word of the query that no paper has (not even as a word start) in the fields it is
    looked for in, and the words the search matched it by instead."""

    word: str
    """The word as folded from the query."""
    near: tuple[str, ...]
    """The near spellings that papers have: other forms of the word first, then by distance,
    then by papers."""
    field: str = "any"
    """Where the word was looked for: "any", "title" or "author"."""


def near_spellings(
    index: WordIndex, parsed: Query, matched: Callable[[Term], Iterable[str]]
) -> tuple[NearSpelling, ...]:
    """Each word of `parsed`'s typo-tolerant terms that only near spellings matched;
    `matched(term)` gives the vocabulary words the search matched a term by."""
    out: list[NearSpelling] = []
    seen: set[str] = set()
    for term in parsed.positive_terms():
        fields = _TERM_FIELDS.get(term.field)
        if term.mode != "fuzzy" or fields is None:
            continue
        lowered = [word.lower() for word in term.words]
        for at, word in enumerate(lowered):
            # Only words a typo-tolerant match is tried for (see TermMatcher._expand).
            if word in seen or len(word) < 4:
                continue
            prefix = term.prefix and at == len(lowered) - 1
            # The word in its other spelling ("decentralised": "decentralized") is the word.
            if any(_has(index, spelled, fields, prefix) for spelled in spellings_of(word)):
                continue
            seen.add(word)
            limit = fuzzy_distance(word)
            # One word in two spellings is one suggestion ("optimisaton": optimization, not
            # also optimisation), named in the spelling more papers have: the search takes
            # either for the other.
            spelt: dict[str, list[tuple[bool, int, int, str]]] = {}
            for other in matched(term):
                if other == word or (prefix and other.startswith(word)):
                    continue
                stem = same_stem(word, other)
                distance = 0 if stem else OSA.distance(word, other)
                papers = _papers(index, other, fields)
                if papers and (stem or distance <= limit):
                    spelt.setdefault(min(spellings_of(other)), []).append(
                        (not stem, distance, -papers, other)
                    )
            # Other forms of the word first (the search ranks them above typos), then the
            # nearest spellings (a swap of two letters is one edit: "domian" is domain), of
            # those the one more papers have.
            ranked = [
                min(spellings, key=lambda each: (each[2], each[3]))[3]
                for spellings in sorted(spelt.values(), key=lambda spellings: min(spellings))
            ]
            if ranked:
                out.append(NearSpelling(word, tuple(ranked), term.field))
    return tuple(out)


def _has(index: WordIndex, word: str, fields: Sequence[int], prefix: bool) -> bool:
    """Whether some paper has `word` (or, with `prefix`, a word starting with it) in `fields`."""
    vocabulary = index.vocabulary
    low = bisect.bisect_left(vocabulary, word)
    high = bisect.bisect_left(vocabulary, word + MAX_CHAR, low) if prefix else low + 1
    for other in vocabulary[low:high]:
        if other != word and not (prefix and other.startswith(word)):
            continue
        if len(fields) == len(index.postings) or _papers(index, other, fields):
            return True
    return False


def _papers(index: WordIndex, word: str, fields: Sequence[int]) -> int:
    """About how many papers have `word` in `fields`: those of the field with the most."""
    return max((len(index.postings[field].get(word) or ()) for field in fields), default=0)


def notice(near: Sequence[NearSpelling], shown: int = SHOWN) -> str:
    """One line saying which words no paper has and what was shown instead:
    `no paper has "reversal"; showing near spellings: reverse, reversed, reversing +2 more`."""
    return "; ".join(
        f'{NONE_HAS[item.field]} "{item.word}"; showing near spellings: {named(item, shown)}'
        for item in near
    )


def none_has(words: Iterable[tuple[str, str]]) -> str:
    """(field, word as said) pairs as one notice, the words looked for in the same place said
    together: `no paper has "domian" or "zebra"; no title has "agregation"`."""
    by_field: dict[str, list[str]] = {}
    for field, said in words:
        by_field.setdefault(field, []).append(said)
    return "; ".join(f"{NONE_HAS[field]} {' or '.join(said)}" for field, said in by_field.items())


def named(item: NearSpelling, shown: int, more: str = " more") -> str:
    """Up to `shown` of a word's near spellings, then how many are left unsaid: `reverse,
    reversed +2 more`."""
    said = ", ".join(item.near[:shown])
    left = len(item.near) - shown
    return f"{said} +{left}{more}" if left > 0 else said

"""Matching one query term against the word index: whole words, word starts, typos, phrases."""

from __future__ import annotations

import bisect
import functools
import operator
import re
import sys
from array import array
from collections import defaultdict
from collections.abc import Collection, Generator, Iterable, Iterator, Mapping, Sequence
from itertools import compress
from typing import TYPE_CHECKING

import Stemmer
from rapidfuzz import process
from rapidfuzz.distance import OSA, Levenshtein

from paperdeck.core.plumbing.recent import Recent
from paperdeck.core.plumbing.slices import Clock, finish
from paperdeck.core.search.query import FILLERS, Term
from paperdeck.core.search.steps import update_steps
from paperdeck.core.search.word_index import (
    ABSTRACT,
    AUTHORS,
    MAX_CHAR,
    METHOD,
    TITLE,
    ReadsAhead,
    WordIndex,
)
from paperdeck.core.text.fold import fold, words

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

# A match in the title or method name outranks one in the authors, which outranks the abstract.
FIELD_WEIGHT = (10.0, 9.0, 7.0, 4.0)
DERIVED_TITLE_WEIGHT = 4.5
"""A title made from the abstract's first sentence is part of the abstract: a match in it
counts little more than one in the abstract (known-item MRR at 5,000 title-less papers: 0.58
with the title's own weight, 0.63 with this one)."""
_DERIVED_FIELDS = frozenset({TITLE, METHOD})
"""A made-up title's method name ("BVR-L-SGD: …") is the abstract's word too: it weighs as the
made-up title does (else a paper naming a common query word in it outranked, below the divider,
one with the query's two rarer words in its title)."""
EXACT, PREFIX, STEM, FUZZY = range(4)
# A whole word outranks a word start, which outranks another form of the word (`distances`
# for `distance`), which outranks a typo-tolerant match; a typo in the title ranks below the
# exact word in an abstract.
KIND_WEIGHT = (10.0, 7.0, 6.0, 3.5)
_STEMMER = Stemmer.Stemmer("english")
"""Snowball's English stemmer: `distances`, `distance` and `distanced` share `distanc`. (Known-
item MRR at 5,000 title-less papers: 0.645 without other forms, 0.665 with them; the same
within 0.003 with their weight anywhere from 4.5 to 8.)"""
_LIKELIER = 20
"""A typo-tolerant match that another match as near the typed word outnumbers this many times in
papers is taken for noise, not searched by (see `TermMatcher._likely`). Known-item MRR with a
typo: 10 lost queries on the 823 list, 50 kept noise that cost some on the 5,000."""
_SHORTEST_TYPED_TYPO = 5
"""Words papers have that are shorter take no typo-tolerant match (as in Meilisearch, where
words under five letters take none); one no paper has still does, as a guess at the word
meant (`cion`: coin). Known-item MRR with a typo at 5,000: 0.622 with no typo under five
letters at all, 0.632 with this."""
_SHORTEST_STEM = 3
"""Words whose stem is shorter match no other forms (`use` is not `us`)."""
_TERM_FIELDS = {"any": (0, 1, 2, 3), "title": (TITLE,), "author": (AUTHORS,)}
_CACHE_SIZE = 8
"""Terms whose hits are kept: typing a query re-evaluates its finished words."""
_READ_AHEAD = 128
"""Papers whose texts a phrase asks for at once (a stored list reads a chunk's together)."""
_WORDS_READ_AHEAD = 128
"""Words whose postings are asked for at once before the clock is: a part of a word ("'ing")
stands for thousands, too many for a stored index to read in one slice."""
_FOLDED_KEPT = 4096
"""Folded texts kept for phrases (~5 MB of abstracts)."""
_ANCHORS_KEPT = 64
"""Words whose runs in the papers checked so far are kept, for phrases (see `_AnchorRuns`)."""


@functools.lru_cache(maxsize=4096)
def stem_of(word: str) -> str:
    """The English stem of a lower-case word (what its other forms share)."""
    stem: str = _STEMMER.stemWord(word)
    return stem


_SPELLINGS = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"(?<=[a-z]{3})is(e|ed|es|ing|ation|ations|er|ers)$", r"iz\1"),
        (r"(?<=[a-z]{3})iz(e|ed|es|ing|ation|ations|er|ers)$", r"is\1"),
        (r"(?<=[a-z]{2})ys(e|ed|es|ing)$", r"yz\1"),
        (r"(?<=[a-z]{2})yz(e|ed|es|ing)$", r"ys\1"),
        (r"(?<=[a-z]{3})our(?=s?$|ed$|ing$|al$|hoods?$|ally$)", "or"),
        (r"(?<=[a-z]{3})or(?=s?$|ed$|ing$|al$|hoods?$|ally$)", "our"),
        (r"(?<=[a-z]{2})tre(s?)$", r"ter\1"),
        (r"(?<=[a-z]{2})ter(s?)$", r"tre\1"),
    )
)
"""British and American spellings of a word ending ("optimisation", "behaviour", "analyse",
"centre"): a list has both, and the user types one."""


@functools.lru_cache(maxsize=4096)
def spellings_of(word: str) -> frozenset[str]:
    """A lower-case word in its British and American spellings, itself included."""
    spellings = {word}
    if len(word) >= 4:
        for pattern, replacement in _SPELLINGS:
            spellings.update(pattern.sub(replacement, each) for each in list(spellings))
    return frozenset(spellings)


@functools.lru_cache(maxsize=4096)
def stems_of(word: str) -> frozenset[str]:
    """The stems of a lower-case word's forms in either spelling (`optimisation`: `optimis`
    and `optim`, the stem of `optimization`), those long enough to match other forms."""
    if len(word) < _SHORTEST_STEM:
        return frozenset()
    stems = (stem_of(each) for each in spellings_of(word))
    return frozenset(stem for stem in stems if len(stem) >= _SHORTEST_STEM)


def same_stem(word: str, other: str) -> bool:
    """Whether `other` is another form of the typed `word`, in either spelling, as the search
    matches it."""
    return other == acronym_form(word) or any(
        other.startswith(stem) and stem_of(other) == stem for stem in stems_of(word)
    )


def acronym_form(word: str) -> str | None:
    """A lower-case word without a vowel (`llm`, `gnns`) in the other number, with a plural
    "s" or without it: the stemmer takes the "s" off only after a vowel, so `llms` and `llm`
    have different stems."""
    if len(word) < _SHORTEST_STEM or any(vowel in word for vowel in "aeiouy"):
        return None
    if word.endswith("s") and len(word) > _SHORTEST_STEM:
        return word[:-1]
    return word + "s"


def fuzzy_distance(word: str) -> int:
    """How many edits a typo-tolerant match of `word` allows: none for short words."""
    if len(word) >= 8:
        return 2
    if len(word) >= 4:
        return 1
    return 0


class TermHits:
    """What one term matched: paper index -> score of its best match, and words it matched."""

    __slots__ = ("_scores", "_size", "column", "matched", "tiers")

    def __init__(
        self,
        scores: dict[int, float] | None,
        matched: frozenset[str] = frozenset(),
        tiers: list[tuple[float, array[int]]] | None = None,
    ) -> None:
        self._scores = scores
        self.matched = matched
        self.tiers = tiers
        """Where known: the postings with their weights that the scores are made of, so that a
        one-term query can be ranked with set operations, without building the scores."""
        self._size = sum(len(docs) for _, docs in tiers) if tiers is not None else len(scores or ())
        self.column: NDArray[np.float32] | None = None
        """Every paper's score as an array, once `arrays.column` has made it."""

    def scores_steps(self, clock: Clock) -> Generator[None, None, dict[int, float]]:
        """Paper -> best weight: weights applied lowest first so that the best one wins."""
        if self._scores is None:
            assert self.tiers is not None
            scores: dict[int, float] = {}
            done = 0
            for weight, docs in sorted(self.tiers, key=lambda item: item[0]):
                scores.update(dict.fromkeys(docs, weight))
                done += len(docs)
                if done > 20000:
                    done = 0
                    if clock.due():
                        yield
                        clock.reset()
            self._scores = scores
        return self._scores

    def has_scores(self) -> bool:
        """Whether the scores are built."""
        return self._scores is not None

    def size_estimate(self) -> int:
        """How many papers matched, or an upper bound where tiers overlap; the same whether
        or not the scores are built, so that a term weighs the same in every search."""
        return self._size

    @property
    def scores(self) -> dict[int, float]:
        """The scores (built now if need be)."""
        return finish(self.scores_steps(Clock()))


class TermMatcher:
    """The papers each term matches in a word index, with a score per paper; the last few
    terms' answers kept."""

    def __init__(self, index: WordIndex) -> None:
        self._index = index
        self._cache: Recent[tuple[object, ...], TermHits] = Recent(_CACHE_SIZE)
        self._anchors: Recent[tuple[int, str, int, int, bool], _AnchorRuns] = Recent(_ANCHORS_KEPT)
        """Per field and word of a phrase: the runs of words around it in the papers checked so
        far (see `_AnchorRuns`): each key of a phrase being typed checks mostly the same papers."""
        self._folded: Recent[tuple[int, int], str] = Recent(_FOLDED_KEPT)
        """Texts that must be folded (LaTeX, other than ASCII), folded with their case, kept as
        one string each (their words as strings of their own took ~20 times the memory): the
        next words of a phrase look at the same papers again (folding is most of the check)."""
        self.arrays_prepared = False
        """Whether numpy was imported for this index (see `Evaluator.arrays_prepared`)."""

    def term_steps(self, term: Term, clock: Clock) -> Generator[None, None, TermHits]:
        key = (term.words, term.mode, term.field, term.case_sensitive, term.negated, term.prefix)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        fields = _TERM_FIELDS.get(term.field, (0, 1, 2, 3))
        lowered = tuple(word.lower() for word in term.words)
        if term.mode == "exact":
            hits = yield from self._exact_term(term, lowered, fields, clock)
        elif len(lowered) > 1 or term.mode == "phrase":
            hits = yield from self._phrase_term(term, lowered, fields, clock)
        else:
            hits = yield from self._word_term(term, lowered[0], fields, clock)
        self._cache[key] = hits
        return hits

    def _paper_runs(
        self, i: int, field: int, word: str, anchor: int, size: int, cased: bool
    ) -> list[tuple[str, ...]]:
        """The runs of `size` folded words of paper `i`'s text in `field` whose word at `anchor`
        is `word`: lower-cased, then (if `cased`) the same words with their case."""
        raw = self._index.field_text(i, field)
        if raw.isascii() and "\\" not in raw:
            # Its folded words are its runs of ASCII letters and digits: no folding.
            low = raw.lower()
            if not cased:
                return _raw_runs(low, low, word, anchor, size)
            return [
                (*(token.lower() for token in run), *run)
                for run in _raw_runs(raw, low, word, anchor, size)
            ]
        key = (i, field)
        folded = self._folded.get(key)
        if folded is None:
            folded = self._folded[key] = fold(raw, keep_case=True)
        # Lower-casing makes and removes no white space: the folded text's words, lower-cased.
        lowered = folded.lower().split()
        tokens = folded.split() if cased else lowered
        runs: list[tuple[str, ...]] = []
        last = len(tokens) - size
        at = -1
        while True:
            try:
                at = lowered.index(word, at + 1)
            except ValueError:
                return runs
            start = at - anchor
            if 0 <= start <= last:
                run = tuple(lowered[start : start + size])
                runs.append((*run, *tokens[start : start + size]) if cased else run)

    def _field_weight(self, field: int, i: int) -> float:
        """How much a match in this field of paper `i` counts."""
        if field in _DERIVED_FIELDS and self._index.derived_titles()[i]:
            return DERIVED_TITLE_WEIGHT
        return FIELD_WEIGHT[field]

    def _weighted(self, field: int, kind: int, docs: array[int]) -> list[tuple[float, array[int]]]:
        """Papers matched in one field as tiers of their weight: a derived title (and its method
        name) weighs less."""
        weight = FIELD_WEIGHT[field] * KIND_WEIGHT[kind]
        if field not in _DERIVED_FIELDS:
            return [(weight, docs)]
        derived = self._index.derived_titles()
        count = self._index.derived_count
        lower = DERIVED_TITLE_WEIGHT * KIND_WEIGHT[kind]
        if count == 0:
            return [(weight, docs)]
        if count == len(derived):
            return [(lower, docs)]
        flags = list(map(derived.__getitem__, docs))
        return [
            (weight, array("I", compress(docs, map(operator.not_, flags)))),
            (lower, array("I", compress(docs, flags))),
        ]

    def _as_typed(self, word: str, prefix: bool, fuzzy: bool) -> list[tuple[int, str]]:
        """Vocabulary words `word` stands for but its near spellings, each with how it
        matched."""
        found: list[tuple[int, str]] = []
        vocabulary = self._index.vocabulary
        at = bisect.bisect_left(vocabulary, word)
        if at < len(vocabulary) and vocabulary[at] == word:
            found.append((EXACT, word))
            at += 1
        if fuzzy:
            # The same word in the other spelling ("quantised" for "quantized") is the word.
            for other in sorted(spellings_of(word) - {word}):
                place = bisect.bisect_left(vocabulary, other)
                if place < len(vocabulary) and vocabulary[place] == other:
                    found.append((EXACT, other))
        if prefix:
            stop = bisect.bisect_left(vocabulary, word + MAX_CHAR, at)
            found.extend((PREFIX, other) for other in vocabulary[at:stop])
        if fuzzy:
            # A form that starts with the word (`hashing` of `hash`) is a word start of it: it
            # ranks the same whether or not the word is finished.
            found.extend(
                (PREFIX if other.startswith(word) else STEM, other)
                for other in self._other_forms(word, found, prefix)
            )
        return found

    def _expand(
        self, word: str, prefix: bool, fuzzy: bool, fields: tuple[int, ...]
    ) -> list[tuple[int, str]]:
        """Vocabulary words `word` stands for in `fields`, each with how it matched."""
        found = self._as_typed(word, prefix, fuzzy)
        # A word papers have, or start with, is taken as typed (or being typed).
        typed = any(kind in (EXACT, PREFIX) for kind, _ in found)
        limit = fuzzy_distance(word) if fuzzy and _typos_allowed(word, typed) else 0
        if limit:
            typos = self._typos(word, limit, [word[:1]])
            if not typos and not found:
                # Nothing at all: perhaps the typo is in the first letter.
                typos = self._typos(
                    word, limit, [first for first in self._index.buckets if first != word[:1]]
                )
            elif not typed:
                # A word no paper has: perhaps its first two letters are swapped (the look
                # above takes those too).
                typos.extend(self._swapped_start(word, limit))
            # Then its near spellings are the papers' typos ("decodin" in an abstract), all
            # kept. Else they are guesses at the word meant.
            meant = [other for other, _ in typos] if typed else self._likely(word, typos, fields)
            # With word starts allowed, a word that starts with this one is one of those.
            have = {other for _, other in found}
            found.extend(
                (FUZZY, other)
                for other in meant
                if not (prefix and other.startswith(word)) and other not in have
            )
        return found

    def takes_typos(self, word: str, prefix: bool) -> bool:
        """Whether a typo-tolerant word (a word start if `prefix`) matches its near spellings,
        as `_expand` decides: highlighting marks only what the search matched."""
        if _typos_allowed(word, typed=True):
            return True  # a long word takes them whether or not papers have it
        return _typos_allowed(word, self._papers_have(word, prefix))

    def _papers_have(self, word: str, prefix: bool) -> bool:
        """Whether `_as_typed` finds `word` as typed (an exact or word-start match), asked
        without expanding it: a short word start spans thousands of words."""
        vocabulary = self._index.vocabulary
        at = bisect.bisect_left(vocabulary, word)
        if at < len(vocabulary) and (
            vocabulary[at] == word or (prefix and vocabulary[at].startswith(word))
        ):
            return True
        if any(in_sorted(vocabulary, other) for other in spellings_of(word) - {word}):
            return True
        return any(other.startswith(word) for other in self._other_forms(word, [], prefix))

    def _other_forms(self, word: str, found: list[tuple[int, str]], prefix: bool) -> list[str]:
        """Vocabulary words with the same stem as `word` (`distance` for `distances`) in either
        spelling (`optimization` for `optimisation`), or its other number if it is an acronym
        (`llm` for `llms`), not already `found`: a title says "learned indexes", the abstract
        "a learned index".

        The words `word` starts (in `found`) bring their other forms too: as `indexes` is
        typed, `indexe` keeps the papers with `index` that the whole word will find.

        A word of three letters has other forms only when finished (`llm` of `llm agents`:
        `llms`): being typed, the words it starts are all found already.
        """
        if len(word) < (4 if prefix else _SHORTEST_STEM):
            return []
        wanted = set(stems_of(word))
        starts = [other for kind, other in found if kind == PREFIX]
        if starts:
            # A stem as long as the word starts with it: its words are among those already.
            wanted.update(stem for stem in _STEMMER.stemWords(starts) if len(stem) < len(word))
        have = {other for _, other in found}
        have.add(word)
        vocabulary = self._index.vocabulary
        forms: list[str] = []
        for stem in sorted(wanted):
            if len(stem) < _SHORTEST_STEM:
                continue
            # A stem starts the words it comes from ("studi" of "studies" aside): only the
            # words starting with it are stemmed, a few hundred at most.
            low = bisect.bisect_left(vocabulary, stem)
            high = bisect.bisect_left(vocabulary, stem + MAX_CHAR, low)
            others = [other for other in vocabulary[low:high] if other not in have]
            for other, its_stem in zip(others, _STEMMER.stemWords(others), strict=True):
                if its_stem == stem:
                    forms.append(other)
                    have.add(other)
        number = acronym_form(word)
        if number is not None and number not in have and in_sorted(vocabulary, number):
            forms.append(number)
        return forms

    def _typos(self, word: str, limit: int, firsts: list[str]) -> list[tuple[str, int]]:
        """Words within `limit` edits of `word` (not itself), among those starting with `firsts`,
        each with its distance (a swap of two letters next to each other is one edit).

        Filler words are left out: "with" is one edit from "width" and in nearly every
        abstract, so taking it for a typo matched almost the whole list."""
        found: list[tuple[str, int]] = []
        for first in firsts:
            bucket = self._index.buckets.get(first)
            if bucket is None:
                continue
            group, starts = bucket
            low = starts[min(len(starts) - 1, max(0, len(word) - limit))]
            high = starts[min(len(starts) - 1, len(word) + limit + 1)]
            if high > low:
                found.extend(
                    (other, int(distance))
                    for other, distance, _ in process.extract(
                        word, group[low:high], scorer=OSA.distance, score_cutoff=limit, limit=None
                    )
                    if other != word and other not in FILLERS
                )
        return found

    def _swapped_start(self, word: str, limit: int) -> list[tuple[str, int]]:
        """Words within `limit` edits of `word` one of which swaps its first two letters
        ("potimistic": optimistic), with their distance: the commonest typo, which takes the
        word out of its first letter's bucket."""
        if len(word) < 3 or word[0] == word[1]:
            return []
        swapped = word[1] + word[0] + word[2:]
        vocabulary = self._index.vocabulary
        low = bisect.bisect_left(vocabulary, swapped[:2])
        high = bisect.bisect_left(vocabulary, swapped[:2] + MAX_CHAR, low)
        return [
            (other, int(distance) + 1)
            for other, distance, _ in process.extract(
                swapped,
                vocabulary[low:high],
                scorer=OSA.distance,
                score_cutoff=limit - 1,
                limit=None,
            )
            if len(other) >= 3 and other not in FILLERS
        ]

    def _likely(
        self, word: str, typos: list[tuple[str, int]], fields: tuple[int, ...]
    ) -> list[str]:
        """The typo-tolerant matches to search by: not one that far fewer papers have in
        `fields` than another as near the typed word or nearer ("domian" is domain, in
        hundreds of abstracts, not the author name Dorian: his bandit paper ranked above them).
        A swap of two letters is kept: the commonest typo."""
        if len(typos) < 2:
            return [other for other, _ in typos]
        index = self._index
        for field in fields:
            index.read_postings_ahead(field, (other for other, _ in typos))
        papers = {
            other: max(len(index.postings[field].get(other) or ()) for field in fields)
            for other, _ in typos
        }
        unlikely: set[str] = set()
        most = 0
        for other, distance in sorted(typos, key=lambda typo: (typo[1], -papers[typo[0]])):
            most = max(most, papers[other])
            if papers[other] * _LIKELIER < most and not _swaps(word, other, distance):
                unlikely.add(other)
        return [other for other, _ in typos if other not in unlikely]

    def _word_term(
        self, term: Term, word: str, fields: tuple[int, ...], clock: Clock
    ) -> Generator[None, None, TermHits]:
        weighted: list[tuple[float, array[int]]] = []
        if len(word) < 3:
            # One or two letters: a word or (being typed) word start in the short fields, and
            # in the abstract only as a whole word that is not in most abstracts ("rl", not "in").
            expansions = [(EXACT, word)]
            for field in fields:
                exact = self._index.postings[field].get(word)
                if field == ABSTRACT:
                    if exact is not None and len(exact) <= self._index.common_short:
                        weighted.extend(self._weighted(field, EXACT, exact))
                    continue
                if exact is not None:
                    weighted.extend(self._weighted(field, EXACT, exact))
                if not term.prefix:
                    continue
                starts = yield from self._index.word_starts_steps(
                    field, word, clock, as_arrays=self.arrays_prepared
                )
                if starts:
                    weighted.extend(self._weighted(field, PREFIX, starts))
        else:
            # Excluding papers on a guess would hide what the user did not ask to hide.
            expansions = self._expand(
                word, prefix=term.prefix, fuzzy=not term.negated, fields=fields
            )
            # A start of three letters is a word start in every field, abstracts included: as
            # a word is typed, each key must keep every paper the finished word will match.
            for field in fields:
                postings = self._index.postings[field]
                if clock.due():
                    yield
                    clock.reset()
                yield from _read_postings_steps(
                    self._index, field, (other for _, other in expansions), clock
                )
                for kind, other in expansions:
                    docs = postings.get(other)
                    if docs is not None:
                        weighted.extend(self._weighted(field, kind, docs))
            if not term.negated and len(word) >= 6 and all(kind == FUZZY for kind, _ in expansions):
                yield from self._compound(term, word, fields, weighted, clock)
        hits = TermHits(None, frozenset(other for _, other in expansions), weighted)
        if term.case_sensitive:
            yield from hits.scores_steps(clock)
            hits = yield from self._verify(term, hits, fields, clock)
        return hits

    def _compound(
        self,
        term: Term,
        word: str,
        fields: tuple[int, ...],
        weighted: list[tuple[float, array[int]]],
        clock: Clock,
    ) -> Generator[None, None, None]:
        """A word no paper has may be two that one has, hyphenated: `selfsupervised`."""
        vocabulary = self._index.vocabulary
        for cut in range(2, len(word) - 1):
            left, right = word[:cut], word[cut:]
            if not (in_sorted(vocabulary, left) and in_sorted(vocabulary, right)):
                continue
            cased = term.words[0]
            pair = Term(
                term.text, (cased[:cut], cased[cut:]), "phrase", term.field, term.case_sensitive
            )
            found = yield from self._phrase_term(pair, (left, right), fields, clock)
            by_weight: defaultdict[float, list[int]] = defaultdict(list)
            for i, score in found.scores.items():
                by_weight[score].append(i)
            weighted.extend((score, array("I", sorted(docs))) for score, docs in by_weight.items())

    def _union(
        self, field: int, matched: Collection[str], clock: Clock
    ) -> Generator[None, None, set[int]]:
        """Papers with any of the `matched` words in one field."""
        postings = self._index.postings[field]
        yield from _read_postings_steps(self._index, field, matched, clock)
        docs: set[int] = set()
        for count, other in enumerate(matched):
            found = postings.get(other)
            if found is not None:
                yield from update_steps(docs, found, clock)
            if count & 255 == 255 and clock.due():
                yield
                clock.reset()
        return docs

    def _phrase_term(
        self, term: Term, lowered: tuple[str, ...], fields: tuple[int, ...], clock: Clock
    ) -> Generator[None, None, TermHits]:
        """Words next to each other: a quoted phrase, or a term like `self-supervised`.

        A plain term's words are typo-tolerant and its last word, being typed, is a word
        start ("self-sup"); a quoted phrase takes its words as they are.
        """
        plain = term.mode != "phrase"
        fuzzy = plain and not term.case_sensitive and not term.negated
        last_prefix = plain and term.prefix
        # For each position: the vocabulary words allowed there, with how they match.
        allowed: list[Mapping[str, int]] = []
        for at, word in enumerate(lowered):
            prefix = last_prefix and at == len(lowered) - 1
            if prefix and at and len(word) < 3:
                # One or two letters being typed after the others ("self-s", "top-k"): a
                # word start, told in the runs of words found around the others (their
                # thousands of words are not looked up); as a whole word it matched nearly
                # nothing, and the result went to none and back as the word was typed.
                allowed.append(_Starts(word))
                continue
            kinds: dict[str, int] = {}
            for kind, other in reversed(
                self._expand(word, prefix=prefix, fuzzy=fuzzy, fields=fields)
            ):
                kinds[other] = kind
            allowed.append(kinds)
        size = len(allowed)
        cased = term.case_sensitive
        scores: dict[int, float] = {}
        for field in sorted(fields, key=lambda f: FIELD_WEIGHT[f]):
            candidates: set[int] | None = None
            # Rarest position first: the intersection shrinks fastest.
            for place in sorted(allowed, key=len):
                if isinstance(place, _Starts):
                    continue
                docs = yield from self._union(field, place, clock)
                candidates = docs if candidates is None else candidates & docs
                if not candidates:
                    break
            if not candidates:
                continue
            postings = self._index.postings[field]
            # Runs are looked for around the words of the rarest position in this field (the
            # fewest places to look at: "self", not "s"), but the last: the one being typed,
            # whose rarity changes from key to key (runs kept around one word serve the next).
            anchor = min(
                range(max(1, size - 1)),
                key=lambda at: sum(len(postings.get(word) or ()) for word in allowed[at]),
            )
            by_kind: list[list[int]] = [[] for _ in KIND_WEIGHT]
            for word in allowed[anchor]:
                having = postings.get(word)
                if having is None:
                    continue
                key = (field, word, anchor, size, cased)
                known = self._anchors.get(key)
                if known is None:
                    known = self._anchors[key] = _AnchorRuns()
                unread = candidates.intersection(having)
                unread.difference_update(known.covered)
                ordered = sorted(unread)
                for start in range(0, len(ordered), _READ_AHEAD):
                    batch = ordered[start : start + _READ_AHEAD]
                    self._index.read_ahead(field, batch)
                    for count, i in enumerate(batch):
                        known.add(i, self._paper_runs(i, field, word, anchor, size, cased))
                        if count & 15 == 15 and clock.due():
                            yield
                            clock.reset()
                # Every paper with the phrase around this word is among those checked: its
                # candidates now, those of the keys before (which may match this key too).
                for run, papers in known.runs.items():
                    quality = _run_at(term, allowed, run[:size], run[size:] if cased else None)
                    if quality is not None:
                        by_kind[quality].extend(papers)
                if clock.due():
                    yield
                    clock.reset()
            best: dict[int, int] = {}
            for kind in reversed(range(len(by_kind))):  # the best kind of each paper wins
                best.update(dict.fromkeys(by_kind[kind], kind))
            for i in sorted(best):
                weight = self._field_weight(field, i) * KIND_WEIGHT[best[i]]
                if weight > scores.get(i, 0.0):
                    scores[i] = weight
        return TermHits(scores, frozenset(w for kinds in allowed for w in kinds))

    def _exact_term(
        self, term: Term, lowered: tuple[str, ...], fields: tuple[int, ...], clock: Clock
    ) -> Generator[None, None, TermHits]:
        # Words of the vocabulary that contain each word of the term.
        containing: list[list[str]] = []
        vocabulary = self._index.vocabulary
        for word in lowered:
            found: list[str] = []
            for start in range(0, len(vocabulary), 8192):
                found.extend(other for other in vocabulary[start : start + 8192] if word in other)
                if clock.due():
                    yield
                    clock.reset()
            containing.append(found)
        needle = " ".join(term.words)
        scores: dict[int, float] = {}
        tiers: list[tuple[float, array[int]]] = []
        for field in sorted(fields, key=lambda f: FIELD_WEIGHT[f]):
            candidates: set[int] | None = None
            for matched in sorted(containing, key=len):
                docs = yield from self._union(field, matched, clock)
                candidates = docs if candidates is None else candidates & docs
                if not candidates:
                    break
            if len(term.words) == 1 and not term.case_sensitive:
                # Nothing to check: ranked like a plain term, from its tiers.
                tiers.extend(self._weighted(field, EXACT, array("I", sorted(candidates or ()))))
                continue
            for count, i in enumerate(sorted(candidates or ())):
                text = " " + " ".join(
                    words(self._index.field_text(i, field), keep_case=term.case_sensitive)
                )
                if needle in text:
                    weight = self._field_weight(field, i) * KIND_WEIGHT[EXACT]
                    scores[i] = max(scores.get(i, 0.0), weight)
                if count & 15 == 15 and clock.due():
                    yield
                    clock.reset()
        words_found = frozenset(word for found in containing for word in found)
        if len(term.words) == 1 and not term.case_sensitive:
            return TermHits(None, words_found, tiers)
        return TermHits(scores, words_found)

    def _verify(
        self, term: Term, hits: TermHits, fields: tuple[int, ...], clock: Clock
    ) -> Generator[None, None, TermHits]:
        """Keep papers where a case-sensitive term matches with its case; rescore them."""
        word = term.words[0]
        limit = fuzzy_distance(word)
        scores: dict[int, float] = {}
        for count, i in enumerate(sorted(hits.scores)):
            best = 0.0
            for field in fields:
                text = self._index.field_text(i, field)
                # Folding makes no capitals in ASCII text: the cased word must be there as is,
                # unless a typo-tolerant match is allowed.
                if not text or (not limit and text.isascii() and word not in text):
                    continue
                for token in set(words(text, keep_case=True)):
                    if token == word:
                        kind = EXACT
                    elif (
                        term.prefix
                        and token.startswith(word)
                        and (len(word) >= 3 or field != ABSTRACT)
                    ):
                        kind = PREFIX
                    elif (
                        limit
                        and token.lower() in hits.matched
                        and OSA.distance(token, word) <= limit
                    ):
                        kind = FUZZY
                    else:
                        continue
                    best = max(best, self._field_weight(field, i) * KIND_WEIGHT[kind])
            if best:
                scores[i] = best
            if count & 31 == 31 and clock.due():
                yield
                clock.reset()
        return TermHits(scores, hits.matched)


class _AnchorRuns:
    """The runs of words around one word of a phrase (at one position of a phrase of one
    length) in one field, in the papers checked so far: each distinct run with its papers.

    A key of a phrase being typed checks each run once, not each paper: most papers share
    their runs ("self supervised"), and a paper's text is read once for all the keys.
    """

    __slots__ = ("covered", "runs")

    def __init__(self) -> None:
        self.covered: set[int] = set()
        self.runs: dict[tuple[str, ...], list[int]] = {}

    def add(self, i: int, runs: Iterable[tuple[str, ...]]) -> None:
        """Paper `i`, checked: its runs around the word."""
        self.covered.add(i)
        for run in dict.fromkeys(runs):
            self.runs.setdefault(run, []).append(i)


def _swaps(word: str, other: str, distance: int) -> bool:
    """Whether `other` is `distance` edits from `word` only if two letters next to each other
    are swapped, the commonest typo ("oyur": your, though "our" is in many more papers)."""
    return Levenshtein.distance(word, other, score_cutoff=distance) > distance


def _typos_allowed(word: str, typed: bool) -> bool:
    """Whether near spellings of `word` may match it, given whether papers have it (or a word
    it starts, or another form of it)."""
    # Then its near spellings would be the papers' typos: one letter of four changed is more
    # often another word (`con`, `corn` of `coin`) than a typo.
    return not typed or len(word) >= _SHORTEST_TYPED_TYPO


def _read_postings_steps(
    index: WordIndex, field: int, words: Iterable[str], clock: Clock
) -> Generator[None, None, None]:
    """`index.read_postings_ahead`, a few words at a time between which the slice may end."""
    if not isinstance(index.postings[field], ReadsAhead):
        return  # in memory already
    batch: list[str] = []
    for word in words:
        batch.append(word)
        if len(batch) == _WORDS_READ_AHEAD:
            index.read_postings_ahead(field, batch)
            batch = []
            if clock.due():
                yield
                clock.reset()
    index.read_postings_ahead(field, batch)


def in_sorted(ordered: list[str], word: str) -> bool:
    """Whether `word` is in the sorted list (a vocabulary)."""
    at = bisect.bisect_left(ordered, word)
    return at < len(ordered) and ordered[at] == word


class _Starts(Mapping[str, int]):
    """The words allowed at a phrase's last place when one or two letters of it are typed:
    any word starting with them (EXACT for the letters as a word), without listing them."""

    def __init__(self, start: str) -> None:
        self._start = start

    def get(self, word: str, default: int | None = None) -> int | None:  # type: ignore[override]
        if word == self._start:
            return EXACT
        return PREFIX if word.startswith(self._start) else default

    def __getitem__(self, word: str) -> int:
        found = self.get(word)
        if found is None:
            raise KeyError(word)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(())  # the words are not listed: none is said to be found by name

    def __len__(self) -> int:
        # Sorted last among the places (the rarest first): it narrows nothing by itself.
        return sys.maxsize


def _run_at(
    term: Term,
    allowed: Sequence[Mapping[str, int]],
    tokens: Sequence[str],
    cased: Sequence[str] | None,
) -> int | None:
    """How well the run of words at the start of `tokens` matches, if it does."""
    worst = EXACT
    if len(tokens) < len(allowed):
        return None
    for offset, kinds in enumerate(allowed):
        kind = kinds.get(tokens[offset])
        if kind is None or (cased is not None and not cased[offset].startswith(term.words[offset])):
            return None
        worst = max(worst, kind)
    return worst


_NEXT_WORD = re.compile(r"[^0-9a-z]*([0-9a-z]+)")
"""The next word of a lower-cased ASCII text without LaTeX (its words are its runs of letters
and digits)."""


def _raw_runs(text: str, low: str, word: str, anchor: int, size: int) -> list[tuple[str, ...]]:
    """The runs of `size` words of an ASCII text without LaTeX whose word at `anchor` is
    `word`, from `text` (`low`, lower-cased, is where the words are looked for): such a text's
    folded words are its runs of letters and digits."""
    runs: list[tuple[str, ...]] = []
    end_of_text = len(low)
    at = low.find(word)
    while at >= 0:
        end = at + len(word)
        if (at == 0 or not low[at - 1].isalnum()) and (
            end == end_of_text or not low[end].isalnum()
        ):
            run = _raw_run(text, low, at, end, anchor, size)
            if run is not None:
                runs.append(run)
        at = low.find(word, at + 1)
    return runs


def _raw_run(
    text: str, low: str, at: int, end: int, anchor: int, size: int
) -> tuple[str, ...] | None:
    """The run of `size` words whose word at `anchor` is `text[at:end]`, if the text has
    enough words around it."""
    after: list[str] = []
    pos = end
    for _ in range(size - anchor - 1):
        found = _NEXT_WORD.match(low, pos)
        if found is None:
            return None
        start, pos = found.span(1)
        after.append(text[start:pos])
    before: list[str] = []
    stop = at
    for _ in range(anchor):
        while stop > 0 and not low[stop - 1].isalnum():
            stop -= 1
        start = stop
        while start > 0 and low[start - 1].isalnum():
            start -= 1
        if start == stop:
            return None
        before.append(text[start:stop])
        stop = start
    return (*reversed(before), text[at:end], *after)

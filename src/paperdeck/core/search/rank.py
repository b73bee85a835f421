"""Ranking: combining the clauses' scores into one order, and the phrase-closeness rerank."""

from __future__ import annotations

import functools
import heapq
import itertools
import math
import re
from array import array
from collections import defaultdict
from collections.abc import Generator, Iterable, Mapping, Sequence
from itertools import compress, filterfalse, pairwise, repeat
from operator import add, and_, mul, not_, or_
from typing import Literal, NamedTuple

from paperdeck.core.model import Annotation
from paperdeck.core.plumbing.recent import Generations, Recent
from paperdeck.core.plumbing.slices import Clock
from paperdeck.core.search import arrays
from paperdeck.core.search.arrays import Lookup
from paperdeck.core.search.query import Query
from paperdeck.core.search.ranking import Ranking
from paperdeck.core.search.steps import CHUNK, update_steps
from paperdeck.core.search.terms import TermHits, acronym_form, same_stem, stems_of
from paperdeck.core.search.word_index import ABSTRACT, METHOD, TITLE, WordIndex
from paperdeck.core.text.fold import words

SortMode = Literal["relevance", "list", "noted"]
# Bonus for query words that follow each other in this field, as in the query.
_ADJACENT_BONUS = (30.0, 25.0, 10.0, 12.0)
_RERANK = 300
"""The best this many are reordered by how closely the query's words follow each other."""
_RERANK_ABSTRACT = 40
"""Of those, the best this many are checked in their abstract too."""
FREQUENCY_HEAD = 200
"""The best this many of each group are reordered by how often they use the query's words."""
_TALLIES_KEPT = 32
"""Words whose counts in abstracts are kept (see `TextMemo.tally`)."""
_K1 = 1.2
"""BM25's term-frequency saturation: the third use of a word adds less than the second."""
_B = 0.75
"""BM25's length normalisation: a word used in a short abstract says more."""


def rank_tiers_steps(
    hits: TermHits, excluded: set[int], clock: Clock
) -> Generator[None, None, tuple[list[int], list[float]]]:
    """Best weight first, list order within a weight: set operations, no sort by score."""
    assert hits.tiers is not None
    by_weight: defaultdict[float, list[array[int]]] = defaultdict(list)
    for weight, docs in hits.tiers:
        by_weight[weight].append(docs)
    seen = set(excluded)
    ranked: list[int] = []
    scores: list[float] = []
    for weight in sorted(by_weight, reverse=True):
        tier: set[int] = set()
        for docs in by_weight[weight]:
            yield from update_steps(tier, docs, clock)
        tier -= seen
        seen |= tier
        ranked.extend(sorted(tier))
        scores.extend(repeat(weight, len(tier)))
        if clock.due():
            yield
            clock.reset()
    return ranked, scores


def sorted_all(
    index: WordIndex,
    candidates: Iterable[int],
    annotations: Mapping[str, Annotation] | None,
    sort: SortMode,
) -> list[int]:
    """List order; for "noted", papers with a note first, most recently updated first."""
    if sort != "noted" or not annotations:
        return sorted(candidates)
    wanted = set(candidates)
    noted: list[tuple[float, int]] = []
    for paper_id, entry in annotations.items():
        i = index.ids.get(paper_id)
        if i is not None and i in wanted and entry.note.strip():
            noted.append((-entry.updated, i))
    noted.sort()
    return [i for _, i in noted] + sorted(wanted.difference(i for _, i in noted))


def intersect_steps(
    index: WordIndex, positive: list[tuple[TermHits, float]], excluded: set[int], clock: Clock
) -> Generator[None, None, tuple[list[int], list[tuple[dict[int, float], float]]]]:
    """Papers passing every clause, and each clause's scores for (at least) those papers (in
    the order of `positive`).

    The smallest clause goes first; a large term is then only scored for the papers still
    in the running, which costs one pass over its postings instead of building its scores.
    """
    if not positive:
        kept: list[int] = []
        for start in range(0, len(index), CHUNK):
            kept.extend(filterfalse(excluded.__contains__, index.all[start : start + CHUNK]))
            if clock.due():
                yield
                clock.reset()
        return kept, []
    columns: list[tuple[dict[int, float], float]] = [({}, 0.0)] * len(positive)
    alive: set[int] | None = None
    for at, (hits, weight) in sorted(
        enumerate(positive), key=lambda item: item[1][0].size_estimate()
    ):
        if alive is None:
            scores = yield from hits.scores_steps(clock)
            alive = set(scores).difference(excluded)
        elif hits.tiers is None or hits.has_scores():
            scores = yield from hits.scores_steps(clock)
            alive.intersection_update(scores)
        else:
            scores = {}
            for tier_weight, docs in sorted(hits.tiers, key=lambda item: item[0]):
                scores.update(dict.fromkeys(alive.intersection(docs), tier_weight))
                if clock.due():
                    yield
                    clock.reset()
            alive.intersection_update(scores)
        columns[at] = (scores, weight)
        if clock.due():
            yield
            clock.reset()
    return sorted(alive or ()), columns


def totals_steps(
    candidates: list[int],
    columns: list[tuple[dict[int, float], float]],
    clock: Clock,
) -> Generator[None, None, dict[int, float]]:
    """Each candidate's weighted sum over the columns, a chunk of candidates per slice."""
    totals: dict[int, float] = {}
    for start in range(0, len(candidates), CHUNK):
        chunk = candidates[start : start + CHUNK]
        total: list[float] = [0.0] * len(chunk)
        for scores, weight in columns:
            column = map(scores.__getitem__, chunk)
            if weight != 1.0:
                column = map(mul, column, repeat(weight))
            total = list(map(add, total, column))
        totals.update(zip(chunk, total, strict=True))
        if clock.due():
            yield
            clock.reset()
    return totals


def rerank_steps(
    memo: TextMemo,
    ranked: list[int],
    totals: dict[int, float],
    query: Query,
    clock: Clock,
    depth: int = _RERANK,
    abstracts: int = _RERANK_ABSTRACT,
    taken: Mapping[str, frozenset[str]] | None = None,
) -> Generator[None, None, None]:
    """Reorder the best `depth` by how closely the query's words follow each other in them
    (in their abstract too for the best `abstracts`); `taken`: for a word no paper has (a
    typo), the spellings the search took for it."""
    # As typed: "models for molecules" side by side counts, though "for" is not required.
    terms = [t for t in query.typed_terms() if t.field in ("any", "title", "author")]
    sequence = [word.lower() for t in terms for word in t.words]
    if len(sequence) < 2 or not ranked:
        return
    # A typo side by side counts as what the search took it for: "deep imbalnced" put "We
    # define Deep Imbalanced Regression" 10th of 14, 2nd typed right.
    forms = [tuple(sorted((taken or {}).get(word, ()))) or (word,) for word in sequence]
    # Query words next to each other, in order, each may be a word start.
    word_pairs = list(pairwise(forms))
    # Searched in the folded text after a space: a pattern that starts with its words finds
    # them by a fast scan (one that starts with a look-behind tries every position).
    pairs = [
        re.compile(" " + _either(first) + r"\S* " + _either(second)) for first, second in word_pairs
    ]
    head = ranked[:depth]
    # A list without methods (most) has no method text to read: its pairs cannot be there.
    short = (TITLE, METHOD) if memo.has_words(METHOD) else (TITLE,)
    best = [0.0] * len(head)
    # A pair at a time over the texts of a field: each test is then one call over them all.
    for field in (*short, ABSTRACT):
        papers = head if field != ABSTRACT else head[:abstracts]
        texts = list(map(memo.lowered, papers, repeat(field)))
        if clock.due():
            yield
            clock.reset()
        # Folding an ASCII text only lower-cases it and splits its words: a text without both
        # words of some pair cannot have them side by side.
        maybe = list(map(not_, map(str.isascii, texts)))
        for first, second in word_pairs:
            has_first = map(_has_any, texts, repeat(first))
            both = map(and_, has_first, map(_has_any, texts, repeat(second)))
            maybe = list(map(or_, maybe, both))
        found = [0] * len(texts)
        for count, at in enumerate(compress(range(len(texts)), maybe)):
            if texts[at]:
                folded = memo.folded(papers[at], field)
                found[at] = sum(1 for pattern in pairs if pattern.search(folded))
            if count & 15 == 15 and clock.due():
                yield
                clock.reset()
        weight = _ADJACENT_BONUS[field]
        for at in compress(range(len(texts)), found):
            best[at] = max(best[at], weight * found[at] / len(pairs))
    for i, bonus in zip(head, best, strict=True):
        totals[i] += bonus
    head.sort(key=totals.__getitem__, reverse=True)
    ranked[: len(head)] = head


def _either(words: Sequence[str]) -> str:
    """A pattern for any of `words` (one word: the word alone, as it always was)."""
    if len(words) == 1:
        return re.escape(words[0])
    return "(?:" + "|".join(map(re.escape, words)) + ")"


def _has_any(text: str, words: Sequence[str]) -> bool:
    return any(word in text for word in words)


def favour_coverage(head: list[int], totals: dict[int, float], found: Sequence[set[int]]) -> None:
    """Reorder the best few below the divider by how much of the query each has: its score
    times the square root of the share of the query's words it has (`found`: per word, the
    papers of `head` that have it). One rare word, however often said, then seldom beats a
    paper with two of three, as a user remembering three words of a title expects."""
    if len(found) < 2:
        return
    for i in head:
        totals[i] *= math.sqrt(sum(i in papers for papers in found) / len(found))
    head.sort(key=totals.__getitem__, reverse=True)


def rarity(count: int, found: int) -> float:
    """BM25's weight of a word that `found` of `count` papers have: below the divider, where
    papers miss some words, a paper with the rare ones comes first."""
    found = min(count, found)
    return math.log(1 + (count - found + 0.5) / (found + 0.5))


def partial_steps(
    count: int,
    positive: list[tuple[TermHits, float, bool]],
    excluded: set[int],
    matched_all: Iterable[int],
    clock: Clock,
    prepared: bool,
) -> Generator[None, None, tuple[Ranking[int], Ranking[float], list[Lookup | None]]]:
    """The papers that pass every required clause and some of the optional ones (the query's
    words) but not all of them, best first, with their scores: each scores its weighted sum
    over the clauses it passes, so a paper with the rarer words of the query comes first.

    Also, per clause of `positive`, its scores by paper (None for a required clause).
    `prepared`: see `arrays.pays_off`.
    """
    optional = [(hits, rarity(count, hits.size_estimate())) for hits, _, o in positive if o]
    if arrays.pays_off(sum(hits.size_estimate() for hits, _ in optional), prepared):
        required = [(hits, weight) for hits, weight, o in positive if not o]
        ranked, scores, columns = yield from arrays.partial_steps(
            count, optional, required, (excluded, matched_all), clock
        )
        found = iter(columns)
        return ranked, scores, [next(found) if o else None for _, _, o in positive]
    totals = yield from _partial_totals_steps(positive, optional, excluded, matched_all, clock)
    # Best first; a tie in list order, as the arrays rank it. Only the best few are put in
    # order now: tens of thousands of papers may have some of the words.
    in_order = sorted(totals)
    score_of = totals.__getitem__
    head = heapq.nlargest(FREQUENCY_HEAD, in_order, key=score_of)
    if clock.due():
        yield
        clock.reset()
    made: list[list[int]] = []

    def rest() -> list[int]:
        if not made:
            made.append(sorted(in_order, key=score_of, reverse=True)[len(head) :])
        return made[0]

    lookups: list[Lookup | None] = []
    for hits, _, is_optional in positive:
        lookups.append((yield from _head_lookup(hits, head, clock)) if is_optional else None)
    size = len(totals)
    return (
        Ranking(head, size, rest),
        Ranking(list(map(score_of, head)), size, lambda: list(map(score_of, rest()))),
        lookups,
    )


def _head_lookup(
    hits: TermHits, head: list[int], clock: Clock
) -> Generator[None, None, dict[int, float]]:
    """A clause's scores of the papers `head` it matches (those of its scores already built,
    else from its tiers without building the scores of every paper it matches)."""
    if hits.tiers is None or hits.has_scores():
        scores = yield from hits.scores_steps(clock)
        return {i: scores[i] for i in head if i in scores}
    wanted = set(head)
    found: dict[int, float] = {}
    # Lowest first: a paper in several tiers keeps its best.
    for weight, docs in sorted(hits.tiers, key=lambda item: item[0]):
        found.update(dict.fromkeys(wanted.intersection(docs), weight))
        if clock.due():
            yield
            clock.reset()
    return found


def _partial_totals_steps(
    positive: list[tuple[TermHits, float, bool]],
    weighted: list[tuple[TermHits, float]],
    excluded: set[int],
    matched_all: Iterable[int],
    clock: Clock,
) -> Generator[None, None, dict[int, float]]:
    """`partial_steps`' papers and scores, as dicts (for a few thousand papers)."""
    totals: dict[int, float] = {}
    for hits, weight in weighted:
        added = yield from _weighted_scores_steps(hits, weight, clock)
        if totals:
            both = list(added.keys() & totals.keys())
            for start in range(0, len(both), CHUNK):
                chunk = both[start : start + CHUNK]
                summed = map(add, map(totals.__getitem__, chunk), map(added.__getitem__, chunk))
                added.update(zip(chunk, summed, strict=True))
                if clock.due():
                    yield
                    clock.reset()
            totals.update(added)
        else:
            totals = added
        if clock.due():
            yield
            clock.reset()
    for i in itertools.chain(excluded, matched_all):
        totals.pop(i, None)
    for hits, weight, optional in positive:
        if not optional:
            scores = yield from hits.scores_steps(clock)
            totals = {i: total + weight * scores[i] for i, total in totals.items() if i in scores}
    if clock.due():
        yield
        clock.reset()
    return totals


def _weighted_scores_steps(
    hits: TermHits, weight: float, clock: Clock
) -> Generator[None, None, dict[int, float]]:
    """A clause's scores times `weight`, built from its tiers where it has them (no unweighted
    copy), a chunk per step."""
    weighted: dict[int, float] = {}
    if hits.tiers is not None and not hits.has_scores():
        # Lowest first: a paper in several tiers keeps its best.
        for tier_weight, docs in sorted(hits.tiers, key=lambda item: item[0]):
            for start in range(0, len(docs), CHUNK):
                weighted.update(dict.fromkeys(docs[start : start + CHUNK], tier_weight * weight))
                if clock.due():
                    yield
                    clock.reset()
        return weighted
    scores = yield from hits.scores_steps(clock)
    keys = list(scores)
    for start in range(0, len(keys), CHUNK):
        chunk = keys[start : start + CHUNK]
        weighted.update(
            zip(chunk, map(mul, map(scores.__getitem__, chunk), repeat(weight)), strict=True)
        )
        if clock.due():
            yield
            clock.reset()
    return weighted


class Needle(NamedTuple):
    """What is counted in an abstract for a word clause's frequency."""

    text: str
    """The word, lower-cased ("" for none)."""
    edge: Literal["word", "start", "inside"]
    """Where it counts: as a word or another form of it, as a finished word matches (`just`
    not in "adjust"), at a word's start (the word being typed: `coin` in "coincide") or
    anywhere (an exact substring)."""
    spellings: frozenset[str] = frozenset()
    """For a finished word no paper has (a typo): the spellings the search took for it, each
    counted where it is a word."""


_WORD_REST = re.compile(r"[^\W_]*")
"""The rest of a word from where it is (folded words are runs of letters and digits)."""


@functools.lru_cache(maxsize=256)
def _form_starts(word: str) -> tuple[str, ...]:
    """What a word and its other forms start with: the word, its stems, its other number;
    none that starts with another (each of its words would be looked at twice)."""
    other = acronym_form(word)
    starts = {word, *stems_of(word), *([other] if other else [])}
    return tuple(s for s in starts if not any(s != o and s.startswith(o) for o in starts))


@functools.lru_cache(maxsize=4096)
def _is_form(word: str, other: str) -> bool:
    return other == word or same_stem(word, other)


def count_in(text: str, needle: Needle) -> int:
    """How often `needle` is in `text` (lower-cased), where its edge says."""
    word, edge, spellings = needle
    if edge == "inside":
        return text.count(word)
    starts = (word,) if edge == "start" else tuple(spellings) or _form_starts(word)
    found: set[int] = set()
    for start in starts:
        at = text.find(start)
        while at >= 0:
            end = at + len(start)
            if at and text[at - 1].isalnum():
                at = text.find(start, at + 1)
                continue
            if edge == "word":
                whole = _WORD_REST.match(text, end)
                assert whole is not None
                end = whole.end()
                other = text[at:end]
                if not (other in spellings if spellings else _is_form(word, other)):
                    at = text.find(start, end)
                    continue
            found.add(at)
            at = text.find(start, end)
    return len(found)


def frequency_steps(
    memo: TextMemo,
    ranked: list[int],
    totals: dict[int, float],
    counted: list[tuple[Needle, dict[int, float], float]],
    average_length: float,
    clock: Clock,
) -> Generator[None, None, None]:
    """Reorder the best few by how often they use the query's words (BM25's saturating term
    frequency, shorter abstracts favoured): a paper about a word says it more than once.

    `counted` holds, per word clause, what is counted in a paper's lower-cased abstract, the
    clause's scores and its weight.
    """
    counted = [item for item in counted if item[0].text]
    if not counted:
        return
    head = ranked[:FREQUENCY_HEAD]
    k1, b = _K1, _B
    lowered, length = memo.lowered, memo.abstract_length
    # A word's count in a paper is kept: the next keys count again mostly the same words.
    tallied = [(needle, scores, weight, memo.tally(needle)) for needle, scores, weight in counted]
    memo.read_ahead(head, ABSTRACT)
    for count, i in enumerate(head):
        # Counted in the abstract only: a word found elsewhere is ranked by its field.
        found = [
            (needle, score, weight, tally)
            for needle, scores, weight, tally in tallied
            if (score := scores.get(i)) is not None
        ]
        if found:
            norm = k1 * (1 - b + b * length(i) / average_length)
            extra = 0.0
            text = None
            for needle, score, weight, tally in found:
                tf = tally.get(i)
                if tf is None:
                    if text is None:
                        text = lowered(i, ABSTRACT)
                    tf = tally[i] = count_in(text, needle)
                if tf:
                    extra += weight * score * (tf * (k1 + 1) / (tf + norm) - 1)
            totals[i] += extra
        if count & 31 == 31 and clock.due():
            yield
            clock.reset()
    head.sort(key=totals.__getitem__, reverse=True)
    ranked[: len(head)] = head


class TextMemo:
    """What ranking reads of papers' texts, kept for the next keystrokes: as a query is typed,
    each key re-ranks mostly the same papers for mostly the same words."""

    def __init__(self, index: WordIndex, papers: int = 2048) -> None:
        """Keep the texts of about `papers` papers; those not read for longest go first (all
        at once made the next key read again the texts of the papers it ranks)."""
        self._index = index
        self._papers = papers
        self._lowered: Generations[tuple[int, int], str] = Generations(2 * papers)
        self._folded: Generations[tuple[int, int], str] = Generations(2 * papers)
        self._lengths: Generations[int, int] = Generations(4 * papers)
        self._tallies: Recent[Needle, dict[int, int]] = Recent(_TALLIES_KEPT)

    def has_words(self, field: int) -> bool:
        """Whether some paper has a word in `field` (else its texts need not be read)."""
        return bool(self._index.postings[field])

    def lowered(self, i: int, field: int) -> str:
        """Paper `i`'s text in `field`, lower-cased."""
        key = (i, field)
        text = self._lowered.get(key)
        if text is None:
            text = self._lowered[key] = self._index.field_text(i, field).lower()
        return text

    def read_ahead(self, papers: list[int], field: int) -> None:
        """Make the texts in `field` of those of `papers` not kept quick to ask for next (a
        stored list reads those of a chunk together)."""
        lowered = self._lowered
        self._index.read_ahead(field, [i for i in papers if (i, field) not in lowered])

    def abstract_length(self, i: int) -> int:
        """How many characters paper `i`'s lower-cased abstract has."""
        length = self._lengths.get(i)
        if length is None:
            length = self._lengths[i] = len(self.lowered(i, ABSTRACT))
        return length

    def tally(self, needle: Needle) -> dict[int, int]:
        """How often `needle` is in each paper's lower-cased abstract, of the papers counted
        so far (`frequency_steps` adds those it counts)."""
        counts = self._tallies.get(needle)
        if counts is None or len(counts) > 4 * self._papers:
            counts = self._tallies[needle] = {}
        return counts

    def folded(self, i: int, field: int) -> str:
        """Paper `i`'s text in `field`, folded: each of its words after a space."""
        key = (i, field)
        text = self._folded.get(key)
        if text is None:
            text = self._folded[key] = "".join(
                map(" ".__add__, words(self._index.field_text(i, field)))
            )
        return text

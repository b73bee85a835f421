"""Ranking: combining the clauses' scores into one order, and the phrase-closeness rerank."""

from __future__ import annotations

import re
from array import array
from collections import defaultdict
from collections.abc import Generator, Iterable, Mapping
from itertools import filterfalse, pairwise, repeat
from operator import add, mul
from typing import Literal

from paperdeck.core.model import Annotation
from paperdeck.core.plumbing.slices import Clock
from paperdeck.core.search.query import Query
from paperdeck.core.search.steps import CHUNK, update_steps
from paperdeck.core.search.terms import TermHits
from paperdeck.core.search.word_index import ABSTRACT, METHOD, TITLE, WordIndex
from paperdeck.core.text.fold import words

SortMode = Literal["relevance", "list", "noted"]
# Bonus for query words that follow each other in this field, as in the query.
_ADJACENT_BONUS = (30.0, 25.0, 10.0, 12.0)
_RERANK = 300
"""The best this many are reordered by how closely the query's words follow each other."""
_RERANKABSTRACT = 40
"""Of those, the best this many are checked in their abstract too."""


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
    """Papers passing every clause, and each clause's scores for (at least) those papers.

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
    columns: list[tuple[dict[int, float], float]] = []
    alive: set[int] | None = None
    for hits, weight in sorted(positive, key=lambda item: item[0].size_estimate()):
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
        columns.append((scores, weight))
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
    index: WordIndex, ranked: list[int], totals: dict[int, float], query: Query, clock: Clock
) -> Generator[None, None, None]:
    """Reorder the best few by how closely the query's words follow each other in them."""
    terms = [t for t in query.positive_terms() if t.field in ("any", "title", "author")]
    sequence = [word.lower() for t in terms for word in t.words]
    if len(sequence) < 2 or not ranked:
        return
    # Query words next to each other, in order, each may be a word start.
    pairs = [
        re.compile(r"(?<!\S)" + re.escape(first) + r"\S* " + re.escape(second))
        for first, second in pairwise(sequence)
    ]
    head = ranked[:_RERANK]
    for count, i in enumerate(head):
        bonus = 0.0
        fields = (TITLE, METHOD, ABSTRACT) if count < _RERANKABSTRACT else (TITLE, METHOD)
        for field in fields:
            text = index.field_text(i, field)
            if text:
                folded = " ".join(words(text))
                found = sum(1 for pattern in pairs if pattern.search(folded))
                if found:
                    bonus = max(bonus, _ADJACENT_BONUS[field] * found / len(pairs))
        totals[i] += bonus
        if count & 15 == 15 and clock.due():
            yield
            clock.reset()
    head.sort(key=totals.__getitem__, reverse=True)
    ranked[: len(head)] = head

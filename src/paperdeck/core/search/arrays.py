"""Scores of many papers at once, as arrays: the work of a query that touches most of a big list."""

from __future__ import annotations

from array import array
from collections.abc import Generator, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeAlias

from paperdeck.core.plumbing.slices import Clock
from paperdeck.core.search.ranking import Ranking

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from paperdeck.core.search.terms import TermHits

Lookup: TypeAlias = "Mapping[int, float] | NDArray[np.float32]"
"""A clause's score by paper: a dict of the papers it matches, or a column of every paper's."""
ARRAYS_FROM = 20_000
"""Below the divider, the query's words are scored as arrays once their papers add up to this
many. At 100,000 papers the ~95,000 below the divider of `diffusion models for image
generation` took 50-60 ms as dicts and ~5 ms as arrays; under this, dicts take a few
milliseconds and a process spares numpy's import (~0.1 s)."""
ARRAYS_BEFORE_IMPORT_FROM = 500_000
"""ARRAYS_FROM in a process that has not imported numpy yet (a command's one search): below
this, the dicts take less time than importing numpy does."""
EXACT_HEAD = 300
"""Below the divider, the best this many are ranked by their exact score; the rest by their
score to 1/65,536 of the best one, then in list order (a sort of 16-bit keys: ~1 ms for
95,000 papers where sorting their floats took ~8 ms)."""
_LEVELS = 65535.0


def pays_off(papers: int, prepared: bool) -> bool:
    """Whether clauses whose papers add up to this many are scored as arrays, by an index
    whose numpy was imported by `prepare` (`prepared`) or not (a command's one search)."""
    if prepared:
        return papers >= ARRAYS_FROM
    return papers >= max(ARRAYS_FROM, ARRAYS_BEFORE_IMPORT_FROM)


def prepare(papers: int) -> bool:
    """Import numpy now if queries on this many papers may be scored as arrays: a reader's
    index answers a query per key, and an index not told so scores them all with dicts (see
    `pays_off`). Call it off the event loop: the import takes ~0.1 s. Whether it did."""
    if papers < ARRAYS_FROM:
        return False
    import numpy  # noqa: F401

    return True


def numbers(docs: Iterable[int]) -> NDArray[np.int64] | NDArray[np.uint32]:
    """Paper numbers as an array (an array of 32-bit numbers is read in place)."""
    import numpy as np

    if isinstance(docs, array) and docs.itemsize == 4 and docs.typecode in "IL":
        return np.frombuffer(docs, dtype=np.uint32)
    if isinstance(docs, np.ndarray):
        return docs
    return np.fromiter(docs, dtype=np.int64)


def union(count: int, parts: Sequence[array[int]]) -> array[int] | None:
    """The papers (of `count`) in any of `parts`, ascending; None unless every part is an array
    of 32-bit numbers (as the index builds them)."""
    import numpy as np

    if not all(docs.typecode == "I" and docs.itemsize == 4 for docs in parts):
        return None
    passing = np.zeros(count, dtype=np.bool_)
    passing[np.frombuffer(b"".join(parts), dtype=np.uint32)] = True
    found = array("I")
    found.frombytes(np.flatnonzero(passing).astype(np.uint32).tobytes())
    return found


def by_weight(
    tiers: Sequence[tuple[float, Sequence[int]]],
) -> list[tuple[float, NDArray[np.int64] | NDArray[np.uint32]]]:
    """Tiers' papers by weight, lowest first: one array per weight (a word start's tiers are
    one per word and field, thousands for `gen`; each numpy call costs ~1 µs)."""
    import numpy as np

    grouped: dict[float, list[Sequence[int]]] = {}
    for weight, docs in tiers:
        grouped.setdefault(weight, []).append(docs)
    merged: list[tuple[float, NDArray[np.int64] | NDArray[np.uint32]]] = []
    for weight in sorted(grouped):
        parts = grouped[weight]
        if all(
            isinstance(docs, array) and docs.typecode == "I" and docs.itemsize == 4
            for docs in parts
        ):
            # The arrays' bytes joined (a bytes-like join, in C) are read as one array.
            joined = b"".join(parts)  # type: ignore[arg-type]
            merged.append((weight, np.frombuffer(joined, dtype=np.uint32)))
        else:
            merged.append((weight, np.concatenate([numbers(docs) for docs in parts])))
    return merged


def column(hits: TermHits, count: int) -> NDArray[np.float32]:
    """Per paper, the term's score (0 where it does not match), made once per term."""
    import numpy as np

    made = hits.column
    if made is not None and len(made) == count:
        return made
    scores = np.zeros(count, dtype=np.float32)
    if hits.tiers is not None:
        # Lowest weight first: a paper in several tiers keeps its best.
        for weight, docs in by_weight(hits.tiers):
            scores[docs] = weight
    else:
        found = hits.scores
        scores[numbers(found.keys())] = np.fromiter(found.values(), dtype=np.float32)
    hits.column = scores
    return scores


def members(hits: TermHits, count: int) -> NDArray[np.bool_]:
    """Per paper, whether the clause passes it (a filter's papers may all score 0)."""
    import numpy as np

    passing = np.zeros(count, dtype=np.bool_)
    if hits.tiers is not None:
        for _, docs in by_weight(hits.tiers):
            passing[docs] = True
    else:
        passing[numbers(hits.scores.keys())] = True
    return passing


def partial_steps(
    count: int,
    optional: Sequence[tuple[TermHits, float]],
    required: Sequence[tuple[TermHits, float]],
    outside: Iterable[Iterable[int]],
    clock: Clock,
) -> Generator[None, None, tuple[Ranking[int], Ranking[float], list[NDArray[np.float32]]]]:
    """The papers with some of the `optional` clauses (each weighed by its weight) passing
    every `required` one, none of those in the parts of `outside`: best first, with their
    scores, and each optional clause's column (its papers' scores)."""
    import numpy as np

    total = np.zeros(count)
    columns: list[NDArray[np.float32]] = []
    for hits, weight in optional:
        scores = column(hits, count)
        total += weight * scores.astype(np.float64)
        columns.append(scores)
        if clock.due():
            yield
            clock.reset()
    for part in outside:
        left_out = numbers(part)
        if len(left_out):
            total[left_out] = 0.0
    for hits, weight in required:
        total = np.where(members(hits, count), total + weight * column(hits, count), 0.0)
        if clock.due():
            yield
            clock.reset()
    candidates = np.flatnonzero(total > 0.0)
    ranked, scores_of = ranked_lazily(candidates, total[candidates], EXACT_HEAD)
    return ranked, scores_of, columns


def ranked_lazily(
    candidates: NDArray[np.int64],
    scores: NDArray[np.float64],
    exact: int,
    *,
    exact_rest: bool = False,
) -> tuple[Ranking[int], Ranking[float]]:
    """`candidates` (ascending) best score first, ties in list order: the best `exact` by
    their exact score, the rest by their score to 1/65,536 of the best (by their exact score
    too if `exact_rest`), put in order when first read."""
    import numpy as np

    size = len(candidates)
    if size <= exact:
        order = np.lexsort((np.arange(size), -scores))
        return (
            Ranking(candidates[order].tolist(), size, None),
            Ranking(scores[order].tolist(), size, None),
        )
    # The score of the `exact`-th best: those above it, then as many of its ties as fit.
    threshold = -np.partition(-scores, exact - 1)[exact - 1]
    above = np.flatnonzero(scores > threshold)
    ties = np.flatnonzero(scores == threshold)[: exact - len(above)]
    head = np.concatenate((above, ties))
    head = head[np.lexsort((head, -scores[head]))]
    best = float(scores[head[0]])
    made: list[tuple[list[int], list[float]]] = []

    def rest() -> tuple[list[int], list[float]]:
        if not made:
            rest_mask = np.ones(size, dtype=np.bool_)
            rest_mask[head] = False
            others = np.flatnonzero(rest_mask)
            if exact_rest:
                order = others[np.lexsort((others, -scores[others]))]
            else:
                levels = ((best - scores[others]) * (_LEVELS / best)).astype(np.uint16)
                order = others[np.argsort(levels, kind="stable")]
            made.append((candidates[order].tolist(), scores[order].tolist()))
        return made[0]

    return (
        Ranking(candidates[head].tolist(), size, lambda: rest()[0]),
        Ranking(scores[head].tolist(), size, lambda: rest()[1]),
    )


def head_scores(lookup: Lookup, head: Sequence[int]) -> dict[int, float]:
    """Of the papers `head`, those the clause matches, with their score."""
    if isinstance(lookup, Mapping):
        return {i: lookup[i] for i in head if i in lookup}
    import numpy as np

    values = lookup[np.asarray(head, dtype=np.int64)].tolist()
    return {i: value for i, value in zip(head, values, strict=True) if value}


def intersect_steps(
    count: int,
    positive: Sequence[tuple[TermHits, float, bool]],
    excluded: Iterable[int],
    clock: Clock,
) -> Generator[
    None, None, tuple[NDArray[np.int64], NDArray[np.float64], list[NDArray[np.float32]]]
]:
    """The papers passing every clause but those `excluded`, in list order, and each one's
    weighted sum over the clauses; and each clause's column."""
    import numpy as np

    passing = np.ones(count, dtype=np.bool_)
    columns: list[NDArray[np.float32]] = []
    for hits, _, is_words in positive:
        scores = column(hits, count)
        # A word scores above 0 wherever it matches; a filter's papers may all score 0.
        passing &= scores > 0.0 if is_words else members(hits, count)
        columns.append(scores)
        if clock.due():
            yield
            clock.reset()
    left_out = numbers(excluded)
    if len(left_out):
        passing[left_out] = False
    candidates = np.flatnonzero(passing)
    # Summed for the papers passing alone (a few of a million), in the clauses' order.
    total = np.zeros(len(candidates))
    for (_, weight, _), scores in zip(positive, columns, strict=True):
        total += weight * scores[candidates].astype(np.float64)
    return candidates, total, columns


def rank_tiers(
    count: int, hits: TermHits, excluded: Iterable[int]
) -> tuple[list[int], list[float]] | None:
    """The papers of a term's tiers but those `excluded`: best weight first, list order
    within a weight (a sort of one-byte keys, not of the papers' scores); None if the tiers
    have more weights than a byte tells apart."""
    import numpy as np

    assert hits.tiers is not None
    weights = sorted({weight for weight, _ in hits.tiers}, reverse=True)
    if len(weights) >= 255:
        return None
    rank_of = {weight: at for at, weight in enumerate(weights)}
    keys = np.full(count, 255, dtype=np.uint8)
    # Worst weight first: a paper in several tiers keeps its best.
    for weight, docs in by_weight(hits.tiers):
        keys[docs] = rank_of[weight]
    left_out = numbers(excluded)
    if len(left_out):
        keys[left_out] = 255
    candidates = np.flatnonzero(keys != 255)
    ordered = candidates[np.argsort(keys[candidates], kind="stable")]
    by_rank = np.array(weights, dtype=np.float64)
    return ordered.tolist(), by_rank[keys[ordered]].tolist()

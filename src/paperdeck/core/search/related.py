"""Related papers: the papers that share one paper's (or several papers') rarest words."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from paperdeck.core.model import Annotation
from paperdeck.core.search.word_index import ABSTRACT, METHOD, TITLE, WordIndex
from paperdeck.core.text.fold import words

TERMS = 30
"""The seed's words that are looked for: its rarest (and most used) ones."""
_TOO_COMMON = 20
"""A word in more than 1 in this many papers says little of what a paper is about (and its
papers would cost the most to count)."""
_K1 = 1.2
_B = 0.5
"""BM25's length normalisation, gentler than for a search: a long abstract shares more words
by chance, but also says more."""
_TITLE_BOOST = 2
"""A word of a real title counts as this many uses in the abstract."""
_SHARED_SHOWN = 5
_PLAIN_WORDS = frozenset(
    """
    about above across after again against all almost along also although always among and
    another any are around based because been before being below between both but can cannot
    could does doing done down during each either else even ever every few first for from
    further given had has have having here how however into its itself just last least less
    like made make makes many may might more most much must near need needs neither never new
    not now off often once one only onto other others otherwise our ours out over own per
    perhaps rather same several shall should show shows shown since some such than that the
    their them then there these they third this those though three through thus too toward
    towards two under until upon use used uses using very via was way ways well were what when
    where whether which while who whom whose why will with within without would yet you your
    paper propose proposed approach approaches method methods result results work works
    existing recent recently new novel key main able across remains remain furthermore moreover
    specifically particular particularly typically often significant significantly demonstrate
    demonstrates experiments experimental extensive outperforms state art https http www com
    org github html pdf
    """.split()  # noqa: SIM905 (a list of 200 quoted words is harder to read)
)
"""Words that say how a paper writes, not what it is about: in a short list none is rare
enough for its rarity alone to rule it out."""


@dataclass(frozen=True, slots=True)
class Related:
    """A paper like the seeds, how much, and the seeds' words it shares (rarest first)."""

    index: int
    score: float
    shared: tuple[str, ...]


def like_seeds(
    index: WordIndex, ref: str, annotations: Mapping[str, Annotation] | None
) -> list[int]:
    """The papers `like:REF` starts from: the one with that id, else at that position in the
    list (1-based); the starred ones for `starred`; none when REF names no paper."""
    ref = ref.strip()
    if ref.lower() == "starred":
        return [
            i
            for paper_id, entry in (annotations or {}).items()
            if entry.starred and (i := index.ids.get(paper_id)) is not None
        ]
    seed = index.ids.get(ref)
    if seed is None and ref.isdecimal() and 0 < int(ref) <= len(index):
        seed = int(ref) - 1
    return [] if seed is None else [seed]


def related(index: WordIndex, seeds: Sequence[int], limit: int = 20) -> list[Related]:
    """The papers most like the `seeds` (indices into the index's papers), best first.

    Each seed's words are weighted by how rare they are in the list (BM25's weight) and how
    often the seed uses them; the papers that share the heaviest words come first, a long
    abstract weighed down a little. The seeds themselves are not in the answer.
    """
    count = len(index)
    if not seeds or count < 2:
        return []
    weights: dict[str, float] = {}
    for seed in dict.fromkeys(seeds):
        own = _seed_weights(index, seed, count)
        top = max(own.values(), default=0.0)
        for word, weight in own.items():
            # Each seed counts alike, however long its abstract.
            weights[word] = weights.get(word, 0.0) + weight / top
    chosen = sorted(weights.items(), key=lambda item: (-item[1], item[0]))[:TERMS]
    scores: dict[int, float] = {}
    sharing: dict[int, list[str]] = {}
    fields = (index.postings[TITLE], index.postings[METHOD], index.postings[ABSTRACT])
    for word, weight in chosen:
        papers: set[int] = set()
        for postings in fields:
            papers.update(postings.get(word, ()))
        for paper in papers:
            scores[paper] = scores.get(paper, 0.0) + weight
            sharing.setdefault(paper, []).append(word)
    for seed in seeds:
        scores.pop(seed, None)
    average = index.abstracts.average_length()
    length = index.abstracts.length
    normalised = {
        paper: score * (_K1 + 1) / (1 + _K1 * (1 - _B + _B * length(paper) / average))
        for paper, score in scores.items()
    }
    best = sorted(normalised, key=lambda paper: (-normalised[paper], paper))[:limit]
    return [
        Related(paper, normalised[paper], tuple(sharing[paper][:_SHARED_SHOWN])) for paper in best
    ]


def paper_words(index: WordIndex, paper: int) -> Counter[str]:
    """The words `related` reads of one paper (indices into the index's papers), with how
    often: its abstract's, its method's, and a title's it was given (one made from the
    abstract says nothing more) counted more."""
    entry = index.papers[paper]
    uses = Counter(words(index.abstracts.text(paper)))
    if entry.method:
        uses.update(words(entry.method))
    if not entry.title_derived:
        for word in words(entry.title):
            uses[word] += _TITLE_BOOST
    return uses


def _seed_weights(index: WordIndex, seed: int, count: int) -> dict[str, float]:
    """Each word of one paper: its BM25 rarity in the list times its saturated use count."""
    uses = paper_words(index, seed)
    weights: dict[str, float] = {}
    limit = max(3, count // _TOO_COMMON)
    for word, used in uses.items():
        if len(word) < 3 or word.isdigit() or word in _PLAIN_WORDS:
            continue
        found = max(
            len(index.postings[TITLE].get(word, ())), len(index.postings[ABSTRACT].get(word, ()))
        )
        if found < 2 or found > limit:  # only this paper has it, or most do
            continue
        rarity = math.log(1 + (count - found + 0.5) / (found + 0.5))
        weights[word] = rarity * used * (_K1 + 1) / (used + _K1)
    return weights

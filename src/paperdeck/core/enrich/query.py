"""The few words sent for each paper: its rarest words in the list, and its method's name."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from paperdeck.core.model import Paper
from paperdeck.core.text.fold import fold

WORDS_PER_QUERY = 5
"""Sources AND the words of a query: more words find fewer wrong papers, and fewer right ones."""
MIN_LETTERS = 4
# Words every abstract may use; rarity within one list does not always catch them.
_COMMON = frozenset(
    """
    this that these those with from their there which while where when have been were into than
    then also more most such only both each over under between using used uses based paper
    papers propose proposed proposes present presents show shows shown demonstrate demonstrates
    results approach approaches method methods model models work works however furthermore
    moreover existing novel new first well many much other some large small across without
    within problem problems task tasks data performance state further even through upon given
    """.split()  # noqa: SIM905
)


def queries(papers: Sequence[Paper], count: int = 2) -> dict[str, list[list[str]]]:
    """Paper id -> up to `count` disjoint word lists to send, most telling first.

    A word is telling when few papers of the list use it and this paper uses it more than once:
    a word used once and nowhere else in the list may be a typo of the copy, so it comes last.
    """
    words_of = {paper.id: fold(paper.abstract).split() for paper in papers}
    document_frequency: Counter[str] = Counter()
    for words in words_of.values():
        document_frequency.update(set(words))
    total = max(len(words_of), 1)
    out: dict[str, list[list[str]]] = {}
    for paper in papers:
        counts = Counter(
            word
            for word in words_of[paper.id]
            if len(word) >= MIN_LETTERS and word.isalpha() and word not in _COMMON
        )

        def rank(word: str, counts: Counter[str] = counts) -> tuple[int, float, int, str]:
            frequency = document_frequency[word]
            tier = 0 if counts[word] > 1 else 1 if frequency > 1 else 2
            return (tier, -math.log(total / frequency), -len(word), word)

        ranked = sorted(counts, key=rank)
        method = [
            word
            for word in fold(paper.method or "").split()
            if word.isalnum() and len(word) >= 3 and word not in _COMMON
        ][:2]
        attempts: list[list[str]] = []
        rest = [word for word in ranked if word not in method]
        first = (method + rest)[:WORDS_PER_QUERY]
        if first:
            attempts.append(first)
        for at in range(1, count):
            following = [word for word in rest if word not in first][
                (at - 1) * WORDS_PER_QUERY : at * WORDS_PER_QUERY
            ]
            if following:
                attempts.append(following)
        out[paper.id] = attempts
    return out

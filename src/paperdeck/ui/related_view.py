"""Why a `like:` search lists each paper: the rare words of the paper it started from (its
seed) that the paper shares, shown on its row and in the detail pane."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from paperdeck.ui.widgets.match_hint import Hint, Mark

if TYPE_CHECKING:
    from paperdeck.core.model import Annotation
    from paperdeck.core.search.index import SearchIndex
    from paperdeck.core.search.query import Query
    from paperdeck.core.search.related import Related

SHARES = "shares "
"""Before a related paper's shared words on its row."""
SEED_SAYS = "others share: "
"""Before a seed's words that the papers listed share most, on its row."""
SEED_WORDS = 8
"""The seed's words its row and the detail pane name: those the most papers listed share."""


@dataclass(frozen=True)
class RelatedView:
    """The papers a `like:` search starts from and the words each paper it lists shares."""

    seeds: tuple[int, ...]
    shared: Mapping[int, tuple[str, ...]]
    """Each listed paper's shared words, the rarest in the seeds first."""
    words: tuple[str, ...]
    """Every shared word, those most papers listed share first: what the seeds' rows name."""
    seed_words: Mapping[int, frozenset[str]]
    """Each seed's own words, as `related` read them."""
    starred: bool
    """The seeds are the starred papers (`like:starred`), not papers named by id or number."""

    def words_of(self, index: int) -> tuple[str, ...]:
        """The words to show and highlight for a paper of the list: a seed's are the shared
        words it has (of several seeds, each has its own), those most papers share first."""
        own = self.seed_words.get(index)
        if own is None:
            return self.shared.get(index, ())
        return tuple(word for word in self.words if word in own)[:SEED_WORDS]


def related_view(
    index: SearchIndex,
    parsed: Query,
    annotations: Mapping[str, Annotation] | None,
    answered: Mapping[tuple[int, ...], Sequence[Related]],
) -> RelatedView | None:
    """The view of a query with `like:` in it, or None for one without; `answered`: the
    search's own answers by their seeds (`SearchResult.related`), asked again only for seeds
    it has none for (several `like:` terms together)."""
    from paperdeck.core.search.evaluate import LIKE_LIMIT
    from paperdeck.core.search.related import like_seeds, paper_words, related

    likes = [term for term in parsed.positive_terms() if term.field == "like"]
    if not likes:
        return None
    words = index.word_index
    seeds = tuple(
        dict.fromkeys(seed for term in likes for seed in like_seeds(words, term.text, annotations))
    )
    if not seeds:
        return None
    found = answered.get(seeds)
    if found is None:
        found = related(words, seeds, LIKE_LIMIT)
    counts = Counter(word for like in found for word in like.shared)
    # Most shared first; a tie keeps the order of the first paper's words (the rarest first).
    shared_words = tuple(word for word, _ in counts.most_common())
    own = {seed: frozenset(paper_words(words, seed)) for seed in seeds}
    starred = all(term.text.strip().lower() == "starred" for term in likes)
    shared = {like.index: like.shared for like in found}
    return RelatedView(seeds, shared, shared_words, own, starred)


def words_query(words: tuple[str, ...], typed: Query | None = None) -> Query:
    """A query of these words, to highlight them, and of the words `typed` beside `like:`
    (`like:12 sampling`)."""
    from paperdeck.core.search.query import Query, parse_query

    shared = parse_query(" ".join(words))
    if typed is None:
        return shared
    # A `like:` term highlights nothing; the words typed beside it as they would alone.
    return Query(f"{typed.text} {shared.text}", typed.clauses + shared.clauses, None)


class SharedWordsHints:
    """Rows' hints in a `like:` view: the words each paper shares with the seeds, or on a
    seed's row the words the papers listed share most."""

    def __init__(self, view: RelatedView) -> None:
        self.view = view

    def row_hint(
        self, index: int, title: str, authors: str, abstract: Callable[[], str]
    ) -> Hint | None:
        seed = index in self.view.seeds
        words = self.view.words_of(index)
        if not words:
            return None
        text = SEED_SAYS if seed else SHARES
        marks: list[Mark] = []
        for number, word in enumerate(words):
            if number:
                text += ", "
            marks.append((len(text), len(text) + len(word), number, 1.0))
            text += word
        spans = tuple((start, end) for start, end, _, _ in marks)
        # What to keep in view: the words saying what follows, and the first (rarest) word; a
        # narrow row cuts the others at its end.
        keep: Mark = (0, marks[0][1], 0, 1.0)
        return Hint(text, spans, cut_before=False, cut_after=False, marks=(keep,))

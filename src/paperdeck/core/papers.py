"""The papers of a library as one kind of sequence, in memory or read from the list store."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Literal

from paperdeck.core.model import Paper, title_known

Column = Literal["ids", "titles", "methods", "authors"]
"""A text column of a paper: its id, title, method ("" when none) or authors (", "-joined)."""


class Papers(Sequence[Paper]):
    """Papers in order, with what a caller reads of all of them (ids, titles) or of one of
    them (`text`) without needing the papers themselves: a stored list answers those from
    its columns, without making a paper (store/stored_papers.py)."""

    def text(self, at: int, column: Column) -> str:
        """One text column of paper `at` (see Column)."""
        paper = self[at]
        if column == "ids":
            return paper.id
        if column == "titles":
            return paper.title
        if column == "methods":
            return paper.method or ""
        return ", ".join(paper.authors)

    def title_derived(self, at: int) -> bool:
        """Whether paper `at`'s title was made up from its abstract."""
        return self[at].title_derived

    def ids(self) -> list[str]:
        """Every paper's id, in order."""
        return [paper.id for paper in self]

    def titles(self) -> list[str]:
        """Every paper's title, in order."""
        return [paper.title for paper in self]

    def row_titles(self, start: int = 0) -> Sequence[str | None]:
        """Every paper's title from `start` on as its row shows it, in order, unrendered: a
        made-up title the list cut to fit a row whole when it was kept so (`uncut_title`,
        which a wide row shows on two lines); None for one still to be derived (see
        `model.TitledLater`: it is not derived here)."""
        return [
            (
                paper.uncut_title
                if paper.uncut_title is not None and paper.cut_title
                else paper.title
            )
            if title_known(paper)
            else None
            for paper in itertools.islice(self, start, None)
        ]

    def derived_flags(self, start: int = 0) -> bytes:
        """Per paper from `start` on, 1 when its title was derived from its abstract (as
        `title_derived`)."""
        return bytes(paper.title_derived for paper in itertools.islice(self, start, None))

    def per_paper(self, name: str, make: Callable[[], bytes]) -> bytes:
        """`make()`: one byte per paper, worked out from all of them (what the reader measures
        its rows by); a stored list keeps them under `name` beside itself, made once."""
        return make()

    def numbers(self) -> Mapping[str, int]:
        """Each paper's number (0-based) by its id, the last one's for a repeated id; the ids
        are read when first looked up (a search on a note, a tag or `like:` does, and counting
        the notes of a list; most opens never do)."""
        return _Numbers(self)


class LoadedPapers(list[Paper], Papers):
    """Papers held in memory: a list of them."""


class _Numbers(Mapping[str, int]):
    """`Papers.numbers`: a paper's number by its id, the ids read on the first look-up."""

    def __init__(self, papers: Papers) -> None:
        self._papers = papers
        self._known: dict[str, int] | None = None

    def _numbers(self) -> dict[str, int]:
        if self._known is None:
            self._known = dict(zip(self._papers.ids(), itertools.count()))
        return self._known

    def __getitem__(self, paper_id: str) -> int:
        return self._numbers()[paper_id]

    def get(self, paper_id: str, default: int | None = None) -> int | None:  # type: ignore[override]
        return self._numbers().get(paper_id, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._numbers())

    def __len__(self) -> int:
        # The distinct ids, as iteration yields them: a repeated id is one key.
        return len(self._numbers())

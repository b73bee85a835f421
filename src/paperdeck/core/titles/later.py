"""Made-up titles of papers loaded without them (`model.TitledLater`), derived after their
list is searchable: on helper processes when there are cores for them, given to the papers
as their parts are done."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from paperdeck.core.model import Paper, give_titles, title_known
from paperdeck.core.titles.derive import method_and_titles
from paperdeck.core.titles.parts import Derived, TitleParts

_BATCH = 512
"""Papers given their titles between two calls of `between`."""


def untitled(papers: Sequence[Paper]) -> list[int]:
    """The numbers of the papers whose titles are still to be derived, in order."""
    return [number for number, paper in enumerate(papers) if not title_known(paper)]


def derive_later(papers: Sequence[Paper], between: Callable[[], bool] = lambda: True) -> bool:
    """Give every paper still without its title the one derived from its abstract (a paper
    read meanwhile derives its own, and keeps it). `between` is called between batches and
    every few milliseconds while a helper's answer is awaited: it answers False to stop.
    Whether every title is known at the end."""
    numbers = untitled(papers)
    if not numbers:
        return True
    abstracts = [papers[number].abstract for number in numbers]
    with TitleParts(abstracts, _derived_here, helpers_only=True) as parts:
        for start in range(0, len(numbers), _BATCH):
            stop = min(start + _BATCH, len(numbers))
            steps = parts.derive_steps(start, stop)
            while True:
                if not between():
                    return False
                try:
                    next(steps)
                except StopIteration as done:
                    derived: list[Derived | None] = done.value
                    break
            for number, entry in zip(numbers[start:stop], derived, strict=True):
                if entry is not None:
                    give_titles(papers[number], *entry)
    return True


def _derived_here(abstracts: Sequence[str]) -> list[tuple[str | None, str, str | None]]:
    return [method_and_titles(abstract) for abstract in abstracts]

"""How many rows shown under a view no longer fit it (read, unstarred or unmarked in place)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from paperdeck.core.model import Annotation


class RowsSeen:
    """The rows shown, as a set made once per result (a view's count runs at every r)."""

    def __init__(self) -> None:
        self._rows: Sequence[int] | None = None
        self._set: frozenset[int] = frozenset()

    def of(self, rows: Sequence[int]) -> frozenset[int]:
        if rows is not self._rows:
            self._rows = rows
            self._set = frozenset(rows)
        return self._set


def out_of_view(
    views: Collection[str],
    rows: frozenset[int],
    entries: Mapping[str, Annotation],
    paper_ids: Mapping[str, int],
    marked: Collection[int],
) -> int:
    """Rows of `rows` that the views would drop now: a paper read (or unstarred, unmarked)
    after the search stays in place until the next one, and is not counted as fitting."""
    if not views:
        return 0
    read: set[int] = set()
    starred: set[int] = set()
    # A walk over the notes entries (papers someone acted on), not over every row.
    for paper_id, entry in entries.items():
        number = paper_ids.get(paper_id)
        if number is None or number not in rows:
            continue
        if entry.state == "read":
            read.add(number)
        if entry.starred:
            starred.add(number)
    fits: set[int] | frozenset[int] = rows
    if "starred" in views:
        fits = starred
    if "marked" in views:
        fits = fits & {number for number in marked if number in rows}
    if "unread" in views:
        fits = fits - read
    return len(rows) - len(fits)

"""Where each row of the paper list starts, when rows take one, two or three lines."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate
from operator import itemgetter

DIVIDER = -1
"""What `row_at` says of the divider's line."""


class RowGeometry:
    """Row heights of the shown rows, the line each row starts on, and a divider: one line
    above a given row that belongs to no row.

    Heights are one byte per paper; the shown rows' heights are picked out at C speed, and the
    rows' first lines are added up only when a row far from the top is asked for (a search
    result of 100,000 rows otherwise costs a few milliseconds more than one of uniform height).
    """

    def __init__(self) -> None:
        self.heights = b""
        """One height per shown row."""
        self.uniform: int | None = 1
        """The height of every row when all are the same (then no table of starts is needed)."""
        self.total = 0
        """Lines of all shown rows (and of the divider)."""
        self.divider: int | None = None
        """The row the divider line is drawn above, if any."""
        self._starts: list[int] | None = None

    def set(
        self, paper_heights: bytes | int, rows: Sequence[int], divider: int | None = None
    ) -> None:
        """The rows shown (indices of papers), each paper's height (or one for all), and the
        row to draw a divider above."""
        self._starts = None
        self.divider = divider if divider is not None and 0 <= divider < len(rows) else None
        extra = self.divider is not None
        if isinstance(paper_heights, int):
            self.uniform = paper_heights
            self.heights = b""
            self.total = paper_heights * len(rows) + extra
            return
        if isinstance(rows, range) and rows == range(len(paper_heights)):
            heights = paper_heights
        elif len(rows) == 0:
            heights = b""
        elif len(rows) == 1:
            heights = bytes((paper_heights[rows[0]],))
        else:
            heights = bytes(itemgetter(*rows)(paper_heights))
        self.heights = heights
        self.total = sum(heights) + extra
        self.uniform = heights[0] if heights and heights.count(heights[0]) == len(heights) else None
        if not heights:
            self.uniform = 1

    def _table(self) -> list[int]:
        if self._starts is None:
            self._starts = list(accumulate(self.heights, initial=0))
        return self._starts

    def _top(self, row: int) -> int:
        if self.uniform is not None:
            return row * self.uniform
        return self._table()[row]

    def top(self, row: int) -> int:
        """The first line of `row` (one lower below the divider)."""
        divider = self.divider
        return self._top(row) + (divider is not None and row >= divider)

    def height(self, row: int) -> int:
        """How many lines `row` takes."""
        if self.uniform is not None:
            return self.uniform
        return self.heights[row] if 0 <= row < len(self.heights) else 1

    def row_at(self, line: int) -> tuple[int, int]:
        """The row drawn on `line` and which of its lines that is (DIVIDER, 0 on the divider's
        line)."""
        divider = self.divider
        if divider is not None:
            divider_line = self._top(divider)
            if line == divider_line:
                return DIVIDER, 0
            if line > divider_line:
                line -= 1
        if self.uniform is not None:
            return divmod(line, self.uniform)
        starts = self._table()
        row = bisect_right(starts, line) - 1
        return row, line - starts[row]

"""Time slices: how long a generator works before it yields, so the reader never freezes."""

from __future__ import annotations

import time
from collections.abc import Generator
from typing import Any, TypeVar

_T = TypeVar("_T")

SLICE = 0.005
"""Seconds of work between two yields."""


class Clock:
    """Tells a generator when its current slice has used up its time."""

    def __init__(self) -> None:
        self.start = time.perf_counter()

    def due(self) -> bool:
        return time.perf_counter() - self.start > SLICE

    def reset(self) -> None:
        self.start = time.perf_counter()


def finish(steps: Generator[Any, None, _T]) -> _T:
    """Run a sliced generator to its end at once and return its value."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            result: _T = done.value
            return result

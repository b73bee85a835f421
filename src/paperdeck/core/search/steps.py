"""Slice helpers the index build and query evaluation share: yielding inside long loops."""

from __future__ import annotations

import gc
from array import array
from collections.abc import Generator
from typing import TypeVar

from paperdeck.core.plumbing.slices import Clock

_T = TypeVar("_T")
_Y = TypeVar("_Y")

CHUNK = 16384
"""Papers handled per step of a loop over postings (~1 ms)."""


def update_steps(target: set[int], docs: array[int], clock: Clock) -> Generator[None, None, None]:
    """`target.update(docs)`, in pieces small enough to yield between."""
    if len(docs) <= CHUNK:
        target.update(docs)
    else:
        for start in range(0, len(docs), CHUNK):
            target.update(docs[start : start + CHUNK])
            if clock.due():
                yield
                clock.reset()
    if clock.due():
        yield
        clock.reset()


def without_gc(steps: Generator[_Y, None, None]) -> Generator[_Y, None, None]:
    """Run `steps` with the cyclic collector off during its slices (and on between them).

    The build makes millions of small objects, none in a cycle: the collector would rescan
    them again and again for nothing.
    """
    while True:
        enabled = gc.isenabled()
        gc.disable()
        try:
            progress = next(steps)
        except StopIteration:
            return
        finally:
            if enabled:
                gc.enable()
        yield progress


def as_progress(steps: Generator[None, None, _T], progress: float) -> Generator[float, None, _T]:
    """A generator's slices as progress, for build_steps."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            result: _T = done.value
            return result
        yield progress


def scaled(
    steps: Generator[float, None, _T], low: float, high: float
) -> Generator[float, None, _T]:
    """A generator's progress from 0 to 1 mapped onto `low` to `high`."""
    while True:
        try:
            progress = next(steps)
        except StopIteration as done:
            result: _T = done.value
            return result
        yield low + (high - low) * progress

"""Time slices: how long a generator works before it yields, so the reader never freezes."""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Generator
from concurrent.futures import Future, ThreadPoolExecutor
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


def on_thread(work: Callable[[], _T]) -> Generator[Future[_T], None, _T]:
    """`work` run on another thread, as a step: yields the future of its result once (a
    driver that awaits it, as an event loop can with `asyncio.wrap_future`, does other work
    meanwhile; one that goes straight on waits here), then returns the result or raises."""
    future = _pool().submit(work)
    yield future
    return future.result()


@functools.cache
def _pool() -> ThreadPoolExecutor:
    # Threads kept for the next step: starting one waits for it to run, which takes several
    # turns of the GIL while another thread holds it (a list loading).
    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="paperdeck-step")


class Foreground:
    """A thread that must answer at once (a reader's event loop) says when it is busy; work
    on other threads calls `step_aside` between its slices, which waits while it is (at most
    `patience` seconds: the work goes on, more slowly, under a foreground that never rests).
    Sharing the GIL, each turn of the foreground would otherwise wait for that work's turns.
    """

    def __init__(self, patience: float = 0.05) -> None:
        self._idle = threading.Event()
        self._idle.set()
        self._patience = patience

    @property
    def is_busy(self) -> bool:
        return not self._idle.is_set()

    def busy(self) -> None:
        self._idle.clear()

    def idle(self) -> None:
        self._idle.set()

    def step_aside(self) -> None:
        if not self._idle.is_set():
            self._idle.wait(self._patience)

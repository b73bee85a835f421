"""Time slices: how long a generator works before it yields, so the reader never freezes."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Generator
from concurrent.futures import Future
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
    """`work` run on a thread of its own, as a step: yields the future of its result once (a
    driver that awaits it, as an event loop can with `asyncio.wrap_future`, does other work
    meanwhile; one that goes straight on waits here), then returns the result or raises."""
    future: Future[_T] = Future()

    def run() -> None:
        future.set_running_or_notify_cancel()
        try:
            future.set_result(work())
        except BaseException as error:  # handed to whoever takes the result
            future.set_exception(error)

    threading.Thread(target=run, name="paperdeck-step", daemon=True).start()
    yield future
    return future.result()

"""Method names and derived titles of a long list's abstracts, its later parts derived by helper
processes on spare cores while this process derives the first part."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import IO

from paperdeck.core.plumbing import helper_process
from paperdeck.core.titles.derive import method_and_title

Derived = tuple[str | None, str]
"""A method name (or None) and a derived title."""
ABSTRACTS_PER_PART = 10_000
"""A part this size takes ~0.45 s of one core; starting and feeding a helper ~0.1 s."""
_BATCH = 2048
_PROTOCOL = "paperdeck-titles-1"


DeriveHere = Callable[[Sequence[str]], list[Derived]]
"""Derives abstracts in this process (`method_and_title` of each)."""


def derive_here(abstracts: Sequence[str]) -> list[Derived]:
    """`method_and_title` of each abstract, in order, in this process."""
    return list(map(method_and_title, abstracts))


class TitleParts:
    """`method_and_title` of the abstracts, asked for in ranges, in order (None for an empty
    abstract).

    The helpers start at once, each on its part; the first range asked for in a helper's part
    waits for its answer. A helper that fails has its part derived here instead. Use it in a
    `with` block: leaving it stops the helpers still running.
    """

    def __init__(self, abstracts: Sequence[str], here: DeriveHere = derive_here) -> None:
        self._abstracts = abstracts
        self._here = here
        helpers = helper_process.helper_count(len(abstracts), ABSTRACTS_PER_PART)
        self._ranges = helper_process.plan(len(abstracts), helpers)
        self._helpers = [
            helper_process.HelperProcess(
                f"{__name__}:serve", _request_writer(abstracts[start:stop])
            )
            for start, stop in self._ranges[1:]
        ]
        self._answers: dict[int, list[Derived]] = {}
        self._began = time.monotonic()
        self._own_part = 0.0

    @property
    def helpers(self) -> int:
        """How many helper processes were started."""
        return len(self._helpers)

    def derive(self, start: int, stop: int) -> list[Derived | None]:
        """The methods and titles of abstracts `start` to `stop` (None where one is empty)."""
        derived: list[Derived | None] = []
        for part, (first, last) in enumerate(self._ranges):
            low, high = max(start, first), min(stop, last)
            if low >= high:
                continue
            texts = self._abstracts[low:high]
            if part == 0:
                found = iter(self._here([text for text in texts if text]))
                derived.extend(next(found) if text else None for text in texts)
                if high == last:
                    self._own_part = time.monotonic() - self._began
            else:
                answer = self._answer(part)[low - first : high - first]
                derived.extend(
                    entry if text else None for entry, text in zip(answer, texts, strict=True)
                )
        return derived

    def _answer(self, part: int) -> list[Derived]:
        found = self._answers.get(part)
        if found is None:
            first, last = self._ranges[part]
            patience = helper_process.PATIENCE + 2 * self._own_part
            found = _answer(self._helpers[part - 1].output(patience), last - first)
            if found is None:  # the helper failed: its part is derived here instead
                found = self._here(self._abstracts[first:last])
            self._answers[part] = found
        return found

    def close(self) -> None:
        """Stop the helpers that still run."""
        for helper in self._helpers:
            helper.close()

    def __enter__(self) -> TitleParts:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def _request_writer(abstracts: Sequence[str]) -> helper_process.Writer:
    def write(stream: IO[bytes]) -> None:
        helper_process.write_frame(stream, (_PROTOCOL, len(abstracts)))
        for start in range(0, len(abstracts), _BATCH):
            helper_process.write_frame(stream, list(abstracts[start : start + _BATCH]))

    return write


def _answer(output: bytes | None, count: int) -> list[Derived] | None:
    """The derived titles in a helper's answer; None when there is none or it is damaged."""
    if output is None:
        return None
    derived: list[Derived] = []
    try:
        for frame in helper_process.frames(output):
            if type(frame) is not list:
                return None
            for item in frame:
                if (
                    type(item) is not tuple
                    or len(item) != 2
                    or not (item[0] is None or type(item[0]) is str)
                    or type(item[1]) is not str
                ):
                    return None
                derived.append(item)
    except (ValueError, TypeError, EOFError):
        return None
    return derived if len(derived) == count else None


def serve(source: IO[bytes], target: IO[bytes]) -> int:
    """A helper's work: abstracts in from `source`, a frame at a time, and for each frame
    their methods and titles out to `target`."""
    try:
        head = helper_process.read_frame(source)
        if type(head) is not tuple or len(head) != 2 or head[0] != _PROTOCOL:
            return 2
        done = 0
        while (frame := helper_process.read_frame(source)) is not None:
            if type(frame) is not list or not all(type(text) is str for text in frame):
                return 2
            helper_process.write_frame(target, [method_and_title(text) for text in frame])
            done += len(frame)
    except (ValueError, TypeError, EOFError):
        return 2
    return 0 if done == head[1] else 2

"""Method names and derived titles of many abstracts at once, on several cores when there are
enough of them (~45 µs each: 100,000 take 4.5 s of one core)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import IO

from paperdeck.core.plumbing import helper_process
from paperdeck.core.titles.derive import method_and_title

Derived = tuple[str | None, str]
"""A method name (or None) and a derived title."""
ABSTRACTS_PER_PART = 5_000
"""A part this size takes ~0.2 s; starting and feeding a helper ~40 ms."""
_BATCH = 2048
_PROTOCOL = "paperdeck-titles-1"


def methods_and_titles(abstracts: Sequence[str]) -> list[Derived]:
    """`method_and_title` of each abstract, in order; parts of a long list in helpers."""
    helpers = helper_process.helper_count(len(abstracts), ABSTRACTS_PER_PART)
    ranges = helper_process.plan(len(abstracts), helpers)
    started = [
        helper_process.HelperProcess(f"{__name__}:serve", _request_writer(abstracts[start:stop]))
        for start, stop in ranges[1:]
    ]
    try:
        start, stop = ranges[0] if ranges else (0, 0)
        began = time.monotonic()
        derived = [method_and_title(abstract) for abstract in abstracts[start:stop]]
        patience = helper_process.PATIENCE + 2 * (time.monotonic() - began)
        for helper, (start, stop) in zip(started, ranges[1:], strict=True):
            part = _answer(helper.output(patience), stop - start)
            if part is None:  # the helper failed: its part is derived here instead
                part = [method_and_title(abstract) for abstract in abstracts[start:stop]]
            derived.extend(part)
        return derived
    finally:
        for helper in started:
            helper.close()


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

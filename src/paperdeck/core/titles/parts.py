"""Method names and derived titles of a long list's abstracts, its later parts derived by helper
processes on spare cores while this process derives the first part; the helpers can index their
parts for search too, or only index them (the titles left for later)."""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Generator, Sequence
from types import TracebackType
from typing import IO, TYPE_CHECKING

from paperdeck.core.plumbing import helper_process
from paperdeck.core.plumbing.slices import finish
from paperdeck.core.titles import UNTITLED
from paperdeck.core.titles.derive import method_and_titles

if TYPE_CHECKING:  # a helper that does not index has no use for them
    from paperdeck.core.search.index_parts import Growing

Derived = tuple[str | None, str, str | None]
"""A method name (or None), a derived title, and the title whole when that one is cut
(`method_and_titles`)."""
ABSTRACTS_PER_PART = 2_000
"""The smallest part worth a helper: starting and feeding one costs about what deriving this
many here does. A reader's first open of a few thousand papers gains more than that, as its
own part shares the GIL with the reader's first paint."""
OWN_WEIGHT_INDEXING = 0.8
"""This process's part against a helper's when the helpers index theirs too: besides its
own, this process makes every paper and paints the reader meanwhile."""
_SECONDS_PER_ABSTRACT_AT_MOST = 0.0005
"""Several times what deriving one abstract takes even on a busy core."""
_BATCH = 2048
_PROTOCOL = "paperdeck-titles-4"


DeriveHere = Callable[[Sequence[str]], list[Derived]]
"""Derives abstracts in this process (`method_and_titles` of each)."""


class TitleParts:
    """`method_and_titles` of the abstracts, asked for in ranges, in order (None for an empty
    abstract).

    The helpers start at once, each on its part; the first range asked for in a helper's part
    waits for its answer. A helper that fails has its part derived here instead. With `grown`
    the helpers also index their parts (papers of a plain list: the abstract, the derived
    title and method) and hand their postings to it; `here` tells which ranges are left to
    index in this process. Use it in a `with` block: leaving it stops the helpers still running.

    With `titles` False nothing is derived (`derive` gives None for each abstract): the
    helpers only index their parts for `grown`. With `helpers_only`, when helpers can run at
    all, one runs on each core and this process derives none (its thread stays free for
    what it is doing meanwhile), at a lower priority than this process's.
    """

    def __init__(
        self,
        abstracts: Sequence[str],
        derive_here: DeriveHere,
        grown: Growing | None = None,
        *,
        titles: bool = True,
        helpers_only: bool = False,
    ) -> None:
        self._abstracts = abstracts
        self._derive_here = derive_here
        self._grown = grown
        self._titles = titles
        if grown is None and not titles:
            raise ValueError("a TitleParts that neither derives nor indexes has nothing to do")
        helpers = helper_process.helper_count(len(abstracts), ABSTRACTS_PER_PART)
        weight = OWN_WEIGHT_INDEXING if grown is not None else 1.0
        if helpers_only and helpers:
            helpers, weight = min(helpers + 1, helper_process.MAX_HELPERS), 0.0
        self._ranges = helper_process.plan(len(abstracts), helpers, weight)
        self._helpers = [
            helper_process.HelperProcess(
                f"{__name__}:serve",
                _request_writer(
                    abstracts[start:stop], start if grown is not None else None, titles
                ),
                behind=helpers_only,
            )
            for start, stop in self._ranges[1:]
        ]
        self._answers: dict[int, list[Derived | None]] = {}
        self._indexed: set[int] = set()
        """The parts whose helper's postings went to `grown`."""
        self._began = time.monotonic()
        self._own_part = 0.0

    @property
    def helpers(self) -> int:
        """How many helper processes were started."""
        return len(self._helpers)

    def derive(self, start: int, stop: int) -> list[Derived | None]:
        """The methods and titles of abstracts `start` to `stop` (None where one is empty)."""
        return finish(self.derive_steps(start, stop))

    def derive_steps(self, start: int, stop: int) -> Generator[None, None, list[Derived | None]]:
        """`derive`, yielding every few milliseconds while it waits for a helper's answer."""
        derived: list[Derived | None] = []
        for part, (first, last) in enumerate(self._ranges):
            low, high = max(start, first), min(stop, last)
            if low >= high:
                continue
            if part == 0:
                if self._titles:
                    derived.extend(self._derived_here(self._abstracts[low:high]))
                else:
                    derived.extend([None] * (high - low))
                if high == last:
                    self._own_part = time.monotonic() - self._began
            else:
                answer = yield from self._answer_steps(part)
                derived.extend(answer[low - first : high - first])
        return derived

    def here(self, start: int, stop: int) -> list[tuple[int, int]]:
        """The ranges of `start` to `stop` that no helper indexed (once `derive` gave them)."""
        found: list[tuple[int, int]] = []
        for part, (first, last) in enumerate(self._ranges):
            low, high = max(start, first), min(stop, last)
            if low >= high or part in self._indexed:
                continue
            if found and found[-1][1] == low:
                found[-1] = (found[-1][0], high)
            else:
                found.append((low, high))
        return found

    def _derived_here(self, texts: Sequence[str]) -> list[Derived | None]:
        found = iter(self._derive_here([text for text in texts if text]))
        return [next(found) if text else None for text in texts]

    def _answer_steps(self, part: int) -> Generator[None, None, list[Derived | None]]:
        found = self._answers.get(part)
        if found is None:
            first, last = self._ranges[part]
            own_first, own_last = self._ranges[0]
            # A part of its own tells how long a helper's should take; without one, its size.
            took = (
                self._own_part
                if own_last > own_first
                else (last - first) * _SECONDS_PER_ABSTRACT_AT_MOST
            )
            patience = helper_process.PATIENCE + 2 * took
            output = yield from self._helpers[part - 1].output_steps(patience)
            answer = _answer(output, last - first if self._titles else 0)
            if answer is None:  # the helper failed: its part is derived here instead
                found = (
                    self._derived_here(self._abstracts[first:last])
                    if self._titles
                    else [None] * (last - first)
                )
            else:
                found, postings = answer
                if not self._titles:
                    found = [None] * (last - first)
                if self._grown is not None and postings:
                    self._grown.add_answer(postings, first, last - first)
                    self._indexed.add(part)
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


def _request_writer(
    abstracts: Sequence[str], offset: int | None, titles: bool
) -> helper_process.Writer:
    """The request for a helper: its abstracts, and with `offset` (their first paper's number)
    to index them too; with `titles` False, only to index them."""

    def write(stream: IO[bytes]) -> None:
        helper_process.write_frame(stream, (_PROTOCOL, len(abstracts), offset, titles))
        for start in range(0, len(abstracts), _BATCH):
            helper_process.write_frame(stream, list(abstracts[start : start + _BATCH]))

    return write


def _answer(output: bytes | None, count: int) -> tuple[list[Derived | None], bytes] | None:
    """The derived titles in a helper's answer (None for an empty abstract) and what follows
    them (its postings, if it indexed); None when there is none or it is damaged."""
    if output is None:
        return None
    derived: list[Derived | None] = []
    stream = io.BytesIO(output)
    try:
        while len(derived) < count:
            frame = helper_process.read_frame(stream)
            if type(frame) is not list:
                return None
            for item in frame:
                if item is not None and (
                    type(item) is not tuple
                    or len(item) != 3
                    or not (item[0] is None or type(item[0]) is str)
                    or type(item[1]) is not str
                    or not (item[2] is None or type(item[2]) is str)
                ):
                    return None
                derived.append(item)
    except (ValueError, TypeError, EOFError):
        return None
    if len(derived) != count:
        return None
    return derived, output[stream.tell() :]


def serve(source: IO[bytes], target: IO[bytes]) -> int:
    """A helper's work: abstracts in from `source`, a frame at a time, and for each frame
    their methods and titles out to `target` (None for an empty one) unless asked for none;
    then, when asked, the postings of those papers (`index_parts` frames): of their
    abstracts alone when no titles are derived."""
    try:
        head = helper_process.read_frame(source)
        if (
            type(head) is not tuple
            or len(head) != 4
            or head[0] != _PROTOCOL
            or type(head[1]) is not int
            or not (head[2] is None or type(head[2]) is int)
            or type(head[3]) is not bool
            or (head[2] is None and not head[3])
        ):
            return 2
        _, count, offset, titles_wanted = head
        done = 0
        titles: list[str] = []
        methods: list[str] = []
        abstracts: list[str] = []
        while (frame := helper_process.read_frame(source)) is not None:
            if type(frame) is not list or not all(type(text) is str for text in frame):
                return 2
            done += len(frame)
            if offset is not None:
                abstracts.extend(frame)
            if not titles_wanted:
                continue
            derived = [method_and_titles(text) if text else None for text in frame]
            helper_process.write_frame(target, derived)
            if offset is not None:
                for entry in derived:
                    titles.append(entry[1] if entry is not None else UNTITLED)
                    methods.append((entry[0] or "") if entry is not None else "")
    except (ValueError, TypeError, EOFError):
        return 2
    if done != count:
        return 2
    if offset is not None:
        from paperdeck.core.search import index_parts

        if not titles_wanted:
            titles = methods = [""] * count
        index_parts.write_postings(target, (titles, methods, [""] * count, abstracts), offset)
    return 0

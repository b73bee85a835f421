"""Helper processes: a slow job on a big list split over spare cores, one process per part,
fed and read by threads so that the caller goes on with its own part meanwhile."""

from __future__ import annotations

import contextlib
import gc
import io
import marshal
import math
import os
import sys
import time
from collections.abc import Callable, Generator, Iterator
from itertools import accumulate
from typing import IO, TYPE_CHECKING, Any

from paperdeck.core.plumbing.slices import finish

if TYPE_CHECKING:
    import subprocess

# Each helper imports this module too, for `serve` and the frames: what only the caller needs
# (processes, threads, temporary files, paths) is imported where it is used, which spares every
# helper ~20 ms of its start.

Writer = Callable[[IO[bytes]], None]
"""Writes a job's request to a helper's input."""
MAX_HELPERS = 7
BEHIND = 10
"""How much lower than this process's a helper running `behind` has its priority (its nice
value that much higher): the system runs it on what this process leaves idle."""
PATIENCE = 5.0
"""Seconds a helper may take beyond twice the caller's own part before it is given up."""
_LENGTH = 8
_MAX_FRAME = 1 << 28
"""No frame is near this size (a few megabytes): a bigger length is garbage."""
_CODE = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from paperdeck.core.plumbing.helper_process import serve; sys.exit(serve(sys.argv[2]))"
)


def helper_count(items: int, per_part: int) -> int:
    """How many helpers to split `items` over: `$PAPERDECK_HELPERS` when it is a number, else
    one per spare core (see `idle_cores`; this process's own aside) as long as each
    part keeps about `per_part` items (below that, starting and feeding a helper costs more
    than it saves)."""
    if not sys.executable or getattr(sys, "frozen", False):
        return 0
    from paperdeck.core.config import helpers_wanted

    wanted = helpers_wanted()
    if wanted is None:
        cores = (
            len(os.sched_getaffinity(0))
            if hasattr(os, "sched_getaffinity")
            else (os.cpu_count() or 1)
        )
        wanted = min(idle_cores(cores), cores - 1, items // per_part - 1)
    return max(0, min(wanted, items - 1, MAX_HELPERS))


def idle_cores(cores: int) -> int:
    """How many of `cores` other work leaves to helpers, by the last minute's load average
    (rounded up), counting one core more than are idle: beside work that keeps the cores just
    busy, a helper still gets this job a larger share of them, and finishes it sooner; once
    the load is a core past them, it slows this process more than it helps."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average here: take the cores as idle
        return cores
    return max(0, math.ceil(cores + 1 - load))


def plan(items: int, helpers: int, own_weight: float = 1.0) -> list[tuple[int, int]]:
    """Ranges of item numbers, one per process, the caller's first: equal parts, but the
    caller's weighs `own_weight` times a helper's (0: the caller's is empty, and still first;
    a helper left nothing gets no range)."""
    if not helpers:
        return [(0, items)]
    weights = [own_weight] + [1.0] * helpers
    total = sum(weights)
    ends = [round(items * done / total) for done in accumulate(weights)]
    ends[-1] = items
    starts = [0, *ends[:-1]]
    ranges = list(zip(starts, ends, strict=True))
    return [ranges[0]] + [(start, end) for start, end in ranges[1:] if end > start]


def _lower_priority(pid: int) -> None:
    """Run process `pid` BEHIND this one, where the system allows it."""
    try:
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        os.setpriority(os.PRIO_PROCESS, pid, min(mine + BEHIND, 19))
    except (OSError, AttributeError):  # not on this system, or not allowed: it runs as is
        pass


def helper_command(job: str) -> list[str]:
    """The command that runs a job: this interpreter, importing this copy of paperdeck."""
    # Isolated (-I): nothing from the current folder, the environment or the user's site
    # packages; the job needs the standard library and this copy of paperdeck alone.
    from pathlib import Path

    root = str(Path(__file__).resolve().parent.parent)
    return [sys.executable, "-I", "-c", _CODE, root, job]


def write_frame(stream: IO[bytes], value: Any) -> None:
    """Write one value (lists, tuples, strings, numbers, bytes) with its length."""
    data = marshal.dumps(value)
    stream.write(len(data).to_bytes(_LENGTH, "little"))
    stream.write(data)


def read_frame(stream: IO[bytes]) -> Any:
    """The next value on the stream; None at its end; ValueError when it is cut short."""
    head = stream.read(_LENGTH)
    if not head:
        return None
    size = int.from_bytes(head, "little")
    if size > _MAX_FRAME:
        raise ValueError("not a frame")
    data = stream.read(size)
    if len(head) != _LENGTH or len(data) != size:
        raise ValueError("cut short")
    return marshal.loads(data)


def frames(output: bytes) -> Iterator[Any]:
    """The values in a helper's whole answer, one at a time; ValueError if it is cut short."""
    stream = io.BytesIO(output)
    while (value := read_frame(stream)) is not None:
        yield value


class HelperProcess:
    """One helper process running `job` on what `write_request` writes to it.

    It starts at once, from a thread (starting a process takes ~10 ms); that thread then feeds
    it while another waits for it to end. Its answer goes to a temporary file, not a pipe: a
    pipe would make it wait, a pipe's worth at a time, for this busy process to read. A helper
    that cannot start, fails or is closed answers None.

    `behind`: it runs at a lower priority than this process (`BEHIND`), for work done while
    this process answers a person, who should not wait for it.
    """

    def __init__(self, job: str, write_request: Writer, *, behind: bool = False) -> None:
        import threading

        self._behind = behind

        self._output = b""
        self._process: subprocess.Popen[bytes] | None = None
        self._started = threading.Event()
        self._lock = threading.Lock()
        self._closed = False
        self._feeder = threading.Thread(target=self._feed, args=(job, write_request), daemon=True)
        self._collector = threading.Thread(target=self._collect, daemon=True)
        self._answer: IO[bytes] | None = None
        self._feeder.start()

    def _feed(self, job: str, write_request: Writer) -> None:
        import subprocess
        import tempfile

        try:
            # Closed by _collect once the helper ends, or below when it does not start.
            answer = tempfile.TemporaryFile()  # noqa: SIM115
        except OSError:
            self._started.set()
            return
        try:
            process = subprocess.Popen(
                helper_command(job),
                stdin=subprocess.PIPE,
                stdout=answer,
                stderr=subprocess.DEVNULL,
            )
        except (OSError, ValueError):
            answer.close()
            self._started.set()
            return
        if self._behind:
            _lower_priority(process.pid)
        with self._lock:
            self._process = process
            closed = self._closed
        if closed:  # given up on while it started
            process.kill()
            process.communicate()
            answer.close()
            self._started.set()
            return
        # Started before it is said to be: a waiter then never takes it for finished.
        self._answer = answer
        self._collector.start()
        self._started.set()
        assert process.stdin is not None
        try:
            write_request(process.stdin)
        except BaseException:  # a text marshal cannot write, or worse: the helper must not wait
            with contextlib.suppress(OSError):
                process.kill()
        finally:
            with contextlib.suppress(OSError, ValueError):
                process.stdin.close()

    def _collect(self) -> None:
        answer = self._answer
        assert self._process is not None and answer is not None
        try:
            self._process.wait()
            answer.seek(0)
            self._output = answer.read()
        except Exception:  # whatever it was, there is no answer
            self._output = b""
        finally:
            answer.close()

    def output_steps(self, patience: float) -> Generator[None, None, bytes | None]:
        """Wait for the answer, a few milliseconds per slice: None unless the helper ended
        well within `patience` seconds (a stalled one is stopped)."""
        deadline = time.monotonic() + patience
        while not self._started.wait(0.004):
            yield
        process = self._process
        if process is None:
            return None
        while self._collector.is_alive():
            if time.monotonic() > deadline:
                self.close()
                return None
            self._collector.join(0.004)
            yield
        output, self._output = self._output, b""
        return output if process.returncode == 0 else None

    def output(self, patience: float) -> bytes | None:
        """The answer, waiting for it up to `patience` seconds."""
        return finish(self.output_steps(patience))

    def result_code(self) -> int | None:
        """The helper's exit status; None while it runs or if it never started."""
        return None if self._process is None else self._process.poll()

    def close(self) -> None:
        """Stop the helper if it still runs, and wait for its threads."""
        import subprocess

        self._started.wait(1.0)
        with self._lock:
            self._closed = True
            process = self._process
        if process is None:  # not started (or it failed): the feeder stops it if it starts
            return
        if process.poll() is None:
            with contextlib.suppress(OSError):
                process.kill()
        for thread in (self._feeder, self._collector):
            if thread.is_alive():
                thread.join(1.0)
        if process.stdin is not None:  # its answer file is closed by _collect
            with contextlib.suppress(OSError, ValueError):
                process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(1.0)


def serve(job: str) -> int:
    """A helper process's work: the job's request on stdin, its answer on stdout.

    `job` names its own code as "package.module:function", so this module never imports the
    jobs it runs; the function takes (stdin, stdout) and returns an exit status.
    """
    import importlib

    source, target = sys.stdin.buffer, sys.stdout.buffer
    module_name, _, function_name = job.partition(":")
    if not module_name.startswith("paperdeck.") or not function_name:
        return 2
    try:
        run = getattr(importlib.import_module(module_name), function_name)
    except (ImportError, AttributeError):
        return 2
    # A helper lives for one job and exits: a cycle it makes is freed then, so the collector
    # would only rescan the job's many objects for nothing.
    gc.disable()
    status: int = run(source, target)
    target.flush()
    return status

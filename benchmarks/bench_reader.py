"""The reader's speed: first paint in a real pseudo-terminal, and the cost of a key at 100k papers.

First paint: the package's bytecode is written first, as an installed package has it (the
benchmark may run with PYTHONDONTWRITEBYTECODE set: then every start would compile the reader's
modules from source, which no installed reader does). Then
`python -m paperdeck PATH --notes TMP` is started under a pseudo-terminal of
120x40 with TERM=xterm-256color; the clock runs from the fork until the terminal has received the
header line (the list's counts, or the background loader's "Loading ..."), and separately until the
list itself is painted (its counts). Then a query is typed and the clock runs until its result over
the whole list is painted (search ready); the process's peak resident memory (VmHWM) is read then,
and Ctrl+Q quits. What is painted is read off the screen of a terminal emulator (pyte) that the
pseudo-terminal's output is fed to, as a person would read it.

Per key: the reader runs in-process through `App.run_test()`; j and PgDn are pressed N times and
the event loop's busy time is measured as wall time minus the time it spent waiting in `select`
(so the pilot's own idle waits do not count), divided by N. A key with no binding gives the
floor that the pilot itself costs. Then a query is typed a key at a time (each key searched and
its rows painted), and j and PgDn go through the result of a word most abstracts hold (its rows
say why they matched: the abstract around the match).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import select
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
Row = tuple[str, float, str, str]
KEY_PRESSES = 60
FLOOR_KEY = "f12"
"""A key bound nowhere in the reader: its cost is what the pilot itself costs."""
PAINT_TIMEOUT = 120.0
COLUMNS, LINES = 120, 40
LISTED = " papers \u00b7"
"""On the screen once the list is painted (its counts: "5,000 papers · 0 read")."""


QUERY = "graph"
"""Typed as soon as the list shows: a word of many abstracts and few titles."""
TYPED = ("g", "r", "a", "p", "h", "backspace", "backspace", "backspace", "backspace", "backspace")
"""Typed into the search box a key at a time: five searches as a word grows, five as it goes."""
BROWSED = "model"
"""The query whose result j and PgDn go through: a word of most abstracts, so most rows shown
match in their abstract only, and a page never reaches the result's end."""
SEARCHED = re.compile(r"([0-9,]+) / ([0-9,]+) shown")
"""The header once a search's result is shown (its counts: "12 / 100,000 shown")."""
TITLING = "titles\u2026"
"""In the header while a list read afresh has its made-up titles made ("making titles…")."""
TITLING_SHOWN_WITHIN = 1.0
"""Seconds after the search is ready within which that shows, if it is to."""


@dataclass
class Session:
    """One start of the reader: seconds from the fork until each thing was painted (NaN:
    never), and the process's peak resident memory (VmHWM) when it was asked to quit."""

    header: float
    listed: float
    searched: float = float("nan")
    titled: float = float("nan")
    """When the header no longer says the list's made-up titles are being made (a list read
    afresh is searchable before they are: its search then covers them too)."""
    peak_mib: float = float("nan")


def first_paint(path: Path | None, timeout: float = PAINT_TIMEOUT) -> tuple[float, float]:
    """Seconds until the header is painted, and until the list's counts are (NaN: never)."""
    session = reader_session(path, timeout=timeout)
    return session.header, session.listed


def reader_session(
    path: Path | None,
    query: str | None = None,
    total: int | None = None,
    timeout: float = PAINT_TIMEOUT,
    found: int | None = None,
) -> Session:
    """Start the reader; with `query`, type it as soon as the list is painted and wait for its
    result over all `total` papers, `found` of them (see `expected_count`), then for the
    list's titles to be made (if they are still being made), and read the peak memory before
    quitting. The search is ready at that result: neither a result over the rows loaded so
    far nor that result carried over to the whole list while its index is built counts."""
    import fcntl
    import pty
    import struct
    import termios

    import pyte

    write_bytecode()
    with tempfile.TemporaryDirectory() as scratch:
        env = {
            **os.environ,
            "TERM": "xterm-256color",
            "COLUMNS": str(COLUMNS),
            "LINES": str(LINES),
            "PYTHONPATH": str(SRC),
            "PAPERDECK_CONFIG": str(Path(scratch) / "settings.json"),
        }
        env.pop("TMUX", None)
        args = [sys.executable, "-m", "paperdeck"]
        if path is not None:
            args.append(str(path))
        args += ["--notes", str(Path(scratch) / "notes.json")]
        start = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
            os.execvpe(sys.executable, args, env)
        session = Session(float("nan"), float("nan"))
        # The terminal's screen, not its byte stream: a repaint sends only the cells that
        # changed, so a count may never appear whole in the bytes.
        screen = pyte.Screen(COLUMNS, LINES)
        stream = pyte.ByteStream(screen)
        typed = False
        titling_seen = False
        try:
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
            deadline = start + timeout
            while time.perf_counter() < deadline:
                ready, _, _ = select.select([fd], [], [], 0.02)
                if not ready:
                    waited = time.perf_counter() - start - session.searched
                    if not titling_seen and waited > TITLING_SHOWN_WITHIN:
                        session.titled = session.searched  # nothing was left to make
                        break
                    continue
                try:
                    chunk = os.read(fd, 1 << 16)
                except OSError:
                    break
                if not chunk:
                    break
                stream.feed(chunk)
                if not screen.dirty:
                    continue
                screen.dirty.clear()
                now = time.perf_counter() - start
                shown = "\n".join(screen.display)
                if session.header != session.header and (LISTED in shown or "Loading " in shown):
                    session.header = now
                if session.listed != session.listed and LISTED in shown:
                    session.listed = now
                    if query is None:
                        break
                    typed = True
                    os.write(fd, b"/" + query.encode())
                if session.searched == session.searched:
                    if TITLING in shown:
                        titling_seen = True
                    elif titling_seen or now - session.searched > TITLING_SHOWN_WITHIN:
                        session.titled = now if titling_seen else session.searched
                        break
                elif typed and any(
                    (total is None or _count(match.group(2)) == total)
                    and (found is None or _count(match.group(1)) == found)
                    for match in SEARCHED.finditer(shown)
                ):
                    session.searched = now
                    titling_seen = TITLING in shown
            session.peak_mib = _peak_mib(pid)
            # Ctrl+Q quits from any widget; a plain q would be typed into the search box.
            os.write(fd, b"\x11")
        finally:
            _stop(pid, fd)
    return session


def write_bytecode() -> None:
    """Compile the package's modules to bytecode where it is missing or stale, as installing
    a package does (quick when it is up to date)."""
    import compileall

    compileall.compile_dir(SRC / "paperdeck", quiet=1)


def _count(digits: str) -> int:
    return int(digits.replace(",", ""))


def expected_count(path: Path | None, query: str = QUERY) -> int:
    """How many papers of the whole list the reader shows for `query` (its every-word and
    some-word groups), from the search command in a cache folder of its own."""
    import json
    import subprocess

    with tempfile.TemporaryDirectory(prefix="paperdeck-bench-count-") as cache:
        env = {**os.environ, "PYTHONPATH": str(SRC), "PAPERDECK_CACHE": cache}
        args = [sys.executable, "-m", "paperdeck", "search", query, "--limit", "0", "--json"]
        done = subprocess.run(
            [*args, *([str(path)] if path else [])],
            env=env,
            capture_output=True,
            check=True,
        )
    return len(json.loads(done.stdout))


def _keep_index(path: Path | None) -> None:
    """Make sure the list store keeps the list's search index: the cold session quits as soon
    as its search answers, before a reader would have saved the index it built."""
    import subprocess

    args = [sys.executable, "-m", "paperdeck", "search", QUERY, "--limit", "1"]
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    subprocess.run([*args, *([str(path)] if path else [])], env=env, capture_output=True)


def _peak_mib(pid: int) -> float:
    """A process's peak resident memory so far, in MiB (NaN when it cannot be read)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _stop(pid: int, fd: int) -> None:
    """End the child, reading its output meanwhile: a child blocked writing never exits."""
    deadline = time.perf_counter() + 3
    signalled = False
    while True:
        finished, _ = os.waitpid(pid, os.WNOHANG)
        if finished:
            break
        if time.perf_counter() > deadline:
            os.kill(pid, signal.SIGKILL if signalled else signal.SIGTERM)
            signalled = True
            deadline = time.perf_counter() + 2
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            with contextlib.suppress(OSError):
                os.read(fd, 1 << 16)
    os.close(fd)


async def _key_costs(path: Path | None, keys: tuple[str, ...]) -> dict[str, float]:
    import gc

    from paperdeck.core.library import load_library
    from paperdeck.core.notes.store import NotesStore
    from paperdeck.core.resources import bundled_list
    from paperdeck.ui.app import PaperdeckApp

    library = load_library([path or bundled_list()])
    gc.freeze()
    loop = asyncio.get_running_loop()
    selector = loop._selector  # type: ignore[attr-defined]
    original = selector.select
    idle = [0.0]

    def timed_select(timeout: float | None = None) -> object:
        began = time.perf_counter()
        try:
            return original(timeout)
        finally:
            idle[0] += time.perf_counter() - began

    selector.select = timed_select
    costs: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as scratch:
        app = PaperdeckApp(library, NotesStore(Path(scratch) / "notes.json"))
        try:
            async with app.run_test(size=(120, 40)) as pilot:
                await app.workers.wait_for_complete()
                await pilot.pause()
                for key in keys:
                    began, idle_before = time.perf_counter(), idle[0]
                    cpu = time.process_time()
                    for _ in range(KEY_PRESSES):
                        await pilot.press(key)
                    busy = time.perf_counter() - began - (idle[0] - idle_before)
                    costs[key] = busy / KEY_PRESSES * 1000
                    costs[f"{key} cpu"] = (time.process_time() - cpu) / KEY_PRESSES * 1000
                # Typing: each key a new query, searched and its rows painted.
                app.search_box.focus()
                await pilot.pause()
                began, idle_before = time.perf_counter(), idle[0]
                cpu = time.process_time()
                for number in range(KEY_PRESSES):
                    await pilot.press(TYPED[number % len(TYPED)])
                    await app.workers.wait_for_complete()
                busy = time.perf_counter() - began - (idle[0] - idle_before)
                costs["typed"] = busy / KEY_PRESSES * 1000
                costs["typed cpu"] = (time.process_time() - cpu) / KEY_PRESSES * 1000
                # Moving through a search's result: rows with their matches drawn.
                app.search_box.value = BROWSED
                await app.workers.wait_for_complete()
                app.paper_list.focus()
                await pilot.pause()
                for key in ("j", "pagedown"):
                    began, idle_before = time.perf_counter(), idle[0]
                    cpu = time.process_time()
                    for _ in range(KEY_PRESSES):
                        await pilot.press(key)
                    busy = time.perf_counter() - began - (idle[0] - idle_before)
                    costs[f"{key} query"] = busy / KEY_PRESSES * 1000
                    costs[f"{key} query cpu"] = (time.process_time() - cpu) / KEY_PRESSES * 1000
        finally:
            selector.select = original
    return costs


def key_costs(path: Path | None) -> dict[str, float]:
    """Milliseconds per key for an unbound key, j and PgDn: busy wall time, and CPU time.

    Busy wall time also counts moments the process waited for a CPU that other processes held;
    CPU time does not, so it is the steadier figure on a shared machine.
    """
    # F12 is bound nowhere in the reader (x, once unbound, now skips to the next unread).
    return asyncio.run(_key_costs(path, (FLOOR_KEY, "j", "pagedown")))


def rows(paths: dict[str, Path | None]) -> list[Row]:
    out: list[Row] = []
    lists = [
        ("19", None),
        ("5,000", paths.get("icml5k_txt")),
        ("100,000", paths.get("conf100k_txt")),
    ]
    previous = os.environ.get("PAPERDECK_CACHE")
    with tempfile.TemporaryDirectory(prefix="paperdeck-bench-cache-") as cache:
        # A fresh cache folder: the first start is a first open, the second a reopen.
        os.environ["PAPERDECK_CACHE"] = cache
        try:
            for label, path in lists:
                if label != "19" and path is None:
                    continue
                total = int(label.replace(",", ""))
                found = expected_count(path)
                for state in ("cold", "warm"):
                    if state == "warm":
                        _keep_index(path)
                    run = reader_session(path, QUERY, total, found=found)
                    out.append(
                        (f"reader first paint, header ({state} cache)", run.header, "s", label)
                    )
                    out.append(
                        (f"reader first paint, list ({state} cache)", run.listed, "s", label)
                    )
                    out.append(
                        (
                            f"reader search ready, query typed at first paint ({state} cache)",
                            run.searched,
                            "s",
                            label,
                        )
                    )
                    out.append(
                        (
                            f"reader titles made, searched too ({state} cache)",
                            run.titled,
                            "s",
                            label,
                        )
                    )
                    out.append(
                        (
                            f"reader peak memory, open + query + titles ({state} cache)",
                            run.peak_mib,
                            "MiB",
                            label,
                        )
                    )
        finally:
            if previous is None:
                os.environ.pop("PAPERDECK_CACHE", None)
            else:
                os.environ["PAPERDECK_CACHE"] = previous
    for label, path in lists:
        if label != "19" and path is None:
            continue
        costs = key_costs(path)
        floor = costs[FLOOR_KEY]
        out.append(("reader key cost, unbound key (pilot floor)", floor, "ms/key", label))
        out.append(("reader key cost, j (cursor down)", costs["j"], "ms/key", label))
        out.append(("reader key cost, PgDn", costs["pagedown"], "ms/key", label))
        out.append(("reader key CPU time, j (cursor down)", costs["j cpu"], "ms/key", label))
        out.append(("reader key CPU time, PgDn", costs["pagedown cpu"], "ms/key", label))
        out.append(
            ("reader key cost, typing a query (search + paint)", costs["typed"], "ms/key", label)
        )
        out.append(("reader key CPU time, typing a query", costs["typed cpu"], "ms/key", label))
        out.append(
            (
                f"reader key CPU time, j in {BROWSED!r} results",
                costs["j query cpu"],
                "ms/key",
                label,
            )
        )
        out.append(
            (
                f"reader key CPU time, PgDn in {BROWSED!r} results",
                costs["pagedown query cpu"],
                "ms/key",
                label,
            )
        )
    return out


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, help="lists to time (default: bundled)")
    parser.add_argument("--keys", action="store_true", help="also time keys on each list")
    args = parser.parse_args()
    for path in args.paths or [None]:
        header, listed = first_paint(path)
        name = path.name if path else "bundled"
        print(f"{name}: header {header:.3f} s, list {listed:.3f} s")
        if args.keys:
            for key, cost in key_costs(path).items():
                print(f"  {key}: {cost:.1f} ms/key")


if __name__ == "__main__":
    sys.path.insert(0, str(SRC))
    main()

"""Typing while a big list loads: how long the reader's event loop stalls, and how long a key
takes to reach the screen, while a list opened for the first time loads.

The reader runs in a process of its own through `App.run_test()` (120x40), with a fresh cache
folder, so the list is read, titled and indexed as on its first open. Once its first rows are
painted, a thread types into the search field as a person would, a key every TYPING_GAP
seconds (a query, then backspaces back to nothing, over and over), sending each key the way
the terminal driver does. Until the load is over and the list's made-up titles are made
(after its search is ready: see `titles.later`):

- a stall is one turn of the event loop: from `select` returning to the next `select` (all
  the callbacks run in that turn; nothing typed is read meanwhile), in wall time, and the
  event loop's thread's own CPU time in it (wall time also counts waiting for the GIL, which
  the load's thread holds half the time, and for a core other processes hold);
- a key's time to paint runs from when it was sent until the first frame the screen renders
  after the search field has handled it (the compositor's update; headless, nothing is
  written to a terminal).

The longest single callback is named on stderr, to say where a stall comes from. The load
has one helper process (`$PAPERDECK_HELPERS`, unless set): by default the number follows the
machine's load average, and runs that differ in it are not comparable.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
Row = tuple[str, float, str, str]
TYPING_GAP = 0.1
"""Seconds between two keys: a quick typist."""
TYPED = "graph neural networks"
"""Typed a key at a time, then taken back a key at a time, while the list loads."""
TIMEOUT = 300.0
RUNS = 1


@dataclass
class Figures:
    """What one load measured (seconds)."""

    load: float = 0.0
    """From the first rows painted to the load's end."""
    turns: list[float] = field(default_factory=list)
    """The event loop's turns while loading (from select back to select)."""
    turns_cpu: list[float] = field(default_factory=list)
    """The event loop thread's CPU time in each of those turns."""
    keys: list[float] = field(default_factory=list)
    """Each key's time from sent to painted."""
    longest_callback: float = 0.0
    longest_callback_name: str = ""

    def as_json(self) -> dict[str, Any]:
        turns, keys = sorted(self.turns), sorted(self.keys)
        return {
            "load": self.load,
            "longest_stall": turns[-1] if turns else float("nan"),
            "stalls_over_30ms": sum(turn > 0.03 for turn in turns),
            "longest_turn_cpu": max(self.turns_cpu, default=float("nan")),
            "turns_cpu": sum(self.turns_cpu),
            "key_p95": _percentile(keys, 0.95),
            "key_max": keys[-1] if keys else float("nan"),
            "keys": len(keys),
            "longest_callback": self.longest_callback,
            "longest_callback_name": self.longest_callback_name,
        }


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(share * len(values)))]


def _callback_name(callback: object) -> str:
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coro = owner.get_coro()
        return f"task {getattr(coro, '__qualname__', coro)!s}"
    return getattr(callback, "__qualname__", repr(callback))


async def _measure(path: Path, scratch: Path) -> Figures:
    from textual import events

    from paperdeck.core.library import Library, LoadOptions, load_library
    from paperdeck.core.notes.store import NotesStore
    from paperdeck.ui.app import PaperdeckApp
    from paperdeck.ui.background_load import BackgroundLoad
    from paperdeck.ui.widgets.search_box import SearchBox

    figures = Figures()
    measuring = False
    loop = asyncio.get_running_loop()
    on_loop = threading.get_ident()

    selector = loop._selector  # type: ignore[attr-defined]
    select = selector.select
    turn_began: list[float] = []

    def timed_select(timeout: float | None = None) -> object:
        if turn_began and measuring:
            figures.turns.append(time.perf_counter() - turn_began[0])
            figures.turns_cpu.append(time.thread_time() - turn_began[1])
        try:
            return select(timeout)
        finally:
            turn_began[:] = [time.perf_counter(), time.thread_time()]

    handle_run = asyncio.events.Handle._run

    def timed_run(handle: asyncio.events.Handle) -> None:
        began = time.perf_counter()
        try:
            handle_run(handle)
        finally:
            took = time.perf_counter() - began
            if measuring and took > figures.longest_callback and threading.get_ident() == on_loop:
                figures.longest_callback = took
                figures.longest_callback_name = _callback_name(handle._callback)  # type: ignore[attr-defined]

    sent: list[float] = []
    handled: list[float] = []
    """Per key sent, when the search field handled it."""
    painted = 0
    """Keys handled whose paint is counted."""

    key_handler = SearchBox._on_key

    async def noted_key(box: SearchBox, event: events.Key) -> None:
        await key_handler(box, event)
        if getattr(event, "_typed_by_bench", False):
            handled.append(time.perf_counter())

    def load(options: LoadOptions) -> Library:
        return load_library([path], abstracts=False, options=options)

    selector.select = timed_select
    asyncio.events.Handle._run = timed_run  # type: ignore[method-assign,assignment]
    SearchBox._on_key = noted_key  # type: ignore[method-assign,assignment]
    try:
        pending = BackgroundLoad(load)
        app = PaperdeckApp(
            None,
            NotesStore(scratch / "notes.json"),
            loader=pending,
            loading_label=path.name,
            loading_paths=[path],
            settings_file=scratch / "settings.json",
        )
        display = app._display

        def painted_frame(screen: Any, renderable: Any) -> None:
            nonlocal painted
            display(screen, renderable)
            if renderable is None:
                return
            now = time.perf_counter()
            while painted < len(handled):
                figures.keys.append(now - sent[painted])
                painted += 1

        app._display = painted_frame  # type: ignore[method-assign]
        stop = threading.Event()

        def typist() -> None:
            keys = [*TYPED, *["backspace"] * len(TYPED)]
            driver = app._driver
            assert driver is not None
            at = time.perf_counter()
            number = 0
            while not stop.is_set():
                key = keys[number % len(keys)]
                event = (
                    events.Key(key, None)
                    if key == "backspace"
                    else events.Key("space" if key == " " else key, key)
                )
                event._typed_by_bench = True  # type: ignore[attr-defined]
                event.set_sender(app)
                sent.append(time.perf_counter())
                driver.send_message(event)
                number += 1
                at += TYPING_GAP
                stop.wait(max(0.0, at - time.perf_counter()))

        async with app.run_test(size=(120, 40)) as pilot:
            deadline = time.perf_counter() + TIMEOUT
            while not app.loading.shown_so_far or app.paper_list.rows_painted_at is None:
                if time.perf_counter() > deadline:
                    raise TimeoutError("the first rows were never painted")
                await asyncio.sleep(0.01)
            await pilot.press("slash")
            thread = threading.Thread(target=typist, daemon=True)
            measuring = True
            began = time.perf_counter()
            thread.start()
            # Until the list is loaded, searchable and its titles made (and searched).
            while (
                app.loading.loading or app.library.titles_later or app.search.titling
            ) and time.perf_counter() < deadline:
                await asyncio.sleep(0.01)
            figures.load = time.perf_counter() - began
            measuring = False
            stop.set()
            thread.join()
            await pilot.pause()
            await app.workers.wait_for_complete()
    finally:
        selector.select = select
        asyncio.events.Handle._run = handle_run  # type: ignore[method-assign]
        SearchBox._on_key = key_handler  # type: ignore[method-assign]
    return figures


def measure(path: Path) -> dict[str, Any]:
    """One first open of `path`, typed into while it loads, in a process of its own."""
    with tempfile.TemporaryDirectory(prefix="paperdeck-bench-typing-") as scratch:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(SRC), str(HERE.parent)]),
            "PAPERDECK_CACHE": str(Path(scratch) / "cache"),
            "PAPERDECK_CONFIG": str(Path(scratch) / "settings.json"),
            "PAPERDECK_HELPERS": os.environ.get("PAPERDECK_HELPERS", "1"),
        }
        done = subprocess.run(
            [sys.executable, "-m", "benchmarks.bench_typing_while_loading", str(path), "--json"],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            sys.stderr.write(done.stderr[-2000:])
            return {}
        found: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
        return found


def rows(paths: dict[str, Path | None]) -> list[Row]:
    path = paths.get("conf100k_txt")
    if path is None:
        return []
    out: list[Row] = []
    size = "100,000"
    for _ in range(RUNS):
        found = measure(path)
        if not found:
            continue
        print(
            f"# typing while loading: longest callback {found['longest_callback'] * 1000:.0f} ms "
            f"({found['longest_callback_name']}), load {found['load']:.1f} s, "
            f"{found['keys']} keys, event loop CPU {found['turns_cpu']:.1f} s",
            file=sys.stderr,
        )
        out.append(
            (
                "typing while loading: longest event-loop stall",
                found["longest_stall"] * 1000,
                "ms",
                size,
            )
        )
        out.append(
            (
                "typing while loading: event-loop stalls over 30 ms",
                found["stalls_over_30ms"],
                "count",
                size,
            )
        )
        out.append(
            (
                "typing while loading: event-loop CPU of its busiest turn",
                found["longest_turn_cpu"] * 1000,
                "ms",
                size,
            )
        )
        out.append(("typing while loading: key to paint, p95", found["key_p95"] * 1000, "ms", size))
        out.append(("typing while loading: key to paint, max", found["key_max"] * 1000, "ms", size))
    return out


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, help="the list to open (a fresh cache: a first open)")
    parser.add_argument("--json", action="store_true", help="measure here, print one JSON line")
    args = parser.parse_args()
    if not args.json:
        print(json.dumps(measure(args.path)))
        return
    with tempfile.TemporaryDirectory(prefix="paperdeck-bench-typing-app-") as scratch:
        figures = asyncio.run(_measure(args.path, Path(scratch)))
    print(json.dumps(figures.as_json()))


if __name__ == "__main__":
    main()

"""Benchmark rows: opening a list into papers — first open (read, ids, titles, kept in the list
store), reopen from the store, listing without abstracts, `paperdeck list`/`show`/`search` as whole
processes, and peak memory."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from paperdeck.core.library import load_library
from paperdeck.core.search.index import SearchIndex

Row = tuple[str, float, str, str]


def rows(paths: dict[str, Path | None]) -> list[Row]:
    out: list[Row] = []
    for key in ("seed", "icml5k_txt", "conf100k_txt"):
        path = paths.get(key)
        if path is None:
            continue
        out.extend(rows_for(path, use_sidecar=key == "seed", processes=key != "seed"))
    return out


@contextmanager
def fresh_store() -> Iterator[str]:
    """A new, empty cache folder for the time of the block: the first open is a first open."""
    previous = os.environ.get("PAPERDECK_CACHE")
    with tempfile.TemporaryDirectory(prefix="paperdeck-bench-cache-") as cache:
        os.environ["PAPERDECK_CACHE"] = cache
        try:
            yield cache
        finally:
            if previous is None:
                os.environ.pop("PAPERDECK_CACHE", None)
            else:
                os.environ["PAPERDECK_CACHE"] = previous


def timed(work: Callable[[], object]) -> float:
    """Seconds one call takes (its result dropped after the clock stops)."""
    started = time.perf_counter()
    result = work()
    elapsed = time.perf_counter() - started
    del result
    return elapsed


@contextmanager
def helpers(count: int) -> Iterator[None]:
    """`$PAPERDECK_HELPERS` set to `count` for the time of the block."""
    previous = os.environ.get("PAPERDECK_HELPERS")
    os.environ["PAPERDECK_HELPERS"] = str(count)
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("PAPERDECK_HELPERS", None)
        else:
            os.environ["PAPERDECK_HELPERS"] = previous


def best_of(count: int, work: Callable[[], object]) -> float:
    return min(timed(work) for _ in range(count))


def peak_mib(work: Callable[[], object]) -> float:
    """Peak Python heap while `work` runs (tracemalloc: the objects made, not the process)."""
    tracemalloc.start()
    result = work()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del result
    return peak / 2**20


SEARCH_QUERY = "graph neural networks"
"""The query of the `paperdeck search` row: three words a user types, common in the lists."""
_MEASURED = (
    "import resource, subprocess, sys, time\n"
    "started = time.perf_counter()\n"
    "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, "
    "check=True)\n"
    "elapsed = time.perf_counter() - started\n"
    "print(elapsed, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)
"""Runs one command and prints its wall seconds and peak memory (KiB): a child's maxrss is
read in a process that started nothing else."""


def process_figures(*arguments: str) -> tuple[float, float]:
    """Best of three whole `paperdeck` processes (start, open, print, output thrown away) in
    seconds, and the largest peak memory of the three in MiB.

    A first run is not counted: it writes the bytecode an installed package has (the
    benchmark may run with PYTHONDONTWRITEBYTECODE set) and whatever the store keeps.
    """
    command = [sys.executable, "-m", "paperdeck", *arguments]
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    best, peak = float("inf"), 0.0
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "-c", _MEASURED, *command],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        elapsed, kib = done.stdout.split()
        best, peak = min(best, float(elapsed)), max(peak, int(kib) / 1024)
    return best, peak


def searchable_list(path: Path, use_sidecar: bool) -> object:
    """A stored list reopened as the reader does, its index opened from the store (kept by a
    first call): ready to search."""
    library = load_library([path], use_sidecar=use_sidecar, abstracts=False)
    # The first call builds the index: from the abstracts, read then.
    index = SearchIndex(
        library.papers, library.index_key(), lambda: library.with_abstracts(library.papers)
    )
    return library, index


_RSS_SCRIPT = """
import resource, sys
from pathlib import Path
from paperdeck.core.library import load_library
from paperdeck.core.search.index import SearchIndex
from paperdeck.core.search.index import SearchIndex
library = load_library([Path(sys.argv[1])], abstracts=False)
index = SearchIndex(library.papers, library.index_key())
for query in ("graph neural networks", "reinforcment lerning", "diffusion models for image"):
    index.search(query)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def reopen_rss(path: Path) -> float:
    """Peak resident memory of a process that reopens the stored list and searches it (MiB).

    Run from a small wrapper: a child's maxrss starts from that of the process it was forked
    from, and the benchmark holds every paper.
    """
    wrapper = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", wrapper, sys.executable, "-c", _RSS_SCRIPT, str(path)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")},
    )
    return int(done.stdout.split()[-1]) / 1024  # KiB on Linux


def rows_for(path: Path, *, use_sidecar: bool, processes: bool) -> list[Row]:
    with fresh_store():
        first = timed(lambda: load_library([path], use_sidecar=use_sidecar))
        library = load_library([path], use_sidecar=use_sidecar)
        size = f"{len(library.papers):,}"
        del library
        reopen = best_of(3, lambda: load_library([path], use_sidecar=use_sidecar))
        listing = best_of(3, lambda: load_library([path], use_sidecar=use_sidecar, abstracts=False))
        memory = peak_mib(lambda: load_library([path], use_sidecar=use_sidecar))
        searchable = best_of(3, lambda: searchable_list(path, use_sidecar))
        found = [
            ("load list, first open (read + ids + titles + store)", first * 1000, "ms", size),
            ("load list, reopen from the list store", reopen * 1000, "ms", size),
            ("load list, reopen without abstracts (list)", listing * 1000, "ms", size),
            ("load list peak memory (reopen)", memory, "MiB", size),
            (
                "reopen to a searchable list (no abstracts + kept index)",
                searchable * 1000,
                "ms",
                size,
            ),
            ("peak RSS of a process: reopen + index + 3 queries", reopen_rss(path), "MiB", size),
        ]
        if processes:
            found += _process_rows(path, size)
    # A first open with no helper process deriving titles, in a store of its own and after the
    # first row's (which pays for the first imports): what the helpers gain.
    with fresh_store(), helpers(0):
        alone = timed(lambda: load_library([path], use_sidecar=use_sidecar))
    found.insert(1, ("load list, first open, no helper process", alone * 1000, "ms", size))
    return found


def _process_rows(path: Path, size: str) -> list[Row]:
    """`paperdeck list` (and `--json`: every paper with its abstract, made-up titles whole),
    `show 5` and `search` on a stored list, each a whole process."""
    rows: list[Row] = []
    for name, arguments in (
        ("list", ("list",)),
        ("list --json", ("list", "--json")),
        ("show 5", ("show", "5")),
        (f"search '{SEARCH_QUERY}'", ("search", SEARCH_QUERY)),
    ):
        seconds, peak = process_figures(*arguments, str(path))
        rows.append((f"`paperdeck {name}` whole process (stored)", seconds * 1000, "ms", size))
        rows.append((f"`paperdeck {name}` whole process peak memory", peak, "MiB", size))
    return rows

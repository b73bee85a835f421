"""Benchmark rows at 1,000,000 papers, made by reshuffling sentences of the 100k abstracts:
first open (read, ids, titles, kept in the list store), reopen, reopen without abstracts, one
paper — each in a process of its own, with its peak resident memory. Slow (minutes): run it by
name, `benchmarks/run.py --only bench_million`."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

Row = tuple[str, float, str, str]
PAPERS = 1_000_000
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_MEASURE = """
import json, sys, time
from pathlib import Path
from paperdeck.core.library import load_library, load_paper
path, what = Path(sys.argv[1]), sys.argv[2]
QUERIES = ("graph neural networks", "reinforcment lerning", "diffusion models", '"policy gradient"')
extra = {}
started = time.perf_counter()
if what == "paper":
    paper, _ = load_paper([path], "777777")
    count = 1
elif what == "index":
    from paperdeck.core.search.index import SearchIndex
    library = load_library([path])
    started = time.perf_counter()
    count = len(SearchIndex(library.papers, library.index_key()))
elif what == "queries":
    from paperdeck.core.search.index import SearchIndex
    library = load_library([path], abstracts=False)
    index = SearchIndex(library.papers, library.index_key())
    count = len(library.papers)
    seconds = time.perf_counter() - started
    began = time.perf_counter()
    index.prepare_arrays()  # as the reader does on a thread once its index answers
    prepare = time.perf_counter() - began
    times, cpu = [], []
    for query in QUERIES:
        for end in range(3, len(query) + 1):
            began, began_cpu = time.perf_counter(), time.thread_time()
            index.search(query[:end])
            cpu.append((time.thread_time() - began_cpu, query[:end]))
            times.append((time.perf_counter() - began, query[:end]))
    times.sort()
    cpu.sort()
    at = int(0.95 * (len(times) - 1))
    extra = {
        "reopen": seconds, "p50": times[len(times) // 2][0], "p95": times[at][0],
        "p95_cpu": cpu[at][0], "prepare": prepare,
        "slowest": [f"{query} {1000 * spent:.0f} ms" for spent, query in times[at:]],
    }
else:
    count = len(load_library([path], abstracts=what != "listing").papers)
seconds = time.perf_counter() - started
print(json.dumps({"seconds": seconds, "count": count, **extra}))
"""
_PEAK = """
import json, resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
sys.stderr.write(done.stderr)
if done.returncode:
    sys.exit(done.returncode)
found = json.loads(done.stdout.strip().splitlines()[-1])
found["peak_mib"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps(found))
"""
"""Runs one measurement and adds its peak memory: a child's own maxrss starts from that of the
process it was forked from (this benchmark's holds the sentences of 100,000 abstracts), so it
is read in a small process that started nothing else."""


def make_list(source: Path, target: Path, papers: int = PAPERS, seed: int = 16) -> None:
    """`papers` abstracts, each as many sentences as a random real one, drawn from all of them."""
    text = source.read_text(encoding="utf-8")
    abstracts = [part.strip() for part in text.split("\n\n")[1:] if part.strip()]
    lengths: list[int] = []
    sentences: list[str] = []
    for abstract in abstracts:
        parts = _SENTENCE_END.split(" ".join(abstract.split()))
        lengths.append(len(parts))
        sentences.extend(parts)
    rng = random.Random(seed)
    with target.open("w", encoding="utf-8") as out:
        out.write("A million reshuffled abstracts\n\n")
        for start in range(0, papers, 10_000):
            block = []
            for _ in range(min(10_000, papers - start)):
                block.append(" ".join(rng.choices(sentences, k=rng.choice(lengths))))
            out.write("\n\n".join(block))
            out.write("\n\n")


def _measure(path: Path, what: str, cache: str) -> dict[str, float]:
    env = {**os.environ, "PAPERDECK_CACHE": cache}
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, sys.executable, "-c", _MEASURE, str(path), what],
        capture_output=True,
        text=True,
        env=env,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{what}: {done.stderr.strip()[-2000:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def rows(paths: dict[str, Path | None]) -> list[Row]:
    source = paths.get("conf100k_txt")
    if source is None:
        return []
    out: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="paperdeck-million-") as scratch:
        listing = Path(scratch) / "million.txt"
        started = time.perf_counter()
        make_list(source, listing)
        size = f"{PAPERS:,}"
        made = time.perf_counter() - started
        out.append(("1M: make the list (not paperdeck)", made, "s", size))
        out.append(("1M: list file size", listing.stat().st_size / 2**20, "MiB", size))
        cache = str(Path(scratch) / "cache")
        for what, label in (
            ("all", "first open (read + ids + titles + store)"),
            ("all", "reopen from the list store"),
            ("listing", "reopen without abstracts (list)"),
            ("paper", "one paper (show)"),
        ):
            found = _measure(listing, what, cache)
            out.append((f"1M: {label}", found["seconds"], "s", size))
            out.append((f"1M: {label}, peak memory", found["peak_mib"], "MiB", size))
        # The search index: built once and kept, then reopened (papers without abstracts and
        # the kept index) and searched as typed, each in a process of its own.
        found = _measure(listing, "index", cache)
        out.append(("1M: search index build + keep (list stored)", found["seconds"], "s", size))
        out.append(("1M: search index build + keep, peak memory", found["peak_mib"], "MiB", size))
        found = _measure(listing, "queries", cache)
        out.append(
            (
                "1M: reopen to a searchable list (no abstracts + kept index)",
                found["reopen"],
                "s",
                size,
            )
        )
        out.append(
            (
                "1M: numpy imported for the arrays (the reader: on a thread)",
                found["prepare"],
                "s",
                size,
            )
        )
        out.append(
            ("1M: search keystroke p50 (opened from the store)", 1000 * found["p50"], "ms", size)
        )
        out.append(
            ("1M: search keystroke p95 (opened from the store)", 1000 * found["p95"], "ms", size)
        )
        out.append(
            (
                "1M: search keystroke p95 CPU time (without waits for other processes)",
                1000 * found["p95_cpu"],
                "ms",
                size,
            )
        )
        sys.stderr.write(f"1M: the keys at and above the 95th percentile: {found['slowest']}\n")
        out.append(("1M: reopen + typed queries, peak memory", found["peak_mib"], "MiB", size))
        started = time.perf_counter()
        command = [
            sys.executable,
            "-m",
            "paperdeck",
            "search",
            "graph neural networks",
            str(listing),
        ]
        subprocess.run(
            command, capture_output=True, env={**os.environ, "PAPERDECK_CACHE": cache}, check=True
        )
        out.append(
            ("1M: `paperdeck search` whole process", time.perf_counter() - started, "s", size)
        )
    return out

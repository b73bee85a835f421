"""Benchmark rows: reading a list into raw records (read_list alone) and its peak memory."""

from __future__ import annotations

import lzma
import shutil
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from paperdeck.core.formats import read_list

Row = tuple[str, float, str, str]

# (paths key, label); the 100k list is read as plain text, unpacked from .xz when needed.
LISTS = (
    ("seed", "txt"),
    ("icml5k_txt", "txt"),
    ("conf100k_txt", "txt"),
    ("icml5k_jsonl", "jsonl"),
    ("bib500", "bib"),
)


def rows(paths: dict[str, Path | None]) -> list[Row]:
    out: list[Row] = []
    with _plain_100k(paths) as conf100k:
        for key, label in LISTS:
            path = conf100k if key == "conf100k_txt" else paths.get(key)
            if path is None:
                continue
            # Best of a few runs: the machine is shared and noisy.
            repeats = 2 if key == "conf100k_txt" else 5
            seconds = []
            for _ in range(repeats):
                started = time.perf_counter()
                raw = read_list(path)
                seconds.append(time.perf_counter() - started)
                count = len(raw.records)
                del raw
            tracemalloc.start()
            raw = read_list(path)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            del raw
            size = f"{count:,}"
            out.append((f"read_list {label} ({path.name})", min(seconds) * 1000, "ms", size))
            out.append((f"read_list {label} peak memory", peak / 2**20, "MiB", size))
    return out


@contextmanager
def _plain_100k(paths: dict[str, Path | None]) -> Iterator[Path | None]:
    plain = paths.get("conf100k_txt")
    packed = paths.get("conf100k_xz")
    if plain is not None or packed is None:
        yield plain
        return
    with tempfile.TemporaryDirectory(prefix="paperdeck-bench-") as scratch:
        target = Path(scratch) / "conference-100k.txt"
        with lzma.open(packed) as source, target.open("wb") as sink:
            shutil.copyfileobj(source, sink)
        yield target


def main(argv: list[str]) -> None:
    """`python benchmarks/bench_formats.py KEY=PATH ...` (keys as in benchmarks/run.py)."""
    paths: dict[str, Path | None] = {}
    for argument in argv:
        key, _, text = argument.partition("=")
        paths[key] = Path(text)
    for name, value, unit, size in rows(paths):
        print(f"{name:<48} {value:>10.1f} {unit:<4} {size:>8}")


if __name__ == "__main__":
    main(sys.argv[1:])

"""Benchmark rows: opening a list (read, ids, derived titles, links) and its peak memory."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

from paperdeck.library import load_library

Row = tuple[str, float, str, str]


def rows(paths: dict[str, Path | None]) -> list[Row]:
    out: list[Row] = []
    for key in ("seed", "icml5k_txt", "conf100k_txt"):
        path = paths.get(key)
        if path is None:
            continue
        started = time.perf_counter()
        library = load_library([path], use_sidecar=key == "seed")
        seconds = time.perf_counter() - started
        size = f"{len(library.papers):,}"
        out.append(("load list (read + build papers)", seconds * 1000, "ms", size))
        del library
        tracemalloc.start()
        library = load_library([path], use_sidecar=key == "seed")
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        out.append(("load list peak memory", peak / 2**20, "MiB", size))
        del library
    return out

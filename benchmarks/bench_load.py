"""Benchmark rows: opening a list (read, ids, derived titles, links), cold and warm cache."""

from __future__ import annotations

import os
import tempfile
import time
import tracemalloc
from pathlib import Path

from paperdeck.core.library import load_library

Row = tuple[str, float, str, str]


def rows(paths: dict[str, Path | None]) -> list[Row]:
    out: list[Row] = []
    previous = os.environ.get("PAPERDECK_CACHE")
    with tempfile.TemporaryDirectory(prefix="paperdeck-bench-cache-") as cache:
        # A fresh cache folder: the first open is cold, the second finds the first one's work.
        os.environ["PAPERDECK_CACHE"] = cache
        try:
            for key in ("seed", "icml5k_txt", "conf100k_txt"):
                path = paths.get(key)
                if path is None:
                    continue
                out.extend(_rows_for(path, use_sidecar=key == "seed"))
        finally:
            if previous is None:
                os.environ.pop("PAPERDECK_CACHE", None)
            else:
                os.environ["PAPERDECK_CACHE"] = previous
    return out


def _rows_for(path: Path, *, use_sidecar: bool) -> list[Row]:
    started = time.perf_counter()
    library = load_library([path], use_sidecar=use_sidecar)
    cold = time.perf_counter() - started
    size = f"{len(library.papers):,}"
    del library
    started = time.perf_counter()
    library = load_library([path], use_sidecar=use_sidecar)
    warm = time.perf_counter() - started
    del library
    tracemalloc.start()
    library = load_library([path], use_sidecar=use_sidecar)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del library
    return [
        ("load list, cold cache (read + ids + titles)", cold * 1000, "ms", size),
        ("load list, warm cache", warm * 1000, "ms", size),
        ("load list peak memory (warm)", peak / 2**20, "MiB", size),
    ]

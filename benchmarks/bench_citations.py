"""Benchmark rows: citation keys, one citation (what `c` costs) and whole lists in each format."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from pathlib import Path

from paperdeck.core.citations import FORMATS, citation_keys, cite, cite_many
from paperdeck.core.library import load_library

Row = tuple[str, float, str, str]


def _best(action: Callable[[], object], repeats: int) -> float:
    # Best of a few runs: the machine is shared and noisy.
    seconds = []
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        seconds.append(time.perf_counter() - started)
    return min(seconds)


def rows(paths: dict[str, Path | None]) -> list[Row]:
    out: list[Row] = []
    for key in ("seed", "icml5k_jsonl"):
        path = paths.get(key)
        if path is not None:
            out.extend(_list_rows(path, parse_back=key == "icml5k_jsonl"))
    return out


def _list_rows(path: Path, *, parse_back: bool) -> list[Row]:
    papers = load_library([path]).papers
    size = f"{len(papers):,}"
    out: list[Row] = []
    keys_time = _best(lambda: citation_keys(papers), 3)
    out.append((f"citation_keys ({path.name})", keys_time * 1000, "ms", size))
    keys = citation_keys(papers)
    first = papers[0]
    one = _best(lambda: cite(first, "bibtex", key=keys[first.id]), 50)
    out.append((f"cite one paper, BibTeX ({path.name})", one * 1e6, "µs", size))
    for fmt in FORMATS:
        seconds = _best(functools.partial(cite_many, papers, fmt, keys=keys), 2)
        out.append((f"cite_many {fmt} ({path.name})", seconds * 1000, "ms", size))
    if parse_back:
        import bibtexparser

        text = cite_many(papers, "bibtex", keys=keys).text
        started = time.perf_counter()
        library = bibtexparser.parse_string(text)
        parsed = time.perf_counter() - started
        label = f"bibtexparser reads the BibTeX back ({len(library.failed_blocks)} failed blocks)"
        out.append((label, parsed * 1000, "ms", size))
    return out

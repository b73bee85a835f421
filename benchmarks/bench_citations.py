"""Benchmark rows: citation keys, one citation (what `c` costs), 40 marked papers in each format
(CSL styles through citeproc-py included) and whole lists in paperdeck's own formats."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from pathlib import Path

from paperdeck.core.citations import FORMATS, citation_keys, cite, cite_many
from paperdeck.core.citations.styles import _parsed_style, load_style, style_path
from paperdeck.core.library import load_library
from paperdeck.core.titles.derive import cited_title

Row = tuple[str, float, str, str]

# Rendered by citeproc-py (~12 ms a paper): timed on 40 papers, what a user marks and copies.
_CSL_FORMATS = ("apa", "text", "ieee", "chicago-author-date")
_MARKED = 40


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
    path = paths.get("icml5k_txt")
    if path is not None:
        out.extend(_made_up_title_rows(path))
    return out


def _made_up_title_rows(path: Path) -> list[Row]:
    """A title-less list as BibTeX: each made-up title cut to fit a row is derived again
    whole for its citation, the first time it is cited."""
    papers = load_library([path]).papers
    size = f"{len(papers):,}"
    keys = citation_keys(papers)
    cited_title.cache_clear()
    started = time.perf_counter()
    cite_many(papers, "bibtex", keys=keys)
    first = time.perf_counter() - started
    again = _best(functools.partial(cite_many, papers, "bibtex", keys=keys), 3)
    label = f"cite_many bibtex, whole title-less list ({path.name})"
    return [
        (f"{label}, first time", first * 1000, "ms", size),
        (f"{label}, again", again * 1000, "ms", size),
    ]


def _style_rows() -> list[Row]:
    path = style_path("apa")
    _parsed_style.cache_clear()
    started = time.perf_counter()
    load_style(path)
    first = time.perf_counter() - started
    cached = _best(lambda: load_style(path), 20)
    return [
        ("CSL style apa.csl parsed, first time", first * 1000, "ms", "1"),
        ("CSL style apa.csl, cached", cached * 1e6, "µs", "1"),
    ]


def _list_rows(path: Path, *, parse_back: bool) -> list[Row]:
    papers = load_library([path]).papers
    size = f"{len(papers):,}"
    out: list[Row] = _style_rows() if parse_back else []
    keys_time = _best(lambda: citation_keys(papers), 3)
    out.append((f"citation_keys ({path.name})", keys_time * 1000, "ms", size))
    keys = citation_keys(papers)
    first = papers[0]
    one = _best(lambda: cite(first, "bibtex", key=keys[first.id]), 50)
    out.append((f"cite one paper, BibTeX ({path.name})", one * 1e6, "µs", size))
    one_apa = _best(lambda: cite(first, "apa", key=keys[first.id]), 10)
    out.append((f"cite one paper, APA via citeproc-py ({path.name})", one_apa * 1000, "ms", "1"))
    marked = papers[:_MARKED]
    for fmt in (*FORMATS, *_CSL_FORMATS[2:]):
        seconds = _best(functools.partial(cite_many, marked, fmt, keys=keys), 3)
        label = f"cite_many {fmt}, {len(marked)} marked papers ({path.name})"
        out.append((label, seconds * 1000, "ms", str(len(marked))))
    for fmt in FORMATS:
        if fmt in _CSL_FORMATS:
            continue
        seconds = _best(functools.partial(cite_many, papers, fmt, keys=keys), 2)
        out.append((f"cite_many {fmt}, whole list ({path.name})", seconds * 1000, "ms", size))
    if parse_back:
        from bibtexparser.entrypoint import parse_string

        text = cite_many(papers, "bibtex", keys=keys).text
        started = time.perf_counter()
        library = parse_string(text)
        parsed = time.perf_counter() - started
        label = f"bibtexparser reads the BibTeX back ({len(library.failed_blocks)} failed blocks)"
        out.append((label, parsed * 1000, "ms", size))
    return out

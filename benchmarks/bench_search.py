"""Benchmark rows: search speed per keystroke, index build and memory, and quality against fzf."""

from __future__ import annotations

import contextlib
import gc
import json
import lzma
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Generator, Iterator, Sequence
from pathlib import Path

from paperdeck.core import config
from paperdeck.core.model import Paper
from paperdeck.core.plumbing import helper_process
from paperdeck.core.plumbing.slices import finish
from paperdeck.core.search import index_parts
from paperdeck.core.search.index import SearchIndex
from paperdeck.core.store.database import ListInfo, ListStore

Row = tuple[str, float, str, str]
SAMPLE_SEED = 2026
SAMPLES = 300
TITLE_CHARS = 80
# Real queries, typed one character at a time: each keystroke is a search.
TYPED = (
    "speculative decoding",
    "reinforcement learning from human feedback",
    "graph neural networks",
    "diffusion models for image generation",
    "contrastive learning",
    "bayesian optimization",
    "large language models reasoning",
    "adversarial robustness",
    "federated learning privacy",
    "transformer attention",
    "O(n log n)",
    "self-supervised representation",
    '"policy gradient"',
    "title:graph !survey",
    "kernel | gaussian process",
    "reinforcment lerning",
)
_STOP_WORDS = (
    "the and for with from via into over under its their our are can not how what when why "
    "towards toward using use based beyond between through without than more less new all "
    "on in of to a an is by as at or"
)
_STOP = frozenset(_STOP_WORDS.split())


def rows(paths: dict[str, Path | None]) -> list[Row]:
    out: list[Row] = []
    seed = paths.get("seed")
    if seed is not None:
        out.extend(_speed_rows(_papers_from_txt(seed.read_text("utf-8")), memory=True))
    icml5k = paths.get("icml5k_txt")
    if icml5k is not None:
        out.extend(_speed_rows(_papers_from_txt(icml5k.read_text("utf-8")), memory=True))
    conf = paths.get("conf100k_txt") or paths.get("conf100k_xz")
    if conf is not None:
        papers = _papers_from_txt(_read_maybe_xz(conf))
        out.extend(_speed_rows(papers, memory=True))
        out.extend(_fzf_speed_rows(papers))
    fzf = shutil.which("fzf")
    for key in ("icml2026_jsonl", "icml5k_jsonl"):
        path = paths.get(key)
        if path is not None:
            out.extend(_quality_rows(_papers_from_jsonl(path), fzf))
    out.extend(_known_item_rows(paths))
    out.extend(_related_rows(paths))
    return out


# ---- lists ----


def _read_maybe_xz(path: Path) -> str:
    if path.suffix == ".xz":
        with lzma.open(path, "rt", encoding="utf-8") as handle:
            return handle.read()
    return path.read_text("utf-8")


def _papers_from_txt(text: str) -> list[Paper]:
    """The list format: a header line, then abstracts separated by blank lines."""
    body = text.split("\n", 1)[1] if "\n" in text else ""
    abstracts = [p.strip() for p in re.split(r"\n[ \t]*\n", body) if p.strip()]
    return [
        Paper(
            id=f"{i:08x}",
            position=i + 1,
            list_name="bench",
            title=_derived_title(abstract),
            title_derived=True,
            abstract=abstract,
        )
        for i, abstract in enumerate(abstracts)
    ]


def _derived_title(abstract: str) -> str:
    flat = " ".join(abstract.split())
    if len(flat) <= TITLE_CHARS:
        return flat
    cut = flat.rfind(" ", 0, TITLE_CHARS)
    return flat[: cut if cut > 0 else TITLE_CHARS]


def _papers_from_jsonl(path: Path) -> list[Paper]:
    records = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    return [
        Paper(
            id=f"{i:08x}",
            position=i + 1,
            list_name=path.stem,
            title=record["title"],
            title_derived=False,
            abstract=record["abstract"],
        )
        for i, record in enumerate(records)
    ]


# ---- speed ----


def _speed_rows(papers: list[Paper], *, memory: bool) -> list[Row]:
    size = f"{len(papers):,}"
    helpers = index_parts.helper_count(len(papers))
    # As the reader does once a list is loaded: the collector no longer walks the papers.
    gc.collect()
    gc.freeze()
    builds: list[float] = []
    with _private_cache(off=True):
        for _ in range(3):  # first openings: nothing kept yet
            started = time.perf_counter()
            index = finish(SearchIndex.build_steps(papers))
            builds.append(time.perf_counter() - started)
        build_slice = _longest_slice(lambda: SearchIndex.build_steps(papers))
        with _helpers(0):
            started = time.perf_counter()
            SearchIndex(papers)
            one_process = time.perf_counter() - started
    with _private_cache() as cache:
        key = _stored_list(papers)
        kept = finish(SearchIndex.build_steps(papers, key))
        started = time.perf_counter()
        finish(kept.save_steps())
        save = time.perf_counter() - started
        again = finish(SearchIndex.build_steps(papers))
        again._unsaved = key, papers  # saved again in its place, as after a new version's build
        save_slice = _longest_slice(again.save_steps)
        del again
        store_bytes = sum(path.stat().st_size for path in cache.iterdir())
        opens = []
        for _ in range(3):
            started = time.perf_counter()
            stored = SearchIndex(papers, key)
            opens.append(time.perf_counter() - started)
        open_slice = _longest_slice(lambda: SearchIndex.build_steps(papers, key))
        # Timed on a fresh opening (its postings read as the queries need them), then
        # measured on another: tracemalloc slows every allocation.
        stored_keys = _keystrokes(stored)
        stored_slice = _search_slice(stored)
        del stored
        tracemalloc.start()
        stored = SearchIndex(papers, key)
        opened_held, _ = tracemalloc.get_traced_memory()
        _keystrokes(stored)
        queried_held, queried_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        del stored
    keystrokes = _keystrokes(index)
    median = statistics.median
    helper_note = f"{helpers} helper process{'es' if helpers != 1 else ''}"
    out: list[Row] = [
        (f"search index build ({helper_note}), median of 3", statistics.median(builds), "s", size),
        ("search index build (this process alone)", one_process, "s", size),
        ("search index build, longest slice", 1000 * build_slice, "ms", size),
        ("search index save to the list store (a thread, after it answers)", save, "s", size),
        ("search index save, longest hold of the save thread", 1000 * save_slice, "ms", size),
        ("list store file with the index", store_bytes / 2**20, "MiB", size),
        ("search index open from the list store (median of 3)", 1000 * median(opens), "ms", size),
        ("search index open, longest slice", 1000 * open_slice, "ms", size),
        ("search index memory, opened from the store", opened_held / 2**20, "MiB", size),
        ("search index memory, opened, after the typed queries", queried_held / 2**20, "MiB", size),
        ("search index peak memory, opened + typed queries", queried_peak / 2**20, "MiB", size),
        ("search keystroke p50 (index in memory)", 1000 * median(keystrokes), "ms", size),
        ("search keystroke p95 (index in memory)", 1000 * _p95(keystrokes), "ms", size),
        ("search keystroke max (index in memory)", 1000 * keystrokes[-1], "ms", size),
        ("search keystroke p50 (opened from the store)", 1000 * median(stored_keys), "ms", size),
        ("search keystroke p95 (opened from the store)", 1000 * _p95(stored_keys), "ms", size),
        ("search keystroke max (opened from the store)", 1000 * stored_keys[-1], "ms", size),
        ("search keystroke, longest slice (in memory)", 1000 * _search_slice(index), "ms", size),
        ("search keystroke, longest slice (opened)", 1000 * stored_slice, "ms", size),
    ]
    if memory:
        text_bytes = sum(len(p.title.encode()) + len(p.abstract.encode()) for p in papers)
        del index
        with _private_cache(off=True):
            tracemalloc.start()
            index = SearchIndex(papers)
            held, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
        del index
        out += [
            ("search index memory (built in memory)", held / 2**20, "MiB", size),
            ("search index memory / indexed text", held / text_bytes, "x", size),
            ("search index build peak memory", peak / 2**20, "MiB", size),
        ]
    if helpers:
        out.append(("search index helper process peak RSS", _helper_peak(papers), "MiB", size))
    return out


def _keystrokes(index: SearchIndex) -> list[float]:
    """Seconds per search of every prefix of the typed queries, sorted."""
    index.prepare_arrays()  # as the reader does once its index is ready
    keystrokes: list[float] = []
    for query in TYPED:
        for end in range(1, len(query) + 1):
            started = time.perf_counter()
            index.search(query[:end])
            keystrokes.append(time.perf_counter() - started)
    keystrokes.sort()
    return keystrokes


def _search_slice(index: SearchIndex) -> float:
    """The longest slice of a few expensive searches not typed above (a cache would hide it)."""
    return max(
        _longest_slice(lambda query=query: index.search_steps(query))  # type: ignore[misc]
        for query in ("m", "pro", "learning", "neural networks for l", "'ing", "LLM")
    )


def _stored_list(papers: list[Paper]) -> str:
    """Keep the papers in the list store (in the private cache) as a list opened would be."""
    messages: list[str] = []
    store = ListStore.open(messages)
    assert store is not None, messages
    key = f"bench-{len(papers)}"
    try:
        store.save(key, ListInfo("txt", None, None, None), papers)
    finally:
        store.close()
    return key


@contextlib.contextmanager
def _private_cache(*, off: bool = False) -> Iterator[Path]:
    """A fresh, empty cache folder for the index (or none at all), restored afterwards."""
    before = os.environ.get("PAPERDECK_CACHE")
    with tempfile.TemporaryDirectory(prefix="paperdeck-bench-cache-") as folder:
        os.environ["PAPERDECK_CACHE"] = "off" if off else folder
        try:
            yield Path(folder)
        finally:
            if before is None:
                del os.environ["PAPERDECK_CACHE"]
            else:
                os.environ["PAPERDECK_CACHE"] = before


def _helper_peak(papers: list[Paper]) -> float:
    """The peak memory of a helper indexing its part, in MiB.

    Run from a small wrapper: a child's maxrss counts the memory of the process it was
    started from, and the benchmark holds every paper.
    """
    # At least one helper's part, however busy the machine is now (a busy one starts none).
    helpers = max(1, index_parts.helper_count(len(papers)))
    start, stop = helper_process.plan(len(papers), helpers, index_parts.OWN_WEIGHT)[1]
    wrapper = (
        "import resource, subprocess, sys\n"
        "with open(sys.argv[1], 'rb') as request:\n"
        "    done = subprocess.run(sys.argv[2:], stdin=request, stdout=subprocess.DEVNULL)\n"
        "usage = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
        "print(usage if done.returncode == 0 else -1)\n"
    )
    with tempfile.TemporaryDirectory(prefix="paperdeck-helper-") as scratch:
        request = Path(scratch) / "request.bin"
        with request.open("wb") as handle:
            index_parts.write_request(handle, papers[start:stop], start)
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                wrapper,
                str(request),
                *helper_process.helper_command(f"{index_parts.__name__}:serve"),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
    return int(done.stdout) / 1024  # KiB on Linux


@contextlib.contextmanager
def _helpers(count: int) -> Iterator[None]:
    """Index with this many helper processes, restored afterwards."""
    before = os.environ.get(config.HELPERS_ENV)
    os.environ[config.HELPERS_ENV] = str(count)
    try:
        yield
    finally:
        if before is None:
            del os.environ[config.HELPERS_ENV]
        else:
            os.environ[config.HELPERS_ENV] = before


def _longest_slice(start: Callable[[], Generator[object, None, object]]) -> float:
    """The longest run of a generator between two of its yields (or its start or end).

    Between slices it makes a few objects the collector tracks, as the reader's event loop
    does: the collector then runs at slice boundaries, as in the reader, not all at once at
    the end (a 12 ms collection of 125,000 new arrays when nothing runs between slices).
    """
    longest = 0.0
    before = time.perf_counter()
    steps = start()
    while True:
        try:
            next(steps)
        except StopIteration:
            return max(longest, time.perf_counter() - before)
        now = time.perf_counter()
        longest = max(longest, now - before)
        _between_slices: list[list[int]] = [[] for _ in range(50)]
        del _between_slices
        before = time.perf_counter()


def _fzf_speed_rows(papers: list[Paper]) -> list[Row]:
    fzf = shutil.which("fzf")
    if fzf is None:
        return []
    with tempfile.TemporaryDirectory(prefix="paperdeck-fzf-") as scratch:
        lines = Path(scratch) / "lines.txt"
        lines.write_text("\n".join(_line(p) for p in papers) + "\n", "utf-8")
        started = time.perf_counter()
        _fzf(fzf, lines, "speculative decoding")
        elapsed = time.perf_counter() - started
    return [("fzf --filter 'speculative decoding' (one query)", elapsed, "s", f"{len(papers):,}")]


# ---- quality ----


def _line(paper: Paper) -> str:
    return " ".join(f"{paper.title} {paper.abstract}".split())


def _fzf(fzf: str, lines: Path, query: str) -> list[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("FZF_")}
    with lines.open("rb") as stdin:
        done = subprocess.run(
            [fzf, "--filter", query], stdin=stdin, capture_output=True, env=env, check=False
        )
    return done.stdout.decode("utf-8", "replace").splitlines()


def _title_query(title: str, rng: random.Random) -> list[str]:
    candidates = [
        word
        for word in (w.strip(".,:;!?()[]{}\"'").lower() for w in title.split())
        if len(word) >= 3 and word not in _STOP and re.fullmatch(r"[a-z][a-z0-9-]*", word)
    ]
    candidates = list(dict.fromkeys(candidates))
    if len(candidates) < 2:
        return []
    count = min(len(candidates), rng.choice((2, 3)))
    chosen = sorted(rng.sample(range(len(candidates)), count))
    return [candidates[i] for i in chosen]


def _typo(words: list[str], rng: random.Random) -> list[str]:
    longest = max(range(len(words)), key=lambda i: (len(words[i]) >= 5, rng.random()))
    word = words[longest]
    at = rng.randrange(1, len(word))
    letters = "abcdefghijklmnopqrstuvwxyz"
    kind = rng.choice(("delete", "substitute", "transpose", "insert"))
    if kind == "delete":
        changed = word[:at] + word[at + 1 :]
    elif kind == "substitute":
        changed = word[:at] + rng.choice(letters.replace(word[at], "")) + word[at + 1 :]
    elif kind == "transpose" and at < len(word) - 1 and word[at] != word[at + 1]:
        changed = word[:at] + word[at + 1] + word[at] + word[at + 2 :]
    else:
        changed = word[:at] + rng.choice(letters) + word[at:]
    return [*words[:longest], changed, *words[longest + 1 :]]


def _quality_rows(papers: list[Paper], fzf: str | None) -> list[Row]:
    rng = random.Random(SAMPLE_SEED)
    targets = rng.sample(range(len(papers)), min(SAMPLES, len(papers)))
    cases: list[tuple[int, list[str], list[str]]] = []
    for target in targets:
        words = _title_query(papers[target].title, rng)
        if words:
            cases.append((target, words, _typo(words, rng)))
    index = SearchIndex(papers)
    size = f"{len(papers):,}"
    out: list[Row] = []
    variants: tuple[tuple[str, Callable[[tuple[int, list[str], list[str]]], list[str]]], ...] = (
        ("", lambda case: case[1]),
        (", one typo", lambda case: case[2]),
    )
    with tempfile.TemporaryDirectory(prefix="paperdeck-fzf-") as scratch:
        lines_path = Path(scratch) / "lines.txt"
        lines = [_line(p) for p in papers]
        lines_path.write_text("\n".join(lines) + "\n", "utf-8")
        for suffix, words_of in variants:
            ours: list[int] = []
            theirs: list[int] = []
            for case in cases:
                target, query = case[0], " ".join(words_of(case))
                ours.append(_rank(list(index.search(query).indices), target))
                if fzf is not None:
                    found = _fzf(fzf, lines_path, query)
                    theirs.append(_rank_line(found, lines[target]))
            name = f"known-item ({len(cases)} title queries{suffix})"
            out += _metric_rows(f"search {name}", ours, size)
            if fzf is not None:
                out += _metric_rows(f"fzf --filter {name}", theirs, size)
    return out


def _rank(found: Sequence[int], target: int) -> int:
    """1-based rank of `target`, 0 when it is missing."""
    try:
        return found.index(target) + 1
    except ValueError:
        return 0


def _rank_line(found: list[str], line: str) -> int:
    try:
        return found.index(line) + 1
    except ValueError:
        return 0


def _metric_rows(name: str, ranks: list[int], size: str) -> list[Row]:
    count = max(len(ranks), 1)
    mrr = sum(1 / rank for rank in ranks if rank) / count
    at1 = sum(1 for rank in ranks if rank == 1) / count
    at10 = sum(1 for rank in ranks if 0 < rank <= 10) / count
    return [
        (f"{name} MRR", mrr, "", size),
        (f"{name} recall@1", 100 * at1, "%", size),
        (f"{name} recall@10", 100 * at10, "%", size),
    ]


# ---- known-item search on title-less lists ----


KNOWN_ITEM_DEPTH = 100
"""MRR@100: a target found below this rank counts as not found."""


def _known_item_rows(paths: dict[str, Path | None]) -> list[Row]:
    """The user remembers three words of a paper's real title; the list has only abstracts
    (titles derived from them). The queries come from the JSONL titles and search the TXT
    lists as the reader loads them; also the 823 papers mixed into the 100k list."""
    out: list[Row] = []
    icml_txt, icml_jsonl = paths.get("icml2026_txt"), paths.get("icml2026_jsonl")
    icml5k_txt, icml5k_jsonl = paths.get("icml5k_txt"), paths.get("icml5k_jsonl")
    conf = paths.get("conf100k_txt")
    with tempfile.TemporaryDirectory(prefix="paperdeck-known-item-") as scratch:
        lists: list[tuple[str, Path, Path, list[int] | None]] = []
        if icml_txt is not None and icml_jsonl is not None:
            lists.append(("823", icml_txt, icml_jsonl, None))
        if icml5k_txt is not None and icml5k_jsonl is not None:
            lists.append(("5,000", icml5k_txt, icml5k_jsonl, None))
        if conf is not None and icml_txt is not None and icml_jsonl is not None:
            mixed, places = _mixed_list(conf, icml_txt, Path(scratch))
            lists.append(("823 in 100,823", mixed, icml_jsonl, places))
        for size, txt, jsonl, targets in lists:
            out.extend(_known_item_list_rows(size, txt, jsonl, targets, Path(scratch)))
    return out


def _mixed_list(conf: Path, icml_txt: Path, scratch: Path) -> tuple[Path, list[int]]:
    """The 823 ICML 2026 abstracts put at fixed random places among the 100k; where each went."""
    big = _abstracts(_read_maybe_xz(conf))
    small = _abstracts(icml_txt.read_text("utf-8"))
    rng = random.Random(SAMPLE_SEED)
    places = sorted(rng.sample(range(len(big) + len(small)), len(small)))
    merged: list[str] = []
    taken = iter(big)
    at = 0
    for position in range(len(big) + len(small)):
        if at < len(places) and places[at] == position:
            merged.append(small[at])
            at += 1
        else:
            merged.append(next(taken))
    path = scratch / "mixed-100k.txt"
    path.write_text("823 inside 100k\n\n" + "\n\n".join(merged) + "\n", "utf-8")
    return path, places


def _abstracts(text: str) -> list[str]:
    body = text.split("\n", 1)[1] if "\n" in text else ""
    return [p.strip() for p in re.split(r"\n[ \t]*\n", body) if p.strip()]


def _known_item_cases(
    titles: list[str], targets: list[int]
) -> list[tuple[int, list[str], list[str]]]:
    """Up to 300 queries: three words of a real title (all if it has fewer), and with a typo."""
    rng = random.Random(SAMPLE_SEED)
    cases: list[tuple[int, list[str], list[str]]] = []
    for number in rng.sample(range(len(titles)), len(titles)):
        words = _title_words(titles[number], rng, 3)
        if words:
            cases.append((targets[number], words, _typo(words, rng)))
        if len(cases) == SAMPLES:
            break
    return cases


def _title_words(title: str, rng: random.Random, count: int) -> list[str]:
    candidates = [
        word
        for word in (w.strip(".,:;!?()[]{}\"'").lower() for w in title.split())
        if len(word) >= 3 and word not in _STOP and re.fullmatch(r"[a-z][a-z0-9-]*", word)
    ]
    candidates = list(dict.fromkeys(candidates))
    if len(candidates) < 2:
        return []
    chosen = sorted(rng.sample(range(len(candidates)), min(count, len(candidates))))
    return [candidates[i] for i in chosen]


def _known_item_list_rows(
    size: str, txt: Path, jsonl: Path, targets: list[int] | None, scratch: Path
) -> list[Row]:
    from paperdeck.core.library import load_library

    titles = [json.loads(line)["title"] for line in jsonl.read_text("utf-8").splitlines() if line]
    with _private_cache(off=True):
        papers = load_library([txt], use_sidecar=False).papers
        index = SearchIndex(papers)
    index.prepare_arrays()  # as the reader does
    cases = _known_item_cases(titles, targets or list(range(len(titles))))
    fts = _fts5(papers, scratch)
    out: list[Row] = []
    name = f"known-item MRR@100, {len(cases)} three-word title queries on the title-less list"
    for label, typo in (("", False), (", one typo", True)):
        ours: list[int] = []
        all_words: list[int] = []
        theirs: list[int] = []
        empty = 0
        elapsed: list[float] = []
        for case in cases:
            target, words = case[0], case[2] if typo else case[1]
            started = time.perf_counter()
            result = index.search(" ".join(words))
            elapsed.append(time.perf_counter() - started)
            ours.append(_rank(list(result.indices[:KNOWN_ITEM_DEPTH]), target))
            all_words.append(_rank(list(result.indices[: result.matched_all]), target))
            empty += not result.matched_all
            theirs.append(_rank(_fts5_search(fts, words), target))
        elapsed.sort()
        out += [
            (f"search {name}{label}", _mrr(ours), "", size),
            (f"search {name}{label}, every word only", _mrr(all_words), "", size),
            (f"search {name}{label}, queries no paper matches in full", empty, "", size),
            (f"SQLite FTS5 OR (porter, bm25) {name}{label}", _mrr(theirs), "", size),
            (f"search {name}{label}, p50", 1000 * statistics.median(elapsed), "ms", size),
            (
                f"search {name}{label}, p95",
                1000 * elapsed[int(0.95 * (len(elapsed) - 1))],
                "ms",
                size,
            ),
        ]
    fts.close()
    return out


def _p95(ordered: list[float]) -> float:
    return ordered[int(0.95 * (len(ordered) - 1))]


def _mrr(ranks: list[int]) -> float:
    return sum(1 / rank for rank in ranks if 0 < rank <= KNOWN_ITEM_DEPTH) / max(1, len(ranks))


def _fts5(papers: Sequence[Paper], scratch: Path) -> sqlite3.Connection:
    """The same papers in an SQLite FTS5 table (porter stemming), as the issue measured it."""
    db = sqlite3.connect(":memory:")
    db.execute(
        "CREATE VIRTUAL TABLE papers USING fts5(title, abstract, "
        "tokenize='porter unicode61 remove_diacritics 2')"
    )
    db.executemany(
        "INSERT INTO papers(rowid, title, abstract) VALUES (?, ?, ?)",
        ((i, paper.title, paper.abstract) for i, paper in enumerate(papers)),
    )
    return db


def _fts5_search(db: sqlite3.Connection, words: list[str]) -> list[int]:
    query = " OR ".join('"' + word.replace('"', "") + '"' for word in words)
    rows = db.execute(
        "SELECT rowid FROM papers WHERE papers MATCH ? ORDER BY bm25(papers) LIMIT ?",
        (query, KNOWN_ITEM_DEPTH),
    )
    return [int(row[0]) for row in rows]


# ---- related papers ----


RELATED_SEEDS = 300
RELATED_TOP = 5


def _related_rows(paths: dict[str, Path | None]) -> list[Row]:
    """How often the 5 papers most like a paper share a word of its real title with it (the
    list searched is title-less; titles come from the JSONL), against 5 papers at random."""
    from paperdeck.core.library import load_library
    from paperdeck.core.search.related import related

    txt, jsonl = paths.get("icml5k_txt"), paths.get("icml5k_jsonl")
    if txt is None or jsonl is None:
        return []
    titles = [json.loads(line)["title"] for line in jsonl.read_text("utf-8").splitlines() if line]
    with _private_cache(off=True):
        papers = load_library([txt], use_sidecar=False).papers
        index = SearchIndex(papers).word_index
    rng = random.Random(SAMPLE_SEED)
    title_words = [set(_title_words(title, random.Random(0), 99)) for title in titles]
    sharing: list[float] = []
    any_shares = 0
    chance: list[float] = []
    elapsed: list[float] = []
    for seed in rng.sample(range(len(papers)), min(RELATED_SEEDS, len(papers))):
        own = title_words[seed]
        started = time.perf_counter()
        found = related(index, [seed], RELATED_TOP)
        elapsed.append(time.perf_counter() - started)
        shares = [bool(own & title_words[like.index]) for like in found]
        sharing.append(sum(shares) / RELATED_TOP)
        any_shares += any(shares)
        others = rng.sample([i for i in range(len(papers)) if i != seed], RELATED_TOP)
        chance.append(sum(bool(own & title_words[i]) for i in others) / RELATED_TOP)
    elapsed.sort()
    size = f"{len(papers):,}"
    count = len(sharing)
    name = f"related papers, {count} title-less papers: of the top {RELATED_TOP}"
    return [
        (f"{name}, share of those with a word of the paper's real title", mean(sharing), "", size),
        (f"{name}, papers with at least one such", 100 * any_shares / count, "%", size),
        (f"{name}: 5 papers at random, share with a title word", mean(chance), "", size),
        ("related papers of one paper, p50", 1000 * statistics.median(elapsed), "ms", size),
        ("related papers of one paper, p95", 1000 * _p95(elapsed), "ms", size),
    ]


def mean(values: list[float]) -> float:
    return sum(values) / max(1, len(values))


if __name__ == "__main__":
    data = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
    found_paths: dict[str, Path | None] = {
        "seed": Path(__file__).resolve().parent.parent / "seeds" / "icml2026.txt",
        "icml5k_txt": data / "icml-2020-2023.txt",
        "icml5k_jsonl": data / "icml-2020-2023.jsonl",
        "conf100k_xz": data / "conference-100k.txt.xz",
        "icml2026_jsonl": data / "icml2026-papers.jsonl",
    }
    for row in rows(found_paths):
        print(f"{row[0]:<60} {row[1]:>10.3f} {row[2]:<4} {row[3]}")

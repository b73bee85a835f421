"""Benchmark rows: saving and loading a notes store of 10,000 notes (targets 50 ms and 100 ms)."""

from __future__ import annotations

import functools
import itertools
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from paperdeck.core.ids import assign_ids
from paperdeck.core.model import Paper
from paperdeck.core.notes.store import NotesStore

Row = tuple[str, float, str, str]
NOTES = 10_000
REPEATS = 5


def _paragraphs(path: Path) -> Iterator[str]:
    """Abstracts of a list in the seed's format, read as a stream (the 100k file is large)."""
    lines: list[str] = []
    with path.open(encoding="utf-8") as handle:
        next(handle, None)  # the header line
        for line in handle:
            if line.strip():
                lines.append(line.strip())
            elif lines:
                yield " ".join(lines)
                lines = []
    if lines:
        yield " ".join(lines)


def _papers(paths: dict[str, Path | None]) -> list[Paper] | None:
    source = paths.get("conf100k_txt") or paths.get("icml5k_txt")
    if source is None:
        return None
    texts = list(itertools.islice(_paragraphs(source), NOTES))
    # The 5k list serves twice over when the 100k one is absent; the suffix keeps ids distinct.
    texts = [f"{texts[i % len(texts)]} ({i // len(texts)})" for i in range(NOTES)]
    ids = assign_ids(texts)
    return [
        Paper(
            id=paper_id,
            position=position,
            list_name=source.stem,
            title=text[:60],
            title_derived=True,
            abstract=text,
        )
        for position, (text, paper_id) in enumerate(zip(texts, ids, strict=True), start=1)
    ]


def _fill(store: NotesStore, papers: list[Paper]) -> None:
    for number, paper in enumerate(papers):
        store.set_note(
            paper,
            f"Read on day {number % 31}. The method is close to what we tried in March;\n"
            "the ablation in section 4 is the part to reproduce. Compare with the baseline\n"
            f"of the second table, and ask about the data split. ({number})",
        )
        store.set_tags(paper, ["to-read" if number % 3 else "rl", f"batch{number % 7}"])
        store.set_state(paper, ("unread", "reading", "read")[number % 3])
        if number % 5 == 0:
            store.set_starred(paper, True)


def rows(paths: dict[str, Path | None]) -> list[Row]:
    papers = _papers(paths)
    if papers is None:
        return []
    size = f"{NOTES:,} notes"
    # Wall time is what a user waits; CPU time shows the cost when other work shares the CPU.
    timings: dict[str, list[tuple[float, float]]] = {"new": [], "edit": [], "load": []}
    file_size = 0

    def timed(key: str, work: Callable[[], object]) -> object:
        wall, cpu = time.perf_counter(), time.process_time()
        result = work()
        timings[key].append((time.perf_counter() - wall, time.process_time() - cpu))
        return result

    with tempfile.TemporaryDirectory(prefix="paperdeck-bench-notes-") as scratch:
        for repeat in range(REPEATS):
            path = Path(scratch) / f"notes{repeat}.json"
            store = NotesStore(path)
            _fill(store, papers)
            timed("new", store.save)
            file_size = path.stat().st_size
            loaded = timed("load", functools.partial(NotesStore, path))
            assert isinstance(loaded, NotesStore)
            assert len(loaded.entries) == NOTES and not loaded.messages
            # The reader's save: one note edited in a big store just opened, with a backup.
            loaded.set_note(papers[repeat], "edited once more")
            timed("edit", loaded.save)
    out: list[Row] = []
    for key, name in (
        ("new", "notes save, all new (fsync)"),
        ("edit", "notes save, 1 edited after opening (backup, fsync)"),
        ("load", "notes load"),
    ):
        out.append((name, statistics.median(t[0] for t in timings[key]) * 1000, "ms", size))
        out.append(
            (f"{name}, CPU", statistics.median(t[1] for t in timings[key]) * 1000, "ms", size)
        )
    out.append(("notes file size", file_size / 2**20, "MiB", size))
    return out


if __name__ == "__main__":
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    if data is None:
        print("usage: bench_notes.py DATA_FOLDER (holding icml-2020-2023.txt)", file=sys.stderr)
        raise SystemExit(2)
    found = data / "icml-2020-2023.txt"
    for row in rows({"icml5k_txt": found if found.exists() else None}):
        print(f"{row[0]:<56} {row[1]:10.2f} {row[2]:<4} {row[3]}")

"""Benchmark rows for method names, derived titles and abstract rendering against real titles."""

from __future__ import annotations

import json
import re
import statistics
import sys
import time
from pathlib import Path

from paperdeck.core.text.render import render_abstract
from paperdeck.core.titles.derive import derive_title, find_method

Row = tuple[str, float, str, str]

_STOPWORD_TEXT = """
    a an the of for and or in on with via to from by at as is are be its their our using towards
    toward into through beyond under over without based can do does how what when why not new
    learning
"""
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())
_WORD_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def _content_words(text: str) -> set[str]:
    return {w for w in _WORD_RE.findall(text.lower()) if w not in _STOPWORDS and len(w) >= 3}


def _real_method(title: str) -> str | None:
    """The name a real title starts with ("BubbleSpec: ..."), when it is one token."""
    head, sep, _ = title.partition(":")
    head = head.strip()
    if sep and head and " " not in head and any(c.isupper() for c in head[1:]):
        return head
    return None


def _load(path: Path) -> list[tuple[str, str]]:
    papers = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            if record.get("abstract") and record.get("title"):
                papers.append((record["abstract"], record["title"]))
    return papers


# What a reader sees at once in a derived title that no person would have written: a first
# person lead ("We show that ..."), an article that disagrees with its word ("an unified",
# "a approach"), a dangling conjunction ("A but ..."), a list's item number ("(1) a ...").
_UNWRITTEN_RE = re.compile(
    r"(?:^|: )(?:We |Our |In this (?:paper|work)|This (?:paper|work) "
    r"|An (?:uni|use|one)|A (?:[aeio]|un[^i])|An? (?:but|and|yet|or) |\(\d\) )"
)


def title_rows(path: Path, label: str) -> list[Row]:
    papers = _load(path)
    named = found = contained = claimed = claimed_right = 0
    recall: list[float] = []
    jaccard: list[float] = []
    # CPU time, best of three: other processes share the machine's two cores. Each paper's two
    # calls come together, as paperdeck.core.library makes them (they share one analysis).
    per_paper = float("inf")
    for _ in range(3):
        start = time.process_time()
        results: list[tuple[str | None, str]] = []
        titles: list[str] = []
        for abstract, _ in papers:
            method = find_method(abstract)
            results.append((method, abstract))
            titles.append(derive_title(abstract, method))
        per_paper = min(per_paper, (time.process_time() - start) / max(len(papers), 1) * 1e6)
    for (method, _), title, (_, real) in zip(results, titles, papers, strict=True):
        real_name = _real_method(real)
        if real_name is not None:
            named += 1
            found += method == real_name
            contained += real_name.lower() in title.lower()
        if method is not None:
            claimed += 1
            claimed_right += method.lower() in real.lower()
        real_words, derived_words = _content_words(real), _content_words(title)
        if real_words:
            recall.append(len(real_words & derived_words) / len(real_words))
            jaccard.append(len(real_words & derived_words) / len(real_words | derived_words))
    unwritten = sum(_UNWRITTEN_RE.search(title) is not None for title in titles)
    cut = sum(title.endswith("…") for title in titles)
    pct = 100.0
    return [
        ("titles: real title starts with a name token", named, "papers", label),
        ("titles: find_method finds that name", pct * found / max(named, 1), "%", label),
        ("titles: derived title contains that name", pct * contained / max(named, 1), "%", label),
        ("titles: find_method answers (not None)", pct * claimed / len(papers), "%", label),
        ("titles: found method is in the real title", pct * claimed_right / max(claimed, 1), "%",
         label),
        ("titles: real-title word recall (mean)", statistics.fmean(recall), "ratio", label),
        ("titles: word Jaccard vs real title (mean)", statistics.fmean(jaccard), "ratio", label),
        ("titles: derived titles no person would write", pct * unwritten / len(papers), "%",
         label),
        ("titles: derived titles cut short with …", pct * cut / len(papers), "%", label),
        ("titles: find_method + derive_title per paper", per_paper, "µs CPU", label),
    ]  # fmt: skip


def render_rows(path: Path, label: str) -> list[Row]:
    abstracts = [a for a, _ in _load(path)]
    start = time.perf_counter()
    render_abstract(r"warm-up: $\tau$")
    first = (time.perf_counter() - start) * 1e3
    times = []
    for abstract in abstracts:
        start = time.process_time()
        render_abstract(abstract)
        times.append((time.process_time() - start) * 1e3)
    return [
        ("render_abstract per abstract p50", statistics.median(times), "ms CPU", label),
        (
            "render_abstract per abstract p99",
            statistics.quantiles(times, n=100)[98],
            "ms CPU",
            label,
        ),
        ("render_abstract per abstract max", max(times), "ms CPU", label),
        ("render_abstract first LaTeX call (loads pylatexenc)", first, "ms", label),
    ]


def rows(paths: dict[str, Path | None]) -> list[Row]:
    out: list[Row] = []
    icml5k = paths.get("icml5k_jsonl")
    icml2026 = paths.get("icml2026_jsonl")
    if icml2026 is not None:
        out += title_rows(icml2026, "823 (ICML 2026)")
    if icml5k is not None:
        out += title_rows(icml5k, "5,000 (ICML 2020-23)")
        out += render_rows(icml5k, "5,000 (ICML 2020-23)")
    return out


if __name__ == "__main__":
    data = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/data")
    table = rows(
        {
            "icml5k_jsonl": data / "icml-2020-2023.jsonl",
            "icml2026_jsonl": data / "icml2026-papers.jsonl",
        }
    )
    for name, value, unit, label in table:
        print(f"{name:48} {value:10.3f} {unit:7} {label}")

"""Benchmark rows: enrichment's precision and recall on damaged copies, its speed at 5,000, and
`enrich --online` against a local server standing in for the scholarly APIs."""

from __future__ import annotations

import json
import random
import tempfile
import time
import tracemalloc
import unicodedata
from dataclasses import replace
from pathlib import Path

from paperdeck.core.enrich import enrich_papers
from paperdeck.core.formats import read_list
from paperdeck.core.library import papers_from_raw

Row = tuple[str, float, str, str]
SHUFFLE_SEED = 2026
RUNS = 3


def rows(paths: dict[str, Path | None]) -> list[Row]:
    out: list[Row] = []
    perturbed, meta95 = paths.get("perturbed_txt"), paths.get("meta95_jsonl")
    truth = paths.get("truth_jsonl")
    if perturbed is not None and meta95 is not None and truth is not None:
        out.extend(_accuracy_rows(perturbed, meta95, truth))
    full = paths.get("icml2026_jsonl")
    if perturbed is not None and full is not None and truth is not None:
        out.extend(_online_rows(perturbed, full, truth))
    listing, source = paths.get("icml5k_txt"), paths.get("icml5k_jsonl")
    if listing is not None and source is not None:
        out.extend(_scale_rows(listing, source))
    return out


def _accuracy_rows(listing: Path, source: Path, truth: Path) -> list[Row]:
    papers = papers_from_raw(read_list(listing))
    expected = [
        title and unicodedata.normalize("NFC", title)
        for title in (json.loads(line)["title"] for line in truth.read_text("utf-8").splitlines())
    ]
    report = enrich_papers(papers, [read_list(source)])
    present = sum(1 for title in expected if title is not None)
    applied = [
        (paper, title)
        for paper, title in zip(report.papers, expected, strict=True)
        if paper.id in report.matches and not paper.title_derived
    ]
    right = sum(1 for paper, title in applied if paper.title == title)
    size = f"{len(papers):,}"
    return [
        ("enrich precision (perturbed vs meta-95)", 100 * right / max(len(applied), 1), "%", size),
        ("enrich recall (perturbed vs meta-95)", 100 * right / max(present, 1), "%", size),
        ("enrich wrong titles applied", float(len(applied) - right), "papers", size),
        ("enrich ambiguous (not applied)", float(len(report.ambiguous)), "papers", size),
        ("enrich weak (not applied)", float(len(report.weak)), "papers", size),
    ]


def _scale_rows(listing: Path, source_path: Path) -> list[Row]:
    papers = papers_from_raw(read_list(listing))
    started = time.perf_counter()
    source = read_list(source_path)
    read_seconds = time.perf_counter() - started
    shuffled = list(source.records)
    random.Random(SHUFFLE_SEED).shuffle(shuffled)
    source = replace(source, records=shuffled)
    # Best of three: the machine is shared, and the slower runs measure the neighbours.
    timings = []
    for _ in range(RUNS):
        started = time.perf_counter()
        report = enrich_papers(papers, [source])
        timings.append(time.perf_counter() - started)
    join_seconds = min(timings)
    tracemalloc.start()
    enrich_papers(papers, [source])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    size = f"{len(papers):,}"
    return [
        ("enrich join, own JSONL shuffled (best of 3)", join_seconds, "s", size),
        ("enrich read source + join", read_seconds + join_seconds, "s", size),
        ("enrich join peak memory", peak / 2**20, "MiB", size),
        ("enrich matched (own JSONL)", float(len(report.matches)), "papers", size),
    ]


def _online_rows(listing: Path, source: Path, truth: Path) -> list[Row]:
    """`enrich --online` against the local stand-in for the web APIs, pacing off."""
    from benchmarks.scholarly_server import ScholarlyServer
    from paperdeck.core.enrich.arxiv import Arxiv
    from paperdeck.core.enrich.cache import AnswerCache
    from paperdeck.core.enrich.candidates import Source
    from paperdeck.core.enrich.client import PoliteClient
    from paperdeck.core.enrich.crossref import Crossref
    from paperdeck.core.enrich.online import enrich_online
    from paperdeck.core.enrich.openalex import OpenAlex
    from paperdeck.core.enrich.semantic_scholar import SemanticScholar

    papers = papers_from_raw(read_list(listing))
    expected = [
        title and unicodedata.normalize("NFC", title)
        for title in (json.loads(line)["title"] for line in truth.read_text("utf-8").splitlines())
    ]
    records = [json.loads(line) for line in source.read_text("utf-8").splitlines()]
    with ScholarlyServer(records) as server, tempfile.TemporaryDirectory() as folder:
        sources: list[Source] = [
            OpenAlex(server.base_url("openalex")),
            Arxiv(server.base_url("arxiv")),
            SemanticScholar(server.base_url("s2")),
        ]
        crossref = Crossref(server.base_url("crossref"))
        cache = AnswerCache(Path(folder))
        with PoliteClient(pacing=False) as client:
            started = time.perf_counter()
            report = enrich_online(papers, sources, crossref, client=client, cache=cache)
            seconds = time.perf_counter() - started
        cache.close()
    checked = [
        (paper, title)
        for paper, title in zip(report.papers, expected, strict=True)
        if paper.id in report.matched and title is not None
    ]
    wrong = sum(1 for paper, title in checked if paper.title != title)
    size = f"{len(papers):,}"
    return [
        ("enrich --online matched (local API server)", float(len(report.matched)), "papers", size),
        ("enrich --online wrong titles (vs truth)", float(wrong), "papers", size),
        ("enrich --online requests made", float(report.requests), "requests", size),
        # The stand-in server answers from threads of this process: its work is in the time.
        ("enrich --online wall time, pacing off", seconds, "s", size),
    ]

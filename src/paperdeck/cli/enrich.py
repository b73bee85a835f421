"""The `paperdeck enrich` command: a list joined with metadata sources, written as JSON Lines."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from paperdeck.cli.common import AddCommand, add_paths_argument, open_library, warn
from paperdeck.core.errors import PaperdeckError
from paperdeck.core.model import Paper
from paperdeck.core.plumbing.atomic_write import atomic_write

if TYPE_CHECKING:
    # Only loading a list with sources needs the matcher; `paperdeck --help` should not.
    from paperdeck.core.enrich import EnrichReport, Match

_SHOWN_TITLE = 70


def register(add: AddCommand) -> None:
    """AddCommand `paperdeck enrich` to the CLI."""
    parser = add(
        "enrich",
        "Match each paper of PATH ... to a record of --meta SOURCE (and of NAME.meta.jsonl "
        "beside NAME.txt) by its abstract, and write the merged list as JSON Lines: one object "
        "per paper, in order, with `match` (source and confidence, or null). Counts, and the "
        "ambiguous or weak matches that were not applied, go to stderr.",
        run_enrich,
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="OUT.jsonl",
        type=Path,
        default=None,
        help="write the JSON Lines here (default: stdout)",
    )
    add_paths_argument(parser)


def run_enrich(args: argparse.Namespace) -> int:
    """Open the lists with their metadata sources and write every paper with its match."""
    library = open_library(args)
    if not library.enrichment:
        raise PaperdeckError(
            "enrich: no metadata source: give --meta SOURCE, or put NAME.meta.jsonl beside NAME.txt"
        )
    reports: list[EnrichReport] = list(library.enrichment)
    # Reports are per list and keyed by id; the papers they returned are the library's own objects.
    found: dict[int, Match | None] = {}
    for report in reports:
        for paper in report.papers:
            found[id(paper)] = report.matches.get(paper.id)
    lines = (
        json.dumps(paper_record(paper, found.get(id(paper))), ensure_ascii=False)
        for paper in library.papers
    )
    if args.output is None:
        _write_lines(sys.stdout, lines)
        sys.stdout.flush()
    else:
        _write_file(args.output, lines)
    _print_summary(library.papers, reports)
    return 0


def paper_record(paper: Paper, match: Match | None) -> dict[str, Any]:
    """One line of the output: `list --json`'s fields, the abstract, extra fields, the match."""
    record = paper.to_json()
    record["abstract"] = paper.abstract
    for key, value in paper.extra.items():
        record.setdefault(key, value)
    record["match"] = (
        None if match is None else {"source": match.source, "confidence": match.confidence}
    )
    return record


def _write_lines(stream: TextIO, lines: Iterable[str]) -> None:
    for line in lines:
        stream.write(line)
        stream.write("\n")


def _write_file(path: Path, lines: Iterable[str]) -> None:
    try:
        atomic_write(path, "".join(f"{line}\n" for line in lines))
    except OSError as error:
        raise PaperdeckError(f"{path}: cannot write: {error.strerror or error}") from None


def _print_summary(papers: list[Paper], reports: list[EnrichReport]) -> None:
    matched = sum(len(report.matches) for report in reports)
    unmatched = sum(len(report.unmatched) for report in reports)
    ambiguous = sum(len(report.ambiguous) for report in reports)
    warn(
        f"enrich: {matched} matched, {unmatched} unmatched, {ambiguous} ambiguous "
        f"(of {len(papers)} papers)"
    )
    position = {id(paper): number for number, paper in enumerate(papers, start=1)}
    for report in reports:
        by_id = {paper.id: paper for paper in report.papers}
        for paper_id, close in report.ambiguous:
            paper = by_id[paper_id]
            rivals = "; ".join(_candidate(match) for match in close)
            print(
                f"  ambiguous #{position[id(paper)]} {paper_id} {_short(paper.title)!r}: {rivals}",
                file=sys.stderr,
            )
        for paper_id, match in report.weak.items():
            paper = by_id[paper_id]
            print(
                f"  weak #{position[id(paper)]} {paper_id} {_short(paper.title)!r}: "
                f"{_candidate(match)}",
                file=sys.stderr,
            )


def _candidate(match: Match) -> str:
    return (
        f"{match.source} record {match.record_index + 1} @{match.confidence:.2f} "
        f"{_short(match.title)!r}"
    )


def _short(text: str) -> str:
    return text if len(text) <= _SHOWN_TITLE else text[: _SHOWN_TITLE - 1] + "…"

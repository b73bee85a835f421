"""The `paperdeck enrich` command: a list joined with metadata sources, local or online."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from paperdeck.cli.common import (
    STDIN,
    AddCommand,
    add_output_arguments,
    add_paths_argument,
    open_library,
    refuse_to_replace,
    warn,
    write_output,
)
from paperdeck.core.errors import PaperdeckError, UsageError
from paperdeck.core.model import Paper

if TYPE_CHECKING:
    # Only loading a list with sources needs the matcher; `paperdeck --help` should not.
    from paperdeck.core.enrich import EnrichReport, Match
    from paperdeck.core.enrich.online import OnlineReport
    from paperdeck.core.library import Library

_SHOWN_TITLE = 70
ONLINE_SOURCES = ("openalex", "arxiv", "s2", "crossref")


def register(add: AddCommand) -> None:
    """AddCommand `paperdeck enrich` to the CLI."""
    parser = add(
        "enrich",
        "Match each paper of PATH ... to a record of --meta SOURCE (and of NAME.meta.jsonl "
        "beside NAME.txt) by its abstract, and write the merged list as JSON Lines: one object "
        "per paper, in order, with `match` (source and confidence, or null). Counts, and the "
        "ambiguous or weak matches that were not applied, go to stderr. With --online, "
        "papers without metadata are looked up on the scholarly web instead (a few rare words "
        "of each abstract are sent) and the matches are added to NAME.meta.jsonl.",
        run_enrich,
    )
    parser.add_argument(
        "--online",
        action="store_true",
        help="ask OpenAlex, arXiv, Semantic Scholar and Crossref about papers without metadata",
    )
    parser.add_argument(
        "--source",
        metavar="NAMES",
        default=",".join(ONLINE_SOURCES),
        help=f"with --online: the sources to ask, in order (default: {','.join(ONLINE_SOURCES)})",
    )
    parser.add_argument(
        "--refresh",
        action="store_true",
        help="with --online: ask again about papers the cache has answers for",
    )
    add_output_arguments(
        parser,
        "OUT.jsonl",
        "write the JSON Lines here (default: stdout; with --online: NAME.meta.jsonl); "
        "an existing file is refused unless --force",
    )
    add_paths_argument(parser)


def run_enrich(args: argparse.Namespace) -> int:
    """Open the lists with their metadata sources and write every paper with its match."""
    refuse_to_replace(args.output, args.force, "jsonl")
    if args.online:
        return run_online(args)
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
    backup = write_output(path, "".join(f"{line}\n" for line in lines))
    if backup is not None:
        warn(f"{path}: the file it replaced is kept as {backup}")


def _print_summary(papers: Sequence[Paper], reports: list[EnrichReport]) -> None:
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


def run_online(args: argparse.Namespace) -> int:
    """Ask the scholarly web about every paper without metadata; keep the matches."""
    from paperdeck.core import config
    from paperdeck.core.enrich.cache import AnswerCache
    from paperdeck.core.enrich.client import PoliteClient
    from paperdeck.core.enrich.online import enrich_online, make_sources, parse_source_names

    if STDIN in args.paths and args.output is None:
        raise UsageError(
            "enrich --online: the list on stdin has no folder for NAME.meta.jsonl: "
            "give -o OUT.jsonl"
        )
    searches, crossref = make_sources(parse_source_names(args.source))
    library = open_library(args)
    cache = AnswerCache(config.cache_dir())
    if cache.problem:
        warn(f"enrich: the answer cache cannot be used ({cache.problem}); asking afresh")
    progress = _Progress(sys.stderr.isatty())
    client = PoliteClient(
        email=config.contact_email(), pacing=config.pacing_wanted(), notice=progress.notice
    )
    try:
        report = enrich_online(
            library.papers,
            searches,
            crossref,
            client=client,
            cache=cache,
            refresh=args.refresh,
            notice=progress.notice,
            progress=progress.show,
        )
    finally:
        client.close()
        cache.close()
        progress.end()
    if not report.matched and (report.unreachable or report.interrupted):
        warn(f"{report.unreachable or 'enrich: interrupted'}; nothing changed")
        return 2 if report.unreachable else 130
    written = _write_online(args, library, report)
    _print_online_summary(report, written)
    if report.unreachable:
        warn(f"{report.unreachable}; kept the {len(report.matched)} matches made before")
        return 2
    if report.interrupted:
        warn(f"enrich: interrupted; kept the {len(report.matched)} matches made so far")
        return 130
    return 0


class _Progress:
    """Papers asked so far, on one line of a terminal (nothing when stderr is a file)."""

    def __init__(self, live: bool) -> None:
        self.live = live
        self.shown = False

    def show(self, done: int, total: int, matched: int) -> None:
        if self.live:
            sys.stderr.write(f"\rpaperdeck: enrich: {done}/{total} asked, {matched} matched")
            sys.stderr.flush()
            self.shown = True

    def notice(self, message: str) -> None:
        self.end()
        warn(message)

    def end(self) -> None:
        if self.shown:
            sys.stderr.write("\n")
            self.shown = False


def _write_online(args: argparse.Namespace, library: Library, report: OnlineReport) -> str:
    """Write the matches (-o: every paper as JSON Lines; else each list's sidecar); say where."""
    from paperdeck.core.enrich.sidecar import save_matches

    if args.output is not None:
        lines = (
            json.dumps(_online_record(paper, report), ensure_ascii=False) for paper in report.papers
        )
        _write_file(args.output, lines)
        return str(args.output)
    try:
        saved = save_matches(library.lists, library.counts, report.papers, report.matched)
    except PaperdeckError as error:
        # The answers are in the cache: written elsewhere, they cost no second asking.
        raise PaperdeckError(
            f"{error}; the answers are kept: `-o FILE` writes the matches elsewhere "
            "without asking again"
        ) from None
    written = [path.name for path in saved]
    return ", ".join(written)


def _online_record(paper: Paper, report: OnlineReport) -> dict[str, Any]:
    record = paper_record(paper, None)
    kept = report.matched.get(paper.id)
    if kept is not None:
        for key in ("doi", "openalex", "arxiv", "s2"):
            if key in kept:
                record.setdefault(key, kept[key])
        record["match"] = dict(kept["online"])
    return record


def _print_online_summary(report: OnlineReport, written: str) -> None:
    by_source: dict[str, int] = {}
    for record in report.matched.values():
        label = str(record["online"]["source"])
        by_source[label] = by_source.get(label, 0) + 1
    sources = ", ".join(f"{label} {count}" for label, count in by_source.items())
    warn(
        f"enrich: {len(report.matched)} matched online"
        + (f" ({sources})" if sources else "")
        + f", {len(report.unmatched)} unmatched, {len(report.rejected)} look-alikes rejected "
        f"(of {report.to_ask} papers without metadata); {report.requests} requests, "
        f"{report.answers_from_cache} answers from the cache"
        + (f"; wrote {written}" if written else "; nothing written")
    )
    unreadable = report.unreadable_summary()
    if unreadable:
        warn(f"enrich: {unreadable}: not what the API documents (HTML, cut JSON or wrong types)")
    by_id = {paper.id: paper for paper in report.papers}
    for paper_id, match in report.rejected.items():
        paper = by_id[paper_id]
        print(
            f"  look-alike rejected #{paper.position} {paper_id}: {match.source} "
            f"@{match.confidence:.2f} {_short(match.title)!r}",
            file=sys.stderr,
        )

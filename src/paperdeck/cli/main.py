"""The `paperdeck` command: the reader by default, and scripting commands on the core alone."""

from __future__ import annotations

import argparse
import difflib
import errno
import importlib
import io
import os
import re
import shlex
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from paperdeck import __version__
from paperdeck.cli.common import (
    OUTPUT_FORMAT_COMMANDS,
    Command,
    add_paths_argument,
    common_options,
    warn,
)
from paperdeck.core.errors import LoadError, PaperdeckError, UsageError

if TYPE_CHECKING:
    from paperdeck.core.library import Library

COMMAND_FAMILIES = {
    "list": "browse",
    "show": "browse",
    "search": "browse",
    "related": "browse",
    "note": "notes",
    "tag": "notes",
    "mark": "notes",
    "notes": "notes",
    "cite": "cite",
    "enrich": "enrich",
    "export": "export",
}
"""Each command and the module of paperdeck.cli that registers and runs it: a command imports
its own family alone (`paperdeck list` never loads the citation or web code)."""

COMMAND_SUMMARIES = {
    "list": "print one line per paper: position, id, title",
    "show": "print one paper: title, authors, venue, links, abstract, note",
    "search": "search the papers and print them best first",
    "related": "print the papers most like one paper (or like the starred ones)",
    "note": "print a paper's note, or change it",
    "tag": "add or remove a paper's tags, or print them",
    "mark": "set a paper's reading state, or star or unstar it",
    "notes": "export or import every note, or find notes whose paper is gone",
    "cite": "print (or copy) citations: BibTeX, APA, any CSL style, ...",
    "enrich": "match papers to a metadata list or the open scholarly APIs",
    "export": "write a reading list as Markdown, BibTeX, RIS, CSV or JSON",
}
"""Each command's line in `paperdeck --help`, which imports no command's module."""


COMMAND_EXAMPLES = {
    "list": [
        ("paperdeck list", "the bundled list: position, id, title"),
        ("paperdeck list --json | jq -r '.[].title'", "every title, from the JSON"),
        ("paperdeck list | fzf --filter 'spec decod'", "fzf's matching over the lines"),
    ],
    "show": [
        ("paperdeck show 4", "the paper at position 4"),
        ("paperdeck show 30b40477 --raw", "by its id, the abstract as the list has it"),
        ("paperdeck show 4 --json | jq -r .abstract", "as JSON, with its tags and note"),
    ],
    "search": [
        ("paperdeck search 'speculative decoding'", "every word first, then some"),
        ("paperdeck search 'author:xu year:2026' --all-terms", "fields; only full matches"),
        ("paperdeck search 'is:starred' --sort list --limit 0", "every starred paper"),
        ("paperdeck search rollout --json | jq -r '.[].id'", "the ids, for other commands"),
    ],
    "related": [
        ("paperdeck related 4 --limit 5", "the five papers most like #4"),
        ("paperdeck related --starred", "papers like the starred ones"),
    ],
    "note": [
        ("paperdeck note 4 --set 'read section 3'", "replace #4's note"),
        ("paperdeck note 4 --append 'compare with SafeSpec'", "add a line to it"),
        ("echo 'from a script' | paperdeck note 4 --append -", "the text from stdin"),
        ("paperdeck note 4", "print it"),
    ],
    "tag": [
        ("paperdeck tag 4 +to-read +rl -maybe", "add two tags, remove one"),
        ("paperdeck tag 4", "print its tags"),
    ],
    "mark": [
        ("paperdeck mark 4 star", "star #4"),
        ("paperdeck mark 30b40477 read", "mark it read, by its id"),
    ],
    "notes": [
        ("paperdeck notes export -o notes.md --force", "every note, as Markdown"),
        ("paperdeck notes export --format json | jq 'keys'", "as JSON"),
        ("paperdeck notes orphans", "notes whose paper is in none of the lists"),
    ],
    "cite": [
        ("paperdeck cite 4", "BibTeX"),
        ("paperdeck cite 4 12 -f apa >> references.txt", "APA 7, two papers, into a file"),
        ("paperdeck cite 30b4 -f ieee", "any CSL style, by a unique id prefix"),
        ("paperdeck cite 4 --copy", "also to the clipboard"),
        (
            "paperdeck cite $(paperdeck search 'speculative rollout' --all-terms "
            "| awk '{print $2}') > found.bib",
            "what a search finds (its second column is the ids)",
        ),
    ],
    "enrich": [
        ("paperdeck enrich talks.txt --meta talks.jsonl -o merged.jsonl", "match to a file"),
        ("paperdeck enrich talks.txt --online", "look up titles online"),
    ],
    "export": [
        ("paperdeck export -q is:starred -o reading.md --force", "the starred, as Markdown"),
        ("paperdeck export -q tag:to-read -o to-read.bib --force", "BibTeX, from the extension"),
        ("paperdeck export -q 'rollout year:2026' -f csv", "CSV on stdout"),
        ("paperdeck export 4 12 30b4 -o picks.md --force", "the papers named, in that order"),
    ],
}
"""Each command's examples in its --help, on the bundled list unless they name another (a test
runs those)."""


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's, keeping the examples' lines as they are (the description is wrapped)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("examples:"):
            return text
        return super()._fill_text(text, width, indent)


def _examples_epilog(name: str) -> str | None:
    examples = COMMAND_EXAMPLES.get(name)
    if not examples:
        return None
    lines = [text for line, what in examples for text in (f"  # {what}", f"  {line}")]
    return "\n".join(["examples:", *lines])


def _commands_epilog() -> str:
    width = max(map(len, COMMAND_SUMMARIES))
    lines = [f"  {name:<{width}}  {summary}" for name, summary in COMMAND_SUMMARIES.items()]
    return "\n".join(["commands (`paperdeck COMMAND --help` for each):", *lines])


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error instead of a usage block."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see `{self.prog} --help`)")


def build_parser(
    families: Iterable[str] | None = None,
) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The top-level parser (the reader) and one parser per command of these families of
    COMMAND_FAMILIES (all of them when None)."""
    common = common_options()
    common_without_format = common_options(format_alias=False)
    top = _Parser(
        prog="paperdeck",
        parents=[common],
        # Raw, so the commands' table keeps its lines; the description is broken by hand.
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=(
            "A terminal reader for conference paper lists. With no command, opens the reader\n"
            "on PATH ... (the bundled ICML 2026 list when none)."
        ),
        epilog=_commands_epilog(),
    )
    top.add_argument("--version", action="version", version=f"paperdeck {__version__}")
    add_paths_argument(top, stdin=False)
    commands: dict[str, argparse.ArgumentParser] = {}

    def add(name: str, help_text: str, run: Command) -> argparse.ArgumentParser:
        parser = _Parser(
            prog=f"paperdeck {name}",
            parents=[common_without_format if name in OUTPUT_FORMAT_COMMANDS else common],
            description=help_text,
            epilog=_examples_epilog(name),
            formatter_class=_HelpFormatter,
        )
        parser.set_defaults(run=run, command=name)
        commands[name] = parser
        return parser

    # Each feature's commands live beside its core.
    wanted = set(COMMAND_FAMILIES.values() if families is None else families)
    for family in dict.fromkeys(COMMAND_FAMILIES.values()):
        if family in wanted:
            importlib.import_module(f"paperdeck.cli.{family}").register(add)
    return top, commands


def run_reader(args: argparse.Namespace) -> int:
    """Open the Textual reader (imported only here, so the other commands start fast).

    The reader paints at once and loads the lists in the background, so a 100,000-paper list
    shows its progress instead of a blank terminal; a path that cannot be opened at all is
    refused before the screen changes.
    """
    from paperdeck.core.library import LoadOptions, load_library
    from paperdeck.core.resources import bundled_list

    paths: list[Path] = list(args.paths) or [bundled_list()]
    if Path("-") in paths:
        # The reader reads the keys on stdin.
        raise UsageError(
            "-: the reader cannot read a list from stdin; save it to a file and open that"
        )
    _refuse_mistyped_command(args.paths)
    for path in [*paths, *args.meta]:
        _check_openable(path)
    from paperdeck.ui.launch import run_app

    def load(options: LoadOptions) -> Library:
        # A stored list opens without its abstracts: the reader reads the few it shows.
        return load_library(
            paths,
            fmt=args.format,
            meta=args.meta,
            use_sidecar=not args.no_meta,
            abstracts=False,
            options=options,
        )

    label = ", ".join(path.name for path in paths)
    return run_app(load, notes_option=args.notes, loading_label=label, loading_paths=paths)


def _refuse_mistyped_command(paths: Sequence[Path]) -> None:
    """`paperdeck serch x`, `paperdeck frobnicate`: a first PATH that is no file and could be a
    command (a bare word) is named as either, with the command it is closest to if any."""
    if not paths or paths[0].exists() or paths[0].suffix or len(paths[0].parts) != 1:
        return
    close = difflib.get_close_matches(paths[0].name, list(COMMAND_FAMILIES), n=1, cutoff=0.7)
    if close:
        raise UsageError(
            f"{paths[0]}: no such file or command; did you mean `paperdeck {close[0]}`?"
        )
    raise UsageError(
        f"{paths[0]}: no such file or command (commands: {', '.join(COMMAND_FAMILIES)})"
    )


_FIRST_ARGUMENT = {
    "search": ("the query", "QUERY"),
    "show": ("the paper", "REF"),
    "related": ("the paper", "REF"),
    "note": ("the paper", "REF"),
    "tag": ("the paper and its tags", "REF"),
    "mark": ("the paper and its state", "REF"),
    "notes": ("the action", "ACTION"),
}
"""The commands whose own arguments come before the lists: what comes first, and its name in
the usage line (cite says its own: see `cite.split_refs`)."""


_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")
"""argparse's own test of a word that is a negative number, not an option."""


def _refuse_list_first(command: str, parser: argparse.ArgumentParser, words: list[str]) -> None:
    """`paperdeck search LIST words`: a list named where the command's own argument goes, and
    after it a word that is no file (or nothing), is a one-line error that says what to type
    (not "words: no such file")."""
    if command not in _FIRST_ARGUMENT or {"-h", "--help"}.intersection(words):
        return
    if command == "related" and "--starred" in words:
        return  # no paper to name: the list is the list (see `run_related`)
    takes_value = {
        option
        for action in parser._actions
        if action.nargs != 0
        for option in action.option_strings
    }
    places: list[int] = []
    at = 0
    while at < len(words):
        word = words[at]
        if word == "--":
            places.extend(range(at + 1, len(words)))
            break
        # argparse takes `-1` for a positional (a REF) when no option looks like a number.
        if word.startswith("-") and word != "-" and not _NEGATIVE_NUMBER.match(word):
            at += 2 if word in takes_value else 1
            continue
        places.append(at)
        at += 1
    lists = []
    for place in places:
        if not _names_a_file(words[place]):
            break
        lists.append(place)
    if not lists:
        return
    later = [words[place] for place in places[len(lists) :]]
    if later and all(Path(word).exists() for word in later):
        return  # lists only: not a swap this can tell
    what, metavar = _FIRST_ARGUMENT[command]
    rest = [word for at, word in enumerate(words) if at not in lists]
    typed = [command, *rest, *([] if later else [metavar]), *(words[place] for place in lists)]
    # The metavar stands for what is missing (`paperdeck show LIST`): shlex leaves it bare.
    raise UsageError(f"{command}: name {what} before the list: `paperdeck {shlex.join(typed)}`")


def _names_a_file(word: str) -> bool:
    """Whether `word` is a path to a file, written as one (a REF like `12` that happens to be
    a file's name is not)."""
    try:
        return (os.sep in word or "." in word) and Path(word).is_file()
    except OSError:  # a name too long for a file is no file
        return False


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


def _command_at(arguments: list[str], commands: Sequence[str]) -> int | None:
    """Where the command word is, after any global options; None when there is none.

    The first word that is neither an option nor an option's value decides: a command's name
    or else the reader's first PATH.
    """
    takes_value = {
        option
        for action in common_options()._actions
        if action.nargs != 0
        for option in action.option_strings
    }
    index = 0
    while index < len(arguments):
        word = arguments[index]
        if word == "--" or not word.startswith("-") or word == "-":
            return index if word in commands else None
        index += 2 if word in takes_value else 1
    return None


def _with_global_options(
    args: argparse.Namespace, before: argparse.Namespace
) -> argparse.Namespace:
    """A command's arguments with the global options given before its name filled in."""
    for dest, value in vars(before).items():
        if dest == "paths":
            continue
        if dest == "meta":
            args.meta = [*value, *getattr(args, "meta", [])]
        elif getattr(args, dest, None) in (None, False):
            setattr(args, dest, value)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `paperdeck` console script."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    _prepare_streams()
    try:
        at = _command_at(arguments, list(COMMAND_FAMILIES))
        top, commands = build_parser([COMMAND_FAMILIES[arguments[at]]] if at is not None else [])
        if at is not None:
            _refuse_list_first(arguments[at], commands[arguments[at]], arguments[at + 1 :])
            args = _parse_command(commands[arguments[at]], arguments[at + 1 :])
            if at:
                before = top.parse_args(arguments[:at])
                if before.paths:  # cannot happen: the first bare word is the command
                    raise UsageError("a PATH comes after the command")
                args = _with_global_options(args, before)
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
        if error.filename is not None:
            # A file the user named that cannot be used: "x.txt: File name too long".
            warn(f"{os.fsdecode(error.filename)}: {error.strerror or error}")
        else:
            # Output to a full disk or a closed terminal.
            warn(f"cannot write output: {error.strerror or error}")
        return 2
    except KeyboardInterrupt:
        return 130


class _ClosedOutput(io.TextIOBase):
    """Standard output when the shell closed it (`paperdeck list >&-`): writing fails, so the
    command says so and exits 2 instead of printing nowhere and exiting 0."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def _prepare_streams() -> None:
    """Python leaves a stream the shell closed as None: print() to a None stderr writes to
    stdout (error lines in the output), and sys.stdout.write fails with a traceback. And an
    output in an encoding short of Unicode (PYTHONIOENCODING=ascii, a C locale kept as it is)
    fails on the first "≈" or accent: it gets "?" in their place instead."""
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the process
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    elif isinstance(sys.stdout, io.TextIOWrapper) and not _unicode(sys.stdout.encoding):
        sys.stdout.reconfigure(errors="replace")


def _unicode(encoding: str | None) -> bool:
    return (encoding or "").lower().replace("-", "").replace("_", "").startswith("utf")


if __name__ == "__main__":
    raise SystemExit(main())

"""What every CLI command shares: the common options, opening lists, and printing errors."""

from __future__ import annotations

import argparse
import atexit
import contextlib
import functools
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from paperdeck.core.errors import PaperdeckError, UsageError
from paperdeck.core.formats.raw_list import FORMAT_NAMES
from paperdeck.core.resources import bundled_list
from paperdeck.core.text.sanitize import clean_line

if TYPE_CHECKING:
    from paperdeck.core.library import Library
    from paperdeck.core.model import Paper
    from paperdeck.core.search.index import SearchIndex
    from paperdeck.core.store.stored_papers import StoredList

Command = Callable[[argparse.Namespace], int]
AddCommand = Callable[[str, str, Command], argparse.ArgumentParser]
"""What a feature's `register(add)` gets: add(name, help, run) -> the command's parser."""

_UNDECODED = re.compile("[\udc80-\udcff]")
"""The characters Python keeps undecodable bytes of arguments and file names as."""

MESSAGE_CHARS = 2000
"""The longest message told whole on stderr; a longer one keeps its two ends."""

# Commands whose own `--format` names what they print; they take `--list-format` only.
OUTPUT_FORMAT_COMMANDS = frozenset({"cite", "export"})


def file_name(text: str) -> Path:
    """A file name argument; an empty one is refused (Path("") is the current folder, which a
    command would then call "a directory")."""
    return Path(notes_name(text))


def notes_name(text: str) -> str:
    """--notes FILE: an empty one is refused, not taken for no --notes at all."""
    if not text:
        raise argparse.ArgumentTypeError("an empty file name")
    return text


def common_options(*, format_alias: bool = True) -> argparse.ArgumentParser:
    """Options every command takes, before or after its positional arguments."""
    parser = argparse.ArgumentParser(add_help=False)
    group = parser.add_argument_group("lists and notes")
    group.add_argument(
        "--list-format",
        *(["--format"] if format_alias else []),
        dest="format",
        choices=FORMAT_NAMES,
        default=None,
        help="read every PATH in this format (default: from the extension, else sniffed)",
    )
    group.add_argument(
        "--meta",
        action="append",
        default=[],
        metavar="SOURCE",
        type=file_name,
        help="a list with titles (JSONL, JSON, BibTeX, CSV) to match abstracts against; repeatable",
    )
    group.add_argument(
        "--no-meta",
        action="store_true",
        help="do not apply NAME.meta.jsonl found beside NAME.txt",
    )
    group.add_argument(
        "--notes",
        metavar="FILE",
        default=None,
        type=notes_name,
        help="the notes file (default: $PAPERDECK_NOTES, else the user data folder)",
    )
    return parser


def add_paths_argument(parser: argparse.ArgumentParser, *, stdin: bool = True) -> None:
    """The trailing PATH ... every command takes (the bundled list when none); `stdin`: `-`
    reads a list from stdin (not in the reader, which reads the keys there)."""
    from_stdin = "; - reads one from stdin" if stdin else ""
    parser.add_argument(
        "paths",
        nargs="*",
        # With a default argparse no longer names PATH among the missing ("required: REF, PATH").
        default=[],
        metavar="PATH",
        type=file_name,
        help=f"paper lists to open (default: the bundled ICML 2026 list){from_stdin}",
    )


REF_LIKE = re.compile(r"[0-9A-Fa-f]+")
"""A word that may be a position or an id prefix."""
_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")


def names_a_list(item: str) -> bool:
    """Whether a word among `REF ... PATH ...` (cite, export) names a list, not a paper."""
    if item == "-":
        return True  # the list on stdin
    if not item.strip():
        return False  # Path("") is the current folder, which exists
    if _NUMBER.fullmatch(item) and not Path(item).is_file():
        return False  # `cite 1.5 LIST`: a mistyped position, not a list
    if REF_LIKE.fullmatch(item):
        # A position or an id prefix, unless only a file of that name makes sense.
        return Path(item).is_file() and not item.isdigit()
    try:
        return os.sep in item or "." in item or Path(item).exists()
    except OSError:  # a name too long for a file is no file
        return False


STDIN = Path("-")
"""The PATH that names the list on stdin (`curl -s URL | paperdeck search words -`)."""


def list_paths(args: argparse.Namespace) -> list[Path]:
    """The lists the command names, the bundled one when none; `-` is the list on stdin."""
    paths: list[Path] = list(args.paths) or [bundled_list()]
    if STDIN in paths:
        given = _stdin_list()
        paths = [given if path == STDIN else path for path in paths]
    return paths


_stdin_file: list[Path] = []
"""Where the list on stdin was put, once it was: messages name it `-`, as it was given."""


@functools.cache
def _stdin_list() -> Path:
    """The list on stdin, in a file for as long as the command runs: a list is read more
    than once (its store, then its abstracts), and by its bytes' hash like any other."""
    from paperdeck.core.formats.decoding import MAX_LIST_BYTES

    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError("-: the list on stdin, but none is piped in (`cat LIST | paperdeck ...`)")
    folder = Path(tempfile.mkdtemp(prefix="paperdeck-stdin-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = folder / "stdin"
    _stdin_file.append(path)
    with path.open("wb") as out:
        # One byte past the largest list: loading it then says it is too large.
        left = MAX_LIST_BYTES + 1
        while left > 0 and (chunk := os.read(sys.stdin.fileno(), min(left, 1 << 20))):
            out.write(chunk)
            left -= len(chunk)
    return path


def open_library(args: argparse.Namespace, *, abstracts: bool = True) -> Library:
    """Load the lists the command names, or the bundled one (`abstracts=False`: see
    load_library)."""
    library = _load(args, abstracts=abstracts)
    for warning in library.warnings:
        warn(warning)
    return library


def _load(args: argparse.Namespace, *, abstracts: bool) -> Library:
    """`open_library` without telling its warnings (for a second reading of the same lists)."""
    from paperdeck.core.library import load_library

    paths = list_paths(args)
    _refuse_a_second_ref(args, paths)
    return load_library(
        paths,
        fmt=args.format,
        meta=list(args.meta),
        use_sidecar=not args.no_meta,
        abstracts=abstracts,
    )


_REF_LIKE = re.compile(r"[0-9]+|[0-9a-f]*[0-9][0-9a-f]*", re.IGNORECASE)
"""A word that reads as a paper's position or id (prefix), not as a list's file name."""


def _refuse_a_second_ref(args: argparse.Namespace, paths: Sequence[Path]) -> None:
    """`paperdeck related 12 40` asks for papers like two: "40: no such file" read as if
    the list were missing. A command of one REF says it takes one."""
    if getattr(args, "ref", None) is None:
        return
    for path in paths:
        if _REF_LIKE.fullmatch(str(path)) and not path.exists():
            raise UsageError(
                f"{path}: no such file; `paperdeck {args.command}` takes one paper (REF), "
                "then the lists"
            )


def open_index(args: argparse.Namespace, library: Library) -> SearchIndex:
    """The search index of a library: opened from the list store when it keeps one, else
    built (and kept there for the next command)."""
    return index_of(args, library.papers, library.index_key(), library.abstracts_loaded)


def index_of(
    args: argparse.Namespace, papers: Sequence[Paper], key: str | None, abstracts_loaded: bool
) -> SearchIndex:
    """The search index of these papers of the command's lists (the stored list `key`'s when
    not None): opened from the list store, else built with the abstracts and kept."""
    from paperdeck.core.search.index import SearchIndex

    def with_abstracts() -> Sequence[Paper]:
        return _load(args, abstracts=True).papers  # its warnings were told by the first

    index = SearchIndex(papers, key, None if abstracts_loaded else with_abstracts)
    for message in index.messages:
        warn(message)
    return index


@contextlib.contextmanager
def stored_list(args: argparse.Namespace) -> Iterator[StoredList | None]:
    """The one list the command names as the list store keeps it, its papers read a chunk at
    a time while the block runs; None when that cannot be (several lists, metadata given or
    beside the list, a list not stored yet, no store): the command then loads the lists."""
    from paperdeck.core.store.columns import Damaged
    from paperdeck.core.store.database import ListStore, StoreUnavailable
    from paperdeck.core.store.stored_papers import open_stored

    paths = list_paths(args)
    messages: list[str] = []
    store = ListStore.open(messages) if len(paths) == 1 and not args.meta else None
    if store is None:
        yield None
        return
    try:
        try:
            found = open_stored(store, paths[0], args.format, use_sidecar=not args.no_meta)
        except (Damaged, StoreUnavailable):
            found = None  # loading the list says what went wrong
        if found is not None:
            for message in messages:
                warn(message)
        yield found
    finally:
        store.close()


def open_paper(args: argparse.Namespace, ref: str) -> Paper:
    """The one paper a command names in the lists it names, reading as little as it can."""
    from paperdeck.core.library import load_paper

    paths = list_paths(args)
    _refuse_a_second_ref(args, paths)
    paper, warnings = load_paper(
        paths, ref, fmt=args.format, meta=list(args.meta), use_sidecar=not args.no_meta
    )
    for warning in warnings:
        warn(warning)
    return paper


def refuse_empty_query(command: str, query: str, instead: str) -> None:
    """A query with nothing to look for (blank, `(`, `tag:`, or only filters that are ignored
    such as `is:stared`): every paper would come out, scored 0 or unfiltered, as if found."""
    from paperdeck.core.search.query import parse_query

    if not query.strip():
        raise UsageError(f"{command}: QUERY is empty; give words to look for ({instead})")
    parsed = parse_query(query)
    if parsed.clauses:
        return
    said = f"{parsed.message}; nothing is left" if parsed.message else f"{query!r} has nothing"
    raise UsageError(f"{command}: {said} to look for ({instead})")


_OUTPUT_HELP = "write to FILE instead of printing; an existing FILE is refused unless --force"


def add_output_arguments(
    parser: argparse.ArgumentParser, metavar: str = "FILE", help_text: str = _OUTPUT_HELP
) -> None:
    """-o FILE, and --force: a command's -o FILE must not replace a file unasked."""
    parser.add_argument(
        "-o", "--output", type=file_name, default=None, metavar=metavar, help=help_text
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help=f"replace an existing {metavar} (atomically; what it held is kept as {metavar}~)",
    )


def refuse_to_replace(output: Path | None, force: bool, fmt: str) -> None:
    """An existing -o FILE is refused, saying what it holds, unless --force: checked before
    any list is read (a reading list of 40 papers went without a word). `fmt` is how to count
    what the file holds (see `file_summary.summary`)."""
    if output is None or force or not output.is_file():
        return
    from paperdeck.core.file_summary import summary

    raise UsageError(
        f"{output} exists ({summary(output, fmt)}): give --force to replace it, or another -o FILE"
    )


def write_output(path: Path, text: str) -> Path | None:
    """Write -o FILE; returns where the file it replaced is kept (FILE~), if there was one."""
    from paperdeck.core.plumbing.atomic_write import replace_keeping_backup

    if path.is_dir():
        raise UsageError(f"{path}: is a directory")
    try:
        return replace_keeping_backup(path, text)
    except OSError as error:
        raise PaperdeckError(f"cannot write {path}: {error.strerror or error}") from None


def warn(message: str) -> None:
    """A one-line message on stderr, prefixed like every paperdeck message."""
    # Messages quote file names and refs the user gave: no escape sequence reaches the terminal.
    # A name given in bytes that are no UTF-8 is shown with them as \xNN, not without them
    # (`gone\xff.txt` told as "gone.txt: no such file" names another file).
    shown = _UNDECODED.sub(lambda byte: f"\\x{ord(byte[0]) - 0xDC00:02x}", message)
    for path in _stdin_file:
        shown = shown.replace(str(path), "-")
    line = clean_line(shown.removeprefix("paperdeck: "))
    if len(line) > MESSAGE_CHARS:
        # A 100,000-character query quoted whole would fill the screen; its ends say which.
        head, tail = MESSAGE_CHARS * 3 // 4, MESSAGE_CHARS // 5
        left_out = len(line) - head - tail
        line = f"{line[:head]} … ({left_out:,} characters left out) … {line[-tail:]}"
    print(f"paperdeck: {line}", file=sys.stderr)

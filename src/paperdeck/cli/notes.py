"""The notes commands: note, tag, mark, and notes export/import/orphans."""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NoReturn

from paperdeck.cli.common import (
    STDIN,
    AddCommand,
    Command,
    add_output_arguments,
    add_paths_argument,
    common_options,
    file_name,
    notes_name,
    open_library,
    open_paper,
    refuse_to_replace,
    warn,
    write_output,
)
from paperdeck.cli.notes_file import open_store, save_store, save_typed, tell
from paperdeck.core.errors import PaperdeckError, UsageError
from paperdeck.core.model import Paper
from paperdeck.core.notes.codec import MAX_FILE_BYTES
from paperdeck.core.notes.entry import NoteEntry, normalise_tag
from paperdeck.core.notes.exchange import export_json, export_markdown, read_export
from paperdeck.core.notes.store import NotesSaveError, NotesStore
from paperdeck.core.plumbing.regular_file import read_regular
from paperdeck.core.text.wording import plural

MARKS = ("read", "unread", "reading", "star", "unstar")
EXPORT_FORMATS = ("markdown", "json")
_COMMON_DESTS = ("format", "meta", "no_meta", "notes")
_TAG_CHANGE = re.compile(r"[+-][^-].*", re.S)


def register(add: AddCommand) -> None:
    """AddCommand the notes commands to the `paperdeck` command."""
    note = add(
        "note",
        "Print a paper's note, or change it with --set, --append or --edit.",
        run_note,
    )
    note.add_argument("ref", metavar="REF", help="a paper id, unique id prefix or position")
    change = note.add_mutually_exclusive_group()
    change.add_argument(
        "--set",
        metavar="TEXT",
        help="replace the note with TEXT ('' clears it; - reads it from stdin)",
    )
    change.add_argument(
        "--append", metavar="TEXT", help="add TEXT as a new line of the note (- reads stdin)"
    )
    change.add_argument("--edit", action="store_true", help="edit the note in $VISUAL or $EDITOR")
    add_paths_argument(note)

    tag = add(
        "tag",
        "Add (+NAME) or remove (-NAME) a paper's tags; with none given, print them.",
        run_tag,
    )
    tag.add_argument("ref", metavar="REF", help="a paper id, unique id prefix or position")
    # REMAINDER, because argparse would take "-todo" for an unknown option.
    changes = tag.add_argument(
        "changes",
        nargs=argparse.REMAINDER,
        metavar="+NAME|-NAME",
        help="tags to add or remove, then the PATHs (e.g. `paperdeck tag 3 +rl -todo`)",
    )
    # argparse takes a REMAINDER positional for a required one: `paperdeck tag` named the
    # tags among what is missing, though `paperdeck tag 3` prints them.
    changes.required = False
    add_paths_argument(tag)

    mark = add("mark", "Set a paper's reading state, or star or unstar it.", run_mark)
    mark.add_argument("ref", metavar="REF", help="a paper id, unique id prefix or position")
    mark.add_argument("mark", choices=MARKS, metavar="|".join(MARKS), help="what to mark")
    add_paths_argument(mark)

    notes = add("notes", "Export, import, or find orphaned notes.", run_notes)
    actions = notes.add_subparsers(dest="notes_command", metavar="ACTION", required=True)
    export = actions.add_parser(
        "export",
        help="print every note (markdown or JSON)",
        description="Print every note: markdown (one section per paper) or JSON.",
    )
    export.add_argument(
        "--format",
        dest="export_format",
        choices=EXPORT_FORMATS,
        default="markdown",
        help="markdown (default) or json",
    )
    add_output_arguments(export)
    _add_list_options(export)
    add_paths_argument(export)
    import_ = actions.add_parser(
        "import",
        help="merge an export back into the notes",
        description="Merge a JSON or markdown export (or another notes file) into the notes.",
    )
    import_.add_argument("file", metavar="FILE", type=file_name, help="an export to merge")
    _add_list_options(import_, lists=False)
    orphans = actions.add_parser(
        "orphans",
        help="list notes whose paper is in none of the lists",
        description="List notes whose paper is in none of the given lists.",
    )
    orphans.add_argument(
        "--reattach",
        action="store_true",
        help="move them to papers whose abstract matches (a list whose text changed slightly)",
    )
    _add_list_options(orphans)
    add_paths_argument(orphans)


def _add_list_options(parser: argparse.ArgumentParser, *, lists: bool = True) -> None:
    # The `notes` parser has the common options; its actions take them too, given after the
    # action. SUPPRESS keeps an action from resetting what was given before it.
    group = parser.add_argument_group("lists and notes")
    group.add_argument(
        "--notes", metavar="FILE", type=notes_name, default=argparse.SUPPRESS, help="notes file"
    )
    group.add_argument(
        "--meta", action="append", type=file_name, default=argparse.SUPPRESS, metavar="SOURCE"
    )
    group.add_argument("--no-meta", action="store_true", default=argparse.SUPPRESS)
    if lists:
        group.add_argument(
            "--list-format", dest="format", default=argparse.SUPPRESS, help="format of PATHs"
        )


def note_section(store: NotesStore, paper: Paper) -> str:
    """What `show` prints below the abstract: state, tags, corrections and the note."""
    entry = store.get(paper.id)
    if entry is None:
        entry = NoteEntry(paper_id=paper.id)
    state = entry.state + (", starred" if entry.starred else "")
    lines = ["", f"State:   {state}", f"Tags:    {', '.join(entry.tags) or '(none)'}"]
    for name, value in sorted(entry.corrections.items()):
        shown = ", ".join(value) if isinstance(value, list) else str(value)
        lines.append(f"Corrected {name}: {shown}")
    if entry.note:
        lines.append("Note:")
        lines.extend(f"  {line}" if line else "" for line in entry.note.split("\n"))
    else:
        lines.append("Note:    (none)")
    return "\n".join(lines)


def _label(paper: Paper) -> str:
    return f"#{paper.position} {paper.id}"


# -- note, tag, mark -----------------------------------------------------------------------


def run_note(args: argparse.Namespace) -> int:
    if STDIN in args.paths and "-" in (args.set, args.append):
        raise UsageError(
            "note: stdin holds the note or the list, not both: save the list to a file"
        )
    paper = open_paper(args, args.ref)
    changing = args.set is not None or args.append is not None or args.edit
    store = open_store(args, changing=changing)
    entry = store.get(paper.id)
    current = entry.note if entry is not None else ""
    if not changing:
        if current:
            print(current)
        else:
            warn(f"{_label(paper)} has no note yet")
        return 0
    if args.set is not None:
        text = _given(args.set)
    elif args.append is not None:
        joiner = "\n" if current and not current.endswith("\n") else ""
        text = current + joiner + _given(args.append)
    else:
        text = _edit(current)
    store.set_note(paper, text)
    if not store.dirty:
        tell(store)
        print(f"note of {_label(paper)} unchanged")
        return 0
    save_typed(store)
    saved = store.get(paper.id)
    lines = len(saved.note.split("\n")) if saved is not None and saved.note else 0
    if args.set is not None and current and current not in text:
        # `--set` typed for `--append`, or an empty "$NOTE": "saved (0 lines)" said nothing of
        # the note it replaced, and the notes file keeps no copy of it to go back to.
        warn(f"the note {_label(paper)} had before (--append adds to a note):")
        print(current, file=sys.stderr)
    if lines:
        print(f"note of {_label(paper)} saved ({plural(lines, 'line')})")
    else:
        print(f"note of {_label(paper)} deleted")
    return 0


_UNDECODED = re.compile("[\udc80-\udcff]")


def _given(text: str) -> str:
    """--set/--append TEXT: `-` is the text on stdin, as for cat and most tools (a note
    written by a script is often several lines, awkward to quote); else TEXT as typed."""
    if text != "-":
        return _as_typed(text)
    try:
        data = sys.stdin.buffer.read() if sys.stdin is not None else b""
    except OSError as error:
        raise PaperdeckError(f"could not read the note from stdin: {error.strerror}") from None
    return _decoded(data, "the note on stdin").removesuffix("\n")


def _decoded(data: bytes, what: str) -> str:
    """A note's bytes read as UTF-8, or when they are not, as Windows-1252 (as an editor set
    to a legacy encoding writes them: Latin-1 plus printable characters in 0x80-0x9F)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        warn(f"{what} is in a legacy encoding, not UTF-8: read as Windows-1252")
        return data.decode("cp1252", errors="replace")


def _as_typed(text: str) -> str:
    """--set/--append TEXT as typed: from a terminal in a legacy encoding its bytes are no
    UTF-8 and Python keeps them as lone surrogates, which saving would drop ("café" saved as
    "caf"); they are read as Windows-1252, as an editor's legacy file is."""
    if _UNDECODED.search(text) is None:
        return text
    warn("the note given is not UTF-8 (a terminal in a legacy encoding?): read as Windows-1252")
    # Byte by byte: what did read as UTF-8 stays as it was.
    return _UNDECODED.sub(
        lambda byte: bytes([ord(byte[0]) - 0xDC00]).decode("cp1252", errors="replace"), text
    )


def _edit(text: str) -> str:
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    if not editor:
        raise PaperdeckError("--edit needs $VISUAL or $EDITOR set to an editor command")
    with tempfile.TemporaryDirectory(prefix="paperdeck-note-") as folder:
        path = Path(folder) / "note.md"
        path.write_text(text, encoding="utf-8")
        try:
            result = subprocess.run([*shlex.split(editor), str(path)], check=False)
        except (OSError, ValueError) as error:
            # OSError's own text repeats the command: "[Errno 2] No such file...: 'vim'".
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            raise PaperdeckError(f"could not run the editor {editor!r}: {reason}") from None
        if result.returncode != 0:
            raise PaperdeckError(
                f"the editor exited with status {result.returncode}; the note is unchanged"
            )
        try:
            data = path.read_bytes()
        except OSError as error:
            raise PaperdeckError(f"could not read the edited note: {error.strerror}") from None
    edited = _decoded(data, "the note the editor saved")
    # Editors end the last line with a newline the note did not have.
    return edited if text.endswith("\n") else edited.removesuffix("\n")


def run_tag(args: argparse.Namespace) -> int:
    changes = _split_tag_arguments(args)
    paper = open_paper(args, args.ref)
    store = open_store(args, changing=bool(changes))
    entry = store.get(paper.id)
    tags = list(entry.tags) if entry is not None else []
    for change in changes:
        # `+rl,theory` is two tags, as the reader's `t` reads it: kept whole, "rl,theory" was
        # a tag the reader could not remove (its `-rl,theory` removes rl and theory).
        names = [name for piece in change[1:].split(",") if (name := normalise_tag(piece))]
        if not names:
            raise PaperdeckError(f"{change!r} names no tag")
        if change.startswith("+"):
            for name in names:
                if name.casefold() not in {tag.casefold() for tag in tags}:
                    tags.append(name)
        else:
            gone = {name.casefold() for name in [*names, normalise_tag(change[1:])]}
            tags = [tag for tag in tags if tag.casefold() not in gone]
    if changes:
        store.set_tags(paper, tags)
        save_store(store)
    saved = store.get(paper.id)
    shown = ", ".join(saved.tags) if saved is not None and saved.tags else "(no tags)"
    print(f"{_label(paper)}: {shown}")
    return 0


class _OneLineParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see `{self.prog} --help`)")


def _split_tag_arguments(args: argparse.Namespace) -> list[str]:
    """Take the +NAME/-NAME words out of what followed REF; parse the rest as usual."""
    changes = [word for word in args.changes if _TAG_CHANGE.fullmatch(word)]
    rest = [word for word in args.changes if not _TAG_CHANGE.fullmatch(word)]
    parser = _OneLineParser(prog="paperdeck tag", parents=[common_options()])
    add_paths_argument(parser)
    more = parser.parse_args(rest)
    for path in more.paths:
        if not _names_a_path(path):
            # `tag 3 todo`: a tag without its sign, not a list that is missing.
            raise UsageError(
                f"{path}: no such file or tag change (a tag is added as +NAME, removed as -NAME)"
            )
    for dest in _COMMON_DESTS:
        value = getattr(more, dest)
        if dest == "meta":
            args.meta = [*args.meta, *value]
        elif value not in (None, False):
            setattr(args, dest, value)
    args.paths = [*args.paths, *more.paths]
    return changes


def _names_a_path(path: Path) -> bool:
    if path == STDIN:
        return True
    try:
        return path.exists() or os.sep in str(path) or bool(path.suffix)
    except OSError:  # a name too long for a file is no file
        return False


def run_mark(args: argparse.Namespace) -> int:
    paper = open_paper(args, args.ref)
    store = open_store(args, changing=True)
    if args.mark in ("star", "unstar"):
        store.set_starred(paper, args.mark == "star")
    else:
        store.set_state(paper, args.mark)
    save_store(store)
    entry = store.get(paper.id) or NoteEntry(paper_id=paper.id)
    print(f"{_label(paper)}: {entry.state}{', starred' if entry.starred else ''}")
    return 0


# -- notes export / import / orphans -------------------------------------------------------


def run_notes(args: argparse.Namespace) -> int:
    actions: dict[str, Command] = {
        "export": _run_export,
        "import": _run_import,
        "orphans": _run_orphans,
    }
    return actions[args.notes_command](args)


def _run_export(args: argparse.Namespace) -> int:
    refuse_to_replace(args.output, args.force, args.export_format)
    papers = open_library(args).papers
    store = open_store(args)
    from paperdeck.core.citations import citation_keys

    keys = citation_keys(papers, store)
    if store.dirty:
        # Exporting pins the keys of noted papers; keeping them is good, needing it is not.
        try:
            save_store(store)
        except NotesSaveError as error:
            warn(str(error))
    if args.export_format == "json":
        text = export_json(store, papers, keys)
    else:
        text = export_markdown(store, papers, keys)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    backup = write_output(args.output, text)
    count = sum(1 for entry in store.entries.values() if not entry.is_empty)
    kept = f" (the file it replaced is {backup})" if backup is not None else ""
    print(f"exported {plural(count, 'paper')} to {args.output}{kept}")
    return 0


def _run_import(args: argparse.Namespace) -> int:
    path: Path = args.file
    try:
        data, _ = read_regular(path, MAX_FILE_BYTES)
        text = data.decode("utf-8-sig")
    except FileNotFoundError:
        raise PaperdeckError(f"{path}: no such file") from None  # as the lists are told
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise PaperdeckError(f"{path}: {reason}") from None
    # Named as given: "passwd: not a paperdeck notes export" named another file than /etc's.
    entries, unread = read_export(text, str(path))
    if not entries:
        raise PaperdeckError(f"{path}: nothing imported (it holds no complete note)")
    store = open_store(args, changing=True)
    changed = store.merge_in(entries, path.name)
    save_store(store)
    print(f"imported {path}: {plural(len(entries), 'paper')}, {changed} changed")
    if unread:
        warn(
            f"{path}: the notes on {plural(unread, 'paper')} did not read "
            "(stored in a form this paperdeck does not know) and were not imported"
        )
    return 0


def _run_orphans(args: argparse.Namespace) -> int:
    papers = open_library(args).papers
    store = open_store(args, changing=args.reattach)
    if args.reattach:
        moves = store.reattach(papers)
        save_store(store)
        by_id = {paper.id: paper for paper in papers}
        for old, new in moves:
            print(f"moved {old} -> {_label(by_id[new])}  {by_id[new].rendered_title}")
    orphans = store.orphans(papers)
    for entry in orphans:
        when = time.strftime("%Y-%m-%d", time.localtime(entry.updated)) if entry.updated else "-"
        excerpt = entry.excerpt[:70] + ("…" if len(entry.excerpt) > 70 else "")
        print(f"{entry.paper_id}  {entry.list_name or '-'}  {when}  {excerpt}")
    if not orphans:
        warn("no orphaned notes: every note's paper is in the given lists")
    return 0

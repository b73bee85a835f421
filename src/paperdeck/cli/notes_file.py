"""The notes store a command names, opened and saved with what they had to say told on stderr
(apart from the notes commands: searching or citing reads the notes without their code)."""

from __future__ import annotations

import argparse
import sys

from paperdeck.cli.common import warn
from paperdeck.core.notes.store import NotesSaveError, NotesStore, notes_path


def open_store(args: argparse.Namespace, *, changing: bool = False) -> NotesStore:
    """The notes store the command names (--notes, $PAPERDECK_NOTES or the default).

    A command that changes notes holds back what loading said until it saves, so that a
    location it cannot write to ends it with one line, not the same trouble told twice.
    """
    store = NotesStore(notes_path(getattr(args, "notes", None)))
    if not changing:
        tell(store)
    return store


def save_store(store: NotesStore) -> None:
    """Save, telling what saving had to say; NotesSaveError ends the command with status 2."""
    try:
        store.save()
    except NotesSaveError:
        # The error is the one line; only a file moved aside is worth telling besides.
        store.messages[:] = [m for m in store.messages if "moved it to" in m]
        tell(store)
        raise
    tell(store)


def save_typed(store: NotesStore) -> None:
    """`save_store` for a note the user typed (--set, --append, --edit): when it cannot be
    saved, it goes to a recovery file that `paperdeck notes import` reads back, and the one
    line that ends the command says where; it is never only in a process that exits."""
    from paperdeck.core.notes.recovery import save_or_recover

    told = save_or_recover(store)
    store.messages[:] = [m for m in store.messages if told is None or "moved it to" in m]
    tell(store)
    if told is None:
        return
    line, _, notes = told.partition("\n")
    if notes:
        # Neither folder could take a recovery file: the notes themselves, as the last resort.
        sys.stderr.write(notes + "\n")
    raise NotesSaveError(line.removeprefix("paperdeck: "))


def tell(store: NotesStore) -> None:
    """Say on stderr what the store had to say, once."""
    for message in store.messages:
        warn(message)
    store.messages.clear()

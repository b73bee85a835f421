"""Earlier versions of the notes file (notes.json.bak1 newest) and where damaged files go."""

from __future__ import annotations

import contextlib
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

from paperdeck.core.notes.codec import MAX_FILE_BYTES, BadFile, NewerSchema, parse_file
from paperdeck.core.notes.entry import NoteEntry
from paperdeck.core.plumbing.atomic_write import atomic_write
from paperdeck.core.plumbing.regular_file import read_regular

BACKUPS = 3
"""How many earlier versions of the file are kept (notes.json.bak1 is the newest)."""


@dataclass(frozen=True, slots=True)
class HeldVersion:
    """The file as it was before a save, set aside until the save is known to have worked."""

    link: Path | None
    """A second name of the old file (free: writers replace the file, never change it)."""
    data: bytes
    """Its bytes, written out instead when no second name could be made."""


def backup_path(path: Path, number: int) -> Path:
    """Where the `number`-th newest earlier version of the file at `path` is kept."""
    return path.with_name(f"{path.name}.bak{number}")


def hold(path: Path, data: bytes) -> HeldVersion:
    """Keep the current file (whose bytes are `data`) under a temporary name before a save.

    The temporary name starts like the backup's temporaries, so a holder that dies leaves
    nothing the next lock holder does not remove.
    """
    newest = backup_path(path, 1)
    link = newest.with_name(f".{newest.name}.tmp-{os.getpid()}-{secrets.token_hex(4)}")
    try:
        # The file itself, not a symbolic link to it (os.link would link the link).
        os.link(os.path.realpath(path), link)
    except OSError:
        return HeldVersion(None, data)
    return HeldVersion(link, data)


def release(held: HeldVersion) -> None:
    """Forget a held version: the save failed, so the backups stay as they were."""
    if held.link is not None:
        with contextlib.suppress(OSError):
            os.unlink(held.link)


def rotate(path: Path, held: HeldVersion) -> None:
    """After a successful save: the held version becomes .bak1, the others move one down.

    Raises OSError (the held version is released either way).
    """
    try:
        for number in range(BACKUPS, 1, -1):
            older = backup_path(path, number - 1)
            if older.exists():
                os.replace(older, backup_path(path, number))
        newest = backup_path(path, 1)
        if held.link is not None:
            os.replace(held.link, newest)
        else:
            atomic_write(newest, held.data, sync=False)
    finally:
        release(held)


def newest_good_backup(path: Path) -> tuple[Path, bytes, dict[str, NoteEntry]] | None:
    """The newest backup that reads as a notes file: its path, bytes and entries."""
    for number in range(1, BACKUPS + 1):
        backup = backup_path(path, number)
        try:
            data, _ = read_regular(backup, MAX_FILE_BYTES)
            return backup, data, parse_file(data)[0]
        except (OSError, BadFile, NewerSchema):
            continue
    return None


def aside_path(path: Path) -> Path:
    """A free name beside `path` to move a damaged notes file to."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    candidate = path.with_name(f"{path.name}.corrupt-{stamp}")
    number = 2
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.corrupt-{stamp}-{number}")
        number += 1
    return candidate

"""The last resort at quit: notes that cannot be saved go to a recovery file, never nowhere."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from paperdeck.core.notes.codec import encode_file
from paperdeck.core.notes.store import NotesSaveError, NotesStore
from paperdeck.core.plumbing.atomic_write import atomic_write
from paperdeck.core.text.sanitize import clean_line


def save_or_recover(store: NotesStore) -> str | None:
    """Save the store; if that fails, write its unsaved entries to a recovery file.

    None when saved, else what to tell the user: one line naming the recovery file, next to
    the notes file or in the temporary folder. The recovery file is a notes file written by
    the store's own codec, so `paperdeck notes import` (or `--notes` itself) reads it back.
    Only if neither place can be written are the entries printed in the line's place.
    """
    try:
        store.save()
        return None
    except NotesSaveError as error:
        reason = clean_line(str(error))
    data = encode_file({entry.paper_id: entry for entry in store.unsaved_entries()})
    name = f"{store.path.name}.recovered-{time.strftime('%Y%m%d-%H%M%S')}"
    for folder in (store.path.parent, Path(tempfile.gettempdir())):
        path = folder / name
        number = 2
        while path.exists():
            path = folder / f"{name}-{number}"
            number += 1
        try:
            atomic_write(path, data)
        except OSError:
            continue
        return (
            f"paperdeck: notes not saved ({reason}); "
            f"your unsaved notes are in {clean_line(str(path))}"
        )
    text = data.decode("utf-8", "surrogatepass")
    return f"paperdeck: notes not saved ({reason}), nor a recovery file; here they are:\n{text}"

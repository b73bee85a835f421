"""Running the reader: the notes store and a background load set up, then the app until it quits."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from paperdeck.core.config import notes_path, settings_path
from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.loading import BackgroundLoad, freeze_long_lived
from paperdeck.ui.safe_text import one_line

if TYPE_CHECKING:
    from paperdeck.core.library import Library
    from paperdeck.core.notes.store import NotesStore


def run_app(
    library: Library | Callable[[], Library],
    notes_option: str | None,
    *,
    loading_label: str = "",
) -> int:
    """Run the reader until the user quits; the exit status.

    `library` is a loaded Library, or a function that loads one: then the reader paints at
    once and loads in the background (a load error exits with status 2 and one line).
    """
    from paperdeck.core.notes.store import NotesStore

    if callable(library):
        # Started before anything else: the notes and the app are built while it reads.
        pending = BackgroundLoad(library)
        store = NotesStore(notes_path(notes_option))
        app = PaperdeckApp(
            None,
            store,
            loader=pending,
            loading_label=loading_label,
            settings_file=settings_path(),
        )
    else:
        store = NotesStore(notes_path(notes_option))
        freeze_long_lived()
        app = PaperdeckApp(library, store, settings_file=settings_path())
    result = app.run()
    if app.load_error is not None:
        print(f"paperdeck: {one_line(app.load_error)}", file=sys.stderr)
        return 2
    message = app.exit_message
    if message is None and store.dirty:
        # Last chance: the app may have been stopped without its quit path running.
        message = save_or_recover(store)
    if message is not None:
        with contextlib.suppress(OSError):  # after SIGHUP there is no terminal to tell
            print(message, file=sys.stderr)
        return 1
    return int(result or 0)


def save_or_recover(store: NotesStore) -> str | None:
    """Save the store; if that fails, write its unsaved entries to a recovery file.

    None when saved, else what to tell the user: one line naming the recovery file (a notes
    file `paperdeck notes import` merges back), next to the notes file or in the temporary
    folder. Only if neither can be written are the entries printed in the line's place.
    """
    import json
    import tempfile

    from paperdeck.core.notes.store import NotesSaveError, entry_to_json
    from paperdeck.core.plumbing.atomic_write import atomic_write

    try:
        store.save()
        return None
    except NotesSaveError as error:
        reason = one_line(str(error))
    papers = {entry.paper_id: entry_to_json(entry) for entry in store.unsaved_entries()}
    document = {"version": 1, "papers": papers}
    data = json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
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
            f"your unsaved notes are in {one_line(str(path))}"
        )
    return f"paperdeck: notes not saved ({reason}), nor a recovery file; here they are:\n{data}"

"""Running the reader: the notes store and a background load set up, then the app until it quits."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from paperdeck.core.config import notes_path, settings_path
from paperdeck.core.notes.recovery import save_or_recover
from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.loading import BackgroundLoad, freeze_long_lived
from paperdeck.ui.safe_text import one_line

if TYPE_CHECKING:
    from paperdeck.core.library import Library


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

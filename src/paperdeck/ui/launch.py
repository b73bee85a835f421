"""Running the reader: the notes store and a background load set up, then the app until it quits."""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from typing import TYPE_CHECKING

from paperdeck.ui.background_load import BackgroundLoad, Load

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from paperdeck.core.library import Library


def run_app(
    library: Library | Load,
    notes_option: str | None,
    *,
    loading_label: str = "",
    loading_paths: Sequence[Path] = (),
) -> int:
    """Run the reader until the user quits; the exit status.

    `library` is a loaded Library, or a function that loads one with the options it is given
    (see `Load`): then the reader paints at once and loads in the background (a load error
    exits with status 2 and one line).
    """
    # Started before anything else, the reader's imports too: the list is read meanwhile.
    pending = BackgroundLoad(library) if callable(library) else None
    from rich.console import Console

    from paperdeck.core.config import notes_path, settings_path
    from paperdeck.core.notes.recovery import save_or_recover
    from paperdeck.core.notes.store import NotesStore
    from paperdeck.ui.app import PaperdeckApp
    from paperdeck.ui.loading import freeze_long_lived
    from paperdeck.ui.safe_text import one_line
    from paperdeck.ui.textual_private import make_pastes_text, survive_a_closed_terminal

    if pending is not None:
        store = NotesStore(notes_path(notes_option))
        app = PaperdeckApp(
            None,
            store,
            loader=pending,
            loading_label=loading_label,
            loading_paths=loading_paths,
            settings_file=settings_path(),
        )
    else:
        assert not callable(library)
        store = NotesStore(notes_path(notes_option))
        freeze_long_lived()
        app = PaperdeckApp(library, store, settings_file=settings_path())
    make_pastes_text()  # a paste holding ESC is text, never key presses
    survive_a_closed_terminal(app)
    # Textual prints a crash's traceback (screens of it) to its error console: it goes to a
    # report file instead, and the terminal gets one line.
    errors = io.StringIO()
    app.error_console = Console(file=errors, width=120, markup=False, highlight=False)
    result = app.run()
    # A list read afresh is kept once its search is ready and its titles are made: if the
    # user quit between, now (not before its titles are made: see Library.keep).
    for line in app.library.keep(app.paper_list.measures()):
        with contextlib.suppress(OSError):
            print(one_line(line), file=sys.stderr)
    if app.load_error is not None:
        print(f"paperdeck: {one_line(app.load_error)}", file=sys.stderr)
        return 2
    crashed = app.return_code not in (None, 0)
    message = app.exit_message
    if message is None and store.dirty:
        # Last chance: the app may have been stopped without its quit path running.
        message = save_or_recover(store)
    with contextlib.suppress(OSError):  # after SIGHUP there is no terminal to tell
        if crashed:
            print(_crash_line(errors.getvalue()), file=sys.stderr)
        elif errors.getvalue():
            sys.stderr.write(errors.getvalue())
        if message is not None:
            print(message, file=sys.stderr)
    if crashed or message is not None:
        return 1
    if app.interrupted:
        return 130
    return int(result or 0)


def _crash_line(report: str) -> str:
    """One line for a crash of the reader, naming a file that holds its full report."""
    from paperdeck.ui.safe_text import one_line

    last = next((line for line in reversed(report.splitlines()) if line.strip()), "")
    try:
        descriptor, name = tempfile.mkstemp(prefix="paperdeck-crash-", suffix=".txt")
        with os.fdopen(descriptor, "w", encoding="utf-8", errors="replace") as handle:
            handle.write(report)
    except OSError:
        return f"paperdeck: the reader stopped on an internal error: {one_line(last)}"
    return (
        f"paperdeck: the reader stopped on an internal error ({one_line(last)[:200]}); "
        f"the report is in {one_line(name)}"
    )

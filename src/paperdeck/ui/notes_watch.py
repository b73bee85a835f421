"""The notes panel follows the notes file: what another paperdeck saved shows without a restart."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.timer import Timer

if TYPE_CHECKING:
    from paperdeck.ui.app import PaperdeckApp

NOTES_POLL = 2.0
"""Seconds between looks at the notes file (a stat; it is read only when it changed)."""


class NotesWatch:
    """Takes in the notes file when another process changed it: on a timer and on focus."""

    def __init__(self, app: PaperdeckApp, interval: float = NOTES_POLL) -> None:
        self.app = app
        self.interval = interval
        self._timer: Timer | None = None

    def start(self) -> None:
        if self.interval > 0:
            self._timer = self.app.set_interval(self.interval, self.check)

    def check(self) -> None:
        """Read the file if another writer replaced it, and repaint what it changed."""
        app = self.app
        if not app.store.refresh():
            return
        app.note_flow.forget_counts()
        app.paper_list.corrections_changed()
        app.paper_list.refresh()
        app.update_header()
        notes = app.notes
        paper = notes.paper
        if paper is None:
            return
        editor = notes.editor
        if editor.text != notes.loaded_text:
            return  # being typed: the next save merges both texts
        cursor = editor.cursor_location
        notes.load(paper, app.note_flow.annotation(paper))
        if app.focused is editor:
            row = min(cursor[0], editor.document.line_count - 1)
            column = min(cursor[1], len(editor.document.get_line(row)))
            editor.move_cursor((row, column))

"""The notes panel follows the notes file: what another paperdeck saved shows without a restart."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.timer import Timer

from paperdeck.core.text.sanitize import clean_text

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
        annotation = app.note_flow.annotation(paper)
        if app.focused is editor:
            # Being written, all of it saved: the other text comes in around the cursor, as a
            # save's merge does. Its row and column kept put the next key mid-word ("cli wrote
            # this meanwhil and moree"), and the change went unsaid under the writer's eyes.
            before = editor.text
            notes.show_merged(clean_text(annotation.note) if annotation is not None else "")
            if editor.text != before:
                app.notice("note", "This note was changed by another paperdeck: shown as saved")
        notes.load(paper, annotation)

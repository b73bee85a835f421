"""The reader's notes: editing a paper's note, autosave, and its star, reading state and tags."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from textual.timer import Timer

from paperdeck.core.notes.corrected import corrected_paper, has_shown_correction
from paperdeck.core.text.sanitize import clean_text
from paperdeck.ui.safe_text import one_line, short
from paperdeck.ui.textual_private import drop_notices

if TYPE_CHECKING:
    from paperdeck.core.model import Annotation, Paper
    from paperdeck.core.notes.store import NotesStore
    from paperdeck.ui.app import PaperdeckApp


class NoteFlow:
    """Moves text between the note editor and the notes store, and saves it."""

    def __init__(self, app: PaperdeckApp, store: NotesStore, autosave_delay: float) -> None:
        self.app = app
        self.store = store
        self.autosave_delay = autosave_delay
        self.autosave_timer: Timer | None = None
        self._counts: tuple[int, int] | None = None
        """(noted, starred) among the papers shown; None when the store changed since."""
        self._detail_before: tuple[Paper, float] | None = None
        """The paper whose note is being written and where its detail pane was scrolled to
        before (a short pane scrolls to the abstract while the note is written)."""
        self._reading: Paper | None = None
        """The paper whose abstract was being read (the detail pane focused) when its note was
        opened: leaving the note goes back to reading it."""

    # -- reading the store ------------------------------------------------------------------

    def annotation(self, paper: Paper) -> Annotation | None:
        """The notes-store entry of a paper, if it has one."""
        entry: Annotation | None = self.store.get(paper.id)
        return entry

    def corrections(self, paper: Paper) -> Mapping[str, Any]:
        entry = self.store.get(paper.id)
        return entry.corrections if entry is not None else {}

    def shown_title(self, paper: Paper) -> str:
        """The paper's title as its row and the pane show it: the one the user corrected it
        to, else its own, rendered."""
        return corrected_paper(paper, self.corrections(paper)).rendered_title

    def shown_corrections(self) -> dict[str, Mapping[str, Any]]:
        """The corrections that change what a paper's row shows, by paper id."""
        return {
            paper_id: entry.corrections
            for paper_id, entry in self.store.entries.items()
            if has_shown_correction(entry.corrections)
        }

    def entries(self) -> Mapping[str, Annotation]:
        entries: Mapping[str, Annotation] = self.store.entries
        return entries

    def take_messages(self) -> list[str]:
        messages = list(self.store.messages)
        self.store.messages.clear()
        return messages

    def counts(self) -> tuple[int, int]:
        """(noted, starred) among the open papers."""
        # A walk over every entry: done again only after the store changed, not per update.
        if self._counts is None:
            shown = self.app.paper_ids
            noted = starred = 0
            for paper_id, entry in self.entries().items():
                if paper_id in shown:
                    noted += bool(entry.note)
                    starred += bool(entry.starred)
            self._counts = (noted, starred)
        return self._counts

    def forget_counts(self) -> None:
        self._counts = None

    # -- the editor -------------------------------------------------------------------------

    def paper_being_edited(self) -> Paper | None:
        notes = self.app.notes
        return notes.paper if self.app.focused is notes.editor else None

    def edit(self) -> None:
        app = self.app
        if app.current_paper is None:
            return
        if app.notes.paper is not app.current_paper:
            app.show_current()
        app.screen.add_class("-notes-open")
        # As a dialog does: a notice about a step done would lie over the editor's lines.
        drop_notices(app, "information")
        if self._detail_before is None or self._detail_before[0] is not app.current_paper:
            self._detail_before = (app.current_paper, app.detail.scroll_y)
        if app.focused is app.detail:
            self._reading = app.current_paper
        elif app.focused is not app.notes.editor:
            self._reading = None
        app.call_after_refresh(app.detail.show_abstract)  # a short pane scrolls to it
        editor = app.notes.editor
        app.focus_now(editor)
        editor.move_cursor(editor.document.end)

    def leave(self) -> None:
        """Save the note and hand the focus back: to the abstract when the note was opened while
        reading it (Esc took the reader out of it to the list, at 80x24 folding the abstract
        back to its few lines), else to the list."""
        self.save_open_note()
        app = self.app
        app.paper_list.screen.remove_class("-notes-open")
        reading, self._reading = self._reading, None
        if reading is not None and reading is app.current_paper:
            app.focus_now(app.detail)
        else:
            app.focus_now(app.paper_list)

    def left_results(self, paper: Paper) -> None:
        """The edited paper left the search results: keep its note and close the editor.

        So the next keys cannot land in another paper's note.
        """
        self._reading = None
        self.leave()
        self.app.notify(
            one_line(
                f"“{short(self.shown_title(paper))}” is not in the results: its note is saved."
            ),
            markup=False,
        )

    def edited(self) -> None:
        if self.commit():
            self.app.notes.set_save_state("unsaved")
            # One timer per note session, restarted by each key, not one timer per key.
            if self.autosave_timer is None:
                self.autosave_timer = self.app.set_timer(self.autosave_delay, self._autosave)
            else:
                self.autosave_timer.reset()

    def blurred(self) -> None:
        self.save_open_note()
        editor = self.app.notes.editor
        if editor.screen is self.app.screen:
            # Left with Esc, Tab or a click (not for a dialog on top): the narrow layout
            # shows the detail pane again, scrolled back to where it was (its title).
            editor.screen.remove_class("-notes-open")
            # The note as left, in the detail pane that says it on a narrow screen.
            self.app.show_current()
            before, self._detail_before = self._detail_before, None
            if before is not None and before[0] is self.app.current_paper:
                self.app.detail.scroll_to(y=before[1], animate=False)

    def save_open_note(self) -> None:
        """Put the editor's text into the store and write the store if it changed."""
        self.commit()
        if self.store.dirty:
            self.save()

    def show(self, paper: Paper | None) -> None:
        """Show `paper`'s note, saving the previous paper's first."""
        if paper is not self.app.notes.paper:
            self.save_open_note()
            self.app.notes.load(paper, self.annotation(paper) if paper else None)

    def commit(self) -> bool:
        """Put the editor's text into the store; True when it changed the note."""
        app = self.app
        notes = app.notes
        paper = notes.paper
        if paper is None:
            return False
        text = notes.editor.text
        if text == notes.loaded_text:
            return False  # not typed since it was loaded: viewing a note never rewrites it
        notes.loaded_text = text
        entry = self.store.get(paper.id)
        before = entry.note if entry is not None else ""
        if before == text:
            return False
        self.store.set_note(paper, text)
        if bool(before) != bool(text):
            # The ✎ marker and the noted count change only when a note appears or goes.
            self._counts = None
            index = app.paper_list.paper_index
            if index is not None and app.papers[index] is paper:
                app.paper_list.refresh_paper(index)
            else:
                app.paper_list.refresh()
        return True

    def _autosave(self) -> None:
        self.autosave_timer = None
        self.save_open_note()

    def save(self) -> bool:
        """Write the store now; show the result beside the note. True when saved."""
        from paperdeck.core.notes.store import NotesSaveError

        app = self.app
        self._counts = None  # saving may merge what another reader wrote
        self.commit()  # what was typed goes into this save, so the merge below includes it
        try:
            self.store.save()
        except NotesSaveError as error:
            self.take_messages()  # the same failure, already in `error`
            app.notes.set_save_state("error", str(error))
            app.notify(
                one_line(f"Notes not saved: {error}. They are kept in memory; saving retries."),
                severity="error",
                markup=False,
            )
            return False
        if self.autosave_timer is not None:
            self.autosave_timer.stop()
            self.autosave_timer = None
        app.notes.set_save_state("saved")
        self._show_merged_note()
        for message in self.take_messages():
            app.notify(one_line(message), severity="warning", markup=False, timeout=8)
        app.update_header()
        return True

    def _show_merged_note(self) -> None:
        """After a save merged another writer's text into the open note, show the merge.

        Else the editor keeps the old text, and the next key typed would save it over the
        merge, dropping the other writer's words.
        """
        notes = self.app.notes
        paper = notes.paper
        if paper is None:
            return
        entry = self.store.get(paper.id)
        merged = clean_text(entry.note) if entry is not None else ""
        if merged == clean_text(notes.editor.text):
            return
        notes.show_merged(merged)
        self.app.notify(
            "This note was changed elsewhere too; the editor shows both changes merged.",
            markup=False,
        )

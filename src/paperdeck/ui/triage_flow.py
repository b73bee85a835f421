"""Triage: act on a paper and move on, narrow the list to a view, and act on every marked paper."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from paperdeck.core.text.wording import plural
from paperdeck.ui.safe_text import one_line, quoted

if TYPE_CHECKING:
    from paperdeck.core.model import Paper
    from paperdeck.core.papers import Papers
    from paperdeck.ui.app import PaperdeckApp

VIEWS = ("unread", "starred", "marked")
"""The views, in the order the header names them."""
VIEW_TERMS = {"unread": "is:unread", "starred": "is:starred"}
"""The views the search query language already has; "marked" filters by the list's marks."""


@dataclass(frozen=True)
class Advance:
    """An `r` or `s` that moved the cursor on, for the `U` or `S` pressed right after it."""

    what: str
    """"read" or "starred"."""
    row: int
    """The row of the paper it acted on."""
    rows: Sequence[int]
    """The rows shown then."""
    moves: int
    """The list's cursor moves once it had moved on."""


@dataclass(frozen=True)
class BulkChange:
    """An `r` or `s` on the marked papers, for the `U` or `S` pressed right after it."""

    what: str
    """"read" or "starred"."""
    before: dict[str, str | bool]
    """Each marked paper's id -> its reading state ("read") or star ("starred") before."""
    marks: frozenset[int]
    """The marks it acted on."""
    rows: Sequence[int]
    """The rows shown then."""


FIRST_TOLD = {
    "read": "Marked read, on to the next paper (U undoes it; Enter reads the abstract)",
    "starred": "Starred, on to the next paper (S undoes it; * shows the starred papers)",
}
"""Said by the first `r` and `s` of a session: at 80 columns the footer names them "r Read"
and "s Star", and `r` pressed to read a paper marked it read and moved on, unsaid."""

MARKS_TOLD = "e exports the marked papers; r s t c read, star, tag or cite them all; A clears marks"
"""Said after the count by the first marking of a session: Space drew a bar by the row and
said nothing of what marks are for."""


class TriageFlow:
    """Read-and-next, star-and-next, skip-and-next; the unread, starred and marked views; marks."""

    def __init__(self, app: PaperdeckApp) -> None:
        self.app = app
        self.views: set[str] = set()
        self._cleared: tuple[Papers, set[int]] | None = None
        """The list and the marks A last cleared, while no paper has been marked since."""
        self.picked_last: str | None = None
        """"view" or "marks": which the user chose last (u * m, or marking), for `e` to offer."""
        self.advanced: Advance | None = None
        """The last `r` or `s` on one paper, while nothing else has been done since."""
        self.bulk: BulkChange | None = None
        """The last `r` or `s` on the marked papers, while nothing else has been done since."""
        self._told: set[str] = set()
        """What the first `r` and `s` of the session said they did (FIRST_TOLD), and whether
        the first marking said what marks are for ("marks")."""

    # -- progress ---------------------------------------------------------------------------

    def read_count(self) -> int:
        """Papers of the open list marked read."""
        # A walk over the notes entries (papers someone acted on), not over every paper.
        shown = self.app.paper_ids
        return sum(
            1
            for paper_id, entry in self.app.entries().items()
            if entry.state == "read" and paper_id in shown
        )

    def view_label(self) -> str:
        return " + ".join(view for view in VIEWS if view in self.views)

    # -- one paper, then the next -----------------------------------------------------------

    def _targets(self) -> tuple[list[Paper], bool]:
        """The marked papers (True), else the one under the cursor (False)."""
        app = self.app
        marked = app.paper_list.marked
        if marked:
            return [app.papers[i] for i in sorted(marked)], True
        paper = app.current_paper
        return ([] if paper is None else [paper]), False

    def read_and_next(self) -> None:
        """Mark read and move to the next paper; marks: all of them read. Never undoes: a
        walk down the list pressing r leaves read what was read (U toggles)."""
        self._set_read(True, move=True)

    def star_and_next(self) -> None:
        """Star and move to the next paper; marks: all of them starred (S toggles)."""
        self._set_starred(True, move=True)

    def toggle_read(self) -> None:
        """Read becomes unread and unread read, the cursor staying; marks: all of them (unread
        when all are read). Right after `r`, the paper it marked, the cursor going back.
        Right after `r` on the marks, each of them as it was."""
        if self._undo_bulk("read"):
            return
        self._back_to("read")
        papers, _ = self._targets()
        self._set_read(not all(self._state(paper) == "read" for paper in papers), move=False)

    def toggle_star(self) -> None:
        """Star or unstar (when starred), the cursor staying; marks: all of them (unstarred
        when all are starred). Right after `s`, the paper it starred, the cursor going back.
        Right after `s` on the marks, each of them as it was."""
        if self._undo_bulk("starred"):
            return
        self._back_to("starred")
        papers, _ = self._targets()
        self._set_starred(not all(self._starred(paper) for paper in papers), move=False)

    def _back_to(self, what: str) -> None:
        """Put the cursor back on the paper the last `r` (`what` "read") or `s` ("starred")
        acted on, when that was the last thing done and the cursor has not moved since:
        README's "U to undo an r" toggled the next paper, the one r had moved on to."""
        advanced, self.advanced = self.advanced, None
        paper_list = self.app.paper_list
        if (
            advanced is not None
            and advanced.what == what
            and advanced.rows is paper_list.rows
            and advanced.moves == paper_list.cursor_moves
            and not paper_list.marked
        ):
            paper_list.move_cursor(advanced.row)

    def _undo_bulk(self, what: str) -> bool:
        """Put each marked paper back as it was before the last `r` (`what` "read") or `s`
        ("starred") on the marks, when that was the last thing done to papers (the marks and
        the rows as it left them; the cursor may have moved: the marks are what U acts on).
        U after `a r` toggled every paper shown to unread: the papers read before, over days
        of triage, were lost with the mistake."""
        bulk, self.bulk = self.bulk, None
        paper_list = self.app.paper_list
        if (
            bulk is None
            or bulk.what != what
            or bulk.marks != frozenset(paper_list.marked)
            or bulk.rows is not paper_list.rows
        ):
            return False
        self.advanced = None
        papers = [self.app.papers[i] for i in sorted(bulk.marks)]
        store = self.app.store
        for paper in papers:
            was = bulk.before[paper.id]
            if isinstance(was, bool):
                store.set_starred(paper, was)
            else:
                store.set_state(paper, was)
        self._repaint(papers)
        kept = sum(1 for was in bulk.before.values() if was in ("read", True))
        before = f"{kept} of them {what} before" if kept else f"none of them {what} before"
        marked = plural(len(papers), "marked paper")
        self.app.notice("marks", f"Undone: {marked} as they were ({before})")
        return True

    def _set_read(self, read: bool, *, move: bool) -> None:
        self.advanced = self.bulk = None
        papers, bulk = self._targets()
        if not papers:
            return
        store = self.app.store
        before: dict[str, str | bool] = {paper.id: self._state(paper) for paper in papers}
        for paper in papers:
            store.set_state(paper, "read" if read else "unread")
        self._changed(papers, "read" if read else "unread", bulk, move)
        if bulk and read:
            self._remember_bulk("read", before)

    def _set_starred(self, starred: bool, *, move: bool) -> None:
        self.advanced = self.bulk = None
        papers, bulk = self._targets()
        if not papers:
            return
        store = self.app.store
        before: dict[str, str | bool] = {paper.id: self._starred(paper) for paper in papers}
        for paper in papers:
            store.set_starred(paper, starred)
        self._changed(papers, "starred" if starred else "unstarred", bulk, move)
        if bulk and starred:
            self._remember_bulk("starred", before)

    def _remember_bulk(self, what: str, before: dict[str, str | bool]) -> None:
        paper_list = self.app.paper_list
        self.bulk = BulkChange(what, before, frozenset(paper_list.marked), paper_list.rows)

    def skip_and_next(self) -> None:
        """Leave this paper as it is and go to the next unread one below it, else the first
        unread one from the top (said, so a jump up is not taken for one down)."""
        app = self.app
        paper_list = app.paper_list
        cursor = paper_list.cursor
        for row in range(cursor + 1, len(paper_list.rows)):
            if self._state(app.papers[paper_list.rows[row]]) != "read":
                paper_list.move_cursor(row)
                return
        for row in range(min(cursor, len(paper_list.rows))):
            if self._state(app.papers[paper_list.rows[row]]) != "read":
                paper_list.move_cursor(row)
                app.notice("skip", "No unread paper below this one: wrapped to the top")
                return
        app.notice("skip", "No other unread paper is shown")

    def _state(self, paper: Paper) -> str:
        entry = self.app.store.get(paper.id)
        return entry.state if entry is not None else "unread"

    def _starred(self, paper: Paper) -> bool:
        entry = self.app.store.get(paper.id)
        return entry is not None and entry.starred

    def _changed(self, papers: Sequence[Paper], what: str, bulk: bool, move: bool) -> None:
        """Save, repaint, and move on (one paper, `move`) or say what changed."""
        app = self.app
        self._repaint(papers)
        if bulk:
            # In the slot of what marks are for, said by the first mark: one toast, not two
            # over the list's rows at 80x24.
            # Which key undoes it: U toggled them all, the papers read before going unread too.
            count = len(papers)
            undo = {"read": " · U undoes", "starred": " · S undoes"}.get(what, "")
            app.notice("marks", f"{plural(count, 'marked paper')} {what}{undo}")
        elif not move:
            app.notify(f"This paper is now {what}")
        else:
            # The paper stays in a view it no longer fits until the next search: the cursor
            # moves on from where it was, as in a mail reader.
            paper_list = app.paper_list
            row = paper_list.cursor
            paper_list.move_cursor(row + 1)
            self.advanced = Advance(what, row, paper_list.rows, paper_list.cursor_moves)
            if what in FIRST_TOLD and what not in self._told:
                self._told.add(what)
                app.notice("triage", FIRST_TOLD[what])

    def add_tags(self, papers: Iterable[Paper], add: Sequence[str], remove: Sequence[str]) -> int:
        """Add and remove tags on `papers`; how many papers changed."""
        store = self.app.store
        changed = 0
        removing = set(remove)
        for paper in papers:
            entry = store.get(paper.id)
            before = list(entry.tags) if entry is not None else []
            after = [tag for tag in before if tag not in removing]
            after += [tag for tag in add if tag not in after]
            if after != before:
                store.set_tags(paper, after)
                changed += 1
        return changed

    def tag(self) -> None:
        """Ask for tags to add (`-name` removes) to the marked papers, or the cursor's paper."""
        from paperdeck.ui.dialogs.tags_dialog import TagsDialog, TagsEdit

        papers, bulk = self._targets()
        if not papers:
            return
        store = self.app.store
        known = sorted({tag for entry in self.app.entries().values() for tag in entry.tags})
        current: list[str] = []
        for paper in papers:
            entry = store.get(paper.id)
            for tag in entry.tags if entry is not None else ():
                if tag not in current:
                    current.append(tag)
        subject = (
            plural(len(papers), "marked paper")
            if bulk
            else self.app.note_flow.shown_title(papers[0])
        )

        def done(edit: TagsEdit | None) -> None:
            if edit is None or not (edit.add or edit.remove):
                return
            self.bulk = None  # U and S undo an r or s only while it is the last change
            changed = self.add_tags(papers, edit.add, edit.remove)
            if changed:
                self._repaint(papers)
            if bulk:
                marked = plural(len(papers), "marked paper")
                of = f"{changed} of " if changed < len(papers) else ""
                self.app.notice("marks", f"Tags changed on {of}{marked}")

        self.app.push_screen(TagsDialog(subject, current, known), done)

    def _repaint(self, papers: Sequence[Paper]) -> None:
        """Save the store and repaint what shows the papers' state."""
        app = self.app
        app.note_flow.forget_counts()
        app.note_flow.save()
        app.paper_list.refresh()
        if app.notes.paper is not None and app.notes.paper in papers:
            app.notes.show_annotation(app.note_flow.annotation(app.notes.paper))
        app.update_header()

    # -- views ------------------------------------------------------------------------------

    def toggle_view(self, view: str) -> None:
        """Show only unread, starred or marked papers (or all again); combines with the search."""
        if view in self.views:
            self.views.discard(view)
        else:
            if view == "marked" and not self.app.paper_list.marked:
                self.app.notice("view", "No paper is marked: Space marks one, a marks all shown")
                return
            self.views.add(view)
        self.picked_last = "view"
        self.apply_views()
        self.app.notice("view", self.showing())

    def showing(self) -> str:
        """What the list shows now, said when a view is turned on or off."""
        label = self.view_label()
        query = self.app.search.query.strip()
        if not query:
            return f"Showing {label} papers" if label else "Showing every paper"
        matching = f"matching {quoted(query)}"
        if not label:
            return f"Showing every paper {matching}"
        # `*` during a search showed 15 of the 40 papers starred over four searches, said as
        # "Showing starred papers"; `e` then offered those 15.
        if "starred" in self.views:
            _, starred = self.app.note_flow.counts()
            more = f"{plural(starred, 'paper')} starred in all; Esc in the list clears the search"
        else:
            more = "Esc in the list clears the search"
        return f"Showing {label} papers {matching} ({more})"

    def set_views(self, views: Iterable[str]) -> None:
        """Put back the views of an earlier session (no search is run here)."""
        self.views = {view for view in views if view in VIEWS}
        self.app.search.view_terms = self._terms()

    def apply_views(self) -> None:
        """Run the search again with the views' terms."""
        search = self.app.search
        search.view_terms = self._terms()
        search.run(search.query)

    def _terms(self) -> str:
        return " ".join(
            VIEW_TERMS[view] for view in VIEWS if view in self.views and view in VIEW_TERMS
        )

    def keep_marked(self, rows: Sequence[int]) -> Sequence[int]:
        """The rows of a result the marked view keeps (all of them when it is off)."""
        if "marked" not in self.views:
            return rows
        marked = self.app.paper_list.marked
        return [row for row in rows if row in marked]

    # -- marks ------------------------------------------------------------------------------

    def set_marks(self, marks: Iterable[int]) -> None:
        """Mark exactly these papers (indices into the app's papers)."""
        paper_list = self.app.paper_list
        paper_list.marked.clear()
        paper_list.marked.update(marks)
        paper_list.refresh()
        paper_list.post_message(paper_list.MarksChanged(len(paper_list.marked)))

    def mark_all_visible(self) -> None:
        paper_list = self.app.paper_list
        self.set_marks(set(paper_list.marked) | set(paper_list.rows))
        self.say_marked()

    def clear_marks(self) -> None:
        """Unmark every paper, remembered so that A again at once puts the marks back."""
        paper_list = self.app.paper_list
        cleared = set(paper_list.marked)
        if not cleared:
            if self._cleared is not None and self._cleared[0] is self.app.papers:
                marks = self._cleared[1]
                self.set_marks(marks)
                self._cleared = None
                count = len(marks)
                self.app.notice("marks", f"{plural(count, 'mark')} put back")
            else:
                self.app.notice("marks", "No paper is marked")
            return
        self.set_marks(())
        self._cleared = (self.app.papers, cleared)
        count = len(cleared)
        self.app.notice("marks", f"{plural(count, 'mark')} cleared: A puts them back")
        if "marked" in self.views:
            self.views.discard("marked")
            self.apply_views()

    def forget_cleared(self) -> None:
        """Papers were marked since the marks were cleared: A no longer puts those back."""
        self._cleared = None

    def invert_marks(self) -> None:
        """Marked papers shown become unmarked and the other shown papers marked."""
        paper_list = self.app.paper_list
        shown = set(paper_list.rows)
        self.set_marks((paper_list.marked - shown) | (shown - paper_list.marked))
        self.say_marked()

    def say_marked(self, *, first_only: bool = False) -> None:
        """How many papers are marked, and, the first time in a session, what marks are for;
        `first_only` (Space): only that, the first time: the bar by the row and the header's
        count say the rest, where a count in a toast went stale at the next Space."""
        count = len(self.app.paper_list.marked)
        said = "Paper marked" if first_only else f"{plural(count, 'paper')} marked"
        if "marks" not in self._told:
            self._told.add("marks")
            said += f": {MARKS_TOLD}"
        elif first_only:
            return
        self.app.notice("marks", one_line(said))

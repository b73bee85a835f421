"""Reopening a list puts back where the reader left it: paper, query, views and marks."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from paperdeck.core.config import sessions_path
from paperdeck.core.session import (
    ListSession,
    load_session,
    marked_ids,
    save_session,
    session_key,
    with_search,
)
from paperdeck.ui.safe_text import one_line

MAX_OFFERED = 12
"""Lists offered by Open another list: the most recently read."""

if TYPE_CHECKING:
    from paperdeck.ui.app import PaperdeckApp


class SessionFlow:
    """Saves the open list's reader state and applies a saved one when a list is shown."""

    def __init__(self, app: PaperdeckApp) -> None:
        self.app = app
        self.file: Path | None = sessions_path(app.settings_file) if app.settings_file else None
        self.key: str | None = None
        """The shown lists' identity; None until a list with a file is shown."""

    def key_of_library(self) -> str | None:
        """The key of the lists shown (None while none with a file is shown)."""
        paths = [raw.path for raw in self.app.library.lists]
        return session_key(paths) if paths else None

    def capture(self) -> ListSession:
        """The reader's state now."""
        app = self.app
        paper = app.current_paper
        ids = app.papers.ids()
        return ListSession(
            paper_id=paper.id if paper is not None else None,
            query=app.search.query,
            views=sorted(app.triage.views),
            marked=marked_ids(ids, app.paper_list.marked),
            searches=app.search_box.searches(),
        )

    def lists_to_offer(self) -> list[tuple[Path, str]]:
        """The lists read recently, most recent first, then the bundled one, each with what
        it is said to be; the lists shown now are left out."""
        from paperdeck.core.resources import bundled_list
        from paperdeck.core.session import recent_lists

        seen = {_resolved(raw.path) for raw in self.app.library.lists}
        offered: list[tuple[Path, str]] = []
        for path in recent_lists(self.file) if self.file is not None else []:
            if len(offered) < MAX_OFFERED and _resolved(path) not in seen:
                seen.add(_resolved(path))
                offered.append((path, ""))
        if _resolved(bundled_list()) not in seen:
            offered.append((bundled_list(), "the bundled sample list"))
        return offered

    def save(self) -> None:
        """Remember where the shown list was left (on quit, and before another list is shown)."""
        if self.file is None or self.key is None or not self.app.papers:
            return
        error = save_session(self.file, self.key, self.capture())
        if error:
            self.app.notify(one_line(error), severity="warning", markup=False)

    def adopt(self, key: str | None) -> None:
        """The list shown is the one `key` names, the reader's state kept as the user left it
        (what they did while it loaded wins over the last session): it is saved under that
        key from now on, the searches saved there coming before those made since (↑)."""
        self.key = key
        if self.file is None or key is None:
            return
        saved = load_session(self.file, key)
        if saved is None:
            return
        box = self.app.search_box
        searches = saved.searches
        for query in box.history:
            searches = with_search(searches, query)
        box.history = searches

    def restore(self) -> None:
        """Put back the saved state of the list just shown (its papers are in the list)."""
        app = self.app
        self.key = self.key_of_library()
        if self.file is None or self.key is None:
            return
        session = load_session(self.file, self.key)
        if session is None:
            return
        index_of = app.paper_ids
        marks = {index_of[pid] for pid in session.marked if pid in index_of}
        if marks:
            app.triage.set_marks(marks)
        app.triage.set_views(
            session.views
            if marks or "marked" not in session.views
            else [view for view in session.views if view != "marked"]
        )
        cursor = index_of.get(session.paper_id) if session.paper_id else None
        if cursor is not None:
            app.paper_list.jump_to(cursor)
        app.search_box.history = session.searches
        if session.query:
            app.search.resume(session.query)
            app.search_box.value = session.query
        if session.query or app.triage.views:
            app.search.run(app.search.query)
        app.update_header()


def _resolved(path: Path) -> str:
    try:
        return str(path.resolve())
    except (OSError, RuntimeError):
        return str(path.absolute())

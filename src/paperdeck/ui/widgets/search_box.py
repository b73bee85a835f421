"""The search input: filters as you type, remembers earlier searches, hands focus to the list."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Input

from paperdeck.core.session import with_search
from paperdeck.ui.key_routing import mark_origin

LEAVING_KEYS = frozenset({"enter", "down", "escape"})
"""Keys that hand the focus to the list (see the bindings)."""


def placeholder(year: int | None) -> str:
    """The empty box's hint: the syntax, ending with a field that finds something here."""
    field = f"year:{year}" if year is not None else "is:unread"
    return f'/ search: words, \'exact, !not, a | b, "phrase", title: {field}'


class SearchBox(Input):
    """An Input with search history on ↑ and keys that return to the list."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # In a `like:` view Esc goes back to the search before it, as the line under the field
        # says: the footer said "esc Clear search" beside "Esc: back to “unlearning”".
        Binding("escape", "back_and_leave", "Back from like:", show=True),
        Binding("escape", "clear_and_leave", "Clear search", show=True),
        Binding("down", "leave", "To the list", show=False),
        Binding("up", "history_back", "Earlier search", show=False),
        # Shown: a footer offering only Esc (which clears) had a new user drop the results
        # they had searched for, to get to the list.
        Binding("enter", "submit", "To the list", show=True),
    ]

    class Leave(Message):
        """The user wants the list (Enter, ↓, Esc)."""

    class QueryChanged(Message):
        """The query was edited: the list filters as the user types."""

        def __init__(self, query: str) -> None:
            super().__init__()
            self.query = query

    on_leave: Callable[[], None] | None = None
    """Called by Enter, ↓ and Esc instead of posting Leave: a message is handled too late, the
    focus must have moved before the next key is routed, or a key typed right after Enter
    (`r` to mark the first result read) lands in the query."""
    _leaving = False
    cleared: Callable[[], str] | None = None
    """What Esc leaves in the field: the search before a `like:` view, else nothing."""
    goes_back: Callable[[str], bool] | None = None
    """Whether Esc in the field with this query goes back to an earlier search."""
    _back = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(placeholder=placeholder(None), id=id, select_on_focus=False)
        self.history: list[str] = []
        self._history_pos: int | None = None

    def suggest_year(self, year: int | None) -> None:
        """Offer `year:YEAR` in the placeholder, a year the list has (None: it has none)."""
        self.placeholder = placeholder(year)

    async def _on_key(self, event: events.Key) -> None:
        # Runs before Input._on_key (handlers run along the MRO). Keys routed here after Enter,
        # ↓ or Esc, or reaching it once the focus has left, are not typed: they follow the
        # focus (ui.key_routing).
        mark_origin(self, event)
        if self._leaving or self.screen.focused is not self:
            event.prevent_default()
        elif event.key in LEAVING_KEYS:
            self._leaving = True
        elif event.character == "/" and not self.value[: min(self.selection)].strip():
            # A '/' that would begin the query joins no words (as in `k-median/means`): pressed
            # in the field to search anew, it was typed ('no paper has "/title:lanczos"'). It
            # selects the query instead, as `/` from the list does.
            event.prevent_default()
            self.select_all()

    def on_focus(self) -> None:
        self._leaving = False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("back_and_leave", "clear_and_leave"):
            return self._goes_back() == (action == "back_and_leave")
        return True

    def _goes_back(self) -> bool:
        return self.goes_back is not None and self.goes_back(self.value)

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        back = self._goes_back()
        if back != self._back:
            self._back = back
            self.refresh_bindings()
        self.post_message(self.QueryChanged(event.value))

    def searches(self) -> list[str]:
        """The history with the query in the field now as its latest (kept for the next run)."""
        return with_search(self.history, self.value)

    def remember(self) -> None:
        """Add the current query to the history as typed (core.session.with_search)."""
        self.history = self.searches()
        self._history_pos = None

    def action_leave(self) -> None:
        self.remember()
        self._leave()

    def action_back_and_leave(self) -> None:
        self.action_clear_and_leave()

    def action_clear_and_leave(self) -> None:
        self.remember()
        self.value = self.cleared() if self.cleared is not None else ""
        self._leave()

    def _leave(self) -> None:
        if self.on_leave is not None:
            self.on_leave()
        else:
            self.post_message(self.Leave())

    def action_history_back(self) -> None:
        if not self.history:
            return
        if self._history_pos is None:
            self._history_pos = len(self.history)
            if self.value.strip() and self.history[-1].rstrip() == self.value.rstrip():
                # The search shown is the latest kept (Enter kept it, `/` selected it): ↑
                # showing it again looked like a key that did nothing.
                self._history_pos -= 1
        self._history_pos = max(0, self._history_pos - 1)
        self.value = self.history[self._history_pos]
        self.cursor_position = len(self.value)

    async def action_submit(self) -> None:
        self.action_leave()

"""Keys of a burst that were routed to a widget which then lost the focus follow the focus."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import App, ScreenStackError
from textual.widget import Widget

from paperdeck.ui.textual_private import forward_key, run_key_binding

# Textual routes a key to the widget focused when the key arrives; bindings run only when the
# key has bubbled up to the app. In a burst (a paste, a fast typist, tmux send-keys) "/" and the
# query arrive together: the query's keys are routed to the list before "/" has moved the focus
# to the search field, and would reach the app as commands, or be lost.
_ORIGIN = "_paperdeck_origin"


def mark_origin(widget: Widget, event: events.Key) -> None:
    """Remember which widget a key was routed to (called by that widget's key handler)."""
    setattr(event, _ORIGIN, widget)


def follow_focus(app: App[Any], event: events.Key) -> bool:
    """Send a bubbled key on to the focused widget if the focus moved after it was routed.

    True when the key was sent on (the app then does not treat it as a binding).
    """
    origin = getattr(event, _ORIGIN, None)
    if origin is None or not app.is_running:
        return False
    try:
        focused = app.focused
    except ScreenStackError:  # a key still on its way while the app closes
        return False
    if origin is None or focused is None or focused is origin:
        return False
    event.stop()
    key = events.Key(event.key, event.character)
    if key.is_printable:
        forward_key(focused, key)  # it types itself into the field
    else:
        # Ctrl+U, Backspace ... act through bindings, which Textual runs only once a key has
        # bubbled back up to the app: after the keys typed behind it had reached the field
        # ("/ Ctrl+U bandit" became "" or "t"). Queued behind the keys before it instead.
        focused.call_later(_bind_or_forward, app, focused, key)
    return True


async def _bind_or_forward(app: App[Any], widget: Widget, key: events.Key) -> None:
    if app.focused is widget and await run_key_binding(app, key.key):
        return
    forward_key(widget, key)

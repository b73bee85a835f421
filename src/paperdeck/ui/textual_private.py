"""The reader's only uses of Textual's private API, each because no public one does the job.

tests/ui/test_textual_private.py fails when a Textual upgrade removes or changes one of them.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import App
from textual.widget import Widget


def forward_key(widget: Widget, key: events.Key) -> None:
    """Hand a key to `widget` as Textual hands keys to the focused widget.

    `post_message` alone is not enough: a key not marked forwarded that bubbles back up to the
    App is taken as new input and routed again (to the focus, or as a binding).
    """
    widget._forward_event(key)


def write_to_terminal(app: App[Any], sequence: str) -> None:
    """Write an escape sequence (OSC 52 copy, wrapped for tmux) straight to the terminal.

    `App.copy_to_clipboard` writes only plain OSC 52, which tmux drops unless configured: the
    clipboard module builds the sequence itself and needs the driver to send it.
    """
    driver = app._driver
    if driver is None:
        raise RuntimeError("no terminal")
    driver.write(sequence)
    driver.flush()

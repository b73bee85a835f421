"""The reader's only uses of Textual's private API, each because no public one does the job.

tests/ui/test_textual_private.py fails when a Textual upgrade removes or changes one of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual import events
from textual._xterm_parser import XTermParser
from textual.app import App
from textual.drivers import linux_driver
from textual.message import Message
from textual.widget import Widget

from paperdeck.ui.paste_text import PasteFilter


def forward_key(widget: Widget, key: events.Key) -> None:
    """Hand a key to `widget` as Textual hands keys to the focused widget.

    `post_message` alone is not enough: a key not marked forwarded that bubbles back up to the
    App is taken as new input and routed again (to the focus, or as a binding).
    """
    widget._forward_event(key)


async def run_key_binding(app: App[Any], key: str) -> bool:
    """Run the binding `key` has for the focused widget or its ancestors, as Textual would for a
    key nobody handled; True when one ran.

    A key sent on to a newly focused widget must run its binding (Ctrl+U in the search field)
    before the keys after it reach that widget: left to bubble back up, it would run after them.
    """
    return await app._check_bindings(key)


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


class PasteSafeParser(XTermParser):
    """Textual's terminal input parser, fed through a PasteFilter (see paste_text).

    Textual's parser reads an ESC inside a bracketed paste as the start of keys, and offers
    no public way to filter terminal input before it: the driver makes its parser by name.
    """

    def __init__(self, debug: bool = False) -> None:
        super().__init__(debug)
        self._paste_filter = PasteFilter()

    def feed(self, data: str) -> Iterable[Message]:
        if not data:  # end of input
            return super().feed(data)
        filtered = self._paste_filter(data)
        # All of it held back (a marker cut in two): feeding "" would mean end of input.
        return super().feed(filtered) if filtered else ()


def make_pastes_text() -> None:
    """Have the Linux driver (which makes its parser by this name) parse with PasteSafeParser."""
    linux_driver.XTermParser = PasteSafeParser  # type: ignore[attr-defined]

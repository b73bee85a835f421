"""The reader's only uses of Textual's private API, each because no public one does the job.

tests/ui/test_textual_private.py fails when a Textual upgrade removes or changes one of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO, Any

from textual import events
from textual._xterm_parser import XTermParser
from textual.app import App
from textual.css.query import NoMatches
from textual.drivers import linux_driver
from textual.message import Message
from textual.notifications import Notification, Notify, SeverityLevel
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey as FooterKey  # a footer of our own makes them
from textual.widgets._toast import ToastRack

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


class TerminalOutput:
    """The terminal's output for Textual's writer thread: writes that fail are dropped.

    Textual writes through a thread fed by a bounded queue. A write that raises (EIO once the
    terminal has closed) ends that thread; the queue then fills and the reader hangs for good in
    its next write, or in the driver's close, with the note saved but the process never exiting.
    Dropping what a closed terminal cannot take keeps the thread draining its queue.
    """

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream
        self.closed = False
        """True once a write or flush failed: the terminal has gone."""

    def write(self, text: str) -> int:
        if not self.closed:
            try:
                return self._stream.write(text)
            except (OSError, ValueError):
                self.closed = True
        return len(text)

    def flush(self) -> None:
        if not self.closed:
            try:
                self._stream.flush()
            except (OSError, ValueError):
                self.closed = True

    def fileno(self) -> int:
        return self._stream.fileno()


class _ClosableTerminalDriver(linux_driver.LinuxDriver):
    """Textual's Linux driver, writing through a TerminalOutput."""

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        # The driver's only output stream: its writer thread is made from it.
        self._file = TerminalOutput(self._file)  # type: ignore[arg-type,assignment]


def survive_a_closed_terminal(app: App[Any]) -> None:
    """Have `app` run on a driver whose output outlives its terminal (see TerminalOutput).

    Only Textual's own Linux driver is replaced: another one (TEXTUAL_DRIVER, Windows) is kept.
    """
    if app.driver_class is linux_driver.LinuxDriver:
        app.driver_class = _ClosableTerminalDriver


def drop_notices(app: App[Any], severity: SeverityLevel) -> None:
    """Take down every toast of one severity now, on every screen.

    Textual takes a toast down when it times out or is clicked, or all of them at once
    (`clear_notifications`, which would also take warnings a dialog's reader still needs).
    It redraws the toasts of the screen on top only: the screen under a dialog kept a toast's
    frame, empty, until the dialog closed.
    """
    stale = [notice for notice in app._notifications if notice.severity == severity]
    for notice in stale:
        app._unnotify(notice, refresh=False)
    if stale:
        for screen in app.screen_stack:
            try:
                rack = screen.get_child_by_type(ToastRack)
            except NoMatches:
                continue
            app.call_later(rack.show, app._notifications)


def notify_in_place(
    app: App[Any],
    shown: dict[str, Notification],
    slot: str,
    message: str,
    *,
    severity: SeverityLevel = "information",
) -> None:
    """A toast (plain text) in place of the one last shown for `slot`, if it is still up:
    toggling views three times showed three toasts, stacked. `shown`: the app's toasts by slot.

    Textual's `notify` gives no handle on its toast, and takes one down only when it times
    out or is clicked.
    """
    previous = shown.get(slot)
    if previous is not None and previous in app._notifications:
        app._unnotify(previous)
    notice = Notification(message, "", severity, app.NOTIFICATION_TIMEOUT, markup=False)
    shown[slot] = notice
    app.post_message(Notify(notice))


def event_clock() -> float:
    """Now, on the clock Textual stamps its events with (`Message.time`)."""
    from textual import _time

    return _time.get_time()


def footer_bindings_ready(footer: Footer) -> bool:
    """Whether the footer has read the screen's bindings (its keys can be made)."""
    return bool(footer._bindings_ready)

"""Textual's private API the reader relies on (paperdeck.ui.textual_private) still works."""

from __future__ import annotations

import errno
import io
import signal
import threading
from typing import Any, ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Input

from paperdeck.ui.textual_private import forward_key, write_to_terminal


class _OneInput(App[None]):
    def compose(self) -> ComposeResult:
        yield Input(id="field")


async def test_a_forwarded_key_types_into_the_widget_and_is_marked_forwarded() -> None:
    app = _OneInput()
    seen: list[events.Key] = []
    async with app.run_test() as pilot:
        field = app.query_one("#field", Input)
        original = field.post_message

        def spy(message: Any) -> bool:
            if isinstance(message, events.Key):
                seen.append(message)
            return original(message)

        field.post_message = spy  # type: ignore[method-assign]
        forward_key(field, events.Key("x", "x"))
        await pilot.pause()
        assert field.value == "x"
        assert seen and seen[0].is_forwarded


async def test_writing_to_the_terminal_reaches_the_driver() -> None:
    app = _OneInput()
    written: list[str] = []
    async with app.run_test() as pilot:
        driver = app._driver
        assert driver is not None
        original = driver.write

        def record(data: str) -> None:
            written.append(data)
            original(data)

        driver.write = record  # type: ignore[method-assign]
        write_to_terminal(app, "\x1b]52;c;eA==\x07")
        await pilot.pause()
    assert "\x1b]52;c;eA==\x07" in written


# -- bracketed pastes through the real input parser ----------------------------------------


def _parse(*reads: str) -> list[Any]:
    from paperdeck.ui.textual_private import PasteSafeParser

    parser = PasteSafeParser()
    found: list[Any] = []
    for data in reads:
        if data:  # the driver feeds "" only at the end of input
            found.extend(parser.feed(data))
    found.extend(parser.feed(""))
    return found


def test_a_paste_holding_esc_reaches_the_app_as_one_paste_of_text() -> None:
    whole = "\x1b[200~x\x1b\x1bjjsrq\x1b[201~"
    for cut in range(len(whole) + 1):
        found = _parse(whole[:cut], whole[cut:])
        assert [type(event) for event in found] == [events.Paste], (cut, found)
        assert found[0].text == "xjjsrq"


def test_keys_around_a_paste_are_still_keys() -> None:
    found = _parse("j\x1b[200~pasted\x1b[201~k")
    assert [getattr(event, "key", None) for event in found] == ["j", None, "k"]
    assert isinstance(found[1], events.Paste) and found[1].text == "pasted"


def test_the_linux_driver_makes_its_parser_by_the_name_that_is_replaced() -> None:
    import inspect

    from textual.drivers import linux_driver

    from paperdeck.ui.textual_private import PasteSafeParser, make_pastes_text

    assert "XTermParser(" in inspect.getsource(linux_driver.LinuxDriver.run_input_thread)
    make_pastes_text()
    assert linux_driver.XTermParser is PasteSafeParser  # type: ignore[attr-defined]


# -- a terminal that has closed ----------------------------------------------------------------


class _ClosedTerminal(io.StringIO):
    """A terminal after its window closed: every write and flush fails, as a hung-up tty's do."""

    def write(self, text: str) -> int:
        raise OSError(errno.EIO, "Input/output error")

    def flush(self) -> None:
        raise OSError(errno.EIO, "Input/output error")


def test_a_writer_thread_on_a_closed_terminal_keeps_draining_and_stops() -> None:
    from textual.drivers._writer_thread import MAX_QUEUED_WRITES, WriterThread

    from paperdeck.ui.textual_private import TerminalOutput

    output = TerminalOutput(_ClosedTerminal())
    writer = WriterThread(output)  # type: ignore[arg-type]
    writer.start()

    def paint_then_close() -> None:
        for _ in range(3 * MAX_QUEUED_WRITES):
            writer.write("\x1b[?1049l a frame")
        writer.stop()

    # In a thread of its own, so that a writer that died leaves this test failing, not hung.
    closing = threading.Thread(target=paint_then_close, daemon=True)
    closing.start()
    closing.join(10)
    assert not closing.is_alive(), "writing to a closed terminal blocked"
    assert output.closed


async def test_the_reader_runs_on_a_driver_whose_output_survives_a_closed_terminal() -> None:
    from textual.drivers.headless_driver import HeadlessDriver
    from textual.drivers.linux_driver import LinuxDriver

    from paperdeck.ui.textual_private import TerminalOutput, survive_a_closed_terminal

    other = _OneInput(driver_class=HeadlessDriver)
    survive_a_closed_terminal(other)
    assert other.driver_class is HeadlessDriver
    app = _OneInput(driver_class=LinuxDriver)
    survive_a_closed_terminal(app)
    assert issubclass(app.driver_class, LinuxDriver)
    # The driver sets SIGTSTP and SIGCONT handlers as it is made: this process keeps its own.
    kept = {signum: signal.getsignal(signum) for signum in (signal.SIGTSTP, signal.SIGCONT)}
    try:
        driver = app.driver_class(app)
    finally:
        for signum, handler in kept.items():
            signal.signal(signum, handler)
    assert isinstance(driver._file, TerminalOutput)


async def test_the_footers_keys_are_made_once_it_has_read_the_bindings() -> None:
    from textual.binding import BindingType
    from textual.widgets import Footer

    from paperdeck.ui.textual_private import FooterKey, footer_bindings_ready

    class WithFooter(App[None]):
        BINDINGS: ClassVar[list[BindingType]] = [("x", "bell", "Ring")]

        def compose(self) -> ComposeResult:
            yield Footer()

    app = WithFooter()
    async with app.run_test() as pilot:
        await pilot.pause()
        footer = app.query_one(Footer)
        assert footer_bindings_ready(footer)
        keys = list(footer.query(FooterKey))
        assert ("x", "Ring") in [(key.key, key.description) for key in keys]

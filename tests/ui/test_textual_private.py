"""Textual's private API the reader relies on (paperdeck.ui.textual_private) still works."""

from __future__ import annotations

from typing import Any

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

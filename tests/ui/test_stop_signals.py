"""A signal to stop (the terminal closing, SIGTERM) saves the note and ends the reader."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

from paperdeck.core.library import load_library
from paperdeck.core.notes.store import NotesStore
from paperdeck.ui.app import PaperdeckApp

DATA = Path(__file__).parents[1] / "data"


def _nothing() -> None:
    return None


async def test_the_terminal_closing_during_a_burst_of_keys_saves_the_note_and_exits(
    tmp_path: Path,
) -> None:
    notes = tmp_path / "notes.json"
    app = PaperdeckApp(
        load_library([DATA / "hostile.txt"]),
        NotesStore(notes),
        settings_file=tmp_path / "settings.json",
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n", *"typed as the window closed")
        assert signal.getsignal(signal.SIGHUP) not in (signal.SIG_DFL, signal.SIG_IGN, None)
        # Each key the input thread posts writes a byte to the event loop's wake-up socket; a
        # burst of them, unread yet when the terminal closes, fills it.
        loop = asyncio.get_running_loop()
        for _ in range(2_000):
            loop.call_soon_threadsafe(_nothing)
        os.kill(os.getpid(), signal.SIGHUP)  # the terminal closed
        for _ in range(500):
            if not app.is_running:
                break
            await asyncio.sleep(0.01)
        assert not app.is_running, "the reader did not stop on the signal"
    assert app.return_code == 0
    assert "typed as the window closed" in notes.read_text(encoding="utf-8")

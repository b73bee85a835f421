"""A megabyte abstract or title is shown in part, so the reader never freezes wrapping it."""

from __future__ import annotations

from pathlib import Path

from paperdeck.core.library import load_library
from paperdeck.core.notes.store import NotesStore
from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.widgets.detail_pane import SHOWN_CHARS


async def test_a_huge_abstract_shows_its_start_and_says_how_much_more(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    huge = "word " * 400_000  # 2 MB (10 MB froze the reader for 7-13 s)
    path.write_text(f"A list\n\nA first abstract.\n\n{huge}\n\n{'w' * 1_000_000}\n", "utf-8")
    app = PaperdeckApp(
        load_library([path]), NotesStore(tmp_path / "n.json"), settings_file=tmp_path / "s"
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("j")
        await pilot.pause()
        shown = app.detail.text
        assert len(shown) < 2 * SHOWN_CHARS + 1000
        assert f"({len(huge.strip()) - SHOWN_CHARS:,} more characters" in shown
        await pilot.press("j")  # a 1 MB single word: title and abstract
        await pilot.pause()
        assert len(app.detail.text) < 3 * SHOWN_CHARS + 1000
        assert "more characters" in app.detail.text

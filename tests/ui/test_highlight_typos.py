"""A search's highlights mark only what the search matched by: not the near spellings of a
short word the papers have, which the search takes as other words."""

from __future__ import annotations

import json
from pathlib import Path

from tests.ui.test_reader_rows import MakeApp, make_app, search, settle
from tests.ui.test_rendered_titles import highlighted_in_pane, highlighted_in_row

__all__ = ["make_app"]  # the fixture, used by name


def coin_list(folder: Path) -> Path:
    path = folder / "coins.jsonl"
    records = [
        {
            "title": "Coin betting against a con artist",
            "authors": ["Ada Lovelace"],
            "abstract": "Betting with a coin, and the con that beats it.",
        },
        {"title": "Corn yields under drought", "authors": ["Alan Turing"], "abstract": "Corn."},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


async def test_a_short_word_papers_have_highlights_no_near_spelling(
    make_app: MakeApp, tmp_path: Path
) -> None:
    """`coin` finds the paper with "coin" and marks "Coin" in its row and pane, not "con"
    beside it (one letter off, another word the search did not match by); `cion`, a word no
    paper has, is taken for a typo (of "coin", as of "con") and marks "Coin"."""
    app = make_app(coin_list(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        dark = app.current_theme.dark
        await search(app, pilot, "coin")
        assert list(app.paper_list.rows) == [0]
        assert highlighted_in_row(app, 0, dark) == ["Coin"]
        assert {word.strip().lower() for word in highlighted_in_pane(app, dark)} == {"coin"}
        await search(app, pilot, "cion")
        assert 0 in app.paper_list.rows
        assert "Coin" in highlighted_in_row(app, 0, dark)

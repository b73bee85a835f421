"""The word being typed in the search box is a word start until a space is typed after it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.ui.test_reader_rows import MakeApp, make_app, search, settle
from tests.ui.test_rendered_titles import highlighted_in_row
from textual.worker import WorkerCancelled

__all__ = ["make_app"]  # the fixture, used by name


def coin_list(folder: Path) -> Path:
    path = folder / "coins.jsonl"
    records = [
        {"title": "Coin betting for inference", "authors": ["Ada Lovelace"], "abstract": "Bets."},
        {"title": "When two risks coincide", "authors": ["Alan Turing"], "abstract": "Bounds."},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def titles(app: object) -> list[str]:
    return [app.papers[row].title for row in app.paper_list.rows]  # type: ignore[attr-defined]


async def test_a_space_after_the_last_word_finishes_it(make_app: MakeApp, tmp_path: Path) -> None:
    """`coin` may be the start of `coincide`; `coin ` with a space after is the word coin."""
    app = make_app(coin_list(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        dark = app.current_theme.dark
        await pilot.press("slash", "c", "o", "i", "n")
        await settle(app, pilot)
        assert titles(app) == ["Coin betting for inference", "When two risks coincide"]
        assert highlighted_in_row(app, 1, dark) == ["coincide"]
        await pilot.press("space")
        await settle(app, pilot)
        assert app.search_box.value == "coin "
        assert titles(app) == ["Coin betting for inference"]
        assert highlighted_in_row(app, 0, dark) == ["Coin"]
        # Taken back, the space leaves the word being typed again.
        await pilot.press("backspace")
        await settle(app, pilot)
        assert titles(app) == ["Coin betting for inference", "When two risks coincide"]


async def test_under_a_view_the_word_typed_last_is_still_a_word_start(
    make_app: MakeApp, tmp_path: Path
) -> None:
    """The unread view adds its filter to the query; the word typed last is still being typed,
    and a quote left open does not take in the view's filter."""
    app = make_app(coin_list(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("u")
        await settle(app, pilot)
        await search(app, pilot, "coinc")
        assert titles(app)[0] == "When two risks coincide"
        assert highlighted_in_row(app, 0, app.current_theme.dark) == ["coincide"]
        await pilot.press("escape", "escape")
        await settle(app, pilot)
        await search(app, pilot, '"two risks')
        assert titles(app) == ["When two risks coincide"]


async def test_a_search_recalled_on_up_keeps_its_finishing_space(
    make_app: MakeApp, tmp_path: Path
) -> None:
    """`coin ` recalled as `coin` would find coincide again: the history keeps the query as
    typed. A query only its trailing spaces tell apart from an earlier one (they look alike
    in the field) is one entry, the latest; a blank one is none."""
    app = make_app(coin_list(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        for query in ("risks", "coin", "coin ", "coin  ", "   "):
            await search(app, pilot, query)
            await pilot.press("escape")  # every paper again, the search kept for ↑
            await settle(app, pilot)
        await pilot.press("slash")
        shown = []
        for _ in range(3):
            await pilot.press("up")
            await settle(app, pilot)
            shown.append((app.search_box.value, titles(app)))
        assert shown == [
            ("coin ", ["Coin betting for inference"]),
            ("risks", ["When two risks coincide"]),
            ("risks", ["When two risks coincide"]),
        ]


async def test_a_reopened_list_keeps_the_finishing_space_of_its_searches(
    make_app: MakeApp, tmp_path: Path
) -> None:
    """The session saves the search as typed: `coin ` in the field at quit comes back finding
    coin, not coincide, and so does it on ↑."""
    path = coin_list(tmp_path)
    app = make_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "coin ")
        await pilot.press("escape")
        await settle(app, pilot)
        await search(app, pilot, "risks")
        await search(app, pilot, "coin ")  # in the field when the reader quits
        assert titles(app) == ["Coin betting for inference"]
        await pilot.press("q")

    again = make_app(path)
    async with again.run_test(size=(120, 40)) as pilot:
        for _ in range(3):
            try:  # the search put back is run again once the index is ready: one is cancelled
                await settle(again, pilot)
                break
            except WorkerCancelled:
                pass
        assert again.search_box.value == "coin "
        assert titles(again) == ["Coin betting for inference"]
        await pilot.press("slash", "escape", "slash")  # an empty field: ↑ goes back from here
        shown = []
        for _ in range(2):
            await pilot.press("up")
            shown.append(again.search_box.value)
        assert shown == ["coin ", "risks"]

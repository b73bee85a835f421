"""The reader's list after a search: papers with every word, a rule, then those with some."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperdeck.core.library import load_library
from paperdeck.core.notes.store import NotesStore
from paperdeck.core.resources import bundled_list
from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.widgets.paper_list import DIVIDER_LABEL, NO_FULL_MATCH_LABEL


def _app(tmp_path: Path) -> PaperdeckApp:
    return PaperdeckApp(
        load_library([bundled_list()]),
        NotesStore(tmp_path / "notes.json"),
        settings_file=tmp_path / "settings.json",
    )


def _line(app: PaperdeckApp, y: int) -> str:
    return app.paper_list.render_line(y).text


async def _search(app: PaperdeckApp, pilot: object, query: str) -> None:
    await pilot.press("slash", *[{" ": "space"}.get(c, c) for c in query])  # type: ignore[attr-defined]
    await app.workers.wait_for_complete()
    await pilot.press("enter")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


async def test_a_rule_separates_papers_with_every_word_from_those_with_some(
    tmp_path: Path,
) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await app.workers.wait_for_complete()
        await _search(app, pilot, "speculative rollout")
        paper_list = app.paper_list
        assert paper_list.divider == 1
        # Rows take two or three lines: the rule is the line between the first two rows.
        rule = paper_list.row_lines(0).stop
        assert paper_list.row_lines(1).start == rule + 1
        assert "BubbleSpec" in _line(app, 0)
        assert DIVIDER_LABEL in _line(app, rule)
        assert "SafeSpec" in _line(app, rule + 1)
        # The cursor passes over the rule: one key from the full match to the next paper.
        assert app.current_paper is not None and app.current_paper.title.startswith("BubbleSpec")
        await pilot.press("j")
        assert app.current_paper.title.startswith("SafeSpec")
        await pilot.press("k")
        assert app.current_paper.title.startswith("BubbleSpec")
        # A click on the rule selects nothing; a click below it selects the paper drawn there.
        top = paper_list.gutter.top  # the list's border is above its first line
        await pilot.click(paper_list, offset=(10, top + rule))
        assert app.current_paper.title.startswith("BubbleSpec")
        await pilot.click(paper_list, offset=(10, top + rule + 1))
        assert app.current_paper.title.startswith("SafeSpec")
        # Cleared: no rule.
        await pilot.press("slash", "escape")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert paper_list.divider is None
        assert all(DIVIDER_LABEL not in _line(app, y) for y in range(20))


async def test_when_no_paper_has_every_word_the_rule_says_so_on_top(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await app.workers.wait_for_complete()
        await _search(app, pilot, "speculative decoding diffusion")
        assert app.paper_list.divider == 0
        assert NO_FULL_MATCH_LABEL in _line(app, 0)
        assert app.paper_list.row_lines(0).start == 1
        assert "BubbleSpec" in _line(app, 1)
        assert app.current_paper is not None and app.current_paper.title.startswith("BubbleSpec")


async def test_l_lists_the_papers_like_the_current_one(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("j", "j", "j")  # BubbleSpec, the fourth paper
        assert app.current_paper is not None and app.current_paper.title.startswith("BubbleSpec")
        await pilot.press("l")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.search_box.value == f"like:{app.papers[3].id}"
        assert app.screen.focused is app.paper_list
        rows = list(app.paper_list.rows)
        assert rows[0] == 3  # the paper itself, then those like it
        assert 11 in rows[1:4]  # SafeSpec: speculative decoding too
        paper_list = app.paper_list
        assert "BubbleSpec" in _line(app, 0) and "SafeSpec" in " ".join(
            paper_list.row_text(row) for row in range(1, 4)
        )
        # Esc in the search field goes back to the whole list.
        await pilot.press("slash", "escape")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert len(app.paper_list.rows) == 19


async def test_filler_words_typed_in_the_search_box_change_nothing(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await app.workers.wait_for_complete()
        await _search(app, pilot, "speculative rollout")
        plain = list(app.paper_list.rows)
        header = str(app.query_one("#header").render())
        assert app.paper_list.divider == 1 and f"{len(plain)} / " in header
        typed = [{" ": "space"}.get(c, c) for c in "speculative rollout for the"]
        await pilot.press("slash", "ctrl+u", *typed)
        await app.workers.wait_for_complete()
        await pilot.press("enter")
        await pilot.pause()
        assert app.search_box.value == "speculative rollout for the"
        assert list(app.paper_list.rows) == plain
        assert app.paper_list.divider == 1
        assert f"{len(plain)} / " in str(app.query_one("#header").render())
        assert "BubbleSpec" in _line(app, 0)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_header_counts_the_papers_with_every_word(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    # Seen at 120x40 on the 3,000-paper ICML list: "offline reinforcement learning" said
    # "1,962 / 3,000 shown", as if it matched two thirds of the list; 30 papers have the three
    # words, the rest only some ("learning"), below the rule thirty rows down.
    app = _app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await app.workers.wait_for_complete()
        await _search(app, pilot, "speculative rollout")
        assert app.paper_list.divider == 1
        header = str(app.query_one("#header").render())
        shown = len(app.paper_list.rows)
        # At 80 columns "3 shown": the total is in "0 / 19 read" beside it.
        assert f"1 with every word · {shown} " in header and "/ 19" in header, header
        # No rule (every paper shown has every word): the count alone.
        await _search(app, pilot, "speculative")
        header = str(app.query_one("#header").render())
        assert "every word" not in header and f"{len(app.paper_list.rows)} / 19" in header

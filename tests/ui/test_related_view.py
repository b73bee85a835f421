"""`l`, papers like this one: each row and the detail pane say which rare words put it there."""

from __future__ import annotations

from pathlib import Path

from rich.segment import Segment
from textual.strip import Strip

from paperdeck.core.library import load_library
from paperdeck.core.notes.store import NotesStore
from paperdeck.core.resources import bundled_list
from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.widgets.search_status import SearchStatus


def _app(tmp_path: Path) -> PaperdeckApp:
    return PaperdeckApp(
        load_library([bundled_list()]),
        NotesStore(tmp_path / "notes.json"),
        settings_file=tmp_path / "settings.json",
    )


async def _settle(app: PaperdeckApp, pilot: object) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()  # type: ignore[attr-defined]


def _row(app: PaperdeckApp, row: int) -> list[Segment]:
    paper_list = app.paper_list
    width = paper_list.scrollable_content_region.width
    return [segment for strip in paper_list._row_strips(row, width) for segment in strip]


def _highlighted(segments: list[Segment] | Strip, background: object) -> set[str]:
    """The words drawn on a background of their own."""
    return {
        segment.text.strip(" ,")
        for segment in segments
        if segment.style is not None and segment.style.bgcolor not in (None, background)
    }


async def test_each_related_paper_says_the_rare_words_it_shares(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _settle(app, pilot)
        await pilot.press("j", "j", "j", "l")  # BubbleSpec, on speculative rollouts
        await _settle(app, pilot)
        paper_list = app.paper_list
        assert paper_list.rows[0] == 3
        safe_spec = list(paper_list.rows).index(11)
        # SafeSpec's row: what it shares with BubbleSpec, in place of its authors.
        segments = _row(app, safe_spec)
        text = "".join(segment.text for segment in segments)
        assert "shares speculative, decoding" in text
        row_background = segments[0].style.bgcolor if segments[0].style else None
        assert {"speculative", "decoding"} <= _highlighted(segments, row_background)
        # The seed's row names the words the others share most.
        seed = "".join(segment.text for segment in _row(app, 0))
        assert "others share: " in seed
        # In the detail pane: the words first, then highlighted where the abstract has them.
        while app.paper_list.paper_index != 11:
            await pilot.press("j")
        await _settle(app, pilot)
        detail = app.detail
        assert "Shares    speculative, decoding, accelerates" in detail.text
        pane = detail.rich_style.bgcolor
        lines = [detail.render_line(y) for y in range(detail.scrollable_content_region.height)]
        marked = set().union(*(_highlighted(line, pane) for line in lines))
        abstract = app.library.with_abstract(app.papers[11]).abstract.lower()
        assert "speculative" in abstract
        assert any(word.lower().startswith("speculative") for word in marked)


async def test_a_related_view_at_80_columns_keeps_what_the_words_are(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(app, pilot)
        await pilot.press("j", "j", "j", "l")
        await _settle(app, pilot)
        rows = list(app.paper_list.rows)
        text = "".join(segment.text for segment in _row(app, rows.index(11)))
        assert "shares speculative" in text
        while app.paper_list.paper_index != 11:
            await pilot.press("j")
        await _settle(app, pilot)
        # A short pane says it under the title's summary, before the abstract.
        assert "shares speculative, decoding" in app.detail.text.split("\n\n")[0]


def _status(app: PaperdeckApp) -> str:
    status = app.query_one("#search-status", SearchStatus)
    return str(status.render()) if status.display else ""


async def test_esc_goes_back_from_papers_like_one_to_the_search_it_was_found_by(
    tmp_path: Path,
) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _settle(app, pilot)
        await pilot.press("slash", *"speculative", "enter")
        await _settle(app, pilot)
        found = list(app.paper_list.rows)
        await pilot.press("j")
        first = app.paper_list.paper_index
        assert first is not None and first != found[0]
        await pilot.press("l")
        await _settle(app, pilot)
        # Under the field: whose papers these are like, and where Esc goes.
        number = app.papers[first].position
        assert app.search_box.value == f"like:{app.papers[first].id}"
        assert f"like #{number} “" in _status(app)
        assert "Esc: back to “speculative”" in _status(app)
        # l again, from a paper of that view: Esc goes back one view at a time.
        await pilot.press("j")
        second = app.paper_list.paper_index
        await pilot.press("l")
        await _settle(app, pilot)
        assert f"Esc: back to like #{number}" in _status(app)
        await pilot.press("escape")
        await _settle(app, pilot)
        assert app.search_box.value == f"like:{app.papers[first].id}"
        assert app.paper_list.paper_index == second
        # From the search field too, back to the search, on the paper l was pressed on.
        await pilot.press("slash", "escape")
        await _settle(app, pilot)
        assert app.search_box.value == "speculative"
        assert list(app.paper_list.rows) == found
        assert app.paper_list.paper_index == first
        # And then Esc clears the search as ever.
        await pilot.press("escape")
        await _settle(app, pilot)
        assert app.search_box.value == ""
        assert len(app.paper_list.rows) == 19


async def test_papers_like_the_starred_ones_name_each_starred_papers_own_words(
    tmp_path: Path,
) -> None:
    from paperdeck.core.text.fold import words

    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _settle(app, pilot)
        # Two starred papers on other subjects: BubbleSpec (speculative rollouts) and #16,
        # reinforcement learning by self-distillation.
        await pilot.press("j", "j", "j", "S", *["j"] * 12, "S")
        await pilot.press("slash", *"like:starred", "enter")
        await _settle(app, pilot)
        assert "papers like the 2 starred ones" in _status(app)
        rows = list(app.paper_list.rows)
        assert set(rows[:2]) == {3, 15}
        said = {}
        for row, index in enumerate(rows[:2]):
            text = "".join(segment.text for segment in _row(app, row))
            assert "others share: " in text
            shown = text.split("others share: ")[1].split(" · ")[0]
            listed = shown.split(", ")
            if shown.endswith("…"):
                listed.pop()  # cut to fit
            paper = app.library.with_abstract(app.papers[index])
            own = set(words(f"{paper.title} {paper.abstract}"))
            # Every word its row names is its own (the other's are not).
            assert listed and all(word in own for word in listed), (index, listed)
            said[index] = listed
        assert said[3] != said[15]
        # The detail pane names the same words, and highlights them in the abstract.
        while app.paper_list.paper_index != 3:
            await pilot.press("k")
        await _settle(app, pilot)
        assert f"Shared    {said[3][0]}" in app.detail.text


async def test_the_like_status_keeps_the_papers_title_before_the_whole_search(
    tmp_path: Path,
) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _settle(app, pilot)
        await pilot.press("slash", *"speculative rollout drafts", "enter")
        await _settle(app, pilot)
        assert app.current_paper is not None and app.current_paper.title.startswith("BubbleSpec")
        await pilot.press("l")
        await _settle(app, pilot)
        # The list's column holds 68 cells: the title cut, and the search Esc goes back to.
        assert _status(app) == "like #4 “BubbleSpec: Turning…” · Esc: back to “speculative…”"


async def test_words_typed_beside_like_are_highlighted_too(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _settle(app, pilot)
        await pilot.press("slash", *"like:4 synchronous", "enter")
        await _settle(app, pilot)
        assert app.paper_list.rows[0] == 3  # BubbleSpec
        segments = _row(app, 0)
        background = segments[0].style.bgcolor if segments[0].style else None
        marked = _highlighted(segments, background)
        assert "Synchronous" in marked
        assert marked & {"Speculative", "Rollout", "Reinforcement"}  # and the shared words
        pane = app.detail.rich_style.bgcolor
        lines = [app.detail.render_line(y) for y in range(3)]
        assert "Synchronous" in set().union(*(_highlighted(line, pane) for line in lines))


async def test_papers_like_two_named_papers_are_said_to_be_like_those_two(
    tmp_path: Path,
) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(200, 40)) as pilot:
        await _settle(app, pilot)
        await pilot.press("slash", *"like:4 | like:16", "enter")
        await _settle(app, pilot)
        assert set(app.paper_list.rows[:2]) == {3, 15}
        # Neither is starred: the line names them, as it names one.
        assert _status(app).startswith("papers like #4 and #16, sharing their rarest words")


async def test_l_on_a_paper_scrolled_to_its_match_shows_it_from_its_top_at_80x24(
    tmp_path: Path,
) -> None:
    # Seen in tmux at 80x24 on the 5,000-paper list: a search result whose match lies deep in
    # its abstract opens scrolled to it; `l` on it kept that scroll, so the line saying which
    # words the papers listed share (above the abstract) was never on screen.
    app = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(app, pilot)
        # The paper found is the one shown before the search: its match, far down, is scrolled
        # to all the same (it was not: the pane scrolled only for another paper).
        shown = app.current_paper
        await pilot.press("slash", *"grounding", "enter")
        await _settle(app, pilot)
        assert app.current_paper is shown
        assert app.detail.scroll_y > 0
        await pilot.press("l")
        await _settle(app, pilot)
        assert app.detail.scroll_y == 0
        shown = [app.detail.render_line(y).text for y in range(app.detail.size.height)]
        assert any("shared most:" in line for line in shown), shown
        # Back to the search, the paper opens at its match again.
        await pilot.press("escape")
        await _settle(app, pilot)
        assert app.search_box.value == "grounding"
        assert app.detail.scroll_y > 0


async def test_the_footer_says_esc_goes_back_from_a_like_view_at_80x24(tmp_path: Path) -> None:
    # Seen in tmux at 80x24: in the field of a like: view the line under it said "Esc: back
    # to “speculative”" and the footer "esc Clear search".
    app = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(app, pilot)
        await pilot.press("slash", *"speculative", "enter")
        await _settle(app, pilot)
        await pilot.press("l", "slash")
        await _settle(app, pilot)
        footer = app.screen._compositor.render_strips()[-1].text
        assert "esc Back from like:" in footer and "Clear search" not in footer, footer
        await pilot.press("escape")
        await _settle(app, pilot)
        assert app.search_box.value == "speculative"
        await pilot.press("slash")
        await _settle(app, pilot)
        footer = app.screen._compositor.render_strips()[-1].text
        assert "esc Clear search" in footer and "Back" not in footer, footer
        # Edited into another search, Esc clears it: the footer says so as it is typed.
        await pilot.press("escape", "l", "slash", "end", "space", "x")
        await _settle(app, pilot)
        footer = app.screen._compositor.render_strips()[-1].text
        assert "esc Clear search" in footer, footer


async def test_related_papers_are_found_by_that_name_in_the_palette_and_the_help(
    tmp_path: Path,
) -> None:
    # `paperdeck related` names them so; the reader had them under `l` as "Like this" only:
    # Ctrl+P "related" found nothing, and `?` said "l  Like this".
    from tests.ui.test_app import type_text
    from tests.ui.test_reading import screen_text

    app = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(app, pilot)
        await pilot.press("j", "j", "j", "ctrl+p")
        await type_text(pilot, "related")
        await pilot.pause(0.3)
        assert any("Related papers" in line for line in screen_text(app)), screen_text(app)
        await pilot.press("enter")
        await _settle(app, pilot)
        assert app.search_box.value == f"like:{app.papers[3].id}"
        assert app.paper_list.rows[0] == 3
        assert any(line.lstrip().startswith("like #4") for line in screen_text(app))
        await pilot.press("escape", "escape", "question_mark", "pagedown")
        await pilot.pause()
        assert any("Related papers" in line for line in screen_text(app)), screen_text(app)

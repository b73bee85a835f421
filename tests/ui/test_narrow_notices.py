"""Below 100 columns a notice lies where it hides least of what the user is working on."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.ui.test_app import MakeApp, header_text, settle, type_text
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget

from paperdeck.core.clipboard import CopyReport
from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.widgets.detail_pane import DetailPane
from paperdeck.ui.widgets.search_box import SearchBox

pytest_plugins = ["tests.ui.test_app"]


@pytest.fixture(autouse=True)
def _copies_confirmed(monkeypatch: pytest.MonkeyPatch) -> None:
    """`c` copies to a clipboard that confirms it, so the copy says so in a toast."""
    monkeypatch.setattr(
        "paperdeck.core.clipboard.copy_text",
        lambda text, terminal_write: CopyReport(("the system clipboard (xclip)",), ()),
    )


def toasts(app: PaperdeckApp) -> list[Widget]:
    return [toast for toast in app.screen.query("Toast") if toast.region.area]


async def shown(pilot: Pilot[None]) -> None:
    """Toasts are put up after the message that raised them: two turns of the loop."""
    await pilot.pause()
    await pilot.pause()


def hidden_by_toasts(app: PaperdeckApp, region: Region) -> bool:
    return any(toast.region.overlaps(region) for toast in toasts(app))


def said(app: PaperdeckApp) -> str:
    return " ".join(" ".join(str(toast.render()).split()) for toast in toasts(app))


def header(app: PaperdeckApp) -> Widget:
    return app.query_one("#header")


def cursor_row(app: PaperdeckApp) -> Region:
    """Where the cursor's row is on the screen."""
    papers = app.paper_list
    lines = papers.row_lines(papers.cursor)
    top = papers.content_region.y + lines.start - round(papers.scroll_y)
    return Region(papers.content_region.x, top, papers.content_region.width, len(lines))


async def test_notices_at_80x24_leave_the_header_and_the_cursors_row_in_sight(
    make_app: MakeApp,
) -> None:
    # Seen in tmux at 80x24: over the header, 'r' on marked papers hid the read count it had
    # just changed and 'N marked · e export'; the copy's three lines and a second notice
    # went on over the list's first rows.
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("space", "space", "space", "r")
        await settle(app, pilot)
        await shown(pilot)
        assert said(app) == "3 marked papers read · U undoes", said(app)
        assert not hidden_by_toasts(app, header(app).region)
        assert not hidden_by_toasts(app, cursor_row(app))
        assert "3 / 19 read" in header_text(app), header_text(app)
        assert "3 marked · e export" in header_text(app), header_text(app)
        await pilot.press("c")
        await settle(app, pilot)
        await shown(pilot)
        assert "Copied BibTeX for 3 papers" in said(app), said(app)
        assert "3 marked papers read" in said(app), said(app)
        assert not hidden_by_toasts(app, header(app).region)
        assert not hidden_by_toasts(app, app.query_one(SearchBox).region)
        assert not hidden_by_toasts(app, app.paper_list.content_region)
        # Under the list, over the detail pane's end: its title and first lines stay.
        detail = app.query_one(DetailPane).content_region
        assert not hidden_by_toasts(app, Region(detail.x, detail.y, detail.width, 4))


async def test_a_notice_up_while_a_search_is_typed_at_80x24_leaves_the_query_and_results(
    make_app: MakeApp,
) -> None:
    # Toasts over the header would lie over the search line too: the query being typed.
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("c", "slash")
        await type_text(pilot, "language model")
        await settle(app, pilot)
        await shown(pilot)
        assert said(app).startswith("Copied BibTeX for “"), said(app)
        assert not hidden_by_toasts(app, app.query_one(SearchBox).region)
        assert not hidden_by_toasts(app, app.paper_list.content_region)
        assert "language model" in app.query_one(SearchBox).render_line(0).text
        # Back to the results to read them: the toast stays under them.
        await pilot.press("enter")
        await shown(pilot)
        assert toasts(app)
        assert not hidden_by_toasts(app, header(app).region)
        assert not hidden_by_toasts(app, app.paper_list.content_region)


async def test_a_copy_at_80x24_says_its_facts_in_two_lines(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seen in tmux at 80x24 on the 5,000-paper list: 'Copied BibTeX for “…” to the system
    # clipboard, tmux's paste buffer and the terminal. Incomplete citation: title derived
    # from the abstract; authors unknown; year unknown; pages unknown' took three lines.
    monkeypatch.setattr(
        "paperdeck.core.clipboard.copy_text",
        lambda text, terminal_write: CopyReport(
            ("the system clipboard (xclip)", "tmux's paste buffer", "the terminal (OSC 52)"),
            (),
            ("the terminal (OSC 52)",),
        ),
    )
    app = make_app(Path(__file__).parents[1] / "data" / "abstracts_sample.txt")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("c")
        await settle(app, pilot)
        await shown(pilot)
        assert said(app).startswith("Copied BibTeX for “"), said(app)
        # Which paper, where it went and what the citation lacks, all of it still said.
        assert app.papers[0].title[:20] in said(app)
        assert "to clipboard, tmux buffer, terminal" in said(app), said(app)
        assert "Incomplete: title from abstract; no authors, year" in said(app), said(app)
        assert sum(toast.region.height for toast in toasts(app)) == 2
    app = make_app(Path(__file__).parents[1] / "data" / "abstracts_sample.txt")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("c")
        await settle(app, pilot)
        await shown(pilot)
        # Wide, there is room for the words.
        assert "tmux's paste buffer and the terminal. Incomplete citation: title derived" in (
            said(app)
        ), said(app)


async def test_a_notice_while_a_note_is_written_at_80x24_leaves_the_lines_typed(
    make_app: MakeApp,
) -> None:
    # At the bottom, where the note editor is at 80x24, a two-line notice covered the last
    # line of the note being written.
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        await type_text(pilot, "first line")
        await pilot.press("enter")
        await type_text(pilot, "second line")
        app.notify("The notes file changed on disk; merged.\nYour lines are kept.")
        await shown(pilot)
        editor = app.query_one("NoteEditor")
        assert app.screen.focused is editor
        assert toasts(app)
        assert not hidden_by_toasts(app, editor.region)
        # Done writing: notices go back under the list, off the header.
        await pilot.press("escape")
        app.notify("Saved.")
        await shown(pilot)
        assert not hidden_by_toasts(app, header(app).region)

"""Writing a note at 80x24: the paper it is about stays in sight."""

from __future__ import annotations

from tests.ui.test_app import MakeApp, settle, type_text
from textual.geometry import Region

from paperdeck.ui.app import PaperdeckApp

pytest_plugins = ["tests.ui.test_app"]


def on_screen(app: PaperdeckApp, region: Region) -> str:
    strips = app.screen._compositor.render_strips()
    return "\n".join(
        strip.text[region.x : region.right] for strip in strips[region.y : region.bottom]
    )


async def test_the_paper_a_note_is_written_for_stays_in_the_shorter_list_at_80x24(
    make_app: MakeApp,
) -> None:
    # Seen in tmux at 80x24: a note opened on the list's eighth row left the list its first
    # five rows, the cursor's not among them, and the detail pane scrolled to the abstract:
    # nothing on screen named the paper being written about.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        rows = app.paper_list.content_region.height
        await pilot.press(*["j"] * (rows - 1))
        paper = app.current_paper
        assert paper is not None
        title = paper.title[:30]
        assert title in on_screen(app, app.paper_list.content_region)
        await pilot.press("n")
        await type_text(pilot, "compare with ours")
        await pilot.pause()
        assert app.paper_list.content_region.height < rows
        assert title in on_screen(app, app.paper_list.content_region)
        # Back to the list, taller again: the paper is still there, and it keeps the note.
        await pilot.press("escape")
        await pilot.pause()
        assert app.current_paper is paper
        assert title in on_screen(app, app.paper_list.content_region)
        entry = app.store.get(paper.id)
        assert entry is not None and entry.note == "compare with ours"


def list_begins_with_a_row(app: PaperdeckApp) -> bool:
    """The list's first line on screen is a row's first (its title), or the list is at its
    end, where the last page ends with the last row and may begin inside one."""
    paper_list = app.paper_list
    if paper_list.scroll_y >= paper_list.max_scroll_y:
        return True
    top = on_screen(app, paper_list.content_region).split("\n")[0].rstrip()
    rows = range(len(paper_list.rows))
    return top in [paper_list.row_text(row).split("\n")[0].rstrip() for row in rows]


async def test_the_list_begins_with_a_title_as_it_is_walked_and_beside_a_note_at_120x40(
    make_app: MakeApp,
) -> None:
    # Seen in tmux at 120x40: a note opened, the list narrower beside it was scrolled to put
    # the cursor mid-page by lines, and began with the tail of a title ("Clustering"); walking
    # down left authors under no title at the top.
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        paper_list = app.paper_list
        for _ in paper_list.rows:
            await pilot.press("j")
            assert list_begins_with_a_row(app), paper_list.cursor
        await pilot.press("g", "pagedown")
        assert list_begins_with_a_row(app)
        for row in range(4, 12):
            await pilot.press("escape")
            paper_list.jump_to(row)
            await pilot.pause()
            await pilot.press("n")
            await pilot.pause()
            assert list_begins_with_a_row(app), row
            assert app.current_paper is not None
            assert app.current_paper.title[:20] in on_screen(app, paper_list.content_region)


async def test_a_note_left_at_80x24_is_read_again_in_the_detail_pane(make_app: MakeApp) -> None:
    # Seen in a triage run at 80x24: the notes panel folds away on a narrow screen, so a note
    # written was seen again only by opening the editor; the row's ✎ said there was one.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "n")
        await type_text(pilot, "Compare with the DP-SGD baseline")
        await pilot.press("escape")
        await settle(app, pilot)
        assert "✎ Compare with the DP-SGD baseline" in app.detail.text, app.detail.text
        # Shown on the pane's first lines, with the title.
        top = "\n".join(app.detail.render_line(y).text for y in range(4))
        assert "✎ Compare with the DP-SGD baseline" in top, top
        await pilot.press("j")
        await settle(app, pilot)
        assert "✎" not in app.detail.text
        await pilot.press("k")
        await settle(app, pilot)
        assert "✎ Compare with the DP-SGD baseline" in app.detail.text
        # Wide, the notes panel shows the note: the pane does not say it twice.
        await pilot.resize_terminal(120, 40)
        await settle(app, pilot)
        await pilot.pause(0.1)
        assert "Compare with the DP-SGD" not in app.detail.text
        assert "Compare with the DP-SGD baseline" in app.notes.editor.text

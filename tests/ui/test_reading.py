"""Opening a paper to read its abstract, and going back to the list."""

from __future__ import annotations

from tests.ui.test_app import MakeApp, settle, type_text
from textual.geometry import Region

from paperdeck.ui.app import PaperdeckApp

pytest_plugins = ["tests.ui.test_app"]


def screen_text(app: PaperdeckApp) -> list[str]:
    """Every line of the screen as drawn."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


async def test_enter_opens_the_abstract_and_esc_goes_back_to_the_list_at_80x24(
    make_app: MakeApp,
) -> None:
    # Seen in tmux at 80x24: Enter on a search result did nothing, Tab put the focus in the
    # abstract with no key in the footer to leave it, and Esc there did nothing either.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "speculative")
        await pilot.press("enter", "j")
        await settle(app, pilot)
        paper = app.current_paper
        assert paper is not None and app.screen.focused is app.paper_list
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.focused is app.detail
        footer = screen_text(app)[-1]
        assert "esc List" in footer and footer.rstrip().endswith("c Cite n Note"), footer
        # The keys read on in the abstract, and the paper stays the one opened.
        await pilot.press("j", "j")
        await pilot.pause()
        assert app.detail.scroll_y == 2
        assert app.current_paper is paper
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.focused is app.paper_list
        assert app.current_paper is paper
        assert app.search_box.value == "speculative"  # Esc in the abstract keeps the search
        assert "esc List" not in screen_text(app)[-1] and "r Read" in screen_text(app)[-1]
        # The next key is the list's again: k moves the cursor, not the abstract.
        await pilot.press("k")
        await pilot.pause()
        assert app.current_paper is not paper


async def test_the_help_screen_names_the_keys_of_the_abstract(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        text = "\n".join(screen_text(app))
        assert "Read the abstract" in text and "Scroll down" in text


def abstract_lines_shown(app: PaperdeckApp) -> int:
    """Lines of the abstract on screen in a short detail pane (after its summary's blank line)."""
    region = app.detail.content_region
    lines = [strip.text for strip in app.screen._compositor.render_strips()]
    shown = [line[region.x : region.right].strip() for line in lines[region.y : region.bottom]]
    return len(shown) - shown.index("") - 1


async def test_the_abstract_being_read_takes_most_of_the_height_at_80x24(
    make_app: MakeApp,
) -> None:
    # Seen in tmux at 80x24: with the focus in the abstract the list kept its 8 rows and the
    # abstract showed four lines at a time under the title and authors.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "j", "j")
        await pilot.pause()
        paper = app.current_paper
        assert paper is not None
        rows = app.paper_list.content_region.height
        before = abstract_lines_shown(app)
        await pilot.press("enter")
        await pilot.pause()
        assert abstract_lines_shown(app) >= before + 4
        # The list still shows the paper being read.
        listed = app.paper_list.content_region
        lines = screen_text(app)[listed.y : listed.bottom]
        assert any(paper.title[:30] in line for line in lines), lines
        # Back in the list, it has its rows again.
        await pilot.press("escape")
        await pilot.pause()
        assert app.paper_list.content_region.height == rows
        assert abstract_lines_shown(app) == before


def lines_in(app: PaperdeckApp, region: Region) -> list[str]:
    lines = screen_text(app)[region.y : region.bottom]
    return [line[region.x : region.right].rstrip() for line in lines]


async def test_a_short_note_read_leaves_the_abstract_its_room_at_120x40(
    make_app: MakeApp,
) -> None:
    # Seen at 120x40 on the 5,000-paper list: a paper with a two-line note showed 5 lines of
    # its abstract over a notes panel of 15 lines, 12 of them empty.
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "n")
        await type_text(pilot, "Compare with layered sampling; check the bound in Thm 2 and")
        await type_text(pilot, " the rates in the appendix.")
        await pilot.press("escape")
        await pilot.pause()
        detail = lines_in(app, app.detail.content_region)
        abstract = detail[detail.index("Abstract") + 1 :]
        assert len([line for line in abstract if line.strip()]) >= 12, detail
        # The note reads whole below it, in a panel of its size.
        notes = "\n".join(lines_in(app, app.notes.region))
        assert "Compare with" in notes and "appendix." in notes, notes
        assert app.notes.region.height <= 8
        # Writing it again gives the editor its room back.
        await pilot.press("n")
        await pilot.pause()
        assert app.notes.region.height >= 12


async def test_esc_from_a_note_written_while_reading_goes_back_to_the_abstract_at_80x24(
    make_app: MakeApp,
) -> None:
    # Seen in tmux at 80x24: Enter to read, `n` to note a thought, Esc: the focus went to the
    # list and the abstract folded back to its few lines under the list's rows.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "enter")
        await pilot.pause()
        paper = app.current_paper
        reading = abstract_lines_shown(app)
        await pilot.press("n")
        await type_text(pilot, "compare with layered sampling")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.focused is app.detail
        assert app.current_paper is paper
        # As tall as before, less the line that now says the note above it.
        assert abstract_lines_shown(app) == reading - 1
        assert "✎ compare with layered sampling" in app.detail.text
        assert screen_text(app)[-1].startswith("esc List"), screen_text(app)[-1]
        # Esc again goes to the list, as from any reading.
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.focused is app.paper_list
        # A note opened from the list goes back to the list.
        await pilot.press("n")
        await type_text(pilot, " and sensitivity")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.focused is app.paper_list

"""Opening a paper to read its abstract, and going back to the list."""

from __future__ import annotations

from tests.ui.test_app import MakeApp, settle, type_text

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
        assert "esc List" in footer and footer.rstrip().endswith("c Cite"), footer
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
        assert "space Mark" in screen_text(app)[-1]
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

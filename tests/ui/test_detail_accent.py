"""The detail pane's accent (the method's name, the paper's page and code links) reads on it."""

from __future__ import annotations

from tests.ui.contrast_probe import text_ratios
from tests.ui.test_app import MakeApp, settle

from paperdeck.ui.app import PaperdeckApp

pytest_plugins = ["tests.ui.test_app"]


def pane_ratios(app: PaperdeckApp, wanted: str) -> list[float]:
    """The contrast of each piece of the detail pane's text that has `wanted`."""
    return text_ratios(app, app.detail.scrollable_content_region, wanted)


async def test_the_method_and_the_links_read_on_the_pane_in_every_theme(
    make_app: MakeApp,
) -> None:
    """$text-accent read 3.3:1 on textual-light's pane: the method's name in the title and
    its line, and the Page and Code links a researcher opens or copies."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("j")  # MARI: a method, a page and a code link
        await settle(app, pilot)
        themes = sorted(name for name in app.available_themes if not name.startswith("ansi-"))
        for theme in themes:
            app.theme = theme
            await pilot.pause()
            for wanted in ("MARI", "https://proceedings", "https://github.com"):
                found = pane_ratios(app, wanted)
                assert found, (theme, wanted)
                assert min(found) >= 4.5, (theme, wanted, round(min(found), 2))

"""The note's state line ("unsaved", "saved", the tags) reads on the panel in every theme."""

from __future__ import annotations

from tests.ui.test_app import MakeApp, settle
from textual.color import Color

from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.contrast import contrast, solid

pytest_plugins = ["tests.ui.test_app"]

WHITE, BLACK = Color(255, 255, 255), Color(0, 0, 0)


def status_ratio(app: PaperdeckApp, wanted: str) -> float:
    """The contrast of the piece of the note's state line that is `wanted`."""
    status = app.query_one("#notes-status")
    dark = app.current_theme.dark
    line = app.screen._compositor.render_strips()[status.region.y]
    found = [
        s
        for s in line.crop(status.region.x, status.region.right)
        if s.style is not None and s.text.strip() == wanted
    ]
    assert len(found) == 1, (wanted, line.text)
    style = found[0].style
    assert style is not None
    ground = solid(style.bgcolor, BLACK if dark else WHITE)
    return contrast(solid(style.color, WHITE if dark else BLACK), ground)


async def test_the_notes_state_line_reads_in_every_theme(make_app: MakeApp) -> None:
    """ "unsaved" read 3.3:1 on textual-light's panel, "saved" 3.2:1 on atom-one-light's:
    whether a note is kept is what this line is for."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("t", *"theory", "enter")
        await settle(app, pilot)
        await pilot.press("n", *"compare with DP-SGD")
        themes = sorted(name for name in app.available_themes if not name.startswith("ansi-"))
        for saved in (False, True):
            if saved:
                await pilot.press("escape")
                await settle(app, pilot)
            for theme in themes:
                app.theme = theme
                await pilot.pause()
                for wanted in ("saved" if saved else "unsaved", "#theory", "● unread"):
                    ratio = status_ratio(app, wanted)
                    assert ratio >= 4.5, (theme, wanted, round(ratio, 2))

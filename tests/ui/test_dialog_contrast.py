"""What a dialog asks the user to read reads on it: its hints, its chosen option, its file name."""

from __future__ import annotations

import pytest
from tests.ui.contrast_probe import text_ratios
from tests.ui.test_app import MakeApp, settle
from textual.screen import ModalScreen

from paperdeck.ui.app import PaperdeckApp

pytest_plugins = ["tests.ui.test_app"]

THEMES = ("textual-dark", "textual-light", "gruvbox", "nord", "catppuccin-latte", "tokyo-night")
"""Themes whose own text reads at 4.5:1 on a dialog (solarized's reads 3.9:1 to 4.4:1)."""


def ratios(app: PaperdeckApp, wanted: str) -> list[float]:
    """The contrast of each piece of the dialog's text that has `wanted`."""
    screen = app.screen
    assert isinstance(screen, ModalScreen)
    return text_ratios(app, screen.children[0].region, wanted)


@pytest.mark.parametrize(
    ("keys", "texts"),
    [
        # The format menu: the format chosen, the heading over the CSL styles, the field's hint
        # (the heading was dimmed to 1.8:1, the hint 2.6:1, BibTeX chosen 2.4:1 in gruvbox).
        # Each dialog's title: the accent read 3.0:1 on textual-light's.
        (("C",), ("Citation format for c", "BibTeX", "CSL styles, rendered", "Other CSL style")),
        # Export: the papers chosen, the file name the export goes to, selected to be typed
        # over (2.2:1 in atom-one-dark's selection colours).
        (("space", "e"), ("Export a reading list", "Marked papers (1)", "/")),
        (("space", "e", "tab"), ("Marked papers (1)",)),
        # Tags: how to remove one, said in the field (2.5:1 in textual-light).
        (("t",), ("Tags for", "to add; -name removes one")),
        # The help screen's title (3.0:1 in textual-light, as the dialogs' were).
        (("question_mark",), ("paperdeck keys", "closes this screen")),
    ],
)
async def test_what_a_dialog_says_reads_in_every_theme(
    make_app: MakeApp, keys: tuple[str, ...], texts: tuple[str, ...]
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press(*keys)
        await settle(app, pilot)
        # One dialog through every theme: its colours follow the theme.
        for theme in (*THEMES, "atom-one-dark"):
            app.theme = theme
            await pilot.pause()
            for text in texts:
                found = ratios(app, text)
                assert found, (theme, text)
                assert min(found) >= 4.5, (theme, text, round(min(found), 2))


async def test_the_help_screen_says_it_scrolls_readably_in_every_theme(make_app: MakeApp) -> None:
    """At 80x24 the help screen does not fit: its footer says so in the warning colour, which
    read 3.0:1 on textual-light's footer."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        await settle(app, pilot)
        for theme in (*THEMES, "atom-one-dark"):
            app.theme = theme
            await pilot.pause()
            for text in ("PgDn: more keys below", "paperdeck keys"):
                found = ratios(app, text)
                assert found and min(found) >= 4.5, (theme, text, found)

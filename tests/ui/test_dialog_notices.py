"""Notices shown before a dialog opens give way to it, so its key hints can be read."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.ui.test_app import MakeApp, settle, type_text
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import RadioButton

from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.dialogs.export_dialog import ExportDialog

pytest_plugins = ["tests.ui.test_app"]


def toasts(app: PaperdeckApp) -> list[Widget]:
    return [toast for toast in app.screen.query("Toast") if toast.region.area]


async def shown(pilot: Pilot[None]) -> None:
    """Toasts are put up after the message that raised them: two turns of the loop."""
    await pilot.pause()
    await pilot.pause()


def covered_hints(app: PaperdeckApp) -> list[str]:
    """The dialog's hint lines (its keys) that a toast lies over."""
    return [
        str(hint.render())
        for hint in app.screen.query(".dialog-hint")
        if any(toast.region.overlaps(hint.region) for toast in toasts(app))
    ]


async def test_a_view_notice_does_not_hide_the_export_dialogs_keys_at_80x24(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("u", "u", "asterisk")  # three views toggled: one notice, the last
        await shown(pilot)
        assert [str(toast.render()) for toast in toasts(app)] == ["Showing starred papers"]
        await pilot.press("e")
        await shown(pilot)
        assert isinstance(app.screen, ExportDialog)
        assert covered_hints(app) == []
        assert not toasts(app)
        # Nor does the screen under the dialog keep the toast's frame, empty.
        under = app.screen_stack[0]
        assert not [t for t in under.query("ToastRack") if t.display and t.region.area]
        assert not list(under.query("Toast"))
        # Gone for good: it does not come back over the list when the dialog closes.
        await pilot.press("escape")
        await shown(pilot)
        assert not toasts(app)


async def test_an_error_stays_over_a_dialog_and_a_warning_goes(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        app.notify("Incomplete citation: authors unknown", severity="warning")
        app.notify("Cannot write notes.json: disk full", severity="error")
        await shown(pilot)
        await pilot.press("e")
        await shown(pilot)
        assert isinstance(app.screen, ExportDialog)
        assert [str(toast.render()) for toast in toasts(app)] == [
            "Cannot write notes.json: disk full"
        ]
        # A notice raised while the dialog is open is shown.
        app.notify("Written")
        await shown(pilot)
        assert len(toasts(app)) == 2


async def test_the_export_dialogs_highlight_is_on_the_papers_it_will_export(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the path typed short: a key press costs a frame
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("r", "r", "space", "u")  # two read, one marked, then the unread view
        await settle(app, pilot)
        await pilot.press("e")
        await shown(pilot)
        assert isinstance(app.screen, ExportDialog)
        highlighted = [str(b.label) for b in app.screen.query("RadioButton.-selected")]
        pressed = [str(b.label) for b in app.screen.query(RadioButton) if b.value]
        assert highlighted == pressed == ["Papers shown: unread (17)"]
        # Tab onto the choices, Enter: still the view, and the 17 papers are written.
        await pilot.press("tab", "enter", "shift+tab")
        assert [str(b.label) for b in app.screen.query(RadioButton) if b.value] == pressed
        await pilot.press("ctrl+a", "ctrl+k")
        await type_text(pilot, "view.md")
        await pilot.press("enter")
        written = (tmp_path / "view.md").read_text(encoding="utf-8")
        assert "\n17. " in written and "\n18. " not in written


async def test_marks_and_views_toggled_in_a_row_leave_one_notice_each(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("space", "space", "m", "u", "asterisk")
        await shown(pilot)
        said = [" ".join(str(toast.render()).split()) for toast in toasts(app)]
        assert said[1:] == ["Showing unread + starred + marked papers"], said
        assert said[0].startswith("Paper marked: e exports the marked papers"), said
        await pilot.press("asterisk", "u", "m", "A", "A", "i")
        await shown(pilot)
        said = [str(toast.render()) for toast in toasts(app)]
        assert said == ["Showing every paper", "17 papers marked"], said


async def test_the_header_names_the_order_only_while_a_search_orders_the_list(
    make_app: MakeApp,
) -> None:
    from tests.ui.test_app import header_text

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert "sort:" not in header_text(app)
        await pilot.press("u")  # a view alone orders nothing either
        await settle(app, pilot)
        assert "sort:" not in header_text(app)
        await pilot.press("slash", *"learning", "enter")
        await settle(app, pilot)
        assert "sort: relevance" in header_text(app)
        await pilot.press("escape")
        await settle(app, pilot)
        assert "sort:" not in header_text(app)


def bottom_line(app: PaperdeckApp) -> str:
    """The screen's last line as drawn, a dialog over the reader included."""
    return app.screen._compositor.render_strips()[-1].text


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_readers_keys_are_not_named_under_a_dialog(
    make_app: MakeApp, size: tuple[int, int]
) -> None:
    # Seen in tmux: with the export dialog's file name being typed, the footer under it still
    # read "space Mark ... n Note r Read+next s Star+next t Tags c Cite" (and under C's list
    # of formats "/ Search"), keys the dialog takes as text or not at all.
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        assert "r Read" in bottom_line(app)
        for key in ("e", "C", "t"):
            await pilot.press(key)
            await settle(app, pilot)
            assert app.screen is not app.screen_stack[0], key
            assert "r Read" not in bottom_line(app), (key, bottom_line(app))
            assert "Search" not in bottom_line(app), (key, bottom_line(app))
            await pilot.press("escape")
            await settle(app, pilot)
            # Back in the reader, its keys again and the list focused.
            assert "r Read" in bottom_line(app), (key, bottom_line(app))
            assert app.screen.focused is app.paper_list

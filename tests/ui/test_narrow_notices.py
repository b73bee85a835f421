"""Below 100 columns a notice lies where it hides least of what the user is working on."""

from __future__ import annotations

import pytest
from tests.ui.test_app import MakeApp, settle, type_text
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


async def test_a_copy_at_80x24_lies_over_the_header_not_the_abstract_or_the_rows(
    make_app: MakeApp,
) -> None:
    # Seen in tmux at 80x24: the copy's toast, bottom right, hid the right half of six of
    # the abstract's lines, the paper that was just cited.
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("c")
        await settle(app, pilot)
        await shown(pilot)
        assert said(app).startswith("Copied BibTeX for “"), said(app)
        assert "to the system clipboard" in said(app)
        assert not hidden_by_toasts(app, app.query_one(DetailPane).region)
        assert not hidden_by_toasts(app, app.paper_list.content_region)
        # The whole message on at most three lines, the header's and the search line's.
        assert sum(toast.region.height for toast in toasts(app)) <= 3


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
        # Back to the results to read them: the toast gives the rows and abstract back.
        await pilot.press("enter")
        await shown(pilot)
        assert toasts(app)
        assert not hidden_by_toasts(app, app.query_one(DetailPane).region)
        assert not hidden_by_toasts(app, app.paper_list.content_region)

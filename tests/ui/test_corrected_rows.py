"""A title and authors the user corrected (the notes file's `corrections`) are what the paper's
row shows, as the detail pane does: the made-up title and its marker are gone from the list."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.segment import Segment
from tests.ui.test_app import settle, type_text

from paperdeck.core.clipboard import CopyReport
from paperdeck.core.library import load_library
from paperdeck.core.notes.store import NotesStore
from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.widgets.paper_rows import DERIVED_MARKER

DERIVED_LIST = Path(__file__).parent.parent / "data" / "abstracts_sample.txt"
QUADRATIC = 40
"""Made up "The quadratic problems"; the abstract is about Polyak's momentum."""
SHORT = 42
"""Made up "DANCAR: Disk-ANChor ARrangement"."""
FIXED_TITLE = (
    "A Modular Analysis of Provable Acceleration via Polyak's Momentum: "
    "Training a Wide ReLU Network and a Deep Linear Network"
)


def make(tmp_path: Path, *, poll: float = 0.0, fix: bool = True) -> PaperdeckApp:
    library = load_library([DERIVED_LIST])
    notes = NotesStore(tmp_path / "notes.json")
    if fix:
        correct(notes, library.papers[QUADRATIC])
    return PaperdeckApp(
        library,
        notes,
        settings_file=tmp_path / "settings.json",
        autosave_delay=30.0,
        notes_poll=poll,
    )


def correct(notes: NotesStore, paper: object) -> None:
    notes.set_correction(paper, "title", FIXED_TITLE)  # type: ignore[arg-type]
    notes.set_correction(paper, "authors", "Wang, Jun-Kun and Lin, Chi-Heng and Abernethy, Jacob")  # type: ignore[arg-type]


def row_of(app: PaperdeckApp, index: int) -> int:
    return list(app.paper_list.rows).index(index)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_row_shows_the_title_and_authors_the_user_corrected(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make(tmp_path)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        app.paper_list.move_cursor(QUADRATIC)
        await pilot.pause()
        shown = app.paper_list.row_text(QUADRATIC)
        assert shown.startswith(" ● A Modular Analysis of Provable"), shown
        assert DERIVED_MARKER not in shown and "quadratic problems" not in shown, shown
        if not app.paper_list.compact:
            assert "Jun-Kun Wang, Chi-Heng Lin, Jacob Abernethy" in shown, shown
        # Its neighbours keep their own (made-up) titles.
        assert app.paper_list.row_text(QUADRATIC + 1).startswith(" ● " + DERIVED_MARKER)


async def test_a_row_is_as_tall_as_the_corrected_title_needs(tmp_path: Path) -> None:
    """At 120 columns the made-up title fits one line; the corrected one takes two, its end on
    the second, not cut off."""
    app = make(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert not app.paper_list.compact
        assert len(app.paper_list.row_lines(QUADRATIC)) == 3
        assert len(app.paper_list.row_lines(SHORT)) == 2
        lines = app.paper_list.row_text(QUADRATIC).split("\n")
        assert lines[1].strip().endswith("a Deep Linear Network"), lines


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_search_word_of_the_corrected_title_is_marked_in_it_not_hinted(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """ "momentum" is in the abstract and the corrected title, not the made-up one: the row
    marks it in the title, and shows no abstract around it as if the title lacked it."""
    app = make(tmp_path)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "momentum")
        await settle(app, pilot)
        row = row_of(app, QUADRATIC)
        shown = app.paper_list.row_text(row)
        assert shown.startswith(" ● A Modular Analysis"), shown
        assert "…" + "gradient descent" not in shown and "Incorporating" not in shown, shown
        width = app.paper_list.scrollable_content_region.width
        strips = app.paper_list._row_strips(row, width)
        segments: list[Segment] = [segment for strip in strips for segment in strip]
        match = app.paper_list._row_styles(row == app.paper_list.cursor)["match"]
        marked = [segment.text for segment in segments if segment.style == match]
        assert marked == ["Momentum"], marked


async def test_a_correction_made_elsewhere_shows_in_the_rows(tmp_path: Path) -> None:
    """The CLI (another process) corrects a title: the row follows the notes file, as the
    notes panel does, and goes back to the made-up title when the correction is removed."""
    app = make(tmp_path, poll=0.2, fix=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.paper_list.row_text(QUADRATIC).startswith(" ● ≈ The quadratic problems")
        other = NotesStore(tmp_path / "notes.json")
        correct(other, app.papers[QUADRATIC])
        other.save()
        await pilot.pause(0.6)
        assert app.paper_list.row_text(QUADRATIC).startswith(" ● A Modular Analysis")
        assert len(app.paper_list.row_lines(QUADRATIC)) == 3
        other.set_correction(app.papers[QUADRATIC], "title", None)
        other.save()
        await pilot.pause(0.6)
        assert app.paper_list.row_text(QUADRATIC).startswith(" ● ≈ The quadratic problems")
        assert len(app.paper_list.row_lines(QUADRATIC)) == 2


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_copied_notice_names_the_corrected_title(
    tmp_path: Path, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`c` says what it copied by the title the row shows, not the made-up one it replaced."""
    monkeypatch.setattr(
        "paperdeck.core.clipboard.copy_text",
        lambda text, terminal_write: CopyReport(("the system clipboard (xclip)",), ()),
    )
    app = make(tmp_path)
    async with app.run_test(size=size, notifications=True) as pilot:
        await settle(app, pilot)
        app.paper_list.move_cursor(QUADRATIC)
        await pilot.press("c")
        await settle(app, pilot)
        await pilot.pause()
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert any(m.startswith("Copied BibTeX for “A Modular Analysis") for m in said), said
        assert not any("quadratic" in m for m in said), said


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_search_finds_a_paper_by_the_words_of_its_corrected_title_and_authors(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """The index holds the list's own title ("The quadratic problems") and no authors; the
    user knows the paper by the title and authors they gave it."""
    app = make(tmp_path)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        for query, marked in (
            ('"provable acceleration"', "Provable Acceleration"),
            ("abernethy", "Abernethy"),
            ("title:modular polyak", "Modular"),
        ):
            await pilot.press("slash")
            app.search_box.value = ""
            await type_text(pilot, query)
            await settle(app, pilot)
            assert list(app.paper_list.rows)[:1] == [QUADRATIC], (query, app.paper_list.rows)
            shown = app.paper_list.row_text(0)
            assert shown.startswith(" ● A Modular Analysis"), shown
            # A compact row (80x24) shows no authors.
            assert marked in shown or (app.paper_list.compact and marked == "Abernethy"), shown
            await pilot.press("escape")
        # Not by the title's words as authors, nor the authors' as title words.
        await pilot.press("slash")
        await type_text(pilot, "author:modular")
        await settle(app, pilot)
        assert QUADRATIC not in list(app.paper_list.rows)


async def test_the_tags_dialog_and_a_like_view_name_the_corrected_title(tmp_path: Path) -> None:
    """Wherever the reader names the paper by its title (the tags dialog's, a `like:` view's
    line), it is the title the user corrected it to."""
    from paperdeck.ui.dialogs.tags_dialog import TagsDialog
    from paperdeck.ui.widgets.search_status import SearchStatus

    app = make(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        app.paper_list.move_cursor(QUADRATIC)
        await pilot.press("t")
        await settle(app, pilot)
        assert isinstance(app.screen, TagsDialog)
        title = str(app.screen.query(".dialog-title").first().render())
        assert title.startswith("Tags for A Modular Analysis"), title
        await pilot.press("escape")
        await pilot.press("slash")
        await type_text(pilot, f"like:{QUADRATIC + 1}")
        await settle(app, pilot)
        status = app.query_one("#search-status", SearchStatus)
        said = str(status.render())
        assert f"like #{QUADRATIC + 1} “A Modular Analysis" in said, said
        assert "quadratic" not in said, said


async def test_the_source_of_a_corrected_made_up_title_is_the_user_not_a_lookup(
    tmp_path: Path,
) -> None:
    """The pane's Source line of a paper whose made-up title the user corrected says the title
    is theirs and points to no online lookup; its uncorrected neighbour's still does."""
    app = make(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        app.paper_list.move_cursor(QUADRATIC)
        await pilot.pause()
        shown = " ".join(app.detail.content.plain.split())
        assert FIXED_TITLE in shown, shown
        assert "Source corrected by you: title, authors (the list gives no title)" in shown, shown
        assert "Look up titles" not in shown and "derived from the abstract" not in shown, shown
        app.paper_list.move_cursor(QUADRATIC + 1)
        await pilot.pause()
        shown = " ".join(app.detail.content.plain.split())
        assert "title derived from the abstract (no metadata: Ctrl+P › Look up titles" in shown

"""The reader's rows and chrome as a user sees them: two-line rows, readable matches in every
theme, a header and footer that fit, an 80x24 layout that works, help on one screen."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest
from rich.segment import Segment
from tests.ui.conftest import write_list
from tests.ui.test_app import type_text
from textual.app import App
from textual.color import Color
from textual.command import CommandList, CommandPalette
from textual.geometry import Region
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.widgets import Input, OptionList
from textual.widgets._footer import FooterKey

from paperdeck.core.library import load_library
from paperdeck.core.notes.store import NotesStore
from paperdeck.core.papers import LoadedPapers
from paperdeck.core.resources import bundled_list
from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.citation_flow import CitationFlow
from paperdeck.ui.contrast import contrast, solid
from paperdeck.ui.dialogs.citation_dialog import CitationDialog, sentences
from paperdeck.ui.dialogs.copy_as_dialog import CopyAsDialog
from paperdeck.ui.dialogs.help_screen import HelpScreen
from paperdeck.ui.widgets.header_bar import HeaderFacts, header_content
from paperdeck.ui.widgets.notes_panel import PLACEHOLDER_EDITING, PLACEHOLDER_IDLE
from paperdeck.ui.widgets.paper_rows import DERIVED_MARKER, title_cells, title_cells_of

MakeApp = Callable[..., PaperdeckApp]
THEMES = list(App().available_themes)
WHITE = Color(255, 255, 255)
DERIVED_LIST = Path(__file__).parent.parent / "data" / "abstracts_sample.txt"


@pytest.fixture
def make_app(tmp_path: Path) -> MakeApp:
    def make(path: Path | None = None) -> PaperdeckApp:
        return PaperdeckApp(
            load_library([path or bundled_list()]),
            NotesStore(tmp_path / "notes.json"),
            settings_file=tmp_path / "settings.json",
            autosave_delay=30.0,
        )

    return make


async def settle(app: PaperdeckApp, pilot: object) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()  # type: ignore[attr-defined]


async def search(app: PaperdeckApp, pilot: object, query: str) -> None:
    keys = [{" ": "space"}.get(c, c) for c in query]
    await pilot.press("slash", *keys)  # type: ignore[attr-defined]
    await settle(app, pilot)
    await pilot.press("enter")  # type: ignore[attr-defined]
    await settle(app, pilot)


def row_segments(app: PaperdeckApp, row: int) -> list[Segment]:
    paper_list = app.paper_list
    width = paper_list.scrollable_content_region.width
    return [segment for strip in paper_list._row_strips(row, width) for segment in strip]


# --- rows -----------------------------------------------------------------------------------


async def test_rows_show_the_title_on_two_lines_then_authors_venue_tags_and_icons(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        paper_list = app.paper_list
        first = app.papers[0]  # a title longer than the list is wide
        lines = paper_list.row_text(0).splitlines()
        assert len(lines) == 3
        words = first.title.split()
        assert " ".join(line.strip(" ●") for line in lines[:2]).startswith(" ".join(words[:8]))
        assert lines[1].strip() and lines[1].strip() in first.title
        await pilot.press("s", "k", "t")  # s stars and moves on
        await pilot.press(*"theory", "enter")
        await settle(app, pilot)
        meta = paper_list.row_text(0).splitlines()[-1]
        assert first.authors[0] in meta and "ICML 2026" in meta
        assert "#theory" in meta and "★" in meta
        assert meta.index(first.authors[0]) < meta.index("ICML 2026") < meta.index("#theory")
        assert meta.index("#theory") < meta.index("★")
        # A short title takes one line, its quiet line right under it.
        short = next(row for row in range(len(app.papers)) if len(paper_list.row_lines(row)) == 2)
        assert app.papers[short].title in paper_list.row_text(short).splitlines()[0]


async def test_compact_rows_by_key_and_palette_are_remembered(
    make_app: MakeApp, tmp_path: Path
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert not app.paper_list.compact
        await pilot.press("z")
        assert app.paper_list.compact
        assert len(app.paper_list.row_lines(0)) == 1
        line = app.paper_list.render_line(1).text
        assert app.papers[1].title[:30] in line
        # A starred paper's icon keeps a cell before the list's edge, as the number does.
        await pilot.press("s")
        await pilot.pause()
        starred = app.paper_list.render_line(0).text
        assert starred.rstrip().endswith("★") and starred.endswith("★ "), repr(starred)
        assert json.loads((tmp_path / "settings.json").read_text())["rows"] == "compact"
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.paper_list.compact
        command = next(
            c for c in app.get_system_commands(app.screen) if c.title.startswith("Rows:")
        )
        command.callback()
        await pilot.pause()
        assert not app.paper_list.compact
        assert len(app.paper_list.row_lines(0)) == 3
        assert json.loads((tmp_path / "settings.json").read_text())["rows"] == "two-line"


async def test_a_derived_title_is_marked_by_a_glyph_not_dimmed(make_app: MakeApp) -> None:
    app = make_app(DERIVED_LIST)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.papers[1].title_derived
        await pilot.press("j")  # the row looked at is not the cursor's
        segments = row_segments(app, 0)
        text = "".join(segment.text for segment in segments)
        assert text.startswith(" ● " + DERIVED_MARKER + app.papers[0].title[:20])
        title = next(s for s in segments if s.text.startswith(app.papers[0].title[:10]))
        marker = next(s for s in segments if s.text == DERIVED_MARKER)
        assert title.style is not None and marker.style is not None
        assert not title.style.italic and not title.style.dim
        assert title.style.color != marker.style.color  # the glyph is the quiet part
        row_background = solid(title.style.bgcolor, Color(0, 0, 0))
        assert contrast(solid(title.style.color, Color(255, 255, 255)), row_background) >= 7
        assert app.detail.text.startswith(DERIVED_MARKER)


async def test_matches_stand_out_in_every_theme_in_rows_and_detail_pane(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "reinforcement learning")
        paper_list = app.paper_list
        titled = [
            row
            for row, index in enumerate(paper_list.rows)
            if "reinforcement learning" in app.papers[index].title.lower()
        ]
        assert len(titled) >= 2
        paper_list.move_cursor(titled[0])
        assert len(THEMES) >= 20
        for theme in THEMES:
            app.theme = theme
            app.paper_list.focus()
            await pilot.pause()
            check_detail_pane_matches(app, theme)
            dark = app.current_theme.dark
            for focused in (True, False):
                if not focused:
                    app.search_box.focus()  # the list keeps its width, its cursor the focus
                    await pilot.pause()
                    assert not app.paper_list.has_focus
                for row in titled[:2]:  # the cursor's row, then a plain one
                    segments = row_segments(app, row)
                    row_style = segments[0].style
                    assert row_style is not None
                    row_background = solid(row_style.bgcolor, Color(0, 0, 0))
                    matches = [
                        s for s in segments if s.text.lower() in ("reinforcement", "learning")
                    ]
                    where = f"{theme}, row {row}, focused {focused}"
                    assert matches, f"no match drawn: {where}"
                    for segment in matches:
                        assert segment.style is not None
                        text_default = Color(255, 255, 255) if dark else Color(0, 0, 0)
                        color = solid(segment.style.color, text_default)
                        background = solid(segment.style.bgcolor, row_background)
                        assert color != background, where
                        assert contrast(color, background) >= 3, where
                        assert contrast(background, row_background) >= 3, where


def check_detail_pane_matches(app: PaperdeckApp, theme: str) -> None:
    """The words of the search stand out in the title and abstract of the paper shown."""
    paper = app.current_paper
    assert paper is not None and "reinforcement learning" in paper.title.lower()
    words = ("reinforcement", "learning")
    detail = app.detail
    dark = app.current_theme.dark
    height = detail.scrollable_content_region.height
    lines = [detail.render_line(y) for y in range(height)]
    texts = [line.text.strip() for line in lines]
    abstract_at = texts.index("Abstract")
    pane = solid(detail.rich_style.bgcolor, Color(0, 0, 0) if dark else Color(255, 255, 255))
    title_end = texts.index("")  # a blank line, then the metadata, then the abstract
    parts = {"title": lines[:title_end], "abstract": lines[abstract_at + 1 :]}
    found = {"title": 0, "abstract": 0}
    for part, part_lines in parts.items():
        for segment in (s for line in part_lines for s in line):
            if segment.text.lower() not in words:
                continue
            assert segment.style is not None
            text_default = Color(255, 255, 255) if dark else Color(0, 0, 0)
            color = solid(segment.style.color, text_default)
            background = solid(segment.style.bgcolor, pane)
            where = f"{theme}, {part}: {segment.text}"
            assert contrast(color, background) >= 3, where
            assert contrast(background, pane) >= 3, where
            found[part] += 1
    assert found["title"] >= 2 and found["abstract"] >= 1, (theme, found)


def quiet_line(app: PaperdeckApp, row: int) -> list[Segment]:
    """The segments of a row's last line (its quiet line; the only one when compact)."""
    paper_list = app.paper_list
    width = paper_list.scrollable_content_region.width
    return list(paper_list._row_strips(row, width)[-1])


async def test_a_row_matching_only_in_its_abstract_shows_the_words_around_it(
    make_app: MakeApp,
) -> None:
    app = make_app(DERIVED_LIST)  # titles derived from the abstracts, no authors
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "adversarial")
        paper_list = app.paper_list
        rows = list(paper_list.rows)
        in_title = [r for r, i in enumerate(rows) if "adversar" in app.papers[i].title.lower()]
        abstract_only = [r for r in range(len(rows)) if r not in in_title]
        assert in_title and len(abstract_only) >= 10
        for theme in ("textual-dark", "textual-light", "gruvbox"):
            app.theme = theme
            await pilot.pause()
            dark = app.current_theme.dark
            for row in abstract_only[:8]:
                paper_list.move_cursor(row if row == abstract_only[0] else paper_list.cursor)
                segments = quiet_line(app, row)
                text = "".join(s.text for s in segments)
                where = f"{theme}, row {row}: {text!r}"
                # The abstract around its first match, cut with ellipses, then venue, number.
                assert "…" in text and "adversar" in text.lower(), where
                assert text.rstrip().endswith(str(rows[row] + 1)), where
                matched = [s.text for s in segments if visible_on_row(s, segments[0], dark)]
                assert matched and all("adversar" in m.lower() for m in matched), where
            # A row whose title matches keeps its quiet line: no abstract on it.
            title_row = quiet_line(app, in_title[0])
            assert "adversar" not in "".join(s.text for s in title_row).lower()
        # A title with some of the words: the abstract where the one it lacks matches.
        await search(app, pilot, " model")  # "adversarial model"
        some = next(
            r
            for r, i in enumerate(paper_list.rows)
            if "adversar" in app.papers[i].title.lower()
            and "model" not in app.papers[i].title.lower()
        )
        segments = quiet_line(app, some)
        matched = [s.text.lower() for s in segments if visible_on_row(s, segments[0], dark)]
        assert any(word.startswith("model") for word in matched), matched
        app.search_box.value = "adversarial"
        await settle(app, pilot)
        # One line per paper (as at 80x24): the title, cut to two thirds of the line, then the hint.
        await pilot.press("z")
        await pilot.pause()
        assert paper_list.compact
        row = abstract_only[1]
        line = "".join(s.text for s in quiet_line(app, row))
        title = app.papers[rows[row]].title
        assert line.startswith(f" ● ≈ {title[:20]}") and "adversar" in line.lower(), line
        # No search: no hint.
        app.search_box.value = ""
        await settle(app, pilot)
        lines = ["".join(s.text for s in quiet_line(app, r)) for r in range(5)]
        assert all("  …" not in line and "adversar" not in line.lower() for line in lines)


async def test_abstract_hints_and_their_matches_read_in_every_theme(make_app: MakeApp) -> None:
    app = make_app(DERIVED_LIST)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "adversarial")
        paper_list = app.paper_list
        rows = [
            r
            for r, i in enumerate(paper_list.rows)
            if "adversar" not in app.papers[i].title.lower()
        ]
        paper_list.move_cursor(rows[0])
        for theme in THEMES:
            app.theme = theme
            app.paper_list.focus()
            await pilot.pause()
            dark = app.current_theme.dark
            for focused in (True, False):
                if not focused:
                    app.search_box.focus()
                    await pilot.pause()
                for row in rows[:2]:  # the cursor's row, then a plain one
                    segments = quiet_line(app, row)
                    base = segments[0]
                    where = f"{theme}, row {row}, focused {focused}"
                    matched = [s for s in segments if "adversar" in s.text.lower()]
                    assert matched, where
                    assert all(visible_on_row(s, base, dark) for s in matched), where
                    # The words around the match read on the row (the muted colour shaded).
                    assert base.style is not None
                    row_background = solid(base.style.bgcolor, Color(0, 0, 0))
                    around = next(s for s in segments if s.text.startswith("…"))
                    assert around.style is not None
                    color = solid(around.style.color, Color(255, 255, 255))
                    assert contrast(color, row_background) >= 3, where


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_on_a_cursor_row_the_terminal_colours_the_hint_reads_in_every_palette(
    make_app: MakeApp, size: tuple[int, int]
) -> None:
    """An ANSI theme's cursor row is a colour only the terminal knows: grey words on it read
    at 1.2:1 to 1.6:1 in terminal palettes (Rich's). They read as well as the row's title,
    in the colour the theme pairs with the row: in every palette where the title reads."""
    from rich import terminal_theme

    palettes = [
        value
        for value in vars(terminal_theme).values()
        if isinstance(value, terminal_theme.TerminalTheme)
    ]
    assert len(palettes) >= 4
    app = make_app(DERIVED_LIST)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "adversarial")
        paper_list = app.paper_list
        row = next(
            r
            for r, i in enumerate(paper_list.rows)
            if "adversar" not in app.papers[i].title.lower()
        )
        paper_list.move_cursor(row)
        for theme in ("ansi-light", "ansi-dark"):
            app.theme = theme
            await pilot.pause()
            segments = quiet_line(app, row)
            around = next(s for s in segments if s.text.startswith("…"))
            title = paper_list._row_strips(row, paper_list.scrollable_content_region.width)
            word = app.papers[paper_list.rows[row]].title.split()[1]
            base = next(s for s in title[0] if word in s.text)
            assert around.style is not None and around.style.bgcolor is not None
            assert around.style.color is not None and base.style is not None
            assert base.style.color is not None
            for palette in palettes:
                ground = Color(*around.style.bgcolor.get_truecolor(palette))
                text = Color(*around.style.color.get_truecolor(palette))
                own = Color(*base.style.color.get_truecolor(palette))
                if contrast(own, ground) >= 3:
                    assert contrast(text, ground) >= 3, (theme, palette.ansi_colors[4])


def visible_on_row(segment: Segment, row: Segment, dark: bool) -> bool:
    """Whether a segment's colours stand out from its row and its text reads on them."""
    assert segment.style is not None and row.style is not None
    row_background = solid(row.style.bgcolor, Color(0, 0, 0) if dark else Color(255, 255, 255))
    background = solid(segment.style.bgcolor, row_background)
    color = solid(segment.style.color, Color(255, 255, 255) if dark else Color(0, 0, 0))
    return contrast(background, row_background) >= 3 and contrast(color, background) >= 3


async def test_author_matches_are_highlighted_on_the_quiet_line(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        for theme in ("textual-dark", "textual-light"):
            app.theme = theme
            await pilot.pause()
            dark = app.current_theme.dark
            # A plain word that is a surname: the author on the row's quiet line is a match.
            await search(app, pilot, "janzing")
            quiet = [s for s in row_segments(app, 0)[-20:] if s.text.strip()]
            row = row_segments(app, 0)[0]
            text = "".join(s.text for s in quiet)
            assert "Anahita Haghighat, Dominik Janzing" in text
            matched = [s for s in quiet if visible_on_row(s, row, dark)]
            assert [s.text for s in matched] == ["Janzing"], theme
            # A field filter: each matching author stands out, the others do not.
            await pilot.press("slash")
            app.search_box.value = "author:zhang"
            await settle(app, pilot)
            await pilot.press("enter")
            await settle(app, pilot)
            rows = app.paper_list.rows
            lei = next(r for r, i in enumerate(rows) if app.papers[i].authors[:1] == ("Ke Lei",))
            assert app.paper_list.cursor != lei  # a row as plain rows look
            segments = row_segments(app, lei)
            lines = app.paper_list.row_text(lei).splitlines()
            assert "Ke Lei, Yu Zhang, Changhao Pan +4" in lines[-1]
            quiet_start = sum(len(line) for line in lines[:-1])
            at, quiet_segments = 0, []
            for segment in segments:
                if at >= quiet_start:
                    quiet_segments.append(segment)
                at += len(segment.text)
            matched = [s.text for s in quiet_segments if visible_on_row(s, segments[0], dark)]
            assert matched == ["Zhang"], (theme, matched)
            # An author hidden behind "+N" who matches takes the last place shown.
            app.search_box.value = "author:cevher"
            await settle(app, pilot)
            quiet_line = app.paper_list.row_text(0).splitlines()[-1]
            assert "Luca Viano, Till Freihaut … Volkan Cevher +3" in quiet_line
            cevher = [s for s in row_segments(app, 0) if s.text == "Cevher"]
            assert cevher and visible_on_row(cevher[0], row_segments(app, 0)[0], dark)
            # The detail pane's authors line highlights them too.
            detail = app.detail
            names = [s for strip in detail._strips for s in strip if "Cevher" in s.text]
            assert [s.text for s in names] == ["Cevher"]
            assert names[0].style is not None and names[0].style.bgcolor is not None
            app.search_box.value = ""
            await settle(app, pilot)


async def test_a_matching_author_is_shown_whole_when_the_line_is_short(
    make_app: MakeApp, tmp_path: Path
) -> None:
    names = ["Alexandra Konstantinopoulou", "Bartholomew Featherstonehaugh", "Zeqiang Zhang"]
    names += [f"Other Person{n}" for n in range(4)]
    record = {"title": "A paper", "abstract": "Words about nothing in particular.", "year": 2026}
    path = tmp_path / "authors.jsonl"
    lines = [json.dumps({**record, "authors": names}), json.dumps({**record, "title": "B"})]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    app = make_app(path)
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "zhang")
        room = app.paper_list.scrollable_content_region.width
        quiet = app.paper_list.row_text(0).splitlines()[-1]
        assert room < 70 and "Zeqiang Zhang" in quiet, quiet
        # The names between gave way ("Bartholomew Fea…" cut "Zeqiang Zha…" before);
        # the count says how many names are not shown.
        assert quiet.split(" · ")[0].strip() == "Alexandra Konstantinopoulou … Zeqiang Zhang +5"
        segments = row_segments(app, 0)
        assert [s.text for s in segments if visible_on_row(s, segments[0], True)] == ["Zhang"]


async def test_a_row_whose_hint_takes_the_authors_place_keeps_the_author_who_matched(
    make_app: MakeApp,
) -> None:
    # Seen at 120x40 on the bundled list, searching "zhang speculative": the one paper with
    # both words showed the abstract's "Speculative" where its authors go, and nothing on its
    # row said why "zhang" matched.
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "zhang speculative")
        app.search_box.focus()  # the row as rows look
        for theme in ("textual-dark", "textual-light"):
            app.theme = theme
            await pilot.pause()
            assert app.papers[app.paper_list.rows[0]].title.startswith("SafeSpec")
            segments = quiet_line(app, 0)
            line = "".join(s.text for s in segments)
            assert line.strip().startswith("Zeyang Zhang · Speculative inference"), line
            shown = [
                s.text for s in segments if visible_on_row(s, segments[0], app.current_theme.dark)
            ]
            assert shown == ["Zhang", "Speculative"], (theme, shown)


async def test_a_one_line_row_says_which_author_matched(make_app: MakeApp) -> None:
    # Seen at 80x24 on the bundled list, searching "author:zhang sampling": one-line rows show
    # no authors, and ASTRA's row (by a Zhang, without "sampling") showed nothing that matched.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "author:zhang sampling")
        assert app.paper_list.compact
        app.search_box.focus()  # the row as rows look
        titles = [app.papers[index].title for index in app.paper_list.rows]
        astra = next(row for row, title in enumerate(titles) if title.startswith("ASTRA"))
        safe = next(row for row, title in enumerate(titles) if title.startswith("SafeSpec"))
        goal = next(row for row, title in enumerate(titles) if title.startswith("Hierarchical"))
        for theme in ("textual-dark", "textual-light"):
            app.theme = theme
            await pilot.pause()
            dark = app.current_theme.dark
            width = app.paper_list.scrollable_content_region.width
            for row, shown in [
                (astra, ["Zhang"]),  # the title's start, then the author
                (safe, ["Sampling", "Zhang"]),  # the title has the other word
                (goal, ["Zhang", "sampled"]),  # the author, then the abstract's hint
            ]:
                segments = quiet_line(app, row)
                line = "".join(s.text for s in segments)
                assert len(line) == width and line.startswith(" ● " + titles[row][:20]), line
                found = [s.text for s in segments if visible_on_row(s, segments[0], dark)]
                assert found == shown, (theme, line, found)
            line = "".join(s.text for s in quiet_line(app, astra))
            assert line.rstrip().endswith("  Lijun Zhang"), line


async def test_a_one_line_row_shows_its_title_from_before_a_match_it_would_cut_off(
    make_app: MakeApp, tmp_path: Path
) -> None:
    title = "The basic operation of set union in the global model of differential privacy"
    record = {"abstract": "Words about nothing in particular.", "year": 2026}
    path = tmp_path / "long.jsonl"
    lines = [json.dumps({**record, "title": f"{title} and more"}), json.dumps({**record})]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "privacy")
        assert app.paper_list.compact
        app.search_box.focus()  # the row as rows look (the cursor's is no different here)
        await pilot.pause()
        segments = quiet_line(app, 0)
        line = "".join(s.text for s in segments)
        room = app.paper_list.scrollable_content_region.width
        assert len(title) + 3 > room  # cut at its end, "privacy" would not show
        assert line.startswith(" ● …") and "model of differential privacy" in line, line
        shown = [s.text for s in segments if visible_on_row(s, segments[0], True)]
        assert shown == ["privacy"]


async def test_a_two_line_title_cut_before_a_word_of_the_search_shows_it_on_its_second_line(
    make_app: MakeApp, tmp_path: Path
) -> None:
    # Seen at 120x40 on the 3,000-paper list: of the top 40 rows of 15 searches, 18 had a
    # word of the search in a title cut off after two lines, shown nowhere on the row.
    title = (
        "A general approach that, under standard cryptographic assumptions, compresses every"
        " efficient protocol with negligible loss in privacy and utility guarantees for all"
    )
    record = {"abstract": "Words about nothing in particular.", "year": 2026}
    path = tmp_path / "long.jsonl"
    lines = [json.dumps({**record, "title": title}), json.dumps({**record, "title": "B"})]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    app = make_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "privacy")
        app.search_box.focus()  # the row as rows look
        for theme in ("textual-dark", "textual-light"):
            app.theme = theme
            await pilot.pause()
            strips = app.paper_list._row_strips(0, app.paper_list.scrollable_content_region.width)
            assert len(strips) == 3 and len(title) > 2 * len(strips[0].text)
            second = list(strips[1])
            text = "".join(s.text for s in second)
            assert text.startswith("   …") and "loss in privacy and utility" in text, text
            dark = app.current_theme.dark
            shown = [s.text for s in second if visible_on_row(s, second[0], dark)]
            assert shown == ["privacy"], theme
        # A word the first line shows: the second goes on from the first, cut at its end.
        app.paper_list.focus()
        await search(app, pilot, "general")
        strips = app.paper_list._row_strips(0, app.paper_list.scrollable_content_region.width)
        assert strips[1].text.startswith("   assumptions, compresses every"), strips[1].text


async def test_a_one_line_row_shows_every_word_of_the_search_its_title_has(
    make_app: MakeApp, tmp_path: Path
) -> None:
    # Seen in tmux at 80x24 on the 5,000-paper list, searching "coin samplng bayesian": the
    # first result's row read "A suite of new particle-based methods for scalable Bayesian
    # inference …", cut before "coin", and with no hint (its abstract lacks "sampling"):
    # nothing on screen said why it came first.
    title = (
        "A suite of new particle-based methods for scalable Bayesian inference based on coin"
        " betting, which are entirely learning-rate free"
    )
    record = {"abstract": "Words about nothing in particular.", "year": 2026}
    path = tmp_path / "coin.jsonl"
    lines = [json.dumps({**record, "title": title}), json.dumps({**record})]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "coin bayesian")
        assert app.paper_list.compact
        app.search_box.focus()  # the row as rows look (the cursor's is no different here)
        await pilot.pause()
        segments = quiet_line(app, 0)
        line = "".join(s.text for s in segments)
        assert line.startswith(" ● …") and "Bayesian inference based on coin" in line, line
        shown = [s.text for s in segments if visible_on_row(s, segments[0], True)]
        assert shown == ["Bayesian", "coin"]
        # A search the cut title already shows keeps the title's start.
        app.paper_list.focus()
        await search(app, pilot, "suite bayesian")
        app.search_box.focus()
        await pilot.pause()
        line = "".join(s.text for s in quiet_line(app, 0))
        assert line.startswith(" ● A suite of new"), line


async def test_a_title_cut_where_a_match_starts_ends_in_a_plain_ellipsis(
    make_app: MakeApp, tmp_path: Path
) -> None:
    # Seen at 80x24 on the 5,000-paper list, searching "coin samplng bayesian": a row read
    # "An approach to Bayesian inference and general …", its "…" drawn as a match (the second
    # "Bayesian" cut to nothing), a highlighted cell with no word in it.
    head = "An approach to Bayesian inference and general computation"
    record = {"abstract": "Words about nothing in particular.", "year": 2026}
    path = tmp_path / "cut.jsonl"
    room = 74  # a one-line row's title at 80 columns, without a hint
    # The second "Bayesian" starts at the row's last cell.
    title = head + "." * (room - 2 - len(head)) + " Bayesian methods"
    lines = [json.dumps({**record, "title": title}), json.dumps({**record})]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "bayesian")
        assert app.paper_list.compact
        app.search_box.focus()
        await pilot.pause()
        segments = quiet_line(app, 0)
        line = "".join(s.text for s in segments)
        assert line.rstrip().endswith(". …"), line
        shown = [s.text for s in segments if visible_on_row(s, segments[0], True)]
        assert shown == ["Bayesian"], shown


def bar_cells(bar: ScrollBar, lines: list[list[Segment]]) -> list[tuple[str, bool]]:
    """Each cell of a vertical scrollbar: its glyph, and whether it is drawn reversed (thumb)."""
    return [(s.text, bool(s.style and s.style.reverse)) for line in lines for s in line]


async def test_the_scrollbar_of_a_long_list_shows_where_each_page_is(
    make_app: MakeApp, tmp_path: Path
) -> None:
    path = tmp_path / "long.txt"
    papers = (f"Paper {i} studies how a reader pages through a long list." for i in range(20_000))
    path.write_text("A long list\n\n" + "\n\n".join(papers) + "\n", encoding="utf-8")
    app = make_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        paper_list = app.paper_list
        bar = paper_list.vertical_scrollbar
        drawn = []
        for _ in range(24):
            await pilot.press("pagedown")
            await pilot.pause()
            shown = bar_cells(bar, list(bar.render_lines(Region(0, 0, 1, bar.size.height))))
            window = bar.window_size if bar.window_size < bar.window_virtual_size else 0
            expected = ScrollBarRender.render_bar(
                bar.size.height,
                bar.window_virtual_size,
                window,
                bar.validate_position(paper_list.scroll_y),
                vertical=True,
            )
            assert shown == bar_cells(bar, [list(expected.segments)]), paper_list.scroll_y
            drawn.append(shown)
        # The thumb moved an eighth of a cell now and then: some pages drew the same bar.
        changes = sum(before != after for before, after in pairwise(drawn))
        assert 2 <= changes < len(drawn) - 1


# --- widths and heights ---------------------------------------------------------------------


async def test_the_list_gets_the_larger_share_until_the_detail_is_read(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.paper_list.region.width > app.detail.region.width
        app.detail.focus()
        await pilot.pause()
        assert app.detail.region.width > app.paper_list.region.width
        app.paper_list.focus()
        await pilot.pause()
        assert app.paper_list.region.width > app.detail.region.width


async def test_the_notes_panel_takes_no_room_without_a_note(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.notes.region.height == 0
        await pilot.press("n")
        assert app.notes.region.height > 0
        # An empty note being written no longer says "Press n".
        assert app.notes.editor.placeholder == PLACEHOLDER_EDITING
        assert "Press n" not in str(app.notes.editor.placeholder)
        await pilot.press("escape")
        assert app.notes.region.height == 0
        assert app.notes.editor.placeholder == PLACEHOLDER_IDLE
        await pilot.press("n", *"keep", "escape")
        await pilot.pause()
        assert app.notes.region.height > 0
        await pilot.press("j")
        await pilot.pause(0.1)
        assert app.notes.region.height == 0
        await pilot.press("k")
        await pilot.pause(0.1)
        assert app.notes.region.height > 0
        assert app.notes.editor.text == "keep"


async def test_80x24_shows_8_rows_and_the_abstract_while_a_note_is_written(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        paper_list = app.paper_list
        assert paper_list.compact  # one line a paper when the list is short of lines
        height = paper_list.scrollable_content_region.height
        assert height >= 8
        shown = {paper_list.render_line(y).text.strip() for y in range(height)}
        assert (
            sum(1 for paper in app.papers[:height] if any(paper.title[:20] in s for s in shown))
            >= 8
        )
        assert app.detail.region.height >= 6
        await pilot.press("n", *"a note")
        await pilot.pause(0.1)
        assert app.notes.region.height > 0
        detail_lines = app.detail.scrollable_content_region.height
        assert detail_lines >= 2
        visible = " ".join(app.detail.render_line(y).text for y in range(detail_lines))
        abstract_words = app.papers[0].abstract.split()[:3]
        assert "Abstract" in visible or " ".join(abstract_words) in visible
        assert app.notes.editor.text == "a note"


# --- header and footer ----------------------------------------------------------------------


def facts(**changes: object) -> HeaderFacts:
    base: dict[str, object] = {
        "title": "International Conference on Machine Learning 2026 — accepted papers (main track)",
        "loading": False,
        "total": 3000,
        "filtered": 812,
        "noted": 12,
        "starred": 5,
        "marked": 3,
        "sort": "relevance",
        "index_progress": 0.4,
        "read": 412,
    }
    base.update(changes)
    return HeaderFacts(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize("width", [80, 100, 120, 200])
def test_the_header_cuts_the_name_first_and_keeps_every_fact(width: int) -> None:
    line = header_content(facts(), width).plain
    assert len(line) <= width
    assert "812" in line and "3,000" in line
    assert "412" in line and "read" in line
    assert "3" in line and "relevance" in line
    assert "40%" in line
    assert line.startswith("Interna")  # the name keeps a few letters
    if width < 120:
        assert "…" in line  # the name gave way, not the facts
    if width >= 200:
        assert "(main track)" in line and "sort: relevance" in line and "812 / 3,000" in line


@pytest.mark.parametrize("width", [80, 100, 120])
def test_a_narrow_header_keeps_why_papers_are_shown_and_the_stars(width: int) -> None:
    """40 papers starred and marked over several searches: each fact gives up a little before
    any gives up all, and the starred count stays."""
    picked = facts(
        title="ICML 2020-2023 paper list",
        filtered=2135,
        every=1962,
        read=1234,
        starred=40,
        marked=40,
        index_progress=None,
    )
    line = header_content(picked, width).plain
    assert len(line) <= width
    assert "40 starred" in line or "★ 40" in line
    assert "1,234" in line and "2,135" in line and "e export" in line
    if width >= 100:
        assert "1,962 with every word" in line, line
    # The name ends with a whole word: "ICML 2020-20…" read as "…2 with every word".
    kept = line.split("  ")[0].removesuffix("…")
    title = "ICML 2020-2023 paper list"
    assert kept.startswith("ICML"), line
    assert kept == title or kept.endswith("-") or title[len(kept)] == " ", line


@pytest.mark.parametrize("width", [80, 120, 200])
def test_how_far_a_big_list_has_loaded_is_a_fact_kept_at_every_width(width: int) -> None:
    """A 100,000-paper list loading, a query over the rows so far: how far loading is was part
    of the name, cut first ("Loading big.txt… 39…" at 80 columns)."""
    loading = facts(
        title="conference-100k.txt",
        total=39_168,
        filtered=6_808,
        marked=0,
        index_progress=None,
        read=0,
        loaded=(39_168, 100_000),
    )
    line = header_content(loading, width).plain
    assert len(line) <= width
    assert "6,808 / 39,168" in line
    assert "loading 39,168 of 100,000" in line or "loading 39%" in line
    if width >= 120:
        assert "loading 39,168 of 100,000" in line and line.startswith("conference-100k.txt")
    assert "loading" not in header_content(facts(loaded=None), width).plain


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
async def test_a_search_header_counts_the_stars_once_there_are_some(
    make_app: MakeApp, size: tuple[int, int]
) -> None:
    """During a search the header said "★ 0" (or "0 starred") before anything was starred."""
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "learning")
        line = app.screen._compositor.render_strips()[app.query_one("#header").region.y].text
        assert "/ 19" in line and "★" not in line and "starred" not in line, line
        await pilot.press("s")
        await settle(app, pilot)
        line = app.screen._compositor.render_strips()[app.query_one("#header").region.y].text
        assert "/ 19" in line and ("★ 1" in line or "1 starred" in line), line


async def test_header_and_footer_fit_at_80_and_120_columns(make_app: MakeApp) -> None:
    for size in ((80, 24), (120, 40)):
        app = make_app()
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await search(app, pilot, "learning")
            header = str(app.query_one("#header").render())
            assert "/ 19" in header and "relevance" in header
            keys = {key.key_display or key.key: key for key in app.screen.query(FooterKey)}
            for wanted in ("?", "q"):
                key = next(k for name, k in keys.items() if name == wanted)
                assert key.region.width > 0 and key.region.right <= size[0], (size, wanted)


async def test_every_part_of_the_header_reads_on_it_in_every_theme(make_app: MakeApp) -> None:
    # Measured in a triage run: in textual-light the list's name and "N marked" (the accent
    # and warning colours on $panel) were 2.8:1, "read" 3.2:1.
    app = make_app()
    async with app.run_test(size=(200, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("r", "space", "space", "u")
        await search(app, pilot, "learning")
        parts = ("ICML 2026", "shown", "read", "view: unread", "marked", "sort: relevance")
        for theme in ("textual-dark", "textual-light", *THEMES):
            if theme.startswith("ansi"):
                continue  # the terminal's own colours: nothing to measure them by
            app.theme = theme
            await pilot.pause()
            dark = app.current_theme.dark
            line = app.screen._compositor.render_strips()[app.query_one("#header").region.y]
            seen = []
            for segment in line:
                if not segment.text.strip() or segment.style is None:
                    continue
                background = solid(segment.style.bgcolor, Color(0, 0, 0) if dark else WHITE)
                color = solid(segment.style.color, WHITE if dark else Color(0, 0, 0))
                ratio = contrast(color, background)
                assert ratio >= 4.5, (theme, segment.text, round(ratio, 2))
                seen.append(segment.text.strip())
            assert all(any(part in text for text in seen) for part in parts), (theme, seen)


# --- help, palette, dialogs -----------------------------------------------------------------


async def test_help_fits_120x40_without_scrolling(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        body = app.screen.query_one("#help-body")
        assert body.max_scroll_y == 0
        columns = list(app.screen.query(".help-column"))
        assert len(columns) >= 2
        for column in columns:
            assert column.region.bottom <= 40 and column.region.right <= 120
        text = "\n".join(str(column.render()) for column in columns)
        for expected in ("Compact rows", "Star", "is:starred", "PgDn"):
            assert expected in text


async def test_copy_as_asks_for_the_format_and_copies_once(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("DISPLAY", raising=False)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert titles.count("Copy as…") == 1
        assert titles.index("Copy as…") > titles.index("Export notes")
        command = next(c for c in app.get_system_commands(app.screen) if c.title == "Copy as…")
        command.callback()
        await pilot.pause()
        assert isinstance(app.screen, CopyAsDialog)
        assert "Copy the citation as" in str(app.screen.query_one(".dialog-title").render())
        formats = [name for name, _ in app.format_names()]
        await pilot.press(*["down"] * formats.index("ris"), "enter")
        await settle(app, pilot)
        assert app.last_copied.startswith("TY  -")
        assert app.settings.citation_format == "bibtex"  # c keeps its own format


async def test_copy_as_goes_to_the_format_whose_name_is_typed(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("DISPLAY", raising=False)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+p")
        await type_text(pilot, "Copy as")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, CopyAsDialog)
        options = app.screen.query_one(OptionList)
        await type_text(pilot, "ris")
        assert options.highlighted is not None
        assert options.get_option_at_index(options.highlighted).id == "ris"
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.last_copied.startswith("TY  -")
        # The letters went to the dialog, not to the reader's keys (r: read and next).
        assert app.store.get(app.papers[0].id) is None and app.current_paper is app.papers[0]
        # In C, a name the menu does not list goes on in the field for any CSL style.
        if isinstance(app.screen, CitationDialog):  # no clipboard here: shown to select
            await pilot.press("escape")
        await pilot.press("C")
        await pilot.pause()
        await type_text(pilot, "elsevier-vancouver")
        field = app.screen.query_one("#format-other", Input)
        assert field.has_focus and field.value == "elsevier-vancouver"


async def test_the_copy_fallback_dialog_says_its_sentences_apart(make_app: MakeApp) -> None:
    assert sentences("Sent to tmux, which cannot confirm it.", "xclip: not found") == (
        "Sent to tmux, which cannot confirm it. xclip: not found."
    )
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        flow = app.citations
        assert isinstance(flow, CitationFlow)
        flow._copy_failed("@misc{x}", "BibTeX for “x”", "xclip: not found")
        await pilot.pause()
        assert isinstance(app.screen, CitationDialog)
        hint = " ".join(str(s.render()) for s in app.screen.query(".dialog-hint"))
        assert "Could not confirm the copy of BibTeX for “x”. xclip: not found. Select" in hint


def test_title_widths_measured_at_once_equal_those_measured_one_by_one() -> None:
    papers = LoadedPapers(
        [
            *load_library([DERIVED_LIST]).papers,
            *load_library([bundled_list()]).papers,
            *load_library([Path(__file__).parent.parent / "data" / "hostile.txt"]).papers,
        ]
    )
    wide = papers[0].with_changes(title="深度学习 … naïve “quotes” " + "x" * 300)
    papers.append(wide)
    assert title_cells_of(papers) == bytes(min(255, title_cells(p)) for p in papers)
    assert title_cells_of(papers, 3) == title_cells_of(papers)[3:]
    assert title_cells(wide) > len(wide.title)
    assert title_cells_of(LoadedPapers([wide])) == bytes([255])


def list_lines(app: PaperdeckApp) -> list[str]:
    """The paper list's lines on screen, as text."""
    paper_list = app.paper_list
    return [
        paper_list.render_line(y).text.rstrip()
        for y in range(paper_list.scrollable_content_region.height)
    ]


async def test_the_position_stands_apart_from_a_full_quiet_line(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "learning")
        lines = list_lines(app)
        quiet = [line for line in lines if " · ICML 2026 " in line and line[-1:].isdigit()]
        assert all(line.rpartition(" ")[2].startswith("#") for line in quiet)
        # Rows whose abstract hint fills the line up to the position, and the others.
        assert any("…" in line for line in quiet) and len(quiet) >= 10
        for line in quiet:
            _venue, gap, number = line.rpartition(" · ")[2].partition("2026")
            assert gap == "2026" and number.startswith("  ") and number.strip()[1:].isdigit(), line


async def test_a_made_up_title_points_to_the_online_lookup_by_its_palette_name(
    make_app: MakeApp,
) -> None:
    app = make_app(DERIVED_LIST)  # titles derived from the abstracts, no metadata
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        shown = " ".join(app.detail.content.plain.split())
        assert "title derived from the abstract (no metadata: Ctrl+P › Look up titles" in shown
        # the name the pane gives is one the command palette offers
        await pilot.press("ctrl+p")
        await pilot.pause()
        for key in "look up titles":
            await pilot.press({" ": "space"}.get(key, key))
        await pilot.pause(0.5)
        palette = app.screen
        assert isinstance(palette, CommandPalette)
        offered = [str(option.prompt) for option in palette.query_one(CommandList).options]
        assert any(option.startswith("Look up titles online") for option in offered), offered


async def test_every_word_of_the_list_reads_as_text_in_every_theme(make_app: MakeApp) -> None:
    """The line under each title (authors, venue, the abstract's words that matched) is what a
    researcher judges a paper by after its title: muted, it read 3.0:1 (atom-one-light) to
    4.4:1 in ten themes, and the cursor row's title 3.8:1 on textual-dark's blue. Text reads
    at 4.5:1 (WCAG AA), the row focused or not, a paper read too."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("r")  # a paper read: its title steps back, still to be read
        await search(app, pilot, "learning")
        await pilot.press("j")
        themes = sorted(name for name in THEMES if not name.startswith("ansi-"))
        for theme in themes:
            app.theme = theme
            for focused in (True, False):
                (app.paper_list if focused else app.search_box).focus()
                await pilot.pause()
                dark = app.current_theme.dark
                region = app.paper_list.scrollable_content_region
                strips = app.screen._compositor.render_strips()
                checked = 0
                for y in range(region.y, region.bottom):
                    line = strips[y].crop(region.x, region.right)
                    for segment in line:
                        text = segment.text.strip(" ▍●◐○★✎─")
                        if not text or segment.style is None:
                            continue
                        ground = solid(segment.style.bgcolor, Color(0, 0, 0) if dark else WHITE)
                        color = solid(segment.style.color, WHITE if dark else Color(0, 0, 0))
                        ratio = contrast(color, ground)
                        assert ratio >= 4.5, (theme, focused, text, round(ratio, 2))
                        checked += 1
                assert checked > 40, theme


async def test_a_paper_marked_read_steps_back_and_stays_readable(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        first = app.papers[app.paper_list.rows[0]]
        await pilot.press("r")  # the first paper read, the cursor on the second
        await settle(app, pilot)
        assert app.paper_list.cursor == 1
        width = app.paper_list.scrollable_content_region.width

        def title_style(row: int) -> Segment:
            """The longest run of the row's title in one style: its plain words (not the
            method name's own colour)."""
            paper = app.papers[app.paper_list.rows[row]]
            line = app.paper_list._row_strips(row, width)[0]
            in_title = [s for s in line if s.text.strip() and s.text.strip() in paper.title]
            return max(in_title, key=lambda s: len(s.text))

        assert title_style(0).text.strip() in first.title
        for theme in ("textual-dark", "textual-light", "nord", "gruvbox"):
            app.theme = theme
            await pilot.pause()
            dark = app.current_theme.dark
            read, unread = title_style(0), title_style(2)
            assert read.style is not None and unread.style is not None
            background = solid(read.style.bgcolor, Color(0, 0, 0) if dark else Color(255, 255, 255))
            read_color = solid(read.style.color, Color(255, 255, 255) if dark else Color(0, 0, 0))
            unread_color = solid(
                unread.style.color, Color(255, 255, 255) if dark else Color(0, 0, 0)
            )
            # quieter than a title still to read, by a visible step, and still legible
            assert contrast(read_color, background) < contrast(unread_color, background) - 1, theme
            assert contrast(read_color, background) >= 3, theme


async def test_a_hint_shows_the_piece_of_the_abstract_with_the_most_query_words(
    make_app: MakeApp, tmp_path: Path
) -> None:
    pad = "Some words that say little come here to pad the text out. "
    target = (
        "A study of phones and servers. Our devices run many tasks. "
        "Apps run federated learning on phones. "
        + pad * 3
        + "Clients keep privacy for federated averaging with secure aggregation. "
        + pad * 2
    )
    others = [
        f"Paper number {n} is about federated learning for topic {n}. " + pad * 2 for n in range(6)
    ]
    path = tmp_path / "hints.txt"
    path.write_text("Hints\n\n" + "\n\n".join([target, *others]) + "\n", "utf-8")
    app = make_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "federated learning privacy")
        paper_list = app.paper_list
        paper = app.papers[paper_list.rows[0]]
        assert paper.abstract == target.strip() and "federated" not in paper.title.lower()
        for theme in ("textual-dark", "textual-light"):
            app.theme = theme
            await pilot.pause()
            segments = quiet_line(app, 0)
            text = "".join(s.text for s in segments)
            # Not the first match ("federated learning on phones"): the piece where the words
            # the title lacks match together, each drawn as a match.
            assert "privacy for federated averaging" in text and "phones" not in text, text
            dark = app.current_theme.dark
            matched = [s.text for s in segments if visible_on_row(s, segments[0], dark)]
            assert matched == ["privacy", "federated"], (theme, matched)
        # A filler word of the query is no match in a hint.
        app.search_box.value = "privacy for phones"
        await settle(app, pilot)
        segments = quiet_line(app, 0)
        dark = app.current_theme.dark
        matched = [s.text for s in segments if visible_on_row(s, segments[0], dark)]
        assert "for" not in matched and "privacy" in matched, matched


async def test_a_row_number_keeps_a_cell_from_the_border_when_there_is_no_scrollbar(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(app, pilot)
        paper_list = app.paper_list
        assert not paper_list.show_vertical_scrollbar  # 19 papers fit
        content = paper_list.content_region
        # The screen as the user sees it, cell by cell: the rows, then the border.
        strips = app.screen._compositor.render_strips()
        rows = [
            strips[y].crop(content.x, content.right).text for y in range(content.y, content.bottom)
        ]
        borders = [
            strips[y].crop(content.right, content.right + 1).text
            for y in range(content.y, content.bottom)
        ]
        numbered = [i for i, text in enumerate(rows) if re.search(r"  #[0-9]+ *$", text)]
        assert len(numbered) == len(app.papers)
        for i in numbered:
            assert rows[i].endswith(" "), repr(rows[i])  # one cell before the border
            assert borders[i].strip(), repr(borders[i])  # the border itself


async def test_a_rows_number_reads_as_its_place_not_a_year_with_or_without_a_hint(
    make_app: MakeApp, tmp_path: Path
) -> None:
    """A list whose venue has no year (as the ICML 2020-2023 list): a row matched in its title
    (the venue alone at the left) and one matched in its abstract (the hint filling the line up
    to the venue) both end with the paper's place as "#N", never a bare number after "ICML"."""
    filler = " ".join(f"word{n} of the setting" for n in range(40))
    papers = [
        "A graph pooling operation based on Haar transforms. We study pooling.",
        f"We study robust clustering of points. {filler} and a graph of the points.",
        "An unrelated abstract about sampling. It says nothing more.",
    ]
    app = make_app(write_list(tmp_path, "ICML 2020-2023 paper list", papers))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "graph")
        lines = list_lines(app)
        quiet = [line for line in lines if "ICML" in line]
        assert len(quiet) == 2, lines
        assert any("…" in line for line in quiet) and any("…" not in line for line in quiet)
        for line in quiet:
            assert re.search(r"ICML {2,}#[12]$", line) or re.search(r"ICML\S* .* {2}#[12]$", line)
            assert not re.search(r"ICML +\d", line), line


async def test_at_80x24_a_search_row_keeps_most_of_its_line_for_the_title(
    make_app: MakeApp,
) -> None:
    """One line per paper: a row that matched in its abstract shows the title first and whole
    enough to tell the paper apart (two thirds of the line), then the words around the match,
    which stand out, to the line's end."""
    app = make_app(DERIVED_LIST)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "convergence")
        paper_list = app.paper_list
        assert paper_list.compact
        width = paper_list.scrollable_content_region.width
        shown_rows = [r for r in range(len(paper_list.rows)) if r < 8]
        hinted = [
            r for r in shown_rows if "converg" not in app.papers[paper_list.rows[r]].title.lower()
        ]
        assert len(hinted) >= 4
        for theme in THEMES:
            app.theme = theme
            await pilot.pause()
            dark = app.current_theme.dark
            for r in hinted:
                segments = quiet_line(app, r)
                line = "".join(s.text for s in segments).rstrip()
                assert line in list_lines(app), line  # the row as the screen shows it
                title_part, _, hint_part = line.partition("  …")
                title = app.papers[paper_list.rows[r]].title
                shown = title_part.removeprefix(" ● ≈ ").rstrip("…")
                assert title.startswith(shown), line
                assert len(shown) >= min(len(title), 2 * width // 3 - 8), line
                assert "converg" in hint_part.lower() and len(hint_part) >= 15, line
                # The hint runs to the row's end (the icons' cell aside): no room is left idle.
                assert len(line) >= width - 2, line
                matched = [s for s in segments if visible_on_row(s, segments[0], dark)]
                assert matched and all("converg" in s.text.lower() for s in matched), line


async def test_a_matched_method_name_reads_in_the_detail_panes_title_in_every_theme(
    make_app: MakeApp,
) -> None:
    """A search for a method ("bubblespec"): the pane's title draws the name as a match, its
    letters readable on the match's colour (they were the method's accent colour on it)."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "bubblespec")
        paper = app.current_paper
        assert paper is not None and paper.method == "BubbleSpec"
        detail = app.detail
        for theme in THEMES:
            app.theme = theme
            await pilot.pause()
            dark = app.current_theme.dark
            pane = solid(
                detail.rich_style.bgcolor, Color(0, 0, 0) if dark else Color(255, 255, 255)
            )
            title = [detail.render_line(y) for y in range(2)]
            named = [s for line in title for s in line if s.text == "BubbleSpec"]
            assert named, (theme, [line.text for line in title])
            for segment in named:
                assert segment.style is not None
                color = solid(segment.style.color, Color(255, 255, 255) if dark else Color(0, 0, 0))
                background = solid(segment.style.bgcolor, pane)
                assert contrast(background, pane) >= 3, theme
                assert contrast(color, background) >= 3, (theme, color, background)


async def test_a_hint_that_could_not_be_read_once_shows_when_the_abstract_reads_again(
    make_app: MakeApp,
) -> None:
    app = make_app(DERIVED_LIST)
    async with app.run_test(size=(120, 70)) as pilot:
        await settle(app, pilot)
        paper_list = app.paper_list
        read = paper_list.abstract_of
        failed: set[int] = set()

        def busy_once(index: int) -> str:
            # The list store busy (another process writing it) on each paper's first read:
            # every other reading of an abstract gives it.
            if index not in failed:
                failed.add(index)
                if len(failed) % 2:
                    raise sqlite3.OperationalError("database is locked")
                return ""
            return read(index)

        paper_list.abstract_of = busy_once
        app.search_box.value = "adversarial"
        await settle(app, pilot)
        rows = list(paper_list.rows)
        # The rows painted whose titles lack the word: their hints were asked for, and failed.
        abstract_only = [r for r, i in enumerate(rows) if i in failed]
        assert len(abstract_only) >= 3
        await pilot.pause(0.8)  # the rows are painted again once the store may answer
        screen = [paper_list.render_line(y).text for y in range(paper_list.size.height)]
        # the last row painted may be cut at the bottom, its quiet line below the screen
        top = paper_list.scroll_offset.y
        shown = range(top, top + paper_list.size.height)
        on_screen = [r for r in abstract_only if paper_list.row_lines(r)[-1] in shown]
        assert len(on_screen) >= 3
        for row in abstract_only:
            text = "".join(s.text for s in quiet_line(app, row))
            assert "…" in text and "adversar" in text.lower(), (row, text)
            if row in on_screen:
                assert text.rstrip() in [line.rstrip() for line in screen], (row, text)


async def test_a_made_up_title_shows_whole_where_its_row_has_room(
    make_app: MakeApp, tmp_path: Path
) -> None:
    """The list cuts a made-up title at about 90 characters; a row with room shows it whole,
    and at 80x24, one line a row, a word in its tail is the title's, not a hint repeating it."""
    source = Path(__file__).parent.parent / "data"
    zoo = (
        "With the development of deep networks on various large-scale datasets, a large "
        "zoo of pretrained models are available. We propose \\emph{Zoo-Tuning} to address "
        "these challenges, which learns to adaptively transfer the parameters of "
        "pretrained models to the target task. With the learnable channel alignment layer "
        "and adaptive aggregation layer, Zoo-Tuning adapts source models to downstream "
        "tasks. Experiments on a zoo of models show it is efficient."
    )
    others = (source / "abstracts_sample.txt").read_text(encoding="utf-8").split("\n\n")[1:9]
    path = write_list(tmp_path, "A list", [zoo, *others])
    app = make_app(path)
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(app, pilot)
        paper = app.papers[0]
        assert paper.cut_title and paper.whole_title.endswith("to the target task")
        shown = app.paper_list.row_text(0)
        assert "pretrained models to the target task" in shown and "…" not in shown, shown
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await search(app, pilot, "zoo target")
        assert app.paper_list.compact and app.paper_list.rows[0] == 0
        line = app.paper_list.row_text(0)
        # The title has both words: no hint after it saying its own tail again (as "…the
        # target task. With…" did after the title cut).
        assert "  …" not in line and "With" not in line, line


async def screen_at_120x40(path: Path, tmp_path: Path) -> str:
    """The reader's screen on the list at `path` once it is loaded, as text."""
    app = PaperdeckApp(
        load_library([path]),
        NotesStore(tmp_path / "notes.json"),
        settings_file=tmp_path / "settings.json",
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def test_a_made_up_title_starts_with_its_subject_not_an_aside_or_a_list_mark(
    tmp_path: Path,
) -> None:
    # Seen on the 5,000-paper list at 120x40: rows read "≈ (to our knowledge) the first
    # theoretical framework to analyze…" and "≈ (i) A lower bound which proves…".
    path = write_list(
        tmp_path,
        "A list",
        [
            "Federated Averaging is popular. We provide (to our knowledge) the first theoretical"
            " framework to analyze the convergence of FedAvg with cyclic client participation."
            " It works.",
            "Coresets compress data. In this work we provide: (i) A lower bound which proves"
            " that there are sets with no small coresets, and (ii) an algorithm. It works.",
        ],
    )
    shown = await screen_at_120x40(path, tmp_path)
    assert "≈ The first theoretical framework to analyze the convergence" in shown, shown
    assert "≈ A lower bound which proves that there are sets" in shown, shown
    assert "(to our knowledge)" not in shown.split("Abstract")[0]
    assert "(i) A lower" not in shown.split("Abstract")[0]


async def test_a_made_up_title_says_what_is_argued_not_the_clause_before_it(
    tmp_path: Path,
) -> None:
    # Seen on the 5,000-paper list: "we argue that, despite the community's emphasis on
    # large-scale environments, the traditional small-scale environments can still yield
    # valuable insights" was titled "≈ That, despite the community’s emphasis on large-scale
    # environments".
    path = write_list(
        tmp_path,
        "A list",
        [
            "Benchmarks are costly. In this work we argue that, despite the community's emphasis"
            " on large-scale environments, the traditional small-scale environments can still"
            " yield valuable scientific insights. It works.",
        ],
    )
    shown = await screen_at_120x40(path, tmp_path)
    assert "≈ The traditional small-scale environments can still yield" in shown, shown
    assert "≈ That, despite" not in shown

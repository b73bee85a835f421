"""Journeys through the reader with Textual's Pilot: what a user presses and what they then see."""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tests.xserver import private_display
from textual import events
from textual.color import Color

from paperdeck.core.errors import LoadError
from paperdeck.core.library import Library, LoadOptions, load_library
from paperdeck.core.notes.store import NotesStore
from paperdeck.core.resources import bundled_list
from paperdeck.core.search.index import SearchIndex, SearchResult
from paperdeck.core.search.stored import StoredAbstracts
from paperdeck.core.store import database
from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.contrast import contrast, solid
from paperdeck.ui.dialogs.citation_dialog import CitationDialog
from paperdeck.ui.dialogs.format_dialog import FormatDialog
from paperdeck.ui.dialogs.help_screen import KEY_NAMES, HelpScreen, binding_rows
from paperdeck.ui.dialogs.tags_dialog import TagsDialog
from paperdeck.ui.loading import BackgroundLoad

MakeApp = Callable[..., PaperdeckApp]


@pytest.fixture
def make_app(tmp_path: Path) -> MakeApp:
    """A reader on the bundled list (or `path`), notes and settings in the test's folder."""

    def make(path: Path | None = None, autosave_delay: float = 30.0) -> PaperdeckApp:
        library = load_library([path or bundled_list()])
        store = NotesStore(tmp_path / "notes.json")
        return PaperdeckApp(
            library,
            store,
            settings_file=tmp_path / "settings.json",
            autosave_delay=autosave_delay,
        )

    return make


@pytest.fixture
def long_list(tmp_path: Path) -> Path:
    """300 distinct papers made from the bundled abstracts, enough to scroll."""
    text = bundled_list().read_text(encoding="utf-8")
    abstracts = [part.strip() for part in text.split("\n\n")[1:] if part.strip()]
    papers = [f"{abstracts[i % len(abstracts)]} (Variant {i}.)" for i in range(300)]
    path = tmp_path / "long.txt"
    path.write_text("A long list\n\n" + "\n\n".join(papers) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def x_display() -> Iterator[str]:
    """A private X server (Xvfb) for the system clipboard through xclip."""
    if not shutil.which("Xvfb") or not shutil.which("xclip"):
        pytest.skip("needs Xvfb and xclip (apt-get install xvfb xclip)")
    with private_display() as display:
        yield display


@pytest.fixture
def x_clipboard_only(monkeypatch: pytest.MonkeyPatch, x_display: str) -> str:
    """The private X server's clipboard the only one the reader finds (no Wayland, no tmux)."""
    monkeypatch.setenv("DISPLAY", x_display)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("TMUX", raising=False)
    return x_display


def saved_notes(tmp_path: Path) -> dict[str, dict[str, object]]:
    data = json.loads((tmp_path / "notes.json").read_text(encoding="utf-8"))
    papers: dict[str, dict[str, object]] = data["papers"]
    return papers


def row_text(app: PaperdeckApp, row: int) -> str:
    """Every line of a shown paper's row: title, then authors · venue · tags · icons."""
    return app.paper_list.row_text(row)


def screen_line(app: PaperdeckApp, y: int) -> str:
    """One line of the list as it is on screen (`y` from the list's first visible line)."""
    return app.paper_list.render_line(y).text


def header_text(app: PaperdeckApp) -> str:
    return str(app.query_one("#header").render())


async def settle(app: PaperdeckApp, pilot: object) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()  # type: ignore[attr-defined]


async def type_text(pilot: object, text: str) -> None:
    await pilot.press(*[{" ": "space"}.get(c, c) for c in text])  # type: ignore[attr-defined]


# --- browsing -------------------------------------------------------------------------------


async def test_browse_moves_the_cursor_and_the_detail_follows(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        papers = app.papers
        assert app.screen.focused is app.paper_list
        assert papers[0].title in app.detail.text
        assert "19 papers · 0 noted · 0 starred" in header_text(app)
        await pilot.press("j", "j")
        assert app.current_paper is papers[2]
        assert papers[2].title in app.detail.text
        assert "Abstract" in app.detail.text
        await pilot.press("G")
        assert app.current_paper is papers[-1]
        await pilot.press("k")
        assert app.current_paper is papers[-2]
        await pilot.press("g")
        assert app.current_paper is papers[0]
        await pilot.press("end", "home", "down")
        assert app.current_paper is papers[1]
        # The first row shows the unread marker and the real title, then a quieter line with
        # the authors, the venue and the paper's position at its end.
        title_line, *_, meta_line = row_text(app, 0).splitlines()
        assert title_line.startswith(" ● " + papers[0].title[:20])
        assert papers[0].authors[0] in meta_line and "ICML 2026" in meta_line
        assert meta_line.rstrip().endswith(" #1")


async def test_click_selects_and_wheel_scrolls(make_app: MakeApp, long_list: Path) -> None:
    app = make_app(long_list)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(app, pilot)
        paper_list = app.paper_list
        # What the user sees on the clicked screen line (the list's border is above row 0).
        seen = screen_line(app, 5 - paper_list.gutter.top)
        await pilot.click("#papers", offset=(10, 5))
        clicked = paper_list.cursor
        assert clicked > 0
        assert app.current_paper is app.papers[clicked]
        # The clicked line is one of that paper's row's lines.
        assert seen in row_text(app, clicked).splitlines()
        assert 5 - paper_list.gutter.top in paper_list.row_lines(clicked)
        assert app.papers[clicked].title[:30] in app.detail.text
        assert paper_list.scroll_y == 0
        for _ in range(3):
            paper_list.post_message(
                events.MouseScrollDown(paper_list, 5, 5, 0, 0, 0, False, False, False)
            )
            await pilot.pause()
        assert paper_list.scroll_y > 0
        assert app.current_paper is app.papers[clicked]


async def test_page_keys_and_a_long_list(make_app: MakeApp, long_list: Path) -> None:
    app = make_app(long_list)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(app, pilot)
        paper_list = app.paper_list
        height = paper_list.scrollable_content_region.height
        per_row = len(paper_list.row_lines(0))
        await pilot.press("pagedown")
        # A page of rows further on, and on screen.
        assert paper_list.cursor == height // per_row
        assert paper_list.scroll_y > 0
        lines = paper_list.row_lines(paper_list.cursor)
        assert paper_list.scroll_y <= lines.start and lines.stop <= paper_list.scroll_y + height
        await pilot.press("pageup")
        assert paper_list.cursor == 0
        await pilot.press("G")
        assert paper_list.cursor == 299
        # The last row's quiet line is the last line on screen; it ends with its position.
        assert screen_line(app, height - 1).rstrip().endswith(" #300")


# --- search ---------------------------------------------------------------------------------


async def test_search_filters_highlights_and_clears(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        assert app.screen.focused is app.search_box
        await type_text(pilot, "speculative decoding")
        await settle(app, pilot)
        titles = [app.papers[i].title for i in app.paper_list.rows]
        assert len(titles) == 2
        assert {"BubbleSpec", "SafeSpec"} == {t.split(":")[0] for t in titles}
        assert "2 / 19" in header_text(app)
        # Typing never fired the printable bindings (s star, c cite, ...).
        assert not any(entry.starred for entry in app.store.entries.values())
        # The match is highlighted in the detail pane's text: its own background.
        detail = app.detail
        pane = detail.rich_style.bgcolor
        shown = [detail.render_line(y) for y in range(detail.scrollable_content_region.height)]
        assert any(
            segment.text.lower() in ("speculative", "decoding")
            and segment.style is not None
            and segment.style.bgcolor not in (None, pane)
            for line in shown
            for segment in line
        )
        await pilot.press("enter")
        assert app.screen.focused is app.paper_list
        await pilot.press("slash", "escape")
        await settle(app, pilot)
        assert len(app.paper_list.rows) == 19
        assert "19 papers" in header_text(app)
        assert app.screen.focused is app.paper_list
        # ↑ in the search field recalls the earlier search.
        await pilot.press("slash", "up")
        assert app.search_box.value == "speculative decoding"
        await pilot.press("down")
        await settle(app, pilot)
        assert app.screen.focused is app.paper_list
        assert len(app.paper_list.rows) == 2


async def test_slash_starts_a_new_search_over_the_one_shown(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "speculative")
        await pilot.press("enter")
        # The query stays in the field; "/" and new words replace it (they were appended:
        # "speculativeprivacy").
        await pilot.press("slash")
        await type_text(pilot, "privacy")
        await settle(app, pilot)
        assert app.search_box.value == "privacy"
        assert "1 / 19" in header_text(app)  # the privacy paper, found
        # End (or →) keeps it, to refine it.
        await pilot.press("enter", "slash", "end")
        await type_text(pilot, " cross")
        assert app.search_box.value == "privacy cross"
        # The selected query stands out from the field in themes whose own tint did not.
        await pilot.press("enter", "slash")
        for theme in ("gruvbox", "monokai", "nord", "textual-light"):
            app.theme = theme
            await pilot.pause()
            line = list(app.search_box.render_line(0))
            query = next(i for i, segment in enumerate(line) if "privacy" in segment.text)
            selected, field = line[query].style, line[query - 1].style
            assert selected is not None and field is not None
            assert selected.bgcolor and field.bgcolor and selected.color
            shade = Color.from_rich_color(selected.bgcolor)
            assert contrast(shade, Color.from_rich_color(field.bgcolor)) >= 2.5, theme
            assert contrast(Color.from_rich_color(selected.color), shade) >= 4.5, theme


async def test_esc_in_the_list_clears_the_search_and_keeps_the_paper(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "speculative decoding")
        await settle(app, pilot)
        await pilot.press("enter", "j")  # to the list, on the second result
        chosen = app.current_paper
        assert chosen is not None and "2 / 19" in header_text(app)
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.screen.focused is app.paper_list
        assert "19 papers" in header_text(app) and app.search_box.value == ""
        # The paper found stays under the cursor, on screen, now among all the others.
        assert app.current_paper is chosen
        assert chosen.title[:30] in "".join(
            screen_line(app, y) for y in range(app.paper_list.size.height)
        )
        # The search is one ↑ away in the field; Esc there clears it the same way.
        await pilot.press("slash", "up", "enter", "g")
        await settle(app, pilot)
        first = app.current_paper
        assert first is not None and first is not chosen and "2 / 19" in header_text(app)
        await pilot.press("slash", "escape")
        await settle(app, pilot)
        assert app.current_paper is first and "19 papers" in header_text(app)
        assert first.title[:30] in "".join(
            screen_line(app, y) for y in range(app.paper_list.size.height)
        )


def search_box_line(app: PaperdeckApp) -> str:
    """The empty search box's line as drawn (its placeholder)."""
    box = app.search_box
    return "".join(box.render_line(y).text for y in range(box.size.height)).strip()


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
async def test_the_search_hint_offers_a_year_the_list_has(
    make_app: MakeApp, tmp_path: Path, size: tuple[int, int]
) -> None:
    text = bundled_list().read_text(encoding="utf-8")
    abstracts = [part.strip() for part in text.split("\n\n")[1:] if part.strip()]
    spans = tmp_path / "spans.txt"  # a header naming years, papers of no year
    spans.write_text("ICML 2020-2023 paper list\n\n" + "\n\n".join(abstracts), encoding="utf-8")
    years = tmp_path / "years.jsonl"  # papers of 2020 and 2022
    years.write_text(
        "".join(
            json.dumps({"abstract": a, "title": f"Paper {i}", "year": 2020 + 2 * (i % 2)}) + "\n"
            for i, a in enumerate(abstracts)
        ),
        encoding="utf-8",
    )
    for path, hint in ((None, "year:2026"), (spans, "is:unread"), (years, "year:2022")):
        app = make_app(path)
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            line = search_box_line(app)
            assert line.endswith(f"title: {hint}"), line
            assert "year:2026" not in line or path is None
            # What it offers finds papers.
            await pilot.press("slash", *hint, "enter")
            await settle(app, pilot)
            assert app.paper_list.rows, hint


async def test_the_search_hint_is_readable_in_every_theme(make_app: MakeApp) -> None:
    # The hint is how a new user learns the search syntax: Textual's own placeholder colour
    # read 2.6:1 on the field in textual-light, 2.9:1 in nord.
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        # The ANSI themes leave the colours to the terminal (the hint is dim there).
        themes = sorted(name for name in app.available_themes if not name.startswith("ansi-"))
        assert len(themes) > 10
        for theme in themes:
            app.theme = theme
            for keys in ((), ("slash",), ("escape",)):  # as first seen, focused, left
                await pilot.press(*keys)
                await pilot.pause()
                strips = app.screen._compositor.render_strips()
                hint = [s for strip in strips for s in strip if "'exact, !not" in s.text]
                assert len(hint) == 1 and hint[0].style is not None, (theme, keys)
                white, black = Color(255, 255, 255), Color(0, 0, 0)
                dark = app.current_theme.dark
                background = solid(hint[0].style.bgcolor, black if dark else white)
                color = solid(hint[0].style.color, white if dark else black)
                assert contrast(color, background) >= 4.5, (theme, keys)


async def test_search_on_an_index_built_by_helper_processes_then_kept_and_reopened(
    make_app: MakeApp, long_list: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("PAPERDECK_CACHE", str(cache))
    monkeypatch.setenv("PAPERDECK_HELPERS", "2")  # titles and index, each in 3 parts
    app = make_app(long_list)
    with monkeypatch.context() as patch:
        patch.setenv("PAPERDECK_HELPERS", "0")
        patch.setenv("PAPERDECK_CACHE", "off")
        expected = list(SearchIndex(app.papers).search("speculative decoding").indices)
    assert len(expected) > 20
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "speculative decoding")
        await settle(app, pilot)
        assert list(app.paper_list.rows) == expected
        assert f"{len(expected)} / 300" in header_text(app)
        # Kept in the list store by a thread once the index answered.
        deadline = time.monotonic() + 20
        while not _kept_postings(cache) and time.monotonic() < deadline:
            await pilot.pause(0.05)
        assert _kept_postings(cache)
    # The next reader on the list opens the kept index: nothing is built again.
    again = make_app(long_list)
    async with again.run_test(size=(120, 40)) as pilot:
        await settle(again, pilot)
        assert again.search.index is not None
        assert isinstance(again.search.index.word_index.abstracts, StoredAbstracts)
        await pilot.press("slash")
        await type_text(pilot, "speculative decoding")
        await settle(again, pilot)
        assert list(again.paper_list.rows) == expected


async def test_a_big_lists_index_scores_queries_as_arrays_once_it_answers(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader searches its list on every key: once the index answers, numpy is imported on a
    thread, so the queries of a big list are scored as arrays (a one-off command's dicts are
    no faster there)."""
    from paperdeck.core.search import arrays

    app = make_app()
    expected = list(SearchIndex(app.papers).search("speculative decoding").indices)
    prepared: list[tuple[int, bool]] = []
    real = arrays.prepare

    def prepare(papers: int) -> bool:
        done = real(papers)
        prepared.append((papers, done))
        return done

    monkeypatch.setattr(arrays, "prepare", prepare)
    monkeypatch.setattr(arrays, "ARRAYS_FROM", 10)  # this list of 19 is a big one here
    monkeypatch.setattr(arrays, "ARRAYS_BEFORE_IMPORT_FROM", 10**9)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        deadline = time.monotonic() + 20
        while not prepared and time.monotonic() < deadline:
            await pilot.pause(0.05)
        assert prepared == [(len(app.papers), True)]
        assert app.search.index is not None and app.search.index.arrays_prepared
        await pilot.press("slash")
        await type_text(pilot, "speculative decoding")
        await settle(app, pilot)
        assert list(app.paper_list.rows) == expected
        assert f"{len(expected)} / 19" in header_text(app)


def _kept_postings(cache: Path) -> int:
    store = cache / database.FILE_NAME
    if not store.exists():
        return 0
    with contextlib.closing(sqlite3.connect(store)) as db:
        return int(db.execute("SELECT count(*) FROM postings").fetchone()[0])


async def test_a_new_query_shows_its_best_paper_and_a_same_query_keeps_the_cursor(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("end")  # the last paper: it has some of the words below
        last = app.paper_list.paper_index
        await pilot.press("slash")
        # Typed faster than a search takes (pasted): only the whole query is searched.
        app.search_box.value = "speculative decoding models"
        await settle(app, pilot)
        rows = list(app.paper_list.rows)
        assert last in rows[app.paper_list.divider or 0 :]  # matched, below the divider
        # fzf-like: the list starts at the best match, not at the paper seen before.
        assert app.paper_list.cursor == 0
        assert app.current_paper is app.papers[rows[0]]
        assert "Spec" in app.papers[rows[0]].title
        await pilot.press("enter", "down", "down")
        chosen = app.paper_list.paper_index
        app.search.run(app.search.query)  # the same query again (a mark, a view, more papers)
        await settle(app, pilot)
        assert app.paper_list.paper_index == chosen


async def test_keys_typed_in_a_burst_land_in_the_search_field(make_app: MakeApp) -> None:
    # A paste or a fast typist: "/" and the query arrive before the reader has repainted.
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app._driver is not None
        for key, character in [("slash", "/"), ("s", "s"), ("a", "a"), ("f", "f"), ("e", "e")]:
            app._driver.send_message(events.Key(key, character))
        await settle(app, pilot)
        assert app.search_box.value == "safe"
        assert not app.store.entries  # the "s" did not star anything
        await pilot.press("slash", "n")
        assert app.search_box.value == "safe/n"
        await pilot.press("escape", "n", "slash", "n")
        assert app.notes.editor.text == "/n"


async def test_a_search_with_no_match_says_so(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "zzqqxx")
        await settle(app, pilot)
        assert len(app.paper_list.rows) == 0
        assert "No papers match" in screen_line(app, 0)
        assert "0 / 19" in header_text(app)
        assert "No paper selected" in app.detail.text


async def test_a_phrase_with_a_word_no_paper_has_says_to_drop_the_quotes(
    make_app: MakeApp,
) -> None:
    # Seen at 80x24: a half-remembered phrase with a typo, '"layred sampling"', listed nothing
    # and said only "No papers match"; without the quotes the typo finds the paper.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, '"speculatve rollout"')
        await settle(app, pilot)
        assert len(app.paper_list.rows) == 0
        lines = [screen_line(app, y).strip() for y in range(3)]
        assert lines == [
            """No papers match '"speculatve rollout"'""",
            'No paper has "speculatve": a phrase is matched as typed',
            "Drop the quotes to allow typos",
        ]
        assert all(len(line) <= app.paper_list.size.width for line in lines)
        # The quotes dropped: the typo finds the paper.
        await pilot.press("ctrl+u")
        await type_text(pilot, "speculatve rollout")
        await settle(app, pilot)
        assert app.papers[app.paper_list.rows[0]].title.startswith("BubbleSpec")
        # A phrase spelt right that no paper has says nothing more.
        await pilot.press("ctrl+u")
        await type_text(pilot, '"rollout speculative"')
        await settle(app, pilot)
        assert screen_line(app, 0).strip() == """No papers match '"rollout speculative"'"""
        assert not screen_line(app, 1).strip()


async def test_a_filter_on_what_the_list_lacks_says_why_nothing_matches(
    make_app: MakeApp,
) -> None:
    sample = Path(__file__).parents[1] / "data" / "abstracts_sample.txt"  # a list without years
    app = make_app(sample)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "year:2021")
        await settle(app, pilot)
        assert len(app.paper_list.rows) == 0
        assert screen_line(app, 0).strip() == "No papers match 'year:2021'"
        assert screen_line(app, 1).strip() == "No paper in this list has a year"
        # A word no paper has is only said not to match: the list has titles.
        await pilot.press("ctrl+u")
        await type_text(pilot, "zzqqxx")
        await settle(app, pilot)
        assert screen_line(app, 0).strip().endswith("No papers match 'zzqqxx'")
        assert screen_line(app, 1).strip() == ""


# --- notes ----------------------------------------------------------------------------------


async def test_note_survives_switching_papers_and_is_saved(
    make_app: MakeApp, tmp_path: Path
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        first = app.papers[0]
        await pilot.press("n")
        assert app.screen.focused is app.notes.editor
        await type_text(pilot, "read the proofs")
        assert "unsaved" in str(app.query_one("#notes-status").render())
        # Printable keys typed into the note never star, tag or quit.
        await type_text(pilot, " sqrt")
        await pilot.press("escape")
        assert app.screen.focused is app.paper_list
        await pilot.press("j")
        assert app.notes.editor.text == ""
        await pilot.press("k")
        assert app.notes.editor.text == "read the proofs sqrt"
        assert saved_notes(tmp_path)[first.id]["note"] == "read the proofs sqrt"
        assert "saved" in str(app.query_one("#notes-status").render())
        assert "✎" in row_text(app, 0)
        assert "1 noted" in header_text(app)
        entry = app.store.get(first)
        assert entry is not None and not entry.starred


async def test_a_note_reads_whole_after_leaving_it_and_writing_it_again(
    make_app: MakeApp,
) -> None:
    """The side is wide while the note is written and narrow after Esc: the note's lines as
    the screen shows them are wrapped to the width they have, never cut at the edge."""
    note = "check the layered sampling bound against feldman coresets then try robust kmeans"
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)

        def note_on_screen() -> list[str]:
            strips = app.screen._compositor.render_strips()
            region = app.notes.editor.content_region
            lines = [strip.text[region.x : region.right] for strip in strips]
            return [line.strip() for line in lines[region.y : region.bottom] if line.strip()]

        await pilot.press("n")
        wide = app.notes.editor.content_region.width
        await type_text(pilot, note)
        await pilot.pause()
        assert " ".join(note_on_screen()) == note
        await pilot.press("escape")
        await pilot.pause()
        assert app.notes.editor.content_region.width < wide
        shown = note_on_screen()
        assert " ".join(shown) == note and len(shown) >= 2, shown
        await pilot.press("n")  # wide again
        await pilot.pause()
        assert app.notes.editor.content_region.width == wide
        assert " ".join(note_on_screen()) == note


async def test_a_short_pane_shows_its_paper_from_the_top_again_after_a_note(
    make_app: MakeApp,
) -> None:
    """At 80x24 the detail pane scrolls to the abstract while a note is written; after Esc it
    shows the paper as before, from its title, not scrolled down past it."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        title_words = app.papers[0].title.split(":")[0]

        def detail_on_screen() -> str:
            strips = app.screen._compositor.render_strips()
            region = app.detail.content_region
            return "\n".join(
                strip.text[region.x : region.right] for strip in strips[region.y : region.bottom]
            )

        assert title_words in detail_on_screen()
        await pilot.press("n")
        await type_text(pilot, "check the bound")
        await pilot.pause()
        assert app.detail.scroll_y > 0  # the abstract, to write about
        await pilot.press("escape")
        await pilot.pause()
        assert app.detail.scroll_y == 0
        assert title_words in detail_on_screen()
        entry = app.store.get(app.papers[0].id)
        assert entry is not None and entry.note == "check the bound"


async def test_note_autosaves_after_typing_stops(make_app: MakeApp, tmp_path: Path) -> None:
    app = make_app(autosave_delay=0.3)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        await type_text(pilot, "draft")
        await pilot.pause(0.6)
        assert saved_notes(tmp_path)[app.papers[0].id]["note"] == "draft"
        assert app.screen.focused is app.notes.editor


async def test_quit_saves_what_was_typed(make_app: MakeApp, tmp_path: Path) -> None:
    app = make_app(autosave_delay=60.0)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "n")
        await type_text(pilot, "last words")
        # Ctrl+Q quits from inside the editor, without leaving it first.
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_value == 0
    assert saved_notes(tmp_path)[app.papers[1].id]["note"] == "last words"


async def test_ctrl_q_quits_from_the_search_field(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "sq")
        assert app.search_box.value == "sq"
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_value == 0


async def test_a_save_error_is_shown_and_the_text_kept(make_app: MakeApp, tmp_path: Path) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        app.store.path = tmp_path / "not-a-folder" / "notes.json"
        (tmp_path / "not-a-folder").write_text("a file where a folder should be")
        await pilot.press("n")
        await type_text(pilot, "keep me")
        await pilot.press("escape")
        status = str(app.query_one("#notes-status").render())
        assert "not saved" in status
        await pilot.press("j", "k")
        assert app.notes.editor.text == "keep me"
        # q refuses once while the notes are unsaved, and says why.
        await pilot.press("q")
        assert app.is_running
        assert any("not saved" in n.message for n in app._notifications)


# --- star, read state, tags -----------------------------------------------------------------


# --- citations ------------------------------------------------------------------------------


async def test_cite_without_a_clipboard_shows_the_citation(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "TMUX", "STY", "SSH_CONNECTION", "SSH_TTY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no xclip, xsel, wl-copy ...
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "j", "j", "c")
        await settle(app, pilot)
        assert isinstance(app.screen, CitationDialog)
        assert app.last_copied.startswith("@inproceedings{")
        assert "BubbleSpec" in app.last_copied
        # Each reason a sentence of its own ("… cannot confirm it. no system clipboard: …" read
        # as a typo): the core's reasons, lower case to follow a colon, follow one.
        hint = " ".join(str(static.render()) for static in app.screen.query(".dialog-hint"))
        assert (
            "Sent to the terminal, which cannot confirm it. Not copied anywhere else: no system"
            " clipboard: neither DISPLAY nor WAYLAND_DISPLAY is set" in hint
        )
        target = tmp_path / "out.bib"
        app.screen.write_file(str(target))
        await pilot.pause()
        assert "BubbleSpec" in target.read_text(encoding="utf-8")
        assert not isinstance(app.screen, CitationDialog)


async def test_choose_a_format_mark_papers_and_copy_them(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("DISPLAY", raising=False)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("C")
        assert isinstance(app.screen, FormatDialog)
        formats = [name for name, _ in app.format_names()]
        await pilot.press(*["down"] * formats.index("markdown"), "enter")
        assert app.settings.citation_format == "markdown"
        assert json.loads((tmp_path / "settings.json").read_text())["citation_format"] == "markdown"
        await pilot.press("space", "space")
        assert "2 marked" in header_text(app)
        await pilot.press("c")
        await settle(app, pilot)
        lines = app.last_copied.strip().splitlines()
        assert len(lines) == 2 and all(line.startswith("[") for line in lines)
        assert app.papers[0].title in lines[0] and app.papers[1].title in lines[1]
        # The marks stay, as after r, s and t: the same papers can be exported next.
        assert "2 marked" in header_text(app)
        assert app.paper_list.selected_indices() == [0, 1]


@pytest.mark.slow
async def test_a_copied_citation_with_gaps_is_one_notice_at_80x24(
    make_app: MakeApp, x_clipboard_only: str
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        anonymous = next(i for i, paper in enumerate(app.papers) if not paper.authors)
        await pilot.press(*["j"] * anonymous, "c")
        await settle(app, pilot)
        await pilot.pause(0.2)
        await pilot.pause()
        await pilot.pause()
        # Copied, and what it lacks, said once: two toasts stacked hid half the abstract.
        shown_toasts = [toast for toast in app.screen.query("Toast") if toast.region.area]
        assert len(shown_toasts) == 1, [str(toast.render()) for toast in shown_toasts]
        said = str(shown_toasts[0].render())
        assert said.startswith("Copied BibTeX for ") and "Incomplete: " in said
        assert "no authors" in said
        detail = app.query_one("#detail")
        assert shown_toasts[0].region.area < detail.region.area // 2


@pytest.mark.slow
async def test_cite_with_the_x_clipboard(make_app: MakeApp, x_clipboard_only: str) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "j", "j", "c")
        await settle(app, pilot)
        await pilot.pause(0.2)
        assert not isinstance(app.screen, CitationDialog)
        messages = [n.message for n in app._notifications]
        assert any(m.startswith("Copied BibTeX for “BubbleSpec") for m in messages), messages
        assert any("the system clipboard" in m for m in messages)
    copied = subprocess.run(
        ["xclip", "-display", x_clipboard_only, "-o", "-selection", "clipboard"],
        capture_output=True,
        text=True,
        timeout=5,
        check=True,
    ).stdout
    assert copied.startswith("@inproceedings{") and "BubbleSpec" in copied


# --- help, palette, settings ----------------------------------------------------------------


async def test_help_screen_lists_the_keys(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = "\n".join(str(column.render()) for column in app.screen.query(".help-column"))
        for expected in ("Star", "Search", "Cite", "j ↓", "PgDn", "Esc", "Ctrl+P", "is:starred"):
            assert expected in text
        # Space's line says what marks are for ("Mark" said nothing of e, r, s, t, c).
        assert "Space        Mark (for e r s t c)" in text.splitlines(), text
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
async def test_help_lines_fit_their_column_and_name_keys_as_typed(
    make_app: MakeApp, size: tuple[int, int]
) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        columns = list(app.screen.query(".help-column"))
        text = "\n".join(str(column.render()) for column in columns)
        lines = text.splitlines()
        assert "*            Starred only" in lines and "asterisk" not in text
        assert "ANDed" not in text and "every word first" in text
        # Nothing wraps on screen: a long description goes on under itself, not under its keys.
        for column in columns:
            assert column.region.height == len(str(column.render()).splitlines())
        at = lines.index("Ctrl+P       Commands: theme, sort")
        assert lines[at + 1] == " " * 13 + "order, export notes,"
        # Every key of the list on one line (a triage run's 80x24 help wrapped i's "Invert
        # marks (shown papers)", a line more to scroll past).
        for keys, description in binding_rows(app.BINDINGS, KEY_NAMES):
            assert f"{keys:<12} {description}" in lines, description
        await pilot.press("escape")


async def test_help_at_80x24_says_it_scrolls_and_scrolls_to_every_key(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        body = app.screen.query_one("#help-body")

        def on_screen() -> str:
            strips = app.screen._compositor.render_strips()
            return "\n".join("".join(segment.text for segment in strip) for strip in strips)

        # What closes the screen, and that more is below, are in sight at once.
        seen = on_screen()
        assert "more keys below" in seen and "Esc, q or ? closes" in seen
        assert "Export a reading list" not in seen
        await pilot.press("pagedown", "pagedown", "pagedown")
        await pilot.pause()
        assert body.scroll_y == body.max_scroll_y > 0
        seen = on_screen()
        assert "more keys below" not in seen and "Esc, q or ? closes" in seen
        for last in ("Export a reading list", "Open PDF", "like:starred"):
            assert last in seen
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_the_footer_keys_read_on_the_footer_in_every_theme(make_app: MakeApp) -> None:
    # The footer draws each key in the theme's accent: pale ochre on atom-one-light's grey
    # (1.8:1), orange on catppuccin-latte's (1.9:1), the keys a new user learns there; and
    # what each does muted: 3.4:1 in atom-one-dark and both solarized themes.
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        for theme in app.available_themes:
            app.theme = theme
            await pilot.pause()
            footer = app.screen._compositor.render_strips()[-1]
            keys = [s for s in footer if s.text.strip() in ("?", "q", "/", "space", "e", "^p")]
            assert len(keys) == 6, (theme, footer.text)
            labels = [s for s in footer if s.text.strip() in ("Help", "Quit", "Export")]
            assert len(labels) == 3, (theme, footer.text)
            keys += labels
            for segment in keys:
                style = segment.style
                assert style is not None and style.color is not None and style.bgcolor
                if style.color.is_system_defined:
                    continue  # ansi-*: the terminal's own colours
                ink, ground = (Color.from_rich_color(c) for c in (style.color, style.bgcolor))
                ratio = contrast(ink, ground)
                assert ratio >= 4.5, (theme, segment.text, round(ratio, 2))


@pytest.mark.parametrize("size", [(80, 24), (99, 30), (120, 40)])
async def test_every_footer_key_is_whole_on_screen(
    make_app: MakeApp, size: tuple[int, int]
) -> None:
    from textual.widgets._footer import FooterKey

    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        keys = list(app.screen.query(FooterKey))
        shown = [key for key in keys if key.region.width]
        described = {key.description for key in shown}
        # At 80 columns e, *, x had no room: a new user could not find how to export.
        assert {"Help", "Quit", "Search", "Read", "Star", "Mark", "Skip", "Export"} <= described
        assert "Cite" in described and ("Starred" in described) == (size[0] >= 99)
        footer = app.screen._compositor.render_strips()[-1].text
        for said in ("? Help", "q Quit", "r Read", "space Mark", "x Skip", "e Export", "c Cite"):
            assert said in footer, footer
        cells = [x for key in shown for x in range(key.region.x, key.region.right)]
        assert len(cells) == len(set(cells)) and max(cells) < size[0]
        for key in shown:
            assert key.region.width >= len(key.render().plain), key.description
        assert ("palette" in described) == (size[0] >= 100)


async def test_footer_keys_widened_after_their_fit_are_fitted_again(make_app: MakeApp) -> None:
    """The screen's breakpoint class, which sets the keys' padding, can be applied after the
    fit that followed a resize: in CI the keys were fitted with the narrow padding at 120
    columns and then took 129 cells. A key whose width changes has the footer fit again."""
    from textual.widgets._footer import FooterKey

    from paperdeck.ui.widgets.keys_footer import KeysFooter

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        screen = app.screen
        screen.set_class(True, "-narrow")
        screen.set_class(False, "-wide")
        await settle(app, pilot)
        app.query_one(KeysFooter)._fit()  # fitted while the narrow padding holds
        await settle(app, pilot)
        screen.set_class(False, "-narrow")
        screen.set_class(True, "-wide")
        await settle(app, pilot)
        await pilot.pause(0.1)
        shown = [key for key in screen.query(FooterKey) if key.region.width]
        cells = [x for key in shown for x in range(key.region.x, key.region.right)]
        assert len(cells) == len(set(cells)) and max(cells) < 120
        for key in shown:
            assert key.region.width >= len(key.render().plain), key.description


async def test_the_footer_says_more_where_it_has_room_and_fits_again_when_narrowed(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        footer = app.screen._compositor.render_strips()[-1].text
        assert "r Read+next" in footer and "* Starred only" in footer, footer
        assert "space Mark" in footer and "^p palette" in footer, footer
        await pilot.resize_terminal(80, 24)
        await settle(app, pilot)
        await pilot.pause(0.1)
        footer = app.screen._compositor.render_strips()[-1].text
        assert footer.startswith("? Help q Quit / Search r Read s Star space Mark x Skip"), footer
        assert "e Export" in footer and "palette" not in footer, footer


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_footer_offers_space_to_pick_papers_beside_star(
    make_app: MakeApp, size: tuple[int, int]
) -> None:
    """Picking papers with space is how a user picks 40 to export: the footer named it only
    from 140 columns, after the views."""
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        footer = app.screen._compositor.render_strips()[-1].text
        assert "s Star space Mark x Skip" in " ".join(footer.split()), footer
        await pilot.press("space", "space")
        await settle(app, pilot)
        assert "2 marked" in str(app.query_one("#header").render())
        footer = app.screen._compositor.render_strips()[-1].text
        assert "space Mark" in footer and "e Export" in footer, footer


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 50)])
async def test_while_papers_are_marked_the_footer_says_which_keys_act_on_them(
    make_app: MakeApp, size: tuple[int, int]
) -> None:
    """40 papers marked for an export, `s` starred all of them and `c` copied 40 citations
    where a new user meant the paper under the cursor: the footer said "s Star"."""
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("space", "space")
        await settle(app, pilot)
        footer = " ".join(app.screen._compositor.render_strips()[-1].text.split())
        if size[0] >= 200:
            assert "r Read 2 marked s Star 2 marked space Mark" in footer, footer
            assert "c Cite 2 marked" in footer, footer
        else:
            assert "r Read ×2 s Star ×2 space Mark" in footer and "c Cite ×2" in footer, footer
        assert "e Export" in footer, footer
        await pilot.press("A")
        await settle(app, pilot)
        footer = " ".join(app.screen._compositor.render_strips()[-1].text.split())
        assert " Star space Mark" in footer or " Star+next space Mark" in footer, footer
        assert "2" not in footer, footer


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 40), (200, 50)])
async def test_with_papers_marked_the_footer_keeps_tags_before_skip_and_the_views(
    make_app: MakeApp, size: tuple[int, int]
) -> None:
    """19 papers marked to be tagged `to-read`: at 120 columns the footer left out `t Tags ×19`
    and kept `x Skip` and `* Starred`, which act on no marked paper."""
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("a")
        await settle(app, pilot)
        footer = " ".join(app.screen._compositor.render_strips()[-1].text.split())
        for less_needed in ("x Skip", "* Starred", "n Note"):
            if less_needed in footer:
                assert "t Tag" in footer, footer
        if size[0] >= 120:
            assert "t Tags ×19" in footer or "t Tag 19 marked" in footer, footer
        assert "e Export" in footer and "c Cite" in footer, footer
        await pilot.press("A")
        await settle(app, pilot)
        footer = " ".join(app.screen._compositor.render_strips()[-1].text.split())
        assert "×" not in footer and "marked" not in footer, footer


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_search_fields_footer_offers_the_list_with_the_results(
    make_app: MakeApp, size: tuple[int, int]
) -> None:
    from textual.widgets._footer import FooterKey

    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "learning")
        await settle(app, pilot)
        shown = {
            key.description: key.key for key in app.screen.query(FooterKey) if key.region.width
        }
        assert shown.get("To the list") == "enter" and shown.get("Clear search") == "escape"
        found = app.search.filtered
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen.focused is app.paper_list
        assert app.search.filtered == found and found is not None and found < len(app.papers)


async def test_sort_and_theme_are_remembered(make_app: MakeApp, tmp_path: Path) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        app.set_sort("list")
        app.theme = "nord"
        await settle(app, pilot)
        # Named once a search orders the list (with none, every order is the list's).
        assert "sort:" not in header_text(app)
        await pilot.press("slash", *"learning", "enter")
        await settle(app, pilot)
        assert "sort: list order" in header_text(app)
    settings = json.loads((tmp_path / "settings.json").read_text(encoding="utf-8"))
    assert settings["sort"] == "list" and settings["theme"] == "nord"
    again = make_app()
    async with again.run_test(size=(120, 40)) as pilot:
        await settle(again, pilot)
        assert again.theme == "nord"
        assert again.settings.sort == "list"


async def test_command_palette_offers_the_reader_commands(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        for expected in (
            "Theme",
            "Sort: relevance",
            "Sort: list order",
            "Sort: recently noted",
            "Export notes",
            "Open another list",
            "Copy as…",
            "Rows: one line / two lines",
        ):
            assert expected in titles
        # One entry asks for the format: Sort, Theme and Export stay above the palette's fold.
        assert not [title for title in titles if title.startswith("Copy as ")]


async def test_export_and_open_another_list(
    make_app: MakeApp, tmp_path: Path, long_list: Path
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        await type_text(pilot, "exported note")
        await pilot.press("escape")
        target = tmp_path / "export.md"
        app.export_notes_to(target)
        assert "exported note" in target.read_text(encoding="utf-8")
        app.loading.open_file(long_list)
        # The load starts after the next paint: wait for it to be over, not for a worker.
        deadline = time.monotonic() + 60
        while app.loading.loading and time.monotonic() < deadline:
            await pilot.pause(0.05)
        await settle(app, pilot)
        assert len(app.papers) == 300
        assert "300 papers" in header_text(app)
        assert "A long list" in header_text(app)


# --- layout ---------------------------------------------------------------------------------


async def test_narrow_terminal_folds_the_notes(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert app.screen.has_class("-narrow")
        assert app.notes.region.height == 0
        assert app.paper_list.region.width >= 70
        assert app.detail.region.height > 0
        await pilot.press("j")
        assert app.papers[1].title[:20] in app.detail.text
        await pilot.press("n")
        assert app.notes.region.height > 0
        assert app.screen.focused is app.notes.editor
        await type_text(pilot, "small screen")
        await pilot.press("escape")
        assert app.notes.region.height == 0
        assert app.screen.focused is app.paper_list
        await pilot.resize_terminal(140, 40)
        await pilot.pause()
        assert not app.screen.has_class("-narrow")
        assert app.notes.region.height > 0
        assert app.notes.editor.text == "small screen"


# --- start-up -------------------------------------------------------------------------------


async def test_background_loader_paints_first_then_shows_the_list(tmp_path: Path) -> None:
    app = PaperdeckApp(
        None,
        NotesStore(tmp_path / "notes.json"),
        loader=lambda options: load_library([bundled_list()], options=options),
        loading_label="icml2026.txt",
        settings_file=tmp_path / "settings.json",
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await settle(app, pilot)
        assert len(app.papers) == 19
        assert "19 papers" in header_text(app)
        assert app.papers[0].title in app.detail.text
        await pilot.press("j")
        assert app.current_paper is app.papers[1]


def test_a_background_load_runs_before_anyone_waits_and_hands_over_its_result() -> None:
    started = threading.Event()

    def load(options: LoadOptions) -> Library:
        started.set()
        return load_library([bundled_list()], options=options)

    pending = BackgroundLoad(load)
    assert started.wait(5), "the load waits for nobody: it starts when created"
    assert [paper.id for paper in pending.wait().papers] == [
        paper.id for paper in load_library([bundled_list()]).papers
    ]


def test_a_background_load_error_reaches_the_one_who_waits(tmp_path: Path) -> None:
    pending = BackgroundLoad(lambda options: load_library([tmp_path / "gone.txt"], options=options))
    with pytest.raises(LoadError, match=r"gone\.txt"):
        pending.wait()


async def test_a_started_background_load_fills_the_reader(tmp_path: Path) -> None:
    pending = BackgroundLoad(lambda options: load_library([bundled_list()], options=options))
    app = PaperdeckApp(
        None,
        NotesStore(tmp_path / "notes.json"),
        loader=pending,
        loading_label="icml2026.txt",
        settings_file=tmp_path / "settings.json",
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await settle(app, pilot)
        assert "19 papers" in header_text(app)
        assert app.papers[0].title in app.detail.text
        await pilot.press("j")
        assert app.current_paper is app.papers[1]


async def test_a_slow_background_load_shows_a_loading_line_then_the_list(tmp_path: Path) -> None:
    release = threading.Event()

    def load(options: LoadOptions) -> Library:
        release.wait(10)
        return load_library([bundled_list()], options=options)

    pending = BackgroundLoad(load)
    app = PaperdeckApp(
        None,
        NotesStore(tmp_path / "notes.json"),
        loader=pending,
        loading_label="[b]slow[/b].txt",
        settings_file=tmp_path / "settings.json",
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert "Loading [b]slow[/b].txt" in header_text(app)
        assert app.paper_list.empty_text.startswith("Loading [b]slow[/b].txt")
        release.set()
        pending.wait()
        for _ in range(100):  # the load's thread tells the app just after `wait` returns
            await settle(app, pilot)
            if "19 papers" in header_text(app):
                break
        assert "19 papers" in header_text(app)
        assert app.papers[0].title in app.detail.text


async def test_a_background_load_error_exits_with_status_2(tmp_path: Path) -> None:
    pending = BackgroundLoad(
        lambda options: load_library([tmp_path / "[/gone].txt"], options=options)
    )
    app = PaperdeckApp(None, NotesStore(tmp_path / "notes.json"), loader=pending)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.pause(0.2)
    assert app.return_value == 2
    assert app.load_error is not None and "[/gone].txt" in app.load_error


async def test_a_load_error_in_the_background_exits_with_status_2(tmp_path: Path) -> None:
    missing = tmp_path / "[/missing].txt"
    app = PaperdeckApp(
        None,
        NotesStore(tmp_path / "notes.json"),
        loader=lambda options: load_library([missing], options=options),
        loading_label=missing.name,
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.pause(0.2)
    assert app.return_value == 2
    assert app.load_error is not None and "[/missing].txt" in app.load_error


# --- review fixes: focus, notes and late results ----------------------------------------------


async def test_a_late_result_without_the_edited_paper_closes_the_editor(
    make_app: MakeApp, tmp_path: Path
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        first = app.papers[0]
        await pilot.press("n")
        await type_text(pilot, "abc")
        # A search result that arrives while typing and no longer holds the paper.
        app.search.apply("zz", SearchResult("zz", [3, 4], [1.0, 1.0], None))
        await pilot.pause()
        await type_text(pilot, "dhw")  # keys without a binding in the list
        await pilot.pause()
        assert app.screen.focused is app.paper_list
        assert saved_notes(tmp_path)[first.id]["note"] == "abc"
        assert app.store.get(app.papers[3]) is None
        assert any("not in the results" in n.message for n in app._notifications)


async def test_a_late_result_keeps_the_edited_paper_under_the_cursor(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "n")
        await type_text(pilot, "abc")
        app.search.apply("zz", SearchResult("zz", [5, 1, 2], [3.0, 2.0, 1.0], None))
        await pilot.pause()
        await type_text(pilot, "def")
        assert app.screen.focused is app.notes.editor
        assert app.current_paper is app.papers[1]
        assert app.paper_list.cursor == 1
        entry = app.store.get(app.papers[1])
        assert entry is not None and entry.note == "abcdef"


async def test_viewing_a_note_with_a_tab_leaves_it_as_it_was(
    make_app: MakeApp, tmp_path: Path
) -> None:
    library = load_library([bundled_list()])
    store = NotesStore(tmp_path / "notes.json")
    store.set_note(library.papers[1], "step\tone\x07")
    store.save()
    before = (tmp_path / "notes.json").read_bytes()
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("j")
        await pilot.pause()
        assert app.notes.editor.text == "step\tone"
        await pilot.press("n", "escape", "k", "j", "k")
        await pilot.pause()
        assert not app.store.dirty
        assert "saved" in str(app.query_one("#notes-status").render())
    assert (tmp_path / "notes.json").read_bytes() == before


async def test_a_cursor_move_while_a_dialog_opens_reaches_the_panes(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Moves closer together than this are shown once, after it: here, with the dialog open.
    monkeypatch.setattr("paperdeck.ui.app.SHOW_COALESCE", 0.4)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "j", "t")
        assert isinstance(app.screen, TagsDialog)
        await pilot.pause(0.6)
        await pilot.press("escape")
        await pilot.pause()
        assert app.current_paper is app.papers[2]
        assert app.papers[2].title in app.detail.text
        assert app.notes.paper is app.papers[2]


async def test_narrow_leaving_the_note_with_tab_shows_the_detail_again(
    make_app: MakeApp, tmp_path: Path
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        await type_text(pilot, "tabbed away")
        await pilot.press("tab")
        await pilot.pause()
        assert app.screen.focused is not app.notes.editor
        assert app.detail.region.height > 0
        assert app.notes.region.height == 0
        assert saved_notes(tmp_path)[app.papers[0].id]["note"] == "tabbed away"


async def test_opening_another_list_after_a_search_leaves_no_indexing_line(
    make_app: MakeApp, long_list: Path
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await type_text(pilot, "speculative")
        await settle(app, pilot)
        await pilot.press("enter")
        app.loading.open_file(long_list)
        await settle(app, pilot)
        await settle(app, pilot)
        status = app.query_one("#search-status")
        assert "indexing" not in str(status.render()) or not status.display
        assert not status.display
        assert len(app.paper_list.rows) == 300


async def test_typing_a_note_repaints_no_list_row_and_keeps_one_autosave_timer(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        await type_text(pilot, "a")
        await pilot.pause()
        assert "✎" in row_text(app, 0)
        timer = app.note_flow.autosave_timer
        assert timer is not None
        painted: list[int] = []
        paint = app.paper_list.render_line

        def counting(y: int) -> object:
            painted.append(y)
            return paint(y)

        app.paper_list.render_line = counting  # type: ignore[method-assign,assignment]
        await type_text(pilot, "bcdef")
        await pilot.pause()
        assert painted == []
        assert app.note_flow.autosave_timer is timer
        assert app.notes.editor.text == "abcdef"


async def test_a_save_error_at_quit_keeps_exactly_the_changed_notes_in_a_recovery_file(
    make_app: MakeApp, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dataclasses import replace

    from paperdeck.cli.main import main

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        first, second = app.papers[0], app.papers[1]
        app.store.set_note(first, "saved before")
        app.store.save()
        # Saving now fails: the notes file's place is taken by a folder.
        broken = tmp_path / "broken"
        (broken / "notes.json").mkdir(parents=True)
        app.store.path = broken / "notes.json"
        elsewhere = replace(second, id="paper-in-no-open-list")
        app.store.set_note(elsewhere, "a note from another list")
        await pilot.press("j", "n")
        await type_text(pilot, "typed while the disk failed")
        await pilot.press("escape", "q")  # refused once, saying so
        assert app.is_running
        await pilot.press("q")
        await pilot.pause()
    assert app.return_value == 0
    message = app.exit_message or ""
    assert message.startswith("paperdeck: notes not saved (") and "\n" not in message
    [recovered] = list(broken.glob("notes.json.recovered-*"))
    assert message.endswith(f"your unsaved notes are in {recovered}")
    papers = json.loads(recovered.read_text(encoding="utf-8"))["papers"]
    assert {key: value["note"] for key, value in papers.items()} == {
        second.id: "typed while the disk failed",
        "paper-in-no-open-list": "a note from another list",
    }
    # The recovery file merges back into a notes file.
    target = tmp_path / "restored.json"
    assert main(["notes", "import", str(recovered), "--notes", str(target)]) == 0
    capsys.readouterr()
    restored = json.loads(target.read_text(encoding="utf-8"))["papers"]
    assert restored[second.id]["note"] == "typed while the disk failed"
    assert restored["paper-in-no-open-list"]["note"] == "a note from another list"


def test_a_recovery_file_goes_to_the_temporary_folder_when_the_notes_folder_is_unwritable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    from paperdeck.core.notes.recovery import save_or_recover

    paper = load_library([bundled_list()]).papers[0]
    store = NotesStore(tmp_path / "notes.json")
    store.set_note(paper, "unsaved words")
    # The notes file's folder is a plain file: nothing can be written beside it.
    (tmp_path / "file").write_text("not a folder")
    store.path = tmp_path / "file" / "notes.json"
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    message = save_or_recover(store)
    [recovered] = list(temporary.glob("notes.json.recovered-*"))
    assert message is not None and message.endswith(f"your unsaved notes are in {recovered}")
    assert json.loads(recovered.read_text(encoding="utf-8"))["papers"][paper.id]["note"] == (
        "unsaved words"
    )
    assert store.dirty  # kept in memory too


async def test_the_note_editor_is_not_hidden_by_a_view_notice(make_app: MakeApp) -> None:
    """At 80x24 'Showing every paper' lay over the 4-line note editor: n takes it down."""
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("u", "u")
        await settle(app, pilot)
        assert [t for t in app.screen.query("Toast") if t.region.area]  # the notice is up
        await pilot.press("n")
        await pilot.pause()
        editor = app.notes.editor
        assert app.screen.focused is editor
        covering = [t for t in app.screen.query("Toast") if t.region.overlaps(editor.region)]
        assert covering == []
        assert "Showing every paper" not in [str(n.message) for n in app._notifications]


async def test_x_at_the_last_paper_wraps_to_the_first_unread_from_the_top(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("r", "r")  # papers 1 and 2 read; the cursor on paper 3
        await pilot.press("G")
        await pilot.pause()
        last = app.paper_list.cursor
        assert last == len(app.papers) - 1
        await pilot.press("x")
        await pilot.pause()
        assert app.paper_list.cursor == 2  # the first unread from the top
        messages = [str(n.message) for n in app._notifications]
        assert "No unread paper below this one: wrapped to the top" in messages
        # Every other paper read: x says so and stays.
        await pilot.press(*["r"] * (len(app.papers) - 2))
        await pilot.press("g")
        await pilot.pause()
        cursor = app.paper_list.cursor
        await pilot.press("x")
        await pilot.pause()
        assert app.paper_list.cursor == cursor
        assert "No other unread paper is shown" in [str(n.message) for n in app._notifications]

"""A big list's first rows show while the rest loads; search covers what is loaded and the query
and its results carry over to the whole list."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from textual.color import Color

from paperdeck.core import library as library_module
from paperdeck.core.library import load_library
from paperdeck.core.model import Paper
from paperdeck.core.notes.store import NotesStore
from paperdeck.core.papers import LoadedPapers
from paperdeck.core.resources import bundled_list
from paperdeck.core.search.index import SearchIndex
from paperdeck.ui import background_load, loading
from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.contrast import contrast, solid
from paperdeck.ui.loading import BackgroundLoad

make_papers = library_module._papers_of
"""The load's making of a batch of papers, which the tests below hold back."""
PAPERS = 3000
EARLY, LATE = 5, 2500
"""Two papers that mention a quokka: one among the first rows, one loaded later."""


@pytest.fixture
def big_list(tmp_path: Path) -> Path:
    text = bundled_list().read_text(encoding="utf-8")
    abstracts = [part.strip() for part in text.split("\n\n")[1:] if part.strip()]
    papers = [f"{abstracts[i % len(abstracts)]} (Variant {i}.)" for i in range(PAPERS)]
    for at in (EARLY, LATE):
        papers[at] += " A quokka was consulted."
    path = tmp_path / "big.txt"
    path.write_text("A big list\n\n" + "\n\n".join(papers) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def held_after_first_batch(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """The first batch of papers comes at once; the rest wait until the event is set."""
    release = threading.Event()
    calls = 0

    def gated(*args: Any, **named: Any) -> list[Paper]:
        nonlocal calls
        calls += 1
        if calls > 1:
            release.wait(30)
        return make_papers(*args, **named)

    monkeypatch.setattr(library_module, "_papers_of", gated)
    monkeypatch.setattr(library_module, "REPORT_EVERY", 0.0)
    monkeypatch.setenv("PAPERDECK_CACHE", "off")
    return release


@pytest.fixture
def held_in_two(
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[tuple[threading.Event, threading.Event]]:
    """The first batch of papers comes at once, the second when the first event is set, the
    rest when the second is."""
    more, rest = threading.Event(), threading.Event()
    calls = 0

    def gated(*args: Any, **named: Any) -> list[Paper]:
        nonlocal calls
        calls += 1
        if calls > 1:
            (more if calls == 2 else rest).wait(30)
        return make_papers(*args, **named)

    monkeypatch.setattr(library_module, "_papers_of", gated)
    monkeypatch.setattr(library_module, "REPORT_EVERY", 0.0)
    monkeypatch.setenv("PAPERDECK_CACHE", "off")
    yield more, rest
    more.set()
    rest.set()


def reader_loading(tmp_path: Path, pending: BackgroundLoad) -> PaperdeckApp:
    """A reader that paints at once while `pending` loads big.txt."""
    return PaperdeckApp(
        None,
        NotesStore(tmp_path / "notes.json"),
        loader=pending,
        loading_label="big.txt",
        settings_file=tmp_path / "settings.json",
    )


def header_text(app: PaperdeckApp) -> str:
    return str(app.query_one("#header").render())


def first_rows_painted(app: PaperdeckApp) -> bool:
    """The first rows are shown and painted: keys typed before that are a search."""
    return app.loading.shown_so_far > 0 and app.paper_list.rows_painted_at is not None


def shown_rows(app: PaperdeckApp) -> list[int]:
    return list(app.paper_list.rows)


async def wait_until(pilot: object, condition: object, timeout: float = 60.0) -> None:
    # A deadline, not a count of pauses: a loaded machine makes each pause longer.
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return
        await pilot.pause(0.05)  # type: ignore[attr-defined]
    raise AssertionError("the reader never got there")


async def test_first_rows_show_while_the_rest_loads_and_search_covers_them(
    tmp_path: Path, big_list: Path, held_after_first_batch: threading.Event
) -> None:
    pending = BackgroundLoad(lambda options: load_library([big_list], options=options))
    app = reader_loading(tmp_path, pending)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: first_rows_painted(app))
            # The first batch is on screen, the load is still running, the header says how far.
            assert app.loading.loading
            first = app.papers[0]
            shown = library_module._FIRST_ROWS
            assert len(app.papers) == shown
            assert header_text(app).startswith("big.txt  ")
            assert f"loading {shown:,} of {PAPERS:,}" in header_text(app)
            assert app.current_paper is first
            assert first.whole_title in app.detail.text
            rows_on_screen = [app.paper_list.row_text(row) for row in range(3)]
            assert first.title[:25] in rows_on_screen[0]
            assert app.papers[1].title[:25] in rows_on_screen[1]
            assert app.paper_list.row_lines(1).start < app.paper_list.size.height
            await pilot.press("j")
            assert app.current_paper is app.papers[1]

            # A search while loading finds what is loaded, and nothing from the rest.
            await pilot.press("slash", *"quokka")
            await wait_until(pilot, lambda: app.search.filtered == 1)
            assert shown_rows(app) == [EARLY]
            assert f"1 / {shown}" in header_text(app).replace(",", "")

            held_after_first_batch.set()
            await wait_until(pilot, lambda: not app.loading.loading)
            # The whole list: the query stays, and once indexed it finds the later paper too.
            assert app.search_box.value == "quokka"
            assert app.papers[0] is first
            await wait_until(pilot, lambda: app.search.filtered == 2)
            assert sorted(shown_rows(app)) == [EARLY, LATE]
            assert f"2 / {PAPERS:,}" in header_text(app)
    finally:
        held_after_first_batch.set()


async def test_a_search_of_the_first_rows_says_so_while_more_are_loaded(
    tmp_path: Path,
    big_list: Path,
    monkeypatch: pytest.MonkeyPatch,
    held_in_two: tuple[threading.Event, threading.Event],
) -> None:
    """Seen in tmux at 100k: "702 with every word · 5,187 / 37,120 shown" while the search
    covered the first 10,240 papers: a paper loaded after those seemed not to match."""
    second, rest = held_in_two
    monkeypatch.setattr(loading, "PARTIAL_INDEX_ENOUGH", 100)  # the first rows' index only
    pending = BackgroundLoad(lambda options: load_library([big_list], options=options))
    app = reader_loading(tmp_path, pending)
    first = library_module._FIRST_ROWS
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: first_rows_painted(app))
            await pilot.press("slash", *"quokka")
            await wait_until(pilot, lambda: app.search.filtered == 1)
            assert f"1 / {first} shown" in header_text(app)
            second.set()
            await wait_until(pilot, lambda: len(app.papers) > first)
            loaded = len(app.papers)
            await wait_until(pilot, lambda: f"loading {loaded:,} of" in header_text(app))
            assert f"1 of the first {first} shown" in header_text(app)
            assert f"1 / {loaded:,}" not in header_text(app)
            rest.set()
            await wait_until(pilot, lambda: not app.loading.loading)
            await wait_until(pilot, lambda: app.search.filtered == 2)
            assert f"2 / {PAPERS:,} shown" in header_text(app)
            assert "the first" not in header_text(app)
    finally:
        second.set()
        rest.set()


async def test_a_word_typed_before_the_rows_show_is_a_search_not_commands(
    tmp_path: Path, big_list: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen in tmux: "robust" typed as paperdeck started, before its rows were on the screen,
    was read as commands: r marked a paper read, u showed only unread papers, s starred one,
    t opened the tags dialog. Typed blind, it is a search."""
    release = threading.Event()

    def gated(*args: Any, **named: Any) -> list[Paper]:
        release.wait(30)
        return make_papers(*args, **named)

    monkeypatch.setattr(library_module, "_papers_of", gated)
    monkeypatch.setenv("PAPERDECK_CACHE", "off")
    pending = BackgroundLoad(lambda options: load_library([big_list], options=options))
    app = reader_loading(tmp_path, pending)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            assert not app.paper_list.rows  # nothing to act on yet: "Loading big.txt"
            await pilot.press(*"rob")
            assert app.focused is app.search_box
            release.set()
            await wait_until(pilot, lambda: not app.loading.loading)
            # Typed on as the rows came: after what was typed, not before it ("ustrob").
            await pilot.press(*"ust")
            assert app.search_box.value == "robust"
            await wait_until(pilot, lambda: app.search.filtered is not None)
            assert len(app.screen_stack) == 1  # no tags dialog
            assert not app.triage.views
            assert not any(app.store.get(paper) for paper in app.papers)
            assert header_text(app).startswith("A big list")
            assert "0 / 3,000 read" in header_text(app)
            # Once the rows are on the screen, keys are commands again.
            await pilot.press("enter", "r")
            assert "1 / 3,000 read" in header_text(app)
    finally:
        release.set()


async def test_how_far_loading_is_stays_on_screen_at_80_columns_while_searching(
    tmp_path: Path, big_list: Path, held_after_first_batch: threading.Event
) -> None:
    """At 80x24 the header's name gives up its room first: "Loading big.txt… 256 of 3,000"
    was cut to "Loading big.txt… 2…" once a search's counts took their place."""
    pending = BackgroundLoad(lambda options: load_library([big_list], options=options))
    app = reader_loading(tmp_path, pending)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: first_rows_painted(app))
            await pilot.press("slash", *"quokka")
            await wait_until(pilot, lambda: app.search.filtered == 1)
            shown = library_module._FIRST_ROWS
            line = app.query_one("#header").render_line(0).text
            assert f"1 / {shown}" in line
            assert f"loading {shown:,} of {PAPERS:,}" in line or (
                f"loading {shown / PAPERS:.0%}" in line
            )
            for theme in ("textual-dark", "textual-light"):
                app.theme = theme
                await pilot.pause()
                strips = app.screen._compositor.render_strips()
                said = [s for s in strips[0] if s.text.strip().startswith("loading")]
                assert len(said) == 1 and said[0].style is not None
                white, black = Color(255, 255, 255), Color(0, 0, 0)
                dark = app.current_theme.dark
                background = solid(said[0].style.bgcolor, black if dark else white)
                color = solid(said[0].style.color, white if dark else black)
                assert contrast(color, background) >= 4.5, theme
            held_after_first_batch.set()
            await wait_until(pilot, lambda: not app.loading.loading)
            await wait_until(pilot, lambda: app.search.filtered == 2)
            assert "loading" not in app.query_one("#header").render_line(0).text
    finally:
        held_after_first_batch.set()


async def test_the_cursor_kept_while_loading_stays_on_its_paper(
    tmp_path: Path, big_list: Path, held_after_first_batch: threading.Event
) -> None:
    pending = BackgroundLoad(lambda options: load_library([big_list], options=options))
    app = reader_loading(tmp_path, pending)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: first_rows_painted(app))
            await pilot.press("j", "j", "j")
            chosen = app.current_paper
            assert chosen is app.papers[3]
            held_after_first_batch.set()
            await wait_until(pilot, lambda: not app.loading.loading)
            await pilot.pause(0.1)
            assert len(app.papers) == PAPERS
            assert app.current_paper is chosen
            assert chosen.whole_title in app.detail.text
    finally:
        held_after_first_batch.set()


async def test_the_rows_so_far_are_indexed_again_only_until_enough(
    tmp_path: Path,
    big_list: Path,
    monkeypatch: pytest.MonkeyPatch,
    held_in_two: tuple[threading.Event, threading.Event],
) -> None:
    more, rest = held_in_two
    monkeypatch.setattr(loading, "PARTIAL_INDEX_ENOUGH", library_module._FIRST_ROWS)
    monkeypatch.setenv("PAPERDECK_HELPERS", "0")
    pending = BackgroundLoad(lambda options: load_library([big_list], options=options))
    app = reader_loading(tmp_path, pending)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: first_rows_painted(app))
            await pilot.press("slash", *"quokka")
            await wait_until(pilot, lambda: app.search.filtered == 1)
            builds = app.search.build_index
            built: list[int] = []

            def counted(*args: Any) -> Any:
                built.append(len(app.papers))
                return builds(*args)

            monkeypatch.setattr(app.search, "build_index", counted)
            more.set()
            await wait_until(pilot, lambda: app.loading.shown_so_far > 512)
            await pilot.pause(3 * loading.LOADING_TICK)
            # The rows so far doubled, but their first index covered enough: no other is built.
            assert app.loading.loading
            assert built == []
            rest.set()
            await wait_until(pilot, lambda: app.search.filtered == 2)
            assert built == [PAPERS]
    finally:
        more.set()
        rest.set()


@pytest.fixture
def list_with_a_later_best(tmp_path: Path) -> Path:
    """Two early papers mention a quokka in their abstracts; a later one is about quokkas."""
    text = bundled_list().read_text(encoding="utf-8")
    abstracts = [part.strip() for part in text.split("\n\n")[1:] if part.strip()]
    papers = [f"{abstracts[i % len(abstracts)]} (Variant {i}.)" for i in range(PAPERS)]
    for at in (EARLY, EARLY + 1):
        papers[at] += " A quokka was consulted."
    papers[LATE] = (
        "We propose QuokkaNet, a quokka tracker for field biologists. QuokkaNet follows "
        "each quokka across camera traps and counts quokka families on Rottnest Island."
    )
    path = tmp_path / "quokkas.txt"
    path.write_text("Quokkas\n\n" + "\n\n".join(papers) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("moved", [False, True], ids=["left-on-best", "moved-down"])
async def test_a_cursor_left_on_the_best_result_follows_a_better_one_loaded_later(
    tmp_path: Path,
    list_with_a_later_best: Path,
    held_after_first_batch: threading.Event,
    moved: bool,
) -> None:
    pending = BackgroundLoad(
        lambda options: load_library([list_with_a_later_best], options=options)
    )
    app = reader_loading(tmp_path, pending)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: first_rows_painted(app))
            await pilot.press("slash", *"quokka")
            await wait_until(pilot, lambda: app.search.filtered == 2)
            assert shown_rows(app) == [EARLY, EARLY + 1]
            await pilot.press("enter", *(["j"] if moved else []))
            chosen = app.current_paper
            held_after_first_batch.set()
            await wait_until(pilot, lambda: not app.loading.loading)
            await wait_until(pilot, lambda: app.search.filtered == 3)
            # The paper about quokkas, loaded last, is the best match: first in the list (its
            # title says "quokka" too, once the titles are derived and searched).
            await wait_until(pilot, lambda: not app.search.titling)
            await wait_until(pilot, lambda: shown_rows(app)[0] == LATE)
            await pilot.pause(0.1)
            best = app.papers[LATE]
            if moved:
                # The user went down to a paper: it stays under the cursor.
                assert app.current_paper is chosen is app.papers[EARLY + 1]
            else:
                # The user stayed on the best result: the cursor is on the best one still.
                assert app.paper_list.cursor == 0
                assert app.current_paper is best
                assert best.whole_title in app.detail.text
    finally:
        held_after_first_batch.set()


async def test_only_the_whole_lists_index_is_cached(
    tmp_path: Path,
    big_list: Path,
    held_after_first_batch: threading.Event,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from paperdeck.core.search.index import SearchIndex

    saved_while_loading: list[bool] = []
    original = SearchIndex.save_steps

    def recorded(index: SearchIndex) -> object:
        saved_while_loading.append(app.loading.loading)
        return original(index)

    monkeypatch.setattr(SearchIndex, "save_steps", recorded)
    pending = BackgroundLoad(lambda options: load_library([big_list], options=options))
    app = reader_loading(tmp_path, pending)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: first_rows_painted(app))
            await pilot.press("slash", *"quokka")
            await wait_until(pilot, lambda: app.search.filtered == 1)
            held_after_first_batch.set()
            await wait_until(pilot, lambda: app.search.filtered == 2)
            await app.workers.wait_for_complete()
            # The whole list's index is saved once its search is ready, not with the answer.
            await wait_until(pilot, lambda: bool(saved_while_loading))
    finally:
        held_after_first_batch.set()
    # A partial index is rebuilt as the list grows: writing it to the cache is wasted work.
    assert saved_while_loading == [False]


async def test_a_list_read_afresh_is_kept_once_its_search_is_ready(
    tmp_path: Path,
    big_list: Path,
    held_after_first_batch: threading.Event,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from paperdeck.core.store.database import ListStore

    monkeypatch.setenv("PAPERDECK_CACHE", str(tmp_path / "cache"))
    index_ready_when_kept: list[bool] = []
    kept = threading.Event()
    original = ListStore.save

    def recorded(store: ListStore, *args: Any) -> None:
        index_ready_when_kept.append(app.search.index is not None and not app.loading.loading)
        original(store, *args)
        kept.set()

    monkeypatch.setattr(ListStore, "save", recorded)
    pending = BackgroundLoad(lambda options: load_library([big_list], options=options))
    app = reader_loading(tmp_path, pending)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: first_rows_painted(app))
            await pilot.press("slash", *"quokka")
            held_after_first_batch.set()
            await wait_until(pilot, lambda: app.search.filtered == 2)
            # The rows so far may be searched whole before the load is over: wait for the keep.
            await wait_until(pilot, kept.is_set)
            await app.workers.wait_for_complete()
    finally:
        held_after_first_batch.set()
    assert index_ready_when_kept == [True]
    # Kept with its index: the next open reads neither the list nor its abstracts.
    reopened = load_library([big_list], abstracts=False)
    assert not reopened.abstracts_loaded
    assert len(reopened.papers) == PAPERS
    index = SearchIndex(reopened.papers, reopened.index_key())
    assert index.word_index.papers is reopened.papers
    assert sorted(index.search("quokka").indices) == [EARLY, LATE]


async def test_rows_are_measured_once_on_a_first_open_and_not_on_the_reopen(
    tmp_path: Path,
    big_list: Path,
    held_after_first_batch: threading.Event,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from paperdeck.core.store.database import ListStore
    from paperdeck.ui.widgets import paper_list as paper_list_module
    from paperdeck.ui.widgets.paper_rows import title_cells_name, title_cells_of

    monkeypatch.setenv("PAPERDECK_CACHE", str(tmp_path / "cache"))
    measured: list[int] = []
    on_the_event_loop: list[int] = []

    def counted(papers: Any, start: int = 0) -> bytes:
        measured.append(len(papers) - start)
        if threading.current_thread() is threading.main_thread():
            on_the_event_loop.append(len(papers) - start)
        return title_cells_of(papers, start)

    monkeypatch.setattr(paper_list_module, "title_cells_of", counted)
    read: list[int] = []
    row_titles = LoadedPapers.row_titles

    def titles_read(papers: LoadedPapers, start: int = 0) -> list[str]:
        titles = row_titles(papers, start)
        read.append(len(titles))
        return titles

    monkeypatch.setattr(LoadedPapers, "row_titles", titles_read)
    pending = BackgroundLoad(lambda options: load_library([big_list], options=options))
    app = reader_loading(tmp_path, pending)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: first_rows_painted(app))
            held_after_first_batch.set()
            await wait_until(pilot, lambda: not app.loading.loading)
            await wait_until(pilot, lambda: app.search.index is not None)
            await wait_until(pilot, lambda: not app.search.titling)
            await app.workers.wait_for_complete()
            heights = [app.paper_list.row_lines(row).stop for row in range(PAPERS)]
            shown = app.paper_list.size.height
    finally:
        held_after_first_batch.set()
    # The rows were measured as they arrived, their titles still to be derived, and once more
    # when every title was; only the new rows' titles read each time. Off the event loop
    # but for the first rows and the rows on the screen, measured as they are painted (once
    # as the first rows, once more as the whole list's).
    on_screen = 2 * shown
    assert sum(measured) <= 2 * PAPERS + on_screen
    assert sum(read) <= 2 * PAPERS + on_screen
    assert sum(on_the_event_loop) <= library_module._FIRST_ROWS + on_screen
    # Kept beside the list: the reopen reads them, the same widths, and measures nothing.
    reopened = load_library([big_list], abstracts=False)
    store = ListStore.open([])
    assert store is not None and reopened.index_key() is not None
    kept = store.get_blob(reopened.index_key() or "", title_cells_name())
    store.close()
    assert kept == title_cells_of(reopened.papers)
    measured.clear()
    again = PaperdeckApp(
        reopened, NotesStore(tmp_path / "notes.json"), settings_file=tmp_path / "settings.json"
    )
    async with again.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert [again.paper_list.row_lines(row).stop for row in range(PAPERS)] == heights
    assert measured == []


async def test_the_load_waits_while_its_first_rows_are_painted(
    tmp_path: Path, big_list: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Sharing the GIL with the load, the first paint would take several times longer.
    monkeypatch.setattr(background_load, "FIRST_PAINT_WAIT", 30.0)
    monkeypatch.setattr(background_load, "READER_START_WAIT", 30.0)
    monkeypatch.setenv("PAPERDECK_CACHE", "off")
    app: PaperdeckApp | None = None
    on_screen_when_resumed: list[int] = []
    mounted = threading.Event()

    def load(options: Any) -> Any:
        assert options.progress is not None
        first = load_library([big_list])
        mounted.wait(30)  # the reader is there to paint them
        options.progress(list(first.papers)[:10], PAPERS)
        # The reader has the GIL to itself until it has painted what was reported.
        assert app is not None
        on_screen_when_resumed.append(app.loading.shown_so_far)
        return first

    pending = BackgroundLoad(load)
    app = reader_loading(tmp_path, pending)
    async with app.run_test(size=(120, 40)) as pilot:
        mounted.set()
        await wait_until(pilot, lambda: not app.loading.loading)
        assert on_screen_when_resumed == [10]
        assert len(app.papers) == PAPERS


@pytest.mark.parametrize("long_read", [True, False])
async def test_a_long_read_waits_for_the_reader_a_short_one_not(
    tmp_path: Path, big_list: Path, monkeypatch: pytest.MonkeyPatch, long_read: bool
) -> None:
    """A load starts before the reader is imported: a short list is read meanwhile; a long
    one waits until the reader is built (else the terminal would stay blank for long)."""
    monkeypatch.setenv("PAPERDECK_CACHE", "off")
    size = big_list.stat().st_size
    monkeypatch.setattr(
        background_load, "READ_WHILE_IMPORTING_BYTES", size - 1 if long_read else size
    )
    read = threading.Event()
    open_list = library_module.open_list

    def reading(path: Path, fmt: str | None = None) -> Any:
        read.set()
        return open_list(path, fmt)

    monkeypatch.setattr(library_module, "open_list", reading)
    pending = BackgroundLoad(lambda options: load_library([big_list], options=options))
    if long_read:
        assert not read.wait(0.5)
    else:
        assert read.wait(30)
    app = reader_loading(tmp_path, pending)
    assert read.wait(30)  # the reader is built: a long read goes on as it starts
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: not app.loading.loading)
        assert len(app.papers) == PAPERS
        assert f"{PAPERS:,} papers" in header_text(app)
        assert app.papers[0].title[:25] in app.paper_list.row_text(0)


def test_the_load_starts_before_the_reader_is_imported() -> None:
    """Importing Textual and the reader takes a few tenths of a second: a list is read meanwhile."""
    code = (
        "import sys\n"
        "from paperdeck.ui import launch\n"
        "class Started(Exception): pass\n"
        "class Probe:\n"
        "    def __init__(self, load):\n"
        "        raise Started(sorted(m for m in sys.modules if m.startswith('textual')))\n"
        "launch.BackgroundLoad = Probe\n"
        "try:\n"
        "    launch.run_app(lambda options: None, None)\n"
        "except Started as started:\n"
        "    print(started.args[0])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("with_meta", [True, False])
async def test_a_session_left_far_down_reopens_with_its_paper_on_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, with_meta: bool
) -> None:
    """Reopened with metadata beside it (the list is then read whole, no rows shown while it
    loads) or without, the list shows the paper the detail pane shows, not its first rows."""
    monkeypatch.setenv("PAPERDECK_CACHE", str(tmp_path / "cache"))
    data = Path(__file__).parents[1] / "data"
    listed = tmp_path / "icml.txt"
    listed.write_text((data / "icml2026-150.txt").read_text(encoding="utf-8"), encoding="utf-8")
    if with_meta:
        meta = (data / "icml2026-150.meta.jsonl").read_text(encoding="utf-8")
        (tmp_path / "icml.meta.jsonl").write_text(meta, encoding="utf-8")
    far = 120

    def reader() -> PaperdeckApp:
        pending = BackgroundLoad(lambda options: load_library([listed], options=options))
        return PaperdeckApp(
            None,
            NotesStore(tmp_path / "notes.json"),
            loader=pending,
            loading_label="icml.txt",
            settings_file=tmp_path / "settings.json",
        )

    first = reader()
    async with first.run_test(size=(120, 40)) as pilot:
        # Keys pressed before the rows are painted are a search typed ahead ("Gkkk…"): on a
        # loaded machine the paint came after the load's end, and the cursor stayed unset.
        # Before the load's end the list is not yet the session's: quitting saves none.
        await wait_until(
            pilot,
            lambda: not first.loading.loading and first.paper_list.rows_painted_at is not None,
        )
        await pilot.press("G", *["k"] * (len(first.papers) - 1 - far))
        left_on = first.current_paper
        assert left_on is first.papers[far]
        await pilot.press("q")

    again = reader()
    async with again.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: not again.loading.loading)
        # The panes are shown after the list's paint: a deadline, as a loaded machine is slow.
        await wait_until(pilot, lambda: left_on.title[:30] in again.detail.text)
        paper_list = again.paper_list
        assert again.current_paper is not None and again.current_paper.id == left_on.id
        # What the list shows on screen holds that paper's title, not the first rows'.
        on_screen = "\n".join(paper_list.render_line(y).text for y in range(paper_list.size.height))
        assert left_on.title[:30] in on_screen
        assert again.papers[0].title[:30] not in on_screen


async def test_another_list_opened_shows_its_first_rows_while_the_rest_loads(
    tmp_path: Path, big_list: Path, held_after_first_batch: threading.Event
) -> None:
    """Open another list (the command palette's): its first rows show at once, as the first
    list's did, and the list left keeps its place for when it is opened again."""
    small = tmp_path / "small.txt"
    small.write_text(bundled_list().read_text(encoding="utf-8"), encoding="utf-8")
    app = PaperdeckApp(
        None,
        NotesStore(tmp_path / "notes.json"),
        loader=lambda options: load_library([small], options=options),
        loading_label="small.txt",
        settings_file=tmp_path / "settings.json",
    )
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: not app.loading.loading and app.papers)
            await pilot.press("slash", *"graph", "enter", "j")
            left_on = app.current_paper
            assert left_on is not None and left_on is not app.papers[0]

            app.loading.open_file(big_list)
            await wait_until(pilot, lambda: first_rows_painted(app))
            # The new list's first rows, while the rest is still being read.
            assert app.loading.loading
            shown = library_module._FIRST_ROWS
            assert len(app.papers) == shown
            assert header_text(app).startswith("big.txt  ")
            assert f"loading {shown:,} of {PAPERS:,}" in header_text(app)
            assert app.search_box.value == ""  # the query was the list left's
            assert app.current_paper is app.papers[0]
            assert app.papers[0].title[:25] in app.paper_list.row_text(0)

            held_after_first_batch.set()
            await wait_until(pilot, lambda: not app.loading.loading)
            assert len(app.papers) == PAPERS
            assert "A big list" in header_text(app)

            # Back to the first list: where it was left.
            app.loading.open_file(small)
            await wait_until(pilot, lambda: not app.loading.loading and len(app.papers) < PAPERS)
            await wait_until(pilot, lambda: app.current_paper is not None)
            assert app.current_paper is not None and app.current_paper.id == left_on.id
    finally:
        held_after_first_batch.set()


def bundled_reader(tmp_path: Path) -> PaperdeckApp:
    """A reader on the bundled list, loaded before it starts."""
    return PaperdeckApp(
        load_library([bundled_list()]),
        NotesStore(tmp_path / "notes.json"),
        settings_file=tmp_path / "settings.json",
    )


async def test_a_list_that_cannot_be_read_leaves_the_list_shown(tmp_path: Path) -> None:
    app = bundled_reader(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: not app.loading.loading)
        await pilot.press("j")
        before, title = app.current_paper, header_text(app)
        app.loading.open_file(tmp_path / "missing.txt")
        await wait_until(pilot, lambda: not app.loading.loading)
        await pilot.pause()
        assert app.current_paper is before
        assert header_text(app) == title
        assert any("missing.txt" in n.message for n in app._notifications)


async def test_a_list_left_filtered_to_nothing_keeps_saying_why_when_another_fails(
    tmp_path: Path,
) -> None:
    app = bundled_reader(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: not app.loading.loading)
        await pilot.press("slash", *"zzqqxx")
        await wait_until(pilot, lambda: app.search.filtered == 0)
        said = app.paper_list.empty_text
        assert "match 'zzqqxx'" in said
        app.loading.open_file(tmp_path / "missing.txt")
        await wait_until(pilot, lambda: any("missing.txt" in n.message for n in app._notifications))
        await pilot.pause()
        assert app.paper_list.empty_text == said


class HeldLoads:
    """Each reader's load: the first batch of papers at once, the rest once `rest` is set."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.rest = threading.Event()
        self.batches = 0

        def gated(*args: Any, **named: Any) -> list[Paper]:
            self.batches += 1
            if self.batches > 1:
                self.rest.wait(30)
            return make_papers(*args, **named)

        monkeypatch.setattr(library_module, "_papers_of", gated)
        monkeypatch.setattr(library_module, "REPORT_EVERY", 0.0)
        monkeypatch.setenv("PAPERDECK_CACHE", "off")

    def reader(self, tmp_path: Path, listed: Path, *, held: bool) -> PaperdeckApp:
        """A reader loading `listed`, as `paperdeck listed` starts one; `held`: its load stops
        after the first rows until `rest` is set."""
        self.batches = 0
        if held:
            self.rest.clear()
        else:
            self.rest.set()
        pending = BackgroundLoad(lambda options: load_library([listed], options=options))
        return PaperdeckApp(
            None,
            NotesStore(tmp_path / "notes.json"),
            loader=pending,
            loading_paths=[listed],
            loading_label=listed.name,
            settings_file=tmp_path / "settings.json",
        )


async def search_then_list(app: PaperdeckApp, pilot: Any, query: str, found: int) -> None:
    await pilot.press("slash", *query)
    await wait_until(pilot, lambda: app.search.filtered == found)
    await pilot.press("enter")


async def test_quitting_while_a_big_list_loads_keeps_the_search_the_paper_and_the_note(
    tmp_path: Path, big_list: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Quit before the load's end, the session was not saved: the list reopened on the last
    one's search and paper, the search typed while it loaded gone (from ↑ too)."""
    loads = HeldLoads(monkeypatch)
    try:
        before = loads.reader(tmp_path, big_list, held=False)
        async with before.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: not before.loading.loading)
            await search_then_list(before, pilot, "consulted", 2)
            await pilot.press("q")

        app = loads.reader(tmp_path, big_list, held=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: first_rows_painted(app))
            await search_then_list(app, pilot, "quokka", 1)
            assert app.current_paper is app.papers[EARLY]
            await pilot.press("n", *"ask the quokka", "escape")
            assert app.loading.loading
            await pilot.press("q")
        loads.rest.set()

        again = loads.reader(tmp_path, big_list, held=False)
        async with again.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: not again.loading.loading)
            await wait_until(pilot, lambda: again.search.filtered == 2)
            assert again.search_box.value == "quokka"
            await wait_until(pilot, lambda: "quokka" in again.detail.text)
            assert again.current_paper is again.papers[EARLY]
            entry = again.store.get(again.papers[EARLY])
            assert entry is not None and entry.note == "ask the quokka"
            assert again.search_box.history[-2:] == ["consulted", "quokka"]
    finally:
        loads.rest.set()


async def test_quitting_while_a_list_loads_having_done_nothing_keeps_the_last_session(
    tmp_path: Path, big_list: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    loads = HeldLoads(monkeypatch)
    try:
        before = loads.reader(tmp_path, big_list, held=False)
        async with before.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: not before.loading.loading)
            await wait_until(pilot, lambda: before.paper_list.rows_painted_at is not None)
            await pilot.press("j", "j", "j")
            await pilot.press("q")

        app = loads.reader(tmp_path, big_list, held=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: first_rows_painted(app))
            assert app.loading.loading
            await pilot.press("q")
        loads.rest.set()

        again = loads.reader(tmp_path, big_list, held=False)
        async with again.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: not again.loading.loading)
            await wait_until(pilot, lambda: again.current_paper is again.papers[3])
    finally:
        loads.rest.set()


async def test_a_search_typed_while_a_list_loaded_is_saved_when_the_reader_quits_later(
    tmp_path: Path, big_list: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search typed as a big list loads carried over to the whole list, but the list was
    not taken as the session's: quitting an hour later saved nothing."""
    loads = HeldLoads(monkeypatch)
    try:
        app = loads.reader(tmp_path, big_list, held=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: first_rows_painted(app))
            await search_then_list(app, pilot, "quokka", 1)
            loads.rest.set()
            await wait_until(pilot, lambda: not app.loading.loading)
            await wait_until(pilot, lambda: app.search.filtered == 2)
            await pilot.press("slash", *"consulted", "enter")
            await wait_until(pilot, lambda: app.search.filtered == 2)
            await pilot.press("q")

        again = loads.reader(tmp_path, big_list, held=False)
        async with again.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: not again.loading.loading)
            assert again.search_box.value == "consulted"
            assert again.search_box.history[-2:] == ["quokka", "consulted"]
    finally:
        loads.rest.set()


async def test_titles_are_made_after_the_search_is_ready_then_searched_and_kept(
    tmp_path: Path, big_list: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big list was searchable only once every made-up title was derived: its abstracts
    are searched first, its titles made after (rows on screen make their own)."""
    from paperdeck.core.titles import later
    from paperdeck.ui.widgets.paper_rows import GUTTER, title_cells

    monkeypatch.setenv("PAPERDECK_CACHE", "off")
    eager = load_library([big_list]).papers
    word = "generative"  # in a few made-up titles, in more abstracts
    query = f"title:{word}"
    expected = len(SearchIndex(eager).search(query).indices)
    assert expected > 40
    monkeypatch.setenv("PAPERDECK_CACHE", str(tmp_path / "cache"))
    release = threading.Event()
    derive_later = later.derive_later

    def held(papers: Sequence[Paper], going_on: Any) -> bool:
        release.wait(30)
        return derive_later(papers, going_on)

    monkeypatch.setattr(later, "derive_later", held)
    pending = BackgroundLoad(lambda options: load_library([big_list], options=options))
    app = reader_loading(tmp_path, pending)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: app.search.titling)
            assert "making titles…" in header_text(app)
            assert "Cite key  …" in app.detail.text
            assert len(later.untitled(app.papers)) > PAPERS - 100  # none derived for keys
            rows = app.paper_list
            # Each row on the screen shows its title, and takes the lines it needs.
            room = rows.scrollable_content_region.width - GUTTER
            for row in range(8):
                paper = app.papers[row]
                assert paper.title[:30] in rows.row_text(row)
                lines = 3 if title_cells(paper) > room else 2
                assert len(rows.row_lines(row)) == lines, row
            # A search finds a word in the abstracts at once, in the titles made so far.
            await pilot.press("slash", *query)
            await wait_until(pilot, lambda: app.search.filtered is not None)
            assert (app.search.filtered or 0) < expected
            # Seen at 80x24: "No papers match 'title:…'" said only that titles are made up.
            status = app.query_one("#search-status")
            await wait_until(pilot, lambda: "still being made" in status.render_line(0).text)
            release.set()
            await wait_until(pilot, lambda: not app.search.titling)
            assert "making titles" not in header_text(app)
            await wait_until(pilot, lambda: app.search.filtered == expected)
            assert "still being made" not in status.render_line(0).text
            # The citation keys (made-up titles give their words) waited for the titles.
            await wait_until(pilot, lambda: "Cite key  …" not in app.detail.text)
            await app.workers.wait_for_complete()
    finally:
        release.set()
    # The list was kept with its titles: its reopening derives none.
    again = load_library([big_list], options=library_module.LoadOptions(titles_later=True))
    assert not again.titles_later
    assert [paper.title for paper in again.papers] == [paper.title for paper in eager]


def held_till_stopped(going_on: Callable[[], bool], stopped: threading.Event) -> bool:
    """In place of `derive_later`: makes no title until the reader says to stop (it quits,
    another list opens), then sets `stopped`."""
    while going_on():
        time.sleep(0.01)
    stopped.set()
    return False


async def test_quitting_while_titles_are_made_stops_them_and_keeps_nothing(
    tmp_path: Path, big_list: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Quit while the titles of a big list were being made, the reader took seconds to end:
    the list was kept on the way out, every title derived first."""
    from paperdeck.core.titles import later

    monkeypatch.setenv("PAPERDECK_CACHE", str(tmp_path / "cache"))
    stopped = threading.Event()
    monkeypatch.setattr(
        later, "derive_later", lambda _, going_on: held_till_stopped(going_on, stopped)
    )
    pending = BackgroundLoad(lambda options: load_library([big_list], options=options))
    app = reader_loading(tmp_path, pending)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.search.titling)
        await pilot.press("ctrl+q")
    assert stopped.wait(10)
    # As `paperdeck` keeps a list on its way out: no title is derived to keep it.
    untitled_before = len(later.untitled(app.papers))
    assert untitled_before > PAPERS - 100
    assert app.library.keep(app.paper_list.measures()) == []
    assert len(later.untitled(app.papers)) == untitled_before
    assert load_library(
        [big_list], options=library_module.LoadOptions(titles_later=True)
    ).titles_later


async def test_opening_another_list_while_titles_are_made_stops_the_first_lists(
    tmp_path: Path, big_list: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first list's titles went on being made (two helpers on two cores) while the next
    list loaded, and it was then kept with the next list's row measures."""
    from paperdeck.core.titles import later

    monkeypatch.setenv("PAPERDECK_CACHE", str(tmp_path / "cache"))
    text = big_list.read_text(encoding="utf-8").split("\n\n")
    other = tmp_path / "other.txt"  # as many papers, in the other order
    other.write_text("\n\n".join([text[0], *reversed(text[1:])]) + "\n", encoding="utf-8")
    stopped = threading.Event()
    derive_later = later.derive_later
    calls = 0

    def first_held(papers: Sequence[Paper], going_on: Any) -> bool:
        nonlocal calls
        calls += 1
        if calls > 1:
            return derive_later(papers, going_on)
        return held_till_stopped(going_on, stopped)

    monkeypatch.setattr(later, "derive_later", first_held)
    pending = BackgroundLoad(lambda options: load_library([big_list], options=options))
    app = reader_loading(tmp_path, pending)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.search.titling)
        first = app.papers
        app.loading.open_file(other)
        await wait_until(pilot, lambda: app.papers is not first and len(app.papers) == PAPERS)
        assert stopped.wait(10)
        await wait_until(pilot, lambda: calls == 2 and not app.search.titling)
        await app.workers.wait_for_complete()
        assert "making titles" not in header_text(app)
        assert not later.untitled(app.papers)
    options = library_module.LoadOptions(titles_later=True)
    assert load_library([big_list], options=options).titles_later  # not kept
    kept = load_library([other], options=options)
    assert not kept.titles_later
    assert [paper.title for paper in kept.papers] == [paper.title for paper in app.papers]

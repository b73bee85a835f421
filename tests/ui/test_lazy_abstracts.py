"""The reader on a library opened without abstracts: the detail pane and the notes still get
each paper's own abstract, read back from the list store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from paperdeck.core.library import Library, load_library
from paperdeck.core.notes.entry import excerpt_of
from paperdeck.core.notes.store import NotesStore
from paperdeck.core.resources import bundled_list
from paperdeck.core.text.render import render_abstract
from paperdeck.ui.app import PaperdeckApp


@pytest.fixture
def lists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Library, Library]:
    """A 300-paper list read whole (and so stored), then reopened without abstracts."""
    monkeypatch.setenv("PAPERDECK_CACHE", str(tmp_path / "cache"))
    text = bundled_list().read_text(encoding="utf-8")
    abstracts = [part.strip() for part in text.split("\n\n")[1:] if part.strip()]
    papers = [f"{abstracts[i % len(abstracts)]} (Variant {i}.)" for i in range(300)]
    papers[137] += " Its appendix measures marmalade viscosity."  # words of no other paper
    path = tmp_path / "long.txt"
    path.write_text("A long list\n\n" + "\n\n".join(papers) + "\n", encoding="utf-8")
    whole = load_library([path])
    light = load_library([path], abstracts=False)
    assert not light.abstracts_loaded
    return whole, light


def make_app(library: Library, tmp_path: Path) -> PaperdeckApp:
    store = NotesStore(tmp_path / "notes.json")
    return PaperdeckApp(library, store, settings_file=tmp_path / "settings.json")


def shown_abstract_start(abstract: str) -> str:
    return " ".join(render_abstract(abstract).text.split()[:6])


def pane_text(app: PaperdeckApp) -> str:
    return " ".join(app.detail.content.plain.split())


async def settle(app: PaperdeckApp, pilot: Any) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_the_detail_pane_shows_each_papers_abstract_read_back(
    lists: tuple[Library, Library], tmp_path: Path
) -> None:
    whole, light = lists
    app = make_app(light, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert shown_abstract_start(whole.papers[0].abstract) in pane_text(app)
        await pilot.press("j", "j")
        await pilot.pause(0.2)
        await settle(app, pilot)
        assert app.paper_list.paper_index == 2
        assert shown_abstract_start(whole.papers[2].abstract) in pane_text(app)
        assert "(Variant 2.)" in pane_text(app)
        # The papers of the list stay without: only the pane's copy has it.
        assert app.papers[2].abstract == ""


async def test_read_and_notes_keep_the_abstracts_excerpt(
    lists: tuple[Library, Library], tmp_path: Path
) -> None:
    whole, light = lists
    app = make_app(light, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("r")  # read, and on to the second paper
        await settle(app, pilot)
        entry = app.store.get(whole.papers[0].id)
        assert entry is not None and entry.state == "read"
        assert entry.excerpt == excerpt_of(whole.papers[0])
        # Every paper of the list marked, then starred at once: each its own excerpt.
        await pilot.press("a", "s")
        await settle(app, pilot)
        entries = app.store.entries
        assert len(entries) == 300
        assert all(entries[p.id].excerpt == excerpt_of(p) for p in whole.papers)
    reads = light.abstract_reader().reads
    assert reads <= 4  # two chunks, each read once for the bulk star (and the pane's)


def only_in_one_abstract(library: Library) -> tuple[int, str]:
    """A paper and a word of its abstract in no other abstract and in no title."""
    import re

    def words(text: str) -> set[str]:
        return set(re.findall(r"[a-z]{7,}", text.lower()))

    counts: dict[str, int] = {}
    for paper in library.papers:
        for word in words(paper.abstract):
            counts[word] = counts.get(word, 0) + 1
    in_titles = set().union(*(words(f"{p.title} {p.method or ''}") for p in library.papers))
    for at, paper in enumerate(library.papers):
        for word in sorted(words(paper.abstract)):
            if counts[word] == 1 and word not in in_titles:
                return at, word
    raise AssertionError("no word of one abstract alone")


@pytest.mark.parametrize("index_kept", [True, False], ids=["index-kept", "index-built"])
async def test_a_reopened_list_searches_and_shows_words_only_in_abstracts(
    lists: tuple[Library, Library], tmp_path: Path, index_kept: bool
) -> None:
    from paperdeck.core.search.index import SearchIndex
    from paperdeck.ui.loading import BackgroundLoad

    whole, light = lists
    path = light.lists[0].path
    if index_kept:
        SearchIndex(whole.papers, whole.index_key())  # kept in the list store, as a reader does
    target, word = only_in_one_abstract(whole)
    assert target == 137
    # Loaded as the `paperdeck` command loads the reader's lists.
    pending = BackgroundLoad(lambda options: load_library([path], abstracts=False, options=options))
    store = NotesStore(tmp_path / "notes.json")
    app = PaperdeckApp(None, store, loader=pending, settings_file=tmp_path / "settings.json")
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(200):
            if not app.loading.loading and app.search.index is not None:
                break
            await pilot.pause(0.05)
        await settle(app, pilot)
        assert not app.library.abstracts_loaded
        assert all(paper.abstract == "" for paper in app.papers)
        await pilot.press("slash", *word)
        for _ in range(100):
            await pilot.pause(0.05)
            if app.search.filtered is not None:
                break
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.paper_list.rows[0] == target
        header = str(app.query_one("#header").render())
        assert " / 300 shown" in header
        row = app.paper_list.render_line(0).text
        assert whole.papers[target].title[:30] in row
        assert app.paper_list.paper_index == target
        # The detail pane shows that paper's abstract, the word in it.
        assert shown_abstract_start(whole.papers[target].abstract) in pane_text(app)
        assert word in pane_text(app).lower()


def test_the_paperdeck_command_opens_the_reader_without_abstracts(
    lists: tuple[Library, Library], monkeypatch: pytest.MonkeyPatch
) -> None:
    from collections.abc import Callable

    from paperdeck.cli.main import main
    from paperdeck.core.library import LoadOptions

    _whole, light = lists
    loads: list[Callable[[LoadOptions], Library]] = []

    def run_app(library: Callable[[LoadOptions], Library], **options: object) -> int:
        loads.append(library)
        return 0

    monkeypatch.setattr("paperdeck.ui.launch.run_app", run_app)
    assert main([str(light.lists[0].path)]) == 0
    [load] = loads
    opened = load(LoadOptions())
    assert not opened.abstracts_loaded
    assert opened.with_abstract(opened.papers[1]).abstract


async def test_a_reopened_list_makes_papers_only_for_the_rows_it_shows(
    lists: tuple[Library, Library], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.core.search.index import SearchIndex
    from paperdeck.core.store import columns

    whole, light = lists
    SearchIndex(whole.papers, whole.index_key())  # kept in the list store, as a reader does
    decoded: list[int] = []
    real = columns.decode_columns

    def counted(chunk: columns.Chunk, key: str, number: int, *args: Any, **kw: Any) -> Any:
        decoded.append(number)
        return real(chunk, key, number, *args, **kw)

    monkeypatch.setattr("paperdeck.core.store.stored_papers.decode_columns", counted)
    # A long list: the detail pane does not work out every paper's citation key ahead.
    monkeypatch.setattr("paperdeck.ui.citation_flow.KEYS_AHEAD", 299)
    reopened = load_library([light.lists[0].path], abstracts=False)
    app = make_app(reopened, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.search.index is not None
        # The first rows' chunk alone: the row heights come from the titles column.
        assert decoded == [0]
        drawn = [app.detail.render_line(y).text for y in range(20)]
        assert any("Cite key  worked out by c or e (long list)" in line for line in drawn)
        shown = " ".join(app.paper_list.render_line(y).text for y in range(8))
        assert whole.papers[1].title[:30] in shown
        await pilot.press("G")
        await settle(app, pilot)
        assert decoded == [0, 1]
        assert app.paper_list.paper_index == 299
        assert shown_abstract_start(whole.papers[299].abstract) in pane_text(app)
        first_rows = [app.paper_list.render_line(y).text for y in range(40)]
    # Opened again, the rows are measured from what the first opening kept: no title is read.

    def fail(*args: object) -> None:
        raise AssertionError("every title read again")

    monkeypatch.setattr("paperdeck.core.store.database.ListStore.titles_and_flags", fail)
    app = make_app(load_library([light.lists[0].path], abstracts=False), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("G")
        await settle(app, pilot)
        assert [app.paper_list.render_line(y).text for y in range(40)] == first_rows


async def test_a_row_matching_in_its_abstract_shows_it_read_back(
    lists: tuple[Library, Library], tmp_path: Path
) -> None:
    _whole, light = lists
    app = make_app(light, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        app.search_box.value = "marmalade"
        await settle(app, pilot)
        assert [app.papers[i].position for i in app.paper_list.rows] == [138]
        assert "marmalade" not in app.papers[137].title.lower()
        quiet = app.paper_list.row_text(0).splitlines()[-1]
        assert "appendix measures marmalade viscosity" in quiet


async def test_a_bibtex_export_gives_made_up_titles_whole(
    lists: tuple[Library, Library], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the path typed short: a key press costs a frame
    whole, light = lists
    cut = whole.papers[0].title
    assert cut.endswith("…") and light.papers[0].abstract == ""
    app = make_app(light, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("space", "e", "ctrl+a", "ctrl+k")
        await pilot.press(*"marked.bib")
        await pilot.press("enter")
        await settle(app, pilot)
    written = (tmp_path / "marked.bib").read_text(encoding="utf-8")
    assert "holistic creation of interactive scientific applications" in written
    assert "…" not in written.split("\n@", 1)[1]  # the % comment before the entry aside


async def test_an_export_of_a_reopened_list_carries_each_papers_abstract(
    lists: tuple[Library, Library], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import csv
    import json

    monkeypatch.chdir(tmp_path)
    whole, light = lists
    app = make_app(light, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        # Three papers marked, one of them in the list's second stored chunk.
        await pilot.press("space", "space", "G", "space", "e")
        await settle(app, pilot)
        for name in ("picked.csv", "picked.json", "picked.md"):
            await pilot.press("ctrl+a", "ctrl+k", *name, "enter")
            await settle(app, pilot)
            assert (tmp_path / name).exists(), name
            if name != "picked.md":
                await pilot.press("e")
                await settle(app, pilot)
        wanted = [whole.papers[i] for i in (0, 1, 299)]
        with (tmp_path / "picked.csv").open(encoding="utf-8", newline="") as table:
            rows = list(csv.DictReader(table))
        assert [row["abstract"] for row in rows] == [p.abstract for p in wanted]
        assert [row["title_derived"] for row in rows] == ["yes"] * 3
        records = json.loads((tmp_path / "picked.json").read_text(encoding="utf-8"))
        assert [record["abstract"] for record in records] == [p.abstract for p in wanted]
        text = (tmp_path / "picked.md").read_text(encoding="utf-8")
        assert text.count("<details><summary>Abstract</summary>") == 3
        assert "(Variant 299.)" in text
        # The reader's papers stay light.
        assert all(paper.abstract == "" for paper in app.papers)

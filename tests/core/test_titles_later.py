"""Titles derived after a list is searchable: each paper derives its own when first read, or
is given it by `derive_later`; the index then searches them as one built with them does."""

from __future__ import annotations

import copy
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from paperdeck.core.library import LoadOptions, load_library
from paperdeck.core.model import Paper, TitledLater, give_titles, title_known, titled_later
from paperdeck.core.plumbing import helper_process
from paperdeck.core.plumbing.slices import finish
from paperdeck.core.search import index_parts
from paperdeck.core.search.index import SearchIndex
from paperdeck.core.titles.derive import method_and_titles
from paperdeck.core.titles.later import derive_later, untitled

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "tests" / "data" / "abstracts_sample.txt"
WITH_METHOD = (
    "We propose FooNet, a novel method for learning sparse representations of graphs with "
    "embeddings that scale to millions of nodes and edges in linear time, and show that it "
    "beats every baseline we tried on five benchmarks. Code is available."
)


def later(abstract: str = WITH_METHOD) -> Paper:
    return titled_later(id="abc", position=1, list_name="l", title_derived=True, abstract=abstract)


def whole(paper: Paper) -> tuple[object, ...]:
    return (paper.title, paper.method, paper.uncut_title, paper.title_derived, paper.abstract)


def test_a_paper_derives_its_title_method_and_whole_title_when_first_read() -> None:
    paper = later()
    assert type(paper) is TitledLater and not title_known(paper)
    method, title, uncut = method_and_titles(WITH_METHOD)
    assert paper.method == method == "FooNet"  # any of the three derives all of them
    assert title_known(paper)
    assert (paper.title, paper.uncut_title) == (title, uncut)
    assert type(paper) is Paper  # a plain paper from then on
    assert paper.cut_title and paper.whole_title.startswith("FooNet")


def test_titles_given_are_kept_and_a_titled_paper_is_left_alone() -> None:
    paper = later()
    give_titles(paper, "M", "Given title", None)
    assert (paper.method, paper.title, paper.uncut_title) == ("M", "Given title", None)
    give_titles(paper, "Other", "Another title", None)  # it has its titles: not changed
    assert paper.title == "Given title"


def test_a_copy_or_a_changed_copy_is_a_whole_paper() -> None:
    assert whole(copy.copy(later())) == whole(later().with_changes())
    changed = later().with_changes(position=7)
    assert type(changed) is Paper and changed.position == 7
    assert changed.title == method_and_titles(WITH_METHOD)[1]
    with pytest.raises(TypeError):
        titled_later(id="x", position=1, list_name="l", title="T", abstract="a", title_derived=True)


def test_threads_reading_one_paper_at_once_see_one_title() -> None:
    papers = [later(f"{WITH_METHOD} Variant {n}.") for n in range(200)]
    seen: list[list[str]] = [[], []]

    def read(into: list[str]) -> None:
        into.extend(paper.title for paper in papers)

    threads = [threading.Thread(target=read, args=(into,)) for into in seen]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen[0] == seen[1] == [paper.title for paper in papers]
    assert not untitled(papers)


def sample_list(tmp_path: Path) -> Path:
    path = tmp_path / "list.txt"
    path.write_text(SAMPLE.read_text("utf-8"), encoding="utf-8")
    return path


@pytest.mark.parametrize("helpers", ["0", "1"])
def test_a_list_read_with_titles_later_ends_as_one_read_with_them(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    started_helpers: list[helper_process.HelperProcess],
    helpers: str,
) -> None:
    monkeypatch.setenv("PAPERDECK_CACHE", "off")
    monkeypatch.setenv("PAPERDECK_HELPERS", helpers)
    path = sample_list(tmp_path)
    grown = index_parts.Growing()
    opened = load_library([path], options=LoadOptions(grown=grown, titles_later=True))
    papers = opened.papers
    assert opened.titles_later
    assert len(untitled(papers)) == len(papers)  # the load derived none
    index = finish(SearchIndex.build_steps(papers, None, None, grown))
    assert len(untitled(papers)) == len(papers)  # nor did the index
    eager = load_library([path]).papers
    built = SearchIndex(eager)
    # The abstracts are searched at once (the same papers, ranked without their titles); a
    # title only once the titles are derived.
    word = "adversarial"
    assert sorted(index.search(word).indices) == sorted(built.search(word).indices)
    assert built.search(f"title:{word}").indices
    assert not index.search(f"title:{word}").indices

    started_helpers.clear()
    assert derive_later(papers)
    # With helpers at all, every part is theirs: this process only hands the titles out.
    assert len(started_helpers) == (2 if helpers == "1" else 0)
    assert [whole(paper) for paper in papers] == [whole(paper) for paper in eager]
    titled = finish(index.titled_steps())
    assert titled.word_index.vocabulary == built.word_index.vocabulary
    for query in (f"title:{word}", "learning policy", "graph | robust", "reinforcment", "zzzz"):
        assert titled.search(query).indices == built.search(query).indices, query


def test_deriving_later_stops_when_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERDECK_CACHE", "off")
    monkeypatch.setenv("PAPERDECK_HELPERS", "0")
    papers = load_library([sample_list(tmp_path)], options=LoadOptions(titles_later=True)).papers
    assert not derive_later(papers, lambda: False)
    assert len(untitled(papers)) == len(papers)


def test_a_list_from_the_store_has_every_title(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAPERDECK_CACHE", str(tmp_path / "cache"))
    path = sample_list(tmp_path)
    first = load_library([path])  # kept in the store with its titles
    again = load_library([path], options=LoadOptions(titles_later=True))
    assert not again.titles_later and not untitled(again.papers)
    assert [whole(paper) for paper in again.papers] == [whole(paper) for paper in first.papers]


def test_a_list_is_kept_only_once_its_titles_are_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader quit while the titles of a big list were being made took seconds to end:
    keeping the list on the way out derived every title first."""
    monkeypatch.setenv("PAPERDECK_CACHE", str(tmp_path / "cache"))
    path = sample_list(tmp_path)
    options = LoadOptions(keep_later=True, titles_later=True)
    opened = load_library([path], options=options)
    assert opened.keep() == []
    assert len(untitled(opened.papers)) == len(opened.papers)  # none derived to keep it
    again = load_library([path], options=options)
    assert again.titles_later  # not kept: read afresh
    assert derive_later(again.papers)
    again.titles_later = False
    assert again.keep() == []
    kept = load_library([path], options=options)
    assert not kept.titles_later and not untitled(kept.papers)


def test_titles_made_later_are_made_by_helpers_running_behind_this_process(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    started_helpers: list[helper_process.HelperProcess],
    helpers_run: Callable[[str], None],
) -> None:
    """The helpers making a list's titles share the cores with the reader a person is typing
    into: they run at a lower priority (each writes its nice value, then fails, so that its
    part is derived here)."""
    monkeypatch.setenv("PAPERDECK_CACHE", "off")
    monkeypatch.setenv("PAPERDECK_HELPERS", "1")
    niceness = tmp_path / "nice"
    niceness.mkdir()
    helpers_run(
        "import os, sys; "
        f"open(os.path.join({str(niceness)!r}, str(os.getpid())), 'w').write(str(os.nice(0)));"
        " sys.exit(3)"
    )
    papers = load_library([sample_list(tmp_path)], options=LoadOptions(titles_later=True)).papers
    assert derive_later(papers)
    assert not untitled(papers)
    assert len(started_helpers) == 2
    written = [int(path.read_text()) for path in niceness.iterdir()]
    assert written == [min(os.nice(0) + helper_process.BEHIND, 19)] * 2

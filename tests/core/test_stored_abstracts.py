"""Abstracts read back for a library opened without them: each paper its own, from the store a
chunk at a time, from the list itself when the store is gone or damaged, never another's."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from paperdeck.core.library import Library, load_library
from paperdeck.core.store import database
from paperdeck.core.store.columns import CHUNK_PAPERS

SAMPLE = Path(__file__).parents[1] / "data" / "abstracts_sample.txt"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PAPERDECK_CACHE", str(folder))
    return folder


def _copy(folder: Path, name: str = "sample.txt") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    shutil.copyfile(SAMPLE, path)
    return path


def _light(paths: list[Path]) -> tuple[Library, Library]:
    """The lists read whole (and stored), then reopened without abstracts."""
    whole = load_library(paths)
    light = load_library(paths, abstracts=False)
    assert not light.abstracts_loaded
    assert all(paper.abstract == "" for paper in light.papers)
    return whole, light


def test_each_paper_gets_its_own_abstract_and_a_chunk_is_read_once(
    cache: Path, tmp_path: Path
) -> None:
    whole, light = _light([_copy(tmp_path)])
    assert len(light.papers) > CHUNK_PAPERS  # two chunks at least
    reader = light.abstract_reader()
    filled = light.with_abstracts(light.papers)
    assert [p.abstract for p in filled] == [p.abstract for p in whole.papers]
    assert [(p.id, p.title, p.position) for p in filled] == [
        (p.id, p.title, p.position) for p in light.papers
    ]
    chunks = -(-len(light.papers) // CHUNK_PAPERS)
    assert reader.reads == chunks
    # One by one, in any order, as the detail pane asks.
    for at in (len(light.papers) - 1, 0, CHUNK_PAPERS, 7):
        assert light.with_abstract(light.papers[at]).abstract == whole.papers[at].abstract
    # Asked again, the same object: the detail pane keeps its rendering of it.
    paper = light.papers[3]
    assert light.with_abstract(paper) is light.with_abstract(paper)


def test_a_batch_reads_each_chunk_once_whatever_its_order(cache: Path, tmp_path: Path) -> None:
    whole, light = _light([_copy(tmp_path)])
    picked = [light.papers[at] for at in (290, 3, 260, 10, 280, 1, 257)]
    before = light.abstract_reader().reads
    filled = light.with_abstracts(picked)
    assert [p.abstract for p in filled] == [whole.papers[p.position - 1].abstract for p in picked]
    assert light.abstract_reader().reads - before == 2


def test_papers_of_two_lists_with_one_name_keep_their_own(cache: Path, tmp_path: Path) -> None:
    first = _copy(tmp_path / "a")
    second = tmp_path / "b" / "sample.txt"
    second.parent.mkdir()
    # The same name, other abstracts in other places: the second list reversed.
    paragraphs = SAMPLE.read_text(encoding="utf-8").split("\n\n")
    second.write_text("\n\n".join(reversed(paragraphs)), encoding="utf-8")
    whole, light = _light([first, second])
    assert {p.list_name for p in light.papers} == {"sample"}
    filled = light.with_abstracts(light.papers)
    assert [p.abstract for p in filled] == [p.abstract for p in whole.papers]
    # Even once the store is gone: each list file is read for its own papers.
    _whole, again = _light([first, second])
    shutil.rmtree(cache)
    twin = again.counts[0] + 2
    wanted = [again.papers[2], again.papers[twin]]  # both "sample", third in their list
    assert (wanted[0].list_name, wanted[0].position) == (wanted[1].list_name, wanted[1].position)
    assert [p.abstract for p in again.with_abstracts(wanted)] == [
        whole.papers[2].abstract,
        whole.papers[twin].abstract,
    ]
    assert whole.papers[2].abstract != whole.papers[twin].abstract


def test_a_store_gone_after_opening_falls_back_to_the_list_file(
    cache: Path, tmp_path: Path
) -> None:
    whole, light = _light([_copy(tmp_path)])
    shutil.rmtree(cache)
    for at in (0, 100, len(light.papers) - 1):
        assert light.with_abstract(light.papers[at]).abstract == whole.papers[at].abstract
    assert light.abstract_reader().reads == 1  # the list file, once


def test_a_damaged_chunk_falls_back_to_the_list_file(cache: Path, tmp_path: Path) -> None:
    whole, light = _light([_copy(tmp_path)])
    with sqlite3.connect(cache / database.FILE_NAME) as db:
        db.execute("UPDATE chunks SET abstracts = ? WHERE number = 1", (b"forged\0text",))
    last = len(light.papers) - 1
    assert light.with_abstract(light.papers[last]).abstract == whole.papers[last].abstract
    assert light.with_abstract(light.papers[0]).abstract == whole.papers[0].abstract
    assert light.abstract_reader().reads == 1  # the file: the damaged list left the store


def test_a_changed_list_never_lends_a_paper_another_abstract(cache: Path, tmp_path: Path) -> None:
    path = _copy(tmp_path)
    whole, light = _light([path])
    shutil.rmtree(cache)
    # The file now holds other abstracts in the same places, and the first one left as it was.
    paragraphs = SAMPLE.read_text(encoding="utf-8").split("\n\n")
    paragraphs[1:] = [f"{text} A sentence added since." for text in paragraphs[1:]]
    path.write_text("\n\n".join(paragraphs), encoding="utf-8")
    assert light.with_abstract(light.papers[0]).abstract == whole.papers[0].abstract
    changed = light.with_abstract(light.papers[5])
    assert changed.abstract == ""  # not known any more: shown without, never another's
    assert changed is light.papers[5]


def test_a_list_file_gone_with_its_store_leaves_the_paper_as_it_is(
    cache: Path, tmp_path: Path
) -> None:
    path = _copy(tmp_path)
    _whole, light = _light([path])
    shutil.rmtree(cache)
    path.unlink()
    assert light.with_abstract(light.papers[4]) is light.papers[4]


def test_a_library_loaded_whole_hands_papers_back_as_they_are(cache: Path, tmp_path: Path) -> None:
    library = load_library([_copy(tmp_path)])
    assert library.abstracts_loaded
    assert library.with_abstract(library.papers[2]) is library.papers[2]
    handed = library.with_abstracts(library.papers)
    assert all(a is b for a, b in zip(handed, library.papers, strict=True))

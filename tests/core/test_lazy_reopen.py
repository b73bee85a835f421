"""A stored list reopened without abstracts is read from the store as its papers are asked for:
the same papers as a fresh read, a chunk decoded only when one of its papers is wanted, and a
chunk found damaged then gives stand-ins (never a crash) and the list is read again next time."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import fields
from pathlib import Path

import pytest

from paperdeck.core.library import load_library
from paperdeck.core.model import Paper
from paperdeck.core.papers import Column, LoadedPapers
from paperdeck.core.store import columns, database
from paperdeck.core.store.stored_papers import STAND_IN_TITLE

DATA = Path(__file__).parents[1] / "data"
COLUMNS: tuple[Column, ...] = ("ids", "titles", "methods", "authors")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PAPERDECK_CACHE", str(folder))
    return folder


@pytest.fixture
def listing(tmp_path: Path) -> Path:
    """A JSONL list of several chunks, with authors and methods."""
    lines = (DATA / "icml_sample.jsonl").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "long.jsonl"
    path.write_text("\n".join([*lines, *lines[:100]]) + "\n", encoding="utf-8")
    return path


def _shown(papers: Iterable[Paper]) -> list[tuple[object, ...]]:
    """Every field of each paper but its abstract (papers compare by identity)."""
    return [
        tuple(
            dict(paper.extra) if field.name == "extra" else getattr(paper, field.name)
            for field in fields(Paper)
            if field.name != "abstract"
        )
        for paper in papers
    ]


def test_a_reopened_list_decodes_a_chunk_only_when_one_of_its_papers_is_asked_for(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = load_library([listing]).papers
    assert len(whole) > columns.CHUNK_PAPERS
    decoded: list[int] = []
    real = columns.decode_columns

    def counted(chunk: columns.Chunk, key: str, number: int, *args: object, **kw: bool) -> object:
        decoded.append(number)
        return real(chunk, key, number, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr("paperdeck.core.store.stored_papers.decode_columns", counted)
    light = load_library([listing], abstracts=False)
    assert len(light.papers) == len(whole) and decoded == []
    assert _shown([light.papers[300]]) == _shown([whole[300]])
    assert decoded == [1]
    # What a reader reads of every paper comes from the columns, without making the papers.
    assert light.papers.ids() == [paper.id for paper in whole]
    assert light.papers.titles() == [paper.title for paper in whole]
    assert light.papers.derived_flags() == bytes(paper.title_derived for paper in whole)
    assert light.papers.numbers()[whole[299].id] == 299
    assert decoded == [1]
    assert _shown(light.papers) == _shown(whole)


def test_both_kinds_of_papers_read_the_same_text_columns(cache: Path, listing: Path) -> None:
    whole = load_library([listing]).papers
    light = load_library([listing], abstracts=False).papers
    assert isinstance(whole, LoadedPapers) and not isinstance(light, LoadedPapers)
    for column in COLUMNS:
        texts = [whole.text(at, column) for at in range(len(whole))]
        assert [light.text(at, column) for at in range(len(light))] == texts
    assert any(whole.text(at, "authors").count(", ") for at in range(len(whole)))
    assert any(whole.text(at, "methods") for at in range(len(whole)))


def test_a_chunk_damaged_after_the_reopen_gives_stand_ins_then_the_list_is_read_again(
    cache: Path, listing: Path
) -> None:
    whole = load_library([listing]).papers
    light = load_library([listing], abstracts=False).papers
    with sqlite3.connect(cache / database.FILE_NAME) as db:
        db.execute("UPDATE chunks SET titles = ? WHERE number = 1", (b"not the titles",))
    assert _shown([light[0]]) == _shown([whole[0]])
    stand_in = light[300]
    assert stand_in.title == STAND_IN_TITLE == light.text(301, "titles")
    assert stand_in.id not in {paper.id for paper in whole}
    assert len(light.ids()) == len(light.titles()) == len(whole)
    again = load_library([listing], abstracts=False)
    assert _shown(again.papers) == _shown(whole)


def test_bytes_per_paper_are_made_once_for_a_stored_list_and_each_time_in_memory(
    cache: Path, listing: Path
) -> None:
    whole = load_library([listing]).papers
    expected = bytes(len(paper.title) % 256 for paper in whole)
    made: list[int] = []

    def make() -> bytes:
        made.append(1)
        return expected

    light = load_library([listing], abstracts=False).papers
    assert light.per_paper("lengths", make) == expected and len(made) == 1
    again = load_library([listing], abstracts=False).papers
    assert again.per_paper("lengths", make) == expected and len(made) == 1
    # Kept bytes that are not one per paper are made again.
    again.store.put_blob(again.key, "short", b"\x01\x02")
    assert again.per_paper("short", make) == expected and len(made) == 2
    assert whole.per_paper("lengths", make) == expected and len(made) == 3


def test_numbers_count_each_id_once_as_they_iterate() -> None:
    from dataclasses import replace

    first, second = load_library([Path(__file__).parents[1] / "data" / "hostile.txt"]).papers[:2]
    papers = LoadedPapers([first, second, replace(second, position=3)])
    numbers = papers.numbers()
    assert len(numbers) == len(list(numbers)) == 2
    assert numbers[second.id] == 2  # a repeated id: the last one's number

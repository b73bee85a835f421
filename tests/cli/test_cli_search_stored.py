"""`paperdeck search` on a stored list reads only the papers it looks at, prints what a search
of the whole list prints, and falls back to reading the list when the store fails it."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from tests.store_damage import damage_table

from paperdeck.cli.main import main
from paperdeck.core.library import load_library
from paperdeck.core.model import Paper
from paperdeck.core.store import database, stored_papers
from paperdeck.core.store.columns import Damaged, decode_flags
from paperdeck.core.store.database import ListStore
from paperdeck.core.store.stored_papers import open_stored

DATA = Path(__file__).parents[1] / "data"
QUERIES = [
    "speculative decoding",
    "graph neural",
    "reinforcement learning policy",
    "title:diffusion",
]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PAPERDECK_CACHE", str(folder))
    monkeypatch.setenv("PAPERDECK_NOTES", str(tmp_path / "notes.json"))
    return folder


@pytest.fixture
def listing(tmp_path: Path) -> Path:
    """Two chunks' worth of papers (the sample and the ICML 2026 slice)."""
    path = tmp_path / "papers.txt"
    text = (DATA / "abstracts_sample.txt").read_text(encoding="utf-8")
    text += "\n\n" + (DATA / "icml2026-150.txt").read_text(encoding="utf-8").split("\n\n", 1)[1]
    path.write_text(text, encoding="utf-8")
    return path


def _search(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    status = main(["search", *arguments])
    out, err = capsys.readouterr()
    return status, out, err


def _whole_list_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *arguments: str
) -> str:
    with monkeypatch.context() as patch:
        patch.setenv("PAPERDECK_CACHE", "off")
        status, out, _ = _search(capsys, *arguments)
    assert status == 0
    return out


def _fields(papers: Sequence[Paper]) -> list[tuple[object, ...]]:
    # Papers compare by identity.
    return [tuple(getattr(paper, f.name) for f in fields(Paper)) for paper in papers]


def _no_whole_load(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("the list was loaded whole")

    monkeypatch.setattr("paperdeck.core.library.load_library", refuse)


@pytest.mark.parametrize("json_output", [False, True], ids=["lines", "json"])
def test_a_stored_list_is_searched_without_loading_it_and_prints_the_same(
    cache: Path,
    listing: Path,
    json_output: bool,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    extra = ["--json"] if json_output else []
    expected = {
        q: _whole_list_output(capsys, monkeypatch, q, *extra, str(listing)) for q in QUERIES
    }
    assert _search(capsys, QUERIES[0], str(listing))[0] == 0  # stores the list and its index
    _no_whole_load(monkeypatch)
    for query in QUERIES:
        status, out, err = _search(capsys, query, *extra, str(listing))
        assert status == 0, err
        assert out == expected[query]
        assert out.strip(), query
    if json_output:
        assert json.loads(expected[QUERIES[0]])[0]["matches"]


def test_only_the_papers_looked_at_are_made(
    cache: Path,
    listing: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert _search(capsys, "speculative decoding", str(listing))[0] == 0
    count = len(load_library([listing]).papers)
    made: list[int] = []
    original = stored_papers.paper_at

    def counting(columns: dict[str, Any], at: int) -> Paper:
        made.append(at)
        return original(columns, at)

    monkeypatch.setattr(stored_papers, "paper_at", counting)
    status, out, _ = _search(capsys, "speculative decoding", "--limit", "3", str(listing))
    assert status == 0
    assert len([line for line in out.splitlines() if not line.startswith("-- ")]) == 3
    assert made == []  # a line is an id and a title, read from their columns
    status, out, _ = _search(capsys, "speculative decoding", "--limit", "3", "--json", str(listing))
    assert status == 0 and len(json.loads(out)) == 3
    assert 3 <= len(made) < count / 4


def test_a_store_damaged_under_the_search_falls_back_to_the_list(
    cache: Path,
    listing: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    expected = _whole_list_output(capsys, monkeypatch, "graph neural", str(listing))
    assert _search(capsys, "graph neural", str(listing))[0] == 0
    with sqlite3.connect(cache / database.FILE_NAME) as db:
        titles = db.execute("SELECT titles FROM chunks WHERE number = 1").fetchone()[0]
        db.execute("UPDATE chunks SET titles = ? WHERE number = 1", (titles[:-1] + b"!",))
    status, out, err = _search(capsys, "graph neural", str(listing))
    assert status == 0
    assert out == expected
    assert len(err.splitlines()) == 1 and "read again" in err


def test_stored_papers_are_the_papers_the_list_loads(cache: Path, listing: Path) -> None:
    load_library([listing])
    whole = load_library([listing], abstracts=False).papers
    assert not any(paper.abstract for paper in whole)
    store = ListStore.open([])
    assert store is not None
    try:
        stored = open_stored(store, listing, None, use_sidecar=True)
        assert stored is not None
        papers = stored.papers
        assert len(papers) == len(whole)
        assert _fields(papers) == _fields(whole)
        assert _fields([papers[-1]]) == _fields([whole[-1]])
        assert _fields(papers[3:9:2]) == _fields(whole[3:9:2])
        assert papers.ids() == [paper.id for paper in whole]
        for at, paper in enumerate(whole):
            assert papers.text(at, "titles") == paper.title
            assert papers.text(at, "methods") == (paper.method or "")
            assert papers.title_derived(at) == paper.title_derived
            assert papers.text(at, "authors") == ", ".join(paper.authors)
        assert papers.derived_flags() == bytes(paper.title_derived for paper in whole)
        with pytest.raises(IndexError):
            papers[len(whole)]
    finally:
        store.close()


def test_a_list_not_stored_or_with_metadata_is_not_opened_lazily(
    cache: Path, listing: Path, tmp_path: Path
) -> None:
    store = ListStore.open([])
    assert store is not None
    try:
        assert open_stored(store, listing, None, use_sidecar=True) is None  # not stored yet
        load_library([listing])
        assert open_stored(store, listing, None, use_sidecar=True) is not None
        sidecar = listing.with_name(listing.stem + ".meta.jsonl")
        sidecar.write_text('{"title": "A title", "abstract": "x"}\n', encoding="utf-8")
        assert open_stored(store, listing, None, use_sidecar=True) is None
        assert open_stored(store, listing, None, use_sidecar=False) is not None
    finally:
        store.close()


@pytest.mark.parametrize("data", [b"0\x002\x001", b"0\x0011\x00", b"0\x001", b"0\x011\x000", b""])
def test_title_flags_other_than_one_byte_0_or_1_each_are_refused(data: bytes) -> None:
    with pytest.raises(Damaged):
        decode_flags(data, 3)


def test_title_flags_are_read_as_bytes() -> None:
    assert decode_flags(b"0\x001\x000", 3) == b"\x00\x01\x00"
    assert decode_flags(b"1", 1) == b"\x01"


def test_related_on_a_stored_list_prints_what_the_whole_list_gives(
    cache: Path,
    listing: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def related(*arguments: str) -> str:
        status = main(["related", *arguments, str(listing)])
        out, err = capsys.readouterr()
        assert status == 0, err
        return out

    asked = [["12"], ["12", "--json"], ["300", "--limit", "5"]]
    with monkeypatch.context() as patch:
        patch.setenv("PAPERDECK_CACHE", "off")
        expected = [related(*arguments) for arguments in asked]
    related("12")  # stores the list's index
    _no_whole_load(monkeypatch)
    for arguments, out in zip(asked, expected, strict=True):
        assert related(*arguments) == out and out.strip()


def test_list_on_a_stored_list_prints_the_same_lines_without_making_papers(
    cache: Path,
    listing: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def listed() -> str:
        status = main(["list", str(listing)])
        out, err = capsys.readouterr()
        assert status == 0, err
        return out

    with monkeypatch.context() as patch:
        patch.setenv("PAPERDECK_CACHE", "off")
        expected = listed()
    assert listed() == expected  # stores the list
    assert len(expected.splitlines()) == len(load_library([listing]).papers)
    with monkeypatch.context() as patch:
        _no_whole_load(patch)
        patch.setattr(stored_papers, "paper_at", None)  # no paper is made at all
        assert listed() == expected
    with sqlite3.connect(cache / database.FILE_NAME) as db:
        ids = db.execute("SELECT ids FROM chunks WHERE number = 0").fetchone()[0]
        db.execute("UPDATE chunks SET ids = ? WHERE number = 0", (b"f" + ids[1:],))
    status = main(["list", str(listing)])
    out, err = capsys.readouterr()
    assert status == 0 and out == expected
    assert len(err.splitlines()) == 1 and "read again" in err


def test_note_tag_and_mark_on_a_stored_list_read_one_paper_and_keep_the_same_entry(
    cache: Path,
    listing: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def entries(notes: Path) -> dict[str, dict[str, object]]:
        for command in (["note", "40", "--set", "read later"], ["tag", "40", "+rl"]):
            assert main([*command, str(listing), "--notes", str(notes)]) == 0
        assert main(["mark", "40", "star", str(listing), "--notes", str(notes)]) == 0
        capsys.readouterr()
        papers = json.loads(notes.read_text(encoding="utf-8"))["papers"]
        drop = ("created", "updated", "read_at", "starred_at", "tagged_at")
        return {pid: {k: v for k, v in e.items() if k not in drop} for pid, e in papers.items()}

    with monkeypatch.context() as patch:
        patch.setenv("PAPERDECK_CACHE", "off")
        expected = entries(tmp_path / "whole.json")
    load_library([listing])  # stored
    _no_whole_load(monkeypatch)
    assert entries(tmp_path / "stored.json") == expected
    (entry,) = expected.values()
    assert entry["note"] == "read later" and entry["tags"] == ["rl"] and entry["excerpt"]


def test_the_first_search_of_a_list_stored_by_list_builds_and_keeps_its_index(
    cache: Path,
    listing: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    expected = _whole_list_output(capsys, monkeypatch, "graph neural", str(listing))
    assert main(["list", str(listing)]) == 0  # the list is stored, its index is not
    capsys.readouterr()
    status, out, err = _search(capsys, "graph neural", str(listing))
    assert (status, out, err) == (0, expected, "")
    _no_whole_load(monkeypatch)  # the index was kept: no abstracts are needed again
    assert _search(capsys, "graph neural", str(listing)) == (0, expected, "")


def test_a_lists_warning_is_told_once_when_its_index_is_built_from_the_store(
    cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = (DATA / "icml_sample.jsonl").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "broken.jsonl"
    path.write_text("\n".join([*lines[:5], '{"broken', *lines[5:]]) + "\n", encoding="utf-8")
    assert main(["list", str(path)]) == 0
    assert capsys.readouterr().err.count("skipped") == 1
    for _ in range(2):  # the index built (from the stored list), then opened
        status, out, err = _search(capsys, "learning", str(path))
        assert status == 0 and out
        assert err.count("skipped") == 1 and len(err.splitlines()) == 1, err


def test_stored_fields_read_alone_equal_the_papers_fields(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "titled.jsonl"
    path.write_text((DATA / "icml_sample.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    load_library([path])
    whole = load_library([path], abstracts=False).papers
    assert any(paper.authors for paper in whole)
    store = ListStore.open([])
    assert store is not None
    try:
        stored = open_stored(store, path, None, use_sidecar=True)
        assert stored is not None
        for at, paper in enumerate(whole):
            assert stored.papers.text(at, "ids") == paper.id
            assert stored.papers.text(at, "titles") == paper.title
            assert stored.papers.text(at, "methods") == (paper.method or "")
            assert stored.papers.text(at, "authors") == ", ".join(paper.authors)
    finally:
        store.close()


def test_a_search_reads_the_ids_of_a_stored_list_only_to_look_up_its_notes(
    cache: Path,
    listing: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    notes = str(tmp_path / "notes.json")
    assert main(["mark", "3", "star", str(listing), "--notes", notes]) == 0
    capsys.readouterr()
    expected = {
        query: _whole_list_output(capsys, monkeypatch, query, "--notes", notes, str(listing))
        for query in ("graph neural", "is:starred", "like:3 graph")
    }
    assert _search(capsys, "graph neural", str(listing))[0] == 0  # the index is kept
    read: list[str] = []
    original = ListStore.ids_and_flags

    def counting(store: ListStore, key: str, count: int) -> tuple[list[str], bytes]:
        read.append(key)
        return original(store, key, count)

    monkeypatch.setattr(ListStore, "ids_and_flags", counting)
    _no_whole_load(monkeypatch)
    assert _search(capsys, "graph neural", "--notes", notes, str(listing)) == (
        0,
        expected["graph neural"],
        "",
    )
    assert read == []
    for query in ("is:starred", "like:3 graph"):
        status, out, err = _search(capsys, query, "--notes", notes, str(listing))
        assert (status, out, err) == (0, expected[query], "")
        assert out.strip()
    assert read


def test_a_made_up_title_is_marked_in_list_search_and_related_lines(
    cache: Path, listing: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    titled = DATA / "icml_sample.jsonl"
    printed = []
    for _ in range(2):  # read from the list, then from the store
        assert main(["list", str(listing)]) == 0
        printed.append(capsys.readouterr().out.splitlines())
    assert printed[0] == printed[1]
    assert len(printed[0]) == len(load_library([listing]).papers)
    assert all(line.split(maxsplit=2)[2].startswith("≈ ") for line in printed[0])
    assert main(["list", str(titled)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and not any("≈" in line for line in lines)
    for arguments in (["search", "learning", str(listing)], ["related", "1", str(listing)]):
        assert main([*arguments, "--limit", "3"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert len(lines) == 3
        assert all(line.split(maxsplit=3)[3].startswith("≈ ") for line in lines)
    assert main(["search", "title:learning", str(titled), "--limit", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and not any("≈" in line for line in lines)


@pytest.mark.parametrize(
    "command", [["show", "3"], ["related", "3"], ["cite", "3"], ["search", "learning"], ["list"]]
)
def test_a_cache_path_that_is_a_file_is_named_once_in_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    listing: Path,
    command: list[str],
) -> None:
    """PAPERDECK_CACHE naming a file: before, "unavailable (File exists)", and show said it
    twice; the command still works from the list."""
    blocker = tmp_path / "cache-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("PAPERDECK_CACHE", str(blocker))
    monkeypatch.setenv("PAPERDECK_NOTES", str(tmp_path / "notes.json"))
    assert main([*command, str(listing)]) == 0
    out, err = capsys.readouterr()
    assert out
    told = [line for line in err.splitlines() if "list store" in line]
    assert told == [
        f"paperdeck: list store {blocker / database.FILE_NAME} unavailable "
        f"({blocker} is a file, not a folder); lists read without it"
    ]
    assert blocker.read_text(encoding="utf-8") == "not a folder"


@pytest.mark.parametrize("table", ["postings", "sqlite_autoindex_chunks_1"])
def test_a_store_file_damaged_under_a_kept_index_is_never_a_wrong_result(
    cache: Path,
    listing: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    table: str,
) -> None:
    """A page of the store's file damaged (the postings a kept index reads, or what finds a
    list's chunks): the search reads the list again, says so in one line, and prints what a
    search of the list prints; the damaged file is gone, so the next command needs no
    word about it."""
    expected = _whole_list_output(capsys, monkeypatch, "graph neural", str(listing))
    assert _search(capsys, "graph neural", str(listing)) == (0, expected, "")
    damage_table(cache / database.FILE_NAME, table)
    status, out, err = _search(capsys, "graph neural", str(listing))
    assert (status, out) == (0, expected)
    assert len(err.splitlines()) == 1
    assert "malformed" in err and "read again" in err
    assert _search(capsys, "graph neural", str(listing)) == (0, expected, "")


def test_a_list_in_a_damaged_store_file_is_listed_from_the_list_file(
    cache: Path, listing: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["list", str(listing)]) == 0
    expected = capsys.readouterr().out
    damage_table(cache / database.FILE_NAME, "sqlite_autoindex_chunks_1")
    assert main(["list", str(listing)]) == 0
    out, err = capsys.readouterr()
    assert out == expected and "unreadable" not in out
    assert len(err.splitlines()) == 1 and "read again" in err
    assert main(["list", str(listing)]) == 0
    assert capsys.readouterr() == (expected, "")


def test_a_damaged_kept_posting_is_never_a_wrong_result(
    cache: Path,
    listing: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A word's kept postings hold paper numbers beyond the list (bytes changed on disk, the
    file itself sound): the search reads the list again rather than take the word as in no
    paper, and says so in one line."""
    expected = _whole_list_output(capsys, monkeypatch, "graph neural", str(listing))
    assert _search(capsys, "graph neural", str(listing)) == (0, expected, "")
    with sqlite3.connect(cache / database.FILE_NAME) as db:
        damaged = (10_000_000).to_bytes(4, "little") * 3
        db.execute("UPDATE postings SET docs = ? WHERE field = 3 AND word = 'graph'", (damaged,))
    db.close()
    status, out, err = _search(capsys, "graph neural", str(listing))
    assert (status, out) == (0, expected)
    assert len(err.splitlines()) == 1 and "postings are damaged" in err and "read again" in err
    assert _search(capsys, "graph neural", str(listing)) == (0, expected, "")


def test_export_by_query_on_a_damaged_kept_posting_exports_every_paper_found(
    cache: Path, listing: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def exported() -> tuple[list[str], str]:
        assert main(["export", "--query", "graph neural", "--format", "json", str(listing)]) == 0
        out, err = capsys.readouterr()
        return [paper["id"] for paper in json.loads(out)], err

    expected, said = exported()  # reads the list, keeps it and its index
    assert expected and said == ""
    assert exported() == (expected, "")  # from the kept index
    with sqlite3.connect(cache / database.FILE_NAME) as db:
        damaged = (10_000_000).to_bytes(4, "little") * 3
        db.execute("UPDATE postings SET docs = ? WHERE field = 3 AND word = 'graph'", (damaged,))
    db.close()
    ids, said = exported()
    assert ids == expected
    assert len(said.splitlines()) == 1 and "postings are damaged" in said

"""A stored list is recognised by its file's fingerprint without reading it, and a changed file
never comes back with the old papers (whatever it kept of its size, mtime, inode or path)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from paperdeck.cli.main import main
from paperdeck.core.library import load_library
from paperdeck.core.model import Paper
from paperdeck.core.store import database, key

SAMPLE = Path(__file__).parents[1] / "data" / "abstracts_sample.txt"
SETTLED = 0.05
"""The settling time the tests use (the real one, two seconds, would make them slow): well
above this machine's coarse timestamp tick, so what holds for it holds for the real one."""


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PAPERDECK_CACHE", str(folder))
    monkeypatch.setattr(key, "SETTLED_SECONDS", SETTLED)
    return folder


@pytest.fixture
def listing(tmp_path: Path) -> Path:
    path = tmp_path / "sample.txt"
    shutil.copyfile(SAMPLE, path)
    _settle()
    return path


def _variant(number: int) -> str:
    """The sample list with its first paper changed: another list's bytes."""
    return SAMPLE.read_text(encoding="utf-8").replace("Transformer", f"Variant {number}", 1)


def _settle() -> None:
    time.sleep(SETTLED * 3)


def _shown(papers: list[Paper]) -> list[tuple[object, ...]]:
    return [(p.id, p.position, p.title, p.method, p.abstract) for p in papers]


def _fresh(path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Paper]:
    with monkeypatch.context() as patch:
        patch.setenv("PAPERDECK_CACHE", "off")
        return load_library([path]).papers


def _fingerprints(cache: Path) -> list[tuple[bytes, str, str]]:
    with sqlite3.connect(cache / database.FILE_NAME) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        if "fingerprints" not in tables:  # made with the first fingerprint kept
            return []
        return list(db.execute("SELECT path, fingerprint, digest FROM fingerprints"))


def _hashing_counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every full read of a file for its digest, counted."""
    calls: list[int] = []
    original = key._digest_of

    def counting(handle: object) -> str:
        calls.append(1)
        return original(handle)  # type: ignore[arg-type]

    monkeypatch.setattr(key, "_digest_of", counting)
    return calls


def _same_size_edit(path: Path, old: str, new: str) -> None:
    """Rewrite the file in place with `old` replaced by `new`, keeping its size and mtime."""
    assert len(old.encode()) == len(new.encode())
    status = path.stat()
    text = path.read_text(encoding="utf-8")
    assert old in text
    with path.open("r+b") as handle:  # in place: same inode
        handle.write(text.replace(old, new, 1).encode("utf-8"))
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (
        status.st_size,
        status.st_mtime_ns,
        status.st_ino,
    )


def test_an_unchanged_list_is_reopened_without_reading_its_bytes(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = load_library([listing])
    assert len(_fingerprints(cache)) == 1
    hashed = _hashing_counted(monkeypatch)
    again = load_library([listing])
    assert hashed == []
    assert again.keys == first.keys
    assert _shown(again.papers) == _shown(first.papers)


def test_a_list_edited_in_place_keeping_size_and_mtime_is_read_again(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = load_library([listing])
    assert len(_fingerprints(cache)) == 1
    _same_size_edit(listing, "Transformer-based models", "Transformer-BASED models")
    hashed = _hashing_counted(monkeypatch)
    reopened = load_library([listing])
    assert hashed  # the ctime told the file changed
    assert reopened.keys != before.keys
    assert _shown(reopened.papers) == _shown(_fresh(listing, monkeypatch))
    assert reopened.papers[0].abstract.startswith("Transformer-BASED models")


def test_a_list_replaced_by_rename_with_the_same_size_and_mtime_is_read_again(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_library([listing])
    status = listing.stat()
    text = listing.read_text(encoding="utf-8")
    replacement = listing.with_name("new.txt")
    replacement.write_text(text.replace("Transformer", "Tranzformer", 1), encoding="utf-8")
    os.utime(replacement, ns=(status.st_atime_ns, status.st_mtime_ns))
    os.replace(replacement, listing)
    reopened = load_library([listing]).papers
    assert reopened[0].abstract.startswith("Tranzformer")
    assert _shown(reopened) == _shown(_fresh(listing, monkeypatch))


def test_a_list_changed_moments_ago_is_not_fingerprinted(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its next change could fall in the same timestamp tick: it is hashed until it settles.
    monkeypatch.setattr(key, "SETTLED_SECONDS", 3600.0)
    load_library([listing])
    assert _fingerprints(cache) == []
    hashed = _hashing_counted(monkeypatch)
    load_library([listing])
    assert hashed == [1]


def test_a_damaged_fingerprint_is_ignored(
    cache: Path, listing: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "other.txt"
    other.write_text(_variant(0), encoding="utf-8")
    _settle()
    load_library([other])
    sample = load_library([listing])
    rows = {path: digest for path, _, digest in _fingerprints(cache)}
    # The sample's fingerprint now names the other list's bytes, checksum left as it was.
    with sqlite3.connect(cache / database.FILE_NAME) as db:
        db.execute(
            "UPDATE fingerprints SET digest = ? WHERE path = ?",
            (rows[os.fsencode(os.path.realpath(other))], os.fsencode(os.path.realpath(listing))),
        )
    assert _shown(load_library([listing]).papers) == _shown(sample.papers)


def test_a_store_from_before_fingerprints_gains_the_table(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = load_library([listing])
    with sqlite3.connect(cache / database.FILE_NAME) as db:
        db.execute("DROP TABLE fingerprints")
    again = load_library([listing])  # keyed by hashing, then fingerprinted
    assert again.keys == first.keys
    assert len(_fingerprints(cache)) == 1


def test_the_fingerprints_kept_are_bounded(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(database, "MAX_FINGERPRINTS", 2)
    paths = []
    for number in range(4):
        path = tmp_path / f"list{number}.txt"
        path.write_text(_variant(number), encoding="utf-8")
        paths.append(path)
    _settle()
    for path in paths:
        load_library([path])
    kept = {path for path, _, _ in _fingerprints(cache)}
    assert kept == {os.fsencode(os.path.realpath(path)) for path in paths[2:]}


def test_the_cli_lists_a_retitled_paper_after_a_same_size_edit(
    cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "titled.jsonl"
    records = [
        {"title": "Alpha Networks for Ranking", "abstract": "We rank things with alpha nets."},
        {"title": "Beta Trees for Search", "abstract": "We search things with beta trees."},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    _settle()
    notes = str(tmp_path / "notes.json")
    assert main(["list", str(path), "--notes", notes]) == 0
    assert "Beta Trees for Search" in capsys.readouterr().out
    assert main(["list", str(path), "--notes", notes]) == 0  # from the store, by fingerprint
    assert "Beta Trees for Search" in capsys.readouterr().out
    _same_size_edit(path, "Beta Trees", "Gamma Tree")
    assert main(["list", str(path), "--notes", notes]) == 0
    out = capsys.readouterr().out
    assert "Gamma Tree for Search" in out
    assert "Beta Trees" not in out

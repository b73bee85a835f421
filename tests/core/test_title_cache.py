"""The title cache: a warm load equals a cold one, and a bad or stale cache is only ignored."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from paperdeck.core.library import load_library
from paperdeck.core.model import Paper
from paperdeck.core.resources import bundled_list
from paperdeck.core.titles import cache as title_cache
from paperdeck.core.titles.derive import method_and_title

SAMPLE = Path(__file__).parents[1] / "data" / "abstracts_sample.txt"


def _shown(papers: list[Paper]) -> list[tuple[str, str, bool, str | None]]:
    return [(p.id, p.title, p.title_derived, p.method) for p in papers]


def _cache_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("titles-*.bin"))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PAPERDECK_CACHE", str(folder))
    return folder


@pytest.fixture
def listing(tmp_path: Path) -> Path:
    path = tmp_path / "sample.txt"
    shutil.copyfile(SAMPLE, path)
    return path


def test_warm_load_matches_cold_load_and_skips_titles(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = load_library([listing]).papers
    assert len(_cache_files(cache)) == 1
    for paper in cold:
        method, title = method_and_title(paper.abstract)
        assert (paper.title, paper.method, paper.title_derived) == (title, method, True)

    def fail(abstracts: list[str]) -> list[tuple[str | None, str]]:
        raise AssertionError(f"{len(abstracts)} titles computed despite a warm cache")

    monkeypatch.setattr("paperdeck.core.library.methods_and_titles", fail)
    warm = load_library([listing]).papers
    assert _shown(warm) == _shown(cold)
    assert len(cold) > 100


def test_bundled_list_titles_come_back_identical(cache: Path) -> None:
    cold = load_library([bundled_list()]).papers
    warm = load_library([bundled_list()]).papers
    assert _shown(warm) == _shown(cold)
    assert len({p.title for p in warm}) == 19


def test_no_write_when_nothing_new(cache: Path, listing: Path) -> None:
    load_library([listing])
    [file] = _cache_files(cache)
    before = file.stat().st_ino, file.read_bytes()
    load_library([listing])
    # A rewrite goes through a temporary file and os.replace, so it would change the inode.
    assert (file.stat().st_ino, file.read_bytes()) == before
    assert [p.name for p in cache.iterdir()] == [file.name]


def test_changed_abstract_is_recomputed(cache: Path, listing: Path) -> None:
    load_library([listing])
    text = listing.read_text(encoding="utf-8")
    first = text.split("\n\n")[0]
    edited = "We propose ZorbaNet, a zero-shot router for sparse experts. " + first
    listing.write_text(text.replace(first, edited, 1), encoding="utf-8")
    papers = load_library([listing]).papers
    assert papers[0].method == "ZorbaNet"
    assert papers[0].title == method_and_title(papers[0].abstract)[1]


@pytest.mark.parametrize(
    "garbage",
    [b"", b"\x00\x01garbage", b"\xff" * 100, b"{not marshal"],
    ids=["empty", "binary", "ff", "text"],
)
def test_corrupt_cache_is_ignored(cache: Path, listing: Path, garbage: bytes) -> None:
    cold = _shown(load_library([listing]).papers)
    [file] = _cache_files(cache)
    file.write_bytes(garbage)
    assert _shown(load_library([listing]).papers) == cold
    # The load recomputed everything and wrote a good cache again.
    assert file.read_bytes() != garbage
    assert _shown(load_library([listing]).papers) == cold


def test_truncated_cache_is_ignored(cache: Path, listing: Path) -> None:
    cold = _shown(load_library([listing]).papers)
    [file] = _cache_files(cache)
    file.write_bytes(file.read_bytes()[: file.stat().st_size // 2])
    assert _shown(load_library([listing]).papers) == cold


def test_wrong_shaped_entries_are_ignored(cache: Path, listing: Path) -> None:
    import marshal

    cold = load_library([listing]).papers
    [file] = _cache_files(cache)
    version = title_cache.algorithm_version()
    bad = {cold[0].id: ("x", 1, 2), cold[1].id: (len(cold[1].abstract), 5, "title")}
    file.write_bytes(marshal.dumps((title_cache.FORMAT, version, bad, ("key", [1, 2]))))
    assert _shown(load_library([listing]).papers) == _shown(cold)


def test_unwritable_cache_folder_is_ignored(
    tmp_path: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PAPERDECK_CACHE", str(blocker / "cache"))
    papers = load_library([listing]).papers
    assert papers and not (blocker / "cache").exists()


def test_off_writes_nothing(tmp_path: Path, listing: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERDECK_CACHE", "off")
    monkeypatch.setattr(
        "platformdirs.user_cache_path", lambda *a, **k: pytest.fail("cache folder asked for")
    )
    before = sorted(tmp_path.rglob("*"))
    papers = load_library([listing]).papers
    assert papers
    assert sorted(tmp_path.rglob("*")) == before


def test_algorithm_change_invalidates(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_library([listing])
    calls: list[str] = []

    def counting(abstracts: list[str]) -> list[tuple[str | None, str]]:
        calls.extend(abstracts)
        return [method_and_title(abstract) for abstract in abstracts]

    monkeypatch.setattr("paperdeck.core.library.methods_and_titles", counting)
    load_library([listing])
    assert calls == []
    monkeypatch.setattr(title_cache, "_algorithm_version", "a-newer-titles-py")
    papers = load_library([listing]).papers
    assert len(calls) == len(papers)


def test_version_follows_titles_source() -> None:
    import hashlib

    from paperdeck.core.titles import derive as titles

    source = Path(titles.__file__).read_bytes()
    assert title_cache.algorithm_version() == hashlib.sha1(source).hexdigest()[:16]


def test_each_list_has_its_own_file_and_old_ones_are_pruned(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(title_cache, "MAX_FILES", 3)
    seed = bundled_list().read_text(encoding="utf-8")
    for index in range(5):
        path = tmp_path / f"list{index}.txt"
        path.write_text(seed, encoding="utf-8")
        load_library([path])
    assert len(_cache_files(cache)) == 3
    assert title_cache.cache_file(tmp_path / "list4.txt") in _cache_files(cache)


def test_ids_are_reused_only_for_the_same_texts(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.core.ids import assign_ids

    cold = load_library([listing]).papers
    calls: list[int] = []

    def counting(texts: list[str]) -> list[str]:
        calls.append(len(texts))
        return assign_ids(texts)

    monkeypatch.setattr("paperdeck.core.library.assign_ids", counting)
    assert _shown(load_library([listing]).papers) == _shown(cold)
    assert calls == []
    paragraphs = listing.read_text(encoding="utf-8").split("\n\n")
    listing.write_text("\n\n".join(reversed(paragraphs)), encoding="utf-8")
    reordered = load_library([listing]).papers
    assert calls == [len(cold)]
    assert sorted(_shown(reordered)) == sorted(_shown(cold))

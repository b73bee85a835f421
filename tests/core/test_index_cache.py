"""The search index cache: a warm index answers as a cold one; stale or damaged ones are rebuilt."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from paperdeck.core.library import load_library
from paperdeck.core.model import Paper
from paperdeck.core.plumbing.slices import finish
from paperdeck.core.search import build, index_cache
from paperdeck.core.search.index import SearchIndex

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "seeds" / "icml2026.txt"
META = ROOT / "tests" / "data" / "icml2026.meta.jsonl"
QUERIES = (
    "speculative decoding",
    "speculatve",
    "reinforcment learning",
    "m",
    "pro",
    "'ing",
    "LLM",
    '"reversal curse"',
    "title:transformer !language",
    "kernel | gaussian",
    "self supervised",
    "year:2026",
    "O(n log n)",
)


@pytest.fixture(scope="module")
def papers() -> list[Paper]:
    return load_library([SEED], meta=[META]).papers


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PAPERDECK_CACHE", str(folder))
    return folder


def _answers(index: SearchIndex) -> list[tuple[list[int], list[float], str | None]]:
    found = []
    for query in QUERIES:
        result = index.search(query)
        found.append((list(result.indices), list(result.scores), result.message))
    return found


def _cold(papers: list[Paper], monkeypatch: pytest.MonkeyPatch) -> SearchIndex:
    with monkeypatch.context() as patch:
        patch.setenv("PAPERDECK_CACHE", "off")
        return SearchIndex(papers)


def _cache_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("search-*.bin")) if folder.exists() else []


def _loads_from_cache(papers: list[Paper]) -> bool:
    """Whether building finds the index in the cache (without building it)."""
    called = False
    original = build.build_steps

    def counting(given: list[Paper]):  # type: ignore[no-untyped-def]
        nonlocal called
        called = True
        return original(given)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(build, "build_steps", counting)
        SearchIndex(papers)
    return not called


def test_warm_index_answers_as_the_cold_one(
    papers: list[Paper], cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = _cold(papers, monkeypatch)
    first = SearchIndex(papers)
    (path,) = _cache_files(cache)
    written = path.stat().st_ino
    assert _loads_from_cache(papers)
    warm = SearchIndex(papers)
    # Only a fresh build writes the cache.
    assert path.stat().st_ino == written
    assert _answers(warm) == _answers(cold) == _answers(first)
    assert warm.match_spans("speculative decoding", 3) == cold.match_spans(
        "speculative decoding", 3
    )


def test_build_steps_from_the_cache_yields_progress_and_the_index(
    papers: list[Paper], cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    SearchIndex(papers)
    steps = SearchIndex.build_steps(papers)
    progress: list[float] = []
    while True:
        try:
            progress.append(next(steps))
        except StopIteration as done:
            index = done.value
            break
    assert progress and progress[-1] == 1.0
    assert progress == sorted(progress)
    assert _answers(index) == _answers(_cold(papers, monkeypatch))


def test_a_first_build_starts_before_the_full_name_is_worked_out(
    papers: list[Paper], cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No cache file shares the papers' ids: the build needs neither the name nor the key.
    named: list[str] = []
    original = index_cache.name_steps

    def name_steps(given: list[Paper], ids_name: str):  # type: ignore[no-untyped-def]
        named.append(ids_name)
        return original(given, ids_name)

    monkeypatch.setattr(index_cache, "name_steps", name_steps)
    steps = SearchIndex.build_steps(papers)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            index: SearchIndex = done.value
            break
    assert named == [] and _cache_files(cache) == []
    finish(index.save_steps())  # as the reader does once the index answers
    assert len(named) == 1 and len(_cache_files(cache)) == 1
    assert _cache_files(cache)[0].name.startswith(f"search-v1-{named[0]}")
    assert _loads_from_cache(papers)
    assert len(named) == 2


def test_a_changed_title_invalidates_the_cache(papers: list[Paper], cache: Path) -> None:
    SearchIndex(papers)
    changed = list(papers)
    changed[5] = dataclasses.replace(changed[5], title="Zygomorphic quokkas")
    assert not _loads_from_cache(changed)
    assert SearchIndex(changed).search("quokkas").indices == [5]
    assert SearchIndex(papers).search("quokkas").indices == []
    assert _loads_from_cache(changed)


@pytest.mark.parametrize(
    "field, value",
    [("method", "Quokkanet"), ("authors", ("Ada Quokka",)), ("abstract", "All about quokkas.")],
)
def test_a_changed_field_invalidates_the_cache(
    papers: list[Paper], cache: Path, field: str, value: object
) -> None:
    SearchIndex(papers)
    changed = list(papers)
    changed[2] = dataclasses.replace(changed[2], **{field: value})
    assert not _loads_from_cache(changed)
    assert list(SearchIndex(changed).search("quokka").indices) == [2]


def test_other_order_is_another_index(papers: list[Paper], cache: Path) -> None:
    SearchIndex(papers)
    backwards = papers[::-1]
    assert not _loads_from_cache(backwards)
    best = SearchIndex(backwards).search("speculative decoding").indices[0]
    assert best == len(papers) - 1 - SearchIndex(papers).search("speculative decoding").indices[0]


@pytest.mark.parametrize("damage", ["garbage", "truncated", "flipped", "empty"])
def test_a_damaged_cache_is_ignored_and_rewritten(
    papers: list[Paper], cache: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    SearchIndex(papers)
    (path,) = _cache_files(cache)
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"\x00\xff" * 500)
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "flipped":
        middle = len(data) // 2
        path.write_bytes(data[:middle] + bytes([data[middle] ^ 0x5A]) + data[middle + 1 :])
    else:
        path.write_bytes(b"")
    assert not _loads_from_cache(papers)
    assert _answers(SearchIndex(papers)) == _answers(_cold(papers, monkeypatch))
    assert path.read_bytes() == data
    assert _loads_from_cache(papers)


def test_an_unreadable_cache_folder_is_ignored(
    papers: list[Paper], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PAPERDECK_CACHE", str(blocker / "cache"))
    assert _answers(SearchIndex(papers)) == _answers(_cold(papers, monkeypatch))


def test_off_writes_nothing(
    papers: list[Paper], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PAPERDECK_CACHE", "off")
    assert not index_cache.enabled()
    SearchIndex(papers)
    assert not _loads_from_cache(papers)
    assert list(tmp_path.iterdir()) == []


def test_only_the_most_recent_caches_are_kept(papers: list[Paper], cache: Path) -> None:
    for count in range(index_cache.MAX_FILES + 2):
        SearchIndex(papers[: count + 3])
    assert len(_cache_files(cache)) == index_cache.MAX_FILES
    assert _loads_from_cache(papers[: index_cache.MAX_FILES + 4])

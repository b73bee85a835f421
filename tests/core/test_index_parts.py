"""Indexing in helper processes: the same index as one process builds, whatever goes wrong."""

from __future__ import annotations

import dataclasses
import io
import os
import subprocess
import tempfile
import time
from array import array
from collections.abc import Callable, Generator, Iterable
from pathlib import Path

import pytest

from paperdeck.core.library import load_library
from paperdeck.core.model import Paper
from paperdeck.core.plumbing import helper_process
from paperdeck.core.plumbing.slices import Clock, finish
from paperdeck.core.search import index_parts
from paperdeck.core.search.index import SearchIndex

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
QUERIES = (
    "speculative decoding",
    "reinforcment learning",
    "m",
    "pr",
    "pro",
    "'ing",
    "LLM",
    "title:transformer !language",
    "author:li",
    "kernel | gaussian",
    "self supervised",
    "O(n log n)",
    '"large language"',
    "year:2022..2023",
)


@pytest.fixture(scope="module")
def papers() -> list[Paper]:
    # Real titles, authors, years and abstracts, and the real seed list after them.
    found = load_library([DATA / "icml_sample.jsonl", ROOT / "seeds" / "icml2026.txt"]).papers
    assert len(found) > 100 and any(paper.authors for paper in found)
    return found


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERDECK_CACHE", "off")


def _answers(index: SearchIndex) -> list[tuple[list[int], list[float]]]:
    return [
        (list(result.indices), list(result.scores))
        for result in (index.search(query) for query in QUERIES)
    ]


def _contents(index: SearchIndex) -> list[object]:
    """Every table of the index, in an order that does not depend on how it was built."""

    def table(postings: dict[str, array[int]]) -> dict[str, list[int]]:
        return {word: postings[word].tolist() for word in sorted(postings)}

    # Word starts are worked out as queries ask for them: all of them, here.
    steps = index.word_index.all_word_starts_steps(Clock())
    for _ in steps:
        pass
    return [
        [table(field) for field in index.word_index.postings],
        [table(prefixes) for prefixes in index.word_index.short_prefixes],
        index.word_index.vocabulary,
        index.word_index.buckets,
        {year: docs.tolist() for year, docs in sorted(index.word_index.years.items())},
        index.word_index.ids,
    ]


def _index(papers: list[Paper], helpers: int, monkeypatch: pytest.MonkeyPatch) -> SearchIndex:
    with monkeypatch.context() as patch:
        patch.setenv("PAPERDECK_HELPERS", str(helpers))
        return SearchIndex(papers)


@pytest.mark.parametrize("helpers", [1, 3])
def test_helpers_build_the_index_one_process_builds(
    papers: list[Paper],
    helpers: int,
    monkeypatch: pytest.MonkeyPatch,
    started_helpers: list[helper_process.HelperProcess],
) -> None:
    alone = _index(papers, 0, monkeypatch)
    indexed_here: list[int] = []
    original = index_parts.postings_steps

    def counting(
        fields: list[Iterable[str]], offset: int, clock: Clock
    ) -> Generator[float, None, index_parts.Postings]:
        texts = [list(texts) for texts in fields]
        indexed_here.append(len(texts[0]))
        return original(texts, offset, clock)

    monkeypatch.setattr(index_parts, "postings_steps", counting)
    shared = _index(papers, helpers, monkeypatch)
    assert len(started_helpers) == helpers
    assert all(helper.result_code() == 0 for helper in started_helpers)
    # This process indexed its own part only: the helpers' answers were used.
    own = helper_process.plan(len(papers), helpers, index_parts.OWN_WEIGHT)[0]
    assert indexed_here == [own[1] - own[0]]
    assert _contents(shared) == _contents(alone)
    assert _answers(shared) == _answers(alone)
    assert (
        shared.search("speculative decoding").indices[:2]
        == (alone.search("speculative decoding").indices[:2])
    )


@pytest.mark.parametrize(
    "command",
    [
        "import sys; sys.exit(3)",
        "import sys; sys.stdin.buffer.read(); sys.stdout.buffer.write(b'not marshal at all')",
        "import sys; sys.stdin.buffer.read(); sys.stdout.buffer.write(bytes(8))",
        "import sys; sys.stdin.buffer.read()",  # says nothing, exits 0
    ],
    ids=["crash", "garbage", "empty frame", "silent"],
)
def test_a_failing_helper_has_its_part_built_here(
    papers: list[Paper],
    command: str,
    monkeypatch: pytest.MonkeyPatch,
    started_helpers: list[helper_process.HelperProcess],
    helpers_run: Callable[[str], None],
) -> None:
    alone = _index(papers, 0, monkeypatch)
    helpers_run(command)
    shared = _index(papers, 2, monkeypatch)
    assert len(started_helpers) == 2
    assert _answers(shared) == _answers(alone)


# A real helper's answer, damaged after its first frames: those are merged by then.
_REAL_ANSWER = (
    "import io, sys\n"
    "from paperdeck.core.search import index_parts\n"
    "index_parts._FRAME_POSTINGS = 500\n"  # many frames, merged one by one
    "out = io.BytesIO()\n"
    "index_parts.serve(sys.stdin.buffer, out)\n"
    "answer = out.getvalue()\n"
)


@pytest.mark.parametrize(
    "damage",
    [
        "sys.stdout.buffer.write(answer[:-8] + b'garbage!')",  # the end frame is garbage
        "sys.stdout.buffer.write(answer[: len(answer) * 3 // 4])",  # cut short in a frame
        "sys.stdout.buffer.write(answer + answer)",  # two answers
    ],
    ids=["garbage end", "cut short", "twice"],
)
def test_a_helper_answer_damaged_after_its_first_frames_leaves_no_trace(
    papers: list[Paper],
    damage: str,
    monkeypatch: pytest.MonkeyPatch,
    started_helpers: list[helper_process.HelperProcess],
    helpers_run: Callable[[str], None],
) -> None:
    alone = _index(papers, 0, monkeypatch)
    helpers_run(_REAL_ANSWER + damage)
    shared = _index(papers, 2, monkeypatch)
    assert len(started_helpers) == 2
    assert all(helper.result_code() == 0 for helper in started_helpers)
    assert _contents(shared) == _contents(alone)
    assert _answers(shared) == _answers(alone)


def test_a_helper_that_cannot_start_has_its_part_built_here(
    papers: list[Paper], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = _index(papers, 0, monkeypatch)
    monkeypatch.setattr(
        helper_process, "helper_command", lambda job: [str(tmp_path / "no-such-python")]
    )
    assert _answers(_index(papers, 2, monkeypatch)) == _answers(alone)


def test_without_a_temporary_folder_no_helper_starts_and_the_part_is_built_here(
    papers: list[Paper],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    started_helpers: list[helper_process.HelperProcess],
) -> None:
    # A helper's answer goes to a temporary file: with nowhere to put one, nothing starts.
    alone = _index(papers, 0, monkeypatch)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "no-such-folder"))
    shared = _index(papers, 2, monkeypatch)
    assert len(started_helpers) == 2
    assert all(helper.result_code() is None for helper in started_helpers)  # never started
    assert _answers(shared) == _answers(alone)


def test_a_big_answer_arrives_whole(
    monkeypatch: pytest.MonkeyPatch, helpers_run: Callable[[str], None]
) -> None:
    # Megabytes, far more than a pipe holds: the helper writes it all, then ends.
    answer = bytes(range(256)) * 40_000
    command = (
        f"import sys; sys.stdin.buffer.read(); sys.stdout.buffer.write({answer[:256]!r} * 40_000)"
    )
    helpers_run(command)
    helper = helper_process.HelperProcess("index", lambda stream: stream.write(b"request"))
    try:
        assert helper.output(10.0) == answer
        assert helper.result_code() == 0
    finally:
        helper.close()


def test_an_abandoned_build_stops_its_helpers(
    papers: list[Paper],
    monkeypatch: pytest.MonkeyPatch,
    started_helpers: list[helper_process.HelperProcess],
    helpers_run: Callable[[str], None],
) -> None:
    # A helper that would take a minute: the build is given up long before.
    helpers_run("import time; time.sleep(60)")
    monkeypatch.setenv("PAPERDECK_HELPERS", "2")
    steps: Generator[float, None, SearchIndex] = SearchIndex.build_steps(papers)
    next(steps)
    assert len(started_helpers) == 2
    steps.close()
    assert all(helper.result_code() is not None for helper in started_helpers)


def test_a_stalled_helper_is_given_up(
    papers: list[Paper],
    monkeypatch: pytest.MonkeyPatch,
    started_helpers: list[helper_process.HelperProcess],
    helpers_run: Callable[[str], None],
) -> None:
    alone = _index(papers, 0, monkeypatch)
    helpers_run("import time; time.sleep(60)")
    monkeypatch.setattr(helper_process, "PATIENCE", 0.3)
    began = time.monotonic()
    shared = _index(papers, 1, monkeypatch)
    assert time.monotonic() - began < 10
    assert _answers(shared) == _answers(alone)
    assert started_helpers[0].result_code() is not None  # stopped, not left running


def test_a_paper_the_helper_cannot_be_sent_has_its_part_built_here(
    papers: list[Paper],
    monkeypatch: pytest.MonkeyPatch,
    started_helpers: list[helper_process.HelperProcess],
) -> None:
    class Text(str):
        """A str subclass: marshal refuses it."""

    odd = [*papers[:-1], dataclasses.replace(papers[-1], title=Text(papers[-1].title))]
    alone = _index(odd, 0, monkeypatch)
    began = time.monotonic()
    shared = _index(odd, 1, monkeypatch)
    # Stopped at once, not after the patience for a stalled helper (5 s).
    assert time.monotonic() - began < 4
    assert started_helpers[0].result_code() not in (None, 0)
    assert _answers(shared) == _answers(alone)


def test_helper_count_follows_the_setting_the_cores_and_the_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PAPERDECK_HELPERS", "3")
    assert index_parts.helper_count(100) == 3
    assert index_parts.helper_count(2) == 1  # every part has a paper
    monkeypatch.setenv("PAPERDECK_HELPERS", "0")
    assert index_parts.helper_count(100_000) == 0
    monkeypatch.setenv("PAPERDECK_HELPERS", "many")  # not a number: as if unset
    monkeypatch.setattr(os, "sched_getaffinity", lambda _: {0, 1}, raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))  # an idle machine
    assert index_parts.helper_count(100_000) == 1
    assert index_parts.helper_count(5_000) == 0  # a small list is indexed faster alone
    monkeypatch.setattr(os, "getloadavg", lambda: (2.3, 0.0, 0.0))  # both cores just busy
    assert index_parts.helper_count(100_000) == 1
    monkeypatch.setattr(os, "getloadavg", lambda: (3.1, 0.0, 0.0))  # and more work queued
    assert index_parts.helper_count(100_000) == 0
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    monkeypatch.setattr(os, "sched_getaffinity", lambda _: set(range(32)))
    assert index_parts.helper_count(100_000) == 7
    assert index_parts.helper_count(30_000) == 2
    monkeypatch.setattr(os, "sched_getaffinity", lambda _: {0})
    assert index_parts.helper_count(100_000) == 0


@pytest.mark.parametrize("papers_count, helpers", [(0, 0), (1, 0), (5, 4), (100_000, 1), (7, 3)])
@pytest.mark.parametrize("own_weight", [1.0, 1.15, 0.5, 0.0])
def test_plan_covers_every_paper_once_in_order(
    papers_count: int, helpers: int, own_weight: float
) -> None:
    ranges = helper_process.plan(papers_count, helpers, own_weight)
    covered = [number for start, stop in ranges for number in range(start, stop)]
    assert covered == list(range(papers_count))
    # The caller's own range comes first, empty when it weighs nothing; a helper's never is.
    assert ranges[0][0] == 0
    assert (ranges[0][1] == 0) == (papers_count == 0 or (own_weight == 0 and helpers > 0))
    assert all(stop > start for start, stop in ranges[1:])


def test_the_helper_process_answers_a_request_and_refuses_anything_else(
    papers: list[Paper],
) -> None:
    request = io.BytesIO()
    index_parts.write_request(request, papers[:40], 100)
    command = helper_process.helper_command("paperdeck.core.search.index_parts:serve")
    done = subprocess.run(command, input=request.getvalue(), capture_output=True, check=False)
    assert done.returncode == 0
    postings: index_parts.Postings = [{} for _ in range(index_parts.FIELD_COUNT)]
    assert finish(index_parts.merge_answer_steps(postings, done.stdout, 100, Clock()))
    numbers = {number for docs in postings[3].values() for number in docs}
    assert numbers == set(range(100, 140))
    for garbage in (b"hello", b"\xff" * 8 + b"x", request.getvalue()[:-3]):
        refused = subprocess.run(command, input=garbage, capture_output=True, check=False)
        assert refused.returncode == 2 and refused.stdout == b""
        assert b"Traceback" not in refused.stderr


def test_word_starts_worked_out_on_demand_match_the_words(
    papers: list[Paper], monkeypatch: pytest.MonkeyPatch
) -> None:
    index = _index(papers, 0, monkeypatch)
    for field in (0, 2):  # title, authors
        words = list(index.word_index.postings[field])
        prefixes = {word[:1] for word in words} | {word[:2] for word in words}
        assert len(prefixes) > 20
        for prefix in sorted(prefixes):
            expected = sorted(
                {
                    number
                    for word in words
                    if word.startswith(prefix)
                    for number in index.word_index.postings[field][word]
                }
            )
            steps = index.word_index.word_starts_steps(field, prefix, Clock())
            while True:
                try:
                    next(steps)
                except StopIteration as done:
                    assert done.value.tolist() == expected, prefix
                    break

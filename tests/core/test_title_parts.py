"""Titles derived in helper processes: the same papers as one process makes, whatever fails."""

from __future__ import annotations

import dataclasses
import gc
import io
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Generator
from concurrent.futures import Future
from pathlib import Path
from typing import IO, Any

import pytest

from paperdeck.core.library import LoadOptions, load_library, methods_and_titles
from paperdeck.core.model import Paper
from paperdeck.core.plumbing import helper_process
from paperdeck.core.plumbing.slices import finish
from paperdeck.core.search import index_parts
from paperdeck.core.search.index import SearchIndex
from paperdeck.core.titles import derive
from paperdeck.core.titles import parts as title_parts
from paperdeck.core.titles.derive import cited_title, method_and_title, method_and_titles

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "tests" / "data" / "abstracts_sample.txt"


def derive_all(abstracts: list[str]) -> list[tuple[str | None, str] | None]:
    """Every abstract's method and title, asked for in ranges as a list's load asks."""
    with title_parts.TitleParts(abstracts, methods_and_titles) as titles:
        return [
            entry
            for start in range(0, len(abstracts), 100)
            for entry in titles.derive(start, min(start + 100, len(abstracts)))
        ]


@pytest.fixture(scope="module")
def abstracts() -> list[str]:
    text = SAMPLE.read_text("utf-8")
    found = [part.strip() for part in text.split("\n\n")[1:] if part.strip()]
    assert len(found) > 200
    return found


@pytest.mark.parametrize("helpers", [1, 3])
def test_helpers_derive_what_this_process_derives(
    abstracts: list[str],
    helpers: int,
    monkeypatch: pytest.MonkeyPatch,
    started_helpers: list[helper_process.HelperProcess],
) -> None:
    monkeypatch.setenv("PAPERDECK_HELPERS", str(helpers))
    derived_here: list[str] = []

    def counting(abstract: str) -> tuple[str | None, str, str | None]:
        derived_here.append(abstract)
        return method_and_titles(abstract)

    # What the library derives here with (helpers are processes of their own: not counted).
    monkeypatch.setattr(derive, "method_and_titles", counting)
    derived = derive_all(abstracts)
    assert len(started_helpers) == helpers
    assert all(helper.result_code() == 0 for helper in started_helpers)
    # This process derived its own part only: the helpers' answers were used.
    own = helper_process.plan(len(abstracts), helpers)[0]
    assert derived_here == abstracts[own[0] : own[1]]
    assert derived == [method_and_titles(abstract) for abstract in abstracts]


@pytest.mark.parametrize(
    "command",
    [
        "import sys; sys.exit(3)",
        "import sys; sys.stdin.buffer.read(); sys.stdout.buffer.write(b'\\x03' + bytes(7))",
        "import sys, marshal; sys.stdin.buffer.read(); "
        "data = marshal.dumps([('M', 'T')]); "
        "sys.stdout.buffer.write(len(data).to_bytes(8, 'little') + data)",  # too few
        "import sys; sys.stdin.buffer.read()",  # says nothing, exits 0
    ],
    ids=["crash", "cut short", "too few", "silent"],
)
def test_a_failing_helper_has_its_part_derived_here(
    abstracts: list[str],
    command: str,
    monkeypatch: pytest.MonkeyPatch,
    started_helpers: list[helper_process.HelperProcess],
    helpers_run: Callable[[str], None],
) -> None:
    monkeypatch.setenv("PAPERDECK_HELPERS", "2")
    helpers_run(command)
    derived = derive_all(abstracts)
    assert len(started_helpers) == 2
    assert derived == [method_and_titles(abstract) for abstract in abstracts]


def test_a_request_that_cannot_be_written_has_its_part_derived_here(
    abstracts: list[str],
    monkeypatch: pytest.MonkeyPatch,
    started_helpers: list[helper_process.HelperProcess],
) -> None:
    def broken(part: list[str], offset: int | None, titles: bool) -> helper_process.Writer:
        def write(stream: IO[bytes]) -> None:
            title_parts._request_writer(part[:10], offset, titles)(stream)
            raise RuntimeError("cannot write the rest")

        return write

    monkeypatch.setenv("PAPERDECK_HELPERS", "1")
    monkeypatch.setattr(title_parts, "_request_writer", broken)
    derived = derive_all(abstracts)
    assert started_helpers[0].result_code() not in (None, 0)
    assert derived == [method_and_titles(abstract) for abstract in abstracts]


def test_a_list_loads_the_same_with_and_without_helpers(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    started_helpers: list[helper_process.HelperProcess],
) -> None:
    monkeypatch.setenv("PAPERDECK_CACHE", "off")
    monkeypatch.setenv("PAPERDECK_HELPERS", "0")
    alone = load_library([SAMPLE]).papers
    monkeypatch.setenv("PAPERDECK_HELPERS", "2")
    shared = load_library([SAMPLE]).papers
    assert len(started_helpers) == 2
    # Papers compare by identity: compare their fields.
    assert list(map(_fields, shared)) == list(map(_fields, alone))


def _fields(paper: Paper) -> tuple[object, ...]:
    return tuple(getattr(paper, field.name) for field in dataclasses.fields(paper))


def test_the_helper_process_answers_a_request_and_refuses_anything_else(
    abstracts: list[str],
) -> None:
    request = io.BytesIO()
    title_parts._request_writer(abstracts[:30], None, True)(request)
    command = helper_process.helper_command("paperdeck.core.titles.parts:serve")
    done = subprocess.run(command, input=request.getvalue(), capture_output=True, check=False)
    assert done.returncode == 0
    expected = [method_and_titles(a) for a in abstracts[:30]]
    assert title_parts._answer(done.stdout, 30) == (expected, b"")
    for bad in (b"hello", b"", request.getvalue()[:-5]):
        refused = subprocess.run(command, input=bad, capture_output=True, check=False)
        assert refused.returncode != 0
    unknown = [*command[:-1], "no-such-job"]
    assert subprocess.run(unknown, input=b"", check=False).returncode == 2


def test_helpers_start_only_on_cores_that_other_work_leaves_idle(
    abstracts: list[str],
    monkeypatch: pytest.MonkeyPatch,
    started_helpers: list[helper_process.HelperProcess],
) -> None:
    monkeypatch.delenv("PAPERDECK_HELPERS", raising=False)
    monkeypatch.setattr(title_parts, "ABSTRACTS_PER_PART", 50)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    expected = [method_and_titles(abstract) for abstract in abstracts]
    monkeypatch.setattr(os, "getloadavg", lambda: (3.0, 1.0, 1.0))  # a core's work queued
    assert derive_all(abstracts) == expected
    assert started_helpers == []
    monkeypatch.setattr(os, "getloadavg", lambda: (2.2, 2.0, 2.0))  # both cores just busy
    assert derive_all(abstracts) == expected
    assert len(started_helpers) == 1
    assert started_helpers[0].result_code() == 0


def test_a_helper_derives_no_empty_abstract(
    abstracts: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [abstracts[0], "", abstracts[1], ""]
    derived_for: list[str] = []

    def counting(abstract: str) -> tuple[str | None, str, str | None]:
        derived_for.append(abstract)
        return method_and_titles(abstract)

    monkeypatch.setattr(title_parts, "method_and_titles", counting)
    request, answer = io.BytesIO(), io.BytesIO()
    title_parts._request_writer(texts, None, True)(request)
    request.seek(0)
    assert title_parts.serve(request, answer) == 0
    assert gc.isenabled(), "the job left the collector off in the process that ran it"
    assert derived_for == abstracts[:2]
    expected = [method_and_titles(abstracts[0]), None, method_and_titles(abstracts[1]), None]
    assert title_parts._answer(answer.getvalue(), 4) == (expected, b"")


def load_with_postings(path: Path) -> tuple[list[Paper], SearchIndex]:
    """A list loaded afresh with the postings its load makes, and the index made from them."""
    grown = index_parts.Growing()
    papers = load_library([path], options=LoadOptions(grown=grown)).papers
    assert grown.complete == len(papers)
    return papers, finish(SearchIndex.build_steps(papers, None, None, grown))


def postings_of(index: SearchIndex) -> list[dict[str, list[int]]]:
    return [
        {word: list(docs) for word, docs in field.items()} for field in index.word_index.postings
    ]


@pytest.mark.parametrize("helpers", ["0", "2"])
def test_postings_made_while_loading_are_those_of_a_build(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    started_helpers: list[helper_process.HelperProcess],
    helpers: str,
) -> None:
    path = tmp_path / "list.txt"
    text = SAMPLE.read_text("utf-8")
    path.write_text(text + "\n\n" + text, encoding="utf-8")  # repeats: ids with a suffix
    monkeypatch.setenv("PAPERDECK_CACHE", "off")
    monkeypatch.setenv("PAPERDECK_HELPERS", helpers)
    papers, index = load_with_postings(path)
    assert len(started_helpers) == int(helpers)
    assert all(helper.result_code() == 0 for helper in started_helpers)
    built = SearchIndex(papers)
    assert postings_of(index) == postings_of(built)
    assert index.word_index.vocabulary == built.word_index.vocabulary
    for query in ("graph", "learning policy", "zzzz", "reinforcment"):
        assert index.search(query).indices == built.search(query).indices


def test_how_far_the_postings_go_is_told_while_a_batch_is_being_indexed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The reader asks, as a key is typed while a list loads, how many papers the postings
    cover; the load's thread holds the lock for as long as a batch takes to index, and the
    answer used to wait for it (the typing with it)."""
    import threading

    monkeypatch.setenv("PAPERDECK_CACHE", "off")
    papers = load_library([SAMPLE]).papers
    grown = index_parts.Growing()
    assert grown.covers() == 0
    grown.add(papers[:3], 0)
    grown.add(papers[3:5], 3)
    grown.add_answer(b"", 8, 2)  # a helper's range: not among the first papers
    answers: list[int] = []
    with grown._lock:  # a batch being indexed
        asking = threading.Thread(target=lambda: answers.append(grown.covers()), daemon=True)
        asking.start()
        asking.join(5)
    assert answers == [5]
    assert grown.snapshot(10)[0] == papers[:5]
    grown.abandon()
    assert grown.covers() == 0


def test_the_papers_so_far_are_copied_on_a_thread_while_the_build_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The copy waits for the load's lock (a batch being indexed): the build hands the copy's
    future to its driver, which is free meanwhile, and then indexes the first papers."""
    monkeypatch.setenv("PAPERDECK_CACHE", "off")
    papers = load_library([SAMPLE]).papers
    grown = index_parts.Growing()
    grown.add(papers[:5], 0)
    held, release = threading.Event(), threading.Event()

    def index_a_batch() -> None:
        with grown._lock:
            held.set()
            release.wait(2)

    threading.Thread(target=index_a_batch, daemon=True).start()
    held.wait(5)
    steps = SearchIndex.build_steps(papers, None, None, grown)
    waiting = next(steps)
    assert isinstance(waiting, Future)
    assert not waiting.done()
    release.set()
    waiting.result(timeout=5)
    index = finish(steps)
    assert list(index.word_index.papers) == papers[:5]
    found = index.search(papers[3].title)
    assert found.indices[0] == 3


def test_a_helpers_damaged_postings_are_made_here(
    monkeypatch: pytest.MonkeyPatch,
    started_helpers: list[helper_process.HelperProcess],
) -> None:
    monkeypatch.setenv("PAPERDECK_CACHE", "off")
    monkeypatch.setenv("PAPERDECK_HELPERS", "0")
    papers_alone = load_library([SAMPLE]).papers
    monkeypatch.setenv("PAPERDECK_HELPERS", "2")
    # Each helper writes its postings, then a frame after their end: a damaged answer.
    monkeypatch.setattr(
        helper_process,
        "helper_command",
        lambda job: [
            sys.executable,
            "-c",
            "import sys; sys.path.insert(0, sys.argv[1]); "
            "from paperdeck.core.plumbing import helper_process as h; "
            "from paperdeck.core.search import index_parts as p; "
            "real = p.write_postings; "
            "p.write_postings = lambda t, f, o: (real(t, f, o), h.write_frame(t, ('end',))); "
            "sys.exit(h.serve(sys.argv[2]))",
            str(ROOT / "src"),
            job,
        ],
    )
    merged: list[bool] = []
    real_merge = index_parts.merge_answer_steps

    def recording(*args: Any) -> Generator[None, None, bool]:
        ok = yield from real_merge(*args)
        merged.append(ok)
        return ok

    monkeypatch.setattr(index_parts, "merge_answer_steps", recording)
    papers, index = load_with_postings(SAMPLE)
    assert len(started_helpers) == 2
    assert all(helper.result_code() == 0 for helper in started_helpers)
    assert merged == [False, False]
    assert list(map(_fields, papers)) == list(map(_fields, papers_alone))
    assert postings_of(index) == postings_of(SearchIndex(papers))


def test_a_cut_title_comes_with_the_whole_title_a_citation_gives(abstracts: list[str]) -> None:
    derived = [method_and_titles(abstract) for abstract in abstracts]
    assert [entry[:2] for entry in derived] == [method_and_title(a) for a in abstracts]
    cut = [entry[1].endswith("…") for entry in derived]
    assert 10 <= sum(cut) < len(abstracts)
    assert [entry[2] for entry in derived] == [
        cited_title(abstract) if is_cut else None
        for abstract, is_cut in zip(abstracts, cut, strict=True)
    ]

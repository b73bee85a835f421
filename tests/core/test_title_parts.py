"""Titles derived in helper processes: the same papers as one process makes, whatever fails."""

from __future__ import annotations

import dataclasses
import io
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import IO

import pytest

from paperdeck.core.library import load_library
from paperdeck.core.plumbing import helper_process
from paperdeck.core.titles import parts as title_parts
from paperdeck.core.titles.derive import method_and_title

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "tests" / "data" / "abstracts_sample.txt"


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

    def counting(abstract: str) -> tuple[str | None, str]:
        derived_here.append(abstract)
        return method_and_title(abstract)

    monkeypatch.setattr(title_parts, "method_and_title", counting)
    derived = title_parts.methods_and_titles(abstracts)
    assert len(started_helpers) == helpers
    assert all(helper.result_code() == 0 for helper in started_helpers)
    # This process derived its own part only: the helpers' answers were used.
    own = helper_process.plan(len(abstracts), helpers)[0]
    assert derived_here == abstracts[own[0] : own[1]]
    assert derived == [method_and_title(abstract) for abstract in abstracts]


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
    derived = title_parts.methods_and_titles(abstracts)
    assert len(started_helpers) == 2
    assert derived == [method_and_title(abstract) for abstract in abstracts]


def test_a_request_that_cannot_be_written_has_its_part_derived_here(
    abstracts: list[str],
    monkeypatch: pytest.MonkeyPatch,
    started_helpers: list[helper_process.HelperProcess],
) -> None:
    def broken(part: list[str]) -> helper_process.Writer:
        def write(stream: IO[bytes]) -> None:
            title_parts._request_writer(part[:10])(stream)
            raise RuntimeError("cannot write the rest")

        return write

    monkeypatch.setenv("PAPERDECK_HELPERS", "1")
    monkeypatch.setattr(title_parts, "_request_writer", broken)
    derived = title_parts.methods_and_titles(abstracts)
    assert started_helpers[0].result_code() not in (None, 0)
    assert derived == [method_and_title(abstract) for abstract in abstracts]


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
    assert [dataclasses.astuple(paper) for paper in shared] == [
        dataclasses.astuple(paper) for paper in alone
    ]


def test_the_helper_process_answers_a_request_and_refuses_anything_else(
    abstracts: list[str],
) -> None:
    request = io.BytesIO()
    title_parts._request_writer(abstracts[:30])(request)
    command = helper_process.helper_command("paperdeck.core.titles.parts:serve")
    done = subprocess.run(command, input=request.getvalue(), capture_output=True, check=False)
    assert done.returncode == 0
    assert title_parts._answer(done.stdout, 30) == [method_and_title(a) for a in abstracts[:30]]
    for bad in (b"hello", b"", request.getvalue()[:-5]):
        refused = subprocess.run(command, input=bad, capture_output=True, check=False)
        assert refused.returncode != 0
    unknown = [*command[:-1], "no-such-job"]
    assert subprocess.run(unknown, input=b"", check=False).returncode == 2

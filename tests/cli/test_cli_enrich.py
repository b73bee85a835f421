"""`paperdeck enrich` as a user runs it: JSON Lines out, counts and doubtful matches on stderr."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from benchmarks.scholarly_server import Fault, ScholarlyServer

from paperdeck.cli.main import main
from paperdeck.core.library import load_library
from paperdeck.core.model import Paper
from paperdeck.core.resources import seeds_dir
from paperdeck.ui.widgets.detail_pane import describe_source

DATA = Path(__file__).parents[1] / "data" / "enrich"
SEED_META = seeds_dir() / "icml2026.meta.jsonl"
PAPER_FIELDS = list(Paper("x", 1, "l", "t", True, "a").to_json())


def seed_records() -> list[dict[str, Any]]:
    return [json.loads(line) for line in SEED_META.read_text(encoding="utf-8").splitlines()]


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    lines = (json.dumps(record, ensure_ascii=False) for record in records)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def three_papers(tmp_path: Path) -> tuple[Path, Path]:
    """A list of three abstracts; the source knows the first and the third, not the second."""
    records = seed_records()
    listing = tmp_path / "talks.txt"
    abstracts = [records[i]["abstract"] for i in (2, 5, 16)]
    listing.write_text("Talks 2026\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    source = write_jsonl(tmp_path / "proceedings.jsonl", [records[16], records[2]])
    return listing, source


def test_enrich_writes_one_object_per_paper_in_list_order(
    three_papers: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listing, source = three_papers
    out = tmp_path / "merged.jsonl"
    assert main(["enrich", str(listing), "--meta", str(source), "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "1 unmatched" in captured.err
    assert captured.err.startswith("paperdeck: enrich: 2 matched, 1 unmatched, 0 ambiguous")
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    records = seed_records()
    assert [row["position"] for row in rows] == [1, 2, 3]
    for row in rows:
        assert list(row)[: len(PAPER_FIELDS)] == PAPER_FIELDS
    first, second, third = rows
    assert first["title"] == records[2]["title"] and first["title_derived"] is False
    assert first["authors"] == records[2]["authors"]
    assert first["pages"] == records[2]["pages"]
    assert first["match"] == {"source": "proceedings.jsonl", "confidence": 1.0}
    assert first["meta_source"] == "matched:proceedings.jsonl@1.00"
    assert second["title_derived"] is True and second["match"] is None
    assert second["meta_source"] == "derived"
    assert second["abstract"] == records[5]["abstract"]
    assert third["title"] == records[16]["title"]


def test_enrich_writes_to_stdout_without_output(
    three_papers: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    listing, source = three_papers
    assert main(["enrich", "--meta", str(source), str(listing)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["match"] is not None for line in lines] == [True, False, True]


def test_ambiguous_papers_are_listed_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    abstract = seed_records()[4]["abstract"]
    listing = tmp_path / "one.txt"
    listing.write_text(abstract + "\n", encoding="utf-8")
    source = write_jsonl(
        tmp_path / "twins.jsonl",
        [
            {"title": "Twin one", "abstract": abstract},
            {"title": "Twin \x1b[31mtwo", "abstract": abstract.replace("rare", "unusual", 1)},
        ],
    )
    assert main(["enrich", str(listing), "--meta", str(source)]) == 0
    captured = capsys.readouterr()
    [row] = [json.loads(line) for line in captured.out.splitlines()]
    assert row["match"] is None and row["title_derived"] is True
    assert "0 matched, 0 unmatched, 1 ambiguous" in captured.err
    [line] = [line for line in captured.err.splitlines() if "ambiguous #1" in line]
    assert "twins.jsonl record 1" in line and "twins.jsonl record 2" in line
    assert "Twin one" in line and "Twin two" in line
    assert "\x1b" not in captured.err


def test_the_bundled_list_enriches_from_its_sidecar(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["enrich"]) == 0
    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines()]
    assert len(rows) == 19
    assert all(row["match"]["source"] == "icml2026.meta.jsonl" for row in rows)
    assert "19 matched, 0 unmatched, 0 ambiguous" in captured.err


def test_the_damaged_slice_reports_its_absent_papers(capsys: pytest.CaptureFixture[str]) -> None:
    listing, source = DATA / "perturbed-slice.txt", DATA / "meta-slice.jsonl"
    assert main(["enrich", str(listing), "--meta", str(source)]) == 0
    captured = capsys.readouterr()
    assert "26 matched, 4 unmatched, 0 ambiguous (of 30 papers)" in captured.err


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--no-meta"], "no metadata source"),
        (["--meta", "{tmp}/missing.jsonl"], "missing.jsonl"),
        (["--meta", "{seed}", "-o", "{tmp}/no/such/folder/out.jsonl"], "cannot write"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    arguments: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    filled = [arg.format(tmp=tmp_path, seed=SEED_META) for arg in arguments]
    assert main(["enrich", *filled]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    [line] = captured.err.splitlines()
    assert line.startswith("paperdeck: ") and message in line


def test_enrich_runs_as_a_command(three_papers: tuple[Path, Path], tmp_path: Path) -> None:
    listing, source = three_papers
    out = tmp_path / "merged.jsonl"
    command = ["enrich", str(listing), "--meta", str(source), "-o", str(out)]
    result = subprocess.run(
        [sys.executable, "-m", "paperdeck", *command],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "2 matched, 1 unmatched, 0 ambiguous" in result.stderr
    assert len(out.read_text(encoding="utf-8").splitlines()) == 3


def test_an_existing_output_file_is_refused_unless_forced_and_kept_as_a_backup(
    three_papers: tuple[Path, Path], tmp_path: Path
) -> None:
    listing, source = three_papers
    mine = tmp_path / "mine.jsonl"
    mine.write_text('{"title": "typed by hand"}\n', encoding="utf-8")
    command = [sys.executable, "-m", "paperdeck", "enrich", str(listing), "--meta", str(source)]
    refused = subprocess.run(
        [*command, "-o", str(mine)], capture_output=True, text=True, timeout=60
    )
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr == (
        f"paperdeck: {mine} exists (1 line): give --force to replace it, or another -o FILE\n"
    )
    assert mine.read_text(encoding="utf-8") == '{"title": "typed by hand"}\n'
    forced = subprocess.run(
        [*command, "-o", str(mine), "--force"], capture_output=True, text=True, timeout=60
    )
    assert forced.returncode == 0, forced.stderr
    assert f"kept as {mine}~" in forced.stderr
    assert len(mine.read_text(encoding="utf-8").splitlines()) == 3
    assert (tmp_path / "mine.jsonl~").read_text(encoding="utf-8") == '{"title": "typed by hand"}\n'


def test_an_enrich_output_serves_as_a_source_without_its_derived_titles(
    three_papers: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listing, source = three_papers
    merged = tmp_path / "merged.jsonl"
    assert main(["enrich", str(listing), "--meta", str(source), "-o", str(merged)]) == 0
    again = tmp_path / "again.jsonl"
    assert main(["enrich", str(listing), "--meta", str(merged), "-o", str(again)]) == 0
    capsys.readouterr()
    first = [json.loads(line) for line in merged.read_text(encoding="utf-8").splitlines()]
    second = [json.loads(line) for line in again.read_text(encoding="utf-8").splitlines()]
    assert [row["title"] for row in second] == [row["title"] for row in first]
    assert [row["title_derived"] for row in second] == [False, True, False]
    assert second[1]["meta_source"] == "derived"
    assert second[0]["meta_source"] == "matched:merged.jsonl@1.00"
    assert second[0]["pages"] == first[0]["pages"]
    assert second[0]["position"] == 1 and second[2]["position"] == 3


def test_enrich_output_has_a_normal_mode(three_papers: tuple[Path, Path], tmp_path: Path) -> None:
    listing, source = three_papers
    out = tmp_path / "merged.jsonl"
    previous = os.umask(0o022)
    try:
        assert main(["enrich", str(listing), "--meta", str(source), "-o", str(out)]) == 0
        assert out.stat().st_mode & 0o777 == 0o644  # not mkstemp's 0600
        out.chmod(0o664)
        command = ["enrich", str(listing), "--meta", str(source), "-o", str(out), "--force"]
        assert main(command) == 0
    finally:
        os.umask(previous)
    assert out.stat().st_mode & 0o777 == 0o664  # rewriting keeps the file's mode
    assert len(out.read_text(encoding="utf-8").splitlines()) == 3
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith(".")] == []


# -- enrich --online, against a real HTTP server on 127.0.0.1 ---------------------------------


@pytest.fixture
def web(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[ScholarlyServer]:
    """The scholarly APIs, holding 15 of the 19 seed papers; paperdeck pointed at them."""
    with ScholarlyServer(seed_records()[:15]) as server:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        monkeypatch.setenv("PAPERDECK_CACHE", str(tmp_path / "cache"))
        monkeypatch.setenv("PAPERDECK_EMAIL", "reader@example.org")
        yield server


def seed_list(tmp_path: Path) -> Path:
    listing = tmp_path / "icml.txt"
    abstracts = [record["abstract"] for record in seed_records()]
    listing.write_text("ICML 2026\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    return listing


def test_online_writes_the_sidecar_and_the_list_opens_with_real_titles(
    web: ScholarlyServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listing = seed_list(tmp_path)
    assert main(["enrich", "--online", str(listing)]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    [summary] = captured.err.splitlines()
    assert summary.startswith(
        "paperdeck: enrich: 15 matched online (OpenAlex 15), 4 unmatched, 0 look-alikes "
        "rejected (of 19 papers without metadata);"
    )
    assert summary.endswith("0 answers from the cache; wrote icml.meta.jsonl")
    assert all(
        seen.params["mailto"] == "reader@example.org" for seen in web.requests_to("openalex")
    )
    # The list now opens as a local match does: real titles, the source in the Source line.
    papers = load_library([listing]).papers
    records = seed_records()
    assert [p.title for p in papers[:15]] == [r["title"] for r in records[:15]]
    assert all(p.title_derived for p in papers[15:])
    assert describe_source(papers[0].meta_source).startswith(
        "matched from OpenAlex W4100000000 (confidence "
    )
    assert papers[1].extra["doi"] == "10.5555/paperdeck.test.1"
    # Asked again: the 15 have metadata now; the 4 others are answered by the cache (3 sources).
    sent = len(web.seen)
    assert main(["enrich", "--online", str(listing)]) == 0
    assert "0 requests, 12 answers from the cache; nothing written" in capsys.readouterr().err
    assert len(web.seen) == sent


def test_online_with_output_writes_every_paper_and_leaves_the_list_alone(
    web: ScholarlyServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listing = seed_list(tmp_path)
    out = tmp_path / "out.jsonl"
    command = ["enrich", str(listing), "--online", "--source", "arxiv,crossref", "-o", str(out)]
    assert main(command) == 0
    capsys.readouterr()
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 19
    assert not (tmp_path / "icml.meta.jsonl").exists()
    first = rows[0]
    assert first["title"] == seed_records()[0]["title"]
    assert first["match"]["source"] == "arXiv" and first["match"]["id"] == "2605.10000"
    assert first["match"]["details"] == "Crossref"
    assert first["doi"] == "10.5555/paperdeck.test.0" and first["arxiv"].endswith("2605.10000")
    assert first["meta_source"].startswith("matched:arXiv 2605.10000@")
    assert rows[18]["match"] is None and rows[18]["title_derived"] is True
    assert not web.requests_to("openalex") and not web.requests_to("s2")


def test_matches_that_cannot_be_added_to_the_sidecar_are_kept_for_o(
    web: ScholarlyServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, the line said only that the sidecar could not be written: the user could not
    know that the answers were kept and where else they could go."""
    listing = seed_list(tmp_path)
    (tmp_path / "icml.meta.jsonl").mkdir()  # in the way of the sidecar
    assert main(["enrich", "--online", str(listing)]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(f"paperdeck: {tmp_path / 'icml.meta.jsonl'}: cannot add the matches:")
    assert line.endswith(
        "; the answers are kept: `-o FILE` writes the matches elsewhere without asking again"
    )
    asked = len(web.seen)
    out = tmp_path / "matches.jsonl"
    assert main(["enrich", "--online", str(listing), "-o", str(out)]) == 0
    assert len(web.seen) == asked  # no second asking
    assert "15 matched online" in capsys.readouterr().err
    assert len(out.read_text(encoding="utf-8").splitlines()) == 19


def test_offline_is_one_line_status_2_and_nothing_written(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    for name in ("OPENALEX", "ARXIV", "S2", "CROSSREF"):
        monkeypatch.setenv(f"PAPERDECK_{name}_URL", f"http://127.0.0.1:{port}")
    listing = seed_list(tmp_path)
    before = sorted(tmp_path.iterdir())
    assert main(["enrich", "--online", str(listing)]) == 2
    captured = capsys.readouterr()
    [line] = captured.err.splitlines()
    assert line.startswith(f"paperdeck: cannot reach 127.0.0.1:{port} (")
    assert line.endswith("; nothing changed")
    assert captured.out == ""
    assert sorted(tmp_path.iterdir()) == before


@pytest.mark.parametrize(
    "url",
    ["http://[::1", "http://localhost:port", "http://" + "a" * 300 + ".org"],
    ids=["bracket", "port", "label over 63"],
)
def test_a_source_url_that_is_no_url_is_one_line_status_2(
    url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mistyped PAPERDECK_*_URL: before, a ValueError or UnicodeError traceback."""
    monkeypatch.setenv("PAPERDECK_OPENALEX_URL", url)
    monkeypatch.setenv("PAPERDECK_CACHE", str(tmp_path / "cache"))
    listing = seed_list(tmp_path)
    assert main(["enrich", "--online", "--source", "openalex", str(listing)]) == 2
    captured = capsys.readouterr()
    [line] = captured.err.splitlines()
    assert line.startswith("paperdeck: cannot reach ") and line.endswith("; nothing changed")
    assert captured.out == ""


def test_a_rate_limited_source_waits_and_says_so(
    web: ScholarlyServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    web.fail_next("openalex", Fault(429, "", {"Retry-After": "1"}))
    listing = tmp_path / "one.txt"
    listing.write_text(seed_records()[3]["abstract"] + "\n", encoding="utf-8")
    assert main(["enrich", "--online", "--source", "openalex", str(listing)]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "paperdeck: OpenAlex rate-limited; waiting 1 s as it asks"
    assert "1 matched online" in lines[1]


def test_an_unknown_source_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["enrich", "--online", "--source", "google"]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("paperdeck: --source: unknown source google")


def test_online_runs_as_a_command(web: ScholarlyServer, tmp_path: Path) -> None:
    listing = seed_list(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "paperdeck", "enrich", "--online", str(listing)],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "15 matched online" in result.stderr
    assert len((tmp_path / "icml.meta.jsonl").read_text(encoding="utf-8").splitlines()) == 15


def test_online_adds_to_the_sidecar_of_a_list_read_from_the_list_store(
    web: ScholarlyServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listing = seed_list(tmp_path)
    assert main(["list", str(listing)]) == 0  # the list is now kept in the store
    capsys.readouterr()
    assert main(["enrich", "--online", "--source", "openalex", str(listing)]) == 0
    assert "wrote icml.meta.jsonl" in capsys.readouterr().err
    lines = (tmp_path / "icml.meta.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 15


def test_ctrl_c_keeps_what_was_matched_and_the_next_run_resumes(
    web: ScholarlyServer, tmp_path: Path
) -> None:
    web.delay = 0.2  # a slow network: the run is still going when Ctrl+C comes
    listing = seed_list(tmp_path)
    command = [sys.executable, "-m", "paperdeck", "enrich", "--online", "--source", "openalex"]
    process = subprocess.Popen(
        [*command, str(listing)],
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    deadline = time.monotonic() + 60
    while len(web.requests_to("openalex")) < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    last = err.splitlines()[-1]
    assert last.startswith("paperdeck: enrich: interrupted; kept the ") and "Traceback" not in err
    kept = int(last.split("kept the ")[1].split()[0])
    assert kept >= 3
    sidecar = tmp_path / "icml.meta.jsonl"
    assert len(sidecar.read_text(encoding="utf-8").splitlines()) == kept
    # The next run asks only about the papers not yet answered.
    asked = len(web.requests_to("openalex"))
    web.delay = 0.0
    result = subprocess.run(
        [*command, str(listing)], capture_output=True, text=True, env=dict(os.environ), timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "wrote icml.meta.jsonl" in result.stderr
    assert len(sidecar.read_text(encoding="utf-8").splitlines()) == 15
    assert len(web.requests_to("openalex")) - asked <= (19 - kept) * 2


def test_answers_that_cannot_be_read_are_counted_by_source_in_one_line(
    web: ScholarlyServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """HTML, cut JSON and a results list of wrong types from OpenAlex: before, the last was
    taken for "nothing found" without a word, and no line said how many answers were garbage."""
    web.fail_next(
        "openalex",
        Fault(200, "<!DOCTYPE html><html><body>Service unavailable</body></html>"),
        Fault(200, '{"results": [{"id": "W1", "title": "Cut'),
        Fault(200, '{"results": [1, "two", null], "meta": {"count": 3, "per_page": 10}}'),
    )
    listing = tmp_path / "unknown.txt"
    # Papers the server does not hold: every one would be unmatched anyway.
    abstracts = [record["abstract"] for record in seed_records()[15:18]]
    listing.write_text("\n\n".join(abstracts) + "\n", encoding="utf-8")
    assert main(["enrich", "--online", "--source", "openalex", str(listing)]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert "results that are not objects in the answer for #3 " in lines[2]
    assert lines[-2].startswith("paperdeck: enrich: 0 matched online, 3 unmatched")
    assert lines[-1] == (
        "paperdeck: enrich: 3 answers could not be read (OpenAlex 3): not what the API "
        "documents (HTML, cut JSON or wrong types)"
    )


def test_a_crossref_answer_that_cannot_be_read_is_counted(
    web: ScholarlyServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    web.fail_next("crossref", Fault(200, '{"message": {"items": ["not a work"]}}'))
    listing = tmp_path / "one.txt"
    listing.write_text(seed_records()[3]["abstract"] + "\n", encoding="utf-8")
    command = ["enrich", "--online", "--source", "openalex,crossref", str(listing)]
    assert main(command) == 0
    lines = capsys.readouterr().err.splitlines()
    assert "1 matched online" in lines[-2]
    assert lines[-1] == (
        "paperdeck: enrich: 1 answer could not be read (Crossref 1): not what the API "
        "documents (HTML, cut JSON or wrong types)"
    )

"""The CLI as a user runs it: list, show, search, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.cli.conftest import SAMPLE, Corrected
from tests.cli.test_cli_search import on_terminal

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "seeds" / "icml2026.txt"
MESSY = Path(__file__).parents[1] / "data" / "messy"


def run(
    *args: str, cwd: Path | None = None, notes: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if notes is not None:
        env["PAPERDECK_NOTES"] = str(notes)
    return subprocess.run(
        [sys.executable, "-m", "paperdeck", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=60,
    )


def test_list_prints_one_line_per_bundled_paper(notes: Path) -> None:
    result = run("list", notes=notes)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 19
    number, paper_id, title = lines[0].split(maxsplit=2)
    assert number == "1" and len(paper_id) >= 8
    assert title.startswith("InteractScience")


def test_list_json_has_the_shared_field_names(notes: Path) -> None:
    result = run("list", "--json", str(SEED), "--no-meta", notes=notes)
    assert result.returncode == 0, result.stderr
    papers = json.loads(result.stdout)
    assert len(papers) == 19
    for key in (
        "position",
        "id",
        "title",
        "title_derived",
        "method",
        "authors",
        "venue",
        "year",
        "url",
        "list",
    ):
        assert key in papers[0]
    assert [p["position"] for p in papers] == list(range(1, 20))
    assert all(p["title_derived"] for p in papers)
    assert papers[0]["venue"] == "ICML" and papers[0]["year"] == 2026
    assert papers[0]["list"] == "icml2026"
    assert len({p["title"] for p in papers}) == 19


def test_options_may_come_before_or_after_paths(notes: Path) -> None:
    before = run("list", "--json", "--no-meta", str(SEED), notes=notes)
    after = run("list", str(SEED), "--no-meta", "--json", notes=notes)
    assert before.returncode == after.returncode == 0
    assert before.stdout == after.stdout


def test_show_by_position_id_and_prefix(notes: Path) -> None:
    listing = json.loads(run("list", "--json", notes=notes).stdout)
    mari = next(p for p in listing if p["method"] == "MARI")
    by_position = run("show", str(mari["position"]), notes=notes)
    by_id = run("show", mari["id"], notes=notes)
    by_prefix = run("show", mari["id"][:6], notes=notes)
    assert by_position.returncode == 0, by_position.stderr
    assert by_position.stdout == by_id.stdout == by_prefix.stdout
    assert "Method:  MARI" in by_id.stdout
    # The paper's page, then its abstract's link, called what it is (not the paper's link).
    assert "\nPage:    https://proceedings.mlr.press/" in by_id.stdout
    assert "\nCode:    https://github.com/V1centNevwake/MARI" in by_id.stdout
    assert "Representation intervention" in by_id.stdout


def test_show_renders_latex_as_unicode(notes: Path) -> None:
    listing = json.loads(run("list", "--json", notes=notes).stdout)
    first = listing[0]
    shown = run("show", first["id"], notes=notes)
    raw = run("show", first["id"], "--raw", notes=notes)
    assert "\\textsc{InteractScience}" in raw.stdout
    assert "\\textsc" not in shown.stdout
    assert "InteractScience" in shown.stdout


def test_search_and_show_print_a_titles_latex_rendered_and_json_as_it_stands(
    notes: Path, tmp_path: Path
) -> None:
    title = "Sorting in $\\mathcal{O}(n \\log n)$ comparisons with \\emph{noisy} oracles"
    abstract = "We sort $n$ items with a noisy oracle in $\\mathcal{O}(n \\log n)$ queries."
    path = tmp_path / "sorting.jsonl"
    path.write_text(json.dumps({"title": title, "abstract": abstract}) + "\n", encoding="utf-8")
    shown = "Sorting in 𝒪(n log n) comparisons with noisy oracles"
    found = run("search", "log", str(path), notes=notes)
    assert found.returncode == 0, found.stderr
    assert found.stdout.rstrip().endswith(shown), found.stdout
    assert run("show", "1", str(path), notes=notes).stdout.startswith(shown + "\n")
    assert run("show", "1", "--raw", str(path), notes=notes).stdout.startswith(title + "\n")
    # Scripts read the title as the list gives it (and a citation keeps its math).
    found = run("search", "log", str(path), "--json", notes=notes)
    assert json.loads(found.stdout)[0]["title"] == title


def test_a_titles_arrow_and_code_are_printed_as_its_abstracts_are(
    notes: Path, tmp_path: Path
) -> None:
    """A title's dashes read as its abstract's do: `-->` and code's `--` as they stand."""
    title = "Accuracy from 73.9% --> 81.8% with \\texttt{a--b} and Wang--Landau ---a study"
    abstract = "Accuracy goes from 73.9% --> 81.8% with \\texttt{a--b} and Wang--Landau sampling."
    path = tmp_path / "arrow.jsonl"
    path.write_text(json.dumps({"title": title, "abstract": abstract}) + "\n", encoding="utf-8")
    shown = "Accuracy from 73.9% --> 81.8% with a--b and Wang–Landau —a study"
    listed = run("list", str(path), notes=notes)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.rstrip().endswith(shown), listed.stdout
    printed = run("show", "1", str(path), notes=notes).stdout
    assert printed.startswith(shown + "\n"), printed
    assert "73.9% --> 81.8% with a--b and Wang–Landau sampling." in printed, printed


def test_show_prints_the_space_after_a_command_in_an_abstracts_prose(
    notes: Path, tmp_path: Path
) -> None:
    abstract = "We take at most \\epsilon steps for \\epsilon \\in (0,1), as \\LaTeX typesets it."
    path = tmp_path / "spaces.jsonl"
    path.write_text(json.dumps({"title": "Steps", "abstract": abstract}) + "\n", encoding="utf-8")
    printed = run("show", "1", str(path), notes=notes)
    assert printed.returncode == 0, printed.stderr
    words = " ".join(printed.stdout.split())
    assert "at most ϵ steps for ϵ ∈ (0,1), as LaTeX typesets it." in words, printed.stdout


def test_several_lists_open_together(notes: Path) -> None:
    result = run("list", "--json", str(SEED), str(MESSY / "crlf.txt"), notes=notes)
    assert result.returncode == 0, result.stderr
    papers = json.loads(result.stdout)
    assert len(papers) == 39
    assert {p["list"] for p in papers} == {"icml2026", "crlf"}


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("list", "no/such/file.txt"), "no such file"),
        (("list", "."), "is a directory"),
        (("list", str(MESSY / "empty.txt")), "no papers"),
        (("list", str(MESSY / "header_only.txt")), "no papers"),
        (("show", "999"), "no paper at that position"),
        (("show", "zzzzzzzz"), "no paper with that id"),
        (("list", "--format", "yaml"), "invalid choice"),
        (("search",), "required"),
        (("search", "x", "--limit", "-5"), "not a count"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: tuple[str, ...], expected: str, notes: Path
) -> None:
    result = run(*args, cwd=ROOT, notes=notes)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("paperdeck: ")
    assert expected in lines[0]


def test_binary_and_wrong_shape_json_are_refused(tmp_path: Path, notes: Path) -> None:
    binary = tmp_path / "papers.txt"
    binary.write_bytes(bytes(range(256)) * 20)
    wrong = tmp_path / "papers.json"
    wrong.write_text("[1, 2, 3]", encoding="utf-8")
    for path in (binary, wrong):
        result = run("list", str(path), notes=notes)
        assert result.returncode == 2
        assert result.stderr.startswith("paperdeck: ") and str(path.name) in result.stderr
        assert "Traceback" not in result.stderr


def test_search_ranks_and_prints_json(notes: Path) -> None:
    result = run("search", "speculative decoding", "--json", "--limit", "2", notes=notes)
    assert result.returncode == 0, result.stderr
    hits = json.loads(result.stdout)
    assert len(hits) == 2
    for hit in hits:
        assert "score" in hit and "matches" in hit
        assert "speculative" in json.dumps(hit["matches"]) or hit["matches"]


def test_version_and_help_are_fast_and_clean() -> None:
    version = run("--version")
    assert version.returncode == 0 and version.stdout.startswith("paperdeck ")
    helped = run("--help")
    assert helped.returncode == 0 and "list" in helped.stdout


def test_help_names_every_command_of_the_readme(notes: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Command line", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^paperdeck (\w+)", section, re.MULTILINE))
    assert {"list", "search", "related", "cite", "export"} <= documented
    helped = run("--help", notes=notes)
    assert helped.returncode == 0, helped.stderr
    table = helped.stdout.split("for each):\n", 1)[1].splitlines()
    assert {line.split()[0] for line in table} == documented
    for command in sorted(documented):
        own = run(command, "--help", notes=notes)
        assert own.returncode == 0 and own.stdout.startswith(f"usage: paperdeck {command}")


def test_a_mistyped_command_is_named_with_the_closest_one(notes: Path, tmp_path: Path) -> None:
    result = run("serch", "diffusion", cwd=tmp_path, notes=notes)
    assert result.returncode == 2
    assert result.stderr == (
        "paperdeck: serch: no such file or command; did you mean `paperdeck search`?\n"
    )
    missing = run("nosuch.txt", cwd=tmp_path, notes=notes)
    assert (missing.returncode, missing.stderr) == (2, "paperdeck: nosuch.txt: no such file\n")
    unknown = run("frobnicate", cwd=tmp_path, notes=notes)
    assert unknown.returncode == 2
    assert unknown.stderr.startswith("paperdeck: frobnicate: no such file or command (commands: ")
    assert "search" in unknown.stderr and unknown.stderr.count("\n") == 1


def test_help_texts_show_no_doubled_percent_signs(notes: Path) -> None:
    for command in ("cite", "export", "search"):
        shown = run(command, "--help", notes=notes)
        assert shown.returncode == 0 and "%%" not in shown.stdout


@pytest.mark.parametrize("command", ["show", "cite", "note", "mark"])
def test_a_missing_ref_is_named_without_the_optional_paths(notes: Path, command: str) -> None:
    result = run(command, notes=notes)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("paperdeck: the following arguments are required: REF")
    assert "PATH" not in result.stderr and result.stderr.count("\n") == 1


def test_options_between_ref_and_paths(notes: Path) -> None:
    result = run("show", "4", "--raw", str(SEED), "--no-meta", notes=notes)
    assert result.returncode == 0, result.stderr
    assert "(title derived from the abstract)" in result.stdout


def test_search_sees_tags_from_the_notes_file(notes: Path) -> None:
    assert run("tag", "4", "+spec", notes=notes).returncode == 0
    result = run("search", "tag:spec", "--json", notes=notes)
    assert result.returncode == 0, result.stderr
    hits = json.loads(result.stdout)
    assert [hit["position"] for hit in hits] == [4]
    assert run("search", "tag:nothing", "--json", notes=notes).stdout.strip() == "[]"


def test_a_full_disk_is_one_line_not_a_traceback(notes: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full")
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "paperdeck", "list", "--notes", str(notes)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert result.returncode == 2
    assert result.stderr.strip() == "paperdeck: cannot write output: No space left on device"


@pytest.mark.parametrize("command", [["list"], ["show", "1"], ["search", "learning"]])
def test_a_closed_standard_output_is_one_line_not_a_traceback_nor_silence(
    notes: Path, command: list[str]
) -> None:
    """`paperdeck list >&-`: before, list and search died with a traceback and show printed
    nowhere and exited 0."""
    result = subprocess.run(
        [sys.executable, "-m", "paperdeck", *command, "--notes", str(notes)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        # The shell's `>&-`: descriptor 1 closed in the child.
        preexec_fn=lambda: os.close(1),
    )
    assert result.returncode == 2
    assert result.stderr == "paperdeck: cannot write output: standard output is closed\n"


def test_a_closed_standard_error_keeps_messages_out_of_the_output(notes: Path) -> None:
    """`paperdeck search nothing 2>&-`: before, the error line went to stdout instead."""
    result = subprocess.run(
        [sys.executable, "-m", "paperdeck", "search", "qqqzzz", "--notes", str(notes)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        timeout=60,
        preexec_fn=lambda: os.close(2),
    )
    assert result.returncode == 1
    assert result.stdout == ""


@pytest.mark.parametrize("listing", ["abstracts_sample.txt", "messy/single_abstract.txt"])
def test_list_json_written_a_batch_at_a_time_is_the_whole_arrays_json(
    listing: str, notes: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    from paperdeck.cli import browse
    from paperdeck.cli.main import main
    from paperdeck.core.library import load_library

    path = Path(__file__).parents[1] / "data" / listing
    monkeypatch.setenv("PAPERDECK_NOTES", str(notes))
    monkeypatch.setenv("PAPERDECK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(browse, "_JSON_BATCH", 7)
    papers = load_library([path]).papers
    assert len(papers) in (1, 296)  # one batch, and many
    assert main(["list", "--json", str(path)]) == 0
    expected = [paper.to_json(title_corrected=False) for paper in papers]
    assert capsys.readouterr().out == json.dumps(expected, ensure_ascii=False, indent=2) + "\n"


def test_list_search_show_and_related_print_the_title_the_user_corrected(
    notes: Path,
    corrected: Corrected,
) -> None:
    """A title the user corrected in the notes file is the one the lines give, unmarked, as
    the reader's rows show it; `show` gives the corrected authors too."""
    paper, fixed, _ = corrected
    line = f"41  {paper.id}  {fixed}"
    listed = run("list", str(SAMPLE), notes=notes)
    assert listed.returncode == 0, listed.stderr
    assert line in [row.strip() for row in listed.stdout.splitlines()], listed.stdout
    assert "quadratic problems" not in listed.stdout
    found = run("search", "polyak momentum", str(SAMPLE), notes=notes)
    assert found.returncode == 0, found.stderr
    first = found.stdout.splitlines()[0].strip()
    assert first.startswith(f"41  {paper.id}") and first.endswith(f"  {fixed}"), found.stdout
    shown = run("show", "41", str(SAMPLE), notes=notes)
    assert shown.returncode == 0, shown.stderr
    head = shown.stdout.splitlines()
    assert head[0] == fixed, head[:3]
    assert head[1] == "Authors: Jun-Kun Wang, Jacob Abernethy", head[:3]
    assert f"Corrected title: {fixed}" in shown.stdout  # what the user wrote, below
    like = run("related", "41", "--limit", "0", str(SAMPLE), notes=notes)
    others = [row for row in like.stdout.splitlines() if paper.id not in row]
    assert others and all("quadratic problems" not in row for row in others)
    # The paper most like it has it among its own.
    near = run("related", others[0].split()[0], "--limit", "0", str(SAMPLE), notes=notes)
    rows = [row for row in near.stdout.splitlines() if f"  {paper.id}  " in row]
    assert rows and "≈" not in rows[0] and fixed in rows[0], near.stdout


def test_show_on_an_80_column_terminal_breaks_no_word_of_the_title_or_authors(
    notes: Path,
) -> None:
    """`show` wrapped the abstract to the terminal but printed the title and authors as one
    line each, which an 80-column terminal broke inside words ("Synchr" / "onous",
    "Sheng" / "zhong"); they are wrapped as the abstract is, the authors under their field."""
    lines = on_terminal("show", "4", notes=notes, columns=80)
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    assert lines[:5] == [
        "BubbleSpec: Turning Long-Tail Bubbles into Speculative Rollout Drafts for",
        "Synchronous Reinforcement Learning",
        "Method:  BubbleSpec",
        "Authors: Yuhang Xu, Kaibin Tian, Yang Tian, Zhice Yang, Yifeng Yu, Yan Li,",
        "         Shengzhong Liu, Fan Wu, Guihai Chen",
    ]
    assert lines[7] == "Page:    https://proceedings.mlr.press/v306/xu26bc.html"


def test_show_gives_a_made_up_title_whole_as_the_pane_and_citations_do(notes: Path) -> None:
    """`show` printed a made-up title as the list's row cuts it ("... adversarial nets
    (GANs)…"), where the reader's pane, a citation and `--json` give it whole."""
    listed = json.loads(run("list", str(SAMPLE), "--json", notes=notes).stdout)[5]
    shown = run("show", "6", str(SAMPLE), notes=notes)
    assert shown.returncode == 0, shown.stderr
    head = " ".join(shown.stdout.split("\n\n", 1)[0].split())
    assert "…" not in head
    assert head.startswith(listed["title"] + " (title derived from the abstract)"), head

"""`paperdeck export`: reading lists from the command line, by query, in every format."""

from __future__ import annotations

import csv
import io
import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import bibtexparser
import pytest
from tests.cli.conftest import SAMPLE, Corrected

ROOT = Path(__file__).resolve().parents[2]


def paperdeck(*args: str, notes: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    env["PAPERDECK_NOTES"] = str(notes)
    return subprocess.run(
        [sys.executable, "-m", "paperdeck", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        start_new_session=True,
    )


def test_export_starred_as_markdown_bibtex_csv_and_json(tmp_path: Path) -> None:
    notes = tmp_path / "notes.json"
    for ref in ("4", "5"):
        assert paperdeck("mark", ref, "star", notes=notes).returncode == 0
    assert paperdeck("tag", "4", "+theory", notes=notes).returncode == 0
    out = tmp_path / "reading.md"
    result = paperdeck(
        "export", "--query", "is:starred", "--format", "markdown", "-o", str(out), notes=notes
    )
    assert result.returncode == 0, result.stderr
    assert "2 papers written to" in result.stderr
    text = out.read_text(encoding="utf-8")
    assert text.count("\n1. [") == 1 and "\n2. [" in text and "BubbleSpec" in text
    assert "#theory" in text and "](https://proceedings.mlr.press/" in text
    # The format follows the extension; BibTeX parses back.
    bib = tmp_path / "reading.bib"
    assert paperdeck("export", "-q", "is:starred", "-o", str(bib), notes=notes).returncode == 0
    entries = bibtexparser.parse_string(bib.read_text(encoding="utf-8")).entries
    assert len(entries) == 2 and all(entry.fields_dict["year"].value == "2026" for entry in entries)
    records = json.loads(paperdeck("export", "-q", "is:starred", "-f", "json", notes=notes).stdout)
    assert [record["starred"] for record in records] == [True, True]
    table = paperdeck("export", "-q", "tag:theory", "-f", "csv", notes=notes).stdout
    assert (
        table.splitlines()[0].startswith("title,authors,venue,year")
        and len(table.splitlines()) == 2
    )
    everything = paperdeck("export", "-f", "json", notes=notes).stdout
    assert len(json.loads(everything)) == 19


def test_export_errors_are_one_line(tmp_path: Path) -> None:
    notes = tmp_path / "notes.json"
    none = paperdeck("export", "-q", "zzzqqqxx", notes=notes)
    assert none.returncode == 2 and none.stderr.startswith("paperdeck: no paper matches")
    folder = paperdeck("export", "-o", str(tmp_path), notes=notes)
    assert folder.returncode == 2 and "is a directory" in folder.stderr
    assert "Traceback" not in none.stderr + folder.stderr


def test_an_unknown_extension_is_refused_not_written_as_markdown(tmp_path: Path) -> None:
    notes = tmp_path / "notes.json"
    out = tmp_path / "picks.xyz"
    refused = paperdeck("export", "-o", str(out), notes=notes)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert refused.stderr.startswith(f"paperdeck: {out}: which format is .xyz? Name the file ")
    assert ".bib" in refused.stderr and "--format" in refused.stderr
    assert not out.exists()
    # naming the format writes it under any name
    assert paperdeck("export", "-f", "csv", "-o", str(out), notes=notes).returncode == 0
    assert out.read_text(encoding="utf-8").startswith("title,authors,venue,year")


def test_a_format_the_file_name_contradicts_is_refused(tmp_path: Path) -> None:
    """Before, `-f json -o picks.csv` wrote JSON under a CSV name without a word."""
    notes = tmp_path / "notes.json"
    out = tmp_path / "picks.csv"
    refused = paperdeck("export", "-f", "json", "-o", str(out), notes=notes)
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr == (
        f"paperdeck: {out} is named as CSV but --format is json: drop --format, or name the "
        f"file picks.json\n"
    )
    assert not out.exists()
    agreeing = paperdeck("export", "-f", "csv", "-o", str(out.with_name("PICKS.CSV")), notes=notes)
    assert agreeing.returncode == 0, agreeing.stderr


def test_markdown_items_past_nine_keep_their_note_and_show_one_line_each(tmp_path: Path) -> None:
    from markdown_it import MarkdownIt

    notes = tmp_path / "notes.json"
    assert (
        paperdeck("note", "12", "--set", "Compare with the baseline", notes=notes).returncode == 0
    )
    result = paperdeck("export", "--format", "markdown", notes=notes)
    assert result.returncode == 0, result.stderr
    html = MarkdownIt().render(result.stdout)
    # One list of 19 items: the note, quoted under item 12, stays in it.
    assert html.count("<ol") == 1 and html.count("<li>") == 19
    twelfth = html.split("<li>")[12]
    assert "SafeSpec" in twelfth and "<blockquote>" in twelfth and "Compare with" in twelfth
    # The title, the authors and the state on lines of their own.
    assert twelfth.count("<br />") == 2
    assert "Dynamic Reflective Sampling</a><br />\nHaotian Xu" in twelfth


def test_a_title_less_list_exports_its_abstracts_and_made_up_titles_stay_made_up(
    tmp_path: Path,
) -> None:
    from paperdeck.core.resources import bundled_list

    notes = tmp_path / "notes.json"
    bare = tmp_path / "icml.txt"  # no metadata beside it: every title is made up
    bare.write_bytes(bundled_list().read_bytes())
    paragraphs = [part.strip() for part in bare.read_text(encoding="utf-8").split("\n\n")]
    out = tmp_path / "picked.json"
    result = paperdeck("export", "-q", "speculative", "-o", str(out), str(bare), notes=notes)
    assert result.returncode == 0, result.stderr
    records = json.loads(out.read_text(encoding="utf-8"))
    assert records and all(record["title_derived"] is True for record in records)
    # Each paper's abstract as the list gives it.
    assert all(record["abstract"] in paragraphs for record in records)
    assert all("peculative" in record["abstract"] for record in records)
    table = paperdeck("export", "-q", "speculative", "-f", "csv", str(bare), notes=notes).stdout
    rows = list(csv.DictReader(io.StringIO(table)))
    assert [row["abstract"] for row in rows] == [record["abstract"] for record in records]
    assert {row["title_derived"] for row in rows} == {"yes"}
    # Opened again as a list, the export keeps each paper's id, and its title is still one
    # paperdeck made up: `≈` in `list`, and said so where it is cited.
    for again in (out, tmp_path / "picked.csv"):
        if again.suffix == ".csv":
            again.write_text(table, encoding="utf-8")
        listed = paperdeck("list", "--json", str(again), notes=notes)
        assert listed.returncode == 0, listed.stderr
        papers = json.loads(listed.stdout)
        assert [p["id"] for p in papers] == [record["id"] for record in records]
        assert all(p["title_derived"] for p in papers), again
        cited = paperdeck("cite", "1", str(again), notes=notes)
        assert "title derived from the abstract" in cited.stderr, again
    md = paperdeck("export", "-q", "speculative", "-f", "markdown", str(bare), notes=notes).stdout
    assert md.count("<details><summary>Abstract</summary>") == len(records)


def test_csv_says_which_titles_the_user_corrected_as_json_does(
    notes: Path, corrected: Corrected
) -> None:
    """JSON said `title_corrected`; the CSV of the same papers had no column for it."""
    sample = str(SAMPLE)
    table = paperdeck("export", "40", "41", "-f", "csv", sample, notes=notes).stdout
    rows = list(csv.DictReader(io.StringIO(table)))
    records = json.loads(paperdeck("export", "40", "41", "-f", "json", sample, notes=notes).stdout)
    assert [row["title"] for row in rows] == [record["title"] for record in records]
    assert rows[1]["title"] == corrected.title
    assert [row["title_corrected"] for row in rows] == ["no", "yes"]
    assert [record["title_corrected"] for record in records] == [False, True]
    assert [row["title_derived"] for row in rows][1] == "no"


def test_the_count_of_a_long_export_has_a_thousands_separator(tmp_path: Path) -> None:
    listing = tmp_path / "long.txt"
    abstracts = (
        f"We propose Method{i}, a way to sort {i} boxes by weight. It is fast." for i in range(1000)
    )
    listing.write_text("A long list\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    out = tmp_path / "all.md"
    result = paperdeck("export", str(listing), "-o", str(out), notes=tmp_path / "notes.json")
    assert result.returncode == 0, result.stderr
    assert "1,000 papers written to" in result.stderr


@pytest.mark.parametrize(
    "command",
    [
        ["export", "-q", "learning", "-f", "markdown"],
        ["notes", "export"],
        ["enrich", "--meta", "{meta}"],
    ],
    ids=["export", "notes export", "enrich"],
)
def test_output_to_a_pipe_or_device_is_written_to_not_replaced(
    tmp_path: Path, command: list[str]
) -> None:
    """`-o /dev/null`, `-o >(gzip > x.gz)`: before, export and enrich replaced the path with a
    plain file (as root, /dev/null itself) or failed; a FIFO stands in for both here."""
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    # Both ends held open here, as a shell's `>(...)` has its reader waiting: the command
    # finds a reader, and the reader sees the end only once this test lets go of its writer.
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    os.set_blocking(reader, True)
    writer = os.open(fifo, os.O_WRONLY)
    chunks: list[bytes] = []

    def drain() -> None:
        while chunk := os.read(reader, 65536):
            chunks.append(chunk)

    draining = threading.Thread(target=drain)
    draining.start()
    meta = str(ROOT / "tests" / "data" / "icml2026.meta.jsonl")
    words = [word.replace("{meta}", meta) for word in command]
    try:
        result = paperdeck(*words, "-o", str(fifo), notes=tmp_path / "notes.json")
    finally:
        os.close(writer)
        draining.join(30)
        os.close(reader)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert b"".join(chunks).strip()


def test_an_existing_output_file_is_refused_unless_forced_and_kept_as_a_backup(
    tmp_path: Path,
) -> None:
    notes = tmp_path / "notes.json"
    assert paperdeck("mark", "4", "star", notes=notes).returncode == 0
    picked = tmp_path / "picked.bib"
    earlier = "".join(f"@article{{k{n},\n  title = {{Paper {n}}},\n}}\n\n" for n in range(40))
    picked.write_text(earlier, encoding="utf-8")
    refused = paperdeck("export", "-q", "is:starred", "-o", str(picked), notes=notes)
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == [
        f"paperdeck: {picked} exists (40 entries): give --force to replace it, or another -o FILE"
    ]
    assert picked.read_text(encoding="utf-8") == earlier
    assert "--force" in paperdeck("export", "--help", notes=notes).stdout
    forced = paperdeck("export", "-q", "is:starred", "-o", str(picked), "--force", notes=notes)
    assert forced.returncode == 0, forced.stderr
    assert f"(the file it replaced is {picked}~)" in forced.stderr
    assert len(bibtexparser.parse_string(picked.read_text(encoding="utf-8")).entries) == 1
    assert (tmp_path / "picked.bib~").read_text(encoding="utf-8") == earlier


def test_export_the_papers_named(tmp_path: Path) -> None:
    """Before, only a query chose the papers: `export 4 12` said '4: no such file'."""
    notes = tmp_path / "notes.json"
    found = paperdeck("search", "speculative rollout", "--all-terms", notes=notes)
    ids = [line.split()[1] for line in found.stdout.splitlines()]
    named = paperdeck("export", "12", *ids, "12", "-f", "json", notes=notes)
    assert named.returncode == 0, named.stderr
    assert [row["id"] for row in json.loads(named.stdout)] == ["aa34ca80", "30b40477"]
    out = tmp_path / "picks.md"
    from paperdeck.core.resources import bundled_list

    listed = paperdeck("export", "4", str(bundled_list()), "-o", str(out), notes=notes)
    assert listed.returncode == 0, listed.stderr
    written = out.read_text(encoding="utf-8")
    assert "\n1. [BubbleSpec: " in written and "\n2. " not in written

    def refused(*args: str) -> str:
        result = paperdeck("export", *args, notes=notes)
        assert (result.returncode, result.stdout) == (2, "")
        assert result.stderr.count("\n") == 1
        return result.stderr

    assert refused("4", "-q", "rollout") == (
        "paperdeck: export: name the papers (REF ...) or give -q QUERY, not both\n"
    )
    assert refused("99") == "paperdeck: 99: no paper at that position (1..19)\n"
    assert refused("papers") == "paperdeck: papers: no such file, nor a paper's id or position\n"
    assert refused("papers.txt") == "paperdeck: papers.txt: no such file\n"


def test_export_named_papers_as_ris_and_refuse_to_replace_it(tmp_path: Path) -> None:
    """A reference manager's file (Zotero, EndNote, Mendeley import RIS): one record per
    paper, with the citation key the BibTeX export gives it; an existing one is counted."""
    import rispy

    notes = tmp_path / "notes.json"
    picked = tmp_path / "picked.ris"
    written = paperdeck("export", "4", "5", "-o", str(picked), notes=notes)
    assert written.returncode == 0, written.stderr
    assert f"2 papers written to {picked} as RIS" in written.stderr
    records = rispy.loads(picked.read_text(encoding="utf-8"))
    assert [record["title"][:10] for record in records] == ["BubbleSpec", "Formalizin"]
    assert all(record["year"] == "2026" and record["authors"] for record in records)
    bib = paperdeck("export", "4", "5", "-f", "bibtex", notes=notes).stdout
    keys = [entry.key for entry in bibtexparser.parse_string(bib).entries]
    assert [record["id"] for record in records] == keys
    refused = paperdeck("export", "4", "-o", str(picked), notes=notes)
    assert refused.returncode == 2
    assert f"{picked} exists (2 entries)" in refused.stderr
    assert len(rispy.loads(picked.read_text(encoding="utf-8"))) == 2
    assert "ris" in paperdeck("export", "--help", notes=notes).stdout


def test_markdown_gives_a_title_s_latex_as_the_reader_shows_it(tmp_path: Path) -> None:
    """ICML 2026's "LaST$_{0}$: ..." and "$\\tau^2$-Bench: ..." were written to Markdown as
    their escaped source ("LaST$\\_{0}$", "$\\\\tau^2$-Bench"), which a Markdown viewer shows
    with its dollars and backslashes; the abstract under them was already rendered."""
    listed = tmp_path / "math.jsonl"
    titles = ["LaST$_{0}$: Latent Chain-of-Thought", "$\\tau^2$-Bench: Dual-Control Agents"]
    listed.write_text(
        "".join(
            json.dumps({"title": title, "url": f"https://icml.cc/{at}", "abstract": "We $\\tau$."})
            + "\n"
            for at, title in enumerate(titles)
        ),
        "utf-8",
    )
    result = paperdeck("export", "-f", "markdown", str(listed), notes=tmp_path / "notes.json")
    assert result.returncode == 0, result.stderr
    heads = [line for line in result.stdout.splitlines() if line[:1].isdigit()]
    assert heads == [
        "1. [LaST₀: Latent Chain-of-Thought](https://icml.cc/0)\\",
        "2. [τ²-Bench: Dual-Control Agents](https://icml.cc/1)\\",
    ]

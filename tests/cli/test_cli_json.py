"""The commands' --json output: the keys each prints, and that the README names each of them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.cli.conftest import SAMPLE, Corrected

README = Path(__file__).resolve().parents[2] / "README.md"

PAPER = {
    "position",
    "id",
    "title",
    "title_derived",
    "title_corrected",
    "authors",
    "venue",
    "year",
    "url",
    "links",
    "list",
}
"""What every paper's object has, whichever command prints it."""

LINES = PAPER | {"method", "meta_source"}

KEYS = {
    ("list", "--json"): LINES,
    ("search", "speculative rollout", "--json"): LINES
    | {"score", "match", "matches", "near_spellings"},
    ("related", "4", "--json"): LINES | {"score", "shared"},
    ("export", "--format", "json"): PAPER | {"pdf", "tags", "state", "starred", "note", "abstract"},
    ("show", "4", "--json"): PAPER | {"pdf", "tags", "state", "starred", "note", "abstract"},
}
"""The keys of each command's objects: scripts read them, so they are only ever added to."""


def json_section() -> str:
    text = README.read_text(encoding="utf-8")
    return text.split("### JSON output\n", 1)[1].split("\n### ", 1)[0]


@pytest.mark.parametrize("command", list(KEYS), ids=lambda command: command[0])
def test_each_commands_json_has_the_keys_the_readme_names(
    command: tuple[str, ...], notes: Path
) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "paperdeck", *command, "--notes", str(notes)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    rows = [printed] if command[0] == "show" else printed
    assert rows and all(set(row) == KEYS[command] for row in rows)
    named = set(re.findall(r"`([a-z_]+)`", json_section()))
    assert KEYS[command] <= named, KEYS[command] - named


def test_the_readme_names_no_key_that_no_command_prints() -> None:
    table = re.findall(r"^\| `([a-z_]+)`(?:, `([a-z_]+)`)? \|", json_section(), re.M)
    keys = {key for row in table for key in row if key}
    assert keys == PAPER


def test_show_json_gives_one_papers_abstract_and_notes(notes: Path) -> None:
    """Before, `show` had no --json: a script had the abstract only wrapped, under a header."""

    def paperdeck(*args: str) -> str:
        result = subprocess.run(
            [sys.executable, "-m", "paperdeck", *args, "--notes", str(notes)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 0 and result.stderr == "", result.stderr
        return result.stdout

    paperdeck("note", "30b4", "--set", "read §3")
    paperdeck("tag", "4", "+rl")
    shown = json.loads(paperdeck("show", "4", "--json"))
    exported = json.loads(paperdeck("export", "-q", "tag:rl", "-f", "json"))
    assert shown == exported[0]
    assert shown["note"] == "read §3" and shown["tags"] == ["rl"]
    assert shown["abstract"].startswith("Reinforcement Learning (RL) has become")


def test_json_gives_the_corrected_title_and_authors_with_spans_in_them(
    notes: Path, corrected: Corrected
) -> None:
    """`list`, `search` and `related --json` give the title and authors the user corrected, as
    their lines and `export` do, say so, and `search` marks its words in what it gives."""
    paper, fixed, _ = corrected

    def paperdeck(*args: str) -> Any:
        result = subprocess.run(
            [sys.executable, "-m", "paperdeck", *args, str(SAMPLE), "--notes", str(notes)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    def corrected(row: dict[str, Any]) -> None:
        assert row["title"] == fixed and row["title_corrected"] is True, row
        assert row["title_derived"] is False, row
        assert row["authors"] == ["Jun-Kun Wang", "Jacob Abernethy"], row
        # Not "derived": the title is no longer made up, nor the list's.
        assert row["meta_source"] == "user", row

    listed = paperdeck("list", "--json")
    corrected(listed[40])
    assert listed[41]["title_corrected"] is False and listed[41]["title_derived"] is True
    found = paperdeck("search", "polyak momentum abernethy", "--json")
    (row,) = [row for row in found if row["id"] == paper.id]
    corrected(row)
    authors = ", ".join(row["authors"])
    assert [fixed[start:end] for start, end in row["matches"]["title"]] == ["Polyak", "Momentum"]
    assert [authors[start:end] for start, end in row["matches"]["authors"]] == ["Abernethy"]
    nearest = str(paperdeck("related", "41", "--json")[0]["position"])
    like = paperdeck("related", nearest, "--limit", "0", "--json")
    (row,) = [row for row in like if row["id"] == paper.id]
    corrected(row)
    (shown,) = [row for row in paperdeck("export", "--format", "json") if row["id"] == paper.id]
    assert shown["title"] == fixed and shown["title_corrected"] is True


def test_json_says_the_user_corrected_a_made_up_title_or_its_authors(notes: Path) -> None:
    """A paper whose made-up title the user corrected is no longer `derived` in `meta_source`
    (it was, beside `title_corrected: true`): it is `user`; so is one whose authors they gave,
    its title still made up (`title_derived`). `method` stays the name its abstract introduces."""
    from paperdeck.core.library import load_library
    from paperdeck.core.notes.store import NotesStore

    papers = load_library([SAMPLE]).papers
    store = NotesStore(notes)
    store.set_correction(papers[4], "title", "Doubly Robust Off-Policy Actor-Critic Algorithms")
    store.set_correction(papers[8], "authors", "Maalouf, Alaa and Jubran, Ibrahim")
    store.save()
    result = subprocess.run(
        [sys.executable, "-m", "paperdeck", "list", "--json", str(SAMPLE), "--notes", str(notes)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    titled, authored, untouched = rows[4], rows[8], rows[3]
    assert titled["title_corrected"] is True and titled["title_derived"] is False
    assert titled["meta_source"] == "user" and titled["method"] == "DR-Off-PAC"
    assert authored["title_corrected"] is False and authored["title_derived"] is True
    assert authored["meta_source"] == "user" and authored["method"] == "LMS"
    assert authored["authors"] == ["Alaa Maalouf", "Ibrahim Jubran"]
    assert untouched["meta_source"] == "derived" and untouched["method"] == "FedAMD"

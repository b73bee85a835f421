"""A conference list triaged through the installed `paperdeck` in tmux, then reopened."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import bibtexparser
import pytest
from tests.test_e2e_tmux import PAPERDECK, Terminal, reader_command, terminal

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

DATA = Path(__file__).parent / "data"
FILTERED = re.compile(r"\s(\d+) / 150(?! read)")
"""The header's count of papers shown by a search or view (not the `N / 150 read` progress)."""
__all__ = ["terminal"]  # the fixture, shared with the other tmux journey


def detail_title(screen: str) -> str:
    """The first line of the detail pane (the right half of the screen's third row)."""
    line = screen.splitlines()[2]
    return line.split("▊")[-1].strip(" ▎")


def counts(screen: str) -> str:
    return screen.splitlines()[0]


def test_triage_a_conference_list_export_it_and_find_it_as_left(
    terminal: Terminal, tmp_path: Path
) -> None:
    assert PAPERDECK.exists(), "the paperdeck console script is not installed"
    for name in ("icml2026-150.txt", "icml2026-150.meta.jsonl"):
        shutil.copy(DATA / name, tmp_path / name)
    command = f"{reader_command(tmp_path)} {tmp_path / 'icml2026-150.txt'}"
    terminal.start(command)
    terminal.wait_for(lambda s: "150 papers" in s and "0 / 150 read" in s, "the list")

    # Search, then read-and-next through 30 papers.
    terminal.keys("/")
    terminal.type("learning")
    terminal.wait_for(lambda s: FILTERED.search(counts(s)), "the search")
    terminal.keys("Enter")
    terminal.repeat("r", 30)
    terminal.wait_for(lambda s: "30 / 150 read" in s, "30 papers read")
    # Star five, tag three (marked, then t adds the tag to all three).
    terminal.repeat("s", 5)
    terminal.repeat("Space", 3)
    terminal.wait_for(lambda s: "3 marked" in s, "three marked papers")
    terminal.keys("t")
    terminal.wait_for(lambda s: "3 marked papers" in s, "the tags dialog")
    terminal.type("to-read")
    terminal.keys("Enter")
    terminal.wait_for(lambda s: "#to-read" in s, "the tag on the rows")

    # The starred papers as Markdown, then as BibTeX.
    terminal.keys("*")
    terminal.wait_for(
        lambda s: "view: starred" in s and " 5 / 150 " in counts(s).replace("5 / 150 read", ""),
        "the starred view",
    )
    for name in ("starred.md", "starred.bib"):
        terminal.keys("e")
        terminal.wait_for(lambda s: "Export a reading list" in s, "the export dialog")
        terminal.keys("C-a")
        terminal.keys("C-k")
        terminal.type(str(tmp_path / name))
        terminal.keys("Enter")
        terminal.wait_for(lambda s, n=name: "Exported 5 papers" in s and n in s, f"{name} written")
    terminal.keys("*")
    screen = terminal.wait_for(lambda s: "view:" not in counts(s), "the starred view off")
    left_at = detail_title(screen)
    shown = int(FILTERED.search(counts(screen)).group(1))  # type: ignore[union-attr]
    assert left_at and shown > 40
    terminal.keys("q")
    terminal.wait_dead()

    markdown = (tmp_path / "starred.md").read_text(encoding="utf-8")
    assert len(re.findall(r"^\d+\. \[", markdown, flags=re.M)) == 5
    assert markdown.count("★ starred") == 5
    entries = bibtexparser.parse_string((tmp_path / "starred.bib").read_text(encoding="utf-8"))
    assert len(entries.entries) == 5
    assert all("title" in entry.fields_dict for entry in entries.entries)
    notes = json.loads((tmp_path / "notes.json").read_text(encoding="utf-8"))["papers"]
    assert sum(entry.get("state") == "read" for entry in notes.values()) == 30
    assert sum(bool(entry.get("starred")) for entry in notes.values()) == 5
    assert sum("to-read" in entry.get("tags", []) for entry in notes.values()) == 3

    # Reopened: the query, the marks and the cursor's paper are back.
    terminal.kill()
    terminal.start(command)
    screen = terminal.wait_for(
        lambda s: (
            f" {shown} / 150 " in counts(s).replace(" read", "")
            and "3 marked" in counts(s)
            and "learning" in s
        ),
        "the search and the marks put back",
    )
    terminal.wait_for(lambda s: detail_title(s) == left_at, "the paper the cursor was on")
    assert "30 / 150 read" in counts(screen)
    terminal.keys("q")
    terminal.wait_dead()

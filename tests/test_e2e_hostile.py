"""The installed reader in tmux against hostile input: pastes holding ESC, and a crash."""

from __future__ import annotations

import json
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from test_e2e_tmux import PAPERDECK, Terminal, reader_command

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

HOSTILE = "x\x1b\x1bjjsrq"
"""In the list this moved the cursor (j j), starred (s), marked read (r) and quit (q)."""


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    term = Terminal(f"paperdeck-hostile-{uuid.uuid4().hex[:8]}")
    yield term
    term.kill()


def paste(terminal: Terminal, text: str) -> None:
    terminal.tmux("set-buffer", "-b", "hostile", "--", text)
    # -p: as a bracketed paste, which the reader asked the terminal for.
    terminal.tmux("paste-buffer", "-p", "-b", "hostile", "-t", terminal.session)


def test_a_paste_holding_esc_moves_nothing_marks_nothing_and_quits_nothing(
    terminal: Terminal, tmp_path: Path
) -> None:
    assert PAPERDECK.exists(), "the paperdeck console script is not installed"
    terminal.start(reader_command(tmp_path))
    terminal.wait_for(lambda s: "19 papers" in s, "the bundled list", timeout=60)
    paste(terminal, HOSTILE)
    terminal.keys("j")  # a key after the paste still works as a key
    # Paper 2 is shown: the cursor moved by the one key only (the paste's "jj" would have
    # made it paper 4).
    screen = terminal.wait_for(lambda s: "· #2 in icml2026" in s, "paper 2 in the detail pane")
    assert not terminal.dead()
    assert "0 starred" in screen and "0 noted" in screen
    assert not (tmp_path / "notes.json").exists()  # nothing was starred or marked read


def test_a_paste_into_the_note_editor_is_stored_as_text_in_order(
    terminal: Terminal, tmp_path: Path
) -> None:
    terminal.start(reader_command(tmp_path))
    terminal.wait_for(lambda s: "19 papers" in s, "the bundled list", timeout=60)
    terminal.keys("n")
    terminal.wait_for(lambda s: "Leave the note" in s, "the note editor")
    terminal.type("note: ")
    paste(terminal, HOSTILE)
    terminal.wait_for(lambda s: "note: xjjsrq" in s, "the pasted text in the editor")
    terminal.keys("C-q")
    terminal.wait_dead()
    papers = json.loads((tmp_path / "notes.json").read_text(encoding="utf-8"))["papers"]
    assert [entry["note"] for entry in papers.values()] == ["note: xjjsrq"]


def test_a_crash_of_the_reader_exits_non_zero_with_one_line_and_keeps_the_notes(
    terminal: Terminal, tmp_path: Path
) -> None:
    import shlex
    import sys

    # The reader with a bug planted in one key: "s" (star) raises.
    script = tmp_path / "crashing.py"
    script.write_text(
        "import sys\n"
        "from paperdeck.ui.app import PaperdeckApp\n"
        "def broken(self):\n"
        "    raise RuntimeError('planted bug')\n"
        "PaperdeckApp.action_star_and_next = broken\n"
        "from paperdeck.cli.main import main\n"
        "sys.exit(main())\n",
        encoding="utf-8",
    )
    command = reader_command(tmp_path).replace(
        shlex.quote(str(PAPERDECK)), f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    )
    terminal.start(f"{command}; echo EXIT=$?")
    terminal.wait_for(lambda s: "19 papers" in s, "the bundled list", timeout=60)
    terminal.keys("n")
    terminal.wait_for(lambda s: "Leave the note" in s, "the note editor")
    terminal.type("typed before the crash")
    terminal.keys("Escape")
    terminal.wait_for(lambda s: "Leave the note" not in s, "the list focused again")
    terminal.keys("s")
    terminal.wait_for(lambda s: "EXIT=" in s, "the reader to stop")
    # -J: a line tmux wrapped comes back whole; -S -: with what scrolled out of view.
    screen = terminal.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", terminal.session)
    # What is left on the terminal once the reader's screen is gone: one line, then the status.
    lines = [
        line for line in screen.splitlines() if line.strip() and not line.startswith("Pane is dead")
    ]
    assert lines[-1] == "EXIT=1", screen
    lines = [line.strip() for line in lines[:-1]]
    assert lines[0].startswith("paperdeck: the reader stopped on an internal error (")
    assert "RuntimeError: planted bug" in lines[0]
    report = Path(lines[0].rsplit("the report is in ", 1)[1])
    assert "Traceback" in report.read_text(encoding="utf-8")
    report.unlink()
    papers = json.loads((tmp_path / "notes.json").read_text(encoding="utf-8"))["papers"]
    assert [entry["note"] for entry in papers.values()] == ["typed before the crash"]

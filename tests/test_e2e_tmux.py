"""The installed `paperdeck` in a real terminal (tmux): search, write a note, quit, come back."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

PAPERDECK = Path(sys.executable).parent / "paperdeck"


class Terminal:
    """One tmux session running one command, read through capture-pane."""

    def __init__(self, socket: str) -> None:
        self.socket = socket
        self.session = f"pd-{uuid.uuid4().hex[:8]}"

    def tmux(self, *args: str) -> str:
        result = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=20
        )
        return result.stdout

    def start(self, command: str, width: int = 120, height: int = 40) -> None:
        self.tmux(
            "new-session", "-d", "-s", self.session, "-x", str(width), "-y", str(height), command
        )
        self.tmux("set-option", "-t", self.session, "remain-on-exit", "on")

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.session)

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.session, *keys)
        time.sleep(0.15)

    def repeat(self, key: str, times: int) -> None:
        """`key` pressed `times` times in a burst, as a held key sends it (no pause between)."""
        self.tmux("send-keys", "-t", self.session, *[key] * times)
        time.sleep(0.15)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", self.session, "-l", text)
        time.sleep(0.15)

    def dead(self) -> bool:
        return self.tmux("display-message", "-p", "-t", self.session, "#{pane_dead}").strip() == "1"

    def wait_for(self, condition: Callable[[str], bool], what: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if condition(screen):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what}; the screen was:\n{screen}")

    def wait_dead(self, timeout: float = 15) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.dead():
                return
            time.sleep(0.1)
        raise AssertionError(f"paperdeck did not exit; the screen was:\n{self.screen()}")

    def kill(self) -> None:
        self.tmux("kill-server")
        # A new server for the next start: a session started on an old one may get 80x24.
        self.socket = f"{self.socket.split('.')[0]}.{uuid.uuid4().hex[:6]}"


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    socket = f"paperdeck-test-{os.getpid()}"
    term = Terminal(socket)
    yield term
    term.kill()


def reader_command(tmp_path: Path) -> str:
    env = {
        "PAPERDECK_NOTES": str(tmp_path / "notes.json"),
        "PAPERDECK_CONFIG": str(tmp_path / "settings.json"),
        "PAPERDECK_CACHE": str(tmp_path / "cache"),
        "TERM": "xterm-256color",
    }
    assignments = " ".join(f"{key}={shlex.quote(value)}" for key, value in env.items())
    # pytest may export COLUMNS and LINES, which Textual prefers to the real size.
    return f"env -u COLUMNS -u LINES {assignments} {shlex.quote(str(PAPERDECK))}"


def test_search_note_quit_and_the_note_is_there_next_time(
    terminal: Terminal, tmp_path: Path
) -> None:
    assert PAPERDECK.exists(), "the paperdeck console script is not installed"
    terminal.start(reader_command(tmp_path))
    terminal.wait_for(lambda s: "19 papers" in s, "the bundled list")

    terminal.keys("/")
    terminal.type("bubblespec")
    terminal.wait_for(lambda s: "1 / 19" in s, "the search to filter to one paper")
    terminal.keys("Enter")
    terminal.wait_for(lambda s: "Turning Long-Tail Bubbles" in s, "the paper's detail")

    terminal.keys("n")
    terminal.type("Read the rollout section twice.")
    terminal.keys("Escape")
    terminal.keys("q")
    terminal.wait_dead()

    stored = json.loads((tmp_path / "notes.json").read_text(encoding="utf-8"))
    notes = [entry.get("note") for entry in stored["papers"].values()]
    assert "Read the rollout section twice." in notes

    terminal.kill()
    terminal.start(reader_command(tmp_path))
    # The list comes back as it was left: the search typed last time is applied again.
    terminal.wait_for(lambda s: "1 / 19" in s and "bubblespec" in s, "the search put back")
    terminal.keys("/")
    terminal.keys("Escape")  # clears the search
    terminal.wait_for(lambda s: "19 papers" in s and "1 noted" in s, "the list with one note")
    terminal.keys("/")
    terminal.type("bubblespec")
    terminal.wait_for(lambda s: "1 / 19" in s, "the search")
    terminal.keys("Enter")
    terminal.wait_for(lambda s: "Read the rollout section twice." in s, "the note shown again")
    terminal.keys("q")
    terminal.wait_dead()

"""Copying through the real mechanisms: xclip under Xvfb, OSC 52 into tmux, and nothing at all."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.xserver import private_display

from paperdeck.core import clipboard
from paperdeck.core.clipboard import CopyReport, copy_text, osc52_sequence

ROOT = Path(__file__).resolve().parents[2]
TEXT = "@inproceedings{k,\n  title = {Hübotter & “quotes” — 漢字 🙂},\n}\n"
pytestmark = pytest.mark.slow


def bare_environ(**extra: str) -> dict[str, str]:
    """An environment with no display, no tmux, no screen and no SSH: only PATH."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **extra}


def wait_for(condition: object, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def display() -> Iterator[str]:
    """A private X server (Xvfb) on a free display number, with xclip to use it."""
    if not shutil.which("Xvfb") or not shutil.which("xclip"):
        pytest.skip("needs Xvfb and xclip (apt-get install xvfb xclip)")
    with private_display() as display:
        yield display


def read_x_clipboard(display: str) -> str:
    return subprocess.run(
        ["xclip", "-o", "-selection", "clipboard"],
        capture_output=True,
        env=bare_environ(DISPLAY=display),
        timeout=5,
        check=True,
    ).stdout.decode("utf-8")


class Tmux:
    """A tmux server of the test's own (its own socket), killed at the end."""

    def __init__(self, socket: Path) -> None:
        self.socket = socket

    def __call__(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["tmux", "-S", str(self.socket), *args],
            capture_output=True,
            text=True,
            timeout=10,
            check=check,
        )

    def buffer(self) -> str | None:
        result = self("show-buffer", check=False)
        return result.stdout if result.returncode == 0 else None


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    if not shutil.which("tmux"):
        pytest.skip("needs tmux (apt-get install tmux)")
    server = Tmux(tmp_path / "tmux.sock")
    server("-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", "sleep 60")
    try:
        yield server
    finally:
        server("kill-server", check=False)


def run_in_pane(tmux: Tmux, tmp_path: Path, script: str) -> dict[str, object]:
    """Run Python in a new tmux window (its tty is the pane) and return what it reported."""
    out = tmp_path / "report.json"
    program = tmp_path / "pane.py"
    program.write_text(
        "import json, os, sys\n"
        f"sys.path.insert(0, {str(ROOT / 'src')!r})\n"
        f"TEXT = {TEXT!r}\n"
        f"{script}\n"
        # Written whole, then named: the test reads it as soon as the name is there.
        f"open({str(out)!r} + '.part', 'w').write(json.dumps(result))\n"
        f"os.replace({str(out)!r} + '.part', {str(out)!r})\n"
        "import time; time.sleep(30)\n",
        encoding="utf-8",
    )
    tmux("new-window", "-d", f"{sys.executable} {program} 2>{tmp_path / 'pane.err'}")
    assert wait_for(out.exists, timeout=20), (tmp_path / "pane.err").read_text()
    result: dict[str, object] = json.loads(out.read_text())
    return result


# --- the escape sequences ---------------------------------------------------------------------


def test_osc52_sequence_bare_and_wrapped_for_tmux_and_screen() -> None:
    payload = base64.b64encode(TEXT.encode("utf-8")).decode("ascii")
    bare = osc52_sequence(TEXT, tmux=False)
    assert bare == f"\x1b]52;c;{payload}\x07"
    assert base64.b64decode(bare[7:-1]).decode("utf-8") == TEXT
    assert osc52_sequence(TEXT, tmux=True) == f"\x1bPtmux;\x1b\x1b]52;c;{payload}\x07\x1b\\"
    long_text = "x" * 3000
    screen = osc52_sequence(long_text, tmux=False, screen=True)
    chunks = screen.split("\x1b\\")[:-1]
    assert len(chunks) > 1 and all(chunk.startswith("\x1bP") for chunk in chunks)
    assert all(len(chunk) - 2 <= 768 for chunk in chunks)
    assert "".join(chunk[2:] for chunk in chunks) == osc52_sequence(long_text, tmux=False)


def test_report_describes_where_the_text_went() -> None:
    report = CopyReport(
        ("the system clipboard (xclip)", "tmux's paste buffer", "the terminal (OSC 52 via tmux)"),
        (),
        ("the terminal (OSC 52 via tmux)",),
    )
    assert report.confirmed
    assert report.describe() == "the system clipboard, tmux's paste buffer and the terminal"
    assert report.describe(brief=True) == "clipboard, tmux buffer, terminal"
    only_terminal = CopyReport(("the terminal (OSC 52)",), (), ("the terminal (OSC 52)",))
    assert not only_terminal.confirmed and only_terminal.describe() == "the terminal"
    assert CopyReport((), ("x",)).describe() == "nowhere"


# --- the system clipboard under Xvfb ------------------------------------------------------------


def test_xclip_under_xvfb_holds_the_text_and_says_so(display: str) -> None:
    sent: list[str] = []
    report = copy_text(TEXT, terminal_write=sent.append, environ=bare_environ(DISPLAY=display))
    assert report.mechanisms == ("the system clipboard (xclip)", "the terminal (OSC 52)")
    assert report.confirmed and report.errors == ()
    assert report.describe() == "the system clipboard and the terminal"
    assert read_x_clipboard(display) == TEXT
    assert sent == [osc52_sequence(TEXT, tmux=False)]


def test_a_second_copy_replaces_the_first(display: str) -> None:
    copy_text("first", environ=bare_environ(DISPLAY=display))
    report = copy_text("second", environ=bare_environ(DISPLAY=display))
    assert report.confirmed
    assert read_x_clipboard(display) == "second"


def test_copies_in_quick_succession_are_each_confirmed(display: str) -> None:
    # Each copy's read-back can meet the previous copy's owner still serving its text.
    for number in range(8):
        report = copy_text(f"copy {number}", environ=bare_environ(DISPLAY=display))
        assert report.confirmed, report.errors
        assert read_x_clipboard(display) == f"copy {number}"


def test_over_ssh_the_remote_clipboard_is_skipped_unless_x_is_forwarded(display: str) -> None:
    sent: list[str] = []
    ssh = {"SSH_CONNECTION": "10.0.0.2 50000 10.0.0.1 22"}
    report = copy_text(TEXT, terminal_write=sent.append, environ=bare_environ(**ssh))
    assert report.mechanisms == ("the terminal (OSC 52)",)
    assert not report.confirmed
    assert any("over SSH" in error for error in report.errors)
    forwarded = copy_text(TEXT, environ=bare_environ(DISPLAY=display, **ssh))
    assert forwarded.mechanisms == ("the system clipboard (xclip, over SSH X forwarding)",)
    assert read_x_clipboard(display) == TEXT


def test_a_clipboard_tool_that_fails_or_lies_is_reported_not_raised(tmp_path: Path) -> None:
    tools = tmp_path / "bin"
    tools.mkdir()
    failing = tools / "xclip"
    failing.write_text('#!/bin/sh\necho "Error: Can\'t open display: :42" >&2\nexit 1\n')
    failing.chmod(0o755)
    lying = tools / "xsel"  # says yes, keeps nothing
    lying.write_text("#!/bin/sh\ncat >/dev/null\nexit 0\n")
    lying.chmod(0o755)
    report = copy_text(TEXT, environ={"PATH": str(tools), "DISPLAY": ":42"})
    assert report.mechanisms == () and not report.confirmed
    assert report.errors == (
        "xclip: Error: Can't open display: :42",
        "xsel: the clipboard did not take the text",
    )


def test_once_an_x_tool_times_out_no_other_x_tool_is_tried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(clipboard, "_TIMEOUT", 0.5)
    tools = tmp_path / "bin"
    tools.mkdir()
    tried = tmp_path / "xsel-ran"
    hung = tools / "xclip"  # an X server that accepts the connection and never answers
    sleep, touch = shutil.which("sleep"), shutil.which("touch")  # PATH will hold only tools/
    hung.write_text(f"#!/bin/sh\nexec {sleep} 30\n")
    hung.chmod(0o755)
    other = tools / "xsel"
    other.write_text(f"#!/bin/sh\n{touch} {tried}\nexec {sleep} 30\n")
    other.chmod(0o755)
    report = copy_text(TEXT, environ={"PATH": str(tools), "DISPLAY": ":42"})
    assert report.mechanisms == () and not report.confirmed
    assert report.errors == ("xclip: timed out after 0.5 s",)
    assert not tried.exists()  # one timeout, not one per X tool


def test_a_hung_pyperclip_is_abandoned_and_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    import pyperclip

    monkeypatch.setattr(clipboard, "_TIMEOUT", 0.3)
    release = threading.Event()
    monkeypatch.setattr(pyperclip, "copy", lambda _text: release.wait(30))
    try:
        outcome = clipboard._copy_pyperclip(TEXT)
    finally:
        release.set()
    assert outcome.mechanism is None
    assert outcome.errors == ("pyperclip: timed out after 0.3 s",)


# --- OSC 52 into tmux ---------------------------------------------------------------------------


def test_osc52_written_to_the_pane_reaches_tmux_buffer(tmux: Tmux, tmp_path: Path) -> None:
    tmux("set", "-s", "set-clipboard", "on")
    result = run_in_pane(
        tmux,
        tmp_path,
        "from paperdeck.core.clipboard import copy_text, tty_writer\n"
        "env = {'PATH': '/usr/bin:/bin'}  # the OSC 52 path alone: no TMUX, no DISPLAY\n"
        "with tty_writer() as write:\n"
        "    report = copy_text(TEXT, terminal_write=write, environ=env)\n"
        "result = {'mechanisms': report.mechanisms, 'confirmed': report.confirmed}",
    )
    assert result == {"mechanisms": ["the terminal (OSC 52)"], "confirmed": False}
    assert wait_for(lambda: tmux.buffer() == TEXT), tmux.buffer()


def test_inside_tmux_the_copy_lands_in_its_buffer_and_is_confirmed(
    tmux: Tmux, tmp_path: Path
) -> None:
    tmux("set", "-s", "set-clipboard", "off")  # even when tmux ignores OSC 52
    result = run_in_pane(
        tmux,
        tmp_path,
        "import os\n"
        "from paperdeck.core.clipboard import copy_text, tty_writer\n"
        "env = {'PATH': os.environ['PATH'], 'TMUX': os.environ['TMUX']}\n"
        "with tty_writer() as write:\n"
        "    report = copy_text(TEXT, terminal_write=write, environ=env)\n"
        "result = {'mechanisms': report.mechanisms, 'confirmed': report.confirmed,\n"
        "          'describe': report.describe()}",
    )
    assert result == {
        "mechanisms": ["tmux's paste buffer", "the terminal (OSC 52 via tmux)"],
        "confirmed": True,
        "describe": "tmux's paste buffer and the terminal",
    }
    assert tmux.buffer() == TEXT


# --- nothing works --------------------------------------------------------------------------------


def test_with_no_display_and_no_tmux_nothing_is_confirmed() -> None:
    report = copy_text(TEXT, environ=bare_environ())
    assert report.mechanisms == () and not report.confirmed
    assert report.describe() == "nowhere"
    assert report.errors == ("no system clipboard: neither DISPLAY nor WAYLAND_DISPLAY is set",)
    sent: list[str] = []
    terminal_only = copy_text(TEXT, terminal_write=sent.append, environ=bare_environ())
    assert terminal_only.mechanisms == ("the terminal (OSC 52)",)
    assert not terminal_only.confirmed
    assert sent == [osc52_sequence(TEXT, tmux=False)]


def test_a_broken_terminal_never_crashes_a_copy() -> None:
    def broken(_sequence: str) -> None:
        raise OSError(5, "Input/output error")

    report = copy_text(TEXT, terminal_write=broken, environ=bare_environ())
    assert report.mechanisms == ()
    assert report.errors[-1] == "the terminal: [Errno 5] Input/output error"


def test_a_huge_text_is_not_sent_by_osc52() -> None:
    sent: list[str] = []
    report = copy_text("x" * 2_000_000, terminal_write=sent.append, environ=bare_environ())
    assert sent == [] and report.errors[-1] == "the terminal: too long for OSC 52"


# --- the reader ---------------------------------------------------------------------------------


def reader(tmp_path: Path) -> object:
    from paperdeck.core.library import load_library
    from paperdeck.core.notes.store import NotesStore
    from paperdeck.core.resources import bundled_list
    from paperdeck.ui.app import PaperdeckApp

    library = load_library([bundled_list()])
    store = NotesStore(tmp_path / "notes.json")
    return PaperdeckApp(library, store, settings_file=tmp_path / "settings.json")


def only_environ(monkeypatch: pytest.MonkeyPatch, **values: str) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "TMUX", "STY", "SSH_CONNECTION", "SSH_TTY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in values.items():
        monkeypatch.setenv(name, value)


async def test_c_in_the_reader_puts_the_bibtex_on_the_x_clipboard(
    display: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.core.citations import citation_keys, cite
    from paperdeck.ui.app import PaperdeckApp
    from paperdeck.ui.dialogs.citation_dialog import CitationDialog

    only_environ(monkeypatch, DISPLAY=display)
    app = reader(tmp_path)
    assert isinstance(app, PaperdeckApp)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        # Record what reaches the terminal: the OSC 52 must carry the citation itself.
        driver = app._driver
        assert driver is not None
        written: list[str] = []
        original_write = driver.write

        def record(data: str) -> None:
            written.append(data)
            original_write(data)

        monkeypatch.setattr(driver, "write", record)
        await pilot.press("c")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not isinstance(app.screen, CitationDialog)
        messages = [notification.message for notification in app._notifications]
    first = app.papers[0]
    expected = cite(first, key=citation_keys(app.papers)[first.id]).text
    assert read_x_clipboard(display).rstrip("\n") == expected
    payloads = re.findall(r"\x1b\]52;c;([A-Za-z0-9+/=]+)\x07", "".join(written))
    assert payloads, "no OSC 52 reached the terminal"
    assert base64.b64decode(payloads[0]).decode("utf-8").rstrip("\n") == expected
    assert "\n@inproceedings{chen2026interactscience,\n" in expected
    assert any(
        message.startswith("Copied BibTeX for") and " to the system clipboard" in message
        for message in messages
    ), messages


async def test_with_neither_xclip_nor_tmux_the_reader_shows_the_citation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.ui.app import PaperdeckApp
    from paperdeck.ui.dialogs.citation_dialog import CitationDialog

    only_environ(monkeypatch)
    app = reader(tmp_path)
    assert isinstance(app, PaperdeckApp)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("c")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, CitationDialog)
        assert "\n@inproceedings{chen2026interactscience,\n" in app.screen.text

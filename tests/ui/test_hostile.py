"""Hostile text in lists, notes and file names is shown literally and never reaches the terminal."""

from __future__ import annotations

import os
import select
import shutil
import signal
import sys
import time
from pathlib import Path

import pyte
import pytest

from paperdeck.core.library import load_library
from paperdeck.core.notes.store import NotesStore
from paperdeck.ui.app import PaperdeckApp

DATA = Path(__file__).parents[1] / "data"
HOSTILE = DATA / "hostile.txt"
ROOT = Path(__file__).resolve().parents[2]
LITERALS = (
    "[@click=app.quit]x[/]",
    "[/ and a closing [/foo] tag",
    "a[i] and [x] and [bold]not bold[/bold]",
    "[link=https://x]y[/link]",
)
FORBIDDEN = ("\x1b", "\x9b", "\x07", "\x08", "\u202e", "\u202c", "\u2066", "\u2069")


def make_app(tmp_path: Path, path: Path = HOSTILE) -> PaperdeckApp:
    return PaperdeckApp(
        load_library([path]),
        NotesStore(tmp_path / "notes.json"),
        settings_file=tmp_path / "settings.json",
    )


async def test_hostile_abstracts_are_shown_literally(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "Hostile abstracts [red]list[/red]" in str(app.query_one("#header").render())
        shown: list[str] = []
        rows: list[str] = []
        for y in range(len(app.papers)):
            shown.append(app.detail.text)
            rows.append(app.paper_list.row_text(y))
            # Clicking where the abstract is must not run anything it contains.
            await pilot.click("#detail", offset=(5, 8))
            await pilot.press("tab", "shift+tab")
            app.paper_list.focus()
            await pilot.press("j")
        assert app.is_running
        everything = "\n".join(shown + rows)
        for literal in LITERALS:
            assert literal in everything
        assert "[@click=app.quit]x[/]" in rows[0]
        for character in FORBIDDEN:
            assert character not in everything, repr(character)
        assert "clear the screen" in everything and "evil" in everything
        # The raw source view is just as literal.
        await pilot.press("g", "R")
        assert "[@click=app.quit]x[/]" in app.detail.text
        assert app.is_running


async def test_hostile_queries_notes_and_tags(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("slash", "left_square_bracket", "slash")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.is_running
        assert app.search_box.value == "[/"
        await pilot.press(*"qzxv")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.search_box.value == "[/qzxv"
        assert len(app.paper_list.rows) == 0
        assert "No papers match '[/qzxv'" in app.paper_list.render_line(0).text
        assert "0 / 7" in str(app.query_one("#header").render())
        assert app.is_running
        await pilot.press("escape", "n")
        app.notes.editor.insert("[@click=app.quit]note[/] \x1b]52;c;SGFja2Vk\x07 [/")
        await pilot.press("escape", "j", "k")
        assert app.is_running
        entry = app.store.get(app.papers[0])
        assert entry is not None and "[@click=app.quit]note[/]" in entry.note
        assert "\x1b" not in entry.note and "\x07" not in entry.note
        await pilot.press("t")
        await pilot.press(*"[b]x[/b]")
        await pilot.press("enter")
        row = app.paper_list.row_text(0)
        assert "#[b]x[/b]" in row
        assert app.is_running


async def test_hostile_file_names(tmp_path: Path) -> None:
    named = tmp_path / "[red]evil[@click=app.quit]x.txt"
    named.write_text(HOSTILE.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        app.loading.open_file(named)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "#1 in [red]evil[@click=app.quit]x" in app.detail.text
        app.loading.open_file(tmp_path / "[/missing].txt")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.is_running
        assert any("[/missing].txt" in n.message for n in app._notifications)


def _read_until(fd: int, needle: bytes, timeout: float) -> bytes:
    output = b""
    deadline = time.monotonic() + timeout
    while needle not in output and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
    return output


@pytest.mark.slow
def test_no_escape_sequence_from_a_list_reaches_the_terminal(tmp_path: Path) -> None:
    if sys.platform == "win32" or shutil.which("stty") is None:
        pytest.skip("needs a POSIX pseudo-terminal")
    import pty

    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "COLUMNS": "120",
        "LINES": "40",
        "PYTHONPATH": str(ROOT / "src"),
        "PAPERDECK_CONFIG": str(tmp_path / "settings.json"),
    }
    pid, fd = pty.fork()
    if pid == 0:  # the child: the reader in a terminal
        os.execvpe(
            sys.executable,
            [sys.executable, "-m", "paperdeck", str(HOSTILE), "--notes", str(tmp_path / "n.json")],
            env,
        )
    try:
        import fcntl
        import struct
        import termios

        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        output = _read_until(fd, b"Hostile abstracts", 20)
        assert b"Hostile abstracts" in output
        for key in (b"j", b"j", b"j", b"j", b"j", b"j", b"R", b"k", b"k"):
            os.write(fd, key)
            output += _read_until(fd, b"\x00never", 0.3)
        os.write(fd, b"q")
        output += _read_until(fd, b"\x00never", 3)
        _, status = os.waitpid(pid, 0)
        pid = 0
    finally:
        if pid:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0
    text = output.decode("utf-8", "replace")
    assert "[@click=app.quit]x[/]" in text
    assert "SGFja2Vk" not in text, "an OSC 52 payload from the list reached the terminal"
    for character in ("\u202e", "\u2066", "\x9b", "\x08"):
        assert character not in text, repr(character)


def _screen_until(fd: int, stream: pyte.ByteStream, text: str, timeout: float) -> None:
    """Feed the terminal's output to its screen until `text` shows on it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if text in "\n".join(stream.listener.display):
            return
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            stream.feed(os.read(fd, 65536))
    raise AssertionError(
        f"{text!r} never showed on the screen:\n" + "\n".join(stream.listener.display)
    )


def _reader_with_a_typed_note(tmp_path: Path, note: str) -> tuple[int, int, Path]:
    """A reader in a real pty on the hostile list, with `note` typed into the first paper's note."""
    import fcntl
    import pty
    import struct
    import termios

    notes = tmp_path / "n.json"
    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "PYTHONPATH": str(ROOT / "src"),
        "PAPERDECK_CONFIG": str(tmp_path / "settings.json"),
    }
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        os.execvpe(
            sys.executable,
            [sys.executable, "-m", "paperdeck", str(HOSTILE), "--notes", str(notes)],
            env,
        )
    try:
        # Read the screen, not the bytes: a repaint sends only the cells that changed.
        screen = pyte.Screen(120, 40)
        stream = pyte.ByteStream(screen)
        _screen_until(fd, stream, "7 papers \u00b7", 20)
        os.write(fd, b"n")
        _screen_until(fd, stream, "Leave the note", 20)
        os.write(fd, note.encode())
        _screen_until(fd, stream, note[:20], 20)
    except BaseException:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)
        raise
    return pid, fd, notes


def _stopped_by(signum: int, pid: int, fd: int, wait: float) -> tuple[int, bytes]:
    """Send the reader `signum`; its exit status and what it wrote in `wait` seconds (it is
    killed if it has not ended; the terminal is closed either way)."""
    try:
        os.kill(pid, signum)
        after = _read_until(fd, b"\x00never", wait)
        _, status = os.waitpid(pid, 0)
        pid = 0
    finally:
        if pid:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)
    return os.waitstatus_to_exitcode(status), after


@pytest.mark.slow
def test_sigterm_saves_the_note(tmp_path: Path) -> None:
    pid, fd, notes = _reader_with_a_typed_note(tmp_path, "typed before the terminal closed")
    status, _ = _stopped_by(signal.SIGTERM, pid, fd, 3)
    assert status == 0
    assert "typed before the terminal closed" in notes.read_text(encoding="utf-8")


@pytest.mark.slow
def test_sigint_saves_the_note_restores_the_terminal_and_exits_130(tmp_path: Path) -> None:
    """`kill -INT` to the reader: before, it exited 0, unlike every command stopped so."""
    pid, fd, notes = _reader_with_a_typed_note(tmp_path, "typed before the interrupt")
    status, after = _stopped_by(signal.SIGINT, pid, fd, 5)
    assert status == 130
    assert "typed before the interrupt" in notes.read_text(encoding="utf-8")
    # The terminal is given back: the alternate screen left and the cursor shown again.
    assert b"\x1b[?1049l" in after and b"\x1b[?25h" in after
    assert b"Traceback" not in after


@pytest.mark.slow
def test_closing_the_terminal_saves_the_note_and_ends_the_reader(tmp_path: Path) -> None:
    # The window closes as keys still pour in: the reader is painting, and Textual resumes it
    # on the SIGCONT that follows SIGHUP. Before the reader wrote through TerminalOutput and
    # took SIGHUP in a Python handler, it hung in 1 run of 2 like this. Three runs, since one
    # that passes proves little.
    for run in range(3):
        folder = tmp_path / str(run)
        folder.mkdir()
        pid, fd, notes = _reader_with_a_typed_note(folder, "typed as the window closed")
        try:
            os.write(fd, b" and more words" * 60)
            time.sleep(0.1)  # the reader's input thread reads them: they are in the app's queue
            # Closing the master is the terminal window closing: the kernel sends SIGHUP.
            os.close(fd)
            deadline = time.monotonic() + 10
            while (done := os.waitpid(pid, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert done[0] == pid, f"run {run}: the reader did not exit after its terminal closed"
            pid = 0
        finally:
            if pid:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
        assert "typed as the window closed" in notes.read_text(encoding="utf-8")


async def test_a_rows_hint_of_a_hostile_abstract_is_literal(tmp_path: Path) -> None:
    path = tmp_path / "hints.txt"
    abstract = (
        "We study a plain question about lists. Its answer is plain too, and the rest of this "
        "abstract is long enough to stay out of its title. Then zebra [@click=app.quit]x[/] "
        "and [bold]not bold[/bold] with \x1b[31mred\x1b[0m and a bell \x07 and \u202eevil."
    )
    path.write_text(f"Hints\n\n{abstract}\n\nAnother abstract.\n", encoding="utf-8")
    app = make_app(tmp_path, path)
    async with app.run_test(size=(200, 40)) as pilot:
        await app.workers.wait_for_complete()
        app.search_box.value = "zebra"
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "zebra" not in app.papers[app.paper_list.rows[0]].title
        quiet = app.paper_list.row_text(0).splitlines()[-1]
        assert "zebra [@click=app.quit]x[/] and [bold]not bold[/bold] with red" in quiet, quiet
        for character in FORBIDDEN:
            assert character not in quiet, repr(character)
        await pilot.click("#papers", offset=(10, 2))
        assert app.is_running


async def test_a_text_file_that_is_no_paper_list_ends_the_reader_saying_so(
    tmp_path: Path,
) -> None:
    """The reader opened /etc/passwd as a list of one paper, its lines the abstract."""
    from paperdeck.core.errors import LoadError

    path = tmp_path / "passwd"
    path.write_text(
        "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n",
        encoding="utf-8",
    )
    with pytest.raises(LoadError, match="not a paper list"):
        load_library([path])
    app = PaperdeckApp(
        None,
        NotesStore(tmp_path / "notes.json"),
        loader=lambda options: load_library([path], options=options),
        loading_label=path.name,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause(0.2)
    assert app.return_value == 2
    assert app.load_error == (
        f"{path}: not a paper list (no paragraph of it reads as an abstract; a plain-text list"
        " has one abstract a paragraph)"
    )

"""Copy text through every clipboard mechanism that can work, and report which did."""

from __future__ import annotations

import base64
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

TerminalWrite = Callable[[str], None]

ESC = "\x1b"
BEL = "\x07"
ST = ESC + "\\"
OSC52_LIMIT = 1_000_000
"""Longest base64 payload sent by OSC 52; terminals drop or truncate longer ones."""
SCREEN_CHUNK = 768
"""GNU screen passes at most this many bytes per DCS string through."""
_TIMEOUT = 3.0
_READ_BACK_PATIENCE = 1.0
"""Seconds a read-back may show the previous copy before the copy counts as failed."""

SYSTEM = "the system clipboard"
TMUX_BUFFER = "tmux's paste buffer"
TERMINAL = "the terminal"
_BRIEF = {SYSTEM: "clipboard", TMUX_BUFFER: "tmux buffer", TERMINAL: "terminal"}
"""The same in the fewest words, for a notice on a narrow screen."""


@dataclass(frozen=True)
class CopyReport:
    """Where a copy went, what failed, and which deliveries nobody could confirm.

    `mechanisms` are full names ("the system clipboard (xclip)", "the terminal (OSC 52 via
    tmux)"); `unconfirmed` lists those of them that cannot report back (OSC 52 never does).
    """

    mechanisms: tuple[str, ...]
    errors: tuple[str, ...]
    unconfirmed: tuple[str, ...] = ()

    @property
    def confirmed(self) -> bool:
        """True when at least one mechanism is known to hold the text."""
        return any(mechanism not in self.unconfirmed for mechanism in self.mechanisms)

    def describe(self, *, brief: bool = False) -> str:
        """Where the text went, in words: "the system clipboard and the terminal", or `brief`,
        "clipboard, terminal"."""
        names = list(dict.fromkeys(mechanism.split(" (")[0] for mechanism in self.mechanisms))
        if not names:
            return "nowhere"
        if brief:
            return ", ".join(_BRIEF.get(name, name) for name in names)
        if len(names) == 1:
            return names[0]
        return ", ".join(names[:-1]) + " and " + names[-1]


def osc52_sequence(text: str, *, tmux: bool, screen: bool = False) -> str:
    """The OSC 52 escape that sets the clipboard to `text`, wrapped for tmux or GNU screen.

    tmux passes a DCS `ESC P tmux; ... ESC \\` (ESCs inside doubled) to the outer terminal when
    `allow-passthrough` is on; screen passes DCS strings of at most 768 bytes each.
    """
    payload = base64.b64encode(text.encode("utf-8")).decode("ascii")
    sequence = f"{ESC}]52;c;{payload}{BEL}"
    if tmux:
        return f"{ESC}Ptmux;{sequence.replace(ESC, ESC + ESC)}{ST}"
    if screen:
        chunks = [sequence[i : i + SCREEN_CHUNK] for i in range(0, len(sequence), SCREEN_CHUNK)]
        return "".join(f"{ESC}P{chunk}{ST}" for chunk in chunks)
    return sequence


def over_ssh(environ: Mapping[str, str]) -> bool:
    """True when this process runs on the far side of an SSH connection."""
    return bool(environ.get("SSH_CONNECTION") or environ.get("SSH_TTY"))


def copy_text(
    text: str,
    *,
    terminal_write: TerminalWrite | None = None,
    environ: Mapping[str, str] | None = None,
) -> CopyReport:
    """Copy `text` to the system clipboard, tmux's buffer and the terminal, as can be done.

    Never raises. `terminal_write` receives raw escape sequences for the terminal (the reader
    passes its driver's writer; the CLI a writer on /dev/tty); without it no OSC 52 is sent.
    `environ` defaults to os.environ.
    """
    env = dict(os.environ if environ is None else environ)
    mechanisms: list[str] = []
    errors: list[str] = []
    unconfirmed: list[str] = []

    system = _copy_system(text, env, use_pyperclip=environ is None)
    if system.mechanism:
        mechanisms.append(system.mechanism)
    errors.extend(system.errors)

    in_tmux = bool(env.get("TMUX"))
    tmux_done = False
    if in_tmux:
        tmux = _copy_tmux(text, env)
        if tmux.mechanism:
            mechanisms.append(tmux.mechanism)
            tmux_done = True
        errors.extend(tmux.errors)

    if terminal_write is not None:
        terminal = _send_osc52(text, terminal_write, env, tmux_buffer_done=tmux_done)
        if terminal.mechanism:
            mechanisms.append(terminal.mechanism)
            unconfirmed.append(terminal.mechanism)
        errors.extend(terminal.errors)
    return CopyReport(tuple(mechanisms), tuple(errors), tuple(unconfirmed))


@dataclass(frozen=True)
class _Outcome:
    mechanism: str | None
    errors: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Failure:
    message: str
    timed_out: bool = False


@dataclass(frozen=True)
class _Tool:
    name: str
    copy: tuple[str, ...]
    read_back: tuple[str, ...] | None
    encoding: str = "utf-8"
    server: str | None = None
    """The display server the tool talks to: once one tool times out, its siblings would too."""


def _system_tools(env: Mapping[str, str]) -> list[_Tool]:
    """The clipboard commands worth trying here, best first."""
    if sys.platform == "win32":
        return []  # pyperclip talks to the Windows clipboard directly
    tools: list[_Tool] = []
    if sys.platform == "darwin":
        tools.append(_Tool("pbcopy", ("pbcopy",), ("pbpaste",)))
    if env.get("WAYLAND_DISPLAY"):
        tools.append(_Tool("wl-copy", ("wl-copy",), ("wl-paste", "--no-newline"), server="wayland"))
    if env.get("DISPLAY"):
        tools.append(
            _Tool(
                "xclip",
                ("xclip", "-selection", "clipboard"),
                ("xclip", "-o", "-selection", "clipboard"),
                server="x11",
            )
        )
        tools.append(
            _Tool(
                "xsel",
                ("xsel", "--clipboard", "--input"),
                ("xsel", "--clipboard", "-o"),
                server="x11",
            )
        )
    # Windows Subsystem for Linux reaches the Windows clipboard through clip.exe, which reads
    # UTF-16 with a byte order mark (UTF-8 would come out as mojibake).
    tools.append(_Tool("clip.exe", ("clip.exe",), None, encoding="utf-16"))
    return tools


def _copy_system(text: str, env: dict[str, str], *, use_pyperclip: bool) -> _Outcome:
    if over_ssh(env) and not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")):
        # Without a forwarded display the clipboard here is the remote machine's: useless.
        return _Outcome(None, ("over SSH: used the terminal, not the remote machine's clipboard",))
    errors: list[str] = []
    tried = False
    # A hung X server makes every X tool wait out its timeout: one wait is enough.
    unresponsive: set[str] = set()
    for tool in _system_tools(env):
        if tool.server is not None and tool.server in unresponsive:
            continue
        executable = shutil.which(tool.copy[0], path=env.get("PATH"))
        if executable is None:
            continue
        tried = True
        error = _run_copy([executable, *tool.copy[1:]], text, env, encoding=tool.encoding)
        if error is None and tool.read_back is not None:
            error = _check_read_back(list(tool.read_back), text, env)
        if error is None:
            where = ", over SSH X forwarding" if over_ssh(env) else ""
            return _Outcome(f"{SYSTEM} ({tool.name}{where})", tuple(errors))
        errors.append(f"{tool.name}: {error.message}")
        if error.timed_out and tool.server is not None:
            unresponsive.add(tool.server)
    if tried:
        return _Outcome(None, tuple(errors))
    has_display = bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")) and not has_display:
        errors.append("no system clipboard: neither DISPLAY nor WAYLAND_DISPLAY is set")
    elif use_pyperclip:
        outcome = _copy_pyperclip(text)
        if outcome.mechanism:
            return outcome
        errors.extend(outcome.errors)
    else:
        errors.append("no clipboard tool found (install xclip, xsel or wl-clipboard)")
    return _Outcome(None, tuple(errors))


def _timed_out() -> str:
    return f"timed out after {_TIMEOUT:g} s"


def _run_copy(
    command: list[str], text: str, env: dict[str, str], *, encoding: str = "utf-8"
) -> _Failure | None:
    # xclip and wl-copy stay behind to serve the selection and keep inherited pipes open, so
    # their output goes to a file: a pipe would make this wait for the selection's owner.
    try:
        with tempfile.TemporaryFile() as errors:
            completed = subprocess.run(
                command,
                input=text.encode(encoding),
                stdout=subprocess.DEVNULL,
                stderr=errors,
                env=env,
                timeout=_TIMEOUT,
                check=False,
            )
            errors.seek(0)
            message = errors.read().decode("utf-8", "replace").strip()
    except subprocess.TimeoutExpired:
        return _Failure(_timed_out(), timed_out=True)
    except (OSError, subprocess.SubprocessError) as error:
        return _Failure(str(error) or type(error).__name__)
    if completed.returncode != 0:
        return _Failure((message.splitlines() or [f"exit status {completed.returncode}"])[0])
    return None


def _check_read_back(command: list[str], text: str, env: dict[str, str]) -> _Failure | None:
    # xclip and xsel hand the selection to a background child: until that child owns it, the
    # previous owner still answers with the previous copy. Ask again for a little while.
    deadline = time.monotonic() + _READ_BACK_PATIENCE
    while True:
        try:
            completed = subprocess.run(
                command,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                env=env,
                timeout=_TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return _Failure(f"could not read the clipboard back: {_timed_out()}", timed_out=True)
        except (OSError, subprocess.SubprocessError) as error:
            return _Failure(f"could not read the clipboard back: {error}")
        if completed.stdout.decode("utf-8", "replace") == text:
            return None
        if time.monotonic() >= deadline:
            return _Failure("the clipboard did not take the text")
        time.sleep(0.05)


def _copy_pyperclip(text: str) -> _Outcome:
    # pyperclip decides its mechanism once per process from os.environ; it is the fallback for
    # platforms with no command-line tool (native Windows) or other desktops (klipper, Qt).
    # It runs qdbus and the like with no timeout, so it runs in a thread that may be abandoned
    # (a daemon thread: a hung one does not keep the program from exiting).
    failures: list[str] = []

    def copy() -> None:
        try:
            import pyperclip

            pyperclip.copy(text)
        except Exception as error:  # anything from PyperclipException to OSError
            failures.append(str(error).splitlines()[0] if str(error) else type(error).__name__)

    worker = threading.Thread(target=copy, name="paperdeck-pyperclip", daemon=True)
    worker.start()
    worker.join(_TIMEOUT)
    if worker.is_alive():
        return _Outcome(None, (f"pyperclip: {_timed_out()}",))
    if failures:
        return _Outcome(None, (f"pyperclip: {failures[0]}",))
    return _Outcome(f"{SYSTEM} (pyperclip)")


def _copy_tmux(text: str, env: dict[str, str]) -> _Outcome:
    executable = shutil.which("tmux", path=env.get("PATH"))
    if executable is None:
        return _Outcome(None, ("tmux: not found",))
    # -w also hands the text to the outer terminal's clipboard (tmux 3.2+, set-clipboard on or
    # external); an older tmux refuses the flag and gets the plain form.
    error = _run_copy([executable, "load-buffer", "-w", "-"], text, env)
    if error is not None and not error.timed_out:  # a hung tmux would only hang again
        error = _run_copy([executable, "load-buffer", "-"], text, env)
    if error is None:
        error = _check_read_back([executable, "show-buffer"], text, env)
    if error is None:
        return _Outcome(TMUX_BUFFER)
    return _Outcome(None, (f"tmux: {error.message}",))


def _send_osc52(
    text: str, write: TerminalWrite, env: Mapping[str, str], *, tmux_buffer_done: bool
) -> _Outcome:
    payload_length = (len(text.encode("utf-8")) + 2) // 3 * 4
    if payload_length > OSC52_LIMIT:
        return _Outcome(None, ("the terminal: too long for OSC 52",))
    in_tmux = bool(env.get("TMUX"))
    in_screen = bool(env.get("STY")) and not in_tmux
    if in_tmux:
        # Bare, tmux itself takes it when set-clipboard is on (and forwards it); wrapped, it
        # passes through to the outer terminal when allow-passthrough is on. When load-buffer
        # already filled tmux's buffer, the bare one would only add a duplicate buffer.
        sequences = [] if tmux_buffer_done else [osc52_sequence(text, tmux=False)]
        sequences.append(osc52_sequence(text, tmux=True))
        name = f"{TERMINAL} (OSC 52 via tmux)"
    elif in_screen:
        sequences = [osc52_sequence(text, tmux=False, screen=True)]
        name = f"{TERMINAL} (OSC 52 via screen)"
    else:
        sequences = [osc52_sequence(text, tmux=False)]
        name = f"{TERMINAL} (OSC 52)"
    try:
        for sequence in sequences:
            write(sequence)
    except Exception as error:  # a closed or broken terminal must not crash a copy
        return _Outcome(None, (f"the terminal: {error or type(error).__name__}",))
    return _Outcome(name)


@contextlib.contextmanager
def tty_writer() -> Iterator[TerminalWrite | None]:
    """A writer on the controlling terminal (/dev/tty), or None when there is none.

    The CLI sends OSC 52 here so that it reaches the terminal even when stdout is a pipe.
    """
    try:
        tty = open("/dev/tty", "w", encoding="ascii")  # noqa: SIM115 - closed below
    except OSError:
        yield None
        return

    def write(sequence: str) -> None:
        tty.write(sequence)
        tty.flush()

    try:
        yield write
    finally:
        with contextlib.suppress(OSError):
            tty.close()

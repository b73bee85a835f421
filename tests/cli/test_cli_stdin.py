"""`-` as a PATH: the list piped in (`curl -s URL | paperdeck search words -`)."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

from paperdeck.core.resources import bundled_list


def piped(*args: str, data: bytes, notes: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PAPERDECK_NOTES=str(notes), PAPERDECK_CACHE="off")
    result = subprocess.run(
        [sys.executable, "-m", "paperdeck", *args],
        input=data,
        capture_output=True,
        env=env,
        timeout=60,
    )
    return subprocess.CompletedProcess(
        result.args, result.returncode, result.stdout.decode(), result.stderr.decode()
    )


LIST = bundled_list().read_bytes()


def test_the_commands_read_a_list_piped_in(notes: Path) -> None:
    """Before: '-: no such file'."""
    found = piped("search", "speculative rollout", "-", "--all-terms", data=LIST, notes=notes)
    assert (found.returncode, found.stderr) == (0, "")
    assert found.stdout.split()[:2] == ["4", "30b40477"]
    listed = piped("list", "-", "--json", data=LIST, notes=notes)
    rows = json.loads(listed.stdout)
    assert len(rows) == 19 and rows[3]["id"] == "30b40477" and rows[3]["list"] == "stdin"
    cited = piped("cite", "30b40477", "-", "-f", "cite", data=LIST, notes=notes)
    assert cited.returncode == 0 and cited.stdout.startswith("\\cite{")
    tagged = piped("tag", "4", "+piped", "-", data=LIST, notes=notes)
    assert tagged.stdout == "#4 30b40477: piped\n"
    # The same paper as in the list read from its file: its id, so its notes.
    shown = piped("export", "-q", "tag:piped", "-f", "json", data=b"", notes=notes)
    assert [row["id"] for row in json.loads(shown.stdout)] == ["30b40477"]


def test_what_cannot_read_stdin_says_so_in_one_line(notes: Path) -> None:
    def refused(*args: str, data: bytes = LIST) -> str:
        result = piped(*args, data=data, notes=notes)
        assert (result.returncode, result.stdout) == (2, "")
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("paperdeck: ")
        return result.stderr

    passwd = Path("/etc/passwd").read_bytes()
    assert refused("list", "-", data=passwd).startswith("paperdeck: -: not a paper list (")
    assert refused("list", "-", data=b"") == "paperdeck: -: no papers found\n"
    assert "the reader cannot read a list from stdin" in refused("-")
    assert "stdin holds the note or the list" in refused("note", "4", "--set", "-", "-")
    assert "give -o OUT.jsonl" in refused("enrich", "-", "--online")
    assert not notes.exists()


def test_a_terminal_on_stdin_is_no_list(notes: Path) -> None:
    leader, follower = pty.openpty()
    env = dict(os.environ, PAPERDECK_NOTES=str(notes), PAPERDECK_CACHE="off")
    result = subprocess.run(
        [sys.executable, "-m", "paperdeck", "list", "-"],
        stdin=follower,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    os.close(follower)
    os.close(leader)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        "paperdeck: -: the list on stdin, but none is piped in (`cat LIST | paperdeck ...`)\n"
    )

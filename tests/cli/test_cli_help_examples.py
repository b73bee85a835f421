"""Each command's --help ends with examples, and those on the bundled list run as printed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from paperdeck.cli.main import COMMAND_FAMILIES

NOT_RUN = ("talks.txt", "--copy")
"""Examples that name a list of the reader's own or need a clipboard."""

FIRST = ("mark", "tag", "note")
"""Commands whose examples make what the others' look for (a starred paper, a note)."""


def help_text(command: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "paperdeck", command, "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0 and result.stderr == ""
    return result.stdout


def examples(command: str) -> list[tuple[str, str]]:
    """The (what it does, command line) pairs under `examples:` in the command's --help."""
    lines = help_text(command).split("\nexamples:\n", 1)[1].splitlines()
    assert all(line.startswith("  ") for line in lines), lines
    pairs = list(zip(lines[::2], lines[1::2], strict=True))
    assert all(what.startswith("  # ") and line.startswith("  ") for what, line in pairs)
    return [(what[4:], line[2:]) for what, line in pairs]


def test_every_command_says_what_it_does_with_an_example() -> None:
    for command in COMMAND_FAMILIES:
        shown = examples(command)
        assert shown, command
        assert all(
            line.split()[:2] == ["paperdeck", command] or "| paperdeck" in line for _, line in shown
        ), shown


@pytest.mark.skipif(shutil.which("jq") is None or shutil.which("fzf") is None, reason="jq, fzf")
def test_the_examples_run_as_printed(tmp_path: Path) -> None:
    environment = dict(
        os.environ,
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        PAPERDECK_NOTES=str(tmp_path / "notes.json"),
        PAPERDECK_CONFIG=str(tmp_path / "settings.json"),
        PAPERDECK_CACHE="off",
    )
    order = [*FIRST, *(command for command in COMMAND_FAMILIES if command not in FIRST)]
    ran = 0
    for command in order:
        for what, line in examples(command):
            if any(word in line for word in NOT_RUN):
                continue
            result = subprocess.run(
                ["bash", "-o", "pipefail", "-c", line],
                cwd=tmp_path,
                env=environment,
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert result.returncode == 0, (line, result.stderr)
            assert all(said.startswith("paperdeck: ") for said in result.stderr.splitlines())
            assert result.stdout or result.stderr or ">" in line, (what, line)
            ran += 1
    assert ran >= 25
    assert "@inproceedings{pmlr-v306-xu26bc," in (tmp_path / "found.bib").read_text()
    assert "Xu, Y., Tian, K." in (tmp_path / "references.txt").read_text()

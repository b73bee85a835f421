"""What a new user trying the commands sees: blank queries, `--help`, whole titles in JSON."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def run(*args: str, notes: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PAPERDECK_NOTES=str(notes))
    return subprocess.run(
        [sys.executable, "-m", "paperdeck", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    return tmp_path / "notes.json"


@pytest.mark.parametrize("query", ["", "   ", "\t"])
def test_a_blank_query_is_a_usage_error(query: str, notes: Path) -> None:
    result = run("search", query, notes=notes)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("paperdeck: search: QUERY is empty")
    assert result.stderr.count("\n") == 1
    assert run("search", query, "--json", notes=notes).returncode == 2

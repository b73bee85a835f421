"""Fixtures shared by the command tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    """A notes file of the test's own (not made until a command writes it)."""
    return tmp_path / "notes.json"

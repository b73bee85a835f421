"""Shared fixtures: tests never write into the user's real title cache."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from paperdeck.core.plumbing import helper_process
from paperdeck.core.plumbing.helper_process import HelperProcess, Writer


@pytest.fixture(autouse=True, scope="session")
def _private_title_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    # Session scope, so that module-scoped fixtures loading lists see it too.
    folder = tmp_path_factory.mktemp("title-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PAPERDECK_CACHE", str(folder))
        yield folder


@pytest.fixture
def started_helpers(monkeypatch: pytest.MonkeyPatch) -> list[HelperProcess]:
    """Every helper process the test starts, in order."""
    started: list[HelperProcess] = []
    original = HelperProcess.__init__

    def record(self: HelperProcess, job: str, write: Writer, **named: bool) -> None:
        original(self, job, write, **named)
        started.append(self)

    monkeypatch.setattr(HelperProcess, "__init__", record)
    return started


@pytest.fixture
def helpers_run(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Make every helper process run this Python code instead of its paperdeck job."""

    def run(code: str) -> None:
        monkeypatch.setattr(
            helper_process, "helper_command", lambda job: [sys.executable, "-c", code]
        )

    return run

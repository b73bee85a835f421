"""Shared fixtures: tests never write into the user's real title cache."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_title_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    folder = tmp_path_factory.mktemp("title-cache")
    monkeypatch.setenv("PAPERDECK_CACHE", str(folder))
    return folder

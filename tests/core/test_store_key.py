"""The list store's key covers every source file of the code whose output it keeps."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperdeck.core import formats
from paperdeck.core.formats import bibtex_lists, plain_text
from paperdeck.core.store import key


def test_a_package_is_keyed_by_all_its_modules() -> None:
    sources = key._sources(Path(formats.__file__ or ""))
    assert Path(plain_text.__file__ or "") in sources
    assert Path(bibtex_lists.__file__ or "") in sources


def test_the_code_version_changes_with_a_reading_module(monkeypatch: pytest.MonkeyPatch) -> None:
    before = key.code_version()
    assert before
    original = Path.read_bytes
    target = Path(plain_text.__file__ or "")

    def edited(path: Path) -> bytes:
        data = original(path)
        return data + b"\n# edited\n" if path == target else data

    monkeypatch.setattr(key, "_code_version", None)
    monkeypatch.setattr(Path, "read_bytes", edited)
    assert key.code_version() != before

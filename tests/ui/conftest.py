"""The reader's tests work out the detail pane's citation keys as soon as it asks for them."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _keys_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # A reader waits for a quiet moment; a test settles on the workers it has started, and a
    # timer is none. The test of that wait sets it back.
    monkeypatch.setattr("paperdeck.ui.citation_flow.KEYS_QUIET", 0)


def write_list(folder: Path, header: str, abstracts: list[str]) -> Path:
    """A plain-text paper list in `folder`: `header`, then one abstract a paragraph."""
    path = folder / "list.txt"
    path.write_text(header + "\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    return path

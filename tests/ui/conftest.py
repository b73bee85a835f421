"""The reader's tests work out the detail pane's citation keys as soon as it asks for them."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _keys_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # A reader waits for a quiet moment; a test settles on the workers it has started, and a
    # timer is none. The test of that wait sets it back.
    monkeypatch.setattr("paperdeck.ui.citation_flow.KEYS_QUIET", 0)

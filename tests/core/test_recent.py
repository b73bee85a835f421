"""The mapping that keeps only its most recently used entries."""

from __future__ import annotations

import pytest

from paperdeck.core.plumbing.recent import Recent


def test_storing_past_the_limit_forgets_the_entry_used_longest_ago() -> None:
    kept: Recent[str, int] = Recent(3)
    kept["a"], kept["b"], kept["c"] = 1, 2, 3
    assert kept.get("a") == 1  # a use: "b" is now the oldest
    kept["d"] = 4
    assert "b" not in kept
    assert [key for key in "abcd" if key in kept] == ["a", "c", "d"]
    assert len(kept) == 3


def test_reading_by_key_and_storing_again_count_as_uses() -> None:
    kept: Recent[str, int] = Recent(2)
    kept["a"], kept["b"] = 1, 2
    assert kept["a"] == 1
    kept["c"] = 3
    assert "b" not in kept and "a" in kept
    kept["a"] = 10  # stored again: the newest, "c" the oldest
    kept["d"] = 4
    assert "c" not in kept
    assert kept.get("a") == 10 and kept.get("d") == 4


def test_a_missing_key_gives_the_default_and_none_can_be_kept() -> None:
    kept: Recent[str, int | None] = Recent(2)
    assert kept.get("x") is None
    assert kept.get("x", -1) == -1
    kept["x"] = None
    assert "x" in kept and kept.get("x", -1) is None
    with pytest.raises(KeyError):
        kept["y"]
    kept.clear()
    assert len(kept) == 0


def test_asking_whether_a_key_is_kept_is_not_a_use() -> None:
    kept: Recent[str, int] = Recent(2)
    kept["a"], kept["b"] = 1, 2
    assert "a" in kept
    kept["c"] = 3
    assert "a" not in kept


def test_it_keeps_at_least_one_entry() -> None:
    with pytest.raises(ValueError):
        Recent(0)

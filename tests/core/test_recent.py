"""The mapping that keeps only its most recently used entries."""

from __future__ import annotations

import pytest

from paperdeck.core.plumbing.recent import Generations, Recent


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


def test_generations_forget_what_was_not_read_for_longest() -> None:
    kept: Generations[str, int] = Generations(4)
    kept["a"], kept["b"] = 1, 2  # the young generation is full: it becomes the old one
    kept["c"] = 3
    # Read: young again, and the young generation is full: "b", neither stored nor read
    # since it went old, is forgotten.
    assert kept.get("a") == 1
    kept["d"] = 4
    assert "b" not in kept
    assert [key for key in "acd" if key in kept] == ["a", "c", "d"]
    assert kept.get("b") is None and kept.get("c") == 3
    assert len(kept) <= 4


def test_generations_keep_at_most_their_limit() -> None:
    kept: Generations[int, int] = Generations(10)
    for number in range(100):
        kept[number] = number
        kept.get(number // 2)
        assert len(kept) <= 10
    assert 99 in kept and 0 not in kept
    with pytest.raises(ValueError):
        Generations(1)

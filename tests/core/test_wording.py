"""Counts in words: one noun for one, an "s" otherwise, thousands separated."""

from __future__ import annotations

from paperdeck.core.text.wording import plural


def test_one_is_singular_and_every_other_count_plural() -> None:
    assert plural(1, "paper") == "1 paper"
    assert plural(0, "paper") == "0 papers"
    assert plural(2, "marked paper") == "2 marked papers"
    assert plural(3000, "mark") == "3,000 marks"

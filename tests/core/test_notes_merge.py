"""The line-by-line three-way merge of two edits of one note."""

from __future__ import annotations

import pytest

from paperdeck.core.notes.merge import CONFLICT_END, CONFLICT_START, merge_text


@pytest.mark.parametrize(
    ("base", "ours", "theirs", "expected"),
    [
        ("a", "a\nx", "a", "a\nx"),
        ("a", "a", "a\ny", "a\ny"),
        ("a", "a\nx", "a\ny", "a\ny\nx"),
        ("", "x", "y", "y\nx"),
        ("a\nb\nc", "a\nc", "a\nb\nc\nd", "a\nc\nd"),
    ],
)
def test_merge_text_without_conflicts(base: str, ours: str, theirs: str, expected: str) -> None:
    assert merge_text(base, ours, theirs, "other") == (expected, False)


def test_merge_text_marks_a_real_conflict() -> None:
    text, conflict = merge_text("a\nb", "a\nB1", "a\nB2", "other paperdeck (saved X)")
    assert conflict
    assert text == "\n".join(
        ["a", CONFLICT_START, "B1", "=======", "B2", f"{CONFLICT_END} other paperdeck (saved X)"]
    )

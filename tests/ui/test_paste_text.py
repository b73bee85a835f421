"""A bracketed paste is text: ESC and control characters inside it never become keys."""

from __future__ import annotations

import pytest

from paperdeck.ui.paste_text import PASTE_END, PASTE_START, PasteFilter, paste_text

HOSTILE = "x\x1b\x1bjjsrq"
"""Pasted into the list, this moved the cursor, starred, marked read and quit."""


def test_a_paste_loses_its_escapes_and_controls_but_keeps_its_lines() -> None:
    assert paste_text(HOSTILE) == "xjjsrq"
    assert paste_text("a\tb\nc\r\nd\x07\x7f\x9b[31me") == "a\tb\nc\r\nd[31me"


def test_input_outside_a_paste_passes_unchanged_and_at_once() -> None:
    feed = PasteFilter()
    assert feed("\x1b") == "\x1b"  # a lone Esc key press is not held back
    assert feed("jk\x1b[A\x1bq") == "jk\x1b[A\x1bq"


@pytest.mark.parametrize("before", ["", "j", "\x1b"])
def test_a_paste_is_filtered_however_the_input_is_cut(before: str) -> None:
    whole = f"{before}{PASTE_START}{HOSTILE}{PASTE_END}k"
    expected = f"{before}{PASTE_START}xjjsrq{PASTE_END}k"
    assert PasteFilter()(whole) == expected
    for cut in range(len(whole) + 1):
        feed = PasteFilter()
        assert feed(whole[:cut]) + feed(whole[cut:]) == expected, cut
    feed = PasteFilter()
    assert "".join(feed(character) for character in whole) == expected


def test_a_start_marker_inside_a_paste_is_text() -> None:
    feed = PasteFilter()
    assert feed(f"{PASTE_START}a{PASTE_START}b{PASTE_END}") == f"{PASTE_START}a[200~b{PASTE_END}"
    assert not feed.in_paste

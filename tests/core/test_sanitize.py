"""Sanitising untrusted text: control characters, escape sequences, bidi overrides, NFC."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperdeck.core.text.sanitize import clean_line, clean_text, clean_utf8

# What must never reach the terminal: C0 but tab and newline, DEL, C1, bidi controls.
FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f]")


@pytest.mark.parametrize(
    ("dirty", "clean"),
    [
        ("plain text stays", "plain text stays"),
        ("\x1b[31mred\x1b[0m text", "red text"),
        ("\x1b[38;2;255;0;0mtruecolor\x1b[m", "truecolor"),
        ("\x1b[?25lhidden cursor", "hidden cursor"),
        ("before\x1b]52;c;aGVsbG8=\x07after", "beforeafter"),
        ("before\x1b]8;;http://evil.example\x1b\\link\x1b]8;;\x1b\\after", "beforelinkafter"),
        ("a\x1bPq#0;2;0;0;0#0~~@@\x1b\\b", "ab"),
        ("a\x1b_private\x1b\\b", "ab"),
        ("a\x9b31mb", "ab"),
        ("a\x9d0;title\x9cb", "ab"),
        ("a\x1b7b\x1b8c\x1bcd", "abcd"),
        ("a\x1b(Bb", "ab"),
        ("bell\x07 and backspace\x08 and nul\x00", "bell and backspace and nul"),
        ("del\x7f and c1 \x85\x8d\x9f.", "del and c1 ."),
        ("tab\tand\nnewline kept", "tab\tand\nnewline kept"),
        ("crlf\r\nand\rcr", "crlf\nand\ncr"),
        ("\u202eevil\u202c and \u2066iso\u2069 and \u200fmark\u200e", "evil and iso and mark"),
        ("line\u2028separator", "line\nseparator"),
        ("e\u0301 becomes one character", "é becomes one character"),
        ("\ufeffbyte order mark", "byte order mark"),
        ("math $a<b$ and [x] and \\% stay", "math $a<b$ and [x] and \\% stay"),
    ],
)
def test_clean_text_removes_what_a_terminal_would_act_on(dirty: str, clean: str) -> None:
    assert clean_text(dirty) == clean


def test_unterminated_string_sequence_leaves_no_escape() -> None:
    cleaned = clean_text("start \x1b]52;c;payload with no end")
    assert "\x1b" not in cleaned
    assert cleaned.startswith("start ")
    assert cleaned.endswith("payload with no end")


def test_clean_text_keeps_unicode_text_and_astral_characters() -> None:
    text = "Fréchet “mean” — 论文 𝒪(n) ∼ τ ≤ 😀"
    assert clean_text(text) == text


@pytest.mark.parametrize(
    ("dirty", "clean"),
    [
        ("  Title\n  over\ttwo   lines \r\n", "Title over two lines"),
        ("A\u00a0B\u3000C", "A B C"),
        ("\x1b[1mBold\x1b[0m title", "Bold title"),
        ("", ""),
    ],
)
def test_clean_line_is_one_line(dirty: str, clean: str) -> None:
    assert clean_line(dirty) == clean


def test_clean_utf8_raises_on_bytes_that_are_not_utf8() -> None:
    with pytest.raises(UnicodeDecodeError):
        clean_utf8(b"Fr\xe9chet")


NASTY = st.sampled_from(
    [
        *"\x1b[]\\\x07\x9b\x9c\x9d\x90P_^X;0m\r\n\t\x00\x7f\x85\u202e\u2066\u200f\u2028\ufeff",
        *("e\u0301", "a", " ", "é", "😀", "\ud800"),
    ]
)
ANY_TEXT = st.one_of(st.text(), st.lists(NASTY, max_size=40).map("".join))


@given(ANY_TEXT)
def test_clean_text_output_is_always_safe_and_stable(text: str) -> None:
    cleaned = clean_text(text)
    assert FORBIDDEN.search(cleaned) is None
    assert "\r" not in cleaned
    assert not any(0xD800 <= ord(c) <= 0xDFFF for c in cleaned)
    assert unicodedata.is_normalized("NFC", cleaned)
    assert clean_text(cleaned) == cleaned
    line = clean_line(text)
    assert "\n" not in line and "\t" not in line


@given(st.one_of(st.text(), st.lists(NASTY.filter(lambda c: c != "\ud800")).map("".join)))
def test_clean_utf8_agrees_with_clean_text(text: str) -> None:
    assert clean_utf8(text.encode("utf-8")) == clean_text(text)

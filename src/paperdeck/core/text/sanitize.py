"""Make untrusted text safe to show: no control characters, escape sequences or bidi overrides."""

from __future__ import annotations

import re
import unicodedata

# Everything a terminal could act on or that reorders text: C0 (but tab and newline; CR is
# handled before), DEL, C1, lone surrogates (they cannot be encoded for output), the byte order
# mark, bidi marks, embeddings, overrides and isolates, and the Unicode line/paragraph
# separators (turned into newlines first).
_UNSAFE_CLASS = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufeff"
    "\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
)
_UNSAFE = re.compile(f"[{_UNSAFE_CLASS}]")

# Whole escape sequences, so that no parameter bytes are left behind as visible junk. String
# sequences (OSC, DCS, SOS, PM, APC) end at BEL or ST; an unterminated one loses only its
# introducer and its payload stays visible as harmless text.
_ESCAPE_SEQUENCE = re.compile(
    r"""
      (?:\x1b\[|\x9b) [\x30-\x3f]* [\x20-\x2f]* [\x40-\x7e]?               # CSI
    | (?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f]) [^\x07\x1b\x9c]* (?:\x07|\x1b\\|\x9c)
    | \x1b [\x20-\x2f]* [\x30-\x7e]                                        # two-char, nF
    """,
    re.VERBOSE,
)
_WHITESPACE_RUN = re.compile(r"\s+")

# For a quick test on UTF-8 bytes: every byte that can be neither an unsafe character nor the
# lead byte of one (C1 starts with C2, U+061C with D8, U+2000-U+2FFF with E2, U+FEFF with EF,
# surrogates with ED). Deleting these from a paragraph leaves nothing when it is plain.
_PLAIN_BYTES = bytes(
    b
    for b in range(256)
    if not (b < 0x20 and b not in (0x09, 0x0A)) and b not in (0x7F, 0xC2, 0xD8, 0xE2, 0xED, 0xEF)
)


def clean_text(text: str) -> str:
    """Text without control characters, escape sequences or bidi overrides; NFC; newlines only."""
    if _UNSAFE.search(text) is None:
        # The fast path: most abstracts are plain and already NFC.
        if text.isascii() or unicodedata.is_normalized("NFC", text):
            return text
        return unicodedata.normalize("NFC", text)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\u2028" in text or "\u2029" in text:
        text = text.replace("\u2028", "\n").replace("\u2029", "\n")
    if "\x1b" in text or _has_c1_introducer(text):
        text = _ESCAPE_SEQUENCE.sub("", text)
    text = _UNSAFE.sub("", text)
    if text.isascii() or unicodedata.is_normalized("NFC", text):
        return text
    return unicodedata.normalize("NFC", text)


def clean_utf8(data: bytes) -> str:
    """`clean_text(data.decode("utf-8"))`, but faster on plain text; raises UnicodeDecodeError."""
    text = data.decode("utf-8")
    if data.translate(None, _PLAIN_BYTES):
        return clean_text(text)
    if data.isascii() or unicodedata.is_normalized("NFC", text):
        return text
    return unicodedata.normalize("NFC", text)


def clean_line(text: str) -> str:
    """`clean_text`, then every run of whitespace (newlines too) made one space, stripped."""
    return _WHITESPACE_RUN.sub(" ", clean_text(text)).strip()


def _has_c1_introducer(text: str) -> bool:
    return any(c in text for c in "\x90\x98\x9b\x9d\x9e\x9f")

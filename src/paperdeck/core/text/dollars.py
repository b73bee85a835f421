"""Which `$` closes an inline math: the renderer's rule, also read where titles are made
(without the renderer's imports)."""

from __future__ import annotations

import re

MAX_MATH = 2000
"""How far an opening `$`, `$$` or `\\(` looks for its closer."""
MAX_TRIES = 16
"""How many candidate closers (`$`, `*`, `**`) an opener considers before it counts as text."""


def closing_dollar(s: str, i: int, end: int) -> int:
    """The `$` closing inline math opened at i, or -1 when that `$` is a plain dollar sign.

    Pandoc's rule first (no space inside the delimiters, no digit right after the closing one),
    so "costs $5 and $10" stays text; spaced delimiters count when the content is clearly math.
    """
    limit = min(end, i + MAX_MATH)
    first_close = -1
    j = i + 1
    for _ in range(MAX_TRIES):
        j = s.find("$", j, limit)
        if j < 0:
            break
        if s[j - 1] == "\\":
            j += 1
            continue
        if first_close < 0:
            first_close = j
        inner_ok = not s[i + 1].isspace() and not s[j - 1].isspace()
        if inner_ok and j > i + 1 and not (j + 1 < end and s[j + 1].isdigit()):
            return j
        if first_close == j:
            content = s[i + 1 : j]
            if content.strip() and re.search(r"[\\^_{]", content) and "\n\n" not in content:
                return j
        j += 1
    return -1

"""Counts in words for messages: "1 paper", "3,000 papers"."""

from __future__ import annotations


def plural(count: int, noun: str) -> str:
    """`count` with a thousands separator and `noun`, an "s" added unless the count is one."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"

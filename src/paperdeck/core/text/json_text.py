"""JSON as the commands print it: `json.dumps(value, ensure_ascii=False, indent=2)`, made faster."""

from __future__ import annotations

import json
from json.encoder import encode_basestring

INDENT = "  "
_INFINITE = (float("inf"), float("-inf"))


class _Unusual(Exception):
    """A value the fast path leaves to `json.dumps` (a float that is not finite, a subclass)."""


def indented(value: object, level: int = 0) -> str:
    """`json.dumps(value, ensure_ascii=False, indent=2)`, the same text, as it would stand
    `level` levels deep in a bigger value.

    The standard library encodes with `indent` in Python, a call or more per value: 100,000
    papers took seconds. Here only containers cost a call; strings go to its C encoder.
    """
    parts: list[str] = []
    try:
        _add(value, "\n" + INDENT * level, parts)
    except _Unusual:
        text = json.dumps(value, ensure_ascii=False, indent=2)
        return text.replace("\n", "\n" + INDENT * level) if level else text
    return "".join(parts)


def _add(value: object, newline: str, parts: list[str]) -> None:
    kind = type(value)
    if kind is dict:
        items = value.items()  # type: ignore[attr-defined]
        if not items:
            parts.append("{}")
            return
        inner = newline + INDENT
        lead = "{" + inner
        for key, item in items:
            if type(key) is not str:
                raise _Unusual
            parts.append(lead + encode_basestring(key) + ": ")
            lead = "," + inner
            _add_item(item, inner, parts)
        parts.append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            parts.append("[]")
            return
        inner = newline + INDENT
        lead = "[" + inner
        for item in value:  # type: ignore[attr-defined]
            parts.append(lead)
            lead = "," + inner
            _add_item(item, inner, parts)
        parts.append(newline + "]")
    else:
        _add_item(value, newline, parts)


def _add_item(value: object, newline: str, parts: list[str]) -> None:
    kind = type(value)
    if kind is str:
        parts.append(encode_basestring(value))  # type: ignore[arg-type]
    elif value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif kind is int:
        parts.append(int.__repr__(value))
    elif kind is float:
        if value != value or value in _INFINITE:  # json.dumps writes NaN, Infinity
            raise _Unusual
        parts.append(float.__repr__(value))
    elif kind is dict or kind is list or kind is tuple:
        _add(value, newline, parts)
    else:
        raise _Unusual

"""Read paper lists (plain text, JSON Lines, JSON, BibTeX, CSV) into sanitised raw records.

The readers load on first use of `read_list` or `sniff_format`: a command answered from the
list store never compiles their patterns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from paperdeck.core.formats.decoding import MAX_LIST_BYTES, check_list_file
from paperdeck.core.formats.raw_list import FORMAT_NAMES, RawList

if TYPE_CHECKING:
    from paperdeck.core.formats.reader import read_list, sniff_format

__all__ = [
    "FORMAT_NAMES",
    "MAX_LIST_BYTES",
    "RawList",
    "check_list_file",
    "read_list",
    "sniff_format",
]


def __getattr__(name: str) -> Any:
    if name in ("read_list", "sniff_format"):
        from paperdeck.core.formats import reader

        return getattr(reader, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

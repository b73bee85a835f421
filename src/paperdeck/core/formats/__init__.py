"""Read paper lists (plain text, JSON Lines, JSON, BibTeX, CSV) into sanitised raw records."""

from paperdeck.core.formats.decoding import MAX_LIST_BYTES, check_list_file
from paperdeck.core.formats.raw_list import FORMAT_NAMES, RawList
from paperdeck.core.formats.reader import read_list, sniff_format

__all__ = [
    "FORMAT_NAMES",
    "MAX_LIST_BYTES",
    "RawList",
    "check_list_file",
    "read_list",
    "sniff_format",
]

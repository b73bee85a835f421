"""A list file's bytes: refused when it is no text file, decoded as UTF-8 or Windows-1252."""

from __future__ import annotations

import codecs
import re
import stat
from pathlib import Path

from paperdeck.core.errors import LoadError
from paperdeck.core.formats.raw_list import HEAD_BYTES, RawList
from paperdeck.core.plumbing.regular_file import (
    FileTooLarge,
    NotRegularFile,
    describe_size,
    read_regular,
)
from paperdeck.core.text.sanitize import clean_text, clean_utf8

MAX_LIST_BYTES = 2 << 30
"""The largest paper list read: 100,000 papers with long abstracts take about 150 MB, and
1,000,000 (a size paperdeck is measured at) about 1.1 GB."""


def check_list_file(path: Path) -> None:
    """LoadError (one line) unless `path` is a regular file a list can be read from.

    Looked at before anything reads the file: a FIFO would block, a device never end, and a
    file of gigabytes is no paper list (it would be read whole before being refused).
    """
    try:
        status = path.stat()
    except FileNotFoundError:
        raise LoadError(f"{path}: no such file") from None
    except PermissionError:
        raise LoadError(f"{path}: permission denied") from None
    except OSError as error:
        raise LoadError(f"{path}: cannot read ({error.strerror or error})") from None
    if stat.S_ISDIR(status.st_mode):
        raise LoadError(f"{path}: is a directory")
    if not stat.S_ISREG(status.st_mode):
        raise LoadError(f"{path}: not a regular file (a pipe or a device cannot be read as a list)")
    if status.st_size > MAX_LIST_BYTES:
        raise LoadError(
            f"{path}: {describe_size(status.st_size)}, larger than any paper list "
            f"(the limit is {describe_size(MAX_LIST_BYTES)})"
        )


def read_bytes(path: Path) -> bytes:
    try:
        data, _ = read_regular(path, MAX_LIST_BYTES)
    except FileNotFoundError:
        raise LoadError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise LoadError(f"{path}: is a directory") from None
    except PermissionError:
        raise LoadError(f"{path}: permission denied") from None
    except (NotRegularFile, FileTooLarge):
        check_list_file(path)  # says why in words
        raise LoadError(f"{path}: changed while it was read") from None
    except OSError as error:
        raise LoadError(f"{path}: cannot read ({error.strerror or error})") from None
    # A binary file (an image, an archive) is no list.
    if b"\x00" in data[:HEAD_BYTES] and not data.startswith(_UTF16_BOMS):
        raise LoadError(f"{path}: not a text file")
    return data


_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def as_utf8_or_legacy(path: Path, data: bytes) -> bytes:
    """The file's bytes without a BOM, UTF-16 re-encoded as UTF-8; binary files refused."""
    if data.startswith(_UTF16_BOMS):
        try:
            data = data.decode("utf-16").encode("utf-8", errors="surrogatepass")
        except UnicodeDecodeError:
            raise LoadError(f"{path}: not a text file") from None
    data = data.removeprefix(codecs.BOM_UTF8)
    if b"\x00" in data:
        raise LoadError(f"{path}: not a text file")
    sample = data[:65536].decode("utf-8", errors="paperdeck-cp1252")
    if sample and len(_BINARYISH.findall(sample)) > 0.05 * len(sample):
        raise LoadError(f"{path}: not a text file")
    return data


# Characters no text list has many of; ESC, CR and form feed are left out as they occur in text.
_BINARYISH = re.compile("[\x01-\x08\x0e-\x1a\x1c-\x1f\x7f\ufffd]")


def _cp1252_fallback(error: UnicodeError) -> tuple[str, int]:
    # Bytes that are not UTF-8 are read as Windows-1252, so a UTF-8 file with one stray legacy
    # byte keeps every other character right.
    if not isinstance(error, UnicodeDecodeError):
        raise error
    bad = error.object[error.start : error.end]
    return bad.decode("cp1252", errors="replace"), error.end


codecs.register_error("paperdeck-cp1252", _cp1252_fallback)


class Decoder:
    """Decodes and cleans pieces of one file, remembering whether any was not UTF-8."""

    def __init__(self) -> None:
        self.legacy = False

    def __call__(self, data: bytes) -> str:
        try:
            return clean_utf8(data)
        except UnicodeDecodeError:
            self.legacy = True
            return clean_text(data.decode("utf-8", errors="paperdeck-cp1252"))

    def raw_text(self, data: bytes) -> str:
        """Decoded but not cleaned: JSON is parsed first and cleaned value by value."""
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            self.legacy = True
            return data.decode("utf-8", errors="paperdeck-cp1252")

    def warn(self, raw: RawList) -> None:
        if self.legacy:
            raw.warnings.insert(0, f"{raw.path}: not UTF-8; read as Windows-1252")

"""Read paper lists (plain text, JSON Lines, JSON, BibTeX, CSV) into sanitised raw records."""

from __future__ import annotations

import codecs
import csv
import io
import json
import re
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paperdeck.core.errors import LoadError
from paperdeck.core.names import NAMES_FIELD, PersonName, name_from_json, parse_name
from paperdeck.core.plumbing.regular_file import (
    FileTooLarge,
    NotRegularFile,
    describe_size,
    read_regular,
)
from paperdeck.core.plumbing.safe_json import JsonTooComplex, load_json
from paperdeck.core.text.sanitize import clean_line, clean_text, clean_utf8

FORMAT_NAMES: tuple[str, ...] = ("txt", "jsonl", "json", "bib", "csv")

_EXTENSIONS = {
    ".txt": "txt",
    ".text": "txt",
    ".md": "txt",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
    ".bib": "bib",
    ".bibtex": "bib",
    ".csv": "csv",
    ".tsv": "csv",
}
_HEAD_BYTES = 8192


@dataclass
class RawList:
    """One paper list as read from disk: sanitised records in file order, before ids and titles."""

    path: Path
    name: str
    """The file's stem ("icml2026.meta" for "icml2026.meta.jsonl")."""
    format: str
    header: str | None
    """The header line of a plain-text list, if it has one."""
    venue: str | None
    year: int | None
    records: list[dict[str, Any]]
    warnings: list[str] = field(default_factory=list)


def read_list(path: Path, fmt: str | None = None) -> RawList:
    """Read one paper list; `fmt` (one of FORMAT_NAMES) overrides the extension and sniffing."""
    path = Path(path)
    if fmt is not None and fmt not in FORMAT_NAMES:
        raise LoadError(f"{path}: unknown format {fmt!r} (choose from {', '.join(FORMAT_NAMES)})")
    data = _read_bytes(path)
    data = _as_utf8_or_legacy(path, data)
    fmt = fmt or sniff_format(path, data[:_HEAD_BYTES])
    raw = RawList(path, clean_line(path.stem), fmt, None, None, None, [])
    try:
        _READERS[fmt](raw, data)
    except RecursionError:
        # json and the BibTeX parser recurse on nesting; a hostile file must not crash us.
        raise LoadError(f"{path}: nested too deeply to read") from None
    if not raw.records:
        skipped = sum(1 for w in raw.warnings if w.endswith("skipped"))
        detail = f" ({skipped} skipped)" if skipped else ""
        raise LoadError(f"{path}: no papers found{detail}")
    return raw


def sniff_format(path: Path, head: bytes) -> str:
    """The format named by the extension, else guessed from the first bytes of the file."""
    by_extension = _EXTENSIONS.get(path.suffix.lower())
    if by_extension is not None:
        return by_extension
    text = head.removeprefix(codecs.BOM_UTF8).decode("utf-8", errors="replace").lstrip()
    if text.startswith("["):
        return "json"
    if text.startswith("{"):
        first_line = text.split("\n", 1)[0].strip()
        try:
            first = json.loads(first_line)
        except (ValueError, RecursionError):
            return "json"
        return "jsonl" if isinstance(first, dict) and _names_a_paper(first) else "json"
    if re.search(r"(?m)^[ \t]*@[A-Za-z]+[ \t]*[{(]", text):
        return "bib"
    first_line = text.split("\n", 1)[0]
    if _csv_delimiter(first_line) is not None:
        return "csv"
    return "txt"


# ---------------------------------------------------------------------------- bytes and text


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


def _read_bytes(path: Path) -> bytes:
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
    if b"\x00" in data[:_HEAD_BYTES] and not data.startswith(_UTF16_BOMS):
        raise LoadError(f"{path}: not a text file")
    return data


_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def _as_utf8_or_legacy(path: Path, data: bytes) -> bytes:
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


class _Decoder:
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


# ---------------------------------------------------------------------------- plain text

_SENTENCE_END = tuple(".!?;。！？")


def _read_txt(raw: RawList, data: bytes) -> None:
    decode = _Decoder()
    blank_line = b"\n\n"
    if b"\r" in data:
        # Cut at the file's own blank lines when it keeps to one line ending: rewriting 100 MB
        # of CRLF costs more than reading it. The cut is only a first pass (each piece is
        # cleaned, CR becoming LF, and split again at any blank line it still holds), so a
        # wrong guess costs time, never a paragraph.
        carriage_returns, line_feeds = data.count(b"\r"), data.count(b"\n")
        if line_feeds == 0:
            blank_line = b"\r\r"
        elif carriage_returns == line_feeds:
            blank_line = b"\r\n\r\n"
        else:
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    chunks = _chunks(data, blank_line)
    records = raw.records
    for chunk in chunks:
        paragraphs = _paragraphs(decode(chunk))
        if not paragraphs:
            continue
        header, rest = _split_header(paragraphs[0])
        if header is not None:
            raw.header = header
            raw.venue = venue_from_header(header)
            raw.year = year_from_header(header)
        if rest:
            paragraphs[0] = rest
        else:
            del paragraphs[0]
        records.extend({"abstract": _join_lines(lines)} for lines in paragraphs)
        break
    for chunk in chunks:
        text = decode(chunk)
        if "\n" not in text:
            text = text.strip()
            if text:
                records.append({"abstract": text})
        else:
            # Hard-wrapped lines, extra blank lines, whitespace-only lines.
            records.extend({"abstract": _join_lines(lines)} for lines in _paragraphs(text))
    decode.warn(raw)


def _chunks(data: bytes, blank_line: bytes) -> Iterator[bytes]:
    """The file cut at every blank line, one piece at a time.

    One piece at a time keeps memory down, and each paragraph its own string: one character
    above U+FFFF in a 100 MB text would otherwise make all of it four bytes a character.
    """
    find = data.find
    step = len(blank_line)
    start = 0
    while True:
        end = find(blank_line, start)
        if end < 0:
            yield data[start:]
            return
        yield data[start:end]
        start = end + step


def _paragraphs(text: str) -> list[list[str]]:
    """Groups of stripped non-blank lines (a line of Unicode spaces also separates)."""
    groups: list[list[str]] = []
    current: list[str] = []
    for line in text.split("\n"):
        line = line.strip()
        if line:
            current.append(line)
        elif current:
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


def _join_lines(lines: list[str]) -> str:
    """One line from a hard-wrapped paragraph; a word broken after its hyphen stays one word."""
    if len(lines) == 1:
        return lines[0]
    parts = [lines[0]]
    previous = lines[0]
    for line in lines[1:]:
        if (
            previous.endswith("-")
            and len(previous) >= 2
            and previous[-2].isalnum()
            and line[0].isalnum()
        ):
            parts.append(line)
        else:
            parts.append(" ")
            parts.append(line)
        previous = line
    return "".join(parts)


def _split_header(lines: list[str]) -> tuple[str | None, list[str]]:
    """The header line of a list, if the first paragraph starts with one, and what follows it."""
    first = lines[0]
    if len(first) > 120 or first.endswith("-"):
        return None, lines
    cue = _has_header_cue(first)
    if len(lines) == 1:
        # A short one-line first paragraph is a header unless it reads like a sentence
        # (a one-sentence abstract) and names no venue, year or list.
        if cue or not first.endswith(_SENTENCE_END):
            return first, []
        return None, lines
    # A header written directly above the first abstract, with no blank line between: it must
    # say it is one, and be much shorter than the next line (a hard-wrapped paragraph's lines
    # are all about as long).
    if cue and not first.endswith(_SENTENCE_END) and len(lines[1]) > 1.5 * len(first):
        return first, lines[1:]
    return None, lines


# ---------------------------------------------------------------------------- header: venue, year

# Venue acronyms as they are usually written.
_VENUE_WORDS = (
    "ICML NeurIPS NIPS ICLR ACL EMNLP NAACL EACL AACL COLING CoNLL TACL CVPR ICCV ECCV WACV "
    "BMVC AAAI IJCAI KDD SIGIR WWW WSDM CIKM RecSys COLT AISTATS UAI ALT ICRA IROS CoRL RSS "
    "MICCAI TMLR JMLR TPAMI MLSys SIGGRAPH CHI UIST ICDM SDM ECML ACML ICASSP INTERSPEECH ISMIR"
)
_VENUES = _VENUE_WORDS.split()
_VENUE_BY_UPPER = {venue.upper(): venue for venue in _VENUES}
_VENUE_RE = re.compile(
    r"(?<![A-Za-z])(" + "|".join(sorted(_VENUES, key=len, reverse=True)) + r")(?![A-Za-z])",
    re.IGNORECASE,
)
_YEAR_RE = re.compile(r"(?<![0-9])(?:19|20)[0-9]{2}(?![0-9])")
_YEAR_RANGE_RE = re.compile(r"(?<![0-9])(?:19|20)[0-9]{2}\s*(?:[-–—/]|to)\s*(?:19|20)?[0-9]{2}\b")
_CAPS_WORD_RE = re.compile(r"(?<![A-Za-z0-9])[A-Z][A-Z0-9]*[A-Z](?![A-Za-z0-9])")
_LIST_WORD_RE = re.compile(
    r"(?i)\b(?:papers?|list|accepted|proceedings|abstracts|reading)\b|[\u3040-\u30ff\u4e00-\u9fff]"
)
# All-caps words that name a field or a file, not a venue.
_NOT_VENUE_WORDS = "AI ML NLP CV RL LLM LLMS DL TODO PDF TXT CSV JSON BIB URL FAQ README"
_NOT_VENUES = frozenset(_NOT_VENUE_WORDS.split())


def venue_from_header(header: str) -> str | None:
    """The venue a header names: a known acronym, else a leading or year-adjacent caps word."""
    known = _known_venue(header)
    if known is not None:
        return known
    for match in _CAPS_WORD_RE.finditer(header):
        word = match.group(0)
        if word in _NOT_VENUES or not any(c.isalpha() for c in word):
            continue
        leading = not header[: match.start()].strip()
        before_year = _YEAR_RE.match(header[match.end() :].lstrip()) is not None
        if leading or before_year:
            return word
    return None


def year_from_header(header: str) -> int | None:
    """The one year a header names (a range such as 2020-2023 is not one year)."""
    if _YEAR_RANGE_RE.search(header):
        return None
    years = set(_YEAR_RE.findall(header))
    return int(years.pop()) if len(years) == 1 else None


def _has_header_cue(line: str) -> bool:
    # Only known venues count here: an abstract may well start with an all-caps method name.
    return bool(_YEAR_RE.search(line) or _LIST_WORD_RE.search(line) or _known_venue(line))


def _known_venue(header: str) -> str | None:
    for match in _VENUE_RE.finditer(header):
        word = match.group(1)
        canonical = _VENUE_BY_UPPER[word.upper()]
        if word == canonical or word.isupper():
            return canonical
    return None


# ---------------------------------------------------------------------------- records

_KEY_ALIASES = {
    "title": "title",
    "authors": "authors",
    "author": "authors",
    "abstract": "abstract",
    "year": "year",
    "venue": "venue",
    "url": "url",
}
_AUTHOR_AND = re.compile(r"\s+and\s+")
_FIRST_YEAR = re.compile(r"(?<![0-9])[0-9]{4}(?![0-9])")


def _record(obj: dict[Any, Any], where: str, warnings: list[str]) -> dict[str, Any] | None:
    """A normalised record from one JSON object or CSV row, or None (with a warning)."""
    record: dict[str, Any] = {"abstract": ""}
    for key, value in obj.items():
        name = clean_text(str(key))
        canonical = _KEY_ALIASES.get(name.strip().lower())
        if canonical is not None and record.get(canonical):
            # A second key for a field already read ("Title" then "title"): the first wins, and
            # the later one is kept only under a name nothing uses yet.
            canonical = None
        if canonical is None:
            if name not in record:
                record[name] = _clean_value(value)
            continue
        if value is None:
            continue
        if canonical == "abstract":
            if isinstance(value, list):
                value = "\n".join(str(part) for part in value)
            record["abstract"] = _unwrap(clean_text(str(value)))
        elif canonical == "authors":
            _set_authors(record, value)
        elif canonical == "year":
            year = _year(value)
            if year is None:
                if str(value).strip():
                    warnings.append(f"{where}: year {clean_line(str(value))[:40]!r} ignored")
            else:
                record["year"] = year
        else:
            text = clean_line(str(value))
            if text:
                record[canonical] = text
    if not record["abstract"] and "title" not in record:
        warnings.append(f"{where}: no abstract or title; skipped")
        return None
    return record


def _unwrap(text: str) -> str:
    if "\n" not in text:
        return text.strip()
    return " ".join(_join_lines(lines) for lines in _paragraphs(text))


def _clean_value(value: Any) -> Any:
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list):
        return [_clean_value(item) for item in value]
    if isinstance(value, dict):
        return {clean_text(str(key)): _clean_value(item) for key, item in value.items()}
    return value


def _set_authors(record: dict[str, Any], value: Any) -> None:
    """`authors` as display strings and, where the source gave parts, NAMES_FIELD beside it."""
    names = _authors(value)
    if not names:
        return
    record["authors"] = [display for display, _ in names]
    if any(parts is not None for _, parts in names):
        record[NAMES_FIELD] = [parts for _, parts in names]


_Author = tuple[str, dict[str, str] | None]
"""A name's display string, and its parts when the source gave them."""


def _authors(value: Any) -> list[_Author]:
    if isinstance(value, list):
        names = [_author_name(item) for item in value]
    else:
        names = _split_author_string(clean_line(str(value)))
    return [name for name in names if name[0]]


def _author_name(item: Any) -> _Author:
    if isinstance(item, dict):
        if "name" in item and not any(key in item for key in ("family", "last", "literal")):
            return _author_name(item["name"])
        name = name_from_json(_clean_value(item))
        return (name.display, name.to_json()) if name is not None else ("", None)
    if not isinstance(item, str):
        return ("", None)
    text = clean_line(item)
    if "," in text:
        # "Kleine Buening, Thomas": the source says where the family name starts.
        return _structured(text)
    return (text, None)


def _structured(text: str) -> _Author:
    name = parse_name(text)
    if name.literal:
        return (name.literal, None)
    return (name.display, name.to_json())


def _split_author_string(text: str) -> list[_Author]:
    """ "A and B", "A, B and C", "A; B" or "Last, First and Last, First" as names."""
    if not text:
        return []
    parts = [part.strip() for chunk in text.split(";") for part in _AUTHOR_AND.split(chunk)]
    parts = [part for part in parts if part]
    if len(parts) > 1 and all(part.count(",") == 1 for part in parts):
        return [_structured(part) for part in parts]
    return [(name.strip(), None) for part in parts for name in part.split(",") if name.strip()]


def _year(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 1000 <= value <= 9999 else None
    match = _FIRST_YEAR.search(str(value))
    return int(match.group(0)) if match else None


def _names_a_paper(obj: dict[Any, Any]) -> bool:
    return any(str(key).strip().lower() in ("abstract", "title") for key in obj)


# ---------------------------------------------------------------------------- JSON Lines, JSON


def _read_jsonl(raw: RawList, data: bytes) -> None:
    decode = _Decoder()
    text = decode.raw_text(data)
    if text.lstrip().startswith("["):
        # A JSON array saved under a .jsonl name.
        _read_json_text(raw, text)
        decode.warn(raw)
        return
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.strip()
        if not line:
            continue
        where = f"{raw.path}:{number}"
        try:
            obj = load_json(line, strict=False)
        except ValueError:
            raw.warnings.append(f"{where}: not valid JSON; skipped")
            continue
        if not isinstance(obj, dict):
            raw.warnings.append(f"{where}: not a JSON object; skipped")
            continue
        record = _record(obj, where, raw.warnings)
        if record is not None:
            raw.records.append(record)
    decode.warn(raw)


def _read_json(raw: RawList, data: bytes) -> None:
    decode = _Decoder()
    _read_json_text(raw, decode.raw_text(data))
    decode.warn(raw)


_WRAPPER_KEYS = ("papers", "records", "items", "entries", "data", "results")


def _read_json_text(raw: RawList, text: str) -> None:
    if not text.strip():
        return
    try:
        document = load_json(text, strict=False)
    except json.JSONDecodeError as error:
        message = f"{raw.path}:{error.lineno}:{error.colno}: not valid JSON ({error.msg})"
        raise LoadError(message) from None
    except JsonTooComplex as error:
        raise LoadError(f"{raw.path}: {error}") from None
    items = _json_items(document)
    if items is None or (items and not any(isinstance(item, dict) for item in items)):
        raise LoadError(f"{raw.path}: expected a JSON array of objects")
    for number, item in enumerate(items, start=1):
        where = f"{raw.path}: item {number}"
        if not isinstance(item, dict):
            raw.warnings.append(f"{where}: not a JSON object; skipped")
            continue
        record = _record(item, where, raw.warnings)
        if record is not None:
            raw.records.append(record)


def _json_items(document: Any) -> list[Any] | None:
    if isinstance(document, list):
        return document
    if not isinstance(document, dict):
        return None
    if _names_a_paper(document):
        return [document]
    lists = {key: value for key, value in document.items() if isinstance(value, list)}
    for key in _WRAPPER_KEYS:
        if key in lists:
            return lists[key]
    with_objects = [v for v in lists.values() if any(isinstance(item, dict) for item in v)]
    return with_objects[0] if len(with_objects) == 1 else None


# ---------------------------------------------------------------------------- CSV


def _csv_delimiter(header_line: str) -> str | None:
    """The delimiter that splits a header row into columns naming paper fields."""
    for delimiter in ("\t", ",", ";"):
        if delimiter not in header_line:
            continue
        names = {cell.strip().strip('"').lower() for cell in header_line.split(delimiter)}
        if names & {"title", "abstract"}:
            return delimiter
    return None


def _read_csv(raw: RawList, data: bytes) -> None:
    decode = _Decoder()
    text = decode(data)
    header_line = text.split("\n", 1)[0]
    default = "\t" if raw.path.suffix.lower() == ".tsv" else ","
    delimiter = _csv_delimiter(header_line) or default
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows = iter(reader)
    while True:
        try:
            row = next(rows)
        except StopIteration:
            break
        except csv.Error as error:
            raw.warnings.append(f"{raw.path}:{reader.line_num}: {error}; skipped")
            continue
        where = f"{raw.path}:{reader.line_num}"
        extra = row.pop(None, None)
        if extra:
            raw.warnings.append(f"{where}: more fields than columns; extra fields dropped")
        values = {key: value for key, value in row.items() if value is not None}
        record = _record(values, where, raw.warnings)
        if record is not None:
            raw.records.append(record)
    decode.warn(raw)


# ---------------------------------------------------------------------------- BibTeX

# Fields kept verbatim: identifiers and links, where LaTeX decoding would mangle `%`, `_`, `~`.
_VERBATIM_FIELDS = frozenset(
    {"url", "doi", "eprint", "pdf", "file", "link", "isbn", "issn", "arxiv"}
)
_LATEX_SPECIAL = re.compile(r"[\\{}$~%]|--|``|''")
_UNESCAPED_PERCENT = re.compile(r"(?<!\\)%")
_BLOCK_KEY = re.compile(r"@\s*\w+\s*[{(]\s*([^,\s]+)")


def _read_bib(raw: RawList, data: bytes) -> None:
    import logging

    from bibtexparser import model
    from bibtexparser.entrypoint import parse_string

    # The parser logs each bad block on its own logger; the warnings below say it once, better.
    logger = logging.getLogger("bibtexparser")
    if not any(isinstance(h, logging.NullHandler) for h in logger.handlers):
        logger.addHandler(logging.NullHandler())

    decode = _Decoder()
    text = decode(data)
    try:
        library = parse_string(text)
    except RecursionError:
        raise
    except Exception as error:  # the parser's failure modes are not documented as types
        raise LoadError(f"{raw.path}: not valid BibTeX ({clean_line(str(error))})") from None
    for block in library.blocks:
        line = (block.start_line or 0) + 1
        if isinstance(block, model.Entry):
            _add_bib_entry(raw, block, line)
        elif isinstance(block, model.DuplicateBlockKeyBlock) and isinstance(
            block.ignore_error_block, model.Entry
        ):
            entry = block.ignore_error_block
            raw.warnings.append(
                f"{raw.path}:{line}: entry {clean_line(entry.key)} repeats an earlier key; kept"
            )
            _add_bib_entry(raw, entry, line)
        elif isinstance(block, model.DuplicateFieldKeyBlock) and isinstance(
            block.ignore_error_block, model.Entry
        ):
            entry = block.ignore_error_block
            fields = ", ".join(sorted(block.duplicate_keys))
            raw.warnings.append(
                f"{raw.path}:{line}: entry {clean_line(entry.key)} repeats field {fields}; "
                "the last value kept"
            )
            _add_bib_entry(raw, entry, line)
        elif isinstance(block, model.ParsingFailedBlock):
            match = _BLOCK_KEY.match(block.raw or "")
            key = clean_line(match.group(1)) if match else "?"
            reason = clean_line(str(getattr(block.error, "abort_reason", "") or block.error))
            raw.warnings.append(
                f"{raw.path}:{line}: entry {key}: not valid BibTeX ({reason[:120]}); skipped"
            )
    decode.warn(raw)


def _add_bib_entry(raw: RawList, entry: Any, line: int) -> None:
    fields: dict[str, str] = {}
    for item in entry.fields:
        fields.setdefault(clean_line(str(item.key)).lower(), str(item.value))
    record: dict[str, Any] = {"abstract": ""}
    title = latex_to_line(fields.pop("title", ""))
    if title:
        record["title"] = title
    authors = _bib_authors(fields.pop("author", ""))
    if authors:
        record["authors"] = [display for display, _ in authors]
        if any(parts is not None for _, parts in authors):
            record[NAMES_FIELD] = [parts for _, parts in authors]
    year_text = fields.pop("year", "")
    year = _year(year_text)
    if year is not None:
        record["year"] = year
    elif year_text.strip():
        fields["year"] = year_text
    for venue_field in ("booktitle", "journal"):
        if venue_field in fields:
            venue = latex_to_line(fields.pop(venue_field))
            if venue:
                record["venue"] = venue
                break
    url = clean_line(fields.pop("url", ""))
    if url:
        record["url"] = url
    # The abstract keeps its LaTeX: the renderer shows it, and the same paper read from a text
    # list then has the same abstract (and so the same id).
    record["abstract"] = _unwrap(clean_text(fields.pop("abstract", "")))
    key = clean_line(entry.key)
    if not record["abstract"] and "title" not in record:
        raw.warnings.append(f"{raw.path}:{line}: entry {key}: no abstract or title; skipped")
        return
    record["bibkey"] = key
    record["entrytype"] = clean_line(entry.entry_type).lower()
    for name, value in fields.items():
        record[name] = clean_line(value) if name in _VERBATIM_FIELDS else latex_to_line(value)
    raw.records.append(record)


def _bib_authors(value: str) -> list[_Author]:
    if not value.strip():
        return []
    from bibtexparser.middlewares.names import (
        parse_single_name_into_parts,
        split_multiple_persons_names,
    )

    try:
        names = [str(name) for name in split_multiple_persons_names(value)]
    except Exception:  # a malformed author field is still worth showing as it is
        names = _AUTHOR_AND.split(value)
    authors: list[_Author] = []
    for name in names:
        if name.strip().lower() == "others":
            authors.append(("et al.", None))
            continue
        if "," not in name and "{" not in name:
            # "Given Family" says no more than a list's flat string: parsed the same way, later.
            decoded = latex_to_line(name)
            if decoded:
                authors.append((decoded, None))
            continue
        try:
            parts = parse_single_name_into_parts(name, strict=False)
        except Exception:  # a name the parser cannot split is still shown, whole
            decoded = latex_to_line(name)
            if decoded:
                authors.append((decoded, {"literal": decoded}))
            continue
        person = _bib_person(parts.first, parts.von, parts.last, parts.jr)
        if person.display:
            authors.append((person.display, person.to_json()))
    return authors


def _bib_person(first: list[str], von: list[str], last: list[str], jr: list[str]) -> PersonName:
    def joined(words: list[str]) -> str:
        return latex_to_line(" ".join(words))

    family = joined(last)
    if not family:
        return PersonName(literal=joined(first + von))
    if not first and not von and not jr and len(last) == 1 and " " in family:
        # "{OpenAI Team}": one braced word is a name BibTeX keeps whole.
        return PersonName(literal=family)
    return PersonName(given=joined(first), family=family, particle=joined(von), suffix=joined(jr))


def latex_to_line(value: str) -> str:
    """A BibTeX field value as one line of plain Unicode text (LaTeX decoded, braces gone)."""
    if not _LATEX_SPECIAL.search(value):
        return clean_line(value)
    from paperdeck.core.text.render import latex_to_text

    # render keeps every word; a bare % must still not read as a LaTeX comment. In a BibTeX
    # field every brace left is grouping, and -- / --- are TeX's dashes.
    text = latex_to_text(_UNESCAPED_PERCENT.sub(r"\\%", value))
    text = text.replace("---", "\u2014").replace("--", "\u2013")
    return clean_line(text.replace("{", "").replace("}", ""))


_READERS: dict[str, Callable[[RawList, bytes], None]] = {
    "txt": _read_txt,
    "jsonl": _read_jsonl,
    "json": _read_json,
    "bib": _read_bib,
    "csv": _read_csv,
}

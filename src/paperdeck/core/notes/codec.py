"""The notes file format: JSON read checked and sanitised, written in one canonical layout."""

from __future__ import annotations

import contextlib
import gc
import json
import operator
import re
from collections.abc import Iterator, Mapping
from json.encoder import encode_basestring
from types import MappingProxyType
from typing import Any

from paperdeck.core.errors import PaperdeckError
from paperdeck.core.notes.entry import (
    FIELD_PATTERN,
    STATES,
    NoteEntry,
    clean_correction,
    unique_tags,
)
from paperdeck.core.plumbing.safe_json import JsonTooComplex, load_json
from paperdeck.core.text.sanitize import clean_line, clean_text

SCHEMA_VERSION = 1
MAX_FILE_BYTES = 256 << 20
"""The largest notes file or export read: ~100 times 10,000 long notes."""
EMPTY_FILE = b'{\n  "papers": {},\n  "version": 1\n}\n'
ID_PATTERN = re.compile(r"[A-Za-z0-9_.:-]{1,80}")
"""What a paper id may look like in a notes file."""
# What sanitize.clean_text removes, as UTF-8 (tests keep this in step with it): C1 controls,
# surrogates, U+FEFF, U+061C, U+200E-F, U+2028-9, U+202A-E and U+2066-9.
_UNSAFE_UTF8 = re.compile(
    rb"\xc2[\x80-\x9f]|\xed[\xa0-\xbf]|\xef\xbb\xbf|\xd8\x9c"
    rb"|\xe2\x80[\x8e\x8f\xa8-\xae]|\xe2\x81[\xa6-\xa9]"
)
_ASCII_BYTES = bytes(range(128))
_BACKSLASH_ESCAPES = re.compile(rb"\\[\\bfru]")
_PLAIN_TAG = re.compile(r"[^\s#+-]\S*")
_NO_CORRECTIONS: Mapping[str, Any] = MappingProxyType({})


class BadFile(Exception):
    """The file is not a notes file paperdeck can read (its reason is the message)."""


class NotNotes(BadFile):
    """JSON that is no notes file at all (neither "version" nor "papers"): someone else's."""


class NewerSchema(Exception):
    """The file was written by a newer paperdeck, in a schema this one does not know."""

    def __init__(self, version: int) -> None:
        super().__init__(version)
        self.version = version


def parse_document(data: bytes | str) -> dict[str, NoteEntry]:
    """Entries of a notes file or JSON export; PaperdeckError (one line) when it is not one."""
    try:
        return parse_file(data)[0]
    except NewerSchema as error:
        raise PaperdeckError(
            f"written by a newer paperdeck (schema version {error.version})"
        ) from None
    except BadFile as error:
        raise PaperdeckError(str(error)) from None


def entry_to_json(entry: NoteEntry) -> dict[str, Any]:
    """The object one entry is stored as (without its id, which is the key)."""
    return {
        "corrections": {
            key: list(value) if isinstance(value, tuple) else value
            for key, value in entry.corrections.items()
        },
        "created": entry.created,
        "excerpt": entry.excerpt,
        "list": entry.list_name,
        "note": entry.note,
        "starred": entry.starred,
        "state": entry.state,
        "tags": list(entry.tags),
        "updated": entry.updated,
    }


def entry_from_json(paper_id: str, value: Any) -> NoteEntry:
    """One stored entry, checked and sanitised; ValueError says what is wrong."""
    try:
        return _entry_from_json(paper_id, value)
    except BadFile as error:
        raise ValueError(str(error)) from None


def parse_file(data: bytes | str) -> tuple[dict[str, NoteEntry], set[str]]:
    """The entries of a notes file, and the ids of those read exactly as they stand."""
    with gc_paused():
        return _parse_entries(data)


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    # Reading and writing 10,000 notes makes many objects and no cycles: the collections
    # that would run meanwhile only cost time (a third of it, measured).
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _parse_entries(data: bytes | str) -> tuple[dict[str, NoteEntry], set[str]]:
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    raw = raw.removeprefix(b"\xef\xbb\xbf")
    if not raw.strip():
        raise BadFile("the file is empty")
    try:
        document = load_json(raw)
    except UnicodeDecodeError:
        raise BadFile("the file is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise BadFile(f"invalid JSON at line {error.lineno}: {error.msg}") from None
    except JsonTooComplex as error:
        raise BadFile(f"the file {error}") from None
    if not isinstance(document, dict):
        raise NotNotes("the file holds no notes object")
    if "version" not in document and "papers" not in document:
        raise NotNotes("the file holds no notes object")
    version = document.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > SCHEMA_VERSION:
        raise NewerSchema(version)
    if version != SCHEMA_VERSION:
        raise BadFile(f"unknown schema version {version!r}")
    papers = document.get("papers")
    if not isinstance(papers, dict):
        raise BadFile('"papers" is not an object')
    entries: dict[str, NoteEntry] = {}
    verbatim: set[str] = set()
    if _is_plain(raw):
        tag_sets: dict[tuple[Any, ...], tuple[str, ...] | None] = {}
        for paper_id, value in papers.items():
            entry = _plain_entry(paper_id, value, tag_sets)
            if entry is None:
                entries[paper_id] = _entry_from_json(paper_id, value)
            else:
                entries[paper_id] = entry
                verbatim.add(paper_id)
    else:
        for paper_id, value in papers.items():
            entries[paper_id] = _entry_from_json(paper_id, value)
    return entries, verbatim


def salvage(data: bytes) -> tuple[dict[str, NoteEntry], int] | None:
    """The entries of a damaged notes file that still read, and how many did not; None when
    the file is not one JSON object of papers (nothing to take from it).

    One paper stored wrong (a state this paperdeck does not know) spoils the file for
    `parse_file`; every other paper's note is still there to keep.
    """
    try:
        document = load_json(data.removeprefix(b"\xef\xbb\xbf"))
    except (UnicodeDecodeError, json.JSONDecodeError, JsonTooComplex):
        return None
    papers = document.get("papers") if isinstance(document, dict) else None
    if not isinstance(papers, dict) or document.get("version") != SCHEMA_VERSION:
        return None
    entries: dict[str, NoteEntry] = {}
    for paper_id, value in papers.items():
        with contextlib.suppress(BadFile):
            entries[paper_id] = _entry_from_json(paper_id, value)
    return entries, len(papers) - len(entries)


_HEAD = b'{\n  "papers": {\n'
_TAIL = b'\n  },\n  "version": 1\n}\n'


def entry_texts(data: bytes, keys: list[str]) -> dict[str, bytes] | None:
    """Each entry's text in a file laid out as this module writes it; None for another layout.

    Raw line breaks occur only between JSON tokens, never inside a string, so an entry ends
    where a line is exactly "    }" (or "    },").
    """
    if not data.startswith(_HEAD) or not data.endswith(_TAIL):
        return None
    # NUL cannot occur in a plain file (see _is_plain), so it can mark where to cut.
    body = data[len(_HEAD) : -len(_TAIL)].replace(b"\n    },\n", b"\n    }\0")
    parts = body.split(b"\0")
    if len(parts) != len(keys) or not parts[-1].endswith(b"\n    }"):
        return None
    texts = dict(zip(keys, parts, strict=True))
    starts = (b'    "%s": {\n' % paper_id.encode() for paper_id in keys)
    if not all(map(bytes.startswith, parts, starts)):
        return None
    return texts


def _is_plain(raw: bytes) -> bool:
    """True when no string in this JSON can hold a character sanitising would remove.

    One look at the whole file instead of sanitising every string: raw, such characters are
    DEL and a few multi-byte UTF-8 sequences (looked for among the non-ASCII bytes alone); as
    escapes, \\b, \\f, \\r and \\u (an escaped backslash, as in LaTeX's \\rho, is fine).
    """
    if b"\x7f" in raw or b"\x00" in raw:  # NUL: not UTF-8 at all but UTF-16 or -32
        return False
    if not raw.isascii() and _UNSAFE_UTF8.search(raw.translate(None, _ASCII_BYTES)):
        return False
    return set(_BACKSLASH_ESCAPES.findall(raw)) <= {b"\\\\"}


def _plain_entry(
    paper_id: str, value: Any, tag_sets: dict[tuple[Any, ...], tuple[str, ...] | None]
) -> NoteEntry | None:
    """An entry of a file without unsafe characters, as it stands; None when it is unusual.

    `tag_sets` remembers which tag lists are fine as they are: few differ in one file.
    """
    if type(value) is not dict or not ID_PATTERN.fullmatch(paper_id):
        return None
    raw_tags = value.get("tags", [])
    if type(raw_tags) is not list:
        return None
    try:
        key = tuple(raw_tags)
        tags = tag_sets[key] if key in tag_sets else tag_sets.setdefault(key, _plain_tags(key))
    except TypeError:  # something unhashable in the list
        return None
    if tags is None:
        return None
    note = value.get("note", "")
    excerpt = value.get("excerpt", "")
    list_name = value.get("list", "")
    state = value.get("state", "unread")
    starred = value.get("starred", False)
    created = value.get("created", 0.0)
    updated = value.get("updated", 0.0)
    if (
        type(note) is not str
        or type(excerpt) is not str
        or type(list_name) is not str
        or value.get("corrections")
        or state not in STATES
        or type(starred) is not bool
        or type(created) is not float
        or type(updated) is not float
        or not 0 <= created < 1e11
        or not 0 <= updated < 1e11
        or "\n" in excerpt
        or "\n" in list_name
    ):
        # Anything unusual (corrections too: they are rare) takes the careful path.
        return None
    return NoteEntry(
        paper_id,
        note,
        tags,
        state,
        starred,
        created,
        updated,
        _NO_CORRECTIONS,
        excerpt,
        list_name,
    )


def _plain_tags(tags: tuple[Any, ...]) -> tuple[str, ...] | None:
    """The tags when each is text already in its stored form, without duplicates."""
    if not all(type(tag) is str and _PLAIN_TAG.fullmatch(tag) for tag in tags):
        return None
    return tags if len({tag.casefold() for tag in tags}) == len(tags) else None


def _entry_from_json(paper_id: str, value: Any) -> NoteEntry:
    if not ID_PATTERN.fullmatch(paper_id):
        raise BadFile(f"not a paper id: {clean_line(paper_id)[:40]!r}")
    if not isinstance(value, dict):
        raise BadFile(f"paper {paper_id} is not an object")
    note = _text(value, "note", paper_id)
    state = value.get("state", "unread")
    if state not in STATES:
        raise BadFile(f"paper {paper_id} has an unknown state")
    starred = value.get("starred", False)
    if not isinstance(starred, bool):
        raise BadFile(f"paper {paper_id}: starred is not true or false")
    tags = value.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(tag, str) for tag in tags):
        raise BadFile(f"paper {paper_id}: tags are not a list of text")
    corrections = value.get("corrections", {})
    if not isinstance(corrections, dict):
        raise BadFile(f"paper {paper_id}: corrections are not an object")
    cleaned: dict[str, Any] = {}
    for key, item in corrections.items():
        fixed = clean_correction(item)
        if not FIELD_PATTERN.fullmatch(key) or fixed is None:
            raise BadFile(f"paper {paper_id}: a correction is not text")
        cleaned[key] = fixed
    return NoteEntry(
        paper_id=paper_id,
        note=clean_text(note) if note else "",
        tags=unique_tags(tags) if tags else (),
        state=state,
        starred=starred,
        created=_time(value, "created", paper_id),
        updated=_time(value, "updated", paper_id),
        corrections=MappingProxyType(cleaned),
        excerpt=clean_line(_text(value, "excerpt", paper_id)),
        list_name=clean_line(_text(value, "list", paper_id)),
    )


def _text(value: dict[str, Any], key: str, paper_id: str) -> str:
    text = value.get(key, "")
    if not isinstance(text, str):
        raise BadFile(f"paper {paper_id}: {key} is not text")
    return text


def _time(value: dict[str, Any], key: str, paper_id: str) -> float:
    stamp = value.get(key, 0.0)
    if isinstance(stamp, bool) or not isinstance(stamp, int | float) or not 0 <= stamp < 1e11:
        raise BadFile(f"paper {paper_id}: {key} is not a time")
    return float(stamp)


# -- writing ------------------------------------------------------------------------------

_ENTRY_TEMPLATE = (
    "    %s: {\n"
    '      "corrections": %s,\n'
    '      "created": %s,\n'
    '      "excerpt": %s,\n'
    '      "list": %s,\n'
    '      "note": %s,\n'
    '      "starred": %s,\n'
    '      "state": %s,\n'
    '      "tags": %s,\n'
    '      "updated": %s\n'
    "    }"
)
_BULK_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=("\n", ":"))
_JSON_BOOL = {True: "true", False: "false"}
_JSON_STATE = {state: f'"{state}"' for state in STATES}
_TAGS = operator.attrgetter("tags")
_CORRECTIONS = operator.attrgetter("corrections")
_CREATED = operator.attrgetter("created")
_UPDATED = operator.attrgetter("updated")
_EXCERPT = operator.attrgetter("excerpt")
_LIST_NAME = operator.attrgetter("list_name")
_NOTE = operator.attrgetter("note")
_STARRED = operator.attrgetter("starred")
_STATE = operator.attrgetter("state")


def entry_lines(keys: list[str], entries: list[NoteEntry]) -> list[bytes]:
    """Entries as json.dumps(indent=2, sort_keys=True) writes them inside "papers".

    Column by column, so that the C parts of Python do the work: strings are encoded in bulk
    by the json module's C encoder (a raw newline cannot occur inside an encoded string, so it
    separates them safely), and each entry is one %-format of its encoded fields.
    """
    if not entries:
        return []
    tags = list(map(_TAGS, entries))
    tag_texts = {key: _tags_json(key) for key in set(tags)}
    corrections = [
        _corrections_json(value) if value else "{}" for value in map(_CORRECTIONS, entries)
    ]
    columns = zip(
        _encode_all(keys),
        corrections,
        map(float.__repr__, map(_CREATED, entries)),
        _encode_all(list(map(_EXCERPT, entries))),
        _encode_all(list(map(_LIST_NAME, entries))),
        _encode_all(list(map(_NOTE, entries))),
        map(_JSON_BOOL.__getitem__, map(_STARRED, entries)),
        map(_JSON_STATE.__getitem__, map(_STATE, entries)),
        map(tag_texts.__getitem__, tags),
        map(float.__repr__, map(_UPDATED, entries)),
        strict=True,
    )
    return list(map(str.encode, map(_ENTRY_TEMPLATE.__mod__, columns)))


def _encode_all(texts: list[str]) -> list[str]:
    return _BULK_ENCODER.encode(texts)[1:-1].split("\n")


def _tags_json(tags: tuple[str, ...]) -> str:
    if not tags:
        return "[]"
    inner = ",\n".join(f"        {encode_basestring(tag)}" for tag in tags)
    return f"[\n{inner}\n      ]"


def _corrections_json(corrections: Mapping[str, Any]) -> str:
    plain = {key: list(v) if isinstance(v, tuple) else v for key, v in corrections.items()}
    return json.dumps(plain, sort_keys=True, indent=2, ensure_ascii=False).replace("\n", "\n      ")


class FileCodec:
    """Reads and writes notes files, remembering each entry's text to write it again cheaply.

    `encode` gives exactly json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False)
    + "\\n", built by hand, reusing each unchanged entry's encoded lines, because the indenting
    encoder of the json module is pure Python and several times too slow for 10,000 notes.
    """

    def __init__(self) -> None:
        self._line_cache: dict[str, tuple[NoteEntry, bytes]] = {}
        # The last file parsed, whose unchanged entries' text the next encode can reuse.
        self._parsed: tuple[bytes, dict[str, NoteEntry], set[str]] | None = None

    def decode(self, data: bytes) -> dict[str, NoteEntry]:
        """The entries of a notes file; BadFile or NewerSchema when it is not one to use."""
        entries, verbatim = parse_file(data)
        self._parsed = (data, entries, verbatim)
        return entries

    def encode(self, entries: Mapping[str, NoteEntry]) -> bytes:
        """The file holding `entries`, in the canonical layout."""
        if not entries:
            return EMPTY_FILE
        with gc_paused():
            return self._encode_entries(entries)

    def _encode_entries(self, entries: Mapping[str, NoteEntry]) -> bytes:
        cache = self._line_cache
        if len(cache) > len(entries) + 1000:
            self._line_cache = cache = {k: v for k, v in cache.items() if k in entries}
        order = sorted(entries)
        if self._parsed is not None:
            self._reuse_parsed_text(entries)
        stale = [
            paper_id
            for paper_id in order
            if (cached := cache.get(paper_id)) is None or cached[0] is not entries[paper_id]
        ]
        fresh = [entries[paper_id] for paper_id in stale]
        for paper_id, entry, line in zip(stale, fresh, entry_lines(stale, fresh), strict=True):
            cache[paper_id] = (entry, line)
        parts = [cache[paper_id][1] for paper_id in order]
        body = b",\n".join(parts)
        return b'{\n  "papers": {\n' + body + b'\n  },\n  "version": 1\n}\n'

    def _reuse_parsed_text(self, entries: Mapping[str, NoteEntry]) -> None:
        """Cache, as they stand in the file last parsed, the entries that are still those."""
        assert self._parsed is not None
        data, parsed, verbatim = self._parsed
        self._parsed = None
        cache = self._line_cache
        unchanged = [
            paper_id
            for paper_id in verbatim
            if entries.get(paper_id) is parsed[paper_id]
            and ((cached := cache.get(paper_id)) is None or cached[0] is not parsed[paper_id])
        ]
        if len(unchanged) < 100:
            return  # not worth slicing the file
        lines = entry_texts(data, list(parsed))
        if lines is not None:
            for paper_id in unchanged:
                cache[paper_id] = (parsed[paper_id], lines[paper_id])


def encode_file(entries: Mapping[str, NoteEntry]) -> bytes:
    """A notes file holding `entries`, as the store writes it."""
    return FileCodec().encode(entries)

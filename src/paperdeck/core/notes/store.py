"""The notes store: per-paper notes, tags, reading state and corrections in one JSON file."""

from __future__ import annotations

import contextlib
import difflib
import errno
import gc
import json
import operator
import os
import re
import secrets
import stat
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from json.encoder import encode_basestring
from pathlib import Path
from types import MappingProxyType
from typing import Any

from paperdeck.core import model
from paperdeck.core.config import notes_path as notes_path
from paperdeck.core.errors import PaperdeckError
from paperdeck.core.model import Paper
from paperdeck.core.plumbing.atomic_write import atomic_write as _atomic_write
from paperdeck.core.plumbing.atomic_write import fsync_folder as _fsync_folder
from paperdeck.core.text.fold import fold
from paperdeck.core.text.sanitize import clean_line, clean_text

if sys.platform == "win32":
    import msvcrt
else:
    import fcntl

ReadingState = model.ReadingState
STATES: tuple[str, ...] = ("unread", "reading", "read")
SCHEMA_VERSION = 1
BACKUPS = 3
"""How many earlier versions of the file are kept (notes.json.bak1 is the newest)."""
EXCERPT_CHARS = 200
CONFLICT_START = "<<<<<<< this paperdeck"
CONFLICT_MIDDLE = "======="
CONFLICT_END = ">>>>>>>"
REATTACH_CUTOFF = 90.0
"""Least rapidfuzz ratio (0-100) between two abstracts' fingerprints to move a note."""
_FINGERPRINT_CHARS = 120
_ID_PATTERN = re.compile(r"[A-Za-z0-9_.:-]{1,80}")
_FIELD_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,39}")
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
_BUSY_ERRNOS = {errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK, errno.EDEADLK}


class NotesSaveError(PaperdeckError):
    """The notes could not be written; they are still in memory and the next save retries."""


@dataclass(frozen=True, slots=True)
class NoteEntry:
    """What the user keeps about one paper (satisfies `paperdeck.core.model.Annotation`)."""

    paper_id: str
    note: str = ""
    tags: tuple[str, ...] = ()
    state: str = "unread"
    starred: bool = False
    created: float = 0.0
    updated: float = 0.0
    """Epoch seconds of the last change."""
    corrections: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """The user's fixes to the paper's metadata: "title", "authors" (a list), "url" ..."""
    excerpt: str = ""
    """The start of the paper's abstract, so the file reads well and orphans can re-attach."""
    list_name: str = ""

    @property
    def is_empty(self) -> bool:
        """Nothing worth keeping: no note, tags, corrections, star, and unread."""
        return (
            not self.note
            and not self.tags
            and self.state == "unread"
            and not self.starred
            and not self.corrections
        )


def normalise_tag(text: str) -> str:
    """A tag as stored: one line, inner whitespace made "-", no leading "#", "+" or "-"."""
    tag = clean_line(text).lstrip("#+-").strip()
    return re.sub(r"\s+", "-", tag)


def excerpt_of(paper: Paper) -> str:
    """The first ~200 characters of the abstract (the title when there is none), one line."""
    text = clean_line(paper.abstract or paper.title)
    if len(text) <= EXCERPT_CHARS:
        return text
    cut = text[:EXCERPT_CHARS]
    # End on a whole word when one ends in the last quarter, so the file reads well.
    space = cut.rfind(" ", EXCERPT_CHARS * 3 // 4)
    return (cut[:space] if space > 0 else cut).rstrip()


def fingerprint(excerpt: str) -> str:
    """What re-attaching compares: the excerpt without case, spacing, punctuation or markup."""
    # Only excerpts are stored, and both sides of a comparison are fingerprinted afresh.
    return fold(excerpt).replace(" ", "")[:_FINGERPRINT_CHARS]


class _BadFile(Exception):
    """The file is not a notes file paperdeck can read (its reason is the message)."""


class _NewerSchema(Exception):
    def __init__(self, version: int) -> None:
        super().__init__(version)
        self.version = version


# The same name as citations.CITATION_KEY_FIELD; the store knows it without importing citations.
CITATION_KEY = "citation_key"


class NotesStore:
    """Notes kept in memory and saved to one JSON file that no crash or second process spoils.

    Loading never raises: a file that cannot be parsed is moved aside and the newest good
    backup restored, and `messages` says so in one line each. Saving writes atomically under an
    advisory lock, after merging whatever another paperdeck saved since this one last read.
    """

    def __init__(self, path: Path, *, lock_timeout: float = 5.0) -> None:
        self.path = Path(path)
        self.messages: list[str] = []
        """One-line messages for the user from loading and saving (callers may clear it)."""
        self.lock_timeout = lock_timeout
        self._entries: dict[str, NoteEntry] = {}
        self._view: Mapping[str, NoteEntry] = MappingProxyType(self._entries)
        # The file as this store last read or wrote it: the base of three-way merges.
        self._base: dict[str, NoteEntry] = {}
        self._disk_bytes: bytes | None = None
        self._disk_signature: _Signature | None = None
        self._changed: set[str] = set()
        self._line_cache: dict[str, tuple[NoteEntry, bytes]] = {}
        # The last file parsed, whose unchanged entries' text the next save can reuse.
        self._parsed: tuple[bytes, dict[str, NoteEntry], set[str]] | None = None
        self._mutex = threading.RLock()
        self._load()

    # -- reading ---------------------------------------------------------------------------

    def get(self, paper: str | Paper) -> NoteEntry | None:
        """The entry of a paper (given by id or as a Paper), None when it has none."""
        paper_id = paper if isinstance(paper, str) else paper.id
        return self._entries.get(paper_id)

    @property
    def entries(self) -> Mapping[str, NoteEntry]:
        """Paper id -> entry: a live read-only view (search's `annotations`)."""
        return self._view

    @property
    def dirty(self) -> bool:
        """True while some change is not saved yet."""
        return bool(self._changed)

    def unsaved_entries(self) -> list[NoteEntry]:
        """The entries changed since the last successful save, by paper id."""
        with self._mutex:
            return [self._entries[i] for i in sorted(self._changed) if i in self._entries]

    def orphans(self, papers: Sequence[Paper]) -> list[NoteEntry]:
        """Entries whose paper is in none of `papers`, most recently changed first."""
        known = {paper.id for paper in papers}
        found = [
            entry
            for paper_id, entry in self._entries.items()
            if paper_id not in known and not entry.is_empty
        ]
        return sorted(found, key=lambda entry: (-entry.updated, entry.paper_id))

    # -- changing --------------------------------------------------------------------------

    def set_note(self, paper: Paper, text: str) -> None:
        """Replace the paper's note."""
        self._update(paper, note=clean_text(text))

    def set_tags(self, paper: Paper, tags: Iterable[str]) -> None:
        """Replace the paper's tags (normalised, duplicates dropped, order kept)."""
        self._update(paper, tags=_unique_tags(tags))

    def set_state(self, paper: Paper, state: str) -> None:
        """Set the reading state: "unread", "reading" or "read"."""
        if state not in STATES:
            raise ValueError(f"unknown reading state {state!r} (use {', '.join(STATES)})")
        self._update(paper, state=state)

    def set_starred(self, paper: Paper, starred: bool) -> None:
        """Star or unstar the paper."""
        self._update(paper, starred=bool(starred))

    def set_correction(self, paper: Paper, field: str, value: Any | None) -> None:
        """Correct a metadata field ("title", "authors", "url", ...); None or "" removes it."""
        if not _FIELD_PATTERN.fullmatch(field):
            raise ValueError(f"not a correctable field: {field!r}")
        current = self._entries.get(paper.id)
        corrections = dict(current.corrections) if current is not None else {}
        cleaned = _clean_correction(value)
        if cleaned is None:
            corrections.pop(field, None)
        else:
            corrections[field] = cleaned
        self._update(paper, corrections=MappingProxyType(corrections))

    def reattach(self, papers: Sequence[Paper]) -> list[tuple[str, str]]:
        """Move orphaned entries to papers whose abstract matches their stored excerpt.

        A list whose text changed slightly (re-wrapped, a letter lost, markup stripped) gives
        its papers new ids; each orphan moves to the paper without an entry whose abstract
        start is most like its excerpt, when the two are alike enough and the best match is
        clear. Returns (old id, new id) pairs.
        """
        from rapidfuzz import fuzz, process

        with self._mutex:
            orphans = [entry for entry in self.orphans(papers) if entry.excerpt]
            free = [
                paper
                for paper in papers
                if (entry := self._entries.get(paper.id)) is None or entry.is_empty
            ]
            if not orphans or not free:
                return []
            keys = [fingerprint(excerpt_of(paper)) for paper in free]
            taken: set[int] = set()
            moves: list[tuple[str, str]] = []
            for orphan in orphans:
                probe = fingerprint(orphan.excerpt)
                if len(probe) < 20:
                    continue
                found = process.extract(
                    probe, keys, scorer=fuzz.ratio, score_cutoff=REATTACH_CUTOFF, limit=3
                )
                found = [match for match in found if match[2] not in taken]
                if not found:
                    continue
                best = found[0]
                runner_up = found[1] if len(found) > 1 else None
                if (
                    runner_up is not None
                    and runner_up[1] >= best[1] - 1.0
                    and keys[runner_up[2]] != keys[best[2]]
                ):
                    continue  # two different papers fit about as well: leave the note alone
                taken.add(best[2])
                target = free[best[2]]
                moved = replace(
                    orphan,
                    paper_id=target.id,
                    excerpt=excerpt_of(target),
                    list_name=target.list_name,
                )
                del self._entries[orphan.paper_id]
                self._entries[target.id] = moved
                self._changed.update((orphan.paper_id, target.id))
                moves.append((orphan.paper_id, target.id))
            return moves

    def merge_in(self, entries: Mapping[str, NoteEntry], source: str) -> int:
        """Merge entries from an export; returns how many entries changed.

        A paper only one side knows is taken as it is; for one both know, the newer state,
        star and corrections win, tags are united, and two different notes are both kept,
        marked, unless one simply extends the other.
        """
        changed = 0
        with self._mutex:
            for paper_id, theirs in entries.items():
                ours = self._entries.get(paper_id)
                merged, conflict = _merge_two(ours, theirs, f"imported from {source}")
                if merged == ours:
                    continue
                if conflict:
                    self.messages.append(
                        f"paper {paper_id} has a different note in {source}: both texts kept, "
                        f"marked with {CONFLICT_START[:7]} and {CONFLICT_END}"
                    )
                self._entries[paper_id] = merged
                self._changed.add(paper_id)
                changed += 1
        return changed

    def pin_citation_key(self, paper: Paper, key: str) -> None:
        """Remember the citation key a noted paper was cited with, so it never changes.

        Bookkeeping, not an edit: the entry's `updated` time (which orders "recently noted" and
        decides merges) stays as the user left it.
        """
        current = self._entries.get(paper.id)
        corrections = dict(current.corrections) if current is not None else {}
        if corrections.get(CITATION_KEY) == key:
            return
        corrections[CITATION_KEY] = key
        self._update(paper, touch=False, corrections=MappingProxyType(corrections))

    def _update(self, paper: Paper, *, touch: bool = True, **changes: Any) -> None:
        with self._mutex:
            current = self._entries.get(paper.id)
            base = current if current is not None else NoteEntry(paper_id=paper.id)
            if all(getattr(base, name) == value for name, value in changes.items()):
                return
            stamps: dict[str, Any] = {}
            if touch or not base.updated:
                now = round(time.time(), 3)
                # Two edits within a millisecond still order: merges pick the newer by `updated`.
                now = max(now, round(base.updated + 0.001, 3))
                stamps = {
                    "created": base.created or now,
                    "updated": now,
                    "excerpt": excerpt_of(paper),
                    "list_name": clean_line(paper.list_name),
                }
            self._entries[paper.id] = replace(base, **changes, **stamps)
            self._changed.add(paper.id)

    # -- saving ----------------------------------------------------------------------------

    def save(self) -> None:
        """Write the changes: merged with the file as it is now, atomically, under the lock.

        Raises NotesSaveError (one line) when the file cannot be written; the changes stay in
        memory and the next save tries again.
        """
        with self._mutex:
            if not self._changed:
                return
            try:
                self._save()
            except NotesSaveError as error:
                self.messages.append(f"{error} (kept in memory; saving again on the next change)")
                raise
            except OSError as error:
                failure = NotesSaveError(f"could not save notes to {self.path}: {_reason(error)}")
                self.messages.append(f"{failure} (kept in memory; saving again on the next change)")
                raise failure from error

    def _save(self) -> None:
        for folder in self.path.parents:
            if folder.exists():
                if not folder.is_dir():
                    raise NotesSaveError(
                        f"could not save notes to {self.path}: {folder} is a file, not a folder"
                    )
                break
        if not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _fsync_folder(self.path.parent.parent)  # so that the new folder itself lasts
        with self._locked():
            disk, disk_entries = self._read_for_merge()
            theirs = self._base if disk_entries is None else disk_entries
            merged = dict(theirs)
            for paper_id in sorted(self._changed):
                result, conflict = _merge_three(
                    self._base.get(paper_id),
                    self._entries.get(paper_id),
                    theirs.get(paper_id),
                )
                if conflict:
                    self.messages.append(
                        f"the note of paper {paper_id} was changed in another paperdeck too: "
                        f"both texts kept, marked with {CONFLICT_START[:7]} and {CONFLICT_END}"
                    )
                if result is None or result.is_empty:
                    merged.pop(paper_id, None)
                else:
                    merged[paper_id] = result
            data = self._serialise(merged)
            if data != disk:
                if disk is not None:
                    self._write_backup(disk)
                _atomic_write(self.path, data)
            self._adopt(data, merged, _signature(os.stat(self.path)))

    def _read_for_merge(self) -> tuple[bytes | None, dict[str, NoteEntry] | None]:
        """The file's bytes now, and its entries when they differ from the last agreed ones."""
        try:
            status = os.stat(self.path)
            if self._disk_bytes is not None and _signature(status) == self._disk_signature:
                # The very file this store last read or wrote: every writer replaces the
                # file, so another save would have changed its inode or times.
                return self._disk_bytes, None
            data, _ = _read_file(self.path)
        except FileNotFoundError:
            # paperdeck never deletes the file: a missing one means nothing to merge.
            return None, None
        except IsADirectoryError:
            raise NotesSaveError(
                f"could not save notes: {self.path} is a folder, not a file"
            ) from None
        if data == self._disk_bytes:
            return data, None
        try:
            return data, self._parse(data)
        except _NewerSchema as error:
            raise NotesSaveError(
                f"not saving notes: {self.path} was written by a newer paperdeck "
                f"(schema version {error.version})"
            ) from None
        except _BadFile as error:
            restored, entries = self._recover(str(error))
            # A backup may be older than what this store last read: per paper, the newer
            # side is kept, and nothing is taken as deleted.
            for paper_id, entry in self._base.items():
                other = entries.get(paper_id)
                if other is None or entry.updated >= other.updated:
                    entries[paper_id] = entry
            return restored, entries

    def _parse(self, data: bytes) -> dict[str, NoteEntry]:
        entries, verbatim = _parse_file(data)
        self._parsed = (data, entries, verbatim)
        return entries

    def _adopt(
        self, data: bytes | None, entries: dict[str, NoteEntry], signature: _Signature | None
    ) -> None:
        """Make `entries` (as stored in `data`) both the agreed base and what is in memory."""
        self._disk_bytes = data
        self._disk_signature = signature
        self._base = dict(entries)
        for paper_id in [pid for pid in self._entries if pid not in entries]:
            del self._entries[paper_id]
        # Updating in place keeps `entries` views that callers hold current.
        self._entries.update(entries)
        self._changed.clear()

    def _serialise(self, entries: Mapping[str, NoteEntry]) -> bytes:
        """Exactly json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\\n".

        Built by hand, reusing each unchanged entry's encoded lines, because the indenting
        encoder of the json module is pure Python and several times too slow for 10,000 notes.
        """
        if not entries:
            return b'{\n  "papers": {},\n  "version": 1\n}\n'
        with _gc_paused():
            return self._serialise_entries(entries)

    def _serialise_entries(self, entries: Mapping[str, NoteEntry]) -> bytes:
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
        for paper_id, entry, line in zip(stale, fresh, _entry_lines(stale, fresh), strict=True):
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
        lines = _entry_texts(data, list(parsed))
        if lines is not None:
            for paper_id in unchanged:
                cache[paper_id] = (parsed[paper_id], lines[paper_id])

    def _write_backup(self, data: bytes) -> None:
        try:
            for number in range(BACKUPS, 1, -1):
                older = self._backup_path(number - 1)
                if older.exists():
                    os.replace(older, self._backup_path(number))
            newest = self._backup_path(1)
            link = newest.with_name(f".{newest.name}.tmp-{os.getpid()}-{secrets.token_hex(4)}")
            try:
                # A second name for the current file costs nothing: writers never change a
                # notes file in place, they replace it.
                os.link(self.path, link)
                os.replace(link, newest)
            except OSError:
                with contextlib.suppress(OSError):
                    os.unlink(link)
                _atomic_write(newest, data, sync=False)
        except OSError as error:
            self.messages.append(f"could not keep a backup of the notes: {_reason(error)}")

    def _backup_path(self, number: int) -> Path:
        return self.path.with_name(f"{self.path.name}.bak{number}")

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        lock_path = self.path.with_name(self.path.name + ".lock")
        descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            deadline = time.monotonic() + self.lock_timeout
            while not _try_lock(descriptor):
                if time.monotonic() >= deadline:
                    raise NotesSaveError(
                        f"could not save notes: {self.path} is locked by another paperdeck "
                        f"(waited {self.lock_timeout:g} s)"
                    )
                time.sleep(0.005)
            try:
                _remove_stale_temporaries(self.path)
                yield
            finally:
                _unlock(descriptor)
        finally:
            os.close(descriptor)

    # -- loading and recovery --------------------------------------------------------------

    def _load(self) -> None:
        try:
            data, signature = _read_file(self.path)
        except (FileNotFoundError, NotADirectoryError):
            # No file yet (saving says so if its folder cannot be made).
            return
        except IsADirectoryError:
            self.messages.append(
                f"the notes file {self.path} is a folder: notes cannot be loaded or saved "
                "until it is moved away"
            )
            return
        except OSError as error:
            self.messages.append(
                f"could not read the notes file {self.path}: {_reason(error)}; "
                "notes are not saved until it can be read"
            )
            return
        try:
            self._adopt(data, self._parse(data), signature)
        except _NewerSchema as error:
            self.messages.append(
                f"the notes file {self.path} was written by a newer paperdeck (schema version "
                f"{error.version}); it is left alone and notes are not saved"
            )
        except _BadFile as error:
            self._recover_at_load(str(error))

    def _recover_at_load(self, reason: str) -> None:
        try:
            with self._locked():
                # Another paperdeck may have recovered the file while this one waited.
                try:
                    data, signature = _read_file(self.path)
                except FileNotFoundError:
                    data, signature = None, None
                if data is not None:
                    try:
                        self._adopt(data, self._parse(data), signature)
                        return
                    except _NewerSchema:
                        self._load()
                        return
                    except _BadFile as error:
                        reason = str(error)
                recovered, entries = self._recover(reason)
                restored = _signature(os.stat(self.path)) if recovered is not None else None
                self._adopt(recovered, entries, restored)
        except (OSError, NotesSaveError) as error:
            detail = _reason(error) if isinstance(error, OSError) else str(error)
            message = (
                f"the notes file {self.path} could not be read ({reason}) nor moved aside "
                f"({detail}); notes are not saved until it is fixed"
            )
            found = self._newest_good_backup()
            if found is not None:
                backup, _, entries = found
                # What the restore will put on disk is what this session's edits start from.
                self._entries.update(entries)
                self._base = dict(entries)
                message += f"; showing the backup {backup.name}"
            self.messages.append(message)

    def _recover(self, reason: str) -> tuple[bytes | None, dict[str, NoteEntry]]:
        """Move the unreadable file aside and put the newest good backup in its place."""
        aside = self._aside_path()
        os.replace(self.path, aside)
        _fsync_folder(self.path.parent)
        found = self._newest_good_backup()
        told = f"the notes file {self.path} could not be read ({reason}); moved it to {aside}"
        if found is None:
            self.messages.append(f"{told}; no good backup, starting with no notes")
            return None, {}
        backup, data, entries = found
        _atomic_write(self.path, data)
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(backup.stat().st_mtime))
        self.messages.append(f"{told} and restored the backup from {when} ({backup.name})")
        return data, entries

    def _aside_path(self) -> Path:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        candidate = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        number = 2
        while candidate.exists():
            candidate = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{number}")
            number += 1
        return candidate

    def _newest_good_backup(self) -> tuple[Path, bytes, dict[str, NoteEntry]] | None:
        for number in range(1, BACKUPS + 1):
            backup = self._backup_path(number)
            try:
                data, _ = _read_file(backup)
                return backup, data, _parse_file(data)[0]
            except (OSError, _BadFile, _NewerSchema):
                continue
        return None


# -- the file format -----------------------------------------------------------------------


def parse_document(data: bytes | str) -> dict[str, NoteEntry]:
    """Entries of a notes file or JSON export; PaperdeckError (one line) when it is not one."""
    try:
        return _parse_file(data)[0]
    except _NewerSchema as error:
        raise PaperdeckError(
            f"written by a newer paperdeck (schema version {error.version})"
        ) from None
    except _BadFile as error:
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
    except _BadFile as error:
        raise ValueError(str(error)) from None


def _parse_file(data: bytes | str) -> tuple[dict[str, NoteEntry], set[str]]:
    """The entries of a notes file, and the ids of those read exactly as they stand."""
    with _gc_paused():
        return _parse_entries(data)


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
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
        raise _BadFile("the file is empty")
    try:
        document = json.loads(raw)
    except UnicodeDecodeError:
        raise _BadFile("the file is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise _BadFile(f"invalid JSON at line {error.lineno}: {error.msg}") from None
    if not isinstance(document, dict):
        raise _BadFile("the file holds no notes object")
    version = document.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > SCHEMA_VERSION:
        raise _NewerSchema(version)
    if version != SCHEMA_VERSION:
        raise _BadFile(f"unknown schema version {version!r}")
    papers = document.get("papers")
    if not isinstance(papers, dict):
        raise _BadFile('"papers" is not an object')
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


_HEAD = b'{\n  "papers": {\n'
_TAIL = b'\n  },\n  "version": 1\n}\n'


def _entry_texts(data: bytes, keys: list[str]) -> dict[str, bytes] | None:
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
    if type(value) is not dict or not _ID_PATTERN.fullmatch(paper_id):
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
    if not _ID_PATTERN.fullmatch(paper_id):
        raise _BadFile(f"not a paper id: {clean_line(paper_id)[:40]!r}")
    if not isinstance(value, dict):
        raise _BadFile(f"paper {paper_id} is not an object")
    note = _text(value, "note", paper_id)
    state = value.get("state", "unread")
    if state not in STATES:
        raise _BadFile(f"paper {paper_id} has an unknown state")
    starred = value.get("starred", False)
    if not isinstance(starred, bool):
        raise _BadFile(f"paper {paper_id}: starred is not true or false")
    tags = value.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(tag, str) for tag in tags):
        raise _BadFile(f"paper {paper_id}: tags are not a list of text")
    corrections = value.get("corrections", {})
    if not isinstance(corrections, dict):
        raise _BadFile(f"paper {paper_id}: corrections are not an object")
    cleaned: dict[str, Any] = {}
    for key, item in corrections.items():
        fixed = _clean_correction(item)
        if not _FIELD_PATTERN.fullmatch(key) or fixed is None:
            raise _BadFile(f"paper {paper_id}: a correction is not text")
        cleaned[key] = fixed
    return NoteEntry(
        paper_id=paper_id,
        note=clean_text(note) if note else "",
        tags=_unique_tags(tags) if tags else (),
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
        raise _BadFile(f"paper {paper_id}: {key} is not text")
    return text


def _time(value: dict[str, Any], key: str, paper_id: str) -> float:
    stamp = value.get(key, 0.0)
    if isinstance(stamp, bool) or not isinstance(stamp, int | float) or not 0 <= stamp < 1e11:
        raise _BadFile(f"paper {paper_id}: {key} is not a time")
    return float(stamp)


def _clean_correction(value: Any) -> Any | None:
    """A correction as stored: a one-line string or a list of them; None when empty."""
    if value is None:
        return None
    if isinstance(value, str):
        return clean_line(value) or None
    if isinstance(value, list | tuple) and all(isinstance(item, str) for item in value):
        items = [clean_line(item) for item in value]
        return [item for item in items if item] or None
    return None


def _unique_tags(tags: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, str] = {}
    for raw in tags:
        tag = normalise_tag(raw)
        if tag and tag.casefold() not in seen:
            seen[tag.casefold()] = tag
    return tuple(seen.values())


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


def _entry_lines(keys: list[str], entries: list[NoteEntry]) -> list[bytes]:
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


# -- merging -------------------------------------------------------------------------------


def _merge_three(
    base: NoteEntry | None, ours: NoteEntry | None, theirs: NoteEntry | None
) -> tuple[NoteEntry | None, bool]:
    """One paper after both sides changed it since they last agreed on `base`."""
    if ours == theirs or theirs == base:
        return ours, False
    if ours == base:
        return theirs, False
    paper_id = (ours or theirs or base or NoteEntry(paper_id="")).paper_id
    empty = NoteEntry(paper_id=paper_id)
    b, o, t = base or empty, ours or empty, theirs or empty
    saved = time.strftime("%Y-%m-%d %H:%M", time.localtime(t.updated))
    note, conflict = merge_text(b.note, o.note, t.note, f"other paperdeck (saved {saved})")
    ours_newer = o.updated >= t.updated
    tags = [tag for tag in o.tags if tag in t.tags or tag not in b.tags]
    tags += [tag for tag in t.tags if tag not in o.tags and tag not in b.tags]
    corrections: dict[str, Any] = {}
    for key in sorted({*o.corrections, *t.corrections}):
        value = _pick(
            b.corrections.get(key), o.corrections.get(key), t.corrections.get(key), ours_newer
        )
        if value is not None:
            corrections[key] = value
    newer = o if ours_newer else t
    merged = NoteEntry(
        paper_id=paper_id,
        note=note,
        tags=tuple(tags),
        state=_pick(b.state, o.state, t.state, ours_newer),
        starred=_pick(b.starred, o.starred, t.starred, ours_newer),
        created=min((c for c in (o.created, t.created) if c), default=0.0),
        updated=max(o.updated, t.updated),
        corrections=MappingProxyType(corrections),
        excerpt=newer.excerpt or o.excerpt or t.excerpt,
        list_name=newer.list_name or o.list_name or t.list_name,
    )
    return merged, conflict


def _merge_two(ours: NoteEntry | None, theirs: NoteEntry, label: str) -> tuple[NoteEntry, bool]:
    """One paper from an import: no common base is known."""
    if ours is None or ours == theirs:
        return theirs if ours is None else ours, False
    conflict = False
    if ours.note == theirs.note or not theirs.note or ours.note.startswith(theirs.note):
        note = ours.note
    elif not ours.note or theirs.note.startswith(ours.note):
        note = theirs.note
    else:
        note = _conflict_block([ours.note], [theirs.note], label)
        conflict = True
    newer, older = (theirs, ours) if theirs.updated > ours.updated else (ours, theirs)
    tags = list(ours.tags) + [tag for tag in theirs.tags if tag not in ours.tags]
    corrections = {**older.corrections, **newer.corrections}
    merged = NoteEntry(
        paper_id=ours.paper_id,
        note=note,
        tags=tuple(tags),
        state=newer.state,
        starred=newer.starred,
        created=min((c for c in (ours.created, theirs.created) if c), default=0.0),
        updated=max(ours.updated, theirs.updated),
        corrections=MappingProxyType(corrections),
        excerpt=ours.excerpt or theirs.excerpt,
        list_name=ours.list_name or theirs.list_name,
    )
    return (ours if merged == ours else merged), conflict


def _pick(base: Any, ours: Any, theirs: Any, ours_newer: bool) -> Any:
    if ours == base:
        return theirs
    if theirs == base:
        return ours
    return ours if ours_newer else theirs


def merge_text(base: str, ours: str, theirs: str, label: str) -> tuple[str, bool]:
    """A three-way merge of two edits of one note, line by line.

    Edits to different lines both apply; lines both sides added at the same place are all
    kept (theirs first, they were saved first); where both changed the same lines, both
    versions are kept between conflict markers. Returns the text and whether it has markers.
    """
    if ours == theirs or theirs == base:
        return ours, False
    if ours == base:
        return theirs, False
    b, o, t = _lines(base), _lines(ours), _lines(theirs)
    hunks = sorted(
        [(start, end, lines, 0) for start, end, lines in _hunks(b, o)]
        + [(start, end, lines, 1) for start, end, lines in _hunks(b, t)],
        key=lambda hunk: (hunk[0], hunk[1]),
    )
    out: list[str] = []
    position = 0
    conflict = False
    index = 0
    while index < len(hunks):
        start, end = hunks[index][0], hunks[index][1]
        group = [hunks[index]]
        index += 1
        while index < len(hunks) and (hunks[index][0] < end or hunks[index][0] == end == start):
            group.append(hunks[index])
            end = max(end, hunks[index][1])
            index += 1
        out.extend(b[position:start])
        mine = [(s, e, lines) for s, e, lines, side in group if side == 0]
        other = [(s, e, lines) for s, e, lines, side in group if side == 1]
        if not mine or not other:
            out.extend(_apply(b, start, end, mine or other))
        else:
            my_version = _apply(b, start, end, mine)
            their_version = _apply(b, start, end, other)
            if my_version == their_version:
                out.extend(my_version)
            elif all(s == e for s, e, _, _ in group):
                out.extend(their_version + my_version)
            else:
                out.extend(_conflict_block(my_version, their_version, label).split("\n"))
                conflict = True
        position = end
    out.extend(b[position:])
    return "\n".join(out), conflict


def _lines(text: str) -> list[str]:
    return text.split("\n") if text else []


def _conflict_block(mine: list[str], theirs: list[str], label: str) -> str:
    return "\n".join([CONFLICT_START, *mine, CONFLICT_MIDDLE, *theirs, f"{CONFLICT_END} {label}"])


def _hunks(base: list[str], other: list[str]) -> list[tuple[int, int, list[str]]]:
    matcher = difflib.SequenceMatcher(None, base, other, autojunk=False)
    return [
        (i1, i2, other[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
    ]


def _apply(
    base: list[str], start: int, end: int, hunks: list[tuple[int, int, list[str]]]
) -> list[str]:
    out: list[str] = []
    position = start
    for hunk_start, hunk_end, lines in hunks:
        out.extend(base[position:hunk_start])
        out.extend(lines)
        position = hunk_end
    out.extend(base[position:end])
    return out


# -- files ---------------------------------------------------------------------------------


_Signature = tuple[int, int, int, int, int]


def _signature(status: os.stat_result) -> _Signature:
    """What changes when a file is replaced or rewritten."""
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


def _read_file(path: Path) -> tuple[bytes, _Signature]:
    """A regular file's bytes and the signature of the very file they were read from.

    A device or pipe is refused: reading could block, and moving it aside as a damaged notes
    file would be a disaster (think --notes /dev/null).
    """
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        status = os.fstat(descriptor)
        if stat.S_ISDIR(status.st_mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder", str(path))
        if not stat.S_ISREG(status.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        with os.fdopen(os.dup(descriptor), "rb") as handle:
            return handle.read(), _signature(status)
    finally:
        os.close(descriptor)


def _remove_stale_temporaries(path: Path) -> None:
    # Only lock holders write temporaries, so any left now belong to a process that died.
    prefixes = (f".{path.name}.tmp-", f".{path.name}.bak1.tmp-")
    with contextlib.suppress(OSError):
        for leftover in path.parent.iterdir():
            if leftover.name.startswith(prefixes):
                with contextlib.suppress(OSError):
                    leftover.unlink()


def _try_lock(descriptor: int) -> bool:
    try:
        if sys.platform == "win32":
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
        else:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        if error.errno in _BUSY_ERRNOS:
            return False
        raise
    return True


def _unlock(descriptor: int) -> None:
    if sys.platform == "win32":
        with contextlib.suppress(OSError):
            os.lseek(descriptor, 0, os.SEEK_SET)
            msvcrt.locking(descriptor, msvcrt.LK_UNLCK, 1)
    else:
        fcntl.flock(descriptor, fcntl.LOCK_UN)


def _reason(error: OSError) -> str:
    return error.strerror or str(error) or type(error).__name__

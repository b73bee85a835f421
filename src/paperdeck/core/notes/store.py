"""The notes store: per-paper notes, tags, reading state and corrections in one JSON file."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from paperdeck.core.config import notes_path as notes_path
from paperdeck.core.errors import PaperdeckError
from paperdeck.core.model import Paper
from paperdeck.core.notes import backups
from paperdeck.core.notes.codec import (
    MAX_FILE_BYTES,
    BadFile,
    FileCodec,
    NewerSchema,
    NotNotes,
    salvage,
)
from paperdeck.core.notes.entry import (
    CITATION_KEY,
    FIELD_PATTERN,
    STATES,
    NoteEntry,
    clean_correction,
    excerpt_of,
    fingerprint,
    unique_tags,
)
from paperdeck.core.notes.lock import LockBusy, exclusive_lock
from paperdeck.core.notes.merge import CONFLICT_END, CONFLICT_START, merge_three, merge_two
from paperdeck.core.plumbing.atomic_write import atomic_write, fsync_folder
from paperdeck.core.plumbing.regular_file import read_regular
from paperdeck.core.text.sanitize import clean_line, clean_text
from paperdeck.core.text.wording import plural

REATTACH_CUTOFF = 90.0
"""Least rapidfuzz ratio (0-100) between two abstracts' fingerprints to move a note."""

_Signature = tuple[int, int, int, int, int]


class NotesSaveError(PaperdeckError):
    """The notes could not be written; they are still in memory and the next save retries."""


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
        self.with_abstract: Callable[[Paper], Paper] | None = None
        """Gives a paper loaded without its abstract (`load_library(abstracts=False)`) the
        abstract an entry's excerpt is taken from; None: papers come with theirs."""
        self._entries: dict[str, NoteEntry] = {}
        self._view: Mapping[str, NoteEntry] = MappingProxyType(self._entries)
        # The file as this store last read or wrote it: the base of three-way merges.
        self._base: dict[str, NoteEntry] = {}
        self._disk_bytes: bytes | None = None
        self._disk_signature: _Signature | None = None
        self._changed: set[str] = set()
        self._codec = FileCodec()
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

    def refresh(self) -> bool:
        """Take in what another paperdeck saved since this store last read or wrote the file.

        Only while nothing here is unsaved (a save merges both sides then); a file that cannot
        be read now is left for the next save to deal with. True when the entries changed.
        """
        with self._mutex:
            if self._changed:
                return False
            try:
                status = os.stat(self.path)
                if self._disk_bytes is not None and _signature(status) == self._disk_signature:
                    return False
                data, signature = _read_file(self.path)
                if data == self._disk_bytes:
                    self._disk_signature = signature
                    return False
                entries = self._parse(data)
            except (OSError, BadFile, NewerSchema, PaperdeckError):
                return False
            self._adopt(data, entries, signature)
            return True

    # -- changing --------------------------------------------------------------------------

    def set_note(self, paper: Paper, text: str) -> None:
        """Replace the paper's note."""
        self._update(paper, note=clean_text(text))

    def set_tags(self, paper: Paper, tags: Iterable[str]) -> None:
        """Replace the paper's tags (normalised, duplicates dropped, order kept)."""
        self._update(paper, tags=unique_tags(tags))

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
        if not FIELD_PATTERN.fullmatch(field):
            raise ValueError(f"not a correctable field: {field!r}")
        current = self._entries.get(paper.id)
        corrections = dict(current.corrections) if current is not None else {}
        cleaned = clean_correction(value)
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
                merged, conflict = merge_two(ours, theirs, f"imported from {source}")
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
                    "excerpt": excerpt_of(self._whole(paper)),
                    "list_name": clean_line(paper.list_name),
                }
            self._entries[paper.id] = replace(base, **changes, **stamps)
            self._changed.add(paper.id)

    def _whole(self, paper: Paper) -> Paper:
        if paper.abstract or self.with_abstract is None:
            return paper
        return self.with_abstract(paper)

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
            fsync_folder(self.path.parent.parent)  # so that the new folder itself lasts
        with self._locked():
            disk, disk_entries = self._read_for_merge()
            theirs = self._base if disk_entries is None else disk_entries
            merged = dict(theirs)
            for paper_id in sorted(self._changed):
                result, conflict = merge_three(
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
            data = self._codec.encode(merged)
            if data != disk:
                self._replace_file(data, disk)
            self._adopt(data, merged, _signature(os.stat(self.path)))

    def _replace_file(self, data: bytes, disk: bytes | None) -> None:
        """Write `data` as the file; the backups move down only once it is written."""
        if disk is not None and not os.stat(self.path).st_mode & 0o222:
            # Made read-only by its owner: a rename would replace it all the same (the folder
            # allows it), so the wish is kept here.
            raise NotesSaveError(
                f"not saving notes: {self.path} is read-only (no write permission is set)"
            )
        held = backups.hold(self.path, disk) if disk is not None else None
        try:
            atomic_write(self.path, data)
        except BaseException:
            if held is not None:
                backups.release(held)
            raise
        if held is not None:
            try:
                backups.rotate(self.path, held)
            except OSError as error:
                self.messages.append(f"could not keep a backup of the notes: {_reason(error)}")

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
        except NewerSchema as error:
            raise NotesSaveError(
                f"not saving notes: {self.path} was written by a newer paperdeck "
                f"(schema version {error.version})"
            ) from None
        except BadFile as error:
            if _someone_elses(self.path, data, error):
                raise NotesSaveError(f"not saving notes: {_not_notes(self.path, error)}") from None
            restored, entries = self._recover(str(error))
            # A backup may be older than what this store last read: per paper, the newer
            # side is kept, and nothing is taken as deleted.
            for paper_id, entry in self._base.items():
                other = entries.get(paper_id)
                if other is None or entry.updated >= other.updated:
                    entries[paper_id] = entry
            return restored, entries

    def _parse(self, data: bytes) -> dict[str, NoteEntry]:
        return self._codec.decode(data)

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

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        with contextlib.ExitStack() as stack:
            try:
                stack.enter_context(
                    exclusive_lock(self.path.with_name(self.path.name + ".lock"), self.lock_timeout)
                )
            except LockBusy:
                raise NotesSaveError(
                    f"could not save notes: {self.path} is locked by another paperdeck "
                    f"(waited {self.lock_timeout:g} s)"
                ) from None
            _remove_stale_temporaries(self.path)
            yield

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
        except NewerSchema as error:
            self.messages.append(
                f"the notes file {self.path} was written by a newer paperdeck (schema version "
                f"{error.version}); it is left alone and notes are not saved"
            )
        except BadFile as error:
            if _someone_elses(self.path, data, error):
                self.messages.append(
                    f"{_not_notes(self.path, error)}: it is left alone and notes are not saved"
                )
                return
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
                    except NewerSchema:
                        self._load()
                        return
                    except BadFile as error:
                        if _someone_elses(self.path, data, error):
                            self.messages.append(
                                f"{_not_notes(self.path, error)}: it is left alone and notes "
                                "are not saved"
                            )
                            return
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
            found = backups.newest_good_backup(self.path)
            if found is not None:
                backup, _, entries = found
                # What the restore will put on disk is what this session's edits start from.
                self._entries.update(entries)
                self._base = dict(entries)
                message += f"; showing the backup {backup.name}"
            self.messages.append(message)

    def _recover(self, reason: str) -> tuple[bytes | None, dict[str, NoteEntry]]:
        """Move the unreadable file aside and put the newest good backup in its place."""
        # A symbolic link stays one: what it points to is moved aside and replaced.
        target = Path(os.path.realpath(self.path))
        aside = backups.aside_path(target)
        os.replace(target, aside)
        fsync_folder(target.parent)
        found = backups.newest_good_backup(self.path)
        told = f"the notes file {self.path} could not be read ({reason}); moved it to {aside}"
        try:
            kept = salvage(_read_file(aside)[0])
        except OSError:
            kept = None
        salvaged, lost = kept if kept is not None else ({}, 0)
        if found is None:
            if not salvaged:
                self.messages.append(f"{told}; no good backup, starting with no notes")
                return None, {}
            data = self._codec.encode(salvaged)
            atomic_write(self.path, data)
            self.messages.append(
                f"{told}; no good backup: kept its notes on {plural(len(salvaged), 'paper')}; "
                f"those on {plural(lost, 'paper')} did not read and are only in the file moved "
                "aside"
            )
            return data, salvaged
        backup, data, entries = found
        # What the damaged file still holds newer than the backup is not left behind in it.
        newer = {
            paper_id: entry
            for paper_id, entry in salvaged.items()
            if paper_id not in entries or entry.updated > entries[paper_id].updated
        }
        if newer:
            entries = {**entries, **newer}
            data = self._codec.encode(entries)
        atomic_write(self.path, data)
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(backup.stat().st_mtime))
        also = f", with the newer notes on {plural(len(newer), 'paper')} it held" if newer else ""
        self.messages.append(f"{told} and restored the backup from {when} ({backup.name}){also}")
        return data, entries


def _signature(status: os.stat_result) -> _Signature:
    """What changes when a file is replaced or rewritten."""
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


def _someone_elses(path: Path, data: bytes, error: BadFile) -> bool:
    """Whether a file that does not read as notes is not a damaged notes file but another one
    the notes path names by mistake (`--notes paper.pdf`, `--notes list.txt`): moving it aside
    and writing notes in its place would take the user's file away.

    A file paperdeck has saved over before (it has backups) is its own, whatever it holds now;
    else only one that begins as JSON does (a torn write leaves the start), or that holds
    nothing (emptied or zeroed by a crash) and so loses nothing when moved aside.
    """
    if any(backups.backup_path(path, number).exists() for number in range(1, backups.BACKUPS + 1)):
        return False
    if isinstance(error, NotNotes):
        return True
    start = data.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n\x00")
    return bool(start) and not start.startswith(b"{")


def _not_notes(path: Path, error: BadFile) -> str:
    return f"the notes file {path} is not a paperdeck notes file ({error})"


def _read_file(path: Path) -> tuple[bytes, _Signature]:
    """A regular file's bytes and the signature of the very file they were read from.

    A device or pipe is refused: reading could block, and moving it aside as a damaged notes
    file would be a disaster (think --notes /dev/null).
    """
    data, status = read_regular(path, MAX_FILE_BYTES)
    return data, _signature(status)


def _remove_stale_temporaries(path: Path) -> None:
    # Only lock holders write temporaries, so any left now belong to a process that died.
    prefixes = (f".{path.name}.tmp-", f".{path.name}.bak1.tmp-")
    with contextlib.suppress(OSError):
        for leftover in path.parent.iterdir():
            if leftover.name.startswith(prefixes):
                with contextlib.suppress(OSError):
                    leftover.unlink()


def _reason(error: OSError) -> str:
    return error.strerror or str(error) or type(error).__name__

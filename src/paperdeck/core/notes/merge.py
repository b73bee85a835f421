"""Merging two versions of a paper's entry: three-way after a rival save, two-way at import."""

from __future__ import annotations

import difflib
import time
from types import MappingProxyType
from typing import Any

from paperdeck.core.notes.entry import NoteEntry

CONFLICT_START = "<<<<<<< this paperdeck"
CONFLICT_MIDDLE = "======="
CONFLICT_END = ">>>>>>>"


def merge_three(
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


def merge_two(ours: NoteEntry | None, theirs: NoteEntry, label: str) -> tuple[NoteEntry, bool]:
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

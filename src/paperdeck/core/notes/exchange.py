"""Notes exchange formats: export to JSON or Markdown, and read either back for import."""

from __future__ import annotations

import bisect
import json
import re
import time
from collections.abc import Mapping, Sequence
from typing import Any

from paperdeck.core.errors import PaperdeckError
from paperdeck.core.model import Paper
from paperdeck.core.notes.codec import entry_from_json, entry_to_json, parse_document, salvage
from paperdeck.core.notes.entry import NoteEntry
from paperdeck.core.notes.store import NotesStore
from paperdeck.core.plumbing.safe_json import load_json
from paperdeck.core.text.sanitize import clean_line
from paperdeck.core.text.wording import plural

_START_LINE = re.compile(r"<!-- paperdeck-note (\S+) (\{.*\}) -->")
_END_LINE = re.compile(r"<!-- end paperdeck-note (\S+) -->")
_LINES = "lines"
"""The key of a markdown block's details that says how many lines its note takes."""


def _ordered(store: NotesStore, papers: Sequence[Paper]) -> list[tuple[NoteEntry, Paper | None]]:
    """Noted papers in list order, then notes whose paper is not open."""
    seen: set[str] = set()
    out: list[tuple[NoteEntry, Paper | None]] = []
    for paper in papers:
        entry = store.get(paper.id)
        if entry is not None and not entry.is_empty and paper.id not in seen:
            seen.add(paper.id)
            out.append((entry, paper))
    out.extend((entry, None) for entry in store.orphans(papers))
    return out


def _title(entry: NoteEntry, paper: Paper | None) -> str:
    corrected = entry.corrections.get("title")
    if isinstance(corrected, str) and corrected:
        return corrected
    if paper is not None:
        # A made-up title cut with … to fit a row is exported whole, as citations give it.
        return clean_line(paper.whole_title)
    excerpt = entry.excerpt if len(entry.excerpt) <= 80 else entry.excerpt[:79] + "…"
    return f"(not in the open lists) {excerpt}"


def export_json(store: NotesStore, papers: Sequence[Paper], keys: Mapping[str, str]) -> str:
    """The notes as the notes file stores them, plus each paper's title and citation key."""
    out: dict[str, Any] = {}
    for entry, paper in _ordered(store, papers):
        item = entry_to_json(entry)
        item["title"] = _title(entry, paper)
        if paper is not None and paper.id in keys:
            item["citation_key"] = keys[paper.id]
        out[entry.paper_id] = item
    document = {"version": 1, "exported": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "papers": out}
    return json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def export_markdown(store: NotesStore, papers: Sequence[Paper], keys: Mapping[str, str]) -> str:
    """One section per paper: title, citation key, state, tags, then the note.

    Each note sits between HTML comments (invisible when rendered) that carry the rest of the
    entry and the note's number of lines, so `paperdeck notes import` reads the file back
    exactly: a note holding marker lines is read by its length, not cut at them. Text from a
    list (titles, list names) is escaped, so that it can neither start a line nor hold a
    comment, and cannot pass for a note block.
    """
    ordered = _ordered(store, papers)
    when = time.strftime("%Y-%m-%d %H:%M")
    parts = [f"# paperdeck notes\n\n{plural(len(ordered), 'paper')}, exported {when}.\n"]
    for entry, paper in ordered:
        lines = [f"## {_escaped(_title(entry, paper))}", ""]
        if paper is not None and paper.id in keys:
            lines.append(f"- Citation key: `{_escaped(keys[paper.id])}`")
        lines.append(f"- State: {entry.state}{', starred' if entry.starred else ''}")
        if entry.tags:
            lines.append(f"- Tags: {_escaped(', '.join(entry.tags))}")
        where = f"{paper.list_name} #{paper.position}" if paper else entry.list_name or "?"
        lines.append(f"- Paper: `{entry.paper_id}` ({_escaped(where)})")
        meta = entry_to_json(entry)
        note = meta.pop("note")
        meta[_LINES] = note.count("\n") + 1
        # "--" would end the comment early; JSON reads "\u002d" back as "-".
        encoded = json.dumps(meta, sort_keys=True, ensure_ascii=False).replace("--", "-\\u002d")
        lines += [
            "",
            f"<!-- paperdeck-note {entry.paper_id} {encoded} -->",
            note,
            _end_marker(entry.paper_id),
        ]
        parts.append("\n".join(lines) + "\n")
    return "\n".join(parts)


def _escaped(text: str) -> str:
    """One line of list text, safe in Markdown: no HTML comment or tag can start in it."""
    return clean_line(text).replace("&", "&amp;").replace("<", "&lt;")


def _end_marker(paper_id: str) -> str:
    return f"<!-- end paperdeck-note {paper_id} -->"


def read_export(text: str, name: str) -> tuple[dict[str, NoteEntry], int]:
    """Entries of an export, and how many of a JSON one's entries did not read.

    A notes file moved aside as damaged is often one paper stored wrong (a state this
    paperdeck does not know): every other paper's note in it is still worth importing.
    Only a whole file that is no export, or an export with no entry that reads, is refused.
    """
    try:
        return parse_export(text, name), 0
    except PaperdeckError:
        if not text.lstrip().startswith("{"):
            raise
        kept = salvage(text.encode("utf-8", "surrogatepass"))
        if kept is None or not kept[0]:
            raise
        return kept


def parse_export(text: str, name: str) -> dict[str, NoteEntry]:
    """Entries of a JSON or markdown export; PaperdeckError when `text` is neither.

    A markdown export is read line by line in one pass: a block's note is as many lines as
    its start says (older exports, without the count, end at the block's end marker), and a
    block without its end refuses the whole file rather than import part of a note.
    """
    text = text.replace("\r\n", "\n")
    if text.lstrip().startswith("{"):
        try:
            return parse_document(text)
        except PaperdeckError as error:
            raise PaperdeckError(f"{name}: not a paperdeck notes export ({error})") from None
    lines = text.split("\n")
    ends: dict[str, list[int]] = {}
    for number, line in enumerate(lines):
        found = _END_LINE.fullmatch(line)
        if found is not None:
            ends.setdefault(found.group(1), []).append(number)
    entries: dict[str, NoteEntry] = {}
    number = 0
    while number < len(lines):
        start = _START_LINE.fullmatch(lines[number])
        if start is None:
            number += 1
            continue
        paper_id, encoded = start.groups()
        try:
            value = load_json(encoded)
            if not isinstance(value, dict):
                raise ValueError("the note's details are not an object")
            count = value.pop(_LINES, None)
            if count is None:  # an export from before the line count
                later = bisect.bisect_right(ends.get(paper_id, []), number)
                end = ends[paper_id][later] if later < len(ends.get(paper_id, [])) else -1
            elif isinstance(count, int) and not isinstance(count, bool) and count >= 1:
                end = number + 1 + count
                if end >= len(lines) or lines[end] != _end_marker(paper_id):
                    end = -1
            else:
                raise ValueError("its line count is not a number of lines")
            if end < 0:
                raise PaperdeckError(
                    f"{name}: the note of {clean_line(paper_id)[:40]} at line {number + 1} has "
                    "no end (the file is cut short or was edited); nothing imported"
                )
            value["note"] = "\n".join(lines[number + 1 : end])
            entries[paper_id] = entry_from_json(paper_id, value)
        except ValueError as error:
            raise PaperdeckError(
                f"{name}: a note of {clean_line(paper_id)[:40]} is damaged ({error})"
            ) from None
        number = end + 1
    if not entries and "paperdeck-note" not in text:
        raise PaperdeckError(f"{name}: not a paperdeck notes export (JSON or markdown)")
    return entries

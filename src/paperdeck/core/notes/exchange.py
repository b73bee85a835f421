"""Notes exchange formats: export to JSON or Markdown, and read either back for import."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping, Sequence
from typing import Any

from paperdeck.core.errors import PaperdeckError
from paperdeck.core.model import Paper
from paperdeck.core.notes.codec import entry_from_json, entry_to_json, parse_document
from paperdeck.core.notes.entry import NoteEntry
from paperdeck.core.notes.store import NotesStore
from paperdeck.core.text.sanitize import clean_line

_NOTE_BLOCK = re.compile(
    r"<!-- paperdeck-note (\S+) (\{.*?\}) -->\n(.*?)\n<!-- end paperdeck-note \1 -->", re.S
)


def _count(number: int) -> str:
    return f"{number} paper{'' if number == 1 else 's'}"


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
        return clean_line(paper.title)
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
    entry, so `paperdeck notes import` can read the file back exactly.
    """
    ordered = _ordered(store, papers)
    when = time.strftime("%Y-%m-%d %H:%M")
    parts = [f"# paperdeck notes\n\n{_count(len(ordered))}, exported {when}.\n"]
    for entry, paper in ordered:
        lines = [f"## {_title(entry, paper)}", ""]
        if paper is not None and paper.id in keys:
            lines.append(f"- Citation key: `{keys[paper.id]}`")
        lines.append(f"- State: {entry.state}{', starred' if entry.starred else ''}")
        if entry.tags:
            lines.append(f"- Tags: {', '.join(entry.tags)}")
        where = f"{paper.list_name} #{paper.position}" if paper else entry.list_name or "?"
        lines.append(f"- Paper: `{entry.paper_id}` ({where})")
        meta = entry_to_json(entry)
        del meta["note"]
        # "--" would end the comment early; JSON reads "\u002d" back as "-".
        encoded = json.dumps(meta, sort_keys=True, ensure_ascii=False).replace("--", "-\\u002d")
        lines += [
            "",
            f"<!-- paperdeck-note {entry.paper_id} {encoded} -->",
            entry.note,
            f"<!-- end paperdeck-note {entry.paper_id} -->",
        ]
        parts.append("\n".join(lines) + "\n")
    return "\n".join(parts)


def parse_export(text: str, name: str) -> dict[str, NoteEntry]:
    """Entries of a JSON or markdown export; PaperdeckError when `text` is neither."""
    text = text.replace("\r\n", "\n")
    if text.lstrip().startswith("{"):
        try:
            return parse_document(text)
        except PaperdeckError as error:
            raise PaperdeckError(f"{name}: not a paperdeck notes export ({error})") from None
    entries: dict[str, NoteEntry] = {}
    for match in _NOTE_BLOCK.finditer(text):
        paper_id, encoded, note = match.groups()
        try:
            value = json.loads(encoded)
            if not isinstance(value, dict):
                raise ValueError("the note's details are not an object")
            value["note"] = note
            entries[paper_id] = entry_from_json(paper_id, value)
        except ValueError as error:
            raise PaperdeckError(f"{name}: a note of {paper_id} is damaged ({error})") from None
    if not entries and "paperdeck-note" not in text:
        raise PaperdeckError(f"{name}: not a paperdeck notes export (JSON or markdown)")
    return entries

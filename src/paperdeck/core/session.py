"""Where the reader left each list: the cursor's paper, the query, the views and the marks.

Kept in one small JSON file beside the settings (core.config.sessions_path), one entry per list,
keyed by the lists' resolved paths. Papers are named by id, so a list edited since still gets
back every paper that is still in it; the most recently used lists are kept, the rest dropped.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paperdeck.core.plumbing.atomic_write import atomic_write
from paperdeck.core.text.sanitize import clean_line

MAX_LISTS = 100
"""Lists remembered; the least recently used go first."""
MAX_FILE_BYTES = 4 * 1024 * 1024
"""A sessions file larger than this is not ours to read (nor is it rewritten from scratch)."""
MAX_MARKS = 200_000
MAX_QUERY = 1000
MAX_SEARCHES = 50
VERSION = 1


@dataclass
class ListSession:
    """One list's reader state."""

    paper_id: str | None = None
    query: str = ""
    views: list[str] = field(default_factory=list)
    marked: list[str] = field(default_factory=list)
    """Ids of the marked papers, in list order."""
    used: float = 0.0
    searches: list[str] = field(default_factory=list)
    """The queries searched on this list, the most recent last (↑ in the search field)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "paper": self.paper_id,
            "query": self.query,
            "views": list(self.views),
            "marked": list(self.marked),
            "used": self.used,
            "searches": list(self.searches[-MAX_SEARCHES:]),
        }


def session_key(paths: Iterable[Path]) -> str:
    """The identity of an opened set of lists: their resolved paths, in order."""
    resolved = []
    for path in paths:
        try:
            resolved.append(str(Path(path).resolve()))
        except (OSError, RuntimeError):
            resolved.append(str(Path(path).absolute()))
    return "\n".join(resolved)


def _read(path: Path) -> dict[str, Any]:
    """The file's list entries; {} when it is missing, too big, or not a sessions file."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            return {}
        document = json.loads(data.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    lists = document.get("lists") if isinstance(document, dict) else None
    return lists if isinstance(lists, dict) else {}


def _ids(value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    return [clean_line(item) for item in value[:MAX_MARKS] if isinstance(item, str) and item]


def _parse(value: Any) -> ListSession | None:
    if not isinstance(value, dict):
        return None
    paper = value.get("paper")
    query = value.get("query")
    used = value.get("used")
    return ListSession(
        paper_id=clean_line(paper) if isinstance(paper, str) and paper else None,
        query=clean_query(query) if isinstance(query, str) else "",
        views=_ids(value.get("views")),
        marked=_ids(value.get("marked")),
        used=float(used) if isinstance(used, int | float) and not isinstance(used, bool) else 0.0,
        searches=_queries(value.get("searches")),
    )


def _queries(value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    queries: list[str] = []
    for item in value[-MAX_SEARCHES:]:
        if isinstance(item, str):
            queries = with_search(queries, item)
    return queries


def clean_query(text: str) -> str:
    """A query as typed, made safe to keep: no control characters, a run of spaces one, none
    before the first word, "" when blank. A space after the last word stays: it finishes that
    word (`coin ` leaves out coincide, `coin` finds it)."""
    line = clean_line(text)[:MAX_QUERY]
    return f"{line} " if line and text[-1:].isspace() and len(line) < MAX_QUERY else line


def with_search(searches: list[str], query: str) -> list[str]:
    """The searches with `query` (cleaned) as the latest, at most MAX_SEARCHES, a blank one not
    added. An earlier query only trailing spaces tell apart from it goes: the two look the same
    in the field, where ↑ would show the same words twice."""
    kept = clean_query(query)
    if not kept:
        return searches[-MAX_SEARCHES:]
    words = kept.rstrip()
    return [*(past for past in searches if past.rstrip() != words), kept][-MAX_SEARCHES:]


def load_session(path: Path, key: str) -> ListSession | None:
    """The saved state of the lists `key` names, None when there is none (or it is unreadable)."""
    return _parse(_read(path).get(key))


def recent_lists(path: Path) -> list[Path]:
    """The single lists the sessions file remembers that still exist, most recently used first."""
    entries: list[tuple[float, Path]] = []
    for key, value in _read(path).items():
        parsed = _parse(value)
        if parsed is None or not isinstance(key, str) or not key or "\n" in key:
            continue  # lists opened together are not one file to open again
        listed = Path(clean_line(key))
        if listed.is_file():
            entries.append((parsed.used, listed))
    return [listed for _, listed in sorted(entries, key=lambda entry: -entry[0])]


def save_session(path: Path, key: str, session: ListSession) -> str | None:
    """Remember `session` for `key`, atomically; a one-line error instead of raising."""
    lists = _read(path)
    session.used = time.time()
    lists[key] = session.to_json()
    if len(lists) > MAX_LISTS:

        def used(item: tuple[str, Any]) -> float:
            parsed = _parse(item[1])
            return parsed.used if parsed is not None else 0.0

        lists = dict(sorted(lists.items(), key=used)[-MAX_LISTS:])
    text = json.dumps({"version": VERSION, "lists": lists}, ensure_ascii=False, indent=1)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, text + "\n")
    except OSError as error:
        return f"could not save the reading position to {path}: {error.strerror or error}"
    return None


def marked_ids(ids: Sequence[str], marked: Iterable[int]) -> list[str]:
    """The ids of the marked papers (indices into `ids`), in list order."""
    return [ids[index] for index in sorted(marked) if 0 <= index < len(ids)]

"""Keeping online matches in a list's `NAME.meta.jsonl`, beside what the user put there."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from paperdeck.core.errors import PaperdeckError
from paperdeck.core.formats import RawList
from paperdeck.core.formats.sidecar import sidecar_path
from paperdeck.core.model import Paper
from paperdeck.core.plumbing.atomic_write import atomic_write


def add_to_sidecar(list_path: Path, records: Sequence[dict[str, Any]]) -> Path:
    """Write `records` into the list's sidecar atomically, keeping every line already there
    except earlier online matches of the same papers (a re-asked paper's line is replaced).
    Raises OSError."""
    path = sidecar_path(list_path)
    replaced = {str(record.get("id")) for record in records}
    kept: list[str] = []
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not _earlier_online_match(line, replaced):
                kept.append(line)
    new = [json.dumps(record, ensure_ascii=False) for record in records]
    atomic_write(path, "".join(f"{line}\n" for line in [*kept, *new]))
    return path


def _earlier_online_match(line: str, ids: set[str]) -> bool:
    try:
        record = json.loads(line)
    except ValueError:
        return False
    return isinstance(record, dict) and "online" in record and str(record.get("id")) in ids


def save_matches(
    lists: Sequence[RawList],
    counts: Sequence[int],
    papers: Sequence[Paper],
    matched: Mapping[str, dict[str, Any]],
) -> list[Path]:
    """Add each list's matches to its sidecar: `papers` are the lists' papers in order,
    `counts[i]` of them from `lists[i]` (Library.counts; a list from the store has no records).
    Returns the sidecars written; raises PaperdeckError naming one that cannot be written."""
    written: list[Path] = []
    start = 0
    for raw, count in zip(lists, counts, strict=True):
        own = papers[start : start + count]
        start += count
        records = [matched[paper.id] for paper in own if paper.id in matched]
        if not records:
            continue
        try:
            written.append(add_to_sidecar(raw.path, records))
        except (OSError, UnicodeDecodeError) as error:
            reason = error.strerror if isinstance(error, OSError) else "it is not UTF-8"
            raise PaperdeckError(
                f"{sidecar_path(raw.path)}: cannot add the matches: {reason or error}"
            ) from None
    return written

"""One paper list as read from disk, before ids and titles, and the format names."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT_NAMES: tuple[str, ...] = ("txt", "jsonl", "json", "bib", "csv")

HEAD_BYTES = 8192


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

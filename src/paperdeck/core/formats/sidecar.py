"""Where a list's metadata sidecar lives: `NAME.meta.jsonl` beside `NAME.txt`."""

from __future__ import annotations

from pathlib import Path

SIDECAR_SUFFIX = ".meta.jsonl"


def sidecar_path(list_path: Path) -> Path:
    """Where `NAME.txt`'s metadata goes: `NAME.meta.jsonl` beside it."""
    return list_path.with_name(list_path.stem + SIDECAR_SUFFIX)


def sidecar_for(path: Path) -> Path | None:
    """`NAME.meta.jsonl` beside `NAME.txt`, when it exists (never the list itself)."""
    candidate = sidecar_path(path)
    return candidate if candidate != path and candidate.is_file() else None

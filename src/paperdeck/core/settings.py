"""The reader's remembered settings (theme, sort, citation format, rows) in a small JSON file."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from paperdeck.core.config import settings_path as settings_path
from paperdeck.core.plumbing.atomic_write import atomic_write


@dataclass
class Settings:
    """What the reader remembers between runs."""

    theme: str = "textual-dark"
    sort: str = "relevance"
    citation_format: str = "bibtex"
    rows: str = "auto"
    """The paper list's rows: "two-line", "compact" (one line a paper) or "auto"."""


def load_settings(path: Path) -> Settings:
    """The settings in `path`; defaults for anything missing, unreadable or of the wrong type."""
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Settings()
    settings = Settings()
    if isinstance(data, dict):
        for field in fields(Settings):
            value = data.get(field.name)
            if isinstance(value, str) and value:
                setattr(settings, field.name, value)
    return settings


def save_settings(path: Path, settings: Settings) -> str | None:
    """Write atomically; return a one-line error instead of raising (settings are not precious)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, json.dumps(asdict(settings), indent=2, sort_keys=True) + "\n")
    except OSError as error:
        return f"could not save settings to {path}: {error.strerror or error}"
    return None

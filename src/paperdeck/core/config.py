"""Every setting read from the environment, and every path paperdeck keeps files in, in one place.

| variable | what it sets | default |
|---|---|---|
| `PAPERDECK_NOTES` | the notes file | the user data folder's `notes.json` |
| `PAPERDECK_CACHE` | the cache folder (`off`: no cache) | the user cache folder |
| `PAPERDECK_CONFIG` | the reader's settings file | the user config folder's `settings.json` |
| `PAPERDECK_HELPERS` | helper processes a big job may start (`0`: none) | one per spare core |
"""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "paperdeck"
NOTES_ENV = "PAPERDECK_NOTES"
CACHE_ENV = "PAPERDECK_CACHE"
CONFIG_ENV = "PAPERDECK_CONFIG"
HELPERS_ENV = "PAPERDECK_HELPERS"
SETTINGS_NAME = "settings.json"


def notes_path(option: str | None = None) -> Path:
    """The notes file: `--notes FILE`, else $PAPERDECK_NOTES, else the user data folder."""
    if option:
        return Path(option).expanduser()
    from_env = os.environ.get(NOTES_ENV)
    if from_env:
        return Path(from_env).expanduser()
    import platformdirs

    return platformdirs.user_data_path(APP_NAME) / "notes.json"


def cache_dir() -> Path | None:
    """`$PAPERDECK_CACHE`, else the user cache folder; None when caching is off."""
    from_env = os.environ.get(CACHE_ENV)
    if from_env is not None and from_env.strip():
        if from_env.strip().lower() == "off":
            return None
        return Path(from_env).expanduser()
    import platformdirs

    return platformdirs.user_cache_path(APP_NAME)


def settings_path() -> Path:
    """`$PAPERDECK_CONFIG` (a file) when set, else the user config folder's settings.json."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return platformdirs.user_config_path(APP_NAME) / SETTINGS_NAME


def helpers_wanted() -> int | None:
    """`$PAPERDECK_HELPERS` when it is a number; None (one per spare core) otherwise."""
    setting = os.environ.get(HELPERS_ENV, "").strip()
    return int(setting) if setting.isdigit() else None

"""Every setting read from the environment, and every path paperdeck keeps files in, in one place.

| variable | what it sets | default |
|---|---|---|
| `PAPERDECK_NOTES` | the notes file | the user data folder's `notes.json` |
| `PAPERDECK_CACHE` | the cache folder (`off`: no cache) | the user cache folder |
| `PAPERDECK_CONFIG` | the reader's settings file | the user config folder's `settings.json` |
| (none) | where each list was left: cursor, query, views, marks | `sessions.json` by the settings |
| `PAPERDECK_HELPERS` | helper processes a big job may start (`0`: none) | one per spare core |
| `PAPERDECK_EMAIL` | the address sent to OpenAlex and Crossref (polite pools) | none |
| `OPENALEX_API_KEY` | OpenAlex's `api_key` | none |
| `S2_API_KEY` | Semantic Scholar's `x-api-key` | none |
| `PAPERDECK_OPENALEX_URL` | OpenAlex's base URL (a mirror, a test server) | api.openalex.org |
| `PAPERDECK_ARXIV_URL` | the arXiv API's base URL | export.arxiv.org/api |
| `PAPERDECK_S2_URL` | Semantic Scholar's Graph API base URL | api.semanticscholar.org/graph/v1 |
| `PAPERDECK_CROSSREF_URL` | Crossref's REST API base URL | api.crossref.org |
| `PAPERDECK_PACING` | `off`: no pause between requests to a source (a mirror) | the source's |
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
EMAIL_ENV = "PAPERDECK_EMAIL"
PACING_ENV = "PAPERDECK_PACING"
API_KEY_ENVS = {"openalex": "OPENALEX_API_KEY", "s2": "S2_API_KEY"}
BASE_URL_ENVS = {
    "openalex": ("PAPERDECK_OPENALEX_URL", "https://api.openalex.org"),
    "arxiv": ("PAPERDECK_ARXIV_URL", "https://export.arxiv.org/api"),
    "s2": ("PAPERDECK_S2_URL", "https://api.semanticscholar.org/graph/v1"),
    "crossref": ("PAPERDECK_CROSSREF_URL", "https://api.crossref.org"),
}
SESSIONS_NAME = "sessions.json"


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


def sessions_path(settings: Path | None = None) -> Path:
    """Where the reader keeps each list's cursor, query, views and marks: beside the settings
    file (`settings`, else the one settings_path() names)."""
    return (settings or settings_path()).parent / SESSIONS_NAME


def helpers_wanted() -> int | None:
    """`$PAPERDECK_HELPERS` when it is a number; None (one per spare core) otherwise."""
    setting = os.environ.get(HELPERS_ENV, "").strip()
    return int(setting) if setting.isascii() and setting.isdigit() and len(setting) < 4 else None


def contact_email() -> str | None:
    """`$PAPERDECK_EMAIL`, sent to the sources that keep a polite pool for callers who give one."""
    email = os.environ.get(EMAIL_ENV, "").strip()
    return email or None


def api_key(source: str) -> str | None:
    """The API key for `source` ("openalex", "s2") from its environment variable, if set."""
    name = API_KEY_ENVS.get(source)
    key = os.environ.get(name, "").strip() if name else ""
    return key or None


def base_url(source: str) -> str:
    """The base URL of an online source ("openalex", "arxiv", "s2", "crossref"), no final /."""
    name, default = BASE_URL_ENVS[source]
    return (os.environ.get(name, "").strip() or default).rstrip("/")


def pacing_wanted() -> bool:
    """False when `$PAPERDECK_PACING` is `off`: the sources' own pacing is skipped."""
    return os.environ.get(PACING_ENV, "").strip().lower() != "off"

"""Where the shipped seeds and styles live, from a wheel or from a source checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent.parent


def _shipped_dir(name: str) -> Path:
    # A wheel carries the folder inside the package; a source checkout keeps it at the top level.
    inside = _PACKAGE_DIR / name
    if inside.is_dir():
        return inside
    return _PACKAGE_DIR.parent.parent / name


def seeds_dir() -> Path:
    """The folder of bundled paper lists."""
    return _shipped_dir("seeds")


def styles_dir() -> Path:
    """The folder of `.tcss` style sheets."""
    return _shipped_dir("styles")


def bundled_list() -> Path:
    """The list paperdeck opens when given no path: ICML 2026."""
    return seeds_dir() / "icml2026.txt"

"""Whether a web browser can show a link here, asked of Python's `webbrowser` registry."""

from __future__ import annotations

import webbrowser

# Browsers that draw in the terminal: started from the reader they would fight it for the screen.
_TERMINAL_BROWSERS = frozenset({"www-browser", "links", "elinks", "lynx", "w3m", "links2"})


def usable_browser() -> str | None:
    """The name of the browser `webbrowser.open` would start, None when there is none.

    Without a display (over SSH, in a container) Python registers only text-mode browsers,
    or none: then saying "Opening …" would be a lie.
    """
    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return None
    name = str(getattr(browser, "name", "") or type(browser).__name__)
    base = name.rsplit("/", 1)[-1].split()[0] if name.strip() else name
    if base in _TERMINAL_BROWSERS:
        return None
    return base or type(browser).__name__

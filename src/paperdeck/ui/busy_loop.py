"""Telling work on other threads when the reader's event loop is busy, so it steps aside.

asyncio says nothing of when its loop works: the loop's selector (private) is watched, the
loop being idle while it waits there and busy from when it returns.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from paperdeck.core.plumbing.slices import Foreground


class BusyLoop:
    """While started, `foreground` is busy whenever `loop` runs callbacks."""

    def __init__(self, loop: asyncio.AbstractEventLoop, foreground: Foreground) -> None:
        self._selector: Any = getattr(loop, "_selector", None)
        self._foreground = foreground
        self._select: Callable[..., Any] | None = None

    def start(self) -> None:
        selector = self._selector
        if selector is None or self._select is not None:
            return
        select = self._select = selector.select
        foreground = self._foreground

        def watched(timeout: float | None = None) -> Any:
            foreground.idle()
            try:
                return select(timeout)
            finally:
                foreground.busy()

        selector.select = watched

    def stop(self) -> None:
        if self._select is not None:
            self._selector.select = self._select
            self._select = None
        self._foreground.idle()

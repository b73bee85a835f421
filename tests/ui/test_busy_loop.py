"""The reader's event loop tells the load's thread when it is busy, so the load steps aside."""

from __future__ import annotations

import asyncio
import time

from paperdeck.core.plumbing.slices import Foreground
from paperdeck.ui.busy_loop import BusyLoop


async def test_the_loop_is_busy_while_it_runs_callbacks_and_idle_while_it_waits() -> None:
    loop = asyncio.get_running_loop()
    foreground = Foreground()
    watch = BusyLoop(loop, foreground)
    watch.start()
    try:
        await asyncio.sleep(0)  # back from the selector: this callback runs now
        assert foreground.is_busy
        # Seen from another thread while the loop waits for that thread's answer.
        rested = await loop.run_in_executor(None, lambda: _sees_it_rest(foreground))
        assert rested
        assert foreground.is_busy
    finally:
        watch.stop()
    assert not foreground.is_busy
    await asyncio.sleep(0)
    assert not foreground.is_busy  # stopped: no longer watched


def _sees_it_rest(foreground: Foreground) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if not foreground.is_busy:
            return True
        time.sleep(0.001)
    return False

"""The cycle collector paused for work that makes many short- or long-lived acyclic objects."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cycle collection in the block; what it made is frozen when collection resumes.

    Work that makes millions of acyclic objects (a list's load, a search) has the collector
    scan them again and again as they pile up. Frozen afterwards, they are left out of the
    collector's scans: else its first collection after the block scans every one of them, all
    young. Reference counting still frees them; a cycle among them is left to the exit.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.freeze()
            gc.enable()

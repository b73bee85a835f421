"""A private X server for clipboard tests, on a display number it picks itself."""

from __future__ import annotations

import os
import select
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def private_display() -> Iterator[str]:
    """Xvfb on a free display, as ":N": Xvfb takes the number under its own lock, so tests
    run side by side (pytest-xdist) never pick the same one."""
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-nolisten", "tcp", "-screen", "0", "640x480x24"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        answer = b""
        deadline = time.monotonic() + 10
        # Xvfb writes the number once it takes connections.
        while not answer.endswith(b"\n"):
            left = deadline - time.monotonic()
            assert left > 0 and select.select([read], [], [], left)[0], "Xvfb did not start"
            chunk = os.read(read, 16)
            assert chunk, "Xvfb did not start"
            answer += chunk
        yield f":{int(answer)}"
    finally:
        os.close(read)
        server.terminate()
        server.wait(timeout=10)

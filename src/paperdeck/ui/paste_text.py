"""Bracketed pastes as text: what a terminal pastes never becomes key presses.

Textual's input parser ends a paste's text at the first ESC in it and reads what follows as
keys (a pasted `x ESC ESC jjsrq` moved the cursor, starred, marked read and quit). The filter
here sits in front of that parser: inside a paste it drops ESC and the other control
characters (keeping tab and line breaks), so the parser sees one paste of plain text.
"""

from __future__ import annotations

import re

PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def paste_text(text: str) -> str:
    """Pasted text as it may reach a text field: no ESC, no other control character."""
    return _CONTROLS.sub("", text)


class PasteFilter:
    """Terminal input in, the same input out with each paste's text made plain.

    Input arrives in reads of any size, so a marker may be cut between two. Outside a paste
    everything passes at once (a lone Esc key press is never held back), and a tail that may
    begin the start marker is remembered to recognise its rest in the next read. Inside a
    paste, a tail that may begin the end marker waits for the next read (the end always comes).
    """

    def __init__(self) -> None:
        self.in_paste = False
        self._carry = ""
        self._start_tail = ""

    def __call__(self, data: str) -> str:
        out: list[str] = []
        position = 0
        if self._start_tail:
            rest = PASTE_START[len(self._start_tail) :]
            if data.startswith(rest):
                out.append(rest)
                position = len(rest)
                self.in_paste = True
            elif rest.startswith(data):
                self._start_tail += data
                return data
            self._start_tail = ""
        data = self._carry + data
        self._carry = ""
        while position < len(data):
            marker = PASTE_END if self.in_paste else PASTE_START
            found = data.find(marker, position)
            if found >= 0:
                part = data[position:found]
                out.append(paste_text(part) if self.in_paste else part)
                out.append(marker)
                position = found + len(marker)
                self.in_paste = not self.in_paste
                continue
            kept = _marker_start_at_end(data, marker, position)
            if self.in_paste:
                out.append(paste_text(data[position : len(data) - kept]))
                self._carry = data[len(data) - kept :]
            else:
                out.append(data[position:])
                self._start_tail = data[len(data) - kept :]
            break
        return "".join(out)


def _marker_start_at_end(data: str, marker: str, position: int) -> int:
    """How many characters at the end of data[position:] could begin `marker`."""
    for length in range(min(len(marker) - 1, len(data) - position), 0, -1):
        if data.endswith(marker[:length]):
            return length
    return 0

"""Copying text from a reader's worker thread through every clipboard the core knows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from paperdeck.ui.textual_private import write_to_terminal

if TYPE_CHECKING:
    from textual.app import App

    from paperdeck.core.clipboard import CopyReport


def copy_from_worker(app: App[Any], text: str) -> CopyReport | str:
    """Copy `text` (call it from a worker thread): the report, or in one line why it failed.

    The terminal's OSC 52 sequence is written on the app's own thread, where its driver lives.
    """
    from paperdeck.core.clipboard import copy_text

    def terminal_write(sequence: str) -> None:
        app.call_from_thread(write_to_terminal, app, sequence)

    try:
        return copy_text(text, terminal_write=terminal_write)
    except Exception as error:  # no clipboard failure may take the reader down
        return f"{type(error).__name__}: {error}"


def unconfirmed_reason(report: CopyReport) -> str:
    """Why a copy is not known to have arrived, in sentences for a dialog (the core's errors
    start in lower case, to follow a colon)."""
    parts: list[str] = []
    if report.mechanisms:
        parts.append(f"Sent to {report.describe()}, which cannot confirm it.")
    if report.errors:
        elsewhere = "Not copied anywhere else" if report.mechanisms else "Not copied"
        parts.append(f"{elsewhere}: {'; '.join(report.errors)}.")
    return " ".join(parts)

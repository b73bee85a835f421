"""Damaging a list store file on disk as a failing disk would, for the tests of what reads it."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def damage_table(store_file: Path, table: str) -> None:
    """Overwrite the root page of one of the store's tables or indexes: SQLite finds the file
    malformed when a read goes through that page (the rest of the file reads as before)."""
    with sqlite3.connect(store_file) as db:
        page = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,))
        root = page.fetchone()[0]
        size = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    with store_file.open("r+b") as file:
        file.seek((root - 1) * size)
        file.write(b"\xff" * size)

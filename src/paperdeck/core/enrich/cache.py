"""What each source answered for each paper, kept in SQLite: a paper is never asked twice."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

CACHE_NAME = "enrich-online.sqlite"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    source TEXT NOT NULL,
    key TEXT NOT NULL,
    answer TEXT NOT NULL,
    asked REAL NOT NULL,
    PRIMARY KEY (source, key)
)
"""


class AnswerCache:
    """Answers by (source, key): a paper's candidates, a title's Crossref details.

    Each answer is committed as it arrives, so a run that is stopped resumes where it was.
    `folder` None keeps answers for this run only (the cache is off).
    """

    def __init__(self, folder: Path | None) -> None:
        self.path = folder / CACHE_NAME if folder is not None else None
        self.problem: str | None = None
        """Why the cache file could not be used (answers are then kept for this run only)."""
        self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        if self.path is not None:
            db: sqlite3.Connection | None = None
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path)
                # A commit per answer lets a stopped run resume; in WAL mode with NORMAL sync a
                # commit does not wait for the disk (22 ms each with the default journal here),
                # and a crash loses at most the last answers, which are asked again.
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute(_SCHEMA)
                db.commit()
                return db
            except (OSError, sqlite3.Error) as error:
                self.problem = f"{self.path}: {error}"
                if db is not None:
                    with contextlib.suppress(sqlite3.Error):
                        db.close()
        db = sqlite3.connect(":memory:")
        db.execute(_SCHEMA)
        return db

    def get(self, source: str, key: str) -> Any | None:
        """The answer kept for (source, key), or None when it was never asked."""
        try:
            row = self._db.execute(
                "SELECT answer FROM answers WHERE source = ? AND key = ?", (source, key)
            ).fetchone()
            return None if row is None else json.loads(row[0])
        except (sqlite3.Error, ValueError):
            return None

    def put(self, source: str, key: str, answer: Any) -> None:
        """Keep an answer (replacing an older one) and commit it at once."""
        try:
            self._db.execute(
                "INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?)",
                (source, key, json.dumps(answer, ensure_ascii=False), time.time()),
            )
            self._db.commit()
        except sqlite3.Error as error:
            self.problem = f"{self.path}: {error}"

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._db.close()

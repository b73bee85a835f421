"""Each list's reader state kept beside the settings: saved atomically, read defensively."""

from __future__ import annotations

import json
from pathlib import Path

from paperdeck.core import session as session_module
from paperdeck.core.session import (
    ListSession,
    load_session,
    marked_ids,
    save_session,
    session_key,
)


def test_a_session_comes_back_for_its_list_only(tmp_path: Path) -> None:
    file = tmp_path / "conf" / "sessions.json"
    one = session_key([tmp_path / "a.txt"])
    other = session_key([tmp_path / "b.txt"])
    saved = ListSession(paper_id="abc123", query="bandit", views=["unread"], marked=["x", "y"])
    assert save_session(file, one, saved) is None
    back = load_session(file, one)
    assert back is not None
    assert (back.paper_id, back.query, back.views, back.marked) == (
        "abc123",
        "bandit",
        ["unread"],
        ["x", "y"],
    )
    assert load_session(file, other) is None
    # The same file through a relative path or a link is the same list.
    (tmp_path / "a.txt").write_text("x", encoding="utf-8")
    (tmp_path / "link.txt").symlink_to(tmp_path / "a.txt")
    assert session_key([tmp_path / "link.txt"]) == one


def test_a_damaged_or_hostile_sessions_file_gives_no_session_and_is_replaced(
    tmp_path: Path,
) -> None:
    file = tmp_path / "sessions.json"
    key = session_key([tmp_path / "a.txt"])
    for content in ["{not json", "[" * 100_000, '{"lists": []}', "1" * 5000]:
        file.write_text(content, encoding="utf-8")
        assert load_session(file, key) is None
    file.write_text(
        json.dumps({"lists": {key: {"paper": 5, "query": "a\x1b[31mb", "marked": [1, "ok"]}}}),
        encoding="utf-8",
    )
    back = load_session(file, key)
    assert back is not None
    assert back.paper_id is None and "\x1b" not in back.query and back.marked == ["ok"]
    assert save_session(file, key, ListSession(query="q")) is None
    assert json.loads(file.read_text(encoding="utf-8"))["lists"][key]["query"] == "q"


def test_only_the_most_recently_used_lists_are_kept(tmp_path: Path, monkeypatch: object) -> None:
    file = tmp_path / "sessions.json"
    session_module.MAX_LISTS, limit = 3, session_module.MAX_LISTS
    try:
        for name in "abcde":
            save_session(file, session_key([tmp_path / name]), ListSession(query=name))
    finally:
        session_module.MAX_LISTS = limit
    kept = json.loads(file.read_text(encoding="utf-8"))["lists"]
    assert sorted(entry["query"] for entry in kept.values()) == ["c", "d", "e"]


def test_marked_ids_in_list_order() -> None:
    assert marked_ids(["a", "b", "c"], {2, 0, 7}) == ["a", "c"]


def test_saved_searches_come_back_clean_and_at_most_fifty(tmp_path: Path) -> None:
    file = tmp_path / "sessions.json"
    key = session_key([tmp_path / "a.txt"])
    earlier = [f"query {n}" for n in range(60)]
    written = {"version": 1, "lists": {key: {"searches": [*earlier, 7, "", "\x1b[2Jwiped"]}}}
    file.write_text(json.dumps(written), encoding="utf-8")
    back = load_session(file, key)
    assert back is not None and len(back.searches) <= 50
    assert back.searches[-1] == "wiped" and back.searches[0].startswith("query ")
    assert all(query.isprintable() for query in back.searches)

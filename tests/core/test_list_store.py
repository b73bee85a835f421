"""The list store: a reopened list equals a freshly read one, keyed by content, never trusted."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperdeck.core.citations import wants_abstract
from paperdeck.core.library import Library, load_library
from paperdeck.core.model import Paper
from paperdeck.core.resources import bundled_list
from paperdeck.core.store import columns, database, key
from paperdeck.core.store.database import ListStore
from paperdeck.core.text.sanitize import clean_line, clean_text
from paperdeck.core.titles import derive
from paperdeck.core.titles.derive import cited_title, method_and_title, method_and_titles

SAMPLE = Path(__file__).parents[1] / "data" / "abstracts_sample.txt"
JSONL = Path(__file__).parents[1] / "data" / "icml_sample.jsonl"


def _shown(papers: list[Paper]) -> list[tuple[object, ...]]:
    return [
        (
            *(p.id, p.position, p.title, p.title_derived, p.method, p.abstract, p.links),
            *(p.authors, p.venue, p.year, p.url, dict(p.extra), p.meta_source, p.list_name),
            p.uncut_title,
        )
        for p in papers
    ]


def _fresh(paths: list[Path], monkeypatch: pytest.MonkeyPatch) -> Library:
    with monkeypatch.context() as patch:
        patch.setenv("PAPERDECK_CACHE", "off")
        return load_library(paths)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PAPERDECK_CACHE", str(folder))
    return folder


@pytest.fixture
def listing(tmp_path: Path) -> Path:
    path = tmp_path / "sample.txt"
    shutil.copyfile(SAMPLE, path)
    return path


def _no_deriving(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object) -> list[str]:
        raise AssertionError("derived again although the list is stored")

    monkeypatch.setattr("paperdeck.core.library.methods_and_titles", fail)
    monkeypatch.setattr("paperdeck.core.library.assign_ids", fail)


@pytest.mark.parametrize("source", [SAMPLE, JSONL], ids=["txt", "jsonl"])
def test_a_reopened_list_equals_a_fresh_read_and_derives_nothing(
    cache: Path, tmp_path: Path, source: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / source.name
    shutil.copyfile(source, path)
    fresh = _fresh([path], monkeypatch)
    first = load_library([path])
    assert _shown(first.papers) == _shown(fresh.papers)
    assert first.keys[0] is not None
    assert [p.name for p in cache.iterdir()] == [database.FILE_NAME]
    _no_deriving(monkeypatch)
    again = load_library([path])
    assert _shown(again.papers) == _shown(fresh.papers)
    assert again.warnings == fresh.warnings
    assert (again.lists[0].header, again.lists[0].format) == (
        fresh.lists[0].header,
        fresh.lists[0].format,
    )
    for paper in again.papers:
        if paper.title_derived:
            assert (paper.method, paper.title) == method_and_title(paper.abstract)


def test_the_bundled_list_with_its_sidecar_comes_back_identical(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh = _fresh([bundled_list()], monkeypatch)
    load_library([bundled_list()])
    _no_deriving(monkeypatch)
    assert _shown(load_library([bundled_list()]).papers) == _shown(fresh.papers)


def test_a_list_edited_in_place_with_the_same_size_and_mtime_gets_new_ids_and_titles(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 19 item 7: `touch -r`, `cp -p` and tar keep size and mtime over new content.
    load_library([listing])
    stat = listing.stat()
    text = listing.read_text(encoding="utf-8")
    first = text.split("\n\n")[0]
    edited = first.replace("We ", "Us ", 1)
    assert edited != first and len(edited) == len(first)
    listing.write_text(text.replace(first, edited, 1), encoding="utf-8")
    os.utime(listing, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert (listing.stat().st_size, listing.stat().st_mtime_ns) == (
        stat.st_size,
        stat.st_mtime_ns,
    )
    reopened = load_library([listing]).papers
    assert _shown(reopened) == _shown(_fresh([listing], monkeypatch).papers)


def _flip(path: Path, offset: int, bit: int) -> None:
    with path.open("r+b") as handle:
        handle.seek(offset)
        byte = handle.read(1)[0]
        handle.seek(offset)
        handle.write(bytes([byte ^ (1 << bit)]))


def test_flipped_bits_anywhere_in_the_store_are_detected_and_rebuilt(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 19 item 8: the marshal title cache changed ids and titles on single-bit flips.
    # Twenty papers: a store small enough that the random flips land all over it, each
    # reopening cheap.
    papers = listing.read_text(encoding="utf-8").split("\n\n")
    listing.write_text("\n\n".join(papers[:20]) + "\n", encoding="utf-8")
    expected = _shown(_fresh([listing], monkeypatch).papers)
    assert len(expected) == 20
    load_library([listing])
    store_file = cache / database.FILE_NAME
    # Everything is in the main file once the last connection closes (no write-ahead log).
    assert sorted(p.name for p in cache.iterdir()) == [database.FILE_NAME]
    pristine = store_file.read_bytes()
    reopened = load_library([listing]).papers
    title = reopened[3].title.encode("utf-8")
    # An abstract whose first words lie on one page of the file (a long one spans several).
    abstract_at = next(
        at for paper in reopened[5:] if (at := pristine.find(paper.abstract[:40].encode())) >= 0
    )
    title_at = pristine.index(title)
    rng = random.Random(8)
    offsets = [
        *range(title_at, title_at + len(title)),
        *range(abstract_at, abstract_at + 40),
        *rng.sample(range(len(pristine)), 120),
    ]
    warned = 0
    for offset in offsets:
        store_file.write_bytes(pristine)
        for suffix in ("-wal", "-shm"):
            Path(f"{store_file}{suffix}").unlink(missing_ok=True)
        _flip(store_file, offset, rng.randrange(8))
        library = load_library([listing])
        assert _shown(library.papers) == expected, f"flip at {offset}"
        warned += bool(library.warnings)
    assert warned >= len(title) + 40  # every flip in the data itself was reported


@pytest.mark.parametrize(
    "garbage",
    [b"", b"\x00\x01garbage", b"\xff" * 5000, b"SQLite format 3\x00" + b"\x00" * 200],
    ids=["empty", "binary", "ff", "header-only"],
)
def test_a_damaged_store_file_is_started_afresh_with_one_line(
    cache: Path, listing: Path, garbage: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _shown(_fresh([listing], monkeypatch).papers)
    load_library([listing])
    (cache / database.FILE_NAME).write_bytes(garbage)
    library = load_library([listing])
    assert _shown(library.papers) == expected
    _no_deriving(monkeypatch)
    assert _shown(load_library([listing]).papers) == expected


def test_a_truncated_store_file_is_started_afresh(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _shown(_fresh([listing], monkeypatch).papers)
    load_library([listing])
    store_file = cache / database.FILE_NAME
    store_file.write_bytes(store_file.read_bytes()[: store_file.stat().st_size // 2])
    library = load_library([listing])
    assert _shown(library.papers) == expected
    assert len(library.warnings) == 1 and "list store" in library.warnings[0]


def test_a_store_from_another_version_or_program_is_started_afresh(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _shown(_fresh([listing], monkeypatch).papers)
    load_library([listing])
    store_file = cache / database.FILE_NAME
    with sqlite3.connect(store_file) as db:
        db.execute("PRAGMA user_version = 99")
    library = load_library([listing])
    assert _shown(library.papers) == expected
    assert ["another version" in w for w in library.warnings] == [True]
    store_file.unlink()
    with sqlite3.connect(store_file) as db:
        db.execute("CREATE TABLE photos (name TEXT)")
    library = load_library([listing])
    assert _shown(library.papers) == expected
    assert ["not a paperdeck list store" in w for w in library.warnings] == [True]


def test_a_locked_store_is_bypassed_with_one_line(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _shown(_fresh([listing], monkeypatch).papers)
    load_library([listing])
    monkeypatch.setattr(database, "READ_PATIENCE", 0.1)
    monkeypatch.setattr(database, "WRITE_PATIENCE", 0.1)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys, time\n"
            "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "db.execute('PRAGMA locking_mode = EXCLUSIVE')\n"
            "db.execute('BEGIN EXCLUSIVE')\n"
            "db.execute('DELETE FROM blobs')\n"
            "print('locked', flush=True)\n"
            "time.sleep(30)\n",
            str(cache / database.FILE_NAME),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        library = load_library([listing])
    finally:
        holder.kill()
        holder.wait()
    assert _shown(library.papers) == expected
    assert len(library.warnings) == 1 and "locked" in library.warnings[0]


def test_an_unwritable_cache_folder_is_bypassed_with_one_line(
    tmp_path: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PAPERDECK_CACHE", str(blocker / "cache"))
    library = load_library([listing])
    assert _shown(library.papers) == _shown(_fresh([listing], monkeypatch).papers)
    assert len(library.warnings) == 1 and "unavailable" in library.warnings[0]
    assert library.keys == [None]


def test_cache_off_writes_nothing(
    tmp_path: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAPERDECK_CACHE", "off")
    monkeypatch.setattr(
        "platformdirs.user_cache_path", lambda *a, **k: pytest.fail("cache folder asked for")
    )
    before = sorted(tmp_path.rglob("*"))
    assert load_library([listing]).papers
    assert sorted(tmp_path.rglob("*")) == before


def test_two_processes_opening_the_same_new_list_at_once_both_work(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from paperdeck.core.library import load_library\n"
        "library = load_library([Path(sys.argv[1])])\n"
        "print(' '.join(p.id + p.title for p in library.papers))\n"
        "print(*library.warnings, sep='\\n', file=sys.stderr)\n"
    )
    env = {**os.environ, "PAPERDECK_CACHE": str(cache)}
    for _ in range(3):
        shutil.rmtree(cache, ignore_errors=True)
        runs = [
            subprocess.Popen(
                [sys.executable, "-c", code, str(listing)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            )
            for _ in range(2)
        ]
        outputs = [run.communicate(timeout=120) for run in runs]
        assert [run.returncode for run in runs] == [0, 0], outputs
        expected = " ".join(p.id + p.title for p in _fresh([listing], monkeypatch).papers)
        assert [out for out, _ in outputs] == [f"{expected}\n"] * 2
        # Both get the right papers; one may wait out its patience for the other's write and
        # read the list itself, saying so in one line.
        for _, said in outputs:
            lines = [line for line in said.splitlines() if line.strip()]
            assert len(lines) <= 1 and all("lock" in line for line in lines), said
        with sqlite3.connect(cache / database.FILE_NAME) as db:
            assert db.execute("SELECT count(*) FROM lists").fetchone() == (1,)


def _rewrite_chunk(cache: Path, column: str, change: object) -> None:
    """Rewrite a stored column as a crafted file would, checksum and all."""
    with sqlite3.connect(cache / database.FILE_NAME) as db:
        list_key, number, count, *head, abstracts = db.execute(
            f"SELECT key, number, count, {', '.join(columns.HEAD_COLUMNS)}, abstracts "
            "FROM chunks ORDER BY number LIMIT 1"
        ).fetchone()
        names = [*columns.HEAD_COLUMNS, "abstracts"]
        values = dict(zip(names, [*head, abstracts], strict=True))
        assert callable(change)
        values[column] = change(values[column])
        head = tuple(values[name] for name in columns.HEAD_COLUMNS)
        db.execute(
            f"UPDATE chunks SET {column} = ?, head_sum = ?, abstracts_sum = ? "
            "WHERE key = ? AND number = ?",
            (
                values[column],
                columns._checksum(list_key, number, count, head),
                columns._checksum(list_key, number, count, (values["abstracts"],)),
                list_key,
                number,
            ),
        )


PAYLOAD = b"\x1b]52;c;cHduZWQ=\x07\x1b[2J\xc2\x9b31m\xe2\x80\xaeevil"


def test_escape_sequences_in_a_crafted_store_never_reach_the_terminal(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 19 item 10: a cache file with ESC in a title made `list`/`show` print raw OSC 52.
    load_library([listing])
    _rewrite_chunk(cache, "titles", lambda data: PAYLOAD + data)
    _rewrite_chunk(cache, "abstracts", lambda data: PAYLOAD + b"\n" + data)
    _rewrite_chunk(cache, "authors", lambda data: PAYLOAD + data)
    library = load_library([listing])
    first = library.papers[0]
    assert "evil" in first.title and "evil" in first.abstract
    for paper in library.papers:
        for text in (paper.title, paper.abstract, *paper.authors):
            assert clean_text(text) == text
            assert "\x1b" not in text and "\x9b" not in text and "\u202e" not in text
    env = {**os.environ, "PAPERDECK_CACHE": str(cache)}
    for command in (["list"], ["show", "1"], ["list", "--json"]):
        shown = subprocess.run(
            [sys.executable, "-m", "paperdeck", *command, str(listing)],
            capture_output=True,
            env=env,
            timeout=120,
        )
        assert shown.returncode == 0, shown.stderr
        assert b"evil" in shown.stdout
        assert b"\x1b" not in shown.stdout + shown.stderr
        assert b"\xc2\x9b" not in shown.stdout and b"\xe2\x80\xae" not in shown.stdout


@pytest.mark.parametrize(
    ("column", "change"),
    [
        ("ids", lambda data: b"../../notes" + data[8:]),
        ("ids", lambda data: data[: data.index(b"\0")]),
        ("ids", lambda data: data.split(b"\0")[0] + b"\0" + data),
        ("titles", lambda data: data + b"\0one more"),
        ("years", lambda data: b"99999" + data),
        ("extras", lambda data: b"[" * 100000 + data),
        ("abstracts", lambda data: data[: len(data) // 2]),
    ],
    ids=["path-id", "cut-ids", "duplicate-id", "extra-title", "year", "nested-json", "cut"],
)
def test_crafted_ids_counts_and_values_are_refused_and_the_list_read_again(
    cache: Path, listing: Path, column: str, change: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _shown(_fresh([listing], monkeypatch).papers)
    load_library([listing])
    _rewrite_chunk(cache, column, change)
    library = load_library([listing])
    assert _shown(library.papers) == expected
    assert ["damaged" in w for w in library.warnings] == [True]


def test_a_crafted_paper_count_is_refused(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _shown(_fresh([listing], monkeypatch).papers)
    load_library([listing])
    with sqlite3.connect(cache / database.FILE_NAME) as db:
        list_key, count, info = db.execute("SELECT key, count, info FROM lists").fetchone()
        db.execute(
            "UPDATE lists SET count = ?, info_sum = ?",
            (count + 5, database._text_sum(list_key, count + 5, info)),
        )
    assert _shown(load_library([listing]).papers) == expected


def test_a_code_change_makes_every_stored_list_stale(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_library([listing])
    monkeypatch.setattr(key, "_code_version", "a-newer-titles-py")
    calls: list[int] = []

    def counting(abstracts: list[str]) -> list[tuple[str | None, str, str | None]]:
        calls.append(len(abstracts))
        return [method_and_titles(abstract) for abstract in abstracts]

    monkeypatch.setattr("paperdeck.core.library.methods_and_titles", counting)
    papers = load_library([listing]).papers
    assert calls == [len(papers)]


def test_the_least_recently_opened_lists_are_dropped(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(database, "MAX_LISTS", 3)
    seed = bundled_list().read_text(encoding="utf-8")
    keys = []
    for index in range(5):
        path = tmp_path / f"list{index}.txt"
        path.write_text(seed + f"\n\nPaper number {index} of the test lists.\n", encoding="utf-8")
        keys.append(load_library([path]).keys[0])
    with sqlite3.connect(cache / database.FILE_NAME) as db:
        kept = {row[0] for row in db.execute("SELECT key FROM lists")}
    assert kept == set(keys[2:])


def test_listing_reads_no_abstract_and_one_is_read_when_asked(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh = _fresh([listing], monkeypatch).papers
    load_library([listing])
    light = load_library([listing], abstracts=False)
    assert not light.abstracts_loaded
    assert all(paper.abstract == "" for paper in light.papers)
    assert [(p.id, p.title) for p in light.papers] == [(p.id, p.title) for p in fresh]
    for at in (0, 5, len(fresh) - 1):
        assert light.with_abstract(light.papers[at]).abstract == fresh[at].abstract


def test_a_stored_list_gives_cut_titles_whole_without_abstracts_or_deriving(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh = _fresh([listing], monkeypatch).papers
    cut = [at for at, paper in enumerate(fresh) if paper.cut_title]
    assert len(cut) >= 3
    wholes = [clean_line(cited_title(fresh[at].abstract)) for at in cut]
    assert all(whole != fresh[at].title for at, whole in zip(cut, wholes, strict=True))
    load_library([listing])

    def fail(*args: object) -> str:
        raise AssertionError("a whole title derived again although the list keeps it")

    monkeypatch.setattr(derive, "cited_title", fail)
    monkeypatch.setattr(derive, "derive_title", fail)
    light = load_library([listing], abstracts=False).papers
    assert all(light[at].abstract == "" for at in cut)
    assert [light[at].whole_title for at in cut] == wholes
    assert [light[at].to_json()["title"] for at in cut] == wholes
    assert all(not wants_abstract(light[at]) for at in cut)
    assert all(p.uncut_title is None for p in light if not p.cut_title)


def test_a_stored_list_gives_the_titles_its_rows_show_as_a_list_read_afresh_does(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the reader measures its rows by: a cut made-up title whole, read from the store
    without the papers."""
    fresh = _fresh([listing], monkeypatch).papers
    load_library([listing])
    stored = load_library([listing], abstracts=False).papers
    assert type(stored).__name__ == "StoredPapers"
    shown = fresh.row_titles()
    assert stored.row_titles() == shown
    # Those of a list that grew, from where it was measured up to.
    assert fresh.row_titles(3) == stored.row_titles(3) == shown[3:]
    assert fresh.derived_flags(3) == stored.derived_flags(3) == fresh.derived_flags()[3:]
    cut = [at for at, paper in enumerate(fresh) if paper.cut_title]
    assert cut and all(shown[at] == fresh[at].uncut_title != fresh[at].title for at in cut)
    assert all(shown[at] == p.title for at, p in enumerate(fresh) if not p.cut_title)


def test_a_store_of_the_schema_before_whole_titles_is_started_afresh(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _shown(_fresh([listing], monkeypatch).papers)
    cache.mkdir()
    with sqlite3.connect(cache / database.FILE_NAME) as db:
        for statement in database._SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement.replace(", uncut_titles BLOB NOT NULL", ""))
        db.execute(f"PRAGMA application_id = {database.APPLICATION_ID}")
        db.execute("PRAGMA user_version = 3")
        assert "uncut_titles" not in str(db.execute("SELECT sql FROM sqlite_master").fetchall())
    library = load_library([listing])
    assert _shown(library.papers) == expected
    assert ["written by another version (schema 3)" in w for w in library.warnings] == [True]
    _no_deriving(monkeypatch)
    again = load_library([listing], abstracts=False)
    assert again.warnings == []
    # Each paper's title whole (its uncut title where the title is cut), read without abstracts.
    wholes = [clean_line(row[-1]) if row[-1] else row[2] for row in expected]
    assert [p.whole_title for p in again.papers] == wholes


def test_a_new_store_maps_its_overflow_pages(cache: Path, listing: Path) -> None:
    """Set once the file is written, auto-vacuum is ignored; without its page map, reading
    one abstract reads every page of its chunk's abstracts before it."""
    load_library([listing])
    files = list(cache.rglob("*.sqlite3"))
    assert len(files) == 1
    with sqlite3.connect(files[0]) as connection:
        assert connection.execute("PRAGMA auto_vacuum").fetchone()[0] == 2  # incremental
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_clients_keep_checked_blobs_under_a_lists_key(cache: Path, listing: Path) -> None:
    list_key = load_library([listing]).keys[0]
    assert list_key is not None
    store = ListStore.open([])
    assert store is not None
    try:
        store.put_blob(list_key, "index", b"some index bytes")
        store.put_blob("not-a-stored-list", "index", b"never kept")
        assert store.get_blob(list_key, "index") == b"some index bytes"
        assert store.get_blob("not-a-stored-list", "index") is None
        with sqlite3.connect(cache / database.FILE_NAME) as db:
            db.execute("UPDATE blobs SET data = ?", (b"some index bytez",))
        assert store.get_blob(list_key, "index") is None
    finally:
        store.close()


_NASTY = st.sampled_from(
    [
        *("\x1b", "\x00", "\x07", "\x7f", "\x85", "\x9b", "\u061c", "\u200e", "\u2028"),
        *("\u202e", "\u2066", "\ufeff", "é", "—", "’", "\u2030", "\u00a0", "𝔸", "a", " ", "\n"),
    ]
)


@given(st.lists(_NASTY, max_size=12).map("".join))
def test_the_byte_check_finds_every_character_clean_text_removes(text: str) -> None:
    import unicodedata

    data = text.replace("\0", "").encode("utf-8")
    unsafe = clean_text(text.replace("\0", "")) != unicodedata.normalize(
        "NFC", text.replace("\0", "")
    )
    assert columns.may_hold_unsafe(data) == unsafe


def test_one_paper_is_read_from_the_ids_and_its_own_chunk(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.core.library import load_paper, resolve_ref

    # Enough papers for several chunks, in two lists.
    text = SAMPLE.read_text(encoding="utf-8")
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text("\n\n".join([text] * 3) + "\n\nOne more abstract, about the lists.\n")
    second.write_text(text, encoding="utf-8")
    fresh = _fresh([first, second], monkeypatch).papers
    assert len(fresh) > 2 * columns.CHUNK_PAPERS
    load_library([first, second])

    def fail(*args: object, **kwargs: object) -> list[Paper]:
        raise AssertionError("every paper built to show one")

    monkeypatch.setattr(ListStore, "papers", fail)
    prefixes = [p.id[:7] for p in fresh]
    unique = next(prefix for prefix in reversed(prefixes) if prefixes.count(prefix) == 1)
    for ref in ("1", "300", str(len(fresh)), fresh[700].id, unique):
        paper, warnings = load_paper([first, second], ref)
        assert _shown([paper]) == _shown([resolve_ref(fresh, ref)]) and warnings == []


@pytest.mark.parametrize("stored", [False, True], ids=["first-open", "reopen"])
def test_a_load_reports_growing_prefixes_of_its_papers(
    cache: Path, tmp_path: Path, stored: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.core import library as library_module
    from paperdeck.core.library import LoadOptions

    text = SAMPLE.read_text(encoding="utf-8")
    path = tmp_path / "many.txt"
    path.write_text("\n\n".join(f"{text}\n\nNumber {n} of the copies." for n in range(8)))
    if stored:
        load_library([path])
    monkeypatch.setattr(library_module, "REPORT_EVERY", 0.0)
    reports: list[tuple[list[Paper], int]] = []
    options = LoadOptions(lambda papers, total: reports.append((papers, total)))
    library = load_library([path], options=options)
    whole = library.papers
    assert len(reports) > 2
    assert all(total == len(whole) for _, total in reports)
    sizes = [len(papers) for papers, _ in reports]
    assert sizes == sorted(sizes) and sizes[-1] == len(whole)
    for papers, _ in reports:
        assert all(one is two for one, two in zip(papers, whole, strict=False))


def test_a_plain_text_list_shows_its_first_papers_before_the_rest_is_decoded(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.core.formats.plain_text import TextParagraphs
    from paperdeck.core.library import LoadOptions

    path = tmp_path / "many.txt"
    papers = [f"Paper number {n}: we study lists." for n in range(3000)]
    path.write_text("\n\n".join(["Papers to read", *papers]))
    reads: list[int | None] = []
    read = TextParagraphs.read

    def counted(self: TextParagraphs, upto: int | None = None) -> None:
        reads.append(upto)
        read(self, upto)

    monkeypatch.setattr(TextParagraphs, "read", counted)
    first: list[tuple[list[Paper], int, list[int | None]]] = []

    def progress(papers: list[Paper], total: int) -> None:
        if not first:
            first.append((list(papers), total, list(reads)))

    library = load_library([path], options=LoadOptions(progress))
    papers, total, read_then = first[0]
    assert total == len(library.papers) == 3000
    assert 0 < len(papers) < 1000 and None not in read_then  # the rest was not decoded yet
    assert [paper.id for paper in papers] == [paper.id for paper in library.papers[: len(papers)]]
    assert papers[0].abstract == "Paper number 0: we study lists."


def test_papers_share_what_they_have_in_common(cache: Path, listing: Path) -> None:
    # 100,000 papers each with an empty dict and a "derived" of its own took 11 MiB.
    for library in (load_library([listing]), load_library([listing], abstracts=False)):
        first, second = library.papers[0], library.papers[1]
        assert first.extra is second.extra and not first.extra
        assert first.meta_source is second.meta_source
        with pytest.raises(TypeError):
            first.extra["pdf"] = "x"  # type: ignore[index]


def test_a_load_asked_to_keep_later_keeps_its_list_only_when_told(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.core.library import LoadOptions

    first = load_library([listing], options=LoadOptions(keep_later=True))
    key = first.keys[0]
    assert key is not None
    store = ListStore.open([])
    assert store is not None
    try:
        assert store.info(key) is None  # not kept yet
        assert first.keep() == []
        assert store.info(key) is not None
    finally:
        store.close()
    assert first.keep() == []  # once is enough
    _no_deriving(monkeypatch)
    stored = load_library([listing], abstracts=False)
    assert not stored.abstracts_loaded
    assert _shown(stored.with_abstracts(stored.papers)) == _shown(first.papers)


def test_a_list_changed_before_it_is_kept_is_not_kept(cache: Path, listing: Path) -> None:
    from paperdeck.core.library import LoadOptions

    library = load_library([listing], options=LoadOptions(keep_later=True))
    listing.write_text(listing.read_text("utf-8") + "\n\nOne more abstract, added.\n", "utf-8")
    assert library.keep() == []
    store = ListStore.open([])
    assert store is not None
    try:
        assert store.info(library.keys[0] or "") is None
    finally:
        store.close()

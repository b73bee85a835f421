"""The search index kept in the list store: reopened it answers like a fresh build, reads only
what a query needs, and a damaged or stale one is built again, never a crash."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from array import array
from collections.abc import Sequence
from pathlib import Path

import pytest

from paperdeck.core.library import load_library
from paperdeck.core.search import stored
from paperdeck.core.search.index import SearchIndex, SearchResult
from paperdeck.core.search.word_index import METHOD, PaperAbstracts
from paperdeck.core.store import database

SAMPLE = Path(__file__).parents[1] / "data" / "abstracts_sample.txt"
QUERIES = (
    "graph neural",
    "speculative decoding",
    "reinforcment lerning",
    '"language models"',
    "title:learning !graph",
    "kernel | diffusion",
    "self-sup",
    "la",
    "O(n log n)",
    "like:3",
)


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


def _answers(index: SearchIndex) -> list[tuple[list[int], list[float], int]]:
    answers = []
    for query in QUERIES:
        result = index.search(query)
        answers.append((list(result.indices), list(result.scores), result.matched_all))
    return answers


def _kept(cache: Path) -> int:
    with sqlite3.connect(cache / database.FILE_NAME) as db:
        return int(db.execute("SELECT count(*) FROM postings").fetchone()[0])


def test_a_reopened_index_answers_every_query_like_a_fresh_build(
    cache: Path, listing: Path
) -> None:
    library = load_library([listing])
    key = library.index_key()
    assert key is not None
    fresh = SearchIndex(library.papers)  # built in memory, kept nowhere
    assert _kept(cache) == 0
    built = SearchIndex(library.papers, key)
    assert _kept(cache) > 0 and not built.messages
    light = load_library([listing], abstracts=False)
    assert not light.abstracts_loaded and not any(p.abstract for p in light.papers)
    reopened = SearchIndex(light.papers, light.index_key())
    assert isinstance(reopened.word_index.abstracts, stored.StoredAbstracts)
    assert _answers(reopened) == _answers(fresh)
    assert any(answer[0] for answer in _answers(fresh))
    # A word only in one abstract is found and highlighted from the stored abstract.
    paper = 4
    text = library.papers[paper].abstract
    spans = reopened.match_spans("the", paper)["abstract"]
    assert spans and all(text[a:b].lower() == "the" for a, b in spans)


def test_reopening_reads_only_the_words_a_query_asks_for(cache: Path, listing: Path) -> None:
    library = load_library([listing])
    SearchIndex(library.papers, library.index_key())
    reopened = SearchIndex(library.papers, library.index_key())
    postings = reopened.word_index.postings[3]
    assert isinstance(postings, stored.StoredPostings)
    assert postings._known == {}
    reopened.search("diffusion")
    assert "diffusion" in postings._known
    assert len(postings._known) < 40  # the word, its starts and typos: not the vocabulary


def test_a_word_start_reads_its_words_postings_together(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = load_library([listing])
    fresh = SearchIndex(library.papers)
    SearchIndex(library.papers, library.index_key())
    reopened = SearchIndex(library.papers, library.index_key())
    queries: list[int] = []
    single = database.ListStore.postings
    together = database.ListStore.postings_of

    def one(self: database.ListStore, key: str, field: int, word: str) -> bytes | None:
        queries.append(1)
        return single(self, key, field, word)

    def several(
        self: database.ListStore, key: str, field: int, words: Sequence[str]
    ) -> dict[str, bytes]:
        queries.append(len(words))
        return together(self, key, field, words)

    monkeypatch.setattr(database.ListStore, "postings", one)
    monkeypatch.setattr(database.ListStore, "postings_of", several)
    result = reopened.search("con")
    read = sum(len(postings._known) for postings in reopened.word_index.postings)  # type: ignore[attr-defined]
    assert read > 100  # "con" starts many words in every field
    assert len(queries) <= 8 and sum(queries) >= read
    assert list(result.indices) == list(fresh.search("con").indices)


@pytest.mark.parametrize("query", ["'ing", "con"])
def test_the_postings_of_a_querys_many_words_are_read_over_several_slices(
    query: str, cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.core.plumbing import slices

    # 676 words, each in one abstract: every one has "ing" and starts with "con".
    letters = "abcdefghijklmnopqrstuvwxyz"
    listing = tmp_path / "many.txt"
    listing.write_text(
        "Many words\n\n"
        + "\n\n".join(
            f"Paper {first} studies " + " ".join(f"con{first}{second}ing" for second in letters)
            for first in letters
        )
        + "\n",
        "utf-8",
    )
    library = load_library([listing])
    fresh = SearchIndex(library.papers)
    SearchIndex(library.papers, library.index_key())
    reopened = SearchIndex(library.papers, library.index_key())
    together = database.ListStore.postings_of
    read_in_slice = [0]

    def several(
        self: database.ListStore, key: str, field: int, words: Sequence[str]
    ) -> dict[str, bytes]:
        read_in_slice[-1] += len(words)
        return together(self, key, field, words)

    monkeypatch.setattr(database.ListStore, "postings_of", several)
    # Every slice is due at once: what a slice reads shows where the search can pause,
    # whatever this machine's speed (all of a field's words were read in one slice).
    monkeypatch.setattr(slices, "SLICE", -1.0)
    steps = reopened.search_steps(query)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            result: SearchResult = done.value
            break
        read_in_slice.append(0)
    monkeypatch.undo()
    assert sum(read_in_slice) >= 676  # in the abstracts alone
    assert max(read_in_slice) <= 128
    assert list(result.indices) == list(fresh.search(query).indices)


# A paper number beyond the list: alone, or at the end of postings long enough to be checked
# with numpy (as large as an unsigned 32-bit number gets: negative if read as signed).
DAMAGED_POSTINGS = {
    "short": (10**6).to_bytes(4, "little"),
    "long": array("I", [0] * 2000 + [2**32 - 5]).tobytes(),
}


@pytest.mark.parametrize("docs", DAMAGED_POSTINGS.values(), ids=DAMAGED_POSTINGS.keys())
def test_a_damaged_posting_is_taken_as_missing_and_the_index_built_again(
    cache: Path, listing: Path, docs: bytes
) -> None:
    import numpy  # noqa: F401  (imported, as by a reader: long postings are checked with it)

    library = load_library([listing])
    key = library.index_key()
    assert key is not None
    expected = list(SearchIndex(library.papers).search("diffusion").indices)
    assert expected
    SearchIndex(library.papers, key)
    with sqlite3.connect(cache / database.FILE_NAME) as db:
        db.execute("UPDATE postings SET docs = ? WHERE field = 3 AND word = 'diffusion'", (docs,))
    damaged = SearchIndex(library.papers, key)
    assert isinstance(damaged.word_index.abstracts, stored.StoredAbstracts)
    result = damaged.search("diffusion")  # no paper number beyond the list, no crash
    assert all(0 <= i < len(library.papers) for i in result.indices)
    rebuilt = SearchIndex(library.papers, key)
    assert isinstance(rebuilt.word_index.abstracts, PaperAbstracts)
    assert list(rebuilt.search("diffusion").indices) == expected
    assert isinstance(SearchIndex(library.papers, key).word_index.abstracts, stored.StoredAbstracts)


@pytest.mark.parametrize("derived", [b"", b"\2", None], ids=["short", "not-a-flag", "missing"])
def test_an_index_with_damaged_title_flags_is_built_again(
    cache: Path, listing: Path, derived: bytes | None
) -> None:
    library = load_library([listing])
    key = library.index_key()
    assert key is not None
    expected = list(SearchIndex(library.papers).search("title:learning").indices)
    assert expected
    SearchIndex(library.papers, key)
    with sqlite3.connect(cache / database.FILE_NAME) as db:
        if derived is None:
            db.execute("DELETE FROM blobs WHERE name = ?", (stored.DERIVED_BLOB,))
        else:
            data = derived * len(library.papers) if derived else b"\0"
            db.execute("UPDATE blobs SET data = ? WHERE name = ?", (data, stored.DERIVED_BLOB))
    rebuilt = SearchIndex(library.papers, key)
    assert isinstance(rebuilt.word_index.abstracts, PaperAbstracts)
    assert list(rebuilt.search("title:learning").indices) == expected
    reopened = SearchIndex(library.papers, key)
    assert isinstance(reopened.word_index.abstracts, stored.StoredAbstracts)
    assert list(reopened.search("title:learning").indices) == expected


def test_an_index_from_another_version_is_built_again(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = load_library([listing])
    SearchIndex(library.papers, library.index_key())
    monkeypatch.setattr(stored, "_version", "another-version")
    again = SearchIndex(library.papers, library.index_key())
    assert isinstance(again.word_index.abstracts, PaperAbstracts)
    reopened = SearchIndex(library.papers, library.index_key())
    assert isinstance(reopened.word_index.abstracts, stored.StoredAbstracts)


def test_a_library_of_two_lists_or_with_metadata_keeps_no_index(
    cache: Path, listing: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other.txt"
    other.write_text("Header\n\nAn abstract about graphs.\n", encoding="utf-8")
    assert load_library([listing, other]).index_key() is None
    assert load_library([listing]).index_key() is not None


def test_with_the_cache_off_the_index_is_built_and_kept_nowhere(
    listing: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAPERDECK_CACHE", "off")
    library = load_library([listing])
    assert library.index_key() is None
    index = SearchIndex(library.papers, "not-a-stored-list")
    assert index.search("diffusion").indices
    assert not any(tmp_path.rglob("*.sqlite3"))


def test_a_store_gone_after_opening_costs_answers_not_a_crash(cache: Path, listing: Path) -> None:
    library = load_library([listing])
    SearchIndex(library.papers, library.index_key())
    reopened = SearchIndex(library.papers, library.index_key())
    database.discard(cache / database.FILE_NAME)
    result = reopened.search("graph neural")
    assert all(0 <= i < len(library.papers) for i in result.indices)


def test_abstracts_read_ahead_a_chunk_at_a_time_are_those_read_alone(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phrase asks for many abstracts at once: those of a chunk are read through one handle,
    and are the abstracts each paper has."""
    library = load_library([listing])
    SearchIndex(library.papers, library.index_key())
    light = load_library([listing], abstracts=False)
    reopened = SearchIndex(light.papers, light.index_key())
    abstracts = reopened.word_index.abstracts
    assert isinstance(abstracts, stored.StoredAbstracts)
    handles: list[int] = []
    real = database.ListStore.abstracts_bytes

    def counted(self: database.ListStore, rowid: int, spans: list[tuple[int, int]]) -> list[bytes]:
        handles.append(len(spans))
        return real(self, rowid, spans)

    monkeypatch.setattr(database.ListStore, "abstracts_bytes", counted)
    wanted = [9, 2, 5, 14, 0]
    reopened.word_index.read_ahead(3, wanted)
    assert handles == [len(wanted)]  # one chunk, one handle
    monkeypatch.setattr(database.ListStore, "abstract_bytes", None)  # no read one by one
    assert [abstracts.text(i) for i in wanted] == [library.papers[i].abstract for i in wanted]
    # The words of a phrase found through them, as in memory.
    query = '"diffusion models"'
    expected = list(SearchIndex(library.papers).search(query).indices)
    assert expected and list(reopened.search(query).indices) == expected


def test_an_abstract_the_busy_store_could_not_give_is_read_again(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store busy once (another process writing it) reads as no abstract that time only."""
    library = load_library([listing])
    SearchIndex(library.papers, library.index_key())
    light = load_library([listing], abstracts=False)
    abstracts = SearchIndex(light.papers, light.index_key()).word_index.abstracts
    assert isinstance(abstracts, stored.StoredAbstracts)
    real = database.ListStore.abstract_bytes

    def busy(self: database.ListStore, rowid: int, start: int, stop: int) -> bytes:
        raise database.StoreUnavailable("database is locked")

    monkeypatch.setattr(database.ListStore, "abstract_bytes", busy)
    assert abstracts.text(3) == ""
    monkeypatch.setattr(database.ListStore, "abstract_bytes", real)
    assert abstracts.text(3) == library.papers[3].abstract != ""


RACE = """
import sys, threading
from array import array
from paperdeck.core.search.stored import _largest
assert "numpy" not in sys.modules
sys.setswitchinterval(1e-5)
docs = array("I", range(5000))
errors = []
done = threading.Event()
def importer():
    import numpy
    done.set()
thread = threading.Thread(target=importer)
thread.start()
while not done.is_set():
    try:
        if _largest(docs) != 4999:
            errors.append("wrong largest")
    except Exception as error:
        errors.append(repr(error))
        break
thread.join()
print(errors)
"""


def test_a_common_words_postings_are_checked_while_another_thread_imports_numpy() -> None:
    """The reader's search thread checks stored postings while its index thread may be importing
    numpy: a half-imported numpy crashed the reader on a warm reopen of a 100,000-paper list
    with a query typed at once."""
    done = subprocess.run(
        [sys.executable, "-c", RACE], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_ranking_asks_whether_a_field_has_words_without_reading_its_vocabulary(
    cache: Path, listing: Path
) -> None:
    library = load_library([listing])
    fresh = SearchIndex(library.papers)
    SearchIndex(library.papers, library.index_key())
    reopened = SearchIndex(library.papers, library.index_key())
    methods = reopened.word_index.postings[METHOD]
    assert isinstance(methods, stored.StoredPostings)
    # Two words: their order in titles and methods counts, if the list has methods.
    result = reopened.search("graph neural")
    assert list(result.indices) == list(fresh.search("graph neural").indices)
    assert methods._words is None and bool(methods) == bool(fresh.word_index.postings[METHOD])


def test_ranking_a_reopened_list_reads_its_titles_without_reading_its_chunks(
    cache: Path, listing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = load_library([listing])
    fresh = SearchIndex(library.papers)
    SearchIndex(library.papers, library.index_key())
    light = load_library([listing], abstracts=False)
    reopened = SearchIndex(light.papers, light.index_key())
    chunks_read: list[int] = []
    head = database.ListStore.chunk_head

    def counted(self: database.ListStore, key: str, number: int) -> object:
        chunks_read.append(number)
        return head(self, key, number)

    monkeypatch.setattr(database.ListStore, "chunk_head", counted)
    for query in QUERIES[:-1]:  # not `like:3`, which reads paper 3 itself
        assert list(reopened.search(query).indices) == list(fresh.search(query).indices)
    assert chunks_read == []  # the titles (methods, authors) come from one blob each


@pytest.mark.parametrize("damage", ["missing", "short", "wrong-end"])
def test_damaged_kept_titles_are_read_from_the_papers_instead(
    cache: Path, listing: Path, damage: str
) -> None:
    library = load_library([listing])
    fresh = SearchIndex(library.papers)
    SearchIndex(library.papers, library.index_key())
    titles = stored.TEXTS_BLOB.format(field=0)
    ends = stored.TEXT_ENDS_BLOB.format(field=0)
    with sqlite3.connect(cache / database.FILE_NAME) as db:
        if damage == "missing":
            db.execute("DELETE FROM blobs WHERE name = ?", (titles,))
        elif damage == "short":
            db.execute("UPDATE blobs SET data = substr(data, 5) WHERE name = ?", (ends,))
        else:
            db.execute("UPDATE blobs SET data = substr(data, 2) WHERE name = ?", (titles,))
    light = load_library([listing], abstracts=False)
    reopened = SearchIndex(light.papers, light.index_key())
    reopened.prepare_arrays()
    assert _answers(reopened) == _answers(fresh)
    assert reopened.search("title:learning").matched_all > 0

"""The notes store as the reader and the CLI use it: what is kept, merged, found and moved."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperdeck.core.ids import assign_ids
from paperdeck.core.model import Annotation, Paper
from paperdeck.core.notes.entry import NoteEntry
from paperdeck.core.notes.exchange import export_json, export_markdown, parse_export
from paperdeck.core.notes.merge import CONFLICT_END, CONFLICT_START
from paperdeck.core.notes.store import NotesSaveError, NotesStore, notes_path

MESSY = Path(__file__).parents[1] / "data" / "messy"


def abstracts() -> list[str]:
    text = (MESSY / "no_header.txt").read_text(encoding="utf-8")
    return [part.strip() for part in re.split(r"\n\s*\n", text) if part.strip()]


def make_papers(texts: list[str], list_name: str = "icml") -> list[Paper]:
    ids = assign_ids(texts)
    return [
        Paper(
            id=paper_id,
            position=position,
            list_name=list_name,
            title=f"Paper {position}",
            title_derived=True,
            abstract=text,
        )
        for position, (text, paper_id) in enumerate(zip(texts, ids, strict=True), start=1)
    ]


@pytest.fixture
def papers() -> list[Paper]:
    return make_papers(abstracts())


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "notes.json"


# -- what is stored ------------------------------------------------------------------------


def test_a_saved_note_reads_back_in_a_new_store(path: Path, papers: list[Paper]) -> None:
    store = NotesStore(path)
    paper = papers[2]
    store.set_note(paper, "Line one\n\n  indented: $x^2$ [not markup] 中文")
    store.set_tags(paper, ["rl", "#to read", "RL", "+theory"])
    store.set_state(paper, "reading")
    store.set_starred(paper, True)
    store.set_correction(paper, "title", "The Real Title")
    store.set_correction(paper, "authors", ["Ada Lovelace", "Alan Turing"])
    assert store.dirty
    store.save()
    assert not store.dirty and store.messages == []

    again = NotesStore(path)
    entry = again.get(paper.id)
    assert entry is not None
    assert entry == store.get(paper)
    assert entry.note == "Line one\n\n  indented: $x^2$ [not markup] 中文"
    assert entry.tags == ("rl", "to-read", "theory")
    assert (entry.state, entry.starred) == ("reading", True)
    assert dict(entry.corrections) == {
        "title": "The Real Title",
        "authors": ["Ada Lovelace", "Alan Turing"],
    }
    assert entry.excerpt and paper.abstract.startswith(entry.excerpt[:50])
    assert entry.list_name == "icml"
    assert 0 < entry.created <= entry.updated <= time.time() + 1
    annotation: Annotation = entry  # mypy checks NoteEntry against the shared protocol
    assert annotation.tags == entry.tags


def test_the_file_is_sorted_indented_versioned_json_with_a_final_newline(
    path: Path, papers: list[Paper]
) -> None:
    store = NotesStore(path)
    for paper in reversed(papers[:5]):
        store.set_note(paper, f'note of {paper.position} with "quotes" and ünïcode')
    store.set_tags(papers[0], ["b", "a"])
    store.save()
    text = path.read_text(encoding="utf-8")
    document = json.loads(text)
    assert text == json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    assert document["version"] == 1
    assert sorted(document["papers"]) == sorted(paper.id for paper in papers[:5])
    assert "ünïcode" in text  # not \u-escaped: readable and diffable


def test_one_changed_note_is_a_small_diff(path: Path, papers: list[Paper]) -> None:
    store = NotesStore(path)
    for paper in papers:
        store.set_note(paper, f"note {paper.position}")
    store.save()
    before = path.read_text(encoding="utf-8").splitlines()
    store.set_note(papers[7], "note 8, revised")
    store.save()
    after = path.read_text(encoding="utf-8").splitlines()
    changed = [pair for pair in zip(before, after, strict=True) if pair[0] != pair[1]]
    assert len(before) == len(after)
    assert len(changed) == 2  # the note and its "updated" time


_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\u2028\u2029")
    | st.sampled_from(["\n", "\t", '"', "\\", "/", "é", "😀"]),
    max_size=40,
)


@settings(max_examples=60, deadline=None)
@given(
    note=_text,
    tags=st.lists(st.from_regex(r"[a-zA-Z0-9_:é-]{1,8}", fullmatch=True), max_size=4),
    state=st.sampled_from(["unread", "reading", "read"]),
    starred=st.booleans(),
    title=_text,
    authors=st.lists(_text, max_size=3),
)
def test_the_fast_writer_matches_json_dumps(
    tmp_path_factory: pytest.TempPathFactory,
    note: str,
    tags: list[str],
    state: str,
    starred: bool,
    title: str,
    authors: list[str],
) -> None:
    path = tmp_path_factory.mktemp("fast") / "notes.json"
    paper = make_papers(["An abstract about " + note])[0]
    store = NotesStore(path)
    store.set_note(paper, "n" + note)
    store.set_tags(paper, tags)
    store.set_state(paper, state)
    store.set_starred(paper, starred)
    store.set_correction(paper, "title", title)
    store.set_correction(paper, "authors", authors)
    store.save()
    text = path.read_text(encoding="utf-8")
    assert text == json.dumps(json.loads(text), sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    assert NotesStore(path).entries == store.entries


def test_setting_the_same_value_changes_nothing(path: Path, papers: list[Paper]) -> None:
    store = NotesStore(path)
    paper = papers[0]
    store.set_note(paper, "x")
    store.set_tags(paper, ["a"])
    store.save()
    before = store.get(paper)
    store.set_note(paper, "x")
    store.set_tags(paper, ["a", "A"])
    store.set_state(paper, "unread")
    store.set_starred(paper, False)
    store.set_correction(paper, "url", None)
    assert not store.dirty
    assert store.get(paper) is before
    store.set_state(papers[1], "unread")  # a paper with no entry, set to the default
    assert not store.dirty and store.get(papers[1]) is None


def test_an_emptied_entry_is_dropped_on_save(path: Path, papers: list[Paper]) -> None:
    store = NotesStore(path)
    store.set_note(papers[0], "keep")
    store.set_note(papers[1], "drop me")
    store.save()
    store.set_note(papers[1], "")
    store.save()
    assert set(json.loads(path.read_text())["papers"]) == {papers[0].id}
    assert store.get(papers[1]) is None


def test_bad_values_are_refused(path: Path, papers: list[Paper]) -> None:
    store = NotesStore(path)
    with pytest.raises(ValueError):
        store.set_state(papers[0], "done")
    with pytest.raises(ValueError):
        store.set_correction(papers[0], "Title; rm", "x")
    assert not store.dirty


def test_text_read_back_is_sanitised(path: Path) -> None:
    hostile = {
        "version": 1,
        "papers": {
            "abcdef12": {
                "note": "ok\x1b]52;c;ZXZpbA==\x07 \x1b[31mred\u202e\x9b",
                "tags": ["a\x1b[2Jb"],
                "excerpt": "ex\x00cerpt",
                "list": "li\x07st",
                "corrections": {"title": "T\x1b[1mitle"},
            }
        },
    }
    path.write_text(json.dumps(hostile), encoding="utf-8")
    entry = NotesStore(path).get("abcdef12")
    assert entry is not None
    for text in (
        entry.note,
        *entry.tags,
        entry.excerpt,
        entry.list_name,
        entry.corrections["title"],
    ):
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]", text), repr(text)
    assert "red" in entry.note and entry.tags == ("ab",)


def test_backups_rotate_and_keep_the_previous_versions(path: Path, papers: list[Paper]) -> None:
    store = NotesStore(path)
    versions = []
    for number in range(5):
        store.set_note(papers[0], f"version {number}")
        store.save()
        versions.append(path.read_bytes())
    backups = [path.with_name(f"notes.json.bak{n}") for n in (1, 2, 3)]
    assert [b.read_bytes() for b in backups] == [versions[3], versions[2], versions[1]]
    assert not path.with_name("notes.json.bak4").exists()
    leftovers = [p.name for p in path.parent.iterdir() if ".tmp-" in p.name]
    assert leftovers == []


def test_get_takes_an_id_or_a_paper(path: Path, papers: list[Paper]) -> None:
    store = NotesStore(path)
    store.set_note(papers[3], "n")
    assert store.get(papers[3]) is store.get(papers[3].id) is store.entries[papers[3].id]
    assert store.get(papers[4]) is None


def test_notes_path_prefers_the_option_then_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PAPERDECK_NOTES", str(tmp_path / "env.json"))
    assert notes_path(str(tmp_path / "opt.json")) == tmp_path / "opt.json"
    assert notes_path(None) == tmp_path / "env.json"
    monkeypatch.delenv("PAPERDECK_NOTES")
    default = notes_path(None)
    assert default.name == "notes.json" and "paperdeck" in default.parts[-2].lower()


# -- two paperdecks at once ----------------------------------------------------------------


def test_edits_of_different_papers_in_two_stores_are_both_kept(
    path: Path, papers: list[Paper]
) -> None:
    first, second = NotesStore(path), NotesStore(path)
    first.set_note(papers[0], "from the first")
    second.set_note(papers[1], "from the second")
    first.save()
    second.save()
    assert second.get(papers[0]) is not None  # merged in, visible without reopening
    final = NotesStore(path)
    assert final.get(papers[0]).note == "from the first"  # type: ignore[union-attr]
    assert final.get(papers[1]).note == "from the second"  # type: ignore[union-attr]


def test_the_newer_edit_of_a_paper_wins_when_only_one_side_changed_it(
    path: Path, papers: list[Paper]
) -> None:
    seed = NotesStore(path)
    seed.set_note(papers[0], "old")
    seed.save()
    first, second = NotesStore(path), NotesStore(path)
    first.set_note(papers[0], "new")
    first.save()
    second.set_state(papers[1], "read")
    second.save()  # never touched papers[0]: must not bring "old" back
    assert NotesStore(path).get(papers[0]).note == "new"  # type: ignore[union-attr]


def test_both_sides_editing_one_note_keep_both_texts(path: Path, papers: list[Paper]) -> None:
    seed = NotesStore(path)
    seed.set_note(papers[0], "intro\nshared line\noutro")
    seed.save()
    first, second = NotesStore(path), NotesStore(path)
    first.set_note(papers[0], "intro\nshared line, as the first saw it\noutro")
    second.set_note(papers[0], "intro\nshared line, as the second saw it\noutro")
    first.save()
    second.save()
    note = NotesStore(path).get(papers[0]).note  # type: ignore[union-attr]
    assert "as the first saw it" in note and "as the second saw it" in note
    assert CONFLICT_START in note and CONFLICT_END in note
    assert note.startswith("intro\n") and note.endswith("\noutro")
    assert any("both texts kept" in message for message in second.messages)


def test_edits_to_different_lines_of_one_note_merge_cleanly(
    path: Path, papers: list[Paper]
) -> None:
    seed = NotesStore(path)
    seed.set_note(papers[0], "a\nb\nc\nd")
    seed.set_tags(papers[0], ["keep", "drop"])
    seed.save()
    first, second = NotesStore(path), NotesStore(path)
    first.set_note(papers[0], "A\nb\nc\nd")
    first.set_tags(papers[0], ["keep", "drop", "mine"])
    second.set_note(papers[0], "a\nb\nc\nd\ne")
    second.set_tags(papers[0], ["keep", "theirs"])
    second.set_state(papers[0], "read")
    first.save()
    second.save()
    entry = NotesStore(path).get(papers[0])
    assert entry is not None
    assert entry.note == "A\nb\nc\nd\ne"
    assert set(entry.tags) == {"keep", "mine", "theirs"}  # "drop" was removed on one side
    assert entry.state == "read"


def test_a_save_while_another_paperdeck_holds_the_lock_fails_then_retries(
    path: Path, papers: list[Paper]
) -> None:
    import fcntl

    store = NotesStore(path, lock_timeout=0.2)
    store.set_note(papers[0], "waiting")
    lock = path.with_name("notes.json.lock")
    with open(lock, "a") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        with pytest.raises(NotesSaveError, match="locked by another paperdeck"):
            store.save()
        assert store.dirty and store.get(papers[0]).note == "waiting"  # type: ignore[union-attr]
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    store.save()
    assert NotesStore(path).get(papers[0]).note == "waiting"  # type: ignore[union-attr]


# -- orphans, re-attaching, ids ------------------------------------------------------------


def perturb(text: str) -> str:
    """What copy-paste sites do: re-wrap, drop a letter, strip $ and markdown, cut the end."""
    words = text.replace("$", "").replace("**", "").split()
    words[5] = words[5][:-1] if len(words[5]) > 2 else words[5]
    wrapped = ""
    for index, word in enumerate(words[: max(40, len(words) - 12)]):
        wrapped += word + ("\n" if index % 9 == 8 else " ")
    return wrapped.strip()


def test_orphans_are_kept_and_reattach_to_the_changed_list(path: Path, papers: list[Paper]) -> None:
    store = NotesStore(path)
    for paper in papers[:6]:
        store.set_note(paper, f"my note on {paper.position}")
    store.save()

    changed_texts = [perturb(paper.abstract) for paper in papers[:4]] + abstracts()[10:14]
    changed = make_papers(changed_texts, list_name="icml-copy")
    assert not {paper.id for paper in changed} & {paper.id for paper in papers[:6]}
    reopened = NotesStore(path)
    assert {entry.paper_id for entry in reopened.orphans(changed)} == {p.id for p in papers[:6]}

    moves = reopened.reattach(changed)
    assert sorted(moves) == sorted((papers[i].id, changed[i].id) for i in range(4))
    for index in range(4):
        entry = reopened.get(changed[index])
        assert entry is not None and entry.note == f"my note on {index + 1}"
        assert entry.list_name == "icml-copy"
    # The two whose paper is gone stay orphans, nothing attaches to unrelated papers.
    assert {entry.paper_id for entry in reopened.orphans(changed)} == {p.id for p in papers[4:6]}
    reopened.save()
    assert NotesStore(path).get(changed[0]).note == "my note on 1"  # type: ignore[union-attr]


def test_reattach_never_overwrites_a_paper_that_has_a_note(path: Path, papers: list[Paper]) -> None:
    store = NotesStore(path)
    store.set_note(papers[0], "old note")
    changed = make_papers([perturb(papers[0].abstract)])
    store.set_note(changed[0], "note already on the new paper")
    assert store.reattach(changed) == []
    assert store.get(changed[0]).note == "note already on the new paper"  # type: ignore[union-attr]


def test_ids_survive_reordering_the_list(path: Path) -> None:
    texts = abstracts()
    store = NotesStore(path)
    for paper in make_papers(texts):
        store.set_note(paper, "about: " + paper.abstract[:30])
    store.save()
    shuffled = texts[7:] + texts[:7][::-1]
    reopened = NotesStore(path)
    reordered = make_papers(shuffled)
    assert reopened.orphans(reordered) == []
    for paper in reordered:
        assert reopened.get(paper).note == "about: " + paper.abstract[:30]  # type: ignore[union-attr]


# -- export and import ---------------------------------------------------------------------


def _filled_store(path: Path, papers: list[Paper]) -> NotesStore:
    store = NotesStore(path)
    store.set_note(papers[0], "# heading\n\nbody with -- dashes --> and <!-- a comment -->\n")
    store.set_tags(papers[0], ["rl", "todo"])
    store.set_state(papers[1], "read")
    store.set_starred(papers[2], True)
    store.set_note(papers[2], "")
    store.set_correction(papers[3], "authors", ["A. Person"])
    store.set_note(papers[4], "no trailing newline")
    store.save()
    return store


@pytest.mark.parametrize("kind", ["json", "markdown"])
def test_export_then_import_gives_the_same_store(
    tmp_path: Path, papers: list[Paper], kind: str
) -> None:
    source = _filled_store(tmp_path / "a.json", papers)
    # An orphan is exported too.
    keys = {paper.id: f"key{paper.position}" for paper in papers}
    render = export_json if kind == "json" else export_markdown
    text = render(source, papers[1:], keys)
    target = NotesStore(tmp_path / "b.json")
    assert target.merge_in(parse_export(text, "export"), "export") == 5
    assert target.entries == source.entries
    target.save()
    assert NotesStore(tmp_path / "b.json").entries == source.entries
    # Importing the same export again changes nothing.
    assert target.merge_in(parse_export(text, "export"), "export") == 0
    assert not target.dirty


def test_markdown_export_has_one_readable_section_per_paper(
    tmp_path: Path, papers: list[Paper]
) -> None:
    store = _filled_store(tmp_path / "a.json", papers)
    text = export_markdown(store, papers, {papers[0].id: "smith2026rl"})
    sections = text.split("\n## ")[1:]
    assert len(sections) == 5
    first = sections[0]
    assert first.startswith("Paper 1\n")
    assert "- Citation key: `smith2026rl`" in first
    assert "- State: unread" in first and "- Tags: rl, todo" in first
    assert "\n# heading\n\nbody with" in first


def test_importing_a_different_note_keeps_both(tmp_path: Path, papers: list[Paper]) -> None:
    mine = NotesStore(tmp_path / "mine.json")
    mine.set_note(papers[0], "my thoughts")
    theirs = NotesStore(tmp_path / "theirs.json")
    theirs.set_note(papers[0], "their thoughts")
    theirs.set_note(papers[1], "only theirs")
    mine.merge_in(parse_export(export_json(theirs, papers, {}), "x.json"), "x.json")
    note = mine.get(papers[0]).note  # type: ignore[union-attr]
    assert "my thoughts" in note and "their thoughts" in note and CONFLICT_START in note
    assert mine.get(papers[1]).note == "only theirs"  # type: ignore[union-attr]


def test_search_filters_read_the_store(path: Path, papers: list[Paper]) -> None:
    from paperdeck.core.search.index import SearchIndex

    store = NotesStore(path)
    store.set_tags(papers[3], ["foo"])
    store.set_tags(papers[5], ["foo", "bar"])
    store.set_tags(papers[6], ["bar"])
    store.set_state(papers[5], "read")
    store.set_note(papers[8], "a remark about curricula")
    store.save()
    entries = NotesStore(path).entries
    index = SearchIndex(papers)
    tagged = index.search("tag:foo", annotations=entries)
    assert sorted(tagged.indices) == [3, 5]
    read = index.search("is:read", annotations=entries)
    assert list(read.indices) == [5]
    noted = index.search("note:curricula", annotations=entries)
    assert list(noted.indices) == [8]


def test_entries_is_a_live_read_only_view(path: Path, papers: list[Paper]) -> None:
    store = NotesStore(path)
    view = store.entries
    other = NotesStore(path)
    other.set_note(papers[0], "from elsewhere")
    other.save()
    store.set_note(papers[1], "mine")
    assert papers[1].id in view
    store.save()
    assert view[papers[0].id].note == "from elsewhere"
    with pytest.raises(TypeError):
        view[papers[2].id] = NoteEntry(paper_id=papers[2].id)  # type: ignore[index]
    assert os.path.exists(path)


# -- the fast paths give what the careful ones would ---------------------------------------


def test_latex_backslashes_read_back_exactly(path: Path, papers: list[Paper]) -> None:
    store = NotesStore(path)
    text = "$\\beta$, $\\rho$, \\\\frac, \\u2028 as text, tab\there"
    store.set_note(papers[0], text)
    store.save()
    assert NotesStore(path).get(papers[0]).note == text  # type: ignore[union-attr]


def _many_papers(count: int) -> list[Paper]:
    return make_papers([f"abstract {n} " + "words " * (n % 17) for n in range(count)])


@pytest.mark.parametrize("layout", ["as written", "re-indented by hand"])
def test_saving_after_opening_a_big_file_writes_the_canonical_layout(
    path: Path, layout: str
) -> None:
    many = _many_papers(400)
    store = NotesStore(path)
    for paper in many:
        store.set_note(paper, f"note {paper.position}\nsecond line")
        store.set_tags(paper, ["a", "b"] if paper.position % 2 else [])
    store.set_correction(many[3], "title", "Corrected")
    store.save()
    if layout != "as written":
        path.write_text(json.dumps(json.loads(path.read_text()), indent=4), encoding="utf-8")
    reopened = NotesStore(path)
    reopened.set_note(many[10], "changed after reopening")
    reopened.save()
    text = path.read_text(encoding="utf-8")
    assert text == json.dumps(json.loads(text), sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    final = NotesStore(path)
    assert final.entries == reopened.entries
    assert final.get(many[10]).note == "changed after reopening"  # type: ignore[union-attr]
    assert final.get(many[11]).note == "note 12\nsecond line"  # type: ignore[union-attr]
    assert final.get(many[3]).corrections["title"] == "Corrected"  # type: ignore[union-attr]


def test_a_big_merge_keeps_every_note(path: Path) -> None:
    many = _many_papers(500)
    first, second = NotesStore(path), NotesStore(path)
    for paper in many[:250]:
        first.set_note(paper, f"first {paper.position}")
    for paper in many[250:]:
        second.set_note(paper, f"second {paper.position}")
    first.save()
    second.save()
    first.set_note(many[0], "first again")
    first.save()
    final = NotesStore(path)
    assert len(final.entries) == 500
    assert final.get(many[0]).note == "first again"  # type: ignore[union-attr]
    assert final.get(many[499]).note == "second 500"  # type: ignore[union-attr]
    text = path.read_text(encoding="utf-8")
    assert text == json.dumps(json.loads(text), sort_keys=True, indent=2, ensure_ascii=False) + "\n"

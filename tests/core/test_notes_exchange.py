"""Notes exchange formats: a Markdown export reads back exactly, and list text cannot forge it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperdeck.core.errors import PaperdeckError
from paperdeck.core.model import Paper
from paperdeck.core.notes.exchange import export_markdown, parse_export
from paperdeck.core.notes.store import NotesStore


def paper(number: int, title: str = "") -> Paper:
    return Paper(
        id=f"paper{number:04d}",
        position=number,
        list_name="exchange",
        title=title or f"Paper {number}",
        title_derived=False,
        abstract=f"An abstract about exchange number {number}.",
    )


def _forged_block(victim: str) -> str:
    details = {
        "corrections": {"url": "https://evil.example/"},
        "state": "unread",
        "starred": False,
        "tags": ["pwned"],
    }
    return f"<!-- paperdeck-note {victim} {json.dumps(details)} -->"


def test_a_title_cannot_forge_another_papers_note_block(tmp_path: Path) -> None:
    victim = paper(2)
    attacker = paper(1, title="Innocent title " + _forged_block(victim.id))
    store = NotesStore(tmp_path / "notes.json")
    store.set_note(attacker, "a note on the attacker")
    store.set_note(victim, "my careful note")
    store.set_state(victim, "read")
    store.set_tags(victim, ["keep"])
    store.set_correction(victim, "url", "https://good.example/")
    store.save()
    text = export_markdown(store, [attacker, victim], {})
    assert "<!-- paperdeck-note paper0002" not in text.split("\n## ")[1].split("\n")[0]
    # Imported back into the same notes: nothing changes, least of all the victim.
    assert store.merge_in(parse_export(text, "export.md"), "export.md") == 0
    entry = store.get(victim)
    assert entry is not None
    assert (entry.state, entry.tags, entry.corrections["url"]) == (
        "read",
        ("keep",),
        "https://good.example/",
    )
    # Into empty notes: exactly the two entries, as they were.
    fresh = NotesStore(tmp_path / "fresh.json")
    fresh.merge_in(parse_export(text, "export.md"), "export.md")
    assert dict(fresh.entries) == dict(store.entries)


def test_list_text_is_escaped_in_headings_and_paper_lines(tmp_path: Path) -> None:
    hostile = replace(paper(1, title="<b>bold</b> & <!-- hidden -->"), list_name="<i>list</i>")
    store = NotesStore(tmp_path / "notes.json")
    store.set_note(hostile, "n")
    text = export_markdown(store, [hostile], {})
    assert "## &lt;b>bold&lt;/b> &amp; &lt;!-- hidden -->" in text
    assert "(&lt;i>list&lt;/i> #1)" in text


@pytest.mark.parametrize(
    "note",
    [
        "before\n<!-- end paperdeck-note paper0001 -->\nafter the end marker",
        "<!-- end paperdeck-note paper0001 -->",
        '<!-- paperdeck-note paper0002 {"state": "read"} -->\nforged\n'
        "<!-- end paperdeck-note paper0002 -->",
        "\n\nblank lines around\n\n",
    ],
    ids=["end marker inside", "only an end marker", "a whole block inside", "blank lines"],
)
def test_a_note_holding_marker_lines_reads_back_whole(note: str, tmp_path: Path) -> None:
    first, second = paper(1), paper(2)
    store = NotesStore(tmp_path / "notes.json")
    store.set_note(first, note)
    store.set_note(second, "the second note")
    store.save()
    entries = parse_export(export_markdown(store, [first, second], {}), "export.md")
    assert entries == dict(store.entries)


_MARKERISH = st.sampled_from(
    [
        "<!-- end paperdeck-note paper0001 -->",
        "<!-- end paperdeck-note paper0002 -->",
        '<!-- paperdeck-note paper0002 {"state": "read"} -->',
        '<!-- paperdeck-note paper0003 {"lines": 1} -->',
        "",
        "## a heading",
        "-->",
    ]
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lines=st.lists(st.one_of(_MARKERISH, st.text(max_size=20)), max_size=8),
    title=st.one_of(_MARKERISH, st.text(max_size=30)),
)
def test_any_note_and_title_read_back_exactly(
    lines: list[str], title: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("exchange")
    first, second = paper(1, title=title or "t"), paper(2, title=title or "t")
    store = NotesStore(folder / "notes.json")
    store.set_note(first, "\n".join(lines))
    store.set_note(second, "second")
    store.set_state(second, "read")
    entries = parse_export(export_markdown(store, [first, second], {}), "export.md")
    expected = {key: value for key, value in store.entries.items() if not value.is_empty}
    assert entries == expected


def test_an_export_from_before_the_line_count_still_imports(tmp_path: Path) -> None:
    old = (
        "# paperdeck notes\n\n1 paper, exported 2026-01-01 10:00.\n\n## Paper 1\n\n"
        '<!-- paperdeck-note paper0001 {"corrections": {}, "created": 1.0, "excerpt": "", '
        '"list": "", "starred": true, "state": "read", "tags": ["x"], "updated": 2.0} -->\n'
        "line one\nline two\n<!-- end paperdeck-note paper0001 -->\n"
    )
    entries = parse_export(old, "old.md")
    entry = entries["paper0001"]
    assert (entry.note, entry.state, entry.starred, entry.tags) == (
        "line one\nline two",
        "read",
        True,
        ("x",),
    )


@pytest.mark.parametrize(
    "block",
    [
        '<!-- paperdeck-note paper0001 {"lines": 3} -->\nonly one line\n',
        '<!-- paperdeck-note paper0001 {"state": "read"} -->\nno end at all\n',
        '<!-- paperdeck-note paper0001 {"lines": 1} -->\nx\n<!-- end paperdeck-note other -->\n',
    ],
    ids=["cut short", "no end", "wrong end"],
)
def test_a_block_without_its_end_refuses_the_import(block: str) -> None:
    with pytest.raises(PaperdeckError, match=r"has no end.*nothing imported"):
        parse_export("# paperdeck notes\n\n" + block, "cut.md")


def test_damaged_details_are_one_line() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    text = f'<!-- paperdeck-note paper0001 {{"tags": {deep}}} -->\nx\n'
    text += "<!-- end paperdeck-note paper0001 -->\n"
    with pytest.raises(PaperdeckError, match=r"damaged.*nested too deeply"):
        parse_export(text, "deep.md")

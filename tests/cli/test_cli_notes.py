"""The notes commands as a user runs them: note, tag, mark, show, notes export/import/orphans."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

LIST = Path(__file__).parents[1] / "data" / "messy" / "no_header.txt"


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key != "PAPERDECK_NOTES"}
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "paperdeck", *args],
        capture_output=True,
        text=True,
        env=environment,
        timeout=60,
    )


def ok(*args: str, env: dict[str, str] | None = None) -> str:
    result = run(*args, env=env)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


def at(notes: Path, command: str, ref: str, *rest: str, path: Path = LIST) -> list[str]:
    """COMMAND REF [ACTION] PATH OPTIONS --notes FILE.

    argparse takes all positionals before the first option, so PATH must come before them.
    """
    cut = next((i for i, word in enumerate(rest) if word.startswith("-")), len(rest))
    return [command, ref, *rest[:cut], str(path), *rest[cut:], "--notes", str(notes)]


def stored(notes: Path) -> dict[str, dict[str, object]]:
    papers: dict[str, dict[str, object]] = json.loads(notes.read_text(encoding="utf-8"))["papers"]
    return papers


def paper_id(position: int, *paths: str) -> str:
    lines = ok("list", "--no-meta", *(paths or (str(LIST),))).splitlines()
    return lines[position - 1].split()[1]


def test_note_set_append_and_print(notes: Path) -> None:
    assert run(*at(notes, "note", "3")).stdout == ""
    assert "saved" in ok(*at(notes, "note", "3", "--set", "First thought."))
    ok(*at(notes, "note", "3", "--append", "Second: compare with $O(n^2)$ [baseline]"))
    assert (
        ok(*at(notes, "note", "3")) == "First thought.\nSecond: compare with $O(n^2)$ [baseline]\n"
    )
    entry = stored(notes)[paper_id(3)]
    assert entry["note"] == "First thought.\nSecond: compare with $O(n^2)$ [baseline]"
    assert entry["list"] == "no_header"
    assert "unchanged" in ok(
        *at(notes, "note", "3", "--set", "First thought.\nSecond: compare with $O(n^2)$ [baseline]")
    )


def test_note_edit_opens_the_editor_on_the_note(notes: Path, tmp_path: Path) -> None:
    editor = tmp_path / "editor.py"
    editor.write_text(
        "import sys\n"
        "path = sys.argv[1]\n"
        "text = open(path, encoding='utf-8').read()\n"
        "open(path, 'w', encoding='utf-8').write(text.upper() + ' (edited)\\n')\n",
        encoding="utf-8",
    )
    env = {"EDITOR": f"{sys.executable} {editor}", "VISUAL": ""}
    ok(*at(notes, "note", "2", "--set", "draft"))
    ok(*at(notes, "note", "2", "--edit"), env=env)
    assert ok(*at(notes, "note", "2")) == "DRAFT (edited)\n"

    failing = {"EDITOR": f"{sys.executable} -c 'raise SystemExit(3)'", "VISUAL": ""}
    result = run(*at(notes, "note", "2", "--edit"), env=failing)
    assert result.returncode == 2 and "status 3" in result.stderr
    assert ok(*at(notes, "note", "2")) == "DRAFT (edited)\n"


def test_an_editor_that_cannot_run_is_named_with_the_reason_once(
    notes: Path, tmp_path: Path
) -> None:
    """Before: "could not run the editor '/x/ed': [Errno 2] No such file or directory:
    '/x/ed'"."""
    missing = tmp_path / "no-such-editor"
    result = run(*at(notes, "note", "2", "--edit"), env={"EDITOR": str(missing), "VISUAL": ""})
    assert result.returncode == 2
    assert result.stderr == (
        f"paperdeck: could not run the editor '{missing}': No such file or directory\n"
    )


def test_a_note_edited_when_the_notes_cannot_be_saved_is_kept(notes: Path, tmp_path: Path) -> None:
    """Before, what was typed in the editor was gone when the save failed (here: the notes
    file locked by another paperdeck, which waits 5 s)."""
    fcntl = pytest.importorskip("fcntl")

    editor = tmp_path / "editor.py"
    editor.write_text(
        "import sys\nopen(sys.argv[1], 'w').write('typed with care\\n')\n", encoding="utf-8"
    )
    env = {"EDITOR": f"{sys.executable} {editor}", "VISUAL": ""}
    with open(notes.with_name("notes.json.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        result = run(*at(notes, "note", "2", "--edit"), env=env)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "locked by another paperdeck" in result.stderr
    kept = Path(result.stderr.split("your unsaved notes are in ")[1].strip())
    ok("notes", "import", str(kept), "--notes", str(notes))
    assert ok(*at(notes, "note", "2")) == "typed with care\n"


def test_tag_without_a_paper_names_only_the_paper_as_missing(notes: Path) -> None:
    """Before: "required: REF, +NAME|-NAME", though the tags are optional."""
    result = run("tag", "--notes", str(notes))
    assert result.returncode == 2
    assert result.stderr == (
        "paperdeck: the following arguments are required: REF (see `paperdeck tag --help`)\n"
    )


@pytest.mark.parametrize("word", ["todo", "+-x"])  # "-" is the list on stdin
def test_a_tag_without_its_sign_is_not_called_a_missing_file(notes: Path, word: str) -> None:
    """Before: "todo: no such file", as if `tag 3 todo` named a list."""
    result = run("tag", "3", word, str(LIST), "--notes", str(notes))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        f"paperdeck: {word}: no such file or tag change "
        "(a tag is added as +NAME, removed as -NAME)\n"
    )
    assert not notes.exists()


def test_a_note_typed_in_a_legacy_encoding_keeps_its_accents(notes: Path) -> None:
    """A Latin-1 terminal's "café" (bytes e9) next to UTF-8 "naïve": before, saved as "caf"."""
    typed = os.fsdecode("naïve ".encode() + b"caf\xe9 \x80")
    result = run(*at(notes, "note", "2", "--set", typed))
    assert result.returncode == 0, result.stderr
    assert result.stderr == (
        "paperdeck: the note given is not UTF-8 (a terminal in a legacy encoding?): "
        "read as Windows-1252\n"
    )
    assert ok(*at(notes, "note", "2")) == "naïve café €\n"


def piped(command: list[str], data: bytes) -> subprocess.CompletedProcess[bytes]:
    environment = {key: value for key, value in os.environ.items() if key != "PAPERDECK_NOTES"}
    return subprocess.run(
        [sys.executable, "-m", "paperdeck", *command],
        input=data,
        capture_output=True,
        env=environment,
        timeout=60,
    )


def test_a_note_dash_is_read_from_stdin(notes: Path) -> None:
    """A script's note of several lines, piped in; before, the note saved was "-"."""
    written = piped(at(notes, "note", "4", "--set", "-"), b"Key idea: [b]x[/b]\n\nto check\n")
    assert written.returncode == 0 and written.stderr == b""
    assert written.stdout.decode().endswith("saved (3 lines)\n")
    appended = piped(at(notes, "note", "4", "--append", "-"), "café\n".encode())
    assert appended.returncode == 0 and appended.stderr == b""
    assert ok(*at(notes, "note", "4")) == "Key idea: [b]x[/b]\n\nto check\ncafé\n"
    legacy = piped(at(notes, "note", "5", "--set", "-"), b"caf\xe9")
    assert legacy.returncode == 0
    assert legacy.stderr.decode() == (
        "paperdeck: the note on stdin is in a legacy encoding, not UTF-8: read as Windows-1252\n"
    )
    assert ok(*at(notes, "note", "5")) == "café\n"
    assert "- reads it from stdin" in " ".join(ok("note", "--help").split())


def test_tag_adds_and_removes_with_plus_and_minus(notes: Path) -> None:
    assert ok(*at(notes, "tag", "3", "+rl", "+todo")).strip().endswith(": rl, todo")
    # "-todo" and "-hard" look like options to argparse; "-h..." even like -h.
    assert ok(*at(notes, "tag", "3", "-todo", "+Hard")).strip().endswith(": rl, Hard")
    assert (
        ok("tag", "3", "-hard", "+x", str(LIST), "--notes", str(notes)).strip().endswith(": rl, x")
    )
    assert stored(notes)[paper_id(3)]["tags"] == ["rl", "x"]
    assert ok(*at(notes, "tag", "3")).strip().endswith(": rl, x")
    wrong = run(*at(notes, "tag", "3", "+y", "--bogus"))
    assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1 and "--bogus" in wrong.stderr


def test_a_note_replaced_by_set_is_printed_so_it_is_not_lost(notes: Path) -> None:
    # `note 1 --set ''` (an empty "$NOTE") said "saved (0 lines)", and `--set` typed for
    # `--append` "saved (1 line)": the note it replaced was gone, with no word of it.
    ok(*at(notes, "note", "3", "--set", "first thoughts:\nstrong baseline"))
    replaced = run(*at(notes, "note", "3", "--set", "check appendix"))
    assert replaced.returncode == 0 and "saved (1 line)" in replaced.stdout
    assert replaced.stderr.endswith(
        "(--append adds to a note):\nfirst thoughts:\nstrong baseline\n"
    ), replaced.stderr
    # Adding to it, or setting it to what it already holds and more, loses nothing: no word.
    grown = run(*at(notes, "note", "3", "--set", "check appendix and the proofs"))
    assert grown.returncode == 0 and grown.stderr == "", grown.stderr
    emptied = run(*at(notes, "note", "3", "--set", ""))
    assert emptied.stdout.strip().endswith("deleted"), emptied.stdout
    assert emptied.stderr.endswith("\ncheck appendix and the proofs\n"), emptied.stderr
    assert "note" not in stored(notes).get(paper_id(3), {})


def test_tags_joined_by_commas_are_several_tags_as_in_the_reader(notes: Path) -> None:
    # `tag 1 +a,b` kept one tag "a,b", printed "a,b, c" beside another: the reader's `t`
    # reads the same line as two tags, and its `-a,b` could not remove it.
    from paperdeck.ui.dialogs.tags_dialog import parse_edit

    assert parse_edit("rl,theory").add == ["rl", "theory"]
    assert ok(*at(notes, "tag", "3", "+rl,theory", "+todo")).strip().endswith(": rl, theory, todo")
    assert stored(notes)[paper_id(3)]["tags"] == ["rl", "theory", "todo"]
    assert ok(*at(notes, "tag", "3", "-rl,todo")).strip().endswith(": theory")
    wrong = run(*at(notes, "tag", "3", "+,"))
    assert wrong.returncode == 2 and "names no tag" in wrong.stderr, wrong.stderr


def test_mark_sets_state_and_star(notes: Path) -> None:
    ok(*at(notes, "mark", "1", "reading"))
    ok(*at(notes, "mark", "1", "star"))
    assert ok(*at(notes, "mark", "1", "read")).strip().endswith(": read, starred")
    entry = stored(notes)[paper_id(1)]
    assert (entry["state"], entry["starred"]) == ("read", True)
    ok(*at(notes, "mark", "1", "unstar"))
    ok(*at(notes, "mark", "1", "unread"))
    assert stored(notes) == {}  # nothing left worth keeping
    result = run(*at(notes, "mark", "1", "done"))
    assert result.returncode == 2


def test_show_prints_the_note_tags_and_state(notes: Path) -> None:
    ok(*at(notes, "note", "4", "--set", "line one\nline two"))
    ok(*at(notes, "tag", "4", "+theory"))
    ok(*at(notes, "mark", "4", "read"))
    shown = ok(*at(notes, "show", "4"))
    assert "State:   read" in shown and "Tags:    theory" in shown
    assert "Note:\n  line one\n  line two" in shown
    assert "Note:    (none)" in ok(*at(notes, "show", "5"))


@pytest.mark.parametrize("kind", ["json", "markdown"])
def test_export_then_import_gives_the_same_notes(notes: Path, tmp_path: Path, kind: str) -> None:
    ok(*at(notes, "note", "1", "--set", "# a heading\n\n- a list -- with dashes -->"))
    ok(*at(notes, "tag", "1", "+rl"))
    ok(*at(notes, "mark", "2", "star"))
    ok(*at(notes, "note", "6", "--set", "plain"))
    exported = tmp_path / f"export.{kind}"
    ok("notes", "export", "--format", kind, "-o", str(exported), "--notes", str(notes), str(LIST))
    text = exported.read_text(encoding="utf-8")
    if kind == "markdown":
        assert text.count("\n## ") == 3 and "- Tags: rl" in text
        assert re.search(r"- Citation key: `\w+", text)
    other = tmp_path / "other.json"
    assert "3 papers, 3 changed" in ok("notes", "import", str(exported), "--notes", str(other))
    assert stored(other) == stored(notes)
    assert "0 changed" in ok("notes", "import", str(exported), "--notes", str(other))


def test_export_to_stdout_is_markdown_by_default(notes: Path) -> None:
    ok(*at(notes, "note", "2", "--set", "hello"))
    out = ok("notes", "export", "--notes", str(notes), str(LIST))
    assert out.startswith("# paperdeck notes\n") and "\nhello\n" in out


def test_export_to_an_existing_file_is_refused_unless_forced(notes: Path, tmp_path: Path) -> None:
    ok(*at(notes, "note", "2", "--set", "hello"))
    mine = tmp_path / "reading.md"
    mine.write_text("# My own notes\n\nwritten by hand\n", encoding="utf-8")
    refused = run("notes", "export", "-o", str(mine), "--notes", str(notes), str(LIST))
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr == (
        f"paperdeck: {mine} exists (3 lines): give --force to replace it, or another -o FILE\n"
    )
    assert mine.read_text(encoding="utf-8") == "# My own notes\n\nwritten by hand\n"
    forced = ok("notes", "export", "-o", str(mine), "--force", "--notes", str(notes), str(LIST))
    assert forced == f"exported 1 paper to {mine} (the file it replaced is {mine}~)\n"
    assert "\nhello\n" in mine.read_text(encoding="utf-8")
    kept = tmp_path / "reading.md~"
    assert kept.read_text(encoding="utf-8") == "# My own notes\n\nwritten by hand\n"


def test_import_refuses_a_file_that_is_no_export(notes: Path, tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.txt"
    bogus.write_text("just some text\n", encoding="utf-8")
    result = run("notes", "import", str(bogus), "--notes", str(notes))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("paperdeck: ")


def test_orphans_are_listed_and_reattached(notes: Path, tmp_path: Path) -> None:
    paragraphs = [p for p in LIST.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    ok(*at(notes, "note", "2", "--set", "about the second"))
    # The same list as another site copies it: re-wrapped and a word's letter lost.
    changed = tmp_path / "copy.txt"
    second = paragraphs[1].replace("\n", " ").split(" ")
    second[3] = second[3][:-1]
    wrapped = "\n".join(" ".join(second[i : i + 10]) for i in range(0, len(second), 10))
    changed.write_text("\n\n".join([paragraphs[0], wrapped, *paragraphs[2:]]), encoding="utf-8")

    listed = ok("notes", "orphans", "--notes", str(notes), str(changed))
    assert listed.startswith(paper_id(2)) and "no_header" in listed
    assert ok("notes", "orphans", "--notes", str(notes), str(LIST)) == ""

    moved = ok("notes", "orphans", "--reattach", "--notes", str(notes), str(changed))
    assert moved.startswith(f"moved {paper_id(2)} -> #2 {paper_id(2, str(changed))}")
    assert ok(*at(notes, "note", "2", path=changed)) == "about the second\n"


def test_an_unwritable_notes_location_exits_2_with_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    folder = tmp_path / "folder.json"
    folder.mkdir()
    spare = tmp_path / "tmp"
    spare.mkdir()
    for location in (blocker / "notes.json", folder):
        result = run(*at(location, "note", "1", "--set", "lost?"), env={"TMPDIR": str(spare)})
        assert result.returncode == 2
        assert result.stderr.count("\n") == 1, result.stderr
        assert result.stderr.startswith("paperdeck: notes not saved (could not save notes")
        # Not lost: the note is in the recovery file the line names, which import reads back.
        kept = Path(result.stderr.split("your unsaved notes are in ")[1].strip())
        assert kept.parent == (spare if location.parent == blocker else tmp_path)
        other = tmp_path / "other.json"
        ok("notes", "import", str(kept), "--notes", str(other))
        assert ok(*at(other, "note", "1")) == "lost?\n"


def test_a_notes_file_with_one_bad_entry_and_no_backup_keeps_the_other_notes(
    notes: Path,
) -> None:
    """One paper stored with a state this paperdeck does not know: before, the whole file was
    moved aside and every note was gone from view ("no good backup, starting with no notes")."""
    ok(*at(notes, "note", "1", "--set", "first"))
    ok(*at(notes, "note", "2", "--set", "second"))
    document = json.loads(notes.read_text(encoding="utf-8"))
    document["papers"][paper_id(2)]["state"] = "skimmed"
    for backup in notes.parent.glob("notes.json.bak*"):
        backup.unlink()
    damaged = json.dumps(document).encode()
    notes.write_bytes(damaged)
    result = run(*at(notes, "note", "1"))
    assert result.returncode == 0 and result.stdout == "first\n"
    [line] = result.stderr.splitlines()
    assert line.endswith(
        "no good backup: kept its notes on 1 paper; those on 1 paper did not read and are "
        "only in the file moved aside"
    )
    [aside] = notes.parent.glob("notes.json.corrupt-*")
    assert aside.read_bytes() == damaged
    assert list(stored(notes)) == [paper_id(1)]


def test_a_damaged_notes_file_restored_from_a_backup_keeps_its_newer_notes(
    notes: Path,
) -> None:
    """Before, the backup alone came back: the last note written was only in the file moved
    aside, though it read."""
    ok(*at(notes, "note", "1", "--set", "old"))
    ok(*at(notes, "note", "2", "--set", "second"))
    ok(*at(notes, "note", "1", "--set", "newest"))
    document = json.loads(notes.read_text(encoding="utf-8"))
    document["papers"][paper_id(2)]["state"] = "skimmed"
    notes.write_text(json.dumps(document), encoding="utf-8")
    result = run(*at(notes, "note", "1"))
    assert result.returncode == 0 and result.stdout == "newest\n"
    [line] = result.stderr.splitlines()
    assert "restored the backup from" in line
    assert line.endswith(", with the newer notes on 1 paper it held")
    assert ok(*at(notes, "note", "2")) == "second\n"


def test_a_notes_file_made_read_only_is_not_replaced(notes: Path, tmp_path: Path) -> None:
    """chmod a-w notes.json: before, saving replaced it all the same (a rename needs only the
    folder to be writable), and kept the read-only mode on the new file."""
    ok(*at(notes, "note", "1", "--set", "frozen"))
    notes.chmod(0o444)
    held = notes.read_bytes()
    marked = run(*at(notes, "mark", "1", "read"))
    assert marked.returncode == 2
    assert marked.stderr == (
        f"paperdeck: not saving notes: {notes} is read-only (no write permission is set)\n"
    )
    typed = run(*at(notes, "note", "1", "--set", "typed anyway"))
    assert typed.returncode == 2 and typed.stderr.count("\n") == 1
    assert "your unsaved notes are in" in typed.stderr
    assert notes.read_bytes() == held
    assert ok(*at(notes, "note", "1")) == "frozen\n"


def test_a_corrupt_notes_file_is_reported_and_the_command_still_works(notes: Path) -> None:
    notes.write_text('{"version": 1, "papers": {', encoding="utf-8")
    result = run(*at(notes, "show", "1"))
    assert result.returncode == 0
    assert "moved it to" in result.stderr and result.stderr.count("\n") == 1
    assert "State:   unread" in result.stdout
    assert list(notes.parent.glob("notes.json.corrupt-*"))


@pytest.mark.parametrize(
    "held",
    [
        bytes(range(256)) * 4,  # a program or a PDF
        LIST.read_bytes(),  # the paper list itself, named by --notes by mistake
        b'{"name": "someone else\'s JSON", "private": true}\n',
    ],
    ids=["binary", "paper list", "other JSON"],
)
def test_a_notes_path_naming_another_file_leaves_that_file_alone(
    tmp_path: Path, held: bytes
) -> None:
    """`--notes FILE` naming a file paperdeck never wrote: it is neither moved aside nor
    replaced by notes; reading says so in one line, saving is refused in one line."""
    other = tmp_path / "thesis.pdf"
    other.write_bytes(held)
    shown = run(*at(other, "show", "1"))
    assert shown.returncode == 0 and "State:   unread" in shown.stdout
    assert shown.stderr.count("\n") == 1 and "not a paperdeck notes file" in shown.stderr
    changed = run(*at(other, "note", "1", "--set", "kept?"))
    assert changed.returncode == 2 and "Traceback" not in changed.stderr
    assert changed.stderr.count("\n") == 1
    assert changed.stderr.startswith("paperdeck: notes not saved (not saving notes:")
    assert other.read_bytes() == held
    beside = sorted(path.name for path in tmp_path.iterdir() if path.name != "thesis.pdf.lock")
    assert beside[0] == "thesis.pdf" and len(beside) == 2
    assert beside[1].startswith("thesis.pdf.recovered-")  # the note typed, kept


def test_the_environment_names_the_notes_file(notes: Path) -> None:
    ok("note", "1", str(LIST), "--set", "via env", env={"PAPERDECK_NOTES": str(notes)})
    assert ok("note", "1", str(LIST), env={"PAPERDECK_NOTES": str(notes)}) == "via env\n"
    assert notes.exists()


def test_notes_export_names_a_made_up_title_whole_as_citations_do(notes: Path) -> None:
    """A made-up title the list cuts with … to fit a row ("... over variety of objectives
    including…") is exported whole under its note, as the reading list and citations give it."""
    sgd = Path(__file__).parents[1] / "data" / "icml-sgd60.txt"
    listed = json.loads(ok("list", "--json", "--no-meta", str(sgd)))
    lines = ok("list", "--no-meta", str(sgd)).splitlines()
    position = next(n for n, line in enumerate(lines, 1) if line.endswith("…"))
    whole = listed[position - 1]["title"]
    assert not whole.endswith("…") and len(whole) > len(lines[position - 1].split("  ")[-1])
    ok(*at(notes, "note", str(position), "--set", "Read the proofs.", path=sgd))
    markdown = ok("notes", "export", str(sgd), "--no-meta", "--notes", str(notes))
    assert f"## {whole}\n" in markdown, markdown[:400]
    exported = json.loads(
        ok("notes", "export", "--format", "json", str(sgd), "--no-meta", "--notes", str(notes))
    )
    assert [paper["title"] for paper in exported["papers"].values()] == [whole]


def test_importing_a_damaged_notes_file_takes_every_note_that_reads(
    notes: Path, tmp_path: Path
) -> None:
    """A notes file moved aside (notes.json.corrupt-...) for one paper in a state this
    paperdeck does not know: before, importing it refused the whole file."""
    ok(*at(notes, "note", "1", "--set", "first"))
    ok(*at(notes, "note", "2", "--set", "second"))
    ok(*at(notes, "note", "3", "--set", "third"))
    document = json.loads(notes.read_text(encoding="utf-8"))
    document["papers"][paper_id(2)]["state"] = "skimmed"
    aside = tmp_path / "notes.json.corrupt-20261205-184500"
    aside.write_text(json.dumps(document), encoding="utf-8")
    other = tmp_path / "other.json"
    result = run("notes", "import", str(aside), "--notes", str(other))
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"imported {aside}: 2 papers, 2 changed\n"
    assert result.stderr == (
        f"paperdeck: {aside}: the notes on 1 paper did not read (stored in a form this "
        "paperdeck does not know) and were not imported\n"
    )
    assert ok(*at(other, "note", "1")) == "first\n"
    assert ok(*at(other, "note", "3")) == "third\n"
    assert ok(*at(other, "note", "2")) == ""


def test_importing_a_notes_file_where_no_note_reads_is_refused(notes: Path, tmp_path: Path) -> None:
    ok(*at(notes, "note", "1", "--set", "first"))
    document = json.loads(notes.read_text(encoding="utf-8"))
    document["papers"][paper_id(1)]["state"] = "skimmed"
    aside = tmp_path / "notes.json.corrupt-20261205-184500"
    aside.write_text(json.dumps(document), encoding="utf-8")
    result = run("notes", "import", str(aside), "--notes", str(tmp_path / "other.json"))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "not a paperdeck notes export" in result.stderr
    assert not (tmp_path / "other.json").exists()


def test_a_file_that_notes_import_cannot_use_is_named_as_given(notes: Path, tmp_path: Path) -> None:
    """Before: '/x/gone.json: No such file or directory', and 'passwd: not a ...' for
    /etc/passwd (a file of that name in the current folder, read as it was)."""
    gone = tmp_path / "gone.json"
    result = run("notes", "import", str(gone), "--notes", str(notes))
    assert (result.returncode, result.stderr) == (2, f"paperdeck: {gone}: no such file\n")
    other = tmp_path / "passwd"
    other.write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    result = run("notes", "import", str(other), "--notes", str(notes))
    assert result.returncode == 2
    assert result.stderr == f"paperdeck: {other}: not a paperdeck notes export (JSON or markdown)\n"
    assert not notes.exists()

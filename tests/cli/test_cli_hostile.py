"""Hostile input at the command line: each case one line on stderr and a non-zero status.

Every hostile file is made by the test (issue 19: FIFOs, devices, huge or deeply nested files,
non-UTF-8 names, forged note blocks); nothing large is committed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

LIST = Path(__file__).parents[1] / "data" / "messy" / "no_header.txt"


def run(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key != "PAPERDECK_NOTES"}
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "paperdeck", *map(str, args)],
        capture_output=True,
        text=True,
        errors="replace",
        env=environment,
        timeout=60,
    )


def ok(*args: str | Path, env: dict[str, str] | None = None) -> str:
    result = run(*args, env=env)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


def refused(*args: str | Path) -> str:
    """The one line a refused command prints (status 2, no traceback)."""
    result = run(*args)
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert lines and lines[-1].startswith("paperdeck: "), result.stderr
    return lines[-1]


# -- global options before the command ------------------------------------------------------


def test_global_options_before_the_command_apply_to_it(tmp_path: Path) -> None:
    notes = tmp_path / "notes.json"
    ok("--notes", notes, "note", "1", LIST, "--set", "given before the command")
    assert "given before the command" in notes.read_text(encoding="utf-8")
    assert ok("--notes", notes, "note", "1", LIST) == "given before the command\n"
    assert ok("--notes", notes, "list", LIST) == ok("list", LIST, "--notes", notes)
    bibtex = ok("--no-meta", "cite", "1", LIST, "--format", "bibtex", "--notes", notes)
    assert bibtex.lstrip("% \n").splitlines()[-1] == "}" and "@" in bibtex
    # The list format given before a command still means the list's format.
    assert ok("--list-format", "txt", "list", LIST) == ok("list", LIST)


def test_an_unknown_global_option_is_one_line() -> None:
    assert "unrecognized arguments: --bogus" in refused("--bogus", "list", LIST)


# -- references ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ref", ["²", "①", "٣", "1" * 5000], ids=["superscript", "circled", "arabic", "5000 digits"]
)
@pytest.mark.parametrize("command", ["show", "note", "tag", "mark", "cite"])
def test_a_reference_of_unusual_digits_is_refused_in_one_line(
    command: str, ref: str, tmp_path: Path
) -> None:
    extra = ["read"] if command == "mark" else []
    line = refused(command, ref, *extra, LIST, "--notes", tmp_path / "n.json")
    assert "no paper" in line


@pytest.mark.parametrize(
    ("ref", "said"),
    [("-1", "-1: no paper at that position (1..20)"), ("", "an empty paper reference")],
    ids=["minus one", "empty"],
)
@pytest.mark.parametrize("command", ["show", "note", "tag", "mark", "cite", "related"])
def test_a_negative_or_empty_reference_is_named_as_such(
    command: str, ref: str, said: str, tmp_path: Path
) -> None:
    """Before, `show -1 LIST` answered "name the paper before the list: `paperdeck show -1 REF
    LIST`" and `cite '' LIST` "name the papers before the list ... `paperdeck cite 12 40 `"."""
    extra = ["read"] if command == "mark" else []
    line = refused(command, ref, *extra, LIST, "--notes", tmp_path / "n.json")
    assert line == f"paperdeck: {said}"


@pytest.mark.parametrize("refs", [["1.5"], ["1", "2.0"], ["3,5"]])
def test_cite_takes_a_mistyped_position_for_a_reference_not_a_list(
    refs: list[str], tmp_path: Path
) -> None:
    """Before, `cite 1.5 LIST` answered "name the papers before the list: `paperdeck cite 12
    40 1.5`" and `cite 1 2.0 LIST` "2.0: no such file"."""
    line = refused("cite", *refs, LIST, "--notes", tmp_path / "n.json")
    assert line == f"paperdeck: {refs[-1]}: no paper with that id or position"


@pytest.mark.parametrize("command", ["show", "note", "mark", "related"])
def test_a_second_reference_to_a_command_of_one_is_not_called_a_missing_list(
    command: str, tmp_path: Path
) -> None:
    """Before, `related 1 2 LIST` (papers like these two) answered "2: no such file", as if
    a list were missing; a list's name that is missing is still said as it was."""
    extra = ["read"] if command == "mark" else []
    line = refused(command, "1", *extra, "2", LIST, "--notes", tmp_path / "n.json")
    said = f"`paperdeck {command}` takes one paper (REF), then the lists"
    assert line == f"paperdeck: 2: no such file; {said}"
    line = refused(command, "1", *extra, "gone.txt", LIST, "--notes", tmp_path / "n.json")
    assert line == "paperdeck: gone.txt: no such file"


@pytest.mark.parametrize(
    ("command", "argument"),
    [
        (["list", ""], "PATH"),
        (["show", "1", LIST, ""], "PATH"),
        (["--meta", "", "list", LIST], "--meta"),
        (["export", LIST, "-o", ""], "-o/--output"),
        (["notes", "export", LIST, "-o", ""], "-o/--output"),
        (["notes", "import", ""], "FILE"),
        (["enrich", LIST, "-o", ""], "-o/--output"),
        (["note", "1", LIST, "--set", "kept?", "--notes", ""], "--notes"),
        (["notes", "export", LIST, "--notes", ""], "--notes"),
    ],
)
def test_an_empty_file_name_is_named_as_such(command: list[str | Path], argument: str) -> None:
    """Before, `paperdeck list ''` answered ".: is a directory", and `--notes ''` saved to
    $PAPERDECK_NOTES or the default notes file as if no --notes had been given."""
    line = refused(*command)
    assert line.startswith(f"paperdeck: argument {argument}: an empty file name (see `")


@pytest.mark.parametrize(
    "command",
    [["search", "{long}"], ["show", "{long}"], ["cite", "1", "-f", "{long}"]],
    ids=["query", "ref", "style"],
)
def test_a_very_long_argument_is_quoted_by_its_ends_in_the_error(command: list[str]) -> None:
    """Before, a 100,000-character query came back whole in the error line."""
    long = "q" * 50_000 + "z" * 50_000
    result = run(*[word.replace("{long}", long) for word in command], LIST)
    assert result.returncode in (1, 2) and "Traceback" not in result.stderr
    [line] = result.stderr.splitlines()
    assert line.startswith("paperdeck: ") and len(line) < 2_100
    assert "qqqq" in line and "zzzz" in line and " characters left out) … " in line


@pytest.mark.parametrize("command", [["list"], ["search", "learning"], ["cite", "1"]])
def test_a_list_named_twice_is_read_once_and_said_so(command: list[str], tmp_path: Path) -> None:
    """Before, every paper came twice (#1 and #21 the same paper)."""
    link = tmp_path / "same.txt"
    link.symlink_to(LIST)
    result = run(*command, LIST, LIST, link)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ok(*command, LIST)
    told = [line for line in result.stderr.splitlines() if "read once" in line]
    assert told == [
        f"paperdeck: {LIST}: named twice; read once",
        f"paperdeck: {link}: the same file as {LIST}; read once",
    ]


@pytest.mark.parametrize("command", [["list"], ["search", "learning"], ["show", "1"]])
@pytest.mark.parametrize(
    "env",
    [
        {"PYTHONIOENCODING": "ascii"},
        {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"},
    ],
    ids=["ascii", "C locale"],
)
def test_an_output_short_of_unicode_gets_question_marks_not_a_traceback(
    command: list[str], env: dict[str, str], tmp_path: Path
) -> None:
    """Before, list and search died on their first "≈" with a UnicodeEncodeError."""
    listing = tmp_path / "accents.txt"
    listing.write_text(
        "Café au lait: we study bandits with regret bounds in naïve settings, and learning "
        "with many more words so that the paragraph reads as an abstract of a paper.\n",
        encoding="utf-8",
    )
    result = run(*command, listing, "--notes", tmp_path / "n.json", env=env)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "na?ve settings" in result.stdout


# -- files that are not lists ---------------------------------------------------------------


@pytest.mark.parametrize("command", [["list"], ["show", "1"], ["search", "learning"]])
def test_a_damaged_metadata_file_beside_the_list_says_how_to_open_the_list(
    command: list[str], tmp_path: Path
) -> None:
    """The user named the list, not NAME.meta.jsonl: before, only "NAME.meta.jsonl: not a text
    file", with no word of where that file came from or how to get past it."""
    listing = tmp_path / "talks.txt"
    listing.write_bytes(LIST.read_bytes())
    (tmp_path / "talks.meta.jsonl").write_bytes(bytes(range(256)))
    line = refused(*command, listing)
    assert line == (
        f"paperdeck: {tmp_path / 'talks.meta.jsonl'}: not a text file (found beside talks.txt "
        "as its metadata; --no-meta opens the list without it)"
    )
    assert ok(*command, listing, "--no-meta")


@pytest.mark.parametrize(
    ("name", "text", "why"),
    [
        ("cut.jsonl", '{"title": "x", "abstract": "cut off\n', "line 1: not valid JSON"),
        ("cut.bib", "@article{key, title={cut off", "line 1: entry key: not valid BibTeX ("),
        ("empty.csv", "title,abstract\n,\n", "line 2: no abstract or title"),
    ],
)
def test_a_list_of_which_nothing_reads_says_why_in_its_one_line(
    name: str, text: str, why: str, tmp_path: Path
) -> None:
    """Before: "no papers found (1 skipped)", and no way to learn why."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    line = refused("list", path)
    assert line.startswith(f"paperdeck: {path}: no papers found (1 skipped; {why}")


def test_a_fifo_without_a_writer_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "list.txt"
    os.mkfifo(fifo)
    assert "not a regular file" in refused("list", fifo)
    assert "not a regular file" in refused("notes", "import", fifo, "--notes", tmp_path / "n")
    assert "not a regular file" in refused("list", LIST, "--meta", fifo)


def test_a_device_is_refused_not_read_forever(tmp_path: Path) -> None:
    assert "not a regular file" in refused("list", "/dev/zero")
    assert "not a regular file" in refused("notes", "import", "/dev/zero", "--notes", tmp_path)


def test_a_huge_file_is_refused_by_its_size_before_it_is_read(tmp_path: Path) -> None:
    huge = tmp_path / "huge.txt"
    with huge.open("wb") as handle:  # sparse: takes no disk
        handle.write(LIST.read_bytes())
        handle.truncate(3 << 30)
    line = refused("list", huge)
    assert "larger than any paper list (the limit is 2 GB)" in line
    export = tmp_path / "huge.md"
    with export.open("wb") as handle:
        handle.truncate(1 << 30)
    assert "larger than 256 MB" in refused("notes", "import", export, "--notes", tmp_path / "n")


@pytest.mark.parametrize(
    "document",
    [
        '[{"title": "t", "abstract": "a", "n": ' + "1" * 5000 + "}]",
        "[" * 100_000 + "]" * 100_000,
        '{"papers": ' + "[" * 100_000 + "]" * 100_000 + "}",
    ],
    ids=["5000-digit int", "deep array", "deep wrapper"],
)
def test_json_lists_too_deep_or_with_huge_numbers_are_refused(
    document: str, tmp_path: Path
) -> None:
    path = tmp_path / "list.json"
    path.write_text(document, encoding="utf-8")
    line = refused("list", path)
    assert "nested too deeply" in line or "a number too long" in line


@pytest.mark.parametrize(
    "document",
    [
        '{"version": 1, "papers": {"abcd1234": {"note": "x", "created": ' + "9" * 5000 + "}}}",
        '{"version": 1, "papers": ' + "[" * 100_000 + "]" * 100_000 + "}",
    ],
    ids=["5000-digit int", "deep"],
)
def test_notes_files_and_imports_too_deep_or_with_huge_numbers(
    document: str, tmp_path: Path
) -> None:
    hostile = tmp_path / "hostile.json"
    hostile.write_text(document, encoding="utf-8")
    line = refused("notes", "import", hostile, "--notes", tmp_path / "n.json")
    assert "nested too deeply" in line or "a number too long" in line
    # As the notes file itself: moved aside, said in one line, the command still works.
    result = run("note", "1", LIST, "--set", "still saved", "--notes", hostile)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert "moved it to" in result.stderr
    assert json.loads(hostile.read_text(encoding="utf-8"))["papers"]


def test_a_list_with_a_non_utf8_name_works_in_every_command(tmp_path: Path) -> None:
    name = os.fsdecode(b"caf\xe9 list.txt")
    path = tmp_path / name
    path.write_bytes(LIST.read_bytes())
    notes = tmp_path / "notes.json"
    assert ok("list", path).count("\n") > 3
    ok("show", "1", path, "--notes", notes)
    ok("search", "learning", path)
    ok("note", "1", path, "--set", "a note", "--notes", notes)
    ok("tag", "1", "+x", path, "--notes", notes)
    ok("mark", "1", "read", path, "--notes", notes)
    ok("cite", "1", path, "--notes", notes)
    assert "a note" in ok("notes", "export", path, "--notes", notes)
    missing = refused("list", tmp_path / os.fsdecode(b"gone\xff.txt"))
    # The byte that is no UTF-8 is shown, not dropped (which named another file, gone.txt).
    assert missing == f"paperdeck: {tmp_path}/gone\\xff.txt: no such file"


@pytest.mark.parametrize(
    "command",
    [["list", "{long}"], ["list", "--meta", "{long}"], ["cite", "1", "-f", "{long}"]],
    ids=["list", "meta", "style"],
)
def test_a_file_name_too_long_is_named_not_taken_for_the_output(
    command: list[str], tmp_path: Path
) -> None:
    """Before, a name the system refuses as too long read "cannot write output: File name too
    long", as if stdout had failed."""
    long = str(tmp_path / ("y" * 300 + (".csl" if "cite" in command else ".txt")))
    line = refused(*[word.replace("{long}", long) for word in command], LIST)
    assert line.startswith(f"paperdeck: {long}: ") and "File name too long" in line


# -- notes import ---------------------------------------------------------------------------


def test_an_import_with_no_complete_note_imports_nothing_and_says_so(tmp_path: Path) -> None:
    cut = tmp_path / "cut.md"
    cut.write_text(
        '# paperdeck notes\n\n<!-- paperdeck-note abcd1234 {"state": "read"} -->\nhalf a note\n',
        encoding="utf-8",
    )
    line = refused("notes", "import", cut, "--notes", tmp_path / "n.json")
    assert "has no end" in line and "nothing imported" in line
    assert not (tmp_path / "n.json").exists()
    empty = tmp_path / "empty.json"
    empty.write_text('{"version": 1, "papers": {}}\n', encoding="utf-8")
    assert "nothing imported" in refused("notes", "import", empty, "--notes", tmp_path / "n")


def test_block_starts_without_ends_import_in_linear_time(tmp_path: Path) -> None:
    # 77 KB of starts took 674 s with the old pattern; a pass over lines takes milliseconds.
    start = '<!-- paperdeck-note abcd1234 {"state": "read"} -->\nx\n'
    hostile = tmp_path / "starts.md"
    hostile.write_text("# paperdeck notes\n" + start * 20_000, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "paperdeck", "notes", "import", str(hostile), "--notes",
         str(tmp_path / "n.json")],
        capture_output=True,
        text=True,
        timeout=30,  # a hang guard, not a speed measure: the old code needed hours here
    )  # fmt: skip
    assert result.returncode == 2 and "has no end" in result.stderr


def test_note_edit_keeps_text_an_editor_saved_as_latin1(tmp_path: Path) -> None:
    notes = tmp_path / "notes.json"
    editor = tmp_path / "editor.py"
    editor.write_text(
        "import sys\n"
        "open(sys.argv[1], 'wb').write('Café crème, naïve — résumé\\n'.encode('cp1252'))\n",
        encoding="utf-8",
    )
    env = {"EDITOR": f"{sys.executable} {editor}", "VISUAL": ""}
    result = run("note", "2", LIST, "--edit", "--notes", notes, env=env)
    assert result.returncode == 0, result.stderr
    assert "not UTF-8" in result.stderr and "Traceback" not in result.stderr
    assert ok("note", "2", LIST, "--notes", notes) == "Café crème, naïve — résumé\n"


# -- show of hostile abstracts ----------------------------------------------------------------


def test_show_renders_deep_nesting_and_a_huge_word(tmp_path: Path) -> None:
    path = tmp_path / "hostile.txt"
    deep = "\\emph{" * 300 + "deepest" + "}" * 300
    # An abstract of words besides: a file of only these is no paper list (refused as one).
    prose = "We read hostile lists without a crash."
    path.write_text(
        f"ICML 2026 accepted papers\n\n{deep}\n\n{'w' * 3_000_000}\n\n{prose}\n", encoding="utf-8"
    )
    assert "deepest" in ok("show", "1", path, "--notes", tmp_path / "n.json")
    shown = ok("show", "2", path, "--notes", tmp_path / "n.json", env={"COLUMNS": "80"})
    wrapped = [line for line in shown.splitlines() if line and set(line) == {"w"}]
    assert sum(map(len, wrapped)) == 3_000_000 and max(map(len, wrapped)) <= 80


def test_long_paragraphs_wrap_as_textwrap_would() -> None:
    import random
    import textwrap

    from paperdeck.cli.browse import _fill

    rng = random.Random(19)
    words = ["a", "paper", "on", "learning", "x" * 79, "representations", "é中"]
    paragraph = " ".join(rng.choice(words) for _ in range(20_000))
    assert len(paragraph) > 50_000
    assert _fill(paragraph, 80) == textwrap.fill(paragraph, 80)
    long_word = "y" * 100_001
    assert _fill(f"start {long_word} end", 80).split("\n") == [
        "start",
        *[long_word[i : i + 80] for i in range(0, 100_001, 80)][:-1],
        "y end",
    ]


@pytest.mark.parametrize("quoted", [False, True], ids=["bare", "quoted"])
def test_an_oversized_csv_field_is_reported_on_its_own_line(tmp_path: Path, quoted: bool) -> None:
    """Before, a field over the csv module's limit on line 2 was reported as line 1."""
    path = tmp_path / "big.csv"
    huge = "x" * 200_000
    rows = ["title,abstract", f"Short paper,{json.dumps(huge) if quoted else huge}"]
    path.write_text("\n".join([*rows, "Another paper,a fine abstract", ""]), encoding="utf-8")
    result = run("list", path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["1", result.stdout.split()[1], "Another", "paper"]
    assert result.stderr == (
        f"paperdeck: {path}:2: field larger than field limit (131072); skipped\n"
    )
    path.write_text("\n".join([*rows, ""]), encoding="utf-8")
    assert refused("list", path) == (
        f"paperdeck: {path}: no papers found (1 skipped; line 2: field larger than field limit "
        "(131072))"
    )

"""What a new user trying the commands sees: blank queries, `--help`, whole titles in JSON."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from tests.cli.test_cli_search import run

from paperdeck.cli.main import COMMAND_FAMILIES
from paperdeck.core.resources import bundled_list


@pytest.mark.parametrize("query", ["", "   ", "\t"])
def test_a_blank_query_is_a_usage_error(query: str, notes: Path) -> None:
    result = run("search", query, notes=notes)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("paperdeck: search: QUERY is empty")
    assert result.stderr.count("\n") == 1
    assert run("search", query, "--json", notes=notes).returncode == 2


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("(", "'(' has nothing to look for"),
        ("tag:", "'tag:' has nothing to look for"),
        ('""', "'\"\"' has nothing to look for"),
        (
            "is:stared",
            "unknown filter is:stared (known: is:starred, is:unread, is:reading, "
            "is:read); ignored; nothing is left to look for",
        ),
    ],
)
def test_a_query_with_nothing_to_look_for_is_a_usage_error(
    query: str, said: str, notes: Path
) -> None:
    """Before, each printed every paper of the list, scored 0.00, and exit status 0; and
    `export -q is:stared` exported every paper."""
    result = run("search", query, notes=notes)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"paperdeck: search: {said} (`paperdeck list` lists all)\n"
    exported = run("export", "-q", query, notes=notes)
    assert (exported.returncode, exported.stdout) == (2, "")
    assert exported.stderr == (f"paperdeck: export: {said} (without -q every paper is exported)\n")


def test_help_gives_every_command_a_line_saying_what_it_does(notes: Path) -> None:
    result = run("--help", notes=notes)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    start = lines.index("commands (`paperdeck COMMAND --help` for each):")
    table = lines[start + 1 :]
    assert [line.split()[0] for line in table] == list(COMMAND_FAMILIES)
    for line in table:
        _name, summary = line.split(maxsplit=1)
        assert len(summary.split()) >= 4, line
        assert len(line) <= 80, line
    # The line says what the command's own help says it does.
    assert "tags" in table[list(COMMAND_FAMILIES).index("tag")]
    tag_help = run("tag", "--help", notes=notes).stdout
    assert "Add (+NAME) or remove (-NAME) a paper's tags" in tag_help


def test_the_readme_triage_example_runs_as_written(notes: Path) -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Triage a conference list", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line.split("#", 1) for line in block.splitlines()]
    assert commands[0][0].split() == ["paperdeck"], "the first example opens the bundled list"
    # The figures it quotes are the bundled list's.
    total = len(run("list", notes=notes).stdout.splitlines())
    assert f'"0 / {total} read"' in commands[0][1]
    assert f"/ {total} read`" in section
    for words, comment in commands[1:]:
        paths = words.split()[1:]
        # Any other path is the reader's own, and said to be.
        assert all(path.startswith("~/") for path in paths) and "your own" in comment
    # Its search finds papers of the bundled list.
    query = section.split("(`/", 1)[1].split("`)", 1)[0]
    found = run("search", query, "--all-terms", notes=notes)
    assert found.returncode == 0 and found.stdout.strip(), query


def test_json_carries_a_made_up_title_whole_where_lines_cut_it(notes: Path, tmp_path: Path) -> None:
    seed = Path(__file__).resolve().parents[2] / "seeds" / "icml2026.txt"
    plain = tmp_path / "papers.txt"  # no metadata beside it: every title is made up
    plain.write_bytes(seed.read_bytes())
    lines = run("list", str(plain), notes=notes).stdout.splitlines()
    cut = {line.split()[1]: line.split("≈ ", 1)[1] for line in lines if line.endswith("…")}
    assert len(cut) >= 3
    # The first search reads the list and keeps it; the second reads the kept one.
    for _ in range(2):
        shown = run("search", "benchmark", str(plain), "--limit", "0", notes=notes).stdout
        assert any(line.endswith("…") for line in shown.splitlines())
        result = run("search", "benchmark", str(plain), "--json", "--limit", "0", notes=notes)
        assert result.returncode == 0, result.stderr
        rows = [row for row in json.loads(result.stdout) if row["id"] in cut]
        assert rows
        for row in rows:
            assert row["title_derived"] and not row["title"].endswith("…"), row["title"]
            assert row["title"].startswith(cut[row["id"]].removesuffix("…"))
    for command in (["list"], ["related", "1", "--limit", "0"]):
        result = run(*command, str(plain), "--json", notes=notes)
        assert result.returncode == 0, result.stderr
        titles = {row["id"]: row["title"] for row in json.loads(result.stdout)}
        assert all(not titles[i].endswith("…") for i in cut if i in titles), command
        assert any(i in titles for i in cut), command


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        (["search", "LIST", "speculative rollout"], ["search", "speculative rollout", "LIST"]),
        (["search", "--json", "LIST", "rollout"], ["search", "--json", "rollout", "LIST"]),
        (["search", "LIST"], ["search", "QUERY", "LIST"]),
        (["show", "LIST", "4"], ["show", "4", "LIST"]),
        (["show", "LIST"], ["show", "REF", "LIST"]),
        (["related", "LIST", "4", "--limit", "2"], ["related", "4", "--limit", "2", "LIST"]),
        (["note", "LIST", "4", "--set", "to read"], ["note", "4", "--set", "to read", "LIST"]),
        (["tag", "LIST", "4", "+rl"], ["tag", "4", "+rl", "LIST"]),
        (["mark", "LIST", "4", "star"], ["mark", "4", "star", "LIST"]),
        (["notes", "LIST", "export"], ["notes", "export", "LIST"]),
    ],
)
def test_a_list_named_before_the_commands_own_argument_says_what_to_type(
    typed: list[str], meant: list[str], notes: Path, tmp_path: Path
) -> None:
    """`paperdeck search FILE words` said `words: no such file`, with no hint of the order."""
    talk = tmp_path / "talk.txt"
    talk.write_bytes(bundled_list().read_bytes())
    put = [str(talk) if word == "LIST" else word for word in typed]
    result = run(*put, notes=notes)
    assert (result.returncode, result.stdout) == (2, ""), result.stdout
    fixed = shlex.join(["paperdeck", *(str(talk) if word == "LIST" else word for word in meant)])
    what = "the query" if typed[0] == "search" else "the action" if typed[0] == "notes" else ""
    assert result.stderr.startswith(f"paperdeck: {typed[0]}: name {what}"), result.stderr
    assert result.stderr.endswith(f" before the list: `{fixed}`\n"), result.stderr
    # Typed as it says, the command runs.
    if "QUERY" not in meant and "REF" not in meant:
        done = run(*[str(talk) if word == "LIST" else word for word in meant], notes=notes)
        assert done.returncode == 0 and done.stdout, done.stderr


def test_related_to_the_starred_papers_of_a_list_takes_the_list_as_a_list(
    notes: Path, tmp_path: Path
) -> None:
    talk = tmp_path / "talk.txt"
    talk.write_bytes(bundled_list().read_bytes())
    assert run("mark", "4", "star", str(talk), notes=notes).returncode == 0
    # REF is optional with --starred: the list was taken for a paper ("no paper with that id").
    result = run("related", "--starred", str(talk), "--limit", "3", notes=notes)
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == 3


PASSWD = "".join(
    f"{name}:x:{n}:{n}:{name}:/var/{name}:/usr/sbin/nologin\n"
    for n, name in enumerate(["root", "daemon", "bin", "sys", "sync", "games", "man", "mail"])
)
"""A file like /etc/passwd: text, one paragraph, no word of prose."""
HOSTS = "127.0.0.1 localhost\n::1 localhost ip6-localhost ip6-loopback\n10.0.0.2 runsc vm\n"


@pytest.mark.parametrize(
    "text", [PASSWD, HOSTS, "0.5 0.25 0.125\n\n1 2 3 4 5\n"], ids=["passwd", "hosts", "numbers"]
)
def test_a_text_file_that_is_no_paper_list_is_refused_in_one_line(
    text: str, notes: Path, tmp_path: Path
) -> None:
    """`paperdeck show 1 /etc/passwd` showed its lines as paper 1, without a word."""
    path = tmp_path / "passwd"
    path.write_text(text, encoding="utf-8")
    for command in (["show", "1"], ["list"], ["search", "root"]):
        result = run(*command, str(path), notes=notes)
        assert (result.returncode, result.stdout) == (2, ""), (command, result.stdout)
        assert result.stderr == (
            f"paperdeck: {path}: not a paper list (no paragraph of it reads as an abstract; a"
            " plain-text list has one abstract a paragraph)\n"
        )


def test_a_list_with_one_abstract_among_lines_of_no_prose_is_a_list(
    notes: Path, tmp_path: Path
) -> None:
    """Refused only when no paragraph reads as an abstract: a list with a stray table, a short
    abstract, or abstracts in Chinese (no spaces between words) is read as it was."""
    path = tmp_path / "mixed.txt"
    chinese = "本文提出了一种新的图神经网络方法，用于分子性质预测。实验表明该方法优于现有方法。"
    path.write_text(
        f"Papers\n\n{PASSWD}\n{HOSTS}\nAn abstract about graphs.\n\n{chinese}\n", encoding="utf-8"
    )
    result = run("list", str(path), notes=notes)
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == 4
    only = tmp_path / "chinese.txt"
    only.write_text(f"论文列表\n\n{chinese}\n\n{chinese.replace('分子', '蛋白质')}\n", "utf-8")
    assert len(run("list", str(only), notes=notes).stdout.splitlines()) == 2

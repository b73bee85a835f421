"""`paperdeck search` with papers missing some words, and `paperdeck related`, as run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from paperdeck.cli.browse import NO_PAPER_HAS_ALL, SOME_WORDS_DIVIDER


def run(*args: str, notes: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PAPERDECK_NOTES=str(notes))
    return subprocess.run(
        [sys.executable, "-m", "paperdeck", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_search_json_marks_which_papers_have_every_word(notes: Path) -> None:
    result = run("search", "speculative rollout", "--json", "--limit", "0", notes=notes)
    assert result.returncode == 0, result.stderr
    hits = json.loads(result.stdout)
    assert [hit["match"] for hit in hits] == ["all"] + ["some"] * (len(hits) - 1)
    assert hits[0]["title"].startswith("BubbleSpec") and len(hits) >= 2
    assert "SafeSpec" in hits[1]["title"]


def test_all_terms_keeps_only_full_matches(notes: Path) -> None:
    result = run("search", "speculative rollout", "--json", "--all-terms", notes=notes)
    assert result.returncode == 0, result.stderr
    assert [hit["match"] for hit in json.loads(result.stdout)] == ["all"]
    nothing = run("search", "speculative decoding diffusion", "--all-terms", notes=notes)
    assert nothing.returncode == 1 and nothing.stdout == ""


def on_terminal(
    *args: str, notes: Path, stderr: bool = False, columns: int | None = None
) -> list[str]:
    """The lines `paperdeck ARGS` prints to a terminal (a pseudo-terminal as its stdout, and
    as its stderr too when `stderr`), `columns` wide when given."""
    import pty

    leader, follower = pty.openpty()
    env = dict(os.environ, PAPERDECK_NOTES=str(notes))
    if columns is not None:
        import fcntl
        import struct
        import termios

        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
        for name in ("COLUMNS", "LINES"):  # the terminal's size, not the environment's
            env.pop(name, None)
    with subprocess.Popen(
        [sys.executable, "-m", "paperdeck", *args],
        stdout=follower,
        stderr=follower if stderr else subprocess.PIPE,
        env=env,
    ) as process:
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal's other end closed with the process
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert process.wait(timeout=60) == 0
    os.close(leader)
    return b"".join(chunks).decode().splitlines()


def test_a_terminal_is_shown_the_rule_before_the_papers_with_some_words(notes: Path) -> None:
    lines = on_terminal("search", "speculative rollout", notes=notes)
    assert "BubbleSpec" in lines[0]
    assert lines[1] == SOME_WORDS_DIVIDER
    assert "SafeSpec" in lines[2]
    lines = on_terminal("search", "speculative decoding diffusion", notes=notes)
    assert lines[0] == NO_PAPER_HAS_ALL and len(lines) > 1


def test_a_pipe_gets_only_papers(notes: Path) -> None:
    # `paperdeck search ... | awk '{print $2}'` took the rule's "papers" for an id.
    result = run("search", "speculative rollout", notes=notes)
    lines = result.stdout.splitlines()
    assert "BubbleSpec" in lines[0] and "SafeSpec" in lines[1]
    ids = [line.split()[1] for line in lines]
    assert all(len(paper_id) == 8 and int(paper_id, 16) >= 0 for paper_id in ids)
    result = run("search", "speculative decoding diffusion", notes=notes)
    assert NO_PAPER_HAS_ALL not in result.stdout and result.stdout.startswith(" 4  30b40477")
    # Nothing on stderr, where it would be drawn over fzf or less reading the pipe.
    assert result.stderr == ""


def test_on_a_terminal_what_the_limit_left_out_is_said_below_the_papers(notes: Path) -> None:
    """Before, `search learning` printed 20 of 1,946 papers with nothing to tell."""
    lines = on_terminal("search", "speculatve", "--limit", "1", notes=notes, stderr=True)
    assert lines[0].startswith('paperdeck: no paper has "speculatve"')
    assert lines[1].split()[1] == "30b40477"
    assert lines[2:] == ["paperdeck: printed 1 of 2 papers; --limit 0 prints all"]
    lines = on_terminal("search", "learning model", "--limit", "2", notes=notes, stderr=True)
    assert lines[2:] == [
        "paperdeck: printed 2 of the 10 papers with every word (more have some); "
        "--limit 0 prints all"
    ]
    every = on_terminal("search", "learning", "--limit", "0", notes=notes, stderr=True)
    assert len(every) == 13 and not any(line.startswith("paperdeck:") for line in every)
    shown = on_terminal("search", "learning", "--json", "--limit", "3", notes=notes, stderr=True)
    assert shown[-1] == "paperdeck: printed 3 of 13 papers; --limit 0 prints all"
    assert run("search", "learning", "--limit", "3", notes=notes).stderr == ""


def test_related_lists_the_papers_that_share_rare_words(notes: Path) -> None:
    result = run("related", "4", "--json", "--limit", "3", notes=notes)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert len(found) == 3
    assert all(hit["position"] != 4 for hit in found)
    safe = next(hit for hit in found if hit["title"].startswith("SafeSpec"))
    assert {"speculative", "decoding"} <= set(safe["shared"])
    text = run("related", "4", "--limit", "3", notes=notes).stdout.splitlines()
    assert len(text) == 3 and any("SafeSpec" in line and "speculative" in line for line in text)


def test_related_to_the_starred_papers(notes: Path) -> None:
    assert run("mark", "4", "star", notes=notes).returncode == 0
    assert run("mark", "12", "star", notes=notes).returncode == 0
    result = run("related", "--starred", "--json", notes=notes)
    assert result.returncode == 0, result.stderr
    positions = [hit["position"] for hit in json.loads(result.stdout)]
    assert positions and 4 not in positions and 12 not in positions


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("related",), "name one paper"),
        (("related", "4", "--starred"), "name one paper"),
        (("related", "--starred"), "no paper in these lists is starred"),
        (("related", "zzzzzzzz"), "no paper with that id"),
    ],
)
def test_related_bad_input_is_one_line(args: tuple[str, ...], expected: str, notes: Path) -> None:
    result = run(*args, notes=notes)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("paperdeck: ") and expected in lines[0]


@pytest.mark.parametrize("as_json", [False, True])
def test_related_with_no_other_paper_says_so_and_exits_1(
    notes: Path, tmp_path: Path, as_json: bool
) -> None:
    """Before: nothing at all on stdout or stderr, and status 0, for a list of one paper."""
    one = Path(__file__).parents[1] / "data" / "messy" / "single_abstract.txt"
    result = run("related", "1", str(one), *(["--json"] if as_json else []), notes=notes)
    assert result.returncode == 1
    assert result.stdout == ("[]\n" if as_json else "")
    assert result.stderr == "paperdeck: related: no other paper in these lists shares its words\n"


def test_a_like_that_names_no_paper_is_said_in_one_line(notes: Path) -> None:
    result = run("search", "like:zzz", notes=notes)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "paperdeck: like:zzz: no paper with that id or position"
    ]
    found = run("search", "like:4", "--limit", "2", notes=notes)
    assert found.stderr == "" and len(found.stdout.splitlines()) == 2


def test_filler_words_do_not_decide_what_matches(notes: Path) -> None:
    def hits(query: str) -> list[tuple[str, str]]:
        result = run("search", query, "--json", "--limit", "0", notes=notes)
        found = [(hit["id"], hit["match"]) for hit in json.loads(result.stdout)]
        assert result.returncode == (0 if found else 1), result.stderr
        return found

    plain = hits("speculative rollout")
    assert plain[0][1] == "all" and len(plain) >= 2
    # "for" and "the" are in nearly every abstract: typed among other words they change nothing.
    assert hits("speculative rollout for the") == plain
    assert hits("the speculative for rollout") == plain
    # A phrase keeps its filler words in order: no paper reads "rollout for the speculative".
    assert hits('"rollout for the speculative"') == []


def test_a_word_no_paper_has_is_said_on_stderr_and_in_the_json(notes: Path) -> None:
    result = run("search", "speculatve rollout", notes=notes)
    assert result.returncode == 0, result.stderr
    assert "BubbleSpec" in result.stdout.splitlines()[0]
    near = 'paperdeck: no paper has "speculatve"; showing near spellings: speculative\n'
    assert result.stderr.startswith(near)
    as_json = run("search", "speculatve rollout", "--json", notes=notes)
    hits = json.loads(as_json.stdout)
    assert as_json.stderr == near
    # Each row names the near spellings it matched by; the keys it had are as they were.
    assert hits[0]["near_spellings"] == {"speculatve": ["speculative"]}
    assert hits[0]["match"] == "all" and "matches" in hits[0] and "score" in hits[0]
    exact = run("search", "speculative rollout", "--json", notes=notes)
    assert exact.stderr == ""
    assert all(hit["near_spellings"] == {} for hit in json.loads(exact.stdout))


SGD_LIST = Path(__file__).resolve().parents[1] / "data" / "icml-sgd60.txt"
"""Sixty title-less ICML abstracts: one paper has "quantized decentralized SGD" in full, one
"quantized decentralized" in its made-up title, others "SGD" in a made-up method name."""


@pytest.mark.parametrize("query", ["quantized decentralized sgd", "quantized decentralised sgd"])
def test_below_the_divider_the_rarer_words_outrank_a_common_word_in_a_made_up_name(
    query: str, notes: Path
) -> None:
    result = run("search", query, str(SGD_LIST), "--json", "--limit", "0", notes=notes)
    assert result.returncode == 0, result.stderr
    hits = json.loads(result.stdout)
    some = [hit["title"] for hit in hits if hit["match"] == "some"]
    assert hits[0]["title"].startswith("Moniqua") and hits[0]["match"] == "all"
    # Its two rarer words, one in the other spelling, in its made-up title; not the papers
    # whose only match is "SGD" in a name made up from their abstract.
    assert some[0].startswith("The quantized decentralized stochastic learning"), some[:4]
    named = [some.index(title) for title in some if title.startswith(("BVR-L-SGD", "SGDA:"))]
    assert named and min(named) > 2, some[:6]


@pytest.mark.parametrize(("typed", "written"), [("decentralised", "decentralized")])
def test_a_word_in_the_other_spelling_matches_as_the_word_itself(
    typed: str, written: str, notes: Path
) -> None:
    found = [
        json.loads(run("search", word, str(SGD_LIST), "--json", notes=notes).stdout)
        for word in (typed, written)
    ]
    # The same papers with the same scores: not a near spelling that counts a third as much.
    assert found[0] and [(hit["id"], hit["score"]) for hit in found[0]] == [
        (hit["id"], hit["score"]) for hit in found[1]
    ]


def test_a_search_that_finds_nothing_says_so_in_one_line_and_exits_1(notes: Path) -> None:
    # grep's convention: 0 found, 1 nothing found, 2 an error; stdout stays empty.
    result = run("search", "zzzqqq", notes=notes)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == "paperdeck: no paper matches 'zzzqqq'\n"
    as_json = run("search", "zzzqqq", "--json", notes=notes)
    assert (as_json.returncode, as_json.stdout) == (1, "[]\n")
    assert as_json.stderr == "paperdeck: no paper matches 'zzzqqq'\n"
    # A list without years: the filter asks what no paper has.
    yearless = str(Path(__file__).parents[1] / "data" / "abstracts_sample.txt")
    result = run("search", "year:2021", yearless, notes=notes)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        "paperdeck: no paper in this list has a year (year:2021 matches nothing)\n"
    )
    # The bundled list has years, none of them 2021.
    result = run("search", "year:2021", notes=notes)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == "paperdeck: no paper matches 'year:2021'\n"
    # A phrase with a word no paper has: matched as typed, it takes no typos.
    result = run("search", '"speculatve rollout"', notes=notes)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        """paperdeck: no paper matches '"speculatve rollout"'; no paper has "speculatve" """
        "(a phrase is matched as typed: drop the quotes to allow typos)\n"
    )


def test_near_spellings_are_named_nearest_first(notes: Path, tmp_path: Path) -> None:
    """A swap of two letters is one edit: "applicaiton" is application, then applications (two
    edits), though more papers have the plural; a word one paper has is not named beside one
    twenty times as many have, as near ("domian": domain, not the musical mode Dorian)."""
    papers = [
        *(f"Applications of sparse models to {topic}." for topic in ("speech", "maps", "text")),
        "An application of kernels to speech.",
        *(f"Domain adaptation for {topic}, one domain to another." for topic in range(21)),
        "Folk melodies in the Dorian mode.",
    ]
    path = tmp_path / "list.txt"
    path.write_text("ICML 2020 paper list\n\n" + "\n\n".join(papers) + "\n", encoding="utf-8")
    result = run("search", "applicaiton", str(path), notes=notes)
    assert result.returncode == 0 and result.stderr == (
        'paperdeck: no paper has "applicaiton"; showing near spellings: application, applications\n'
    ), result.stderr
    result = run("search", "domian", str(path), "--limit", "0", notes=notes)
    assert result.stderr == 'paperdeck: no paper has "domian"; showing near spellings: domain\n'
    assert "Dorian" not in result.stdout and len(result.stdout.splitlines()) == 21


def test_a_typo_in_the_first_letter_is_looked_for_past_a_swap(notes: Path, tmp_path: Path) -> None:
    """ "nimensional": no word starts with "n" one or two edits off, so every first letter is
    tried (dimensional); "intensional", found by swapping the first two letters, must not
    stop that look."""
    papers = [
        *(f"Learning in high-dimensional spaces of {topic}." for topic in ("text", "images")),
        "Intensional logic for program semantics.",
    ]
    path = tmp_path / "list.txt"
    path.write_text("ICML 2020 paper list\n\n" + "\n\n".join(papers) + "\n", encoding="utf-8")
    result = run("search", "nimensional", str(path), notes=notes)
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith(
        'paperdeck: no paper has "nimensional"; showing near spellings: dimensional'
    )
    assert "high-dimensional spaces of" in result.stdout.splitlines()[0]


def test_a_space_after_the_last_word_finishes_it(notes: Path, tmp_path: Path) -> None:
    """As in the reader, the last word is a word start (`coin` finds "coincide") unless
    something follows it, a space too: `"coin "` is the word coin, as grep's would be."""
    papers = ["Coin betting for online inference.", "When two risks coincide under drift."]
    path = tmp_path / "list.txt"
    path.write_text("ICML 2020 paper list\n\n" + "\n\n".join(papers) + "\n", encoding="utf-8")

    def titles(query: str) -> list[str]:
        result = run("search", query, str(path), "--json", notes=notes)
        assert result.returncode == 0, result.stderr
        return [hit["title"] for hit in json.loads(result.stdout)]

    assert titles("coin") == [paper.rstrip(".") for paper in papers]
    assert titles("coin ") == ["Coin betting for online inference"]


def test_a_finished_word_is_counted_as_a_word_not_inside_others(
    notes: Path, tmp_path: Path
) -> None:
    """Among papers with every word, the one using a word more comes first: "just" twice
    beats "just" once, though four "adjust" hold it too."""
    records = [
        {"title": "First", "abstract": "Just adjust: adjust the noise, adjust rates, adjust it."},
        {"title": "Second", "abstract": "Just one step is just enough to learn the noise rate."},
    ]
    path = tmp_path / "list.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    result = run("search", "just noise", str(path), "--json", notes=notes)
    assert result.returncode == 0, result.stderr
    assert [hit["title"] for hit in json.loads(result.stdout)] == ["Second", "First"]


def test_a_misspelled_word_is_counted_as_the_spellings_it_found(
    notes: Path, tmp_path: Path
) -> None:
    """ "noize", a word no paper has, finds "noise": the paper saying noise three times comes
    before the one saying it once, as it would for "noise"."""
    records = [
        {"title": "First", "abstract": "Learning with noise is just fine for sparse labels."},
        {"title": "Second", "abstract": "Noise, noise and noise: just learn sparse labels well."},
    ]
    path = tmp_path / "list.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    for query in ("noise just", "noize just"):
        result = run("search", query, str(path), "--json", notes=notes)
        assert result.returncode == 0, result.stderr
        assert [hit["title"] for hit in json.loads(result.stdout)] == ["Second", "First"], query


@pytest.mark.parametrize(
    "query", ["deep imbalanced", "deep imbalnced", "deep imbalnced ", "deap imbalanced"]
)
def test_words_side_by_side_rank_first_with_a_typo_as_without(
    query: str, notes: Path, tmp_path: Path
) -> None:
    # "deep imbalnced", half remembering "Delving into Deep Imbalanced Regression" on the
    # 5,000 ICML papers, put the one whose abstract says "Deep Imbalanced Regression" 10th of
    # 14 (2nd typed right): a typo's words side by side were looked for as typed, never found.
    first = "We train deep networks on imbalanced data with a new loss for rare classes."
    second = "We train networks on deep imbalanced data with a new loss for rare classes."
    others = [f"A model {i} for a task on balanced data." for i in range(40)]
    path = tmp_path / "list.txt"
    path.write_text("A list\n\n" + "\n\n".join([first, second, *others]) + "\n", encoding="utf-8")
    result = run("search", query, str(path), "--json", "--no-meta", notes=notes)
    assert result.returncode == 0, result.stderr
    hits = [hit for hit in json.loads(result.stdout) if hit["match"] == "all"]
    assert [hit["position"] for hit in hits] == [2, 1], (query, result.stderr)

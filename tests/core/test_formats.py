"""Reading paper lists in every format, the messy real-world variants and the bad-input errors."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperdeck.core.errors import LoadError
from paperdeck.core.formats import FORMAT_NAMES, RawList, read_list, sniff_format

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parents[1] / "data"
MESSY = DATA / "messy"
SEED = ROOT / "seeds" / "icml2026.txt"
JSONL_SAMPLE = DATA / "formats" / "icml-2020-2023.head20.jsonl"
BIB_SAMPLE = DATA / "formats" / "icml-2021.head15.bib"
EXPECTED = json.loads((DATA / "messy_expected.json").read_text(encoding="utf-8"))["sha256_16"]


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, str):
        path.write_bytes(content.encode("utf-8"))
    else:
        path.write_bytes(content)
    return path


def abstracts(raw: RawList) -> list[str]:
    return [record["abstract"] for record in raw.records]


def sample_objects() -> list[dict[str, Any]]:
    lines = JSONL_SAMPLE.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


LONG = (
    "We study how reading lists are loaded from plain text files and show that a careful "
    "reader keeps every paragraph intact, whatever the line endings are."
)

# ---------------------------------------------------------------------------- the seed


def test_seed_reads_with_header_venue_and_year() -> None:
    raw = read_list(SEED)
    assert raw.format == "txt"
    assert raw.name == "icml2026"
    assert raw.header == "ICML 2026 论文列表"
    assert (raw.venue, raw.year) == ("ICML", 2026)
    assert len(raw.records) == 19
    assert raw.warnings == []
    assert abstracts(raw)[0].startswith("While Large Language Models (LLMs) hold promise")
    for text in abstracts(raw):
        assert text and "\n" not in text and text == text.strip()


# ---------------------------------------------------------------------------- messy files

MESSY_COUNTS = {
    "crlf.txt": 20,
    "utf8_bom.txt": 20,
    "windows1252.txt": 20,
    "multi_blank_trailing_ws.txt": 20,
    "no_header.txt": 20,
    "single_abstract.txt": 1,
    "single_abstract_no_header_no_eol.txt": 1,
    "seed_like_zh_header.txt": 20,
    "hard_wrapped_79col.txt": 20,
    "mixed_line_endings.txt": 20,
}


def test_every_messy_file_is_covered() -> None:
    names = {path.name for path in MESSY.iterdir()}
    assert names == set(MESSY_COUNTS) | {"empty.txt", "header_only.txt"}


@pytest.mark.parametrize(("name", "count"), sorted(MESSY_COUNTS.items()))
def test_messy_file_loads_every_abstract_exactly(name: str, count: int) -> None:
    raw = read_list(MESSY / name)
    assert len(raw.records) == count
    digests = [hashlib.sha256(a.encode("utf-8")).hexdigest()[:16] for a in abstracts(raw)]
    # Each record is exactly the published abstract: joined, stripped, decoded right.
    assert digests == EXPECTED[name]
    has_header = name not in ("no_header.txt", "single_abstract_no_header_no_eol.txt")
    assert (raw.header is not None) == has_header
    if name != "windows1252.txt":
        assert raw.warnings == []


@pytest.mark.parametrize("name", ["empty.txt", "header_only.txt"])
def test_messy_file_without_papers_is_an_error(name: str) -> None:
    path = MESSY / name
    with pytest.raises(LoadError, match=r"no papers found") as error:
        read_list(path)
    assert str(error.value).startswith(f"{path}: ")


def test_windows1252_reads_right_characters_with_a_warning() -> None:
    path = MESSY / "windows1252.txt"
    raw = read_list(path)
    assert raw.warnings == [f"{path}: not UTF-8; read as Windows-1252"]
    text = " ".join(abstracts(raw))
    for word in ("Fréchet", "“standard”", "‘binding’", "Belady’s", "domain—a"):
        assert word in text
    assert "\ufffd" not in text


def test_zh_header_names_venue_and_year() -> None:
    raw = read_list(MESSY / "seed_like_zh_header.txt")
    assert (raw.header, raw.venue, raw.year) == ("ICML 2023 论文列表", "ICML", 2023)


def test_year_range_header_gives_venue_but_no_year() -> None:
    raw = read_list(MESSY / "crlf.txt")
    assert (raw.header, raw.venue, raw.year) == ("ICML 2020-2023 paper list", "ICML", None)


def test_hard_wrapped_paragraphs_are_joined_keeping_hyphenated_words() -> None:
    raw = read_list(MESSY / "hard_wrapped_79col.txt")
    text = " ".join(abstracts(raw))
    assert "personalized decision-making systems." in text
    assert "significantly over state-of-the-art." in text
    assert "decision- making" not in text and "  " not in text
    assert all("\n" not in a for a in abstracts(raw))


# ---------------------------------------------------------------------------- plain text rules


def test_line_endings_and_blank_lines_of_any_kind(tmp_path: Path) -> None:
    body = f"Papers to read\r\r{LONG} one.\r \r\t\r\n{LONG} two.\n\u3000\n\n{LONG} three.\r\n"
    raw = read_list(write(tmp_path, "list.txt", body))
    assert raw.header == "Papers to read"
    assert abstracts(raw) == [f"{LONG} one.", f"{LONG} two.", f"{LONG} three."]


@pytest.mark.parametrize(
    "breaks",
    [
        ["\n"] * 5,
        ["\r\n"] * 5,
        ["\r"] * 5,
        # As many CRs as LFs, yet no CRLF at all: the quick cut finds nothing to cut at.
        ["\r", "\r", "\n", "\n", "\r\n"],
    ],
)
def test_every_line_ending_style(tmp_path: Path, breaks: list[str]) -> None:
    a, b, c, d, e = breaks
    text = f"ICML 2024 papers{a}{b}{LONG} one.{c}{d}{LONG}{e}two."
    raw = read_list(write(tmp_path, "endings.txt", text))
    assert raw.header == "ICML 2024 papers"
    assert abstracts(raw) == [f"{LONG} one.", f"{LONG} two."]


# A list read in two steps (ids first, records as asked) reads as a list read at once: pieces
# of ASCII text, blanks of every kind, controls, line endings, accents, ligatures and case.
_PIECES = st.sampled_from(
    [
        "We propose",
        " Net",
        "-",
        "\n",
        "\n\n",
        "\r\n",
        "\r",
        " ",
        "\t",
        "  \n",
        "\n \t\n",
        "\x0b",
        "\x1b[31m",
        "\x7f",
        "é",
        "É",
        "ﬁ",
        "K",
        "Straße",
        "\u3000",
        "\u00a0",
        "2024",
        "Papers to read",
        ".",
    ]
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.lists(_PIECES, min_size=1, max_size=12).map("".join), max_size=12))
def test_a_list_read_in_two_steps_reads_as_one_read_at_once(
    tmp_path: Path, paragraphs: list[str]
) -> None:
    from paperdeck.core.formats.reader import open_list
    from paperdeck.core.ids import assign_ids, identity_text

    path = write(tmp_path, "list.txt", "\n\n".join(paragraphs))
    try:
        whole = read_list(path)
    except LoadError as error:
        with pytest.raises(LoadError, match=re.escape(str(error))):
            open_list(path)
        return
    raw, rest = open_list(path)
    assert rest is not None
    assert rest.count == len(whole.records)
    rest.read(2)
    assert raw.records == whole.records[: max(2, len(raw.records))]
    rest.read()
    assert (raw.records, raw.header, raw.warnings) == (whole.records, whole.header, whole.warnings)
    assert rest.ids == assign_ids([identity_text(record) for record in whole.records])


@pytest.mark.parametrize(
    ("lines", "joined"),
    [
        (["a study of self-", "supervised learning"], "a study of self-supervised learning"),
        (["bounds for L2-", "regularized models"], "bounds for L2-regularized models"),
        (["the range 5 -", "10 works"], "the range 5 - 10 works"),
        (["methods---", "e.g. ours"], "methods--- e.g. ours"),
        (["two", "lines  "], "two lines"),
    ],
)
def test_wrapped_lines_join(tmp_path: Path, lines: list[str], joined: str) -> None:
    text = "\n".join([f"{LONG} First.", "", *lines, ""])
    raw = read_list(write(tmp_path, "wrapped.txt", text))
    assert abstracts(raw) == [f"{LONG} First.", joined]


def test_header_glued_to_first_abstract_is_recognised(tmp_path: Path) -> None:
    text = f"NeurIPS 2024 accepted papers\n{LONG} one.\n\n{LONG} two.\n"
    raw = read_list(write(tmp_path, "glued.txt", text))
    assert (raw.header, raw.venue, raw.year) == ("NeurIPS 2024 accepted papers", "NeurIPS", 2024)
    assert abstracts(raw) == [f"{LONG} one.", f"{LONG} two."]


def test_hard_wrapped_first_abstract_is_not_taken_for_a_header(tmp_path: Path) -> None:
    wrapped = (MESSY / "hard_wrapped_79col.txt").read_text(encoding="utf-8").split("\n", 2)[2]
    raw = read_list(write(tmp_path, "wrapped.txt", wrapped))
    assert raw.header is None
    assert len(raw.records) == 20


def test_short_one_sentence_first_abstract_is_not_a_header(tmp_path: Path) -> None:
    text = f"We prove a tight bound for sparse recovery.\n\n{LONG}\n"
    raw = read_list(write(tmp_path, "short.txt", text))
    assert raw.header is None
    assert abstracts(raw) == ["We prove a tight bound for sparse recovery.", LONG]


@pytest.mark.parametrize(
    ("header", "venue", "year"),
    [
        ("ICML 2026 论文列表", "ICML", 2026),
        ("ICML 2020-2023 paper list", "ICML", None),
        ("NeurIPS 2024 accepted papers", "NeurIPS", 2024),
        ("NEURIPS 2019 orals", "NeurIPS", 2019),
        ("Accepted at AISTATS 2021 and more", "AISTATS", 2021),
        ("EMNLP/NAACL 2022 list", "EMNLP", 2022),
        ("FOOCONF 2019 reading list", "FOOCONF", 2019),
        (
            "Machine learning, vision, NLP and robotics conference paper list (1987-2025)",
            None,
            None,
        ),
        ("Papers to read", None, None),
        ("ICLR 2021 and 2022 papers", "ICLR", None),
    ],
)
def test_header_venue_and_year(
    tmp_path: Path, header: str, venue: str | None, year: int | None
) -> None:
    raw = read_list(write(tmp_path, "h.txt", f"{header}\n\n{LONG}\n"))
    assert (raw.header, raw.venue, raw.year) == (header, venue, year)


def test_control_characters_and_escapes_are_removed_from_abstracts(tmp_path: Path) -> None:
    text = f"{LONG}\x1b]52;c;cGF3bmVk\x07 \x1b[31mred\x1b[0m \u202eevil\u202c\x00\x7f\x9b2J.\n"
    # A NUL byte would make it a binary file: keep the rest of the nasties.
    raw = read_list(write(tmp_path, "nasty.txt", text.replace("\x00", "")))
    assert abstracts(raw) == [f"{LONG} red evil."]


def test_utf16_with_bom_reads(tmp_path: Path) -> None:
    path = write(tmp_path, "u16.txt", f"ICML 2022 papers\n\n{LONG} é\n".encode("utf-16"))
    raw = read_list(path)
    assert (raw.venue, abstracts(raw)) == ("ICML", [f"{LONG} é"])


def test_utf8_with_one_stray_legacy_byte_keeps_the_rest(tmp_path: Path) -> None:
    data = f"{LONG} “quoted” résumé.\n\n{LONG} caf".encode() + b"\xe9.\n"
    path = write(tmp_path, "mixed.txt", data)
    raw = read_list(path)
    assert abstracts(raw) == [f"{LONG} “quoted” résumé.", f"{LONG} café."]
    assert raw.warnings == [f"{path}: not UTF-8; read as Windows-1252"]


def test_name_is_the_file_stem(tmp_path: Path) -> None:
    raw = read_list(write(tmp_path, "icml2026.meta.jsonl", json.dumps({"abstract": LONG})))
    assert raw.name == "icml2026.meta"


# ---------------------------------------------------------------------------- errors


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.txt"
    with pytest.raises(LoadError) as error:
        read_list(path)
    assert str(error.value) == f"{path}: no such file"


def test_directory(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as error:
        read_list(tmp_path)
    assert str(error.value) == f"{tmp_path}: is a directory"


def test_unreadable_file(tmp_path: Path) -> None:
    path = write(tmp_path, "secret.txt", LONG)
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running as a user who can read any file")
        with pytest.raises(LoadError) as error:
            read_list(path)
        assert str(error.value) == f"{path}: permission denied"
    finally:
        path.chmod(0o644)


@pytest.mark.parametrize(
    "content",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01",
        bytes(range(1, 32)) * 20,
        b"PK\x03\x04" + bytes(200),
    ],
)
@pytest.mark.parametrize("suffix", [".txt", ".jsonl", ".bib", ""])
def test_binary_file(tmp_path: Path, content: bytes, suffix: str) -> None:
    path = write(tmp_path, f"file{suffix}", content)
    with pytest.raises(LoadError) as error:
        read_list(path)
    assert str(error.value) == f"{path}: not a text file"


def test_whitespace_only_file(tmp_path: Path) -> None:
    path = write(tmp_path, "blank.txt", " \n\n\t\r\n")
    with pytest.raises(LoadError, match=r"no papers found"):
        read_list(path)


def test_unknown_format_name(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", LONG)
    with pytest.raises(LoadError, match=r"unknown format 'xml'"):
        read_list(path, "xml")


# ---------------------------------------------------------------------------- JSON Lines


def test_jsonl_sample_reads_every_field() -> None:
    objects = sample_objects()
    raw = read_list(JSONL_SAMPLE)
    assert raw.format == "jsonl"
    assert (raw.header, raw.venue, raw.year) == (None, None, None)
    assert len(raw.records) == len(objects) == 20
    for record, obj in zip(raw.records, objects, strict=True):
        assert record["abstract"] == obj["abstract"]
        assert record["title"] == obj["title"]
        assert record["authors"] == obj["authors"]
        assert record["year"] == obj["year"]
        assert record["venue"] == obj["venue"]
        assert record.get("url") == obj["url"]


def test_jsonl_bad_lines_are_skipped_with_warnings(tmp_path: Path) -> None:
    lines = [
        json.dumps({"title": "First", "abstract": LONG}),
        '{"title": "broken", "abstract": ',
        "",
        "[1, 2]",
        json.dumps({"pmlr_id": "v1"}),
        json.dumps({"title": "Second", "abstract": LONG + " two"}),
    ]
    path = write(tmp_path, "list.jsonl", "\n".join(lines))
    raw = read_list(path)
    assert [r["title"] for r in raw.records] == ["First", "Second"]
    assert raw.warnings == [
        f"{path}:2: not valid JSON; skipped",
        f"{path}:4: not a JSON object; skipped",
        f"{path}:5: no abstract or title; skipped",
    ]


def test_jsonl_with_nothing_valid_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.jsonl", "not json\nnor this\n")
    with pytest.raises(LoadError) as error:
        read_list(path)
    assert str(error.value) == f"{path}: no papers found (2 skipped; line 1: not valid JSON)"


def test_records_are_normalised_and_unknown_keys_kept(tmp_path: Path) -> None:
    obj = {
        "Title": "  A \x1b[1mbold\x1b[0m\n title ",
        "author": "Ada Lovelace and Alan Turing",
        "abstract": f"{LONG}\nwrapped self-\nsupervised\r\n",
        "year": "2021-07-18",
        "venue": "ICML",
        "url": "https://example.org/p?a=1&b=%20",
        "pmlr_id": "v139/x21a",
        "pages": [1, 10],
        "kind": "Oral\u202e",
        "nested": {"note": "\x07ring"},
        "\x1b[1mcomment\x1b[0m": "kept",
    }
    raw = read_list(write(tmp_path, "one.jsonl", json.dumps(obj)))
    assert raw.records == [
        {
            "abstract": f"{LONG} wrapped self-supervised",
            "title": "A bold title",
            "authors": ["Ada Lovelace", "Alan Turing"],
            "year": 2021,
            "venue": "ICML",
            "url": "https://example.org/p?a=1&b=%20",
            "pmlr_id": "v139/x21a",
            "pages": [1, 10],
            "kind": "Oral",
            "nested": {"note": "ring"},
            "comment": "kept",
        }
    ]


@pytest.mark.parametrize(
    ("authors", "names"),
    [
        (["Ada Lovelace", " Alan\nTuring "], ["Ada Lovelace", "Alan Turing"]),
        (
            "Ada Lovelace, Alan Turing; Grace Hopper",
            ["Ada Lovelace", "Alan Turing", "Grace Hopper"],
        ),
        (
            "Ada Lovelace, Alan Turing and Grace Hopper",
            ["Ada Lovelace", "Alan Turing", "Grace Hopper"],
        ),
        ("Lovelace, Ada and Turing, Alan", ["Ada Lovelace", "Alan Turing"]),
        ("Lovelace, Ada; Turing, Alan", ["Ada Lovelace", "Alan Turing"]),
        (
            [{"name": "Ada Lovelace"}, {"given": "Alan", "family": "Turing"}],
            ["Ada Lovelace", "Alan Turing"],
        ),
        ("", None),
    ],
)
def test_author_forms(tmp_path: Path, authors: Any, names: list[str] | None) -> None:
    obj = {"abstract": LONG, "authors": authors}
    raw = read_list(write(tmp_path, "a.jsonl", json.dumps(obj)))
    assert raw.records[0].get("authors") == names


def test_year_that_is_not_a_year_is_ignored_with_a_warning(tmp_path: Path) -> None:
    path = write(tmp_path, "y.jsonl", json.dumps({"abstract": LONG, "year": "soon"}))
    raw = read_list(path)
    assert "year" not in raw.records[0]
    assert raw.warnings == [f"{path}:1: year 'soon' ignored"]


@pytest.mark.parametrize(
    ("fields", "kept", "warning"),
    [
        ({"title": ["Deep Sets"]}, {"title": "Deep Sets"}, None),
        ({"title": 1984}, {"title": "1984"}, None),
        ({"title": ["Deep", "Sets"]}, {}, 'title ["Deep", "Sets"] ignored (not text)'),
        ({"venue": {"name": "ICML"}}, {}, 'venue {"name": "ICML"} ignored (not text)'),
        ({"url": True}, {}, "url true ignored (not text)"),
        ({"authors": 5}, {}, "authors 5 ignored (not names)"),
        ({"authors": ["Ada Lovelace", 3]}, {}, 'authors ["Ada Lovelace", 3] ignored (not names)'),
        (
            {"authors": {"given": "Alan", "family": "Turing"}},
            {"authors": ["Alan Turing"]},
            None,
        ),
    ],
)
def test_a_field_that_is_not_text_is_told_not_read_as_its_python_spelling(
    tmp_path: Path, fields: dict[str, Any], kept: dict[str, Any], warning: str | None
) -> None:
    path = write(tmp_path, "t.jsonl", json.dumps({"abstract": LONG, **fields}))
    raw = read_list(path)
    record = raw.records[0]
    assert {key: record[key] for key in fields if key in record} == kept
    assert raw.warnings == ([f"{path}:1: {warning}"] if warning else [])


# ---------------------------------------------------------------------------- JSON


def test_json_array_reads_like_jsonl(tmp_path: Path) -> None:
    path = write(tmp_path, "list.json", json.dumps(sample_objects(), indent=2))
    assert read_list(path).records == read_list(JSONL_SAMPLE).records


def test_json_object_wrapping_a_list(tmp_path: Path) -> None:
    path = write(tmp_path, "wrapped.json", json.dumps({"count": 20, "papers": sample_objects()}))
    assert len(read_list(path).records) == 20


def test_json_array_with_a_non_object_item(tmp_path: Path) -> None:
    path = write(tmp_path, "mixed.json", json.dumps([{"abstract": LONG}, "stray", 3]))
    raw = read_list(path)
    assert len(raw.records) == 1
    assert raw.warnings == [
        f"{path}: item 2: not a JSON object; skipped",
        f"{path}: item 3: not a JSON object; skipped",
    ]


@pytest.mark.parametrize("document", ["3", '"text"', '["a", "b"]', '{"a": 1}', "null"])
def test_json_of_the_wrong_shape(tmp_path: Path, document: str) -> None:
    path = write(tmp_path, "wrong.json", document)
    with pytest.raises(LoadError) as error:
        read_list(path)
    assert str(error.value) == f"{path}: expected a JSON array of objects"


def test_invalid_json_names_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, "broken.json", '[\n  {"abstract": "x",}\n]')
    with pytest.raises(LoadError) as error:
        read_list(path)
    assert str(error.value).startswith(f"{path}:2:")
    assert "not valid JSON" in str(error.value)


def test_deeply_nested_json_is_an_error_not_a_crash(tmp_path: Path) -> None:
    path = write(tmp_path, "deep.json", "[" * 100_000 + "]" * 100_000)
    with pytest.raises(LoadError):
        read_list(path)


def test_empty_json_array(tmp_path: Path) -> None:
    path = write(tmp_path, "empty.json", "[]")
    with pytest.raises(LoadError, match=r"no papers found"):
        read_list(path)


# ---------------------------------------------------------------------------- BibTeX


def bib_fields(text: str, name: str) -> list[str]:
    return re.findall(rf"^  {name}\s*= \{{(.*)\}},?$", text, flags=re.M)


def test_bib_sample_reads_every_entry() -> None:
    text = BIB_SAMPLE.read_text(encoding="utf-8")
    raw = read_list(BIB_SAMPLE)
    assert raw.format == "bib"
    assert raw.warnings == []
    assert len(raw.records) == 15
    first = raw.records[0]
    assert first["title"] == "Incentivized Bandit Learning with Self-Reinforcing User Preferences"
    assert first["authors"] == ["Tianchen Zhou", "Jia Liu", "Chaosheng Dong", "jingyuan deng"]
    assert first["year"] == 2021
    assert first["venue"].endswith("(ICML 2021)")
    assert first["url"] == "http://proceedings.mlr.press/v139/zhou21d.html"
    assert (first["bibkey"], first["entrytype"]) == ("zhou2021incentivized", "inproceedings")
    # Abstracts keep their LaTeX source, exactly as in the file.
    assert abstracts(raw) == bib_fields(text, "abstract")
    assert [r["bibkey"] for r in raw.records] == re.findall(r"^@inproceedings\{(.*),$", text, re.M)


BIB = r"""
@string{jmlr = "Journal of Machine Learning Research"}

@article{muller2020,
  title = {Distributed Nystr\"{o}m Kernels: {BERT} is 50% Faster with \textbf{S}parse $\alpha$},
  author = {M{\"u}ller, Klaus and de la Fontaine, Jean and others},
  journal = jmlr,
  year = 2020,
  pages = {1--10},
  doi = {10.1000/x_y%z},
  abstract = {We show $\mathcal{O}(n \log n)$ time
     for 50\% of self-
     supervised cases.}
}

@inproceedings{broken2021,
  title = {Unbalanced {braces},
  year = {2021}
}

@misc{notitle, note = {nothing here}}

@inproceedings{muller2020,
  title = {A Second Paper Under The Same Key},
  author = {Ada Lovelace},
  booktitle = {Proc. ICML},
}
"""


def test_bib_fields_are_decoded_for_display(tmp_path: Path) -> None:
    raw = read_list(write(tmp_path, "refs.bib", BIB))
    first = raw.records[0]
    assert first["title"] == "Distributed Nyström Kernels: BERT is 50% Faster with Sparse α"
    assert first["authors"] == ["Klaus Müller", "Jean de la Fontaine", "et al."]
    assert first["venue"] == "Journal of Machine Learning Research"
    assert first["year"] == 2020
    assert first["pages"] == "1–10"
    assert first["doi"] == "10.1000/x_y%z"
    assert first["abstract"] == (
        r"We show $\mathcal{O}(n \log n)$ time for 50\% of self-supervised cases."
    )
    assert (first["bibkey"], first["entrytype"]) == ("muller2020", "article")


def test_bib_bad_entries_are_skipped_with_warnings_naming_them(tmp_path: Path) -> None:
    path = write(tmp_path, "refs.bib", BIB)
    raw = read_list(path)
    assert [r["title"] for r in raw.records] == [
        "Distributed Nyström Kernels: BERT is 50% Faster with Sparse α",
        "A Second Paper Under The Same Key",
    ]
    assert raw.records[1]["venue"] == "Proc. ICML"
    assert len(raw.warnings) == 3
    broken, untitled, duplicate = raw.warnings
    assert broken.startswith(f"{path}:16: entry broken2021: not valid BibTeX")
    assert broken.endswith("skipped")
    assert untitled == f"{path}:21: entry notitle: no abstract or title; skipped"
    assert duplicate == f"{path}:23: entry muller2020 repeats an earlier key; kept"


# ---------------------------------------------------------------------------- CSV


def write_csv(path: Path, rows: list[dict[str, Any]], delimiter: str = ",") -> Path:
    with path.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), delimiter=delimiter)
        writer.writeheader()
        writer.writerows(rows)
    return path


def csv_rows() -> list[dict[str, Any]]:
    return [
        {
            "Title": obj["title"],
            "AUTHORS": "; ".join(obj["authors"]),
            "Abstract": obj["abstract"],
            "Year": str(obj["year"]),
            "Venue": obj["venue"],
            "Track": "main, poster",
        }
        for obj in sample_objects()
    ]


@pytest.mark.parametrize(("suffix", "delimiter"), [(".csv", ","), (".tsv", "\t"), (".dat", ";")])
def test_csv_with_header_row(tmp_path: Path, suffix: str, delimiter: str) -> None:
    path = write_csv(tmp_path / f"meta{suffix}", csv_rows(), delimiter)
    raw = read_list(path)
    assert raw.format == "csv"
    assert raw.warnings == []
    for record, obj in zip(raw.records, sample_objects(), strict=True):
        assert record["title"] == obj["title"]
        assert record["authors"] == obj["authors"]
        assert record["abstract"] == obj["abstract"]
        assert record["year"] == obj["year"]
        assert record["Track"] == "main, poster"


def test_csv_row_with_extra_fields_warns(tmp_path: Path) -> None:
    path = write(tmp_path, "m.csv", f'title,abstract\nOne,"{LONG}"\nTwo,"{LONG}",surplus\n')
    raw = read_list(path)
    assert [r["title"] for r in raw.records] == ["One", "Two"]
    assert raw.warnings == [f"{path}:3: more fields than columns; extra fields dropped"]


# ---------------------------------------------------------------------------- format choice


@pytest.mark.parametrize(
    ("content", "fmt"),
    [
        (f"Papers\n\n{LONG}\n", "txt"),
        (json.dumps({"abstract": LONG}) + "\n" + json.dumps({"abstract": LONG}), "jsonl"),
        (json.dumps([{"abstract": LONG}]), "json"),
        (json.dumps({"papers": [{"abstract": LONG}]}, indent=1), "json"),
        ("% refs\n@article{k, title={T}, abstract={" + LONG + "}}\n", "bib"),
        (f'title,abstract\nT,"{LONG}"\n', "csv"),
        (f"title\tabstract\nT\t{LONG}\n", "csv"),
    ],
)
def test_content_sniffing_for_unknown_extensions(tmp_path: Path, content: str, fmt: str) -> None:
    path = write(tmp_path, "list.data", content)
    assert sniff_format(path, content.encode()) == fmt
    raw = read_list(path)
    assert raw.format == fmt
    assert len(raw.records) == 1 or fmt == "jsonl"


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("a.txt", "txt"),
        ("a.TEXT", "txt"),
        ("a.md", "txt"),
        ("a.jsonl", "jsonl"),
        ("a.ndjson", "jsonl"),
        ("a.json", "json"),
        ("a.bib", "bib"),
        ("a.bibtex", "bib"),
        ("a.csv", "csv"),
        ("a.tsv", "csv"),
    ],
)
def test_format_from_extension(name: str, fmt: str) -> None:
    assert sniff_format(Path(name), b"{}") == fmt


def test_format_override_wins_over_extension(tmp_path: Path) -> None:
    path = write(tmp_path, "really-jsonl.txt", json.dumps({"title": "T", "abstract": LONG}))
    assert read_list(path).records[0]["abstract"].startswith('{"title"')
    raw = read_list(path, "jsonl")
    assert raw.format == "jsonl"
    assert raw.records == [{"abstract": LONG, "title": "T"}]


def test_json_array_under_a_jsonl_name(tmp_path: Path) -> None:
    path = write(tmp_path, "array.jsonl", json.dumps([{"abstract": LONG}], indent=2))
    assert abstracts(read_list(path)) == [LONG]


def test_format_names() -> None:
    assert FORMAT_NAMES == ("txt", "jsonl", "json", "bib", "csv")


# ---------------------------------------------------------------------------- any input


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    content=st.one_of(
        st.binary(max_size=600),
        st.text(max_size=400).map(lambda t: t.encode("utf-8", errors="surrogatepass")),
        st.lists(
            st.sampled_from(
                [
                    "{",
                    "}",
                    "[",
                    "]",
                    '"',
                    ",",
                    ":",
                    "@article{",
                    "=",
                    "\n",
                    "\r\n",
                    "\n\n",
                    "%",
                    "title",
                    "abstract",
                    "\\",
                    "$",
                    "a",
                    "é",
                    "\x1b[",
                    "\t",
                    ";",
                    "1999",
                    "ICML",
                    '"\\u001b[31m\\u202e"',
                    '{"title": "\\u009b", "x": {"\\u0007": ["\\u0085"]}}',
                ]
            ),
            max_size=60,
        ).map(lambda parts: "".join(parts).encode()),
    ),
    suffix=st.sampled_from([".txt", ".jsonl", ".json", ".bib", ".csv", ".tsv", ".data", ""]),
)
def test_any_bytes_load_or_raise_load_error(content: bytes, suffix: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"input{suffix}"
        path.write_bytes(content)
        try:
            raw = read_list(path)
        except LoadError as error:
            assert str(error).startswith(f"{path}")
            assert "\n" not in str(error)
            return
        assert raw.records
        for record in raw.records:
            assert isinstance(record["abstract"], str)
            assert "\n" not in record["abstract"]
            for text in strings_in(record):
                assert UNSAFE.search(text) is None
        for warning in raw.warnings:
            assert "\n" not in warning
            assert UNSAFE.search(warning) is None


UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def strings_in(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [text for item in value for text in strings_in(item)]
    if isinstance(value, dict):
        return [text for k, v in value.items() for text in [*strings_in(k), *strings_in(v)]]
    return []


def test_bib_fields_keep_every_word_of_unknown_macros(tmp_path: Path) -> None:
    bib = tmp_path / "macros.bib"
    bib.write_text(
        "@inproceedings{a,\n  title = {\\sys: Fast {BERT} and \\mymethod{} beats \\baseline},\n"
        "  author = {Jos\\'e {van der} Berg},\n  abstract = {An abstract.}\n}\n",
        encoding="utf-8",
    )
    record = read_list(bib).records[0]
    assert record["title"] == "sys: Fast BERT and mymethod beats baseline"
    assert record["authors"] == ["José van der Berg"]


def test_a_hostile_file_name_is_cleaned(tmp_path: Path) -> None:
    path = tmp_path / "list\x1b[31mred.txt"
    path.write_text("An abstract about things that matter a great deal.\n", encoding="utf-8")
    assert "\x1b" not in read_list(path).name


def test_a_second_key_for_a_field_does_not_overwrite_it(tmp_path: Path) -> None:
    path = tmp_path / "dupes.jsonl"
    lines = [
        '{"author": "Ann Lee and Bob Ray", "authors": "Cy Doe", "abstract": "One abstract."}',
        '{"Title": "Real", "title": {"x": [1]}, "abstract": "Two.", "Abstract": "Other."}',
        '{"authors": [{"name": null}, null, "Dee Fox"], "abstract": "Three."}',
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    first, second, third = read_list(path).records
    assert first["authors"] == ["Ann Lee", "Bob Ray"]
    assert second["title"] == "Real" and second["abstract"] == "Two."
    assert third["authors"] == ["Dee Fox"]

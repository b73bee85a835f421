"""Author names in their parts: every form the lists write them in, kept from the source."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperdeck.core.formats import read_list
from paperdeck.core.library import load_library
from paperdeck.core.names import NAMES_FIELD, PersonName, name_from_json, names_of, parse_name
from paperdeck.core.resources import bundled_list


@pytest.mark.parametrize(
    ("raw", "given", "family", "particle", "suffix"),
    [
        ("Jonas Hübotter", "Jonas", "Hübotter", "", ""),
        ("Luc Van Gool", "Luc", "Van Gool", "", ""),
        ("Maarten de Hoop", "Maarten", "Hoop", "de", ""),
        ("Sylvain Le Corff", "Sylvain", "Le Corff", "", ""),
        ("Maria De Santis", "Maria", "De Santis", "", ""),
        ("Laurens van der Maaten", "Laurens", "Maaten", "van der", ""),
        ("Hal Daumé III", "Hal", "Daumé", "", "III"),
        ("Jared Quincy Davis", "Jared Quincy", "Davis", "", ""),
        ("Kleine Buening, Thomas", "Thomas", "Kleine Buening", "", ""),
        ("de Hoop, Maarten", "Maarten", "Hoop", "de", ""),
        ("Daumé, III, Hal", "Hal", "Daumé", "", "III"),
        ("Jian Li, Jr.", "Jian", "Li", "", "Jr."),
        ("Le Song", "Le", "Song", "", ""),  # a given name that is also a particle
        ("Quoc Le", "Quoc", "Le", "", ""),
        ("Judge Reinhold", "Judge", "Reinhold", "", ""),  # no titles in a paper list
        ("Li Ma", "Li", "Ma", "", ""),  # not Li with a master's degree
        ('H{\\"u}botter, Jonas', "Jonas", "Hübotter", "", ""),
        ("Plato", "", "Plato", "", ""),
        ("Xue Bin Peng", "Xue Bin", "Peng", "", ""),  # "Bin" is no particle
        ("Mohamed bin Zayed", "Mohamed", "Zayed", "bin", ""),  # "bin" is
        ("Zihan (Zenus) Wang", "Zihan", "Wang", "", ""),  # no nickname in a citation
        ("Zhangyang “Atlas” Wang", "Zhangyang", "Wang", "", ""),
        ("Md. Ismail Hossain", "Md. Ismail", "Hossain", "", ""),
        ("Pranam Chatterjee, PhD", "Pranam", "Chatterjee", "", ""),  # nor a degree
        ("岳珩 李", "岳珩", "李", "", ""),  # a flat name is given first, in any script
    ],
)
def test_a_name_is_split_into_its_parts(
    raw: str, given: str, family: str, particle: str, suffix: str
) -> None:
    name = parse_name(raw)
    assert (name.given, name.family, name.particle, name.suffix) == (
        given,
        family,
        particle,
        suffix,
    )
    assert name.literal == ""


@pytest.mark.parametrize(
    "raw", ["OpenAI Team", "The ALICE Collaboration", "Bob and Sons", "R2-D2", "a, b, c, d", "?!"]
)
def test_what_is_not_one_persons_name_is_kept_whole(raw: str) -> None:
    name = parse_name(raw)
    assert name == PersonName(literal=raw)
    assert name.display == raw


def test_csl_json_parts_are_read_as_given() -> None:
    assert name_from_json(
        {"family": "Hoop", "given": "Maarten", "non-dropping-particle": "de"}
    ) == PersonName("Maarten", "Hoop", "de")
    assert name_from_json({"given": "Thomas", "family": "Kleine Buening"}) == PersonName(
        "Thomas", "Kleine Buening"
    )
    assert name_from_json({"first": "Ada", "last": "Lovelace"}) == PersonName("Ada", "Lovelace")
    assert name_from_json({"literal": "OpenAI"}) == PersonName(literal="OpenAI")
    assert name_from_json({"name": "Luc Van Gool"}) == PersonName("Luc", "Van Gool")
    assert name_from_json({}) is None


def test_parts_that_no_longer_match_the_display_name_are_not_used() -> None:
    parts = [{"given": "Thomas", "family": "Kleine Buening"}]
    assert names_of(("Thomas Kleine Buening",), parts) == (PersonName("Thomas", "Kleine Buening"),)
    # A correction or an enrichment replaced the authors: their own text is parsed instead.
    assert names_of(("Ada Lovelace",), parts) == (PersonName("Ada", "Lovelace"),)
    assert names_of(("Ada Lovelace",), "garbage") == (PersonName("Ada", "Lovelace"),)


def test_jsonl_objects_and_family_first_strings_keep_their_shape(tmp_path: Path) -> None:
    path = tmp_path / "names.jsonl"
    rows = [
        {"title": "A", "authors": [{"given": "Thomas", "family": "Kleine Buening"}, "Ann Smith"]},
        {"title": "B", "authors": ["Kleine Buening, Thomas", "de Hoop, Maarten"]},
        {"title": "C", "authors": "Kleine Buening, Thomas and Van Gool, Luc"},
    ]
    path.write_text("\n".join(json.dumps(row) for row in rows), encoding="utf-8")
    papers = load_library([path]).papers
    # Everyone else reads display strings, given names first, as before.
    assert papers[0].authors == ("Thomas Kleine Buening", "Ann Smith")
    assert papers[1].authors == ("Thomas Kleine Buening", "Maarten de Hoop")
    assert papers[2].authors == ("Thomas Kleine Buening", "Luc Van Gool")
    for paper in papers:
        assert paper.names[0] == PersonName("Thomas", "Kleine Buening")
    assert papers[0].extra[NAMES_FIELD][1] is None  # a flat string is parsed when needed
    assert papers[1].names[1] == PersonName("Maarten", "Hoop", "de")


def test_bibtex_authors_keep_their_shape(tmp_path: Path) -> None:
    path = tmp_path / "names.bib"
    path.write_text(
        "@inproceedings{k, title={T}, author={Kleine Buening, Thomas and de Hoop, Maarten and "
        "Thomas {Kleine Buening} and {OpenAI Team} and Daum{\\'e}, III, Hal and Luc Van Gool "
        "and others}}\n",
        encoding="utf-8",
    )
    raw = read_list(path)
    assert raw.records[0]["authors"] == [
        "Thomas Kleine Buening", "Maarten de Hoop", "Thomas Kleine Buening", "OpenAI Team",
        "Hal Daumé III", "Luc Van Gool", "et al.",
    ]  # fmt: skip
    paper = load_library([path]).papers[0]
    assert paper.names == (
        PersonName("Thomas", "Kleine Buening"),
        PersonName("Maarten", "Hoop", "de"),
        PersonName("Thomas", "Kleine Buening"),
        PersonName(literal="OpenAI Team"),
        PersonName("Hal", "Daumé", suffix="III"),
        PersonName("Luc", "Van Gool"),
        PersonName(literal="et al."),
    )


def test_the_bundled_metadata_writes_paper_16s_family_name_first() -> None:
    papers = load_library([bundled_list()]).papers
    hubotter = next(p for p in papers if p.extra.get("pmlr_id") == "hubotter26a")
    assert "Thomas Kleine Buening" in hubotter.authors
    assert PersonName("Thomas", "Kleine Buening") in hubotter.names


def test_a_bibtex_venue_line_names_its_year_once(tmp_path: Path) -> None:
    path = tmp_path / "one.bib"
    path.write_text(
        "@inproceedings{k, title={T}, author={Ann Smith}, year={2021}, booktitle={Proceedings "
        "of the 38th International Conference on Machine Learning (ICML 2021)}}\n",
        encoding="utf-8",
    )
    paper = load_library([path]).papers[0]
    assert paper.venue_line == (
        "Proceedings of the 38th International Conference on Machine Learning (ICML 2021)"
    )
    assert paper.with_changes(venue="ICML").venue_line == "ICML 2021"
    assert paper.with_changes(venue=None).venue_line == "2021"
    assert paper.with_changes(year=None, venue=None).venue_line == ""


@pytest.mark.parametrize(
    ("raw", "usual"),
    [
        # As ICML 2026's authors typed them into the submission form.
        ("TIANYI LI", "Tianyi Li"),
        ("VINH KHANH BUI", "Vinh Khanh Bui"),
        ("yibo li", "Yibo Li"),
        ("Peng TANG", "Peng Tang"),
        ("Jong Chul YE", "Jong Chul Ye"),
        ("QIUHAO Zeng", "Qiuhao Zeng"),
        ("ZHI-MING MA", "Zhi-Ming Ma"),
        ("SEAN O'BRIEN", "Sean O'Brien"),
        ("JAN VAN DER BERG", "Jan van der Berg"),
        ("maarten de hoop", "Maarten de Hoop"),
        # Initials, and names written as their owners write them, stay.
        ("Satya Sai Srinath Namburi GNVV", "Satya Sai Srinath Namburi GNVV"),
        ("EJ Chichilnisky", "EJ Chichilnisky"),
        ("Theo X. Olausson", "Theo X. Olausson"),
        ("Amir-massoud Farahmand", "Amir-massoud Farahmand"),
        ("Luc Van Gool", "Luc Van Gool"),
        ("岳珩 李", "岳珩 李"),
        ("YuCheng", "YuCheng"),
    ],
)
def test_a_name_typed_in_capitals_or_lower_case_is_cited_capitalised(raw: str, usual: str) -> None:
    from paperdeck.core.names import in_usual_case

    assert in_usual_case(parse_name(raw)).display == usual

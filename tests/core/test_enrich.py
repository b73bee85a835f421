"""Enrichment by abstract: damaged copies match; absent and ambiguous papers are left alone."""

from __future__ import annotations

import json
import re
import textwrap
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from paperdeck.core.enrich import (
    MIN_CONFIDENCE,
    EnrichReport,
    Match,
    enrich_papers,
    normalise_abstract,
)
from paperdeck.core.formats import read_list
from paperdeck.core.library import Library, load_library, papers_from_raw
from paperdeck.core.resources import bundled_list, seeds_dir

DATA = Path(__file__).parents[1] / "data" / "enrich"
SEED_META = seeds_dir() / "icml2026.meta.jsonl"


def seed_records() -> list[dict[str, Any]]:
    lines = SEED_META.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def write_txt(path: Path, abstracts: list[str]) -> Path:
    path.write_text("Test list 2026\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    return path


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    lines = (json.dumps(record, ensure_ascii=False) for record in records)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def open_with_source(
    tmp_path: Path, abstracts: list[str], records: list[dict[str, Any]]
) -> tuple[Library, EnrichReport]:
    listing = write_txt(tmp_path / "mylist.txt", abstracts)
    source = write_jsonl(tmp_path / "source.jsonl", records)
    library = load_library([listing], meta=[source])
    assert len(library.enrichment) == 1
    report = library.enrichment[0]
    assert isinstance(report, EnrichReport)
    return library, report


def cut_sentences(text: str, count: int) -> str:
    sentences = re.split(r"(?<=\.) ", text)
    return " ".join(sentences[:-count])


def test_normalising_removes_what_copy_paste_changes() -> None:
    source = r"We bound the error by $\mathcal{O}(\epsilon \le 3)$ with *Erd\H{o}s* ``graphs''."
    pasted = "We bound the error by 𝒪(ε ≤ 3) with Erdős “graphs”."
    stripped = 'We bound the error by \\mathcal{O}(\\epsilon \\le 3) with Erdos "graphs".'
    assert normalise_abstract(source) == normalise_abstract(pasted)
    assert normalise_abstract(source) == normalise_abstract(stripped)
    # Symbols (`\le`, `≤`) are punctuation to the matcher, as they are to search.
    assert normalise_abstract(source) == "we bound the error by o epsilon 3 with erdos graphs"
    # A command that merely starts with an accent letter is not an accent.
    assert normalise_abstract(r"see \url{x} and \v{c}") == "see x and c"


def test_an_exact_copy_takes_title_authors_url_pages_and_ids(tmp_path: Path) -> None:
    records = seed_records()
    library, report = open_with_source(tmp_path, [records[1]["abstract"]], records)
    paper = library.papers[0]
    unmatched = papers_from_raw(read_list(tmp_path / "mylist.txt"))[0]
    assert paper.id == unmatched.id
    assert paper.title == records[1]["title"]
    assert not paper.title_derived
    assert paper.authors == tuple(records[1]["authors"])
    assert paper.url == "https://proceedings.mlr.press/v306/yu26v.html"
    assert paper.extra["pages"] == "150526--150544"
    assert paper.extra["pmlr_id"] == "yu26v"
    assert paper.meta_source == "matched:source.jsonl@1.00"
    assert report.matches[paper.id] == Match("source.jsonl", 1.0, 1, records[1]["title"])
    assert report.unmatched == [] and report.ambiguous == []


def test_damaged_copies_still_match_their_records(tmp_path: Path) -> None:
    records = seed_records()
    rewrapped = textwrap.fill(records[2]["abstract"], width=60)
    markdown_and_dollars_gone = records[3]["abstract"].replace("**", "").replace("$", "")
    truncated = cut_sentences(records[6]["abstract"], 2)
    latex_to_unicode = records[10]["abstract"].replace("$\\mathcal{T}$", "𝒯")
    ascii_quotes_dropped_letter = (
        records[11]["abstract"].replace("–", "-").replace("accelerates", "acelerates")
    )
    markdown_bold_letters = records[18]["abstract"].replace("**", "").replace("’", "'")
    damaged = [
        rewrapped,
        markdown_and_dollars_gone,
        truncated,
        latex_to_unicode,
        ascii_quotes_dropped_letter,
        markdown_bold_letters,
    ]
    assert latex_to_unicode != records[10]["abstract"]
    assert ascii_quotes_dropped_letter != records[11]["abstract"]
    # The source lists the papers in a different order from the list.
    library, report = open_with_source(tmp_path, damaged, list(reversed(records)))
    expected = [records[i]["title"] for i in (2, 3, 6, 10, 11, 18)]
    assert [paper.title for paper in library.papers] == expected
    assert all(not paper.title_derived for paper in library.papers)
    assert len(report.matches) == 6
    truncated_match = report.matches[library.papers[2].id]
    assert truncated_match.record_index == len(records) - 1 - 6
    assert MIN_CONFIDENCE <= report.matches[library.papers[4].id].confidence < 1.0


def test_a_paper_absent_from_the_source_keeps_its_derived_title(tmp_path: Path) -> None:
    records = seed_records()
    library, report = open_with_source(
        tmp_path, [records[0]["abstract"], records[5]["abstract"]], records[1:5] + records[6:]
    )
    for paper in library.papers:
        assert paper.title_derived
        assert paper.authors == ()
        assert paper.meta_source == "derived"
    assert report.matches == {}
    assert report.unmatched == [paper.id for paper in library.papers]
    assert report.weak == {}


def test_near_identical_records_are_ambiguous_not_guessed(tmp_path: Path) -> None:
    abstract = seed_records()[4]["abstract"]
    twin = abstract.replace("rare events", "rare incidents", 1)
    assert twin != abstract
    records = [
        {"title": "The first version", "authors": ["A. One"], "abstract": abstract},
        {"title": "A different paper", "authors": ["B. Two"], "abstract": twin},
    ]
    library, report = open_with_source(tmp_path, [abstract], records)
    paper = library.papers[0]
    assert paper.title_derived and paper.authors == ()
    assert report.matches == {}
    assert report.unmatched == []
    [(paper_id, close)] = report.ambiguous
    assert paper_id == paper.id
    assert sorted(match.record_index for match in close) == [0, 1]
    assert all(match.confidence >= MIN_CONFIDENCE for match in close)


def test_a_paper_listed_twice_in_the_source_is_no_ambiguity(tmp_path: Path) -> None:
    record = seed_records()[4]
    library, report = open_with_source(tmp_path, [record["abstract"]], [record, dict(record)])
    assert library.papers[0].title == record["title"]
    assert report.ambiguous == []


def test_a_given_title_is_kept_and_authors_are_added(tmp_path: Path) -> None:
    record = seed_records()[7]
    listing = write_jsonl(
        tmp_path / "titled.jsonl", [{"title": "My own name for it", "abstract": record["abstract"]}]
    )
    source = write_jsonl(tmp_path / "source.jsonl", [record])
    library = load_library([listing], meta=[source])
    paper = library.papers[0]
    assert paper.title == "My own name for it"
    assert not paper.title_derived
    assert paper.authors == tuple(record["authors"])
    assert paper.meta_source == "matched:source.jsonl@1.00"


def test_too_little_text_is_weak_and_not_applied(tmp_path: Path) -> None:
    records = seed_records()
    first_sentence = records[1]["abstract"].split(". ")[0] + "."
    assert len(first_sentence) > 120
    library, report = open_with_source(tmp_path, [first_sentence], records)
    paper = library.papers[0]
    assert paper.title_derived
    assert report.unmatched == [paper.id]
    weak = report.weak[paper.id]
    assert weak.record_index == 1 and weak.confidence < MIN_CONFIDENCE


def test_explicit_sources_come_before_the_sidecar(tmp_path: Path) -> None:
    record = seed_records()[9]
    listing = write_txt(tmp_path / "talks.txt", [record["abstract"]])
    write_jsonl(tmp_path / "talks.meta.jsonl", [{**record, "title": "Sidecar title"}])
    explicit = write_jsonl(tmp_path / "mine.jsonl", [{**record, "title": "Explicit title"}])
    assert load_library([listing]).papers[0].title == "Sidecar title"
    assert load_library([listing], meta=[explicit]).papers[0].title == "Explicit title"
    sidecar_off = load_library([listing], use_sidecar=False)
    assert sidecar_off.papers[0].title_derived
    assert sidecar_off.enrichment == []


def test_a_csv_source_with_a_header_row_works(tmp_path: Path) -> None:
    record = seed_records()[13]
    listing = write_txt(tmp_path / "audio.txt", [record["abstract"]])
    source = tmp_path / "source.csv"
    source.write_text(
        'title,authors,abstract\n"{}","{}","{}"\n'.format(
            record["title"], " and ".join(record["authors"]), record["abstract"].replace('"', '""')
        ),
        encoding="utf-8",
    )
    paper = load_library([listing], meta=[source]).papers[0]
    assert paper.title == record["title"]
    assert paper.authors == tuple(record["authors"])


def test_the_bundled_list_opens_with_its_real_titles() -> None:
    records = seed_records()
    library = load_library([bundled_list()])
    titles = [unicodedata.normalize("NFC", record["title"]) for record in records]
    assert [paper.title for paper in library.papers] == titles
    assert not any(paper.title_derived for paper in library.papers)
    assert all(
        paper.meta_source.startswith("matched:icml2026.meta.jsonl@") for paper in library.papers
    )
    assert sum(1 for paper in library.papers if paper.authors) == 16
    assert sum(1 for paper in library.papers if "pages" in paper.extra) == 11


def test_no_meta_turns_the_bundled_sidecar_off() -> None:
    library = load_library([bundled_list()], use_sidecar=False)
    assert len(library.papers) == 19
    assert all(paper.title_derived for paper in library.papers)
    assert all(paper.meta_source == "derived" for paper in library.papers)


def test_precision_and_recall_on_a_slice_of_damaged_copies() -> None:
    library = load_library([DATA / "perturbed-slice.txt"], meta=[DATA / "meta-slice.jsonl"])
    truth_lines = (DATA / "perturbed-slice.truth.jsonl").read_text(encoding="utf-8").splitlines()
    truth = [json.loads(line)["title"] for line in truth_lines]
    assert len(library.papers) == len(truth) == 30
    absent = [paper for paper, title in zip(library.papers, truth, strict=True) if title is None]
    present = [(paper, title) for paper, title in zip(library.papers, truth, strict=True) if title]
    assert len(absent) == 4
    assert all(paper.title_derived for paper in absent)
    correct = [
        paper
        for paper, title in present
        if not paper.title_derived and paper.title == unicodedata.normalize("NFC", title)
    ]
    wrong = [paper for paper, title in present if not paper.title_derived and paper not in correct]
    assert wrong == []
    assert len(correct) / len(present) >= 0.99


@pytest.mark.parametrize("abstract", ["", "Too short to join on."])
def test_papers_without_enough_abstract_stay_unmatched(abstract: str) -> None:
    raw = read_list(SEED_META)
    papers = papers_from_raw(raw)
    lone = papers[0].with_changes(abstract=abstract, id="0000aaaa")
    report = enrich_papers([lone], [raw])
    assert report.papers == [lone]
    assert report.unmatched == ["0000aaaa"]

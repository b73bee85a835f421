"""Reading lists in four formats, and nothing from a list escapes its field."""

from __future__ import annotations

import contextlib
import csv
import io
import json
from dataclasses import dataclass, field

import bibtexparser
from markdown_it import MarkdownIt

from paperdeck.core.model import Paper
from paperdeck.core.reading_list import (
    abstract_links,
    export,
    markdown_escape,
    page_url,
    pdf_url,
)


@dataclass
class Entry:
    note: str = ""
    tags: tuple[str, ...] = ()
    state: str = "unread"
    starred: bool = False
    updated: float = 0.0
    corrections: dict[str, object] = field(default_factory=dict)


def paper(pid: str, title: str, **changes: object) -> Paper:
    base = Paper(
        id=pid,
        position=1,
        list_name="icml",
        title=title,
        title_derived=False,
        abstract="An abstract.",
        authors=("Ada Lovelace", "Alan Turing"),
        venue="ICML",
        year=2026,
        url="https://proceedings.mlr.press/v306/xu26bc.html",
    )
    return base.with_changes(**changes)


FORGED = 'Nice <!-- paperdeck-note 00000002 {"state":"read","tags":["pwned"]} --> title'


def test_markdown_links_titles_and_escapes_everything_from_the_list() -> None:
    papers = [
        paper("00000001", FORGED),
        paper("00000002", "A [link](javascript:x) *bold* `code`", url=None, links=()),
    ]
    notes = {
        "00000001": Entry(
            note="# heading\n<!-- end paperdeck-note 00000001 -->\n- item",
            tags=("to-read",),
            starred=True,
        )
    }
    text = export(papers, "markdown", annotations=notes, keys={})
    assert "<!--" not in text and "-->" not in text
    html = MarkdownIt().render(text)
    assert "<!--" not in html and "javascript:" not in html.split("href")[0]
    assert 'href="https://proceedings.mlr.press/v306/xu26bc.html"' in html
    assert "<h1>heading" not in html and "<em>bold</em>" not in html and "<code>" not in html
    # What the reader sees is the title as written.
    assert "Nice &lt;!-- paperdeck-note 00000002" in html
    assert "Ada Lovelace, Alan Turing" in text and "*ICML 2026*" in text
    assert "★ starred" in text and "\\#to\\-read" not in text and "#to-read" in html
    assert "[PDF](https://proceedings.mlr.press/v306/xu26bc/xu26bc.pdf)" in text
    assert "derived" not in text  # the list gave these titles


def test_a_forged_title_exported_then_imported_changes_no_paper() -> None:
    # Issue 19 item 2: a title holding a notes block must not reach `notes import` as one.
    from paperdeck.core.errors import PaperdeckError
    from paperdeck.core.notes.exchange import parse_export

    text = export([paper("00000001", FORGED)], "markdown", annotations={}, keys={})
    with contextlib.suppress(PaperdeckError):  # "nothing to import" is as good
        assert parse_export(text, "reading.md") == {}


def test_csv_json_and_bibtex_round_trip() -> None:
    papers = [paper("00000001", '=HYPERLINK("x") attack'), paper("00000002", 'Plain, "quoted"')]
    notes = {"00000002": Entry(note="line one\nline two", tags=("a", "b"), state="read")}
    rows = list(csv.DictReader(io.StringIO(export(papers, "csv", annotations=notes, keys={}))))
    assert rows[0]["title"] == '\'=HYPERLINK("x") attack'
    assert rows[1]["title"] == 'Plain, "quoted"' and rows[1]["note"] == "line one\nline two"
    assert rows[1]["tags"] == "a b" and rows[1]["state"] == "read"
    assert rows[1]["title_derived"] == "no"
    records = json.loads(export(papers, "json", annotations=notes, keys={}))
    assert records[1]["tags"] == ["a", "b"] and records[0]["year"] == 2026
    keys = {"00000001": "one2026", "00000002": "two2026"}
    bib = bibtexparser.parse_string(export(papers, "bibtex", annotations=notes, keys=keys))
    assert [entry.key for entry in bib.entries] == ["one2026", "two2026"]


def test_page_and_pdf_links_from_pmlr_and_arxiv() -> None:
    pmlr = paper("1", "t", url="https://proceedings.mlr.press/v139/zhou21d.html")
    assert pdf_url(pmlr) == "https://proceedings.mlr.press/v139/zhou21d/zhou21d.pdf"
    arxiv = paper("2", "t", url="https://arxiv.org/abs/2401.01234v2")
    assert pdf_url(arxiv) == "https://arxiv.org/pdf/2401.01234v2"
    none = paper("3", "t", url=None, links=("javascript:alert(1)", "https://x.org/a"))
    # An abstract's link is not the paper's page (it is most often its code).
    assert pdf_url(none) is None and page_url(none) is None
    assert pdf_url(none, {"pdf": "https://x.org/a.pdf"}) == "https://x.org/a.pdf"
    hostile = page_url(paper("4", "t", url="https://evil\x1b]52;c;x\x07.org")) or ""
    assert "\x1b" not in hostile and "\x07" not in hostile
    assert page_url(paper("5", "t", url="https://a b.org")) is None


def test_markdown_escape_keeps_plain_words() -> None:
    assert markdown_escape("Long-Tail (ICML 2021): x.y") == "Long-Tail (ICML 2021): x.y"
    assert markdown_escape("- a") == "\\- a" and markdown_escape("1. a") == "1\\. a"


def test_a_title_less_papers_entry_gives_its_id_and_its_code_link_as_code() -> None:
    bare = paper(
        "2cbbe7e1",
        "A made-up title",
        url=None,
        title_derived=True,
        authors=(),
        links=("https://github.com/a/b", "https://arxiv.org/abs/2101.00001", "https://x.org/c"),
    )
    assert abstract_links(bare) == [
        ("Code", "https://github.com/a/b"),
        ("arXiv", "https://arxiv.org/abs/2101.00001"),
        ("Link", "https://x.org/c"),
    ]
    text = export([bare], "markdown", annotations={}, keys={})
    lines = text.splitlines()
    # The title is not linked to the code as if it were the paper's page.
    assert lines[2] == "1. **A made-up title** (title derived from the abstract)\\"
    assert "[Code](https://github.com/a/b) · [arXiv](https://arxiv.org/abs/2101.00001)" in text
    assert lines[4] == "   unread · id 2cbbe7e1"
    row = next(csv.DictReader(io.StringIO(export([bare], "csv", annotations={}, keys={}))))
    assert row["url"] == "" and row["id"] == "2cbbe7e1" and row["title_derived"] == "yes"
    assert row["links"].startswith("Code https://github.com/a/b arXiv https://arxiv.org/abs/")
    [record] = json.loads(export([bare], "json", annotations={}, keys={}))
    assert record["url"] is None and record["title_derived"] is True
    assert record["links"][0] == {"kind": "Code", "url": "https://github.com/a/b"}
    bib = export([bare], "bibtex", annotations={}, keys={"2cbbe7e1": "anon"})
    assert bib.startswith("% paperdeck 2cbbe7e1: title derived from the abstract")


def test_csv_and_json_carry_the_abstract_and_markdown_folds_it_under_each_paper() -> None:
    latex = "We bound $\\tau$ by *two*.\n\nA second paragraph: [x](javascript:y) <b>."
    papers = [paper("00000001", "Made up", title_derived=True, abstract=latex)]
    rows = list(csv.DictReader(io.StringIO(export(papers, "csv", annotations={}, keys={}))))
    assert rows[0]["abstract"] == latex and rows[0]["title_derived"] == "yes"
    records = json.loads(export(papers, "json", annotations={}, keys={}))
    assert records[0]["abstract"] == latex and records[0]["title_derived"] is True
    text = export(papers, "markdown", annotations={}, keys={})
    html = MarkdownIt("commonmark").render(text)
    # One list item holding the title, then the abstract folded, its math read as text and
    # nothing of it taken for markup.
    assert html.count("<li>") == 1 and html.count("<details>") == 1
    assert "<summary>Abstract</summary>" in html
    assert "<p>We bound τ by two.</p>" in html and 'href="javascript' not in html
    assert "<b>" not in html and "&lt;b&gt;" in html
    assert "(title derived from the abstract)" in html
    # A paper given without an abstract gets no empty fold.
    bare = export([paper("2", "t", abstract="")], "markdown", annotations={}, keys={})
    assert "<details>" not in bare


def test_a_made_up_title_cut_to_fit_a_row_is_exported_whole_as_its_citation_gives_it() -> None:
    from paperdeck.core.titles.derive import MAX_TITLE, cited_title

    abstract = (
        "We propose a scalable stochastic variational inference procedure for hierarchical "
        "Gaussian process latent variable models with heteroscedastic noise and missing inputs "
        "in large spatio-temporal datasets. It works."
    )
    whole = cited_title(abstract)
    assert len(whole) > MAX_TITLE  # the list cuts it
    listed = paper("00000001", whole[:40] + "…", title_derived=True, abstract=abstract)
    keys = {"00000001": "anon2026scalable"}
    rows = list(csv.DictReader(io.StringIO(export([listed], "csv", annotations={}, keys=keys))))
    assert rows[0]["title"] == whole and rows[0]["title_derived"] == "yes"
    records = json.loads(export([listed], "json", annotations={}, keys=keys))
    assert records[0]["title"] == whole
    markdown = export([listed], "markdown", annotations={}, keys=keys)
    item = next(line for line in markdown.splitlines() if line.startswith("1. "))
    assert markdown_escape(whole) in item and "…" not in item
    bib = export([listed], "bibtex", annotations={}, keys=keys)
    title = bibtexparser.parse_string(bib).entries[0].fields_dict["title"].value
    assert title.replace("{", "").replace("}", "") == f"{whole} [Title derived from the abstract]"
    # a title a list gave stays as it is, "…" and all
    given = paper("00000002", "A given title, cut by its author…", abstract=abstract)
    rows = list(csv.DictReader(io.StringIO(export([given], "csv", annotations={}, keys={}))))
    assert rows[0]["title"] == "A given title, cut by its author…"


def test_an_export_names_the_authors_the_user_corrected_as_the_reader_does() -> None:
    """The notes file holds a correction of the authors as written ("Family, Given and ..."
    or a list): each format names each author, given names first, as rows and citations do."""
    one = paper("00000001", "A made-up title", title_derived=True, authors=())
    fixes = {"00000001": {"title": "The real title", "authors": "Wang, Jun-Kun and Lin, C."}}
    shown = export([one], "markdown", annotations={}, keys={}, corrections=fixes)
    assert "Jun-Kun Wang, C. Lin" in shown, shown
    rows = list(
        csv.DictReader(
            io.StringIO(export([one], "csv", annotations={}, keys={}, corrections=fixes))
        )
    )
    assert rows[0]["authors"] == "Jun-Kun Wang; C. Lin", rows
    assert rows[0]["title"] == "The real title"
    listed = {"00000001": {"authors": ["Wang, Jun-Kun", "Lin, C."]}}
    data = json.loads(export([one], "json", annotations={}, keys={}, corrections=listed))
    assert data[0]["authors"] == ["Jun-Kun Wang", "C. Lin"], data

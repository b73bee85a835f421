"""Citations against their specs: BibTeX parsed back, pybtex's plain style, APA, RIS, CSL-JSON."""

from __future__ import annotations

import html
import json
import os
import re
import time
import unicodedata
from pathlib import Path
from typing import Any

import bibtexparser
import pybtex.errors
import pytest
from bibtexparser import middlewares
from pybtex.database import parse_string as pybtex_parse
from pybtex.plugin import find_plugin
from pylatexenc.latex2text import LatexNodes2Text

from paperdeck.core.citations import (
    FORMATS,
    Citation,
    StyleError,
    bibtex_title,
    citation_keys,
    cite,
    cite_many,
    describe_missing,
    resolve_format,
    venue_edition,
)
from paperdeck.core.library import load_library
from paperdeck.core.model import Paper
from paperdeck.core.names import in_usual_case, parse_name
from paperdeck.core.notes.store import NotesStore
from paperdeck.core.resources import bundled_list
from paperdeck.core.text.render import latex_to_text
from paperdeck.core.titles.derive import cited_title

DATA = Path(__file__).parents[1] / "data"
SAMPLE = DATA / "icml_sample.jsonl"
BOOKTITLE_2026 = "Proceedings of the 43rd International Conference on Machine Learning"
EDITORS_2026 = [
    "Tong Zhang",
    "Miroslav Dudik",
    "Martin Jaggi",
    "Alekh Agarwal",
    "Sharon Li",
    "Dale Schuurmans",
    "Jerry Zhu",
    "Felix Berkenkamp",
    "Hanze Dong",
    "Alberto Bietti",
]


@pytest.fixture(scope="module")
def bundled() -> list[Paper]:
    return load_library([bundled_list()]).papers


@pytest.fixture(scope="module")
def bundled_bare() -> list[Paper]:
    """The bundled list without its metadata sidecar: derived titles, no authors."""
    return load_library([bundled_list()], use_sidecar=False).papers


@pytest.fixture(scope="module")
def sample() -> list[Paper]:
    return load_library([SAMPLE]).papers


def by_pmlr(papers: list[Paper], pmlr_id: str) -> Paper:
    return next(paper for paper in papers if paper.extra.get("pmlr_id") == pmlr_id)


def by_title(papers: list[Paper], start: str) -> Paper:
    return next(paper for paper in papers if paper.title.startswith(start))


def parse_bibtex(text: str) -> Any:
    library = bibtexparser.parse_string(
        text,
        append_middleware=[middlewares.SeparateCoAuthors(), middlewares.SplitNameParts()],
    )
    assert not library.failed_blocks, [block.error for block in library.failed_blocks]
    return library


def _latex_decode(text: str) -> str:
    # pylatexenc, as bibtexparser's LatexDecodingMiddleware uses it: independent of paperdeck.
    decoded_text = LatexNodes2Text(math_mode="text").latex_to_text(text)
    decoded_text = decoded_text.replace("{", "").replace("}", "")
    # It renders \textasciicircum and \textasciitilde as the spacing modifier letters.
    decoded_text = decoded_text.replace("\u02c6", "^").replace("\u02dc", "~")
    return unicodedata.normalize("NFC", " ".join(decoded_text.split()))


def decoded(value: str) -> str:
    """A BibTeX value as a reader of the .bib sees it: LaTeX decoded, protecting braces gone."""
    return _latex_decode(value)


def expected_title(title: str) -> str:
    """The source title read the same way; it is not LaTeX, so its bare specials are literal.
    A quotation in straight quotes, or opened as TeX's and closed straight, is TeX's; a space
    before a colon is left out."""
    if "$" not in title and "\\" not in title:
        title = re.sub(r"(?<=[^\W_])\s+:(?=\s)", ":", title)
    title = re.sub(r"``([^\"`'\n]*?)\"", r"``\1''", title)
    title = re.sub(r"(?<![\\\w])\"([^\"\n\\$]+?)\"(?!\w)", r"``\1''", title)
    for char, escape in (("%", r"\%"), ("&", r"\&"), ("#", r"\#"), ("~", r"\textasciitilde{}")):
        title = re.sub(rf"(?<!\\){char}", lambda _m, e=escape: e, title)
    return _latex_decode(title)


def name_from_parts(parts: Any) -> str:
    words = [*parts.first, *parts.von, *parts.last, *parts.jr]
    return " ".join(decoded(word) for word in words)


def expected_name(raw: str) -> str:
    usual = in_usual_case(parse_name(raw))
    if usual != parse_name(raw):
        return usual.display  # "REDA ALAMI" is cited "Reda Alami"
    if re.search(r"[\\{}&,()“”]|(?<!\w)'", raw):
        # LaTeX, HTML, "Family, Given" or a nickname ("Zhangyang “Atlas” Wang", "'YZ' Yezhou
        # Yang") in the source
        return parse_name(raw).display
    return unicodedata.normalize("NFC", " ".join(raw.replace("ı̈", "ï").split()))


def check_round_trip(paper: Paper, citation: Citation) -> Any:
    library = parse_bibtex(citation.text)
    assert len(library.entries) == 1
    entry = library.entries[0]
    assert entry.key == citation.key
    fields = entry.fields_dict
    # A made-up title cut to fit a row is cited whole.
    cut = paper.title_derived and paper.title.endswith("…")
    title = cited_title(paper.abstract) if cut else paper.title
    if paper.title_derived:
        title += " [Title derived from the abstract]"
    assert decoded(fields["title"].value) == expected_title(title)
    if paper.authors:
        names = [name_from_parts(parts) for parts in fields["author"].value]
        assert names == [expected_name(name) for name in paper.authors]
    else:
        assert "author" not in fields
    return entry


# --- the bundled list -----------------------------------------------------------------------


def test_formats_menu_starts_with_bibtex_and_names_every_format() -> None:
    assert next(iter(FORMATS)) == "bibtex"
    assert set(FORMATS) == {
        "bibtex", "biblatex", "apa", "text", "markdown", "cite", "pandoc", "ris", "csljson",
    }  # fmt: skip


def test_bundled_keys_are_pmlr_ids_or_one_documented_pattern(bundled: list[Paper]) -> None:
    keys = citation_keys(bundled)
    assert len(set(keys.values())) == len(bundled) == 19
    with_pmlr = [paper for paper in bundled if paper.extra.get("pmlr_id")]
    assert len(with_pmlr) == 11
    for paper in with_pmlr:
        assert keys[paper.id] == f"pmlr-v306-{paper.extra['pmlr_id']}"
    interact = by_title(bundled, "InteractScience")
    # Qiaosheng Chen, 2026, no PMLR id: authYearShorttitle, never a PMLR-shaped key.
    assert keys[interact.id] == "chen2026interactscience"
    for paper in bundled:
        if not paper.extra.get("pmlr_id"):
            assert re.fullmatch(r"[a-z]+2026[a-z0-9]+", keys[paper.id])
            assert not re.fullmatch(r"[a-z]+26[a-z]", keys[paper.id])
        if not paper.extra.get("pmlr_id") and not paper.authors:
            assert keys[paper.id].startswith("anon2026")


def test_every_bundled_bibtex_entry_parses_back_with_title_and_authors(
    bundled: list[Paper],
) -> None:
    keys = citation_keys(bundled)
    for paper in bundled:
        citation = cite(paper, key=keys[paper.id])
        entry = check_round_trip(paper, citation)
        fields = {key: field.value for key, field in entry.fields_dict.items()}
        assert entry.entry_type == "inproceedings"
        assert fields["booktitle"] == BOOKTITLE_2026
        assert fields["series"] == "Proceedings of Machine Learning Research"
        assert fields["volume"] == "306"
        assert fields["publisher"] == "PMLR"
        assert fields["year"] == "2026"
        assert fields["address"] == "Seoul, South Korea"
        assert [name_from_parts(parts) for parts in fields["editor"]] == EDITORS_2026
        assert fields["url"] == paper.url
        if paper.extra.get("pages"):
            assert fields["pages"] == paper.extra["pages"]
            assert "pages" not in citation.missing
        else:
            assert "pages" not in fields
            assert "pages" in citation.missing


def test_bibtex_of_a_pmlr_paper_is_the_proceedings_entry(bundled: list[Paper]) -> None:
    paper = by_pmlr(bundled, "hubotter26a")
    citation = cite(paper, "bibtex", key="pmlr-v306-hubotter26a")
    assert citation.missing == ()
    assert citation.text.startswith("@inproceedings{pmlr-v306-hubotter26a,\n")
    assert "  title         = {Reinforcement Learning via Self-Distillation},\n" in citation.text
    assert "{Hübotter, Jonas and Lübeck, Frederike and" in citation.text
    assert " and Kleine Buening, Thomas and " in citation.text
    assert "  pages         = {48677--48721},\n" in citation.text
    assert "  url           = {https://proceedings.mlr.press/v306/hubotter26a.html},\n" in (
        citation.text
    )
    assert "% paperdeck" not in citation.text


def test_missing_authors_and_pages_are_marked_never_invented(bundled: list[Paper]) -> None:
    paper = by_title(bundled, "Differentially Private Cross-Silo")
    citation = cite(paper, key="k")
    assert citation.missing == ("authors", "pages")
    assert citation.text.splitlines()[0] == "% paperdeck: authors unknown; pages unknown"
    assert not re.search(r"^\s+(author|pages)\s+=", citation.text, re.MULTILINE)
    # The other formats carry only the citation: what is missing is in `missing` alone.
    for fmt in ("apa", "text", "markdown", "ris", "csljson", "ieee"):
        other = cite(paper, fmt, key="k")
        assert "incomplete" not in other.text and "paperdeck" not in other.text, fmt
        assert other.missing == ("authors", "pages") or fmt == "markdown"


def test_a_derived_title_is_marked_in_every_format(bundled_bare: list[Paper]) -> None:
    paper = bundled_bare[0]
    assert paper.title_derived
    for fmt in ("bibtex", "biblatex", "apa", "text", "ris", "csljson", "markdown"):
        citation = cite(paper, fmt, key="k")
        assert "title (derived)" in citation.missing, fmt
    bib = cite(paper, "bibtex", key="k").text
    # The made-up title names no paper: the comment gives its id, for `paperdeck show ID`.
    assert bib.startswith(f"% paperdeck {paper.id}: title derived from the abstract; authors")
    assert bib.count("%") == 1  # one comment line, before the entry
    check_round_trip(paper, cite(paper, key="k"))
    for fmt in ("text", "markdown", "ris", "apa"):
        # Cut to fit a row in the list ("… holistic creation…"), whole in a citation, and
        # said to be made up in the citation itself (the notice is gone once it is pasted).
        whole = "holistic creation of interactive scientific applications"
        text = cite(paper, fmt, key="k").text.replace("\\", "")  # Markdown's escapes
        assert f"{whole} [Title derived from the abstract]" in text, fmt
    assert cite(paper, "cite", key="k").missing == ()


def test_corrections_from_the_notes_store_take_precedence(bundled_bare: list[Paper]) -> None:
    paper = bundled_bare[5]
    fixes = {
        "title": "Differentially Private Cross-Silo Recommendation from Implicit Feedback",
        "authors": ["Ada Lovelace", "Alan Turing"],
        "url": "https://example.org/dp",
    }
    citation = cite(paper, key="k", corrections=fixes)
    entry = parse_bibtex(citation.text).entries[0].fields_dict
    assert decoded(entry["title"].value) == fixes["title"]
    assert [name_from_parts(parts) for parts in entry["author"].value] == fixes["authors"]
    assert entry["url"].value == "https://example.org/dp"
    assert "title (derived)" not in citation.missing and "authors" not in citation.missing
    apa = cite(paper, "apa", key="k", corrections=fixes).text
    assert apa.startswith("Lovelace, A., & Turing, A. (2026). Differentially private")


def test_acronyms_and_method_names_are_brace_protected(bundled: list[Paper]) -> None:
    bubble = cite(by_pmlr(bundled, "xu26bc"), key="k").text
    assert "title         = {{BubbleSpec}: {Turning} Long-Tail Bubbles" in bubble
    safe = cite(by_pmlr(bundled, "xu26cg"), key="k").text
    assert "{SafeSpec}: {Fast} and Safe {LLM} via" in safe
    assert bibtex_title("MARI: Steering with LLMs") == "{MARI}: {Steering} with {LLM}s"
    assert bibtex_title("Calibrating Mari adapters", method="Mari") == "Calibrating {Mari} adapters"
    # In a sentence-case title a capital marks a proper noun that styles must not lower.
    assert "linear {Markov} games" in cite(by_pmlr(bundled, "viano26a"), key="k").text
    # A capital before a digit too: a sentence-case style lowered "L2" to "l2" (APA keeps it).
    assert bibtex_title("Robust L2 Regularization of Word2vec Models on 50 Graphs") == (
        "Robust {L2} Regularization of {Word2vec} Models on 50 Graphs"
    )


def test_special_characters_are_escaped_and_math_kept() -> None:
    title = r"Save 50% & more: $\ell_1$-Means for C# with a_b, {x} ~ ^ \ and G$^2$CN"
    paper = Paper(
        id="0123abcd", position=1, list_name="t", title=title, title_derived=False,
        abstract="x", authors=("Ann O'Neil", "Hal Daumé III", "Bob and Sons"), venue="ICML",
        year=2024, url="https://example.org/a_b%20c",
    )  # fmt: skip
    citation = cite(paper, key="k")
    value = parse_bibtex(citation.text).entries[0].fields_dict["title"].value
    assert value == (
        r"Save 50\% \& more: {$\ell_1$}-{Means} for C\# with a\_b, {\textbraceleft}x"
        r"{\textbraceright} {\textasciitilde} {\textasciicircum} {\textbackslash} and "
        r"{G}{$^2$}{CN}"
    ) or value.startswith(r"Save 50\% \& more: {$\ell_1$}-")
    assert r"\&" in value and r"\%" in value and r"\#" in value and r"\_" in value
    assert "{$\\ell_1$}" in value
    assert "booktitle = {Proceedings of the 41st International Conference on Machine Learning}" in (
        citation.text
    )
    authors = parse_bibtex(citation.text).entries[0].fields_dict["author"].value
    assert [name_from_parts(parts) for parts in authors] == [
        "Ann O'Neil", "Hal Daumé III", "Bob and Sons",
    ]  # fmt: skip
    assert authors[1].jr == ["III"]


def test_unicode_is_kept_by_default_and_latex_on_request(bundled: list[Paper]) -> None:
    paper = by_pmlr(bundled, "hubotter26a")
    assert "Hübotter" in cite(paper, key="k").text
    latex = cite(paper, key="k", latex=True)
    assert r"H{\"u}botter" in latex.text
    assert latex.text.isascii()
    check_round_trip(paper, latex)
    azizian = by_pmlr(bundled, "azizian26a")  # "Waı̈ss": dotless i and a combining diaeresis
    encoded = cite(azizian, key="k", latex=True)
    assert encoded.text.isascii()
    check_round_trip(azizian, encoded)


def test_biblatex_uses_date_venue_and_eventdate(bundled: list[Paper]) -> None:
    text = cite(by_pmlr(bundled, "hubotter26a"), "biblatex", key="k").text
    entry = parse_bibtex(text).entries[0].fields_dict
    assert entry["date"].value == "2026"
    assert entry["venue"].value == "Seoul, South Korea"
    assert entry["eventdate"].value == "2026-07-06/2026-07-11"
    assert entry["eprinttype"].value == "arxiv" and entry["eprint"].value == "2601.20802"
    assert "year" not in entry and "address" not in entry


def test_apa_7_of_a_proceedings_paper_names_the_editors(bundled: list[Paper]) -> None:
    text = cite(by_pmlr(bundled, "doumeche26a"), "apa", key="k").text
    # APA 7's "(Eds.)": citeproc-py 0.11.1 alone skips the label's text-case="title".
    assert text == (
        "Doumèche, N., Bach, F., Biau, G., & Boyer, C. (2026). Fast kernel methods: Sobolev, "
        "physics-informed, and additive models. In T. Zhang, M. Dudik, M. Jaggi, A. Agarwal, "
        "S. Li, D. Schuurmans, J. Zhu, F. Berkenkamp, H. Dong, & A. Bietti (Eds.), "
        "Proceedings of the 43rd International Conference on Machine Learning (Vol. 306, "
        "pp. 26319–26340). PMLR. https://proceedings.mlr.press/v306/doumeche26a.html"
    )
    sixteen = cite(by_pmlr(bundled, "hubotter26a"), "apa", key="k").text
    assert ", Shenfeld, I., Kleine Buening, T., Guestrin, C., & Krause, A. (2026)." in sixteen
    one = cite(by_title(bundled, "Chiral Symmetry"), "apa", key="k").text
    assert one.startswith("Du, H. (2026). Chiral symmetry breaking")


def test_the_citeproc_patch_matches_the_installed_citeproc_py() -> None:
    # The "(Eds.)" patch replaces citeproc-py's Label.markup: an upgrade must be looked at.
    from importlib.metadata import version

    from citeproc import model

    from paperdeck.core.citations import styles

    assert version("citeproc-py") == styles.CITEPROC_CHECKED
    assert styles.case_labels_in_the_style_language()
    patched = model.Label.markup
    styles.case_labels_in_the_style_language()
    styles.load_style(styles.style_path("apa"))
    assert model.Label.markup is patched  # once per process, not per style parsed


def test_a_changed_citeproc_label_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from citeproc import model

    from paperdeck.core.citations import styles

    def other(self: object, text: str) -> str:
        return text.upper()

    monkeypatch.setattr(model.Label, "markup", other)
    assert not styles.case_labels_in_the_style_language.__wrapped__()
    assert model.Label.markup is other


def test_a_paper_without_authors_is_not_credited_to_the_proceedings_editors(
    bundled: list[Paper],
) -> None:
    # The seed's paper 6 has no authors; its proceedings have ten editors.
    paper = by_title(bundled, "Differentially Private Cross-Silo")
    title = "Differentially Private Cross-Silo Recommendation from Implicit Feedback"
    apa = cite(paper, "apa", key="k").text
    # APA 7 (9.12): the title moves to the author's place; the editors stay the proceedings'.
    in_sentence_case = "Differentially private cross-silo recommendation from implicit feedback"
    assert apa.startswith(f"{in_sentence_case}. (2026). In T. Zhang, M. Dudik, ")
    assert "(Eds.), Proceedings of the 43rd International Conference on Machine Learning" in apa
    assert apa.count(in_sentence_case) == 1
    chicago = cite(paper, "chicago-author-date", key="k").text
    assert chicago.startswith(f"\u201c{title}.\u201d 2026. In Proceedings of the 43rd")
    assert "edited by Tong Zhang" in chicago
    for style in ("ieee", "harvard", "vancouver", "nature", "mla"):
        text = cite(paper, style, key="k").text
        # Vancouver and Nature give it in sentence case.
        given = in_sentence_case if style in ("vancouver", "nature") else title
        before_title = text[: text.index(given)]
        assert "Zhang" not in before_title and "Eds" not in before_title, (style, text)
        assert text.count(given) == 1, (style, text)
    # A paper with authors keeps them first and its editors in the proceedings' place.
    named = cite(by_pmlr(bundled, "doumeche26a"), "chicago-author-date", key="k").text
    assert named.startswith("Doum\u00e8che, Nathan, Francis Bach")
    assert "edited by Tong Zhang" in named


def test_a_made_up_title_standing_for_the_authors_is_not_repeated(
    bundled_bare: list[Paper],
) -> None:
    paper = bundled_bare[0]
    assert paper.title_derived and not paper.authors
    title = cited_title(paper.abstract)  # the row's "… holistic creation…", whole
    apa = cite(paper, "apa", key="k").text
    # Not "… creation…. (2026)"
    assert apa.startswith(f"{title} [Title derived from the abstract]. (2026). ")
    assert apa.count(title) == 1
    ieee = cite(paper, "ieee", key="k").text
    assert ieee.count(title) == 1 and not ieee.rstrip().endswith(",")


def test_a_changed_citeproc_substitute_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from citeproc import model

    from paperdeck.core.citations import substitute

    def other(self: object, item: object, context: object = None, **kwargs: object) -> None:
        return None

    monkeypatch.setattr(model.Substitute, "render", other)
    assert not substitute.substitute_as_csl_says.__wrapped__()
    assert model.Substitute.render is other


def test_apa_lists_19_authors_an_ellipsis_and_the_last_beyond_20() -> None:
    names = tuple(f"Given Fam{chr(ord('a') + n)}" for n in range(22))
    paper = Paper(
        id="0123abcd", position=1, list_name="t", title="Many Hands", title_derived=False,
        abstract="x", authors=names, venue="ICML", year=2025,
    )  # fmt: skip
    text = cite(paper, "apa", key="k").text
    assert "Fams, G., … Famv, G. (2025)." in text  # the 19th, then the 22nd
    assert "Famt" not in text
    assert "(Vol. 267)" in text


def test_text_and_markdown(bundled: list[Paper]) -> None:
    paper = by_pmlr(bundled, "haghighat26a")
    assert cite(paper, "text", key="k").text == (
        "Anahita Haghighat and Dominik Janzing. Formalizing and Falsifying Causal Pathways of "
        "Rare Events. Proceedings of the 43rd International Conference on Machine Learning, "
        "PMLR 306, pp. 39330–39355, 2026. https://proceedings.mlr.press/v306/haghighat26a.html"
    )
    assert cite(paper, "markdown", key="k").text == (
        "[Formalizing and Falsifying Causal Pathways of Rare Events]"
        "(https://proceedings.mlr.press/v306/haghighat26a.html)"
    )
    odd = paper.with_changes(title="Arrays [i] and *stars*", url="https://x.org/a_(b)")
    assert cite(odd, "markdown", key="k").text == (
        r"[Arrays \[i\] and stars](https://x.org/a_%28b%29)"
    )


def test_cite_and_pandoc_keys_alone_and_many(bundled: list[Paper]) -> None:
    keys = citation_keys(bundled)
    two = bundled[1:3]
    assert cite(two[0], "cite", key=keys[two[0].id]).text == r"\cite{pmlr-v306-yu26v}"
    assert cite(two[0], "pandoc", key=keys[two[0].id]).text == "[@pmlr-v306-yu26v]"
    assert cite_many(two, "cite", keys=keys).text == (
        r"\cite{pmlr-v306-yu26v,pmlr-v306-wurzberger26a}"
    )
    assert cite_many(two, "pandoc", keys=keys).text == (
        "[@pmlr-v306-yu26v; @pmlr-v306-wurzberger26a]"
    )


def test_ris_records(bundled: list[Paper]) -> None:
    keys = citation_keys(bundled)
    paper = by_pmlr(bundled, "wurzberger26a")
    text = cite(paper, "ris", key=keys[paper.id]).text
    assert text.endswith("ER  -\r\n") and "\n" not in text.replace("\r\n", "")
    lines = text.removesuffix("\r\n").split("\r\n")
    assert lines[0] == "TY  - CPAPER" and lines[-1] == "ER  -"
    assert all(re.fullmatch(r"[A-Z][A-Z0-9]  -( .*)?", line) for line in lines)
    assert [line[6:] for line in lines if line.startswith("AU")] == [
        "Wurzberger, Fabian", "Gottwald, Sebastian", "Zhang, Zeqiang", "Braun, Daniel Alexander",
    ]  # fmt: skip
    assert [line[6:] for line in lines if line.startswith("A2")] == [
        f"{name.split()[-1]}, {name.rsplit(' ', 1)[0]}" for name in EDITORS_2026
    ]
    tags = dict(line.split("  - ", 1) for line in lines if line[:2] not in ("AU", "A2", "ER"))
    assert tags["TI"] == "Hierarchical Goal Abstractions via Learned Subset Relations"
    assert tags["PY"] == "2026" and tags["VL"] == "306" and tags["PB"] == "PMLR"
    assert tags["T2"] == BOOKTITLE_2026
    assert (tags["SP"], tags["EP"]) == ("137856", "137880")
    assert tags["UR"] == "https://proceedings.mlr.press/v306/wurzberger26a.html"
    many = cite_many(bundled, "ris", keys=keys).text
    assert many.count("TY  - CPAPER") == many.count("ER  -\r\n") == 19


def test_csl_json_items(bundled: list[Paper]) -> None:
    keys = citation_keys(bundled)
    items = json.loads(cite_many(bundled, "csljson", keys=keys).text)
    assert len(items) == 19
    item = next(item for item in items if item["id"] == "pmlr-v306-hubotter26a")
    assert item["type"] == "paper-conference"
    assert item["author"][0] == {"family": "Hübotter", "given": "Jonas"}
    assert item["issued"] == {"date-parts": [[2026]]}
    assert item["container-title"] == BOOKTITLE_2026
    assert item["volume"] == "306" and item["page"] == "48677-48721"
    assert item["publisher"] == "PMLR"
    assert item["URL"] == "https://proceedings.mlr.press/v306/hubotter26a.html"
    anonymous = next(item for item in items if item["title"].startswith("Differentially"))
    assert "author" not in anonymous and "note" not in anonymous
    sixteen = next(item for item in items if item["id"] == "pmlr-v306-hubotter26a")
    assert {"family": "Kleine Buening", "given": "Thomas"} in sixteen["author"]
    assert sixteen["editor"][0] == {"family": "Zhang", "given": "Tong"}


def test_cite_many_joins_texts_and_unites_what_is_missing(bundled: list[Paper]) -> None:
    keys = citation_keys(bundled)
    chosen = [by_pmlr(bundled, "hubotter26a"), by_title(bundled, "Differentially Private")]
    many = cite_many(chosen, "bibtex", keys=keys)
    assert many.missing == ("authors", "pages")
    assert len(parse_bibtex(many.text).entries) == 2
    assert cite_many(chosen[:1], "bibtex", keys=keys).missing == ()


def test_an_unknown_style_is_refused_naming_the_choices_in_one_line(bundled: list[Paper]) -> None:
    with pytest.raises(StyleError) as caught:
        cite(bundled[0], "ieeee", key="k")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("unknown citation style 'ieeee' (one of: bibtex, biblatex, apa,")
    assert "csljson" in message and "a FILE.csl" in message and "did you mean ieee?" in message
    with pytest.raises(StyleError, match="no CSL style file"):
        cite(bundled[0], "/no/such/style.csl", key="k")


def test_format_names_are_case_insensitive_and_csl_json_has_both_spellings() -> None:
    assert resolve_format("CSL-JSON") == resolve_format("csljson") == "csljson"
    assert resolve_format("BibTeX") == "bibtex" and resolve_format("bib") == "bibtex"
    assert resolve_format("BibLaTeX") == "biblatex" and resolve_format("RIS") == "ris"
    assert resolve_format("APA") == "apa" and resolve_format("IEEE") == "ieee"
    assert resolve_format("MLA") == "modern-language-association"


# --- venue facts ----------------------------------------------------------------------------


def test_venue_facts_come_from_the_data_file() -> None:
    facts = {year: venue_edition("ICML", year) for year in (2023, 2024, 2025, 2026)}
    assert {year: (e.volume, e.booktitle[19:23]) for year, e in facts.items() if e} == {
        2023: ("202", "40th"), 2024: ("235", "41st"), 2025: ("267", "42nd"), 2026: ("306", "43rd"),
    }  # fmt: skip
    assert venue_edition("International Conference on Machine Learning", 2024) == facts[2024]
    assert venue_edition("ICML 2026", None) == facts[2026]
    assert venue_edition("NeurIPS", 2024) is None
    assert venue_edition("ICML", 1999) is None


def test_a_venue_without_facts_is_cited_as_given_and_no_venue_as_misc() -> None:
    paper = Paper(
        id="0123abcd", position=1, list_name="t", title="A Study", title_derived=False,
        abstract="x", authors=("Ann Smith",), venue="NeurIPS", year=2024,
    )  # fmt: skip
    text = cite(paper, key="k").text
    assert "booktitle = {NeurIPS}" in text and "volume" not in text and "editor" not in text
    bare = paper.with_changes(venue=None)
    misc = cite(bare, key="k")
    assert misc.text.startswith("% paperdeck: venue unknown\n@misc{k,")
    assert "venue" in misc.missing


# --- keys -----------------------------------------------------------------------------------


def make(title: str, authors: tuple[str, ...], year: int | None = 2026, pid: str = "") -> Paper:
    return Paper(
        id=pid or format(abs(hash(title)) % 16**8, "08x"), position=1, list_name="t",
        title=title, title_derived=False, abstract=title, authors=authors, venue="ICML",
        year=year,
    )  # fmt: skip


def test_keys_follow_one_pattern_count_a_b_c_and_transliterate() -> None:
    papers = [
        make("Sparse Codes", ("Jonas Hübotter",)),
        make("Sparse Codes", ("Jonas Hübotter", "X Y"), pid="0badcafe"),
        make("Three", ("Laurens van der Maaten",)),
        make("Four", ("张三",)),
        make("On the Power of Gaussians", ()),
        make("Power Laws", ()),
        make("Many-Valued Logic", ("Jan Łukasiewicz",), year=None),
        make("Ørsted Fields", ("Ødegaard, Åse",)),
        make("Kernels", ("Thomas Kleine Buening",)).with_changes(
            extra={"author_names": [{"given": "Thomas", "family": "Kleine Buening"}]}
        ),
    ]
    keys = citation_keys(papers)
    assert [keys[p.id] for p in papers] == [
        "hubotter2026sparse", "hubotter2026sparsea", "vandermaaten2026three",
        "zhangsan2026four", "anon2026power", "anon2026powera", "lukasiewiczmany",
        "odegaard2026orsted", "kleinebuening2026kernels",
    ]  # fmt: skip


def test_a_made_up_titles_key_takes_its_first_telling_word(bundled_bare: list[Paper]) -> None:
    keys = citation_keys(bundled_bare)
    made_up = {paper.title.split(" ", 3)[0]: keys[paper.id] for paper in bundled_bare}
    # "A general method to extract ...", "The first theoretical analysis of multi-agent ...",
    # "TR-CIE: ...": the vague words are skipped, a hyphenated name is kept whole.
    assert "anon2026extract" in keys.values() and "anon2026general" not in keys.values()
    assert "anon2026multiagent" in keys.values() and "anon2026first" not in keys.values()
    assert made_up["TR-CIE:"] == "anon2026trcie"
    # A real title keeps Better BibTeX's rule: its first significant word, vague or not.
    real = bundled_bare[0].with_changes(title="A General Method", title_derived=False)
    assert citation_keys([real])[real.id] == "anon2026general"
    # Vague words only: the first significant one.
    vague = bundled_bare[0].with_changes(title="Two case studies")
    assert citation_keys([vague])[vague.id] == "anon2026two"


def test_keys_are_unique_across_lists(bundled: list[Paper], sample: list[Paper]) -> None:
    papers = bundled + sample
    keys = citation_keys(papers)
    assert len(set(keys.values())) == len({paper.id for paper in papers})
    assert all(re.fullmatch(r"[A-Za-z0-9_.:-]+", key) for key in keys.values())


def test_a_key_never_changes_once_a_note_uses_it(tmp_path: Path, bundled: list[Paper]) -> None:
    store = NotesStore(tmp_path / "notes.json")
    interact = by_title(bundled, "InteractScience")
    key = "chen2026interactscience"
    assert citation_keys(bundled, store)[interact.id] == key
    store.set_note(interact, rf"Cite as \cite{{{key}}}.")
    citation_keys(bundled, store)
    entry = store.get(interact)
    assert entry is not None and entry.corrections["citation_key"] == key
    store.save()
    # Another list opened first now holds an earlier Chen, 2026: the noted paper keeps its key.
    earlier = make("InteractScience Again", ("Wei Chen",), pid="feedface")
    reopened = NotesStore(tmp_path / "notes.json")
    keys = citation_keys([earlier, *bundled], reopened)
    assert keys[interact.id] == key
    assert keys[earlier.id] == key + "a"
    # Without the note, the order of the lists would have decided.
    assert citation_keys([earlier, *bundled])[interact.id] == key + "a"
    # A pinned key that would break BibTeX is not used.
    reopened.set_correction(interact, "citation_key", "bad key,}")
    assert citation_keys(bundled, reopened)[interact.id] == key


# --- the 5,000-paper list -------------------------------------------------------------------


def test_sample_of_the_5000_list_round_trips_through_bibtexparser(sample: list[Paper]) -> None:
    assert len(sample) == 300
    keys = citation_keys(sample)
    tricky = 0
    for paper in sample:
        citation = cite(paper, key=keys[paper.id])
        check_round_trip(paper, citation)
        check_round_trip(paper, cite(paper, key=keys[paper.id], latex=True))
        tricky += bool(re.search(r"[$\\&%#_{}]", paper.title))
    assert tricky >= 50  # the sample holds every title with LaTeX or specials


@pytest.mark.slow
@pytest.mark.skipif(
    not os.environ.get("PAPERDECK_ICML5K_JSONL"),
    reason="set PAPERDECK_ICML5K_JSONL to the 5,000-paper JSONL to run",
)
def test_the_full_5000_list_round_trips() -> None:
    papers = load_library([Path(os.environ["PAPERDECK_ICML5K_JSONL"])]).papers
    keys = citation_keys(papers)
    assert len(set(keys.values())) == len({paper.id for paper in papers})
    text = cite_many(papers, "bibtex", keys=keys).text
    library = parse_bibtex(text)
    assert len(library.entries) == len({paper.id for paper in papers})
    for paper in papers:
        check_round_trip(paper, cite(paper, key=keys[paper.id]))


# --- pybtex ---------------------------------------------------------------------------------


def test_pybtex_plain_style_formats_a_sample_without_errors_or_warnings(
    bundled: list[Paper], sample: list[Paper]
) -> None:
    # Papers whose authors are known: without them BibTeX itself warns (see the next test).
    papers = [paper for paper in bundled + sample[::3] if paper.authors]
    keys = citation_keys(papers)
    text = cite_many(papers, "bibtex", keys=keys).text
    pybtex.errors.set_strict_mode(True)  # a warning raises
    try:
        data = pybtex_parse(text, "bibtex")
        style = find_plugin("pybtex.style.formatting", "plain")()
        formatted = list(style.format_bibliography(data).entries)
    finally:
        pybtex.errors.set_strict_mode(False)
    assert len(formatted) == len(papers)
    backend = find_plugin("pybtex.backends", "text")()
    rendered = {entry.key: entry.text.render(backend) for entry in formatted}
    hubotter = rendered["pmlr-v306-hubotter26a"]
    assert hubotter.startswith("Jonas Hübotter, Frederike Lübeck, ")
    assert "Reinforcement learning via self-distillation. In " in hubotter
    assert "volume 306 of Proceedings of Machine Learning Research, 48677–48721" in hubotter
    bubble = rendered["pmlr-v306-xu26bc"]
    # The braces kept its capitals, and the one after the colon, as BibTeX's change.case$ does.
    assert "BubbleSpec: Turning long-tail bubbles" in bubble
    for paper in papers[len(bundled) :]:
        words = re.findall(r"[A-Za-z]{4,}", html.unescape(latex_to_text(paper.title)))
        assert words[0].lower() in rendered[keys[paper.id]].lower()


def test_pybtex_names_the_missing_author_paperdeck_already_marked(bundled: list[Paper]) -> None:
    paper = by_title(bundled, "Differentially Private Cross-Silo")
    citation = cite(paper, key="anonymous")
    assert citation.text.startswith("% paperdeck: authors unknown")
    pybtex.errors.set_strict_mode(True)
    try:
        data = pybtex_parse(citation.text, "bibtex")
        style = find_plugin("pybtex.style.formatting", "plain")()
        with pytest.raises(Exception, match="missing author in anonymous"):
            list(style.format_bibliography(data).entries)
    finally:
        pybtex.errors.set_strict_mode(False)


def test_a_bibtex_lists_own_key_or_a_pmlr_url_gives_the_key() -> None:
    own = make("Own Key", ("Ann Smith",)).with_changes(extra={"bibkey": "zhou2021incentivized"})
    url = "http://proceedings.mlr.press/v139/zhou21d.html"
    from_url = make("From a URL", ("Tianchen Zhou",), year=2021).with_changes(url=url)
    broken = make("Bad Key", ("Ann Smith",)).with_changes(extra={"bibkey": "a key, with}"})
    keys = citation_keys([own, from_url, broken])
    assert [keys[p.id] for p in (own, from_url, broken)] == [
        "zhou2021incentivized", "pmlr-v139-zhou21d", "smith2026bad",
    ]  # fmt: skip


def test_a_stand_in_key_is_not_pinned_and_gives_way_to_the_metadata(
    tmp_path: Path, bundled: list[Paper], bundled_bare: list[Paper]
) -> None:
    store = NotesStore(tmp_path / "notes.json")
    bare = bundled_bare[0]  # no authors, a title paperdeck made up
    assert bare.title_derived and not bare.authors
    store.set_note(bare, "read before the lookup")
    stand_in = citation_keys(bundled_bare, store)[bare.id]
    assert stand_in.startswith("anon2026")
    entry = store.get(bare)
    assert entry is not None and "citation_key" not in entry.corrections
    # The metadata names the paper: its key follows, and is pinned from then on.
    assert citation_keys(bundled, store)[bare.id] == "chen2026interactscience"
    entry = store.get(bare)
    assert entry is not None and entry.corrections["citation_key"] == "chen2026interactscience"
    assert citation_keys(bundled_bare, store)[bare.id] == "chen2026interactscience"
    # A stand-in pinned by an earlier paperdeck holds until the authors are known.
    other = bundled_bare[1]
    store.set_note(other, "noted")
    store.set_correction(other, "citation_key", "anon2026multi")
    assert citation_keys(bundled_bare, store)[other.id] == "anon2026multi"
    assert citation_keys(bundled, store)[other.id].startswith("pmlr-v306-")


def test_pinning_keys_keeps_the_notes_order(tmp_path: Path) -> None:
    from paperdeck.core.library import load_library
    from paperdeck.core.notes.store import NotesStore
    from paperdeck.core.resources import bundled_list

    papers = load_library([bundled_list()]).papers
    store = NotesStore(tmp_path / "notes.json")
    store.set_note(papers[0], "first")
    time.sleep(0.01)
    store.set_note(papers[1], "second, written later")
    before = {paper_id: entry.updated for paper_id, entry in store.entries.items()}
    keys = citation_keys(papers, store)
    after = store.entries
    assert {paper_id: entry.updated for paper_id, entry in after.items()} == before
    assert after[papers[0].id].corrections["citation_key"] == keys[papers[0].id]
    store.save()
    reopened = NotesStore(tmp_path / "notes.json")
    assert reopened.entries[papers[1].id].updated > reopened.entries[papers[0].id].updated
    assert citation_keys(papers, reopened) == keys


@pytest.mark.parametrize(
    ("venue", "expected"),
    [
        ("ICML", "40th"),
        ("ICML 2023", "40th"),
        ("International Conference on Machine Learning", "40th"),
        ("Proceedings of the 40th International Conference on Machine Learning", "40th"),
        (
            "Proceedings of the 40th International Conference on Machine Learning (ICML 2023)",
            "40th",
        ),
        ("ICML Workshop on Foundation Models", None),
        ("Findings of ICML", None),
    ],
)
def test_only_the_venue_itself_gets_its_proceedings_facts(venue: str, expected: str | None) -> None:
    from paperdeck.core.citations import venue_edition

    edition = venue_edition(venue, 2023)
    assert (edition.booktitle.split()[3] if edition else None) == expected


def test_a_doi_from_the_metadata_is_cited_in_every_format_that_has_a_place_for_it() -> None:
    import rispy

    paper = make("Sparse Codes", ("Ann Smith",)).with_changes(
        extra={"doi": "https://doi.org/10.5555/Sparse_Codes.1"}
    )
    bib = parse_bibtex(cite(paper, key="k").text).entries[0].fields_dict
    assert bib["doi"].value == "10.5555/Sparse_Codes.1"
    item = json.loads(cite(paper, "csljson", key="k").text)[0]
    assert item["DOI"] == "10.5555/Sparse_Codes.1"
    assert rispy.loads(cite(paper, "ris", key="k").text)[0]["doi"] == "10.5555/Sparse_Codes.1"
    # APA 7 (apa.csl) links the DOI.
    assert cite(paper, "apa", key="k").text.endswith("https://doi.org/10.5555/Sparse_Codes.1")
    # Something that is not a DOI is left out rather than written into a field.
    odd = paper.with_changes(extra={"doi": "see the paper}"})
    assert "doi" not in cite(odd, key="k").text


def test_a_paper_without_year_or_authors_reads_without_empty_slots() -> None:
    # The 3k list's papers: a title, the conference, nothing else.
    paper = Paper(
        id="0123abcd", position=1, list_name="t", title="Surrogates for ranking",
        title_derived=False, abstract="x", venue="ICML",
    )  # fmt: skip
    expected = {
        # The title stands in for the authors: no ". " left for it, nor a space before ", in:".
        "elsevier-harvard": "Surrogates for ranking, n.d., in: International Conference on "
        "Machine Learning.",
        # The group that closes with the year closes the sentence too.
        "ieee": "[1] “Surrogates for ranking,” in International Conference on Machine Learning.",
        "association-for-computing-machinery": "[1] Surrogates for ranking. In International "
        "Conference on Machine Learning.",
        # No "p. ." for pages the paper lacks (CSL: a label only with its variable).
        "science": "1. “Surrogates for ranking” in International Conference on Machine Learning.",
        "the-lancet": "1 Surrogates for ranking. In: International Conference on Machine Learning.",
        "american-chemical-society": "(1) Surrogates for Ranking. In International Conference "
        "on Machine Learning.",
    }
    for style, text in expected.items():
        assert cite(paper, style, key="k").text == text, style


def test_a_style_s_own_spaces_before_marks_are_kept(bundled: list[Paper]) -> None:
    paper = by_pmlr(bundled, "doumeche26a")
    dated = cite(paper, "elsevier-harvard", key="k").text
    assert dated.startswith("Doumèche, N., Bach, F.") and ", 2026. " in dated
    # DIN 1505-2 spaces its semicolons between names; French ISO 690 its colons.
    assert " ; Bach, Francis" in cite(paper, "din-1505-2", key="k").text
    assert "In\xa0: ZHANG, Tong" in cite(paper, "iso690-numeric-fr", key="k").text


def _pybtex_plain(bibtex: str) -> str:
    data = pybtex_parse(bibtex, "bibtex")
    style = find_plugin("pybtex.style.formatting", "plain")()
    backend = find_plugin("pybtex.backends", "text")()
    return str(next(iter(style.format_bibliography(data).entries)).text.render(backend))


def test_a_name_after_a_colon_keeps_its_capital_in_a_sentence_case_style(
    bundled: list[Paper],
) -> None:
    sobolev = cite(by_pmlr(bundled, "doumeche26a"), key="k").text
    assert "= {Fast kernel methods: {Sobolev}, physics-informed, and additive models}," in sobolev
    assert "Fast kernel methods: Sobolev, physics-informed, and additive models. In " in (
        _pybtex_plain(sobolev)
    )
    # A Title Case title's capitals are its case's: a sentence-case style lowers them.
    rasp = cite(by_title(bundled, "Discovering Interpretable Algorithms"), key="k").text
    assert "{Discovering Interpretable Algorithms by Decompiling Transformers to {RASP}}" in rasp
    assert "Discovering interpretable algorithms by decompiling transformers to RASP. In " in (
        _pybtex_plain(rasp)
    )


def test_every_word_of_a_given_name_is_shortened_but_a_particle() -> None:
    # ICML 2021's BibTeX has "jingyuan deng": citeproc-py took "jingyuan" for a particle and
    # APA read "& deng. jingyuan . (2021)". A name all in lower case is cited capitalised.
    paper = make("Incentivized Bandits", ("Tianchen Zhou", "jingyuan deng"), year=2021)
    apa = cite(paper, "apa", key="k").text
    assert apa.startswith("Zhou, T., & Deng, J. (2021). Incentivized bandits."), apa
    ieee = cite(paper, "ieee", key="k").text
    assert "T. Zhou and J. Deng," in ieee, ieee
    # The same ICML 2021 file: a lower-case part after a hyphen, and a name with no case.
    hyphen = make("PID Accelerated Value Iteration", ("Amir-massoud Farahmand",), year=2021)
    assert cite(hyphen, "apa", key="k").text.startswith("Farahmand, A.-m. (2021).")
    han = make("FOP", ("Tianhao Zhang", "岳珩, 李"), year=2021)
    assert cite(han, "apa", key="k").text.startswith("Zhang, T., & 岳珩, 李. (2021).")
    # A particle the source put in the given name stays whole.
    kept = make("Sonatas", ("Beethoven, Ludwig van",), year=2021)
    assert cite(kept, "ieee", key="k").text.startswith("[1] L. van Beethoven,")


def test_a_style_s_missing_separator_is_mended_for_every_kind_of_item() -> None:
    """Pediatric Blood & Cancer ends an article with ". " but a book with its year, then starts
    "Available from:"; both read "2024. Available from:", never "2024Available" nor ". ."."""
    article = {
        "id": "k", "type": "article", "title": "Surrogates for ranking",
        "container-title": "Journal of Ranking", "issued": {"date-parts": [[2024]]},
        "volume": "3", "page": "1-10", "URL": "https://example.org/a",
        "author": [{"family": "Chen", "given": "Qi"}],
    }  # fmt: skip
    book = {key: value for key, value in article.items() if key != "container-title"}
    book.update(type="book", publisher="PMLR")
    from paperdeck.core.citations import styles

    path = styles.style_path("pediatric-blood-and-cancer")
    assert styles.render_bibliography([article], path)[0].endswith(
        " 3: 1–10. Available from: https://example.org/a"
    )
    assert styles.render_bibliography([book], path) == [
        "1. Chen Q. Surrogates for ranking [Internet]. PMLR, 2024. Available from: "
        "https://example.org/a"
    ]


def test_what_a_citation_lacks_said_in_full_or_briefly() -> None:
    lacks = ("title (derived)", "authors", "year", "url")
    assert describe_missing(lacks) == (
        "title derived from the abstract; authors unknown; year unknown; no link"
    )
    assert describe_missing(lacks, brief=True) == "title from abstract; no authors, year, link"
    assert describe_missing(("pages",), brief=True) == "no pages"
    assert describe_missing(("title (derived)",), brief=True) == "title from abstract"


def test_sentence_case_lowers_after_an_abbreviation_and_a_verb_spelt_like_a_name() -> None:
    from paperdeck.core.citations.case import sentence_case

    # "e.g." ends no part of the title; "Lies" is no plural of Lie's name, "Gaussians" is.
    assert sentence_case("Learning with Noise, e.g. Label Flips") == (
        "Learning with noise, e.g. label flips"
    )
    assert sentence_case("Where the Robustness Lies: Lie Groups and Gaussians") == (
        "Where the robustness lies: Lie groups and Gaussians"
    )
    assert sentence_case("St. Petersburg Paradox Revisited") == "St. Petersburg paradox revisited"


def test_a_name_before_s_keeps_its_capital_in_a_sentence_case_style() -> None:
    # Two ICML titles whose eponym APA lowered ("Revisiting peng's Q(λ)"), and BibTeX left
    # unprotected for a sentence-case .bst to lower.
    peng = make(
        "Revisiting Peng's Q($\\lambda$) for Modern Reinforcement Learning", ("Tadashi Kozuno",)
    )
    assert (
        "Revisiting Peng's Q(λ) for modern reinforcement learning."
        in cite(peng, "apa", key="k").text
    )
    assert "{Revisiting {Peng}'s Q(" in cite(peng, key="k").text
    box = make(
        "Online Learning for Min Sum Set Cover and Pandora's Box", ("Evangelia Gergatsouli",)
    )
    assert (
        "Online learning for min sum set cover and Pandora's box." in cite(box, "apa", key="k").text
    )


def test_acm_gives_the_year_once_and_the_series_volume(bundled: list[Paper]) -> None:
    # The CSL repository's ACM style dated the conference from the paper's date: "... Machine
    # Learning (Proceedings of Machine Learning Research), 2026. PMLR, 26319–26340."
    acm = cite(by_pmlr(bundled, "doumeche26a"), "acm", key="k").text
    assert acm == (
        "[1] Nathan Doumèche, Francis Bach, Gérard Biau, and Claire Boyer. 2026. Fast kernel "
        "methods: Sobolev, physics-informed, and additive models. In Proceedings of the 43rd "
        "International Conference on Machine Learning (Proceedings of Machine Learning "
        "Research, Vol. 306). PMLR, 26319–26340. Retrieved from "
        "https://proceedings.mlr.press/v306/doumeche26a.html"
    )
    assert acm.count("2026") == 1

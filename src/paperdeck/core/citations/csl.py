"""CSL-JSON items (the CSL-JSON 1.0 schema): what citeproc-py renders every CSL style from."""

from __future__ import annotations

from typing import Any

from paperdeck.core.citations.case import sentence_case
from paperdeck.core.citations.record import DERIVED_TITLE_MARK, Record
from paperdeck.core.names import PersonName


def csl_name(name: PersonName) -> dict[str, str]:
    """A name in CSL-JSON's parts; a literal name as {"literal": ...}."""
    if name.literal:
        return {"literal": name.literal}
    item = {"family": name.family}
    if name.given:
        item["given"] = name.given
    if name.particle:
        item["non-dropping-particle"] = name.particle
    if name.suffix:
        item["suffix"] = name.suffix
    return item


def csl_item(
    record: Record, *, in_sentence_case: bool = False, subtitles: bool = True
) -> dict[str, Any]:
    """One paper as a CSL-JSON item; only facts, and that a title was made up.

    `in_sentence_case` gives the title in sentence case, names and acronyms kept: APA 7 writes
    a paper's title so, and its CSL style, as CSL 1.0.2 advises, leaves titles as they are;
    `subtitles`: a subtitle after a colon starts with a capital, as in APA 7 (sentence_case).
    """
    title = record.cited_title
    if in_sentence_case:
        title = sentence_case(
            record.plain_title,
            method=record.method,
            context=record.abstract,
            subtitles=subtitles,
        )
        if record.marks_made_up_title:
            title += " " + DERIVED_TITLE_MARK
    item: dict[str, Any] = {
        "id": record.key,
        "type": _item_type(record),
        "title": title,
    }
    # "et al." from a BibTeX "and others" has no CSL-JSON form: the known names are cited.
    authors = [csl_name(name) for name in record.authors if name.literal != "et al."]
    if authors:
        item["author"] = authors
    if record.year:
        item["issued"] = {"date-parts": [[record.year]]}
    edition = record.edition
    if record.booktitle:
        item["container-title"] = record.booktitle
    if edition is not None:
        if edition.editors:
            item["editor"] = [csl_name(name) for name in edition.editors]
        if edition.series:
            item["collection-title"] = edition.series
        if edition.volume:
            item["volume"] = edition.volume
        if edition.publisher:
            item["publisher"] = edition.publisher
        item["event-title"] = f"{edition.name} ({edition.short} {edition.year})"
        if edition.location:
            item["event-place"] = edition.location
    if record.pages:
        first, last = record.pages
        item["page"] = first if first == last else f"{first}-{last}"
    if record.url:
        item["URL"] = record.url
    if record.doi:
        item["DOI"] = record.doi
    return item


def _item_type(record: Record) -> str:
    """A paper in proceedings; an arXiv paper with no venue is a preprint (CSL's "article");
    any other paper whose venue is unknown a "document", which claims nothing: as an
    "article" Chicago called it "Preprint." and Nature "Preprint at (2023)"."""
    if record.is_proceedings:
        return "paper-conference"
    return "article" if record.arxiv else "document"

"""One paper's citable facts, the notes store's corrections applied, and what is missing."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from paperdeck.core.citations.venues import Edition, known_venue_name, venue_edition
from paperdeck.core.formats.bibtex_lists import LATEX_TITLE_FIELD
from paperdeck.core.model import Paper
from paperdeck.core.names import PersonName, in_usual_case, parse_name
from paperdeck.core.notes.corrected import author_parts
from paperdeck.core.text.render import latex_to_text
from paperdeck.core.text.sanitize import clean_line
from paperdeck.core.titles import UNTITLED

# What each missing piece is called where the user reads it (a toast, stderr, a % comment).
_MISSING_TEXT = {
    "title (derived)": "title derived from the abstract",
    "authors": "authors unknown",
    "year": "year unknown",
    "venue": "venue unknown",
    "pages": "pages unknown",
    "url": "no link",
}


def describe_provenance(paper: Paper) -> str:
    """Where an online match's metadata came from ("OpenAlex W123, confidence 0.97; DOI,
    venue and pages from Crossref"); "" for a paper not matched online."""
    online = paper.extra.get("online")
    if not isinstance(online, Mapping) or not online.get("source"):
        return ""
    text = clean_line(str(online["source"]))
    if online.get("id"):
        text += " " + clean_line(str(online["id"]))
    confidence = online.get("confidence")
    if isinstance(confidence, int | float) and not isinstance(confidence, bool):
        text += f", confidence {confidence:.2f}"
    if online.get("details"):
        text += f"; DOI, venue and pages from {clean_line(str(online['details']))}"
    return text


DERIVED_TITLE_MARK = "[Title derived from the abstract]"
"""What follows a title paperdeck made up in the citation itself: the notice that says so is
gone once the citation is pasted into a paper, and the title names no paper. A bracketed
description after a title, capitalised, is how APA 7 says what a work is ("Title [Video]")."""


# The same in the fewest words, for a notice on a narrow screen.
_MISSING_BRIEF = {
    "title (derived)": "title from abstract",
    "url": "link",
}


def describe_missing(missing: Iterable[str], *, brief: bool = False) -> str:
    """`("authors", "pages")` as the user reads it: "authors unknown; pages unknown", or
    `brief`, "no authors, pages" (a derived title: "title from abstract")."""
    if not brief:
        return "; ".join(_MISSING_TEXT.get(item, item) for item in missing)
    items = list(missing)
    parts = [_MISSING_BRIEF[item] for item in items if item == "title (derived)"]
    lacking = [_MISSING_BRIEF.get(item, item) for item in items if item != "title (derived)"]
    if lacking:
        parts.append("no " + ", ".join(lacking))
    return "; ".join(parts)


@dataclass(frozen=True)
class Record:
    """What a citation is made of: the title's source text (LaTeX math kept), names in parts."""

    key: str
    title: str
    title_derived: bool
    authors: tuple[PersonName, ...]
    year: int | None
    venue: str | None
    edition: Edition | None
    pages: tuple[str, str] | None
    url: str | None
    pdf: str | None
    arxiv: str | None
    doi: str | None
    method: str | None
    missing: tuple[str, ...]
    paper_id: str = ""
    """The paper's id in paperdeck (`paperdeck show ID`)."""
    abstract: str = ""
    """The paper's abstract ("" when not loaded): how it writes a title's words tells a
    name from a common word (case.named_compound_starts)."""

    @property
    def plain_title(self) -> str:
        """The title as plain Unicode text."""
        return plain_title(self.title)

    @property
    def marks_made_up_title(self) -> bool:
        """Whether the cited title is one paperdeck made up (not "(untitled)": nothing made)."""
        return self.title_derived and self.title != UNTITLED

    @property
    def cited_title(self) -> str:
        """The title as a citation gives it: plain text, a made-up one followed by
        DERIVED_TITLE_MARK."""
        title = self.plain_title
        return f"{title} {DERIVED_TITLE_MARK}" if self.marks_made_up_title else title

    @property
    def booktitle(self) -> str | None:
        """The proceedings' title, else the venue's full name when known, else as given."""
        if self.edition is not None:
            return self.edition.booktitle
        return (known_venue_name(self.venue) or self.venue) if self.venue else None

    @property
    def is_proceedings(self) -> bool:
        """Whether the paper is cited as part of a venue's proceedings."""
        return self.booktitle is not None


def plain_title(title: str) -> str:
    """A title's LaTeX as one line of plain text, TeX's dashes as dashes ("Wang--Landau" ->
    "Wang–Landau", "metrics---what" -> "metrics—what")."""
    text = unbraced_text(title)
    return clean_line(text.replace("---", "\u2014").replace("--", "\u2013"))


# Stand-ins for the braces a title's TeX writes (\{ \}) while its grouping braces are dropped.
_ESCAPED_BRACES = str.maketrans({"\ue000": "{", "\ue001": "}"})


def unbraced_text(source: str) -> str:
    """LaTeX or markdown as plain text without its grouping braces ("{{GPT}}-4", "{B}ayesian"),
    the braces it writes kept: "$p \\in \\{1,2,\\infty\\}$" reads "p ∈ {1,2,∞}", not "p ∈ 1,2,∞"."""
    if "\\{" in source or "\\}" in source:
        source = source.replace("\\{", "\ue000").replace("\\}", "\ue001")
    text = latex_to_text(source).replace("{", "").replace("}", "")
    return text.translate(_ESCAPED_BRACES)


# A quotation opened with a straight quote and closed with TeX's '' (ICML 2026's
# 'Don't Just "Fix it in Post'': ...', a TeX ``...'' half turned straight): TeX's pair.
_HALF_TEX_QUOTE = re.compile(r"\"([^\"\n]{1,200}?)''")
# The other half ('Putting the ``Learning" into ...', ICML 2021), and a quotation in straight
# quotes ('"Hey, that's not an ODE": Faster ...'): TeX typesets a straight " as a closing quote
# (BibTeX's '”Hey'), and in a style that quotes titles it was a quotation not nested ('“"Hey,
# ..."”' in IEEE). Not TeX's umlaut, \"o.
_OPEN_TEX_QUOTE = re.compile(r"``([^\"`'\n]{1,200}?)\"(?![^\W_])")
_STRAIGHT_QUOTE = re.compile(r"(?<![\\\w])\"([^\"\n\\$]{1,200}?)(?<=\S)\"(?![^\W_])")
# A power written without math in a title that has none ("BM^2: Coupled Schrödinger Bridge
# Matching"): the math its authors meant, so that it reads "BM²", not "BM^2" or BibTeX's "BMˆ2".
_BARE_POWER = re.compile(r"(?<=[^\W_])\^(\d{1,3})(?![^\W_])")
# A space before a title's colon (ICML 2026's "Effective Model Pruning : Measuring the
# Redundancy ..."): French typography, a typo in an English title, which every style printed.
_SPACED_COLON = re.compile(r"(?<=[^\W_])\s+:(?=\s)")


def _tex_title(title: str) -> str:
    """A title's source with the TeX its authors half wrote made whole and no space before a
    colon (see above)."""
    if "''" in title:
        title = _HALF_TEX_QUOTE.sub(r"``\1''", title)
    if '"' in title:
        title = _OPEN_TEX_QUOTE.sub(r"``\1''", title)
        title = _STRAIGHT_QUOTE.sub(r"``\1''", title)
    if "$" not in title and "\\" not in title:
        if "^" in title:
            title = _BARE_POWER.sub(r"$^{\1}$", title)
        if " :" in title:
            title = _SPACED_COLON.sub(":", title)
    return title


def corrected_names(paper: Paper, corrections: Mapping[str, Any]) -> tuple[PersonName, ...]:
    """The authors a correction gives ("A and B", "Family, Given; ...", a list), else the
    paper's own in their usual case (in_usual_case); each in its parts."""
    parts = author_parts(corrections.get("authors"))
    if not parts:
        return tuple(in_usual_case(name) for name in paper.names if name.display)
    names = (parse_name(part) for part in parts)
    return tuple(name for name in names if name.display)


def _pages(value: Any) -> tuple[str, str] | None:
    text = clean_line(str(value or ""))
    if not text:
        return None
    parts = [part.strip() for part in re.split(r"\s*(?:-+|–|—)\s*", text) if part.strip()]
    if not parts:
        return None
    return (parts[0], parts[-1])


def _arxiv_id(value: Any) -> str | None:
    text = str(value or "")
    found = re.search(r"(\d{4}\.\d{4,5})(v\d+)?", text) or re.search(
        r"([a-z-]+(?:\.[A-Z]{2})?/\d{7})", text
    )
    return found.group(1) if found else None


# No braces, backslashes, quotes, % or #: they would break a BibTeX value.
_DOI = re.compile(
    r"(?:https?://(?:dx\.)?doi\.org/|doi:)?(10\.\d{4,9}/[^\s{}\\\"<>%#]+)", re.IGNORECASE
)


def _doi(value: Any) -> str | None:
    """A DOI ("10.1234/abc"), from a bare one, a doi: name or a doi.org link; else None."""
    found = _DOI.fullmatch(clean_line(str(value or "")))
    return found.group(1) if found else None


def _safe_url(value: Any) -> str | None:
    text = clean_line(str(value or ""))
    if not re.match(r"https?://\S+$", text):
        return None
    # Braces, backslashes and quotes would break a BibTeX value or a Markdown link.
    return (
        text.replace("\\", "%5C")
        .replace("{", "%7B")
        .replace("}", "%7D")
        .replace('"', "%22")
        .replace("(", "%28")
        .replace(")", "%29")
    )


def wants_abstract(paper: Paper) -> bool:
    """Whether citing `paper` needs the abstract it was loaded without: its made-up title was
    cut to fit a row and not kept whole, and a citation gives it whole (see build_record)."""
    return not paper.whole_title_known


def build_record(paper: Paper, key: str, corrections: Mapping[str, Any] | None) -> Record:
    """The paper's citable facts with `corrections` (the notes store's) applied."""
    fixes = corrections or {}
    # A made-up title the list cut to fit a row: a citation's reads to its end. A BibTeX
    # list's title is shown decoded; its math is cited as the list wrote it.
    title = clean_line(str(fixes.get("title") or "")) or clean_line(
        str(paper.extra.get(LATEX_TITLE_FIELD) or "") or paper.whole_title
    )
    title_derived = paper.title_derived and not fixes.get("title")
    year = paper.year
    if isinstance(fixes.get("year"), int):
        year = fixes["year"]
    edition = venue_edition(paper.venue, year)
    if year is None and edition is not None:
        year = edition.year
    url = (
        _safe_url(fixes.get("url"))
        or _safe_url(paper.url)
        or _safe_url(paper.extra.get("icml_url"))
    )
    title = _tex_title(title)
    record = Record(
        key=key,
        title=title or UNTITLED,
        title_derived=bool(title_derived) or not title,
        authors=corrected_names(paper, fixes),
        year=year,
        venue=clean_line(paper.venue) if paper.venue else None,
        edition=edition,
        pages=_pages(fixes.get("pages") or paper.extra.get("pages")),
        url=url,
        pdf=_safe_url(paper.extra.get("pdf")),
        arxiv=_arxiv_id(paper.extra.get("arxiv")),
        doi=_doi(fixes.get("doi") or paper.extra.get("doi")),
        method=paper.method,
        missing=(),
        paper_id=paper.id,
        abstract=paper.abstract,
    )
    missing = []
    if record.title_derived:
        missing.append("title (derived)")
    if not record.authors:
        missing.append("authors")
    if record.year is None:
        missing.append("year")
    if record.booktitle is None:
        missing.append("venue")
    elif record.pages is None:
        missing.append("pages")
    if record.url is None:
        missing.append("url")
    return Record(**{**record.__dict__, "missing": tuple(missing)})

"""Reading lists: chosen papers with their tags and notes as Markdown, BibTeX, RIS, CSV or JSON.

Everything taken from a list or a notes file is escaped for the format it goes into: a title
cannot forge Markdown markup, an HTML comment (a paperdeck notes block) or a CSV formula.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from paperdeck.core.model import Annotation, Paper
from paperdeck.core.notes.corrected import corrected_authors, corrected_title
from paperdeck.core.text.sanitize import clean_line, clean_text

FORMATS = {"markdown": "Markdown", "bibtex": "BibTeX", "ris": "RIS", "csv": "CSV", "json": "JSON"}
"""Format id -> label."""
CITED = frozenset({"bibtex", "ris"})
"""The formats written as citations (core.citations): each entry carries its citation key."""
EXTENSIONS = {".md": "markdown", ".markdown": "markdown", ".bib": "bibtex", ".ris": "ris"}
EXTENSIONS.update({".csv": "csv", ".json": "json"})
"""File extension -> format id."""
SUFFIXES = {"markdown": ".md", "bibtex": ".bib", "ris": ".ris", "csv": ".csv", "json": ".json"}
FORMAT_WORDS = {
    **{suffix.removeprefix("."): fmt for suffix, fmt in EXTENSIONS.items()},
    **{fmt: fmt for fmt in FORMATS},
}
"""A format's names and extensions, typed alone for a file name ("bib", "bibtex", "json")."""
DERIVED_REMARK = "(title derived from the abstract)"


@dataclass(frozen=True)
class ReadingItem:
    """One paper of a reading list, its metadata corrected and its annotation attached."""

    paper: Paper
    title: str
    title_derived: bool
    """The title is paperdeck's, made from the abstract (no list or metadata gave one)."""
    title_corrected: bool
    """The title is the one the user corrected it to in the notes file."""
    authors: tuple[str, ...]
    venue: str | None
    year: int | None
    url: str | None
    pdf: str | None
    links: tuple[tuple[str, str], ...]
    """The abstract's links (its code ...), each with what it is: never given as the page."""
    tags: tuple[str, ...]
    state: str
    starred: bool
    note: str
    abstract: str
    """The abstract's source text as the list gives it (LaTeX and markdown left in), "" when the
    paper was given without its abstract."""


def unused_path(wanted: Path) -> Path:
    """`wanted`, else the first NAME-2.EXT, NAME-3.EXT ... not there: the path offered by
    default never replaces an earlier export (Enter at once wrote over it)."""
    candidate, number = wanted, 1
    while candidate.exists():
        number += 1
        candidate = wanted.with_name(f"{wanted.stem}-{number}{wanted.suffix}")
    return candidate


def format_named(typed: str) -> str | None:
    """The format whose name or extension `typed` is alone (FORMAT_WORDS), if it is one."""
    return FORMAT_WORDS.get(typed.strip().lower().removeprefix("."))


def path_asked(typed: str, offered: Path) -> Path:
    """The file `typed` asks for: a format's name or extension alone ("bib", ".csv", "json",
    FORMAT_WORDS) is the `offered` file in that format, not a file of that name. Typed over
    the offered path, "bib" wrote a Markdown file named bib."""
    fmt = format_named(typed)
    if fmt is None:
        return Path(typed.strip()).expanduser()
    # reading-list-2.md asked as BibTeX is reading-list.bib if that name is free.
    stem = re.sub(r"-[0-9]+$", "", offered.stem) or offered.stem
    return unused_path(offered.with_name(stem + SUFFIXES[fmt]))


def format_for(path: Path, default: str = "markdown") -> str:
    """The format a file name asks for by its extension."""
    return EXTENSIONS.get(path.suffix.lower(), default)


def _http(value: Any) -> str | None:
    """An http(s) URL without spaces or controls, or None."""
    if not isinstance(value, str):
        return None
    url = clean_line(value).strip()
    if not re.match(r"https?://[^\s/]", url, re.IGNORECASE) or any(c.isspace() for c in url):
        return None
    return url


def pdf_url(paper: Paper, corrections: Mapping[str, Any] | None = None) -> str | None:
    """The paper's PDF where it is known: a pdf field, or derived from a PMLR or arXiv page."""
    fixes = corrections or {}
    direct = _http(fixes.get("pdf")) or _http(paper.extra.get("pdf"))
    if direct:
        return direct
    page = _http(fixes.get("url")) or _http(paper.url) or _http(paper.extra.get("icml_url"))
    if page:
        pmlr = re.match(r"(https?://proceedings\.mlr\.press/v\d+/)([\w.-]+)\.html$", page)
        if pmlr:
            return f"{pmlr.group(1)}{pmlr.group(2)}/{pmlr.group(2)}.pdf"
        arxiv = re.match(r"https?://arxiv\.org/abs/([\w./-]+?)/?$", page)
        if arxiv:
            return f"https://arxiv.org/pdf/{arxiv.group(1)}"
        if page.lower().endswith(".pdf"):
            return page
    arxiv_id = paper.extra.get("arxiv")
    if isinstance(arxiv_id, str) and re.fullmatch(r"[\w./-]{4,40}", arxiv_id.strip()):
        return f"https://arxiv.org/pdf/{arxiv_id.strip()}"
    return None


def page_url(paper: Paper, corrections: Mapping[str, Any] | None = None) -> str | None:
    """The paper's page: a corrected url, its url, or its proceedings page.

    Never a link from its abstract: that is most often the paper's code (see `abstract_links`).
    """
    fixes = corrections or {}
    return _http(fixes.get("url")) or _http(paper.url) or _http(paper.extra.get("icml_url"))


def abstract_links(paper: Paper, page: str | None = None) -> list[tuple[str, str]]:
    """The http(s) links of the paper's abstract other than its `page`, each with what it is
    ("Code", "arXiv", "Link"), in order."""
    from paperdeck.core.links import link_kind

    found = [link for link in map(_http, paper.links) if link and link != page]
    return [(link_kind(link), link) for link in dict.fromkeys(found)]


def items(
    papers: Sequence[Paper],
    annotations: Mapping[str, Annotation],
    corrections: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[ReadingItem]:
    """The reading-list items of `papers`, in order."""
    all_fixes = corrections or {}
    found = []
    for paper in papers:
        fixes = all_fixes.get(paper.id) or {}
        entry = annotations.get(paper.id)
        page = page_url(paper, fixes)
        year = fixes.get("year")
        # A made-up title the list cut to fit a row is given whole, as a citation gives it.
        fixed_title = corrected_title(fixes)
        title = clean_line(fixed_title or paper.whole_title)
        title_derived = paper.title_derived and not fixed_title
        found.append(
            ReadingItem(
                paper=paper,
                title=title,
                title_derived=title_derived,
                title_corrected=bool(fixed_title),
                # "Doe, Jane and Roe, R." is two authors, as the reader and a citation name them.
                authors=corrected_authors(fixes.get("authors"))
                or tuple(clean_line(a) for a in paper.authors),
                venue=clean_line(paper.venue) if paper.venue else None,
                year=year if isinstance(year, int) and not isinstance(year, bool) else paper.year,
                url=page,
                pdf=pdf_url(paper, fixes),
                links=tuple(abstract_links(paper, page)),
                tags=tuple(clean_line(tag) for tag in entry.tags) if entry is not None else (),
                state=entry.state if entry is not None else "unread",
                starred=bool(entry is not None and entry.starred),
                note=clean_text(entry.note) if entry is not None else "",
                abstract=clean_text(paper.abstract),
            )
        )
    return found


# -- Markdown ---------------------------------------------------------------------------------

_MARKDOWN_INLINE = re.compile(r"([\\`*_\[\]~|])")
_BLOCK_START = re.compile(r"^(\s*(?:\d+(?=[.)]))?)([.)#>+=-])")


def markdown_escape(text: str) -> str:
    """Text that Markdown (CommonMark, GFM) shows as typed and no HTML parser sees a tag in.

    `<`, `>` and `&` become entities, so no `<!-- paperdeck-note ... -->` block can be forged;
    inline markup characters are backslash-escaped, and so is a start that would open a block
    (a heading, a list item, a quote).
    """
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MARKDOWN_INLINE.sub(r"\\\1", text)
    return _BLOCK_START.sub(r"\1\\\2", text)


def _link_target(url: str) -> str:
    # Percent-encoding what could end the link or open markup; the rest of the URL is kept.
    return quote(url, safe="/:?#@!$&'*+,;=%-._~")


def markdown(chosen: Sequence[ReadingItem], title: str = "Reading list") -> str:
    """A numbered list: linked title, authors, venue and year, tags and state, the note quoted."""
    from paperdeck.core.text.render import display_title

    lines = [f"# {markdown_escape(title)}", ""]
    for number, item in enumerate(chosen, start=1):
        # Rendered as the reader shows it ("LaST₀", "τ²-Bench"), as the abstract below is:
        # escaped, its LaTeX showed where Markdown is read ("LaST$_{0}$", "$\tau^2$-Bench").
        title = display_title(item.title, made_up=item.title_derived) if item.title else ""
        name = markdown_escape(title or "(untitled)")
        head = f"[{name}]({_link_target(item.url)})" if item.url else f"**{name}**"
        if item.title_derived:
            # Said where the title is read: it names no paper anyone published.
            head += f" {DERIVED_REMARK}"
        # A backslash ends a line where it ends (CommonMark's hard break): without it the title,
        # the authors and the state ran together on one rendered line.
        lines.append(f"{number}. {head}\\")
        # An item's lines start under its text: a note quoted after a blank line under
        # "10. " with three spaces would leave the list (CommonMark) and break its numbering.
        indent = " " * (len(str(number)) + 2)
        details = []
        if item.authors:
            details.append(markdown_escape(", ".join(item.authors)))
        venue = item.paper.with_changes(venue=item.venue, year=item.year).venue_line
        if venue:
            details.append(f"*{markdown_escape(venue)}*")
        if item.pdf:
            details.append(f"[PDF]({_link_target(item.pdf)})")
        details += [f"[{label}]({_link_target(url)})" for label, url in item.links[:2]]
        if details:
            lines.append(indent + " · ".join(details) + "\\")
        marks = (["★ starred"] if item.starred else []) + [item.state]
        marks += [markdown_escape("#" + tag) for tag in item.tags]
        # Traced back with `paperdeck show ID` (a title-less list's made-up titles name nothing).
        marks.append(f"id {markdown_escape(item.paper.id)}")
        lines.append(indent + " · ".join(marks))
        if item.note.strip():
            lines.append("")
            lines.extend(
                f"{indent}> {markdown_escape(line)}" if line.strip() else f"{indent}>"
                for line in item.note.strip("\n").split("\n")
            )
        lines.extend(_markdown_abstract(item.abstract, indent))
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _markdown_abstract(source: str, indent: str) -> list[str]:
    """The abstract folded under a summary line (`<details>`): a list of 40 papers stays a list
    to scan where Markdown is rendered, and reads as plain paragraphs where it is not. Its
    LaTeX is rendered as Unicode text: escaped, `$\\tau$` would show its backslashes."""
    from paperdeck.core.text.render import render_abstract

    text = render_abstract(source).text.strip() if source.strip() else ""
    if not text:
        return []
    paragraphs = [" ".join(part.split()) for part in re.split(r"\n\s*\n", text)]
    lines = ["", f"{indent}<details><summary>Abstract</summary>"]
    for paragraph in filter(None, paragraphs):
        lines += ["", indent + markdown_escape(paragraph)]
    return [*lines, "", f"{indent}</details>"]


# -- CSV and JSON -----------------------------------------------------------------------------

CSV_COLUMNS: tuple[str, ...] = ("title", "authors", "venue", "year", "url", "pdf", "links")
CSV_COLUMNS += ("tags", "state", "starred", "note", "id", "position", "list", "title_derived")
# A title the user corrected is said as JSON says it: a spreadsheet of 40 picks is checked
# against what each title came from.
CSV_COLUMNS += ("title_corrected", "abstract")


def _cell(value: str) -> str:
    # A cell a spreadsheet would run as a formula is quoted with a leading apostrophe.
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def as_csv(chosen: Sequence[ReadingItem]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for item in chosen:
        row = [
            item.title,
            "; ".join(item.authors),
            item.venue or "",
            "" if item.year is None else str(item.year),
            item.url or "",
            item.pdf or "",
            # The abstract's links, each after what it is: "Code https://github.com/...".
            " ".join(f"{label} {url}" for label, url in item.links),
            " ".join(item.tags),
            item.state,
            "yes" if item.starred else "no",
            item.note,
            item.paper.id,
            str(item.paper.position),
            clean_line(item.paper.list_name),
            "yes" if item.title_derived else "no",
            "yes" if item.title_corrected else "no",
            item.abstract,
        ]
        writer.writerow([_cell(value) for value in row])
    return out.getvalue()


def as_json(chosen: Sequence[ReadingItem]) -> str:
    return json.dumps(records(chosen), ensure_ascii=False, indent=2) + "\n"


def records(chosen: Sequence[ReadingItem]) -> list[dict[str, Any]]:
    """The items as JSON objects (`export --format json`, `show --json`)."""
    return [
        {
            "id": item.paper.id,
            "position": item.paper.position,
            "list": clean_line(item.paper.list_name),
            "title": item.title,
            "title_derived": item.title_derived,
            "title_corrected": item.title_corrected,
            "authors": list(item.authors),
            "venue": item.venue,
            "year": item.year,
            "url": item.url,
            "pdf": item.pdf,
            "links": [{"kind": label, "url": url} for label, url in item.links],
            "tags": list(item.tags),
            "state": item.state,
            "starred": item.starred,
            "note": item.note,
            "abstract": item.abstract,
        }
        for item in chosen
    ]


# -- all formats ------------------------------------------------------------------------------


def export(
    papers: Sequence[Paper],
    fmt: str,
    *,
    annotations: Mapping[str, Annotation],
    keys: Mapping[str, str],
    corrections: Mapping[str, Mapping[str, Any]] | None = None,
    title: str = "Reading list",
) -> str:
    """`papers` as a reading list in `fmt` (one of FORMATS); BibTeX and RIS (CITED) through
    core.citations, with the citation `keys`."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown reading-list format {fmt!r} (one of: {', '.join(FORMATS)})")
    if fmt in CITED:
        from paperdeck.core.citations import cite_many

        if not papers:
            return ""
        text = cite_many(papers, fmt, keys=keys, corrections=corrections).text
        # RIS records end their lines themselves (CR LF); BibTeX entries do not.
        return text if fmt == "ris" else text + "\n"
    chosen = items(papers, annotations, corrections)
    if fmt == "markdown":
        return markdown(chosen, title)
    if fmt == "csv":
        return as_csv(chosen)
    return as_json(chosen)

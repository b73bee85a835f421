"""BibTeX lists: entries to records, LaTeX in fields decoded to plain text."""

from __future__ import annotations

import re
from typing import Any

from paperdeck.core.errors import LoadError
from paperdeck.core.formats.decoding import Decoder
from paperdeck.core.formats.raw_list import RawList
from paperdeck.core.formats.records import AUTHOR_AND, Author, parse_year, unwrap
from paperdeck.core.names import NAMES_FIELD, PersonName
from paperdeck.core.text.sanitize import clean_line, clean_text

# Fields kept verbatim: identifiers and links, where LaTeX decoding would mangle `%`, `_`, `~`.
_VERBATIM_FIELDS = frozenset(
    {"url", "doi", "eprint", "pdf", "file", "link", "isbn", "issn", "arxiv"}
)
_LATEX_SPECIAL = re.compile(r"[\\{}$~%]|--|``|''")
_UNESCAPED_PERCENT = re.compile(r"(?<!\\)%")
_BLOCK_KEY = re.compile(r"@\s*\w+\s*[{(]\s*([^,\s]+)")


def read_bib(raw: RawList, data: bytes) -> None:
    import logging

    from bibtexparser import model
    from bibtexparser.entrypoint import parse_string

    # The parser logs each bad block on its own logger; the warnings below say it once, better.
    logger = logging.getLogger("bibtexparser")
    if not any(isinstance(h, logging.NullHandler) for h in logger.handlers):
        logger.addHandler(logging.NullHandler())

    decode = Decoder()
    text = decode(data)
    try:
        library = parse_string(text)
    except RecursionError:
        raise
    except Exception as error:  # the parser's failure modes are not documented as types
        raise LoadError(f"{raw.path}: not valid BibTeX ({clean_line(str(error))})") from None
    for block in library.blocks:
        line = (block.start_line or 0) + 1
        if isinstance(block, model.Entry):
            _add_bib_entry(raw, block, line)
        elif isinstance(block, model.DuplicateBlockKeyBlock) and isinstance(
            block.ignore_error_block, model.Entry
        ):
            entry = block.ignore_error_block
            raw.warnings.append(
                f"{raw.path}:{line}: entry {clean_line(entry.key)} repeats an earlier key; kept"
            )
            _add_bib_entry(raw, entry, line)
        elif isinstance(block, model.DuplicateFieldKeyBlock) and isinstance(
            block.ignore_error_block, model.Entry
        ):
            entry = block.ignore_error_block
            fields = ", ".join(sorted(block.duplicate_keys))
            raw.warnings.append(
                f"{raw.path}:{line}: entry {clean_line(entry.key)} repeats field {fields}; "
                "the last value kept"
            )
            _add_bib_entry(raw, entry, line)
        elif isinstance(block, model.ParsingFailedBlock):
            match = _BLOCK_KEY.match(block.raw or "")
            key = clean_line(match.group(1)) if match else "?"
            reason = clean_line(str(getattr(block.error, "abort_reason", "") or block.error))
            raw.warnings.append(
                f"{raw.path}:{line}: entry {key}: not valid BibTeX ({reason[:120]}); skipped"
            )
    decode.warn(raw)


LATEX_TITLE_FIELD = "title_latex"
"""The record field (and `Paper.extra` key) holding a BibTeX title's LaTeX when it has math."""


def _add_bib_entry(raw: RawList, entry: Any, line: int) -> None:
    fields: dict[str, str] = {}
    for item in entry.fields:
        fields.setdefault(clean_line(str(item.key)).lower(), str(item.value))
    record: dict[str, Any] = {"abstract": ""}
    source_title = fields.pop("title", "")
    title = latex_to_line(source_title)
    if title:
        record["title"] = title
        if "$" in source_title or "\\(" in source_title:
            # Its math, which a citation gives back as LaTeX ($\alpha$-Rank, not α-Rank).
            record[LATEX_TITLE_FIELD] = clean_line(source_title)
    authors = _bib_authors(fields.pop("author", ""))
    if authors:
        record["authors"] = [display for display, _ in authors]
        if any(parts is not None for _, parts in authors):
            record[NAMES_FIELD] = [parts for _, parts in authors]
    year_text = fields.pop("year", "")
    year = parse_year(year_text)
    if year is not None:
        record["year"] = year
    elif year_text.strip():
        fields["year"] = year_text
    for venue_field in ("booktitle", "journal"):
        if venue_field in fields:
            venue = latex_to_line(fields.pop(venue_field))
            if venue:
                record["venue"] = venue
                break
    url = clean_line(fields.pop("url", ""))
    if url:
        record["url"] = url
    # The abstract keeps its LaTeX: the renderer shows it, and the same paper read from a text
    # list then has the same abstract (and so the same id).
    record["abstract"] = unwrap(clean_text(fields.pop("abstract", "")))
    key = clean_line(entry.key)
    if not record["abstract"] and "title" not in record:
        raw.warnings.append(f"{raw.path}:{line}: entry {key}: no abstract or title; skipped")
        return
    record["bibkey"] = key
    record["entrytype"] = clean_line(entry.entry_type).lower()
    for name, value in fields.items():
        record[name] = clean_line(value) if name in _VERBATIM_FIELDS else latex_to_line(value)
    raw.records.append(record)


def _bib_authors(value: str) -> list[Author]:
    if not value.strip():
        return []
    from bibtexparser.middlewares.names import (
        parse_single_name_into_parts,
        split_multiple_persons_names,
    )

    try:
        names = [str(name) for name in split_multiple_persons_names(value)]
    except Exception:  # a malformed author field is still worth showing as it is
        names = AUTHOR_AND.split(value)
    authors: list[Author] = []
    for name in names:
        if name.strip().lower() == "others":
            authors.append(("et al.", None))
            continue
        if "," not in name and "{" not in name:
            # "Given Family" says no more than a list's flat string: parsed the same way, later.
            decoded = latex_to_line(name)
            if decoded:
                authors.append((decoded, None))
            continue
        try:
            parts = parse_single_name_into_parts(name, strict=False)
        except Exception:  # a name the parser cannot split is still shown, whole
            decoded = latex_to_line(name)
            if decoded:
                authors.append((decoded, {"literal": decoded}))
            continue
        person = _bib_person(parts.first, parts.von, parts.last, parts.jr)
        if person.display:
            authors.append((person.display, person.to_json()))
    return authors


def _bib_person(first: list[str], von: list[str], last: list[str], jr: list[str]) -> PersonName:
    def joined(words: list[str]) -> str:
        return latex_to_line(" ".join(words))

    family = joined(last)
    if not family:
        return PersonName(literal=joined(first + von))
    if not first and not von and not jr and len(last) == 1 and " " in family:
        # "{OpenAI Team}": one braced word is a name BibTeX keeps whole.
        return PersonName(literal=family)
    return PersonName(given=joined(first), family=family, particle=joined(von), suffix=joined(jr))


def latex_to_line(value: str) -> str:
    """A BibTeX field value as one line of plain Unicode text (LaTeX decoded, braces gone)."""
    if not _LATEX_SPECIAL.search(value):
        return clean_line(value)
    from paperdeck.core.text.render import latex_to_text

    # render keeps every word; a bare % must still not read as a LaTeX comment. In a BibTeX
    # field every brace left is grouping, and -- / --- are TeX's dashes.
    text = latex_to_text(_UNESCAPED_PERCENT.sub(r"\\%", value))
    text = text.replace("---", "\u2014").replace("--", "\u2013")
    return clean_line(text.replace("{", "").replace("}", ""))

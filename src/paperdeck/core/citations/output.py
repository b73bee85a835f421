"""Citations in every format: paperdeck's own (BibTeX, RIS, CSL-JSON ...) and any CSL style."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from paperdeck.core.citations.bibtex import BIBTEX_NEEDS, bibtex_entry
from paperdeck.core.citations.csl import csl_item
from paperdeck.core.citations.record import Record, build_record
from paperdeck.core.citations.ris import LINE_END, ris_record
from paperdeck.core.citations.styles import (
    OFFERED_STYLES,
    StyleError,
    check_renders,
    is_style_file,
    load_style,
    render_bibliography,
    style_name,
    style_path,
    unknown_style_message,
)
from paperdeck.core.model import Paper

FORMATS: dict[str, str] = {
    "bibtex": "BibTeX",
    "biblatex": "BibLaTeX",
    "apa": "APA 7",
    "text": "Plain text",
    "markdown": "Markdown link",
    "cite": "\\cite{key}",
    "pandoc": "Pandoc [@key]",
    "ris": "RIS",
    "csljson": "CSL-JSON",
}
"""Format id -> the name shown to the user, in menu order (the default first). Any other CSL
style is a format too, by its name ("ieee") or its file ("my-journal.csl")."""

DEFAULT_FORMAT = "bibtex"
_ALIASES = {
    "bib": "bibtex",
    "csl-json": "csljson",
    "csl_json": "csljson",
    "csl": "csljson",
    "apa7": "apa",
    "plain": "text",
    "txt": "text",
    "md": "markdown",
}
# The formats citeproc-py renders, by the CSL style they use (others: any style name).
_CSL_FORMATS = frozenset({"apa", "text"})
_FULL_NEEDS = ("title (derived)", "authors", "year", "venue", "pages")
# Which missing pieces each format would show (a bare key misses nothing).
_FORMAT_NEEDS: dict[str, tuple[str, ...]] = {
    "bibtex": BIBTEX_NEEDS,
    "biblatex": BIBTEX_NEEDS,
    "ris": _FULL_NEEDS,
    "csljson": _FULL_NEEDS,
    "markdown": ("title (derived)", "url"),
    "cite": (),
    "pandoc": (),
}


@dataclass(frozen=True)
class Citation:
    """A formatted citation (only the citation: what it lacks is told apart), its key, and
    what it lacks (e.g. ("authors", "pages"))."""

    text: str
    key: str
    missing: tuple[str, ...]
    missing_by_key: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """For several papers: what each one lacks, by citation key."""


def resolve_format(name: str) -> str:
    """The format `name` asks for, case-insensitively: a format id ("csl-json" -> "csljson"),
    a CSL style name ("IEEE" -> "ieee") or a .csl file; ValueError (one line) when none."""
    text = name.strip()
    if is_style_file(text):
        # Read now, as `cite --style` reads it: the reader's C menu took a file that is no
        # CSL style, remembered it, and every later c failed.
        path = style_path(text)
        try:
            load_style(path)
        except StyleError as error:
            raise StyleError(str(error), f"Not a CSL style: {path.name}.") from None
        check_renders(path)  # a style that parses may still cite nothing
        return text
    wanted = _ALIASES.get(text.lower(), text.lower())
    if wanted in FORMATS:
        return wanted
    try:
        style_path(wanted)
    except StyleError as error:
        message = unknown_style_message(text, formats=list(FORMATS))
        raise StyleError(message, error.short) from None
    return style_name(wanted)


def format_label(fmt: str) -> str:
    """The name the user reads for a format: "APA 7", "IEEE", "my-journal.csl"."""
    if fmt in FORMATS:
        return FORMATS[fmt]
    if fmt in OFFERED_STYLES:
        return OFFERED_STYLES[fmt]
    if is_style_file(fmt):
        return fmt.replace("\\", "/").rsplit("/", 1)[-1]
    return f"CSL {fmt}"


def renders_with_csl(fmt: str) -> bool:
    """Whether citeproc-py renders the format (APA, text, any CSL style): ~10 ms a paper."""
    return fmt in _CSL_FORMATS or fmt not in FORMATS


def is_bibtex(fmt: str) -> bool:
    """Whether the format's text is BibTeX (a .bib file takes it)."""
    return fmt in ("bibtex", "biblatex")


def _needs(fmt: str) -> tuple[str, ...]:
    return _FORMAT_NEEDS.get(fmt, _FULL_NEEDS)


def _incomplete(record: Record, fmt: str) -> tuple[str, ...]:
    needs = _needs(fmt)
    return tuple(item for item in record.missing if item in needs)


_MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]<>])")


def _markdown(record: Record) -> str:
    title = _MARKDOWN_SPECIALS.sub(r"\\\1", record.cited_title)
    return f"[{title}]({record.url})" if record.url else title


def cite(
    paper: Paper,
    fmt: str = DEFAULT_FORMAT,
    *,
    key: str,
    corrections: Mapping[str, Any] | None = None,
    latex: bool = False,
) -> Citation:
    """One paper's citation in `fmt`; `latex` turns non-ASCII into LaTeX in BibTeX/BibLaTeX."""
    fixes = {paper.id: corrections} if corrections else {}
    return cite_many([paper], fmt, keys={paper.id: key}, corrections=fixes, latex=latex)


def cite_many(
    papers: Sequence[Paper],
    fmt: str,
    *,
    keys: Mapping[str, str],
    corrections: Mapping[str, Mapping[str, Any]] | None = None,
    latex: bool = False,
) -> Citation:
    """Several papers' citations as one text; `missing` is the union; `key` joins the keys.

    A CSL style renders them as one bibliography, in the style's order and with its
    disambiguation (2026a, 2026b).
    """
    fmt = resolve_format(fmt)
    fixes = corrections or {}
    key_list = [keys[paper.id] for paper in papers]
    # Bare keys need no record: `\cite` over a whole list stays cheap.
    bare = fmt in ("cite", "pandoc")
    records = [] if bare else [build_record(p, keys[p.id], fixes.get(p.id)) for p in papers]
    by_key = {record.key: _incomplete(record, fmt) for record in records}
    missing = tuple(dict.fromkeys(item for lacks in by_key.values() for item in lacks))
    if fmt == "cite":
        text = "\\cite{" + ",".join(key_list) + "}"
    elif fmt == "pandoc":
        text = "[" + "; ".join(f"@{key}" for key in key_list) + "]"
    elif fmt == "csljson":
        text = json.dumps([csl_item(record) for record in records], ensure_ascii=False, indent=2)
    elif fmt in ("bibtex", "biblatex"):
        entries = (bibtex_entry(r, latex=latex, biblatex=fmt == "biblatex") for r in records)
        text = "\n\n".join(entries)
    elif fmt == "ris":
        text = LINE_END.join(ris_record(record) for record in records)
    elif fmt == "markdown":
        text = "\n".join(_markdown(record) for record in records)
    else:
        apa = _is_apa(fmt)
        lowered = apa or (not is_style_file(fmt) and style_name(fmt) in _SENTENCE_CASE_STYLES)
        items = [csl_item(record, in_sentence_case=lowered, subtitles=apa) for record in records]
        text = "\n".join(render_bibliography(items, style_path(fmt)))
    return Citation(text=text, key=",".join(key_list), missing=missing, missing_by_key=by_key)


_SENTENCE_CASE_STYLES = frozenset({"nature", "vancouver-nlm"})
"""CSL styles whose journals write a cited paper's title in sentence case, a subtitle after
a colon not capitalised: Nature's "Attention is all you need", the NLM's (Vancouver)
"Hypertension in pregnancy: a review". Their CSL files take the title as given, as CSL 1.0.2
advises."""


def _is_apa(fmt: str) -> bool:
    """APA 7 and its variants ("apa-no-ampersand" ...): sentence case, subtitles capitalised."""
    if is_style_file(fmt):
        return False
    name = style_name(fmt)
    return name == "apa" or name.startswith("apa-")

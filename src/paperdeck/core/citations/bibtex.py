"""BibTeX and BibLaTeX entries: titles with math kept and capitals protected, names in parts."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from paperdeck.core.citations.case import (
    is_sentence_case,
    keeps_capitals,
    method_starts,
    method_words,
    named_compound_starts,
)
from paperdeck.core.citations.record import (
    DERIVED_TITLE_MARK,
    Record,
    describe_missing,
    unbraced_text,
)
from paperdeck.core.names import PersonName
from paperdeck.core.text.render import latex_to_text

# A dotless i with a combining accent ("Waı̈ss") has no composed form; an i does ("ï").
_DOTLESS_I_ACCENT = re.compile("\u0131(?=[\u0300-\u036f])")
BIBTEX_NEEDS = ("title (derived)", "authors", "year", "venue", "pages")
"""What a BibTeX entry reports missing (in a `%` comment line before it)."""

# `$...$` math the way pandoc finds it: no space just inside the dollars, no digit after.
_MATH = re.compile(r"\$(?=[^\s$])(?:\\\$|[^$])*?(?<=[^\s\\])\$(?!\d)|\\\(.+?\\\)")
_WORD = re.compile(r"[^\W_]+")
_PART_START = re.compile(r"[:?!]\s+$")
# What starts LaTeX or markdown in a title's text outside math, for latex_to_text to render: a
# backslash, a brace, emphasis, code in single backticks (TeX's opening quote `` is kept).
_MARKUP = re.compile(r"[\\{*_]|(?<!`)`(?!`)")


def _balanced(text: str) -> bool:
    depth = 0
    escaped = False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _title_segments(title: str) -> list[tuple[bool, str]]:
    """(is_math, text) pieces; math only when its braces balance."""
    segments: list[tuple[bool, str]] = []
    last = 0
    for match in _MATH.finditer(title):
        if not _balanced(match.group(0)):
            continue
        segments.append((False, title[last : match.start()]))
        segments.append((True, match.group(0)))
        last = match.end()
    segments.append((False, title[last:]))
    return [segment for segment in segments if segment[1]]


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_ASCII_SPECIALS = {
    "\\": "{\\textbackslash}",
    "{": "{\\textbraceleft}",
    "}": "{\\textbraceright}",
    "~": "{\\textasciitilde}",
    "^": "{\\textasciicircum}",
    "&": "\\&",
    "%": "\\%",
    "$": "\\$",
    "#": "\\#",
    "_": "\\_",
}
_SPECIALS_RE = re.compile(r"[\\{}~^&%$#_]")


@lru_cache(maxsize=1)
def _latex_encoder() -> Any:
    from pylatexenc.latexencode import UnicodeToLatexEncoder

    return UnicodeToLatexEncoder(
        non_ascii_only=True,
        replacement_latex_protection="braces-all",
        unknown_char_policy="keep",
        unknown_char_warning=False,
    )


def bibtex_escape(text: str, *, latex: bool = False) -> str:
    """Text as a BibTeX value: specials escaped, braces balanced; non-ASCII kept or as LaTeX."""
    text = unicodedata.normalize("NFC", _DOTLESS_I_ACCENT.sub("i", text))
    escaped = _SPECIALS_RE.sub(lambda match: _ASCII_SPECIALS[match.group(0)], text)
    if latex and not escaped.isascii():
        escaped = str(_latex_encoder().unicode_to_latex(escaped))
    return escaped


def _protect_word(word: str, *, proper_noun: bool, kept: frozenset[str]) -> bool:
    # The words APA's sentence case keeps, so that a style's change of case keeps them too
    # ("L2" was cited "l2"); one with no capital has none to lose.
    if any(char.isupper() for char in word) and keeps_capitals(word, kept):
        return True
    return proper_noun and word[0].isupper()


def bibtex_title(
    title: str, *, method: str | None = None, latex: bool = False, context: str = ""
) -> str:
    """A title as a BibTeX value: math kept, specials escaped, acronyms and names in braces.

    In a sentence-case title (guessed from its words) every capitalised
    word but the first is a name or an acronym, and braced: a sentence-case style keeps it.
    That includes the first word after a colon ("methods: {Sobolev}, physics-informed"):
    BibTeX's change.case$ keeps that capital anyway, biblatex's \\MakeSentenceCase does not.
    In Title Case, capitals are the case's, so only acronyms, names with inner capitals or
    digits ("{L2}", "{Word2vec}"), known proper nouns ("Bayesian", "Gaussian",
    proper_nouns.txt), the names joined to one ("{Moreau}-{Yosida}") or by an en dash
    ("{Wang}--{Landau}"; not common words, which the paper's abstract, `context`, writes in
    lower case: "Fat--Tailed"), and the first word after a colon, ? or ! are braced: bracing
    every word would keep a Title Case title in Title Case everywhere.
    """
    segments = _title_segments(title)
    texts = [
        text.replace("{", "").replace("}", "") if "\\" not in text else text
        for is_math, text in segments
        if not is_math
    ]
    plain_words = _WORD.findall(" ".join(latex_to_text(text) for text in texts))
    sentence_case = is_sentence_case(plain_words)
    kept = method_words(method)
    out: list[str] = []
    first_word = True
    for index, (is_math, text) in enumerate(segments):
        if is_math:
            out.append("{" + text + "}")
            first_word = False
            continue
        # A word glued to math ("G$^2$CN") is one name: keep its capitals.
        math_before = index > 0
        math_after = index + 1 < len(segments)
        # Markdown too ("**Bold**", "`code`"): printed as it stands, TeX sets its marks.
        if _MARKUP.search(text):
            text = unbraced_text(text)
        position = 0
        named = named_compound_starts(text, context) | method_starts(text, method)
        for match in _WORD.finditer(text):
            between = text[position : match.start()]
            out.append(bibtex_escape(between, latex=latex))
            word = match.group(0)
            protect = _protect_word(word, proper_noun=sentence_case and not first_word, kept=kept)
            # BibTeX's change.case$ keeps a capital after a colon and a space; biblatex's
            # \MakeSentenceCase and pybtex lower it unless braced ("…: {A} Gaussian process"),
            # and all three lower one after a question ("Learning? a fundamental trade-off").
            starts_part = _PART_START.search("".join(out[-2:])) is not None
            # change.case$ keeps the title's first character, a quote's "`" before its word.
            starts_part = starts_part or (first_word and "".join(out).strip() != "")
            protect = protect or (starts_part and word[0].isupper()) or match.start() in named
            glued = (math_before and match.start() == 0) or (
                math_after and match.end() == len(text)
            )
            protect = protect or (glued and not word.islower())
            escaped = bibtex_escape(word, latex=latex)
            if protect and re.fullmatch(r"[A-Z0-9]{2,}s", word):
                out.append("{" + escaped[:-1] + "}s")
            elif protect:
                out.append("{" + escaped + "}")
            else:
                out.append(escaped)
            first_word = False
            position = match.end()
        out.append(bibtex_escape(text[position:], latex=latex))
    return "".join(out)


def bibtex_name(name: PersonName, *, latex: bool = False) -> str:
    """A name as BibTeX reads it back in the same parts: "von Family, Jr, Given".

    A family name of several capitalised words stays one family name in this form
    ("Kleine Buening, Thomas"); a lower-case word that is not the particle, a comma or a word
    "and" inside a part is braced; a literal name is braced whole.
    """

    def part(text: str) -> str:
        value = bibtex_escape(text, latex=latex)
        # A word "and" or a comma inside one part would split the name differently.
        return "{" + value + "}" if re.search(r"\band\b|,", text, re.IGNORECASE) else value

    if name.literal:
        if name.literal == "et al.":
            return "others"
        return "{" + bibtex_escape(name.literal, latex=latex) + "}"
    family = part(name.family)
    if any(word[:1].islower() for word in name.family.split()[:-1]) and not family.startswith("{"):
        # "Family" words BibTeX would take for a particle ("Torre y Ruiz"): one family name.
        family = "{" + family + "}"
    if name.particle:
        family = part(name.particle) + " " + family
    if not name.given and not name.suffix:
        # A one-part name is BibTeX's last name only when it has no spaces left unbraced.
        return family if " " not in family or family.startswith("{") else "{" + family + "}"
    pieces = [family]
    if name.suffix:
        pieces.append(part(name.suffix))
    pieces.append(part(name.given))
    return ", ".join(pieces)


def bibtex_entry(record: Record, *, latex: bool, biblatex: bool) -> str:
    """One entry; `latex` writes non-ASCII as LaTeX; `biblatex` uses BibLaTeX's fields."""
    fields: list[tuple[str, str]] = []

    def add(name: str, value: str | None, *, raw: bool = False) -> None:
        if value:
            fields.append((name, value if raw else "{" + value + "}"))

    title = bibtex_title(record.title, method=record.method, latex=latex, context=record.abstract)
    if record.marks_made_up_title:
        # Braced: a style's change of case keeps the mark as it is written.
        title += " {" + DERIVED_TITLE_MARK + "}"
    add("title", title)
    add("author", " and ".join(bibtex_name(name, latex=latex) for name in record.authors))
    edition = record.edition
    booktitle = record.booktitle
    add("booktitle", bibtex_escape(booktitle, latex=latex) if booktitle else None)
    if record.pages:
        first, last = record.pages
        pages = first if first == last else f"{first}--{last}"
        add("pages", bibtex_escape(pages, latex=latex))
    if biblatex:
        add("date", str(record.year) if record.year else None)
    else:
        add("year", str(record.year) if record.year else None)
    if edition is not None:
        editors = " and ".join(bibtex_name(name, latex=latex) for name in edition.editors)
        add("editor", editors)
        add("volume", edition.volume)
        add("series", bibtex_escape(edition.series, latex=latex) if edition.series else None)
        if biblatex:
            add("venue", bibtex_escape(edition.location, latex=latex) if edition.location else None)
            if edition.start and edition.end:
                add("eventdate", f"{edition.start}/{edition.end}")
        else:
            if edition.start:
                add("month", _MONTHS[int(edition.start[5:7]) - 1], raw=True)
            add(
                "address",
                bibtex_escape(edition.location, latex=latex) if edition.location else None,
            )
        add(
            "publisher",
            bibtex_escape(edition.publisher, latex=latex) if edition.publisher else None,
        )
    add("pdf", record.pdf)
    add("url", record.url)
    add("doi", record.doi)
    if record.arxiv:
        add("eprint", record.arxiv)
        if biblatex:
            add("eprinttype", "arxiv")
        else:
            add("archiveprefix", "arXiv")
    entry_type = "inproceedings" if record.is_proceedings else "misc"
    width = max(len(name) for name, _ in fields)
    lines = [f"@{entry_type}{{{record.key},"]
    lines.extend(f"  {name:<{width}} = {value}," for name, value in fields)
    lines.append("}")
    notes = [item for item in record.missing if item in BIBTEX_NEEDS]
    if notes:
        # A made-up title names no paper: the id traces the entry back (`paperdeck show ID`).
        source = f" {record.paper_id}" if record.title_derived and record.paper_id else ""
        lines.insert(0, f"% paperdeck{source}: {describe_missing(notes)}")
    return "\n".join(lines)

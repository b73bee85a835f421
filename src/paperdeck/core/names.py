"""People's names in their parts (given, family, particle, suffix), from every form lists use."""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from paperdeck.core.text.sanitize import clean_line

NAMES_FIELD = "author_names"
"""The record field (and `Paper.extra` key) holding the structured names a source gave.

A list aligned with the record's `authors` display strings: a dict of parts for a name the
source gave in parts, None for a name it gave as one flat string (parsed when needed)."""

_PART_KEYS = ("given", "family", "particle", "suffix", "literal")


@dataclass(frozen=True, slots=True)
class PersonName:
    """A person's name in the parts citations need; `literal` alone for a name kept whole.

    `particle` is a lower-case prefix of the family name ("de" in "de Hoop", "van de" in
    "van de Meent"); a capitalised one ("Van Gool") is part of `family`, as BibTeX reads it.
    """

    given: str = ""
    family: str = ""
    particle: str = ""
    suffix: str = ""
    literal: str = ""

    @property
    def display(self) -> str:
        """Given names first, as lists write them: "Hal Daumé III", "Maarten de Hoop"."""
        if self.literal:
            return self.literal
        return " ".join(p for p in (self.given, self.particle, self.family, self.suffix) if p)

    @property
    def full_family(self) -> str:
        """The family name with its particle: "de Hoop"."""
        return " ".join(part for part in (self.particle, self.family) if part)

    def to_json(self) -> dict[str, str]:
        """Only the parts that are there, under the names NAMES_FIELD uses."""
        return {key: value for key in _PART_KEYS if (value := getattr(self, key))}


# ---------------------------------------------------------------------------------------------
# Cleaning

# A dotless i with a combining accent ("Waı̈ss") has no composed form; an i does ("ï").
_DOTLESS_I_ACCENT = re.compile("\u0131(?=[\u0300-\u036f])")


def clean_person(raw: str) -> str:
    """A name as plain Unicode on one line: LaTeX and HTML entities decoded, braces gone."""
    text = raw
    if "&" in text:
        text = html.unescape(text)
    if "\\" in text or "{" in text or "$" in text:
        from paperdeck.core.text.render import latex_to_text

        text = latex_to_text(text).replace("{", "").replace("}", "")
    text = _DOTLESS_I_ACCENT.sub("i", clean_line(text))
    return unicodedata.normalize("NFC", text)


# ---------------------------------------------------------------------------------------------
# Parsing

_SUFFIXES = frozenset({"jr", "sr", "jnr", "snr", "junior", "senior", "ii", "iii", "iv"})
# Words that make a "name" a group's: kept whole rather than split into a person's parts.
_GROUP_WORDS = frozenset(
    [
        "team",
        "group",
        "consortium",
        "collaboration",
        "committee",
        "project",
        "lab",
        "laboratory",
        "labs",
        "institute",
        "university",
        "inc",
        "ltd",
        "corporation",
        "foundation",
        "association",
        "society",
        "authors",
        "research",
        "company",
        "llc",
        "gmbh",
    ]
)
_ONE_PERSON = re.compile(r"[^\W\d_]", re.UNICODE)


@lru_cache(maxsize=1)
def _parser_constants() -> Any:
    from nameparser.config import Constants

    # Titles are left out: in a paper list "Judge", "Major" or "Bishop" is a given name. Degree
    # acronyms are left out too: "Li Ma" is a person, not Li with a master's degree.
    return Constants(
        titles=(),
        first_name_titles=(),
        suffix_acronyms=(),
        suffix_acronyms_ambiguous=(),
        suffix_not_acronyms=tuple(_SUFFIXES),
    )


@lru_cache(maxsize=1)
def _prefixes() -> frozenset[str]:
    from nameparser.config import CONSTANTS

    return frozenset(CONSTANTS.prefixes)


def is_particle(word: str) -> bool:
    """Whether a lower-case `word` is a name particle ("van", "de", "von"), not a name."""
    return word.casefold() in _prefixes()


def _is_suffix(word: str) -> bool:
    return word.casefold().rstrip(".") in _SUFFIXES


# Degrees a list writes after a comma ("Pranam Chatterjee, PhD"): no part of the name, and
# left out of a citation (APA 7 9.8).
_DEGREES = frozenset({"phd", "md", "msc", "mba", "dphil", "ms", "ma", "bsc", "mphil", "mres"})


def _is_degree(text: str) -> bool:
    return text.casefold().replace(".", "").replace(" ", "") in _DEGREES


def _literal(text: str) -> PersonName:
    return PersonName(literal=text)


def _family_and_particle(family: str) -> tuple[str, str]:
    """ "van de Meent" -> ("Meent", "van de"): the leading lower-case words are the particle."""
    words = family.split()
    start = 0
    while start < len(words) - 1 and words[start][:1].islower():
        start += 1
    return " ".join(words[start:]), " ".join(words[:start])


def _from_parts(given: str, family: str, suffix: str = "") -> PersonName:
    family, particle = _family_and_particle(family.strip())
    return PersonName(given=given.strip(), family=family, particle=particle, suffix=suffix.strip())


def parse_name(raw: str) -> PersonName:
    """One name from a string: "Given Family", "Family, Given" or "Family, Jr, Given".

    A flat "Given Family" is split by nameparser, which knows particles ("Luc Van Gool",
    "Maarten de Hoop"); a family name of several words that are not particles can only be
    told apart when the source writes it first ("Kleine Buening, Thomas"). Anything that is
    not one person's name (a team, empty parts, digits) is kept whole as a literal.
    """
    return _parse_clean(clean_person(raw))


@lru_cache(maxsize=65536)
def _parse_clean(text: str) -> PersonName:
    if not text or not _ONE_PERSON.search(text) or text.casefold() in ("et al.", "others"):
        return _literal(text)
    # "&" joins no one person's names: "Li & Co Research" was cited "Research, L. & C.".
    if (
        any(char.isdigit() for char in text)
        or "&" in text
        or (len(text.split()) > 1 and _GROUP_WORDS & set(re.findall(r"\w+", text.casefold())))
    ):
        return _literal(text)
    if "," in text:
        parts = [part.strip() for part in text.split(",")]
        while len(parts) > 1 and _is_degree(parts[-1]):
            parts.pop()
        if len(parts) == 1:
            return _parse_flat(parts[0])
        if len(parts) == 2 and _is_suffix(parts[1]):
            name = _parse_flat(parts[0])
            return PersonName(name.given, name.family, name.particle, parts[1], name.literal)
        if len(parts) == 2 and parts[0] and parts[1]:
            return _from_parts(parts[1], parts[0])
        if len(parts) == 3 and all(parts) and _is_suffix(parts[1]):
            return _from_parts(parts[2], parts[0], parts[1])
        return _literal(text)
    return _parse_flat(text)


def _parse_flat(text: str) -> PersonName:
    words = text.split()
    if len(words) == 1:
        return PersonName(family=words[0])
    if (
        len(words) == 2
        # A capital or no case at all: "岳珩 李" is given first too, as a flat name is read
        # (nameparser would read a name in Han characters family first).
        and not words[0][:1].islower()
        and not words[1][:1].islower()
        and not _is_suffix(words[1])
        and words[0].casefold() not in _prefixes()
    ):
        # The common case, decided without the parser (which costs ~0.15 ms a name).
        return PersonName(given=words[0], family=words[1])
    from nameparser import HumanName

    parsed = HumanName(text, constants=_parser_constants())
    # No titles are known, so what nameparser still takes for one ("Md.", Muhammad) is a
    # given name; a nickname ("Zihan (Zenus) Wang") is no part of a citation's name.
    given_words = " ".join(p for p in (parsed.title, parsed.first, parsed.middle) if p).split()
    family_words = str(parsed.last).split()
    # A capitalised "Bin" inside a name is a given name's syllable ("Xue Bin Peng"), not the
    # particle "bin" of "Mohamed bin Zayed".
    while len(family_words) > 1 and family_words[0] in _NOT_PARTICLES:
        given_words.append(family_words.pop(0))
    if not family_words:
        return _literal(text)
    name = _from_parts(" ".join(given_words), " ".join(family_words), str(parsed.suffix))
    nickname = str(parsed.nickname)
    kept = text
    if nickname:
        kept = re.sub(rf"\s*[\"'(“„«»”]{re.escape(nickname)}[\"')”“»«]\s*", " ", text)
    # nameparser only reorders words; a name it would lose words of is kept whole.
    if sorted(name.display.split()) != sorted(kept.replace(",", " ").split()):
        return _literal(text)
    return name


_NOT_PARTICLES = frozenset({"Bin"})

_LETTERS = re.compile(r"[^\W\d_]+")


def in_usual_case(name: PersonName) -> PersonName:
    """A name a list wrote all in capitals or all in lower case ("TIANYI LI", "yibo li", as
    people type them into a submission form), or with its family name in capitals ("Peng
    TANG", "Jong Chul YE"), with each such word capitalised ("Tianyi Li", "Zhi-Ming",
    "O'Brien", "Tang"), a particle kept lower-case ("de"); any other name as it is. A
    citation would read "LI, T.", "li, y." or "TANG, P."; a name without case (Han
    characters) has neither. Capitals without a vowel are initials ("Namburi GNVV"), and so
    are two in a given name ("EJ Chichilnisky")."""
    if name.literal or not name.given or not name.family:
        return name
    full = f"{name.given} {name.family}"
    if not full.islower() and not any(len(word) > 1 and word.isupper() for word in full.split()):
        return name  # nearly every name: decided without the letters' regex
    letters = "".join(_LETTERS.findall(full))
    if (letters.isupper() and len(letters) > 2) or letters.islower():
        family = _capitalised(name.family).split()
        given = _capitalised(name.given)
    else:
        family = [_shouted(word, 2) for word in name.family.split()]
        given = " ".join(_shouted(word, 3) for word in name.given.split())
        if family == name.family.split() and given == name.given:
            return name
    particle = name.particle.split()
    if name.family.isupper():
        # "VAN DER BERG": capitals hide a particle, which is lower-case as "van der Berg".
        particle = [word.lower() for word in particle]
        while len(family) > 1 and is_particle(family[0]):
            particle.append(family.pop(0).lower())
    return PersonName(given, " ".join(family), " ".join(particle), name.suffix)


def _capitalised(text: str) -> str:
    return _LETTERS.sub(lambda found: found[0][:1].upper() + found[0][1:].lower(), text)


def _shouted(word: str, shortest: int) -> str:
    """A word of a name written in capitals, capitalised ("TANG" -> "Tang"); else as it is."""
    letters = "".join(_LETTERS.findall(word))
    if len(letters) < shortest or not letters.isupper() or not re.search("[AEIOUY]", letters):
        return word
    return _capitalised(word)


def name_from_json(item: Mapping[str, Any]) -> PersonName | None:
    """A name from CSL-JSON parts ({"family", "given", "non-dropping-particle", ...}), from
    {"first", "last"}, or from a flat {"name"} or {"literal"}; None when it has no name."""

    def part(*keys: str) -> str:
        for key in keys:
            value = item.get(key)
            if isinstance(value, str) and value.strip():
                return clean_person(value)
        return ""

    literal = part("literal")
    if literal:
        return _literal(literal)
    family = part("family", "last", "surname")
    given = part("given", "first")
    if not family:
        flat = part("name")
        if flat:
            return parse_name(flat)
        return PersonName(family=given) if given else None
    particle = " ".join(
        p for p in (part("dropping-particle"), part("non-dropping-particle", "particle")) if p
    )
    name = _from_parts(given, family, part("suffix"))
    if particle:
        name = PersonName(name.given, name.family, particle, name.suffix)
    return name


def names_of(authors: Sequence[str], structured: Any = None) -> tuple[PersonName, ...]:
    """The names of `authors` (display strings): the source's parts where `structured` (a
    NAMES_FIELD list) still describes the same name, else each string parsed."""
    given_parts = structured if isinstance(structured, list) else []
    names = []
    for index, display in enumerate(authors):
        name = None
        item = given_parts[index] if index < len(given_parts) else None
        if isinstance(item, Mapping):
            name = name_from_json(item)
            if name is not None and name.display != display:
                # The authors were changed since (a correction, an enrichment).
                name = None
        names.append(name if name is not None else parse_name(display))
    return tuple(name for name in names if name.display)

"""What a plain-text list's header line tells: its venue and year."""

from __future__ import annotations

import re

# Venue acronyms as they are usually written.
_VENUE_WORDS = (
    "ICML NeurIPS NIPS ICLR ACL EMNLP NAACL EACL AACL COLING CoNLL TACL CVPR ICCV ECCV WACV "
    "BMVC AAAI IJCAI KDD SIGIR WWW WSDM CIKM RecSys COLT AISTATS UAI ALT ICRA IROS CoRL RSS "
    "MICCAI TMLR JMLR TPAMI MLSys SIGGRAPH CHI UIST ICDM SDM ECML ACML ICASSP INTERSPEECH ISMIR"
)
_VENUES = _VENUE_WORDS.split()
_VENUE_BY_UPPER = {venue.upper(): venue for venue in _VENUES}
_VENUE_RE = re.compile(
    r"(?<![A-Za-z])(" + "|".join(sorted(_VENUES, key=len, reverse=True)) + r")(?![A-Za-z])",
    re.IGNORECASE,
)
_YEAR_RE = re.compile(r"(?<![0-9])(?:19|20)[0-9]{2}(?![0-9])")
_YEAR_RANGE_RE = re.compile(r"(?<![0-9])(?:19|20)[0-9]{2}\s*(?:[-–—/]|to)\s*(?:19|20)?[0-9]{2}\b")
_CAPS_WORD_RE = re.compile(r"(?<![A-Za-z0-9])[A-Z][A-Z0-9]*[A-Z](?![A-Za-z0-9])")
_LIST_WORD_RE = re.compile(
    r"(?i)\b(?:papers?|list|accepted|proceedings|abstracts|reading)\b|[\u3040-\u30ff\u4e00-\u9fff]"
)
# All-caps words that name a field or a file, not a venue.
_NOT_VENUE_WORDS = "AI ML NLP CV RL LLM LLMS DL TODO PDF TXT CSV JSON BIB URL FAQ README"
_NOT_VENUES = frozenset(_NOT_VENUE_WORDS.split())


def venue_from_header(header: str) -> str | None:
    """The venue a header names: a known acronym, else a leading or year-adjacent caps word."""
    known = _known_venue(header)
    if known is not None:
        return known
    for match in _CAPS_WORD_RE.finditer(header):
        word = match.group(0)
        if word in _NOT_VENUES or not any(c.isalpha() for c in word):
            continue
        leading = not header[: match.start()].strip()
        before_year = _YEAR_RE.match(header[match.end() :].lstrip()) is not None
        if leading or before_year:
            return word
    return None


def year_from_header(header: str) -> int | None:
    """The one year a header names (a range such as 2020-2023 is not one year)."""
    if _YEAR_RANGE_RE.search(header):
        return None
    years = set(_YEAR_RE.findall(header))
    return int(years.pop()) if len(years) == 1 else None


def has_header_cue(line: str) -> bool:
    # Only known venues count here: an abstract may well start with an all-caps method name.
    return bool(_YEAR_RE.search(line) or _LIST_WORD_RE.search(line) or _known_venue(line))


def _known_venue(header: str) -> str | None:
    for match in _VENUE_RE.finditer(header):
        word = match.group(1)
        canonical = _VENUE_BY_UPPER[word.upper()]
        if word == canonical or word.isupper():
            return canonical
    return None

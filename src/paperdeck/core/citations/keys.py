"""Citation keys: the paper's real id when it has one, else one pattern, unique, pinned by notes."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain, count
from typing import Any, Protocol

from paperdeck.core.citations.record import corrected_names
from paperdeck.core.citations.venues import venue_edition
from paperdeck.core.model import Paper
from paperdeck.core.names import NAMES_FIELD, PersonName, names_of
from paperdeck.core.text.render import latex_to_text

CITATION_KEY_FIELD = "citation_key"
"""The notes-store correction that pins a paper's citation key."""


class _Entry(Protocol):
    @property
    def note(self) -> str: ...
    @property
    def corrections(self) -> Mapping[str, Any]: ...


class KeyNotes(Protocol):
    """What citation_keys needs of paperdeck.core.notes.store.NotesStore."""

    def get(self, paper: Paper) -> _Entry | None: ...
    def pin_citation_key(self, paper: Paper, key: str) -> None: ...


# Words a short title skips, as Better BibTeX's `shorttitle` does.
_STOPWORDS = frozenset(
    re.findall(
        r"\w+",
        "a an the on of in for to with via and or from by at as is are be do does can how why what "
        "when where which who towards toward into onto over under beyond using through not your "
        "you we our its it this that",
    )
)
# Words a title paperdeck made up from an abstract ("A simple framework for ...", "Two
# distinct effects of ...") often opens with, which tell one paper from no other: a stand-in
# key skips them too, as a reader would ("anon2026distinct", not "anon2026two").
_VAGUE_WORDS = _STOPWORDS | frozenset(
    re.findall(
        r"\w+",
        "one two three four five six several many first second new novel simple general generic "
        "unified efficient effective principled practical theoretical empirical recent "
        "longstanding extensive alternative fundamental key important problem problems "
        "algorithm algorithms framework frameworks method methods approach approaches technique "
        "techniques class classes family variant variants notion study studies analysis paper work "
        "result results case cases way ways set range variety number question questions",
    )
)
_VALID_KEY = re.compile(r"[A-Za-z0-9_.:+/-]{1,100}")


def fold_ascii(text: str) -> str:
    """Lower-case ASCII letters and digits, transliterated: "Łukasiewicz" -> "lukasiewicz"."""
    from anyascii import anyascii

    return re.sub(r"[^a-z0-9]", "", anyascii(text).lower())


_PMLR_PAGE = re.compile(r"mlr\.press/v(\d+)/([A-Za-z0-9_-]+)\.(?:html|pdf)")
_PMLR_ASSET = re.compile(r"mlresearch/v(\d+)/")


def own_key(paper: Paper) -> str | None:
    """The key the metadata itself gives: PMLR's id, else the list's BibTeX key, else PMLR's
    id read from a proceedings URL; None when the paper has no real id."""
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


def letter_suffix(index: int) -> str:
    """The `index`th (from 0) of a, b, ..., z, aa, ab, ...: a key's suffix, as CSL 1.0.2
    counts year suffixes too."""
    text = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        text = chr(ord("a") + rest) + text
    return text


NO_AUTHOR = "anon"
"""What a key has in its author's place when the paper has no author."""


def _author_part(names: Sequence[PersonName]) -> str:
    for name in names[:1]:
        folded = fold_ascii(name.full_family or name.literal.split(" ")[0])
        if folded and not folded.isdigit():
            return folded
    return NO_AUTHOR


def _title_part(title: str) -> str:
    for word in re.findall(r"[^\W_]+", latex_to_text(title)):
        folded = fold_ascii(word)
        if len(folded) > 1 and folded not in _STOPWORDS and not folded.isdigit():
            return folded
    return ""


def _made_up_title_part(title: str) -> str:
    """The first word of a title paperdeck made up that is not vague, a hyphenated name whole
    ("DR-Off-PAC: ..." -> "droffpac"); its first significant word when all are vague."""
    for word in re.findall(r"[^\W_]+(?:-[^\W_]+)*", latex_to_text(title)):
        folded = fold_ascii(word)
        if len(folded) > 1 and folded not in _VAGUE_WORDS and not folded.isdigit():
            return folded
    return _title_part(title)


def pattern_key(paper: Paper, names: Sequence[PersonName], title: str | None = None) -> str:
    """authYearShorttitle: the first author's family name, the year, the title's first
    significant word, in lower-case ASCII ("chen2026interactscience"); "anon" stands for
    unknown authors, and an unknown year is left out ("anoncoreset"), as Google Scholar,
    JabRef and Better BibTeX leave it: "anonndcoreset" read as a typo. Of a title paperdeck
    made up, the first word that is not vague ("A simple framework for pruning ..." ->
    "pruning")."""
    year = str(paper.year) if paper.year else ""
    if title is None and paper.title_derived:
        return _author_part(names) + year + _made_up_title_part(paper.title)
    return _author_part(names) + year + _title_part(title if title is not None else paper.title)


def citation_keys(papers: Sequence[Paper], notes: KeyNotes | None = None) -> dict[str, str]:
    """Paper id -> citation key, unique across `papers`.

    A key is the paper's real id when the metadata has one (`pmlr-v306-hubotter26a`, the
    list's own BibTeX key, PMLR's id read from a proceedings URL); every other paper gets
    `pattern_key` (authYearShorttitle), with a, b, c ... after a key already taken. Which
    paper takes a shared key first depends on the open lists, so once a paper has a note its
    key is pinned in the notes store (correction "citation_key") and used from then on;
    except a stand-in key (no author and a derived title), which its metadata replaces.
    """
    keys: dict[str, str] = {}
    taken: set[str] = set()
    tried: dict[str, int] = {}
    """A pattern key's base -> how many of its candidates (base, base+a, ...) are taken."""
    entries: dict[str, _Entry | None] = {}
    if notes is not None:
        for paper in papers:
            entry = notes.get(paper)
            entries[paper.id] = entry
            pinned = entry.corrections.get(CITATION_KEY_FIELD) if entry is not None else None
            # A pinned key is user data: only one that is a valid BibTeX key is used.
            valid = isinstance(pinned, str) and _VALID_KEY.fullmatch(pinned) is not None
            if valid and isinstance(pinned, str) and paper.id not in keys:
                # A stand-in pinned before this rule, now that the paper's authors are known.
                if (
                    pinned.startswith(NO_AUTHOR)
                    and entry is not None
                    and (own_key(paper) is not None or _first_author(paper, entry.corrections))
                ):
                    continue
                keys[paper.id] = pinned
                taken.add(pinned)
    for paper in papers:
        if paper.id in keys:
            continue
        entry = entries.get(paper.id)
        key = own_key(paper)
        stand_in = False
        if key is not None:
            key = _first_free(chain([key], (f"{key}-{n}" for n in count(2))), taken)
        else:
            fixes = entry.corrections if entry is not None else {}
            title = str(fixes.get("title") or "") or None
            first = _first_author(paper, fixes)
            base = pattern_key(paper, first, title)
            # The letters tried for this base before were taken, and still are: a title-less
            # list's thousands of `anon...` keys are not each tried from `a` again.
            at = tried.get(base, 0)
            while (found := base + letter_suffix(at - 1) if at else base) in taken:
                at += 1
            tried[base] = at + 1
            key = found
            # "anon" and a word of a title paperdeck made up: kept until metadata names the
            # paper, so a note written before its lookup does not hold it to "anon2026power".
            stand_in = _stands_in(paper, first, title)
        keys[paper.id] = key
        taken.add(key)
        if notes is not None and entry is not None and entry.note.strip() and not stand_in:
            notes.pin_citation_key(paper, key)
    return keys


def is_stand_in(paper: Paper, fixes: Mapping[str, Any]) -> bool:
    """Whether `citation_keys` gives the paper a stand-in key: one its metadata will replace
    (no real id, no author known, a title paperdeck made up), never pinned by a note."""
    if own_key(paper) is not None:
        return False
    return _stands_in(paper, _first_author(paper, fixes), str(fixes.get("title") or "") or None)


def _stands_in(paper: Paper, first: Sequence[PersonName], title: str | None) -> bool:
    return not first and title is None and paper.title_derived


def _first_author(paper: Paper, fixes: Mapping[str, Any]) -> Sequence[PersonName]:
    """The paper's first author as a key reads it (none when unknown)."""
    if "authors" in fixes:
        return corrected_names(paper, fixes)[:1]
    # Only the first author counts: the others are not parsed for a key.
    return names_of(paper.authors[:1], paper.extra.get(NAMES_FIELD))


def _first_free(candidates: Iterable[str], taken: set[str]) -> str:
    # `candidates` is endless and `taken` finite, so this always returns.
    return next(candidate for candidate in candidates if candidate not in taken)

"""The abstract matcher: a paper takes a record's metadata only when both abstracts are one."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rapidfuzz.distance import Indel

from paperdeck.core.formats import RawList
from paperdeck.core.model import Paper
from paperdeck.core.text.fold import fold

MIN_CONFIDENCE = 0.90
"""A match below this similarity is never applied (it is reported as weak)."""
MIN_MARGIN = 0.08
"""The best candidate must beat the second-best record by this much, or the match is ambiguous."""
WEAK_FLOOR = 0.60
"""Below this a best candidate is noise, not worth reporting as a weak match."""
SHINGLE_WORDS = 40
"""Candidates are found by the word 3-grams of an abstract's opening (truncation cuts the end)."""
MAX_CANDIDATES = 4
MIN_SHARED = 0.25
"""A candidate shares at least this fraction of an abstract's opening 3-grams."""
MAX_POSTINGS = 40
"""A 3-gram shared by more records than this ("in this paper") says nothing about identity."""
MIN_COMPARED_CHARS = 120
"""Shorter normalised abstracts are too little text to join on."""
MAX_COMPARED_CHARS = 4000
"""Only this much of the opening of two abstracts is compared (a hostile list can be huge)."""

Shingle = tuple[str, str, str]
# Fields with a slot of their own, and those `paperdeck enrich` writes about the paper itself
# (so its output can serve as a source without its bookkeeping leaking into `extra`). An online
# match's `online` (source, identifier, confidence) does go to `extra`: citations name the source.
_NOT_EXTRA = frozenset(
    {"title", "authors", "abstract", "year", "venue", "url"}
    | {"position", "id", "title_derived", "method", "links", "list", "meta_source", "match"}
)


def normalise_abstract(text: str) -> str:
    """The words of an abstract as copies of it agree on them: no case, accents, LaTeX or marks."""
    return " ".join(fold(text).split())


@dataclass(frozen=True)
class Match:
    """One candidate record for a paper: which source, how similar, which record."""

    source: str
    confidence: float
    record_index: int
    title: str = ""
    """The record's title, for reports."""


@dataclass
class EnrichReport:
    """What enrichment did to one list."""

    papers: list[Paper]
    """The list's papers in order; matched ones carry the record's metadata."""
    matches: dict[str, Match] = field(default_factory=dict)
    """Paper id -> the match applied."""
    unmatched: list[str] = field(default_factory=list)
    """Ids of papers with no confident, unambiguous candidate (ambiguous ones excluded)."""
    ambiguous: list[tuple[str, list[Match]]] = field(default_factory=list)
    """Paper id -> the close candidates, best first (none applied)."""
    weak: dict[str, Match] = field(default_factory=dict)
    """Paper id -> its best candidate where that was too dissimilar to apply (a subset of
    unmatched)."""


@dataclass(frozen=True)
class _Verdict:
    best: Match | None
    close: tuple[Match, ...]
    """Candidates within the margin of the best (the best included) when ambiguous."""


class _SourceIndex:
    """One source's abstracts, normalised, with an inverted index of opening word 3-grams."""

    def __init__(self, source: RawList) -> None:
        self.name = source_label(source)
        self.records = source.records
        self.texts = [normalise_abstract(str(r.get("abstract") or "")) for r in self.records]
        self.titles = [_record_title(record) for record in self.records]
        # Most 3-grams belong to one record: those live in a plain dict filled at C speed, and
        # only the shared ones ("in this paper") get a list of records.
        self.single: dict[Shingle, int] = {}
        self.shared: dict[Shingle, list[int]] = {}
        for index, text in enumerate(self.texts):
            if len(text) < MIN_COMPARED_CHARS:
                continue
            shingles = _shingles(text)
            for shingle in list(filter(self.shared.__contains__, shingles)):
                self.shared[shingle].append(index)
            for shingle in list(filter(self.single.__contains__, shingles)):
                self.shared[shingle] = [self.single.pop(shingle), index]
            self.single.update(
                dict.fromkeys(itertools.filterfalse(self.shared.__contains__, shingles), index)
            )

    def candidates(self, text: str) -> list[int]:
        """Records sharing the most opening 3-grams with `text`, most first."""
        shingles = _shingles(text)
        shared = (
            indices
            for indices in map(self.shared.get, shingles)
            if indices is not None and len(indices) <= MAX_POSTINGS
        )
        counts = Counter(
            itertools.chain(map(self.single.get, shingles), itertools.chain.from_iterable(shared))
        )
        counts.pop(None, None)
        ranked = counts.most_common(MAX_CANDIDATES)
        if not ranked:
            return []
        # A copy of the same abstract shares most 3-grams with it, so a record sharing a few
        # stock phrases is not worth comparing, nor one sharing far fewer than the leader.
        floor = max(2, ranked[0][1] // 4, int(len(shingles) * MIN_SHARED))
        return [index for index, count in ranked if index is not None and count >= floor]

    def judge(self, text: str) -> _Verdict:
        """The best record for a normalised abstract, and any too-close rivals."""
        if len(text) < MIN_COMPARED_CHARS:
            return _Verdict(None, ())
        scored = sorted(
            (
                Match(self.name, _similarity(text, self.texts[index]), index, self.titles[index])
                for index in self.candidates(text)
            ),
            key=lambda match: (-match.confidence, match.record_index),
        )
        if not scored:
            return _Verdict(None, ())
        best = scored[0]
        rivals = [
            match
            for match in scored[1:]
            if best.confidence - match.confidence < MIN_MARGIN
            and not _same_metadata(
                self.records[best.record_index], self.records[match.record_index]
            )
        ]
        return _Verdict(best, (best, *rivals) if rivals else ())


def _shingles(text: str) -> set[Shingle]:
    words = text.split(" ", SHINGLE_WORDS)[:SHINGLE_WORDS]
    return set(zip(words, words[1:], words[2:], strict=False))


def _similarity(left: str, right: str) -> float:
    """How alike two normalised abstracts are, when one may be the other cut short.

    The shorter text is compared with the same-length opening of the longer one, so a copy that
    lost its last sentences still scores high; the score is then discounted when the shorter
    text is a small part of the longer one, since less text is less evidence.
    """
    short, long = (left, right) if len(left) <= len(right) else (right, left)
    coverage = len(short) / len(long)
    # Comparison time grows with the square of the length; an opening this long decides it.
    short = short[:MAX_COMPARED_CHARS]
    similarity = Indel.normalized_similarity(short, long[: len(short)])
    if coverage < 0.5:
        similarity *= 0.85 + 0.3 * coverage
    return round(similarity, 4)


def _record_title(record: Mapping[str, Any]) -> str:
    # A title paperdeck derived (in an earlier `enrich` output used as a source) is no title.
    return "" if record.get("title_derived") is True else str(record.get("title") or "")


def _same_metadata(first: Mapping[str, Any], second: Mapping[str, Any]) -> bool:
    # Two copies of one paper in a source are no ambiguity: either gives the same title.
    title = normalise_abstract(_record_title(first))
    return bool(title) and title == normalise_abstract(_record_title(second))


def judge_records(text: str, records: list[dict[str, Any]], name: str) -> tuple[Match | None, bool]:
    """The record among `records` most like `text`'s abstract, and whether it is accepted:
    confident and without a close rival, the rule that keeps enrichment's precision at 100%."""
    raw = RawList(Path(name), name, "online", None, None, None, records)
    verdict = _SourceIndex(raw).judge(normalise_abstract(text))
    best = verdict.best
    return best, best is not None and best.confidence >= MIN_CONFIDENCE and not verdict.close


def source_label(source: RawList) -> str:
    """How a source is named in reports and in Paper.meta_source: its file name."""
    return source.path.name or source.name


def enrich_papers(papers: Sequence[Paper], sources: Sequence[RawList]) -> EnrichReport:
    """Match each paper's abstract against the sources, in order, and apply confident matches.

    A paper takes its metadata from the first source that matches it confidently and without a
    close rival; a paper no source matches stays as it was.
    """
    result = list(papers)
    texts = [normalise_abstract(paper.abstract) for paper in papers]
    pending = set(range(len(result)))
    ambiguous: dict[int, tuple[Match, ...]] = {}
    weak: dict[int, Match] = {}
    matches: dict[str, Match] = {}
    for source in sources:
        if not pending:
            break
        index = _SourceIndex(source)
        for position in sorted(pending):
            verdict = index.judge(texts[position])
            best = verdict.best
            if best is None:
                continue
            if best.confidence < MIN_CONFIDENCE:
                if best.confidence >= WEAK_FLOOR and (
                    position not in weak or weak[position].confidence < best.confidence
                ):
                    weak[position] = best
                continue
            if verdict.close:
                ambiguous.setdefault(position, verdict.close)
                continue
            paper = result[position]
            result[position] = apply_record(paper, index.records[best.record_index], best)
            matches[paper.id] = best
            pending.discard(position)
            ambiguous.pop(position, None)
            weak.pop(position, None)
    return EnrichReport(
        papers=result,
        matches=matches,
        unmatched=[result[p].id for p in sorted(pending) if p not in ambiguous],
        ambiguous=[(result[p].id, list(close)) for p, close in sorted(ambiguous.items())],
        weak={result[p].id: match for p, match in sorted(weak.items()) if p not in ambiguous},
    )


def apply_record(paper: Paper, record: Mapping[str, Any], match: Match) -> Paper:
    """The paper with what a matched record adds; nothing the list gave is replaced."""
    changes: dict[str, Any] = {}
    # Records come from formats.read_list, which has already made every value safe to show.
    title = _record_title(record)
    if paper.title_derived and title:
        changes["title"] = title
        changes["title_derived"] = False
    authors = _authors(record.get("authors"))
    if not paper.authors and authors:
        changes["authors"] = authors
    url = str(record.get("url") or "")
    if not paper.url and url:
        changes["url"] = url
    venue = str(record.get("venue") or "")
    if not paper.venue and venue:
        changes["venue"] = venue
    year = _year(record.get("year"))
    if paper.year is None and year is not None:
        changes["year"] = year
    added = {
        key: value
        for key, value in record.items()
        if key not in _NOT_EXTRA and key not in paper.extra and value not in (None, "")
    }
    if added:
        changes["extra"] = {**paper.extra, **added}
    if "title" in changes or "authors" in changes:
        changes["meta_source"] = f"matched:{match.source}@{match.confidence:.2f}"
        online = record.get("online")
        if isinstance(online, dict) and online.get("source"):
            # A record `enrich --online` wrote: the web source and its own match confidence.
            confidence = online.get("confidence")
            score = f"{confidence:.2f}" if isinstance(confidence, float | int) else "?"
            name = " ".join(str(part) for part in (online["source"], online.get("id")) if part)
            changes["meta_source"] = f"matched:{name}@{score}"
    return paper.with_changes(**changes) if changes else paper


def _authors(value: Any) -> tuple[str, ...]:
    # formats gives a list of names; a bare string is one name, never split here.
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple):
        return ()
    return tuple(str(item) for item in value if item)


def _year(value: Any) -> int | None:
    try:
        year = int(str(value).strip()[:4])
    except (TypeError, ValueError):
        return None
    return year if 1000 <= year <= 9999 else None

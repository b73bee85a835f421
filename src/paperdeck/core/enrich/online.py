"""Enrichment from the scholarly web: ask the sources, accept only what the matcher accepts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from paperdeck.core import config
from paperdeck.core.enrich.arxiv import Arxiv
from paperdeck.core.enrich.cache import AnswerCache
from paperdeck.core.enrich.candidates import Garbage, Record, Source
from paperdeck.core.enrich.client import GaveUp, PoliteClient, Unreachable
from paperdeck.core.enrich.crossref import Crossref
from paperdeck.core.enrich.matcher import (
    MIN_COMPARED_CHARS,
    WEAK_FLOOR,
    Match,
    apply_record,
    judge_records,
    normalise_abstract,
)
from paperdeck.core.enrich.openalex import OpenAlex
from paperdeck.core.enrich.query import queries
from paperdeck.core.enrich.semantic_scholar import SemanticScholar
from paperdeck.core.errors import UsageError
from paperdeck.core.model import Paper
from paperdeck.core.names import NAMES_FIELD
from paperdeck.core.text.wording import plural

SOURCE_NAMES = ("openalex", "arxiv", "s2", "crossref")
"""What `--source` takes, in the order the sources are asked."""
CANDIDATES_PER_QUERY = 10
STRIKES = 3
"""A source that fails this many papers in a row is not asked again in this run."""
_DETAIL_FIELDS = ("doi", "venue", "pages")
_RECORD_FIELDS = (
    "title",
    "authors",
    NAMES_FIELD,
    "year",
    "venue",
    "pages",
    "doi",
    "url",
    "openalex",
    "arxiv",
    "s2",
    "journal_ref",
)

Notice = Callable[[str], None]
Progress = Callable[[int, int, int], None]
"""progress(papers done, papers to ask, papers matched)."""


@dataclass
class OnlineReport:
    """What one online run did."""

    papers: list[Paper]
    """Every paper in order; matched ones carry the source's metadata."""
    matched: dict[str, Record] = field(default_factory=dict)
    """Paper id -> the record to keep for it (the sidecar line), in list order."""
    rejected: dict[str, Match] = field(default_factory=dict)
    """Paper id -> a look-alike a source proposed that the matcher refused."""
    unmatched: list[str] = field(default_factory=list)
    """Ids of papers asked about and not matched (rejected ones included)."""
    to_ask: int = 0
    answers_from_cache: int = 0
    requests: int = 0
    unreachable: Unreachable | None = None
    interrupted: bool = False
    dropped: list[str] = field(default_factory=list)
    """Sources not asked again after repeated failures."""
    unreadable: dict[str, int] = field(default_factory=dict)
    """Source label -> its answers that were not what its API documents (HTML, cut JSON,
    wrong types): the papers they were about count as unmatched, so the count is told."""

    def unreadable_summary(self) -> str | None:
        """How many answers could not be read, per source ("3 answers could not be read
        (OpenAlex 2, arXiv 1)"), or None when every answer could."""
        if not self.unreadable:
            return None
        count = sum(self.unreadable.values())
        sources = ", ".join(f"{label} {n}" for label, n in self.unreadable.items())
        return f"{plural(count, 'answer')} could not be read ({sources})"


def parse_source_names(text: str) -> list[str]:
    """`openalex,arxiv` -> ["openalex", "arxiv"] in the order given; UsageError on an unknown."""
    names = [part.strip().lower() for part in text.split(",") if part.strip()]
    unknown = [name for name in names if name not in SOURCE_NAMES]
    if unknown or not names:
        raise UsageError(
            f"--source: unknown source {', '.join(unknown) or repr(text)} "
            f"(choose from {','.join(SOURCE_NAMES)})"
        )
    return list(dict.fromkeys(names))


def make_sources(names: Sequence[str]) -> tuple[list[Source], Crossref | None]:
    """The search sources and the Crossref look-up `names` ask for, configured from the
    environment (base URLs, contact address, API keys)."""
    email = config.contact_email()
    built: dict[str, Source] = {
        "openalex": OpenAlex(config.base_url("openalex"), email, config.api_key("openalex")),
        "arxiv": Arxiv(config.base_url("arxiv")),
        "s2": SemanticScholar(config.base_url("s2"), config.api_key("s2")),
    }
    searches = [built[name] for name in names if name in built]
    crossref = Crossref(config.base_url("crossref"), email) if "crossref" in names else None
    return searches, crossref


def needs_metadata(paper: Paper) -> bool:
    """A paper with a derived title and enough abstract for the matcher to judge."""
    return (
        paper.meta_source == "derived"
        and len(normalise_abstract(paper.abstract)) >= MIN_COMPARED_CHARS
    )


def enrich_online(
    papers: Sequence[Paper],
    sources: Sequence[Source],
    crossref: Crossref | None,
    *,
    client: PoliteClient,
    cache: AnswerCache,
    refresh: bool = False,
    notice: Notice = lambda message: None,
    progress: Progress = lambda done, total, matched: None,
    stop: Callable[[], bool] = lambda: False,
) -> OnlineReport:
    """Ask the sources, in order, about each paper without metadata; keep what matches.

    Stops early, keeping every match made so far, when a host cannot be reached, on Ctrl+C,
    or when `stop()` turns true (checked between papers; the report is then `interrupted`).
    """
    report = OnlineReport(papers=list(papers))
    wanted = [at for at, paper in enumerate(papers) if needs_metadata(paper)]
    report.to_ask = len(wanted)
    words = queries([papers[at] for at in wanted])
    run = _Run(client, cache, refresh, notice, report)
    live = list(sources)
    done = 0
    try:
        for at in wanted:
            if stop():
                raise KeyboardInterrupt
            paper = papers[at]
            found: tuple[Record, Match] | None = None
            for source in list(live):
                found = run.ask(source, paper, words.get(paper.id, []))
                if run.strikes.get(source.name, 0) >= STRIKES:
                    live.remove(source)
                    report.dropped.append(source.label)
                    notice(f"{source.label} failed {STRIKES} papers in a row; not asked again")
                if found is not None:
                    break
            if found is None:
                report.unmatched.append(paper.id)
            else:
                record, match = found
                if crossref is not None and (
                    any(not record.get(key) for key in _DETAIL_FIELDS) or _unsplit_names(record)
                ):
                    run.add_details(crossref, record)
                report.matched[paper.id] = _kept_record(paper, record)
                report.papers[at] = apply_record(paper, report.matched[paper.id], match)
            done += 1
            progress(done, len(wanted), len(report.matched))
    except Unreachable as error:
        report.unreachable = error
    except KeyboardInterrupt:
        report.interrupted = True
    report.requests = client.requests
    return report


class _Run:
    """One run's asking: the cache first, then the source; failures counted per source."""

    def __init__(
        self,
        client: PoliteClient,
        cache: AnswerCache,
        refresh: bool,
        notice: Notice,
        report: OnlineReport,
    ) -> None:
        self.client = client
        self.cache = cache
        self.refresh = refresh
        self.notice = notice
        self.report = report
        self.strikes: dict[str, int] = {}

    def ask(
        self, source: Source, paper: Paper, attempts: list[list[str]]
    ) -> tuple[Record, Match] | None:
        cached = None if self.refresh else self.cache.get(source.name, paper.id)
        if isinstance(cached, list):
            self.report.answers_from_cache += 1
            candidates: list[Record] = [c for c in cached if isinstance(c, dict)]
            return self._judged(source, paper, candidates)
        candidates = []
        seen: set[str] = set()
        try:
            for query in attempts[: source.max_queries]:
                for record in source.search(self.client, query, CANDIDATES_PER_QUERY):
                    identifier = str(record["online"]["id"])
                    if identifier not in seen:
                        seen.add(identifier)
                        candidates.append(record)
                if judge_records(paper.abstract, candidates, source.label)[1]:
                    break
        except (Garbage, GaveUp) as error:
            if isinstance(error, Garbage):
                self._unreadable(source.label)
            self.strikes[source.name] = self.strikes.get(source.name, 0) + 1
            self.notice(f"{source.label}: {error} for #{paper.position} {paper.id}; skipped")
            return None
        self.strikes[source.name] = 0
        self.cache.put(source.name, paper.id, candidates)
        return self._judged(source, paper, candidates)

    def _judged(
        self, source: Source, paper: Paper, candidates: list[Record]
    ) -> tuple[Record, Match] | None:
        best, accepted = judge_records(paper.abstract, candidates, source.label)
        if best is None:
            return None
        if not accepted:
            if best.confidence >= WEAK_FLOOR:
                earlier = self.report.rejected.get(paper.id)
                if earlier is None or earlier.confidence < best.confidence:
                    self.report.rejected[paper.id] = best
            return None
        self.report.rejected.pop(paper.id, None)
        record = dict(candidates[best.record_index])
        record["online"] = {**record["online"], "confidence": round(best.confidence, 2)}
        return record, best

    def _unreadable(self, label: str) -> None:
        counts = self.report.unreadable
        counts[label] = counts.get(label, 0) + 1

    def add_details(self, crossref: Crossref, record: Record) -> None:
        title = str(record.get("title") or "")
        key = normalise_abstract(title)
        details = None if self.refresh else self.cache.get(crossref.name, key)
        if isinstance(details, dict):
            self.report.answers_from_cache += 1
        else:
            try:
                details = crossref.details(self.client, title, record.get("authors") or [])
            except (Garbage, GaveUp) as error:
                if isinstance(error, Garbage):
                    self._unreadable(crossref.label)
                self.notice(f"{crossref.label}: {error} for {title[:60]!r}; no DOI or pages")
                return
            details = details or {}
            self.cache.put(crossref.name, key, details)
        added = [name for name in _DETAIL_FIELDS if details.get(name) and not record.get(name)]
        for name in added:
            record[name] = details[name]
        if isinstance(details.get(NAMES_FIELD), list) and not record.get(NAMES_FIELD):
            record[NAMES_FIELD] = details[NAMES_FIELD]
        if added:
            record["online"] = {**record["online"], "details": crossref.label}


def _unsplit_names(record: Record) -> bool:
    """Whether a record names someone in three words or more with no parts: "Manuel Gomez
    Rodriguez" may be given names "Manuel Gomez" or family name "Gomez Rodriguez", which
    only a source giving parts (Crossref) can tell."""
    authors = record.get("authors")
    return (
        not record.get(NAMES_FIELD)
        and isinstance(authors, list)
        and any(isinstance(name, str) and len(name.split()) > 2 for name in authors)
    )


def _kept_record(paper: Paper, record: Record) -> Record:
    """The sidecar line for a matched paper: the paper's own abstract (so opening the list
    matches it exactly) and the source's metadata, identifiers and provenance."""
    kept: dict[str, Any] = {"id": paper.id}
    for key in _RECORD_FIELDS:
        value = record.get(key)
        if value not in (None, "", []):
            kept[key] = value
    kept["abstract"] = paper.abstract
    kept["online"] = record["online"]
    return kept

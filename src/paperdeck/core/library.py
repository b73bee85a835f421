"""Open paper lists into Paper objects: ids, derived titles, links and metadata sidecars."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from paperdeck.core.errors import LoadError, RefError
from paperdeck.core.formats import RawList, check_list_file
from paperdeck.core.formats.sidecar import sidecar_for
from paperdeck.core.ids import assign_ids, identity_text
from paperdeck.core.model import NO_EXTRA, Paper, titled_later
from paperdeck.core.papers import LoadedPapers, Papers
from paperdeck.core.plumbing.collector import collector_paused
from paperdeck.core.store import database
from paperdeck.core.store.columns import CHUNK_PAPERS, Damaged
from paperdeck.core.store.database import PATH_MARK, ListInfo, ListStore, StoreUnavailable
from paperdeck.core.store.key import list_key
from paperdeck.core.store.stored_papers import StoredPapers
from paperdeck.core.stored_abstracts import AbstractReader, ListPart
from paperdeck.core.text.sanitize import clean_line

if TYPE_CHECKING:
    from paperdeck.core.formats.plain_text import TextParagraphs
    from paperdeck.core.search.index_parts import Growing

NO_BLOBS: Mapping[str, bytes] = MappingProxyType({})
_KNOWN_KEYS = frozenset({"title", "authors", "abstract", "year", "venue", "url"})
_MADE_UP = (True, "yes", "true")
"""A record's `title_derived` that says its title is paperdeck's (JSON, then CSV)."""


@dataclass
class Library:
    """The papers of every opened list, in order, and what loading had to say."""

    papers: Papers
    lists: list[RawList]
    warnings: list[str] = field(default_factory=list)
    enrichment: list[Any] = field(default_factory=list)
    """One report per list that metadata was applied to (see paperdeck.core.enrich)."""
    keys: list[str | None] = field(default_factory=list)
    """Each list's key in the list store (None when it is not stored), in `lists` order: a
    client may keep what it derives from a list under it (ListStore.put_blob)."""
    counts: list[int] = field(default_factory=list)
    """Each list's number of papers, in `lists` order."""
    lazy: list[bool] = field(default_factory=list)
    """Whether each list's papers were loaded without their abstracts (each one "" until
    `with_abstract`), in `lists` order."""
    titles_later: bool = False
    """Whether some papers were made with their titles to be derived when first read (see
    `LoadOptions.titles_later`): an index built from them lacks those titles until
    `SearchIndex.titled_steps` (then a client sets it False)."""
    _reader: AbstractReader | None = field(default=None, init=False, repr=False, compare=False)
    store: ListStore | None = field(default=None, repr=False, compare=False)
    """The list store its papers are read from as they are asked for (a stored list reopened
    without abstracts), kept open while the library lives; else None."""
    _unkept: list[Callable[[Mapping[str, bytes]], list[str]]] = field(
        default_factory=list, init=False, repr=False, compare=False
    )

    def keep(self, beside: Mapping[str, bytes] = NO_BLOBS) -> list[str]:
        """Keep in the list store the lists read afresh by a load asked to keep them later
        (see `LoadOptions`); what went wrong, one line each. Once is enough.

        `beside`: bytes a client worked out from the papers (one per paper) by name, kept
        with the one list as `Papers.per_paper` keeps what it makes, for its reopen to read.

        Nothing is kept while `titles_later`: keeping would derive every title now (a reader
        quitting before its titles are made would wait for them); the list is read afresh on
        its next opening instead.
        """
        if self.titles_later:
            return []
        unkept, self._unkept = self._unkept, []
        # Only for the papers as kept: one list, not changed by metadata.
        whole = len(unkept) == 1 and self.index_key() is not None
        if not whole or any(len(data) != len(self.papers) for data in beside.values()):
            beside = NO_BLOBS
        return [f"paperdeck: {message}" for keep in unkept for message in keep(beside)]

    @property
    def abstracts_loaded(self) -> bool:
        """Whether every paper carries its abstract (no list was opened with `abstracts=False`)."""
        return not any(self.lazy)

    def index_key(self) -> str | None:
        """The list store key a search index of these papers is kept under: that of the one
        list opened, when it is stored and no metadata changed its papers; else None."""
        if len(self.keys) == 1 and not self.enrichment:
            return self.keys[0]
        return None

    def with_abstract(self, paper: Paper) -> Paper:
        """The paper with its abstract, read from the list store (or the list) when the library
        was opened without; the same object for the same paper while it is recently asked."""
        if paper.abstract or self.abstracts_loaded:
            return paper
        return self.abstract_reader().fill(paper)

    def with_abstracts(self, papers: Sequence[Paper]) -> list[Paper]:
        """`with_abstract` of each paper, in order, each stored chunk read once for all."""
        if self.abstracts_loaded:
            return list(papers)
        return self.abstract_reader().fill_many(papers)

    def abstract_reader(self) -> AbstractReader:
        """What reads this library's abstracts back (made on first use, then kept)."""
        if self._reader is None:
            parts = [
                ListPart(raw.name, raw.path, raw.format, key, count, lazy)
                for raw, key, count, lazy in zip(
                    self.lists, self.keys, self.counts, self.lazy, strict=True
                )
            ]
            self._reader = AbstractReader(parts)
        return self._reader


def methods_and_titles(abstracts: Sequence[str]) -> list[tuple[str | None, str, str | None]]:
    """`method_and_titles` of each abstract, in order, in this process (~45 µs each)."""
    # Imported when a list is read, not with the library: a stored list needs none of it.
    from paperdeck.core.titles.derive import method_and_titles

    return [method_and_titles(abstract) for abstract in abstracts]


def read_list(path: Path, fmt: str | None = None) -> RawList:
    """`formats.read_list`, its readers imported only when a list is read, not from the store."""
    from paperdeck.core.formats.reader import read_list as read

    return read(path, fmt)


def open_list(path: Path, fmt: str | None = None) -> tuple[RawList, TextParagraphs | None]:
    """`formats.reader.open_list`, imported as `read_list` is."""
    from paperdeck.core.formats.reader import open_list as read

    return read(path, fmt)


def papers_from_raw(
    raw: RawList,
    report: PartReport | None = None,
    grown: Growing | None = None,
    rest: TextParagraphs | None = None,
    *,
    titles_later: bool = False,
) -> list[Paper]:
    """Turn one list's records into papers: ids, method names, derived titles, links.

    Titles are derived a batch at a time, a long list's later parts by helper processes on
    spare cores meanwhile; `report` gets the papers made so far after each batch. `grown`
    gets their search postings as they are made. `rest`: what reads the records `raw` does
    not hold yet (and knows all their ids); then the first rows are reported before the
    rest of the list is decoded. With `titles_later` no title is derived now: each paper
    derives its own when first read (`model.TitledLater`), and `grown` indexes abstracts
    without them.
    """
    from paperdeck.core.titles.parts import TitleParts

    records = raw.records
    papers: list[Paper] = []
    if rest is None:
        ids = assign_ids([identity_text(record) for record in records])
    else:
        ids = rest.ids
        if report is not None:
            rest.read(_FIRST_ROWS)
            first = records[:_FIRST_ROWS]
            abstracts = [str(record.get("abstract") or "") for record in first]
            entries = [None] * len(first) if titles_later else _titled_here(abstracts)
            papers.extend(_papers_of(raw, first, ids, abstracts, entries, 0, titles_later))
            report(papers, rest.count)
            if grown is not None:
                grown.add(papers, 0)
        rest.read()
    abstracts = [str(record.get("abstract") or "") for record in records]
    # The helpers index their parts of a list of abstracts alone (the papers' other fields
    # come from the records here).
    plain = grown is not None and all(record.keys() == _ABSTRACT_ONLY for record in records)
    helped = grown if plain else None
    # Titles left for later and nothing to index: no helper has anything to do.
    titles = (
        None
        if titles_later and helped is None
        else TitleParts(abstracts, methods_and_titles, helped, titles=not titles_later)
    )
    with titles if titles is not None else contextlib.nullcontext():
        for start in range(len(papers), len(records), _BATCH):
            stop = min(start + _BATCH, len(records))
            entries = [None] * (stop - start) if titles is None else titles.derive(start, stop)
            papers.extend(
                _papers_of(raw, records[start:stop], ids, abstracts, entries, start, titles_later)
            )
            if report is not None:  # before they are indexed: the first rows show sooner
                report(papers, len(records))
            if grown is not None:
                here = [(start, stop)] if titles is None else titles.here(start, stop)
                for low, high in here:
                    grown.add(papers[low:high], low)
    if grown is not None:
        grown.done(len(papers))
    return papers


_BATCH = 1024
"""Papers titled between two progress reports (~50 ms)."""
_FIRST_ROWS = 256
"""Papers reported before the rest of a plain-text list is decoded: a few screens' worth."""


def _titled_here(abstracts: Sequence[str]) -> list[tuple[str | None, str, str | None] | None]:
    """`methods_and_titles`, None for an empty abstract."""
    found = iter(methods_and_titles([abstract for abstract in abstracts if abstract]))
    return [next(found) if abstract else None for abstract in abstracts]


_ABSTRACT_ONLY = {"abstract"}


def _papers_of(
    raw: RawList,
    records: list[dict[str, Any]],
    ids: list[str],
    abstracts: list[str],
    entries: Sequence[tuple[str | None, str, str | None] | None],
    offset: int,
    titles_later: bool = False,
) -> list[Paper]:
    from paperdeck.core.text.render import find_links
    from paperdeck.core.titles import UNTITLED

    venue = raw.venue or None
    papers: list[Paper] = []
    for position, (record, paper_id, abstract, entry) in enumerate(
        zip(
            records,
            ids[offset : offset + len(records)],
            abstracts[offset : offset + len(records)],
            entries,
            strict=True,
        ),
        start=offset + 1,
    ):
        method, derived, whole = entry if entry is not None else (None, UNTITLED, None)
        links = find_links(abstract) if "http" in abstract else ()
        # A plain-text list's record is its abstract alone: 100,000 of them skip the lookups.
        plain = len(record) == 1 and bool(abstract)
        # A reading list exported as JSON or CSV and opened again says which titles were made
        # up: they are made up again, never taken for the paper's real title.
        made_up = not plain and record.get("title_derived") in _MADE_UP
        given_title = "" if plain or made_up else str(record.get("title") or "").strip()
        authors = () if plain else tuple(str(a) for a in record.get("authors") or ())
        venue_of, year, url = (
            (venue, raw.year, None)
            if plain
            else (
                str(record.get("venue") or venue or "") or None,
                _as_year(record.get("year")) or raw.year,
                str(record.get("url") or "") or None,
            )
        )
        extra = NO_EXTRA if record.keys() <= _KNOWN_KEYS else _extra_fields(record)
        if titles_later and not given_title and abstract:
            papers.append(
                titled_later(
                    id=paper_id,
                    position=position,
                    list_name=raw.name,
                    title_derived=True,
                    abstract=abstract,
                    authors=authors,
                    venue=venue_of,
                    year=year,
                    url=url,
                    links=links,
                    extra=extra,
                    meta_source="derived",
                )
            )
            continue
        papers.append(
            Paper(
                id=paper_id,
                position=position,
                list_name=raw.name,
                title=given_title or derived,
                title_derived=not given_title,
                abstract=abstract,
                method=method,
                authors=authors,
                venue=venue_of,
                year=year,
                url=url,
                links=links,
                extra=extra,
                meta_source="list" if given_title else "derived",
                uncut_title=None if given_title else whole,
            )
        )
    return papers


def _extra_fields(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key not in _KNOWN_KEYS}


def _as_year(value: Any) -> int | None:
    if value is None:
        return None
    try:
        year = int(str(value).strip()[:4])
    except (TypeError, ValueError):
        return None
    return year if 1000 <= year <= 9999 else None


Progress = Callable[[list[Paper], int], None]
"""Told, on the loading thread, the papers loaded so far (in order: each call's list starts with
the previous one's) and how many the lists opened so far hold in all."""
PartReport = Callable[[list[Paper], int], None]
"""Told the papers of one list made so far and how many the list holds."""
REPORT_EVERY = 0.25
"""Seconds between two progress reports (the first one comes at once)."""


@dataclass(frozen=True)
class LoadOptions:
    """What a load does besides loading, for a reader that shows a big list as it loads."""

    progress: Progress | None = None
    """Handed the papers loaded so far, so a reader can show the first rows of a big list
    while the rest is read. A list matched against metadata is reported only whole (matching
    changes its papers)."""
    grown: Growing | None = None
    """Gets the search postings of the papers of one list read afresh (not from the list
    store) as they are made; of anything else, none (it is abandoned)."""
    keep_later: bool = False
    """A list read afresh is kept in the list store only by `Library.keep` (a reader
    searches first)."""
    before_read: Callable[[int], None] | None = None
    """Called with a list's size in bytes before it is read afresh (not from the list store):
    a reader starting meanwhile may hold a long read back until it has painted."""
    titles_later: bool = False
    """The made-up titles of a list read afresh are derived as each is first read, not while
    it loads (see `papers_from_raw`): a reader derives them after its search is ready."""


PLAIN_LOAD = LoadOptions()


class _Reporter:
    """Turns one list's partial papers into throttled reports of the whole library so far."""

    def __init__(self, progress: Progress, before: list[Paper]) -> None:
        self._progress = progress
        self._before = before
        self._last = -1.0

    def __call__(self, papers: list[Paper], total: int) -> None:
        now = time.monotonic()
        if now - self._last >= REPORT_EVERY:
            self._last = now
            self._progress([*self._before, *papers], len(self._before) + total)


def load_library(
    paths: Sequence[Path],
    fmt: str | None = None,
    meta: Iterable[Path] = (),
    use_sidecar: bool = True,
    *,
    abstracts: bool = True,
    options: LoadOptions = PLAIN_LOAD,
) -> Library:
    """Read every list, build its papers and apply metadata sources (explicit and sidecar).

    A list opened before comes from the list store as it was kept, unless its bytes changed.
    With `abstracts=False` a stored list's abstracts are left unread ("" until
    `Library.with_abstract`): listing needs only ids and titles. One stored list opened so
    (and no metadata) is read from the store as its papers are asked for. `options`: what
    the load reports as it goes, and whether it keeps what it read at once.
    """
    messages: list[str] = []
    paths = _once_each(paths, messages)
    store = ListStore.open(messages)
    library: Library | None = None
    try:
        with collector_paused():
            library = _load_library(
                paths, fmt, list(meta), use_sidecar, store, abstracts, messages, options
            )
    finally:
        if store is not None and (library is None or store is not library.store):
            store.close()
    library.warnings[:0] = [f"paperdeck: {message}" for message in messages]
    return library


def _once_each(paths: Sequence[Path], messages: list[str]) -> list[Path]:
    """The lists, each file once: one named twice (`a.txt a.txt`, or by a link) would give
    every paper twice, each with its own position."""
    seen: dict[tuple[int, int], Path] = {}
    once: list[Path] = []
    for path in paths:
        try:
            status = path.stat()
        except OSError:
            once.append(path)  # reading it says what is wrong
            continue
        first = seen.get((status.st_dev, status.st_ino))
        if first is None:
            seen[(status.st_dev, status.st_ino)] = path
            once.append(path)
        elif first == path:
            messages.append(f"{path}: named twice; read once")
        else:
            messages.append(f"{path}: the same file as {first}; read once")
    return once


def _load_library(
    paths: Sequence[Path],
    fmt: str | None,
    meta: list[Path],
    use_sidecar: bool,
    store: ListStore | None,
    abstracts: bool,
    messages: list[str],
    options: LoadOptions,
) -> Library:
    meta_sources = [read_list(path) for path in meta]
    loaded = LoadedPapers()
    library = Library(papers=loaded, lists=[])
    grown = options.grown
    if grown is not None and (len(paths) != 1 or meta_sources):
        grown.abandon()
        grown = None
    for path in paths:
        # A path that is not a file is refused by read_list, with its own message.
        sidecar = sidecar_for(path) if use_sidecar and path.is_file() else None
        sources = list(meta_sources)
        if sidecar is not None:
            try:
                sources.append(read_list(sidecar))
            except LoadError as error:
                # The user named the list, not the file found beside it: say what it is to
                # them and how to open the list without it.
                raise LoadError(
                    f"{error} (found beside {path.name} as its metadata; "
                    "--no-meta opens the list without it)"
                ) from None
        # Matching against metadata reads the abstracts.
        with_abstracts = abstracts or bool(sources)
        progress = options.progress
        report = _Reporter(progress, loaded) if progress and not sources else None
        # One list is all the library has: its papers may stay in the store till asked for.
        lazy = not with_abstracts and len(paths) == 1
        if sources and grown is not None:
            grown.abandon()  # matching changes the papers
            grown = None
        raw, papers, key, store = _open_list(
            path,
            fmt,
            store,
            with_abstracts,
            messages,
            report,
            grown,
            library if options.keep_later else None,
            lazy=lazy,
            before_read=options.before_read,
            titles_later=options.titles_later,
        )
        library.lazy.append(not with_abstracts and not raw.records)
        # Read afresh (not from the store: its papers have their titles).
        library.titles_later |= options.titles_later and bool(raw.records)
        library.lists.append(raw)
        library.keys.append(key)
        library.counts.append(len(papers))
        library.warnings.extend(raw.warnings)
        if sources:
            papers = _enrich(papers, sources, library)
        if isinstance(papers, StoredPapers):
            library.papers, library.store = papers, papers.store
        else:
            loaded.extend(papers)
    for source in meta_sources:
        library.warnings.extend(source.warnings)
    return library


def _open_list(
    path: Path,
    fmt: str | None,
    store: ListStore | None,
    abstracts: bool,
    messages: list[str],
    report: PartReport | None = None,
    grown: Growing | None = None,
    keeping: Library | None = None,
    *,
    lazy: bool = False,
    before_read: Callable[[int], None] | None = None,
    titles_later: bool = False,
) -> tuple[RawList, Sequence[Paper], str | None, ListStore | None]:
    """One list's papers, from the store when it keeps this list's bytes, else read and kept
    (by `keeping.keep` later, when given); `lazy`: a stored list's papers as StoredPapers
    (read from the store as asked for); `before_read`: see `LoadOptions`.

    Returns the store to go on with: None once it has failed.
    """
    check_list_file(path)  # before keying reads it: a pipe, a device or gigabytes are refused
    key = list_key(path, fmt, store) if store is not None else None
    name = clean_line(path.stem)
    if store is not None and key is not None:
        try:
            found = store.info(key)
            if found is not None:
                count, info = found
                papers: Sequence[Paper]
                if lazy:
                    papers = StoredPapers(store, key, count, name, stand_ins=True)
                else:
                    papers = store.papers(key, count, name, with_abstracts=abstracts, report=report)
                warnings = [w.replace(PATH_MARK, str(path)) for w in info.warnings]
                raw = RawList(
                    path, name, info.format, info.header, info.venue, info.year, [], warnings
                )
                return raw, papers, key, store
        except Damaged:
            messages.append(f"{path}: its copy in the list store was damaged; read again")
        except StoreUnavailable as error:
            store = _given_up(store, error, messages)
    if before_read is not None:
        before_read(path.stat().st_size)
    raw, rest = open_list(path, fmt)
    papers = papers_from_raw(raw, report, grown, rest, titles_later=titles_later)
    if store is None or key is None:
        return raw, papers, None, store
    info = ListInfo(
        raw.format,
        raw.header,
        raw.venue,
        raw.year,
        [w.replace(str(path), PATH_MARK) for w in raw.warnings],
    )
    if keeping is not None:
        stored_as = key
        keeping._unkept.append(lambda beside: _keep(path, fmt, stored_as, info, papers, beside))
        return raw, papers, key, store
    if list_key(path, fmt, store) != key:
        return raw, papers, None, store  # it changed while it was read
    try:
        store.save(key, info, papers)
    except ValueError:
        key = None  # a value the store cannot hold: this list is read each time
    except StoreUnavailable as error:
        store = _given_up(store, error, messages)
        key = None
    return raw, papers, key, store


def _keep(
    path: Path,
    fmt: str | None,
    key: str,
    info: ListInfo,
    papers: list[Paper],
    beside: Mapping[str, bytes],
) -> list[str]:
    """Keep a list read afresh in the list store, with `beside` (see Library.keep), unless it
    changed since; what went wrong."""
    messages: list[str] = []
    store = ListStore.open(messages)
    if store is None:
        return messages
    try:
        if list_key(path, fmt, store) == key:
            store.save(key, info, papers)
            for name, data in beside.items():
                store.put_blob(key, name, data)
    except ValueError:
        pass  # a value the store cannot hold: this list is read each time
    except StoreUnavailable as error:
        store = _given_up(store, error, messages)
    finally:
        if store is not None:
            store.close()
    return messages


def _given_up(store: ListStore, error: StoreUnavailable, messages: list[str]) -> ListStore | None:
    """Close a failed store, say why in one line, and go on without it (None)."""
    store.close()
    if isinstance(error, database.StoreDamaged):
        database.discard(store.path)
        messages.append(f"list store {store.path} was damaged ({error}); started afresh")
    else:
        messages.append(f"list store {store.path} unavailable ({error}); lists read without it")
    return None


def _enrich(papers: Sequence[Paper], sources: list[RawList], library: Library) -> list[Paper]:
    from paperdeck.core.enrich import enrich_papers

    report = enrich_papers(papers, sources)
    library.enrichment.append(report)
    return list(report.papers)


def resolve_ref(papers: Sequence[Paper], ref: str) -> Paper:
    """A paper by full id, unique id prefix (6+ characters when all digits) or 1-based position."""
    return papers[resolve_index([paper.id for paper in papers], ref)]


def resolve_index(ids: Sequence[str], ref: str) -> int:
    """Where `resolve_ref` finds its paper, among papers with these ids in order."""
    text = ref.strip().lower()
    if not text:
        raise RefError("an empty paper reference")
    with contextlib.suppress(ValueError):
        return ids.index(text)
    # A short all-digit ref is a position; a long one is first tried as an id prefix.
    digits = text.isascii() and text.isdigit()
    prefixed = [] if digits and len(text) < 6 else _by_prefix(ids, text)
    if len(prefixed) == 1:
        return prefixed[0]
    if digits and not prefixed:
        position = int(text) if len(text) <= 18 else 0
        if 1 <= position <= len(ids):
            return position - 1
        raise RefError(f"{ref}: no paper at that position (1..{len(ids)})")
    if not prefixed and text[:1] == "-" and text[1:].isascii() and text[1:].isdigit():
        raise RefError(f"{ref}: no paper at that position (1..{len(ids)})")
    if not prefixed:
        raise RefError(f"{ref}: no paper with that id or position")
    raise RefError(f"{ref}: ambiguous id prefix ({len(prefixed)} papers match; type more of it)")


def _by_prefix(ids: Sequence[str], prefix: str) -> list[int]:
    return [at for at, paper_id in enumerate(ids) if paper_id.startswith(prefix)]


def load_paper(
    paths: Sequence[Path],
    ref: str,
    fmt: str | None = None,
    meta: Iterable[Path] = (),
    use_sidecar: bool = True,
) -> tuple[Paper, list[str]]:
    """One paper by reference (see resolve_ref) and the loading warnings.

    When every list is stored and none takes metadata, only the ids and the paper's own chunk
    are read; otherwise the lists are loaded whole.
    """
    meta = list(meta)
    messages: list[str] = []
    paths = _once_each(paths, messages)
    store = None if meta else ListStore.open(messages)
    try:
        found = _stored_paper(paths, ref, fmt, use_sidecar, store) if store else None
    except Damaged:
        messages.append("a list's copy in the list store was damaged; read again")
        found = None
    except StoreUnavailable as error:
        messages.append(f"list store unavailable ({error}); lists read without it")
        found = None
    finally:
        if store is not None:
            store.close()
    said = [f"paperdeck: {message}" for message in messages]
    if found is not None:
        return found[0], said + found[1]
    library = load_library(paths, fmt, meta, use_sidecar, abstracts=False)
    paper = library.with_abstract(resolve_ref(library.papers, ref))
    # Loading the lists opens the store again: an unusable store is told once, not twice.
    return paper, said + [warning for warning in library.warnings if warning not in said]


def _stored_paper(
    paths: Sequence[Path], ref: str, fmt: str | None, use_sidecar: bool, store: ListStore
) -> tuple[Paper, list[str]] | None:
    parts: list[tuple[Path, str, int]] = []
    ids: list[str] = []
    warnings: list[str] = []
    for path in paths:
        if not path.is_file() or (use_sidecar and sidecar_for(path) is not None):
            return None
        key = list_key(path, fmt, store)
        found = store.info(key) if key is not None else None
        if key is None or found is None:
            return None
        count, info = found
        warnings.extend(w.replace(PATH_MARK, str(path)) for w in info.warnings)
        parts.append((path, key, len(ids)))
        ids.extend(store.ids(key, count))
    at = resolve_index(ids, ref)
    path, key, start = next(part for part in reversed(parts) if part[2] <= at)
    local = at - start
    chunk = store.chunk(key, local // CHUNK_PAPERS, clean_line(path.stem))
    return chunk[local % CHUNK_PAPERS].with_changes(position=local + 1), warnings

"""A local stand-in for OpenAlex, arXiv, Semantic Scholar and Crossref on 127.0.0.1.

It answers from a list of records (title, authors, abstract, year, venue, pages, doi) with the
response shapes each API documents, and can be told to fail the next requests (429 with
Retry-After, 500, a slow answer, a cut-short body). Tests and bench_enrich point paperdeck's
PAPERDECK_*_URL variables at it.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape

from paperdeck.core.text.fold import fold

APIS = ("openalex", "arxiv", "s2", "crossref")
ENV_NAMES = {
    "openalex": "PAPERDECK_OPENALEX_URL",
    "arxiv": "PAPERDECK_ARXIV_URL",
    "s2": "PAPERDECK_S2_URL",
    "crossref": "PAPERDECK_CROSSREF_URL",
}


@dataclass
class Fault:
    """One scripted answer given instead of the real one."""

    status: int = 500
    body: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0
    """Seconds to wait before answering (a client timeout test)."""


@dataclass
class Seen:
    """One request the server answered."""

    api: str
    path: str
    params: dict[str, str]
    headers: dict[str, str]


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def _words(text: str) -> list[str]:
    return [_stem(word) for word in fold(text).split()]


class ScholarlyServer:
    """The four APIs over `records`; `holds` limits which APIs know a record (default all)."""

    def __init__(self, records: Sequence[Mapping[str, Any]], *, page_cap: int = 200) -> None:
        self.records = [dict(record) for record in records]
        self.page_cap = page_cap
        self.faults: dict[str, list[Fault]] = {api: [] for api in APIS}
        self.seen: list[Seen] = []
        self.delay = 0.0
        """Seconds every answer waits (a slow network, for watching progress)."""
        self._lock = threading.Lock()
        self._index: dict[str, set[int]] = {}
        self._counts: list[Counter[str]] = []
        for number, record in enumerate(self.records):
            words = _words(f"{record.get('title', '')} {record.get('abstract', '')}")
            self._counts.append(Counter(words))
            for word in set(words):
                self._index.setdefault(word, set()).add(number)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    # -- running ---------------------------------------------------------------------------

    def __enter__(self) -> ScholarlyServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def base_url(self, api: str) -> str:
        return f"http://127.0.0.1:{self.port}/{api}"

    def env(self) -> dict[str, str]:
        """The environment that points paperdeck at this server, pacing off."""
        return {
            **{ENV_NAMES[api]: self.base_url(api) for api in APIS},
            "PAPERDECK_PACING": "off",
        }

    def fail_next(self, api: str, *faults: Fault) -> None:
        """Answer the next requests to `api` with these faults, in order."""
        with self._lock:
            self.faults[api].extend(faults)

    def requests_to(self, api: str) -> list[Seen]:
        return [seen for seen in self.seen if seen.api == api]

    def holds(self, number: int, api: str) -> bool:
        apis = self.records[number].get("_apis")
        return apis is None or api in apis

    # -- searching -------------------------------------------------------------------------

    def search(self, api: str, text: str, *, every_word: bool) -> list[int]:
        """Records holding every word (or, for a relevance search, at least half of them)."""
        terms = [word for word in _words(text) if word not in {"and", "or", "not", "all"}]
        if not terms:
            return []
        hits: Counter[int] = Counter()
        for term in set(terms):
            hits.update(self._index.get(term, ()))
        needed = len(set(terms)) if every_word else max(1, len(set(terms)) // 2)
        found = [number for number, count in hits.items() if count >= needed]
        found = [number for number in found if self.holds(number, api)]
        score = {n: sum(self._counts[n][t] for t in set(terms)) + 100 * hits[n] for n in found}
        return sorted(found, key=lambda number: (-score[number], number))

    # -- answers ---------------------------------------------------------------------------

    def answer(self, api: str, path: str, params: dict[str, str]) -> tuple[int, str, str]:
        """(status, content type, body) for one request."""
        if api == "openalex" and path == "/works":
            return 200, "application/json", self._openalex(params)
        if api == "arxiv" and path == "/query":
            return 200, "application/atom+xml", self._arxiv(params)
        if api == "s2" and path == "/paper/search":
            return 200, "application/json", self._s2(params)
        if api == "crossref" and path == "/works":
            return 200, "application/json", self._crossref(params)
        return 404, "application/json", json.dumps({"error": "not found", "path": path})

    def _openalex(self, params: dict[str, str]) -> str:
        query = params.get("search", "")
        for part in params.get("filter", "").split(","):
            name, _, value = part.partition(":")
            if name in {"title_and_abstract.search", "default.search"}:
                query = f"{query} {value}"
        per_page = int(params.get("per-page") or params.get("per_page") or 25)
        per_page = max(1, min(per_page, self.page_cap, 200))
        page = max(1, int(params.get("page") or 1))
        found = self.search("openalex", query, every_word=True)
        chosen = found[(page - 1) * per_page : page * per_page]
        select = [name for name in params.get("select", "").split(",") if name]
        works = [_select(openalex_work(n, self.records[n]), select) for n in chosen]
        return json.dumps(
            {
                "meta": {
                    "count": len(found),
                    "db_response_time_ms": 3,
                    "page": page,
                    "per_page": per_page,
                    "groups_count": None,
                },
                "results": works,
                "group_by": [],
            }
        )

    def _arxiv(self, params: dict[str, str]) -> str:
        query = params.get("search_query", "").replace("all:", " ").replace("abs:", " ")
        start = int(params.get("start") or 0)
        size = max(0, min(int(params.get("max_results") or 10), self.page_cap))
        found = self.search("arxiv", query, every_word=True)
        entries = "".join(arxiv_entry(n, self.records[n]) for n in found[start : start + size])
        return (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<feed xmlns="http://www.w3.org/2005/Atom" '
            'xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
            'xmlns:arxiv="http://arxiv.org/schemas/atom">\n'
            f'  <link href="http://arxiv.org/api/query" rel="self" type="application/atom+xml"/>\n'
            f"  <title>ArXiv Query: {escape(params.get('search_query', ''))}</title>\n"
            "  <id>http://arxiv.org/api/cHxbiOdZaP56ODnBPIenZhzg5f8</id>\n"
            "  <updated>2026-12-03T00:00:00-05:00</updated>\n"
            f"  <opensearch:totalResults>{len(found)}</opensearch:totalResults>\n"
            f"  <opensearch:startIndex>{start}</opensearch:startIndex>\n"
            f"  <opensearch:itemsPerPage>{size}</opensearch:itemsPerPage>\n"
            f"{entries}</feed>\n"
        )

    def _s2(self, params: dict[str, str]) -> str:
        offset = int(params.get("offset") or 0)
        limit = max(1, min(int(params.get("limit") or 10), self.page_cap, 100))
        found = self.search("s2", params.get("query", ""), every_word=False)
        chosen = found[offset : offset + limit]
        body: dict[str, Any] = {
            "total": len(found),
            "offset": offset,
            "data": [s2_paper(n, self.records[n]) for n in chosen],
        }
        if offset + len(chosen) < len(found):
            body["next"] = offset + len(chosen)
        return json.dumps(body)

    def _crossref(self, params: dict[str, str]) -> str:
        rows = max(1, min(int(params.get("rows") or 20), 1000))
        query = params.get("query.bibliographic", "")
        found = [n for n in self.search("crossref", query, every_word=False) if n >= 0]
        items = [crossref_item(n, self.records[n]) for n in found[:rows]]
        return json.dumps(
            {
                "status": "ok",
                "message-type": "work-list",
                "message-version": "1.0.0",
                "message": {
                    "facets": {},
                    "total-results": len(found),
                    "items": items,
                    "items-per-page": rows,
                    "query": {"start-index": 0, "search-terms": query},
                },
            }
        )

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body go out as separate writes: Nagle's algorithm would hold the
            # body back until the client's delayed ACK (~40 ms a request).
            disable_nagle_algorithm = True

            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                api, _, rest = parts.path.lstrip("/").partition("/")
                params = {key: values[0] for key, values in parse_qs(parts.query).items()}
                with server._lock:
                    server.seen.append(Seen(api, "/" + rest, params, dict(self.headers.items())))
                    queue = server.faults.get(api)
                    fault = queue.pop(0) if queue else None
                if fault is not None:
                    time.sleep(fault.delay)
                    self._send(fault.status, "application/json", fault.body, fault.headers)
                    return
                time.sleep(server.delay)
                status, kind, body = server.answer(api, "/" + rest, params)
                self._send(status, kind, body, {})

            def _send(self, status: int, kind: str, body: str, headers: Mapping[str, str]) -> None:
                data = body.encode("utf-8")
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", f"{kind}; charset=utf-8")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, format: str, *args: Any) -> None:
                return

        return Handler


def _select(work: dict[str, Any], select: Sequence[str]) -> dict[str, Any]:
    return {key: value for key, value in work.items() if key in select} if select else work


def inverted_index(abstract: str) -> dict[str, list[int]]:
    """An abstract as OpenAlex gives it: each whitespace-separated token -> its positions."""
    index: dict[str, list[int]] = {}
    for position, token in enumerate(abstract.split()):
        index.setdefault(token, []).append(position)
    return index


def _authors(record: Mapping[str, Any]) -> list[str]:
    authors = record.get("authors") or []
    return [str(name) for name in authors] if isinstance(authors, list) else [str(authors)]


def _doi(number: int, record: Mapping[str, Any]) -> str:
    return str(record.get("doi") or f"10.5555/paperdeck.test.{number}")


def _pages(record: Mapping[str, Any]) -> tuple[str | None, str | None]:
    pages = str(record.get("pages") or "")
    if not pages:
        return None, None
    first, _, last = pages.replace("--", "-").partition("-")
    return first or None, last or None


def openalex_work(number: int, record: Mapping[str, Any]) -> dict[str, Any]:
    """A Work object as GET /works returns it."""
    first, last = _pages(record)
    venue = record.get("venue")
    return {
        "id": f"https://openalex.org/W{4100000000 + number}",
        "doi": f"https://doi.org/{record['doi']}" if record.get("doi") else None,
        "title": record.get("title"),
        "display_name": record.get("title"),
        "publication_year": record.get("year"),
        "type": "article",
        "authorships": [
            {
                "author_position": "first" if at == 0 else "middle",
                "author": {"id": f"https://openalex.org/A{5000000 + at}", "display_name": name},
                "institutions": [],
                "raw_author_name": name,
            }
            for at, name in enumerate(_authors(record))
        ],
        "primary_location": {
            "is_oa": True,
            "landing_page_url": record.get("url"),
            "pdf_url": None,
            "source": (
                {
                    "id": "https://openalex.org/S4306420609",
                    "display_name": venue,
                    "type": "conference",
                }
                if venue
                else None
            ),
        },
        "biblio": {"volume": None, "issue": None, "first_page": first, "last_page": last},
        "abstract_inverted_index": inverted_index(str(record.get("abstract") or "")) or None,
    }


def arxiv_entry(number: int, record: Mapping[str, Any]) -> str:
    """One <entry> of an arXiv Atom feed."""
    arxiv_id = f"2605.{10000 + number:05d}"
    authors = "".join(
        f"    <author>\n      <name>{escape(name)}</name>\n    </author>\n"
        for name in _authors(record)
    )
    year = record.get("year") or 2026
    doi = f"    <arxiv:doi>{escape(str(record['doi']))}</arxiv:doi>\n" if record.get("doi") else ""
    return (
        "  <entry>\n"
        f"    <id>http://arxiv.org/abs/{arxiv_id}v1</id>\n"
        f"    <updated>{year}-05-20T17:59:59Z</updated>\n"
        f"    <published>{year}-05-20T17:59:59Z</published>\n"
        f"    <title>{escape(str(record.get('title') or ''))}</title>\n"
        f"    <summary>  {escape(str(record.get('abstract') or ''))}\n</summary>\n"
        f"{authors}{doi}"
        f'    <link href="http://arxiv.org/abs/{arxiv_id}v1" rel="alternate" type="text/html"/>\n'
        f'    <link title="pdf" href="http://arxiv.org/pdf/{arxiv_id}v1" rel="related" '
        'type="application/pdf"/>\n'
        '    <arxiv:primary_category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>\n'
        '    <category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>\n'
        "  </entry>\n"
    )


def s2_paper(number: int, record: Mapping[str, Any]) -> dict[str, Any]:
    """A paper object as /graph/v1/paper/search returns it with the fields paperdeck asks for."""
    paper_id = hashlib.sha1(f"paper {number}".encode()).hexdigest()
    ids: dict[str, Any] = {"CorpusId": 270000000 + number}
    if record.get("doi"):
        ids["DOI"] = record["doi"]
    return {
        "paperId": paper_id,
        "externalIds": ids,
        "url": f"https://www.semanticscholar.org/paper/{paper_id}",
        "title": record.get("title"),
        "abstract": record.get("abstract"),
        "venue": record.get("venue") or "",
        "year": record.get("year"),
        "authors": [
            {"authorId": str(1000 + at), "name": name} for at, name in enumerate(_authors(record))
        ],
    }


def crossref_item(number: int, record: Mapping[str, Any]) -> dict[str, Any]:
    """A work item as Crossref's /works returns it."""
    people: list[dict[str, Any]] = []
    # A record's "_crossref_authors" ({"given", "family"} each) are its names in the parts
    # Crossref gives where the flat names the other APIs give hide them ("Gomez Rodriguez").
    split = record.get("_crossref_authors") or [
        dict(zip(("given", "family"), name.rpartition(" ")[::2], strict=True))
        for name in _authors(record)
    ]
    for at, parts in enumerate(split):
        given, family = parts["given"], parts["family"]
        people.append(
            {
                "given": given,
                "family": family or given,
                "sequence": "first" if at == 0 else "additional",
                "affiliation": [],
            }
        )
    first, last = _pages(record)
    item: dict[str, Any] = {
        "DOI": _doi(number, record),
        "title": [record.get("title")],
        "container-title": [record.get("venue")] if record.get("venue") else [],
        "author": people,
        "type": "proceedings-article",
        "score": 40.0,
    }
    if first:
        item["page"] = f"{first}-{last}" if last else first
    return item


def records_from(lines: Iterable[str]) -> list[dict[str, Any]]:
    """Records from JSON Lines text."""
    return [json.loads(line) for line in lines if line.strip()]

"""Online enrichment against a real HTTP server on 127.0.0.1 answering as the APIs document."""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from benchmarks.scholarly_server import Fault, ScholarlyServer, inverted_index

from paperdeck.core.enrich.arxiv import Arxiv
from paperdeck.core.enrich.cache import AnswerCache
from paperdeck.core.enrich.candidates import Garbage, Source
from paperdeck.core.enrich.client import GaveUp, PoliteClient, Unreachable, retry_after
from paperdeck.core.enrich.crossref import Crossref
from paperdeck.core.enrich.online import OnlineReport, enrich_online, parse_source_names
from paperdeck.core.enrich.openalex import OpenAlex, rebuild_abstract
from paperdeck.core.enrich.query import queries
from paperdeck.core.enrich.semantic_scholar import SemanticScholar
from paperdeck.core.enrich.sidecar import add_to_sidecar
from paperdeck.core.errors import UsageError
from paperdeck.core.formats import read_list
from paperdeck.core.library import load_library, papers_from_raw
from paperdeck.core.model import Paper
from paperdeck.core.resources import seeds_dir

SEED_META = seeds_dir() / "icml2026.meta.jsonl"


def seed_records() -> list[dict[str, Any]]:
    return [json.loads(line) for line in SEED_META.read_text(encoding="utf-8").splitlines()]


def listing(tmp_path: Path, abstracts: list[str], name: str = "talks.txt") -> Path:
    path = tmp_path / name
    path.write_text("Talks 2026\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    return path


def papers_of(path: Path) -> list[Paper]:
    return papers_from_raw(read_list(path))


class Sleeps(list[float]):
    """A client's sleep that records instead of waiting."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def server() -> Iterator[ScholarlyServer]:
    with ScholarlyServer(seed_records()) as running:
        yield running


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def notices() -> list[str]:
    return []


@pytest.fixture
def client(sleeps: Sleeps, notices: list[str]) -> Iterator[PoliteClient]:
    with PoliteClient(pacing=False, notice=notices.append, sleep=sleeps) as made:
        yield made


def run(
    papers: list[Paper],
    sources: list[Source],
    client: PoliteClient,
    cache: AnswerCache,
    crossref: Crossref | None = None,
    **options: Any,
) -> OnlineReport:
    options.setdefault("notice", client.notice)
    return enrich_online(papers, sources, crossref, client=client, cache=cache, **options)


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[AnswerCache]:
    made = AnswerCache(tmp_path / "cache")
    yield made
    made.close()


# -- each source, as its API documents it -------------------------------------------------


def test_openalex_is_asked_with_the_documented_parameters_and_abstracts_rebuilt(
    server: ScholarlyServer, client: PoliteClient
) -> None:
    record = seed_records()[3]
    source = OpenAlex(server.base_url("openalex"), email="me@example.org", api_key="k123")
    [found] = source.search(client, ["bubblespec", "speculative", "rollouts"], 10)
    [seen] = server.requests_to("openalex")
    assert seen.path == "/works"
    assert seen.params["filter"] == "title_and_abstract.search:bubblespec speculative rollouts"
    assert seen.params["per-page"] == "10" and seen.params["page"] == "1"
    assert seen.params["mailto"] == "me@example.org" and seen.params["api_key"] == "k123"
    assert "abstract_inverted_index" in seen.params["select"].split(",")
    assert seen.headers["User-Agent"].startswith("paperdeck/")
    assert found["title"] == record["title"]
    assert found["authors"] == record["authors"]
    assert found["abstract"] == " ".join(record["abstract"].split())
    assert found["pages"] == "141950--141964"
    assert found["online"] == {"source": "OpenAlex", "id": "W4100000003"}


def test_an_inverted_index_is_rebuilt_in_word_order() -> None:
    text = "we study the study of the graphs , with graphs"
    assert rebuild_abstract(inverted_index(text)) == text
    assert rebuild_abstract({"a": [1], "b": [0]}) == "b a"
    # Not an inverted index: no abstract, rather than a made-up one.
    assert rebuild_abstract({"a": ["x"]}) == ""
    assert rebuild_abstract({"a": [10**9]}) == ""
    assert rebuild_abstract(None) == ""


@pytest.mark.parametrize("api", ["openalex", "arxiv", "s2"])
def test_each_source_follows_pages_when_the_server_gives_short_ones(
    api: str, client: PoliteClient
) -> None:
    records = seed_records()
    with ScholarlyServer(records, page_cap=2) as server:
        source: Source = {
            "openalex": OpenAlex(server.base_url(api)),
            "arxiv": Arxiv(server.base_url(api)),
            "s2": SemanticScholar(server.base_url(api)),
        }[api]
        found = source.search(client, ["model"], 5)
        expected = server.search(api, "model", every_word=api != "s2")
    assert len(expected) >= 5
    assert [record["title"] for record in found] == [records[n]["title"] for n in expected[:5]]
    assert len(server.requests_to(api)) == 3  # pages of 2, 2 and 1


def test_arxiv_entries_become_candidates_with_their_ids(
    server: ScholarlyServer, client: PoliteClient
) -> None:
    record = seed_records()[4]
    [found] = Arxiv(server.base_url("arxiv")).search(client, ["falsifying", "pathways"], 10)
    [seen] = server.requests_to("arxiv")
    assert seen.path == "/query"
    assert seen.params["search_query"] == "all:falsifying AND all:pathways"
    assert found["title"] == record["title"] and found["authors"] == record["authors"]
    assert found["arxiv"] == "https://arxiv.org/abs/2605.10004"
    assert found["online"]["id"] == "2605.10004"
    assert found["year"] == 2026


def test_semantic_scholar_sends_its_key_as_a_header(
    server: ScholarlyServer, client: PoliteClient
) -> None:
    source = SemanticScholar(server.base_url("s2"), api_key="s2-key")
    found = source.search(client, ["falsifying", "pathways", "rare"], 3)
    [seen, *_] = server.requests_to("s2")
    assert seen.headers["x-api-key"] == "s2-key"
    assert "abstract" in seen.params["fields"].split(",")
    assert found[0]["title"] == seed_records()[4]["title"]


@pytest.mark.parametrize(
    ("api", "body", "message"),
    [
        ("openalex", '{"meta": {"count": 3}, "results": [{"id": "W1", "ti', "truncated"),
        ("openalex", '{"meta": {}, "results": "none"}', "no results list"),
        ("openalex", "[1, 2]", "not a JSON object"),
        ("s2", '{"total": 1, "data": {"x": 1}}', "no data list"),
        ("arxiv", "<feed><entry>", "not an Atom feed"),
        ("arxiv", '<!DOCTYPE x [<!ENTITY a "aaaa">]><feed>&a;</feed>', "not an Atom feed"),
        ("crossref", '{"status": "ok", "message": {"items": 4}}', "no items list"),
    ],
)
def test_garbage_answers_raise_garbage(
    api: str, body: str, message: str, server: ScholarlyServer, client: PoliteClient
) -> None:
    server.fail_next(api, Fault(200, body))
    with pytest.raises(Garbage, match=message):
        if api == "crossref":
            Crossref(server.base_url(api)).details(client, "A title", [])
        else:
            source: Source = {
                "openalex": OpenAlex(server.base_url(api)),
                "arxiv": Arxiv(server.base_url(api)),
                "s2": SemanticScholar(server.base_url(api)),
            }[api]
            source.search(client, ["model"], 5)


def test_an_arxiv_error_feed_is_garbage(server: ScholarlyServer, client: PoliteClient) -> None:
    error_feed = (
        '<feed xmlns="http://www.w3.org/2005/Atom"><entry>'
        "<id>http://arxiv.org/api/errors#incorrect_id_format_for_1234</id>"
        "<title>Error</title><summary>incorrect id format for 1234</summary></entry></feed>"
    )
    server.fail_next("arxiv", Fault(200, error_feed))
    with pytest.raises(Garbage, match="incorrect id format"):
        Arxiv(server.base_url("arxiv")).search(client, ["model"], 5)


# -- the client: rate limits, failures, timeouts, no network ------------------------------


def test_a_429_waits_as_long_as_retry_after_says_and_says_so(
    server: ScholarlyServer, client: PoliteClient, sleeps: Sleeps, notices: list[str]
) -> None:
    server.fail_next("openalex", Fault(429, '{"error": "slow down"}', {"Retry-After": "7"}))
    found = OpenAlex(server.base_url("openalex")).search(client, ["bubblespec"], 5)
    assert len(found) == 1
    assert sleeps == [7.0]
    assert notices == ["OpenAlex rate-limited; waiting 7 s as it asks"]
    assert client.requests == 2


def test_a_real_retry_after_wait_happens(server: ScholarlyServer, notices: list[str]) -> None:
    server.fail_next("s2", Fault(429, "", {"Retry-After": "1"}))
    with PoliteClient(pacing=False, notice=notices.append) as client:
        started = time.monotonic()
        SemanticScholar(server.base_url("s2")).search(client, ["bubblespec"], 5)
        waited = time.monotonic() - started
    first, second = server.requests_to("s2")
    assert waited >= 1.0
    assert notices == ["Semantic Scholar rate-limited; waiting 1 s as it asks"]
    assert first.params == second.params


def test_retry_after_as_an_http_date() -> None:
    assert retry_after("120") == 120.0
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # in the past: no wait
    assert retry_after("soon") is None and retry_after(None) is None


def test_a_rate_limit_too_long_to_wait_gives_up(
    server: ScholarlyServer, client: PoliteClient, sleeps: Sleeps
) -> None:
    server.fail_next("openalex", Fault(429, "", {"Retry-After": "3600"}))
    with pytest.raises(GaveUp, match="rate-limited for 3600 s"):
        OpenAlex(server.base_url("openalex")).search(client, ["bubblespec"], 5)
    assert sleeps == []


def test_500s_are_retried_with_growing_waits_then_given_up(
    server: ScholarlyServer, client: PoliteClient, sleeps: Sleeps
) -> None:
    server.fail_next("openalex", Fault(500), Fault(502))
    assert OpenAlex(server.base_url("openalex")).search(client, ["bubblespec"], 5)
    assert sleeps == [0.5, 1.0]
    server.fail_next("openalex", *[Fault(503)] * 4)
    with pytest.raises(GaveUp, match="HTTP 503 after 4 tries"):
        OpenAlex(server.base_url("openalex")).search(client, ["bubblespec"], 5)


def test_a_404_is_not_retried(server: ScholarlyServer, client: PoliteClient) -> None:
    with pytest.raises(GaveUp, match="HTTP 404"):
        client.get("X", server.base_url("openalex") + "/nothing", {})
    assert client.requests == 1


def test_a_slow_answer_times_out_and_is_asked_again(server: ScholarlyServer) -> None:
    server.fail_next("openalex", Fault(200, "{}", delay=1.5))
    with PoliteClient(pacing=False, timeout=0.3, sleep=Sleeps()) as client:
        found = OpenAlex(server.base_url("openalex")).search(client, ["bubblespec"], 5)
        assert client.requests == 2
    assert len(found) == 1


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_unreachable_host_fails_at_once_without_retries(client: PoliteClient) -> None:
    port = closed_port()
    with pytest.raises(Unreachable) as caught:
        client.get("OpenAlex", f"http://127.0.0.1:{port}/works", {})
    assert caught.value.host == f"127.0.0.1:{port}"
    assert str(caught.value).startswith(f"cannot reach 127.0.0.1:{port} (")
    assert client.requests == 1


def test_pacing_keeps_requests_apart(server: ScholarlyServer) -> None:
    with PoliteClient(pacing=True) as client:
        started = time.monotonic()
        for _ in range(3):
            client.get("arXiv", server.base_url("arxiv") + "/query", {}, interval=0.3)
        assert time.monotonic() - started >= 0.6
    with PoliteClient(pacing=False) as client:
        started = time.monotonic()
        for _ in range(3):
            client.get("arXiv", server.base_url("arxiv") + "/query", {}, interval=5.0)
        assert time.monotonic() - started < 5.0


# -- choosing words, judging candidates ------------------------------------------------------


def test_queries_use_rare_repeated_words_and_the_method_name(tmp_path: Path) -> None:
    records = seed_records()
    papers = papers_of(listing(tmp_path, [r["abstract"] for r in records]))
    words = queries(papers)
    bubble = next(p for p in papers if p.method == "BubbleSpec")
    first, second = words[bubble.id]
    assert first[0] == "bubblespec"
    assert len(first) == 5 and len(second) == 5 and not set(first) & set(second)
    for paper in papers:
        for attempt in words[paper.id]:
            assert all(word.isalnum() and word == word.lower() for word in attempt)
            assert not {"this", "paper", "propose", "results"} & set(attempt)


def test_a_typo_of_the_copy_is_not_sent_before_real_words(tmp_path: Path) -> None:
    abstract = seed_records()[4]["abstract"].replace("pathways", "pthways", 1)
    [paper] = papers_of(listing(tmp_path, [abstract]))
    first, *_ = queries([paper])[paper.id]
    assert "pthways" not in first


def look_alike(record: dict[str, Any]) -> dict[str, Any]:
    """Same topic, every word the query sends, another paper: what a careless matcher takes."""
    first, second, *rest = re.split(r"(?<=\.) ", record["abstract"])
    claim = "Unlike prior work, we instead argue the opposite and report negative findings."
    text = " ".join([first, claim, *rest, second])
    return {**record, "title": "A Different Paper on the Same Topic", "abstract": text}


def test_a_similar_but_wrong_candidate_is_rejected(
    tmp_path: Path, client: PoliteClient, cache: AnswerCache
) -> None:
    record = seed_records()[4]
    papers = papers_of(listing(tmp_path, [record["abstract"]]))
    with ScholarlyServer([look_alike(record)]) as server:
        report = run(papers, [OpenAlex(server.base_url("openalex"))], client, cache)
        assert server.requests_to("openalex")
    [paper] = report.papers
    assert paper.title_derived and paper.meta_source == "derived" and paper.authors == ()
    assert report.matched == {} and report.unmatched == [paper.id]
    rejected = report.rejected[paper.id]
    assert rejected.title == "A Different Paper on the Same Topic"
    assert 0.6 < rejected.confidence < 0.9


def test_two_candidates_too_alike_to_tell_apart_are_both_refused(
    tmp_path: Path, client: PoliteClient, cache: AnswerCache
) -> None:
    record = seed_records()[4]
    twin = {
        **record,
        "title": "Another title",
        "abstract": record["abstract"].replace("rare", "odd", 1),
    }
    papers = papers_of(listing(tmp_path, [record["abstract"]]))
    with ScholarlyServer([record, twin]) as server:
        report = run(papers, [OpenAlex(server.base_url("openalex"))], client, cache)
    assert report.matched == {} and report.papers[0].title_derived


# -- whole runs ------------------------------------------------------------------------------


def damaged(records: list[dict[str, Any]]) -> list[str]:
    """The abstracts as a copy-paste site gives them: no markdown, no $, last sentence cut."""
    out = []
    for record in records:
        text = record["abstract"].replace("**", "").replace("$", "")
        sentences = re.split(r"(?<=\.) ", text)
        out.append(" ".join(sentences[:-1]) if len(sentences) > 3 else text)
    return out


def all_sources(server: ScholarlyServer) -> list[Source]:
    return [
        OpenAlex(server.base_url("openalex")),
        Arxiv(server.base_url("arxiv")),
        SemanticScholar(server.base_url("s2")),
    ]


def test_every_known_paper_is_matched_and_no_title_is_wrong(
    tmp_path: Path, client: PoliteClient, cache: AnswerCache
) -> None:
    records = seed_records()
    papers = papers_of(listing(tmp_path, damaged(records)))
    held = records[:15]
    with ScholarlyServer(held) as server:
        report = run(papers, all_sources(server), client, cache)
    titles = [paper.title for paper in report.papers]
    assert titles[:15] == [record["title"] for record in held]
    assert all(paper.title_derived for paper in report.papers[15:])
    assert len(report.matched) == 15 and len(report.unmatched) == 4
    first = report.papers[0]
    assert first.authors == tuple(records[0]["authors"])
    assert re.fullmatch(r"matched:OpenAlex W41000000\d\d@(1\.00|0\.9\d)", first.meta_source)
    assert report.matched[first.id]["openalex"] == "W4100000000"
    assert first.extra["online"]["source"] == "OpenAlex"  # for citations to name the source
    assert first.extra["online"]["id"] == "W4100000000"
    assert report.matched[first.id]["abstract"] == first.abstract


def test_sources_are_asked_in_order_and_each_only_about_what_is_left(
    tmp_path: Path, client: PoliteClient, cache: AnswerCache
) -> None:
    records = seed_records()[:6]
    for at, record in enumerate(records):
        record["_apis"] = ["openalex"] if at < 2 else ["arxiv"] if at < 4 else ["s2"]
    papers = papers_of(listing(tmp_path, [r["abstract"] for r in records]))
    with ScholarlyServer(records) as server:
        report = run(papers, all_sources(server), client, cache)
        asked = {api: len(server.requests_to(api)) for api in ("openalex", "arxiv", "s2")}
    sources = [report.matched[p.id]["online"]["source"] for p in papers]
    assert sources == ["OpenAlex"] * 2 + ["arXiv"] * 2 + ["Semantic Scholar"] * 2
    assert report.papers[2].extra["arxiv"] == "https://arxiv.org/abs/2605.10002"
    # OpenAlex was asked about every paper, arXiv about four, S2 about the last two; OpenAlex
    # and S2 try a second set of words when the first finds nothing, arXiv (3 s a request) not.
    assert asked == {"openalex": 2 + 4 * 2, "arxiv": 4, "s2": 2}


def test_crossref_adds_doi_and_pages_to_a_match_that_lacks_them(
    tmp_path: Path, client: PoliteClient, cache: AnswerCache
) -> None:
    records = seed_records()[1:3]
    records[0]["_apis"] = ["arxiv", "crossref"]
    records[1]["_apis"] = ["arxiv"]
    papers = papers_of(listing(tmp_path, [r["abstract"] for r in records]))
    with ScholarlyServer(records) as server:
        crossref = Crossref(server.base_url("crossref"), email="me@example.org")
        report = run(papers, [Arxiv(server.base_url("arxiv"))], client, cache, crossref)
        [asked, _] = server.requests_to("crossref")
    assert asked.params["query.bibliographic"] == records[0]["title"]
    assert asked.params["mailto"] == "me@example.org"
    first, second = (report.matched[p.id] for p in papers)
    assert first["doi"] == "10.5555/paperdeck.test.0"
    assert first["pages"] == "150526-150544"
    assert first["online"]["details"] == "Crossref"
    # Crossref does not know the second paper: it keeps what arXiv gave, no borrowed DOI.
    assert "doi" not in second and "details" not in second["online"]
    assert report.papers[0].extra["doi"] == "10.5555/paperdeck.test.0"
    assert report.papers[0].extra["pages"] == "150526-150544"


def test_crossref_takes_no_item_with_another_title_or_first_author(
    server: ScholarlyServer, client: PoliteClient
) -> None:
    record = seed_records()[2]
    crossref = Crossref(server.base_url("crossref"))
    assert crossref.details(client, record["title"], record["authors"]) is not None
    assert crossref.details(client, record["title"] + " Revisited", record["authors"]) is None
    assert crossref.details(client, record["title"], ["Somebody Else"]) is None


def test_a_paper_is_never_asked_twice_and_refresh_asks_again(
    tmp_path: Path, server: ScholarlyServer, client: PoliteClient, cache: AnswerCache
) -> None:
    records = seed_records()[:4]
    papers = papers_of(listing(tmp_path, [r["abstract"] for r in records]))
    sources: list[Source] = [OpenAlex(server.base_url("openalex"))]
    first = run(papers, sources, client, cache)
    sent = client.requests
    again = run(papers, sources, client, cache)
    assert client.requests == sent
    assert again.answers_from_cache == 4
    assert [p.title for p in again.papers] == [p.title for p in first.papers]
    refreshed = run(papers, sources, client, cache, refresh=True)
    assert client.requests == 2 * sent and refreshed.answers_from_cache == 0


def test_an_interrupted_run_keeps_its_matches_and_the_next_one_resumes(
    tmp_path: Path, server: ScholarlyServer, client: PoliteClient
) -> None:
    records = seed_records()[:5]
    papers = papers_of(listing(tmp_path, [r["abstract"] for r in records]))
    sources: list[Source] = [OpenAlex(server.base_url("openalex"))]

    def stop_after_two(done: int, total: int, matched: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    cache = AnswerCache(tmp_path / "cache")
    stopped = run(papers, sources, client, cache, progress=stop_after_two)
    cache.close()
    assert stopped.interrupted and len(stopped.matched) == 2
    assert [p.title_derived for p in stopped.papers] == [False, False, True, True, True]
    cache = AnswerCache(tmp_path / "cache")  # a new process opens the same file
    before = len(server.requests_to("openalex"))
    resumed = run(papers, sources, client, cache)
    cache.close()
    assert resumed.answers_from_cache == 2
    assert len(server.requests_to("openalex")) - before == 3
    assert len(resumed.matched) == 5


def test_a_source_answering_garbage_is_skipped_and_the_others_go_on(
    tmp_path: Path,
    server: ScholarlyServer,
    client: PoliteClient,
    cache: AnswerCache,
    notices: list[str],
) -> None:
    records = seed_records()[:5]
    papers = papers_of(listing(tmp_path, [r["abstract"] for r in records]))
    server.fail_next("openalex", *[Fault(200, '{"results": [')] * 5)
    report = run(papers, all_sources(server), client, cache)
    assert len(report.matched) == 5
    assert [r["online"]["source"] for r in report.matched.values()] == ["arXiv"] * 5
    assert notices == [
        f"OpenAlex: truncated or invalid JSON for #{n} {papers[n - 1].id}; skipped"
        for n in (1, 2, 3)
    ] + ["OpenAlex failed 3 papers in a row; not asked again"]
    # Dropped after three failures: the two faults left were never served.
    assert len(server.faults["openalex"]) == 2
    assert report.dropped == ["OpenAlex"]


def test_an_unreachable_source_stops_the_run_keeping_what_was_matched(
    tmp_path: Path, server: ScholarlyServer, client: PoliteClient, cache: AnswerCache
) -> None:
    records = seed_records()[:3]
    papers = papers_of(listing(tmp_path, [r["abstract"] for r in records]))
    dead = OpenAlex(f"http://127.0.0.1:{closed_port()}")
    report = run(papers, [dead], client, cache)
    assert report.unreachable is not None and report.matched == {}
    assert client.requests == 1


def test_hostile_answers_are_cleaned(
    tmp_path: Path, client: PoliteClient, cache: AnswerCache
) -> None:
    record = seed_records()[4]
    hostile = {
        **record,
        "title": "Rare \x1b[31mEvents\x1b[0m [bold]x[/bold]\x07",
        "authors": ["A\x1b]52;c;aGk=\x07 Person"],
    }
    papers = papers_of(listing(tmp_path, [record["abstract"]]))
    with ScholarlyServer([hostile]) as server:
        report = run(papers, [OpenAlex(server.base_url("openalex"))], client, cache)
    [paper] = report.papers
    assert "\x1b" not in paper.title and "\x07" not in paper.title
    assert "[bold]x[/bold]" in paper.title  # kept as text; the reader never reads it as markup
    assert all("\x1b" not in name and "\x07" not in name for name in paper.authors)


# -- where matches go ----------------------------------------------------------------------


def test_matches_go_into_the_sidecar_beside_what_the_user_wrote(
    tmp_path: Path, server: ScholarlyServer, client: PoliteClient, cache: AnswerCache
) -> None:
    records = seed_records()[:3]
    path = listing(tmp_path, [r["abstract"] for r in records])
    own = {"title": "My own title", "abstract": records[0]["abstract"]}
    sidecar = tmp_path / "talks.meta.jsonl"
    sidecar.write_text(json.dumps(own) + "\n# a comment line the user keeps\n", encoding="utf-8")
    library = load_library([path])
    assert library.papers[0].title == "My own title"
    report = run(library.papers, [OpenAlex(server.base_url("openalex"))], client, cache)
    assert len(report.matched) == 2  # the first paper had metadata already: not asked
    add_to_sidecar(path, list(report.matched.values()))
    lines = sidecar.read_text(encoding="utf-8").splitlines()
    assert lines[:2] == [json.dumps(own), "# a comment line the user keeps"]
    assert len(lines) == 4
    reopened = load_library([path]).papers
    assert [p.title for p in reopened] == ["My own title", records[1]["title"], records[2]["title"]]
    assert reopened[1].meta_source.startswith("matched:OpenAlex W4100000001@")
    # A second run's line for the same paper replaces the first; the user's lines stay.
    add_to_sidecar(path, [report.matched[reopened[1].id]])
    assert len(sidecar.read_text(encoding="utf-8").splitlines()) == 4


def test_source_names_are_checked() -> None:
    assert parse_source_names("arxiv, openalex,arxiv") == ["arxiv", "openalex"]
    with pytest.raises(UsageError, match="unknown source dblp"):
        parse_source_names("openalex,dblp")


def test_a_family_name_of_two_words_is_cited_as_crossref_splits_it(
    tmp_path: Path, client: PoliteClient, cache: AnswerCache
) -> None:
    from paperdeck.core.citations import cite

    record = {
        **seed_records()[3],
        "authors": ["Manuel Gomez Rodriguez", "Daniel Alexander Braun"],
        "_crossref_authors": [
            {"given": "Manuel", "family": "Gomez Rodriguez"},
            {"given": "Daniel Alexander", "family": "Braun"},
        ],
    }
    path = listing(tmp_path, [record["abstract"]])
    papers = papers_of(path)
    with ScholarlyServer([record]) as server:
        crossref = Crossref(server.base_url("crossref"))
        report = run(papers, [OpenAlex(server.base_url("openalex"))], client, cache, crossref)
        # OpenAlex gave the DOI and pages: Crossref was asked only to split the names.
        assert len(server.requests_to("crossref")) == 1
    [paper] = report.papers
    apa = "Gomez Rodriguez, M., & Braun, D. A. (2026)."
    assert cite(paper, "apa", key="k").text.startswith(apa)
    # As the sidecar keeps it, for the next time the list is opened.
    add_to_sidecar(path, list(report.matched.values()))
    [reopened] = load_library([path]).papers
    assert cite(reopened, "apa", key="k").text.startswith(apa)
    bibtex = cite(reopened, key="k").text
    assert "author    = {Gomez Rodriguez, Manuel and Braun, Daniel Alexander}," in bibtex

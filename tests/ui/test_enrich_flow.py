"""Looking up titles online from the reader's palette, against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from benchmarks.scholarly_server import Fault, ScholarlyServer

from paperdeck.core.library import load_library
from paperdeck.core.notes.store import NotesStore
from paperdeck.core.resources import seeds_dir
from paperdeck.ui.app import PaperdeckApp

SEED_META = seeds_dir() / "icml2026.meta.jsonl"
SCREENSHOTS = os.environ.get("PAPERDECK_SCREENSHOTS")
"""A folder to keep the test's screenshots in (to look at them), when set."""


def seed_records() -> list[dict[str, Any]]:
    return [json.loads(line) for line in SEED_META.read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def web(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[ScholarlyServer]:
    with ScholarlyServer(seed_records()[:15]) as server:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        monkeypatch.setenv("PAPERDECK_CACHE", str(tmp_path / "cache"))
        yield server


def make_app(tmp_path: Path, *, lazy: bool = False) -> PaperdeckApp:
    """The reader on the seed's abstracts alone (`lazy`: reopened without abstracts)."""
    listing = tmp_path / "talks.txt"
    abstracts = [record["abstract"] for record in seed_records()]
    listing.write_text("Talks 2026\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    store = NotesStore(tmp_path / "notes.json")
    library = load_library([listing])
    if lazy:
        library = load_library([listing], abstracts=False)
        assert not library.abstracts_loaded
    return PaperdeckApp(library, store, settings_file=tmp_path / "s.json")


def header_text(app: PaperdeckApp) -> str:
    return str(app.query_one("#header").render())


def notices(app: PaperdeckApp) -> list[str]:
    return [notification.message for notification in app._notifications]


async def run_from_palette(app: PaperdeckApp, pilot: Any) -> None:
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*"titles online")
    await pilot.pause(0.3)
    await pilot.press("enter")
    await pilot.pause()


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_the_palette_looks_titles_up_with_progress_in_the_header(
    web: ScholarlyServer, tmp_path: Path, size: tuple[int, int]
) -> None:
    web.delay = 0.05
    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.papers[0].title_derived
        await run_from_palette(app, pilot)
        seen_progress = ""
        deadline = time.monotonic() + 60
        while app.enrich.running and time.monotonic() < deadline:
            if "online " in header_text(app):
                if SCREENSHOTS and not seen_progress:
                    name = f"enrich-progress-{size[0]}x{size[1]}.svg"
                    app.save_screenshot(str(Path(SCREENSHOTS) / name))
                seen_progress = header_text(app)
                # Visible: the line as painted, not only the header's text.
                painted = app.query_one("#header").render_line(0).text
                assert "online " in painted and "matched" in painted
            await asyncio.sleep(0.05)
        assert not app.enrich.running
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "matched" in seen_progress and "/19" in seen_progress
        assert "online" not in header_text(app)
        records = seed_records()
        assert [p.title for p in app.papers[:15]] == [r["title"] for r in records[:15]]
        assert all(p.title_derived for p in app.papers[15:])
        assert "Found 15 of 19 papers online; added to talks.meta.jsonl" in notices(app)
        assert "InteractScience: Programmatic" in app.paper_list.render_line(0).text
        # The panes repaint after the list's paint (LoadingFlow.show): wait for that paint.
        for _ in range(100):
            detail = " ".join(app.detail.text.split())
            if "matched from OpenAlex" in detail:
                break
            await pilot.pause(0.05)
        assert "matched from OpenAlex W4100000000 (confidence 1.00)" in detail
        assert "DOI 10.5555/paperdeck.test.0" in detail
        if SCREENSHOTS:
            name = f"enrich-online-{size[0]}x{size[1]}.svg"
            app.save_screenshot(str(Path(SCREENSHOTS) / name))
    sidecar = tmp_path / "talks.meta.jsonl"
    assert len(sidecar.read_text(encoding="utf-8").splitlines()) == 15


async def test_a_list_opened_without_abstracts_is_looked_up_by_them(
    web: ScholarlyServer, tmp_path: Path
) -> None:
    app = make_app(tmp_path, lazy=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await run_from_palette(app, pilot)
        deadline = time.monotonic() + 60
        while app.enrich.running and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        await app.workers.wait_for_complete()
        await pilot.pause()
        records = seed_records()
        assert "Found 15 of 19 papers online; added to talks.meta.jsonl" in notices(app)
        assert [p.title for p in app.papers[:15]] == [r["title"] for r in records[:15]]
        # The papers no source matched stay without their abstract in memory.
        assert all(p.abstract == "" for p in app.papers[15:])
    sidecar = tmp_path / "talks.meta.jsonl"
    kept = [json.loads(line) for line in sidecar.read_text(encoding="utf-8").splitlines()]
    assert [line["abstract"] for line in kept] == [r["abstract"] for r in records[:15]]


async def test_offline_the_palette_says_so_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    for name in ("OPENALEX", "ARXIV", "S2", "CROSSREF"):
        monkeypatch.setenv(f"PAPERDECK_{name}_URL", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("PAPERDECK_CACHE", str(tmp_path / "cache"))
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await run_from_palette(app, pilot)
        await app.workers.wait_for_complete()
        await pilot.pause()
        [message] = [m for m in notices(app) if "cannot reach" in m]
        assert message.startswith(f"cannot reach 127.0.0.1:{port} (")
        assert message.endswith("; nothing changed")
        assert all(paper.title_derived for paper in app.papers)
        assert "online" not in header_text(app)
    assert not (tmp_path / "talks.meta.jsonl").exists()


async def test_a_list_with_every_title_is_not_looked_up(
    web: ScholarlyServer, tmp_path: Path
) -> None:
    app = PaperdeckApp(
        load_library([seeds_dir() / "icml2026.txt"]),
        NotesStore(tmp_path / "notes.json"),
        settings_file=tmp_path / "s.json",
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        app.enrich.start()
        await pilot.pause()
        assert "Every paper already has its title and authors" in notices(app)
        assert web.seen == []


async def test_answers_that_cannot_be_read_are_counted_in_the_last_notice(
    web: ScholarlyServer, tmp_path: Path
) -> None:
    """OpenAlex answering HTML and cut JSON: the notice that ends the lookup says how many
    answers could not be read and from where, as `enrich --online` does, so "found 13 of 19"
    is not taken for all the web knows."""
    web.fail_next(
        "openalex",
        Fault(200, "<!DOCTYPE html><html><body>Service unavailable</body></html>"),
        Fault(200, '{"results": [{"id": "W1", "title": "Cut'),
    )
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await run_from_palette(app, pilot)
        await app.workers.wait_for_complete()
        await pilot.pause()
        [last] = [m for m in notices(app) if m.startswith("Found ")]
        assert last.endswith("; 2 answers could not be read (OpenAlex 2)")
        toast = next(n for n in app._notifications if n.message == last)
        assert toast.severity == "warning"


async def test_a_failed_lookup_says_its_error_as_written(
    web: ScholarlyServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """An error's text can quote a web answer: its brackets are text, never markup."""
    from textual.widgets._toast import Toast

    from paperdeck.core.enrich import online

    def fails(*_: object, **__: object) -> None:
        raise ValueError("answer [/b] [red]not JSON")

    monkeypatch.setattr(online, "enrich_online", fails)
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await run_from_palette(app, pilot)
        await app.workers.wait_for_complete()
        await pilot.pause()
        [failed] = [n for n in app._notifications if n.message.startswith("Online lookup")]
        # What its toast shows: the error as written, not styled by its brackets.
        shown = Toast(failed).render()
        assert str(shown) == "Online lookup failed: ValueError: answer [/b] [red]not JSON"

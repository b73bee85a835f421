"""Citation keys worked out off the reader's thread: a long list's first `c` or BibTeX export
waits for them without freezing, and the detail pane's keys wait for a quiet moment."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from tests.ui.test_app import MakeApp, settle, type_text

from paperdeck.core import citations
from paperdeck.core.citations import citation_keys
from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.dialogs.citation_dialog import CitationDialog
from paperdeck.ui.search_flow import SearchFlow

pytest_plugins = ["tests.ui.test_app"]


class HeldKeys:
    """`citation_keys`, held on a thread until released; the threads it ran on, and when."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.release = threading.Event()
        self.threads: list[threading.Thread] = []
        self.times: list[float] = []
        monkeypatch.setattr(citations, "citation_keys", self)

    def __call__(self, *args: Any, **kwargs: Any) -> dict[str, str]:
        self.threads.append(threading.current_thread())
        self.times.append(time.monotonic())
        if threading.current_thread() is not threading.main_thread():
            self.release.wait(10)
        return citation_keys(*args, **kwargs)


def no_clipboard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # No clipboard tool and no display: every copy ends in the dialog, and `last_copied`.
    monkeypatch.setenv("PATH", str(tmp_path))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "TMUX"):
        monkeypatch.delenv(name, raising=False)


async def until(pilot: Any, done: Any) -> None:
    for _ in range(200):
        if done():
            return
        await pilot.pause(0.05)


def messages(app: PaperdeckApp) -> list[str]:
    return [notification.message for notification in app._notifications]


async def test_a_long_lists_first_cite_works_the_keys_out_while_the_reader_answers(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_clipboard(tmp_path, monkeypatch)
    monkeypatch.setattr("paperdeck.ui.citation_flow.KEYS_AHEAD", 5)  # the bundled 19 are many
    held = HeldKeys(monkeypatch)
    app = make_app()
    papers = app.papers
    app.store.set_note(papers[2], "read for the related work")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert "Cite key  worked out by c or e (long list)" in app.detail.text
        await pilot.press("c")
        assert "Working out the citation keys of 19 papers…" in messages(app)
        # The keys are held on their thread: the reader still moves, nothing is copied yet.
        await pilot.press("j", "j")
        assert app.current_paper is papers[2]
        assert app.last_copied == ""
        assert held.threads and threading.main_thread() not in held.threads
        held.release.set()
        await until(pilot, lambda: isinstance(app.screen, CitationDialog))
        expected = citation_keys(papers)
        # The paper under the cursor when c was pressed, with the key the list gives it.
        assert f"@inproceedings{{{expected[papers[0].id]}," in app.last_copied
        await pilot.press("escape")
        await settle(app, pilot)
        assert f"Cite key  {expected[papers[2].id]}" in app.detail.text
        # The noted paper's key is pinned, as a cite on the reader's thread pinned it.
        entry = app.store.get(papers[2])
        assert entry is not None
        assert entry.corrections.get("citation_key") == expected[papers[2].id]


async def test_a_long_lists_bibtex_export_waits_for_the_keys_on_a_thread(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("paperdeck.ui.citation_flow.KEYS_AHEAD", 5)
    held = HeldKeys(monkeypatch)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("space", "space", "e", "ctrl+a", "ctrl+k")
        await type_text(pilot, "marked.bib")
        await pilot.press("enter")
        assert "Working out the citation keys of 19 papers…" in messages(app)
        assert not (tmp_path / "marked.bib").exists()
        await pilot.press("j")
        assert app.current_paper is app.papers[3]
        held.release.set()
        await until(pilot, (tmp_path / "marked.bib").exists)
        text = (tmp_path / "marked.bib").read_text(encoding="utf-8")
        expected = citation_keys(app.papers)
        assert f"{{{expected[app.papers[0].id]}," in text
        assert f"{{{expected[app.papers[1].id]}," in text
        assert threading.main_thread() not in held.threads


async def test_the_panes_keys_wait_till_the_first_search_has_answered(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Longer than a reader waits: a Pilot on a loaded machine types slower than a researcher
    # back at a list (its first key came a second after the list showed).
    monkeypatch.setattr("paperdeck.ui.citation_flow.KEYS_QUIET", 3.0)
    calls: list[float] = []
    real = citations.citation_keys

    def timed(*args: Any, **kwargs: Any) -> dict[str, str]:
        calls.append(time.monotonic())
        return real(*args, **kwargs)

    monkeypatch.setattr(citations, "citation_keys", timed)
    answered: list[float] = []
    apply = SearchFlow.apply

    def applied(self: SearchFlow, query: str, result: Any) -> None:
        apply(self, query, result)
        if query:
            answered.append(time.monotonic())

    monkeypatch.setattr(SearchFlow, "apply", applied)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        # Typed as soon as the list shows, as a researcher back at a list does.
        await pilot.press("slash")
        await type_text(pilot, "diffusion")
        await settle(app, pilot)
        assert answered
        await until(pilot, lambda: "Cite key  …" not in app.detail.text)
        assert calls and min(calls) > max(answered)
        key = citation_keys(app.papers)[app.current_paper.id]  # type: ignore[union-attr]
        assert f"Cite key  {key}" in app.detail.text


async def test_a_theme_changed_during_a_search_keeps_the_cite_key(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash")
        await type_text(pilot, "learning")
        await settle(app, pilot)
        key = citation_keys(app.papers)[app.current_paper.id]  # type: ignore[union-attr]
        assert f"Cite key  {key}" in app.detail.text
        app.theme = "textual-light" if app.current_theme.dark else "textual-dark"
        await settle(app, pilot)
        assert f"Cite key  {key}" in app.detail.text

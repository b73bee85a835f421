"""The reader on a list whose copy in the list store is damaged on disk: it reads the list again
from its file, says so in one line, and shows and searches the real papers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.store_damage import damage_table

from paperdeck.core.library import LoadOptions, load_library
from paperdeck.core.notes.store import NotesStore
from paperdeck.core.search.index import SearchIndex
from paperdeck.core.store import database
from paperdeck.core.store.stored_papers import STAND_IN_TITLE
from paperdeck.ui.app import PaperdeckApp

DATA = Path(__file__).parents[1] / "data"


@pytest.fixture
def listing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The 150-paper ICML slice, read once (so kept in the store with its index)."""
    monkeypatch.setenv("PAPERDECK_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "icml.txt"
    path.write_text((DATA / "icml2026-150.txt").read_text(encoding="utf-8"), encoding="utf-8")
    library = load_library([path])
    SearchIndex(library.papers, library.index_key())  # kept, as a reader keeps it
    return path


def reader(path: Path, tmp_path: Path) -> PaperdeckApp:
    """The reader as `paperdeck PATH` starts it: the list loads without its abstracts."""

    def load(options: LoadOptions) -> Any:
        return load_library([path], abstracts=False, options=options)

    return PaperdeckApp(
        None,
        NotesStore(tmp_path / "notes.json"),
        loader=load,
        loading_label=path.name,
        settings_file=tmp_path / "settings.json",
    )


def shown_titles(app: PaperdeckApp) -> list[str]:
    return [app.papers[i].title for i in range(len(app.papers))]


async def settle(app: PaperdeckApp, pilot: Any) -> None:
    for _ in range(100):
        await pilot.pause(0.05)
        if not app.loading.loading and app.search.index is not None:
            await app.workers.wait_for_complete()
            await pilot.pause()
            if not app.loading.loading:
                return
    raise AssertionError("the list never finished loading")


@pytest.mark.parametrize("table", ["sqlite_autoindex_chunks_1", "postings"])
async def test_a_damaged_store_file_is_left_for_the_list_file_with_one_line(
    listing: Path, tmp_path: Path, table: str
) -> None:
    expected = [paper.title for paper in load_library([listing], abstracts=False).papers]
    found = list(SearchIndex(load_library([listing]).papers).search("diffusion").indices)
    assert found
    damage_table(tmp_path / "cache" / database.FILE_NAME, table)
    app = reader(listing, tmp_path)
    notices: list[str] = []
    async with app.run_test(size=(120, 40)) as pilot:
        app.notify = lambda message, **_: notices.append(str(message))  # type: ignore[method-assign]
        await settle(app, pilot)
        await pilot.press("slash", *"diffusion")
        await pilot.pause(0.3)
        await settle(app, pilot)
        # The rows are the list's own papers, not stand-ins saying the copy is unreadable.
        assert shown_titles(app) == expected
        assert STAND_IN_TITLE not in app.paper_list.row_text(0)
        assert sorted(app.paper_list.rows) == sorted(found)
        told = [notice for notice in notices if "list store" in notice]
        assert len(told) == 1
        assert "malformed" in told[0] and "again" in told[0]

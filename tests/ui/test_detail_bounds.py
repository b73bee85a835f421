"""The detail pane: a megabyte abstract or title is shown in part, so the reader never freezes
wrapping it; a short pane shows the abstract first."""

from __future__ import annotations

import re
from pathlib import Path

from paperdeck.core.library import load_library
from paperdeck.core.notes.store import NotesStore
from paperdeck.core.resources import bundled_list
from paperdeck.core.text.render import render_abstract
from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.widgets.detail_pane import SHOWN_CHARS


async def test_a_huge_abstract_shows_its_start_and_says_how_much_more(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    huge = "word " * 400_000  # 2 MB (10 MB froze the reader for 7-13 s)
    path.write_text(f"A list\n\nA first abstract.\n\n{huge}\n\n{'w' * 1_000_000}\n", "utf-8")
    app = PaperdeckApp(
        load_library([path]), NotesStore(tmp_path / "n.json"), settings_file=tmp_path / "s"
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("j")
        await pilot.pause()
        shown = app.detail.text
        assert len(shown) < 2 * SHOWN_CHARS + 1000
        assert f"({len(huge.strip()) - SHOWN_CHARS:,} more characters" in shown
        await pilot.press("j")  # a 1 MB single word: title and abstract
        await pilot.pause()
        assert len(app.detail.text) < 3 * SHOWN_CHARS + 1000
        assert "more characters" in app.detail.text


def pane_lines(app: PaperdeckApp) -> list[str]:
    """The detail pane's lines as drawn on screen."""
    height = app.detail.scrollable_content_region.height
    return [app.detail.render_line(y).text.rstrip() for y in range(height)]


async def test_a_short_pane_shows_the_abstract_under_the_title_and_the_facts_after_it(
    tmp_path: Path,
) -> None:
    bare = tmp_path / "icml.txt"  # titles made up, no authors
    bare.write_bytes(bundled_list().read_bytes())
    for path in (bundled_list(), bare):
        library = load_library([path])
        app = PaperdeckApp(library, NotesStore(tmp_path / "n.json"), settings_file=tmp_path / "s")
        async with app.run_test(size=(80, 24)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.press("j", "j", "j")
            await app.workers.wait_for_complete()
            await pilot.pause()
            paper = library.papers[3]
            words = render_abstract(paper.abstract).text.split()
            shown = pane_lines(app)
            # At 80x24 the facts took every line: now the abstract has most of them.
            start = next(at for at, line in enumerate(shown) if " ".join(words[:4]) in line)
            assert len(shown) - start >= 4 and all(shown[start:]), shown
            summary = shown[start - 2]
            assert ("authors unknown" in summary) == (path == bare), summary
            assert " · cite " in summary
            # Every fact is still there: Tab to the pane, its end shows them.
            await pilot.press("tab", "G")
            await pilot.pause()
            end = pane_lines(app)
            assert any(line.startswith("Source") for line in end), end
            assert any(line.startswith("Id ") and paper.id in line for line in end), end
        # A taller terminal keeps the facts above the abstract, under its heading.
        app = PaperdeckApp(library, NotesStore(tmp_path / "n.json"), settings_file=tmp_path / "s")
        async with app.run_test(size=(120, 40)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            shown = pane_lines(app)
            assert shown.index("Abstract") > next(
                at for at, line in enumerate(shown) if line.startswith("Source")
            )


async def test_sentences_the_list_ran_together_read_apart_in_the_pane_with_the_match_marked(
    tmp_path: Path,
) -> None:
    path = tmp_path / "scraped.txt"
    path.write_text(
        "A list\n\nContinuous-time learning offers a formalism for control problems in "
        "discrete increments.Here we consider the problem of predicting returns.\n",
        "utf-8",
    )
    app = PaperdeckApp(
        load_library([path]), NotesStore(tmp_path / "n.json"), settings_file=tmp_path / "s"
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("slash", *"here", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        shown = " ".join(pane_lines(app))
        assert "discrete increments. Here we consider" in shown, shown
        detail = app.detail
        pane = detail.rich_style.bgcolor
        marked = [
            segment.text
            for y in range(detail.scrollable_content_region.height)
            for segment in detail.render_line(y)
            if segment.style is not None and segment.style.bgcolor not in (None, pane)
        ]
        assert "Here" in marked, marked  # the match is marked on the word, moved with it


async def test_the_pane_shows_a_made_up_title_whole_as_a_citation_gives_it(
    tmp_path: Path,
) -> None:
    listed = Path(__file__).resolve().parents[1] / "data" / "icml-sgd60.txt"
    library = load_library([listed], use_sidecar=False)
    cut = next(i for i, paper in enumerate(library.papers) if paper.cut_title)
    paper = library.papers[cut]
    whole = paper.whole_title
    assert paper.title.endswith("…") and not whole.endswith("…")
    app = PaperdeckApp(library, NotesStore(tmp_path / "n.json"), settings_file=tmp_path / "s")
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press(*["j"] * cut)
        await app.workers.wait_for_complete()
        await pilot.pause()
        shown = " ".join(line.strip() for line in pane_lines(app))
        # The row keeps its cut title; the pane's heading ends where the citation's title ends.
        assert whole in shown, (whole, shown[:300])
        assert paper.title not in shown


FACT_LABELS = ("Method", "Authors", "Venue", "Id", "Cite key", "Page", "Code", "DOI", "Source")


async def test_a_fact_that_wraps_goes_on_under_its_value_not_under_the_labels(
    tmp_path: Path,
) -> None:
    """The facts read as a table: a long author list, page address or source wraps under its
    value, so no word of it ("metadata: Ctrl+P ...") stands in the labels' column."""
    bare = tmp_path / "icml.txt"  # titles made up, no authors: the Source line is long
    bare.write_bytes(bundled_list().read_bytes())
    for path in (bundled_list(), bare):
        library = load_library([path])
        app = PaperdeckApp(library, NotesStore(tmp_path / "n.json"), settings_file=tmp_path / "s")
        async with app.run_test(size=(120, 40)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.press("j", "j", "j")
            await app.workers.wait_for_complete()
            await pilot.pause()
            shown = pane_lines(app)
            first = next(at for at, line in enumerate(shown) if line.startswith(FACT_LABELS))
            end = next(at for at in range(first, len(shown)) if not shown[at])
            facts = shown[first:end]
            continued = [line for line in facts if not line.startswith(FACT_LABELS)]
            assert continued, facts  # something wraps at 120x40 (authors, page, source)
            assert all(line.startswith(" " * 10) and line.strip() for line in continued), facts
            joined = " ".join(line.strip() for line in facts)
            if path == bare:
                assert "(no metadata: Ctrl+P › Look up titles online)" in joined, facts
            else:
                paper = library.papers[3]
                assert ", ".join(paper.authors[-2:]) in joined, facts


async def test_a_wrapped_fact_is_drawn_under_its_value_in_a_screenshot_too(
    tmp_path: Path,
) -> None:
    """A screenshot (SVG) draws each run of one style as a text at its column: the authors
    wrapping at 200x60 start their own text at the value column, as the first line does, not
    with the indent's spaces, which some SVG viewers drop (drawing them at the pane's edge)."""
    library = load_library([bundled_list()])
    for size in ((200, 60), (120, 40)):
        app = PaperdeckApp(library, NotesStore(tmp_path / "n.json"), settings_file=tmp_path / "s")
        async with app.run_test(size=size) as pilot:
            await app.workers.wait_for_complete()
            await pilot.press("slash", *"learning", "enter")
            await app.workers.wait_for_complete()
            await pilot.pause()
            paper = app.current_paper
            assert paper is not None and paper.authors[0] == "Yuhang Xu"
            svg = app.export_screenshot()
            texts = re.findall(r'<text [^>]*x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>', svg)
            # The detail pane's, right of the list's row that names them too.
            first = max(
                ((x, y) for x, y, text in texts if text.startswith("Yuhang")),
                key=lambda at: float(at[0]),
            )
            wrapped = [
                (x, y, text)
                for x, y, text in texts
                if "Guihai" in text and float(y) > float(first[1])
            ]
            assert wrapped, size
            x, _, text = wrapped[0]
            assert x == first[0] and text.startswith("Shengzhong"), (size, wrapped)

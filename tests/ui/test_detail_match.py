"""The detail pane of a search's paper shows where its abstract matches, however far down."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperdeck.core.library import load_library
from paperdeck.core.notes.store import NotesStore
from paperdeck.ui.app import PaperdeckApp

LIST = Path(__file__).parent.parent / "data" / "icml-sgd60.txt"


def _app(tmp_path: Path) -> PaperdeckApp:
    return PaperdeckApp(
        load_library([LIST]),
        NotesStore(tmp_path / "notes.json"),
        settings_file=tmp_path / "settings.json",
    )


async def _search(app: PaperdeckApp, pilot: object, query: str) -> None:
    await app.workers.wait_for_complete()
    await pilot.press("slash", *[{" ": "space"}.get(c, c) for c in query], "enter")  # type: ignore[attr-defined]
    await app.workers.wait_for_complete()
    await pilot.pause()  # type: ignore[attr-defined]


def _shown_matches(app: PaperdeckApp) -> list[str]:
    """The highlighted words the detail pane shows now."""
    detail = app.detail
    pane = detail.rich_style.bgcolor
    return [
        segment.text
        for y in range(detail.scrollable_content_region.height)
        for segment in detail.render_line(y)
        if segment.style is not None and segment.style.bgcolor not in (None, pane)
    ]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_match_far_down_the_abstract_is_scrolled_into_view(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=size) as pilot:
        # The one paper with the word has it 1,539 characters into its abstract.
        await _search(app, pilot, "openwebtext")
        assert list(app.paper_list.rows) == [42]
        assert app.detail.scroll_y > 0
        assert "OpenWebText" in _shown_matches(app)
        # Another paper, whose match the top of the pane shows: from the top.
        await _search(app, pilot, "moniqua")
        assert app.detail.scroll_y == 0
        assert "Moniqua" in _shown_matches(app)
        assert "Moniqua" in app.detail.render_line(0).text  # its title, on top
        # No search: every paper from its top.
        await pilot.press("escape")
        await app.workers.wait_for_complete()
        while app.paper_list.paper_index != 42:
            await pilot.press("j")
        await pilot.pause()
        assert app.detail.scroll_y == 0
        assert not _shown_matches(app)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_detail_pane_says_where_each_word_matched_and_which_it_lacks(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    from paperdeck.core.resources import bundled_list

    app = PaperdeckApp(
        load_library([bundled_list()]),
        NotesStore(tmp_path / "notes.json"),
        settings_file=tmp_path / "settings.json",
    )
    async with app.run_test(size=size) as pilot:
        # No paper has all three: BubbleSpec first, without "diffusion".
        await _search(app, pilot, "speculative decoding diffusion")
        assert app.current_paper is not None
        assert app.current_paper.title.startswith("BubbleSpec")
        said = "title: speculative · abstract: speculative, decoding · not found: diffusion"
        assert said in app.detail.text.replace("\n", " ").replace("  ", " ")
        # A typo: the word that matched, then the word typed.
        await _search(app, pilot, "speculatve rollot")
        shown = app.detail.text.replace("\n", " ")
        assert "title: Speculative (speculatve), Rollout (rollot)" in shown
        # Shown on the pane's first screen, its words drawn as matches.
        assert "Rollout (rollot)" in " ".join(
            app.detail.render_line(y).text for y in range(app.detail.size.height)
        )
        # No search: not said.
        await pilot.press("escape")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "not found" not in app.detail.text and "title: " not in app.detail.text


async def test_a_paper_with_one_word_of_an_or_lacks_neither(tmp_path: Path) -> None:
    from paperdeck.core.resources import bundled_list

    app = PaperdeckApp(
        load_library([bundled_list()]),
        NotesStore(tmp_path / "notes.json"),
        settings_file=tmp_path / "settings.json",
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await _search(app, pilot, 'diffusion | speculative "drafts rollout"')
        for _ in range(len(app.paper_list.rows)):
            assert app.current_paper is not None
            if app.current_paper.title.startswith("BubbleSpec"):
                break
            await pilot.press("j")
        await pilot.pause()
        assert app.current_paper.title.startswith("BubbleSpec")
        shown = " ".join(app.detail.text.split())
        # BubbleSpec has "speculative", not "diffusion": the either-or is there; the phrase
        # is not (its title says "Rollout Drafts").
        assert 'abstract: speculative · not found: "drafts rollout" Method' in shown


async def test_the_found_line_is_not_cut_inside_a_word_and_its_spelling(tmp_path: Path) -> None:
    # Seen in tmux on the 5,000-paper list: at 80x24 the line read "abstract: Coreset
    # (coresett), outliers" and, on the next line, "(outlires)"; at 120x40 "· not" then
    # "found: outlires".
    from tests.ui.conftest import write_list

    path = write_list(
        tmp_path,
        "A list",
        [
            "In real world, our datasets often contain outliers. Coreset is a popular approach"
            " for compressing data. We propose a new variant of coreset technique, layered"
            " sampling, for clustering with outliers.",
            "We study reinforcement learning with linear function approximation.",
        ],
    )
    app = PaperdeckApp(
        load_library([path]),
        NotesStore(tmp_path / "notes.json"),
        settings_file=tmp_path / "settings.json",
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await _search(app, pilot, "coresett outlires clusterng variant zebra")
        broken: list[tuple[int, str]] = []
        for width in range(70, 131):
            await pilot.resize_terminal(width, 40 if width >= 100 else 24)
            await pilot.pause()
            lines = [
                app.detail.render_line(y).text.rstrip()
                for y in range(app.detail.scrollable_content_region.height)
            ]
            said = " ".join(" ".join(line.split()) for line in lines)
            assert "outliers (outlires)" in said and "not found: zebra" in said, said
            broken += [
                (width, line)
                for line in lines
                if line.split()
                and (
                    line.split()[0] in ("(outlires)", "(outlires),", "(coresett)", "(coresett),")
                    or line.split()[-1] in ("not", "title:", "abstract:")
                )
            ]
        assert not broken, broken


@pytest.mark.parametrize(
    ("size", "theme"), [((80, 24), "textual-light"), ((120, 40), "textual-dark")]
)
async def test_a_search_for_a_latex_command_marks_the_symbol_it_is_drawn_as(
    tmp_path: Path, size: tuple[int, int], theme: str
) -> None:
    """`sqrt` finds `\\sqrt` in the source: the pane marks the √ the reader sees (and `sum`
    the ∑, `alpha` the α)."""
    path = tmp_path / "list.txt"
    abstracts = [
        "We study online learning with a noisy oracle. Our method attains a regret of "
        "$O(\\sqrt{T})$ when the bound $\\sum_i \\alpha_i \\le 1$ holds, and we show it is tight "
        "up to a factor $\\sigma^2\\log n$.",
        "Graph neural networks on molecules: a message passing scheme that respects symmetry.",
    ]
    path.write_text("A list\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    app = PaperdeckApp(
        load_library([path]),
        NotesStore(tmp_path / "notes.json"),
        settings_file=tmp_path / "settings.json",
    )
    async with app.run_test(size=size) as pilot:
        app.theme = theme
        # "σ²log": the word after a rendered script is marked too.
        for query, symbol in (("sqrt", "√"), ("sum", "∑"), ("alpha", "α"), ("log", "log")):
            await _search(app, pilot, query)
            assert list(app.paper_list.rows) == [0], query
            shown = " ".join(app.detail.render_line(y).text.strip() for y in range(30))
            assert "regret of O(√(T)) when the bound ∑ᵢ αᵢ ≤ 1 holds" in shown, shown
            assert symbol in "".join(_shown_matches(app)), (query, _shown_matches(app))
            # Where the words are, as the pane shows them: "∑ (sum)", not "\\sum (sum)".
            assert f"abstract: {symbol}" in shown and "\\" not in shown, shown
        assert "up to a factor σ²log n" in shown, shown


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_found_line_names_the_words_of_the_title_the_user_corrected(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """A title the user corrected (the notes file's `corrections`) is the one the pane shows:
    the Found line says which words of the search that title has, not the made-up one's."""
    from paperdeck.core.resources import bundled_list

    library = load_library([bundled_list()])
    notes = NotesStore(tmp_path / "notes.json")
    bubble = next(paper for paper in library.papers if paper.title.startswith("BubbleSpec"))
    notes.set_correction(bubble, "title", "Bubble drafts for fast decoding of RL rollouts")
    app = PaperdeckApp(library, notes, settings_file=tmp_path / "settings.json")
    async with app.run_test(size=size) as pilot:
        await _search(app, pilot, "speculative decoding")
        assert app.current_paper is not None and app.current_paper.id == bubble.id
        shown = " ".join(app.detail.text.split())
        assert shown.startswith("Bubble drafts for fast decoding of RL rollouts"), shown
        # The made-up title ("BubbleSpec: ... speculative ...") is not what the pane shows.
        assert "title: decoding · abstract: speculative, decoding" in shown, shown
        assert "title: speculative" not in shown, shown


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_a_short_pane_draws_the_author_who_matched_on_its_line_of_authors(
    tmp_path: Path, theme: str
) -> None:
    # Seen at 80x24: "author:cevher" showed "Luca Viano, Till Freihaut, Emanuele Nevali +3"
    # under the title, the matching author behind "+3", and no name drawn as a match.
    from paperdeck.core.resources import bundled_list

    app = PaperdeckApp(
        load_library([bundled_list()]),
        NotesStore(tmp_path / "notes.json"),
        settings_file=tmp_path / "settings.json",
    )
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = theme
        for query, line, drawn in [
            ("author:cevher", "Luca Viano, Till Freihaut … Volkan Cevher +3 · ICML 2026", "Cevher"),
            ("zhang sampling", "Haotian Xu, Zeyang Zhang, Linbao Li +3 · ICML 2026", "Zhang"),
        ]:
            await _search(app, pilot, query)
            assert app.detail.short
            lines = [app.detail.render_line(y).text.strip() for y in range(4)]
            summary = next(text for text in lines if text.startswith(line.split(",")[0]))
            assert summary.startswith(line), lines
            summary_y = lines.index(summary)
            pane = app.detail.rich_style.bgcolor
            marked = [
                segment.text
                for segment in app.detail.render_line(summary_y)
                if segment.style is not None and segment.style.bgcolor not in (None, pane)
            ]
            assert marked == [drawn], (query, marked)
            await pilot.press("escape")

"""Titles as the reader shows them: their LaTeX rendered as the abstract under them is (in the
rows, the detail pane's heading and notices), with a search's matches on the rendered words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.segment import Segment
from tests.ui.conftest import write_list
from tests.ui.test_reader_rows import MakeApp, make_app, search, settle, visible_on_row
from textual.color import Color
from textual.widgets import Static, TextArea

from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.contrast import contrast, solid

__all__ = ["make_app"]  # the fixture, used by name

# A real abstract (ICML 2021): its made-up title is cut from "$\mathcal{P}=\{P_1,\cdots,P_n\}$
# ... in $\mathbb{R}^d$", which the abstract under it shows "𝒫={P₁,⋯,Pₙ}" and "ℝᵈ".
SETS_K_MEANS = (
    "The input to the \\emph{sets-$k$-means} problem is an integer $k\\geq 1$ and a set "
    "$\\mathcal{P}=\\{P_1,\\cdots,P_n\\}$ of fixed sized sets in $\\mathbb{R}^d$. The goal is "
    "to compute a set $C$ of $k$ centers (points) in $\\mathbb{R}^d$ that minimizes the sum "
    "$\\sum_{P\\in \\mathcal{P}} \\min_{p\\in P, c\\in C}\\left\\| p-c \\right\\|^2$ of squared "
    "distances to these sets. An \\emph{$\\varepsilon$-core-set} for this problem is a weighted "
    "subset of $\\mathcal{P}$ that approximates this sum up to $1\\pm\\varepsilon$ factor, for "
    "\\emph{every} set $C$ of $k$ centers in $\\mathbb{R}^d$. We prove that such a core-set of "
    "$O(\\log^2{n})$ sets always exists, and can be computed in $O(n\\log{n})$ time."
)
OTHERS = [
    "We study graph neural networks on molecules. We propose a message passing scheme that "
    "respects the symmetries of the molecule and show that it improves property prediction.",
    "Reinforcement learning agents explore poorly in sparse reward settings. We introduce an "
    "intrinsic reward based on state novelty and show gains on hard exploration games.",
]
SORTING_TITLE = "Sorting in $\\mathcal{O}(n \\log n)$ comparisons with \\emph{noisy} oracles"
SORTING_ABSTRACT = (
    "We sort $n$ items with a noisy comparison oracle in $\\mathcal{O}(n \\log n)$ queries, and "
    "show a regret of $O(\\sqrt{T})$ for the online version. The bound $\\sum_i \\alpha_i \\le 1$ "
    "holds for every oracle we consider."
)


def jsonl_list(folder: Path) -> Path:
    """A list whose first title has LaTeX, as a JSONL export gives it."""
    path = folder / "sorting.jsonl"
    records = [
        {"title": SORTING_TITLE, "authors": ["Ada Lovelace"], "year": 2021, "venue": "ICML"},
        {"title": "Graph neural networks for molecules", "authors": ["Alan Turing"]},
    ]
    records[0]["abstract"] = SORTING_ABSTRACT
    records[1]["abstract"] = OTHERS[0]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def title_lines(app: PaperdeckApp, row: int) -> list[list[Segment]]:
    """The segments of each line of a row's title (all its lines but the quiet one)."""
    paper_list = app.paper_list
    strips = paper_list._row_strips(row, paper_list.scrollable_content_region.width)
    return [list(strip) for strip in (strips[:-1] if len(strips) > 1 else strips)]


def highlighted_in_row(app: PaperdeckApp, row: int, dark: bool) -> list[str]:
    """The title's words drawn in colours that stand out from the row's."""
    return [
        segment.text
        for line in title_lines(app, row)
        for segment in line
        if segment.text.strip() and visible_on_row(segment, line[-1], dark)
    ]


def pane_top(app: PaperdeckApp, lines: int = 3) -> str:
    """The detail pane's first lines as one line of words (its title, wrapped)."""
    detail = app.detail
    return " ".join(" ".join(detail.render_line(y).text for y in range(lines)).split())


def highlighted_in_pane(app: PaperdeckApp, dark: bool) -> list[str]:
    """The pane's text drawn on a background of its own that reads (a search's match)."""
    detail = app.detail
    pane = solid(detail.rich_style.bgcolor, Color(0, 0, 0) if dark else Color(255, 255, 255))
    found = []
    for y in range(detail.scrollable_content_region.height):
        for segment in detail.render_line(y):
            style = segment.style
            if style is None or style.bgcolor is None or not segment.text.strip():
                continue
            background = solid(style.bgcolor, pane)
            color = solid(style.color, Color(255, 255, 255) if dark else Color(0, 0, 0))
            if contrast(background, pane) >= 1.5 and contrast(color, background) >= 3:
                found.append(segment.text)
    return found


@pytest.mark.parametrize(
    ("size", "theme"), [((120, 40), "textual-dark"), ((200, 60), "textual-light")]
)
async def test_a_made_up_titles_math_shows_as_the_abstracts_does(
    make_app: MakeApp, tmp_path: Path, size: tuple[int, int], theme: str
) -> None:
    """A made-up title's maths read as the abstract's ("𝒫={P₁,⋯,Pₙ}", "ℝᵈ": not "P={P₁,⋯,Pₙ}"
    and "Rᵈ", their fonts lost), and a word past them is highlighted where it stands (a
    subscript takes one character, not 3)."""
    path = write_list(tmp_path, "A list", [SETS_K_MEANS, *OTHERS])
    app = make_app(path)
    async with app.run_test(size=size) as pilot:
        app.theme = theme
        await settle(app, pilot)
        assert app.papers[0].title_derived and "P_1" in app.papers[0].title
        row = app.paper_list.row_text(0)
        assert "set 𝒫={P₁,⋯,Pₙ} of" in row and "_" not in row, row
        heading = pane_top(app)
        assert "a set 𝒫={P₁,⋯,Pₙ} of" in heading and "_" not in heading, heading
        if size[0] >= 200:  # room for the whole title: its end, "in ℝᵈ", too
            assert row.split("\n")[0].rstrip().endswith("sets in ℝᵈ"), row
            assert "ℝᵈ" in heading and "R^d" not in heading, heading
        await search(app, pilot, "fixed")
        dark = app.current_theme.dark
        assert app.paper_list.rows[0] == 0
        assert highlighted_in_row(app, 0, dark) == ["fixed"]
        assert "fixed" in highlighted_in_pane(app, dark)


@pytest.mark.parametrize(
    ("size", "theme"), [((80, 24), "textual-light"), ((120, 40), "textual-dark")]
)
async def test_a_titles_latex_shows_rendered_and_a_search_marks_the_rendered_word(
    make_app: MakeApp, tmp_path: Path, size: tuple[int, int], theme: str
) -> None:
    """A list's title "$\\mathcal{O}(n \\log n)$ ... \\emph{noisy}" reads "𝒪(n log n) ...
    noisy" in its row and the pane's heading; a search for `log` marks "log" there."""
    app = make_app(jsonl_list(tmp_path))
    async with app.run_test(size=size) as pilot:
        app.theme = theme
        await settle(app, pilot)
        shown = "Sorting in 𝒪(n log n) comparisons with noisy oracles"
        assert shown in app.paper_list.row_text(0).replace("\n", " ")
        assert shown in pane_top(app)
        await search(app, pilot, "log")
        dark = app.current_theme.dark
        assert highlighted_in_row(app, 0, dark) == ["log"]
        assert highlighted_in_pane(app, dark)[0] == "log"  # the heading's, first
        # The line saying where the words are names them as shown: "log", not "\\log (log)".
        top = pane_top(app, 6)
        assert "\\" not in top and ("title: log" in top or size[0] < 120), top


async def test_the_tags_dialog_and_a_citations_notice_name_the_paper_by_its_rendered_title(
    make_app: MakeApp, tmp_path: Path
) -> None:
    app = make_app(jsonl_list(tmp_path))
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("t")
        await settle(app, pilot)
        heading = app.screen.query_one(".dialog-title", Static).render()
        assert "Tags for Sorting in 𝒪(n log n) comparisons" in str(heading), heading
        await pilot.press("escape", "c")
        await settle(app, pilot)
        # No clipboard here: the dialog the copy falls back to says which paper it is of.
        said = [str(notice.message) for notice in app._notifications]
        said.append(str(app.screen.query_one(".dialog-hint", Static).render()))
        assert any("“Sorting in 𝒪(n log n)" in line for line in said), said
        assert "\\mathcal" in app.screen.query_one(TextArea).text  # the citation keeps its math


# A real abstract (ICML 2022): its made-up title is cut at "…for decision…" in the list and
# kept whole ("…for p,q ∈ {1,2,∞}", 135 characters), which a row of 200x60 shows on two lines.
NPC = (
    "Nearest prototype classifiers (NPCs) assign to each input point the label of the nearest "
    "prototype with respect to a chosen distance metric. A direct advantage of NPCs is that the "
    "decisions are interpretable. Previous work could provide lower bounds on the minimal "
    "adversarial perturbation in the $\\ell_p$-threat model when using the same "
    "$\\ell_p$-distance for the NPCs. In this paper we provide a complete discussion on the "
    "complexity when using $\\ell_p$-distances for decision and $\\ell_q$-threat models for "
    "certification for $p,q \\in \\{1,2,\\infty\\}$. In particular we provide scalable "
    "algorithms for the \\emph{exact} computation of the minimal adversarial perturbation when "
    "using $\\ell_2$-distance and improved lower bounds in other cases."
)


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_a_row_is_as_high_as_the_whole_made_up_title_it_shows(
    make_app: MakeApp, tmp_path: Path, theme: str
) -> None:
    """The list's cut title fits one line of a 200x60 row; the whole one it shows does not:
    the row takes two lines for it, and a word of its end is highlighted there."""
    path = write_list(tmp_path, "A list", [NPC, *OTHERS])
    app = make_app(path)
    async with app.run_test(size=(200, 60)) as pilot:
        app.theme = theme
        await settle(app, pilot)
        paper = app.papers[0]
        room = app.paper_list.scrollable_content_region.width - 3
        assert paper.cut_title and len(paper.title) + 2 < room < len(paper.whole_title)
        lines = app.paper_list.row_text(0).split("\n")
        assert len(lines) == 3, lines  # two of title, the quiet line
        # (the abstract's math as the abstract under it shows it)
        assert lines[1].strip() == "certification for p,q ∈ {1,2,∞}", lines
        await search(app, pilot, "certification")
        assert highlighted_in_row(app, 0, app.current_theme.dark) == ["certification"]


# Real abstracts (ICML 2020-23), cut after the sentence their made-up titles come from: a TeX
# accent ("Nystr\"om") and quotes written ''price of opacity'' for ``price of opacity''.
NYSTROM = (
    "Kernel-based models such as kernel ridge regression and Gaussian processes are ubiquitous "
    "in machine learning applications for regression and optimization. It is well known that a "
    "major downside for kernel-based models is the high computational cost; given a dataset of "
    "$n$ samples, the cost grows as $\\mathcal{O}(n^3)$. Existing sparse approximation methods "
    "can yield a significant reduction in the computational cost, effectively reducing the "
    "actual cost down to as low as $\\mathcal{O}(n)$ in certain cases. Despite this remarkable "
    "empirical success, significant gaps remain in the existing results for the analytical "
    "bounds on the error due to approximation. In this work, we provide novel confidence "
    'intervals for the Nystr\\"om method and the sparse variational Gaussian process '
    "approximation method, which we establish using novel interpretations of the approximate "
    "(surrogate) posterior variance of the models."
)
OPACITY = (
    "Strategic classification studies the interaction between a classification rule and the "
    "strategic agents it governs. Agents respond by manipulating their features, under the "
    "assumption that the classifier is known. However, in many real-life scenarios of "
    "high-stake classification (e.g., credit scoring), the classifier is not revealed to the "
    "agents, which leads agents to attempt to learn the classifier and game it too. In this "
    "paper we generalize the strategic classification model to such scenarios and analyze the "
    "effect of an unknown classifier. We define the ''price of opacity'' as the difference "
    "between the prediction error under the opaque and transparent policies, characterize it, "
    "and give a sufficient condition for it to be strictly positive, in which case "
    "transparency is the recommended policy."
)


@pytest.mark.parametrize(
    ("size", "theme"), [((80, 24), "textual-light"), ((120, 40), "textual-dark")]
)
async def test_a_made_up_titles_accents_and_quotes_read_as_written(
    make_app: MakeApp, tmp_path: Path, size: tuple[int, int], theme: str
) -> None:
    """ "Nyström" (not Nystr"om) and “price of opacity” (not ”price of opacity”), in the rows
    and the detail pane's heading."""
    path = write_list(tmp_path, "A list", [NYSTROM, OPACITY])
    app = make_app(path)
    async with app.run_test(size=size) as pilot:
        app.theme = theme
        await settle(app, pilot)
        rows = [app.paper_list.row_text(row).replace("\n", " ") for row in range(2)]
        assert "Confidence intervals for the Nyström method" in " ".join(rows[0].split()), rows
        assert "The “price of opacity”" in rows[1], rows
        assert "Nyström method" in pane_top(app)
        await pilot.press("j")
        await settle(app, pilot)
        assert pane_top(app).startswith("≈ The “price of opacity” as the"), pane_top(app)


# A real abstract (ICML 2020-23) from a scraped list that ran its sentences together
# ("…a nearly optimal algorithm.Furthermore, we empirically verify…").
KERNELIZED_BANDITS = (
    "The kernelized bandit problem is a theoretically justified framework and has solid "
    "applications to various fields. Recently, there is a growing interest in generalizing "
    "the problem to the optimization of risk-averse metrics such as Conditional "
    "Value-at-Risk (CVaR) or Mean-Variance (MV).However, due to the model assumption, most "
    "existing methods need explicit design of environment random variables and can incur "
    "large regret because of possible high dimensionality of them.To address the issues, in "
    "this paper, we model environments using a family of the output distributions (or more "
    "precisely, probability kernel) and Kernel Mean Embeddings (KME), and provide novel "
    "UCB-type algorithms for CVaR and MV.Moreover, we provide algorithm-independent lower "
    "bounds for CVaR in the case of Mat\\'ern kernels, and propose a nearly optimal "
    "algorithm.Furthermore, we empirically verify our theoretical result in synthetic "
    "environments, and demonstrate that our proposed method significantly outperforms a "
    "baseline in many cases."
)


@pytest.mark.parametrize(
    ("size", "theme"), [((80, 24), "textual-dark"), ((200, 60), "textual-light")]
)
async def test_a_made_up_title_ends_where_a_run_in_sentence_does(
    make_app: MakeApp, tmp_path: Path, size: tuple[int, int], theme: str
) -> None:
    """The title is what the paper proposes, "a nearly optimal algorithm", not that and the
    next sentence glued to it ("algorithm.Furthermore, we empirically verify…")."""
    path = write_list(tmp_path, "A list", [KERNELIZED_BANDITS, *OTHERS])
    app = make_app(path)
    async with app.run_test(size=size) as pilot:
        app.theme = theme
        await settle(app, pilot)
        row = app.paper_list.row_text(0)
        assert row.split("\n")[0].rstrip().endswith("A nearly optimal algorithm"), row
        assert "Furthermore" not in row, row
        assert pane_top(app, 1) == "≈ A nearly optimal algorithm", pane_top(app, 1)


# A real abstract (ICML 2026), cut after the sentence its made-up title comes from: TeX's em
# dash, "Transformer---a novel architecture".
DISTRIBUTION_TRANSFORMER = (
    "While Bayesian inference provides a principled framework for reasoning under uncertainty, "
    "its widespread adoption is limited by the intractability of exact posterior computation, "
    "necessitating the use of approximate inference. However, existing methods are often "
    "computationally expensive, or demand costly retraining when priors change, limiting their "
    "utility, particularly in sequential inference problems such as real-time sensor fusion. To "
    "address these challenges, we introduce the Distribution Transformer---a novel "
    "architecture that can learn arbitrary distribution-to-distribution mappings."
)


@pytest.mark.parametrize(
    ("size", "theme"), [((80, 24), "textual-light"), ((200, 60), "textual-dark")]
)
async def test_tex_dashes_in_titles_read_as_dashes(
    make_app: MakeApp, tmp_path: Path, size: tuple[int, int], theme: str
) -> None:
    """A made-up title's "---" reads "—" in its row and the pane's heading, and a list's title
    "Wang--Landau" reads "Wang–Landau", as their citations give them; an arrow "-->" stays."""
    path = write_list(tmp_path, "A list", [DISTRIBUTION_TRANSFORMER, *OTHERS])
    app = make_app(path)
    async with app.run_test(size=size) as pilot:
        app.theme = theme
        await settle(app, pilot)
        row = " ".join(app.paper_list.row_text(0).split())
        assert "The Distribution Transformer—an" in row and "--" not in row, row
        heading = pane_top(app)
        assert "The Distribution Transformer—an architecture" in heading, heading
    records = [
        {"title": "Wang--Landau sampling of Ising models", "abstract": OTHERS[0]},
        {"title": "Graph networks: accuracy 73.9% --> 81.8%", "abstract": OTHERS[1]},
    ]
    listed = tmp_path / "dashes.jsonl"
    listed.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    app = make_app(listed)
    async with app.run_test(size=size) as pilot:
        app.theme = theme
        await settle(app, pilot)
        assert "Wang–Landau sampling" in app.paper_list.row_text(0)
        assert pane_top(app).startswith("Wang–Landau sampling of Ising models"), pane_top(app)
        # an arrow is no dash: it reads as the abstract's renderer leaves it
        assert "accuracy 73.9% --> 81.8%" in app.paper_list.row_text(1)


async def test_a_titles_tex_quote_reads_as_a_quote_in_the_rows_pane_and_dialogs(
    make_app: MakeApp, tmp_path: Path
) -> None:
    """A real title (ICML 2026) closes a quote TeX's way, `"Fix it in Post''`: it reads
    `“Fix it in Post”` in its row, the pane's heading and the tags dialog."""
    records = [
        {
            "title": "Position: Don't Just \"Fix it in Post'': A Science of AI Must Study "
            "Learning Dynamics",
            "abstract": OTHERS[0],
        },
        {"title": "Graph neural networks for molecules", "abstract": OTHERS[1]},
    ]
    listed = tmp_path / "quotes.jsonl"
    listed.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    app = make_app(listed)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        shown = "Position: Don't Just “Fix it in Post”: A Science of AI"
        assert shown in app.paper_list.row_text(0), app.paper_list.row_text(0)
        assert shown in pane_top(app), pane_top(app)
        await pilot.press("t")
        await settle(app, pilot)
        heading = str(app.screen.query_one(".dialog-title", Static).render())
        assert "Fix it in Post”" in heading and "''" not in heading, heading

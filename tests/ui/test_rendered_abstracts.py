"""An abstract's TeX and markdown as the detail pane shows them: dashes, quotes, emphasis and
math read as typeset, and a search's match lands on its word after each of them."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.ui.conftest import write_list
from tests.ui.test_reader_rows import MakeApp, make_app, search, settle
from tests.ui.test_rendered_titles import OTHERS, highlighted_in_pane

__all__ = ["make_app"]  # the fixture, used by name

# Real abstracts' constructs (ICML lists), each followed by the word searched: the match must
# fall on that word in the rendered text, whose offsets the construct changed.
CASES = [
    (
        "We focus on graphs---DAGs---and inject a stronger inductive bias -- namely "
        "partial orders -- into a transformer we call Zephyrion.",
        "graphs—DAGs—and inject a stronger inductive bias – namely partial orders – into",
        "Zephyrion",
    ),
    (
        "Knowledge moves from a larger ''teacher'' model to a \"student'' one, which we "
        "distil in a new way called Quillbrook.",
        "from a larger “teacher” model to a “student” one",
        "Quillbrook",
    ),
    (
        "We exploit a phenomenon we call _inter-class poison transferability_, where a "
        "trigger found for one class serves another, in a scheme named Marrowgate.",
        "we call inter-class poison transferability, where",
        "Marrowgate",
    ),
    (
        "We give algorithms for every norm $p \\in \\{1,2,\\infty\\}$ with data in "
        "$\\mathbb{R}^d$, and a solver called Tarnwick.",
        "norm p ∈ {1,2,∞} with data in ℝᵈ",
        "Tarnwick",
    ),
    (  # a command in prose keeps the space after it, TeX's rule aside
        "We find an arm at most \\epsilon worse than the best with probability 1-\\delta for "
        "every \\epsilon \\in (0,1), where n\\gg S, by a scheme named Brindlewood.",
        "at most ϵ worse than the best with probability 1-δ for every ϵ ∈ (0,1), where n ≫ S,",
        "Brindlewood",
    ),
]


def _pane_text(app: object) -> str:
    detail = app.detail  # type: ignore[attr-defined]
    lines = [detail.render_line(y).text for y in range(detail.scrollable_content_region.height)]
    return " ".join(" ".join(lines).split())


@pytest.mark.parametrize(("abstract", "shown", "word"), CASES)
@pytest.mark.parametrize(
    ("size", "theme"), [((120, 40), "textual-dark"), ((80, 24), "textual-light")]
)
async def test_the_pane_shows_the_rendered_abstract_with_the_match_on_its_word(
    make_app: MakeApp,
    tmp_path: Path,
    abstract: str,
    shown: str,
    word: str,
    size: tuple[int, int],
    theme: str,
) -> None:
    app = make_app(write_list(tmp_path, "Rendered abstracts", [*OTHERS, abstract]))
    async with app.run_test(size=size) as pilot:
        app.theme = theme
        await settle(app, pilot)
        await search(app, pilot, word.lower())
        assert shown in _pane_text(app)
        highlighted = highlighted_in_pane(app, dark=theme.endswith("dark"))
        # On the word itself in the title and the abstract (the pane's "where found" line
        # names it as typed).
        assert word in highlighted
        assert {text.casefold() for text in highlighted} == {word.casefold()}

"""A row's hint: the abstract around the first match, found cheaply and cut where words are."""

from __future__ import annotations

from paperdeck.core.search.spans import highlighter
from paperdeck.ui.widgets.match_hint import WINDOWS, first_match, fit, hint_of


def test_the_first_match_is_found_across_the_stretches_searched_in_turn() -> None:
    filler = "word " * 200
    for at in range(WINDOWS[0] - 30, WINDOWS[0] + 10, 3):
        # A phrase across a stretch's end is found whole, where the whole text finds it.
        abstract = filler[:at] + " zebra crossing here " + filler
        phrase = highlighter('"zebra crossing"', "abstract")
        assert first_match(abstract, phrase) == tuple(phrase(abstract)[0]), at
    assert first_match(filler, highlighter("zebra", "abstract")) is None


def test_a_hint_renders_its_piece_and_never_cuts_a_formula_in_half() -> None:
    formula = "$" + " + ".join(f"\\alpha_{n}" for n in range(12)) + "$"
    abstract = "Many words come first here. " * 4 + f"We bound {formula} and it is tight; "
    abstract += "more words follow here. " * 20
    tight = highlighter("tight", "abstract")
    # The piece would start inside the formula: it starts at the formula's "$" instead.
    assert abstract.count("$", 0, abstract.index("tight") - 80) % 2
    hint = hint_of(abstract, tight)
    assert hint is not None
    assert "$" not in hint.text and "\\" not in hint.text and "α₀ + α₁" in hint.text
    text, spans = fit(hint, 40)
    assert len(text) <= 40 and [text[s:e] for s, e in spans] == ["tight"]
    # The lead before the match is a third of the room at most, from a word's start.
    assert text.startswith("…") and text.index("tight") <= 40 // 3 + 1

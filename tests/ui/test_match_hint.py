"""A row's hint: the piece of the abstract with the most words of the query, cut where words are."""

from __future__ import annotations

from paperdeck.core.search.query import parse_query
from paperdeck.core.search.spans import term_highlighter
from paperdeck.ui.widgets.match_hint import HintFinder, fit, hint_of


def test_a_hint_renders_its_piece_and_never_cuts_a_formula_in_half() -> None:
    formula = "$" + " + ".join(f"\\alpha_{n}" for n in range(12)) + "$"
    abstract = "Many words come first here. " * 4 + f"We bound {formula} and it is tight; "
    abstract += "more words follow here. " * 20
    tight = term_highlighter("tight", "abstract")
    # The piece would start inside the formula: it starts at the formula's "$" instead.
    assert abstract.count("$", 0, abstract.index("tight") - 80) % 2
    hint = hint_of(abstract, tight, [1.0])
    assert hint is not None
    assert "$" not in hint.text and "\\" not in hint.text and "α₀ + α₁" in hint.text
    text, spans = fit(hint, 40)
    assert len(text) <= 40 and [text[s:e] for s, e in spans] == ["tight"]
    # The lead before the match is a third of the room at most, from a word's start.
    assert text.startswith("…") and text.index("tight") <= 40 // 3 + 1


FILLER = "Some words that say little come here to pad the text out. "
ABSTRACT = (
    FILLER * 2
    + "We study federated learning on phones. "
    + FILLER * 3
    + "Clients keep privacy for federated averaging with secure aggregation. "
    + FILLER * 3
)


def test_the_hint_shows_where_most_words_the_row_lacks_match_together() -> None:
    query = parse_query("federated learning privacy")
    # Rarest first: privacy is in 5 papers, federated in 50, learning in 900.
    found = {term: count for term, count in zip(query.positive_terms(), (50, 900, 5), strict=True)}
    finder = HintFinder(query, found)
    hint = finder.hint("A title without the words", "", lambda: ABSTRACT)
    assert hint is not None
    text, spans = fit(hint, 100)
    # Not the first match ("federated learning on phones", without privacy): the piece with
    # federated and privacy together, drawn as matches.
    assert "privacy for federated averaging" in text and "phones" not in text
    assert [text[s:e] for s, e in spans] == ["privacy", "federated"]
    # Too narrow for both: the rarest word the row lacks.
    text, spans = fit(hint, 20)
    assert len(text) <= 20 and next(text[s:e] for s, e in spans) == "privacy"
    # A title with every word but privacy: the piece around privacy.
    hint = finder.hint("Federated learning at scale", "", lambda: ABSTRACT)
    assert hint is not None and "privacy" in fit(hint, 60)[0]
    # The abstract lacks the only word the title lacks: no hint.
    assert finder.hint("Federated learning at scale", "", lambda: FILLER * 4) is None


def test_filler_words_are_neither_drawn_nor_looked_for_in_a_hint() -> None:
    abstract = FILLER * 2 + "A method for many things. " + FILLER + "Graphs of molecules. "
    finder = HintFinder(parse_query("diffusion models for molecules"))
    hint = finder.hint("A title", "", lambda: abstract)
    assert hint is not None
    text, spans = fit(hint, 60)
    assert [text[s:e] for s, e in spans] == ["molecules"]

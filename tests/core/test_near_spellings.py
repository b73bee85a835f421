"""A search says which of its words no paper has, and the near spellings it matched instead."""

from __future__ import annotations

from tests.core.test_search import make

from paperdeck.core.search.index import SearchIndex
from paperdeck.core.search.near import NearSpelling, notice

PAPERS = make(
    [
        ("Reverse engineering recurrent networks", "We reverse the dynamics of a trained model."),
        ("Reversible residual networks", "Reversible layers save memory when reversed."),
        ("Revealing hidden structure", "We reveal what the model hides."),
        ("A curse of depth", "Deep models suffer the curse of depth."),
        ("Reversible flows", "Invertible maps for density estimation."),
    ],
    authors=("Yoshua Bengio",),
)


def test_a_word_no_paper_has_names_its_near_spellings_other_forms_first() -> None:
    index = SearchIndex(PAPERS)
    result = index.search("reversal")
    # The papers are still found (typo tolerance kept) ...
    assert {0, 1} <= set(result.indices)
    # ... and the result says why: no paper has the word itself.
    (near,) = result.near
    assert near.word == "reversal"
    # Other forms of the word first (the ranking puts them above typos), the most papers
    # first (two titles say "reversible"); then a spelling one or two letters off.
    assert near.near == ("reversible", "reverse", "reversed", "reveal")
    assert notice(result.near, 2).startswith('no paper has "reversal"; showing near spellings: ')
    assert notice(result.near, 2).endswith(f"+{len(near.near) - 2} more")


def test_nothing_is_said_when_every_word_or_word_start_matches() -> None:
    index = SearchIndex(PAPERS)
    assert index.search("reverse curse").near == ()
    # A word being typed: papers have words that start with it.
    assert index.search("revers").near == ()
    # Quoted, exact, excluded and short words are not typo-tolerant: nothing was guessed.
    for query in ('"reversal"', "'reversal", "curse !reversal", "rev"):
        assert index.search(query).near == (), query


def test_a_field_counts_only_its_own_words() -> None:
    index = SearchIndex(PAPERS)
    # "reversed" is in an abstract, not in a title: in titles it matched by near spellings.
    assert index.search("reversed").near == ()
    result = index.search("title:reversed")
    (near,) = result.near
    assert near.word == "reversed" and "reversed" not in near.near and "reverse" in near.near
    # Said of the titles: a paper has the word, in its abstract.
    assert notice(result.near).startswith('no title has "reversed"; showing near spellings: ')


def test_each_missing_word_is_said_once() -> None:
    index = SearchIndex(PAPERS)
    result = index.search("reversal curze reversal")
    assert [near.word for near in result.near] == ["reversal", "curze"]
    assert result.near[1] == NearSpelling("curze", ("curse",))


def test_an_author_no_paper_has_is_said_of_the_authors() -> None:
    result = SearchIndex(PAPERS).search("author:bengoi")
    assert notice(result.near) == 'no author named "bengoi"; showing near spellings: bengio'


def test_a_word_in_its_other_spelling_is_not_called_a_near_spelling() -> None:
    # The search matches "decentralised" as "decentralized" itself: it is not a typo.
    papers = make(
        [
            ("Decentralized SGD", "Quantized communication for decentralized training."),
            ("Centralised critics", "A centralised critic for many agents."),
        ]
    )
    index = SearchIndex(papers)
    for typed in ("decentralised", "quantised", "centralized critic"):
        assert index.search(typed).near == (), typed
    # A real near spelling is still named.
    assert index.search("decentralixed").near[0].near == ("decentralized",)

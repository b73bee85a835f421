"""Search: matching, folding, ranking on the bundled list, filters, sorting, spans, slicing."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperdeck.core.library import load_library
from paperdeck.core.model import Paper
from paperdeck.core.search import terms
from paperdeck.core.search.evaluate import LIKE_LIMIT
from paperdeck.core.search.index import SearchIndex, SearchResult
from paperdeck.core.search.rank import Needle, count_in
from paperdeck.core.search.spans import highlight_spans, highlighter
from paperdeck.core.text.fold import words

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "seeds" / "icml2026.txt"
META = ROOT / "tests" / "data" / "icml2026.meta.jsonl"

# Positions (0-based) of papers in the bundled list, by their real titles.
BUBBLESPEC = 3  # BubbleSpec: ... Speculative Rollout Drafts for Synchronous Reinforcement Learning
DECOMPILING = 6  # Discovering Interpretable Algorithms by Decompiling Transformers to RASP
TIME_SAMPLER = 8  # A Time-Reparameterized Cumulative Intensity Extrapolation Sampler ...
CHIRAL = 10  # Chiral Symmetry Breaking in Transformers: ... Solving the Reversal Curse ...
SAFESPEC = 11  # SafeSpec: Fast and Safe LLM via Dynamic Reflective Sampling
RL_SELF_DISTILLATION = 15  # Reinforcement Learning via Self-Distillation
KERNELS = 17  # Fast kernel methods: Sobolev, physics-informed, and additive models
HIERARCHICAL_GOALS = 2  # Hierarchical Goal Abstractions via Learned Subset Relations


def seed_papers() -> list[Paper]:
    paragraphs = [p.strip() for p in SEED.read_text(encoding="utf-8").split("\n\n")[1:]]
    paragraphs = [p for p in paragraphs if p]
    metas = [json.loads(line) for line in META.read_text(encoding="utf-8").splitlines()]
    assert len(paragraphs) == len(metas) == 19
    return [
        Paper(
            id=f"{i:08x}",
            position=i + 1,
            list_name="icml2026",
            title=meta["title"],
            title_derived=False,
            abstract=abstract,
            authors=tuple(meta.get("authors") or ()),
            venue=meta.get("venue"),
            year=meta.get("year"),
        )
        for i, (abstract, meta) in enumerate(zip(paragraphs, metas, strict=True))
    ]


@pytest.fixture(scope="module")
def papers() -> list[Paper]:
    return seed_papers()


@pytest.fixture(scope="module")
def index(papers: list[Paper]) -> SearchIndex:
    return SearchIndex(papers)


def make(titles_abstracts: Sequence[tuple[str, str]], **extra: object) -> list[Paper]:
    return [
        Paper(
            id=f"{i:08x}",
            position=i + 1,
            list_name="t",
            title=title,
            title_derived=False,
            abstract=abstract,
            **extra,  # type: ignore[arg-type]
        )
        for i, (title, abstract) in enumerate(titles_abstracts)
    ]


def found(index: SearchIndex, query: str, **kwargs: object) -> list[int]:
    """The papers matching every term of `query` (those with only some come after them)."""
    result = index.search(query, **kwargs)  # type: ignore[arg-type]
    return list(result.indices[: result.matched_all])


# ---- ranking on the bundled list ----


def test_speculative_decoding_puts_the_two_speculative_papers_first(index: SearchIndex) -> None:
    result = index.search("speculative decoding")
    assert set(result.indices[:2]) == {BUBBLESPEC, SAFESPEC}
    assert result.message is None


@pytest.mark.parametrize(
    "typo", ["speculatve", "speculativ", "spekulative", "specualtive", "peculative"]
)
def test_typos_still_find_the_speculative_papers(index: SearchIndex, typo: str) -> None:
    assert set(found(index, typo)[:2]) == {BUBBLESPEC, SAFESPEC}


def test_typo_in_reinforcement(index: SearchIndex) -> None:
    top = found(index, "reinforcment")
    # Both papers with "Reinforcement Learning" in the title come before abstract matches.
    assert set(top[:2]) == {BUBBLESPEC, RL_SELF_DISTILLATION}
    assert HIERARCHICAL_GOALS in top  # "reinforcement learning" in its abstract only
    assert found(index, "reinforcment learning")[:2] == found(index, "reinforcement learning")[:2]


def test_title_match_ranks_above_abstract_match(index: SearchIndex, papers: list[Paper]) -> None:
    top = found(index, "transformers")
    in_title = [i for i in top if "transformers" in papers[i].title.lower()]
    assert set(in_title) == {DECOMPILING, CHIRAL}
    assert set(top[:2]) == {DECOMPILING, CHIRAL}
    assert len(top) > 2  # abstracts that mention transformers follow


def test_scores_are_best_first(index: SearchIndex) -> None:
    result = index.search("interpretable transformers")
    assert list(result.scores) == sorted(result.scores, reverse=True)
    assert len(result.scores) == len(result.indices)
    assert result.indices[0] == DECOMPILING


def test_letters_scattered_across_a_paragraph_do_not_match(index: SearchIndex) -> None:
    # fzf would match these as subsequences of almost any abstract.
    for query in ("specdec", "sdcdng", "rnfrcmnt", "xqzv"):
        assert found(index, query) == [], query


def test_no_match(index: SearchIndex) -> None:
    result = index.search("photosynthesis")
    assert list(result.indices) == [] and list(result.scores) == []


def test_empty_query_lists_everything_in_list_order(index: SearchIndex) -> None:
    for query in ("", "   ", "/"):
        result = index.search(query)
        assert list(result.indices) == list(range(19))
        assert result.message is None


# ---- typing a query one character at a time ----

FIPN = 12  # FIPN: Forward Self-Organizing Interpretable Polynomial Networks for Time Series ...
SPRINT = 14  # See More, Forecast Better and Faster: Enhancing Time Series Foundation Models


@pytest.fixture(scope="module", params=[True, False], ids=["with-meta", "abstracts-only"])
def typed_index(request: pytest.FixtureRequest) -> SearchIndex:
    """The bundled list as the reader opens it, with its metadata sidecar and without."""
    library = load_library([SEED], use_sidecar=request.param)
    assert len(library.papers) == 19
    return SearchIndex(library.papers)


def keystrokes(query: str, shortest: int = 3) -> list[str]:
    """The query as it reads after each key of its last word, from `shortest` letters on."""
    head, _, last = query.rpartition(" ")
    lead = head + " " if head else ""
    return [lead + last[:end] for end in range(shortest, len(last) + 1)]


@pytest.mark.parametrize(
    ("query", "intended"),
    [
        ("speculative decoding", {BUBBLESPEC, SAFESPEC}),
        ("reinforcement learning", {BUBBLESPEC, RL_SELF_DISTILLATION, HIERARCHICAL_GOALS}),
        ("time series", {FIPN, SPRINT}),
        ("kernel regression", {KERNELS}),
        ("bubblespec", {BUBBLESPEC}),
        ("policy optimization", {RL_SELF_DISTILLATION}),
        ("reversal curse", {CHIRAL}),
        ("interpretable algorithms", {DECOMPILING}),
    ],
)
def test_typing_the_last_word_keeps_the_intended_papers_on_top(
    typed_index: SearchIndex, query: str, intended: set[int]
) -> None:
    assert set(found(typed_index, query)) == intended
    for typed in keystrokes(query):
        got = found(typed_index, typed)
        assert set(got[: len(intended)]) == intended, typed


@pytest.mark.parametrize(
    "query",
    [
        "speculative decoding",
        "reinforcement learning",
        "time series",
        "kernel regression",
        "language models",
        "graph neural networks",
        "hierarchical goal",
        "large language model reasoning",
        "tokenizers",
        "synchronous reinforcement",
    ],
)
def test_every_start_of_the_last_word_keeps_what_the_whole_word_finds(
    typed_index: SearchIndex, query: str
) -> None:
    """The list never empties mid-word: a start of three letters or more is a word start of
    every word the whole word matches (a typo-tolerant match may add papers on the way)."""
    whole = set(found(typed_index, query))
    assert whole
    for typed in keystrokes(query):
        assert whole <= set(found(typed_index, typed)), typed


@pytest.mark.parametrize(("word", "paper"), [("bubblespec", BUBBLESPEC), ("safespec", SAFESPEC)])
def test_one_or_two_letters_find_a_method_name(
    typed_index: SearchIndex, word: str, paper: int
) -> None:
    for typed in keystrokes(word, shortest=1):
        assert paper in found(typed_index, typed), typed


def test_one_or_two_letters_of_a_title_word_keep_the_papers(index: SearchIndex) -> None:
    # SafeSpec's title has "Dynamic", BubbleSpec's has "Drafts".
    assert set(found(index, "speculative d")[:2]) == {BUBBLESPEC, SAFESPEC}


# ---- operators ----


def test_phrase(index: SearchIndex) -> None:
    assert found(index, '"reversal curse"') == [CHIRAL]
    assert found(index, '"curse reversal"') == []
    # Separately, the words are all over the place; as a phrase they must be adjacent.
    assert found(index, '"models large"') == []
    assert found(index, "large models") != []


def test_unclosed_phrase_is_read_to_the_end(index: SearchIndex) -> None:
    result = index.search('"reversal cur')
    assert list(result.indices) == [CHIRAL]
    assert result.message is not None and "unclosed" in result.message


def test_exact_substring(index: SearchIndex, papers: list[Paper]) -> None:
    # A plain term matches whole words or word starts only; 'term matches inside words.
    assert found(index, "pretable") == []
    inside = found(index, "'pretable")
    assert inside and all("pretable" in papers[i].abstract + papers[i].title for i in inside)
    assert set(inside) == {
        i for i, p in enumerate(papers) if "pretable" in (p.title + p.abstract).lower()
    }
    # Exact: no typo tolerance.
    assert found(index, "'speculatve") == []


def test_exclusion(index: SearchIndex, papers: list[Paper]) -> None:
    with_chiral = found(index, "transformers")
    without = found(index, "transformers !chiral")
    assert CHIRAL in with_chiral and CHIRAL not in without
    assert set(without) == set(with_chiral) - {CHIRAL}

    # Exclusion alone: everything else, in list order. It hides papers with the word or a
    # word starting with it ("transformers", not "transformer").
    def has_word(i: int) -> bool:
        text = " ".join([papers[i].title, papers[i].abstract, *papers[i].authors])
        return any(word.startswith("transformers") for word in words(text))

    assert found(index, "!transformers") == [i for i in range(19) if not has_word(i)]


def test_exclusion_is_not_typo_tolerant(index: SearchIndex) -> None:
    # "!chiral" must not also hide papers that merely look like it.
    assert set(found(index, "!speculatve")) == set(range(19))


def test_or(index: SearchIndex) -> None:
    assert set(found(index, "chiral | bubblespec")) == {CHIRAL, BUBBLESPEC}
    assert found(index, "chiral | bubblespec reversal") == [CHIRAL]


def test_or_with_an_excluded_alternative(index: SearchIndex) -> None:
    # "chiral | !transformers": the chiral paper, and every paper without "transformers".
    result = index.search("chiral | !transformers")
    without = set(found(index, "!transformers"))  # checked word by word above
    assert 0 < len(without) < 19 and CHIRAL not in without
    assert set(result.indices) == without | {CHIRAL}
    assert result.indices[0] == CHIRAL  # a real match above the papers let in by "!"
    assert found(index, "!transformers !chiral") == sorted(without - {CHIRAL})


def test_unread_is_every_paper_but_the_read_and_reading_ones(index: SearchIndex) -> None:
    ids = [f"{i:08x}" for i in range(19)]
    notes = {ids[0]: Note(state="read"), ids[18]: Note(state="reading"), ids[5]: Note()}
    assert found(index, "is:unread", annotations=notes) == list(range(1, 18))
    assert found(index, "!is:unread", annotations=notes) == [0, 18]
    assert found(index, "is:unread | is:read", annotations=notes) == list(range(18))
    assert CHIRAL in found(index, "is:unread chiral", annotations=notes)


def test_lone_operators_never_fail(index: SearchIndex) -> None:
    for query in ("!", "|", "'", '"', "! |", "title:", "!title:", "year:", '""'):
        result = index.search(query)
        assert isinstance(result, SearchResult)


# ---- fields ----


def test_title_field(index: SearchIndex, papers: list[Paper]) -> None:
    top = found(index, "title:transformers")
    assert set(top[:2]) == {DECOMPILING, CHIRAL}
    assert all("transformer" in papers[i].title.lower() for i in top)
    assert found(index, 'title:"reversal curse"') == [CHIRAL]
    assert found(index, "title:energy") == [1]


def test_author_field(index: SearchIndex) -> None:
    assert found(index, "author:hahn") == [DECOMPILING]
    # Accents fold: Hübotter.
    assert found(index, "author:hubotter") == [RL_SELF_DISTILLATION]
    assert found(index, "author:Hübotter") == [RL_SELF_DISTILLATION]
    assert found(index, "authors:bach") == [KERNELS]
    # An author's name in the abstract is not an author.
    assert found(index, "author:transformers") == []


def test_author_words_are_searched_without_a_field(index: SearchIndex) -> None:
    assert found(index, "krause")[0] == RL_SELF_DISTILLATION


def test_venue_and_year(index: SearchIndex) -> None:
    assert len(found(index, "venue:icml")) == 19
    assert found(index, "venue:neurips") == []
    assert len(found(index, "year:2026")) == 19
    assert found(index, "year:2020..2023") == []
    assert len(found(index, "year:2025..")) == 19
    assert found(index, "!year:2026") == []


def test_year_ranges_on_mixed_years() -> None:
    papers = [
        Paper(
            id=f"{year:08x}",
            position=i + 1,
            list_name="t",
            title=f"paper {year}",
            title_derived=False,
            abstract="graph learning",
            year=year,
        )
        for i, year in enumerate((2019, 2020, 2021, 2023, 2024))
    ]
    index = SearchIndex(papers)
    assert found(index, "year:2020..2023") == [1, 2, 3]
    assert found(index, "year:2021") == [2]
    assert found(index, "year:..2020 graph") == [0, 1]
    assert found(index, "!year:2020..2023") == [0, 4]
    assert found(index, "year:2019 | year:2024") == [0, 4]


def test_bad_year_gives_a_message_not_an_error(index: SearchIndex) -> None:
    result = index.search("year:abc transformers")
    assert result.message is not None and "year:abc" in result.message
    assert set(result.indices) == set(found(index, "transformers"))


def test_method_field_is_searched() -> None:
    papers = [
        Paper(
            id="0000000a",
            position=1,
            list_name="t",
            title="A study",
            title_derived=True,
            abstract="We study graphs.",
            method="GraphZilla",
        ),
        Paper(
            id="0000000b",
            position=2,
            list_name="t",
            title="Another study",
            title_derived=True,
            abstract="We study graphzilla as a baseline.",
        ),
    ]
    assert found(SearchIndex(papers), "graphzilla") == [0, 1]


# ---- folding ----


def test_folding_rules_on_the_bundled_list(index: SearchIndex) -> None:
    assert found(index, "O(n log n)") == [KERNELS]  # $\mathcal{O}(n \log n)$
    assert TIME_SAMPLER in found(index, "tau")  # $\tau$
    assert 18 in found(index, "naive")  # naïve
    assert found(index, "naïve") == found(index, "naive")
    assert HIERARCHICAL_GOALS in found(index, "self supervised")  # self-supervised


def test_folding_rules() -> None:
    papers = make(
        [
            ("One", "Sampling at temperature τ is studied."),
            ("Two", "We use self supervised pre-training."),
            ("Three", r"A bound of $\mathcal{O}(\sqrt{T})$ with a NAÏVE baseline."),
            ("Four", "Nothing to see."),
        ]
    )
    index = SearchIndex(papers)
    assert found(index, "tau") == [0]
    assert found(index, "τ") == [0]
    assert found(index, "self-supervised") == [1]
    assert found(index, "self-supervsed") == [1]  # a typo inside a hyphenated term
    # A word no paper has, that is two words a paper has hyphenated.
    assert found(index, "pretraining") == [1]
    assert found(index, "selfsupervised") == [1]
    assert found(index, "pre-training") == [1]
    assert found(index, "O(sqrt T)") == [2]
    assert found(index, "naive") == [2]


def test_smart_case() -> None:
    papers = make(
        [
            ("Uses an llm", "lower case only"),
            ("Uses an LLM", "upper case"),
            ("Nothing", "LLMs everywhere"),
        ]
    )
    index = SearchIndex(papers)
    assert set(found(index, "llm")) == {0, 1, 2}
    assert found(index, "LLM") == [1, 2]
    assert found(index, "LLMs")[0] == 2  # "LLM" is one typo away: after it
    assert found(index, '"an LLM"') == [1]
    assert found(index, "'LM") == [1, 2]


# ---- ranking rules on small lists ----


def test_whole_word_above_word_start_above_typo() -> None:
    papers = make(
        [
            ("Graphical models", "x"),  # word start
            ("Grapf theory", "x"),  # typo
            ("Graph theory", "x"),  # whole word
        ]
    )
    assert found(SearchIndex(papers), "graph") == [2, 0, 1]


def test_a_finished_word_is_a_word_not_a_word_start() -> None:
    """`coin` of `coin sampling` is finished: `coincide` does not pass for it, so the paper
    with the word itself, missing the other, is the first below the divider. Its plural is
    the word; as the last word, still being typed, it is a word start too."""
    papers = make(
        [
            ("Flipping coins for exploration", "Counts estimated by sampling."),
            ("When do two risks coincide?", "Bounds under random sampling."),
            ("Coin betting for inference", "Particle methods without learning rates."),
        ]
    )
    index = SearchIndex(papers)
    result = index.search("coin sampling")
    assert (result.matched_all, list(result.indices)) == (1, [0, 2, 1])
    assert highlight_spans("coin sampling", "two risks coincide") == []
    assert highlight_spans("coin sampling", "coins") == [(0, 5)]
    assert found(index, "sampling coin") == [0, 1]
    assert highlight_spans("sampling coin", "two risks coincide") == [(10, 18)]


def test_a_finished_short_word_keeps_its_plural() -> None:
    papers = make(
        [
            ("Agents that plan", "LLMs act as agents."),
            ("Agents that plan", "Hierarchical planning for agents."),
            ("LLMing agents", "x"),
        ]
    )
    assert found(SearchIndex(papers), "llm agents") == [0]
    assert highlight_spans("llm agents", "LLMs act") == [(0, 4)]


def test_an_acronym_in_the_plural_finds_it_in_the_singular_as_another_form() -> None:
    """`llms` and `llm` have different stems (no vowel before the "s"): the singular is
    another form of the word all the same, above a word one letter away."""
    papers = make([("Small lms", "x"), ("An LLM planner", "x")])
    assert found(SearchIndex(papers), "llms") == [1, 0]


def test_a_short_word_papers_have_takes_no_typo() -> None:
    """`coin` is in a paper: one letter of four off (`con`) is another word, not a typo of
    it. A short word no paper has is still taken for a typo of one they have."""
    papers = make([("Coin betting", "x"), ("Con artists", "y"), ("Coins flipped", "z")])
    index = SearchIndex(papers)
    assert found(index, "coin") == [0, 2]
    assert found(index, "betting coin") == [0]
    assert set(found(index, "cion")) >= {0}


def test_the_highlighters_typo_decision_is_the_searchs_for_every_short_word_start() -> None:
    """`takes_typos` (asked per term per search, for the highlighter) answers without expanding
    the word; it must answer as the search's own expansion decides, for each short word and
    word start of the list, whole and being typed."""
    index = SearchIndex(seed_papers())
    matcher = index._evaluator._terms
    vocabulary = matcher._index.vocabulary
    starts = {word[:end] for word in vocabulary for end in range(1, 5)}
    starts |= {"coin", "cion", "llm", "llms", "qzx"}
    for word in sorted(starts):
        for prefix in (False, True):
            found = matcher._as_typed(word, prefix, fuzzy=True)
            typed = any(kind in (terms.EXACT, terms.PREFIX) for kind, _ in found)
            assert matcher.takes_typos(word, prefix) == terms._typos_allowed(word, typed), (
                word,
                prefix,
            )


def test_fields_rank_title_then_authors_then_abstract() -> None:
    papers = [
        Paper("0000000a", 1, "t", "Other", False, "About bandits.", authors=("A B",)),
        Paper("0000000b", 2, "t", "Other", False, "Nothing.", authors=("Bandit Smith",)),
        Paper("0000000c", 3, "t", "Bandit algorithms", False, "Nothing.", authors=("C D",)),
    ]
    assert found(SearchIndex(papers), "bandit") == [2, 1, 0]


def test_consecutive_words_rank_above_scattered_ones() -> None:
    papers = make(
        [
            ("Language for large scale models", "x"),
            ("Large language models", "x"),
        ]
    )
    assert found(SearchIndex(papers), "large language models") == [1, 0]


def test_more_close_matches_rank_first_and_ties_keep_list_order() -> None:
    papers = make(
        [
            ("Kernel tricks", "graphs"),
            ("Graph kernels", "x"),
            ("Graph kernel", "x"),
            ("Graph kernel", "y"),
        ]
    )
    assert found(SearchIndex(papers), "graph kernel") == [2, 3, 1, 0]


# ---- annotations ----


@dataclass
class Note:
    note: str = ""
    tags: Sequence[str] = field(default_factory=tuple)
    state: str = "unread"
    starred: bool = False
    updated: float = 0.0


def test_annotation_filters(index: SearchIndex, papers: list[Paper]) -> None:
    notes = {
        papers[1].id: Note(note="Read later, about energy gating", tags=("todo",), updated=5.0),
        papers[4].id: Note(starred=True, state="read", updated=1.0),
        papers[7].id: Note(tags=("ToDo", "games"), state="reading", updated=9.0),
        "not-in-this-list": Note(note="gating", starred=True),
    }
    assert found(index, "tag:todo", annotations=notes) == [1, 7]
    assert found(index, "tag:games", annotations=notes) == [7]
    assert found(index, "note:gating", annotations=notes) == [1]
    assert found(index, "note:gat", annotations=notes) == [1]
    assert found(index, "is:starred", annotations=notes) == [4]
    assert found(index, "is:read", annotations=notes) == [4]
    assert found(index, "is:reading", annotations=notes) == [7]
    assert found(index, "has:note", annotations=notes) == [1]
    assert found(index, "is:unread", annotations=notes) == [i for i in range(19) if i not in (4, 7)]
    assert found(index, "!is:starred", annotations=notes) == [i for i in range(19) if i != 4]
    assert found(index, "tag:todo energy", annotations=notes) == [1]


def _noted_library(count: int) -> tuple[SearchIndex, dict[str, Note]]:
    """`count` papers, each with a note of about 600 characters of ordinary words."""
    import random

    rng = random.Random(4)
    vocabulary = [
        "in",
        "this",
        "paper",
        "we",
        "study",
        "the",
        "spec",
        "specification",
        "speculative",
        "decoding",
        "of",
        "large",
        "models",
        "and",
        "show",
        "that",
        "our",
        "method",
        "beats",
        "baselines",
        "on",
        "several",
        "benchmarks",
        "with",
        "fewer",
        "steps",
    ]
    papers = make([(f"Paper {i}", "An abstract.") for i in range(count)])
    notes: dict[str, Note] = {}
    for paper in papers:
        text = ""
        while len(text) < 600:
            text += rng.choice(vocabulary) + " "
        notes[paper.id] = Note(note=text)
    return SearchIndex(papers), notes


@pytest.mark.parametrize("query", ["note:spec", 'note:"in this"', "note:speculatve"])
def test_note_search_yields_between_slices_at_5000_notes(
    query: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.core.plumbing import slices
    from paperdeck.core.search.query import parse_query
    from paperdeck.core.search.spans import _text_spans

    index, notes = _noted_library(5000)
    term = parse_query(query).positive_terms()[0]
    expected = [i for i, entry in enumerate(notes.values()) if _text_spans(term, entry.note)]
    # Every slice is due at once: the count of yields shows where the search can pause,
    # whatever this machine's speed (the unsliced version read all 5,000 notes in one go).
    monkeypatch.setattr(slices, "SLICE", -1.0)
    steps = index.search_steps(query, annotations=notes)
    yields = 0
    while True:
        try:
            next(steps)
        except StopIteration as done:
            result: SearchResult = done.value
            break
        yields += 1
    monkeypatch.undo()
    assert yields >= 20, f"{query}: the notes were read in {yields} slices"
    assert sorted(result.indices) == expected
    assert 0 < len(expected) < 5000 or query == "note:spec"
    # A note edited since the last search is read afresh.
    first = next(iter(notes))
    notes[first] = Note(note="nothing relevant here")
    assert 0 not in index.search(query, annotations=notes).indices


def test_annotation_filters_without_annotations(index: SearchIndex) -> None:
    for query in ("tag:todo", "note:gating", "is:starred", "is:read", "has:note"):
        assert found(index, query) == [], query
    assert found(index, "is:unread") == list(range(19))


def test_sort_modes(index: SearchIndex, papers: list[Paper]) -> None:
    notes = {
        papers[9].id: Note(note="older note", updated=1.0),
        papers[13].id: Note(note="newest note", updated=3.0),
        papers[6].id: Note(note="middle note", updated=2.0),
        papers[0].id: Note(note="   ", updated=9.0),  # blank: not a note
    }
    relevance = found(index, "transformers")
    by_list = found(index, "transformers", sort="list")
    assert by_list == sorted(relevance)
    noted = found(index, "transformers", annotations=notes, sort="noted")
    assert noted[:3] == [13, 6, 9]
    assert noted[3:] == [i for i in by_list if i not in (13, 6, 9)]
    assert found(index, "", annotations=notes, sort="noted")[:4] == [13, 6, 9, 0]
    assert found(index, "", sort="noted") == list(range(19))


# ---- spans ----


def test_highlight_spans_in_a_title() -> None:
    title = "BubbleSpec: Turning Long-Tail Bubbles into Speculative Rollout Drafts"
    spans = highlight_spans("speculative rollout", title)
    assert [title[a:b] for a, b in spans] == ["Speculative", "Rollout"]
    assert [title[a:b] for a, b in highlight_spans("specul", title)] == ["Speculative"]
    assert [title[a:b] for a, b in highlight_spans("speculatve", title)] == ["Speculative"]
    assert [title[a:b] for a, b in highlight_spans("'bble", title)] == ["bble", "bble"]
    assert [title[a:b] for a, b in highlight_spans('"long tail"', title)] == ["Long-Tail"]
    assert highlight_spans("!bubbles", title) == []
    assert highlight_spans("", title) == []


def test_highlighter_follows_each_field_like_match_spans(
    index: SearchIndex, papers: list[Paper]
) -> None:
    abstract = "Smith et al. proposed a speculative method."
    title = "Speculative decoding, after Smith"
    # A field term highlights only in its field: `author:smith` is not in an abstract.
    assert highlighter("author:smith", "abstract")(abstract) == []
    assert highlighter("author:smith", "title")(title) == []
    assert [abstract[a:b] for a, b in highlighter("smith", "abstract")(abstract)] == ["Smith"]
    assert [title[a:b] for a, b in highlighter("smith", "title")(title)] == ["Smith"]
    assert [title[a:b] for a, b in highlighter("title:specul", "title")(title)] == ["Speculative"]
    assert highlighter("title:specul", "abstract")(abstract) == []
    authors = "Ada Smith, Bo Li"
    assert [authors[a:b] for a, b in highlighter("author:smith", "authors")(authors)] == ["Smith"]
    assert highlighter("!smith", "title")(title) == []
    # The same answer as match_spans for a paper of the index, field by field.
    query = "author:xu speculative title:decoding"
    for at in range(len(index)):
        expected = index.match_spans(query, at)
        texts = {"title": papers[at].title, "abstract": papers[at].abstract}
        for name, text in texts.items():
            assert highlighter(query, name)(text) == expected[name]


def test_highlight_spans_in_latex() -> None:
    text = r"A bound $\mathcal{O}(n \log n)$ at temperature $\tau$, naïve."
    spans = highlight_spans("tau naive", text)
    assert [text[a:b] for a, b in spans] == [r"\tau", "naïve"]
    formula = highlight_spans("O(n log n)", text)
    assert [text[a:b] for a, b in formula] == [r"O}(n \log n"]


def test_highlight_spans_are_sorted_and_disjoint() -> None:
    text = "graph graphs graphical grapf, graph-kernels"
    spans = highlight_spans("graph | graphical graph-ker", text)
    assert spans == sorted(spans)
    assert all(b < c for (_, b), (c, _) in itertools.pairwise(spans))
    # "graph" inside the phrase "graph-ker" overlaps the word match "graph": one span.
    assert [text[a:b] for a, b in spans] == [
        "graph",
        "graphs",
        "graphical",
        "grapf",
        "graph-kernels",
    ]


def test_match_spans_per_field(index: SearchIndex, papers: list[Paper]) -> None:
    spans = index.match_spans("speculative author:tian", BUBBLESPEC)
    paper = papers[BUBBLESPEC]
    assert set(spans) == {"title", "method", "authors", "abstract"}
    assert [paper.title[a:b] for a, b in spans["title"]] == ["Speculative"]
    authors = ", ".join(paper.authors)
    assert [authors[a:b] for a, b in spans["authors"]] == ["Tian", "Tian"]
    assert spans["abstract"] and all(
        paper.abstract[a:b].lower().startswith("speculative") for a, b in spans["abstract"]
    )
    assert spans["method"] == []
    only_title = index.match_spans("title:speculative", BUBBLESPEC)
    assert only_title["title"] and only_title["abstract"] == []


# ---- slices ----


def test_build_steps_yields_progress_and_builds_the_same_index(papers: list[Paper]) -> None:
    steps = SearchIndex.build_steps(papers)
    progress: list[float] = []
    try:
        while True:
            progress.append(next(steps))
    except StopIteration as done:
        built = done.value
    assert progress == sorted(progress) and progress[-1] == 1.0 and progress[0] >= 0.0
    assert isinstance(built, SearchIndex)
    assert found(built, "speculative decoding") == found(
        SearchIndex(papers), "speculative decoding"
    )


def test_search_steps_returns_what_search_returns(index: SearchIndex) -> None:
    for query in ("speculative decoding", "transformers !chiral", "'nterp", ""):
        steps = index.search_steps(query)
        try:
            while True:
                next(steps)
        except StopIteration as done:
            result = done.value
        assert result == index.search(query)


def test_a_stale_search_can_be_dropped(index: SearchIndex) -> None:
    steps = index.search_steps("speculative decoding")
    next(steps, None)
    steps.close()  # the reader simply stops resuming it
    assert found(index, "speculative decoding")[:2] in (
        [BUBBLESPEC, SAFESPEC],
        [SAFESPEC, BUBBLESPEC],
    )


def test_empty_list() -> None:
    index = SearchIndex([])
    assert list(index.search("graph").indices) == []
    assert list(index.search("").indices) == []


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_arbitrary_queries_never_raise(index: SearchIndex, query: str) -> None:
    result = index.search(query)
    assert len(result.indices) == len(result.scores)
    assert all(0 <= i < 19 for i in result.indices)
    highlight_spans(query, "Speculative decoding with $\\tau$ naïve")
    index.match_spans(query, BUBBLESPEC)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "!",
                "|",
                "'",
                '"',
                "(",
                ")",
                "title:",
                "author:",
                "year:",
                "is:",
                "tag:",
                "spec",
                "RL",
                " ",
                "decoding",
                "2026..",
                "..",
                "$",
                "\\tau",
                "naïve",
                "-",
            ]
        )
    ).map("".join)
)
def test_operator_soup_never_raises(index: SearchIndex, query: str) -> None:
    result = index.search(query, annotations={})
    assert len(result.indices) == len(result.scores)


def test_a_result_carries_its_parsed_query_and_highlighting_reads_it(
    papers: list[Paper], monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.core.search import spans
    from paperdeck.core.search.query import parse_query

    index = SearchIndex(papers)
    result = index.search("speculative decoding")
    assert result.parsed == parse_query("speculative decoding")
    title = papers[result.indices[0]].title

    def no_parse(text: str) -> None:
        raise AssertionError(f"parsed again: {text!r}")

    monkeypatch.setattr(spans, "parse_query", no_parse)
    marked = [title[a:b].lower() for a, b in spans.highlighter(result.parsed, "title")(title)]
    assert marked and all(word.startswith(("specul", "decod")) for word in marked)


# ---- other forms of a word ----


def _forms_papers() -> list[Paper]:
    return make(
        [
            ("Learned index structures", "A learned index replaces the B-tree."),
            ("Optimal transport", "Distances between distributions, computed fast."),
            ("Tokens", "How many tokens a model reads."),
            ("Index of refraction", "Light slows down in glass."),
            ("Speech", "Tokenizers for speech."),
        ]
        + [(f"Filler {i}", "We study models and training.") for i in range(10)]
    )


def test_another_form_of_a_word_finds_the_paper_and_is_marked() -> None:
    papers = _forms_papers()
    index = SearchIndex(papers)
    # The title a user remembers says "indexes" and "distance"; the papers say otherwise.
    assert found(index, "learned indexes") == [0]
    assert found(index, "wasserstein distance") == []
    assert found(index, "optimal distance") == [1]
    # The word as typed ranks above another form of it.
    assert found(index, "tokens") == [2, 4]
    assert set(found(index, "indexes")) == {0, 3}
    marked = [papers[0].abstract[a:b] for a, b in highlight_spans("indexes", papers[0].abstract)]
    assert marked == ["index"]
    spans = index.match_spans("optimal distance", 1)
    assert [papers[1].abstract[a:b] for a, b in spans["abstract"]] == ["Distances"]


def test_a_quoted_phrase_and_capitals_take_the_word_as_written() -> None:
    index = SearchIndex(_forms_papers())
    assert found(index, '"learned indexes"') == []
    assert found(index, "Indexes") == []


def test_typing_a_word_keeps_the_papers_its_other_forms_bring() -> None:
    index = SearchIndex(_forms_papers())
    whole = set(found(index, "tokenizers"))
    assert whole == {2, 4}  # "tokenizers" and "tokens" share the stem "token"
    for typed in keystrokes("tokenizers"):
        assert whole <= set(found(index, typed)), typed


# ---- papers with some of the words, below those with all of them ----


def _some_words_papers() -> list[Paper]:
    return make(
        [
            ("Sparse attention", "We make attention sparse for long documents."),
            ("Graph kernels", "Kernels on graphs; attention is not used."),
            ("Tokenizers", "A study of tokenizers for speech."),
            ("Sparse graph attention", "Attention over sparse graphs."),
            ("Speech attention", "Attention for speech with long context."),
        ]
        + [(f"Filler {i}", "attention models for language") for i in range(10)]
    )


def test_papers_with_every_word_come_first_then_those_with_some() -> None:
    index = SearchIndex(_some_words_papers())
    result = index.search("sparse graph attention")
    assert result.matched_all == 1
    assert result.indices[0] == 3
    some = list(result.indices[1:])
    # "graph" and "sparse" are rare, "attention" is in every paper: the papers with one of the
    # rare words come before the many with only "attention".
    assert set(some[:2]) == {0, 1}
    assert set(some[2:]) == set(range(15)) - {0, 1, 2, 3}  # 2 has none of the words
    assert len(result.scores) == len(result.indices)


def test_all_terms_keeps_only_the_papers_with_every_word() -> None:
    index = SearchIndex(_some_words_papers())
    result = index.search("sparse graph attention", all_terms=True)
    assert list(result.indices) == [3] and result.matched_all == 1


def test_a_query_no_paper_matches_in_full_still_finds_the_closest() -> None:
    index = SearchIndex(_some_words_papers())
    result = index.search("tokenizers speech sparse")
    assert result.matched_all == 0
    # The only paper with two of the three words, the rarest two, first.
    assert result.indices[0] == 2
    assert set(result.indices) == {0, 2, 3, 4}


def test_filters_and_exclusions_hold_below_the_divider() -> None:
    index = SearchIndex(_some_words_papers())
    result = index.search("sparse graph attention !speech !filler")
    assert set(result.indices) == {0, 1, 3}
    years = make([("Sparse", "x"), ("Graph", "y"), ("Sparse graph", "z")])
    years = [replace(paper, year=2020 + i) for i, paper in enumerate(years)]
    result = SearchIndex(years).search("sparse graph year:2020..2021")
    assert list(result.indices) == [0, 1] and result.matched_all == 0


def test_a_single_word_has_no_papers_below_the_divider() -> None:
    index = SearchIndex(_some_words_papers())
    result = index.search("sparse")
    assert result.matched_all == len(result.indices) == 2


def test_alternatives_are_weighted_by_rarity() -> None:
    index = SearchIndex(_some_words_papers())
    result = index.search("graph | attention")
    # Both words beat one.
    assert set(result.indices[:2]) == {1, 3}
    assert result.matched_all == len(result.indices) == 14
    # The rare word alone beats the common one alone (both in a title).
    assert index.search("tokenizers | attention").indices[0] == 2


# ---- related papers ----


def test_related_papers_share_the_seeds_rarest_words() -> None:
    from paperdeck.core.search.related import related

    papers = make(
        [
            ("Speculative decoding", "We draft tokens with a speculative drafter for decoding."),
            ("Faster decoding", "A speculative drafter makes decoding faster."),
            ("Graph kernels", "Kernels on graphs compare molecules."),
            ("Decoding graphs", "We study graphs."),
        ]
        + [(f"Filler {i}", "We study models and training.") for i in range(20)]
    )
    index = SearchIndex(papers).word_index
    found = related(index, [0], limit=3)
    assert found[0].index == 1
    assert {"speculative", "drafter"} <= set(found[0].shared)
    assert 0 not in [like.index for like in found]
    # Several seeds: what they share with others, none of the seeds listed.
    both = related(index, [0, 2], limit=5)
    assert {like.index for like in both} >= {1, 3} and not {0, 2} & {x.index for x in both}
    assert related(index, [], limit=3) == []
    # A `like:` search hands its answer on with the result: the reader shows the words each
    # paper shares from it rather than asking again.
    whole = SearchIndex(papers)
    result = whole.search(f"like:{papers[0].id} | like:{papers[2].id}")
    assert dict(result.related) == {
        (0,): tuple(related(whole.word_index, [0], LIKE_LIMIT)),
        (2,): tuple(related(whole.word_index, [2], LIKE_LIMIT)),
    }
    assert result.related[(0,)][0].index == 1
    assert whole.search("speculative").related == {}


def test_like_lists_the_paper_then_those_like_it() -> None:
    papers = make(
        [
            ("Speculative decoding", "We draft tokens with a speculative drafter for decoding."),
            ("Faster decoding", "A speculative drafter makes decoding faster."),
            ("Graph kernels", "Kernels on graphs compare molecules."),
        ]
        + [(f"Filler {i}", "We study models and training.") for i in range(20)]
    )
    index = SearchIndex(papers)
    assert found(index, f"like:{papers[0].id}")[:2] == [0, 1]
    assert found(index, "like:1")[:2] == [0, 1]  # a position
    assert found(index, f"like:{papers[0].id} !faster")[:1] == [0]
    assert 1 not in found(index, f"like:{papers[0].id} !faster")
    assert found(index, "like:nothing") == []
    # A reference that names no paper is said, not passed over in silence.
    assert index.search("like:nothing").message == "like:nothing: no paper with that id or position"
    assert index.search("like:99 decoding").message == "like:99: no paper with that id or position"
    assert index.search("like:1").message is None
    notes = {papers[2].id: Note(starred=True)}
    assert found(index, "like:starred", annotations=notes)[:1] == [2]


@pytest.mark.parametrize(
    "query",
    [
        "sparse graph attention",
        "tokenizers speech sparse",
        "sparse graph attention !speech !filler",
        "sparse graph year:2020..2021",
        "attention models language",
        "graph | kernels attention",
        '"sparse graph" attention speech',
        "!speech !filler",
        "attention year:2021",
        "like:1 attention",
        "attention",
        "sparse !speech",
        "at",
        "s",
        "grap",
    ],
)
def test_many_papers_below_the_divider_rank_as_few_do(
    query: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big list scores its papers as arrays, above and below the divider: the same order
    and scores as the dicts a small list uses."""
    from paperdeck.core.search import arrays

    papers = [replace(p, year=2020 + i % 3) for i, p in enumerate(_some_words_papers())]
    expected = SearchIndex(papers).search(query)
    monkeypatch.setattr(arrays, "ARRAYS_FROM", 0)
    monkeypatch.setattr(arrays, "ARRAYS_BEFORE_IMPORT_FROM", 0)
    got = SearchIndex(papers).search(query)
    assert got.matched_all == expected.matched_all
    assert list(got.indices) == list(expected.indices)
    assert got.scores == pytest.approx(expected.scores)


def test_an_index_scores_as_arrays_only_once_prepared_or_for_far_more_papers(
    papers: list[Paper], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Which path scores a query is the index's own state, not whether some other code imported
    numpy: dicts until `prepare_arrays` (a command's one search), arrays after it (a reader)."""
    import numpy  # noqa: F401  (imported: it must not decide the path)

    from paperdeck.core.search import arrays

    assert not arrays.pays_off(arrays.ARRAYS_FROM, prepared=False)
    assert arrays.pays_off(arrays.ARRAYS_BEFORE_IMPORT_FROM, prepared=False)
    assert arrays.pays_off(arrays.ARRAYS_FROM, prepared=True)
    assert not arrays.pays_off(arrays.ARRAYS_FROM - 1, prepared=True)
    monkeypatch.setattr(arrays, "ARRAYS_FROM", 1)
    scored: list[str] = []
    real_intersect, real_partial = arrays.intersect_steps, arrays.partial_steps

    def intersect_steps(*args: Any, **kwargs: Any) -> Any:
        scored.append("intersect")
        return real_intersect(*args, **kwargs)

    def partial_steps(*args: Any, **kwargs: Any) -> Any:
        scored.append("partial")
        return real_partial(*args, **kwargs)

    monkeypatch.setattr(arrays, "intersect_steps", intersect_steps)
    monkeypatch.setattr(arrays, "partial_steps", partial_steps)
    index = SearchIndex(papers)
    assert not index.arrays_prepared
    with_dicts = index.search("reinforcement learning policy")
    assert scored == []
    assert index.prepare_arrays() and index.arrays_prepared
    with_arrays = index.search("reinforcement learning policy")
    assert scored == ["intersect", "partial"]
    assert with_arrays.matched_all == with_dicts.matched_all
    assert list(with_arrays.indices[:20]) == list(with_dicts.indices[:20])


def test_a_prepared_index_knows_each_letters_word_starts_and_searches_the_same(
    papers: list[Paper], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader's index works out, once prepared, the papers with a title (method, author)
    word starting with each letter: the first key of every word after the first asks for
    one. What it works out is what a search would have, and searches answer the same."""
    from paperdeck.core.search import arrays
    from paperdeck.core.search.word_index import ABSTRACT, FIELDS

    monkeypatch.setattr(arrays, "ARRAYS_FROM", 1)
    unprepared = SearchIndex(papers)
    index = SearchIndex(papers)
    assert index.prepare_arrays()
    known = index.word_index.short_prefixes
    for number in range(len(FIELDS)):
        if number == ABSTRACT:
            assert known[number] == {}
            continue
        postings = index.word_index.postings[number]
        letters = {word[0] for word in postings}
        assert set(known[number]) >= letters - {""}
        for letter in letters:
            expected = sorted(
                {i for word, docs in postings.items() if word[:1] == letter for i in docs}
            )
            assert list(known[number][letter]) == expected, (FIELDS[number], letter)
    for query in ("reinforcement l", "policy g", "a", "speculative d", "graph n"):
        assert index.search(query).indices[:30] == unprepared.search(query).indices[:30]


def test_a_small_index_is_not_prepared_for_arrays(papers: list[Paper]) -> None:
    index = SearchIndex(papers)
    assert not index.prepare_arrays()
    assert not index.arrays_prepared


def test_seed_queries_rank_the_same_as_arrays(
    papers: list[Paper], monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.core.search import arrays

    queries = ["speculative decoding", "reinforcement learning policy", "time series kernel"]
    expected = [SearchIndex(papers).search(q) for q in queries]
    monkeypatch.setattr(arrays, "ARRAYS_FROM", 0)
    monkeypatch.setattr(arrays, "ARRAYS_BEFORE_IMPORT_FROM", 0)
    index = SearchIndex(papers)
    for query, before in zip(queries, expected, strict=True):
        got = index.search(query)
        assert list(got.indices) == list(before.indices), query
        assert got.scores == pytest.approx(before.scores), query


def test_below_the_best_few_the_order_is_by_score_to_a_fine_step() -> None:
    import numpy as np

    from paperdeck.core.search.arrays import ranked_lazily

    def ranked_by_score(
        candidates: np.ndarray, scores: np.ndarray, exact: int
    ) -> tuple[list[int], list[float]]:
        ranked, scores_of = ranked_lazily(candidates, scores, exact)
        return list(ranked), list(scores_of)

    rng = np.random.default_rng(7)
    scores = np.round(rng.random(2000) * 100, 1) + 0.5  # many ties
    candidates = np.arange(0, 4000, 2)
    ranked, ranked_scores = ranked_by_score(candidates, scores, 50)
    assert sorted(ranked) == candidates.tolist()
    assert ranked_scores == [scores[i // 2] for i in ranked]
    # The best 50 exactly, ties in list order.
    pairs = zip(candidates.tolist(), scores.tolist(), strict=True)
    exact = sorted(pairs, key=lambda item: -item[1])[:50]
    assert ranked[:50] == [i for i, _ in exact]
    # Then never a paper with a clearly better score below one with a worse.
    step = ranked_scores[0] / 65535
    assert all(b <= a + step for a, b in itertools.pairwise(ranked_scores))
    for (a, score_a), (b, score_b) in itertools.pairwise(zip(ranked, ranked_scores, strict=True)):
        if score_a == score_b:
            assert a < b
    assert ranked_by_score(candidates[:0], scores[:0], 50) == ([], [])


def test_a_phrase_as_typed_ranks_above_its_other_forms() -> None:
    papers = make(
        [
            ("One", "We study self supervision, at last."),
            ("Two", "A self-supervised, simple model."),
            ("Three", "Self-supervisedness is new."),
            ("Four", "The self, supervised by others."),
            ("Five", "Nothing here: supervised self."),
        ]
    )
    index = SearchIndex(papers)
    result = index.search("self-supervised")
    # As typed (punctuation between the words folds away), then a word start, then a stem.
    assert set(result.indices[:2]) == {1, 3}
    assert list(result.indices[2:]) == [2, 0]
    assert result.scores[1] > result.scores[2] > result.scores[3]
    assert 4 not in result.indices
    typing = index.search("self-superv")
    assert set(typing.indices) == {0, 1, 2, 3}  # "supervision" starts with "superv"


def test_a_search_for_the_first_few_ranks_them_as_the_whole_search(papers: list[Paper]) -> None:
    index = SearchIndex(papers)
    left_out = 0
    for query in ("speculative decoding", "reinforcement learning policy", "graph kernel", "la"):
        whole = index.search(query)
        for shown in (1, 3, 20, 10_000):
            few = index.search(query, shown=shown)
            assert list(few.indices[:shown]) == list(whole.indices[:shown]), (query, shown)
            assert few.scores[:shown] == whole.scores[:shown]
            assert few.matched_all == whole.matched_all
            if whole.matched_all >= shown:
                # The papers with some of the words are not worked out.
                assert len(few.indices) == whole.matched_all
                left_out += len(whole.indices) - len(few.indices)
            else:
                assert list(few.indices) == list(whole.indices)
    assert left_out


def test_word_starts_worked_out_as_arrays_are_those_of_the_sets(papers: list[Paper]) -> None:
    """A prepared index unites the papers of a one- or two-letter word start with numpy: the
    same papers, in the same order, as the sets of an unprepared one."""
    from paperdeck.core.plumbing.slices import Clock, finish

    with_sets = SearchIndex(papers).word_index
    with_arrays = SearchIndex(papers).word_index
    starts = {word[:size] for word in with_sets.vocabulary for size in (1, 2)}
    assert len(starts) > 20
    for number in range(3):
        for start in sorted(starts):
            expected = finish(with_sets.word_starts_steps(number, start, Clock()))
            got = finish(with_arrays.word_starts_steps(number, start, Clock(), as_arrays=True))
            assert got.typecode == "I"
            assert list(got) == list(expected), (number, start)


def test_many_papers_with_some_words_are_put_in_order_past_the_best_few_when_read() -> None:
    """Scored with dicts, the papers below the divider past the best 300 are ordered only when
    the list reads them: best score first, a tie in list order, none missing or repeated."""
    import random

    rng = random.Random(3)
    vocabulary = ["sparse", "graph", "attention", "kernel", "speech", "token"]
    rows = [
        (f"Paper {i}", " ".join(rng.choices(vocabulary, k=rng.randrange(1, 8))))
        for i in range(1200)
    ]
    index = SearchIndex(make(rows))
    assert not index.arrays_prepared
    result = index.search("sparse graph attention")
    below = list(result.indices[result.matched_all :])
    scores = list(result.scores[result.matched_all :])
    assert len(below) > 600
    expected = {
        i
        for i, (_, abstract) in enumerate(rows)
        if not {"sparse", "graph", "attention"} <= set(abstract.split())
        and {"sparse", "graph", "attention"} & set(abstract.split())
    }
    assert len(below) == len(set(below)) and set(below) == expected
    tail = list(zip(scores[300:], below[300:], strict=True))
    assert tail == sorted(tail, key=lambda item: (-item[0], item[1]))


def test_a_phrase_typed_key_by_key_matches_as_on_a_fresh_index() -> None:
    """A phrase's runs of words are kept from key to key (a paper's text is read once): each
    key finds what it finds on an index that checks every paper afresh, case, LaTeX and
    accents included."""
    rows = [
        ("Self-supervised learning", "We study self-supervised learning of images."),
        ("Self supervision", "Self-Supervised pretraining and self supporting towers."),
        ("Sorting", r"An $\mathcal{O}(n \log n)$ sort; then O(n) merges of self-similar runs."),
        ("Policy gradients", "Policy gradient methods; the policy grades itself."),
        ("Naïve policy", "A naïve policy-gradient estimator, self-consistent."),
        ("Unrelated", "Kernels and graphs."),
    ]
    papers = make(rows)
    index = SearchIndex(papers)
    for typed in ("self-supervised", "O(n log", '"policy gradient"', "Self-Sup", "naive pol"):
        for end in range(1, len(typed) + 1):
            query = typed[:end]
            got = index.search(query)
            fresh = SearchIndex(papers).search(query)
            assert list(got.indices) == list(fresh.indices), query
            assert got.scores == fresh.scores, query
    assert list(index.search("self-supervised").indices[:2]) == [0, 1]
    assert 2 in index.search("O(n log").indices


def test_a_space_after_a_phrase_answers_as_the_query_before_it(papers: list[Paper]) -> None:
    index = SearchIndex(papers)
    before = index.search('"speculative decoding"')
    again = index.search('"speculative decoding" ')
    # The same answer, not worked out again: the very papers of the search before.
    assert again.indices is before.indices and again.scores is before.scores
    assert again.query == '"speculative decoding" ' and again.parsed.text == again.query
    fresh = SearchIndex(papers).search('"speculative decoding" ')
    assert list(again.indices) == list(fresh.indices)
    assert list(again.scores) == list(fresh.scores)
    assert again.matched_all == fresh.matched_all
    # A space after a plain word finishes it: another query, worked out.
    typed = index.search("speculative deco")
    finished = index.search("speculative deco ")
    assert finished.indices is not typed.indices
    assert list(finished.indices) == list(SearchIndex(papers).search("speculative deco ").indices)
    # Another query, or other options, are worked out.
    assert index.search('"speculative decoding" x').indices is not before.indices
    assert index.search('"speculative decoding"', all_terms=True).indices is not before.indices


def test_a_query_on_notes_is_worked_out_again_as_the_notes_change(
    papers: list[Paper],
) -> None:
    index = SearchIndex(papers)
    notes = {papers[1].id: Note(note="energy gating", tags=("todo",), starred=True, updated=1.0)}
    for query in ("note:gating", "tag:todo", "is:starred", "gating is:starred"):
        assert found(index, query, annotations=notes) == [1], query
        notes[papers[1].id] = Note()
        assert found(index, query + " ", annotations=notes) == [], query
        notes[papers[1].id] = Note("energy gating", ("todo",), "unread", True, 1.0)
    first, second = found(index, "transformers")[:2]
    notes = {papers[first].id: Note(note="later", updated=2.0)}
    assert found(index, "transformers", annotations=notes, sort="noted")[0] == first
    notes[papers[second].id] = Note(note="now", updated=3.0)
    assert found(index, "transformers ", annotations=notes, sort="noted")[0] == second


def test_words_side_by_side_as_typed_rank_first() -> None:
    # Every title has both words; those with them side by side, in order, come first: a
    # typed word may start a longer one, but must start a word ("preneural graph" is not it),
    # in ASCII titles and in titles that must be folded.
    titles = (
        "Neural methods: preneural graph theory",
        "Graph methods for neural data",
        "Neural graph theory",
        "Théorie neural gräph",
        "Neuralgraph or neural graph",
    )
    papers = [
        Paper(
            id=f"{i:08x}",
            position=i + 1,
            list_name="adjacent",
            title=title,
            title_derived=False,
            abstract="An abstract about other things.",
        )
        for i, title in enumerate(titles)
    ]
    assert found(SearchIndex(papers), "neural graph") == [2, 3, 4, 0, 1]


def test_below_the_divider_more_of_the_words_beats_one_rare_word() -> None:
    # The user remembers three words of a title; no paper has all three. The paper with two
    # of them comes before one with only the rarest word.
    texts = [
        "What loss landscapes of neural networks reveal about training.",
        "TELL explains clusters of data; TELL scales to large data and TELL is fast.",
        "Watermarks tell a copied model from its source model.",
    ]
    texts += [f"Fitness landscapes of model {i} for a task." for i in range(8)]
    texts += [f"A loss for model {i} on a task." for i in range(60)]
    texts += [f"A model {i} for a task." for i in range(130)]
    result = SearchIndex(make([(f"Paper {i}", t) for i, t in enumerate(texts)])).search(
        "loss landscapes tell"
    )
    assert result.matched_all == 0
    ranked = list(result.indices)
    assert ranked.index(0) < ranked.index(2)


def test_a_correction_changed_is_searched_by_its_new_words(
    index: SearchIndex, papers: list[Paper], tmp_path: Path
) -> None:
    """The words of a correction are kept from one search to the next: a correction the user
    changes is searched by its new words, not the old ones; one removed, by neither."""
    from paperdeck.core.notes.store import NotesStore

    notes = NotesStore(tmp_path / "notes.json")
    notes.set_correction(papers[3], "title", "Zanzibar routing for sparse experts")
    assert found(index, "zanzibar", annotations=notes.entries) == [3]
    notes.set_correction(papers[3], "title", "Quokka routing for sparse experts")
    assert found(index, "quokka", annotations=notes.entries) == [3]
    assert found(index, "zanzibar", annotations=notes.entries) == []
    notes.set_correction(papers[3], "title", None)
    assert found(index, "quokka", annotations=notes.entries) == []


def test_a_word_is_counted_in_an_abstract_where_the_search_matches_it() -> None:
    """A finished word as a word or another form of it, the word being typed at word starts,
    an exact term anywhere."""
    text = "just adjust: adjusted, just-in-time; studies of a study. coincide coin coins"
    assert count_in(text, Needle("just", "word")) == 2
    assert count_in(text, Needle("adjust", "word")) == 2
    assert count_in(text, Needle("study", "word")) == 2
    assert count_in(text, Needle("coin", "word")) == 2
    assert count_in(text, Needle("coin", "start")) == 3
    assert count_in(text, Needle("just", "start")) == 2
    assert count_in(text, Needle("just", "inside")) == 4
    assert count_in(text, Needle("oin", "start")) == 0


def test_a_short_word_typed_after_others_keeps_what_the_finished_word_will_match() -> None:
    """`self-s` and an unclosed `"graph n`: the one- or two-letter word being typed after the
    others matched as a whole word found nothing, and the result went to none and back as
    `self-supervised` was typed. Each key keeps every paper the finished word will match."""
    rows = [
        ("Self-supervised learning", "We study self-supervised learning of images."),
        ("Graph networks", "A graph neural network for molecules; graph nets beyond."),
        ("Self-similar", "Self-similar runs of graph kernels."),
        ("Unrelated", "Kernels and trees."),
        ("Top kernels", "The top kernels of a library."),
        ("Top-k attention", "Attention over the top-k keys."),
    ]
    index = SearchIndex(make(rows))
    for typed, first in (("self-supervised", "self-"), ('"graph neural network', '"graph ')):
        finished = set(index.search(typed).indices)
        assert finished, typed
        for end in range(len(first) + 1, len(typed) + 1):
            query = typed[:end]
            if query.endswith(" "):
                continue  # a word finished: matched as a word
            assert finished <= set(index.search(query).indices), query
    assert set(index.search("self-s").indices) == {0, 2}  # self-supervised, self-similar
    assert set(index.search("self-su").indices) == {0}
    assert set(index.search('"graph n').indices) == {1}  # "graph neural", "graph nets"
    assert set(index.search('"graph k').indices) == {2}
    # Finished, a one-letter word is a word: "self s" is in no paper.
    assert list(index.search("self-s ").indices) == []
    # "top-k" as typed last: the word k first, then words starting with k; "top-k " is k.
    assert list(index.search("top-k").indices) == [5, 4]
    assert list(index.search("top-k ").indices) == [5]
    # What is highlighted is what matched: "not found: self-su" was said of every row.
    text = "We study self-supervised learning, not self-play."
    assert [text[a:b] for a, b in highlight_spans("self-su", text)] == ["self-supervised"]

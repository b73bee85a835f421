"""The query language parser and the text folding it relies on."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from paperdeck.core.search.query import Flag, Query, Term, YearRange, parse_query
from paperdeck.core.text.fold import raw_tokens, word_set, words


def only_term(query: Query) -> Term:
    assert len(query.clauses) == 1
    (atom,) = query.clauses[0].alternatives
    assert isinstance(atom, Term)
    return atom


def test_plain_terms_are_anded_fuzzy_terms() -> None:
    query = parse_query("speculative  decoding")
    assert query.message is None
    assert [c.alternatives for c in query.clauses] == [
        (Term("speculative", ("speculative",), "fuzzy", "any", False, prefix=False),),
        (Term("decoding", ("decoding",), "fuzzy", "any", False),),
    ]


def test_only_the_last_plain_term_may_be_a_word_start() -> None:
    """The word being typed is the last; those before it are finished words."""
    query = parse_query("coin !gen | 'nterp sampl")
    prefixes = [(atom.text, atom.prefix) for atom in query.positive_terms()]
    assert prefixes == [("coin", False), ("nterp", True), ("sampl", True)]
    negated = query.clauses[1].alternatives[0]
    assert isinstance(negated, Term) and negated.negated and negated.prefix
    assert only_term(parse_query("self-sup")).prefix
    assert only_term(parse_query('"diffusion pol')).prefix
    assert not parse_query("diffusion pol year:2023").positive_terms()[1].prefix
    # A filler word left out still finishes the word before it.
    assert not only_term(parse_query("diffusion for")).prefix


def test_a_word_with_anything_typed_after_it_is_finished() -> None:
    """A space after the last word finishes it (`coin ` is the word coin, not a start of
    `coincide`), as does a bar; an unclosed phrase's last word too."""
    assert only_term(parse_query("coin")).prefix
    for text in ("coin ", "coin\t", " coin  ", "coin |", '"coin ', "coin year:"):
        assert not only_term(parse_query(text)).prefix, text
    assert not parse_query("coin sampl ").positive_terms()[1].prefix
    assert parse_query("is:unread coin").positive_terms()[0].prefix
    assert parse_query("!coin ").clauses[0].alternatives[0].prefix  # type: ignore[union-attr]


def test_empty_and_blank_queries_have_no_clauses() -> None:
    for text in ("", "   ", "\t\n"):
        query = parse_query(text)
        assert query.clauses == ()
        assert query.message is None


def test_terms_that_fold_to_nothing_are_no_filter() -> None:
    assert parse_query("/ $ -- ").clauses == ()


def test_exact_substring_term() -> None:
    term = only_term(parse_query("'nterp"))
    assert (term.mode, term.words) == ("exact", ("nterp",))


def test_exclusion() -> None:
    term = only_term(parse_query("!chiral"))
    assert term.negated and term.words == ("chiral",)
    exact = only_term(parse_query("!'hir"))
    assert exact.negated and exact.mode == "exact"


def test_lone_exclamation_mark_is_ignored_with_a_message() -> None:
    query = parse_query("graph !")
    assert len(query.clauses) == 1
    assert query.message is not None and "!" in query.message


def test_or_groups_alternatives() -> None:
    query = parse_query("chiral | bubblespec decoding")
    assert len(query.clauses) == 2
    first = query.clauses[0].alternatives
    assert [t.words for t in first if isinstance(t, Term)] == [("chiral",), ("bubblespec",)]


def test_a_bar_missing_a_side_is_ignored_silently_wherever_it_is() -> None:
    # A trailing bar is someone still typing; a leading or doubled one loses nothing either:
    # all read as the terms alone, none with a message (a word typed after is finished).
    for text in ("graph |", "| graph", " |  graph | ", "|", "| |"):
        query = parse_query(text)
        assert query.message is None, text
        alone = parse_query("graph" if text.endswith("graph") else "graph ").clauses
        assert query.clauses == (alone if "graph" in text else ()), text
    either = parse_query("graph | kernel ").clauses
    assert parse_query("| graph | | kernel |").clauses == either
    assert parse_query("| graph | | kernel |").message is None
    # Other mistakes still say what was done with them.
    assert parse_query("| graph !").message is not None


def test_phrase() -> None:
    term = only_term(parse_query('"Reversal curse"'))
    assert term.mode == "phrase"
    assert term.words == ("Reversal", "curse")
    assert term.case_sensitive


def test_unclosed_quote_reads_to_the_end_with_a_message() -> None:
    query = parse_query('"reversal cu')
    term = only_term(query)
    assert term.words == ("reversal", "cu")
    assert query.message is not None and "unclosed" in query.message


def test_smart_case() -> None:
    assert only_term(parse_query("LLM")).case_sensitive
    assert not only_term(parse_query("llm")).case_sensitive
    assert only_term(parse_query("LLM")).words == ("LLM",)


def test_hyphenated_term_is_a_sequence_of_words() -> None:
    term = only_term(parse_query("self-supervised"))
    assert term.words == ("self", "supervised")
    assert term.mode == "fuzzy"


def test_parentheses_group_a_formula() -> None:
    term = only_term(parse_query("O(n log n)"))
    assert term.words == ("O", "n", "log", "n")
    # An unbalanced parenthesis takes the rest of the query.
    assert only_term(parse_query("f(x y")).words == ("f", "x", "y")


def test_fields() -> None:
    assert only_term(parse_query("title:transformers")).field == "title"
    assert only_term(parse_query("author:hahn")).field == "author"
    assert only_term(parse_query("Authors:hahn")).field == "author"
    assert only_term(parse_query("venue:icml")).field == "venue"
    assert only_term(parse_query("tag:toread")).field == "tag"
    assert only_term(parse_query("note:later")).field == "note"
    phrase = only_term(parse_query('title:"reversal curse"'))
    assert (phrase.field, phrase.mode, phrase.words) == ("title", "phrase", ("reversal", "curse"))
    negated = only_term(parse_query("!author:hahn"))
    assert negated.negated and negated.field == "author"


def test_unknown_field_is_read_literally() -> None:
    term = only_term(parse_query("arxiv:2301.00001"))
    assert term.field == "any"
    assert term.words == ("arxiv", "2301", "00001")


def test_years() -> None:
    def year(text: str) -> object:
        (atom,) = parse_query(text).clauses[0].alternatives
        return atom

    assert year("year:2026") == YearRange(2026, 2026)
    assert year("year:2020..2023") == YearRange(2020, 2023)
    assert year("year:2023..2020") == YearRange(2020, 2023)
    assert year("year:2020..") == YearRange(2020, None)
    assert year("year:..2020") == YearRange(None, 2020)
    assert year("!year:2026") == YearRange(2026, 2026, negated=True)


def test_bad_year_is_ignored_with_a_message() -> None:
    for text in ("year:abc", "year:20", "year:..", "year:2020..abc"):
        query = parse_query(text)
        assert query.clauses == (), text
        assert query.message is not None and "year" in query.message


def test_flags() -> None:
    def flag(text: str) -> object:
        (atom,) = parse_query(text).clauses[0].alternatives
        return atom

    assert flag("is:starred") == Flag("starred")
    assert flag("is:unread") == Flag("unread")
    assert flag("is:read") == Flag("read")
    assert flag("is:reading") == Flag("reading")
    assert flag("has:note") == Flag("note")
    assert flag("!is:starred") == Flag("starred", negated=True)


def test_unknown_flag_is_ignored_with_a_message() -> None:
    query = parse_query("is:purple graph")
    assert len(query.clauses) == 1
    assert query.message is not None and "is:purple" in query.message


def test_field_without_value_while_typing_is_no_filter() -> None:
    for text in ("title:", "year:", "is:"):
        query = parse_query(text)
        assert query.clauses == ()
        assert query.message is None


def test_positive_terms_skip_exclusions() -> None:
    query = parse_query("graph !tree | forest year:2020")
    assert [t.words for t in query.positive_terms()] == [("graph",), ("forest",)]


@given(st.text())
def test_any_text_parses(text: str) -> None:
    query = parse_query(text)
    assert query.message is None or "\n" not in query.message


# ---- folding ----


def test_fold_case_accents_and_punctuation() -> None:
    assert words("Naïve Self-Supervised, GPT-4!") == ["naive", "self", "supervised", "gpt", "4"]
    assert words("Naïve", keep_case=True) == ["Naive"]
    assert words("Doumèche Waı̈ss Łukasz straße") == ["doumeche", "waiss", "lukasz", "strasse"]


def test_fold_latex() -> None:
    assert words(r"$\mathcal{O}(n \log n)$") == ["o", "n", "log", "n"]
    assert words(r"$\tau$-sampling with $\varepsilon$") == ["tau", "sampling", "with", "epsilon"]
    assert words(r"\textsc{InteractScience}", keep_case=True) == ["InteractScience"]
    assert words(r"G\"odel \cdot $x \times y$ \% 50") == ["godel", "x", "y", "50"]
    # Sources that glue a formatting command to its argument.
    assert words(r"$\mathcalO(\sqrtT)$") == ["o", "sqrt", "t"]
    # A bare % is text, not a LaTeX comment.
    assert words("95% accuracy") == ["95", "accuracy"]


def test_fold_unicode_math() -> None:
    assert words("τ and Γ, µ ℓ₂ ∞, ﬁne x²") == [
        "tau",
        "and",
        "gamma",
        "mu",
        "l2",
        "infinity",
        "fine",
        "x2",
    ]


def test_fold_keeps_other_scripts() -> None:
    assert words("ICML 2026 论文列表") == ["icml", "2026", "论文列表"]


_FOLD_CASES = [
    "Naïve Self-Supervised, GPT-4! Doumèche Waı̈ss Łukasz STRASSE straße",
    r"$\mathcal{O}(n \log n)$ with $\tau$, $\varepsilon$ and G\"odel \cdot 50\%",
    "τ and Γ, µ ℓ₂ ∞, ﬁne x² — “quoted” – ΣΑΣ İstanbul ＡＢＣ ǅ ICML 2026 论文列表",
    "e\u0301 \u0301 a\u0308\u0308b plain ascii only",
    "ß SS STRAẞE",
    "lone \ud800 surrogate",
]


def test_the_index_folds_words_as_searches_do() -> None:
    # The index builder's fast path must agree with fold() word for word, or searches miss.
    for text in _FOLD_CASES:
        assert word_set(text) == set(" ".join(words(text)).encode().split()), text


_TRICKY = "\\{}$ aZ\u0301\u0308ΣςσİıẞßﬁǅKΩ²ℓ∞論\x00\x85\u2009\ud800"


@given(st.text(alphabet=st.characters() | st.sampled_from(_TRICKY)))
def test_the_index_folds_any_text_as_searches_do(text: str) -> None:
    assert word_set(text) == {word.encode() for word in words(text)}


def test_raw_tokens_point_at_the_raw_text() -> None:
    text = r"An $\mathcal{O}(n \log n)$ naïve τ-test"
    tokens = list(raw_tokens(text))
    assert [word for word, _, _ in tokens] == words(text, keep_case=True)
    assert [text[start:end] for _, start, end in tokens] == [
        "An",
        "O",
        "n",
        r"\log",
        "n",
        "naïve",
        "τ",
        "test",
    ]


_PIECES = [*"abcXYZ019 -_.,;:()[]{}$%'\"\n\t", "\\tau", "\\mathcal", "é", "ï", "τ", "ß", "∞"]


@given(st.lists(st.sampled_from(_PIECES)).map("".join))
def test_raw_tokens_agree_with_words(text: str) -> None:
    assert [word for word, _, _ in raw_tokens(text)] == words(text, keep_case=True)


def _required(query: str) -> list[str]:
    return [" ".join(term.words) for term in parse_query(query).positive_terms()]


def test_filler_words_typed_plainly_are_not_required() -> None:
    assert _required("diffusion models for molecules") == ["diffusion", "models", "molecules"]
    assert _required("The effect of the learning rate") == ["effect", "learning", "rate"]
    # Ranking still reads them as typed: "models for molecules" side by side.
    typed = [" ".join(term.words) for term in parse_query("models for molecules").typed_terms()]
    assert typed == ["models", "for", "molecules"]


def test_filler_words_count_when_the_user_asked_for_them() -> None:
    # A query of filler words only, a phrase, a field, `'`, `!`, `|` and capitals keep them.
    assert _required("the") == ["the"] and _required("of the") == ["of", "the"]
    assert _required('"models for molecules" graph') == ["models for molecules", "graph"]
    assert _required("models title:for") == ["models", "for"]
    assert _required("models 'for") == ["models", "for"]
    assert _required("models OR") == ["models", "OR"]
    assert _required("models for | with") == ["models", "for", "with"]
    assert [t.negated for t in parse_query("models !the").clauses[1].alternatives] == [True]
    # A word being typed that is not (yet) a filler word is required.
    assert _required("models fo") == ["models", "fo"]
    assert _required("state-of-the-art models") == ["state of the art", "models"]
    assert parse_query("models for").typed is not None and parse_query("models").typed is None


def test_a_field_name_typed_wrong_says_the_field_meant_and_is_searched_as_words() -> None:
    for typed, meant in [("titel", "title"), ("autor", "author"), ("yaer", "year")]:
        query = parse_query(f"{typed}:words")
        assert query.message == f"{typed}: is not a field (did you mean {meant}:?)"
        assert [term.text for term in query.positive_terms()] == [f"{typed}:words"]
    # A colon in a word that is no field's typo (an arXiv id, a model's name): nothing said.
    for text in ("arXiv:2101.00001", "Mixtral:8x7b", "id:3", "https://example.org"):
        assert parse_query(text).message is None, text

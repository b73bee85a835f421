"""Highlight spans: where a query's terms match in a paper's raw text, as the reader marks them."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence

from rapidfuzz.distance import OSA

from paperdeck.core.search.query import FILLERS, Query, Term, parse_query
from paperdeck.core.search.terms import fuzzy_distance, same_stem
from paperdeck.core.search.word_index import AUTHORS, FIELDS, TITLE
from paperdeck.core.text.fold import raw_tokens

_FIELD_OF_TERM = {("title", TITLE), ("author", AUTHORS)}
_VERDICTS_KEPT = 50_000
"""Words whose one-word test a highlighter remembers (a few MB at most)."""


def match_spans(query: Query | str, texts: Sequence[str]) -> dict[str, list[tuple[int, int]]]:
    """Spans per field ("title", "method", "authors", "abstract") of a paper's raw texts, given
    in that order.

    The authors' text is their names joined by ", "; a missing method is "". Every field is
    in the answer, with an empty list where nothing matched.
    """
    parsed = query if isinstance(query, Query) else parse_query(query)
    terms = parsed.positive_terms()
    spans: dict[str, list[tuple[int, int]]] = {}
    for field, name in enumerate(FIELDS):
        text = texts[field]
        applicable = [t for t in terms if t.field == "any" or (t.field, field) in _FIELD_OF_TERM]
        spans[name] = (
            merge_spans(span for t in applicable for span in _text_spans(t, text)) if text else []
        )
    return spans


def _token_matches(term: Term, token: str) -> bool:
    word = term.words[0]
    candidate = token if term.case_sensitive else token.lower()
    if term.mode == "exact":
        return word in candidate
    if term.prefix and candidate.startswith(word):
        return True
    if not term.case_sensitive and same_stem(word, candidate):
        return True
    limit = fuzzy_distance(word) if term.typos else 0
    return (
        bool(limit)
        and candidate not in FILLERS
        and abs(len(candidate) - len(word)) <= limit
        and (OSA.distance(candidate, word, score_cutoff=limit) <= limit)
        and candidate[:1] == word[:1]
    )


def tokens_match(term: Term, tokens: tuple[str, ...], verdicts: dict[str, bool]) -> bool:
    """Whether `_text_spans(term, text)` finds anything in a text of these raw tokens.

    `verdicts` remembers each one-word test, so a word common to many notes costs one test.
    """
    if len(term.words) == 1:
        for token in tokens:
            verdict = verdicts.get(token)
            if verdict is None:
                verdict = verdicts[token] = _token_matches(term, token)
            if verdict:
                return True
        return False
    count = len(term.words)
    for at in range(len(tokens) - count + 1):
        # Most windows fail on their first word: that test is remembered like a one-word one.
        verdict = verdicts.get(tokens[at])
        if verdict is None:
            verdict = verdicts[tokens[at]] = _phrase_word_matches(term, 0, tokens[at])
        if verdict and all(
            _phrase_word_matches(term, position, tokens[at + position])
            for position in range(1, count)
        ):
            return True
    return False


def _text_spans(
    term: Term,
    text: str,
    tokens: Sequence[tuple[str, int, int]] | None = None,
    verdicts: dict[str, bool] | None = None,
) -> list[tuple[int, int]]:
    """Where `term` matches in `text`, as spans of `text` (`tokens`: its `raw_tokens`, when
    known; `verdicts`: the term's one-word tests so far, to remember them in)."""
    if tokens is None:
        tokens = list(raw_tokens(text))
    spans: list[tuple[int, int]] = []
    count = len(term.words)
    if count == 1:
        for token, start, end in tokens:
            verdict = None if verdicts is None else verdicts.get(token)
            if verdict is None:
                verdict = _token_matches(term, token)
                if verdicts is not None:
                    verdicts[token] = verdict
            if verdict:
                spans.append(_inner_span(term, token, text, start, end))
        return spans
    for at in range(len(tokens) - count + 1):
        window = tokens[at : at + count]
        if all(
            _phrase_word_matches(term, position, token)
            for position, (token, _, _) in enumerate(window)
        ):
            spans.append((window[0][1], window[-1][2]))
    return spans


def _phrase_word_matches(term: Term, position: int, token: str) -> bool:
    word = term.words[position]
    candidate = token if term.case_sensitive else token.lower()
    last = position == len(term.words) - 1
    if term.mode == "exact":
        if position == 0:
            return candidate.endswith(word)
        return candidate.startswith(word) if last else candidate == word
    if last and term.mode == "fuzzy" and term.prefix and candidate.startswith(word):
        return True  # the word being typed, after the others: a word start, however short
    return candidate == word or (
        term.mode == "fuzzy" and not term.case_sensitive and same_stem(word, candidate)
    )


def _inner_span(term: Term, token: str, text: str, start: int, end: int) -> tuple[int, int]:
    """For an exact substring inside a plain word, just the substring; else the whole word."""
    if term.mode == "exact" and text[start:end] == token:
        haystack = token if term.case_sensitive else token.lower()
        offset = haystack.find(term.words[0])
        if offset >= 0:
            return start + offset, start + offset + len(term.words[0])
    return start, end


def merge_spans(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping spans joined, in order."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def highlight_spans(query: Query | str, text: str) -> list[tuple[int, int]]:
    """Spans of `text` where the query's positive terms match, merged and sorted."""
    parsed = query if isinstance(query, Query) else parse_query(query)
    terms = [t for t in parsed.positive_terms() if t.field in ("any", "title", "author")]
    if not terms or not text:
        return []
    return merge_spans(span for t in terms for span in _text_spans(t, text))


@functools.lru_cache(maxsize=32)
def highlighter(query: Query | str, field: str) -> Callable[[str], list[tuple[int, int]]]:
    """Spans in a text of `field` ("title", "method", "authors" or "abstract") where the
    query's terms for that field match, as `match_spans` finds them.

    Give it the Query a search result carries: the keystroke's query is then not parsed again.
    """
    each = term_highlighter(query, field)

    def spans(text: str) -> list[tuple[int, int]]:
        return merge_spans(span for found in each(text) for span in found)

    return spans


@functools.lru_cache(maxsize=32)
def term_highlighter(
    query: Query | str, field: str
) -> Callable[[str], list[list[tuple[int, int]]]]:
    """As `highlighter`, each term's spans apart: one list per term of the query for `field`
    (`field_terms`), the text split into words once for all of them."""
    terms = field_terms(query, field)

    # A word's verdict holds for every text highlighted for this query (words recur: a page
    # of rows, the detail pane); kept while the query is, up to a bound.
    verdicts: list[dict[str, bool]] = [{} for _ in terms]

    def spans(text: str) -> list[list[tuple[int, int]]]:
        if not terms or not text:
            return [[] for _ in terms]
        tokens = list(raw_tokens(text))
        for known in verdicts:
            if len(known) > _VERDICTS_KEPT:
                known.clear()
        return [
            _text_spans(t, text, tokens, known) for t, known in zip(terms, verdicts, strict=True)
        ]

    return spans


def field_terms(query: Query | str, field: str) -> tuple[Term, ...]:
    """The query's positive terms that match in `field`, in query order."""
    parsed = query if isinstance(query, Query) else parse_query(query)
    at = FIELDS.index(field)
    return tuple(
        t for t in parsed.positive_terms() if t.field == "any" or (t.field, at) in _FIELD_OF_TERM
    )

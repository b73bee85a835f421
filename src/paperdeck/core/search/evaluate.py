"""Query evaluation: each clause's papers and scores from the word index, combined into a result."""

from __future__ import annotations

import heapq
import math
from array import array
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import filterfalse, repeat
from operator import mul
from typing import Any

from paperdeck.core.model import Annotation
from paperdeck.core.notes.corrected import corrected_authors, has_shown_correction
from paperdeck.core.plumbing.slices import Clock, finish
from paperdeck.core.search import arrays
from paperdeck.core.search.arrays import Lookup, head_scores
from paperdeck.core.search.near import NearSpelling, near_spellings
from paperdeck.core.search.query import (
    Atom,
    Clause,
    Flag,
    Query,
    Term,
    YearRange,
    parse_query,
)
from paperdeck.core.search.rank import (
    FREQUENCY_HEAD,
    Needle,
    SortMode,
    TextMemo,
    favour_coverage,
    frequency_steps,
    intersect_steps,
    partial_steps,
    rank_tiers_steps,
    rarity,
    rerank_steps,
    sorted_all,
    totals_steps,
)
from paperdeck.core.search.ranking import Ranking
from paperdeck.core.search.related import Related, like_seeds, related
from paperdeck.core.search.spans import tokens_match
from paperdeck.core.search.steps import CHUNK
from paperdeck.core.search.terms import EXACT, FIELD_WEIGHT, KIND_WEIGHT, TermHits, TermMatcher
from paperdeck.core.search.word_index import AUTHORS, TITLE, WordIndex
from paperdeck.core.text.fold import raw_tokens, words

_UNPARSED = Query("", (), None)
LIKE_LIMIT = 50
"""How many papers `like:` lists besides its seeds: the closest, not all that share a word."""


@dataclass(frozen=True)
class SearchResult:
    """The papers a query matched, best first (or in the chosen sort order)."""

    query: str
    indices: Sequence[int]
    """Indexes into the papers given to the SearchIndex."""
    scores: Sequence[float]
    """One per index; higher is better."""
    message: str | None
    """One line when the query could not be parsed fully, else None."""
    parsed: Query = _UNPARSED
    """The query as parsed: what highlighting reads, so a keystroke is parsed once (a result
    made by hand parses its query)."""

    matched_all: int = -1
    """How many of the first papers match every word of the query; those after them match
    some (-1 when made by hand: all of them)."""

    found: Mapping[Term, int] = field(default_factory=dict)
    """How many papers each positive term's clause matches (about): the rarer, the more it
    says why a paper matched."""

    near: tuple[NearSpelling, ...] = ()
    """The query's words no paper has, each with the near spellings matched instead."""

    related: Mapping[tuple[int, ...], tuple[Related, ...]] = field(default_factory=dict)
    """Each `like:` term's answer by its seeds: the reader shows the words each paper shares
    (at 100,000 papers an answer takes as long as the search, so it is not asked twice)."""

    def __post_init__(self) -> None:
        if self.parsed is _UNPARSED:
            object.__setattr__(self, "parsed", parse_query(self.query))
        if self.matched_all < 0:
            object.__setattr__(self, "matched_all", len(self.indices))


class Evaluator:
    """Evaluates parsed queries against one word index."""

    def __init__(self, index: WordIndex) -> None:
        self._index = index
        self._terms = TermMatcher(index)
        self._memo = TextMemo(index)
        self._note_tokens: dict[str, tuple[str, ...]] = {}
        """A note's raw tokens by its text: notes change rarely, queries on every keystroke."""
        self._last: tuple[tuple[object, ...], SearchResult] | None = None
        """The last search whose answer depends on its words alone, with what it depended on."""
        self._related: dict[tuple[int, ...], tuple[Related, ...]] = {}
        """The `like:` answers of the search under way, by their seeds."""
        self._corrected: list[tuple[int, tuple[str, ...], tuple[str, ...]]] | None = None
        """The search under way's papers with a corrected title or authors, and their words
        (`corrected_words`): worked out at its first word."""
        self._fix_words: dict[str, FixWords] = {}
        """The words of each correction read so far, by paper id: a keystroke's search reads
        again only those changed since."""
        self.arrays_prepared = False
        """Whether numpy was imported for this index (`arrays.prepare`): large clauses are then
        scored as arrays (see `arrays.pays_off`); the dicts order the far tail slightly
        differently. Set by `use_arrays`."""

    def use_arrays(self) -> None:
        """Score large clauses as arrays from now on (numpy is imported)."""
        self.arrays_prepared = self._terms.arrays_prepared = True

    def search_steps(
        self,
        parsed: Query,
        annotations: Mapping[str, Annotation] | None,
        sort: SortMode,
        all_terms: bool = False,
        shown: int | None = None,
    ) -> Generator[None, None, SearchResult]:
        """The papers passing every clause of `parsed`, ranked, in slices; then, unless
        `all_terms` or at least `shown` papers pass, those missing some of the query's words
        but not all of them."""
        parsed = self._typos_decided(parsed)
        prepared = self.arrays_prepared
        same = _same_result_key(parsed, sort, all_terms, shown, prepared)
        last = self._last
        if same is not None and last is not None and last[0] == same:
            # A key that leaves the query as it was (a space after a word): its answer again.
            message = self._message(parsed)
            return replace(last[1], query=parsed.text, message=message, parsed=parsed)
        self._related = {}
        result = yield from self._search_steps(parsed, annotations, sort, all_terms, shown)
        near = near_spellings(self._index, parsed, self._matched)
        if near:
            result = replace(result, near=near)
        if self._related:
            result = replace(result, related=self._related)
        self._last = None if same is None else (same, result)
        return result

    def _typos_decided(self, parsed: Query) -> Query:
        """`parsed` with each term the search matches no near spellings of marked so."""

        def decided(clauses: tuple[Clause, ...]) -> tuple[Clause, ...]:
            return tuple(
                Clause(tuple(map(self._term_decided, clause.alternatives))) for clause in clauses
            )

        typed = None if parsed.typed is None else decided(parsed.typed)
        return replace(parsed, clauses=decided(parsed.clauses), typed=typed)

    def _term_decided(self, atom: Atom) -> Atom:
        if (
            not isinstance(atom, Term)
            or atom.mode != "fuzzy"
            or atom.negated
            or len(atom.words) != 1
            or self._terms.takes_typos(atom.words[0].lower(), atom.prefix)
        ):
            return atom
        return replace(atom, typos=False)

    def _search_steps(
        self,
        parsed: Query,
        annotations: Mapping[str, Annotation] | None,
        sort: SortMode,
        all_terms: bool,
        shown: int | None,
    ) -> Generator[None, None, SearchResult]:
        clock = Clock()
        index = self._index
        prepared = self.arrays_prepared  # the same for the whole search
        self._corrected = None
        query = parsed.text
        message = self._message(parsed)
        if not parsed.clauses:
            indices = sorted_all(index, range(len(index)), annotations, sort)
            return SearchResult(query, indices, [0.0] * len(indices), message, parsed)
        positive: list[tuple[TermHits, float, bool]] = []
        needles: list[Needle] = []
        excluded: set[int] = set()
        found: dict[Term, int] = {}
        for clause in parsed.clauses:
            hits, weight, negative = yield from self._clause(clause, annotations, clock)
            if negative:
                excluded.update((yield from hits.scores_steps(clock)))
            else:
                positive.append((hits, weight, _is_words(clause)))
                needles.append(_needle(clause))
                found.update(dict.fromkeys(_terms(clause), hits.size_estimate()))
            if clock.due():
                yield
                clock.reset()
        if len(positive) == 1 and positive[0][0].tiers is not None and sort == "relevance":
            only = positive[0][0]
            tiered = None
            if arrays.pays_off(only.size_estimate(), prepared):
                tiered = arrays.rank_tiers(len(index), only, excluded)
            if tiered is None:
                tiered = yield from rank_tiers_steps(only, excluded, clock)
            return SearchResult(query, *tiered, message, parsed, found=found)
        lookups: list[Lookup | None]
        ranked: list[int] | Ranking[int]
        scores: list[float] | Ranking[float]
        candidates: list[int] = []
        passed: Iterable[int]  # the papers passing every clause, left out below the divider
        best: tuple[list[int], Ranking[int], Ranking[float]] | None = None
        if arrays.pays_off(sum(hits.size_estimate() for hits, _, _ in positive), prepared):
            found_all, summed, columns = yield from arrays.intersect_steps(
                len(index), positive, excluded, clock
            )
            lookups = list(columns)
            passed = found_all
            if sort == "relevance":
                # The best few found as arrays: thousands may pass, ordered only when read.
                ranked_all, scores_all = arrays.ranked_lazily(
                    found_all, summed, FREQUENCY_HEAD, exact_rest=True
                )
                best = (ranked_all.head, ranked_all, scores_all)
                totals = dict(zip(ranked_all.head, scores_all.head, strict=True))
            else:
                candidates = found_all.tolist()
                totals = dict(zip(candidates, summed.tolist(), strict=True))
        else:
            columns_in = [(hits, weight) for hits, weight, _ in positive]
            candidates, weighed = yield from intersect_steps(index, columns_in, excluded, clock)
            totals = yield from totals_steps(candidates, weighed, clock)
            lookups = [scores for scores, _ in weighed]
            passed = candidates
        if sort == "relevance":
            head, ranked, scores = best if best is not None else _best_first(candidates, totals)
            if clock.due():
                yield
                clock.reset()
            counted = _counted(len(index), positive, needles, lookups, head, False)
            # Both reorder `head` in place: the papers below it keep their order.
            yield from frequency_steps(self._memo, head, totals, counted, self._average(), clock)
            taken = _taken_for_typos(positive, needles)
            yield from rerank_steps(self._memo, head, totals, parsed, clock, taken=taken)
            scores.head[:] = map(totals.__getitem__, head)
        else:
            ranked = sorted_all(index, candidates, annotations, sort)
            scores = list(map(totals.__getitem__, ranked))
        matched_all = len(ranked)
        if (
            not all_terms
            and (shown is None or matched_all < shown)
            and sum(optional for _, _, optional in positive) >= 2
        ):
            some, some_scores, lookups = yield from partial_steps(
                len(index), positive, excluded, passed, clock, prepared
            )
            if sort == "relevance":
                head = some[:FREQUENCY_HEAD]
                head_totals = dict(zip(head, some_scores[:FREQUENCY_HEAD], strict=True))
                counted = _counted(len(index), positive, needles, lookups, head, True)
                average = self._average()
                yield from frequency_steps(self._memo, head, head_totals, counted, average, clock)
                found_in = [
                    set(head_scores(lookup, head)) for lookup in lookups if lookup is not None
                ]
                favour_coverage(head, head_totals, found_in)
                # Papers missing words rarely have the others side by side: a shorter look.
                taken = _taken_for_typos(positive, needles)
                yield from rerank_steps(
                    self._memo, head, head_totals, parsed, clock, 50, 10, taken=taken
                )
                some = some.with_head(head)
                some_scores = some_scores.with_head(list(map(head_totals.__getitem__, head)))
            else:
                by_paper = dict(zip(some, some_scores, strict=True))
                listed = sorted_all(index, some, annotations, sort)
                some = Ranking(listed, len(listed), None)
                some_scores = Ranking(list(map(by_paper.__getitem__, listed)), len(listed), None)
            # The papers far below the divider are put in order when the list reads them.
            return SearchResult(
                query,
                some.after(ranked),
                some_scores.after(scores),
                message,
                parsed,
                matched_all,
                found,
            )
        return SearchResult(query, ranked, scores, message, parsed, matched_all, found)

    def _matched(self, term: Term) -> frozenset[str]:
        """The words the search matched `term` by (its hits are kept from the search)."""
        return finish(self._terms.term_steps(term, Clock())).matched

    def _average(self) -> float:
        return self._index.abstracts.average_length()

    def _clause(
        self,
        clause: Clause,
        annotations: Mapping[str, Annotation] | None,
        clock: Clock,
    ) -> Generator[None, None, tuple[TermHits, float, bool]]:
        """Papers passing the clause with their scores, its weight, and whether it excludes."""
        atoms = clause.alternatives
        if len(atoms) == 1:
            hits = yield from self._atom(atoms[0], annotations, clock)
            if atoms[0].negated:
                return hits, 1.0, True
        else:
            alternatives: list[TermHits] = []
            for atom in atoms:
                alternatives.append((yield from self._atom(atom, annotations, clock)))
            hits = yield from self._either(atoms, alternatives, clock)
        # Rare terms tell papers apart better than common ones.
        weight = 1.0 + math.log(
            (len(self._index) + 1) / (min(len(self._index), hits.size_estimate()) + 1)
        )
        return hits, weight, False

    def _either(
        self, atoms: Sequence[Term | YearRange | Flag], alternatives: list[TermHits], clock: Clock
    ) -> Generator[None, None, TermHits]:
        """Papers passing any alternative: words score the sum over the alternatives they
        pass, each weighted by its rarity (a paper with both words, or with the rare one, comes
        first); other alternatives score by the best one."""
        if all(isinstance(atom, Term) and not atom.negated for atom in atoms):
            n = len(self._index)
            summed: dict[int, float] = {}
            for found in alternatives:
                weight = 1.0 + math.log((n + 1) / (min(n, found.size_estimate()) + 1))
                scores = yield from found.scores_steps(clock)
                added = dict(zip(scores, map(mul, scores.values(), repeat(weight)), strict=True))
                both = {i: summed[i] + added[i] for i in added.keys() & summed.keys()}
                summed.update(added)
                summed.update(both)
                if clock.due():
                    yield
                    clock.reset()
            return TermHits(summed, frozenset().union(*(found.matched for found in alternatives)))
        if not any(atom.negated for atom in atoms) and all(
            found.tiers is not None for found in alternatives
        ):
            # Tiers already mean "the best weight wins": the union of all of them is the answer.
            return TermHits(
                None,
                frozenset().union(*(found.matched for found in alternatives)),
                [tier for found in alternatives for tier in found.tiers or ()],
            )
        merged: dict[int, float] = {}
        for atom, found in zip(atoms, alternatives, strict=True):
            scores = yield from found.scores_steps(clock)
            if atom.negated:
                # Every paper the atom does not match scores 0: added where nothing better is.
                everything = self._index.all
                for start in range(0, len(self._index), CHUNK):
                    chunk = everything[start : start + CHUNK]
                    outside = filterfalse(scores.__contains__, chunk)
                    merged.update(dict.fromkeys(filterfalse(merged.__contains__, outside), 0.0))
                    if clock.due():
                        yield
                        clock.reset()
                continue
            for i, score in scores.items():
                if merged.get(i, -1.0) < score:
                    merged[i] = score
            if clock.due():
                yield
                clock.reset()
        return TermHits(merged)

    def _atom(
        self,
        atom: Term | YearRange | Flag,
        annotations: Mapping[str, Annotation] | None,
        clock: Clock,
    ) -> Generator[None, None, TermHits]:
        if isinstance(atom, YearRange):
            low = -(10**9) if atom.low is None else atom.low
            high = 10**9 if atom.high is None else atom.high
            found: dict[int, float] = {}
            for year, docs in self._index.years.items():
                if low <= year <= high:
                    found.update(dict.fromkeys(docs, 0.0))
            return TermHits(found)
        if isinstance(atom, Flag):
            if atom.name == "unread":
                return self._unread(annotations)
            return TermHits(self._flag(atom, annotations))
        if atom.field == "venue":
            return TermHits(self._venue(atom))
        if atom.field == "like":
            return TermHits(self._like(atom, annotations))
        if atom.field in ("tag", "note"):
            return TermHits((yield from self._annotation_term(atom, annotations, clock)))
        hits = yield from self._terms.term_steps(atom, clock)
        if annotations:
            fixed = self._corrected_hits(atom, annotations)
            if fixed:
                hits = yield from _with_hits(hits, fixed, clock)
        return hits

    def _corrected_hits(
        self, term: Term, annotations: Mapping[str, Annotation]
    ) -> dict[int, float]:
        """Papers whose title or authors as the user corrected them match `term` (the index
        holds the list's own), each scored as a match of its field."""
        if self._corrected is None:
            self._corrected = corrected_words(self._index.ids, annotations, self._fix_words)
        if not self._corrected:
            return {}
        found: dict[int, float] = {}
        verdicts: dict[str, bool] = {}
        for i, title, authors in self._corrected:
            if term.field != "author" and title and tokens_match(term, title, verdicts):
                found[i] = FIELD_WEIGHT[TITLE] * KIND_WEIGHT[EXACT]
            elif term.field != "title" and authors and tokens_match(term, authors, verdicts):
                found[i] = FIELD_WEIGHT[AUTHORS] * KIND_WEIGHT[EXACT]
        return found

    def _unread(self, annotations: Mapping[str, Annotation] | None) -> TermHits:
        """Papers not marked read or reading: every paper but the few that are, as one tier
        cut out of `_all` (copies of its runs, not a set or dict of every paper)."""
        ids = self._index.ids
        marked = sorted(
            {
                i
                for paper_id, entry in (annotations or {}).items()
                if entry.state != "unread" and (i := ids.get(paper_id)) is not None
            }
        )
        if not marked:
            return TermHits(None, frozenset(), [(0.0, self._index.all)])
        everything = self._index.all
        docs = array("I")
        previous = 0
        for i in marked:
            docs.extend(everything[previous:i])
            previous = i + 1
        docs.extend(everything[previous:])
        return TermHits(None, frozenset(), [(0.0, docs)])

    def _flag(self, flag: Flag, annotations: Mapping[str, Annotation] | None) -> dict[int, float]:
        if annotations is None:
            return {}
        found: dict[int, float] = {}
        for paper_id, entry in annotations.items():
            i = self._index.ids.get(paper_id)
            if i is None:
                continue
            if (
                (flag.name == "starred" and entry.starred)
                or (flag.name in ("read", "reading") and entry.state == flag.name)
                or (flag.name == "note" and entry.note.strip())
                or (flag.name == "tags" and entry.tags)
            ):
                found[i] = 0.0
        return found

    def _like(self, term: Term, annotations: Mapping[str, Annotation] | None) -> dict[int, float]:
        """`like:ID` (an id, or a position in the list) or `like:starred`: that paper (or the
        starred ones) first, then the papers most like it (see `related`)."""
        seeds = like_seeds(self._index, term.text, annotations)
        if not seeds:
            return {}
        found = self._related.get(tuple(seeds))
        if found is None:
            found = self._related[tuple(seeds)] = tuple(related(self._index, seeds, LIKE_LIMIT))
        top = found[0].score if found else 1.0
        scores = {like.index: like.score for like in found}
        scores.update(dict.fromkeys(seeds, 2 * top))
        return scores

    def _message(self, parsed: Query) -> str | None:
        """What the query's parse said, and each `like:` that names no paper of the list."""
        said = [parsed.message] if parsed.message else []
        for clause in parsed.clauses:
            for atom in clause.alternatives:
                if not isinstance(atom, Term) or atom.field != "like":
                    continue
                ref = atom.text.strip()
                if ref.lower() != "starred" and not like_seeds(self._index, ref, None):
                    said.append(f"like:{ref}: no paper with that id or position")
        return "; ".join(said) if said else None

    def _venue(self, term: Term) -> dict[int, float]:
        wanted = tuple(word.lower() for word in term.words)
        found: dict[int, float] = {}
        for venue_words, docs in self._index.venues.values():
            if all(any(v.startswith(w) for v in venue_words) for w in wanted):
                found.update(dict.fromkeys(docs, 0.0))
        return found

    def _annotation_term(
        self, term: Term, annotations: Mapping[str, Annotation] | None, clock: Clock
    ) -> Generator[None, None, dict[int, float]]:
        """Papers whose tags or note match `term`, a few hundred entries per slice."""
        if not annotations:
            return {}
        found: dict[int, float] = {}
        weight = FIELD_WEIGHT[TITLE] * KIND_WEIGHT[EXACT]
        # Each distinct note word is tested once per term, however many notes share it.
        verdicts: dict[str, bool] = {}
        tokens_of = self._note_tokens
        if len(tokens_of) > 2 * len(annotations) + 1024:
            tokens_of.clear()
        for count, (paper_id, entry) in enumerate(annotations.items()):
            i = self._index.ids.get(paper_id)
            if i is not None:
                if term.field == "tag":
                    ok = any(
                        tuple(words(tag, keep_case=term.case_sensitive)) == term.words
                        for tag in entry.tags
                    )
                else:
                    note = entry.note
                    tokens = tokens_of.get(note)
                    if tokens is None:
                        tokens = tokens_of[note] = tuple(token for token, _, _ in raw_tokens(note))
                    ok = bool(tokens) and tokens_match(term, tokens, verdicts)
                if ok:
                    found[i] = weight
            if count & 31 == 31 and clock.due():
                yield
                clock.reset()
        return found


FixWords = tuple[Mapping[str, Any], tuple[str, ...], tuple[str, ...]]
"""A paper's corrections, and the words of the title and of the authors they give."""


def corrected_words(
    ids: Mapping[str, int], annotations: Mapping[str, Annotation], kept: dict[str, FixWords]
) -> list[tuple[int, tuple[str, ...], tuple[str, ...]]]:
    """Each paper of the index the user corrected the title or authors of, with the words of
    the corrected ones (() for one not corrected); `kept`: those read before, by paper id (an
    entry's corrections are replaced, never changed, when the user changes them)."""
    found = []
    seen: list[str] = []
    for paper_id, entry in annotations.items():
        fixes = getattr(entry, "corrections", None)
        if not fixes or not has_shown_correction(fixes):
            continue
        i = ids.get(paper_id)
        if i is None:
            continue
        words_of = kept.get(paper_id)
        if words_of is None or words_of[0] is not fixes:
            title = fixes.get("title")
            title_words = (
                tuple(w for w, _, _ in raw_tokens(title)) if isinstance(title, str) else ()
            )
            names = ", ".join(corrected_authors(fixes.get("authors")))
            words_of = kept[paper_id] = (
                fixes,
                title_words,
                tuple(w for w, _, _ in raw_tokens(names)),
            )
        found.append((i, words_of[1], words_of[2]))
        seen.append(paper_id)
    if len(kept) > 2 * len(found) + 64:
        # Corrections removed since: their words are read again if they come back.
        live = {paper_id: kept[paper_id] for paper_id in seen}
        kept.clear()
        kept.update(live)
    return found


def _with_hits(
    hits: TermHits, more: dict[int, float], clock: Clock
) -> Generator[None, None, TermHits]:
    """`hits` and `more` (few), each paper at its better score."""
    if hits.tiers is not None and not hits.has_scores():
        # Tiers keep the best weight of a paper: the few more are one tier of their own.
        tiers = [*hits.tiers, *((w, array("I", [i])) for i, w in more.items())]
        return TermHits(None, hits.matched, tiers)
    scores = dict((yield from hits.scores_steps(clock)))
    for i, weight in more.items():
        if scores.get(i, -1.0) < weight:
            scores[i] = weight
    return TermHits(scores, hits.matched)


def _best_first(
    candidates: list[int], totals: dict[int, float]
) -> tuple[list[int], Ranking[int], Ranking[float]]:
    """`candidates` (ascending) best total first, a tie in list order: the best few as a list
    (to be reordered in place), and the whole ranking and its scores, whose papers below those
    are put in order when first read (a single letter matches thousands in full)."""
    score_of = totals.__getitem__
    size = len(candidates)
    if size <= FREQUENCY_HEAD:
        head = sorted(candidates, key=score_of, reverse=True)
        return head, Ranking(head, size, None), Ranking(list(map(score_of, head)), size, None)
    head = heapq.nlargest(FREQUENCY_HEAD, candidates, key=score_of)
    chosen = set(head)
    made: list[list[int]] = []

    def rest() -> list[int]:
        # The totals of the papers below the head are never changed by the reordering.
        if not made:
            others = [i for i in candidates if i not in chosen]
            made.append(sorted(others, key=score_of, reverse=True))
        return made[0]

    return (
        head,
        Ranking(head, size, rest),
        Ranking(list(map(score_of, head)), size, lambda: list(map(score_of, rest()))),
    )


def _is_words(clause: Clause) -> bool:
    """Whether a clause is only words to find (which a paper may miss, below the divider), not
    a filter (a year, a flag, a venue, a tag, a note) that every paper shown must pass."""
    return all(
        isinstance(atom, Term) and atom.field in ("any", "title", "author")
        for atom in clause.alternatives
    )


def _same_result_key(
    parsed: Query, sort: SortMode, all_terms: bool, shown: int | None, prepared: bool
) -> tuple[object, ...] | None:
    """What a search's answer depends on when that is its query's clauses and options alone
    (not the notes, tags or marks: those change between two searches), else None."""
    if sort == "noted":
        return None
    for clause in parsed.clauses:
        for atom in clause.alternatives:
            if isinstance(atom, Flag) or (
                isinstance(atom, Term) and atom.field in ("like", "tag", "note")
            ):
                return None
    return (parsed.clauses, sort, all_terms, shown, prepared)


def _terms(clause: Clause) -> list[Term]:
    return [atom for atom in clause.alternatives if isinstance(atom, Term)]


def _needle(clause: Clause) -> Needle:
    """What is counted in an abstract for a word clause's frequency: its longest word (none
    for alternatives or a filter), where the clause matches it."""
    if not _is_words(clause) or len(clause.alternatives) != 1:
        return Needle("", "inside")
    atom = clause.alternatives[0]
    assert isinstance(atom, Term)
    at = max(range(len(atom.words)), key=lambda k: len(atom.words[k]))
    longest = atom.words[at].lower()
    if atom.mode == "exact":
        return Needle(longest, "inside")
    # Only the word being typed is a word start: the last of the query's last term.
    typing = atom.prefix and atom.mode == "fuzzy" and at == len(atom.words) - 1
    if typing and len(longest) < 3:
        # Found in abstracts only as a whole word (`TermMatcher._word_term`), which a start
        # being typed seldom is; counted, every "d" of them would be looked at.
        return Needle("", "inside")
    return Needle(longest, "start" if typing else "word")


_TYPO_FORMS = 8
"""The most spellings a typo is looked for as, side by side with the other words."""


def _taken_for_typos(
    positive: list[tuple[TermHits, float, bool]], needles: list[Needle]
) -> dict[str, frozenset[str]]:
    """Each word no paper has (a typo) -> the spellings the search took for it: those that
    neither are it nor start with it (the word being typed, the last, is a word start)."""
    return {
        needle.text: frozenset(hits.matched)
        for (hits, _, _), needle in zip(positive, needles, strict=True)
        if needle.text
        and 0 < len(hits.matched) <= _TYPO_FORMS
        and not any(form.startswith(needle.text) for form in hits.matched)
    }


def _counted(
    count: int,
    positive: list[tuple[TermHits, float, bool]],
    needles: list[Needle],
    lookups: Sequence[Lookup | None],
    head: Sequence[int],
    partial: bool,
) -> list[tuple[Needle, dict[int, float], float]]:
    """Per word clause: the word counted in abstracts, its scores for the papers `head`, and
    its weight (as `partial_steps` weighs it below the divider)."""
    counted: list[tuple[Needle, dict[int, float], float]] = []
    for (hits, weight, optional), needle, lookup in zip(positive, needles, lookups, strict=True):
        if not optional or not needle.text or lookup is None:
            continue
        if partial:
            weight = rarity(count, hits.size_estimate())
        if needle.edge == "word" and hits.matched and needle.text not in hits.matched:
            # A word no paper has counts as what the search found for it: else its papers
            # would be ranked as if they never used it.
            needle = needle._replace(spellings=hits.matched)
        counted.append((needle, head_scores(lookup, head), weight))
    return counted

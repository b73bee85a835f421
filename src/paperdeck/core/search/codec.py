"""The word index as chunks of plain containers for the index cache, and back."""

from __future__ import annotations

from array import array
from collections.abc import Generator, Iterator, Sequence
from typing import Any

from paperdeck.core.model import Paper
from paperdeck.core.plumbing.slices import Clock
from paperdeck.core.search.build import ids_steps
from paperdeck.core.search.index_parts import as_array, split_arrays
from paperdeck.core.search.steps import as_progress
from paperdeck.core.search.word_index import FIELDS, WordIndex

_PART = 250_000
"""Postings per chunk: loading one (~2 MB) takes a few milliseconds."""
_VOCABULARY_PIECE = 32768
"""Words per chunk of the vocabulary."""


def pack(index: WordIndex) -> Iterator[object | None]:
    """The index as plain containers for the cache, a few megabytes per chunk: words as
    numbers into the vocabulary, postings as one array's bytes with their lengths. A None
    between chunks is a pause: the index answers searches meanwhile."""
    vocabulary = index.vocabulary
    number: dict[str, int] = {}
    for at, word in enumerate(vocabulary):
        number[word] = at
        if at & 8191 == 8191:
            yield None
    # Words by field, in parts of about _PART postings' worth.
    parts: list[tuple[int, list[str]]] = []
    for field, postings in enumerate(index.postings):
        size = _PART
        for count, (word, docs) in enumerate(postings.items()):
            if size >= _PART:
                parts.append((field, []))
                size = 0
            parts[-1][1].append(word)
            # Each word costs as much as some postings: a part of rare words is no faster.
            size += len(docs) + 16
            if count & 8191 == 8191:
                yield None
    pieces = range(0, len(vocabulary), _VOCABULARY_PIECE)
    yield (len(index), len(vocabulary), len(pieces), len(parts))
    for start in pieces:
        yield vocabulary[start : start + _VOCABULARY_PIECE]
    for field, part in parts:
        yield _postings_chunk(field, part, index.postings[field], number)
    buckets: dict[str, tuple[bytes, list[int]]] = {}
    for first, (ordered, starts) in index.buckets.items():
        buckets[first] = (array("I", map(number.__getitem__, ordered)).tobytes(), starts)
        if len(ordered) > 4096:
            yield None
    prefixes = []
    for unions in index.short_prefixes:
        prefixes.append(
            (
                list(unions),
                array("I", map(len, unions.values())).tobytes(),
                b"".join(map(array.tobytes, unions.values())),
            )
        )
        yield None
    years = {year: docs.tobytes() for year, docs in index.years.items()}
    venues = {venue: (names, docs.tobytes()) for venue, (names, docs) in index.venues.items()}
    yield ("rest", buckets, prefixes, years, venues)


def _postings_chunk(
    field: int, part: list[str], postings: dict[str, array[int]], number: dict[str, int]
) -> tuple[int, bytes, bytes, bytes]:
    docs = list(map(postings.__getitem__, part))
    return (
        field,
        array("I", map(number.__getitem__, part)).tobytes(),
        array("I", map(len, docs)).tobytes(),
        b"".join(map(array.tobytes, docs)),
    )


def restore_steps(
    papers: Sequence[Paper], chunks: Iterator[Any]
) -> Generator[float, None, WordIndex]:
    """The index `pack` made of these papers, a chunk per slice; raises on anything
    unexpected."""
    count, words, pieces, parts = next(chunks)
    if count != len(papers):
        raise ValueError("not this index")
    vocabulary: list[str] = []
    for _ in range(pieces):
        piece = next(chunks)
        if type(piece) is not list:
            raise ValueError("not this index")
        vocabulary.extend(piece)
        yield 0.2 * len(vocabulary) / max(1, words)
    if len(vocabulary) != words:
        raise ValueError("not this index")
    word_at = vocabulary.__getitem__
    postings: list[dict[str, array[int]]] = [{} for _ in FIELDS]
    for done, chunk in enumerate(chunks, 1):
        if chunk[0] == "rest":
            break
        field, numbers, lengths, blob = chunk
        postings[field].update(
            zip(map(word_at, as_array(numbers)), split_arrays(blob, lengths), strict=True)
        )
        yield 0.2 + 0.7 * min(1, done / max(1, parts))
    else:
        raise ValueError("incomplete index")
    _, buckets, prefixes, years, venues = chunk
    yield 0.91
    if next(chunks, None) is not None:
        raise ValueError("not this index")
    if len(prefixes) != len(FIELDS):
        raise ValueError("not this index")
    short_prefixes: list[dict[str, array[int]]] = []
    for names, lengths, blob in prefixes:
        short_prefixes.append(dict(zip(names, split_arrays(blob, lengths), strict=True)))
        yield 0.92
    restored_buckets: dict[str, tuple[list[str], list[int]]] = {}
    clock = Clock()
    for first, (numbers, starts) in buckets.items():
        restored_buckets[first] = (list(map(word_at, as_array(numbers))), starts)
        if clock.due():
            yield 0.93
            clock.reset()
    restored_years = {year: as_array(docs) for year, docs in years.items()}
    restored_venues = {venue: (names, as_array(docs)) for venue, (names, docs) in venues.items()}
    ids = yield from as_progress(ids_steps(papers), 0.98)
    return WordIndex(
        papers=papers,
        ids=ids,
        postings=tuple(postings),
        vocabulary=vocabulary,
        buckets=restored_buckets,
        short_prefixes=short_prefixes,
        years=restored_years,
        venues=restored_venues,
    )

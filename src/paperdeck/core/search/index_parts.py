"""Postings of a range of papers, built here or in a helper process, so a big list is indexed
on two or more cores at once."""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from itertools import accumulate, islice
from operator import attrgetter
from typing import IO, TYPE_CHECKING, TypeAlias

from paperdeck.core.plumbing import helper_process
from paperdeck.core.plumbing.slices import Clock, finish
from paperdeck.core.search.steps import as_progress
from paperdeck.core.text.fold import word_set

if TYPE_CHECKING:  # a helper has no use for the model (~7 ms of its start)
    from paperdeck.core.model import Paper

FIELD_COUNT = 4
"""Title, method, authors, abstract: the fields the index keeps postings for."""
Postings: TypeAlias = "list[dict[str, array[int]]]"
"""Per field: folded word -> the numbers of the papers that have it, ascending."""
PAPERS_PER_PART = 10_000
"""A part this size takes ~0.3 s to index; starting and feeding a helper ~40 ms."""
OWN_WEIGHT = 1.0
"""The indexing process's part against a helper's. At 100,000 papers on two cores (first
builds, medians of 5, weights interleaved): 0.85 took 2.23 s, 0.9 2.17 s, and 0.95 to 1.05
took 2.02-2.10 s, differences within run-to-run noise; 1.1 took 2.13 s against 2.02 s for
1.0 in the same run (1.15 was best while helpers answered through a pipe)."""
_BATCH = 4096
"""Papers per frame sent to a helper. The feeding thread holds the GIL ~1.5 ms per frame of
abstracts and waits for it before each: with 1,024 a helper sat waiting for its texts for
~0.25 s of a 100,000-paper build, with 4,096 ~0.07 s."""
_FRAME_POSTINGS = 100_000
"""Postings per frame a helper sends back: loading one takes a few milliseconds."""
_ADD_PIECE = 64
"""Papers `Growing.add` indexes at a time when it is to pause between (~5 ms)."""
_DECODE_CHUNK = 8192
"""Words decoded per step (~1 ms)."""
_PROTOCOL = "paperdeck-index-part-1"


def helper_count(papers: int) -> int:
    """How many helper processes to index this many papers with."""
    return helper_process.helper_count(papers, PAPERS_PER_PART)


def _title(paper: Paper) -> str:
    # A title left to be derived later is not derived for the index: it gets its postings
    # once every title is known (`build.titled_steps`).
    return paper.title if _title_known(paper) else ""


def _method(paper: Paper) -> str:
    return (paper.method or "") if _title_known(paper) else ""


def _title_known(paper: Paper) -> bool:
    global _title_known
    from paperdeck.core.model import title_known

    _title_known = title_known  # imported on first use: a helper makes no papers
    return title_known(paper)


def _authors(paper: Paper) -> str:
    return " ".join(paper.authors)


def _abstract(paper: Paper) -> str:
    return paper.abstract


_TEXT_OF = (_title, _method, _authors, _abstract)
"""A paper's text in each field, in FIELDS order."""


def field_texts(papers: Sequence[Paper]) -> tuple[Iterable[str], ...]:
    """Per field, the texts of the papers in order, read lazily."""
    return tuple(map(text_of, papers) for text_of in _TEXT_OF)


RawPostings: TypeAlias = "defaultdict[bytes, array[int]]"
"""One field's postings as they are built: UTF-8 word -> paper numbers, ascending."""


def postings_steps(
    fields: Sequence[Iterable[str]], offset: int, clock: Clock
) -> Generator[float, None, Postings]:
    """The postings of papers numbered from `offset`, one field after the other, in slices
    that yield the fraction done."""
    result: Postings = []
    for field, texts in enumerate(fields):
        raw: RawPostings = defaultdict(_new_postings)
        for _ in _add_steps(raw, texts, offset, clock):
            yield field / len(fields)
        decoded = yield from as_progress(decoded_steps(raw, clock), (field + 1) / len(fields))
        result.append(decoded)
    return result


def _add_steps(
    raw: RawPostings, texts: Iterable[str], offset: int, clock: Clock
) -> Generator[None, None, None]:
    """Add the words of texts numbered from `offset` to `raw`, in slices."""
    for number, text in enumerate(texts, offset):
        if text:
            for word in word_set(text):
                raw[word].append(number)
        if number & 15 == 0 and clock.due():
            yield
            clock.reset()


def decoded_steps(
    raw: Mapping[bytes, array[int]], clock: Clock, copy: bool = False
) -> Generator[None, None, dict[str, array[int]]]:
    """`raw` keyed by text, in slices; with `copy`, each array copied (`raw` may grow on)."""
    decoded: dict[str, array[int]] = {}
    words, docs = iter(raw), iter(raw.values())
    if copy:
        docs = map(array.__copy__, docs)
    for _ in range(0, len(raw), _DECODE_CHUNK):
        decoded.update(
            zip(
                map(bytes.decode, islice(words, _DECODE_CHUNK)),
                islice(docs, _DECODE_CHUNK),
                strict=True,
            )
        )
        if clock.due():
            yield
            clock.reset()
    return decoded


def merge_steps(into: Postings, part: Postings, clock: Clock) -> Generator[None, None, None]:
    """Move the postings of a later range of papers into `into`, in slices (`part` is left
    empty: freeing it word by word here spares a long pause when it goes)."""
    for known, more in zip(into, part, strict=True):
        for count in range(len(more)):
            word, docs = more.popitem()
            existing = known.get(word)
            if existing is None:
                known[word] = docs
            else:
                existing.extend(docs)
            if count & 255 == 255 and clock.due():
                yield
                clock.reset()


def as_array(data: bytes) -> array[int]:
    """An array of paper numbers from its bytes."""
    docs = array("I")
    docs.frombytes(data)
    return docs


def split_arrays(blob: bytes, lengths: bytes) -> list[array[int]]:
    """Arrays cut from one array's bytes, by their lengths."""
    whole = as_array(blob)
    ends = list(accumulate(as_array(lengths)))
    if (ends[-1] if ends else 0) != len(whole):
        raise ValueError("lengths do not fit")
    return list(map(whole.__getitem__, map(slice, [0, *ends[:-1]], ends)))


class Growing:
    """The postings of a list's papers as its load makes them, in order: ranges indexed here
    a batch at a time, and helpers' answers for theirs (`index_parts` frames).

    The load's thread adds; another thread may take a `snapshot` of the first papers
    meanwhile (a lock keeps them apart). `postings_steps` puts it all together at the end.
    """

    def __init__(self, between: Callable[[], None] | None = None) -> None:
        """`between`: called between slices of the indexing, outside the lock."""
        import threading

        self._between = between
        self._lock = threading.Lock()
        self._segments: list[_Segment] = []
        self._first: list[Paper] = []
        """The papers of the first segment."""
        self._covers = 0
        """How many papers, from the first, the first segment holds (see `covers`)."""
        self.complete: int | None = None
        """How many papers the load made, once it is over and every one of them is here; None
        while it runs, or when the load's papers are not these (see `abandon`)."""

    def add(self, papers: Sequence[Paper], offset: int) -> None:
        """Index papers numbered from `offset` here."""
        if not papers:
            return
        between = self._between
        if between is not None and len(papers) > _ADD_PIECE:
            for start in range(0, len(papers), _ADD_PIECE):
                between()
                self.add(papers[start : start + _ADD_PIECE], offset + start)
            return
        with self._lock:
            last = self._segments[-1] if self._segments else None
            if last is None or last.end != offset or last.raw is None:
                last = _Segment(offset, offset, [defaultdict(_new_postings) for _ in _TEXT_OF])
                self._segments.append(last)
            assert last.raw is not None
            clock = Clock()
            for raw, texts in zip(last.raw, field_texts(papers), strict=True):
                finish(_add_steps(raw, texts, offset, clock))
            last.end = offset + len(papers)
            if last is self._segments[0] and last.start == 0:
                self._first.extend(papers)
                self._covers = last.end

    def add_answer(self, output: bytes, offset: int, count: int) -> None:
        """A helper's answer (`serve`'s frames) for the papers `offset` to `offset + count`."""
        with self._lock:
            self._segments.append(_Segment(offset, offset + count, None, output))

    def covers(self) -> int:
        """How many papers, from the first, `snapshot` covers: read without the lock, which
        the load's thread holds while it indexes a batch (the reader asks as a key is typed)."""
        return self._covers

    def snapshot(self, limit: int) -> tuple[list[Paper], Postings]:
        """The first papers indexed here, at most `limit`, and a copy of their postings (per
        field), for a search over them while the rest loads."""
        clock = Clock()
        with self._lock:
            first = self._segments[0] if self._segments else None
            if first is None or first.start != 0 or first.raw is None:
                return [], [{} for _ in _TEXT_OF]
            postings = [finish(decoded_steps(raw, clock, copy=True)) for raw in first.raw]
            papers = self._first[: min(first.end, limit)]
        if len(papers) < first.end:
            for known in postings:
                for word in [word for word, docs in known.items() if docs[-1] >= len(papers)]:
                    docs = known[word]
                    del docs[bisect_left(docs, len(papers)) :]
                    if not docs:
                        del known[word]
        return papers, postings

    def abandon(self) -> None:
        """The load's papers are not the ones indexed here (several lists, metadata applied):
        nothing here is to be used."""
        with self._lock:
            self._segments.clear()
            self._first = []
            self._covers = 0
            self.complete = None

    def done(self, count: int) -> None:
        """The load made `count` papers; each was indexed here or is in a helper's answer."""
        with self._lock:
            covered = 0
            for segment in sorted(self._segments, key=_START):
                if segment.start != covered:
                    break
                covered = segment.end
            self.complete = count if covered == count else None

    def postings_steps(self, papers: Sequence[Paper]) -> Generator[None, None, Postings]:
        """The postings of all `papers` (the load's, once `complete`), in slices: each range's
        in order, a damaged answer's papers indexed here instead."""
        clock = Clock()
        with self._lock:
            segments = sorted(self._segments, key=_START)
            self._segments, self._first = [], []
            self._covers = 0
            self.complete = None  # used up
        result: Postings = [{} for _ in _TEXT_OF]
        for segment in segments:
            if segment.raw is not None:
                part = []
                for raw in segment.raw:
                    part.append((yield from decoded_steps(raw, clock)))
                    raw.clear()
                if segment.start == 0:
                    result = part
                else:
                    yield from merge_steps(result, part, clock)
                continue
            assert segment.answer is not None
            merged = yield from merge_answer_steps(result, segment.answer, segment.start, clock)
            if not merged:
                texts = field_texts(papers[segment.start : segment.end])
                steps = postings_steps(texts, segment.start, clock)
                while True:
                    try:
                        next(steps)
                    except StopIteration as stop:
                        part = stop.value
                        break
                    yield
                yield from merge_steps(result, part, clock)
        return result


class _Segment:
    """Papers `start` to `end`: indexed here (`raw`) or a helper's `answer`."""

    __slots__ = ("answer", "end", "raw", "start")

    def __init__(
        self, start: int, end: int, raw: list[RawPostings] | None, answer: bytes | None = None
    ) -> None:
        self.start = start
        self.end = end
        self.raw = raw
        self.answer = answer


_START = attrgetter("start")


class Helper:
    """A helper process that builds the postings of one range of papers.

    Any failure (no interpreter, a crash, a damaged answer) makes `merge_steps` answer False:
    then build that part here.
    """

    def __init__(self, papers: Sequence[Paper], offset: int) -> None:
        self._offset = offset
        self._process = helper_process.HelperProcess(
            f"{__name__}:serve", lambda stream: write_request(stream, papers, offset)
        )

    def merge_steps(self, into: Postings, own_part: float) -> Generator[None, None, bool]:
        """Wait for the helper (a few milliseconds per slice), then merge its postings into
        `into`, which must hold the papers before its range and none after. False, and `into`
        as it was, when it failed; a helper much slower than this process's own part
        (`own_part` seconds) is given up."""
        patience = helper_process.PATIENCE + 2 * own_part
        output = yield from self._process.output_steps(patience)
        if output is None:
            return False
        yield  # merging starts with a slice of its own
        return (yield from merge_answer_steps(into, output, self._offset, Clock()))

    def close(self) -> None:
        """Stop the helper if it still runs."""
        self._process.close()


def write_request(stream: IO[bytes], papers: Sequence[Paper], offset: int) -> None:
    """What a helper reads: the texts of the papers numbered from `offset`, a field at a time
    in frames, so that it indexes the titles while the abstracts are still on their way."""
    helper_process.write_frame(stream, (_PROTOCOL, offset, len(papers)))
    for text_of in _TEXT_OF:
        for start in range(0, len(papers), _BATCH):
            helper_process.write_frame(stream, list(map(text_of, papers[start : start + _BATCH])))


def _new_postings() -> array[int]:
    return array("I")


def _read_request(source: IO[bytes]) -> tuple[int, list[Iterator[str]]] | None:
    """What `write_request` wrote: the first paper's number and per field the texts, read as
    they are used; None when it is not such a request (a damaged one raises ValueError)."""
    head = helper_process.read_frame(source)
    if type(head) is not tuple or len(head) != 3 or head[0] != _PROTOCOL:
        return None
    _, offset, count = head
    if type(offset) is not int or type(count) is not int:
        return None
    return offset, [_field_stream(source, count) for _ in range(FIELD_COUNT)]


def _field_stream(source: IO[bytes], count: int) -> Iterator[str]:
    got = 0
    while got < count:
        frame = helper_process.read_frame(source)
        if type(frame) is not list:
            raise ValueError("not texts")
        got += len(frame)
        yield from frame
    if got != count:
        raise ValueError("not that many texts")


def merge_answer_steps(
    into: Postings, output: bytes, offset: int, clock: Clock
) -> Generator[None, None, bool]:
    """Merge a helper's answer, the postings of papers numbered from `offset`, into `into`, a
    frame per slice. Straight in, not through a dict of its own: that would cost ~15 ms more
    at 100,000 papers, all of it while the index is not yet answering. False when the answer
    is damaged: what was merged of it is taken out again."""
    merged: list[tuple[int, list[str]]] = []
    answer = helper_process.frames(output)
    try:
        for frame in answer:
            if frame == ("end",):
                break
            field, words, lengths, blob = frame
            if type(field) is not int or not 0 <= field < FIELD_COUNT:
                raise ValueError("no such field")
            if type(words) is not list or not all(type(word) is str for word in words):
                raise TypeError("not words")
            merged.append((field, words))
            known = into[field]
            get = known.get
            for word, more in zip(words, split_arrays(blob, lengths), strict=True):
                existing = get(word)
                if existing is None:
                    known[word] = more
                else:
                    existing.extend(more)
            if clock.due():
                yield
                clock.reset()
        else:
            raise ValueError("no end")
        if next(answer, None) is not None:
            raise ValueError("more than one answer")
    except (ValueError, TypeError, EOFError, IndexError):
        _unmerge(into, merged, offset)
        return False
    return True


def _unmerge(into: Postings, merged: list[tuple[int, list[str]]], offset: int) -> None:
    """Take the papers numbered from `offset` back out of these words' postings."""
    for field, words in merged:
        known = into[field]
        for word in words:
            docs = known.get(word)
            if docs is None:
                continue
            cut = bisect_left(docs, offset)
            if cut:
                del docs[cut:]
            else:
                del known[word]


def _answer_frames(postings: Postings) -> Generator[tuple[object, ...], None, None]:
    for field, known in enumerate(postings):
        words: list[str] = []
        size = 0
        for word, docs in known.items():
            words.append(word)
            # A word costs as much to load as some postings: a frame of rare words is no faster.
            size += len(docs) + 16
            if size >= _FRAME_POSTINGS:
                yield _postings_frame(field, words, known)
                words, size = [], 0
        if words:
            yield _postings_frame(field, words, known)
    yield ("end",)


def _postings_frame(
    field: int, words: list[str], known: dict[str, array[int]]
) -> tuple[int, list[str], bytes, bytes]:
    docs = list(map(known.__getitem__, words))
    return (
        field,
        words,
        array("I", map(len, docs)).tobytes(),
        b"".join(map(array.tobytes, docs)),
    )


def serve(source: IO[bytes], target: IO[bytes]) -> int:
    """A helper's work: papers' texts in from `source`, their postings out to `target`."""
    try:
        request = _read_request(source)
    except (ValueError, TypeError, EOFError):
        return 2
    if request is None:
        return 2
    offset, texts = request
    try:
        postings = finish(postings_steps(texts, offset, Clock()))
    except (ValueError, TypeError, EOFError):
        return 2
    if helper_process.read_frame(source) is not None:
        return 2
    _write_answer(target, postings)
    return 0


def write_postings(target: IO[bytes], fields: Sequence[Iterable[str]], offset: int) -> None:
    """Write the postings of papers numbered from `offset`, their texts per field, as a
    helper's answer (what `merge_answer_steps` and `Growing.add_answer` take)."""
    _write_answer(target, finish(postings_steps(fields, offset, Clock())))


def _write_answer(target: IO[bytes], postings: Postings) -> None:
    for answer in _answer_frames(postings):
        helper_process.write_frame(target, answer)

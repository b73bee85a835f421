"""Plain-text lists: a header line, then one abstract per paragraph."""

from __future__ import annotations

import re
from collections.abc import Iterator

from paperdeck.core.formats.decoding import Decoder
from paperdeck.core.formats.header import has_header_cue, venue_from_header, year_from_header
from paperdeck.core.formats.raw_list import RawList
from paperdeck.core.ids import IdMaker, normalise_for_id, plain_ascii_key

_SENTENCE_END = tuple(".!?;。！？")
_PROSE_LETTERS = 12
"""Letters of words a paragraph needs, at the least, to read as an abstract (a real one has
some hundreds; a test's may be as short as "An abstract about graphs."; in Chinese, one
word of the split is a whole sentence)."""


def read_txt(raw: RawList, data: bytes) -> None:
    decode = Decoder()
    data, blank_line = _one_line_ending(data)
    chunks = _chunks(data, blank_line)
    _read_head(raw, chunks, decode)
    records = raw.records
    for chunk in chunks:
        records.extend({"abstract": text} for text in _texts(decode(chunk)))
    decode.warn(raw)


class TextParagraphs:
    """A plain-text list read in two steps: first its header, its first paragraph's papers and
    the ids of all its papers (`ids`), then the rest of its records as `read` asks for them.

    A big list's ids are known before most of its text is decoded: an ASCII paragraph's id
    comes from its bytes alone. `raw.records` ends up as `read_txt` would make it.
    """

    def __init__(self, raw: RawList, data: bytes) -> None:
        self._raw = raw
        decode = Decoder()
        data, blank_line = _one_line_ending(data)
        # Cut at once, not a piece at a time as read_txt does: the pieces are kept anyway.
        chunks = iter(data.split(blank_line))
        _read_head(raw, chunks, decode)
        made = IdMaker()
        for record in raw.records:
            made.add(normalise_for_id(record["abstract"]))
        self._pieces: list[bytes | list[str] | None] = []
        """After the head, each paragraph's bytes (plain ASCII, one paper), or the texts of
        the papers a piece of the file holds once decoded; None once read."""
        self._next = 0
        # Two quick looks at the whole file spare most paragraphs a look of their own.
        controls = bool(data.translate(None, _NOT_ASCII_CONTROLS))
        blank_lines = _WHITESPACE_LINE.search(data) is not None
        for chunk in chunks:
            if (
                chunk.isascii()
                and not (controls and chunk.translate(None, _NOT_ASCII_CONTROLS))
                and not (blank_lines and _WHITESPACE_LINE.search(chunk))
            ):
                key = plain_ascii_key(chunk)
                if key:  # else only whitespace: no paper
                    made.add(key)
                    self._pieces.append(chunk)
                continue
            texts = _texts(decode(chunk))
            if texts:
                self._pieces.append(texts)
                for text in texts:
                    made.add(normalise_for_id(text))
        decode.warn(raw)
        self.count = len(made)
        """How many papers the list holds."""
        self.ids = made.ids()
        """The ids of all its papers, in order (as `assign_ids` gives them)."""

    def texts(self) -> Iterator[str]:
        """The abstracts not read into records yet, in order, each decoded as it is asked for
        (the records stay to be made by `read`)."""
        for piece in self._pieces[self._next :]:
            if isinstance(piece, bytes):
                yield from _texts(piece.decode("ascii"))
            elif piece is not None:
                yield from piece

    def read(self, upto: int | None = None) -> None:
        """Add records to `raw.records` until it holds `upto` (all of them by default)."""
        records = self._raw.records
        pieces = self._pieces
        while self._next < len(pieces) and (upto is None or len(records) < upto):
            piece = pieces[self._next]
            pieces[self._next] = None  # its text lives on in its record
            self._next += 1
            texts = _texts(piece.decode("ascii")) if isinstance(piece, bytes) else piece or []
            records.extend({"abstract": text} for text in texts)


_NOT_ASCII_CONTROLS = bytes(b for b in range(256) if 0x20 <= b != 0x7F or b in b"\t\n")
"""Every byte but the ASCII control characters that cleaning removes or changes."""
_WHITESPACE_LINE = re.compile(rb"\n[ \t]+\n")
"""A line of blanks inside a piece of the file (cut at empty lines): it may hold two papers."""


def _one_line_ending(data: bytes) -> tuple[bytes, bytes]:
    """The file's bytes and its blank line, to cut it at."""
    blank_line = b"\n\n"
    if b"\r" in data:
        # Cut at the file's own blank lines when it keeps to one line ending: rewriting 100 MB
        # of CRLF costs more than reading it. The cut is only a first pass (each piece is
        # cleaned, CR becoming LF, and split again at any blank line it still holds), so a
        # wrong guess costs time, never a paragraph.
        carriage_returns, line_feeds = data.count(b"\r"), data.count(b"\n")
        if line_feeds == 0:
            blank_line = b"\r\r"
        elif carriage_returns == line_feeds:
            blank_line = b"\r\n\r\n"
        else:
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return data, blank_line


def _read_head(raw: RawList, chunks: Iterator[bytes], decode: Decoder) -> None:
    """The list's header, if any, and the papers of its first paragraphs, up to the first."""
    records = raw.records
    for chunk in chunks:
        paragraphs = split_paragraphs(decode(chunk))
        if not paragraphs:
            continue
        header, rest = _split_header(paragraphs[0])
        if header is not None:
            raw.header = header
            raw.venue = venue_from_header(header)
            raw.year = year_from_header(header)
        if rest:
            paragraphs[0] = rest
        else:
            del paragraphs[0]
        records.extend({"abstract": join_lines(lines)} for lines in paragraphs)
        break


def _texts(text: str) -> list[str]:
    """The abstracts in a decoded piece of the file cut at blank lines."""
    if "\n" not in text:
        text = text.strip()
        return [text] if text else []
    # Hard-wrapped lines, extra blank lines, whitespace-only lines.
    return [join_lines(lines) for lines in split_paragraphs(text)]


def _chunks(data: bytes, blank_line: bytes) -> Iterator[bytes]:
    """The file cut at every blank line, one piece at a time.

    One piece at a time keeps memory down, and each paragraph its own string: one character
    above U+FFFF in a 100 MB text would otherwise make all of it four bytes a character.
    """
    find = data.find
    step = len(blank_line)
    start = 0
    while True:
        end = find(blank_line, start)
        if end < 0:
            yield data[start:]
            return
        yield data[start:end]
        start = end + step


def split_paragraphs(text: str) -> list[list[str]]:
    """Groups of stripped non-blank lines (a line of Unicode spaces also separates)."""
    groups: list[list[str]] = []
    current: list[str] = []
    for line in text.split("\n"):
        line = line.strip()
        if line:
            current.append(line)
        elif current:
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


def join_lines(lines: list[str]) -> str:
    """One line from a hard-wrapped paragraph; a word broken after its hyphen stays one word."""
    if len(lines) == 1:
        return lines[0]
    parts = [lines[0]]
    previous = lines[0]
    for line in lines[1:]:
        if (
            previous.endswith("-")
            and len(previous) >= 2
            and previous[-2].isalnum()
            and line[0].isalnum()
        ):
            parts.append(line)
        else:
            parts.append(" ")
            parts.append(line)
        previous = line
    return "".join(parts)


def _split_header(lines: list[str]) -> tuple[str | None, list[str]]:
    """The header line of a list, if the first paragraph starts with one, and what follows it."""
    first = lines[0]
    if len(first) > 120 or first.endswith("-"):
        return None, lines
    cue = has_header_cue(first)
    if len(lines) == 1:
        # A short one-line first paragraph is a header unless it reads like a sentence
        # (a one-sentence abstract) and names no venue, year or list.
        if cue or not first.endswith(_SENTENCE_END):
            return first, []
        return None, lines
    # A header written directly above the first abstract, with no blank line between: it must
    # say it is one, and be much shorter than the next line (a hard-wrapped paragraph's lines
    # are all about as long).
    if cue and not first.endswith(_SENTENCE_END) and len(lines[1]) > 1.5 * len(first):
        return first, lines[1:]
    return None, lines


def reads_as_prose(text: str) -> bool:
    """Whether a paragraph could be an abstract: _PROSE_LETTERS letters of words or more, most
    of it words (a word being mostly letters and no digit: "(LLMs)." and "本文提出了一种方法，"
    are, the lines of /etc/passwd "root:x:0:0:root:/root:/bin/bash" and "127.0.0.1",
    "ip6-localhost" of /etc/hosts are not)."""
    tokens = text.split()
    wordy = [token for token in tokens if _mostly_letters(token)]
    letters = sum(char.isalpha() for token in wordy for char in token)
    return letters >= _PROSE_LETTERS and 2 * sum(map(len, wordy)) >= sum(map(len, tokens))


def _mostly_letters(token: str) -> bool:
    # No digit: host names ("ip6-localhost") and versions are no words of prose.
    return 5 * sum(map(str.isalpha, token)) >= 4 * len(token) and not _DIGIT.search(token)


_DIGIT = re.compile(r"\d")

"""Plain-text lists: a header line, then one abstract per paragraph."""

from __future__ import annotations

from collections.abc import Iterator

from paperdeck.core.formats.decoding import Decoder
from paperdeck.core.formats.header import has_header_cue, venue_from_header, year_from_header
from paperdeck.core.formats.raw_list import RawList

_SENTENCE_END = tuple(".!?;。！？")


def read_txt(raw: RawList, data: bytes) -> None:
    decode = Decoder()
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
    chunks = _chunks(data, blank_line)
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
    for chunk in chunks:
        text = decode(chunk)
        if "\n" not in text:
            text = text.strip()
            if text:
                records.append({"abstract": text})
        else:
            # Hard-wrapped lines, extra blank lines, whitespace-only lines.
            records.extend({"abstract": join_lines(lines)} for lines in split_paragraphs(text))
    decode.warn(raw)


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

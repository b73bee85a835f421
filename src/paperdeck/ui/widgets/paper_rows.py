"""How one paper's row in the list looks: its title on one or two lines, then a quieter line of
authors · venue year · tags · state icons (or all on one line in the compact layout)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from itertools import compress, pairwise, repeat
from operator import is_, methodcaller, not_

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.strip import Strip

from paperdeck.core.model import Annotation, Paper
from paperdeck.core.papers import Papers
from paperdeck.core.text.render import display_title, has_title_markup
from paperdeck.ui.safe_text import one_line
from paperdeck.ui.widgets.match_hint import ELLIPSIS, Hint, fit

Highlighter = Callable[[str], Sequence[tuple[int, int]]]
Styles = dict[str, RichStyle]
"""A row's styles by part name ("" is the row's own), each already over the row's colours."""

STATE_MARKERS = {"unread": "●", "reading": "◐", "read": " "}
MARK_MARKER = "▍"
STAR_MARKER = "★"
NOTE_MARKER = "✎"
DERIVED_MARKER = "≈ "
"""Put before a title paperdeck made up from the abstract (the detail pane says how)."""
GUTTER = 3
"""Cells before a title: the mark, the reading state, a space."""
UNMEASURED = 0
"""`title_cells_of` a title still to be derived (any title takes a cell or more)."""
TYPICAL_MADE_UP_CELLS = 85
"""The median width of a made-up title's row (the list of 5,000 ICML papers), with its marker:
what a row whose title is still to be derived is laid out for."""
AUTHORS_SHOWN = 3
SEPARATOR = " · "
HINT_GAP = "  "
"""Between a compact row's title and the abstract around its match."""
COMPACT_HINT_ROOM = 16
"""The least room a compact row gives a hint (with as much for its title)."""
HINT_ROOM = 16
"""The least room a row's quiet line leaves a hint beside a matching author."""
COMPACT_TITLE_SHARE = (2, 3)
"""The most of a compact row's line its title keeps when a hint follows it."""


def no_highlight(_text: str) -> Sequence[tuple[int, int]]:
    """A Highlighter that finds nothing."""
    return ()


def no_hint() -> Hint | None:
    """A row's hint when there is none to give."""
    return None


@dataclass(frozen=True)
class RowFacts:
    """What one row shows besides the paper itself."""

    annotation: Annotation | None
    marked: bool
    is_cursor: bool
    highlight: Highlighter
    number: int
    """The paper's place in the open list (1-based), shown at the quiet line's end."""
    highlight_authors: Highlighter = no_highlight
    """Finds the matches in the authors' names joined by ", " (the title's `highlight` finds
    those in the title: a query's fields differ)."""
    hint: Callable[[], Hint | None] = no_hint
    """The abstract around the first word of the search that title and authors lack."""


def shown_title(paper: Paper) -> str:
    """The title a row shows: its LaTeX and markdown rendered as the abstract's are; a made-up
    title whole when the list kept it so, the row cutting it to the room it has (the list's
    cut, for rows of old, loses what a wide row can show)."""
    if paper.uncut_title is not None and paper.cut_title:
        return _whole_title(paper.uncut_title, paper.title)
    return display_title(paper.title, made_up=paper.title_derived)


@lru_cache(maxsize=1024)
def _whole_title(uncut: str, title: str) -> str:
    """`Paper.whole_title` of a title kept whole, cleaned and rendered once for the rows
    painted again."""
    from paperdeck.core.text.sanitize import clean_line

    return display_title(clean_line(uncut) or title, made_up=True)


def title_text(paper: Paper) -> str:
    """The title as the list shows it (a derived one behind its marker)."""
    title = one_line(shown_title(paper))
    return DERIVED_MARKER + title if paper.title_derived else title


def title_cells(paper: Paper) -> int:
    """Cells the shown title takes on one line (for the list's row heights)."""
    title = shown_title(paper)
    cells = len(title) if title.isascii() else cell_len(title)
    return cells + (len(DERIVED_MARKER) if paper.title_derived else 0)


@cache
def title_cells_name() -> str:
    """What a stored list keeps its `title_cells_of` under (Papers.per_paper): another Rich
    (its measuring code), Unicode version or marker measures them again."""
    import os
    import zlib
    from pathlib import Path

    import rich.cells

    measurer = zlib.crc32(Path(rich.cells.__file__).read_bytes())
    unicode = os.environ.get("UNICODE_VERSION", "auto")
    return f"title-cells whole rendered {measurer} {unicode} {DERIVED_MARKER}"


def title_cells_of(papers: Papers, start: int = 0) -> bytes:
    """`title_cells` of each paper from `start` on, capped at 255, at C speed for ASCII titles
    (a 100,000-paper list is measured once per open, in the time of its first paint); read
    from the titles alone, without the papers (a stored list makes none). A made-up title
    cut to fit a row is measured whole when kept so, as its row shows it; one still to be
    derived is UNMEASURED (`PaperList` measures it when it is shown)."""
    known = papers.row_titles(start)
    titles = [title or "" for title in known]
    flags = papers.derived_flags(start)
    cells = list(map(len, titles))
    # "…" ends most derived titles and takes one cell: it does not need cell_len.
    plain = map(str.isascii, map(methodcaller("replace", "…", "."), titles))
    for index in compress(range(len(titles)), map(not_, plain)):
        cells[index] = cell_len(titles[index])
    # A row shows a title's LaTeX rendered, most often narrower ("$\\mathbb{R}^d$" is "ℝᵈ").
    for index in compress(range(len(titles)), map(has_title_markup, titles)):
        cells[index] = cell_len(display_title(titles[index], made_up=bool(flags[index])))
    for index in compress(range(len(titles)), flags):
        cells[index] += len(DERIVED_MARKER)
    for index in compress(range(len(titles)), map(is_, known, repeat(None))):
        cells[index] = UNMEASURED
    return bytes(map(min, cells, repeat(255)))


def state_icons(annotation: Annotation | None, styles: Styles) -> list[tuple[str, RichStyle]]:
    """The icons of a paper's state for the quiet line, each with its style."""
    icons: list[tuple[str, RichStyle]] = []
    if annotation is not None and annotation.starred:
        icons.append((STAR_MARKER, styles["star"]))
    if annotation is not None and annotation.note:
        icons.append((NOTE_MARKER, styles["note"]))
    return icons


def _gutter(facts: RowFacts, styles: Styles, first_line: bool) -> list[Segment]:
    if not first_line:
        mark = MARK_MARKER if facts.marked else " "
        return [Segment(mark, styles["marked"]), Segment("  ", styles[""])]
    state = facts.annotation.state if facts.annotation is not None else "unread"
    return [
        Segment(MARK_MARKER if facts.marked else " ", styles["marked"]),
        Segment(STATE_MARKERS.get(state, " "), styles["marker"]),
        Segment(" ", styles[""]),
    ]


@dataclass(frozen=True)
class _Title:
    """A row's title with the places its style changes, worked out once per row."""

    text: str
    cuts: list[int]
    matches: list[tuple[int, int]]
    method: tuple[int, int] | None
    derived_end: int


def _title(paper: Paper, facts: RowFacts) -> _Title:
    text = title_text(paper)
    length = len(text)
    cuts = {0, length}
    derived_end = len(DERIVED_MARKER) if paper.title_derived else 0
    cuts.add(derived_end)
    method: tuple[int, int] | None = None
    if paper.method:
        name = display_title(paper.method, made_up=True)
        start = text.find(name)
        if start >= 0:
            method = (start, start + len(name))
            cuts.update(method)
    matches: list[tuple[int, int]] = []
    for start, end in facts.highlight(text):
        start, end = max(0, min(start, length)), max(0, min(end, length))
        if end > start:
            matches.append((start, end))
            cuts.update((start, end))
    return _Title(text, sorted(cuts), matches, method, derived_end)


def _title_segments(
    title: _Title, styles: Styles, start: int, end: int, room: int
) -> tuple[list[Segment], int]:
    """Segments of the title's [start, end) in at most `room` cells (cut with … when longer);
    and the cells left over."""
    bounds = sorted({start, end, *(cut for cut in title.cuts if start < cut < end)})
    segments: list[Segment] = []
    for left, right in pairwise(bounds):
        if right <= left:
            continue
        if left < title.derived_end:
            style = styles["derived"]
        elif any(m_start <= left < m_end for m_start, m_end in title.matches):
            style = styles["match"]
        elif title.method is not None and title.method[0] <= left < title.method[1]:
            style = styles["method"]
        else:
            style = styles["title"]
        text = title.text[left:right]
        cells = cell_len(text)
        if cells > room:
            # The "…" in the title's style: at the start of a match it stood alone, drawn as
            # one, where the title has no match left to show.
            kept = set_cell_size(text, max(0, room - 1))
            segments += [Segment(kept, style)] if kept else []
            segments.append(Segment("…", styles["title"]))
            return segments, 0
        segments.append(Segment(text, style))
        room -= cells
    return segments, room


def wrap_point(title: str, room: int) -> tuple[int, int]:
    """Where the title's first line ends and its second starts: at the last space that fits in
    `room` cells (or mid-word when the word is longer than half the line)."""
    if title.isascii():
        if len(title) <= room:
            return len(title), len(title)
        cut = title.rfind(" ", 0, room + 1)
        return (cut, cut + 1) if cut > room // 2 else (room, room)
    cells = 0
    for index, character in enumerate(title):
        cells += cell_len(character)
        if cells > room:
            cut = title.rfind(" ", 0, index + 1)
            return (cut, cut + 1) if cut > index // 2 else (index, index)
    return len(title), len(title)


def _shown_authors(paper: Paper, highlight: Highlighter) -> tuple[str, list[tuple[int, int]]]:
    """The authors as the quiet line shows them ("A, B, C +4"), and the matches in that text.

    When only an author past the first few matches, that author takes the last place ("A, B …
    M +4"): a search by author then shows why the paper is in the results.
    """
    authors = paper.authors
    more = len(authors) - AUTHORS_SHOWN
    suffix = f" +{more}" if more > 0 else ""
    shown = ", ".join(one_line(name) for name in authors[:AUTHORS_SHOWN])
    spans = list(highlight(shown))
    if spans or more <= 0 or highlight is no_highlight:
        return shown + suffix, spans
    for hidden in authors[AUTHORS_SHOWN:]:
        name = one_line(hidden)
        found = highlight(name)
        if found:
            head = ", ".join(one_line(n) for n in authors[: AUTHORS_SHOWN - 1]) + " … "
            spans = [(start + len(head), end + len(head)) for start, end in found]
            return head + name + suffix, spans
    return shown + suffix, spans


def _matching_author(
    paper: Paper, highlight: Highlighter
) -> tuple[str, list[tuple[int, int]]] | None:
    """The first author whose name has a match of the search, and the matches in it; None
    when none has (or nothing is searched)."""
    if highlight is no_highlight:
        return None
    for name in paper.authors:
        text = one_line(name)
        found = list(highlight(text))
        if found:
            return text, found
    return None


def _fit_authors(
    paper: Paper, highlight: Highlighter, room: int
) -> tuple[str, list[tuple[int, int]]]:
    """`_shown_authors` in `room` cells without cutting into the first matching name: the
    names before it give way ("A … M +5", else "… M +6") when the cut would fall inside it."""
    text, spans = _shown_authors(paper, highlight)
    if not spans or cell_len(text) <= room:
        return text, spans
    ends = [at for at in (text.find(", ", spans[0][1]), text.find(" +", spans[0][1])) if at >= 0]
    if cell_len(text[: min(ends, default=len(text))]) < room:
        return text, spans  # the cut's "…" comes after the matching name
    names = [one_line(name) for name in paper.authors]
    matching = next((at for at, name in enumerate(names) if highlight(name)), None)
    if matching is None:
        return text, spans
    name = names[matching]
    between = ", " if matching == 1 else " … "
    options = [(names[0] + between, 2), ("… ", 1)] if matching else [("", 1)]
    for number, (head, shown) in enumerate(options):
        hidden = len(names) - shown
        candidate = head + name + (f" +{hidden}" if hidden > 0 else "")
        if cell_len(candidate) <= room or number == len(options) - 1:
            found = highlight(name)
            return candidate, [(start + len(head), end + len(head)) for start, end in found]
    return text, spans


def _spans_segments(
    text: str, spans: Sequence[tuple[int, int]], style: RichStyle, match: RichStyle, room: int
) -> list[Segment]:
    """`text` in `style` with `match` over its spans, cut with … to `room` cells."""
    cut = ""
    if cell_len(text) > room:
        text, cut = set_cell_size(text, max(0, room - 1)), "…"
    segments: list[Segment] = []
    at = 0
    for start, end in spans:
        start, end = max(at, start), min(len(text), end)
        if end <= start:
            continue
        if start > at:
            segments.append(Segment(text[at:start], style))
        segments.append(Segment(text[start:end], match))
        at = end
    if at < len(text) or cut:
        segments.append(Segment(text[at:] + cut, style))
    return segments


def _meta_line(
    paper: Paper, facts: RowFacts, styles: Styles, room: int, hint: Hint | None
) -> list[Segment]:
    """authors · venue year · tags · icons, the authors cut first when the room is short;
    with a `hint`, the abstract around its match in the authors' place."""
    annotation = facts.annotation
    icons = state_icons(annotation, styles)
    venue = " ".join(part for part in (one_line(paper.venue or ""), str(paper.year or "")) if part)
    tags = (
        " ".join("#" + one_line(tag) for tag in annotation.tags)
        if annotation is not None and annotation.tags
        else ""
    )
    tail: list[tuple[str, RichStyle]] = []
    if venue:
        tail.append((venue, styles["venue"]))
    if tags:
        tail.append((tags, styles["tags"]))
    icon_text = " ".join(text for text, _ in icons)
    fixed = sum(cell_len(text) for text, _ in tail) + cell_len(icon_text)
    fixed += len(SEPARATOR) * (len(tail) + bool(icons) - 1) if tail or icons else 0
    # "#" and two spaces: a bare number after a venue with no year ("ICML  2343") read as its
    # year, on rows whose hint fills the line as on those whose venue stands alone at the left.
    # One after: a list with no scrollbar ends at its border ("1▎" read as one mark).
    position = f"  #{facts.number} "
    fixed += len(position)
    parts: list[list[Segment]] = []
    left = room - fixed - (len(SEPARATOR) if tail or icons else 0)
    if hint is not None and left >= 8:
        author = _matching_author(paper, facts.highlight_authors)
        if author is not None and left - cell_len(author[0]) - len(SEPARATOR) >= HINT_ROOM:
            # The hint takes the authors' place: the one who matched stays, or nothing on
            # the row says why it matched that word.
            name, found = author
            parts.append(_spans_segments(name, found, styles["authors"], styles["match"], left))
            left -= cell_len(name) + len(SEPARATOR)
        text, spans = fit(hint, left)
        parts.append(_spans_segments(text, spans, styles["hint"], styles["match"], left))
    elif paper.authors and left >= 8:
        authors, spans = _fit_authors(paper, facts.highlight_authors, left)
        parts.append(_spans_segments(authors, spans, styles["authors"], styles["match"], left))
    parts.extend([Segment(text, style)] for text, style in tail)
    segments: list[Segment] = []
    for number, part in enumerate(parts):
        if number:
            segments.append(Segment(SEPARATOR, styles["meta"]))
        segments.extend(part)
    if icons:
        if parts:
            segments.append(Segment(SEPARATOR, styles["meta"]))
        for number, (text, style) in enumerate(icons):
            if number:
                segments.append(Segment(" ", styles["meta"]))
            segments.append(Segment(text, style))
    used = sum(segment.cell_length for segment in segments)
    if used + len(position) <= room:
        segments.append(Segment(" " * (room - used - len(position)), styles[""]))
        segments.append(Segment(position, styles["position"]))
    return segments


def _words_in(title: _Title, first: int, last: int) -> int:
    """How many different words the title's matches `first` to `last` (inclusive) are."""
    return len({title.text[s:e].casefold() for s, e in title.matches[first : last + 1]})


def _widest_stretch(title: _Title, room: int) -> tuple[int, int, int]:
    """The matches from `first` to `last` that fit in `room` cells together and are the most
    different words (the first such stretch on a tie): (words, first, last)."""
    text, matches = title.text, title.matches
    best = (0, 0, 0)
    for first, (start, _) in enumerate(matches):
        last = first
        while last + 1 < len(matches) and cell_len(text[start : matches[last + 1][1]]) <= room:
            last += 1
        if cell_len(text[start : matches[last][1]]) > room:
            continue
        words = _words_in(title, first, last)
        if words > best[0]:
            best = (words, first, last)
    return best


def _compact_title(
    title: _Title, styles: Styles, room: int, shown_before: frozenset[str] = frozenset()
) -> tuple[list[Segment], int]:
    """A one-line row's title in `room` cells; when its cut would hide a word of the search it
    has, from before the stretch that shows the most of them ("≈ …in the global model of
    differential privacy"), as fzf shows a long line. Words in `shown_before` (the line above
    shows them) are drawn, not looked for."""
    text = title.text
    counted = title
    if shown_before:
        counted = replace(
            title,
            matches=[m for m in title.matches if text[m[0] : m[1]].casefold() not in shown_before],
        )
    if not counted.matches or cell_len(text) <= room:
        return _title_segments(title, styles, 0, len(text), room)
    # Cut at its end, the title shows the matches that end before the "…".
    seen = sum(1 for _, end in counted.matches if cell_len(text[:end]) < room)
    shown = _words_in(counted, 0, seen - 1) if seen else 0
    # The ≈ and a method name that starts the title stay: they say what the paper is.
    heads = [title.derived_end]
    if title.method is not None and title.method[0] == title.derived_end:
        heads.insert(0, title.method[1] + (2 if text.startswith(": ", title.method[1]) else 0))
    kept, (words, first, last) = max(
        (
            (head, _widest_stretch(counted, room - cell_len(text[:head]) - 2 * len(ELLIPSIS)))
            for head in heads
        ),
        key=lambda option: option[1][0],
    )
    if words <= shown:
        return _title_segments(title, styles, 0, len(text), room)
    first_start, last_end = counted.matches[first][0], counted.matches[last][1]
    head, head_left = _title_segments(title, styles, 0, kept, room)
    room = head_left - len(ELLIPSIS)
    # As much before the stretch as the room leaves, from a word's start; the title's end
    # when it fits, else cut with "…".
    fits = cell_len(text[first_start:]) <= room
    start = first_start
    cells = cell_len(text[first_start:] if fits else text[first_start:last_end])
    cells += 0 if fits else len(ELLIPSIS)
    while start > kept and cells + cell_len(text[start - 1]) <= room:
        start -= 1
        cells += cell_len(text[start])
    space = text.find(" ", start, first_start)
    start = space + 1 if start > kept and space >= 0 else start
    rest, left = _title_segments(title, styles, start, len(text), room)
    return [*head, Segment(ELLIPSIS, styles["title"]), *rest], left


def _second_title_line(
    title: _Title, styles: Styles, first_end: int, start: int, room: int
) -> list[Segment]:
    """A two-line row's title from `start` on, its second line: cut at its end, or, when that
    cut would hide a word of the search the first line does not show, "…" and the stretch of
    the rest that shows it, as a one-line row shows a long title."""
    text = title.text
    if not title.matches or cell_len(text[start:]) <= room:
        return _title_segments(title, styles, start, len(text), room)[0]
    rest = _Title(
        text[start:],
        sorted({0, *(cut - start for cut in title.cuts if cut > start)}),
        [(max(s, start) - start, e - start) for s, e in title.matches if e > start],
        (title.method[0] - start, title.method[1] - start)
        if title.method is not None and title.method[0] >= start
        else None,
        0,
    )
    above = frozenset(text[s:e].casefold() for s, e in title.matches if e <= first_end)
    return _compact_title(rest, styles, room, above)[0]


def render_row(
    paper: Paper, facts: RowFacts, styles: Styles, width: int, *, compact: bool, height: int
) -> list[Strip]:
    """The row's lines: `height` strips of `width` cells (one when compact)."""
    annotation = facts.annotation
    if annotation is not None and annotation.state == "read" and not facts.is_cursor:
        styles = {**styles, "title": styles["read"]}  # what is left to read stands out
    base = styles[""]
    title = _title(paper, facts)
    room = max(1, width - GUTTER)
    hint = facts.hint()
    if compact:
        suffix: list[Segment] = []
        for text, style in state_icons(annotation, styles):
            suffix += [Segment(" ", base), Segment(text, style)]
        if annotation is not None and annotation.tags:
            tags = " " + " ".join("#" + one_line(tag) for tag in annotation.tags)
            limit = room // 3
            if cell_len(tags) > limit:
                tags = set_cell_size(tags, max(0, limit - 1)) + "…" if limit > 1 else ""
            if tags:
                suffix.append(Segment(tags, styles["tags"]))
        # One cell after the icons, as after the wide rows' number: "★▎" read as one mark.
        suffix.append(Segment(" ", base))
        title_room = max(1, room - sum(segment.cell_length for segment in suffix))
        # A one-line row has no authors' line: an author who matched follows the title (before
        # the hint), or nothing on the row says why it matched that word.
        author = _matching_author(paper, facts.highlight_authors)
        named = cell_len(author[0]) + (len(SEPARATOR) if hint is not None else 0) if author else 0
        least = 2 * COMPACT_HINT_ROOM if hint is not None else COMPACT_HINT_ROOM + len(HINT_GAP)
        if title_room < least + named:
            author, named = None, 0
        hinted: list[Segment] = []
        if (hint is not None and title_room >= 2 * COMPACT_HINT_ROOM) or author is not None:
            # The title is what tells the papers apart, so it keeps up to two thirds of the
            # line; the hint takes what the title leaves, and no less than its least room.
            title_share = min(
                cell_len(title.text),
                title_room * COMPACT_TITLE_SHARE[0] // COMPACT_TITLE_SHARE[1]
                if hint is not None
                else title_room,
                title_room - (COMPACT_HINT_ROOM if hint is not None else 0) - named - len(HINT_GAP),
            )
            segments, left = _compact_title(title, styles, title_share)
            title_used = title_share - left
            hint_room = title_room - title_used - len(HINT_GAP)
            hinted = [Segment(HINT_GAP, base)]
            if author is not None:
                name, found = author
                hinted += _spans_segments(
                    name, found, styles["authors"], styles["match"], hint_room
                )
                if hint is not None:
                    hinted.append(Segment(SEPARATOR, styles["meta"]))
                hint_room -= named
            if hint is not None:
                text, spans = fit(hint, hint_room)
                hinted += _spans_segments(text, spans, styles["hint"], styles["match"], hint_room)
            left = title_room - title_used - sum(segment.cell_length for segment in hinted)
        else:
            segments, left = _compact_title(title, styles, title_room)
        line = [
            *_gutter(facts, styles, True),
            *segments,
            *hinted,
            Segment(" " * left, base),
            *suffix,
        ]
        return [Strip(line).adjust_cell_length(width, base)]
    first_end, second_start = (
        wrap_point(title.text, room) if height > 2 else (len(title.text), len(title.text))
    )
    first, _ = _title_segments(title, styles, 0, first_end, room)
    lines = [Strip(_gutter(facts, styles, True) + first).adjust_cell_length(width, base)]
    if height > 2:
        second = _second_title_line(title, styles, first_end, second_start, room)
        lines.append(Strip(_gutter(facts, styles, False) + second).adjust_cell_length(width, base))
    meta = _meta_line(paper, facts, styles, room, hint)
    lines.append(Strip(_gutter(facts, styles, False) + meta).adjust_cell_length(width, base))
    return lines

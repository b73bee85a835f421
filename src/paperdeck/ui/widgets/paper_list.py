"""The paper list: a Line-API scroll view that renders only the rows on screen."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from math import ceil
from operator import is_
from typing import Any, ClassVar, Literal

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar
from textual.strip import Strip
from textual.timer import Timer

from paperdeck.core.model import Annotation, Paper
from paperdeck.core.notes.corrected import corrected_paper
from paperdeck.core.papers import LoadedPapers, Papers
from paperdeck.ui.contrast import (
    BLACK,
    TEXT_READABLE,
    WHITE,
    match_style,
    readable_on,
    solid,
)
from paperdeck.ui.key_routing import mark_origin
from paperdeck.ui.textual_private import event_clock
from paperdeck.ui.widgets.match_hint import Hint, HintUnavailable, RowHints
from paperdeck.ui.widgets.paper_rows import (
    GUTTER,
    TYPICAL_MADE_UP_CELLS,
    UNMEASURED,
    RowFacts,
    render_row,
    shown_title,
    title_cells,
    title_cells_name,
    title_cells_of,
)
from paperdeck.ui.widgets.paper_rows import (
    MARK_MARKER as MARK_MARKER,
)
from paperdeck.ui.widgets.paper_rows import (
    NOTE_MARKER as NOTE_MARKER,
)
from paperdeck.ui.widgets.paper_rows import (
    STAR_MARKER as STAR_MARKER,
)
from paperdeck.ui.widgets.paper_rows import (
    STATE_MARKERS as STATE_MARKERS,
)
from paperdeck.ui.widgets.paper_rows import (
    Highlighter as Highlighter,
)
from paperdeck.ui.widgets.paper_rows import (
    no_highlight as no_highlight,
)
from paperdeck.ui.widgets.row_geometry import DIVIDER, RowGeometry

AnnotationLookup = Callable[[Paper], Annotation | None]
AbstractLookup = Callable[[int], str]
"""The abstract of the paper at an index of the list (read back when it was loaded without)."""
CorrectionsLookup = Callable[[], Mapping[str, Mapping[str, Any]]]
"""The user's corrections that change what a row shows (title, authors), by paper id."""
DIVIDER_LABEL = "some of the words"
"""The rule between the papers with every word of a search and those with some."""
NO_FULL_MATCH_LABEL = "no paper has every word"
RowLayout = Literal["auto", "two-line", "compact"]
ROW_LAYOUTS: tuple[RowLayout, ...] = ("auto", "two-line", "compact")
HINT_TRIES = 3
"""Paints that look for a row's hint before its row is kept without one."""
HINT_RETRY_DELAY = 0.5
"""Seconds before a row whose hint could not be found yet is painted again."""
AUTO_COMPACT_BELOW = 16
"""Lines of list under which the automatic layout shows one line per paper (80x24 has ~8)."""
PART_NAMES = (
    "title",
    "read",
    "derived",
    "method",
    "match",
    "hint",
    "marked",
    "marker",
    "star",
    "note",
    "tags",
    "meta",
    "authors",
    "venue",
    "position",
    "divider",
)


def _no_annotation(_paper: Paper) -> Annotation | None:
    return None


def _no_listener() -> None:
    return None


def _no_corrections() -> Mapping[str, Mapping[str, Any]]:
    return {}


class PaperList(ScrollView, can_focus=True):
    """One row per paper (title, then a quieter line of authors, venue, tags and state icons);
    a cursor; marks for multi-paper actions. Only the rows on screen are drawn."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "cursor_down", "Down", show=False),
        Binding("k,up", "cursor_up", "Up", show=False),
        Binding("g,home", "first", "First", show=False),
        Binding("G,end", "last", "Last", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        # The help's line says what marks are for; the footer's label is "Mark".
        Binding("space", "toggle_mark", "Mark (for e r s t c)"),
        # Enter is what a reader presses to open a paper: it did nothing, and at 80x24 the
        # abstract showed a few lines with no key named to read on.
        Binding("enter", "app.read_paper", "Read the abstract", show=False),
        Binding("escape", "app.clear_search", "Clear the search", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "paper-list--cursor",
        "paper-list--empty",
        *(f"paper-list--{name}" for name in PART_NAMES),
    }

    cursor: reactive[int] = reactive(0, repaint=False, init=False)
    """The cursor's row in the rows shown (not the paper's index)."""

    class MarksChanged(Message):
        """The set of marked papers changed."""

        def __init__(self, count: int, *, spaced: bool = False) -> None:
            super().__init__()
            self.count = count
            self.spaced = spaced
            """Space marked one paper (which says nothing else of it)."""

    def __init__(
        self,
        *,
        annotation_for: AnnotationLookup = _no_annotation,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.papers: Papers = LoadedPapers()
        self.rows: Sequence[int] = ()
        self.divider: int | None = None
        """The row above which a rule is drawn (papers with every word above it, with some
        below); a line of its own that the cursor passes over."""
        self.rows_painted_at: float | None = None
        """When rows were first painted (Textual's event clock): keys read before were typed
        blind (see the app)."""
        self.marked: set[int] = set()
        self.cursor_moves = 0
        """How many times the cursor has moved: `U` after `r` tells that it has not since."""
        self.empty_text = "No papers"
        """What the list says when it shows no paper; a line a row."""
        self.annotation_for = annotation_for
        self.abstract_of: AbstractLookup = lambda index: self.papers[index].abstract
        """Where a row's hint reads its paper's abstract."""
        self.corrections_of: CorrectionsLookup = _no_corrections
        """Where the rows read the titles and authors the user corrected (see
        `corrections_changed`)."""
        self._fixes: Mapping[str, Mapping[str, Any]] = {}
        self._fixed: dict[int, Mapping[str, Any]] = {}
        """The corrections of the papers that have one, by index in `papers`."""
        self._fixed_upto = 0
        """Papers looked through for `_fixes` (a list that grows is looked through once)."""
        self._fixes_version = 0
        self.row_layout: RowLayout = "auto"
        """Two lines per paper, one (compact), or whichever the list's height allows."""
        self._compact = False
        self._geometry = RowGeometry()
        self._title_cells = b""
        self._heights: tuple[tuple[int, int, int, int], bytes] | None = None
        self._query = ""
        self._highlight: Highlighter = no_highlight
        self._highlight_authors: Highlighter = no_highlight
        self._hints_of: RowHints | None = None
        self._hints_version = 0
        """Counts the highlighters set: a search run again with the same query (the list has
        loaded further, its index changed) finds its hints anew."""
        # A row repainted (the cursor came or went) keeps its hint: found once per search.
        self._hints: LRUCache[tuple[int, int], tuple[Hint | None]] = LRUCache(maxsize=512)
        self._hint_misses: dict[tuple[int, int], int] = {}
        self._hint_missed = False
        self._hint_retry: Timer | None = None
        self._cache: LRUCache[tuple[object, ...], list[Strip]] = LRUCache(maxsize=256)
        self._style_cache: dict[tuple[bool, bool], dict[str, RichStyle]] = {}
        self._last_posted: int | None = -1
        self.on_highlight: Callable[[], None] = _no_listener
        """Called at once when the cursor reaches another paper (or no paper is shown).

        Not a message: one is handled after the list's repaint has been sent; a direct call
        lets the panes that follow the cursor repaint in the same frame as the list.
        """

    # -- data -------------------------------------------------------------------------------

    def set_papers(self, papers: Papers, *, title_cells: tuple[int, bytes] = (0, b"")) -> None:
        """Show a new set of papers, all of them, in order, cursor on the first. `title_cells`:
        what `title_cells_from` gave of them from the paper numbered first, measured elsewhere
        (on the thread loading them)."""
        if not _begins_with(papers, self.papers, len(self._title_cells)):
            self._title_cells = b""
        self.papers = papers
        self._take_title_cells(title_cells)
        self._forget_fixed(self.corrections_of())
        self.marked.clear()
        self._cache.clear()
        self._hints.clear()
        self._heights = None
        self._last_posted = -1  # the same row may now hold another paper
        self.set_rows(range(len(papers)))

    def set_rows(
        self, rows: Sequence[int], keep_paper: int | None = None, divider: int | None = None
    ) -> None:
        """Show only these papers (indices into `papers`), keeping the cursor on `keep_paper`,
        with a rule above row `divider` when one is given (and is above a row)."""
        self.rows = rows
        self.divider = divider if divider is not None and 0 <= divider < len(rows) else None
        row = 0
        if keep_paper is not None and rows:
            row = _find(rows, keep_paper)
        self._measure()
        self.set_reactive(PaperList.cursor, row)
        self._center(row)
        self.refresh()
        self._post_highlighted()

    def grow(
        self, papers: Papers, *, show_all: bool, title_cells: tuple[int, bytes] = (0, b"")
    ) -> None:
        """More papers of the list being loaded (the first ones unchanged): the cursor and the
        view stay; with `show_all` the rows become all papers. `title_cells` as `set_papers`."""
        self.papers = papers
        self._take_title_cells(title_cells)
        if show_all:
            self.rows = range(len(papers))
        self._measure()
        self.refresh()

    def _take_title_cells(self, measured: tuple[int, bytes]) -> None:
        start, cells = measured
        known = self._title_cells
        if start <= len(known) < start + len(cells) <= len(self.papers):
            self._title_cells = known[:start] + cells

    @staticmethod
    def title_cells_from(papers: Sequence[Paper]) -> bytes:
        """What the rows measure of these papers (on any thread), for `set_papers`."""
        return title_cells_of(papers if isinstance(papers, Papers) else LoadedPapers(papers))

    def set_highlighter(
        self,
        query: str,
        highlight: Highlighter,
        authors: Highlighter = no_highlight,
        hints: RowHints | None = None,
    ) -> None:
        """Highlight what `highlight` finds in each title, and `authors` in the authors shown;
        a row whose title and authors lack some word of the query shows its abstract around
        it, as `hints` finds (`query`: the search they are for)."""
        self._query = query
        self._highlight = highlight
        self._highlight_authors = authors
        self._hints_of = hints
        self._hints_version += 1
        self._hint_misses.clear()
        self.refresh()

    def corrections_changed(self) -> None:
        """Read the corrections again (the notes file changed): the rows they change, and
        those they no longer do, are shown anew."""
        fixes = self.corrections_of()
        if fixes == self._fixes:
            return
        self._forget_fixed(fixes)
        self._relayout()

    def _forget_fixed(self, fixes: Mapping[str, Mapping[str, Any]]) -> None:
        self._fixes = fixes
        self._fixed = {}
        self._fixed_upto = 0
        self._fixes_version += 1

    def _find_fixed(self) -> None:
        """Find the papers corrected among those not looked through yet."""
        papers = self.papers
        start = self._fixed_upto
        if start >= len(papers):
            return
        self._fixed_upto = len(papers)
        if not self._fixes:
            return
        ids = (
            papers.ids()
            if not start
            else [papers.text(at, "ids") for at in range(start, len(papers))]
        )
        fixes = self._fixes
        for at, paper_id in enumerate(ids, start):
            if paper_id in fixes:
                self._fixed[at] = fixes[paper_id]

    def shown_paper(self, index: int) -> Paper:
        """The paper at `index` as its row shows it: with the title and authors the user
        corrected it to."""
        paper = self.papers[index]
        fixes = self._fixed.get(index)
        return paper if fixes is None else corrected_paper(paper, fixes)

    def _hint(self, index: int) -> Hint | None:
        """The paper's abstract around the first word of the query its row lacks, if any."""
        if self._hints_of is None:
            return None
        key = (index, self._hints_version)
        kept = self._hints.get(key)
        if kept is None:
            paper = self.shown_paper(index)
            try:
                found = self._hints_of.row_hint(
                    index,
                    shown_title(paper),
                    ", ".join(paper.authors),
                    functools.partial(self.abstract_of, index),
                )
            except HintUnavailable:
                misses = self._hint_misses[key] = self._hint_misses.get(key, 0) + 1
                if misses < HINT_TRIES:
                    # Neither the hint nor the row drawn without it is kept: painted again
                    # soon, it is looked for again.
                    self._hint_missed = True
                    if self._hint_retry is None:
                        self._hint_retry = self.set_timer(HINT_RETRY_DELAY, self._retry_hints)
                    return None
                found = None  # a paper without an abstract: its row says no more
            kept = self._hints[key] = (found,)
        return kept[0]

    def _retry_hints(self) -> None:
        self._hint_retry = None
        self.refresh()

    def set_row_layout(self, layout: RowLayout) -> None:
        """Two lines per paper, one, or "auto" (one when the list is short of lines)."""
        self.row_layout = layout
        self._relayout()

    @property
    def compact(self) -> bool:
        """True when each paper takes one line."""
        return self._compact

    @property
    def paper_index(self) -> int | None:
        """The index in `papers` of the paper under the cursor."""
        if 0 <= self.cursor < len(self.rows):
            return self.rows[self.cursor]
        return None

    def selected_indices(self) -> list[int]:
        """The marked papers in list order, or the one under the cursor when none is marked."""
        if self.marked:
            return sorted(self.marked)
        index = self.paper_index
        return [] if index is None else [index]

    def refresh_paper(self, paper_index: int) -> None:
        """Repaint after one paper's annotation changed: only its row when it is the cursor's."""
        if self.paper_index == paper_index:
            self._refresh_row(self.cursor)
        else:
            self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._cache.clear()
        self._style_cache.clear()

    # -- geometry ---------------------------------------------------------------------------

    def _page_height(self) -> int:
        return max(1, self.scrollable_content_region.height)

    def _paper_heights(self) -> bytes | int:
        """Each paper's lines at the current width (one number when all take the same)."""
        if self._compact:
            return 1
        room = max(1, self.scrollable_content_region.width - GUTTER)
        known = len(self._title_cells)
        if known != len(self.papers):
            # A list that grew while loading keeps its first papers: only the new are measured.
            start = known if known < len(self.papers) else 0
            papers = self.papers
            added = (
                title_cells_of(papers, start)
                if start
                else papers.per_paper(title_cells_name(), lambda: title_cells_of(papers))
            )
            self._title_cells = (self._title_cells[:start] if start else b"") + added
        key = (room, len(self._title_cells), self._fixes_version, len(self._fixed))
        if self._heights is None or self._heights[0] != key:
            # Two lines (title, quiet line), three when the title does not fit on one.
            table = bytearray(2 if cells <= room else 3 for cells in range(256))
            table[UNMEASURED] = table[TYPICAL_MADE_UP_CELLS]
            heights = self._title_cells.translate(table)
            if self._fixed:
                # Measured apart: the list's measures, kept with it, are of its own titles.
                fixed = bytearray(heights)
                for index in self._fixed:
                    fixed[index] = 2 if title_cells(self.shown_paper(index)) <= room else 3
                heights = bytes(fixed)
            self._heights = (key, heights)
        return self._heights[1]

    def measures(self) -> dict[str, bytes]:
        """What the rows measured of every paper, by the name a stored list keeps it under
        (`Papers.per_paper`), for a list read afresh to be kept with: empty until each paper
        is measured (with its title derived)."""
        cells = self._title_cells
        if not cells or len(cells) != len(self.papers) or UNMEASURED in cells:
            return {}
        return {title_cells_name(): cells}

    def _measure(self) -> None:
        """Work out the rows' lines again (rows, width or layout changed)."""
        height = self.scrollable_content_region.height
        self._compact = self.row_layout == "compact" or (
            self.row_layout == "auto" and 0 < height < AUTO_COMPACT_BELOW
        )
        self._find_fixed()
        self._geometry.set(self._paper_heights(), self.rows, self.divider)
        self.virtual_size = Size(0, self._geometry.total)

    def _relayout(self) -> None:
        self._cache.clear()
        self._measure()
        self._center(self.cursor)
        self.refresh()

    def _on_resize(self, event: events.Resize) -> None:
        was_compact = self._compact
        heights = self._heights
        self._measure()
        if self._compact != was_compact or self._heights != heights:
            self._cache.clear()
            self._center(self.cursor)
        else:
            # Shorter (at 80x24 a note opened below gives up rows): the cursor's paper, the one
            # written about, had been left below the rows still shown.
            self.move_cursor(self.cursor)

    def _center(self, row: int) -> None:
        if not self.rows:
            self.scroll_to(y=0, animate=False)
            return
        row = min(row, len(self.rows) - 1)
        y = self._row_start(max(0, self._geometry.top(row) - self._page_height() // 2), row)
        # Forced: rows that just grew past the screen (a search cleared) have no scrollbar yet,
        # and Textual scrolls no widget without one, so the cursor's paper was left off screen.
        self.scroll_to(y=y, animate=False, force=True)

    def _row_start(self, y: int, limit: int) -> int:
        """`y`, or if it cuts a row, the first line of the next one (at most row `limit`'s).

        The list scrolled to a line began with the tail of a title, or with authors under no
        title; a row cut at the bottom still shows its title. The last page ends with the last
        row, so it may still begin inside one.
        """
        row, line = self._geometry.row_at(y)
        if line and row < min(limit, len(self.rows) - 1):
            return self._geometry.top(row + 1)
        return y

    def _refresh_row(self, row: int) -> None:
        if 0 <= row < len(self.rows):
            self.refresh_lines(self._geometry.top(row), self._geometry.height(row))

    # -- cursor -----------------------------------------------------------------------------

    def move_cursor(self, row: int) -> None:
        """Put the cursor on a row (clamped) and scroll it into view."""
        if not self.rows:
            return
        row = max(0, min(len(self.rows) - 1, row))
        self.cursor = row
        height = self._page_height()
        first = self._geometry.top(row)
        last = first + self._geometry.height(row)
        if row == 0:
            first = 0  # the first row brings a divider above it into view
        top = round(self.scroll_y)
        if first < top:
            self.scroll_to(y=first, animate=False)
        elif last > top + height:
            self.scroll_to(y=self._row_start(min(first, last - height), row), animate=False)

    def jump_to(self, row: int) -> None:
        """Put the cursor on a row far from the last (clamped) and show it mid-screen."""
        if not self.rows:
            return
        row = max(0, min(len(self.rows) - 1, row))
        self.cursor = row
        # Forced (see _center): a list shown at once after a load has no scrollbar yet, and
        # the paper of the session restored then was left below the rows on screen.
        self._center(row)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        if self.show_vertical_scrollbar:
            bar = self.vertical_scrollbar
            position = bar.validate_position(new_value)
            if _thumb(bar, bar.position) == _thumb(bar, position):
                # Not the reactive's setter: that repaints the whole bar, and a long list's
                # thumb stays in the same cells for many pages.
                bar.set_reactive(ScrollBar.position, position)
        super().watch_scroll_y(old_value, new_value)

    def watch_cursor(self, old: int, new: int) -> None:
        self.cursor_moves += 1
        self._refresh_row(old)
        self._refresh_row(new)
        self._post_highlighted()

    def _post_highlighted(self) -> None:
        index = self.paper_index
        if index != self._last_posted:
            self._last_posted = index
            self.on_highlight()

    def action_cursor_down(self) -> None:
        self.move_cursor(self.cursor + 1)

    def action_cursor_up(self) -> None:
        self.move_cursor(self.cursor - 1)

    def action_first(self) -> None:
        self.move_cursor(0)

    def action_last(self) -> None:
        self.move_cursor(len(self.rows) - 1)

    def _rows_per_page(self) -> int:
        return max(1, self._page_height() // max(1, self._geometry.height(self.cursor)))

    def action_page_down(self) -> None:
        rows = self._rows_per_page()
        y = self._row_start(round(self.scroll_y) + self._page_height(), len(self.rows))
        self.scroll_to(y=y, animate=False)
        self.move_cursor(self.cursor + rows)

    def action_page_up(self) -> None:
        rows = self._rows_per_page()
        y = self._row_start(max(0, round(self.scroll_y) - self._page_height()), len(self.rows))
        self.scroll_to(y=y, animate=False)
        self.move_cursor(self.cursor - rows)

    def action_toggle_mark(self) -> None:
        index = self.paper_index
        if index is None:
            return
        marking = index not in self.marked
        if marking:
            self.marked.add(index)
        else:
            self.marked.discard(index)
        self._refresh_row(self.cursor)
        self.post_message(self.MarksChanged(len(self.marked), spaced=marking))
        self.move_cursor(self.cursor + 1)

    async def _on_key(self, event: events.Key) -> None:
        # Textual then runs Widget._on_key itself (handlers run along the MRO).
        mark_origin(self, event)

    async def _on_click(self, event: events.Click) -> None:
        # event.y counts from the widget's edge, border included; rows start inside it.
        offset = event.get_content_offset(self)
        if offset is None:
            return
        row, _ = self._geometry.row_at(offset.y + round(self.scroll_y))
        if 0 <= row < len(self.rows):
            self.focus()
            self.move_cursor(row)

    # -- rendering --------------------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        if not self._compact and UNMEASURED in self._title_cells:
            self._measure_shown_titles()
        return super().render_lines(crop)

    def _measure_shown_titles(self) -> None:
        """Measure the titles of the rows on screen laid out for a typical title (one still
        to be derived: UNMEASURED), deriving them: each row shown takes the lines its title
        needs before it is painted."""
        top = round(self.scroll_y)
        first = self._shown_row(top)
        last = self._shown_row(top + self._page_height())
        cells = self._title_cells
        changed: dict[int, int] = {}
        for row in range(first, min(last + 1, len(self.rows))):
            index = self.rows[row]
            if index < len(cells) and cells[index] == UNMEASURED:
                changed[index] = title_cells_of(LoadedPapers([self.papers[index]]))[0]
        if not changed:
            return
        remeasured = bytearray(cells)
        for index, measured in changed.items():
            remeasured[index] = measured
        self._title_cells = bytes(remeasured)
        heights, self._heights = self._heights, None
        self._measure()
        if self._heights != heights:
            self._cache.clear()

    def _shown_row(self, line: int) -> int:
        row, _ = self._geometry.row_at(line)
        return row if row != DIVIDER else self._geometry.divider or 0

    def titles_derived(self, papers: Papers, title_cells: bytes) -> None:
        """The titles of `papers` that were still to be derived are known now, and
        `title_cells` is what `title_cells_from` gives of them (measured elsewhere, on the
        thread that derived them): when they are the papers shown, every row takes the lines
        its title needs, the cursor's row left where it is on the screen."""
        if papers is not self.papers or len(title_cells) != len(papers):
            return
        on_screen = self._geometry.top(self.cursor) - round(self.scroll_y) if self.rows else 0
        self._title_cells = title_cells
        self._heights = None
        self._cache.clear()
        self._measure()
        if self.rows:
            y = max(0, self._geometry.top(self.cursor) - on_screen)
            self.scroll_to(y=y, animate=False, force=True)
        self.refresh()

    def render_line(self, y: int) -> Strip:
        if self.rows and self.rows_painted_at is None:
            self.rows_painted_at = event_clock()
        width = self.scrollable_content_region.width
        row, line = self._geometry.row_at(y + round(self.scroll_y))
        if row == DIVIDER:
            return self._divider_strip(width)
        if row >= len(self.rows):
            # The empty list's text, a line a row: why nothing matched goes below the query.
            said = self.empty_text.split("\n") if not self.rows else []
            at = y + round(self.scroll_y)
            if at < len(said):
                style = self.get_visual_style("paper-list--empty")
                text = Content(" " + said[at]).truncate(width)
                return Strip(text.render_segments(style)).extend_cell_length(
                    width, style.rich_style
                )
            return Strip.blank(width, self.rich_style)
        strips = self._row_strips(row, width)
        return strips[line] if line < len(strips) else Strip.blank(width, self.rich_style)

    def _row_strips(self, row: int, width: int) -> list[Strip]:
        index = self.rows[row]
        paper = self.shown_paper(index)
        annotation = self.annotation_for(paper)
        signature = (
            (annotation.state, annotation.starred, bool(annotation.note), tuple(annotation.tags))
            if annotation is not None
            else None
        )
        is_cursor = row == self.cursor
        height = self._geometry.height(row)
        key = (
            index,
            width,
            height,
            is_cursor,
            index in self.marked,
            signature,
            self._hints_version,
            self._fixes_version,
            self.has_focus,
        )
        strips = self._cache.get(key)
        if strips is None:
            self._hint_missed = False
            facts = RowFacts(
                annotation,
                index in self.marked,
                is_cursor,
                self._highlight,
                index + 1,
                self._highlight_authors,
                functools.partial(self._hint, index),
            )
            strips = render_row(
                paper,
                facts,
                self._row_styles(is_cursor),
                width,
                compact=self._compact,
                height=height,
            )
            if not self._hint_missed:
                self._cache[key] = strips
        return strips

    def row_text(self, row: int) -> str:
        """What a shown row says, its lines joined by newlines (for tests and tools)."""
        if not 0 <= row < len(self.rows):
            return ""
        width = self.scrollable_content_region.width
        return "\n".join(strip.text for strip in self._row_strips(row, width))

    def row_lines(self, row: int) -> range:
        """The list's lines (from its top, not the screen's) that a shown row takes."""
        top = self._geometry.top(row)
        return range(top, top + self._geometry.height(row))

    def _divider_strip(self, width: int) -> Strip:
        style = self.get_visual_style("paper-list--divider")
        label = NO_FULL_MATCH_LABEL if self.divider == 0 else DIVIDER_LABEL
        text = Content(f"── {label} " + "─" * max(0, width)).truncate(width)
        return Strip(text.render_segments(style)).extend_cell_length(width, style.rich_style)

    def _on_focus(self, event: events.Focus) -> None:
        self.refresh()

    def _on_blur(self, event: events.Blur) -> None:
        self.refresh()

    def _row_styles(self, is_cursor: bool) -> dict[str, RichStyle]:
        """Rich styles for each part of a row, over the row's base (cursor or not)."""
        key = (is_cursor, self.has_focus)
        styles = self._style_cache.get(key)
        if styles is None:
            base_name = ("paper-list--cursor",) if is_cursor else ()
            base = self.get_visual_style(*base_name).rich_style
            # The row's own text too: the theme's cursor colours (Textual's) read 3.8:1 in
            # textual-dark, the title on its blue. (A row the terminal colours is left to it.)
            styles = {"": base if _terminal_drawn(base.bgcolor) else self._readable(base)}
            for name in PART_NAMES:
                part = self._part_style(f"paper-list--{name}")
                if _terminal_drawn(base.bgcolor) and part.color and part.color.is_default:
                    # The terminal's text colour over a row the terminal colours (an ANSI
                    # theme's cursor): its contrast is unknown, and the grey it was shaded to
                    # read at 1.3:1 to 2:1 on real terminals' blue. The row's own text colour,
                    # which the theme pairs with that background, is used.
                    part = part + RichStyle(color=base.color)
                styles[name] = self._readable(base + part)
            match = self.get_component_styles("paper-list--match")
            dark = self.app.current_theme.dark
            styles["match"] = base + match_style(match, base.bgcolor, dark).rich_style
            self._style_cache[key] = styles
        return styles

    def _readable(self, style: RichStyle) -> RichStyle:
        """`style` with its text shaded until it reads on its background as text must (4.5:1):
        the authors, venue and the abstract's words under a title, muted, read 3.0:1 to 4.4:1
        in ten of the nineteen themes (3:1, the least for large text, was the aim)."""
        dark = self.app.current_theme.dark
        background = solid(style.bgcolor, BLACK if dark else WHITE)
        color = solid(style.color, WHITE if dark else BLACK)
        shaded = readable_on(background, color, TEXT_READABLE)
        return style if shaded == color else style + RichStyle(color=shaded.rich_color)

    def _part_style(self, component: str) -> RichStyle:
        """A part's own colours and text style, over the row's (what it does not set)."""
        rules = self.get_component_styles(component)
        part = self.get_visual_style(component, partial=True).rich_style
        text_style = rules.text_style if rules.has_rule("text_style") else RichStyle()
        return RichStyle(
            color=part.color if rules.has_rule("color") else None,
            bgcolor=part.bgcolor if rules.has_rule("background") else None,
            bold=text_style.bold,
            italic=text_style.italic,
            underline=text_style.underline,
            dim=text_style.dim,
            strike=text_style.strike,
        )


def _terminal_drawn(color: RichColor | None) -> bool:
    """Whether the terminal picks the colour's shade (ANSI colours): its contrast is unknown."""
    return color is not None and color.is_system_defined


def _thumb(bar: ScrollBar, position: float) -> list[Segment]:
    """The cells a vertical scrollbar draws with its thumb at `position`."""
    virtual = bar.window_virtual_size
    window = bar.window_size if bar.window_size < virtual else 0
    drawn = bar.renderer.render_bar(
        bar.size.height, ceil(virtual), ceil(window), position, bar.thickness, vertical=True
    )
    return list(drawn.segments)


def _begins_with(papers: Papers, shown: Papers, count: int) -> bool:
    """Whether `papers` begin with the first `count` of `shown`, the same papers (a list that
    finished loading): their rows' measures stay true. Told only of papers held in memory."""
    if not count or not isinstance(papers, list) or not isinstance(shown, list):
        return False
    return len(papers) >= count <= len(shown) and all(map(is_, papers[:count], shown))


def _find(rows: Sequence[int], paper_index: int) -> int:
    if isinstance(rows, range):
        return paper_index - rows.start if paper_index in rows else 0
    try:
        return rows.index(paper_index)  # no copy: this runs on every search result
    except ValueError:
        return 0

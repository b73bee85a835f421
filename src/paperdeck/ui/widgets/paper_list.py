"""The paper list: a Line-API scroll view that renders only the rows on screen."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from paperdeck.core.model import Annotation, Paper
from paperdeck.ui.key_routing import mark_origin
from paperdeck.ui.safe_text import one_line

AnnotationLookup = Callable[[Paper], Annotation | None]
Highlighter = Callable[[str], Sequence[tuple[int, int]]]

STATE_MARKERS = {"unread": "●", "reading": "◐", "read": " "}
MARK_MARKER = "▍"
STAR_MARKER = "★"
NOTE_MARKER = "✎"
DIVIDER_LABEL = "some of the words"
"""The rule between the papers with every word of a search and those with some."""
NO_FULL_MATCH_LABEL = "no paper has every word"


def _no_annotation(_paper: Paper) -> Annotation | None:
    return None


def no_highlight(_text: str) -> Sequence[tuple[int, int]]:
    """A Highlighter that finds nothing."""
    return ()


def _no_listener() -> None:
    return None


class PaperList(ScrollView, can_focus=True):
    """One row per paper: markers, position and title; a cursor; marks for multi-paper actions."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "cursor_down", "Down", show=False),
        Binding("k,up", "cursor_up", "Up", show=False),
        Binding("g,home", "first", "First", show=False),
        Binding("G,end", "last", "Last", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("space", "toggle_mark", "Mark"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "paper-list--cursor",
        "paper-list--marked",
        "paper-list--derived",
        "paper-list--method",
        "paper-list--match",
        "paper-list--marker",
        "paper-list--star",
        "paper-list--note",
        "paper-list--position",
        "paper-list--tags",
        "paper-list--empty",
        "paper-list--divider",
    }

    cursor: reactive[int] = reactive(0, repaint=False, init=False)
    """The cursor's row in the rows shown (not the paper's index)."""

    class MarksChanged(Message):
        """The set of marked papers changed."""

        def __init__(self, count: int) -> None:
            super().__init__()
            self.count = count

    def __init__(
        self,
        *,
        annotation_for: AnnotationLookup = _no_annotation,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.papers: Sequence[Paper] = ()
        self.rows: Sequence[int] = ()
        self.divider: int | None = None
        """The row above which a rule is drawn (papers with every word above it, with some
        below); a line of its own that the cursor passes over."""
        self.marked: set[int] = set()
        self.empty_text = "No papers"
        self.annotation_for = annotation_for
        self._query = ""
        self._highlight: Highlighter = no_highlight
        self._cache: LRUCache[tuple[object, ...], Strip] = LRUCache(maxsize=256)
        self._style_cache: dict[tuple[bool, bool], dict[str, RichStyle]] = {}
        self._last_posted: int | None = -1
        self.on_highlight: Callable[[], None] = _no_listener
        """Called at once when the cursor reaches another paper (or no paper is shown).

        Not a message: one is handled after the list's repaint has been sent; a direct call
        lets the panes that follow the cursor repaint in the same frame as the list.
        """

    # -- data -------------------------------------------------------------------------------

    def set_papers(self, papers: Sequence[Paper]) -> None:
        """Show a new set of papers, all of them, in order, cursor on the first."""
        self.papers = papers
        self.marked.clear()
        self._cache.clear()
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
        self.virtual_size = Size(0, len(rows) + (self.divider is not None))
        self.set_reactive(PaperList.cursor, row)
        self.scroll_to(y=max(0, self._line_of(row) - self._page_height() // 2), animate=False)
        self.refresh()
        self._post_highlighted()

    def set_highlighter(self, query: str, highlight: Highlighter) -> None:
        """Highlight what `highlight` finds in each title (`query` identifies it for the cache)."""
        self._query = query
        self._highlight = highlight
        self.refresh()

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
            self.refresh_line(self._line_of(self.cursor))
        else:
            self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._cache.clear()
        self._style_cache.clear()

    # -- cursor -----------------------------------------------------------------------------

    def _page_height(self) -> int:
        return max(1, self.scrollable_content_region.height)

    def _line_of(self, row: int) -> int:
        """The line a row is drawn on: one lower below the divider."""
        return row + (self.divider is not None and row >= self.divider)

    def _row_at(self, line: int) -> int | None:
        """The row drawn on a line; None for the divider's line."""
        divider = self.divider
        if divider is None or line < divider:
            return line
        return None if line == divider else line - 1

    def move_cursor(self, row: int) -> None:
        """Put the cursor on a row (clamped) and scroll it into view."""
        if not self.rows:
            return
        row = max(0, min(len(self.rows) - 1, row))
        self.cursor = row
        height = self._page_height()
        top = round(self.scroll_y)
        line = self._line_of(row)
        if row == 0:
            line = 0  # the first row brings a divider above it into view
        if line < top:
            self.scroll_to(y=line, animate=False)
        elif line >= top + height:
            self.scroll_to(y=line - height + 1, animate=False)

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh_line(self._line_of(old))
        self.refresh_line(self._line_of(new))
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

    def action_page_down(self) -> None:
        height = self._page_height()
        self.scroll_to(y=round(self.scroll_y) + height, animate=False)
        self.move_cursor(self.cursor + height)

    def action_page_up(self) -> None:
        height = self._page_height()
        self.scroll_to(y=max(0, round(self.scroll_y) - height), animate=False)
        self.move_cursor(self.cursor - height)

    def action_toggle_mark(self) -> None:
        index = self.paper_index
        if index is None:
            return
        if index in self.marked:
            self.marked.discard(index)
        else:
            self.marked.add(index)
        self.refresh_line(self._line_of(self.cursor))
        self.post_message(self.MarksChanged(len(self.marked)))
        self.move_cursor(self.cursor + 1)

    def clear_marks(self) -> None:
        """Unmark every paper."""
        if self.marked:
            self.marked.clear()
            self.refresh()
            self.post_message(self.MarksChanged(0))

    async def _on_key(self, event: events.Key) -> None:
        # Textual then runs Widget._on_key itself (handlers run along the MRO).
        mark_origin(self, event)

    async def _on_click(self, event: events.Click) -> None:
        # event.y counts from the widget's edge, border included; rows start inside it.
        offset = event.get_content_offset(self)
        if offset is None:
            return
        row = self._row_at(offset.y + round(self.scroll_y))
        if row is not None and 0 <= row < len(self.rows):
            self.focus()
            self.move_cursor(row)

    # -- rendering --------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        row = self._row_at(y + round(self.scroll_y))
        if row is None:
            return self._divider_strip(width)
        if row >= len(self.rows):
            if row == 0:
                style = self.get_visual_style("paper-list--empty")
                text = Content(" " + self.empty_text).truncate(width)
                return Strip(text.render_segments(style)).extend_cell_length(
                    width, style.rich_style
                )
            return Strip.blank(width, self.rich_style)
        index = self.rows[row]
        paper = self.papers[index]
        annotation = self.annotation_for(paper)
        signature = (
            (annotation.state, annotation.starred, bool(annotation.note), tuple(annotation.tags))
            if annotation is not None
            else None
        )
        is_cursor = row == self.cursor
        key = (
            index,
            width,
            is_cursor,
            index in self.marked,
            signature,
            self._query,
            self.has_focus,
        )
        strip = self._cache.get(key)
        if strip is None:
            strip = self._render_row(index, paper, annotation, is_cursor, width)
            self._cache[key] = strip
        return strip

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
            styles = {"": base}
            for name in self.COMPONENT_CLASSES:
                part = self.get_visual_style(name, partial=True).rich_style
                if not self.get_component_styles(name).has_rule("background"):
                    # A part without its own background shows the row's (cursor or not).
                    part = RichStyle(
                        color=part.color,
                        bold=part.bold,
                        italic=part.italic,
                        underline=part.underline,
                        dim=part.dim,
                        strike=part.strike,
                    )
                styles[name.removeprefix("paper-list--")] = part
            self._style_cache[key] = styles
        return styles

    def _render_row(
        self,
        index: int,
        paper: Paper,
        annotation: Annotation | None,
        is_cursor: bool,
        width: int,
    ) -> Strip:
        styles = self._row_styles(is_cursor)
        base = styles[""]
        state = annotation.state if annotation is not None else "unread"
        starred = annotation is not None and annotation.starred
        noted = annotation is not None and bool(annotation.note)
        digits = len(str(len(self.papers)))
        segments = [
            Segment(MARK_MARKER if index in self.marked else " ", base + styles["marked"]),
            Segment(STATE_MARKERS.get(state, " "), base + styles["marker"]),
            Segment(STAR_MARKER if starred else " ", base + styles["star"]),
            Segment(NOTE_MARKER if noted else " ", base + styles["note"]),
            Segment(f" {index + 1:>{digits}} ", base + styles["position"]),
        ]
        used = 6 + digits
        title = one_line(paper.title)
        title_style = base + styles["derived"] if paper.title_derived else base
        cuts = {0, len(title)}
        method: tuple[int, int] | None = None
        if paper.method:
            start = title.find(paper.method)
            if start >= 0:
                method = (start, start + len(paper.method))
                cuts.update(method)
        matches = list(self._highlight(title)) if self._query else []
        for start, end in matches:
            cuts.update((max(0, min(start, len(title))), max(0, min(end, len(title)))))
        bounds = sorted(cuts)
        pieces: list[tuple[str, RichStyle]] = []
        for start, end in pairwise(bounds):
            if end <= start:
                continue
            style = title_style
            if method is not None and method[0] <= start < method[1]:
                style = style + styles["method"]
            if any(m_start <= start < m_end for m_start, m_end in matches):
                style = style + styles["match"]
            pieces.append((title[start:end], style))
        # Tags sit at the right edge, so the titles stay aligned and the tags stay visible.
        tags = ""
        if annotation is not None and annotation.tags:
            tags = " " + " ".join("#" + one_line(tag) for tag in annotation.tags)
            limit = max(0, (width - used) // 3)
            if cell_len(tags) > limit:
                tags = set_cell_size(tags, max(0, limit - 1)) + "…" if limit > 1 else ""
        room = width - used - cell_len(tags)
        for text, style in pieces:
            if room <= 0:
                break
            cells = cell_len(text)
            if cells > room:
                segments.append(Segment(set_cell_size(text, room - 1) + "…", style))
                room = 0
                break
            segments.append(Segment(text, style))
            room -= cells
        if tags:
            segments.append(Segment(" " * room, base))
            segments.append(Segment(tags, base + styles["tags"]))
        return Strip(segments).adjust_cell_length(width, base)


def _find(rows: Sequence[int], paper_index: int) -> int:
    if isinstance(rows, range):
        return paper_index - rows.start if paper_index in rows else 0
    try:
        return rows.index(paper_index)  # no copy: this runs on every search result
    except ValueError:
        return 0

"""The detail pane: the selected paper's metadata, where it came from, and its rendered abstract."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from typing import Any, ClassVar, NamedTuple

from rich.style import Style as RichStyle
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style
from textual.visual import Visual

from paperdeck.core.model import Paper
from paperdeck.core.notes.corrected import corrected_authors
from paperdeck.core.reading_list import abstract_links
from paperdeck.core.text.render import display_title
from paperdeck.ui.contrast import match_style, readable_text
from paperdeck.ui.key_routing import mark_origin
from paperdeck.ui.match_summary import WordsFound
from paperdeck.ui.safe_text import clean, cut, one_line, plain, with_spans
from paperdeck.ui.widgets.paper_rows import DERIVED_MARKER, Highlighter

# Styles of the renderer's spans; strings so that theme variables resolve when painted.
SPAN_STYLES = {
    "bold": "bold",
    "italic": "italic",
    "math": "italic $text-secondary",
    "code": "$text-warning",
}
LABEL_STYLE = "$text-muted"


LOOK_UP_COMMAND = "Look up titles online"
"""The command palette's name for an online title lookup, which a made-up title points to."""

STAND_IN_REMARK = "(stand-in)"
"""After a stand-in citation key ("anon2026extract"), which metadata replaces: short, so that
the key and it read on one line of the pane at 120x40."""


class CiteKey(NamedTuple):
    """The citation key `c` copies a paper with."""

    key: str
    stand_in: bool
    """A key its metadata will replace (see `paperdeck.core.citations.is_stand_in`)."""


class KeyLater(Enum):
    """Why the pane shows no citation key yet."""

    WORKING = "…"
    """Being worked out (on a thread)."""
    ON_FIRST_CITE = "worked out by c or e (long list)"
    """A long list: its keys are worked out by the first cite or export (a line of the pane
    at 120x40: it wrapped)."""


class Shares(NamedTuple):
    """In a `like:` view, the words that make a paper like the one searched from."""

    words: tuple[str, ...]
    seed: bool
    """The paper searched from: `words` are the ones the others share most."""


NOTE_LABEL = "Note"
NOTE_MARK = "✎"
"""Before a note's first words in a short pane: the mark a noted paper's row shows."""
NOTE_CHARS = 400
"""Of a note the pane shows this much (`n` shows it whole)."""

FOUND_LABEL = "Found"
"""During a search: where its words match in the paper, and which it lacks."""
NOT_FOUND = "not found"
SHARES_LABEL = "Shares"
SEED_LABEL = "Shared"
SEED_REMARK = " (its words the papers listed share most)"
GLUE = "\u2800"
"""A space no line may break at, while the pane wraps its lines (a blank cell that is no
whitespace to the wrapper), then a space again: the Found line's `outliers (outlires)` and
`not found:` were cut in two at 80 and 120 columns."""


class Fact(NamedTuple):
    """One line of the facts under the title: a label and its value."""

    label: str
    value: Content


LABEL_WIDTH = 10
"""The labels' column: a fact's value, and every line it wraps to, starts after it."""
LEAST_VALUE_WIDTH = 12
"""A pane narrower than the labels and this much wraps a fact from its label on."""

Block = Content | list[Fact]
"""A part of the pane: text wrapped to the pane's width, or facts wrapped under their values."""


SHORT_PANE = 16
"""A pane of fewer lines shows the abstract under a one-line summary, before the other facts."""
SUMMARY_AUTHORS = 3
"""Authors a short pane's summary names before "+N"."""

SHOWN_CHARS = 20_000
"""Of a longer abstract or title the pane shows this much (real abstracts stay under 5,000)."""


def pane_title(paper: Paper, corrections: Mapping[str, Any]) -> str:
    """The title the pane shows: the one the user corrected it to, else the paper's whole
    (a made-up title cut to fit a row is shown whole, as a citation gives it), its LaTeX
    rendered as the abstract's under it is ("ℝᵈ" in both, not "R^d" above)."""
    corrected = corrections.get("title")
    return one_line(
        display_title(
            str(corrected or paper.whole_title)[:SHOWN_CHARS],
            made_up=paper.title_derived and not corrected,
        )
    )


def pane_authors(paper: Paper, corrections: Mapping[str, Any]) -> list[str]:
    """The authors the pane shows: as the user corrected them (named as the row and a citation
    name them: "Doe, Jane and Roe, R." is two authors), else the paper's."""
    authors = corrected_authors(corrections.get("authors")) or paper.authors
    return [one_line(author) for author in authors]


def describe_source(meta_source: str, corrected: Sequence[str] = ()) -> str:
    """Where a paper's title and authors came from, in words."""
    if meta_source == "derived" and "title" in corrected:
        # The title is the user's own now: no lookup is wanted to replace a made-up one.
        return "corrected by you: " + ", ".join(corrected) + " (the list gives no title)"
    if meta_source == "derived":
        text = f"title derived from the abstract (no metadata: Ctrl+P › {LOOK_UP_COMMAND})"
    elif meta_source == "list":
        text = "given by the list"
    elif meta_source.startswith("matched:"):
        source, _, confidence = meta_source.removeprefix("matched:").rpartition("@")
        if not source:
            source, confidence = confidence, ""
        text = f"matched from {source}" + (f" (confidence {confidence})" if confidence else "")
    elif meta_source == "user":
        text = "corrected by you"
    else:
        text = meta_source
    if corrected:
        text += "; corrected by you: " + ", ".join(corrected)
    return text


class DetailPane(ScrollView, can_focus=True):
    """Title, method, authors, venue, id, links, metadata source, then the abstract.

    A Line-API view: showing another paper re-wraps one Content and repaints this pane only,
    with no layout pass over the screen (that pass cost more than the rest of a key press).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "scroll_down", "Scroll down", show=False),
        Binding("k", "scroll_up", "Scroll up", show=False),
        Binding("g", "scroll_home", "Top", show=False),
        Binding("G", "scroll_end", "Bottom", show=False),
        # Shown: a reader who opened the abstract with Enter (or Tab) saw no way back named.
        # One word: at 80 columns the footer's last key (c Cite) was cut by a longer one.
        Binding("escape", "app.back_to_list", "List"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {"detail-pane--match", "detail-pane--accent"}

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.paper: Paper | None = None
        self.raw = False
        self.content = Content("No paper selected")
        self._blocks: list[Block] = [self.content]
        self._strips: list[Strip] = []
        self._wrapped_width = -1
        # Going back to a paper (k after j, a search cleared) reuses its wrapped lines.
        self._rendered: LRUCache[tuple[object, ...], tuple[Content, list[Block], int, list[Strip]]]
        self._rendered = LRUCache(maxsize=16)
        self._key: tuple[object, ...] | None = None
        self._match: Style | None = None
        self._accent: Style | None = None
        self._paint: tuple[int, RichStyle] | None = None
        self._again: tuple[Paper | None, dict[str, Any]] | None = None
        """The last show's paper and options, to show it again when the pane grows or shrinks
        past SHORT_PANE, or the theme changes the matches' colours."""
        self._find_match = False
        """The paper just shown is to be scrolled to its first match once it is wrapped."""
        self._shown_query = ""
        """The search the pane's highlights are of: another one shows the paper from its top
        again (and so from its first match), as another paper is."""
        self.short = False
        self.narrow = False
        """Shown for a narrow screen, whose notes panel is folded away: the note said here."""
        """Shown for a short pane: the abstract under a one-line summary, the facts after it."""

    @property
    def text(self) -> str:
        """What the pane shows, as plain text."""
        return self.content.plain

    def show(
        self,
        paper: Paper | None,
        *,
        query: str = "",
        highlight: Callable[[str], Highlighter] | None = None,
        corrections: Mapping[str, Any] | None = None,
        raw: bool = False,
        cite_key: CiteKey | KeyLater = KeyLater.WORKING,
        shares: Shares | None = None,
        found: WordsFound | None = None,
        note: str = "",
    ) -> None:
        """Show a paper (None: an empty pane), its matches for `query` highlighted.

        `highlight(field)` gives the highlighter of one field ("title", "authors", "abstract"):
        each field shows only the query terms that search in it. `cite_key`: the paper's
        citation key, or why it is not shown yet. `shares`: in a `like:` view, the words
        that put the paper there, said first. `found`: where the search's words match in it and
        which it lacks, said first. `note`: the paper's note, said here while the notes panel
        is folded away (below 100 columns).
        """
        same_paper = paper is self.paper
        self.paper = paper
        self.raw = raw
        self._again = (
            paper,
            {
                "query": query,
                "highlight": highlight,
                "corrections": corrections,
                "raw": raw,
                "cite_key": cite_key,
                "shares": shares,
                "found": found,
                "note": note,
            },
        )
        height = self.scrollable_content_region.height
        short = self.short = 0 < height < SHORT_PANE
        # The notes panel is folded away on a narrow screen: at 80x24 a note written was seen
        # again only by opening the editor (`n`), the row's ✎ saying there was one.
        folded = self.narrow = self.screen.has_class("-narrow")
        note = note.strip() if folded else ""
        if paper is None:
            self._set_content(Content.assemble(("No paper selected", "$text-muted")))
            return
        fields = highlight if (highlight is not None and query) else None
        corrections = corrections or {}
        match = self._match_style()
        shown_query = query if fields else ""
        # A paper kept under the cursor as the search changes around it (`l` on it, Esc back,
        # a word typed) is shown as if newly: at 80x24 `l` kept the abstract scrolled ten lines
        # down, where the search before had found its word, the shared words off screen; and a
        # word typed that the abstract has far down was never scrolled to.
        new_query = shown_query != self._shown_query
        self._shown_query = shown_query
        key = (
            paper,
            raw,
            shown_query,
            repr(sorted(corrections.items())),
            cite_key,
            short,
            shares,
            found,
            note,
        )
        cached = self._rendered.get(key)
        if cached is not None:
            self.content, self._blocks, self._wrapped_width, self._strips = cached
            self._key = key
            self._set_virtual_height(self._wrapped_width, len(self._strips))
            self._wrap()  # again only if the width changed since
            self.refresh()
            if not same_paper or new_query:
                self._scroll_to_top(_to_match(fields is not None, shares, found))
            return
        title_text = pane_title(paper, corrections)
        title = with_spans(title_text, fields("title")(title_text) if fields else (), match)
        title = title.stylize_before("bold")
        if paper.method:
            method = display_title(paper.method, made_up=True)
            start = title_text.find(method)
            if start >= 0:
                # Under the matches: a match's colours must win, or the accent letters on the
                # match's colour read at 1.3:1.
                end = start + len(method)
                title = title.stylize_before(self._accent_style(), start, end)
        if paper.title_derived and not corrections.get("title"):
            title = Content.assemble((DERIVED_MARKER, "$text-muted"), title)
        meta = self._meta(
            paper, corrections, fields("authors") if fields else None, match, cite_key
        )
        shared = _shared_words(shares, match) if shares is not None and shares.words else None
        if shared is not None and not short:
            label, remark = (
                (SEED_LABEL, SEED_REMARK) if shares and shares.seed else (SHARES_LABEL, "")
            )
            meta.insert(0, Fact(label, Content.assemble(shared, (remark, LABEL_STYLE))))
        where = _where_found(found, match) if found is not None and fields else None
        if where is not None and not short:
            meta.insert(0, Fact(FOUND_LABEL, where))
        if note and not short:
            meta.append(Fact(NOTE_LABEL, plain(cut(one_line(note), NOTE_CHARS))))
        abstract = self._abstract(
            paper, fields("abstract") if fields else None, raw, match, heading=not short
        )
        parts: list[Block]
        if short:
            # A short pane (80x24 gave the abstract no line at all): the title, a line of who
            # and where, the abstract, then every fact as a taller pane shows them.
            summary = self._summary(
                paper, corrections, cite_key, fields("authors") if fields else None, match
            )
            top = [title, summary]
            if shared is not None and shares is not None:
                # Why it is listed, before the abstract that shows those words.
                said = "shared most: " if shares.seed else "shares "
                top.append(Content.assemble((said, LABEL_STYLE), shared))
            if where is not None and found is not None and _tells_more(found):
                # A line of a short pane only when the title's highlights do not say it all.
                top.append(where)
            if note:
                # Two lines at most: the abstract keeps the pane's other lines.
                room = max(LEAST_VALUE_WIDTH, 2 * self.scrollable_content_region.width - 4)
                said = cut(one_line(note), min(room, NOTE_CHARS))
                top.append(Content.assemble((f"{NOTE_MARK} ", LABEL_STYLE), plain(said)))
            parts = [Content("\n").join(top), abstract, meta]
        else:
            parts = [title, meta, abstract]
        self._set_content(parts, key)
        if not same_paper or new_query:
            self._scroll_to_top(_to_match(fields is not None, shares, found))

    def _scroll_to_top(self, matches: bool) -> None:
        """A paper newly shown from its top; with `matches` (its abstract has words of the
        search its title lacks), from its abstract's first match when the top shows none of
        them (at 80x24 the pane shows four lines of abstract, and a long abstract's match can be
        fifty lines down: the pane showed no highlight)."""
        self._find_match = False
        self.scroll_to(0, 0, animate=False)
        if matches:
            self._find_match = True
            self._to_first_match()

    def _to_first_match(self) -> None:
        """Scroll to the abstract's first match, a third of the pane above it, when the pane
        shows none of them (once the lines are wrapped)."""
        height = self.scrollable_content_region.height
        if not self._find_match or not self._strips or height <= 0:
            return
        self._find_match = False
        start = self._abstract_line()
        match = self._match_style().rich_style.bgcolor
        if start is None or match is None:
            return
        first = next(
            (
                number
                for number in range(start, len(self._strips))
                if any(
                    segment.style is not None and segment.style.bgcolor == match
                    for segment in self._strips[number]
                )
            ),
            None,
        )
        if first is not None and first >= height:
            self.scroll_to(y=first - height // 3, animate=False)

    def _set_content(
        self, content: Content | list[Block], key: tuple[object, ...] | None = None
    ) -> None:
        """Show `content`, or parts with a blank line between them."""
        if isinstance(content, Content):
            self._blocks = [content]
            self.content = content
        else:
            self._blocks = [part for at, one in enumerate(content) for part in _spaced(at, one)]
            self.content = _unglued(
                Content("\n\n").join(
                    _facts_content(part) if isinstance(part, list) else part for part in content
                )
            )
        self._key = key
        self._wrapped_width = -1
        self._wrap()
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        # Wrapped lines hold the theme's colours.
        self._rendered.clear()
        self._wrapped_width = -1
        old, self._match = self._match, None
        old_accent, self._accent = self._accent, None
        highlighted = self._again is not None and self._again[1]["query"]
        shown = self._again is not None
        if (highlighted and old is not None and self._match_style() != old) or (
            shown and old_accent is not None and self._accent_style() != old_accent
        ):
            # The content holds the matches' and the accent's colours, for the old theme.
            self._show_again()

    def _match_style(self) -> Style:
        """The matches' look, worked out once per theme (as the list's rows do theirs)."""
        if self._match is None:
            component = self.get_component_styles("detail-pane--match")
            dark = self.app.current_theme.dark
            self._match = match_style(component, self.rich_style.bgcolor, dark)
        return self._match

    def _accent_style(self) -> Style:
        """The accent's look (the method's name, links) from the styles, its colour shaded
        until it reads on the pane (4.5:1): $text-accent read 3.3:1 on textual-light's, the
        paper's page and code links too. Worked out once per theme."""
        if self._accent is None:
            wanted = self.get_visual_style("detail-pane--accent")
            color = wanted.foreground
            if color is not None:
                color = readable_text(color, self.rich_style.bgcolor, self.app.current_theme.dark)
            self._accent = Style(foreground=color)
        return self._accent

    def _link_style(self) -> Style:
        return self._accent_style() + Style(underline=True)

    def _wrap(self) -> None:
        width = self.scrollable_content_region.width
        if width <= 0 or width == self._wrapped_width:
            return
        self._wrapped_width = width
        laid_out = Content("\n").join(_laid_out(block, width) for block in self._blocks)
        # Unpadded: render_line pads each line to the width anyway (one strip fewer per line).
        self._strips = Visual.to_strips(self, laid_out, width, None, self.visual_style, pad=False)
        if self._key is not None:
            self._rendered[self._key] = (self.content, self._blocks, width, self._strips)
        self._set_virtual_height(width, len(self._strips))
        self._to_first_match()

    def _set_virtual_height(self, width: int, height: int) -> None:
        size = Size(width, height)
        if size != self.virtual_size:
            # Not the reactive's setter: that asks for a layout pass of the whole screen, which
            # a pane of fixed size (its scrollbar always shown) never needs.
            self.set_reactive(ScrollView.virtual_size, size)
            self._scroll_update(size)

    def _abstract_line(self) -> int | None:
        """The wrapped line the abstract starts on (its heading's), if it is shown."""
        headings = ("Abstract", "Abstract (source)")
        line = next(
            (number for number, strip in enumerate(self._strips) if strip.text in headings), None
        )
        if line is None and self.short:
            # No heading: the abstract starts after the blank line under the summary.
            blank = next((n for n, strip in enumerate(self._strips) if not strip.text.strip()), -1)
            line = blank + 1 if blank >= 0 else None
        return line

    def show_abstract(self) -> None:
        """Scroll to the abstract when the pane is too short to show it under the metadata
        (a note being written on a small terminal)."""
        self._wrap()
        line = self._abstract_line()
        height = self.scrollable_content_region.height
        if line is not None and line + 3 > round(self.scroll_y) + height:
            self.scroll_to(y=line, animate=False)

    async def _on_key(self, event: events.Key) -> None:
        # Textual then runs Widget._on_key itself (handlers run along the MRO).
        mark_origin(self, event)

    def on_focus(self) -> None:
        # Narrow, the pane being read takes the larger share of the height from the list, as
        # wide it takes the width (styles/paperdeck.tcss).
        self.screen.add_class("-reading")

    def on_blur(self) -> None:
        self.screen.remove_class("-reading")

    def _on_resize(self, event: events.Resize) -> None:
        height = self.scrollable_content_region.height
        narrow = self.screen.has_class("-narrow")
        if self._again is not None and (
            (0 < height < SHORT_PANE) != self.short or narrow != self.narrow
        ):
            self._show_again()
            return
        self._wrap()

    def _show_again(self) -> None:
        if self._again is not None:
            paper, options = self._again
            self.show(paper, **options)

    def render_lines(self, crop: Region) -> list[Strip]:
        # The width and colours looked up once per paint, not once per line.
        self._wrap()
        self._paint = (self.scrollable_content_region.width, self.rich_style)
        try:
            return super().render_lines(crop)
        finally:
            self._paint = None

    def render_line(self, y: int) -> Strip:
        if self._paint is None:
            self._wrap()
            width, style = self.scrollable_content_region.width, self.rich_style
        else:
            width, style = self._paint
        row = y + round(self.scroll_y)
        if row < len(self._strips):
            return self._strips[row].crop_extend(0, width, style)
        return Strip.blank(width, style)

    def _meta(
        self,
        paper: Paper,
        corrections: Mapping[str, Any],
        author_spans: Highlighter | None,
        match: Style,
        cite_key: CiteKey | KeyLater,
    ) -> list[Fact]:
        lines: list[Fact] = []

        def field(
            label: str, value: str, style: Style | str = "", spans: Highlighter | None = None
        ) -> None:
            text = one_line(value)
            shown = with_spans(text, spans(text), match, style) if spans else plain(text, style)
            lines.append(Fact(label, shown))

        if paper.method:
            method_style = self._accent_style() + Style(bold=True)
            field("Method", display_title(paper.method, made_up=True), method_style)
        authors = pane_authors(paper, corrections)
        if authors:
            field("Authors", ", ".join(authors), spans=author_spans)
        else:
            field("Authors", "unknown")
        venue = paper.venue_line
        if venue:
            field("Venue", venue)
        field("Id", f"{paper.id}  ·  #{paper.position} in {paper.list_name}")
        # Where a researcher looks before typing \cite{...}: the key `c` copies with.
        if isinstance(cite_key, KeyLater):
            field("Cite key", cite_key.value, LABEL_STYLE)
        else:
            field("Cite key", cite_key.key, "bold")
            if cite_key.stand_in:
                label, value = lines[-1]
                lines[-1] = Fact(
                    label, Content.assemble(value, (f" {STAND_IN_REMARK}", LABEL_STYLE))
                )
        url = str(corrections.get("url") or paper.url or "")
        if url:
            field("Page", url, self._link_style())
        # The abstract's links are its code and the like, never the paper's page: each says so.
        for kind, link in abstract_links(paper, url):
            field(kind, link, self._link_style())
        if doi := paper.extra.get("doi"):
            field("DOI", str(doi))
        corrected = [name for name in ("title", "authors", "url") if corrections.get(name)]
        field("Source", describe_source(paper.meta_source, corrected), "$text-muted")
        return lines

    def _abstract(
        self,
        paper: Paper,
        spans_for: Highlighter | None,
        raw: bool,
        match: Style,
        *,
        heading: bool = True,
    ) -> Content:
        if len(paper.abstract) > SHOWN_CHARS:
            # Wrapping megabytes takes the reader seconds per paint: a screenful or two of
            # pages is plenty, and `paperdeck show` prints the rest.
            hidden = len(paper.abstract) - SHOWN_CHARS
            paper = paper.with_changes(
                abstract=f"{paper.abstract[:SHOWN_CHARS]}… ({hidden:,} more characters: "
                "`paperdeck show` prints them)"
            )
        if raw:
            text = clean(paper.abstract)
            content = plain(text)
            title = "Abstract (source)"
        else:
            from paperdeck.core.text.render import render_abstract

            rendered = render_abstract(paper.abstract)
            text = clean(rendered.text)
            content = plain(text)
            if text == rendered.text:
                for span in rendered.spans:
                    style = (
                        self._link_style()
                        if span.style == "link"
                        else SPAN_STYLES.get(span.style, "")
                    )
                    content = content.stylize(style, span.start, span.end)
            title = "Abstract"
        if spans_for is not None:
            for start, end in spans_for(text):
                content = content.stylize(match, start, end)
        if not heading and not raw:
            return content
        return Content.assemble((title, "bold $text-muted"), "\n", content)

    def _summary(
        self,
        paper: Paper,
        corrections: Mapping[str, Any],
        cite_key: CiteKey | KeyLater,
        author_spans: Highlighter | None,
        match: Style,
    ) -> Content:
        """A short pane's line under the title: the first authors (one who matched the search
        among them, drawn as a match: "A, B … M +4" when behind the "+N"), the venue, the key."""
        names = pane_authors(paper, corrections)
        more = len(names) - SUMMARY_AUTHORS
        first = names[:SUMMARY_AUTHORS]
        if author_spans is not None and not any(author_spans(name) for name in first):
            hit = next((name for name in names if author_spans(name)), None)
            if hit is not None:
                first = [", ".join(names[: SUMMARY_AUTHORS - 1]) + " … " + hit]
        shown = ", ".join(first) + (f" +{more}" if more > 0 else "")
        parts = []
        if paper.venue_line:
            parts.append(one_line(paper.venue_line))
        if isinstance(cite_key, CiteKey):
            remark = f" {STAND_IN_REMARK}" if cite_key.stand_in else ""
            parts.append(f"cite {cite_key.key}{remark}")
        rest = "".join(" · " + part for part in parts)
        if not shown:
            return plain("authors unknown" + rest, LABEL_STYLE)
        spans = author_spans(shown) if author_spans is not None else ()
        if not spans:
            return plain(shown + rest, LABEL_STYLE)
        return Content.assemble(
            with_spans(shown, spans, match, LABEL_STYLE), plain(rest, LABEL_STYLE)
        )


def _to_match(searched: bool, shares: Shares | None, found: WordsFound | None) -> bool:
    """Whether a paper newly shown opens at its abstract's first match: during a search, when
    its abstract has words its title lacks; not in a `like:` view, whose pane names the words
    shared above the abstract."""
    return searched and shares is None and _abstract_tells(found)


def _abstract_tells(found: WordsFound | None) -> bool:
    """Whether the abstract has words of the search the title lacks (where to look, then);
    unknown without `found`."""
    if found is None:
        return True
    places = dict(found.places)
    in_title = {word.casefold() for word in places.get("title", ())}
    return any(word.casefold() not in in_title for word in places.get("abstract", ()))


def _tells_more(found: WordsFound) -> bool:
    """Whether `found` says more than the title's highlights: a word missing, one only in the
    abstract or authors, or one matched in another form."""
    places = dict(found.places)
    return (
        bool(found.missing)
        or set(places) - {"title", "abstract"} != set()
        or _abstract_tells(found)
        or any("(" in word for words in places.values() for word in words)
    )


def _where_found(found: WordsFound, match: Style) -> Content:
    """`title: zoo · abstract: transfer, zoo · not found: adaptive`, the words found drawn as
    matches."""
    # A word found in another form stays with the word typed (`outliers (outlires)`), and a
    # label with the first word it names.
    parts = [
        Content.assemble(
            (_glued(f"{place}: "), LABEL_STYLE),
            Content(", ").join(
                plain(word.replace(" (", GLUE + "(")).stylize(match) for word in words
            ),
        )
        for place, words in found.places
    ]
    if found.missing:
        parts.append(
            Content.assemble(
                (_glued(f"{NOT_FOUND}: "), LABEL_STYLE), plain(", ".join(found.missing))
            )
        )
    return Content(" · ").join(parts)


def _shared_words(shares: Shares, match: Style) -> Content:
    """The shared words, each drawn as a match, as the abstract's are."""
    return Content(", ").join(plain(one_line(word)).stylize(match) for word in shares.words)


def _facts_content(facts: list[Fact]) -> Content:
    """The facts as one text, a line each (what the pane says, unwrapped)."""
    return Content("\n").join(
        Content.assemble((f"{fact.label:<{LABEL_WIDTH}}", LABEL_STYLE), fact.value)
        for fact in facts
    )


def _laid_out(block: Block, width: int) -> Content:
    """A part of the pane as lines that fit `width`; a fact that wraps goes on under its value,
    as a table does, so none of its words stands in the labels' column."""
    if isinstance(block, Content):
        if GLUE in block.plain:
            return Content("\n").join(_unglued(line) for line in block.wrap(width))
        return block
    if width < LABEL_WIDTH + LEAST_VALUE_WIDTH:
        return _unglued(_facts_content(block))
    # Styled as the labels' column, not as the value: one run of the same style would start
    # with the indent's spaces, which a screenshot's SVG drawn by some viewers (rsvg) drops,
    # drawing the wrapped words at the pane's left edge.
    indent = Content.styled(" " * LABEL_WIDTH, LABEL_STYLE)
    lines: list[Content] = []
    for fact in block:
        label = Content.styled(f"{fact.label:<{LABEL_WIDTH}}", LABEL_STYLE)
        wrapped = [_unglued(line) for line in fact.value.wrap(width - LABEL_WIDTH)]
        wrapped = wrapped or [Content("")]
        lines.extend(
            Content.assemble(indent if at else label, line) for at, line in enumerate(wrapped)
        )
    return Content("\n").join(lines)


def _glued(text: str) -> str:
    """`text` as one piece no line breaks within."""
    return text.replace(" ", GLUE)


def _unglued(content: Content) -> Content:
    """`content` with its glued spaces plain spaces again, its styles kept."""
    if GLUE not in content.plain:
        return content
    return Content(content.plain.replace(GLUE, " "), list(content.spans))


def _spaced(at: int, part: Block) -> list[Block]:
    """A part of the pane, after a blank line when another part comes before it."""
    return [part] if at == 0 else [Content(""), part]

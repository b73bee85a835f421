"""The header bar: the list's name, then how many papers are shown, read, marked, sorted how.

The facts on the right always fit (down to 80 columns); the name takes what room is left.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from textual.content import Content
from textual.style import Style
from textual.widget import Widget

from paperdeck.core.text.wording import plural
from paperdeck.ui.contrast import TEXT_READABLE, readable_on
from paperdeck.ui.safe_text import one_line

GAP = "  "
MIN_TITLE = 8
"""Cells the list's name keeps before the facts give up their long forms."""


@dataclass(frozen=True)
class HeaderFacts:
    """What the header tells, gathered by the app."""

    title: str
    loading: bool
    total: int
    filtered: int | None
    noted: int
    starred: int
    marked: int
    sort: str
    """The order shown ("relevance"), "" when it orders nothing (no search: the list's order)."""
    index_progress: float | None
    activity: str | None = None
    """A background job's progress ("online 12/40 · 9 matched")."""
    read: int | None = None
    """Papers read among the open ones ("412 / 3,000 read"); None: not shown."""
    view: str = ""
    """The views narrowing the list ("unread", "starred", "marked"), joined; "" for none."""
    out_of_view: int = 0
    """Rows shown that the view no longer fits (read in place), kept until the next search."""
    every: int | None = None
    """Of the papers shown, how many have every word of the search, when papers with only some
    of them follow (below the list's rule); None otherwise."""
    loaded: tuple[int, int] | None = None
    """While a list loads with its first rows shown: how many papers are loaded, of how many."""
    searched: int | None = None
    """How many of the first papers the search shown covers when fewer than `total`: an index
    of the rows loaded so far, while the rest loads or is indexed; None otherwise."""
    titling: bool = False
    """Whether the made-up titles of a list loaded without them are still being derived (the
    search finds words in the abstracts meanwhile, a `title:` search only titles made so far)."""


Fact = tuple[Content, ...]
"""The forms of one fact, styled, from the longest to the shortest."""
SHORTEN_FIRST = (
    "sort", "counts", "starred", "view", "marked", "read", "index", "loading", "activity"
)  # fmt: skip
"""The order in which facts give up their long forms (a running job's progress the last)."""
EXPORT_KEY = "e"
"""The key that exports the marked papers, named beside their count (the footer has no room
for it at 80 columns)."""


ROLES = (
    "title", "loading", "progress", "read", "view", "marked", "key", "activity", "sort", "index"
)  # fmt: skip
"""The header's parts, each drawn in its component class's style (`header-bar--marked`)."""
Styles = Mapping[str, Style]


def _facts(facts: HeaderFacts, styles: Styles) -> list[tuple[str, Fact]]:
    def _fact(*forms: str, role: str = "") -> Fact:
        style = styles.get(role, "")
        return tuple(Content.styled(form, style) for form in forms)

    def _marked(count: int) -> Fact:
        style, key = styles.get("marked", ""), styles.get("key", "")

        def said(number: str) -> Content:
            return Content.assemble((number, style), (EXPORT_KEY, key), (" export", style))

        return said(f"{count:,} marked · "), said(f"{count:,}▍ ")

    total = facts.total
    out: list[tuple[str, Fact]] = []
    if facts.loading:
        out.append(
            ("counts", _fact("the list appears as soon as it is read", "loading…", role="loading"))
        )
    elif facts.filtered is not None:
        # A paper read under the unread view stays in place (the cursor moves on from it): it
        # is not counted as shown-in-the-view, and the rows it adds are said apart.
        fit = facts.filtered - facts.out_of_view
        shown = f"{fit:,} / {total:,}"
        if facts.searched is not None:
            # "5,187 / 37,120 shown" while 37,120 loaded read as a search of all 37,120: it
            # covered the first 10,240, and a paper loaded after them seemed not to match.
            shown = f"{fit:,} of the first {facts.searched:,}"
        if facts.out_of_view:
            kept = f"+{facts.out_of_view:,}"
            out.append(("counts", _fact(f"{shown} shown {kept} left in place", f"{shown} {kept}")))
        elif facts.every is not None:
            # "1,962 / 3,000 shown" for "offline reinforcement learning" read as a search that
            # matched two thirds of the list: 30 have the three words, the rest only some.
            every = f"{facts.every:,} with every word"
            # The total is in the read count beside it: "53 shown" keeps the room for the name.
            forms = (f"{every} · {shown} shown", f"{every} · {fit:,} shown", shown)
            if facts.searched is not None:
                forms = (f"{every} · {shown} shown", f"{every} · {shown}", shown)
            out.append(("counts", _fact(*forms)))
        else:
            out.append(("counts", _fact(f"{shown} shown", shown)))
        # Someone picking 40 papers over several searches counts the stars as they go: the
        # search's counts take the place of the list's, where the starred count was. None
        # starred yet, "★ 0" beside a search's counts was one more number to read past.
        starred = facts.starred
        if starred:
            out.append(("starred", _fact(f"{starred:,} starred", f"★ {starred:,}")))
    else:
        papers = plural(total, "paper")
        counts = f"{papers} · {facts.noted:,} noted · {facts.starred:,} starred"
        # The counts that are not 0 stay while they can, then without the total where the
        # read count says it: at 80 columns 's' on marked papers changed the starred count
        # where the header no longer showed it.
        counted = ((facts.noted, "noted"), (facts.starred, "starred"))
        nonzero = [f"{count:,} {what}" for count, what in counted if count]
        # Without the total where the read count says it: "1 noted · 4 starred" beside
        # "2 marked · e export" says more than "1,000 papers · 1 noted · 4 starred" beside "2▍".
        fewer = nonzero if nonzero and facts.read is not None else [papers, *nonzero]
        out.append(("counts", _fact(counts, " · ".join(fewer), papers)))
    if facts.loaded is not None:
        # A fact, not part of the name that gives up its room first: at 80 columns "Loading
        # big.txt… 39,168 of 100,000" was cut to "Loading big.txt… 39…".
        done, expected = facts.loaded
        share = f"{min(done / expected, 1.0):.0%}" if expected else ""
        loaded = f"loading {done:,} of {expected:,}"
        out.append(("loading", _fact(loaded, f"loading {share}", role="progress")))
    if facts.read is not None and not facts.loading:
        read = f"{facts.read:,} / {total:,} read"
        out.append(("read", _fact(read, read.replace(" / ", "/"), role="read")))
    if facts.view:
        out.append(("view", _fact(f"view: {facts.view}", facts.view, role="view")))
    if facts.marked:
        out.append(("marked", _marked(facts.marked)))
    if facts.activity:
        activity = one_line(facts.activity)
        out.append(("activity", _fact(activity, activity.split(" · ")[0], role="activity")))
    if facts.sort:
        out.append(("sort", _fact(f"sort: {facts.sort}", facts.sort.split()[-1], role="sort")))
    if facts.index_progress is not None:
        percent = f"{facts.index_progress:.0%}"
        out.append(("index", _fact(f"indexing {percent}", f"idx {percent}", role="index")))
    elif facts.titling:
        out.append(("index", _fact("making titles…", "titles…", role="index")))
    return out


NAME_BREAKS = " -/_"
"""Where a list's name is cut when it does not fit: after a word, not inside one."""


def cut_name(name: str, room: int) -> str:
    """`name` in `room` cells, cut after its last word that fits and ended by "…".

    Cut inside a number, the name read as part of the count beside it: at 80 columns "ICML
    2020-20…  2 with every word" read as "…2 with every word".
    """
    if room < 2:
        return ""
    cut = set_cell_size(name, room - 1)
    end = max(cut.rfind(mark) for mark in NAME_BREAKS)
    # A first word too long for the room is cut where the room ends: a few letters of it say
    # more than none.
    if end > 0 and cell_len(cut[:end]) >= min(MIN_TITLE, room) // 2:
        cut = cut[: end + 1] if cut[end] != " " else cut[:end]
    return cut.rstrip() + "…"


def header_content(facts: HeaderFacts, width: int, styles: Styles | None = None) -> Content:
    """The header's line in `width` cells: the facts whole, the name cut to the room left;
    each part in `styles`' style for its role (ROLES), none where it has none."""
    styles = styles or {}
    named = _facts(facts, styles)
    parts = [fact for _, fact in named]
    chosen = [fact[0] for fact in parts]
    title = one_line(facts.title)

    def facts_cells() -> int:
        return sum(text.cell_length for text in chosen) + len(GAP) * len(chosen)

    def name_keeps() -> bool:
        room = width - facts_cells()
        if cell_len(title) <= room:
            return True
        # What the name keeps once cut after a word ("ICML…" of "ICML 2020-2023" in 9 cells).
        return cell_len(cut_name(title, room)) >= MIN_TITLE

    # Shorter forms only while the name would keep under MIN_TITLE: each fact one form shorter,
    # in SHORTEN_FIRST's order, then each one shorter again. One fact cut to its last form
    # before the next was touched dropped "1,962 with every word" at 100 columns, where it
    # fitted beside "★ 40".
    order = sorted(range(len(named)), key=lambda number: SHORTEN_FIRST.index(named[number][0]))
    for depth in range(1, max((len(fact) for fact in parts), default=1)):
        for number in order:
            if name_keeps():
                break
            if depth < len(parts[number]):
                chosen[number] = parts[number][depth]
    room = max(0, width - facts_cells())
    if cell_len(title) > room:
        title = cut_name(title, room)
    pieces: list[Content | str] = [Content.styled(title, styles.get("title", ""))]
    for text in chosen:
        pieces.append(GAP)
        pieces.append(text)
    return Content.assemble(*pieces)


class HeaderBar(Widget):
    """One line at the top of the reader, laid out again for its width."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {f"header-bar--{role}" for role in ROLES}

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.facts: HeaderFacts | None = None

    def show(self, facts: HeaderFacts) -> None:
        """Tell these facts (repaints the bar only, no layout pass)."""
        if facts != self.facts:
            self.facts = facts
            self.refresh()

    def render(self) -> Content:
        if self.facts is None:
            return Content("")
        return header_content(self.facts, self.content_region.width, self._styles())

    def _styles(self) -> dict[str, Style]:
        """Each role's style from the stylesheet, its colour shaded until it reads on the bar
        (in textual-light the accent and warning colours on $panel were under 3:1)."""
        styles: dict[str, Style] = {}
        for role in ROLES:
            wanted = self.get_visual_style(f"header-bar--{role}")
            background, color = wanted.background, wanted.foreground
            if color is not None and background is not None and color.ansi is None:
                # The terminal draws ANSI colours as it likes: nothing to measure them by.
                color = readable_on(background, background + color, TEXT_READABLE)
            styles[role] = Style(
                foreground=color,
                bold=wanted.bold,
                italic=wanted.italic,
                underline=wanted.underline,
            )
        return styles

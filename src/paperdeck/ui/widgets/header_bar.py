"""The header bar: the list's name, how many papers are shown, marked and sorted how."""

from __future__ import annotations

from dataclasses import dataclass

from textual.content import Content
from textual.widgets import Static

from paperdeck.ui.safe_text import one_line


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
    index_progress: float | None
    activity: str | None = None
    """A background job's progress ("online 12/40 · 9 matched")."""


class HeaderBar(Static):
    """One line at the top of the reader."""

    def show(self, facts: HeaderFacts) -> None:
        parts: list[str | tuple[str, str]] = [(one_line(facts.title), "bold $text-accent")]
        total = facts.total
        if facts.loading:
            parts.append(("  the list appears as soon as it is read", "$text-muted"))
        elif facts.filtered is not None:
            parts.append(f"  {facts.filtered} / {total}")
        else:
            parts.append(
                f"  {total} paper{'s' if total != 1 else ''} · {facts.noted} noted"
                f" · {facts.starred} starred"
            )
        if facts.marked:
            parts.append((f" · {facts.marked} marked", "$text-warning"))
        if facts.activity:
            # Before the sort order: at 80 columns the end of the line is cut off.
            parts.append((f"   {one_line(facts.activity)}", "$text-warning"))
        parts.append((f"   sort: {facts.sort}", "$text-muted"))
        if facts.index_progress is not None:
            parts.append((f"   indexing {facts.index_progress:.0%}", "$text-warning"))
        self.update(Content.assemble(*parts), layout=False)

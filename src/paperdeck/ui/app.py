"""The reader: a Textual app over the core — list, detail and notes panes, search, citations."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import gc
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer, Input, Static

from paperdeck.core.model import Annotation, Paper
from paperdeck.core.resources import styles_dir
from paperdeck.core.settings import Settings, load_settings, save_settings, settings_path
from paperdeck.ui.dialogs.help_screen import HelpScreen
from paperdeck.ui.key_routing import follow_focus
from paperdeck.ui.safe_text import one_line
from paperdeck.ui.widgets.detail_pane import DetailPane
from paperdeck.ui.widgets.notes_panel import NoteEditor, NotesPanel
from paperdeck.ui.widgets.paper_list import Highlighter, PaperList, no_highlight
from paperdeck.ui.widgets.search_box import SearchBox

if TYPE_CHECKING:
    from paperdeck.core.clipboard import CopyReport
    from paperdeck.core.library import Library
    from paperdeck.core.notes.store import NotesStore
    from paperdeck.core.search.index import SearchIndex, SearchResult, SortMode
    from paperdeck.core.search.query import Query

AUTOSAVE_DELAY = 1.0
SORT_MODES = {"relevance": "relevance", "list": "list order", "noted": "recently noted"}
NARROW_WIDTH = 100
SHOW_COALESCE = 0.03
"""Seconds: cursor moves closer together than this repaint the detail and notes panes once."""
LOADING_TICK = 0.3
"""Seconds between repaints of the loading line: each one takes the GIL from the loader."""
LOADING_FRAMES = ("·  ", "·· ", "···", " ··", "  ·", "   ")
_TYPING_HIDES = frozenset({"focus_search"})
"""Actions off while typing. Textual already drops the keys a focused Input or TextArea takes
(so `s`, `q`, ... type themselves and Ctrl+Q still quits); `/` alone needs hiding here."""


class PaperdeckApp(App[int]):
    """Browse, search, annotate and cite the papers of a library."""

    CSS_PATH = str(styles_dir() / "paperdeck.tcss")
    AUTO_FOCUS = "#papers"
    TITLE = "paperdeck"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW_WIDTH, "-wide")]  # noqa: RUF012

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_search", "Search"),
        Binding("n", "edit_note", "Note"),
        Binding("s", "star", "Star"),
        Binding("r", "toggle_read", "Read/unread"),
        Binding("t", "edit_tags", "Tags"),
        Binding("c", "copy_citation", "Cite"),
        Binding("C", "choose_format", "Cite format"),
        Binding("o", "open_link", "Open link"),
        Binding("R", "toggle_raw", "Raw abstract"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        library: Library | None,
        store: NotesStore,
        *,
        loader: Callable[[], Library] | BackgroundLoad | None = None,
        loading_label: str = "",
        settings_file: Path | None = None,
        autosave_delay: float = AUTOSAVE_DELAY,
    ) -> None:
        """Show `library`, or an empty reader that paints at once while `loader` runs.

        `loader` is a function the reader runs on a thread after its first paint, or a
        BackgroundLoad already under way, which the reader takes as soon as it is over.
        """
        super().__init__()
        if library is None:
            from paperdeck.core.library import Library as EmptyLibrary

            library = EmptyLibrary(papers=[], lists=[])
        self.library = library
        self.loader = loader
        self.loading_label = loading_label
        self.load_error: str | None = None
        self.papers: list[Paper] = library.papers
        self.store = store
        self.settings_file = settings_file
        self.settings = load_settings(settings_file) if settings_file else Settings()
        self.autosave_delay = autosave_delay
        self.index: SearchIndex | None = None
        self.search_query = ""
        self._paper_ids = {paper.id for paper in self.papers}
        self._counts: tuple[int, int] | None = None
        """(noted, starred) among the papers shown; None when the store changed since."""
        self._autosave_timer: Timer | None = None
        self._show_timer: Timer | None = None
        self._last_show = 0.0
        self._keys: dict[str, str] | None = None
        self._index_progress: float | None = None
        self._filtered: int | None = None
        self._quit_refused = False
        self._loading_timer: Timer | None = None
        self._loading_frame = 0
        self._panes_deferred = False
        """True between a load's list paint and the deferred paint of the panes."""
        self.exit_message: str | None = None
        """The line to print after the reader closed (where unsaved notes went), if any."""
        self.last_copied = ""
        """The last citation text handed to the clipboard (what tests read)."""

    # -- layout -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield SearchBox(id="search")
                yield Static(id="search-status")
                yield PaperList(id="papers", annotation_for=self.annotation)
            with Vertical(id="right"):
                yield DetailPane(id="detail")
                yield NotesPanel(id="notes")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # `/` would move the focus out of the text being typed (see _TYPING_HIDES).
        return not (action in _TYPING_HIDES and isinstance(self.focused, Input | NoteEditor))

    async def _on_key(self, event: events.Key) -> None:
        # Runs before App._on_key (handlers run along the MRO); a key sent on stops there.
        if follow_focus(self, event):
            event.prevent_default()

    def _focus_now(self, widget: Widget) -> None:
        # Widget.focus() waits for the message queue; keys typed right after `/` or `n` (a
        # fast typist, a paste, tmux send-keys) must already land in the field.
        self.screen.set_focus(widget)

    # Kept from on_mount: App.query_one looks only at the top screen, which is a dialog's
    # while one is open, and a query per cursor move costs time at every key.
    @property
    def paper_list(self) -> PaperList:
        return self._paper_list

    @property
    def detail(self) -> DetailPane:
        return self._detail

    @property
    def notes(self) -> NotesPanel:
        return self._notes

    @property
    def search_box(self) -> SearchBox:
        return self._search_box

    def on_mount(self) -> None:
        self._paper_list = self.query_one("#papers", PaperList)
        self._detail = self.query_one("#detail", DetailPane)
        self._notes = self.query_one("#notes", NotesPanel)
        self._search_box = self.query_one("#search", SearchBox)
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        if self.settings.sort not in SORT_MODES:
            self.settings.sort = "relevance"
        self.paper_list.empty_text = "No papers in this list" if not self.papers else "No papers"
        self.paper_list.on_highlight = self._cursor_moved
        self.paper_list.set_papers(self.papers)
        self.notes.set_save_state("saved")
        self._install_signal_handlers()
        for message in [*self.library.warnings, *self._store_messages()]:
            self.notify(one_line(message), severity="warning", markup=False, timeout=8)
        self._update_header()
        if self.loader is not None:
            # A plain line, repainted a few times a second: Textual's loading indicator
            # repaints at 16 frames a second and slows the loader it waits for.
            self._tick_loading()
            self._loading_timer = self.set_interval(LOADING_TICK, self._tick_loading)
            if isinstance(self.loader, BackgroundLoad):
                # No thread waits for it, so quitting while it reads does not wait either.
                loop, context = asyncio.get_running_loop(), contextvars.copy_context()
                self.loader.when_done(lambda: _call_soon(loop, context, self._take_background_load))
            else:
                # Start after the first paint: the loader competes for the GIL.
                self.call_after_refresh(self._run_loader)
        else:
            self._build_index()

    def _take_background_load(self) -> None:
        from paperdeck.core.errors import PaperdeckError

        if not isinstance(self.loader, BackgroundLoad) or not self.is_running:
            return
        try:
            library = self.loader.wait()
        except PaperdeckError as error:
            self.load_error = str(error)
            self.exit(2)
            return
        self.set_library(library)

    @work(thread=True, exclusive=True, group="load")
    def _run_loader(self) -> None:
        from paperdeck.core.errors import PaperdeckError

        assert self.loader is not None
        load = self.loader.wait if isinstance(self.loader, BackgroundLoad) else self.loader
        try:
            library = load()
        except PaperdeckError as error:
            self.load_error = str(error)
            self.call_from_thread(self.exit, 2)
            return
        self.call_from_thread(self.set_library, library)

    def _tick_loading(self) -> None:
        frame = LOADING_FRAMES[self._loading_frame % len(LOADING_FRAMES)]
        self._loading_frame += 1
        self.paper_list.empty_text = f"Loading {one_line(self.loading_label)} {frame}"
        self.paper_list.refresh()

    def on_unmount(self) -> None:
        self._remove_signal_handlers()

    # -- annotations ------------------------------------------------------------------------

    def annotation(self, paper: Paper) -> Annotation | None:
        """The notes-store entry of a paper, if it has one."""
        entry: Annotation | None = self.store.get(paper.id)
        return entry

    def corrections(self, paper: Paper) -> Mapping[str, Any]:
        entry = self.store.get(paper.id)
        return entry.corrections if entry is not None else {}

    def _store_messages(self) -> list[str]:
        messages = list(self.store.messages)
        self.store.messages.clear()
        return messages

    @property
    def current_paper(self) -> Paper | None:
        index = self.paper_list.paper_index
        return None if index is None else self.papers[index]

    # -- header -----------------------------------------------------------------------------

    def _list_title(self) -> str:
        if self.loader is not None:
            return f"Loading {self.loading_label}…"
        names = [raw.header or raw.name for raw in self.library.lists]
        return " + ".join(names) if names else "paperdeck"

    def _update_header(self) -> None:
        total = len(self.papers)
        noted, starred = self._annotation_counts()
        parts: list[str | tuple[str, str]] = [(one_line(self._list_title()), "bold $text-accent")]
        if self.loader is not None:
            parts.append(("  the list appears as soon as it is read", "$text-muted"))
        elif self._filtered is not None:
            parts.append(f"  {self._filtered} / {total}")
        else:
            parts.append(
                f"  {total} paper{'s' if total != 1 else ''} · {noted} noted · {starred} starred"
            )
        marked = len(self.paper_list.marked)
        if marked:
            parts.append((f" · {marked} marked", "$text-warning"))
        parts.append((f"   sort: {SORT_MODES[self.settings.sort]}", "$text-muted"))
        if self._index_progress is not None:
            parts.append((f"   indexing {self._index_progress:.0%}", "$text-warning"))
        self.query_one("#header", Static).update(Content.assemble(*parts), layout=False)

    def _annotation_counts(self) -> tuple[int, int]:
        # A walk over every entry: done again only after the store changed, not per update.
        if self._counts is None:
            noted = starred = 0
            for paper_id, entry in self._entries().items():
                if paper_id in self._paper_ids:
                    noted += bool(entry.note)
                    starred += bool(entry.starred)
            self._counts = (noted, starred)
        return self._counts

    def _entries(self) -> Mapping[str, Annotation]:
        entries: Mapping[str, Annotation] = self.store.entries
        return entries

    # -- search -----------------------------------------------------------------------------

    @work(exclusive=True, group="index")
    async def _build_index(self) -> None:
        from paperdeck.core.search.index import SearchIndex

        steps = SearchIndex.build_steps(self.papers)
        while True:
            try:
                progress = next(steps)
            except StopIteration as stop:
                self.index = stop.value
                break
            if isinstance(progress, float | int) and len(self.papers) > 2000:
                self._index_progress = float(progress) if progress <= 1 else None
                self._update_header()
            await asyncio.sleep(0)
        self._index_progress = None
        _freeze_long_lived()  # the index lives as long as its papers
        self._update_header()
        if self.search_query or self.settings.sort == "noted":
            self._run_search(self.search_query)
        # Searches run meanwhile: the index answers before it is cached.
        for _ in self.index.save_steps():
            await asyncio.sleep(0)

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id != "search":
            return
        event.stop()
        self.search_query = event.value
        self._run_search(event.value)

    def on_search_box_leave(self, event: SearchBox.Leave) -> None:
        event.stop()
        self._focus_now(self.paper_list)

    @work(exclusive=True, group="search")
    async def _run_search(self, query: str) -> None:
        if not query.strip() and self.settings.sort != "noted":
            self._apply_result(query, None)  # no filter: needs no index
            return
        index = self.index
        if index is None:
            # Applied when the index is ready; until then the list stays as it is.
            self._set_search_status("indexing… the search runs when the index is ready")
            return
        sort: SortMode = (
            "noted"
            if self.settings.sort == "noted"
            else ("list" if self.settings.sort == "list" else "relevance")
        )
        steps = index.search_steps(query, annotations=self._entries(), sort=sort)
        while True:
            try:
                next(steps)
            except StopIteration as stop:
                result: SearchResult = stop.value
                break
            await asyncio.sleep(0)
        if query == self.search_query:
            self._apply_result(query, result)

    def _apply_result(self, query: str, result: SearchResult | None) -> None:
        paper_list = self.paper_list
        keep = paper_list.paper_index
        # A result never moves the note being typed to another paper.
        edited = self.notes.paper if self.focused is self.notes.editor else None
        if edited is not None:
            self._commit_note()
            if keep is None or self.papers[keep] is not edited:
                keep = next((i for i, paper in enumerate(self.papers) if paper is edited), None)
        if result is None or not query.strip():
            rows: Sequence[int] = result.indices if result is not None else range(len(self.papers))
            self._filtered = None
            paper_list.set_highlighter("", no_highlight)
            self._set_search_status(result.message if result is not None else "")
        else:
            rows = result.indices
            self._filtered = len(rows)
            paper_list.set_highlighter(query, _highlighter(result.parsed))
            self._set_search_status(result.message or "")
        paper_list.empty_text = (
            f"No papers match {one_line(query)!r}" if query.strip() else "No papers"
        )
        paper_list.set_rows(rows, keep_paper=keep)
        if edited is not None and self.current_paper is not edited:
            # Its paper left the results: the note is kept and the editor closed, so the
            # next keys cannot land in another paper's note.
            self._leave_note()
            self.notify(
                one_line(f"“{_short(edited.title)}” is not in the results: its note is saved."),
                markup=False,
            )
        self._update_header()
        if not self._panes_deferred:
            self._show_current()

    def _set_search_status(self, message: str | None) -> None:
        status = self.query_one("#search-status", Static)
        status.update(Content(one_line(message or "")))
        status.display = bool(message)

    def action_focus_search(self) -> None:
        self._focus_now(self.search_box)

    # -- selection --------------------------------------------------------------------------

    def _cursor_moved(self) -> None:
        if self._panes_deferred:
            return  # the panes are painted after the list (see set_library)
        # A held key repeats faster than the panes need repainting: coalesce those moves.
        if time.monotonic() - self._last_show < SHOW_COALESCE:
            if self._show_timer is None:
                self._show_timer = self.set_timer(SHOW_COALESCE, self._show_current)
            return
        self._show_current()

    def on_paper_list_marks_changed(self, event: PaperList.MarksChanged) -> None:
        self._update_header()

    def _show_current(self) -> None:
        self._last_show = time.monotonic()
        if self._show_timer is not None:
            self._show_timer.stop()
            self._show_timer = None
        if not self.paper_list.is_attached:
            # A deferred call can land while the app is closing and its widgets are gone
            # (but a dialog on top is no reason to skip it).
            return
        paper = self.current_paper
        if paper is not self.notes.paper:
            self._commit_note()
            if self.store.dirty:
                self._save()
            self.notes.load(paper, self.annotation(paper) if paper else None)
        query = self.search_query if self._filtered is not None else ""
        corrections = self.corrections(paper) if paper else None
        self.detail.show(
            paper,
            query=query,
            highlight=functools.partial(_highlighter, query) if query else None,
            corrections=corrections,
            raw=self.detail.raw,
        )

    def action_toggle_raw(self) -> None:
        self.detail.raw = not self.detail.raw
        self._show_current()
        self.notify(
            "Showing the abstract's source" if self.detail.raw else "Showing the rendered abstract"
        )

    # -- notes ------------------------------------------------------------------------------

    def action_edit_note(self) -> None:
        if self.current_paper is None:
            return
        if self.notes.paper is not self.current_paper:
            self._show_current()
        self.screen.add_class("-notes-open")
        editor = self.notes.editor
        self._focus_now(editor)
        editor.move_cursor(editor.document.end)

    def on_note_editor_left(self, event: NoteEditor.Left) -> None:
        event.stop()
        self._leave_note()

    def _leave_note(self) -> None:
        """Save the note and hand the focus to the list."""
        self._commit_note()
        if self.store.dirty:
            self._save()
        self.paper_list.screen.remove_class("-notes-open")
        self._focus_now(self.paper_list)

    def on_text_area_changed(self, event: NoteEditor.Changed) -> None:
        if event.text_area.id != "note-editor":
            return
        event.stop()
        if self._commit_note():
            self.notes.set_save_state("unsaved")
            # One timer per note session, restarted by each key, not one timer per key.
            if self._autosave_timer is None:
                self._autosave_timer = self.set_timer(self.autosave_delay, self._autosave)
            else:
                self._autosave_timer.reset()

    def on_descendant_blur(self, event: Any) -> None:
        widget = event.widget
        if getattr(widget, "id", None) == "note-editor":
            self._commit_note()
            if self.store.dirty:
                self._save()
            if widget.screen is self.screen:
                # Left with Tab or a click (not for a dialog on top): the narrow layout
                # shows the detail pane again.
                widget.screen.remove_class("-notes-open")

    def _commit_note(self) -> bool:
        """Put the editor's text into the store; True when it changed the note."""
        notes = self.notes
        paper = notes.paper
        if paper is None:
            return False
        text = notes.editor.text
        if text == notes.loaded_text:
            return False  # not typed since it was loaded: viewing a note never rewrites it
        notes.loaded_text = text
        entry = self.store.get(paper.id)
        before = entry.note if entry is not None else ""
        if before == text:
            return False
        self.store.set_note(paper, text)
        if bool(before) != bool(text):
            # The ✎ marker and the noted count change only when a note appears or goes.
            self._counts = None
            index = self.paper_list.paper_index
            if index is not None and self.papers[index] is paper:
                self.paper_list.refresh_paper(index)
            else:
                self.paper_list.refresh()
        return True

    def _autosave(self) -> None:
        self._autosave_timer = None
        self._commit_note()
        if self.store.dirty:
            self._save()

    def _save(self) -> bool:
        """Write the store now; show the result beside the note. True when saved."""
        from paperdeck.core.notes.store import NotesSaveError

        self._counts = None  # saving may merge what another reader wrote
        try:
            self.store.save()
        except NotesSaveError as error:
            self._store_messages()  # the same failure, already in `error`
            self.notes.set_save_state("error", str(error))
            self.notify(
                one_line(f"Notes not saved: {error}. They are kept in memory; saving retries."),
                severity="error",
                markup=False,
            )
            return False
        if self._autosave_timer is not None:
            self._autosave_timer.stop()
            self._autosave_timer = None
        self.notes.set_save_state("saved")
        for message in self._store_messages():
            self.notify(one_line(message), severity="warning", markup=False, timeout=8)
        self._update_header()
        return True

    def _annotation_changed(self, paper: Paper) -> None:
        self._counts = None
        self._save()
        self.paper_list.refresh()
        if paper is self.notes.paper:
            self.notes.show_annotation(self.annotation(paper))
        self._update_header()

    def action_star(self) -> None:
        paper = self.current_paper
        if paper is None:
            return
        entry = self.store.get(paper.id)
        starred = not (entry is not None and entry.starred)
        self.store.set_starred(paper, starred)
        self._annotation_changed(paper)

    def action_toggle_read(self) -> None:
        paper = self.current_paper
        if paper is None:
            return
        entry = self.store.get(paper.id)
        state = entry.state if entry is not None else "unread"
        self.store.set_state(paper, "unread" if state == "read" else "read")
        self._annotation_changed(paper)

    def action_edit_tags(self) -> None:
        from paperdeck.ui.dialogs.tags_dialog import TagsDialog

        paper = self.current_paper
        if paper is None:
            return
        entry = self.store.get(paper.id)

        def done(tags: list[str] | None) -> None:
            if tags is not None:
                self.store.set_tags(paper, tags)
                self._annotation_changed(paper)

        self.push_screen(TagsDialog(paper.title, entry.tags if entry else ()), done)

    # -- citations --------------------------------------------------------------------------

    def _citation_keys(self) -> dict[str, str]:
        from paperdeck.core.citations import citation_keys

        if self._keys is None:
            self._keys = dict(citation_keys(self.papers, self.store))
        return self._keys

    def format_names(self) -> list[tuple[str, str]]:
        """(format id, label) for every citation format."""
        from paperdeck.core.citations import FORMATS

        return list(FORMATS.items())

    def action_copy_citation(self, fmt: str | None = None) -> None:
        from paperdeck.core.citations import FORMATS, cite_many, describe_missing

        chosen = fmt if fmt in FORMATS else self.settings.citation_format
        if chosen not in FORMATS:
            chosen = "bibtex"
        indices = self.paper_list.selected_indices()
        if not indices:
            self.notify("No paper to cite", severity="warning")
            return
        papers = [self.papers[i] for i in indices]
        keys = self._citation_keys()
        fixes = {paper.id: self.corrections(paper) for paper in papers}
        citation = cite_many(papers, chosen, keys=keys, corrections=fixes)
        what = f"“{_short(papers[0].title)}”" if len(papers) == 1 else f"{len(papers)} papers"
        missing = describe_missing(citation.missing) if citation.missing else ""
        self._copy(citation.text.rstrip("\n") + "\n", f"{FORMATS[chosen]} for {what}", missing)
        if self.paper_list.marked:
            self.paper_list.clear_marks()

    @work(thread=True, exclusive=True, group="copy")
    def _copy(self, text: str, what: str, missing: str) -> None:
        from paperdeck.core.clipboard import copy_text

        def terminal_write(sequence: str) -> None:
            self.call_from_thread(self._write_to_terminal, sequence)

        try:
            report = copy_text(text, terminal_write=terminal_write)
        except Exception as error:  # no clipboard failure may take the reader down
            self.call_from_thread(self._copy_failed, text, what, f"{type(error).__name__}: {error}")
            return
        self.call_from_thread(self._copied, text, what, missing, report)

    def _write_to_terminal(self, sequence: str) -> None:
        driver = self._driver
        if driver is None:
            raise RuntimeError("no terminal")
        driver.write(sequence)
        driver.flush()

    def _copied(self, text: str, what: str, missing: str, report: CopyReport) -> None:
        self.last_copied = text
        if missing:
            self.notify(
                one_line(f"Incomplete citation: {missing}"),
                severity="warning",
                markup=False,
                timeout=8,
            )
        if not report.confirmed:
            sent = (
                f"Sent to {report.describe()}, which cannot confirm it."
                if report.mechanisms
                else ""
            )
            errors = "; ".join(report.errors)
            self._copy_failed(text, what, " ".join(part for part in (sent, errors) if part))
            return
        self.notify(one_line(f"Copied {what} to {report.describe()}"), markup=False)

    def _copy_failed(self, text: str, what: str, reason: str) -> None:
        from paperdeck.ui.dialogs.citation_dialog import CitationDialog

        suffix = ".bib" if what.startswith(("BibTeX", "BibLaTeX")) else ".txt"
        default = Path.cwd() / f"citations{suffix}"
        reason = f"Could not confirm the copy of {what}. {reason}".strip()
        self.push_screen(CitationDialog(text, reason, default))

    def action_choose_format(self) -> None:
        from paperdeck.ui.dialogs.format_dialog import FormatDialog

        def done(name: str | None) -> None:
            if name:
                self.settings.citation_format = name
                self._save_settings()
                self.notify(f"c now copies {dict(self.format_names()).get(name, name)}")

        self.push_screen(FormatDialog(self.format_names(), self.settings.citation_format), done)

    # -- other actions ----------------------------------------------------------------------

    def action_open_link(self) -> None:
        paper = self.current_paper
        if paper is None:
            return
        url = str(self.corrections(paper).get("url") or paper.url or "")
        if not url and paper.links:
            url = paper.links[0]
        if not url:
            self.notify("This paper has no link", severity="warning")
            return
        self.open_url(url)
        self.notify(one_line(f"Opening {url}"), markup=False)

    def action_help(self) -> None:
        sections: list[tuple[str, Iterable[BindingType]]] = [
            ("Anywhere outside a text field", self.BINDINGS),
            ("Paper list", PaperList.BINDINGS),
            ("Search field", [*SearchBox.BINDINGS, Binding("enter", "submit", "To the list")]),
            ("Note editor", NoteEditor.BINDINGS),
            (
                "Everywhere",
                [
                    Binding("tab", "focus_next", "Next pane"),
                    Binding("shift+tab", "focus_previous", "Previous pane"),
                    Binding(
                        "ctrl+p",
                        "command_palette",
                        "Commands: theme, sort order, export notes, open a list, copy as…",
                    ),
                ],
            ),
        ]
        self.push_screen(HelpScreen(sections))

    async def action_quit(self) -> None:
        self._commit_note()
        if self.store.dirty and not self._save() and not self._quit_refused:
            self._quit_refused = True
            self.notify(
                "Your notes are not saved. Press q again to quit anyway: the unsaved notes "
                "will be kept in a recovery file.",
                severity="error",
                timeout=15,
            )
            return
        if self.store.dirty:
            self.exit_message = save_or_recover(self.store)
        self._save_settings()
        self.exit(0)

    # -- settings, palette, signals ---------------------------------------------------------

    def _remember_theme(self, _theme: Any) -> None:
        if self.theme != self.settings.theme:
            self.settings.theme = self.theme
            self._save_settings()

    def _save_settings(self) -> None:
        if self.settings_file is None:
            return
        error = save_settings(self.settings_file, self.settings)
        if error:
            self.notify(one_line(error), severity="warning", markup=False)

    def set_sort(self, mode: str) -> None:
        """Change the sort order (remembered) and re-run the search."""
        self.settings.sort = mode
        self._save_settings()
        self._update_header()
        self._run_search(self.search_query)
        self.notify(f"Sorted by {SORT_MODES[mode]}")

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for mode, label in SORT_MODES.items():
            yield SystemCommand(
                f"Sort: {label}",
                f"Order search results by {label}",
                functools.partial(self.set_sort, mode),
            )
        yield SystemCommand(
            "Export notes", "Write every note to a Markdown file", self.export_notes
        )
        yield SystemCommand("Open another list", "Open a paper list from a file", self.open_list)
        with contextlib.suppress(ImportError):
            for name, label in self.format_names():
                yield SystemCommand(
                    f"Copy as {label}",
                    f"Copy the selected paper's citation as {label}",
                    functools.partial(self.action_copy_citation, name),
                )

    def export_notes(self) -> None:
        from paperdeck.ui.dialogs.path_dialog import PathDialog

        default = str(Path.cwd() / "paperdeck-notes.md")

        def done(name: str | None) -> None:
            if name:
                self._export_to(Path(name).expanduser())

        self.push_screen(
            PathDialog("Export notes to", default, "Markdown, or .json for JSON"), done
        )

    def _export_to(self, path: Path) -> None:
        from paperdeck.core.notes.exchange import export_json, export_markdown

        export = export_json if path.suffix.lower() == ".json" else export_markdown
        try:
            text = export(self.store, self.papers, self._citation_keys())
            path.write_text(text, encoding="utf-8")
        except OSError as error:
            self.notify(
                one_line(f"Export failed: {error.strerror or error}"),
                severity="error",
                markup=False,
            )
            return
        self.notify(one_line(f"Notes exported to {path.resolve()}"), markup=False)

    def open_list(self) -> None:
        from paperdeck.ui.dialogs.path_dialog import PathDialog

        def done(name: str | None) -> None:
            if name:
                self._load_list(Path(name).expanduser())

        self.push_screen(PathDialog("Open a paper list", "", "txt, JSONL, JSON, BibTeX, CSV"), done)

    @work(thread=True, exclusive=True, group="load")
    def _load_list(self, path: Path) -> None:
        from paperdeck.core.errors import PaperdeckError
        from paperdeck.core.library import load_library

        try:
            library = load_library([path])
        except PaperdeckError as error:
            self.call_from_thread(self.notify, one_line(str(error)), severity="error", markup=False)
            return
        self.call_from_thread(self.set_library, library)

    def set_library(self, library: Library) -> None:
        """Show another library (the current note is saved first)."""
        _freeze_long_lived()  # before the list's paint
        self._commit_note()
        if self.store.dirty:
            self._save()
        self.library = library
        self.papers = library.papers
        self._paper_ids = {paper.id for paper in self.papers}
        self._counts = None
        self._keys = None
        self.index = None
        self._filtered = None
        self.search_box.value = ""
        self.search_query = ""
        self.loader = None
        if self._loading_timer is not None:
            self._loading_timer.stop()
            self._loading_timer = None
        if not isinstance(self.focused, Input | NoteEditor):
            self._focus_now(self.paper_list)
        self.paper_list.empty_text = "No papers in this list" if not self.papers else "No papers"
        # The list and its counts paint first; the panes, warnings and index follow.
        self._panes_deferred = True
        self.paper_list.set_papers(self.papers)
        self._update_header()
        self.call_after_refresh(self._after_list_paint, library.warnings)

    def _after_list_paint(self, warnings: Sequence[str]) -> None:
        self._panes_deferred = False
        self._show_current()
        for message in warnings:
            self.notify(one_line(message), severity="warning", markup=False)
        self._build_index()

    def _install_signal_handlers(self) -> None:
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signum, self._on_terminate_signal)

    def _remove_signal_handlers(self) -> None:
        with contextlib.suppress(RuntimeError):
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGTERM, signal.SIGHUP):
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    loop.remove_signal_handler(signum)

    def _on_terminate_signal(self) -> None:
        # The terminal closed or we were asked to stop: keep every word, then leave.
        self._commit_note()
        if self.store.dirty:
            self.exit_message = save_or_recover(self.store)
        self.exit(0)


def _highlighter(query: str | Query, field: str = "title") -> Highlighter:
    """Match spans of `query` in one field's text (each field highlights only its own terms)."""
    from paperdeck.core.search.spans import highlighter

    def spans(text: str) -> Sequence[tuple[int, int]]:
        try:
            return highlighter(query, field)(text)
        except Exception:  # a highlight is decoration: never let it break a paint
            return ()

    return spans


def _call_soon(
    loop: asyncio.AbstractEventLoop, context: contextvars.Context, callback: Callable[[], None]
) -> None:
    # The context is the app's (Textual finds its active app there), not the load thread's.
    # The reader may have closed its loop while the load ran: then there is nobody to tell.
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(callback, context=context)


def _freeze_long_lived() -> None:
    # Papers and their index live as long as the reader: keep the collector from walking
    # them again (a full collection over 100,000 papers takes ~80 ms, delaying a paint).
    gc.freeze()


def _short(title: str, length: int = 40) -> str:
    text = one_line(title)
    return text if len(text) <= length else text[: length - 1].rstrip() + "…"


class BackgroundLoad:
    """A load that starts at once on its own thread; `wait` gives its library or its error."""

    def __init__(self, load: Callable[[], Library]) -> None:
        self._load = load
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []
        self._library: Library | None = None
        self._error: BaseException | None = None
        threading.Thread(target=self._run, name="paperdeck-load", daemon=True).start()

    def _run(self) -> None:
        try:
            self._library = self._load()
        except BaseException as error:  # handed to whoever waits, which reports it
            self._error = error
        finally:
            with self._lock:
                self._done.set()
                callbacks, self._callbacks = self._callbacks, []
            for callback in callbacks:
                callback()

    def when_done(self, callback: Callable[[], None]) -> None:
        """Call `callback` once the load is over (from the load's thread, or now if it is)."""
        with self._lock:
            if not self._done.is_set():
                self._callbacks.append(callback)
                return
        callback()

    def wait(self) -> Library:
        """The loaded library (blocks until the load is over); re-raises the load's error."""
        self._done.wait()
        if self._error is not None:
            raise self._error
        assert self._library is not None
        return self._library


def run_app(
    library: Library | Callable[[], Library],
    notes_option: str | None,
    *,
    loading_label: str = "",
) -> int:
    """Run the reader until the user quits; the exit status.

    `library` is a loaded Library, or a function that loads one: then the reader paints at
    once and loads in the background (a load error exits with status 2 and one line).
    """
    from paperdeck.core.notes.store import NotesStore, notes_path

    if callable(library):
        # Started before anything else: the notes and the app are built while it reads.
        pending = BackgroundLoad(library)
        store = NotesStore(notes_path(notes_option))
        app = PaperdeckApp(
            None,
            store,
            loader=pending,
            loading_label=loading_label,
            settings_file=settings_path(),
        )
    else:
        store = NotesStore(notes_path(notes_option))
        _freeze_long_lived()
        app = PaperdeckApp(library, store, settings_file=settings_path())
    result = app.run()
    if app.load_error is not None:
        print(f"paperdeck: {one_line(app.load_error)}", file=sys.stderr)
        return 2
    message = app.exit_message
    if message is None and store.dirty:
        # Last chance: the app may have been stopped without its quit path running.
        message = save_or_recover(store)
    if message is not None:
        with contextlib.suppress(OSError):  # after SIGHUP there is no terminal to tell
            print(message, file=sys.stderr)
        return 1
    return int(result or 0)


def save_or_recover(store: NotesStore) -> str | None:
    """Save the store; if that fails, write its unsaved entries to a recovery file.

    None when saved, else what to tell the user: one line naming the recovery file (a notes
    file `paperdeck notes import` merges back), next to the notes file or in the temporary
    folder. Only if neither can be written are the entries printed in the line's place.
    """
    import json
    import tempfile

    from paperdeck.core.notes.store import NotesSaveError, entry_to_json
    from paperdeck.core.plumbing.atomic_write import atomic_write

    try:
        store.save()
        return None
    except NotesSaveError as error:
        reason = one_line(str(error))
    papers = {entry.paper_id: entry_to_json(entry) for entry in store.unsaved_entries()}
    document = {"version": 1, "papers": papers}
    data = json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    name = f"{store.path.name}.recovered-{time.strftime('%Y%m%d-%H%M%S')}"
    for folder in (store.path.parent, Path(tempfile.gettempdir())):
        path = folder / name
        number = 2
        while path.exists():
            path = folder / f"{name}-{number}"
            number += 1
        try:
            atomic_write(path, data)
        except OSError:
            continue
        return (
            f"paperdeck: notes not saved ({reason}); "
            f"your unsaved notes are in {one_line(str(path))}"
        )
    return f"paperdeck: notes not saved ({reason}), nor a recovery file; here they are:\n{data}"

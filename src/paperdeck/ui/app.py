"""The reader: a Textual app composing the list, detail and notes panes with their controllers."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import signal
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual import events
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

from paperdeck.core.model import Annotation, Paper
from paperdeck.core.papers import LoadedPapers, Papers
from paperdeck.core.resources import styles_dir
from paperdeck.core.settings import Settings, load_settings, save_settings
from paperdeck.core.text.render import render_abstract
from paperdeck.ui.citation_flow import CitationFlow
from paperdeck.ui.dialogs.help_screen import HelpScreen
from paperdeck.ui.enrich_flow import EnrichFlow
from paperdeck.ui.export_flow import ExportFlow
from paperdeck.ui.key_routing import follow_focus
from paperdeck.ui.loading import Loader, LoadingFlow
from paperdeck.ui.match_summary import words_found
from paperdeck.ui.note_flow import NoteFlow
from paperdeck.ui.notes_watch import NOTES_POLL, NotesWatch
from paperdeck.ui.open_flow import OpenFlow
from paperdeck.ui.related_view import words_query
from paperdeck.ui.safe_text import one_line
from paperdeck.ui.search_flow import SearchFlow, highlighter
from paperdeck.ui.session import SessionFlow
from paperdeck.ui.textual_private import forward_key, notify_in_place
from paperdeck.ui.triage_flow import TriageFlow
from paperdeck.ui.view_fit import RowsSeen, out_of_view
from paperdeck.ui.widgets.detail_pane import (
    LOOK_UP_COMMAND,
    DetailPane,
    Shares,
    pane_authors,
    pane_title,
)
from paperdeck.ui.widgets.header_bar import HeaderBar, HeaderFacts
from paperdeck.ui.widgets.keys_footer import KeysFooter
from paperdeck.ui.widgets.notes_panel import NoteEditor, NotesPanel
from paperdeck.ui.widgets.paper_list import ROW_LAYOUTS, PaperList, RowLayout
from paperdeck.ui.widgets.search_box import SearchBox
from paperdeck.ui.widgets.search_status import SearchStatus

if TYPE_CHECKING:
    from textual.notifications import Notification, SeverityLevel

    from paperdeck.core.library import Library
    from paperdeck.core.notes.store import NotesStore

AUTOSAVE_DELAY = 1.0
SORT_MODES = {"relevance": "relevance", "list": "list order", "noted": "recently noted"}
NARROW_WIDTH = 100
SHOW_COALESCE = 0.03
"""Seconds: cursor moves closer together than this repaint the detail and notes panes once."""
_TYPING_HIDES = frozenset({"focus_search"})
"""Actions off while typing. Textual already drops the keys a focused Input or TextArea takes
(so `s`, `q`, ... type themselves and Ctrl+Q still quits); `/` alone needs hiding here."""


class PaperdeckApp(App[int]):
    """Browse, search, annotate and cite the papers of a library."""

    CSS_PATH = str(styles_dir() / "paperdeck.tcss")
    AUTO_FOCUS = "#papers"
    TITLE = "paperdeck"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW_WIDTH, "-wide")]  # noqa: RUF012

    # The footer shows the keys with show=True in its own order (KeysFooter), as many as fit.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit", "Quit"),
        Binding("slash", "focus_search", "Search"),
        Binding("n", "edit_note", "Note"),
        Binding("r", "read_and_next", "Read+next"),
        Binding("s", "star_and_next", "Star+next"),
        Binding("U", "toggle_read", "Read/unread (undo r)", show=False),
        Binding("S", "toggle_star", "Star/unstar (undo s)", show=False),
        Binding("x", "skip_and_next", "Skip to next unread"),
        Binding("t", "edit_tags", "Tags"),
        Binding("u", "toggle_view('unread')", "Unread only"),
        Binding("asterisk", "toggle_view('starred')", "Starred only"),
        Binding("m", "toggle_view('marked')", "Marked only", show=False),
        Binding("a", "mark_all", "Mark all shown", show=False),
        Binding("A", "clear_marks", "Clear marks / put back", show=False),
        # Short enough for one line of the help screen's columns (23 cells a description).
        Binding("i", "invert_marks", "Invert marks of shown", show=False),
        Binding("c", "copy_citation", "Cite"),
        Binding("C", "choose_format", "Cite format", show=False),
        Binding("o", "open_link", "Open page", show=False),
        Binding("p", "open_pdf", "Open PDF", show=False),
        Binding("e", "export_reading_list", "Export a reading list"),
        Binding("R", "toggle_raw", "Raw abstract", show=False),
        Binding("l", "like_this", "Related papers", show=False),
        Binding("z", "toggle_compact", "Compact rows", show=False),
    ]

    def __init__(
        self,
        library: Library | None,
        store: NotesStore,
        *,
        loader: Loader | None = None,
        loading_label: str = "",
        loading_paths: Sequence[Path] = (),
        settings_file: Path | None = None,
        autosave_delay: float = AUTOSAVE_DELAY,
        notes_poll: float = NOTES_POLL,
    ) -> None:
        """Show `library`, or an empty reader that paints at once while `loader` runs.

        `loader` is a function the reader runs on a thread after its first paint (with the
        options that report the load as it goes), or a BackgroundLoad already under way, which
        the reader takes as soon as it is over; `loading_paths` are the lists it loads (where
        the user left them is saved even when they quit before the load's end).
        """
        super().__init__()
        if library is None:
            from paperdeck.core.library import Library as EmptyLibrary

            library = EmptyLibrary(papers=LoadedPapers(), lists=[])
        self.library = library
        self.papers: Papers = library.papers
        self.paper_ids: Mapping[str, int] = self.papers.numbers()
        """Each open paper's index by its id (read when first looked up)."""
        self.store = store
        store.with_abstract = lambda paper: self.library.with_abstract(paper)
        self.settings_file = settings_file
        self.settings = load_settings(settings_file) if settings_file else Settings()
        self.loading = LoadingFlow(self, loader, loading_label, loading_paths)
        self.search = SearchFlow(self)
        self.note_flow = NoteFlow(self, store, autosave_delay)
        self.citations = CitationFlow(self)
        self.enrich = EnrichFlow(self)
        self._notices: dict[str, Notification] = {}
        """The toast last shown for each slot (see `notice`)."""
        self._rows_seen = RowsSeen()
        self.triage = TriageFlow(self)
        self.session = SessionFlow(self)
        self.export = ExportFlow(self)
        self.opener = OpenFlow(self)
        self.notes_watch = NotesWatch(self, notes_poll)
        self._show_timer: Any = None
        self._last_show = 0.0
        self._quit_refused = False
        self._quitting = False
        """The reader is closing: keys typed behind `q` are dropped."""
        self._typed_ahead_ends = loader is None
        """Whether keys are commands (see _typed_ahead): from the first paint of the list's
        rows on; a list given loaded is painted before any key is read."""
        self.exit_message: str | None = None
        """The line to print after the reader closed (where unsaved notes went), if any."""
        self._previous_signal_handlers: dict[int, Any] = {}
        self.interrupted = False
        """Stopped by SIGINT: the reader exits 130, as every command interrupted does."""

    # -- layout -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield HeaderBar(id="header")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield SearchBox(id="search")
                yield SearchStatus(id="search-status")
                yield PaperList(id="papers", annotation_for=self.note_flow.annotation)
            with Vertical(id="right"):
                yield DetailPane(id="detail")
                yield NotesPanel(id="notes")
        yield KeysFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # `/` would move the focus out of the text being typed (see _TYPING_HIDES).
        return not (action in _TYPING_HIDES and isinstance(self.focused, Input | NoteEditor))

    async def on_event(self, event: events.Event) -> None:
        if self._quitting and isinstance(event, events.Key):
            # "question" typed with the list focused: q quit, and the e behind it opened the
            # export dialog on a closing reader, which stopped on an internal error. Dropped
            # here, before any binding (a priority one too): the screens are being taken down.
            return
        await super().on_event(event)

    async def _on_key(self, event: events.Key) -> None:
        # Runs before App._on_key (handlers run along the MRO); a key sent on stops there.
        if follow_focus(self, event) or self._typed_ahead(event):
            event.prevent_default()

    def _typed_ahead(self, event: events.Key) -> bool:
        """A character typed before the list's rows were first painted starts a search.

        Typed blind, before the screen showed what the keys would act on, a word is a search
        (as in fzf): read as commands, "robust" marked a paper read, opened its page, showed
        only unread papers, starred one and opened the tags dialog.
        """
        if self._typed_ahead_ends or not event.is_printable or event.character == "/":
            return False
        # Keys typed before the terminal showed anything are read at once when the reader
        # starts, and handled after its first paint: when they were read tells them apart.
        painted = self.paper_list.rows_painted_at
        if painted is not None and event.time >= painted:
            self._typed_ahead_ends = True
            return False
        if len(self.screen_stack) > 1 or isinstance(self.focused, Input | NoteEditor):
            return False
        event.stop()
        self.action_focus_search()
        forward_key(self.search_box, events.Key(event.key, event.character))
        return True

    def focus_now(self, widget: Widget) -> None:
        """Focus `widget` before the next key is handled.

        Widget.focus() waits for the message queue; keys typed right after `/` or `n` (a fast
        typist, a paste, tmux send-keys) must already land in the field.
        """
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
        self._header = self.query_one("#header", HeaderBar)
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        if self.settings.sort not in SORT_MODES:
            self.settings.sort = "relevance"
        if self.settings.rows not in ROW_LAYOUTS:
            self.settings.rows = "auto"
        self.paper_list.set_row_layout(cast("RowLayout", self.settings.rows))
        self.paper_list.empty_text = "No papers in this list" if not self.papers else "No papers"
        self.paper_list.on_highlight = self._cursor_moved
        self.paper_list.abstract_of = self._abstract_at
        self.paper_list.corrections_of = self.note_flow.shown_corrections
        self.notes.editor.on_leave = self.note_flow.leave
        self.search_box.on_leave = lambda: self.focus_now(self.paper_list)
        self.search_box.cleared = self.search.back_from_like
        self.search_box.goes_back = self.search.goes_back
        self.paper_list.set_papers(self.papers)
        self.notes.set_save_state("saved")
        self._install_signal_handlers()
        for message in [*self.library.warnings, *self.note_flow.take_messages()]:
            self.notify(one_line(message), severity="warning", markup=False, timeout=8)
        self.update_header()
        self.loading.start()
        self.notes_watch.start()

    def on_unmount(self) -> None:
        self.enrich.stop()
        self._remove_signal_handlers()

    # -- state shared by the controllers ----------------------------------------------------

    @property
    def load_error(self) -> str | None:
        """Why the list could not be loaded (the reader then exits with status 2)."""
        return self.loading.error

    def _abstract_at(self, index: int) -> str:
        """A paper's abstract for its row's hint: its own, else the search index's copy (read
        alone from the list store), else read back with its chunk."""
        paper = self.papers[index]
        if paper.abstract:
            return paper.abstract
        search_index = self.search.index
        if search_index is not None and index < len(search_index):
            from paperdeck.core.search.word_index import ABSTRACT

            return search_index.word_index.field_text(index, ABSTRACT)
        return self.library.with_abstract(paper).abstract

    @property
    def current_paper(self) -> Paper | None:
        index = self.paper_list.paper_index
        return None if index is None else self.papers[index]

    @property
    def last_copied(self) -> str:
        return self.citations.last_copied

    def entries(self) -> Mapping[str, Annotation]:
        return self.note_flow.entries()

    def notice(self, slot: str, message: str, severity: SeverityLevel = "information") -> None:
        """A toast (plain text) in place of the last one of its `slot` ("view", "marks"):
        keys pressed in a row leave one toast, saying where they ended, not a stack."""
        notify_in_place(self, self._notices, slot, message, severity=severity)

    def set_papers(self, library: Library) -> None:
        """The library the reader shows from now on; search, counts and keys start again."""
        self.library = library
        self.papers = library.papers
        self.paper_ids = self.papers.numbers()
        self.note_flow.forget_counts()
        self.citations.forget_keys()
        self.search.reset()
        self.triage.set_views(())
        self.search_box.value = ""
        # Until the index knows the papers' years, the year a list's header gives, if any.
        self.search_box.suggest_year(max((r.year for r in library.lists if r.year), default=None))

    def _list_title(self) -> str:
        if self.loading.loading:
            return self.loading.title()
        names = [raw.header or raw.name for raw in self.library.lists]
        return " + ".join(names) if names else "paperdeck"

    def update_header(self) -> None:
        noted, starred = self.note_flow.counts()
        self._header.show(
            HeaderFacts(
                title=self._list_title(),
                # Once the first rows show, the header counts them as it does a loaded list.
                loading=self.loading.loading and not self.loading.shown_so_far,
                total=len(self.papers),
                filtered=self.search.filtered,
                out_of_view=self._out_of_view(),
                noted=noted,
                starred=starred,
                marked=len(self.paper_list.marked),
                # "sort: relevance" with nothing searched named an order not shown.
                sort=SORT_MODES[self.settings.sort]
                if self.search.query.strip() or self.settings.sort == "noted"
                else "",
                index_progress=self.search.index_progress,
                activity=self.enrich.progress,
                read=self.triage.read_count(),
                view=self.triage.view_label(),
                loaded=self.loading.progress(),
                every=self.paper_list.divider,
                searched=self._searched_fewer(),
                titling=self.search.titling,
            )
        )

    def _searched_fewer(self) -> int | None:
        """How many papers the search shown covers, when fewer than the list shown has (an
        index of the rows loaded so far: see HeaderFacts.searched)."""
        covered = self.search.covered
        if self.search.filtered is None or not 0 < covered < len(self.papers):
            return None
        return covered

    def _out_of_view(self) -> int:
        if self.search.filtered is None or not self.triage.views:
            return 0
        return out_of_view(
            self.triage.views,
            self._rows_seen.of(self.paper_list.rows),
            self.entries(),
            self.paper_ids,
            self.paper_list.marked,
        )

    # -- messages from the widgets ----------------------------------------------------------

    def on_search_box_query_changed(self, message: SearchBox.QueryChanged) -> None:
        self.search.query_changed(message.query)

    def on_search_box_leave(self, message: SearchBox.Leave) -> None:
        message.stop()
        self.focus_now(self.paper_list)

    def on_app_focus(self, event: events.AppFocus) -> None:
        self.notes_watch.check()  # back from another window, perhaps from editing notes

    def on_paper_list_marks_changed(self, message: PaperList.MarksChanged) -> None:
        self.query_one(KeysFooter).show_marked(message.count)
        if message.count:
            self.triage.forget_cleared()
            self.triage.picked_last = "marks"
            if message.spaced:
                self.triage.say_marked(first_only=True)
        self.update_header()

    def on_note_editor_left(self, message: NoteEditor.Left) -> None:
        message.stop()
        self.note_flow.leave()

    def on_note_editor_edited(self, message: NoteEditor.Edited) -> None:
        self.note_flow.edited()

    def on_note_editor_blurred(self, message: NoteEditor.Blurred) -> None:
        self.note_flow.blurred()

    # -- the selected paper -----------------------------------------------------------------

    def _cursor_moved(self) -> None:
        if self.loading.panes_deferred:
            return  # the panes are painted after the list (see LoadingFlow.show)
        # A held key repeats faster than the panes need repainting: coalesce those moves.
        if time.monotonic() - self._last_show < SHOW_COALESCE:
            if self._show_timer is None:
                self._show_timer = self.set_timer(SHOW_COALESCE, self.show_current)
            return
        self.show_current()

    def show_current(self) -> None:
        """Paint the detail and notes panes for the paper under the cursor."""
        self._last_show = time.monotonic()
        if self._show_timer is not None:
            self._show_timer.stop()
            self._show_timer = None
        if not self.paper_list.is_attached:
            # A deferred call can land while the app is closing and its widgets are gone
            # (but a dialog on top is no reason to skip it).
            return
        paper = self.current_paper
        self.note_flow.show(paper)
        query = self.search.shown_query()
        related = self.search.related
        shares = found = None
        index = self.paper_list.paper_index
        whole = None if paper is None else self.library.with_abstract(paper)
        corrections = self.note_flow.corrections(paper) if paper else None
        if related is not None and index is not None and query and whole is not None:
            # Highlighted: the words that make it like the paper searched from.
            shares = Shares(related.words_of(index), index in related.seeds)
            query = words_query(shares.words, query if not isinstance(query, str) else None)
        elif whole is not None and query and not isinstance(query, str):
            # The words as the pane shows them: "√ (sqrt)", "log" for a title's "\\log", in
            # the title and authors the user corrected.
            abstract = whole.abstract if self.detail.raw else render_abstract(whole.abstract).text
            fixes = corrections or {}
            title = pane_title(whole, fixes)
            found = words_found(query, title, ", ".join(pane_authors(whole, fixes)), abstract)
        self.detail.show(
            whole,
            query=query if isinstance(query, str) else self.search.query,
            highlight=functools.partial(highlighter, query) if query else None,
            corrections=corrections,
            raw=self.detail.raw,
            cite_key=self.citations.shown_key(paper),
            shares=shares,
            found=found,
            note=self._note_of(paper),
        )

    def _note_of(self, paper: Paper | None) -> str:
        entry = self.note_flow.annotation(paper) if paper is not None else None
        return entry.note if entry is not None else ""

    # -- actions ----------------------------------------------------------------------------

    def action_focus_search(self) -> None:
        """`/`: a new search. The query shown (maybe one an earlier session left) is selected, so
        what is typed replaces it (it was appended to: "offline rl" + "diffusion" searched
        "offline rldiffusion"); End or → keeps it to edit, ↑ recalls earlier ones."""
        self.focus_now(self.search_box)
        self.search_box.select_all()

    def action_read_paper(self) -> None:
        """Enter in the list: the focus to the paper's abstract, to read it on (Esc goes back)."""
        if self.current_paper is not None:
            self.focus_now(self.detail)

    def action_back_to_list(self) -> None:
        """Esc in the abstract: back to the list, on the same paper."""
        self.focus_now(self.paper_list)

    def action_clear_search(self) -> None:
        """Esc in the list: every paper again, the search kept in the history (↑ in the field)."""
        if self.search_box.value:
            self.search_box.remember()
            self.search_box.value = self.search.back_from_like()

    def action_like_this(self) -> None:
        """List the papers most like the current one (a `like:` search the user can edit)."""
        paper = self.current_paper
        index = self.paper_list.paper_index
        if paper is not None and index is not None:
            self.search_box.remember()
            like = f"like:{paper.id}"
            self.search.went_like(like, self.search_box.value, index)
            self.search_box.value = like

    def action_toggle_raw(self) -> None:
        self.detail.raw = not self.detail.raw
        self.show_current()
        self.notify(
            "Showing the abstract's source" if self.detail.raw else "Showing the rendered abstract"
        )

    def action_edit_note(self) -> None:
        self.note_flow.edit()

    def action_read_and_next(self) -> None:
        self.triage.read_and_next()

    def action_toggle_read(self) -> None:
        self.triage.toggle_read()

    def action_toggle_star(self) -> None:
        self.triage.toggle_star()

    def action_star_and_next(self) -> None:
        self.triage.star_and_next()

    def action_skip_and_next(self) -> None:
        self.triage.skip_and_next()

    def action_edit_tags(self) -> None:
        self.triage.tag()

    def action_toggle_view(self, view: str) -> None:
        self.triage.toggle_view(view)

    def action_mark_all(self) -> None:
        self.triage.mark_all_visible()

    def action_clear_marks(self) -> None:
        self.triage.clear_marks()

    def action_invert_marks(self) -> None:
        self.triage.invert_marks()

    def action_copy_citation(self, fmt: str | None = None) -> None:
        self.citations.copy(fmt)

    def action_choose_format(self) -> None:
        self.citations.choose_format()

    def format_names(self) -> list[tuple[str, str]]:
        """(format id, label) for every citation format."""
        return self.citations.format_names()

    def action_open_link(self) -> None:
        self.opener.open("page")

    def action_open_pdf(self) -> None:
        self.opener.open("pdf")

    def action_export_reading_list(self) -> None:
        self.export.ask()

    def action_toggle_compact(self) -> None:
        """One line per paper, or two (the title, then authors · venue · tags); remembered."""
        layout: RowLayout = "two-line" if self.paper_list.compact else "compact"
        self.settings.rows = layout
        self.save_settings()
        self.paper_list.set_row_layout(layout)
        self.notify(
            "One line per paper (z: two)" if layout == "compact" else "Two lines per paper (z: one)"
        )

    def action_help(self) -> None:
        sections: list[tuple[str, Iterable[BindingType]]] = [
            ("Anywhere outside a text field", self.BINDINGS),
            ("Paper list", PaperList.BINDINGS),
            ("Abstract", DetailPane.BINDINGS),
            ("Search field", SearchBox.BINDINGS),
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
        from paperdeck.core.notes.recovery import save_or_recover

        self.note_flow.commit()
        if self.store.dirty and not self.note_flow.save() and not self._quit_refused:
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
        self.save_settings()
        self.loading.quitting()
        self.session.save()
        self._quitting = True
        self.exit(0)

    # -- settings, palette, signals ---------------------------------------------------------

    def _remember_theme(self, _theme: Any) -> None:
        if self.theme != self.settings.theme:
            self.settings.theme = self.theme
            self.save_settings()

    def save_settings(self) -> None:
        if self.settings_file is None:
            return
        error = save_settings(self.settings_file, self.settings)
        if error:
            self.notify(one_line(error), severity="warning", markup=False)

    def set_sort(self, mode: str) -> None:
        """Change the sort order (remembered) and re-run the search."""
        self.settings.sort = mode
        self.save_settings()
        self.update_header()
        self.search.run(self.search.query)
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
        yield SystemCommand(
            "Export a reading list",
            "Marked, starred or shown papers as Markdown, BibTeX, RIS, CSV or JSON (e)",
            self.export.ask,
        )
        # Named as `paperdeck related` names it: "Like this" under `l` was not found by one
        # looking for related papers in the palette or on the help screen.
        yield SystemCommand(
            "Related papers",
            "The papers most like this one, by the rare words they share (l)",
            self.action_like_this,
        )
        yield SystemCommand("Open another list", "Open a paper list from a file", self.open_list)
        yield SystemCommand(
            LOOK_UP_COMMAND,
            "Ask OpenAlex, arXiv, Semantic Scholar and Crossref about papers without a title "
            "(a few words of each abstract are sent)",
            self.enrich.start,
        )
        yield SystemCommand(
            "Copy as…",
            "Copy the selected papers' citation in a format you pick (c keeps its own)",
            self.citations.copy_as,
        )
        yield SystemCommand(
            "Rows: one line / two lines",
            "Switch between one line per paper and two (title, then authors · venue · tags) (z)",
            self.action_toggle_compact,
        )

    def export_notes(self) -> None:
        from paperdeck.ui.dialogs.path_dialog import PathDialog

        default = str(Path.cwd() / "paperdeck-notes.md")

        def done(name: str | None) -> None:
            if name:
                self.export_notes_to(Path(name).expanduser())

        self.push_screen(
            PathDialog(
                "Export notes to", default, "Markdown, or .json for JSON", asks_to_replace=True
            ),
            done,
        )

    def export_notes_to(self, path: Path) -> None:
        from paperdeck.core.notes.exchange import export_json, export_markdown

        export = export_json if path.suffix.lower() == ".json" else export_markdown
        self.citations.with_keys(
            lambda keys: self._write_notes(path, export(self.store, self.papers, keys))
        )

    def _write_notes(self, path: Path, text: str) -> None:
        from paperdeck.core.plumbing.atomic_write import replace_keeping_backup

        try:
            # Written whole or not at all; a file it replaces (asked first) is kept as NAME~.
            backup = replace_keeping_backup(path, text)
        except OSError as error:
            self.notify(
                one_line(f"Export failed: {error.strerror or error}"),
                severity="error",
                markup=False,
            )
            return
        kept = f" (the file it replaced is {backup.name})" if backup is not None else ""
        self.notify(one_line(f"Notes exported to {path.resolve()}{kept}"), markup=False)

    def open_list(self) -> None:
        from paperdeck.ui.dialogs.open_list_dialog import OpenListDialog

        def done(name: str | None) -> None:
            if name:
                self.loading.open_file(Path(name).expanduser())

        self.push_screen(OpenListDialog(self.session.lists_to_offer()), done)

    def _install_signal_handlers(self) -> None:
        # A Python-level handler, not loop.add_signal_handler: asyncio learns of a signal from
        # a byte in its wake-up socket, and a burst of keys posted as the terminal closes can
        # fill that socket, losing the SIGHUP byte (the reader then never exits). The handler
        # runs in the main thread whatever the socket holds.
        loop = asyncio.get_running_loop()

        def on_signal(signum: int, frame: FrameType | None) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nothing to save
                loop.call_soon_threadsafe(self._on_terminate_signal, signum)

        # SIGINT too: Python's own handler raises KeyboardInterrupt wherever the loop is, and
        # Textual then ends with status 0 (Ctrl-C typed in the reader is a key, not a signal).
        for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            with contextlib.suppress(ValueError):  # not the main thread: no signals here
                self._previous_signal_handlers[signum] = signal.signal(signum, on_signal)

    def _remove_signal_handlers(self) -> None:
        for signum, previous in self._previous_signal_handlers.items():
            signal.signal(signum, previous)
        self._previous_signal_handlers.clear()

    def _on_terminate_signal(self, signum: int) -> None:
        from paperdeck.core.notes.recovery import save_or_recover

        # The terminal closed or we were asked to stop: keep every word, then leave.
        self.interrupted = self.interrupted or signum == signal.SIGINT
        self.note_flow.commit()
        if self.store.dirty:
            self.exit_message = save_or_recover(self.store)
        self.session.save()
        self.exit(0)

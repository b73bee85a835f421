"""The notes panel: the selected paper's state, star and tags above an editor for its note."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Literal

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.style import Style
from textual.widgets import Static, TextArea

from paperdeck.core.model import Annotation, Paper
from paperdeck.core.text.sanitize import clean_text
from paperdeck.ui.contrast import readable_text
from paperdeck.ui.key_routing import mark_origin
from paperdeck.ui.safe_text import one_line

SaveState = Literal["saved", "unsaved", "error"]
STATE_WORDS = {"unread": "● unread", "reading": "◐ reading", "read": "✓ read"}
PLACEHOLDER_IDLE = "No note yet. Press n to write one; it saves itself."
PLACEHOLDER_EDITING = "Type the note; it saves itself. Esc goes back to the list."


class NoteEditor(TextArea):
    """The note's text area; Esc hands the focus back instead of being swallowed."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", "Leave the note", show=True),
    ]

    class Left(Message):
        """The user left the editor with Esc."""

    class Edited(Message):
        """The user changed the note's text."""

    class Blurred(Message):
        """The editor lost the focus (Tab, a click, a dialog on top)."""

    on_leave: Callable[[], None] | None = None
    """Called by Esc instead of posting Left: a message is handled too late, the focus must
    have moved before the next key is routed, or a key typed right after Esc (`q`) lands in
    the note."""
    _leaving = False

    def action_leave(self) -> None:
        if self.on_leave is not None:
            self.on_leave()
        else:
            self.post_message(self.Left())

    async def _on_key(self, event: events.Key) -> None:
        # Runs before TextArea._on_key (handlers run along the MRO). Keys routed here after
        # Esc, or reaching it once the focus has left, are not typed: they follow the focus
        # (ui.key_routing).
        mark_origin(self, event)
        if self._leaving or self.screen.focused is not self:
            event.prevent_default()
        elif event.key == "escape":
            self._leaving = True

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        event.stop()
        self.post_message(self.Edited())

    def on_resize(self) -> None:
        # TextArea wraps its lines again at the new width but does not repaint them: leaving
        # the note (the side gives the list its width back) left the lines wrapped for the
        # wide editor, cut at the narrow one's edge, until the next key or paper.
        self.refresh()

    def on_focus(self) -> None:
        self._leaving = False
        # "Press n" would be wrong once n has been pressed.
        self.placeholder = PLACEHOLDER_EDITING
        # Narrow, notices lie at the bottom, where this editor is: while a note is written
        # they go over the header instead (styles/paperdeck.tcss).
        self.screen.add_class("-writing")

    def on_blur(self) -> None:
        self.placeholder = PLACEHOLDER_IDLE
        self.screen.remove_class("-writing")
        self.post_message(self.Blurred())


class NotesPanel(Vertical):
    """Shows one paper's annotation and edits its note.

    Class `-empty` while the paper has no note and the note is not being edited: the
    stylesheet then gives the panel no room (the list row shows the paper's state already).
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        f"notes-panel--{part}" for part in ("state", "star", "tags", "saved", "unsaved", "error")
    }

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.paper: Paper | None = None
        self._annotation: Annotation | None = None
        self._save_state: SaveState | None = None  # None: not painted yet
        self._save_detail = ""
        self.loaded_text = ""
        """The note as loaded into the editor: the editor showing just this is no edit."""

    def compose(self) -> ComposeResult:
        yield Static(id="notes-status")
        yield NoteEditor(
            id="note-editor",
            soft_wrap=True,
            tab_behavior="focus",
            placeholder=PLACEHOLDER_IDLE,
        )

    @property
    def editor(self) -> NoteEditor:
        """The note's text area."""
        return self.query_one("#note-editor", NoteEditor)

    def load(self, paper: Paper | None, annotation: Annotation | None) -> None:
        """Show a paper's note and state (the caller has saved the previous paper's note)."""
        self.paper = paper
        self._annotation = annotation
        # Tabs kept: the editor shows a note as stored, so viewing it never rewrites it.
        text = clean_text(annotation.note) if annotation is not None else ""
        self.loaded_text = text
        editor = self.editor
        editor.disabled = paper is None
        if editor.text != text:
            editor.load_text(text)
        self.fold_if_empty()
        self._paint_status()

    def show_merged(self, text: str) -> None:
        """Show the note as a save merged it, changing only what differs from the editor.

        The cursor keeps its place in the text around it: before the change it stays, after
        it it moves with the text (another writer's lines usually arrive at the end).
        """
        editor = self.editor
        old = editor.text
        self.loaded_text = text
        if old == text:
            return
        prefix = 0
        limit = min(len(old), len(text))
        while prefix < limit and old[prefix] == text[prefix]:
            prefix += 1
        suffix = 0
        while suffix < limit - prefix and old[-1 - suffix] == text[-1 - suffix]:
            suffix += 1
        row, column = editor.cursor_location
        lines = old.split("\n")
        cursor = sum(len(line) + 1 for line in lines[:row]) + column
        if cursor > len(old) - suffix:  # after the change: moves with the text after it
            cursor += len(text) - len(old)
        elif cursor > prefix:  # inside the change: to its end
            cursor = len(text) - suffix
        editor.replace(
            text[prefix : len(text) - suffix],
            _location(old, prefix),
            _location(old, len(old) - suffix),
            maintain_selection_offset=False,
        )
        editor.move_cursor(_location(text, cursor))
        self.fold_if_empty()  # another writer's note unfolds the panel

    def fold_if_empty(self) -> None:
        """Fold the panel away when its paper has no note and nobody is writing one."""
        editor = self.editor
        self.set_class(not editor.text and not editor.has_focus, "-empty")

    def on_note_editor_blurred(self, message: NoteEditor.Blurred) -> None:
        self.fold_if_empty()  # the message goes on to the app

    def show_annotation(self, annotation: Annotation | None) -> None:
        """Repaint the state line after star, state or tags changed."""
        self._annotation = annotation
        self._paint_status()

    def set_save_state(self, state: SaveState, detail: str = "") -> None:
        """Saved, unsaved, or the save error in one line."""
        if (state, detail) == (self._save_state, self._save_detail):
            return  # called on every key typed in the note
        self._save_state = state
        self._save_detail = detail
        self._paint_status()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        if self.is_mounted:
            self._paint_status()  # the status holds the theme's colours

    def _style(self, part: str) -> Style:
        """A part of the status line as the styles say, its colour shaded until it reads on
        the line (4.5:1): "saved" and "unsaved" read 3.2:1 to 3.8:1 in textual-light and
        atom-one-light."""
        wanted = self.get_visual_style(f"notes-panel--{part}")
        color = wanted.foreground
        if color is not None:
            under = self.query_one("#notes-status", Static).rich_style.bgcolor
            color = readable_text(color, under, self.app.current_theme.dark)
        return Style(foreground=color, bold=wanted.bold)

    def _paint_status(self) -> None:
        annotation = self._annotation
        parts: list[Content | tuple[str, str | Style] | str] = []
        if self.paper is None:
            parts.append(("no paper", "$text-muted"))
        else:
            state = annotation.state if annotation is not None else "unread"
            parts.append((STATE_WORDS.get(state, state), self._style("state")))
            if annotation is not None and annotation.starred:
                parts.extend(["  ", ("★ starred", self._style("star"))])
            tags: Sequence[str] = annotation.tags if annotation is not None else ()
            if tags:
                parts.extend(
                    ["  ", (" ".join("#" + one_line(t) for t in tags), self._style("tags"))]
                )
        parts.append("  ")
        if self._save_state in (None, "saved"):
            parts.append(("saved", self._style("saved")))
        elif self._save_state == "unsaved":
            parts.append(("unsaved", self._style("unsaved")))
        else:
            parts.append((one_line("not saved: " + self._save_detail), self._style("error")))
        # One line of fixed size: no layout pass needed.
        self.query_one("#notes-status", Static).update(Content.assemble(*parts), layout=False)


def _location(text: str, index: int) -> tuple[int, int]:
    """The (row, column) of a character index in `text`, as the TextArea counts them."""
    row = text.count("\n", 0, index)
    return row, index - (text.rfind("\n", 0, index) + 1)

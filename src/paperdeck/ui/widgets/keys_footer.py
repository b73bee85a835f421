"""The footer: the keys a new user needs first, as many as the width holds, each one whole.

Textual's footer shows the keys in the order the bindings are declared and cuts the last ones
at the right edge: at 80 columns `e` (export), `*` (starred only), `u` and `x` had no room, and a
new user picking papers to export learned the key only from `?`. Here the keys come in the order
a triage needs them, with a shorter label on a narrow terminal; when they do not all fit, the
least needed (KEPT_FIRST) are left out whole, the others keeping their places.
"""

from __future__ import annotations

from collections.abc import Iterator

from rich.style import Style as RichStyle
from textual.app import ComposeResult
from textual.binding import Binding
from textual.events import Resize
from textual.widgets import Footer

from paperdeck.ui.contrast import BLACK, TEXT_READABLE, WHITE, readable_on, solid
from paperdeck.ui.textual_private import FooterKey, footer_bindings_ready

PINNED = ("help", "quit")
"""Shown first at every width: how to learn the other keys, and how to leave."""

LABELS: dict[str, tuple[str, str]] = {
    "focus_search": ("Search", "Search"),
    "read_and_next": ("Read+next", "Read"),
    "star_and_next": ("Star+next", "Star"),
    "toggle_mark": ("Mark", "Mark"),
    "skip_and_next": ("Skip", "Skip"),
    "toggle_view('starred')": ("Starred only", "Starred"),
    "export_reading_list": ("Export", "Export"),
    "copy_citation": ("Cite", "Cite"),
    "edit_note": ("Note", "Note"),
    "toggle_view('unread')": ("Unread only", "Unread"),
    "edit_tags": ("Tags", "Tags"),
}
"""The footer's label of each triage key (wide, narrow), in the order they are offered after
the focused pane's own keys (Esc, Enter) and PINNED: search, act on a paper and move on, pick
papers (star, mark) and export them, cite. Help and the binding keep the longer description."""

KEPT_FIRST = (
    *PINNED,
    "focus_search",
    "read_and_next",
    "star_and_next",
    "toggle_mark",
    "export_reading_list",
    "copy_citation",
    "edit_note",
    "skip_and_next",
    "toggle_view('starred')",
    "toggle_view('unread')",
    "edit_tags",
)
"""The keys in the order they keep their room: picking papers (star, space) and exporting them
before the views, which the header and `?` name. Space was last and left out below 140
columns, so a new user picking 40 papers to export never met it."""

ON_MARKED = {
    "read_and_next": ("Read", "Read"),
    "star_and_next": ("Star", "Star"),
    "copy_citation": ("Cite", "Cite"),
    "edit_tags": ("Tag", "Tags"),
}
"""The keys that act on every marked paper while some are marked, and their labels then, the
count added ("s Star 40 marked", "s Star ×40"): 40 papers marked for an export, `s` starred
all 40 and `c` copied 40 citations where a new user meant the paper under the cursor, the
footer still saying "Star+next"."""

KEPT_FIRST_MARKED = (
    *PINNED,
    "focus_search",
    "read_and_next",
    "star_and_next",
    "toggle_mark",
    "export_reading_list",
    "copy_citation",
    "edit_tags",
    "edit_note",
    "skip_and_next",
    "toggle_view('starred')",
    "toggle_view('unread')",
)
"""KEPT_FIRST while papers are marked: `t`, which tags every marked paper, keeps its room
before the note, skip and the views, which act on one paper or none of the marks. At 120
columns with papers marked, `t Tags ×4` was left out and `x Skip` kept."""

NO_ROOM = "-no-room"
"""The class of a key left out for want of room (styles: not displayed)."""


class KeysFooter(Footer):
    """Textual's footer, its keys ordered for a triage and left out whole when out of room."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._labels: dict[str, tuple[str, str]] = {}
        """Each shown key's labels (wide, narrow) by its action."""
        self._marked = 0

    def show_marked(self, count: int) -> None:
        """`count` papers are marked: the keys that act on them say so (ON_MARKED)."""
        if count != self._marked:
            self._marked = count
            self._fit()

    def _label(self, action: str, form: int) -> str:
        if self._marked and action in ON_MARKED:
            said = ON_MARKED[action][form]
            return f"{said} {self._marked:,} marked" if form == 0 else f"{said} ×{self._marked:,}"
        return self._labels[action][form]

    def compose(self) -> ComposeResult:
        if not footer_bindings_ready(self):
            return
        self._labels = {}
        for binding, enabled, tooltip in self._ordered():
            described = binding.description
            self._labels[binding.action] = LABELS.get(binding.action, (described, described))
            yield _FittedKey(
                binding.key,
                self.app.get_key_display(binding),
                self._label(binding.action, 0),
                binding.action,
                disabled=not enabled,
                tooltip=tooltip,
            ).data_bind(compact=Footer.compact)
        palette = self._palette()
        if palette is not None:
            yield palette

    def _ordered(self) -> Iterator[tuple[Binding, bool, str]]:
        """The shown bindings, one per action: the focused pane's own (Esc back from the
        abstract), then PINNED, then LABELS' in their order."""
        shown: dict[str, tuple[Binding, bool, str]] = {}
        for _, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show:
                shown.setdefault(binding.action, (binding, enabled, tooltip))
        order = [*PINNED, *LABELS]
        own = [action for action in shown if action not in order]
        for action in [*own, *(action for action in order if action in shown)]:
            yield shown[action]

    def _palette(self) -> FooterKey | None:
        """The command palette's key, docked right, as Textual's footer shows it."""
        if not (self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE):
            return None
        found = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if found is None:
            return None
        _, binding, enabled, _ = found
        return _ReadableKey(
            binding.key,
            self.app.get_key_display(binding),
            binding.description,
            binding.action,
            classes="-command-palette",
            disabled=not enabled,
            tooltip=binding.tooltip or binding.description,
        )

    async def recompose(self) -> None:
        await super().recompose()
        self.call_after_refresh(self._fit)

    def on_resize(self, event: Resize) -> None:
        # After the refresh: the screen's breakpoint class (compact keys below 100 columns)
        # has changed the keys' padding by then.
        self.call_after_refresh(self._fit)

    def refit_if_over(self) -> None:
        """Fit the keys again if, as styled now, the ones shown need more than the room: a
        key's width changed after the fit measured it (the screen's breakpoint class, which
        changes the keys' padding, can be applied after the fit that followed a resize)."""
        keys, room = self._keys_and_room()
        if sum(_width(key) for key in keys if not key.has_class(NO_ROOM)) > room:
            self._fit()

    def _keys_and_room(self) -> tuple[list[FooterKey], int]:
        """The keys but the palette's, and the room the palette's key leaves them."""
        keys = [key for key in self.query(FooterKey) if not key.has_class("-command-palette")]
        room = self.size.width - sum(
            key.outer_size.width
            for key in self.query(FooterKey)
            if key.has_class("-command-palette") and key.display
        )
        return keys, room

    def _fit(self) -> None:
        """The wide labels if every key fits with them, else the narrow ones; then each key
        the ones kept before it (KEPT_FIRST) leave no room for is left out, whole."""
        keys, room = self._keys_and_room()
        width = _width
        for form in (0, 1):
            for key in keys:
                if key.action in self._labels:
                    key.description = self._label(key.action, form)
            if sum(width(key) for key in keys) <= room:
                break
        # The focused pane's own keys (not in KEPT_FIRST) keep their room before the rest.
        kept = KEPT_FIRST_MARKED if self._marked else KEPT_FIRST
        ranked = sorted(
            keys, key=lambda key: kept.index(key.action) + 1 if key.action in kept else 0
        )
        for key in ranked:
            needs = width(key)
            fits = needs <= room
            key.set_class(not fits, NO_ROOM)
            if fits:
                room -= needs
            key.refresh(layout=True)


def _width(key: FooterKey) -> int:
    """The cells `key` takes as styled now, margin included."""
    styles = key.styles
    return key.render().cell_len + styles.gutter.width + styles.margin.width


class _ReadableKey(FooterKey):
    """A footer key whose key and label read on the footer in every theme: Textual draws the
    key in the theme's accent, which some themes make hard to read there (1.8:1 on
    atom-one-light's grey, 1.9:1 on catppuccin-latte's, 2.9:1 blue on textual-light's), and
    the label muted (3.4:1 in atom-one-dark and both solarized themes)."""

    def get_component_rich_style(
        self, *names: str, partial: bool = False, default: RichStyle | None = None
    ) -> RichStyle:
        style = super().get_component_rich_style(*names, partial=partial, default=default)
        if partial or names not in (("footer-key--key",), ("footer-key--description",)):
            return style
        color, background = style.color, style.bgcolor
        if color is None or background is None:
            return style
        if color.is_system_defined or background.is_system_defined:
            return style  # the terminal draws ANSI colours as it likes: nothing to measure
        dark = self.app.current_theme.dark
        wanted = solid(color, WHITE if dark else BLACK)
        shaded = readable_on(solid(background, BLACK if dark else WHITE), wanted, TEXT_READABLE)
        return style if shaded == wanted else style + RichStyle(color=shaded.rich_color)


class _FittedKey(_ReadableKey):
    """A footer key whose change of width, after the footer fitted its keys, has the footer
    check the fit."""

    def on_resize(self, event: Resize) -> None:
        footer = self.parent
        if isinstance(footer, KeysFooter):
            footer.call_after_refresh(footer.refit_if_over)

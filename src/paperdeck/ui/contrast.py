"""Colour contrast (WCAG 2 ratios), and match colours that stay readable over any row colour."""

from __future__ import annotations

from rich.color import Color as RichColor
from rich.terminal_theme import DEFAULT_TERMINAL_THEME
from textual.color import Color
from textual.css.styles import StylesBase
from textual.style import Style

READABLE = 3.0
"""The least contrast ratio between a highlight and what it sits on (WCAG's for large text)."""

TEXT_READABLE = 4.5
"""The least contrast ratio between text and its background (WCAG AA for normal text)."""

BLACK = Color(0, 0, 0)
WHITE = Color(255, 255, 255)


def solid(color: RichColor | None, default: Color) -> Color:
    """A Rich colour as an opaque Textual one (ANSI colours as a default terminal draws them)."""
    if color is None or color.is_default:
        return default
    return Color(*color.get_truecolor(DEFAULT_TERMINAL_THEME))


def luminance(color: Color) -> float:
    """WCAG relative luminance, 0 (black) to 1 (white)."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b)


def contrast(first: Color, second: Color) -> float:
    """WCAG contrast ratio of two opaque colours, 1 (same) to 21 (black on white)."""
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def readable_on(background: Color, preferred: Color, ratio: float = READABLE) -> Color:
    """`preferred`, or the nearest lighter/darker shade of it, with `ratio` contrast to
    `background` (a highlight over a row must stand out from the row)."""
    if contrast(preferred, background) >= ratio:
        return preferred
    # Move away from the background's lightness: lighter over dark rows, darker over light.
    lighter = luminance(background) < 0.2
    for tenth in range(1, 11):
        amount = tenth / 10
        shade = (preferred.lighten(amount) if lighter else preferred.darken(amount)).clamped
        if contrast(shade, background) >= ratio:
            return shade
    return WHITE if contrast(WHITE, background) >= contrast(BLACK, background) else BLACK


def readable_text(wanted: Color, under: RichColor | None, dark: bool) -> Color:
    """`wanted` text colour (its alpha over `under`), shaded until it reads on `under` as text
    must (4.5:1); `under` None is the terminal's background, black or white by the theme. An
    ANSI colour is the terminal's own, left to it."""
    if wanted.ansi is not None:
        return wanted
    ground = solid(under, BLACK if dark else WHITE)
    return readable_on(ground, ground + wanted, TEXT_READABLE)


def text_on(background: Color, preferred: Color | None = None) -> Color:
    """`preferred` when it reads on `background`, else black or white, whichever reads best."""
    if preferred is not None and contrast(preferred, background) >= READABLE:
        return preferred
    return WHITE if contrast(WHITE, background) >= contrast(BLACK, background) else BLACK


def match_colors(
    under: Color, wanted: Color, preferred: Color | None = None
) -> tuple[Color, Color]:
    """A match's background and text over `under` (a row, a pane): the `wanted` background,
    shaded until it stands out from `under`, and `preferred` text (its alpha over that
    background), or black or white, whichever reads on it."""
    background = readable_on(under, under + wanted)  # a translucent colour over what is under
    return background, text_on(background, None if preferred is None else background + preferred)


def match_style(component: StylesBase, under: RichColor | None, dark: bool) -> Style:
    """A search match's look, from the rules of its component class (`--match`), over `under`
    (a row's or a pane's background; None: the terminal's, black or white by the theme): its
    colours shaded until they stand out from `under` and from each other (a translucent
    background alone left black on black in some themes), its text style as the rules say."""
    background, color = match_colors(
        solid(under, BLACK if dark else WHITE),
        component.background,
        component.color if component.has_rule("color") else None,
    )
    text_style = component.text_style
    return Style(
        background=background,
        foreground=color,
        bold=text_style.bold,
        italic=text_style.italic,
        underline=text_style.underline,
    )

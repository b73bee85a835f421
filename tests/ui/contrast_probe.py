"""Reading the contrast of painted text off the screen, as the user's eye meets it."""

from __future__ import annotations

from textual.color import Color
from textual.geometry import Region

from paperdeck.ui.app import PaperdeckApp
from paperdeck.ui.contrast import contrast, solid

WHITE, BLACK = Color(255, 255, 255), Color(0, 0, 0)


def text_ratios(app: PaperdeckApp, region: Region, wanted: str) -> list[float]:
    """The contrast of each painted piece of text within `region` of the screen that has
    `wanted` (a default colour as the terminal draws it: light on dark, dark on light)."""
    dark = app.current_theme.dark
    found = []
    for y, strip in enumerate(app.screen._compositor.render_strips()):
        if not region.y <= y < region.bottom:
            continue
        for segment in strip.crop(region.x, region.right):
            if segment.style is None or wanted not in segment.text:
                continue
            ground = solid(segment.style.bgcolor, BLACK if dark else WHITE)
            ink = solid(segment.style.color, WHITE if dark else BLACK)
            found.append(contrast(ink, ground))
    return found

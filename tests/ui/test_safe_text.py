"""Untrusted text cut to fit a message: measured in the cells a terminal draws it in."""

from __future__ import annotations

from rich.cells import cell_len

from paperdeck.ui.safe_text import short


def test_a_title_in_wide_characters_is_cut_to_the_cells_a_message_gives_it() -> None:
    title = "基于深度学习的图像识别方法研究" * 4  # each character two cells wide
    said = short(title, 40)
    assert cell_len(said) <= 40 and said.endswith("…")
    assert title.startswith(said.removesuffix("…"))
    assert short("A short\ntitle") == "A short title"

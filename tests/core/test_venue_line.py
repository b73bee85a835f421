"""The venue and year line writes the year once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from paperdeck.core.venue_line import venue_line

DATA = Path(__file__).parent.parent / "data"


def test_the_year_is_written_once() -> None:
    assert venue_line("ICML", 2021) == "ICML 2021"
    long = "Proceedings of the 38th International Conference on Machine Learning (ICML 2021)"
    assert venue_line(long, 2021) == long
    assert venue_line("NeurIPS 12021 workshop", 2021) == "NeurIPS 12021 workshop 2021"
    assert venue_line(None, 2020) == "2020"
    assert venue_line("ICLR", None) == "ICLR"


def test_show_of_a_bibtex_paper_has_no_doubled_year() -> None:
    shown = subprocess.run(
        [
            sys.executable,
            "-m",
            "paperdeck",
            "show",
            "1",
            str(DATA / "formats/icml-2021.head15.bib"),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "(ICML 2021)\n" in shown and "2021) 2021" not in shown

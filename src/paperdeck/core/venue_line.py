"""A paper's venue and year as one line, the year written once."""

from __future__ import annotations

import re


def venue_line(venue: str | None, year: int | None) -> str:
    """`ICML 2021` from ("ICML", 2021); a venue that already names the year keeps it alone.

    BibTeX lists carry venues such as "Proceedings of ... (ICML 2021)": adding the year again
    showed `(ICML 2021) 2021`.
    """
    venue = (venue or "").strip()
    if year is None:
        return venue
    if venue and re.search(rf"(?<!\d){year}(?!\d)", venue):
        return venue
    return f"{venue} {year}" if venue else str(year)

"""Real titles and authors for papers: the abstract matcher, and online sources through it."""

from paperdeck.core.enrich.matcher import (
    MIN_CONFIDENCE,
    EnrichReport,
    Match,
    apply_record,
    enrich_papers,
    normalise_abstract,
    source_label,
)

__all__ = [
    "MIN_CONFIDENCE",
    "EnrichReport",
    "Match",
    "apply_record",
    "enrich_papers",
    "normalise_abstract",
    "source_label",
]

"""Citations of papers: BibTeX, BibLaTeX, RIS, CSL-JSON, keys, and APA or any CSL style."""

from paperdeck.core.citations.bibtex import bibtex_escape, bibtex_name, bibtex_title
from paperdeck.core.citations.keys import (
    CITATION_KEY_FIELD,
    KeyNotes,
    citation_keys,
    fold_ascii,
    is_stand_in,
    pattern_key,
)
from paperdeck.core.citations.output import (
    DEFAULT_FORMAT,
    FORMATS,
    Citation,
    cite,
    cite_many,
    format_label,
    is_bibtex,
    renders_with_csl,
    resolve_format,
)
from paperdeck.core.citations.record import (
    describe_missing,
    describe_provenance,
    wants_abstract,
)
from paperdeck.core.citations.styles import OFFERED_STYLES, StyleError
from paperdeck.core.citations.venues import Edition, venue_edition

__all__ = [
    "CITATION_KEY_FIELD",
    "DEFAULT_FORMAT",
    "FORMATS",
    "OFFERED_STYLES",
    "Citation",
    "Edition",
    "KeyNotes",
    "StyleError",
    "bibtex_escape",
    "bibtex_name",
    "bibtex_title",
    "citation_keys",
    "cite",
    "cite_many",
    "describe_missing",
    "describe_provenance",
    "fold_ascii",
    "format_label",
    "is_bibtex",
    "is_stand_in",
    "pattern_key",
    "renders_with_csl",
    "resolve_format",
    "venue_edition",
    "wants_abstract",
]

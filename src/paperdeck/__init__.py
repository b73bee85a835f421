"""paperdeck: a terminal reader for conference paper lists."""

__version__ = "0.1.0"

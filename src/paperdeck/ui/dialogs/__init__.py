"""The reader's modal screens: help, tags, paths, citation format and copy fallback."""

"""Notes: per-paper notes, tags and reading state kept in one JSON file."""

"""The list store: each opened list kept parsed in one SQLite file, keyed by its content."""

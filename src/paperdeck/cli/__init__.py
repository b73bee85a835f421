"""The `paperdeck` command line: one module per command family."""

"""The reader: a Textual app over the core."""

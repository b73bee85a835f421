"""The headless core: lists, papers, text, titles, search, notes, citations; no Textual or Rich."""

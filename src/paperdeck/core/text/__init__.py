"""Text jobs: sanitising untrusted text, folding it for search, rendering LaTeX and markdown."""

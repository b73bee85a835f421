"""Method names and derived titles for papers that come without one."""

UNTITLED = "(untitled)"
"""The title of a paper with neither a title nor an abstract to make one from."""

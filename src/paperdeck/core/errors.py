"""Errors the user sees as one line: `paperdeck: <message>`, exit status 2."""

from __future__ import annotations


class PaperdeckError(Exception):
    """A failure with a message fit to show the user as one line."""


class LoadError(PaperdeckError):
    """A paper list could not be read."""


class RefError(PaperdeckError):
    """A paper reference (id, id prefix or position) matched no paper or several."""


class UsageError(PaperdeckError):
    """The command line itself is wrong."""

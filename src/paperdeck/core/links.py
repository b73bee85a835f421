"""What a link found in an abstract is, by its host: code, an arXiv page, or just a link."""

from __future__ import annotations

from urllib.parse import urlsplit

CODE_HOSTS = frozenset(
    {"github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "gitee.com", "sourceforge.net"}
)
"""Hosts of code repositories: an abstract's link there is the paper's code, not its page."""


def link_kind(url: str) -> str:
    """ "Code", "arXiv" or "Link": the label a link from an abstract is shown with."""
    try:
        host = (urlsplit(url).hostname or "").lower()
    except ValueError:
        return "Link"
    host = host.removeprefix("www.")
    if host in CODE_HOSTS:
        return "Code"
    if host == "arxiv.org" or host.endswith(".arxiv.org"):
        return "arXiv"
    return "Link"

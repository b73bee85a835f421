"""The paper model: an immutable paper and the protocols the core shares."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from operator import attrgetter
from types import MappingProxyType
from typing import Any, Literal, Protocol

from paperdeck.core.names import NAMES_FIELD, PersonName, names_of

ReadingState = Literal["unread", "reading", "read"]
NO_EXTRA: Mapping[str, Any] = MappingProxyType({})
"""The `extra` of a paper without extra fields: one read-only mapping shared by all of them
(an empty dict each took 6 MiB of 100,000 papers)."""


@dataclass(frozen=True, slots=True, eq=False)
class Paper:
    """One paper of one list. Never mutated: enrichment makes a new one with `replace`."""

    id: str
    """Stable id from the abstract's normalised content (8+ hex characters)."""
    position: int
    """1-based position in its list."""
    list_name: str
    """The name of the list it came from (the file's stem)."""
    title: str
    title_derived: bool
    """True when paperdeck made the title up from the abstract."""
    abstract: str
    """The abstract's sanitised source text (LaTeX and markdown left in)."""
    method: str | None = None
    authors: tuple[str, ...] = ()
    """Display strings, given names first; `names` has their parts."""
    venue: str | None = None
    year: int | None = None
    url: str | None = None
    links: tuple[str, ...] = ()
    """Links found in the abstract, in order of appearance."""
    extra: Mapping[str, Any] = field(default_factory=lambda: NO_EXTRA)
    """Fields of the source record paperdeck has no slot for (pmlr_id, pages, arxiv ...)."""
    meta_source: str = "list"
    """Where title and authors came from: "derived", "list", "matched:SOURCE@0.97", "user"."""
    uncut_title: str | None = None
    """A made-up title cut to fit a row (see cut_title) whole, as derived when the list was
    read (`whole_title` gives it cleaned); None for any other."""

    @property
    def names(self) -> tuple[PersonName, ...]:
        """The authors in their parts: as the source gave them (kept in `extra`), else parsed."""
        return names_of(self.authors, self.extra.get(NAMES_FIELD))

    @property
    def venue_line(self) -> str:
        """ "ICML 2021": the venue and the year, the year once when the venue names it already
        ("Proceedings of ... (ICML 2021)" from a BibTeX booktitle)."""
        venue = self.venue or ""
        if self.year is None or re.search(rf"(?<!\d){self.year}(?!\d)", venue):
            return venue
        return f"{venue} {self.year}".strip()

    def with_changes(self, **changes: Any) -> Paper:
        """A copy with some fields changed."""
        # Positional, not dataclasses.replace: half the time (2 µs), and a library opened
        # without abstracts copies 100,000 papers to give an index build theirs.
        values = list(_FIELD_VALUES(self))
        for name, value in changes.items():
            at = _FIELD_AT.get(name)
            if at is None:
                raise TypeError(f"Paper has no field {name!r}")
            values[at] = value
        return Paper(*values)

    @property
    def cut_title(self) -> bool:
        """Whether its title is one paperdeck made up and cut with `…` to fit a row."""
        return self.title_derived and self.title.endswith("…")

    @property
    def rendered_title(self) -> str:
        """Its title as the reader and the commands show it, its LaTeX and markdown rendered
        (`text.render.display_title`); `title` keeps the source a citation is made of."""
        from paperdeck.core.text.render import display_title

        return display_title(self.title, made_up=self.title_derived)

    @property
    def whole_title_known(self) -> bool:
        """Whether `whole_title` can be told without the abstract it was loaded without."""
        return not self.cut_title or self.uncut_title is not None or bool(self.abstract)

    @property
    def whole_title(self) -> str:
        """Its title whole: a made-up title the list cut to fit a row, to the end of its
        phrase (as a citation gives it): kept from the list's reading, else made again from
        the abstract."""
        if not self.cut_title:
            return self.title
        # Cleaned here, not when the list is read: half of a list's made-up titles are cut.
        from paperdeck.core.text.sanitize import clean_line

        if self.uncut_title is not None:
            return clean_line(self.uncut_title) or self.title
        if self.abstract:
            from paperdeck.core.titles.derive import cited_title

            return clean_line(cited_title(self.abstract)) or self.title
        return self.title

    def to_json(self, *, title_corrected: bool | None = None) -> dict[str, Any]:
        """The object every command that prints papers as JSON uses: scripts read it, so a
        title is whole (see whole_title). `title_corrected`, when given, is said after
        `title_derived` (the commands that read the notes file say it)."""
        record = {
            "position": self.position,
            "id": self.id,
            "title": self.whole_title,
            "title_derived": self.title_derived,
            "title_corrected": title_corrected,
            "method": self.method,
            "authors": list(self.authors),
            "venue": self.venue,
            "year": self.year,
            "url": self.url,
            "links": list(self.links),
            "list": self.list_name,
            "meta_source": self.meta_source,
        }
        if title_corrected is None:
            del record["title_corrected"]
        return record


_FIELD_AT = {one.name: at for at, one in enumerate(fields(Paper))}
_FIELD_VALUES = attrgetter(*_FIELD_AT)
_TITLE_SLOT = Paper.__dict__["title"]
_METHOD_SLOT = Paper.__dict__["method"]
_UNCUT_SLOT = Paper.__dict__["uncut_title"]
_LATER = ("title", "method", "uncut_title")
"""The fields a `TitledLater` paper leaves to be derived."""


class TitledLater(Paper):
    """A paper whose made-up title, cut title and method name are derived from its abstract
    when first read (on any thread), not when its list is read: a big list is searchable
    seconds sooner, and its titles are derived after (`give_titles`). Once they are known it
    is a plain `Paper`; it is made only with `titled_later`.
    """

    __slots__ = ()

    @property
    def title(self) -> str:
        try:
            return _TITLE_SLOT.__get__(self, Paper)  # type: ignore[no-any-return]
        except AttributeError:
            self._derive()
            return _TITLE_SLOT.__get__(self, Paper)  # type: ignore[no-any-return]

    @property
    def method(self) -> str | None:
        self.title  # noqa: B018 - the three are derived together, the title set last
        return _METHOD_SLOT.__get__(self, Paper)  # type: ignore[no-any-return]

    @property
    def uncut_title(self) -> str | None:
        self.title  # noqa: B018
        return _UNCUT_SLOT.__get__(self, Paper)  # type: ignore[no-any-return]

    def __reduce__(self) -> tuple[type[Paper], tuple[Any, ...]]:
        # Copied or pickled as the plain paper it becomes.
        return Paper, tuple(_FIELD_VALUES(self))

    def _derive(self) -> None:
        from paperdeck.core.titles.derive import method_and_titles

        give_titles(self, *method_and_titles(self.abstract))


_SETTERS = {
    one.name: Paper.__dict__[one.name].__set__ for one in fields(Paper) if one.name not in _LATER
}
"""What sets each field `titled_later` takes, on a paper made without `Paper.__init__`."""


def titled_later(**values: Any) -> Paper:
    """A made-up-title paper of these field values (all but title, method and uncut_title),
    its title derived from its abstract when first read (see `TitledLater`)."""
    paper = object.__new__(TitledLater)
    setters = _SETTERS
    try:
        for name, value in values.items():
            setters[name](paper, value)
    except KeyError:
        raise TypeError(f"titled_later takes no field {name!r}") from None
    if len(values) < len(setters):
        _set_defaults(paper, values)
    return paper


def _set_defaults(paper: Paper, values: Mapping[str, Any]) -> None:
    for one in fields(Paper):
        if one.name in values or one.name in _LATER:
            continue
        if one.default is not MISSING:
            _SETTERS[one.name](paper, one.default)
        elif one.default_factory is not MISSING:
            _SETTERS[one.name](paper, one.default_factory())
        else:
            raise TypeError(f"titled_later needs field {one.name!r}")


def title_known(paper: Paper) -> bool:
    """Whether the paper's title is there to read without deriving it (see `TitledLater`)."""
    if type(paper) is not TitledLater:
        return True
    try:
        _TITLE_SLOT.__get__(paper, Paper)
    except AttributeError:
        return False
    return True


def give_titles(paper: Paper, method: str | None, title: str, uncut: str | None) -> None:
    """Set a `TitledLater` paper's derived method, title and title whole (derived elsewhere,
    as `method_and_titles` gives them), unless it has them; then it is a plain `Paper`. Any
    other paper is left as it is."""
    if type(paper) is not TitledLater or title_known(paper):
        return
    _METHOD_SLOT.__set__(paper, method)
    _UNCUT_SLOT.__set__(paper, uncut)
    _TITLE_SLOT.__set__(paper, title)  # last: a reader on another thread takes it as done
    # The same slots, so the same layout: from now on, reading a field costs what it always does.
    object.__setattr__(paper, "__class__", Paper)


class Annotation(Protocol):
    """What search and the UI read of a paper's notes-store entry."""

    @property
    def note(self) -> str: ...
    @property
    def tags(self) -> Sequence[str]: ...
    @property
    def state(self) -> str: ...
    @property
    def starred(self) -> bool: ...
    @property
    def updated(self) -> float: ...

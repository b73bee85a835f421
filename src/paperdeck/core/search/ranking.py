"""A ranking whose long tail is put in order only when something reads that far down."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar, overload

_T = TypeVar("_T")


class Ranking(Sequence[_T]):
    """The first items of a ranking as a list, the rest made by `rest` when first read.

    The list shows a result's first rows: ordering tens of thousands of papers below them
    (and making Python numbers of them) is work most keystrokes never need.
    """

    __slots__ = ("_head", "_rest", "_size")

    def __init__(self, head: list[_T], size: int, rest: Callable[[], list[_T]] | None) -> None:
        self._head = head
        self._size = size
        self._rest = rest if size > len(head) else None

    @property
    def head(self) -> list[_T]:
        """The items known without ordering the rest."""
        return self._head

    def with_head(self, head: list[_T]) -> Ranking[_T]:
        """The same ranking with its first `len(head)` items replaced by `head`."""
        return Ranking(head + self._head[len(head) :], self._size, self._rest)

    def after(self, first: list[_T] | Ranking[_T]) -> Ranking[_T]:
        """`first`, then this ranking (put in order when read past the head of `first`, if
        that one is not in order yet)."""
        if isinstance(first, Ranking):
            if first._rest is None:
                first = first._head
            else:
                head = first._head
                before = first

                def rest() -> list[_T]:
                    return before._whole()[len(head) :] + list(self)

                return Ranking(head, len(before) + self._size, rest)
        return Ranking(first + self._head, len(first) + self._size, self._rest)

    def _whole(self) -> list[_T]:
        if self._rest is not None:
            rest, self._rest = self._rest, None
            self._head = self._head + rest()
        return self._head

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, at: int) -> _T: ...

    @overload
    def __getitem__(self, at: slice) -> list[_T]: ...

    def __getitem__(self, at: int | slice) -> _T | list[_T]:
        head = self._head
        if isinstance(at, slice):
            start, stop, step = at.indices(self._size)
            if step == 1 and stop <= len(head):
                return head[start:stop]
            return self._whole()[at]
        if 0 <= at < len(head):
            return head[at]
        return self._whole()[at]

    def __iter__(self) -> Iterator[_T]:
        yield from self._head
        if self._rest is not None:
            known = len(self._head)
            yield from self._whole()[known:]

    def __eq__(self, other: object) -> bool:
        """Equal to a ranking or a list of the same items, as a list is."""
        if isinstance(other, Ranking):
            return self._whole() == other._whole()
        if isinstance(other, list):
            return self._whole() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def index(self, value: object, start: int = 0, stop: int | None = None) -> int:
        whole = self._whole()
        return whole.index(value, start, len(whole) if stop is None else stop)  # type: ignore[arg-type]

"""A mapping that keeps only its most recently used entries."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar, overload

_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")
_D = TypeVar("_D")
_MISSING = object()


class Recent(Generic[_K, _V]):
    """At most `limit` entries; storing one more forgets the one used longest ago (reading an
    entry, or storing it again, counts as a use)."""

    __slots__ = ("_kept", "limit")

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError("a Recent keeps at least one entry")
        self.limit = limit
        self._kept: OrderedDict[_K, _V] = OrderedDict()

    @overload
    def get(self, key: _K) -> _V | None: ...

    @overload
    def get(self, key: _K, default: _D) -> _V | _D: ...

    def get(self, key: _K, default: object = None) -> object:
        """The entry under `key` (now the most recently used), else `default`."""
        kept = self._kept
        value = kept.get(key, _MISSING)
        if value is _MISSING:
            return default
        kept.move_to_end(key)
        return value

    def __contains__(self, key: object) -> bool:
        """Whether an entry is kept under `key` (not a use of it)."""
        return key in self._kept

    def __getitem__(self, key: _K) -> _V:
        value = self._kept[key]
        self._kept.move_to_end(key)
        return value

    def __setitem__(self, key: _K, value: _V) -> None:
        kept = self._kept
        kept[key] = value
        kept.move_to_end(key)
        if len(kept) > self.limit:
            kept.popitem(last=False)

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        self._kept.clear()


class Generations(Generic[_K, _V]):
    """At most `limit` entries, in two generations: new entries, and entries read, go to the
    young one; when it holds half the limit, the old one is forgotten and the young one becomes
    the old. Those read longest ago go first, as in Recent, but a read is a dict lookup (a
    Recent's reorders its entries: the cost of a hit when texts are looked up by the
    thousand)."""

    __slots__ = ("_half", "_old", "_young")

    def __init__(self, limit: int) -> None:
        if limit < 2:
            raise ValueError("Generations keep at least two entries")
        self._half = limit // 2
        self._young: dict[_K, _V] = {}
        self._old: dict[_K, _V] = {}

    def get(self, key: _K) -> _V | None:
        """The entry under `key` (now in the young generation), else None."""
        value = self._young.get(key)
        if value is None:
            value = self._old.get(key)
            if value is not None:
                self[key] = value
        return value

    def __contains__(self, key: object) -> bool:
        """Whether an entry is kept under `key` (not a use of it)."""
        return key in self._young or key in self._old

    def __setitem__(self, key: _K, value: _V) -> None:
        young = self._young
        young[key] = value
        if len(young) >= self._half:
            self._old = young
            self._young = {}

    def __len__(self) -> int:
        return len(self._young) + len(self._old.keys() - self._young.keys())

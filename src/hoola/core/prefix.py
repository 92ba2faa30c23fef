"""Sharing a deal's state with its views without copying it.

:class:`Prefix` is a read-only prefix of an append-only list (a history); :func:`put` replaces
one item of a tuple, for the small per-seat facts an engine keeps as tuples so that every view
and copy can share them as they are.

An engine's public history only grows, so the first ``n`` actions never change once written.
A :class:`Prefix` holds the list and ``n``: building one is O(1) however long the deal, and it
reads like the tuple it stands for.

>>> log = ["A draw", "A discard Kd"]
>>> seen = Prefix(log)
>>> log.append("B draw")
>>> len(seen), list(seen), seen[-1], seen == ("A draw", "A discard Kd")
(2, ['A draw', 'A discard Kd'], 'A discard Kd', True)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice
from typing import Any, TypeVar, overload

__all__ = ["Prefix", "put"]

T = TypeVar("T")


class Prefix(Sequence[T]):
    """The first ``len(items)`` (at creation) items of a list that is only ever appended to."""

    __slots__ = ("_items", "_n")

    def __init__(self, items: list[T], n: int | None = None) -> None:
        self._items = items
        self._n = len(items) if n is None else n

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            return tuple(self._items[:self._n][index])
        if index < 0:
            index += self._n
        if not 0 <= index < self._n:
            raise IndexError("history index out of range")
        return self._items[index]

    def __iter__(self) -> Iterator[T]:
        return islice(self._items, self._n)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(other) == self._n and all(a == b for a, b in zip(self, other, strict=False))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Prefix({list(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (to a worker, a subprocess) as the plain tuple it stands for.
        return (tuple, (tuple(self),))


def put(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with ``items[index]`` replaced by ``value`` (a new tuple).

    >>> put((False, False, False), 1, True)
    (False, True, False)
    """
    return (*items[:index], value, *items[index + 1:])

"""Seeded chance: the engines' shuffle, the very permutation ``random.Random.shuffle`` makes.

Records and simulations name a deal by its seed, so a shuffle must stay the standard library's
own: the same draws from the generator in the same order. :func:`shuffle` makes them inline (the
Fisher-Yates loop of ``Random.shuffle`` with ``_randbelow_with_getrandbits``), which spares a
Python call per card, and compiled (docs/compiled.md) runs as C. A generator of a subclass, which
may draw its own way, is left to its own ``shuffle``.

>>> import random
>>> a, b = list(range(10)), list(range(10))
>>> random.Random(7).shuffle(a)
>>> shuffle(random.Random(7), b)
>>> a == b
True
"""

from __future__ import annotations

import random
from typing import Any

__all__ = ["shuffle"]


# The steps of the loop for each length of list shuffled.
_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` would."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    steps = _STEPS.get(len(items))
    if steps is None:
        steps = _STEPS[len(items)] = tuple((i, i + 1, (i + 1).bit_length())
                                           for i in range(len(items) - 1, 0, -1))
    for i, n, k in steps:  # a place, how many cards it may take from, the bits to draw
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]

"""Bots: players that choose from their view only.

>>> sorted(BOTS)
['greedy', 'random']
"""

from __future__ import annotations

from collections.abc import Callable

from hoola.bots.greedy import GreedyBot
from hoola.bots.random import RandomBot
from hoola.play import Player

__all__ = ["BOTS", "GreedyBot", "RandomBot", "make_bot"]

BOTS: dict[str, Callable[[int | None], Player]] = {
    "random": lambda seed: RandomBot(seed=seed),
    "greedy": lambda seed: GreedyBot(seed=seed),
}


def make_bot(name: str, seed: int | None = None) -> Player:
    """A bot by name (``random``, ``greedy``)."""
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; bots are {', '.join(sorted(BOTS))}")
    return BOTS[name](seed)

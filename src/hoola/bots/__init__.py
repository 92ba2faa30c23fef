"""Bots: players that choose from their view only.

>>> sorted(BOTS)
['expert', 'greedy', 'ismcts', 'random']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hoola.bots.expert import ExpertBot
from hoola.bots.greedy import GreedyBot
from hoola.bots.ismcts import IsmctsBot
from hoola.bots.random import RandomBot
from hoola.play import Player

__all__ = ["BOTS", "ExpertBot", "GreedyBot", "IsmctsBot", "RandomBot", "make_bot"]

BOTS: dict[str, Callable[..., Player]] = {
    "random": lambda seed, **options: RandomBot(seed=seed, **options),
    "greedy": lambda seed, **options: GreedyBot(seed=seed, **options),
    "expert": lambda seed, **options: ExpertBot(seed=seed, **options),
    "ismcts": lambda seed, **options: IsmctsBot(seed=seed, **options),
}


def make_bot(name: str, seed: int | None = None, **options: Any) -> Player:
    """A bot by name (``random``, ``greedy``, ``expert``, ``ismcts``), with its options."""
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; bots are {', '.join(sorted(BOTS))}")
    return BOTS[name](seed, **options)

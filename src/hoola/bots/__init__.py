"""Bots: players that choose from their view only.

A bot is named by its kind (:data:`BOTS`) or by a strength level (:data:`LEVELS`), which is a kind
with a budget; :func:`make_bot` accepts both.

>>> sorted(BOTS)
['expert', 'greedy', 'ismcts', 'random']
>>> bot_kinds()[len(BOTS):]
['beginner', 'easy', 'medium', 'hard', 'master']
>>> make_bot("master").name
'ismcts'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hoola.bots.ismcts import IsmctsBot
from hoola.bots.levels import LEVELS
from hoola.bots.random import RandomBot
from hoola.games.hoola.expert import ExpertBot
from hoola.games.hoola.greedy import GreedyBot
from hoola.play import Player

__all__ = ["BOTS", "LEVELS", "ExpertBot", "GreedyBot", "IsmctsBot", "RandomBot", "bot_kinds",
           "check_bot_kind", "make_bot"]

BOTS: dict[str, Callable[..., Player]] = {
    "random": lambda seed, **options: RandomBot(seed=seed, **options),
    "greedy": lambda seed, **options: GreedyBot(seed=seed, **options),
    "expert": lambda seed, **options: ExpertBot(seed=seed, **options),
    "ismcts": lambda seed, **options: IsmctsBot(seed=seed, **options),
}
"""Bot kind -> a factory taking the seed and the bot's options, weakest first."""


def bot_kinds() -> list[str]:
    """Every name :func:`make_bot` accepts: the kinds, then the strength levels."""
    return [*BOTS, *LEVELS]


def check_bot_kind(name: str) -> None:
    """Raise ``ValueError`` naming every kind and level when ``name`` is neither."""
    if name not in BOTS and name not in LEVELS:
        raise ValueError(f"unknown bot {name!r}; bots are {', '.join(BOTS)}; levels are "
                         f"{', '.join(LEVELS)}")


def make_bot(name: str, seed: int | None = None, **options: Any) -> Player:
    """A bot by kind (``random``, ``greedy``, ``expert``, ``ismcts``) or by level (``beginner``
    ... ``master``), with its options (they override a level's own)."""
    check_bot_kind(name)
    if name in LEVELS:
        kind, preset, _ = LEVELS[name]
        return BOTS[kind](seed, **{**preset, **options})
    return BOTS[name](seed, **options)

"""Strength levels for the interfaces: a named level is a bot with a budget.

A level is accepted wherever a bot kind is (``hoola play --bots``, ``hoola sim --bots``,
:func:`hoola.bots.make_bot`).

| level | bot | time budget per decision |
|---|---|---|
| beginner | random | instant |
| easy | greedy | instant |
| medium | expert | under 10 ms |
| hard | ismcts, 24 playouts | at most 0.5 s |
| master | ismcts, 96 playouts | at most 1 s |

>>> LEVELS["medium"][0]
'expert'
"""

from __future__ import annotations

from typing import Any

__all__ = ["LEVELS"]

LEVELS: dict[str, tuple[str, dict[str, Any], float]] = {
    "beginner": ("random", {}, 0.01),
    "easy": ("greedy", {}, 0.01),
    "medium": ("expert", {}, 0.01),
    "hard": ("ismcts", {"playouts": 24, "seconds": 0.5}, 0.5),
    "master": ("ismcts", {"playouts": 96, "seconds": 1.0}, 1.0),
}
"""Level name -> (bot name, bot options, stated seconds per decision), weakest first."""

"""The engines' trusted path: an action passed back as the very object a moment listed was
checked when it was listed, so applying it skips a second check.

Bots and interfaces choose from ``legal_actions`` and pass the chosen object back; anything else
(an equal action made anew, parsed from notation, or of another type altogether) is checked in
full. The lookup reads the action's seat as any value (compiled by mypyc, code that reads it as
an ``int`` would raise TypeError on garbage before the engine could refuse it with its own error).

>>> listed = {0: [("draw",)], 1: []}
>>> class Draw:
...     player = 0
>>> listed_one(listed, Draw()) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

__all__ = ["listed_one"]

A = TypeVar("A")


def listed_one(listed: Mapping[int, Sequence[A]], action: object) -> A | None:
    """``action`` itself if it is one of the objects listed for its seat in ``listed`` (the
    moment's legal actions by seat), else None."""
    p = getattr(action, "player", None)
    if type(p) is not int:
        return None
    actions = listed.get(p)
    if actions is None:
        return None
    for x in actions:
        if x is action:
            return x
    return None

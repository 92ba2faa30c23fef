"""How a table ended, read from its game: whether it is over, each seat's place and what each
took from it. The lab reads its own games with it, and ``hoola verify`` the games a record holds,
so both reach the same result.

Places and takings are the game's own (``Match.places()``, ``Match.takings()``): in Kalookie's
pool game the players still at or under the target come first, then those who went out, the last
to go first; in every other game the higher total first. Ties share a place (1, 1, 3).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

__all__ = ["ended", "places", "pool_survivors", "totals"]


def _pool_game(match: Any) -> bool:
    rules = getattr(match, "rules", None)
    return getattr(rules, "scoring", None) == "pool" and hasattr(match, "standing")


def pool_survivors(match: Any) -> list[int]:
    """The seats still at or under the target of a Kalookie pool game (empty for others)."""
    return list(match.standing.seats()) if _pool_game(match) else []


def ended(match: Any, *, until: int = 1, deals: int) -> bool:
    """Whether a table playing ``match`` is over: its last hand finished, and the game at its
    end (a pool game: ``until`` or fewer players left), or ``deals`` deals played."""
    if not match.deals or not match.deals[-1].is_over:
        return False
    if _pool_game(match):
        return len(pool_survivors(match)) <= until or len(match.deals) >= deals
    return bool(match.is_over) or len(match.deals) >= deals


def places(match: Any) -> list[int]:
    """Each seat's place at the table (1 the best; ties share), as its game ranks them."""
    return list(match.places())


def totals(match: Any) -> list[Fraction]:
    """What each seat took from the table (its game's takings: the totals, and a pool game
    that ended with several players left shares its unpaid pool among them equally)."""
    return [Fraction(t) for t in match.takings()]

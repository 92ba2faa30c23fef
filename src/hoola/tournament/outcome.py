"""How a table ended, read from its game: whether it is over, each seat's place and what each
took from it. The lab reads its own games with it, and ``hoola verify`` the games a record holds,
so both reach the same result.

Places: in Kalookie's pool game the players still at or under the target come first (the lower
penalty total first), then those who went out, the last to go first (out after the same hand: the
lower total first, then in the order the engine put them out, from the seat after the hand's
winner). In every other game, the higher total first. Ties share a place (1, 1, 3).

>>> competition_places([5, 9, 5, 2], higher=True)
[2, 1, 2, 4]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

__all__ = ["competition_places", "ended", "places", "pool_survivors", "totals"]


def competition_places(keys: Sequence[Any], *, higher: bool = False) -> list[int]:
    """Each item's place by its key, best first (the lowest key, or the highest with
    ``higher``); equal keys share the best of their places."""
    order = sorted(keys, reverse=higher)
    return [order.index(k) + 1 for k in keys]


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
    """Each seat's place at the table (1 the best; ties share)."""
    if not _pool_game(match):
        return competition_places(list(match.totals()), higher=True)
    penalty = match.standing.penalty
    went: dict[int, tuple[int, int]] = {}
    for hand, state in enumerate(match.deals):
        for q in state.out:
            went.setdefault(q, (hand, len(went)))
    keys: list[tuple[int, int, int, int]] = []
    for q in range(len(match.names)):
        if q in went:
            hand, order = went[q]
            keys.append((1, -hand, penalty[q], order))
        else:
            keys.append((0, 0, penalty[q], 0))
    return competition_places(keys)


def totals(match: Any) -> list[Fraction]:
    """What each seat took from the table: the game's totals (money, or its score); a pool game
    that ended with several players left shares its unpaid pool among them equally."""
    out = [Fraction(t) for t in match.totals()]
    if _pool_game(match) and match.winner is None and match.pool:
        alive = pool_survivors(match)
        if len(alive) >= 2:
            for q in alive:
                out[q] += Fraction(match.pool) / len(alive)
    return out

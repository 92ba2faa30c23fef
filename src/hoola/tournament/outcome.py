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

__all__ = ["ended", "gone", "places", "put_out", "still_in", "totals"]


def put_out(state: Any) -> tuple[int, ...]:
    """The seats a finished deal put out, in the order the game put them out (its outcome's
    ``out`` tag: Kalookie's players over the target); none in a game that puts nobody out."""
    return tuple(state.outcome().tags.get("out", ())) if state.is_over else ()


def gone(match: Any, deals: int | None = None) -> list[int]:
    """The seats put out so far, in order, by the first ``deals`` deals (every finished one)."""
    return [q for state in match.deals[:deals] for q in put_out(state)]


def still_in(match: Any, deals: int | None = None) -> list[int]:
    """The seats no deal has put out, after the first ``deals`` deals (every finished one)."""
    out = set(gone(match, deals))
    return [q for q in range(len(match.names)) if q not in out]


def ended(match: Any, *, until: int = 1, deals: int) -> bool:
    """Whether a table playing ``match`` is over: its last deal finished, and the game at its
    own end or down to ``until`` or fewer players (a game that puts players out), or ``deals``
    deals played."""
    if not match.deals or not match.deals[-1].is_over:
        return False
    return bool(match.is_over) or len(still_in(match)) <= until or len(match.deals) >= deals


def places(match: Any) -> list[int]:
    """Each seat's place at the table (1 the best; ties share), as its game ranks them."""
    return list(match.places())


def totals(match: Any) -> list[Fraction]:
    """What each seat took from the table (its game's takings: the totals, and a pool game
    that ended with several players left shares its unpaid pool among them equally)."""
    return [Fraction(t) for t in match.takings()]

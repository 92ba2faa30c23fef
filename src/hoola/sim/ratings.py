"""Ratings of bots with openskill (Plackett-Luce) from the games of a simulation.

Each deal is a free-for-all between the bots at the table: a bot's score in a deal is the sum of
its seats' payments, and openskill updates every bot's rating from the order of those scores.
Deals are fed in unit order, so the ratings are the same for the same simulation. Needs the
``sim`` extra.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from hoola.sim.simulation import GameOutcome

__all__ = ["Rating", "rate"]


@dataclass(frozen=True, slots=True)
class Rating:
    """A bot's openskill rating: ``mu``, its uncertainty ``sigma``, ``ordinal`` = mu - 3 sigma."""

    bot: str
    mu: float
    sigma: float
    ordinal: float
    deals: int


def rate(games: Sequence[GameOutcome], bots: Sequence[str]) -> list[Rating]:
    """openskill ratings of ``bots`` over every deal with two or more bots, best first."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {b: model.rating(name=b) for b in bots}
    counts: dict[str, int] = defaultdict(int)
    for g in games:
        present = [b for b in bots if b in g.seats]
        if len(present) < 2:
            continue
        for d in g.deals:
            scores = [sum(p for s, p in enumerate(d.payments) if g.seats[s] == b) for b in present]
            teams = model.rate([[ratings[b]] for b in present], scores=scores)
            for b, team in zip(present, teams, strict=True):
                ratings[b] = team[0]
                counts[b] += 1
    out = [Rating(b, ratings[b].mu, ratings[b].sigma, ratings[b].ordinal(), counts[b])
           for b in bots]
    return sorted(out, key=lambda r: -r.ordinal)

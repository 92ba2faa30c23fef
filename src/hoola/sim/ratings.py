"""Ratings of bots with openskill (Plackett-Luce) from the games of a simulation.

The rated contest is a *unit*: one shuffle played under every seating (duplicate deals), or one
seating of it (``--rotate``), every deal of its games counted (a match's too). A bot's score in a
unit is the stakes its seats won there, so the ratings rank bots by the same money as the stakes
table, counted as who came out ahead on each shuffle rather than by how much.

Two things made ratings of single deals contradict the stakes: a deal's order forgets the money
(a bot that wins small and often climbs past one that loses little and wins big), and the two
seatings of a duplicate shuffle were rated as two contests, so the cards' luck, which the seatings
are there to cancel, was rated as skill. The bots do not change during a run, so the ratings take
no drift between contests (openskill's ``tau`` is 0): otherwise the last units would count most.
Units are fed in order, so the ratings are the same for the same simulation. Needs the ``sim``
extra.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from hoola.sim.simulation import GameOutcome

__all__ = ["RATED", "Rating", "rate"]

RATED = "who won more stakes on each shuffle"
"""What one contest of the ratings is, as the report's title says it."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A bot's openskill rating: ``mu``, its uncertainty ``sigma``, ``ordinal`` = mu - 3 sigma,
    and ``units``, the contests it was rated on."""

    bot: str
    mu: float
    sigma: float
    ordinal: float
    units: int


def unit_scores(games: Sequence[GameOutcome], bots: Sequence[str]) -> list[dict[str, float]]:
    """Each unit's stakes won by each bot seated in it, in unit order."""
    by_unit: dict[int, dict[str, float]] = defaultdict(dict)
    for g in games:
        scores = by_unit[g.unit]
        for d in g.deals:
            for seat, paid in enumerate(d.payments):
                bot = g.seats[seat]
                if bot in bots:
                    scores[bot] = scores.get(bot, 0.0) + paid
    return [by_unit[u] for u in sorted(by_unit)]


def rate(games: Sequence[GameOutcome], bots: Sequence[str]) -> list[Rating]:
    """openskill ratings of ``bots`` over every unit with two or more of them, best first."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(tau=0.0)
    ratings = {b: model.rating(name=b) for b in bots}
    counts: dict[str, int] = defaultdict(int)
    for scores in unit_scores(games, bots):
        present = [b for b in bots if b in scores]
        if len(present) < 2:
            continue
        teams = model.rate([[ratings[b]] for b in present], scores=[scores[b] for b in present])
        for b, team in zip(present, teams, strict=True):
            ratings[b] = team[0]
            counts[b] += 1
    out = [Rating(b, ratings[b].mu, ratings[b].sigma, ratings[b].ordinal(), counts[b])
           for b in bots]
    return sorted(out, key=lambda r: -r.ordinal)

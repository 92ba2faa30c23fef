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

The server rates people with the same model (:func:`rate_ranking`): one finished match's places,
partners as teams, some entrants (bots) held fixed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hoola.core.game import places_by
from hoola.sim.simulation import GameOutcome

__all__ = ["RATED", "START", "Rating", "Skill", "places_of", "rate", "rate_places",
           "rate_ranking"]

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
    ratings = {b: START for b in bots}
    counts: dict[str, int] = defaultdict(int)
    for scores in unit_scores(games, bots):
        present = [b for b in bots if b in scores]
        if len(present) < 2:
            continue
        places = places_of([scores[b] for b in present], higher=True)
        teams = rate_ranking([[ratings[b]] for b in present], places, tau=0.0)
        for b, team in zip(present, teams, strict=True):
            ratings[b] = team[0]
            counts[b] += 1
    out = [Rating(b, ratings[b].mu, ratings[b].sigma, ratings[b].ordinal, counts[b])
           for b in bots]
    return sorted(out, key=lambda r: -r.ordinal)


@dataclass(frozen=True, slots=True)
class Skill:
    """An openskill rating as a value: ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The rating shown and ranked by: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma


def rate_ranking(teams: Sequence[Sequence[Skill]], places: Sequence[float],
                 fixed: Sequence[Sequence[bool]] | None = None, *,
                 tau: float | None = None) -> list[list[Skill]]:
    """The ratings after one contest of Plackett-Luce: ``teams`` of entrants (one each where
    everyone plays alone), their ``places`` (0 the first; equal places tie). An entrant marked
    in ``fixed`` keeps its rating (an anchor: a bot of a fixed strength). Unlike :func:`rate`,
    people change between contests, so openskill's own drift (``tau``) is kept unless ``tau``
    is given (:func:`rate` gives 0: bots do not change during a simulation).

    >>> [[a], [b]] = rate_ranking([[Skill(25, 8)], [Skill(25, 1)]], [0, 1], [[False], [True]])
    >>> a.mu > 25, b
    (True, Skill(mu=25, sigma=1))
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce() if tau is None else PlackettLuce(tau=tau)
    rated = model.rate([[model.rating(mu=e.mu, sigma=e.sigma) for e in team] for team in teams],
                       ranks=[float(p) for p in places])
    out: list[list[Skill]] = []
    for k, team in enumerate(teams):
        out.append([e if fixed is not None and fixed[k][i] else
                    Skill(rated[k][i].mu, rated[k][i].sigma) for i, e in enumerate(team)])
    return out


START = Skill(25.0, 25.0 / 3)
"""A new entrant's rating: openskill's own start."""


def places_of(values: Sequence[float], *, higher: bool = False) -> list[int]:
    """Places (0 the first; equal values tie) of contestants by ``values``, the lowest first
    (the highest with ``higher``: scores, money).

    >>> places_of([3.0, -1.0, 3.0], higher=True)
    [0, 2, 0]
    """
    return [p - 1 for p in places_by(values, higher=higher)]


def rate_places(ratings: Mapping[str, Skill], teams: Sequence[Sequence[str]],
                places: Sequence[float], anchors: Mapping[str, Skill] | None = None,
                *, tau: float | None = None) -> dict[str, Skill]:
    """:func:`rate_ranking` by name: the ratings after one finished match or table, whose
    ``teams`` of named entrants (partners together, else one each) took ``places`` (0 the
    first). An entrant missing from ``ratings`` starts at :data:`START`; one named in
    ``anchors`` plays at that fixed rating and is never moved. Returns every rated entrant's
    new rating (anchors left out).

    >>> after = rate_places({}, [["ann"], ["expert"]], [0, 1], {"expert": Skill(25.0, 1.0)})
    >>> sorted(after), after["ann"].mu > START.mu
    (['ann'], True)
    """
    fixed = dict(anchors or {})
    skills = [[fixed.get(n, ratings.get(n, START)) for n in team] for team in teams]
    held = [[n in fixed for n in team] for team in teams]
    after = rate_ranking(skills, places, held, tau=tau)
    return {n: after[k][i] for k, team in enumerate(teams) for i, n in enumerate(team)
            if n not in fixed}

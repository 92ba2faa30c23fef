"""Statistics over simulated games: stakes per deal with 95% intervals, win rates, end types.

Units (one shuffle under all its seatings) are independent, the games inside a unit are not: every
mean and interval here is taken over units. A bot's value in a unit is its average payment per
deal over all the seats it held in that unit. End kinds and tags are the game's own words (its
:class:`~hoola.core.game.Outcome`); ends are listed most frequent first, tags in the game's order.

>>> m = mean_ci([1.0, 2.0, 3.0, 4.0])
>>> round(m.mean, 2), round(m.low, 2), round(m.high, 2)
(2.5, 0.45, 4.55)
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from hoola.sim.simulation import FORFEIT, GameOutcome

__all__ = ["BotStats", "Estimate", "MissionStats", "RulesStats", "TeamStats", "bot_stats",
           "end_kinds", "margin", "mean_ci", "mission_stats", "rules_stats", "tag_names",
           "team_stats"]

Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean with its 95% confidence interval (normal approximation) and the sample size."""

    mean: float
    half: float
    n: int

    @property
    def low(self) -> float:
        """Lower end of the 95% interval."""
        return self.mean - self.half

    @property
    def high(self) -> float:
        """Upper end of the 95% interval."""
        return self.mean + self.half

    @property
    def excludes_zero(self) -> bool:
        """Whether the interval lies wholly on one side of zero."""
        return self.low > 0 or self.high < 0

    def __str__(self) -> str:
        return f"{self.mean:+.3f} ± {self.half:.3f}"


def mean_ci(values: Sequence[float]) -> Estimate:
    """The mean of ``values`` and the half-width of its 95% interval (Student's t for small n)."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, math.inf, 0)
    mean = sum(values) / n
    if n == 1:
        return Estimate(mean, math.inf, 1)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return Estimate(mean, _t95(n - 1) * math.sqrt(var / n), n)


def _t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t (a close approximation, exact in the limit)."""
    table = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
             9: 2.262, 10: 2.228, 15: 2.131, 20: 2.086, 30: 2.042, 60: 2.000, 120: 1.980}
    if df in table:
        return table[df]
    if df > 120:
        return Z95 + 2.4 / df
    keys = sorted(table)
    lo = max(k for k in keys if k < df)
    hi = min(k for k in keys if k > df)
    return table[lo] + (table[hi] - table[lo]) * (df - lo) / (hi - lo)


def end_kinds(games: Iterable[GameOutcome]) -> list[str]:
    """Every end kind the deals of ``games`` reached, the most frequent first (then by name);
    a forfeit is the simulation's, not the game's, and is left out."""
    counts: Counter[str] = Counter(d.end for g in games for d in g.deals if d.end != FORFEIT)
    return sorted(counts, key=lambda k: (-counts[k], k))


def tag_names(games: Iterable[GameOutcome]) -> list[str]:
    """Every tag the deals of ``games`` carry, in the order the game gives them."""
    seen: dict[str, None] = {}
    for g in games:
        for d in g.deals:
            for tag in d.tags:
                seen.setdefault(tag, None)
    return list(seen)


@dataclass(frozen=True, slots=True)
class BotStats:
    """One bot's results: stakes per deal, win rate, how its deals ended (``ends``: wins by end
    kind) and what befell it (``tags``), each as a share of its deals; deal length in turns
    (forfeited deals left out), time, and the deals it forfeited by breaking the protocol."""

    bot: str
    seat_deals: int
    stakes: Estimate
    win_rate: float
    ends: dict[str, float] = field(default_factory=dict)
    tags: dict[str, float] = field(default_factory=dict)
    turns: float = 0.0
    seconds_per_deal: float = 0.0
    forfeits: int = 0


def _per_unit(games: Iterable[GameOutcome], bot: str) -> dict[int, list[float]]:
    units: dict[int, list[float]] = defaultdict(list)
    for g in games:
        for d in g.deals:
            for s, b in enumerate(g.seats):
                if b == bot:
                    units[g.unit].append(d.payments[s])
    return units


def bot_stats(games: Sequence[GameOutcome], bots: Sequence[str]) -> list[BotStats]:
    """Statistics per bot, in the order of ``bots``."""
    kinds, tags = end_kinds(games), tag_names(games)
    out = []
    for bot in bots:
        units = _per_unit(games, bot)
        values = [sum(v) / len(v) for v in units.values() if v]
        count = wins = turns = played = forfeits = 0
        seconds = 0.0
        ends: Counter[str] = Counter()
        tagged: Counter[str] = Counter()
        for g in games:
            seats = [s for s, b in enumerate(g.seats) if b == bot]
            if not seats:
                continue
            seconds += g.seconds * len(seats) / len(g.seats)
            for d in g.deals:
                for s in seats:
                    count += 1
                    if d.forfeit is None:
                        played += 1
                        turns += d.turns
                    if s in d.winners:
                        wins += 1
                        ends[d.end] += 1
                    for tag, befell in d.tags.items():
                        tagged[tag] += s in befell
                    forfeits += d.forfeit == s
        if not count:
            out.append(BotStats(bot, 0, mean_ci([]), 0.0))
            continue
        out.append(BotStats(
            bot, count, mean_ci(values), wins / count,
            {e: ends[e] / count for e in kinds if ends[e]},
            {t: tagged[t] / count for t in tags}, turns / played if played else 0.0,
            seconds / count * len(games[0].seats) if games else 0.0, forfeits))
    return out


def margin(games: Sequence[GameOutcome], a: str, b: str) -> Estimate:
    """How much more ``a`` wins per deal than ``b``, paired by unit (units holding both)."""
    ua, ub = _per_unit(games, a), _per_unit(games, b)
    diffs = [sum(ua[u]) / len(ua[u]) - sum(ub[u]) / len(ub[u]) for u in ua if ub.get(u)]
    return mean_ci(diffs)


@dataclass(frozen=True, slots=True)
class TeamStats:
    """One partnership's results, named by its bots in seat order (``expert+greedy``): the
    team's stakes per deal (its seats' payments added up) and how often it won."""

    team: str
    deals: int
    stakes: Estimate
    win_rate: float


def team_stats(games: Sequence[GameOutcome]) -> list[TeamStats]:
    """Statistics per team lineup, over the games whose game has teams (none otherwise), in
    order of first appearance."""
    units: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    deals: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for g in games:
        for team in g.teams or ():
            label = "+".join(g.seats[s] for s in team)
            for d in g.deals:
                units[label][g.unit].append(sum(d.payments[s] for s in team))
                deals[label] += 1
                wins[label] += any(s in d.winners for s in team)
    return [TeamStats(label, deals[label], mean_ci([sum(v) / len(v) for v in u.values()]),
                      wins[label] / deals[label]) for label, u in units.items()]


@dataclass(frozen=True, slots=True)
class RulesStats:
    """What a rule set does: end types, stakes changing hands, the edge of each seat, counted
    from the dealer (from the first seat when the game has no dealer: ``from_dealer`` False)."""

    deals: int
    ends: dict[str, float]
    stakes: Estimate
    seat_edges: tuple[Estimate, ...]
    turns: float
    from_dealer: bool = True


def rules_stats(games: Sequence[GameOutcome], players: int) -> RulesStats:
    """End shares, stakes paid to winners per deal, and each seat's edge counted from the dealer.

    ``seat_edges[0]`` is the dealer's mean payment per deal, ``seat_edges[1]`` the next player's,
    and so on; each is averaged over the seatings of a unit first. A deal without a dealer (a
    game that has none, or a forfeited deal) is counted from the first seat.
    """
    ends: Counter[str] = Counter()
    paid: dict[int, list[float]] = defaultdict(list)
    seats: dict[int, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    count = turns = played = 0
    dealt = False
    for g in games:
        for d in g.deals:
            count += 1
            if d.forfeit is None:
                played += 1
                turns += d.turns
            ends[d.end] += 1
            dealt = dealt or d.dealer is not None
            paid[g.unit].append(sum(p for p in d.payments if p > 0))
            origin = d.dealer or 0
            for s, p in enumerate(d.payments):
                seats[(s - origin) % players][g.unit].append(p)
    edges = tuple(mean_ci([sum(v) / len(v) for v in seats[k].values()])
                  for k in range(players))
    return RulesStats(count, {e: ends[e] / count for e in end_kinds(games)},
                      mean_ci([sum(v) / len(v) for v in paid.values()]), edges,
                      turns / played if played else 0.0, dealt)


@dataclass(frozen=True, slots=True)
class MissionStats:
    """How one feat of a game's missions went: the deals that drew it, those whose winner
    achieved it, and by bot (``by_bot``: the deals a seat of that bot won with the feat)."""

    feat: str
    drawn: int
    achieved: int
    by_bot: dict[str, int] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        """The share of the deals that drew the feat whose winner achieved it."""
        return self.achieved / self.drawn if self.drawn else 0.0


def mission_stats(games: Sequence[GameOutcome], feats: Sequence[str] = (),
                  bots: Sequence[str] = ()) -> list[MissionStats]:
    """Per feat, how often the deals of ``games`` drew it and their winner achieved it, every
    deal of every seating counted (none when no deal drew a mission). ``feats`` gives the rows'
    order (the game's catalog: a feat never drawn is listed too), others follow by name;
    ``bots`` are the bots counted in ``by_bot``.

    >>> from hoola.core.game import MissionOutcome
    >>> from hoola.sim.simulation import DealOutcome, GameOutcome
    >>> deal = DealOutcome("knock", (0,), (3.0, -3.0), 0, 4, 9,
    ...                    mission=MissionOutcome("knock-low", 2, True))
    >>> [(m.feat, m.drawn, m.achieved, m.by_bot) for m in mission_stats(
    ...     [GameOutcome(0, 0, ("expert", "greedy"), (deal,), 0.1)], ["hoola", "knock-low"],
    ...     ["expert", "greedy"])]
    [('hoola', 0, 0, {'expert': 0, 'greedy': 0}), ('knock-low', 1, 1, {'expert': 1, 'greedy': 0})]
    """
    drawn: Counter[str] = Counter()
    achieved: Counter[str] = Counter()
    by_bot: dict[str, Counter[str]] = defaultdict(Counter)
    for g in games:
        for d in g.deals:
            m = d.mission
            if m is None:
                continue
            drawn[m.feat] += 1
            if m.achieved:
                achieved[m.feat] += 1
                for w in d.winners:
                    by_bot[m.feat][g.seats[w]] += 1
    if not drawn:
        return []
    order = list(dict.fromkeys([*feats, *sorted(drawn)]))
    return [MissionStats(f, drawn[f], achieved[f], {b: by_bot[f][b] for b in bots})
            for f in order]

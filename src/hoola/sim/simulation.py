"""Playing many deals between named bots: seatings, duplicate deals, and the worker pools.

A simulation is a number of *units*. A unit is one shuffle (or, for matches, one series of
shuffles) played once per seating: with ``duplicate`` every distinct rotation of the lineup plays
the same cards, so each bot holds every seat's cards equally often and the luck of the deal
cancels; without it each unit is one game with the lineup rotated by the unit's number. Units are
independent, so statistics are computed over them (:mod:`hoola.sim.stats`).

Bots are named by spec: a name from :data:`hoola.bots.BOTS`, optionally with options, as in
``ismcts:playouts=30:seconds=1``; names given in ``external`` run a command through the protocol
of ``docs/protocol.md``.

>>> from hoola.rules import Rules
>>> config = SimConfig(("expert", "greedy"), Rules.preset("pagat"), units=2, seed=1)
>>> [len(g.deals) for g in run(config, workers=1)]
[1, 1, 1, 1]
"""

from __future__ import annotations

import multiprocessing
import random
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from hoola.actions import Draw, Knock, Take
from hoola.deal import Deal
from hoola.match import next_dealer, next_stake
from hoola.play import Player, play_deal
from hoola.rules import Rules
from hoola.state import DealState

__all__ = [
    "DealOutcome",
    "GameOutcome",
    "SimConfig",
    "make_player",
    "parse_spec",
    "play_unit",
    "run",
    "run_ray",
    "seatings",
]

Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class SimConfig:
    """What to simulate.

    ``lineups`` are the bot specs around the table, each cycled over the seats (``("expert",
    "greedy")`` seats them alternately); with several lineups (a round robin) unit ``i`` plays
    lineup ``i % len(lineups)``. ``match_deals`` above 1 makes each game a match of that many
    deals, the winner dealing next.
    """

    lineup: tuple[str, ...]
    rules: Rules
    players: int = 4
    units: int = 100
    seed: int = 0
    duplicate: bool = True
    match_deals: int = 1
    records: bool = False
    external: tuple[tuple[str, str], ...] = ()
    round_robin: tuple[tuple[str, ...], ...] = ()

    def lineup_of(self, unit: int) -> tuple[str, ...]:
        """The lineup unit ``unit`` plays."""
        if self.round_robin:
            return self.round_robin[unit % len(self.round_robin)]
        return self.lineup

    @property
    def bots(self) -> tuple[str, ...]:
        """Every distinct bot spec in the simulation, in order of first appearance."""
        seen: dict[str, None] = {}
        for lineup in (self.lineup, *self.round_robin):
            for b in lineup:
                seen.setdefault(b, None)
        return tuple(seen)


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """One deal's result, by seat (seat 0 is the first seat, not necessarily the dealer)."""

    end: str
    winners: tuple[int, ...]
    payments: tuple[float, ...]
    dealer: int
    turns: int
    actions: int
    undercut: int | None = None
    payer: int | None = None


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game (a deal or a match) of one unit under one seating."""

    unit: int
    rotation: int
    seats: tuple[str, ...]
    deals: tuple[DealOutcome, ...]
    seconds: float
    record: str | None = None
    names: tuple[str, ...] = field(default=())


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """A bot spec as its name and options: ``"ismcts:playouts=30"`` -> ``("ismcts", {...})``."""
    name, *parts = spec.split(":")
    options: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise ValueError(f"bot option {part!r} in {spec!r} is not key=value")
        options[key] = _number(value)
    return name, options


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


_EXTERNAL: dict[tuple[str, int], Player] = {}


def make_player(spec: str, seed: int | None, external: Sequence[tuple[str, str]] = (),
                seat: int = 0) -> Player:
    """The player a spec names (external bots are started once per process and seat)."""
    name, options = parse_spec(spec)
    commands = dict(external)
    if name in commands:
        key = (commands[name], seat)
        player = _EXTERNAL.get(key)
        if player is None:
            from hoola.bots.external import ExternalBot
            player = _EXTERNAL[key] = ExternalBot(commands[name], name=name)
        return player
    from hoola.bots import BOTS
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; bots are {', '.join(sorted(BOTS))}")
    if not options:
        return BOTS[name](seed)
    from hoola.bots import make_bot
    return make_bot(name, seed, **options)


def seatings(lineup: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The distinct rotations of ``lineup`` cycled over ``players`` seats.

    >>> seatings(["expert", "greedy"], 4)
    [('expert', 'greedy', 'expert', 'greedy'), ('greedy', 'expert', 'greedy', 'expert')]
    """
    base = [lineup[i % len(lineup)] for i in range(players)]
    out: list[tuple[str, ...]] = []
    for r in range(players):
        seating = tuple(base[(s - r) % players] for s in range(players))
        if seating not in out:
            out.append(seating)
    return out


def _seat_names(seating: Sequence[str]) -> list[str]:
    return [f"{re.sub(r'[^A-Za-z0-9_-]', '-', parse_spec(b)[0])}-{s + 1}"
            for s, b in enumerate(seating)]


def _unit_seed(config: SimConfig, unit: int) -> int:
    return random.Random(f"{config.seed}/{unit}").randrange(2**62)


def play_unit(config: SimConfig, unit: int) -> list[GameOutcome]:
    """Play one unit: its shuffle(s) under every seating it uses."""
    rotations = seatings(config.lineup_of(unit), config.players)
    if not config.duplicate:
        k = unit % len(rotations)
        rotations = [rotations[k]]
        indices = [k]
    else:
        indices = list(range(len(rotations)))
    seed = _unit_seed(config, unit)
    return [_play_game(config, unit, index, seating, seed)
            for index, seating in zip(indices, rotations, strict=True)]


def _play_game(config: SimConfig, unit: int, rotation: int, seating: tuple[str, ...],
               seed: int) -> GameOutcome:
    from hoola.records import dumps, record_of

    start = time.perf_counter()
    rules, n = config.rules, config.players
    names = _seat_names(seating)
    players = [make_player(spec, (seed + 7919 * s) % 2**62, config.external, s)
               for s, spec in enumerate(seating)]
    dealer, stake = 0, None
    states: list[DealState] = []
    outcomes: list[DealOutcome] = []
    for d in range(config.match_deals):
        deal = Deal.shuffled(rules, n, seed=seed + d)
        # The same random source for every seating: contested claims fall the same way.
        rng = random.Random(seed + 104729 * d)
        state = DealState(rules, names, deal, dealer=dealer, stake=stake or 1, rng=rng)
        for p in players:
            begin = getattr(p, "begin_deal", None)
            if begin is not None:
                begin(state.view(players.index(p)))
        play_deal(state, players, rng)
        result = state.result
        assert result is not None
        for s, p in enumerate(players):
            finish = getattr(p, "end_deal", None)
            if finish is not None:
                finish(state.view(s))
        last = state.history[-1]
        undercut = last.player if isinstance(last, Knock) and last.player not in result.winners \
            else None
        outcomes.append(DealOutcome(
            result.end, tuple(result.winners),
            tuple(float(result.payments.get(q, 0)) for q in range(n)), state.dealer,
            sum(1 for a in state.history if isinstance(a, Draw | Take)), len(state.history),
            undercut, result.payer if undercut is None else None))
        states.append(state)
        dealer, stake = next_dealer(state), next_stake(state)
    record = dumps(record_of(states)) if config.records else None
    return GameOutcome(unit, rotation, seating, tuple(outcomes), time.perf_counter() - start,
                       record, tuple(names))


def _play_units(config: SimConfig, units: Sequence[int]) -> list[GameOutcome]:
    out: list[GameOutcome] = []
    for u in units:
        out.extend(play_unit(config, u))
    return out


def _chunks(n: int, size: int) -> Iterator[list[int]]:
    for start in range(0, n, size):
        yield list(range(start, min(n, start + size)))


def _chunk_size(config: SimConfig, workers: int) -> int:
    return max(1, min(50, config.units // (workers * 8) or 1))


def run(config: SimConfig, workers: int | None = None,
        progress: Progress | None = None) -> list[GameOutcome]:
    """Play every unit on ``workers`` processes (all cores by default), in unit order."""
    workers = workers or multiprocessing.cpu_count()
    chunks = list(_chunks(config.units, _chunk_size(config, workers)))
    games: list[GameOutcome] = []
    if workers == 1 or len(chunks) == 1:
        for chunk in chunks:
            games.extend(_play_units(config, chunk))
            if progress:
                progress(len(chunk))
    else:
        context = multiprocessing.get_context("spawn")
        with context.Pool(workers) as pool:
            jobs = [(config, chunk) for chunk in chunks]
            for chunk_games in pool.imap_unordered(_star_play_units, jobs):
                games.extend(chunk_games)
                if progress:
                    progress(len({g.unit for g in chunk_games}))
    games.sort(key=lambda g: (g.unit, g.rotation))
    return games


def _star_play_units(job: tuple[SimConfig, list[int]]) -> list[GameOutcome]:
    return _play_units(*job)


def run_ray(config: SimConfig, address: str | None,
            progress: Progress | None = None) -> list[GameOutcome]:
    """Play every unit as tasks on a Ray cluster at ``address`` (``"local"``: start one here).

    Needs the ``ray`` extra. The results are the same as :func:`run` gives for the same config.
    """
    import ray as ray_module

    ray: Any = ray_module  # Ray's API is only partly typed
    if not ray.is_initialized():
        if address in (None, "", "local"):
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    remote = ray.remote(_play_units)
    cpus = int(ray.cluster_resources().get("CPU", 1))
    chunks = list(_chunks(config.units, _chunk_size(config, cpus)))
    config_ref = ray.put(config)
    pending = [remote.remote(config_ref, chunk) for chunk in chunks]
    games: list[GameOutcome] = []
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            chunk_games = ray.get(ref)
            games.extend(chunk_games)
            if progress:
                progress(len({g.unit for g in chunk_games}))
    games.sort(key=lambda g: (g.unit, g.rotation))
    return games

"""Playing many deals of any registered game between named bots: seatings, duplicate deals,
and the worker pools.

A simulation is a number of *units*. A unit is one shuffle (or, for matches, one series of
shuffles) played once per seating: with ``duplicate`` every distinct rotation of the lineup plays
the same cards, so each bot holds every seat's cards equally often and the luck of the deal
cancels; without it each unit is one game with the lineup rotated by the unit's number. Every
seating of a unit plays a match seeded alike (``Game.new_match``), so its deals are the same
shuffles. Units are independent, so statistics are computed over them (:mod:`hoola.sim.stats`).

The game is found by name in the registry (:mod:`hoola.core.registry`) and known only through the
core's interface: a deal's money is ``returns()``, a match's ``totals()`` (a Kalookie pool and its
buy-ins included), and how a deal went is ``outcome()``.

Bots are named by spec: a kind the game is played by (:func:`hoola.bots.kinds_of`), optionally
with options, as in ``ismcts:playouts=30:seconds=1``, or a strength level (``master``); names
given in ``external`` run a command through the protocol of ``docs/protocol.md``, one process per
seat and game. An external bot that breaks the protocol forfeits the deal
(:func:`forfeit_payments`) and the game stops there; the error is kept in
:attr:`GameOutcome.errors` and the run goes on.

>>> from hoola.games.hoola.rules import Rules
>>> config = SimConfig(("expert", "greedy"), Rules.preset("pagat"), units=2, seed=1)
>>> [len(g.deals) for g in run(config, workers=1)]
[1, 1, 1, 1]
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.pool
import random
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from multiprocessing import resource_tracker
from typing import Any

from hoola.bots.external import ExternalBot, ExternalBotError, close_all, stop_all
from hoola.bots.plugin import PREFIX as PYTHON_BOT
from hoola.bots.plugin import load_bot
from hoola.core.driver import play_deal
from hoola.core.game import Game, GameState, GameWithMissions, Match, MissionOutcome, Player
from hoola.core.registry import DEFAULT_GAME, get_game

__all__ = [
    "FORFEIT",
    "BotError",
    "DealOutcome",
    "GameOutcome",
    "SimConfig",
    "forfeit_payments",
    "make_player",
    "parse_spec",
    "play_unit",
    "run",
    "run_ray",
    "seatings",
]

Progress = Callable[[int], None]
FORFEIT = "forfeit"
"""The end of a deal abandoned because a bot broke the protocol."""


@dataclass(frozen=True, slots=True)
class SimConfig:
    """What to simulate.

    ``rules`` are the game's (``Game.rules()``), ``game`` its name in the registry. ``lineup``
    are the bot specs around the table, each cycled over the seats (``("expert", "greedy")``
    seats them alternately); with several lineups (a round robin) unit ``i`` plays lineup
    ``i % len(lineups)``. ``match_deals`` above 1 makes each game a match of at most that many
    deals, as the game plays its matches (Hoola's winner deals next; Kalookie's pool game ends
    when its pool is won).
    """

    lineup: tuple[str, ...]
    rules: Any
    players: int = 4
    units: int = 100
    seed: int = 0
    duplicate: bool = True
    match_deals: int = 1
    records: bool = False
    external: tuple[tuple[str, str], ...] = ()
    round_robin: tuple[tuple[str, ...], ...] = ()
    game: str = DEFAULT_GAME

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
    """One deal's result, by seat (seat 0 is the first seat, not necessarily the dealer).

    ``end``, ``winners``, ``dealer``, ``turns`` and ``tags`` are the game's
    :class:`~hoola.core.game.Outcome`; ``payments`` the money the deal moved (in a match, the
    change in the match's totals, which holds stakes into a pool, buy-ins and the pool won).
    A forfeited deal has the end :data:`FORFEIT`, no winner, no dealer and no turns counted.
    ``mission`` is the deal's mission and its outcome where the game draws one
    (:class:`~hoola.core.game.GameWithMissions`), else None.
    """

    end: str
    winners: tuple[int, ...]
    payments: tuple[float, ...]
    dealer: int | None
    turns: int
    actions: int
    tags: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    forfeit: int | None = None
    mission: MissionOutcome | None = None


@dataclass(frozen=True, slots=True)
class BotError:
    """A bot that broke the protocol: which, where (unit, seating, deal of the game), and why."""

    bot: str
    seat: int
    unit: int
    rotation: int
    deal: int
    code: str
    reason: str
    forfeit: bool = True


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game (a deal or a match) of one unit under one seating; ``teams`` are the game's
    partnerships by seat (None when everyone plays alone)."""

    unit: int
    rotation: int
    seats: tuple[str, ...]
    deals: tuple[DealOutcome, ...]
    seconds: float
    record: str | None = None
    names: tuple[str, ...] = field(default=())
    errors: tuple[BotError, ...] = ()
    teams: tuple[tuple[int, ...], ...] | None = None


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


def make_player(spec: str, seed: int | None, external: Sequence[tuple[str, str]] = (), *,
                game: Game | str | None = None, rules: Any = None) -> Player:
    """The player a spec names for ``game`` (default hoola): a bot kind or level with options,
    an external bot's name, or a Python bot's (``external`` names it ``python:FILE:CLASS``).

    An external bot takes one option, ``timeout`` (seconds per decision, 10 by default); its
    program starts on its first message, its hello naming the game and ``rules``, and the caller
    must close it.
    """
    name, options = parse_spec(spec)
    commands = dict(external)
    if name in commands and commands[name].startswith(PYTHON_BOT):
        return load_bot(commands[name].removeprefix(PYTHON_BOT), seed, options)
    if name in commands:
        unknown = sorted(set(options) - {"timeout"})
        if unknown:
            raise ValueError(f"external bot {name!r} takes the option timeout only, not "
                             f"{', '.join(unknown)}")
        return ExternalBot(commands[name], name=name, timeout=options.get("timeout", 10.0),
                           game=game, rules=rules)
    from hoola.bots import make_bot
    return make_bot(name, seed, game=game, **options)


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


def forfeit_payments(players: int, seat: int) -> tuple[Fraction, ...]:
    """What each seat is paid when ``seat`` forfeits the deal (see ``docs/bots.md``).

    The deal is abandoned and nothing else is paid: the faulty seat pays every other seat
    ``players - 1`` units, what a last-placed loser pays a lone winner at Hoola's stake of one.
    The payments sum to zero.

    >>> [str(p) for p in forfeit_payments(4, 1)]
    ['3', '-9', '3', '3']
    """
    each = Fraction(players - 1)
    return tuple(-each * (players - 1) if q == seat else each for q in range(players))


class _Forfeit(Exception):
    """An external bot at ``seat`` broke the protocol; ``error`` says how."""

    def __init__(self, seat: int, error: ExternalBotError) -> None:
        super().__init__(seat, error)
        self.seat, self.error = seat, error


class _Guarded:
    """A seat's player whose protocol errors name the seat (play_deal does not know seats)."""

    def __init__(self, seat: int, player: Player) -> None:
        self.seat, self.player = seat, player

    def act(self, view: Any) -> Any | None:
        """The player's decision; a protocol error becomes this seat's forfeit."""
        with self.guard():
            return self.player.act(view)

    def tell(self, method: str, view: Any) -> None:
        """Pass on a ``begin_deal``/``end_deal`` message to players that take it."""
        told = getattr(self.player, method, None)
        if told is not None:
            with self.guard():
                told(view)

    @contextlib.contextmanager
    def guard(self) -> Iterator[None]:
        try:
            yield
        except ExternalBotError as exc:
            raise _Forfeit(self.seat, exc) from exc


def _deal_outcome(state: GameState, payments: Sequence[Fraction],
                  game: Game | None = None) -> DealOutcome:
    o = state.outcome()
    mission = game.mission_outcome(state) if isinstance(game, GameWithMissions) else None
    return DealOutcome(o.end, tuple(o.winners), tuple(float(p) for p in payments), o.dealer,
                       o.turns, len(state.history), dict(o.tags), mission=mission)


def _forfeit_outcome(state: GameState, seat: int) -> DealOutcome:
    payments = forfeit_payments(len(state.names), seat)
    return DealOutcome(FORFEIT, (), tuple(float(p) for p in payments), None, 0,
                       len(state.history), forfeit=seat)


def _play_game(config: SimConfig, unit: int, rotation: int, seating: tuple[str, ...],
               seed: int) -> GameOutcome:
    """Play one game; its external programs start with it and are ended with it, come what may."""
    start = time.perf_counter()
    game = get_game(config.game)
    names = _seat_names(seating)
    players = [make_player(spec, (seed + 7919 * s) % 2**62, config.external, game=game,
                           rules=config.rules)
               for s, spec in enumerate(seating)]
    clean = False
    try:
        played = _play_deals(config, game, unit, rotation, seating, seed, names, players)
        clean = True
    finally:
        programs = [p for p in players if isinstance(p, ExternalBot)]
        if clean:
            close_all(programs)
        else:
            stop_all(programs)  # after an error or Ctrl-C, no waiting
    match, outcomes, errors = played
    record = None
    if config.records and outcomes:
        comment = "".join(f"deal {e.deal + 1} {'forfeited' if e.forfeit else 'played'}; "
                          f"{names[e.seat]}: {e.reason}\n" for e in errors)
        record = game.record_text(match, comment)
    return GameOutcome(unit, rotation, seating, tuple(outcomes), time.perf_counter() - start,
                       record, tuple(names), tuple(errors),
                       game.teams(config.rules, config.players))


def _play_deals(config: SimConfig, game: Game, unit: int, rotation: int,
                seating: tuple[str, ...], seed: int, names: list[str], players: list[Player],
                ) -> tuple[Match, list[DealOutcome], list[BotError]]:
    """The deals of one game, as the game's match deals them, until the match is over or
    ``match_deals`` were played; a protocol error forfeits the deal and ends the game.

    A lone deal's money is its ``returns()``; a match's is the change in its ``totals()``, so
    what a match settles besides its deals (a pool and its buy-ins) is counted too.
    """
    match = game.new_match(config.rules, names, seed=seed)
    seats = [_Guarded(s, p) for s, p in enumerate(players)]
    outcomes: list[DealOutcome] = []
    before = [Fraction(0)] * len(names)
    for d in range(config.match_deals):
        if match.is_over:
            break
        state = match.new_deal()
        # The same random source for every seating: contested claims fall the same way.
        rng = random.Random(seed + 104729 * d)
        try:
            for s in seats:
                s.tell("begin_deal", state.view(s.seat))
            play_deal(state, seats, rng=rng)
        except _Forfeit as f:
            outcomes.append(_forfeit_outcome(state, f.seat))
            return match, outcomes, [_bot_error(seating, unit, rotation, d, f)]
        match.finish_deal()
        if config.match_deals == 1:
            payments: Sequence[Fraction] = state.returns()
        else:
            after = list(match.totals())
            payments = [a - b for a, b in zip(after, before, strict=True)]
            before = after
        outcomes.append(_deal_outcome(state, payments, game))
        try:
            for s in seats:
                s.tell("end_deal", state.view(s.seat))
        except _Forfeit as f:  # the deal was played out: it stands, the game stops here
            return match, outcomes, [_bot_error(seating, unit, rotation, d, f, forfeit=False)]
    return match, outcomes, []


def _bot_error(seating: tuple[str, ...], unit: int, rotation: int, deal: int, f: _Forfeit,
               forfeit: bool = True) -> BotError:
    return BotError(seating[f.seat], f.seat, unit, rotation, deal, f.error.code,
                    f.error.message, forfeit)


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
    with _sigterm_exits():
        if workers == 1 or len(chunks) == 1:
            for chunk in chunks:
                games.extend(_play_units(config, chunk))
                if progress:
                    progress(len(chunk))
        else:
            with _pool(workers) as pool:
                jobs = [(config, chunk) for chunk in chunks]
                for chunk_games in pool.imap_unordered(_play_job, jobs):
                    games.extend(chunk_games)
                    if progress:
                        progress(len({g.unit for g in chunk_games}))
    games.sort(key=lambda g: (g.unit, g.rotation))
    return games


def _exit_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _ignore(signum: int, frame: object) -> None:
    """A handler that does nothing (unlike ``SIG_IGN``, the programs a worker starts reset it)."""


def _worker_signals() -> None:
    """A worker's start: Ctrl-C is the main process's to answer (see :func:`_play_job`).

    A Ctrl-C at the terminal reaches the workers too (one process group). A worker that raised
    KeyboardInterrupt would die with a traceback and the pool would start another in its place,
    which could start more bots. Instead the main process terminates the pool. Both signals have
    been blocked since the worker's birth (see :func:`_pool`): none struck during its imports, and
    one that came meanwhile is delivered now.
    """
    signal.signal(signal.SIGINT, _ignore)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _POOL_SIGNALS)


_POOL_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def _pool(workers: int) -> Iterator[multiprocessing.pool.Pool]:
    """A pool of spawned workers, terminated (and waited for) when the block is left.

    Ctrl-C and SIGTERM are blocked while the pool starts: its workers (and the threads that
    replace them) inherit the mask, and here a signal waits until the pool is inside its
    ``with``, so that leaving it terminates the pool rather than abandoning half-started workers.
    """
    context = multiprocessing.get_context("spawn")
    # Started first: starting it unblocks both signals (it blocks them around its own start).
    resource_tracker.ensure_running()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, _POOL_SIGNALS)
    try:
        pool = context.Pool(workers, initializer=_worker_signals)
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        raise
    with pool:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a pending signal strikes here
        yield pool


@contextlib.contextmanager
def _sigterm_exits() -> Iterator[None]:
    """While it lasts, SIGTERM unwinds this process (finally blocks end the bots' programs)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set signal handlers
        return
    previous = signal.signal(signal.SIGTERM, _exit_on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _play_job(job: tuple[SimConfig, list[int]]) -> list[GameOutcome]:
    """A worker's task: while it runs, SIGTERM (``Pool.terminate``) unwinds it, so every game's
    ``finally`` ends its bots' programs; between tasks SIGTERM kills the worker outright.

    A Python handler only runs between bytecodes: a SIGTERM that came just before an idle
    worker's wait for the task queue's lock (which ``Pool.terminate`` holds for good) would wait
    with it forever, and the pool with it.
    """
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    try:
        return _play_units(*job)
    finally:
        # Blocked while the default comes back: a SIGTERM already caught raises here, one that
        # comes meanwhile is left to the default.
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


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
    remote = ray.remote(_play_units)  # each game ends its own bots' programs
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

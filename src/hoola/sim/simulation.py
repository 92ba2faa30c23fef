"""Playing many deals between named bots: seatings, duplicate deals, and the worker pools.

A simulation is a number of *units*. A unit is one shuffle (or, for matches, one series of
shuffles) played once per seating: with ``duplicate`` every distinct rotation of the lineup plays
the same cards, so each bot holds every seat's cards equally often and the luck of the deal
cancels; without it each unit is one game with the lineup rotated by the unit's number. Units are
independent, so statistics are computed over them (:mod:`hoola.sim.stats`).

Bots are named by spec: a name from :data:`hoola.bots.BOTS`, optionally with options, as in
``ismcts:playouts=30:seconds=1``, or a strength level (``master``); names given in ``external``
run a command through the protocol of ``docs/protocol.md``, one process per seat and game. An
external bot that breaks the protocol forfeits the deal (:func:`forfeit_payments`) and the game
stops there; the error is kept in :attr:`GameOutcome.errors` and the run goes on.

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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from multiprocessing import resource_tracker
from typing import Any

from hoola.bots.external import ExternalBot, ExternalBotError, close_all, stop_all
from hoola.games.hoola.actions import Action, Draw, Knock, Take
from hoola.games.hoola.deal import Deal
from hoola.games.hoola.match import next_dealer, next_stake
from hoola.games.hoola.rules import Rules
from hoola.games.hoola.state import DealState
from hoola.games.hoola.views import View
from hoola.play import Player, play_deal

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
    forfeit: int | None = None


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
    """One game (a deal or a match) of one unit under one seating."""

    unit: int
    rotation: int
    seats: tuple[str, ...]
    deals: tuple[DealOutcome, ...]
    seconds: float
    record: str | None = None
    names: tuple[str, ...] = field(default=())
    errors: tuple[BotError, ...] = ()


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


def make_player(spec: str, seed: int | None, external: Sequence[tuple[str, str]] = ()) -> Player:
    """The player a spec names: a bot kind or level with options, or an external bot's name.

    An external bot takes one option, ``timeout`` (seconds per decision, 10 by default); its
    program starts on its first message, and the caller must close it.
    """
    name, options = parse_spec(spec)
    commands = dict(external)
    if name in commands:
        unknown = sorted(set(options) - {"timeout"})
        if unknown:
            raise ValueError(f"external bot {name!r} takes the option timeout only, not "
                             f"{', '.join(unknown)}")
        return ExternalBot(commands[name], name=name, timeout=options.get("timeout", 10.0))
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


def forfeit_payments(state: DealState, seat: int) -> tuple[Fraction, ...]:
    """What each seat is paid when ``seat`` forfeits the deal (see ``docs/bots.md``).

    The deal is abandoned and nothing else is paid: the faulty seat pays every other seat still
    in the deal ``(seats in the deal - 1) x stake``, what a last-placed loser pays a lone winner
    before multipliers. The payments sum to zero.
    """
    others = [q for q in range(state.n) if state.in_deal[q] and q != seat]
    each = len(others) * state.stake
    return tuple(-each * len(others) if q == seat else each if q in others else Fraction(0)
                 for q in range(state.n))


class _Forfeit(Exception):
    """An external bot at ``seat`` broke the protocol; ``error`` says how."""

    def __init__(self, seat: int, error: ExternalBotError) -> None:
        super().__init__(seat, error)
        self.seat, self.error = seat, error


class _Guarded:
    """A seat's player whose protocol errors name the seat (play_deal does not know seats)."""

    def __init__(self, seat: int, player: Player) -> None:
        self.seat, self.player = seat, player

    def act(self, view: View) -> Action | None:
        """The player's decision; a protocol error becomes this seat's forfeit."""
        with self.guard():
            return self.player.act(view)

    def tell(self, method: str, view: View) -> None:
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


def _deal_outcome(state: DealState, forfeit: int | None = None) -> DealOutcome:
    turns = sum(1 for a in state.history if isinstance(a, Draw | Take))
    if forfeit is not None:
        payments = forfeit_payments(state, forfeit)
        return DealOutcome(FORFEIT, (), tuple(float(p) for p in payments), state.dealer, turns,
                           len(state.history), forfeit=forfeit)
    result = state.result
    assert result is not None
    last = state.history[-1]
    undercut = last.player if isinstance(last, Knock) and last.player not in result.winners \
        else None
    return DealOutcome(result.end, tuple(result.winners),
                       tuple(float(result.payments.get(q, 0)) for q in range(state.n)),
                       state.dealer, turns, len(state.history), undercut,
                       result.payer if undercut is None else None)


def _play_game(config: SimConfig, unit: int, rotation: int, seating: tuple[str, ...],
               seed: int) -> GameOutcome:
    """Play one game; its external programs start with it and are ended with it, come what may."""
    start = time.perf_counter()
    names = _seat_names(seating)
    players = [make_player(spec, (seed + 7919 * s) % 2**62, config.external)
               for s, spec in enumerate(seating)]
    clean = False
    try:
        game = _play_deals(config, unit, rotation, seating, seed, names, players)
        clean = True
    finally:
        programs = [p for p in players if isinstance(p, ExternalBot)]
        if clean:
            close_all(programs)
        else:
            stop_all(programs)  # after an error or Ctrl-C, no waiting
    states, outcomes, errors = game
    record = None
    if config.records and states:
        from hoola.games.hoola.records import dumps, record_of
        comment = "".join(f"# deal {e.deal + 1} {'forfeited' if e.forfeit else 'played'}; "
                          f"{names[e.seat]}: {e.reason}\n" for e in errors)
        record = dumps(record_of(states, comment=comment))
    return GameOutcome(unit, rotation, seating, tuple(outcomes), time.perf_counter() - start,
                       record, tuple(names), tuple(errors))


def _play_deals(config: SimConfig, unit: int, rotation: int, seating: tuple[str, ...],
                seed: int, names: list[str], players: list[Player],
                ) -> tuple[list[DealState], list[DealOutcome], list[BotError]]:
    """The deals of one game; a protocol error forfeits the deal and ends the game."""
    rules, n = config.rules, config.players
    seats = [_Guarded(s, p) for s, p in enumerate(players)]
    dealer, stake = 0, None
    states: list[DealState] = []
    outcomes: list[DealOutcome] = []
    for d in range(config.match_deals):
        deal = Deal.shuffled(rules, n, seed=seed + d)
        # The same random source for every seating: contested claims fall the same way.
        rng = random.Random(seed + 104729 * d)
        state = DealState(rules, names, deal, dealer=dealer, stake=stake or 1, rng=rng)
        states.append(state)
        try:
            for s in seats:
                s.tell("begin_deal", state.view(s.seat))
            play_deal(state, seats, rng)
        except _Forfeit as f:
            outcomes.append(_deal_outcome(state, f.seat))
            return states, outcomes, [_bot_error(seating, unit, rotation, d, f)]
        outcomes.append(_deal_outcome(state))
        try:
            for s in seats:
                s.tell("end_deal", state.view(s.seat))
        except _Forfeit as f:  # the deal was played out: it stands, the game stops here
            return states, outcomes, [_bot_error(seating, unit, rotation, d, f, forfeit=False)]
        dealer, stake = next_dealer(state), next_stake(state)
    return states, outcomes, []


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

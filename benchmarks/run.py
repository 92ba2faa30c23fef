#!/usr/bin/env python3
"""Benchmark: random Hoola, Kalookie and capture-game deals against OpenSpiel's ``gin_rummy``
(and a trick-taking game of OpenSpiel's, ``hearts`` by default), doing the same work per game.

Run from the repository root::

    python benchmarks/run.py [--seconds S] [--rounds R] [--players 2,3,4,5] [--kalookie 2,4]
                             [--capture 4] [--tricks hearts] [--json FILE] [--quick]
    python benchmarks/run.py --profile [--players 4] [--seconds S]

Every game starts from a fresh shuffle on both sides. Ours: a new dealt state per game
(``DealState.new(..., seed=i)``, ``game.new_deal(rules, names, seed=i)``: construction, shuffle
and deal), played with uniformly random legal moves two ways: the *state loop* drives the game
interface alone (``actors()``, ``legal_actions``, ``resolve``, ``apply``), the work OpenSpiel's
Python loop does per decision; Hoola and Kalookie also through ``play_deal``, random bots that
see only their views (a view built for every decision: the bots' own cost). Each
OpenSpiel reference is run three ways: its Python loop on a new state (``new_initial_state()``),
its Python loop on a clone of one prepared initial state (``initial.clone()``; its chance nodes
then deal), both sampling chance nodes with a uniform choice of ``legal_actions()`` (checked on
the first game to be exactly what ``chance_outcomes()`` says), and OpenSpiel's own C++ loop
(``pyspiel.evaluate_bots`` with ``make_uniform_random_bot`` per player). The headline ratio is
Hoola's state loop over gin_rummy's Python loop on a cloned state: the same work per decision.

Workloads run in interleaved rounds (every workload once per round, in a rotating order); wall
and CPU time (``time.process_time()``) are taken per round; minimum, median and maximum over the
rounds are reported, and ratios are computed between rounds of the same run.

*Player decisions* are the actions a record would hold: dealing (chance outcomes) and passes are
not. Ours: ``len(state.history)``. gin_rummy: every player action except ``Pass`` (id 54); the
trick-taking reference: every player action. A *forced* decision is one where the acting seat
had exactly one legal action, could not pass, and nobody else could act. The Python loops count
them as they play (they hold the legal actions anyway); OpenSpiel's C++ loop cannot be watched
move by move, and counting them through ``play_deal`` needs a wrapper around every bot, so for
those the first games of every round are replayed off the clock (same seed, same game; a
replay that differs is an error) and the forced share is that sample's.

OpenSpiel (``open_spiel`` on PyPI) is the benchmark's own dependency, not the package's: it is
installed with pip on first use when ``pyspiel`` cannot be imported.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.metadata
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from capture import PRESETS, capture_game, capture_players, state_loop

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

HOOLA_ENDS = ("sopang", "daepang", "knock", "out", "hoola", "sevens", "stock")
GIN_ENDS = ("knock", "wall")
GIN_DEALT = 21  # open_spiel/games/gin_rummy: 10 cards to each player and the upcard
GIN_DRAW_STOCK = 53  # kDrawStockAction: a chance node then deals the card drawn
GIN_PASS = 54  # kPassAction
GIN_KNOCK = 55  # kKnockAction
TRICK_GAMES = ("hearts", "spades", "euchre", "skat")
"""OpenSpiel trick-taking games whose chance nodes (the deal) are uniform and all come first."""
OPEN_SPIEL_REQUIREMENT = "open_spiel"
AUDITED_GAMES = 40  # games replayed off the clock per round to count forced decisions

LOOPS = {
    "state loop": "actors(), legal_actions(seat), resolve, apply",
    "play_deal": "play_deal, random bots on their views",
    "py-new": "Python loop, new_initial_state()",
    "py-clone": "Python loop, clone of one initial state",
    "cpp": "C++ evaluate_bots, uniform random bots",
}
REF_LOOPS = ("py-new", "py-clone", "cpp")
HEADLINE = "py-clone"
OUR_LOOP = "state loop"  # ours compared in the headline: the same work per decision as theirs

# A game function plays one whole game from seed ``i``: (player decisions, forced ones, end).
# The C++ loop cannot see its forced decisions and returns -1 for them (its ``audit`` counts).
Play = Callable[[int], tuple[int, int, str]]
Audit = Callable[[], tuple[int, int]]


# --------------------------------------------------------------------------------------------
# Measurement


@dataclass
class Round:
    """One round of one workload: what it played, in how much wall and CPU time."""

    games: int
    decisions: int
    forced: int  # forced decisions among ``forced_of`` decisions (all of them, or a replay)
    forced_of: int
    wall: float
    cpu: float
    ends: Counter[str]

    @property
    def games_per_s(self) -> float:
        """Games per wall-clock second."""
        return self.games / self.wall

    @property
    def decisions_per_s(self) -> float:
        """Player decisions per wall-clock second."""
        return self.decisions / self.wall

    @property
    def cpu_decisions_per_s(self) -> float:
        """Player decisions per second of this process's CPU time."""
        return self.decisions / self.cpu if self.cpu > 0 else float("nan")

    @property
    def forced_share(self) -> float:
        """The share of forced decisions (over the decisions they were counted in)."""
        return self.forced / self.forced_of if self.forced_of else float("nan")

    @property
    def choices_per_s(self) -> float:
        """Decisions with a real choice per wall-clock second (estimated from the share where
        forced ones were counted in a replayed sample)."""
        return self.decisions_per_s * (1 - self.forced_share)


@dataclass
class Workload:
    """One engine, player count and loop, measured round after round."""

    engine: str  # "hoola", "kalookie", "capture", "gin_rummy" or the trick-taking reference
    players: int
    loop: str  # a key of LOOPS
    play: Play
    preset: str = ""
    audit: Audit | None = None
    reference: bool = False
    rounds: list[Round] = field(default_factory=list)
    next_seed: int = 1
    peak_kib: list[float] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The engine, with its preset where it has one."""
        return f"{self.engine} {self.preset}" if self.preset else self.engine

    @property
    def label(self) -> str:
        """Engine, preset, players and loop: unique within a run."""
        return f"{self.name} {self.players}p {self.loop}"

    def run_round(self, budget: float) -> Round:
        """Play whole games from fresh seeds for ``budget`` seconds of wall time."""
        play = self.play
        ends: Counter[str] = Counter()
        games = decisions = forced = 0
        seed = self.next_seed
        cpu_start = time.process_time()
        start = time.perf_counter()
        deadline = start + budget
        while True:
            d, f, end = play(seed)
            seed += 1
            games += 1
            decisions += d
            forced += f
            ends[end] += 1
            now = time.perf_counter()
            if now >= deadline:
                break
        cpu = time.process_time() - cpu_start
        self.next_seed = seed
        forced_of = decisions
        if self.audit is not None:  # after the clock: a replay of some of the round's games
            forced, forced_of = self.audit()
        r = Round(games, decisions, forced, forced_of, now - start, cpu, ends)
        self.rounds.append(r)
        return r

    def values(self, attr: str) -> list[float]:
        """``attr`` of every round, in round order."""
        return [float(getattr(r, attr)) for r in self.rounds]

    def median(self, attr: str) -> float:
        """The median of ``attr`` over the rounds."""
        return float(statistics.median(self.values(attr)))

    def spread(self, attr: str) -> tuple[float, float, float]:
        """Minimum, median and maximum of ``attr`` over the rounds."""
        values = self.values(attr)
        return min(values), float(statistics.median(values)), max(values)

    def ends(self) -> Counter[str]:
        """How the games of every round ended."""
        total: Counter[str] = Counter()
        for r in self.rounds:
            total.update(r.ends)
        return total

    def total(self, attr: str) -> int:
        """``attr`` summed over the rounds (games, decisions, forced, forced_of)."""
        return sum(int(getattr(r, attr)) for r in self.rounds)


def ratio_of(a: Workload, b: Workload, attr: str = "decisions_per_s") -> dict[str, Any]:
    """``attr`` of ``a`` over ``b``: the ratio of their medians and the ratio in each round
    (round *i* of both ran in the same interleaved round)."""
    per_round = [x / y for x, y in zip(a.values(attr), b.values(attr), strict=False)]
    return {"ratio": a.median(attr) / b.median(attr), "per_round": per_round}


def traced_peak_kib(play: Play, seed: int) -> float:
    """tracemalloc's peak while one game is set up and played, in KiB."""
    gc.collect()
    tracemalloc.start()
    try:
        play(seed)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / 1024


def max_rss_mib() -> float:
    """This process's peak resident memory, in MiB."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports KiB, macOS bytes.
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def load_average() -> tuple[float, float, float] | None:
    """The machine's 1, 5 and 15-minute load averages, where the system tells them."""
    try:
        return os.getloadavg()
    except (AttributeError, OSError):
        return None


# --------------------------------------------------------------------------------------------
# OpenSpiel references


def ensure_open_spiel(allow_install: bool = True) -> Any | None:
    """Import ``pyspiel``, installing ``open_spiel`` with pip first if it is missing."""
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        if not allow_install:
            return None
    print(
        f"pyspiel not importable: installing {OPEN_SPIEL_REQUIREMENT} with pip ...", file=sys.stderr
    )
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", OPEN_SPIEL_REQUIREMENT]
    proc = subprocess.run(cmd, check=False)
    if proc.returncode != 0:
        print(f"'{' '.join(cmd)}' failed (exit {proc.returncode})", file=sys.stderr)
        return None
    importlib.invalidate_caches()
    try:
        return importlib.import_module("pyspiel")
    except ImportError as exc:
        print(f"pyspiel still not importable after install: {exc}", file=sys.stderr)
        return None


def check_uniform_chance(state: Any, name: str, seed: int = 0) -> int:
    """Play ``state`` out at random, checking that every chance node's outcomes are equally
    likely; return how many chance nodes there were. A ValueError (one line) otherwise."""
    rng = random.Random(seed)
    nodes = 0
    while not state.is_terminal():
        if state.is_chance_node():
            nodes += 1
            probs = [p for _, p in state.chance_outcomes()]
            if max(probs) - min(probs) > 1e-9:
                raise ValueError(f"{name}: a chance node's outcomes are not equally likely, so "
                                 "this benchmark cannot sample them with a uniform choice")
        state.apply_action(rng.choice(state.legal_actions()))
    return nodes


@dataclass(frozen=True)
class Reference:
    """An OpenSpiel game as a reference: which player actions are not decisions, how to count
    decisions from a finished game's ``history()`` and how to name its end."""

    name: str
    game: Any
    passes: frozenset[int]
    decisions_in: Callable[[list[int]], int]
    end_of: Callable[[list[int]], str]

    @property
    def players(self) -> int:
        """The game's number of players."""
        return int(self.game.num_players())


def gin_decisions(history: list[int]) -> int:
    """gin_rummy's player decisions in a finished game's history: all but the 21 dealt cards,
    the card dealt after every draw from the stock, and passes (checked against a replay)."""
    return len(history) - GIN_DEALT - history.count(GIN_DRAW_STOCK) - history.count(GIN_PASS)


def gin_end(history: list[int]) -> str:
    """``knock`` (gin included) or ``wall``."""
    return "knock" if GIN_KNOCK in history else "wall"


def load_reference(pyspiel: Any, name: str) -> Reference:
    """``name`` loaded and checked: its chance nodes uniform (a ValueError otherwise) and, for
    gin_rummy, the action ids this benchmark relies on."""
    game = pyspiel.load_game(name)
    initial = game.new_initial_state()
    nodes = check_uniform_chance(initial.clone(), name)
    if name == "gin_rummy":
        for action, word in ((GIN_DRAW_STOCK, "Draw stock"), (GIN_PASS, "Pass"),
                             (GIN_KNOCK, "Knock")):
            text = initial.action_to_string(0, action)
            if word not in text:
                raise ValueError(f"gin_rummy action {action} is {text!r}, expected {word!r}")
        return Reference(name, game, frozenset({GIN_PASS}), gin_decisions, gin_end)
    # The trick-taking games deal every card before the first player acts (checked by replay).
    return Reference(name, game, frozenset(), lambda h: len(h) - nodes, lambda h: "played")


def python_loop(ref: Reference, fresh: bool, keep: list[Any] | None = None) -> Play:
    """Random games driven from Python: a uniform choice of ``legal_actions()`` at every node,
    chance nodes included; a new initial state per game (``fresh``) or a clone of one. Finished
    states are appended to ``keep`` when given (for tests)."""
    initial = ref.game.new_initial_state()
    new_state = ref.game.new_initial_state
    clone = initial.clone
    passes = ref.passes
    end_of = ref.end_of

    def play(seed: int) -> tuple[int, int, str]:
        choice = random.Random(seed).choice
        state = new_state() if fresh else clone()
        decisions = forced = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.legal_actions()))
                continue
            actions = state.legal_actions()
            action = choice(actions)
            if action not in passes:
                decisions += 1
                if len(actions) == 1:
                    forced += 1
            state.apply_action(action)
        if keep is not None:
            keep.append(state)
        return decisions, forced, end_of(state.history())

    return play


def replay(ref: Reference, history: Sequence[int]) -> tuple[int, int]:
    """Decisions and forced decisions of a finished game, counted by replaying its actions."""
    state = ref.game.new_initial_state()
    decisions = forced = 0
    for action in history:
        if not state.is_chance_node() and action not in ref.passes:
            decisions += 1
            if len(state.legal_actions()) == 1:
                forced += 1
        state.apply_action(action)
    return decisions, forced


def cpp_loop(pyspiel: Any, ref: Reference, audited: int = AUDITED_GAMES) -> tuple[Play, Audit]:
    """OpenSpiel's own C++ loop: ``evaluate_bots`` plays a clone of one initial state in place
    with a uniform random bot per player, chance sampled in C++ from ``chance_outcomes()``.

    Decisions are counted exactly from the finished game's ``history()``; the first ``audited``
    games of a round are kept and, off the clock, replayed by ``audit`` to count their forced
    decisions and to check that count (a RuntimeError if it disagrees with the replay).
    """
    initial = ref.game.new_initial_state()
    clone = initial.clone
    evaluate = pyspiel.evaluate_bots
    bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in range(ref.players)]
    decisions_in = ref.decisions_in
    end_of = ref.end_of
    kept: list[list[int]] = []

    def play(seed: int) -> tuple[int, int, str]:
        state = clone()
        evaluate(state, bots, seed)
        history = state.history()
        if len(kept) < audited:
            kept.append(history)
        return decisions_in(history), -1, end_of(history)

    def audit() -> tuple[int, int]:
        forced = decisions = 0
        for history in kept:
            d, f = replay(ref, history)
            if d != decisions_in(history):
                raise RuntimeError(f"{ref.name}: {decisions_in(history)} decisions counted from "
                                   f"the history, {d} on replay")
            decisions += d
            forced += f
        kept.clear()
        return forced, decisions

    return play, audit


def reference_workloads(pyspiel: Any, name: str) -> list[Workload]:
    """The three loops of one reference (a ValueError names a game this benchmark cannot use)."""
    ref = load_reference(pyspiel, name)
    play, audit = cpp_loop(pyspiel, ref)
    return [Workload(name, ref.players, "py-new", python_loop(ref, True), reference=True),
            Workload(name, ref.players, "py-clone", python_loop(ref, False), reference=True),
            Workload(name, ref.players, "cpp", play, audit=audit, reference=True)]


# --------------------------------------------------------------------------------------------
# Our engines


class Tally:
    """Counts forced decisions while ``play_deal`` plays: one seat asked, one legal action and
    no pass allowed (``on_action`` hears every applied action)."""

    __slots__ = ("asked", "forced", "single")

    def __init__(self) -> None:
        self.asked = self.single = self.forced = 0

    def on_action(self, state: Any, record: Any) -> None:
        """Close the step: forced when its only asked seat had one option."""
        if self.asked == 1 and self.single:
            self.forced += 1
        self.asked = self.single = 0


class TallyBot:
    """A bot that tells ``tally`` what it was offered, then lets ``bot`` choose."""

    __slots__ = ("bot", "tally")

    def __init__(self, bot: Any, tally: Tally) -> None:
        self.bot = bot
        self.tally = tally

    def act(self, view: Any) -> Any:
        """``bot``'s choice on ``view``."""
        tally = self.tally
        tally.asked += 1
        if len(view.legal) == 1 and not view.can_pass:
            tally.single += 1
        return self.bot.act(view)


@dataclass
class HoolaApi:
    """The parts of the engine this benchmark uses, imported from this checkout."""

    Rules: Any
    DealState: Any
    RandomBot: Any
    play_deal: Any
    get_game: Any
    version: str


def import_hoola() -> HoolaApi:
    """Import the engine from this checkout's ``src/`` (ahead of any installed copy)."""
    if SRC.is_dir() and str(SRC) not in sys.path:
        sys.path.insert(0, str(SRC))
    package = importlib.import_module("hoola")
    hoola = importlib.import_module("hoola.games.hoola")
    bots = importlib.import_module("hoola.bots")
    driver = importlib.import_module("hoola.core.driver")
    registry = importlib.import_module("hoola.core.registry")
    return HoolaApi(
        Rules=hoola.Rules,
        DealState=hoola.DealState,
        RandomBot=bots.RandomBot,
        play_deal=driver.play_deal,
        get_game=registry.get_game,
        version=str(getattr(package, "__version__", "?")),
    )


def driven(deal: Callable[[int], Any], play_deal: Any, random_bot: Any, players: int,
           audited: int = AUDITED_GAMES) -> tuple[Play, Audit]:
    """Deals from ``deal(seed)`` played by ``play_deal`` with the package's random bot (seed
    ``i``) at every seat, claims included, as the loop measured; and the audit that replays, off
    the clock, the first ``audited`` deals of a round with a :class:`Tally` to count their forced
    decisions (the same seeds play the same deals: a RuntimeError if a replay differs)."""
    kept: list[tuple[int, int]] = []

    def play(seed: int) -> tuple[int, int, str]:
        state = deal(seed)
        play_deal(state, [random_bot(seed=seed)] * players, rng=random.Random(seed))
        if not state.is_over:
            raise RuntimeError(f"{players}p deal (seed {seed}) not over after play_deal")
        decisions = len(state.history)
        if len(kept) < audited:
            kept.append((seed, decisions))
        return decisions, -1, str(state.result.end)

    def audit() -> tuple[int, int]:
        forced = decisions = 0
        for seed, expected in kept:
            d, f = tallied(deal, play_deal, random_bot, players, seed)
            if d != expected:
                raise RuntimeError(f"seed {seed} replayed {d} decisions, played {expected}")
            decisions += d
            forced += f
        kept.clear()
        return forced, decisions

    return play, audit


def tallied(deal: Callable[[int], Any], play_deal: Any, random_bot: Any, players: int,
            seed: int, bot: type[TallyBot] = TallyBot) -> tuple[int, int]:
    """Decisions and forced decisions of deal ``seed`` played as :func:`driven` plays it."""
    tally = Tally()
    state = deal(seed)
    play_deal(state, [bot(random_bot(seed=seed), tally)] * players, rng=random.Random(seed),
              on_action=tally.on_action)
    return len(state.history), tally.forced


def hoola_deal(api: HoolaApi, players: int) -> Callable[[int], Any]:
    """Pagat deals: ``DealState.new(rules, players=n, seed=i)`` (construction, shuffle, deal)."""
    rules = api.Rules.preset("pagat")
    new = api.DealState.new
    return lambda seed: new(rules, players=players, seed=seed)


def kalookie_deal(api: HoolaApi, players: int, preset: str = "british") -> Callable[[int], Any]:
    """Kalookie hands (british rules unless told): ``game.new_deal(rules, names, seed=i)``."""
    game = api.get_game("kalookie")
    rules = game.rules(preset)
    names = [f"P{i}" for i in range(players)]
    new_deal = game.new_deal
    return lambda seed: new_deal(rules, names, seed=seed)


def hoola_game(api: HoolaApi, players: int) -> tuple[Play, Audit]:
    """Random pagat deals through the driver's ``play_deal`` (claim windows included)."""
    return driven(hoola_deal(api, players), api.play_deal, api.RandomBot, players)


def kalookie_game(api: HoolaApi, players: int) -> tuple[Play, Audit]:
    """Random Kalookie hands through the driver's ``play_deal``, as Hoola's are played."""
    return driven(kalookie_deal(api, players), api.play_deal, api.RandomBot, players)


# --------------------------------------------------------------------------------------------
# Output


class Out:
    """Rich tables when Rich is importable, aligned plain text otherwise."""

    def __init__(self, plain: bool = False) -> None:
        self.console: Any = None
        if not plain:
            try:
                from rich.console import Console
            except ImportError:
                pass
            else:
                # Wide enough for every table when the output goes to a file or a pipe.
                self.console = Console(width=None if sys.stdout.isatty() else 200)

    def line(self, text: str = "") -> None:
        """Print one line of text."""
        if self.console is not None:
            self.console.print(text, highlight=False, markup=False)
        else:
            print(text)

    def table(
        self, title: str, headers: Sequence[str], rows: Sequence[Sequence[str]], note: str = ""
    ) -> None:
        """Print a table: a title, its columns (the first left-aligned) and a note under it."""
        if self.console is not None:
            from rich.table import Table

            t = Table(title=title, caption=note or None, title_justify="left",
                      caption_justify="left")
            for i, h in enumerate(headers):  # a narrow terminal folds cells, never cuts them
                t.add_column(h, justify="left" if i == 0 else "right", overflow="fold")
            for row in rows:
                t.add_row(*row)
            self.console.print()
            self.console.print(t)
            return
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

        def fmt(cells: Sequence[str]) -> str:
            return "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(cells, widths, strict=True))
            )

        print(f"\n{title}")
        print(fmt(headers))
        print("  ".join("-" * w for w in widths))
        for row in rows:
            print(fmt(row))
        if note:
            print(note)


def num(x: float) -> str:
    """A rate, to three significant figures or so."""
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def pct(part: float, whole: float) -> str:
    """``part`` as a percentage of ``whole``."""
    return f"{100 * part / whole:.1f}%" if whole else "-"


def spread_cell(w: Workload, attr: str) -> str:
    """``median (min-max)`` of ``attr`` over the rounds."""
    lo, mid, hi = w.spread(attr)
    return f"{num(mid)} ({num(lo)}-{num(hi)})"


def ratio_cell(entry: dict[str, Any] | None) -> str:
    """A ratio of medians with its per-round range."""
    if entry is None:
        return "-"
    rounds = entry["per_round"]
    return f"{entry['ratio']:.2f} ({min(rounds):.2f}-{max(rounds):.2f})"


def throughput_table(workloads: Sequence[Workload], rounds: int, out: Out) -> None:
    """Games/s, decisions/s by wall and CPU time, decisions a game and the forced share."""
    rows = []
    for w in workloads:
        forced, of = w.total("forced"), w.total("forced_of")
        forced_cell = pct(forced, of) + ("" if of == w.total("decisions") else f" in {of:,}")
        rows.append([w.name, str(w.players), w.loop, num(w.median("games_per_s")),
                     spread_cell(w, "decisions_per_s"), spread_cell(w, "cpu_decisions_per_s"),
                     f"{sum(w.values('cpu')) / sum(w.values('wall')):.0%}",
                     f"{w.total('decisions') / w.total('games'):.1f}", forced_cell,
                     f"{w.total('games'):,}"])
    out.table(
        f"Throughput, median (min-max) over {rounds} rounds",
        ["engine", "players", "loop", "games/s", "decisions/s (wall)", "decisions/CPU s",
         "CPU/wall", "dec./game", "forced", "games"],
        rows,
        note="decisions: player actions a record holds (no dealing, no passes); forced: one "
        "legal action, no pass, nobody else to act ('in N': counted in N decisions of games "
        "replayed off the clock); loops: " + "; ".join(f"{k} = {v}" for k, v in LOOPS.items()),
    )


def ratio_tables(ours: Sequence[Workload], refs: dict[str, Workload], reference: str,
                 out: Out) -> dict[str, dict[str, Any]]:
    """Print ours ÷ the reference's loops by wall and by CPU time; return them as JSON data."""
    data: dict[str, dict[str, Any]] = {}
    loops = [loop for loop in REF_LOOPS if loop in refs]
    if not loops or not ours:
        return data
    wall_rows, cpu_rows = [], []
    for w in ours:
        entry: dict[str, Any] = {}
        for loop in loops:
            entry[f"wall/{loop}"] = ratio_of(w, refs[loop])
            entry[f"cpu/{loop}"] = ratio_of(w, refs[loop], "cpu_decisions_per_s")
        if HEADLINE in refs:
            entry[f"choices/{HEADLINE}"] = ratio_of(w, refs[HEADLINE], "choices_per_s")
        named = w.reference or w.loop != OUR_LOOP
        key = f"{w.name} {w.players}p" + (f" {w.loop}" if named else "")
        data[key] = entry
        label = [w.name + (f" {w.loop}" if named else ""), str(w.players)]
        wall_rows.append([*label, *(ratio_cell(entry[f"wall/{loop}"]) for loop in loops),
                          ratio_cell(entry.get(f"choices/{HEADLINE}"))])
        cpu_rows.append([*label, *(ratio_cell(entry[f"cpu/{loop}"]) for loop in loops)])
    heads = [f"÷ {loop}" + (" (headline)" if loop == HEADLINE else "") for loop in loops]
    out.table(f"Decisions/s ÷ {reference}, wall clock (ratio of medians; per-round range)",
              ["workload", "players", *heads, f"choices ÷ {HEADLINE}"], wall_rows,
              note="choices: decisions that were not forced")
    out.table(f"Decisions per CPU second ÷ {reference} (ratio of medians; per-round range)",
              ["workload", "players", *heads], cpu_rows)
    return data


# --------------------------------------------------------------------------------------------
# Main


def parse_counts(p: argparse.ArgumentParser, text: str, option: str, lo: int, hi: int,
                 none: bool = True) -> list[int]:
    """Comma-separated player counts within [lo, hi] (or ``none``), else a usage error."""
    if none and text.strip() == "none":
        return []
    try:
        counts = sorted({int(x) for x in text.split(",") if x.strip()})
    except ValueError:
        p.error(f"{option} takes comma-separated integers, e.g. 2,4" + (", or none" if none
                                                                          else ""))
    if not counts and not none:
        p.error(f"{option} needs at least one player count")
    if any(n < lo or n > hi for n in counts):
        p.error(f"{option} must be between {lo} and {hi}")
    return counts


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line, checked (a usage error names the bad option)."""
    p = argparse.ArgumentParser(
        description="Random Hoola, Kalookie and capture-game deals vs OpenSpiel's gin_rummy and "
        "a trick-taking game (Python loops and OpenSpiel's C++ loop): decisions/s by wall and "
        "CPU time, forced decisions, end types, peak memory, ratios."
    )
    p.add_argument("--seconds", type=float, default=None,
                   help="measured seconds per workload, split over the rounds "
                   "(default 6; 0.6 with --quick)")
    p.add_argument("--rounds", type=int, default=None,
                   help="interleaved rounds; min/median/max are over these "
                   "(default 5; 3 with --quick)")
    p.add_argument("--players", default="2,3,4,5", help="Hoola player counts, e.g. 2,3,4,5")
    p.add_argument("--kalookie", default="2,4", metavar="PLAYERS",
                   help="Kalookie player counts (default 2,4; 'none' to leave Kalookie out)")
    p.add_argument("--kalookie-presets", default="", metavar="PRESETS",
                   help="also Kalookie's state loop under these presets (comma-separated, or "
                   "'all' for every preset but british), at each --kalookie count they allow")
    p.add_argument("--capture", default="4", metavar="PLAYERS",
                   help="capture-game player counts, each preset at those it is played by "
                   f"({', '.join(PRESETS)}; default 4; 'none' to leave them out)")
    p.add_argument("--tricks", default="hearts", choices=[*TRICK_GAMES, "none"],
                   help="OpenSpiel's trick-taking reference for the capture games "
                   "(default hearts)")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE")
    p.add_argument("--quick", action="store_true", help="a short run (CI smoke check)")
    p.add_argument("--plain", action="store_true", help="plain text even when Rich is importable")
    p.add_argument("--no-install", action="store_true",
                   help="do not pip-install open_spiel when missing")
    p.add_argument("--profile", action="store_true",
                   help="instead of benchmarking, cProfile Hoola deals for --seconds "
                   "(first of --players) and print the hottest functions")
    args = p.parse_args(argv)
    args.players = parse_counts(p, args.players, "--players", 2, 5, none=False)
    args.kalookie = parse_counts(p, args.kalookie, "--kalookie", 2, 6)
    args.capture = parse_counts(p, args.capture, "--capture", 2, 6)
    args.kalookie_presets = parse_kalookie_presets(p, args.kalookie_presets)
    if args.seconds is None:
        args.seconds = 0.6 if args.quick else 6.0
    if args.rounds is None:
        args.rounds = 3 if args.quick else 5
    if not args.seconds > 0 or args.rounds < 1:
        p.error("--seconds must be positive and --rounds at least 1")
    return args


def parse_kalookie_presets(p: argparse.ArgumentParser, text: str) -> list[str]:
    """The Kalookie presets of ``--kalookie-presets`` besides british (a usage error otherwise)."""
    if SRC.is_dir() and str(SRC) not in sys.path:
        sys.path.insert(0, str(SRC))
    known = [k for k in importlib.import_module("hoola.games.kalookie.rules").PRESETS
             if k != "british"]
    names = [x.strip() for x in text.split(",") if x.strip()]
    if names == ["all"]:
        return known
    for name in names:
        if name not in known:
            p.error(f"--kalookie-presets: {name!r} is not one of {', '.join(known)} (or 'all'; "
                    "british is measured by --kalookie)")
    return names


def profile(api: HoolaApi, players: int, seconds: float, out: Out) -> int:
    """cProfile Hoola deals for ``seconds`` and print the hottest functions."""
    import cProfile
    import io
    import pstats

    play, _ = hoola_game(api, players)
    play(0)
    prof = cProfile.Profile()
    games = decisions = 0
    seed = 1
    deadline = time.perf_counter() + seconds
    prof.enable()
    while time.perf_counter() < deadline:
        d, _, _ = play(seed)
        seed += 1
        games += 1
        decisions += d
    prof.disable()
    out.line(f"cProfile: {games} {players}-player deals, {decisions} decisions")
    buf = io.StringIO()
    stats = pstats.Stats(prof, stream=buf).strip_dirs()
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(25)
    print(buf.getvalue())
    return 0


def our_workloads(api: HoolaApi, args: argparse.Namespace) -> list[Workload]:
    """Hoola, Kalookie and the capture games at the player counts asked for."""
    workloads = []
    for engine, preset, counts, make in (("hoola", "pagat", args.players, hoola_game),
                                         ("kalookie", "british", args.kalookie, kalookie_game)):
        for n in counts:
            if engine == "kalookie" and n == 6:
                continue  # british is played by two to five: six is for the presets that allow it
            deal = hoola_deal(api, n) if engine == "hoola" else kalookie_deal(api, n)
            workloads.append(Workload(engine, n, OUR_LOOP, state_loop(deal), preset))
            play, audit = make(api, n)
            workloads.append(Workload(engine, n, "play_deal", play, preset, audit))
    # Kalookie's other presets: the state loop at each --kalookie count the preset is played by.
    kalookie = api.get_game("kalookie") if args.kalookie_presets else None
    for preset in args.kalookie_presets:
        allowed = kalookie.rules(preset).player_counts if kalookie is not None else ()
        workloads += [Workload("kalookie", n, OUR_LOOP, state_loop(kalookie_deal(api, n, preset)),
                               preset) for n in args.kalookie if n in allowed]
    for preset in PRESETS:
        workloads += [Workload("capture", n, OUR_LOOP, capture_game(preset, n), preset)
                      for n in args.capture if n in capture_players(preset)]
    return workloads


def unplayed_capture_count(counts: Sequence[int]) -> str | None:
    """The one-line error for a player count no capture game is played by (None if all are)."""
    played = {preset: capture_players(preset) for preset in PRESETS}
    unplayed = [n for n in counts if not any(n in c for c in played.values())]
    if not unplayed:
        return None
    which = "; ".join(f"{k} {'/'.join(map(str, v))}" for k, v in played.items())
    return f"--capture: no capture game is played by {unplayed[0]} players ({which})"


def measure(workloads: list[Workload], rounds: int, budget: float) -> bool:
    """Run ``rounds`` interleaved rounds, dropping a workload that fails (its error on one
    line); True when every workload ran every round."""
    ok = True
    for r in range(rounds):
        k = r % len(workloads) if workloads else 0
        for w in workloads[k:] + workloads[:k]:
            try:
                w.run_round(budget)
            except Exception as exc:
                print(f"{w.label}: {type(exc).__name__}: {exc}", file=sys.stderr)
                workloads.remove(w)
                ok = False
    return ok


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; 0 when everything asked for was measured."""
    args = parse_args(argv)
    out = Out(plain=args.plain)
    rss_start = max_rss_mib()

    hoola_error = None
    try:
        api: HoolaApi | None = import_hoola()
    except Exception as exc:  # the engine is missing or broken: still measure the references
        api = None
        hoola_error = f"{type(exc).__name__}: {exc}"

    if args.profile:
        if api is None:
            print(f"cannot import the Hoola engine: {hoola_error}", file=sys.stderr)
            return 1
        return profile(api, args.players[0], args.seconds, out)
    if api is not None and args.capture:
        error = unplayed_capture_count(args.capture)
        if error:
            print(error, file=sys.stderr)
            return 2

    pyspiel = ensure_open_spiel(allow_install=not args.no_install)
    try:
        os_version = importlib.metadata.version("open_spiel") if pyspiel else None
    except importlib.metadata.PackageNotFoundError:
        os_version = "?"

    workloads: list[Workload] = []
    failed = False
    references = ["gin_rummy"] + ([] if args.tricks == "none" or not args.capture
                                  else [args.tricks])
    if pyspiel is not None:
        for name in references:
            try:
                workloads += reference_workloads(pyspiel, name)
            except Exception as exc:  # a game this OpenSpiel lacks, or one sampled unfairly
                print(f"{name}: {exc}" if isinstance(exc, ValueError)
                      else f"{name}: {type(exc).__name__}: {exc}", file=sys.stderr)
                failed = True
    if api is not None:
        try:
            workloads += our_workloads(api, args)
        except Exception as exc:
            hoola_error = f"{type(exc).__name__}: {exc}"
    if hoola_error:
        print(f"Hoola engine unavailable: {hoola_error}", file=sys.stderr)
    if not workloads:
        print("nothing to measure", file=sys.stderr)
        return 1

    load_start = load_average()
    command = " ".join(["python benchmarks/run.py", *(sys.argv[1:] if argv is None else argv)])
    out.line(f"$ {command}")
    out.line(
        f"Python {platform.python_version()} on {platform.machine()} {platform.system()}, "
        f"{os.cpu_count()} CPUs; open_spiel {os_version or '-'}; "
        f"hoola {api.version if api else '-'}; load average at start "
        + (", ".join(f"{x:.2f}" for x in load_start) if load_start else "unknown")
    )
    budget = args.seconds / args.rounds
    out.line(
        f"{len(workloads)} workloads x {args.rounds} interleaved rounds x {budget:.2f} s "
        f"(about {len(workloads) * args.seconds:.0f} s); every game a fresh shuffle"
    )

    # Warm-up: one game per workload (also checks every workload runs), then peak memory.
    for w in list(workloads):
        try:
            w.play(0)
            if w.engine == "hoola":
                w.peak_kib = [traced_peak_kib(w.play, 10**9 + k)
                              for k in range(1 if args.quick else 5)]
            if w.audit is not None:  # checks the audit too, and starts round 1 with none kept
                w.audit()
        except Exception as exc:
            print(f"{w.label}: {type(exc).__name__}: {exc}", file=sys.stderr)
            workloads.remove(w)
            failed = True

    failed = not measure(workloads, args.rounds, budget) or failed
    rss_end = max_rss_mib()
    load_end = load_average()

    throughput_table(workloads, args.rounds, out)

    hoola_ws = [w for w in workloads if w.engine == "hoola"]
    if hoola_ws:
        rows = []
        for w in hoola_ws:
            ends = w.ends()
            total = sum(ends.values())
            other = sorted(set(ends) - set(HOOLA_ENDS))
            rows.append([f"{w.players}p", *(pct(ends[e], total) for e in HOOLA_ENDS),
                         ", ".join(other) or "-"])
        out.table("How the Hoola deals ended", ["players", *HOOLA_ENDS, "other"], rows)
    gin_ws = [w for w in workloads if w.engine == "gin_rummy"]
    if gin_ws:
        rows = []
        for w in gin_ws:
            ends = w.ends()
            total = sum(ends.values())
            rows.append([w.loop, *(pct(ends[e], total) for e in GIN_ENDS)])
        out.table("How the gin_rummy games ended", ["loop", "knock (or gin)", "wall"], rows)

    if hoola_ws and any(w.peak_kib for w in hoola_ws):
        rows = [[f"{w.players}p", f"{max(w.peak_kib):,.0f}",
                 f"{statistics.median(w.peak_kib):,.0f}"]
                for w in hoola_ws if w.peak_kib]
        out.table("Hoola memory: tracemalloc peak while one deal is set up and played out "
                  f"(over {len(hoola_ws[0].peak_kib)} deal(s))",
                  ["players", "max KiB", "median KiB"], rows)
    out.line(f"Process peak RSS (ru_maxrss): {rss_end:,.1f} MiB "
             f"(at start {rss_start:,.1f} MiB; includes pyspiel)")

    ours = [w for w in workloads if not w.reference]
    gin = {w.loop: w for w in gin_ws}
    vs_gin = ratio_tables([*(w for w in gin_ws if w.loop != HEADLINE), *ours], gin,
                          "gin_rummy", out)
    tricks = {w.loop: w for w in workloads if w.engine == args.tricks}
    vs_tricks = ratio_tables([*(w for w in tricks.values() if w.loop != HEADLINE),
                              *(w for w in ours if w.engine == "capture")],
                             tricks, args.tricks, out)

    headline = vs_gin.get("hoola pagat 4p")
    if headline:
        out.line("Headline, Hoola 4p (state loop) ÷ gin_rummy (Python loop, cloned state), "
                 f"decisions/s: {ratio_cell(headline['wall/py-clone'])} by wall clock, "
                 f"{ratio_cell(headline['cpu/py-clone'])} by CPU time")
    driven_ratio = vs_gin.get("hoola pagat 4p play_deal")
    if driven_ratio:
        out.line("Hoola 4p through play_deal (a view for every decision) ÷ the same: "
                 f"{ratio_cell(driven_ratio['wall/py-clone'])} by wall clock, "
                 f"{ratio_cell(driven_ratio['cpu/py-clone'])} by CPU time")
    out.line("Load average at end: " + (", ".join(f"{x:.2f}" for x in load_end)
                                        if load_end else "unknown"))

    if args.json:
        write_json(Path(args.json), args, workloads, command, os_version,
                   api.version if api else None, hoola_error, rss_end,
                   (load_start, load_end), vs_gin, vs_tricks)
        out.line(f"JSON written to {args.json}")

    return 1 if failed or hoola_error or pyspiel is None else 0


def write_json(path: Path, args: argparse.Namespace, workloads: Sequence[Workload],
               command: str, os_version: str | None, version: str | None,
               hoola_error: str | None, rss: float, loads: tuple[Any, Any],
               vs_gin: dict[str, Any], vs_tricks: dict[str, Any]) -> None:
    """Every round of every workload and every ratio, as JSON."""
    rates = ("games_per_s", "decisions_per_s", "cpu_decisions_per_s")
    data = {
        "command": command,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average": {"start": loads[0], "end": loads[1]},
        "open_spiel": os_version,
        "hoola": version,
        "hoola_error": hoola_error,
        "seconds_per_workload": args.seconds,
        "rounds": args.rounds,
        "loops": LOOPS,
        "workloads": [
            {
                "engine": w.engine,
                "preset": w.preset or None,
                "players": w.players,
                "loop": w.loop,
                "reference": w.reference,
                **{attr: dict(zip(("min", "median", "max"), w.spread(attr), strict=True))
                   for attr in rates},
                "games": w.total("games"),
                "decisions": w.total("decisions"),
                "forced": w.total("forced"),
                "forced_counted_in": w.total("forced_of"),
                "ends": dict(w.ends()),
                "tracemalloc_peak_kib": w.peak_kib or None,
                "rounds": [{"games": r.games, "decisions": r.decisions, "forced": r.forced,
                            "forced_counted_in": r.forced_of, "wall_s": r.wall, "cpu_s": r.cpu}
                           for r in w.rounds],
            }
            for w in workloads
        ],
        "max_rss_mib": rss,
        "ratios_vs_gin_rummy": vs_gin,
        "trick_reference": None if args.tricks == "none" else args.tricks,
        "ratios_vs_trick_reference": vs_tricks,
    }
    path.write_text(json.dumps(data, indent=2) + "\n")


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Benchmark the search bot and the simulation lab, game by game, for before/after figures.

Run from the repository root::

    python benchmarks/bots.py [--games hoola,kalookie,capture] [--rounds R] [--positions N]
                              [--playouts P] [--units U] [--workers J] [--json FILE] [--quick]

For each game (Hoola pagat, Kalookie british and the capture game sedma, four players each):

* **ISMCTS playouts/s**: the generic search (``make_bot("ismcts", game=...)``) deciding at the
  same ``--positions`` decisions every round, ``--playouts`` rollouts each and no time limit, so
  that every round (and every run on the same engine) does the same work. The positions are
  decisions with a real choice, taken from seeded deals the game's expert plays at every seat;
  the search is timed from the view to its choice (the expert's own choice and its candidates
  included), by wall clock and by this process's CPU time.
* **``hoola sim`` deals/s**: ``hoola.sim.run`` (what ``hoola sim`` calls) with the game's
  default lineup (``hoola sim``'s: the game's own bots, strongest first, against random where
  it has one), duplicate seats, the same seed every round, on one process and on every core
  (``-j``), with the CPU time of this process and its workers.

Rounds run one after the other, each game's work interleaved; minimum, median and maximum over
the rounds are reported. On a shared machine compare figures of runs made under a similar load.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import resource
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from hoola.bots import make_bot
from hoola.core.driver import play_deal
from hoola.core.registry import get_game
from hoola.sim import SimConfig, run

GAMES: dict[str, tuple[str, int, int]] = {
    # game: (preset, players, default sim units: about 3 s on one core of the reference machine)
    "hoola": ("pagat", 4, 400),
    "kalookie": ("british", 4, 40),
    "capture": ("sedma", 4, 600),
}
POSITION_CHANCE = 0.25  # the share of eligible decisions taken as positions (spread over deals)


# --------------------------------------------------------------------------------------------
# ISMCTS


class _Enough(Exception):
    """Enough positions collected: ends the deal being played."""


class _Collector:
    """The game's expert at a seat, keeping some of the decisions where the search searches
    (it does not when the expert leaves it fewer than two candidates)."""

    def __init__(self, game: Any, expert: Any, state: list[Any],
                 positions: list[tuple[Any, int]], wanted: int, rng: random.Random) -> None:
        self.game = game
        self.expert = expert
        self.state = state
        self.positions = positions
        self.wanted = wanted
        self.rng = rng

    def act(self, view: Any) -> Any:
        if len(view.legal) + view.can_pass >= 2 and self.rng.random() < POSITION_CHANCE:
            probe = make_bot("ismcts", 0, game=self.game, playouts=1, seconds=1e9)
            probe.act(view)
            if probe.searched:  # type: ignore[attr-defined]
                self.positions.append((self.state[0].copy(), view.player))
                if len(self.positions) >= self.wanted:
                    raise _Enough
        return self.expert.act(view)


def positions(name: str, count: int, seed: int = 0) -> list[tuple[Any, int]]:
    """``count`` decisions the search searches (a copy of the deal and the seat to decide),
    from seeded deals of ``name`` its expert plays at every seat."""
    game = get_game(name)
    preset, players, _ = GAMES[name]
    rules = game.rules(preset)
    names = [f"P{i}" for i in range(players)]
    found: list[tuple[Any, int]] = []
    rng = random.Random(seed)
    deal = seed
    while len(found) < count:
        current: list[Any] = [game.new_deal(rules, names, seed=deal)]
        bots = [_Collector(game, game.expert(deal * players + s), current, found, count, rng)
                for s in range(players)]
        with contextlib.suppress(_Enough):
            play_deal(current[0], bots, rng=random.Random(deal))
        deal += 1
        if deal - seed > 50 * count + 50:
            raise RuntimeError(f"{name}: too few decisions with a choice in {deal - seed} deals")
    return found


@dataclass
class SearchRound:
    """One round of searches: rollouts played, decisions searched, wall and CPU seconds."""

    rollouts: int
    searched: int
    wall: float
    cpu: float
    times: list[float] = field(default_factory=list)


def search_round(name: str, spots: Sequence[tuple[Any, int]], playouts: int) -> SearchRound:
    """The search at every position, seeded by its index, ``playouts`` rollouts each."""
    game = get_game(name)
    rollouts = searched = 0
    wall = cpu = 0.0
    times = []
    for i, (state, seat) in enumerate(spots):
        bot = make_bot("ismcts", i, game=game, playouts=playouts, seconds=1e9)
        view = state.view(seat)
        c0 = time.process_time()
        t0 = time.perf_counter()
        bot.act(view)
        dt = time.perf_counter() - t0
        cpu += time.process_time() - c0
        wall += dt
        times.append(dt)
        rollouts += bot.rollouts  # type: ignore[attr-defined]
        searched += bot.searched  # type: ignore[attr-defined]
    return SearchRound(rollouts, searched, wall, cpu, times)


# --------------------------------------------------------------------------------------------
# Simulation


def default_lineup(name: str) -> tuple[str, ...]:
    """``hoola sim``'s default bots for ``name``: its own, strongest first, against random
    where it has only one."""
    own = list(reversed(list(get_game(name).bots())))
    return tuple(own if len(own) > 1 else [*own, "random"])


def children_cpu() -> float:
    """CPU seconds of this process's finished (waited-for) children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@dataclass
class SimRound:
    """One simulation run: deals played, wall seconds, CPU seconds of this process and its
    workers."""

    deals: int
    wall: float
    cpu: float


def sim_round(name: str, units: int, workers: int) -> SimRound:
    """``hoola sim``'s engine on ``units`` duplicate units of ``name`` with ``workers``."""
    preset, players, _ = GAMES[name]
    config = SimConfig(default_lineup(name), get_game(name).rules(preset), players=players,
                       units=units, seed=1, game=name)
    c0 = time.process_time() + children_cpu()
    t0 = time.perf_counter()
    games = run(config, workers=workers)
    wall = time.perf_counter() - t0
    cpu = time.process_time() + children_cpu() - c0
    return SimRound(sum(len(g.deals) for g in games), wall, cpu)


# --------------------------------------------------------------------------------------------
# Main


def median_range(values: Sequence[float]) -> str:
    """``median (min-max)``."""
    return f"{statistics.median(values):,.0f} ({min(values):,.0f}-{max(values):,.0f})"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line, checked (a usage error names the bad option)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--games", default=",".join(GAMES),
                   help=f"comma-separated games (default {','.join(GAMES)})")
    p.add_argument("--rounds", type=int, default=None, help="rounds (default 3; 2 with --quick)")
    p.add_argument("--positions", type=int, default=None,
                   help="decisions searched a round, per game (default 12; 3 with --quick)")
    p.add_argument("--playouts", type=int, default=24,
                   help="rollouts a searched decision (default 24)")
    p.add_argument("--units", type=int, default=None,
                   help="sim units a round, per game (default: "
                   + ", ".join(f"{g} {u}" for g, (_, _, u) in GAMES.items())
                   + "; a tenth with --quick)")
    p.add_argument("-j", "--workers", type=int, default=None,
                   help="the 'all cores' process count (default: every core)")
    p.add_argument("--no-sim", action="store_true", help="leave the simulation out")
    p.add_argument("--no-search", action="store_true", help="leave the search out")
    p.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    p.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = p.parse_args(argv)
    args.games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in args.games if g not in GAMES]
    if unknown or not args.games:
        p.error(f"--games: unknown game {unknown[0]!r}; games are {', '.join(GAMES)}" if unknown
                else "--games needs at least one game")
    args.rounds = args.rounds if args.rounds is not None else (2 if args.quick else 3)
    args.positions = args.positions if args.positions is not None else (3 if args.quick else 12)
    args.workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    for option in ("rounds", "positions", "playouts", "workers"):
        if getattr(args, option) < 1:
            p.error(f"--{option} must be at least 1")
    if args.units is not None and args.units < 1:
        p.error("--units must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its tables; 0 on success."""
    args = parse_args(argv)
    command = " ".join(["python benchmarks/bots.py", *(sys.argv[1:] if argv is None else argv)])
    load_start = os.getloadavg()
    print(f"$ {command}")
    print(f"Python {platform.python_version()}, {os.cpu_count()} CPUs; load average at start "
          + ", ".join(f"{x:.2f}" for x in load_start))
    report: dict[str, Any] = {"command": command, "python": platform.python_version(),
                              "cpus": os.cpu_count(), "search": [], "sim": []}

    spots = {} if args.no_search else {g: positions(g, args.positions) for g in args.games}
    searches: dict[str, list[SearchRound]] = {g: [] for g in spots}
    worker_counts = sorted({1, args.workers})
    sims: dict[tuple[str, int], list[SimRound]] = {}
    for r in range(args.rounds):
        for g in args.games:
            if g in spots:
                searches[g].append(search_round(g, spots[g], args.playouts))
            if not args.no_sim:
                units = args.units or max(1, GAMES[g][2] // (10 if args.quick else 1))
                for w in (worker_counts if r % 2 == 0 else worker_counts[::-1]):
                    sims.setdefault((g, w), []).append(sim_round(g, units, w))

    if searches:
        print(f"\nISMCTS search: {args.positions} positions a game, {args.playouts} playouts "
              f"each, {args.rounds} rounds; median (min-max) over rounds")
        print(f"  {'game':18} {'searched':>8} {'rollouts':>8} {'playouts/s (wall)':>24} "
              f"{'playouts/CPU s':>24} {'ms a search':>11}")
        for g, done in searches.items():
            walls = [x.rollouts / x.wall for x in done]
            cpus = [x.rollouts / x.cpu for x in done if x.cpu > 0]
            ms = 1000 * statistics.median([t for x in done for t in x.times])
            print(f"  {g + ' ' + GAMES[g][0]:18} {done[0].searched:8d} {done[0].rollouts:8d} "
                  f"{median_range(walls):>24} {median_range(cpus):>24} {ms:11.1f}")
            report["search"].append({
                "game": g, "preset": GAMES[g][0], "players": GAMES[g][1],
                "positions": args.positions, "playouts": args.playouts,
                "rounds": [{"rollouts": x.rollouts, "searched": x.searched, "wall_s": x.wall,
                            "cpu_s": x.cpu} for x in done],
                "playouts_per_s": statistics.median(walls),
                "playouts_per_cpu_s": statistics.median(cpus) if cpus else None})
    if sims:
        print(f"\nhoola sim (hoola.sim.run), duplicate seats, seed 1, {args.rounds} rounds; "
              "median (min-max) over rounds; CPU includes the workers")
        print(f"  {'game':18} {'bots':18} {'processes':>9} {'deals':>6} {'deals/s (wall)':>18} "
              f"{'deals/CPU s':>18}")
        for (g, w), rounds in sims.items():
            walls = [x.deals / x.wall for x in rounds]
            cpus = [x.deals / x.cpu for x in rounds if x.cpu > 0]
            lineup = ",".join(default_lineup(g))
            print(f"  {g + ' ' + GAMES[g][0]:18} {lineup:18} {w:9d} {rounds[0].deals:6d} "
                  f"{median_range(walls):>18} {median_range(cpus):>18}")
            report["sim"].append({
                "game": g, "preset": GAMES[g][0], "players": GAMES[g][1], "bots": lineup,
                "workers": w,
                "rounds": [{"deals": x.deals, "wall_s": x.wall, "cpu_s": x.cpu} for x in rounds],
                "deals_per_s": statistics.median(walls),
                "deals_per_cpu_s": statistics.median(cpus) if cpus else None})
    load_end = os.getloadavg()
    print("Load average at end: " + ", ".join(f"{x:.2f}" for x in load_end))
    report["load_average"] = {"start": load_start, "end": load_end}
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        print(f"JSON written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

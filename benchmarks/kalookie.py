#!/usr/bin/env python3
"""Benchmark the Kalookie engine: random-play decisions per second, per preset and player count.

Run from the repository root::

    python benchmarks/kalookie.py [--deals N] [--players 2,3,4,5,6] [--presets british,scarne]

Two loops, each hand a fresh deal from its seed:

- ``state``: uniformly random legal actions through the game interface alone (``actors()``,
  ``legal_actions(seat)``, ``apply``), as ``run.py``'s headline state loop plays them;
- ``view``: every decision asks the state for the player's view (its legal actions included)
  and applies a random choice, preferring lays (85%) so that hands reach their end.

Every preset is measured at each asked player count it allows (british: two to five;
north-american and scarne: two to six). Timings are wall clock and this process's CPU time
(``time.process_time()``) on whatever else the machine is doing; compare figures of the same run.
``run.py --kalookie 2,3,4,5,6 --kalookie-presets all`` measures the state loop against the
OpenSpiel references.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from capture import state_loop
from hoola.games.kalookie import GAME, Add, NewMeld, Swap
from hoola.games.kalookie.rules import PRESETS


def run(preset: str, deals: int, players: int) -> tuple[int, float, float, int]:
    """The view loop: decisions made, wall and CPU seconds spent and hands ended by a call-up,
    over ``deals`` hands."""
    rules = GAME.rules(preset)
    decisions, called = 0, 0
    cpu = time.process_time()
    start = time.perf_counter()
    for seed in range(deals):
        rng = random.Random(seed)
        state = GAME.new_deal(rules, [f"P{i}" for i in range(players)], seed=seed)
        while not state.is_over:
            seat = state.current
            legal = state.view(seat).legal
            lays = [a for a in legal if isinstance(a, NewMeld | Add | Swap)]
            state.apply(rng.choice(lays if lays and rng.random() < 0.85 else list(legal)))
            decisions += 1
        called += state.result is not None and state.result.winner is not None
    return decisions, time.perf_counter() - start, time.process_time() - cpu, called


def run_states(preset: str, deals: int, players: int) -> tuple[int, float, float, int]:
    """The state loop (uniformly random legal actions): as :func:`run`."""
    rules = GAME.rules(preset)
    names = [f"P{i}" for i in range(players)]
    play = state_loop(lambda seed: GAME.new_deal(rules, names, seed=seed))
    decisions, called = 0, 0
    cpu = time.process_time()
    start = time.perf_counter()
    for seed in range(deals):
        made, _, end = play(seed)
        decisions += made
        called += end in ("call-up", "kalookie")
    return decisions, time.perf_counter() - start, time.process_time() - cpu, called


def parse_list(parser: argparse.ArgumentParser, text: str, known: list[str],
               what: str) -> list[str]:
    """Comma-separated names out of ``known`` (``all``: every one)."""
    names = [x.strip() for x in text.split(",") if x.strip()]
    if names == ["all"]:
        return known
    for name in names:
        if name not in known:
            parser.error(f"--{what}: {name!r} is not one of {', '.join(known)} (or 'all')")
    return names


def main(argv: list[str] | None = None) -> None:
    """Print each preset's decisions per second of wall and CPU time, for each loop."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[1])
    parser.add_argument("--deals", type=int, default=20, help="hands per preset (default 20)")
    parser.add_argument("--players", default="4",
                        help=f"player counts, comma-separated (default 4; {GAME.min_players} to "
                        f"{GAME.max_players}, each preset at those it allows)")
    parser.add_argument("--presets", default="all", help="presets, comma-separated (default all)")
    parser.add_argument("--loops", default="state,view", help="loops: state, view (default both)")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    try:
        counts = [int(x) for x in args.players.split(",") if x.strip()]
    except ValueError:
        parser.error(f"--players: {args.players!r} is not a list of whole numbers")
    if not counts or not all(GAME.min_players <= n <= GAME.max_players for n in counts):
        parser.error(f"--players must be between {GAME.min_players} and {GAME.max_players}")
    presets = parse_list(parser, args.presets, list(PRESETS), "presets")
    loops = parse_list(parser, args.loops, ["state", "view"], "loops")
    print(f"{'preset':16} {'players':>7} {'loop':>5} {'decisions':>9} {'wall s':>8} {'CPU s':>8} "
          f"{'per wall s':>10} {'per CPU s':>10} {'called up':>9}")
    for preset in presets:
        for n in counts:
            if n not in GAME.rules(preset).player_counts:
                continue
            for loop in loops:
                decisions, seconds, cpu, called = (run_states if loop == "state" else run)(
                    preset, args.deals, n)
                print(f"{preset:16} {n:7d} {loop:>5} {decisions:9d} {seconds:8.2f} {cpu:8.2f} "
                      f"{decisions / seconds:10.0f} "
                      f"{decisions / cpu if cpu > 0 else float('nan'):10.0f} "
                      f"{called:6d}/{args.deals}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Benchmark the Kalookie engine: random-play decisions per second, per preset.

Run from the repository root::

    python benchmarks/kalookie.py [--deals N] [--players N]

Every decision asks the state for the player's view (its legal actions included) and applies a
random choice, preferring lays so that hands reach their end. Timings are wall clock and this
process's CPU time (``time.process_time()``) on whatever else the machine is doing; compare
figures of the same run. ``run.py --kalookie`` measures uniformly random hands through
``play_deal`` against the OpenSpiel references.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from hoola.games.kalookie import GAME, Add, NewMeld, Swap
from hoola.games.kalookie.rules import PRESETS


def run(preset: str, deals: int, players: int) -> tuple[int, float, float, int]:
    """Decisions made, wall and CPU seconds spent and hands ended by a call-up, over ``deals``
    hands."""
    rules = GAME.rules(preset)
    n = min(players, max(rules.player_counts))
    decisions, called = 0, 0
    cpu = time.process_time()
    start = time.perf_counter()
    for seed in range(deals):
        rng = random.Random(seed)
        state = GAME.new_deal(rules, [f"P{i}" for i in range(n)], seed=seed)
        while not state.is_over:
            seat = state.current
            legal = state.view(seat).legal
            lays = [a for a in legal if isinstance(a, NewMeld | Add | Swap)]
            state.apply(rng.choice(lays if lays and rng.random() < 0.85 else list(legal)))
            decisions += 1
        called += state.result is not None and state.result.winner is not None
    return decisions, time.perf_counter() - start, time.process_time() - cpu, called


def main(argv: list[str] | None = None) -> None:
    """Print each preset's decisions per second of wall and CPU time."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="hands per preset (default 20)")
    parser.add_argument("--players", type=int, default=4,
                        help=f"players (default 4; {GAME.min_players} to {GAME.max_players})")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    if not GAME.min_players <= args.players <= GAME.max_players:
        parser.error(f"--players must be between {GAME.min_players} and {GAME.max_players}")
    print(f"{'preset':16} {'decisions':>9} {'wall s':>8} {'CPU s':>8} {'per wall s':>10} "
          f"{'per CPU s':>10} {'called up':>9}")
    for preset in PRESETS:
        decisions, seconds, cpu, called = run(preset, args.deals, args.players)
        print(f"{preset:16} {decisions:9d} {seconds:8.2f} {cpu:8.2f} {decisions / seconds:10.0f} "
              f"{decisions / cpu if cpu > 0 else float('nan'):10.0f} {called:6d}/{args.deals}")


if __name__ == "__main__":
    main()

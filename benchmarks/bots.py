#!/usr/bin/env python3
"""Benchmark the bots and the simulation lab.

Run from the repository root::

    python benchmarks/bots.py [--deals N] [--json FILE] [--quick]

It measures, on 4-player pagat deals:

* **decision time per bot**: every decision a bot makes while four copies of it play whole deals
  (mean, median, 99th percentile and maximum, in milliseconds), against its stated budget;
* **ISMCTS playouts/s**: rollouts (whole deals played out from a sampled state) per second of
  search, from the bot's own counters;
* **simulation deals/s** of ``hoola sim``'s engine (expert against greedy, duplicate seats) on one
  process and on every core.

Timings are wall-clock on whatever else the machine is doing; compare figures of the same run.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from hoola.bots import IsmctsBot, make_bot
from hoola.games.hoola.actions import Action
from hoola.games.hoola.rules import Rules
from hoola.games.hoola.state import DealState
from hoola.games.hoola.views import View
from hoola.play import play_deal
from hoola.sim import SimConfig, run

BOTS: dict[str, dict[str, Any]] = {
    "random": {}, "greedy": {}, "expert": {},
    "ismcts": {"playouts": 24, "seconds": 1.0},
}


class Timed:
    """A bot wrapper that records the time of every decision."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.times: list[float] = []

    def act(self, view: View) -> Action | None:
        start = time.perf_counter()
        choice: Action | None = self.bot.act(view)
        self.times.append(time.perf_counter() - start)
        return choice


def decision_times(name: str, deals: int) -> dict[str, Any]:
    rules = Rules.preset("pagat")
    times: list[float] = []
    rollouts = searched = 0
    search_seconds = 0.0
    for seed in range(deals):
        bots = [Timed(make_bot(name, seed * 4 + s, **BOTS[name])) for s in range(4)]
        play_deal(DealState.new(rules, 4, seed=seed), bots, random.Random(seed))
        for b in bots:
            times.extend(b.times)
            if isinstance(b.bot, IsmctsBot):
                rollouts += b.bot.rollouts
                searched += b.bot.searched
                search_seconds += b.bot.search_seconds
    times.sort()
    out = {"bot": name, "decisions": len(times), "mean_ms": 1000 * statistics.fmean(times),
           "median_ms": 1000 * times[len(times) // 2],
           "p99_ms": 1000 * times[min(len(times) - 1, int(len(times) * 0.99))],
           "max_ms": 1000 * times[-1]}
    if rollouts:
        out.update(searched=searched, rollouts=rollouts,
                   playouts_per_s=rollouts / search_seconds if search_seconds else 0.0)
    return out


def sim_rate(units: int, workers: int) -> dict[str, Any]:
    config = SimConfig(("expert", "greedy"), Rules.preset("pagat"), units=units, seed=1)
    start = time.perf_counter()
    games = run(config, workers=workers)
    seconds = time.perf_counter() - start
    deals = sum(len(g.deals) for g in games)
    return {"workers": workers, "deals": deals, "seconds": seconds, "deals_per_s": deals / seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40, help="deals per bot for decision times")
    parser.add_argument("--units", type=int, default=2000, help="units for the simulation rate")
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    deals, units = (3, 60) if args.quick else (args.deals, args.units)
    report: dict[str, Any] = {"decisions": [], "sim": []}
    print(f"decision time per bot ({deals} four-player pagat deals each)")
    for name in BOTS:
        d = decision_times(name, deals)
        report["decisions"].append(d)
        line = (f"  {name:8} {d['decisions']:6d} decisions  mean {d['mean_ms']:8.3f} ms  "
                f"median {d['median_ms']:8.3f}  p99 {d['p99_ms']:8.3f}  max {d['max_ms']:8.3f}")
        if "playouts_per_s" in d:
            line += f"  ({d['rollouts']} playouts, {d['playouts_per_s']:.0f} playouts/s)"
        print(line)
    cores = multiprocessing.cpu_count()
    print(f"simulation rate, expert vs greedy, {units} duplicate units")
    for workers in sorted({1, cores}):
        s = sim_rate(units, workers)
        report["sim"].append(s)
        print(f"  {workers} process{'es' if workers > 1 else ''}: {s['deals']} deals in "
              f"{s['seconds']:.1f} s = {s['deals_per_s']:.0f} deals/s")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Measure Kalookie's bots: duplicate deals of one bot against another, and its decision time.

Run from the repository root::

    python benchmarks/kalookie_bots.py [--deals N] [--players 2 4] [--presets british ...]
                                       [--bot expert|ismcts] [--playouts N] [--candidates K]
                                       [--horizon N|none] [--infer]
                                       [--opponent random|expert|expert-no-hold|...]
                                       [--matches] [--first-seed S] [--jobs N]

The measured bot is Kalookie's expert, or with ``--bot ismcts`` the generic search
(``make_bot("ismcts", game="kalookie")``) with ``--playouts`` rollouts and ``--candidates``
moves a decision (no time limit, so a run is reproducible); ``--horizon`` sets the turns a seat
its playouts run before the fitted score takes over (``none``: to the hand's end) and
``--infer`` lets its guesses lean on the others' discards (``hoola.games.kalookie.search``'s
``HORIZON`` and ``INFER``). Every shuffle is played twice with
the seats swapped (``E R E R`` then ``R E R E``), so both sides hold the same cards. A shuffle's
score is the measured seats' mean stakes minus the opponent seats' mean, over both
arrangements; the table gives its mean over the shuffles with a 95% interval (normal
approximation), the measured bot's own mean per seat, and its decision times; for ismcts also
the share of its decisions searched and the rollouts a searched decision played. ``--matches``
plays whole games instead of single deals (the pool, buy-ins and all; at most 80 deals a game)
and scores the net money of each game. ``random`` chooses uniformly among
``view.legal``, passing with the same chance as each action where it may pass. The expert is
deterministic and ismcts seeded by the shuffle, so a run is reproducible; decision times are
the processor time of the bot's own process.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from hoola.bots import make_bot
from hoola.core.driver import play_deal
from hoola.games.kalookie import GAME, search
from hoola.games.kalookie.expert import ExpertBot

MATCH_DEALS = 80  # a Scarne game never ends by itself; others end well before


class RandomPolicy:
    """Uniform over ``view.legal``; a pass has the same chance as each action where allowed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, view: Any) -> Any:
        legal = view.legal
        if view.can_pass:
            k = self.rng.randrange(len(legal) + 1)
            return legal[k] if k < len(legal) else None
        return legal[self.rng.randrange(len(legal))] if legal else None


class Timed:
    """A bot wrapper that records the processor time of every decision (this process only, so
    other work on the machine does not count)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.times: list[float] = []

    def act(self, view: Any) -> Any:
        start = time.process_time()
        choice = self.bot.act(view)
        self.times.append(time.process_time() - start)
        return choice


OPPONENTS: dict[str, Callable[[int], Any]] = {
    "random": RandomPolicy,
    "expert-no-wait": lambda seed: ExpertBot(seed, wait_for_kalookie=False),
    "expert-no-hold": lambda seed: ExpertBot(seed, hold_melds=False),
    "expert": ExpertBot,
}


def measured_bot(kind: str, seed: int, playouts: int, candidates: int) -> Any:
    """The bot under test: the expert, or ismcts with a fixed number of rollouts."""
    if kind == "ismcts":
        return make_bot("ismcts", game="kalookie", seed=seed, playouts=playouts,
                        seconds=float("inf"), candidates=candidates)
    return ExpertBot(seed)


Job = tuple[str, int, int, str, bool, str, int, int, int | None, bool]


def shuffle_score(preset: str, players: int, seed: int, opponent: str, matches: bool,
                  kind: str = "expert", playouts: int = 24, candidates: int = 3,
                  horizon: int | None = search.HORIZON,
                  infer: bool = search.INFER) -> tuple[float, float, list[float], int, int]:
    """(bot minus opponent, bot's own mean, decision times, decisions searched, rollouts) for
    one shuffle, both ways."""
    search.HORIZON, search.INFER = horizon, infer  # set here: a worker process may not inherit
    rules = GAME.rules(preset)
    names = [f"P{i}" for i in range(players)]
    diffs, own, times = [], [], []
    searched = rollouts = 0
    for arrangement in (0, 1):
        expert_seats = [(seat + arrangement) % 2 == 0 for seat in range(players)]
        bots: list[Any] = [Timed(measured_bot(kind, seed * 31 + seat, playouts, candidates))
                           if e else OPPONENTS[opponent](seed * 31 + seat)
                           for seat, e in enumerate(expert_seats)]
        if matches:
            match = GAME.new_match(rules, names, seed=seed)
            for _ in range(MATCH_DEALS):
                if match.is_over:
                    break
                play_deal(match.new_deal(), bots)
                match.finish_deal()
            result = list(match.totals())
        else:
            state = GAME.new_deal(rules, names, seed=seed)
            play_deal(state, bots)
            result = list(state.returns())
        mine = [Fraction(r) for r, e in zip(result, expert_seats, strict=True) if e]
        theirs = [Fraction(r) for r, e in zip(result, expert_seats, strict=True) if not e]
        own.append(float(sum(mine) / len(mine)))
        diffs.append(float(sum(mine) / len(mine) - sum(theirs) / len(theirs)))
        for b in bots:
            if isinstance(b, Timed):
                times.extend(b.times)
                searched += getattr(b.bot, "searched", 0)
                rollouts += getattr(b.bot, "rollouts", 0)
    return statistics.fmean(diffs), statistics.fmean(own), times, searched, rollouts


def _job(args: Job) -> tuple[float, float, list[float], int, int]:
    return shuffle_score(*args)


def interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("inf")
    return mean, 1.96 * statistics.stdev(values) / len(values) ** 0.5


def _horizon(text: str) -> int | None:
    if text == "none":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--horizon takes a number of turns or none, not "
                                         f"{text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"--horizon must be at least 1 turn, not {value}")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="shuffles per setting")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--presets", nargs="+", default=["british", "north-american"])
    parser.add_argument("--bot", choices=["expert", "ismcts"], default="expert",
                        help="the bot measured (default expert)")
    parser.add_argument("--playouts", type=int, default=24, help="ismcts rollouts a decision")
    parser.add_argument("--candidates", type=int, default=3, help="ismcts moves a decision")
    parser.add_argument("--horizon", type=_horizon, default=search.HORIZON,
                        help=f"ismcts playout turns a seat, or none (default {search.HORIZON})")
    parser.add_argument("--infer", action="store_true",
                        help="ismcts guesses lean on the others' discards")
    parser.add_argument("--opponent", choices=sorted(OPPONENTS), default="random")
    parser.add_argument("--matches", action="store_true", help="whole games, not single deals")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args()
    unit = "game" if args.matches else "deal"
    bot = args.bot if args.bot == "expert" else \
        f"ismcts ({args.playouts} playouts, {args.candidates} candidates, horizon " \
        f"{'none' if args.horizon is None else args.horizon}{', inferring' if args.infer else ''})"
    print(f"{bot} against {args.opponent}, {args.deals} duplicate {unit}s per setting "
          f"(seeds {args.first_seed}..{args.first_seed + args.deals - 1})")
    print(f"{'preset':16} {'players':>7} {'bot - other':>18} {'bot / seat':>14} "
          f"{'cpu ms':>8} {'p99 ms':>7} {'max ms':>7} {'searched':>8} {'rollouts':>8}")
    for preset in args.presets:
        for players in args.players:
            work: list[Job] = [(preset, players, args.first_seed + s, args.opponent,
                                args.matches, args.bot, args.playouts, args.candidates,
                                args.horizon, args.infer)
                               for s in range(args.deals)]
            if args.jobs > 1:
                with multiprocessing.Pool(args.jobs) as pool:
                    results = pool.map(_job, work)
            else:
                results = [_job(w) for w in work]
            diff, half = interval([r[0] for r in results])
            own, _ = interval([r[1] for r in results])
            times = sorted(t for r in results for t in r[2])
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
            searched = sum(r[3] for r in results)
            per = sum(r[4] for r in results) / searched if searched else 0.0
            print(f"{preset:16} {players:7d} {diff:+9.3f} ± {half:6.3f} {own:+14.3f} "
                  f"{1000 * statistics.fmean(times):8.3f} {1000 * p99:7.2f} "
                  f"{1000 * times[-1]:7.1f} {searched / len(times):8.1%} {per:8.1f}",
                  flush=True)


if __name__ == "__main__":
    main()

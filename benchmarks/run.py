#!/usr/bin/env python3
"""Benchmark: random Hoola, Kalookie and capture-game deals against OpenSpiel's ``gin_rummy``
and a trick-taking game of OpenSpiel's (``hearts`` by default), played the same way.

Run from the repository root::

    python benchmarks/run.py [--seconds S] [--rounds R] [--players 2,3,4,5] [--kalookie 2,4]
                             [--capture 4] [--tricks hearts] [--json FILE] [--quick]
    python benchmarks/run.py --profile [--players 4] [--seconds S]

Every workload plays whole games with uniformly random legal moves until its time budget is
spent.  The workloads are measured in interleaved rounds (every workload runs once per round, in a
rotating order) and the median over the rounds is reported, so a noisy, shared machine slows the
engine and the reference alike; ratios are computed between figures of the same run.

*Player decisions* are the actions a record would hold: dealing (chance outcomes) and passes are
not counted.  For Hoola, Kalookie and the capture games that is ``len(state.history)``; for
gin_rummy every player action except ``Pass`` (action id 54); for the trick-taking reference every
player action (passing a card and bidding are decisions a record would hold).

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

from capture import PRESETS, TRICK_GAMES, capture_game, capture_players, trick_game

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

HOOLA_ENDS = ("sopang", "daepang", "knock", "out", "hoola", "sevens", "stock")
GIN_ENDS = ("knock", "wall")
GIN_PASS = 54  # open_spiel/games/gin_rummy.h: kPassAction
GIN_KNOCK = 55  # kKnockAction
OPEN_SPIEL_REQUIREMENT = "open_spiel"

# A game function plays one whole game from seed ``i`` and returns (player decisions, end type).
GameFn = Callable[[int], tuple[int, str]]


# --------------------------------------------------------------------------------------------
# Measurement


@dataclass
class Round:
    games: int
    decisions: int
    seconds: float
    ends: Counter[str]

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds


@dataclass
class Workload:
    engine: str  # "hoola", "kalookie", "capture", "gin_rummy" or the trick-taking reference
    players: int
    mode: str  # "new" or "cloned"
    play: GameFn
    preset: str = ""  # the capture games' preset
    rounds: list[Round] = field(default_factory=list)
    next_seed: int = 1
    peak_kib: list[float] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.engine} {self.preset}" if self.preset else self.engine

    @property
    def label(self) -> str:
        return f"{self.name} {self.players}p {self.mode}"

    def run_round(self, budget: float) -> Round:
        play = self.play
        ends: Counter[str] = Counter()
        games = decisions = 0
        seed = self.next_seed
        start = time.perf_counter()
        deadline = start + budget
        while True:
            d, end = play(seed)
            seed += 1
            games += 1
            decisions += d
            ends[end] += 1
            now = time.perf_counter()
            if now >= deadline:
                break
        self.next_seed = seed
        r = Round(games, decisions, now - start, ends)
        self.rounds.append(r)
        return r

    def median(self, attr: str) -> float:
        return float(statistics.median(getattr(r, attr) for r in self.rounds))

    def spread(self, attr: str) -> tuple[float, float]:
        values = [getattr(r, attr) for r in self.rounds]
        return min(values), max(values)

    def ends(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for r in self.rounds:
            total.update(r.ends)
        return total

    def games(self) -> int:
        return sum(r.games for r in self.rounds)

    def decisions(self) -> int:
        return sum(r.decisions for r in self.rounds)


def traced_peak_kib(play: GameFn, seed: int) -> float:
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
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports KiB, macOS bytes.
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


# --------------------------------------------------------------------------------------------
# OpenSpiel reference


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


def gin_rummy_game(pyspiel: Any, mode: str) -> GameFn:
    game = pyspiel.load_game("gin_rummy")
    initial = game.new_initial_state()
    # Check the action ids this benchmark relies on.
    for action, word in ((GIN_PASS, "Pass"), (GIN_KNOCK, "Knock")):
        text = initial.action_to_string(0, action)
        if word not in text:
            raise RuntimeError(f"gin_rummy action {action} is {text!r}, expected {word!r}")
    new_state = game.new_initial_state
    clone = initial.clone
    fresh = mode == "new"

    def play(seed: int) -> tuple[int, str]:
        rng = random.Random(seed)
        choice = rng.choice
        choices = rng.choices
        state = new_state() if fresh else clone()
        decisions = 0
        knocked = False
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(choices(actions, probs)[0])
            else:
                action = choice(state.legal_actions())
                if action != GIN_PASS:
                    decisions += 1
                    if action == GIN_KNOCK:
                        knocked = True
                state.apply_action(action)
        return decisions, "knock" if knocked else "wall"

    return play


# --------------------------------------------------------------------------------------------
# Hoola


@dataclass
class HoolaApi:
    Rules: Any
    DealState: Any
    RandomBot: Any
    play_deal: Any
    version: str


def import_hoola() -> HoolaApi:
    """Import the engine from this checkout's ``src/`` (ahead of any installed copy)."""
    if SRC.is_dir() and str(SRC) not in sys.path:
        sys.path.insert(0, str(SRC))
    package = importlib.import_module("hoola")
    hoola = importlib.import_module("hoola.games.hoola")
    bots = importlib.import_module("hoola.bots")
    play = importlib.import_module("hoola.play")
    return HoolaApi(
        Rules=hoola.Rules,
        DealState=hoola.DealState,
        RandomBot=bots.RandomBot,
        play_deal=play.play_deal,
        version=str(getattr(package, "__version__", "?")),
    )


def hoola_game(api: HoolaApi, players: int, mode: str) -> GameFn:
    rules = api.Rules.preset("pagat")
    bots = [api.RandomBot(seed=1)] * players
    play_deal = api.play_deal
    new = api.DealState.new
    template = new(rules, players=players, seed=0)
    already = len(template.history)
    copy = template.copy
    fresh = mode == "new"

    def play(seed: int) -> tuple[int, str]:
        state = new(rules, players=players, seed=seed) if fresh else copy()
        play_deal(state, bots, rng=random.Random(seed))
        if not state.is_over:
            raise RuntimeError(f"{players}p deal (seed {seed}, {mode}) not over after play_deal")
        return len(state.history) - (0 if fresh else already), state.result.end

    return play


def kalookie_game(players: int, mode: str) -> GameFn:
    """Random Kalookie hands (british rules) through the generic interface, as Hoola's are."""
    registry = importlib.import_module("hoola.core.registry")
    driver = importlib.import_module("hoola.core.driver")
    bots = importlib.import_module("hoola.bots")
    game = registry.get_game("kalookie")
    rules = game.rules("british")
    names = [f"P{i}" for i in range(players)]
    seats = [bots.RandomBot(seed=1)] * players
    template = game.new_deal(rules, names, seed=0)
    fresh = mode == "new"

    def play(seed: int) -> tuple[int, str]:
        state = game.new_deal(rules, names, seed=seed) if fresh else template.copy()
        driver.play_deal(state, seats, rng=random.Random(seed))
        return len(state.history), state.result.end

    return play


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
                self.console = Console(width=None if sys.stdout.isatty() else 132)

    def line(self, text: str = "") -> None:
        if self.console is not None:
            self.console.print(text, highlight=False, markup=False)
        else:
            print(text)

    def table(
        self, title: str, headers: Sequence[str], rows: Sequence[Sequence[str]], note: str = ""
    ) -> None:
        if self.console is not None:
            from rich.table import Table

            t = Table(title=title, caption=note or None, title_justify="left")
            for i, h in enumerate(headers):
                t.add_column(h, justify="left" if i == 0 else "right")
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
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def ratio_of(a: Workload, b: Workload) -> dict[str, Any]:
    """Decisions/s of ``a`` over ``b``: the ratio of medians and the ratio in each round."""
    per_round = [x.decisions_per_s / y.decisions_per_s
                 for x, y in zip(a.rounds, b.rounds, strict=False)]
    return {"ratio": a.median("decisions_per_s") / b.median("decisions_per_s"),
            "per_round": per_round}


def ratio_cell(entry: dict[str, Any] | None) -> str:
    if entry is None:
        return "-"
    rounds = entry["per_round"]
    return f"{entry['ratio']:.2f} ({min(rounds):.2f}-{max(rounds):.2f})"


def capture_ratios(
    workloads: Sequence[Workload], reference: str, out: Out
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """Print the capture games' (and the trick-taking reference's) decisions/s ratios to
    gin_rummy and to the reference, mode for mode; return both as JSON-ready data."""
    gin = {w.mode: w for w in workloads if w.engine == "gin_rummy"}
    ref = {w.mode: w for w in workloads if w.engine == reference}
    rows = [w for w in workloads if w.engine == reference] + \
        [w for w in workloads if w.engine == "capture"]
    vs_gin: dict[str, dict[str, Any]] = {}
    vs_ref: dict[str, dict[str, Any]] = {}
    for w in rows:
        key = f"{w.name} {w.players}p"
        if w.mode in gin:
            vs_gin.setdefault(key, {})[f"{w.mode}/{w.mode}"] = ratio_of(w, gin[w.mode])
        if w.mode in ref and w.engine != reference:
            vs_ref.setdefault(key, {})[f"{w.mode}/{w.mode}"] = ratio_of(w, ref[w.mode])
    # One row per game and player count, both modes in it; the reference's columns if measured.
    labels = {f"{w.name} {w.players}p": (f"{w.name} (reference)" if w.engine == reference
                                         else w.name, str(w.players)) for w in rows}
    tables, headers = [vs_gin], ["new ÷ gin new", "cloned ÷ gin cloned"]
    if ref:
        tables.append(vs_ref)
        headers += [f"new ÷ {reference} new", f"cloned ÷ {reference} cloned"]
    cells = [[*label, *(ratio_cell(t.get(key, {}).get(m))
                        for t in tables for m in ("new/new", "cloned/cloned"))]
             for key, label in labels.items()]
    if cells and (gin or ref):
        title = "Decisions/s ratio, capture games ÷ gin_rummy" + \
            (f" and ÷ {reference}" if ref else "")
        out.table(f"{title} (ratio of medians; per-round range)",
                  ["workload", "players", *headers], cells)
    return vs_gin, vs_ref


# --------------------------------------------------------------------------------------------
# Main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="Random Hoola, Kalookie and capture-game deals vs OpenSpiel's gin_rummy and "
        "a trick-taking game: games/s, decisions/s, end types, peak memory, ratios."
    )
    p.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="measured seconds per workload, split over the rounds (default 6; 0.6 with --quick)",
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=None,
        help="interleaved rounds; medians are over these (default 5; 3 with --quick)",
    )
    p.add_argument("--players", default="2,3,4,5", help="Hoola player counts, e.g. 2,3,4,5")
    p.add_argument("--kalookie", default="2,4", metavar="PLAYERS",
                   help="Kalookie player counts (default 2,4; 'none' to leave Kalookie out)")
    p.add_argument("--capture", default="4", metavar="PLAYERS",
                   help="capture-game player counts, each preset at those it is played by "
                   f"({', '.join(PRESETS)}; default 4; 'none' to leave them out)")
    p.add_argument("--tricks", default="hearts", choices=[*TRICK_GAMES, "none"],
                   help="OpenSpiel's trick-taking reference beside gin_rummy (default hearts)")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE")
    p.add_argument("--quick", action="store_true", help="a short run (CI smoke check)")
    p.add_argument("--plain", action="store_true", help="plain text even when Rich is importable")
    p.add_argument(
        "--no-install", action="store_true", help="do not pip-install open_spiel when missing"
    )
    p.add_argument(
        "--profile",
        action="store_true",
        help="instead of benchmarking, cProfile new-state Hoola deals for --seconds "
        "(first of --players) and print the hottest functions",
    )
    args = p.parse_args(argv)
    try:
        args.players = sorted({int(x) for x in args.players.split(",") if x.strip()})
    except ValueError:
        p.error("--players takes comma-separated integers, e.g. 2,3,4,5")
    if not args.players or any(n < 2 or n > 5 for n in args.players):
        p.error("--players must be between 2 and 5")
    try:
        args.kalookie = [] if args.kalookie.strip() == "none" else \
            sorted({int(x) for x in args.kalookie.split(",") if x.strip()})
    except ValueError:
        p.error("--kalookie takes comma-separated integers, e.g. 2,4, or none")
    if any(n < 2 or n > 6 for n in args.kalookie):
        p.error("--kalookie must be between 2 and 6")
    try:
        args.capture = [] if args.capture.strip() == "none" else \
            sorted({int(x) for x in args.capture.split(",") if x.strip()})
    except ValueError:
        p.error("--capture takes comma-separated integers, e.g. 2,4, or none")
    if any(n < 2 or n > 6 for n in args.capture):
        p.error("--capture must be between 2 and 6")
    if args.seconds is None:
        args.seconds = 0.6 if args.quick else 6.0
    if args.rounds is None:
        args.rounds = 3 if args.quick else 5
    if args.seconds <= 0 or args.rounds < 1:
        p.error("--seconds must be positive and --rounds at least 1")
    return args


def profile(api: HoolaApi, players: int, seconds: float, out: Out) -> int:
    import cProfile
    import io
    import pstats

    play = hoola_game(api, players, "new")
    play(0)
    prof = cProfile.Profile()
    games = decisions = 0
    seed = 1
    deadline = time.perf_counter() + seconds
    prof.enable()
    while time.perf_counter() < deadline:
        d, _ = play(seed)
        seed += 1
        games += 1
        decisions += d
    prof.disable()
    out.line(
        f"cProfile: {games} {players}-player deals, {decisions} decisions (new state per game)"
    )
    buf = io.StringIO()
    stats = pstats.Stats(prof, stream=buf).strip_dirs()
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(25)
    print(buf.getvalue())
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    out = Out(plain=args.plain)
    rss_start = max_rss_mib()

    hoola_error = None
    try:
        api: HoolaApi | None = import_hoola()
    except Exception as exc:  # the engine is missing or broken: still measure the reference
        api = None
        hoola_error = f"{type(exc).__name__}: {exc}"

    if args.profile:
        if api is None:
            print(f"cannot import the Hoola engine: {hoola_error}", file=sys.stderr)
            return 1
        return profile(api, args.players[0], args.seconds, out)

    pyspiel = ensure_open_spiel(allow_install=not args.no_install)
    try:
        os_version = importlib.metadata.version("open_spiel") if pyspiel else None
    except importlib.metadata.PackageNotFoundError:
        os_version = "?"

    workloads: list[Workload] = []
    failed = False
    if pyspiel is not None:
        for mode in ("new", "cloned"):
            workloads.append(Workload("gin_rummy", 2, mode, gin_rummy_game(pyspiel, mode)))
        if args.tricks != "none":
            try:
                tricks = [trick_game(pyspiel, args.tricks, mode) for mode in ("new", "cloned")]
            except Exception as exc:  # a game this OpenSpiel lacks, or sampled unfairly
                print(f"{args.tricks}: {type(exc).__name__}: {exc}", file=sys.stderr)
                failed = True
            else:
                players = pyspiel.load_game(args.tricks).num_players()
                workloads += [Workload(args.tricks, players, mode, play)
                              for mode, play in zip(("new", "cloned"), tricks, strict=True)]
    if api is not None:
        for n in args.players:
            for mode in ("new", "cloned"):
                try:
                    workloads.append(Workload("hoola", n, mode, hoola_game(api, n, mode)))
                except Exception as exc:
                    hoola_error = f"{n}p {mode}: {type(exc).__name__}: {exc}"
                    break
        for n in args.kalookie:
            for mode in ("new", "cloned"):
                workloads.append(Workload("kalookie", n, mode, kalookie_game(n, mode)))
        counts = {preset: capture_players(preset) for preset in PRESETS}
        unplayed = [n for n in args.capture if not any(n in c for c in counts.values())]
        if unplayed:
            played = "; ".join(f"{k} {'/'.join(map(str, v))}" for k, v in counts.items())
            print(f"--capture: no capture game is played by {unplayed[0]} players ({played})",
                  file=sys.stderr)
            return 2
        for preset in PRESETS:
            for n in (n for n in args.capture if n in counts[preset]):
                for mode in ("new", "cloned"):
                    workloads.append(Workload("capture", n, mode,
                                              capture_game(preset, n, mode), preset))
    if hoola_error:
        print(f"Hoola engine unavailable: {hoola_error}", file=sys.stderr)
    if not workloads:
        print("nothing to measure", file=sys.stderr)
        return 1

    out.line(
        f"Python {platform.python_version()} on {platform.machine()} {platform.system()}, "
        f"{os.cpu_count()} CPUs; open_spiel {os_version or '-'}; "
        f"hoola {api.version if api else '-'}"
    )
    budget = args.seconds / args.rounds
    out.line(
        f"{len(workloads)} workloads x {args.rounds} interleaved rounds x {budget:.2f} s "
        f"(about {len(workloads) * args.seconds:.0f} s); medians over rounds"
    )

    # Warm-up: one game per workload (also checks every workload runs), then peak memory.
    for w in list(workloads):
        try:
            w.play(0)
            if w.engine == "hoola":
                w.peak_kib = [
                    traced_peak_kib(w.play, 10**9 + k) for k in range(1 if args.quick else 5)
                ]
        except Exception as exc:
            print(f"{w.label}: {type(exc).__name__}: {exc}", file=sys.stderr)
            workloads.remove(w)
            failed = True

    for r in range(args.rounds):
        k = r % len(workloads)
        for w in workloads[k:] + workloads[:k]:
            try:
                w.run_round(budget)
            except Exception as exc:
                print(f"{w.label}: {type(exc).__name__}: {exc}", file=sys.stderr)
                workloads.remove(w)
                failed = True
    rss_end = max_rss_mib()

    # Throughput
    rows = []
    for w in workloads:
        lo, hi = w.spread("decisions_per_s")
        rows.append(
            [
                w.name,
                str(w.players),
                w.mode,
                num(w.median("games_per_s")),
                num(w.median("decisions_per_s")),
                f"{num(lo)}-{num(hi)}",
                f"{w.decisions() / w.games():.1f}",
                str(w.games()),
            ]
        )
    out.table(
        f"Throughput (median of {args.rounds} rounds)",
        [
            "engine",
            "players",
            "mode",
            "games/s",
            "decisions/s",
            "range over rounds",
            "decisions/game",
            "games",
        ],
        rows,
        note="decisions: player actions a record holds (no dealing, no gin_rummy passes; "
        "the trick-taking reference's every player action); "
        "new = a new initial state per game, cloned = a copy of one prepared state",
    )

    # How the games ended
    hoola_ws = [w for w in workloads if w.engine == "hoola"]
    if hoola_ws:
        rows = []
        for w in hoola_ws:
            ends = w.ends()
            total = sum(ends.values())
            other = sorted(set(ends) - set(HOOLA_ENDS))
            rows.append(
                [
                    f"{w.players}p",
                    w.mode,
                    *(pct(ends[e], total) for e in HOOLA_ENDS),
                    ", ".join(other) or "-",
                ]
            )
        out.table("How the Hoola deals ended", ["players", "mode", *HOOLA_ENDS, "other"], rows)
    gin_ws = [w for w in workloads if w.engine == "gin_rummy"]
    if gin_ws:
        rows = []
        for w in gin_ws:
            ends = w.ends()
            total = sum(ends.values())
            rows.append([w.mode, *(pct(ends[e], total) for e in GIN_ENDS)])
        out.table("How the gin_rummy games ended", ["mode", "knock (or gin)", "wall"], rows)

    # Memory
    if hoola_ws:
        rows = [
            [f"{w.players}p", f"{max(w.peak_kib):,.0f}", f"{statistics.median(w.peak_kib):,.0f}"]
            for w in hoola_ws
            if w.mode == "new" and w.peak_kib
        ]
        out.table(
            "Hoola memory: tracemalloc peak while one new deal is set up and played out "
            f"(over {len(hoola_ws[0].peak_kib)} deal(s))",
            ["players", "max KiB", "median KiB"],
            rows,
        )
    out.line(
        f"Process peak RSS (ru_maxrss): {rss_end:,.1f} MiB "
        f"(at start {rss_start:,.1f} MiB; includes pyspiel)"
    )

    # Ratios
    gin = {w.mode: w for w in gin_ws}
    ratios: dict[str, dict[str, Any]] = {}
    if len(gin) == 2 and hoola_ws:
        rows = []
        for n in sorted({w.players for w in hoola_ws}):
            hw = {w.mode: w for w in hoola_ws if w.players == n}
            if len(hw) != 2:
                continue
            entry: dict[str, Any] = {}
            cells = []
            for key, h, g in (
                ("new/new", hw["new"], gin["new"]),
                ("new/cloned", hw["new"], gin["cloned"]),
                ("cloned/cloned", hw["cloned"], gin["cloned"]),
            ):
                ratio = h.median("decisions_per_s") / g.median("decisions_per_s")
                per_round = [
                    a.decisions_per_s / b.decisions_per_s
                    for a, b in zip(h.rounds, g.rounds, strict=False)
                ]
                entry[key] = {"ratio": ratio, "per_round": per_round}
                cells.append(f"{ratio:.2f} ({min(per_round):.2f}-{max(per_round):.2f})")
            ratios[f"{n}p"] = entry
            rows.append([f"{n}p", *cells])
        out.table(
            "Decisions/s ratio, Hoola ÷ gin_rummy (ratio of medians; per-round range)",
            [
                "players",
                "hoola new ÷ gin new",
                "hoola new ÷ gin cloned",
                "hoola cloned ÷ gin cloned",
            ],
            rows,
        )
        kalookie_ws = [w for w in workloads if w.engine == "kalookie"]
        rows = []
        for n in sorted({w.players for w in kalookie_ws}):
            kw = {w.mode: w for w in kalookie_ws if w.players == n}
            cells = []
            for key, g in (("new", gin["new"]), ("cloned", gin["cloned"])):
                if key not in kw:
                    cells.append("-")
                    continue
                ratio = kw[key].median("decisions_per_s") / g.median("decisions_per_s")
                ratios.setdefault(f"kalookie {n}p", {})[f"{key}/{key}"] = {"ratio": ratio}
                cells.append(f"{ratio:.2f}")
            rows.append([f"{n}p", *cells])
        if rows:
            out.table("Decisions/s ratio, Kalookie (british) ÷ gin_rummy (ratio of medians)",
                      ["players", "kalookie new ÷ gin new", "kalookie cloned ÷ gin cloned"],
                      rows)
        if "4p" in ratios:
            goal = ratios["4p"]["new/new"]["ratio"]
            aim = ratios["4p"]["new/cloned"]["ratio"]
            out.line(
                f"Goal, 4p Hoola ÷ gin_rummy new state >= 1: {goal:.2f} "
                f"({'met' if goal >= 1 else 'not met'}); "
                f"aim, ÷ gin_rummy cloned state >= 1: {aim:.2f} "
                f"({'met' if aim >= 1 else 'not met'})"
            )

    vs_gin, vs_ref = capture_ratios(workloads, args.tricks, out)
    ratios.update(vs_gin)

    if args.json:
        data = {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "open_spiel": os_version,
            "hoola": api.version if api else None,
            "hoola_error": hoola_error,
            "seconds_per_workload": args.seconds,
            "rounds": args.rounds,
            "workloads": [
                {
                    "engine": w.engine,
                    "preset": w.preset or None,
                    "players": w.players,
                    "mode": w.mode,
                    "games_per_s": w.median("games_per_s"),
                    "decisions_per_s": w.median("decisions_per_s"),
                    "games": w.games(),
                    "decisions": w.decisions(),
                    "ends": dict(w.ends()),
                    "tracemalloc_peak_kib": w.peak_kib or None,
                    "rounds": [
                        {"games": r.games, "decisions": r.decisions, "seconds": r.seconds}
                        for r in w.rounds
                    ],
                }
                for w in workloads
            ],
            "max_rss_mib": rss_end,
            "ratios_decisions_per_s": ratios,
            "trick_reference": None if args.tricks == "none" else args.tricks,
            "ratios_decisions_per_s_vs_trick_reference": vs_ref,
        }
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n")
        out.line(f"JSON written to {args.json}")

    return 1 if failed or hoola_error or pyspiel is None else 0


if __name__ == "__main__":
    sys.exit(main())

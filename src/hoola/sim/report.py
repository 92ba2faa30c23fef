"""The ``hoola sim`` command's work: run a simulation with a progress bar and print its tables."""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from hoola.rules import Rules
from hoola.scoring import END_KINDS
from hoola.sim.simulation import GameOutcome, SimConfig, run, run_ray
from hoola.sim.stats import BotStats, RulesStats, bot_stats, margin, rules_stats

__all__ = ["compare_rules", "simulate"]


def _play(config: SimConfig, workers: int | None, ray_address: str | None, console: Console,
          label: str) -> list[GameOutcome]:
    if not console.is_terminal:
        return _play_logged(config, workers, ray_address, label)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(label, total=config.units)

        def advance(units: int) -> None:
            progress.advance(task, units)

        if ray_address is not None:
            return run_ray(config, ray_address, advance)
        return run(config, workers, advance)


def _console() -> Console:
    """A console as wide as the terminal, or 160 columns when the output is a file or a pipe."""
    return Console() if sys.stdout.isatty() else Console(width=160)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _play_logged(config: SimConfig, workers: int | None, ray_address: str | None,
                 label: str) -> list[GameOutcome]:
    """Without a terminal, progress goes to stderr as a line every 5% (for logs of long runs)."""
    done, step, start = 0, max(1, config.units // 20), time.monotonic()

    def advance(units: int) -> None:
        nonlocal done
        before, done = done, done + units
        if done // step != before // step or done == config.units:
            print(f"{label}: {done}/{config.units} units, {time.monotonic() - start:.0f} s",
                  file=sys.stderr, flush=True)

    if ray_address is not None:
        return run_ray(config, ray_address, advance)
    return run(config, workers, advance)


def bot_table(stats: Sequence[BotStats]) -> Table:
    """The per-bot table: stakes per deal with its 95% interval, win rate, end types, length."""
    kinds = [k for k in END_KINDS if any(s.ends.get(k) for s in stats)]
    table = Table(title="Bots (stakes per deal: mean ± 95% CI over units)")
    for col in ("bot", "deals", "stakes/deal", "win", *(f"won by {k}" for k in kinds),
                "undercut", "paid all", "turns", "s/deal"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for s in stats:
        table.add_row(s.bot, str(s.seat_deals), str(s.stakes), _pct(s.win_rate),
                      *(_pct(s.ends.get(k, 0.0)) for k in kinds), _pct(s.undercut_rate),
                      _pct(s.paid_all_rate), f"{s.turns:.1f}", f"{s.seconds_per_deal:.3f}")
    return table


def simulate(config: SimConfig, *, workers: int | None = None, ray_address: str | None = None,
             plot_dir: Path | None = None, records_dir: Path | None = None,
             console: Console | None = None) -> list[GameOutcome]:
    """Run ``config`` and print the bot table, the margins between bots and the ratings."""
    console = console or _console()
    if records_dir is not None:
        config = replace(config, records=True)
    games = _play(config, workers, ray_address, console, "deals")
    games_count = len(games)
    deals = sum(len(g.deals) for g in games)
    console.print(f"{config.units} units ({'duplicate' if config.duplicate else 'rotated'} "
                  f"seats), {games_count} games, {deals} deals, {config.players} players, rules "
                  f"{config.rules.preset_name}"
                  + (f" with {config.rules.overrides()}" if config.rules.overrides() else ""))
    bots = config.bots
    stats = bot_stats(games, bots)
    console.print(bot_table(stats))
    for a, b in itertools.combinations(bots, 2):
        m = margin(games, a, b)
        if m.n:
            verdict = "the 95% interval excludes zero" if m.excludes_zero else \
                "the 95% interval includes zero"
            console.print(f"{a} - {b}: {m} stakes per deal over {m.n} units ({verdict})")
    if len(bots) > 1:
        try:
            from hoola.sim.ratings import rate
        except ImportError:  # pragma: no cover - the sim extra brings openskill
            console.print("(ratings need openskill: pip install 'hoola[sim]')")
        else:
            table = Table(title="openskill ratings (Plackett-Luce, every deal)")
            for col in ("bot", "mu", "sigma", "ordinal", "deals"):
                table.add_column(col, justify="left" if col == "bot" else "right")
            for r in rate(games, bots):
                table.add_row(r.bot, f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{r.ordinal:.2f}",
                              str(r.deals))
            console.print(table)
    if plot_dir is not None:
        from hoola.sim.plots import plot_bots
        for path in plot_bots(stats, games, plot_dir):
            console.print(f"wrote {path}")
    if records_dir is not None:
        records_dir.mkdir(parents=True, exist_ok=True)
        for g in games:
            if g.record is not None:
                path = records_dir / f"unit{g.unit:06d}-seating{g.rotation + 1}.toml"
                path.write_text(g.record, encoding="utf-8")
        console.print(f"wrote {games_count} records to {records_dir}")
    return games


def rules_table(by_rules: Sequence[tuple[str, RulesStats]], players: int) -> Table:
    """How rule sets compare: end types, stakes per deal, each seat's edge from the dealer."""
    kinds = [k for k in END_KINDS if any(r.ends.get(k) for _, r in by_rules)]
    table = Table(title="Rules compared (seat edges: mean stakes per deal ± 95% CI)")
    seats = ["dealer", *(f"dealer+{k}" for k in range(1, players))]
    for col in ("rules", "deals", *kinds, "stakes/deal", *seats, "turns"):
        table.add_column(col, justify="left" if col == "rules" else "right")
    for name, r in by_rules:
        table.add_row(name, str(r.deals), *(_pct(r.ends.get(k, 0.0)) for k in kinds),
                      f"{r.stakes.mean:.2f} ± {r.stakes.half:.2f}",
                      *(str(e) for e in r.seat_edges), f"{r.turns:.1f}")
    return table


def compare_rules(config: SimConfig, presets: Sequence[str], overrides: dict[str, object], *,
                  workers: int | None = None, ray_address: str | None = None,
                  plot_dir: Path | None = None,
                  console: Console | None = None) -> list[tuple[str, RulesStats]]:
    """Run ``config`` under each preset and print how the rules change the game.

    ``stakes/deal`` is what the winners collect per deal; a seat's edge is its mean payment.
    """
    console = console or _console()
    by_rules: list[tuple[str, RulesStats]] = []
    for preset in presets:
        rules = Rules.preset(preset, **overrides)
        games = _play(replace(config, rules=rules), workers, ray_address, console, preset)
        by_rules.append((preset, rules_stats(games, config.players)))
    console.print(f"{config.units} units per rule set, bots {', '.join(config.lineup)}, "
                  f"{config.players} players")
    console.print(rules_table(by_rules, config.players))
    if plot_dir is not None:
        from hoola.sim.plots import plot_rules
        for path in plot_rules(by_rules, plot_dir):
            console.print(f"wrote {path}")
    return by_rules

"""The ``hoola sim`` command's work: run a simulation with a progress bar and print its tables.

The tables are the same for every game: its end kinds and tags as it names them
(:class:`~hoola.core.game.Outcome`), a table per team when the game has teams.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from hoola.core.game import GameWithMissions
from hoola.core.game import Rules as GameRules
from hoola.core.registry import get_game
from hoola.sim.simulation import GameOutcome, SimConfig, run, run_ray
from hoola.sim.stats import (
    BotStats,
    MissionStats,
    RulesStats,
    TeamStats,
    bot_stats,
    margin,
    mission_stats,
    rules_stats,
    team_stats,
)

__all__ = ["bot_table", "compare_rules", "ends_table", "errors_lines", "margins_table",
           "missions_table", "rules_label", "rules_table", "simulate", "teams_table"]


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


def _table(title: str, *columns: str, first_width: int | None = None) -> Table:
    """A table that fits an 80-column terminal: no side borders, numbers never wrapped."""
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True,
                  title_justify="left", min_width=len(title))  # a title on one line
    for i, col in enumerate(columns):
        if i == 0:
            table.add_column(col, justify="left", overflow="fold", min_width=first_width)
        else:
            table.add_column(col, justify="right", no_wrap=True)
    return table


def _row(table: Table, *cells: str) -> None:
    """Add a row of plain text: names and reasons are data, never Rich markup."""
    table.add_row(*(Text(c) for c in cells))


def rules_label(rules: GameRules) -> str:
    """The rules in a few words: the preset, and the options that differ from it."""
    overrides = rules.overrides()
    return rules.preset_name + (f" with {overrides}" if overrides else "")


def bot_table(stats: Sequence[BotStats]) -> Table:
    """The per-bot table: stakes per deal with its 95% interval, win rate, forfeits if any."""
    forfeits = any(s.forfeits for s in stats)
    table = _table("Bots: stakes won per deal (mean ± 95% CI over units)", "bot", "deals",
                   "stakes/deal", "win", *(("forfeits",) if forfeits else ()))
    for s in stats:
        _row(table, s.bot, str(s.seat_deals), str(s.stakes), _pct(s.win_rate),
             *((str(s.forfeits),) if forfeits else ()))
    return table


def teams_table(stats: Sequence[TeamStats]) -> Table:
    """The per-team table: the team's stakes per deal with its 95% interval, its win rate."""
    table = _table("Teams: stakes won per deal by the team (mean ± 95% CI over units)", "team",
                   "deals", "stakes/deal", "win")
    for s in stats:
        _row(table, s.team, str(s.deals), str(s.stakes), _pct(s.win_rate))
    return table


def ends_table(stats: Sequence[BotStats]) -> Table:
    """How each bot's deals went, one column per bot (a handful of bots fit 80 columns): its wins
    by end type, what befell it by the game's tags (Hoola's undercut, paid for all), deal
    length, time."""
    kinds = list(dict.fromkeys(k for s in stats for k in s.ends))
    title = "How each bot's deals went (share of its deals)"
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True,
                  title_justify="left", min_width=len(title))
    table.add_column("", justify="left", no_wrap=True)
    for s in stats:
        table.add_column(Text(s.bot), justify="right", overflow="fold", min_width=6)
    for k in kinds:
        _row(table, f"won by {k}", *(_pct(s.ends.get(k, 0.0)) for s in stats))
    for tag in dict.fromkeys(t for s in stats for t in s.tags):
        _row(table, tag, *(_pct(s.tags.get(tag, 0.0)) for s in stats))
    _row(table, "turns per deal", *(f"{s.turns:.1f}" for s in stats))
    _row(table, "seconds per deal", *(f"{s.seconds_per_deal:.3f}" for s in stats))
    return table


def missions_table(stats: Sequence[MissionStats], bots: Sequence[str]) -> Table:
    """The missions drawn, one row per feat: the deals that drew it, the deals whose winner
    achieved it and their share, then each bot's share (deals won with the feat by a seat of
    that bot, of the deals that drew it); a last row for every mission."""
    title = "Missions: feats drawn and achieved by the winner (the project's own list)"
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True,
                  title_justify="left", min_width=len(title))
    table.add_column("feat", justify="left", no_wrap=True)
    for col in ("drawn", "achieved", "rate"):
        table.add_column(col, justify="right", no_wrap=True)
    for bot in bots:
        table.add_column(Text(bot), justify="right", overflow="fold", min_width=6)

    def share(count: int, drawn: int) -> str:
        return _pct(count / drawn) if drawn else "-"  # a feat never drawn has no rate

    for m in stats:
        _row(table, m.feat, str(m.drawn), str(m.achieved), share(m.achieved, m.drawn),
             *(share(m.by_bot.get(b, 0), m.drawn) for b in bots))
    drawn = sum(m.drawn for m in stats)
    achieved = sum(m.achieved for m in stats)
    table.add_section()
    _row(table, "every feat", str(drawn), str(achieved), share(achieved, drawn),
         *(share(sum(m.by_bot.get(b, 0) for m in stats), drawn) for b in bots))
    return table


def margins_table(games: Sequence[GameOutcome], bots: Sequence[str]) -> Table | None:
    """The margin of each pair of bots, paired by unit, or None with a single bot."""
    table = _table("Margins: a - b in stakes per deal (paired by unit)", "a - b", "margin",
                   "units", "95% CI")
    for a, b in itertools.combinations(bots, 2):
        m = margin(games, a, b)
        if m.n:
            _row(table, f"{a} - {b}", str(m), str(m.n),
                 "excludes 0" if m.excludes_zero else "includes 0")
    return table if table.row_count else None


def errors_lines(games: Sequence[GameOutcome]) -> list[str]:
    """Every bot error of the run, one line each: bot, seat, unit, seating, deal, what it did."""
    lines = []
    for g in games:
        for e in g.errors:
            outcome = "forfeited the deal" if e.forfeit else "after the deal (it stands)"
            lines.append(f"{e.bot} (seat {e.seat + 1}), unit {e.unit}, seating {e.rotation + 1},"
                         f" deal {e.deal + 1}: {outcome}: {e.reason}")
    return lines


def simulate(config: SimConfig, *, workers: int | None = None, ray_address: str | None = None,
             plot_dir: Path | None = None, records_dir: Path | None = None,
             console: Console | None = None) -> list[GameOutcome]:
    """Run ``config`` and print the bot tables, the margins, the ratings and every bot error.

    Check the extras first (:func:`hoola.sim.cli.missing_extras`): the run is not started again.
    """
    console = console or _console()
    if records_dir is not None:
        config = replace(config, records=True)
    games = _play(config, workers, ray_address, console, "deals")
    games_count = len(games)
    deals = sum(len(g.deals) for g in games)
    console.print(f"{get_game(config.game).title}: {config.units} units "
                  f"({'duplicate' if config.duplicate else 'rotated'} seats), {games_count} "
                  f"games, {deals} deals, {config.players} players, rules "
                  f"{rules_label(config.rules)}", markup=False, highlight=False)
    bots = config.bots
    stats = bot_stats(games, bots)
    console.print(bot_table(stats))
    teams = team_stats(games)
    if teams:
        console.print(teams_table(teams))
    console.print(ends_table(stats))
    game = get_game(config.game)
    feats = game.mission_feats() if isinstance(game, GameWithMissions) else ()
    missions = mission_stats(games, feats, bots)
    if missions:
        console.print(missions_table(missions, bots))
    margins = margins_table(games, bots)
    if margins is not None:
        console.print(margins)
    if len(bots) > 1:
        from hoola.sim.ratings import RATED, rate

        table = _table(f"openskill ratings: {RATED}", "bot", "mu", "sigma", "ordinal",
                       "units")
        for r in rate(games, bots):
            _row(table, r.bot, f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{r.ordinal:.2f}", str(r.units))
        console.print(table)
    if plot_dir is not None:
        from hoola.sim.plots import plot_bots
        for path in plot_bots(stats, games, plot_dir):
            console.print(f"wrote {path}", markup=False, highlight=False)
    if records_dir is not None:
        records_dir.mkdir(parents=True, exist_ok=True)
        written = 0
        for g in games:
            if g.record is not None:
                path = records_dir / f"unit{g.unit:06d}-seating{g.rotation + 1}.toml"
                path.write_text(g.record, encoding="utf-8")
                written += 1
        console.print(f"wrote {written} records to {records_dir}", markup=False,
                      highlight=False)
    errors = errors_lines(games)
    if errors:
        forfeited = sum(1 for g in games for d in g.deals if d.forfeit is not None)
        console.print(f"{len(errors)} bot errors, {forfeited} deals forfeited (the faulty bot "
                      "paid, see docs/bots.md):", markup=False, highlight=False)
        for line in errors:
            console.print(f"  {line}", markup=False, highlight=False, overflow="fold")
    return games


def rules_table(by_rules: Sequence[tuple[str, RulesStats]], players: int) -> Table:
    """How rule sets compare, one column each (four fit 80 columns): end types (the most
    frequent first), stakes changing hands per deal, deal length, and each seat's edge counted
    from the dealer (from the first seat in a game without one)."""
    totals: dict[str, float] = {}
    for _, r in by_rules:
        for k, share in r.ends.items():
            totals[k] = totals.get(k, 0.0) + share
    kinds = sorted(totals, key=lambda k: (-totals[k], k))
    from_dealer = any(r.from_dealer for _, r in by_rules)
    title = "Rules compared (ends: share of deals; stakes/deal, seat edges: mean ± 95% CI)"
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True,
                  title_justify="left", min_width=len(title))
    table.add_column("", justify="left", no_wrap=True)
    for name, _ in by_rules:
        table.add_column(Text(name), justify="right")  # wraps at "±" rather than cut
    rules = [r for _, r in by_rules]
    _row(table, "deals", *(str(r.deals) for r in rules))
    for k in kinds:
        _row(table, k, *(_pct(r.ends.get(k, 0.0)) for r in rules))
    _row(table, "stakes/deal", *(str(r.stakes).lstrip("+") for r in rules))
    _row(table, "turns", *(f"{r.turns:.1f}" for r in rules))
    for seat in range(players):
        label = ("dealer" if seat == 0 else f"dealer+{seat}") if from_dealer else \
            f"seat {seat + 1}"
        _row(table, label, *(str(r.seat_edges[seat]) for r in rules))
    return table


def compare_rules(config: SimConfig, presets: Sequence[str], overrides: dict[str, object], *,
                  workers: int | None = None, ray_address: str | None = None,
                  plot_dir: Path | None = None,
                  console: Console | None = None) -> list[tuple[str, RulesStats]]:
    """Run ``config`` under each preset and print how the rules change the game.

    ``stakes/deal`` is what the winners collect per deal; a seat's edge is its mean payment.
    """
    console = console or _console()
    game = get_game(config.game)
    by_rules: list[tuple[str, RulesStats]] = []
    errors: list[str] = []
    for preset in presets:
        rules = game.rules(preset, overrides)
        games = _play(replace(config, rules=rules), workers, ray_address, console, preset)
        by_rules.append((preset, rules_stats(games, config.players)))
        errors.extend(f"{preset}: {line}" for line in errors_lines(games))
    console.print(f"{game.title}: {config.units} units per rule set, bots "
                  f"{', '.join(config.lineup)}, {config.players} players", markup=False,
                  highlight=False)
    console.print(rules_table(by_rules, config.players))
    if plot_dir is not None:
        from hoola.sim.plots import plot_rules
        for path in plot_rules(by_rules, plot_dir):
            console.print(f"wrote {path}", markup=False, highlight=False)
    if errors:
        console.print(f"{len(errors)} bot errors (a forfeited deal counts as ended by forfeit):",
                      markup=False, highlight=False)
        for line in errors:
            console.print(f"  {line}", markup=False, highlight=False, overflow="fold")
    return by_rules

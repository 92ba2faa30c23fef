"""The ``hoola tournament`` command's work: set a tournament up from the options, play it
between bots with a progress bar, print the standings, write the record.

Everything is checked before the first hand: the game and preset, the options, the settings,
the bots, the number of entrants; a problem is one line, never a traceback.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from hoola.core.errors import HoolaError
from hoola.core.game import Game
from hoola.core.records import format_number
from hoola.core.registry import game_and_preset, resolve
from hoola.tournament.config import BLACKPOOL_ENTRANTS
from hoola.tournament.events import (
    Enter,
    Event,
    Result,
    Seat,
    Start,
    TournamentError,
    describe,
)
from hoola.tournament.play import bot_for, entrant_names, play
from hoola.tournament.record import dumps
from hoola.tournament.state import Tournament

__all__ = ["ratings_of", "run_tournament", "standings_rows"]


def _default_bots(game: Game) -> str:
    """The expert against the game's next bot down: its greedy one where it has one."""
    return "expert,greedy" if "greedy" in game.bots() else "expert,random"


def ratings_of(t: Tournament) -> dict[str, Any] | None:
    """Each entrant's openskill rating after the tournament's tables, in the order they ended
    (partners rated as a team); None without openskill (the ``sim`` extra)."""
    try:
        import openskill  # noqa: F401
    except ImportError:
        return None
    from hoola.core.registry import get_game
    from hoola.sim.ratings import places_of, rate_places

    game = get_game(t.game)
    ratings: dict[str, Any] = {}
    for event in t.events:
        if not isinstance(event, Result):
            continue
        players = t.tables[event.table].players
        teams = game.teams(t.rules, len(players)) or tuple((q,) for q in range(len(players)))
        sides = [[players[q] for q in team] for team in teams]
        places = places_of([float(event.places[side[0]]) for side in sides])
        ratings.update(rate_places(ratings, sides, places))
    return ratings


def standings_rows(t: Tournament, lineup: Mapping[str, str]) -> tuple[list[str], list[list[str]]]:
    """The standings as a table: its headings and one row an entrant, best first."""
    ratings = ratings_of(t)
    tables = {p: sum(1 for tb in t.tables.values() if p in tb.players) for p in t.entrants}
    head = ["#", "player", "bot"]
    if t.format == "swiss":
        head += ["points", "Buchholz"]
    elif t.format == "knockout":
        head += ["last round"]
    else:
        head += ["money", "buy-ins", "reached"]
    head += ["tables"]
    if ratings is not None:
        head += ["rating"]
    rows = []
    for i, p in enumerate(t.standings(), 1):
        row = [str(i), p, lineup.get(p, "")]
        if t.format == "swiss":
            row += [format_number(t.points[p]), format_number(t.buchholz(p))]
        elif t.format == "knockout":
            row += [str(t.reached.get(p, (0, 0))[0])]
        else:
            reached = "winner" if p == t.winner else "final" if p in t.finalists else \
                "semi-final" if p in t.qualified else "tables"
            row += [format_number(t.money[p]), str(t.buy_ins[p]), reached]
        row.append(str(tables[p]))
        if ratings is not None:
            skill = ratings.get(p)
            row.append("" if skill is None else f"{skill.ordinal:.1f}")
        rows.append(row)
    return head, rows


def _settings(format: str, *, rounds: int | None, table_size: int | None, points: str | None,
              bye: str | None, advance: int | None, deals: int | None,
              tables: int | None) -> dict[str, Any]:
    given: dict[str, Any] = {}
    for key, value in (("rounds", rounds), ("table_size", table_size), ("advance", advance),
                       ("deals", deals), ("tables", tables), ("bye", bye)):
        if value is not None:
            given[key] = value
    if points is not None:
        given["points"] = [p.strip() for p in points.split(",") if p.strip()]
    return given


def run_tournament(*, format: str, game_name: str | None, preset: str | None,
                   options: Mapping[str, Any], entrants: int | None, bots: str | None,
                   seed: int | None, output: Path | None, rounds: int | None = None,
                   table_size: int | None = None, points: str | None = None,
                   bye: str | None = None, advance: int | None = None,
                   deals: int | None = None, tables: int | None = None) -> None:
    """Run ``hoola tournament``: check, play with progress, print the standings, write."""
    if game_name is None and format == "blackpool":
        game_name = resolve("blackpool")[0].name  # the game whose preset gives the format its name
    try:
        game, preset = game_and_preset(game_name, preset)
    except HoolaError as exc:
        raise click.BadParameter(exc.message, param_hint="--game") from exc
    if entrants is None:
        entrants = 16 if format == "blackpool" else 8
    if format == "blackpool" and not BLACKPOOL_ENTRANTS[0] <= entrants <= BLACKPOOL_ENTRANTS[1]:
        raise click.BadParameter(f"a Blackpool tournament has {BLACKPOOL_ENTRANTS[0]} to "
                                 f"{BLACKPOOL_ENTRANTS[1]} entrants, not {entrants}",
                                 param_hint="--entrants")
    kinds = [b.strip() for b in (bots or _default_bots(game)).split(",") if b.strip()]
    if not kinds:
        raise click.BadParameter("name at least one bot", param_hint="--bots")
    settings = _settings(format, rounds=rounds, table_size=table_size, points=points, bye=bye,
                         advance=advance, deals=deals, tables=tables)
    try:
        t = Tournament.open(format, game.name, preset, dict(options), settings)
    except HoolaError as exc:
        raise click.UsageError(exc.message) from exc
    notes: list[str] = []
    for kind in dict.fromkeys(kinds):
        try:
            note = bot_for(game, kind, 0, t.rules)[1]
        except (HoolaError, ValueError) as exc:
            message = exc.message if isinstance(exc, HoolaError) else str(exc)
            raise click.BadParameter(message, param_hint="--bots") from exc
        if note:
            notes.append(note)
    lineup = entrant_names(kinds, entrants)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    try:
        for name in lineup:
            t.apply(Enter(name))
        t.apply(Start(seed))
    except TournamentError as exc:
        raise click.UsageError(exc.message) from exc
    if output is not None:
        _check_writable(output)
    from rich.console import Console

    console = Console() if sys.stdout.isatty() else Console(width=120)
    for note in notes:
        console.print(note)
    games = _play_with_progress(t, lineup, seed, console)
    _print_standings(t, lineup, seed, console)
    if output is not None:
        records = {i: game.record_text(m) for i, m in games.items()}
        try:
            output.write_text(dumps(t, records), encoding="utf-8")
        except OSError as exc:
            raise click.ClickException(f"cannot write {output}: {exc.strerror or exc}") from exc
        console.print(f"Record written to {output} ({len(records)} tables, "
                      f"{len(t.events)} events): hoola verify {output}", highlight=False,
                      markup=False)


def _check_writable(output: Path) -> None:
    if output.is_dir():
        raise click.BadParameter(f"{output} is a folder, not a file", param_hint="--output")
    if not output.parent.exists():
        raise click.BadParameter(f"the folder {output.parent} does not exist",
                                 param_hint="--output")


def _play_with_progress(t: Tournament, lineup: Mapping[str, str], seed: int,
                        console: Any) -> dict[int, Any]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    columns = (TextColumn("[progress.description]{task.description}"), BarColumn(),
               MofNCompleteColumn(), TextColumn("{task.fields[last]}"))
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(f"{t.format} tables", total=1, last="")

        def heard(event: Event) -> None:
            if isinstance(event, Seat | Result):
                done = sum(1 for tb in t.tables.values() if tb.is_over)
                progress.update(task, total=max(len(t.tables), 1), completed=done)
            progress.update(task, last=describe(event)[:60])

        try:
            return play(t, lineup, seed=seed, on_event=heard)
        except TournamentError as exc:
            raise click.ClickException(exc.message) from exc
        except HoolaError as exc:
            raise click.ClickException(f"a table could not be played: {exc.message}") from exc


def _print_standings(t: Tournament, lineup: Mapping[str, str], seed: int, console: Any) -> None:
    from rich import box
    from rich.table import Table

    head, rows = standings_rows(t, lineup)
    title = f"{t.format.capitalize()} tournament of {t.game} ({t.preset}), seed {seed}"
    table = Table(*head, title=title, box=box.SIMPLE_HEAVY)
    for row in rows:
        table.add_row(*row)
    console.print(table)
    line = f"{t.winner} wins, after {len(t.tables)} tables"
    if t.format == "blackpool":
        line += (f"; the pot of {format_number(t.pot)} (entries "
                 f"{format_number(t.entry_fee * len(t.entrants))}, buy-ins "
                 f"{format_number(t.pot - t.entry_fee * len(t.entrants))}) goes to the winner")
    console.print(line + ".", highlight=False, markup=False)


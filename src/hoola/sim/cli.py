"""Glue between the ``hoola sim`` command's options and the simulation.

Everything is checked before the first deal: the game, the number of players, the bot specs, the
external bots' names and programs, the rules, and the optional libraries the report will need.
"""

from __future__ import annotations

import importlib
import itertools
import re
import shutil
from collections.abc import Sequence
from pathlib import Path

import click

from hoola.core.errors import HoolaError
from hoola.core.game import Game
from hoola.core.registry import game_and_preset
from hoola.sim.simulation import SimConfig, make_player

__all__ = ["missing_extras", "parse_externals", "parse_pythons", "run_sim"]

_NAME = re.compile(r"[A-Za-z0-9_-]+")


def missing_extras(*, ratings: bool, plots: bool, ray: bool) -> str | None:
    """What the run will need but cannot import, with the install command; None if nothing."""
    needed = [("rich", "the tables", "sim")]
    if ratings:
        needed.append(("openskill", "the ratings", "sim"))
    if plots:
        needed.append(("matplotlib", "--plot", "sim"))
    if ray:
        needed.append(("ray", "--ray", "ray"))
    missing = []
    for module, purpose, extra in needed:
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append((module, purpose, extra))
    if not missing:
        return None
    extras = ",".join(dict.fromkeys(extra for _, _, extra in missing))
    what = ", ".join(f"{m} (for {p})" for m, p, _ in missing)
    from hoola.install import install_command

    return f"hoola sim needs {what}: {install_command(extras)}"


def parse_externals(pairs: Sequence[str], game: Game | None = None) -> list[tuple[str, str]]:
    """``NAME=COMMAND`` pairs, each name new (no bot kind of ``game``) and each program found,
    else a usage error."""
    from hoola.bots import bot_kinds
    from hoola.bots.external import ExternalBotError, split_command

    external: list[tuple[str, str]] = []
    for pair in pairs:
        name, sep, command = pair.partition("=")
        name, command = name.strip(), command.strip()
        if not sep or not name or not command:
            raise click.BadParameter(f"{pair!r} is not NAME=COMMAND", param_hint="--external")
        if not _NAME.fullmatch(name):
            raise click.BadParameter(f"name {name!r}: use letters, digits, _ and - only",
                                     param_hint="--external")
        if name in bot_kinds(game) or name in dict(external):
            raise click.BadParameter(f"name {name!r} is taken (by a bot kind, a level or "
                                     "another --external): choose another",
                                     param_hint="--external")
        try:
            program = split_command(command)[0]
        except ExternalBotError as exc:
            raise click.BadParameter(f"{name}: {exc.message}", param_hint="--external") from exc
        if shutil.which(program) is None:
            where = "not an executable file" if "/" in program else "not found on PATH"
            raise click.BadParameter(f"{name}: program {program!r} is {where}",
                                     param_hint="--external")
        external.append((name, command))
    return external


def parse_pythons(pairs: Sequence[str], taken: Sequence[tuple[str, str]],
                  game: Game | None = None) -> list[tuple[str, str]]:
    """``NAME=FILE:CLASS`` pairs, each name new and each class loadable, as the lab's outside
    bots (``python:FILE:CLASS``), else a usage error."""
    from hoola.bots import bot_kinds
    from hoola.bots.plugin import PREFIX, check_target

    found: list[tuple[str, str]] = []
    for pair in pairs:
        name, sep, target = (part.strip() for part in pair.partition("="))
        if not sep or not name or not target:
            raise click.BadParameter(f"{pair!r} is not NAME=FILE:CLASS", param_hint="--python")
        if not _NAME.fullmatch(name):
            raise click.BadParameter(f"name {name!r}: use letters, digits, _ and - only",
                                     param_hint="--python")
        if name in bot_kinds(game) or name in dict([*taken, *found]):
            raise click.BadParameter(f"name {name!r} is taken (by a bot kind, a level or "
                                     "another outside bot): choose another",
                                     param_hint="--python")
        try:
            check_target(target)
        except ValueError as exc:
            raise click.BadParameter(f"{name}: {exc}", param_hint="--python") from exc
        found.append((name, PREFIX + target))
    return found


def _check_lineup(lineup: Sequence[str], external: Sequence[tuple[str, str]],
                  game: Game) -> None:
    """Build each bot once (no program starts): bad names and options fail here, not later."""
    for spec in lineup:
        try:
            make_player(spec, 0, external, game=game)
        except (ValueError, TypeError, HoolaError) as exc:
            message = exc.message if isinstance(exc, HoolaError) else str(exc)
            if message.startswith("unknown bot") and external:
                message += f"; external bots are {', '.join(n for n, _ in external)}"
            elif ":" in spec and spec not in message:
                message = f"{spec}: {message}"
            raise click.BadParameter(message, param_hint="--bots") from exc


def _game_and_players(name: str | None, players: int | None,
                      preset: str | None = None) -> tuple[Game, int, str | None]:
    """The registered game (or the game of a preset named as a game), the number of seats (four
    by default, or as near as the game allows) and the preset, else a usage error naming the
    games or the range."""
    try:
        game, preset = game_and_preset(name, preset)
    except HoolaError as exc:
        raise click.BadParameter(exc.message, param_hint="--game") from exc
    if players is None:
        return game, min(max(4, game.min_players), game.max_players), preset
    if not game.min_players <= players <= game.max_players:
        raise click.BadParameter(f"{game.title} is played by {game.min_players} to "
                                 f"{game.max_players} players, not {players}",
                                 param_hint="--players")
    return game, players, preset


def _rules(game: Game, preset: str, options: dict[str, object], players: int,
           hint: str) -> object:
    """The game's rules from a preset and options, checked by dealing once at ``players``
    seats (a preset may seat fewer than the game does), else a usage error."""
    try:
        rules = game.rules(preset, options)
    except HoolaError as exc:
        raise click.BadParameter(exc.message, param_hint=hint) from exc
    try:
        game.new_match(rules, [f"p{s + 1}" for s in range(players)], seed=0).new_deal()
    except HoolaError as exc:
        raise click.BadParameter(exc.message, param_hint=f"--players with {preset}") from exc
    return rules


def run_sim(*, bots: str | None, deals: int, players: int | None, preset: str | None,
            options: dict[str, object], duplicate: bool, match_deals: int, round_robin: bool,
            seed: int, workers: int | None, externals: Sequence[str], plot_dir: Path | None,
            records_dir: Path | None, ray_address: str | None, compare: str | None,
            game_name: str | None = None, pythons: Sequence[str] = ()) -> None:
    """Check the options, build the :class:`SimConfig` and run it (or the rules comparison)."""
    game, players, preset = _game_and_players(game_name, players, preset)
    external = parse_externals(externals, game)
    external += parse_pythons(pythons, external, game)
    if bots is None:  # the game's own bots, strongest first, against random if it has one
        own = list(reversed(list(game.bots())))
        bots = ",".join(own if len(own) > 1 else [*own, "random"])
    lineup = tuple(b.strip() for b in bots.split(",") if b.strip())
    if not lineup:
        raise click.BadParameter("name at least one bot", param_hint="--bots")
    _check_lineup(lineup, external, game)
    rules = _rules(game, preset or game.default_preset, options, players, "--rules/--option")
    for spec in dict.fromkeys(lineup):  # a bot that plays some tables only (learned) says so now
        check_table = getattr(make_player(spec, 0, external, game=game), "check_table", None)
        try:
            if check_table is not None:
                check_table(rules, players)
        except ValueError as exc:
            raise click.BadParameter(f"{spec}: {exc}", param_hint="--bots") from exc
    pairs: tuple[tuple[str, ...], ...] = ()
    distinct = tuple(dict.fromkeys(lineup))
    if round_robin:
        if len(distinct) < 2:
            raise click.BadParameter("a round robin needs two bots or more", param_hint="--bots")
        pairs = tuple(itertools.combinations(distinct, 2))
    presets = [p.strip() for p in compare.split(",") if p.strip()] if compare else []
    for p in presets:
        _rules(game, p, options, players, "--compare-rules")
    if compare is not None and not presets:
        raise click.BadParameter("name at least one preset", param_hint="--compare-rules")
    missing = missing_extras(ratings=len(distinct) > 1 and not presets,
                             plots=plot_dir is not None, ray=ray_address is not None)
    if missing:
        raise click.ClickException(missing)
    from hoola.sim.report import compare_rules, simulate

    config = SimConfig(lineup, rules, players=players, units=deals, seed=seed,
                       duplicate=duplicate, match_deals=match_deals, external=tuple(external),
                       round_robin=pairs, game=game.name)
    if presets:
        compare_rules(config, presets, options, workers=workers, ray_address=ray_address,
                      plot_dir=plot_dir)
        return
    simulate(config, workers=workers, ray_address=ray_address, plot_dir=plot_dir,
             records_dir=records_dir)

"""``hoola play``'s two ways to play: Hoola's own front ends, and the generic ones every other
game plays in (full screen, or line by line when asked or when there is no terminal).

The command line reads the options into a :class:`PlayRequest`; the game's touch
(:mod:`hoola.terminal.touches`) says which way it plays. Refusals are click errors of one line; no
Textual import here, so the plain games work without it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from hoola.core.errors import HoolaError
from hoola.core.game import Game

__all__ = ["HOOLA_DEALS", "NAME_RE", "OWN", "PlayRequest", "play", "play_any", "play_hoola"]

HOOLA_DEALS = 10
"""Deals of ``hoola play`` (Hoola) unless ``--deals`` says otherwise: a match with the running
score, as a table plays an evening's session. Hoola has no end of its own (no target), so the
front end sets one; the person may leave at any deal (the game is saved, and ``--resume`` goes on).
"""

NAME_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A player's name: one word of notation (the records name players so in every game)."""


@dataclass(frozen=True, slots=True)
class PlayRequest:
    """What ``hoola play`` was asked: None where an option was left to the game's default."""

    game: Game
    players: int = 4
    preset: str | None = None
    options: dict[str, Any] | None = None
    seed: int | None = None
    bots: tuple[str, ...] | None = None
    deals: int | None = None
    name: str = "You"
    save: Path | None = None
    resume: Path | None = None
    claim_seconds: float = 5.0
    bot_delay: float = 0.6
    bot_reaction: tuple[float, float] = (0.8, 1.5)
    plain: bool = False


def _full_screen(plain: bool) -> bool:
    """Whether to open the full screen: asked for, on a terminal, with Textual installed."""
    if plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    try:
        import textual  # noqa: F401
    except ImportError as exc:
        from hoola.install import install_command

        click.echo(f"The full-screen game needs Textual ({exc.name} is missing): "
                   f"{install_command('cli')}. Playing line by line.", err=True)
        return False
    return True


def _check_name(name: str) -> None:
    if not NAME_RE.fullmatch(name):
        raise click.BadParameter("use letters, digits, _ and - only", param_hint="--name")


def _check_players(game: Game, players: int) -> None:
    if not game.min_players <= players <= game.max_players:
        raise click.BadParameter(f"{game.name} is played by {game.min_players} to "
                                 f"{game.max_players} players, not {players}",
                                 param_hint="--players")


def _failed(exc: Exception, resume: Path | None, save: Path | None) -> click.ClickException:
    """A HoolaError or OSError as the one line the command prints."""
    if isinstance(exc, HoolaError):
        prefix = f"cannot resume {resume}: " if resume is not None else ""
        return click.ClickException(prefix + exc.message)
    assert isinstance(exc, OSError)
    why = exc.strerror or str(exc)
    if resume is not None and exc.filename == str(resume):
        return click.ClickException(f"cannot read {resume}: {why}")
    return click.ClickException(f"cannot save the game to {resume or save or exc.filename}: "
                               f"{why}")


def play_hoola(r: PlayRequest) -> None:
    """Hoola in its own front ends: the bots' kinds and levels, claims against the clock."""
    from hoola.bots import check_bot_kind
    from hoola.games.hoola.rules import Rules
    from hoola.terminal.hoola_plain import run_terminal_game

    kinds = list(r.bots or ("greedy",))
    try:
        for kind in kinds:
            check_bot_kind(kind)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--bots") from exc
    try:
        rules = Rules.preset(r.preset or "pagat", **(r.options or {}))
    except HoolaError as exc:
        raise click.BadParameter(exc.message, param_hint="--rules/--option") from exc
    _check_players(r.game, r.players)
    _check_name(r.name)
    deals = r.deals or HOOLA_DEALS
    try:
        if _full_screen(r.plain):
            from hoola.terminal import run_tui

            session = run_tui(rules, players=r.players, bots=kinds, seed=r.seed, deals=deals,
                              name=r.name, save=r.save, resume=r.resume,
                              claim_seconds=r.claim_seconds, bot_delay=r.bot_delay,
                              bot_reaction=r.bot_reaction)
            path = session.path
            click.echo(f"Game saved to {path} (check it with: hoola verify {path})")
            if not session.is_over:
                click.echo(f"Go on with: hoola play --resume {path}")
            return
        run_terminal_game(rules, players=r.players, bots=kinds, seed=r.seed, deals=deals,
                          name=r.name, save=r.save, resume=r.resume, bot_reaction=r.bot_reaction)
    except (HoolaError, OSError) as exc:
        raise _failed(exc, r.resume, r.save) from exc


def play_any(r: PlayRequest) -> None:
    """Any game in the generic front ends, drawn from its table as data."""
    from hoola.bots import check_seat_kind
    from hoola.terminal.plain import run_plain_game
    from hoola.terminal.saves import SavedGame, default_save_path, forget_if_empty

    game = r.game
    kinds = list(r.bots or ("expert",))
    try:
        for kind in kinds:
            check_seat_kind(kind)
    except ValueError as exc:
        raise click.BadParameter(f"{exc} (for {game.name}; the other kinds and levels are "
                                 "Hoola's)", param_hint="--bots") from exc
    if r.bots is None:
        kinds = [_default_bot(game)]
    if r.resume is None:
        try:
            game.rules(r.preset, r.options or {})
        except HoolaError as exc:
            raise click.BadParameter(exc.message, param_hint="--rules/--option") from exc
        _check_players(game, r.players)
        _check_name(r.name)
    try:
        if r.resume is not None:
            saved = SavedGame.resume(r.resume, seed=r.seed)
        else:
            path = r.save or default_save_path(game=game.name)
            try:
                saved = SavedGame.new(game, preset=r.preset, options=r.options,
                                      players=r.players, bots=kinds, seed=r.seed, deals=r.deals,
                                      name=r.name, path=path)
            finally:
                if r.save is None:
                    forget_if_empty(path)
        if _full_screen(r.plain):
            from hoola.terminal.table_app import run_table_app

            run_table_app(saved, claim_seconds=r.claim_seconds, bot_delay=r.bot_delay,
                          bot_reaction=r.bot_reaction)
            click.echo(f"Game saved to {saved.path} (check it with: hoola verify {saved.path})")
            if not saved.is_over:
                click.echo(f"Go on with: hoola play --resume {saved.path}")
            return
        run_plain_game(saved, bot_reaction=r.bot_reaction)
    except (HoolaError, OSError) as exc:
        raise _failed(exc, r.resume, r.save) from exc


def _default_bot(game: Game) -> str:
    """The game's own bot when it has one, else random (said nowhere: nobody asked for it)."""
    try:
        game.expert(0)
    except NotImplementedError:
        return "random"
    return "expert"


OWN: dict[str, Callable[[PlayRequest], None]] = {"hoola": play_hoola}
"""The games played in front ends of their own (Hoola's full screen and plain game), by name: a
touch of the front end, as :mod:`hoola.terminal.touches` holds the smaller ones."""


def play(r: PlayRequest) -> None:
    """The game of ``r`` in its own front ends (:data:`OWN`), else in the generic ones."""
    OWN.get(r.game.name, play_any)(r)

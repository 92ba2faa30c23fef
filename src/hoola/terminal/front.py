"""``hoola play``: every game in the one terminal game, full screen, or line by line when asked
or when there is no terminal.

The command line reads the options into a :class:`PlayRequest`; the game's touch
(:mod:`hoola.terminal.touches`) gives its defaults (Hoola: ten deals against greedy bots).
Refusals are click errors of one line; no Textual import here, so the plain game works without
it.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from hoola.core.errors import HoolaError
from hoola.core.game import Game
from hoola.terminal.hoola_touch import HOOLA_DEALS

__all__ = ["HOOLA_DEALS", "NAME_RE", "PlayRequest", "play"]

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


def play(r: PlayRequest) -> None:
    """Any game in the one terminal game, drawn from its table as data with its touch."""
    from hoola.terminal.plain import run_plain_game
    from hoola.terminal.saves import SavedGame, default_save_path, forget_if_empty, seat_kinds
    from hoola.terminal.touches import touch_of

    game = r.game
    touch = touch_of(game.name)
    kinds = list(r.bots or (touch.bot or _default_bot(game),))
    known = seat_kinds(game)
    for kind in kinds:
        if kind not in known:
            raise click.BadParameter(f"unknown bot {kind!r}; the bots are {', '.join(known)}",
                                     param_hint="--bots")
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
                                      players=r.players, bots=kinds, seed=r.seed,
                                      deals=r.deals or touch.deals, name=r.name, path=path)
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

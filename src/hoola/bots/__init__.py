"""Bots for every game: players that choose from their view only.

The generic kinds, ``random`` and ``ismcts``, play any registered game; each game adds its own
(:meth:`~hoola.core.game.Game.bots`: Hoola's ``greedy`` and ``expert``), and ``learned`` plays
a trained policy (:mod:`hoola.bots.learned`, the ``rl`` extra) in every game with an RL
encoding. A bot is named by its kind or by a strength level (:data:`LEVELS`), a kind with a
budget; :func:`make_bot` accepts both.

>>> sorted(BOTS)
['expert', 'greedy', 'ismcts', 'learned', 'random']
>>> bot_kinds()[len(BOTS):]
['beginner', 'easy', 'medium', 'hard', 'master']
>>> make_bot("master").name, make_bot("random", game="kalookie").name
('ismcts', 'random')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hoola.bots.ismcts import IsmctsBot
from hoola.bots.levels import LEVELS
from hoola.bots.random import RandomBot
from hoola.core.game import Game, Player
from hoola.core.registry import get_game

__all__ = ["BOTS", "LEVELS", "SEAT_KINDS", "IsmctsBot", "RandomBot", "bot_for_level",
           "bot_kinds", "check_bot_kind", "check_seat_kind", "kinds_of", "make_bot", "seat_bot"]


def kinds_of(game: Game | str | None = None) -> dict[str, Callable[..., Player]]:
    """Every bot kind ``game`` is played by, weakest first: random, the game's own, ismcts."""
    g = game if game is not None and not isinstance(game, str) else get_game(game)
    kinds: dict[str, Callable[..., Player]] = {
        "random": lambda seed=None, **options: RandomBot(seed=seed, **options)}
    kinds.update(g.bots())
    if g.name in LEARNED_GAMES:
        kinds["learned"] = lambda seed=None, **options: _learned(seed, g, **options)
    if "expert" in kinds:  # the search plays out with the game's expert
        kinds["ismcts"] = lambda seed=None, **options: IsmctsBot(seed=seed, game=g, **options)
    return kinds


LEARNED_GAMES = ("hoola", "kalookie", "capture")
"""The games with an RL encoding, which the ``learned`` kind may play."""


def _learned(seed: int | None, game: Game, **options: Any) -> Player:
    from hoola.bots.learned import LearnedBot

    return LearnedBot(seed, game=game, **options)


BOTS: dict[str, Callable[..., Player]] = kinds_of()
"""Hoola's bot kinds -> a factory taking the seed and the bot's options, weakest first."""


def bot_kinds(game: Game | str | None = None) -> list[str]:
    """Every name :func:`make_bot` accepts for ``game``: the kinds, then the strength levels."""
    return [*kinds_of(game), *LEVELS]


def check_bot_kind(name: str, game: Game | str | None = None) -> None:
    """Raise ``ValueError`` naming every kind and level when ``name`` is neither."""
    kinds = kinds_of(game)
    if name not in kinds and name not in LEVELS:
        raise ValueError(f"unknown bot {name!r}; bots are {', '.join(kinds)}; levels are "
                         f"{', '.join(LEVELS)}")


def make_bot(name: str, seed: int | None = None, *, game: Game | str | None = None,
             **options: Any) -> Player:
    """A bot for ``game`` (default hoola) by kind (``random``, ``expert``, ``ismcts``, the game's
    own) or by level (``beginner`` ... ``master``), with its options (they override a level's
    own). A level whose kind the game lacks plays the next stronger kind it has."""
    check_bot_kind(name, game)
    kinds = kinds_of(game)
    if name in LEVELS:
        kind, preset, _ = LEVELS[name]
        order = list(LEVELS.values())
        later = [k for k, _, _ in order[[k for k, _, _ in order].index(kind):]]
        kind = next((k for k in later if k in kinds), "random")
        if kind != LEVELS[name][0]:
            preset = next(p for k, p, _ in order if k == kind)
        return kinds[kind](seed, **{**preset, **options})
    return kinds[name](seed, **options)


def bot_for_level(level: str, seed: int | None = None) -> Player:
    """The bot playing at strength ``level`` (see :data:`LEVELS`).

    >>> bot_for_level("medium").name
    'expert'
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels are {', '.join(LEVELS)}")
    return make_bot(level, seed)


SEAT_KINDS = ("random", "expert", "learned", "ismcts", *LEVELS)
"""The bots a seat of any game may name: uniformly random moves, the game's own rule-based bot,
a trained policy, the search through it, and the strength levels."""


def check_seat_kind(kind: str) -> None:
    """Raise ``ValueError`` naming the kinds when ``kind`` is not one of :data:`SEAT_KINDS`."""
    if kind not in SEAT_KINDS:
        raise ValueError(f"unknown bot {kind!r}; the bots are {', '.join(SEAT_KINDS)}")


def seat_bot(game: Game, kind: str, seed: int | None = None) -> tuple[Player, str | None]:
    """The bot ``kind`` (one of :data:`SEAT_KINDS`) for a seat at ``game``, and a sentence when
    another had to play in its place: a game with no expert yet is played by ``random``, and
    ``learned`` by the expert in a game with no weights (at a table size with none, silently).

    >>> seat_bot(get_game("kalookie"), "expert", 1)[1] is None
    True
    """
    check_seat_kind(kind)
    if kind == "learned":
        fallback = "expert" if "expert" in kinds_of(game) else "random"
        stand_in = make_bot(fallback, seed, game=game)
        try:  # at a table size without weights, the stand-in decides
            return make_bot(kind, seed, game=game, stand_in=stand_in), None
        except ValueError as exc:  # no weights for the game, or no NumPy
            return stand_in, f"{exc}: the {fallback} bot plays in its place."
    if kind in kinds_of(game) or kind in LEVELS:
        return make_bot(kind, seed, game=game), None
    return RandomBot(seed), f"{game.title} has no expert bot yet: random bots play in its place."

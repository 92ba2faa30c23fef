"""The registry of games: front ends find every game here, by name, and import none of them.

Games register through the ``hoola.games`` entry point group (``pyproject.toml``), so the core
imports no game and a game package outside this project can join the same front ends.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from hoola.core.errors import RulesError

if TYPE_CHECKING:
    from hoola.core.game import Game

__all__ = ["DEFAULT_GAME", "game_names", "get_game", "register"]

DEFAULT_GAME = "hoola"
_GAMES: dict[str, Game] = {}
_loaded = False


def register(game: Game) -> None:
    """Add ``game`` to the registry under ``game.name`` (a later one of the same name wins)."""
    _GAMES[game.name] = game


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for entry in entry_points(group="hoola.games"):
        if entry.name not in _GAMES:
            register(entry.load())


def game_names() -> list[str]:
    """The registered games' names, the default first."""
    _load()
    return sorted(_GAMES, key=lambda n: (n != DEFAULT_GAME, n))


def get_game(name: str | None = None) -> Game:
    """The game registered as ``name`` (default ``hoola``); a RulesError names the known ones."""
    _load()
    key = DEFAULT_GAME if name is None else name
    if not isinstance(key, str) or key not in _GAMES:
        raise RulesError(f"unknown game {key!r}: the games are {', '.join(game_names())}",
                         "unknown-game")
    return _GAMES[key]

"""The registry of games: front ends find every game here, by name, and import none of them.

Games register through the ``hoola.games`` entry point group (``pyproject.toml``), so the core
imports no game and a game package outside this project can join the same front ends.
"""

from __future__ import annotations

import threading
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from hoola.core.errors import RulesError

if TYPE_CHECKING:
    from hoola.core.game import Game

__all__ = ["DEFAULT_GAME", "game_and_preset", "game_names", "get_game", "register", "resolve"]

DEFAULT_GAME = "hoola"
_GAMES: dict[str, Game] = {}
_loaded = False
_loading = False
_lock = threading.RLock()


def register(game: Game) -> None:
    """Add ``game`` to the registry under ``game.name`` (a later one of the same name wins)."""
    _GAMES[game.name] = game


def _load() -> None:
    global _loaded, _loading
    if _loaded:
        return
    with _lock:  # another thread (a server's request) waits until every game is in
        if _loaded or _loading:  # _loading: a game's own import asked, in this thread
            return
        _loading = True
        try:
            for entry in entry_points(group="hoola.games"):
                if entry.name not in _GAMES:
                    register(entry.load())
        finally:
            _loaded, _loading = True, False


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


def resolve(name: str | None) -> tuple[Game, str | None]:
    """The game ``name`` names and the preset it implies: a game's own name gives ``(game,
    None)``; a preset's name gives the one game that has it (``hoola play sedma`` plays the
    capture games' ``sedma``). A RulesError names the games and presets when none matches."""
    _load()
    if name is None or name in _GAMES:
        return get_game(name), None
    owners = [g for g in _GAMES.values() if any(p.name == name for p in g.presets())]
    if len(owners) == 1:
        return owners[0], name
    if len(owners) > 1:
        games = ", ".join(g.name for g in owners)
        raise RulesError(f"{name!r} is a preset of several games ({games}): name the game and "
                         f"give --rules {name}", "ambiguous-game")
    presets = ", ".join(p.name for g in _GAMES.values() for p in g.presets()
                        if p.name not in _GAMES)
    raise RulesError(f"unknown game {name!r}: the games are {', '.join(game_names())}, and the "
                     f"presets that name their game: {presets}", "unknown-game")


def game_and_preset(name: str | None, preset: str | None) -> tuple[Game, str | None]:
    """:func:`resolve` with a preset also asked for (``--rules``): the two must agree."""
    game, implied = resolve(name)
    if implied is not None and preset is not None and preset != implied:
        raise RulesError(f"{name!r} is already a preset of {game.name}; give either it or "
                         f"--rules {preset}, not both", "conflicting-preset")
    return game, preset or implied

"""The generic core: the game interface, the registry, errors, card notation, the table as data.

Nothing here imports a game; games import the core; front ends import the core and find games
through :mod:`hoola.core.registry`.
"""

from hoola.core.errors import (
    HoolaError,
    IllegalActionError,
    NotationError,
    OutOfTurnError,
    RecordError,
    RulesError,
)
from hoola.core.game import Action, Game, GameState, Match, OptionInfo, Player, PresetInfo, View
from hoola.core.registry import game_names, get_game, register
from hoola.core.table import Moment, Score, Table, Zone

__all__ = [
    "Action",
    "Game",
    "GameState",
    "HoolaError",
    "IllegalActionError",
    "Match",
    "Moment",
    "NotationError",
    "OptionInfo",
    "OutOfTurnError",
    "Player",
    "PresetInfo",
    "RecordError",
    "RulesError",
    "Score",
    "Table",
    "View",
    "Zone",
    "game_names",
    "get_game",
    "register",
]

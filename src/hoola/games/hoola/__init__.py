"""Hoola (훌라), the Korean rummy game: a rules engine with every documented variation.

>>> from hoola.games.hoola import DealState, Rules, Draw
>>> state = DealState.new(Rules.preset("pagat"), ["A", "B", "C", "D"], seed=7)
>>> state.format(state.apply(Draw(0)))
'A draw'
"""

from hoola.core.cards import JOKER, format_card, format_cards, parse_card, parse_cards
from hoola.core.errors import (
    HoolaError,
    IllegalActionError,
    NotationError,
    OutOfTurnError,
    RecordError,
    RulesError,
)
from hoola.games.hoola.actions import (
    Action,
    Add,
    Blast,
    Discard,
    Draw,
    Drop,
    Knock,
    NewMeld,
    Play,
    Sevens,
    Take,
    format_action,
    parse_action,
)
from hoola.games.hoola.deal import Deal
from hoola.games.hoola.game import GAME, HoolaGame
from hoola.games.hoola.match import Match
from hoola.games.hoola.melds import Meld, MeldKind
from hoola.games.hoola.rules import PRESETS, Rules
from hoola.games.hoola.scoring import Settlement
from hoola.games.hoola.state import DealState
from hoola.games.hoola.views import View

__all__ = [
    "GAME",
    "JOKER",
    "PRESETS",
    "Action",
    "Add",
    "Blast",
    "Deal",
    "DealState",
    "Discard",
    "Draw",
    "Drop",
    "HoolaError",
    "HoolaGame",
    "IllegalActionError",
    "Knock",
    "Match",
    "Meld",
    "MeldKind",
    "NewMeld",
    "NotationError",
    "OutOfTurnError",
    "Play",
    "RecordError",
    "Rules",
    "RulesError",
    "Settlement",
    "Sevens",
    "Take",
    "View",
    "format_action",
    "format_card",
    "format_cards",
    "parse_action",
    "parse_card",
    "parse_cards",
]


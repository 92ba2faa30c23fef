"""Hoola (훌라), the Korean rummy game: a rules engine with every documented variation.

>>> from hoola import DealState, Rules, Draw
>>> state = DealState.new(Rules.preset("pagat"), ["A", "B", "C", "D"], seed=7)
>>> state.format(state.apply(Draw(0)))
'A draw'
"""

from hoola.actions import (
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
from hoola.cards import JOKER, format_card, format_cards, parse_card, parse_cards
from hoola.deal import Deal
from hoola.errors import (
    HoolaError,
    IllegalActionError,
    NotationError,
    OutOfTurnError,
    RecordError,
    RulesError,
)
from hoola.match import Match
from hoola.melds import Meld, MeldKind
from hoola.rules import PRESETS, Rules
from hoola.scoring import Settlement
from hoola.state import DealState
from hoola.views import View

__all__ = [
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

__version__ = "0.1.0"

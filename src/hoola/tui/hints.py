"""The hint key: the ``expert`` bot's suggestion for the person's view, and why.

Uses ``hoola.bots.expert.ExpertBot.explain`` when it exists, else an ``expert`` bot registered in
:data:`hoola.bots.BOTS`, else the greedy bot with a plain reason.
"""

from __future__ import annotations

import importlib
from typing import Any

from hoola.actions import Action, Add, Blast, Discard, Draw, Knock, NewMeld, Sevens, Take
from hoola.bots import BOTS, GreedyBot
from hoola.play import Player
from hoola.views import View

__all__ = ["Adviser"]

_REASONS: dict[type[Action], str] = {
    Sevens: "four sevens in hand win at once",
    Blast: "your hand is a blast: it wins at once",
    Knock: "your points are low enough to knock, and the others are likely to hold more",
    Take: "the discard makes a new meld with your cards, which also lets you add to melds",
    NewMeld: "melded cards no longer count against you, and a meld lets you add to others",
    Add: "every card you add to the table is a card less in your hand",
    Discard: "of the cards you keep nothing melds with, this one costs the most points",
    Draw: "nothing better is open now: draw from the stock",
}


class Adviser:
    """Suggests a move for a view, with a reason; ``source`` names who advises."""

    def __init__(self, seed: int | None = None) -> None:
        self.expert: Any = None
        self.bot: Player
        self.source = "greedy bot"
        try:
            module = importlib.import_module("hoola.bots.expert")
            self.expert = module.ExpertBot(seed=seed)
            self.source = "expert bot"
        except (ImportError, AttributeError, TypeError):
            self.expert = None
        if self.expert is not None and hasattr(self.expert, "explain"):
            self.bot = self.expert
        elif "expert" in BOTS:
            self.bot = BOTS["expert"](seed)
            self.expert = None
            self.source = "expert bot"
        else:
            self.bot = GreedyBot(seed=seed)
            self.expert = None

    def advise(self, view: View) -> tuple[Action | None, str]:
        """The suggested action (None: let the discard go) and why."""
        if self.expert is not None:
            action, why = self.expert.explain(view)
            return action, str(why)
        action = self.bot.act(view)
        if action is None:
            return None, "no new meld is worth taking this card: let it go"
        return action, _REASONS.get(type(action), "the bot's choice")

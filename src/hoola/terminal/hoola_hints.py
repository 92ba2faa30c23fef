"""The hint key: the ``expert`` bot's suggestion for the person's view, and why.

Uses ``hoola.games.hoola.expert.ExpertBot.explain`` when it exists, else an ``expert`` bot
registered in
:data:`hoola.bots.BOTS`, else the greedy bot with a plain reason. :func:`hint_words` puts it as
the screen does: cards with their suit symbols, the move said once.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

from rich.text import Text

from hoola.bots import BOTS
from hoola.core.cards import format_card
from hoola.core.game import Player
from hoola.games.hoola.actions import (
    Action,
    Add,
    Blast,
    Discard,
    Draw,
    Knock,
    NewMeld,
    Sevens,
    Take,
)
from hoola.games.hoola.greedy import GreedyBot
from hoola.games.hoola.views import View
from hoola.terminal.cardface import card_label
from hoola.terminal.hoola_moves import describe

__all__ = ["Adviser", "hint_words", "with_symbols"]

_CARD_WORD = re.compile(r"\b(?:[2-9TJQKA][cdhs]|JK)\b")

_REASONS: dict[type[Action], str] = {
    Sevens: "four sevens in hand win at once",
    Blast: "your hand is a blast: it wins at once",
    Knock: "your points are low enough to knock, and the others are likely to hold more",
    Take: "the discard makes a new meld with your cards, which also lets you add to melds",
    NewMeld: "melded cards no longer count against you, and a meld lets you add to others",
    Add: "every card you add to the table is a card less in your hand",
    Discard: "of the cards you keep nothing melds with, this one costs the most points",
    Draw: "nothing better is open now",
}


class Adviser:
    """Suggests a move for a view, with a reason; ``source`` names who advises."""

    def __init__(self, seed: int | None = None) -> None:
        self.expert: Any = None
        self.bot: Player
        self.source = "greedy bot"
        try:
            module = importlib.import_module("hoola.games.hoola.expert")
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


def with_symbols(text: str, view: View) -> str:
    """``text`` with the cards of ``view`` written as the screen draws them (``Td`` as ``10♦``).

    Only names of cards the person can see are changed (the hand, the discards, the table), so
    that a word such as "Ah" stays one unless that very card is in sight.
    """
    seen = {*view.hand, *view.discards, *(c for m in view.melds for c in m.cards)}
    names = {format_card(c): card_label(c) for c in seen}
    return _CARD_WORD.sub(lambda m: names.get(m.group(0), m.group(0)), text)


def hint_words(action: Action | None, why: str, view: View) -> tuple[Text, str]:
    """The hinted move and the reason, each said once: an adviser's reason that names the move
    again ("Add 6s to the table: it sheds 6 points") keeps only what follows the move."""
    what = Text("let it go") if action is None else describe(action, view)
    why = with_symbols(why.strip(), view)
    verb = what.plain.split()[0].lower() if what.plain else ""
    head, sep, tail = why.partition(": ")
    if head.split()[:1] == [verb.capitalize()] or head.split()[:1] == [verb]:
        if sep:
            return what, tail[:1].upper() + tail[1:]
        # The whole reason is the move said at length ("Discard 9d, your last card, to go out").
        return Text(why.rstrip(".")), ""
    return what, why[:1].upper() + why[1:]

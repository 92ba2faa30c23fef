"""The greedy bot: ends play when it can, melds as soon as possible, discards its highest card."""

from __future__ import annotations

import random

from hoola.core.cards import JOKER, SEVEN
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
from hoola.games.hoola.views import View

__all__ = ["GreedyBot", "card_cost"]


def card_cost(card: int, view: View) -> int:
    """What a card would cost in hand at the end of play (jokers count high: they multiply)."""
    if card == JOKER:
        return 30
    rank = card % 13
    return view.rules.seven_value_end if rank == SEVEN else view.rules.rank_value(rank)


class GreedyBot:
    """Knocks, blasts and shows sevens whenever allowed; takes every discard it can meld; melds
    the longest meld first, adds every card it can, and discards its most expensive card."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> Action | None:
        """The greedy choice among ``view.legal`` (never passes up a claim)."""
        legal = view.legal
        if not legal:
            return None
        for kind in (Sevens, Blast, Knock):
            for a in legal:
                if isinstance(a, kind):
                    return a
        takes = [a for a in legal if isinstance(a, Take)]
        if takes:
            return max(takes, key=lambda a: (a.purpose is not None, a.joker_as is None))
        melds = [a for a in legal if isinstance(a, NewMeld)]
        if melds:
            return max(melds, key=lambda a: (len(a.cards), JOKER not in a.cards,
                                             sum(card_cost(c, view) for c in a.cards)))
        adds = [a for a in legal if isinstance(a, Add)]
        if adds:
            return max(adds, key=lambda a: (a.card != JOKER, card_cost(a.card, view)))
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            return max(discards, key=lambda a: (card_cost(a.card, view), a.card))
        for a in legal:
            if isinstance(a, Draw):
                return a
        return legal[0] if not view.can_pass else None

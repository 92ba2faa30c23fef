"""Guessing the hidden cards of a capture-game hand (for search bots).

A seat knows its hand, the hands the rules show it (a partner's in Sedmice once the stock is
gone) and every card played; the other hands, the stock and any cards set aside for the last
trick are the rest of the pack, dealt at random in the sizes the view shows.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from hoola.games.capture.state import DealState
from hoola.games.capture.views import View, played_cards

__all__ = ["determinize", "unseen", "world"]


def unseen(view: View) -> list[int]:
    """The cards this seat has not seen: the pack less its hand, shown hands and cards played."""
    cards = view.rules.pack()
    seen = [*view.hand, *(c for _, h in view.shown for c in h), *played_cards(view)]
    for c in seen:
        cards.remove(c)
    return cards


def determinize(view: View, rng: random.Random) -> DealState:
    """A hand consistent with ``view``: the unseen cards dealt at random."""
    cards = unseen(view)
    rng.shuffle(cards)
    return world(view, cards)


def world(view: View, cards: Sequence[int]) -> DealState:
    """The hand of ``view`` with the unseen ``cards`` dealt in order: the hidden hands in seat
    order, then the stock (top first), then the cards set aside."""
    known = dict(view.shown)
    known[view.player] = view.hand
    hands: list[list[int]] = []
    at = 0
    for q, size in enumerate(view.hand_sizes):
        if q in known:
            hands.append(list(known[q]))
        else:
            hands.append(list(cards[at:at + size]))
            at += size
    stock = list(cards[at:at + view.stock_size])
    leftover = list(cards[at + view.stock_size:at + view.stock_size + view.leftover_size])
    s = object.__new__(DealState)
    s.base = s.rules = view.rules
    s.names, s.n = view.names, len(view.names)
    s.sides, s.side_of = view.sides, view.side_of
    s.teams = view.sides if len(view.sides) < s.n else None
    s.dealer = view.dealer
    s.dealt, s.stock_dealt = tuple(tuple(h) for h in hands), tuple(stock)
    s.hands, s.stock, s.leftover = hands, list(reversed(stock)), leftover
    s.captured, s.tricks = view.captured, view.tricks
    s.history, s.darks = list(view.history), view.darks
    s.signals, s.signaled = list(view.signals), view.signaled
    s.leads, s.trick, s.taken = view.leads, list(view.trick), view.taken
    s.last_winner, s.leader, s.winner, s.led = view.last_winner, view.leader, view.winner, \
        view.led
    s.queue, s.deciding, s.phase1 = list(view.queue), view.deciding, view.phase1
    s.kings_played = view.kings_played
    s.kings = sum(1 for c in view.rules.pack() if c % 13 == 12)
    s.dirty, s.cleaned = view.dirty, view.cleaned
    s.result, s.rng = view.result, None
    s.standing, s.carry = view.standing, view.carry
    s._listed = None
    return s

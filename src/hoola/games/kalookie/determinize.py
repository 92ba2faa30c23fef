"""Rebuilding a hand from one player's view and a guess at the hidden cards (for ISMCTS).

The cards the viewer cannot see (other hands and the stock) are re-dealt at random, each hand
keeping its size. Cards known to be in a hand because it took them from the discard pile are
re-dealt too: the guess uses only the counts, not that memory.

>>> from hoola.games.kalookie.rules import Rules
>>> from hoola.games.kalookie.state import DealState
>>> s = DealState.new(Rules.preset("british"), 3, seed=5)
>>> guess = determinize(s.view(1), random.Random(0))
>>> guess.hand(1) == s.hand(1), len(guess.stock) == len(s.stock), guess.hand(0) == s.hand(0)
(True, True, False)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from hoola.core.cards import pack
from hoola.core.errors import IllegalActionError
from hoola.games.kalookie.cards import JOKER, cards_of_counts, counts_of
from hoola.games.kalookie.deal import Deal
from hoola.games.kalookie.state import DealState
from hoola.games.kalookie.views import View

__all__ = ["determinize", "state_from_view", "unseen_cards"]


def unseen_cards(view: View) -> list[int]:
    """Every card the viewer cannot see: not in their hand, on the table, in the discards, nor a
    released joker waiting to be laid."""
    left = counts_of(pack(view.rules.decks, view.rules.jokers))
    seen = [*view.hand, *view.discards, *(t for m in view.melds for t in m.tokens)]
    left[JOKER] -= view.turn.loose
    for c in seen:
        left[JOKER if c >= JOKER else c] -= 1
    if any(n < 0 for n in left):
        raise IllegalActionError("the view holds more cards than the pack", "bad-view")
    return cards_of_counts(left)


def determinize(view: View, rng: random.Random) -> DealState:
    """A hand consistent with ``view``: the unseen cards dealt at random to the hidden places."""
    unseen = unseen_cards(view)
    rng.shuffle(unseen)
    hands: list[list[int]] = []
    k = 0
    for q, size in enumerate(view.hand_sizes):
        if q == view.player:
            hands.append(list(view.hand))
        else:
            hands.append(unseen[k:k + size])
            k += size
    return state_from_view(view, hands, unseen[k:k + view.stock_size], rng)


def state_from_view(view: View, hands: Sequence[Sequence[int]], stock: Sequence[int],
                    rng: random.Random | None = None) -> DealState:
    """The hand the view shows, with ``hands`` for every seat and ``stock`` (top first)."""
    if len(hands) != len(view.names) or len(stock) != view.stock_size or any(
            len(h) != size for h, size in zip(hands, view.hand_sizes, strict=True)):
        raise IllegalActionError("the guess does not fit the view's hand sizes and stock",
                                 "bad-view")
    s = DealState.__new__(DealState)
    s.rules = view.rules
    s.names = view.names
    s.n = len(view.names)
    upcard = view.discards[0] if view.discards else JOKER
    s.deal = Deal(tuple(tuple(sorted(h)) for h in hands), upcard, tuple(stock))
    s.dealer = view.dealer
    s.standing = view.standing
    s.rng = rng if rng is not None else random.Random()
    s.hands = [counts_of(h) for h in hands]
    s.sizes = [len(h) for h in hands]
    s.stock = list(reversed(stock))
    s.discards = list(view.discards)
    s.melds = list(view.melds)
    s.next_id = view.next_id
    s.opened = list(view.opened)
    s.current = view.current
    s.drawn = view.drawn
    s.turn = view.turn
    s.first = view.first
    s.swap_window = view.swap_window
    s.warner = view.warner
    s.barred = frozenset(view.barred)
    s.reshuffles = view.reshuffles
    s.restocked = None
    s.result = view.result
    s.phase = view.phase
    s.queue = list(view.queue)
    s.totals = list(view.totals)
    s.reset_to = view.reset_to
    s.out = list(view.out)
    s.forced = []
    s.bought = list(view.bought)
    s.after = view.after
    s.history = list(view.history)
    s._public = list(view.history)
    s._cache = {}
    s._strict = False
    return s

"""Rebuilding a deal from one player's view and a guess at the hidden cards.

Search bots (information-set Monte Carlo) sample the cards a player cannot see, consistently with
what the view shows, and play the sampled deals forward with the real engine.

>>> from hoola.games.hoola import DealState, Rules
>>> s = DealState.new(Rules.preset("pagat"), 4, seed=5)
>>> guess = determinize(s.view(1), random.Random(0))
>>> guess.hand(1) == s.hand(1), len(guess.stock) == len(s.stock)
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from hoola.core.cards import JOKER, card_mask
from hoola.core.chance import shuffle
from hoola.games.hoola.deal import Deal
from hoola.games.hoola.state import DealState, Switches, three_sevens
from hoola.games.hoola.views import View

__all__ = ["determinize", "state_from_view", "unseen_cards"]


def unseen_cards(view: View) -> list[int]:
    """Every card the viewer cannot see: not in their hand, on the table or in the discards."""
    seen = [*view.hand, *view.discards, *(c for m in view.melds for c in m.cards)]
    naturals = {c for c in seen if c != JOKER}
    jokers = view.rules.jokers - sum(1 for c in seen if c == JOKER)
    return [c for c in range(52) if c not in naturals] + [JOKER] * max(jokers, 0)


def determinize(view: View, rng: random.Random) -> DealState:
    """A deal consistent with ``view``: the unseen cards dealt at random to the hidden places."""
    unseen = unseen_cards(view)
    shuffle(rng, unseen)
    hands: list[list[int]] = []
    k = 0
    for q, size in enumerate(view.hand_sizes):
        if q == view.player:
            hands.append(list(view.hand))
        else:
            hands.append(unseen[k:k + size])
            k += size
    stock = unseen[k:k + view.stock_size]
    return state_from_view(view, hands, stock, rng)


def state_from_view(view: View, hands: Sequence[Sequence[int]], stock: Sequence[int],
                    rng: random.Random | None = None) -> DealState:
    """The deal the view shows, with ``hands`` for every seat and ``stock`` (top first)."""
    if len(hands) != len(view.names) or len(stock) != view.stock_size:
        raise ValueError("the guess does not fit the view's hand sizes and stock")
    s = DealState.__new__(DealState)
    s.rules = view.rules
    s._on = Switches(view.rules)
    s.names = view.names
    s.n = len(view.names)
    upcard = view.discards[0] if view.discards else JOKER
    s.deal = Deal(tuple(tuple(h) for h in hands), upcard, tuple(stock), "shuffle")
    s.dealer = view.dealer
    s.stake = Fraction(view.stake)
    s.rng = rng if rng is not None else random.Random()
    s.hands = [card_mask(h) for h in hands]
    s.jokers = [h.count(JOKER) for h in hands]
    s._sevens = three_sevens(s.hands)
    s.stock = list(reversed(stock))
    s.discards = list(view.discards)
    s.table = view.melds
    s.next_meld_id = view.next_meld_id
    s.in_deal = view.in_deal
    s.chose = view.chose
    s.forced_out = []
    s.compensation = dict(view.compensation)
    s.own_meld = view.own_meld
    s.melded = view.melded
    s.had_turn = view.had_turn
    s.sevens_laid = view.sevens_laid
    s.current = view.current
    s.drawn = view.drawn
    s.claimable = view.claim_open
    s.discarder = view.discarder if view.discarder is not None else -1
    s.upcard_live = view.upcard_live
    s.hoola_turn = view.hoola_turn
    s.took_from = view.took_from
    s.last_draw = view.last_draw
    s.history = list(view.history)
    s._public = list(view.history)
    s.result = view.result
    s.stock_after_drops = None
    s._cache = {}
    s._sizes = None
    s._adds = None
    s.phase = view.phase
    s.mission = view.mission
    return s

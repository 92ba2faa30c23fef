"""What Hoola tells the generic search (:mod:`hoola.bots.ismcts`): which moves are worth
searching, and how to guess the hidden cards the way good players leave them.

Only decisions with a real choice are searched: a forced move, an immediate win (blast, four
sevens, an online claim) and the order of melds and additions are left to the expert. At the
start of a turn or in a claim window the candidates are knocking, taking and drawing (and letting
the discard go); when discarding, the expert's discard against the next most costly safe ones.
Guessed hands lean toward low cards for opponents who have played (they discard their costly
cards first).
"""

from __future__ import annotations

import math
import random

from hoola.core.chance import shuffle
from hoola.games.hoola.actions import Action, Blast, Discard, Draw, Knock, Sevens, Take
from hoola.games.hoola.determinize import determinize, state_from_view, unseen_cards
from hoola.games.hoola.expert import ExpertBot, Knowledge, card_value
from hoola.games.hoola.state import DealState
from hoola.games.hoola.views import View

__all__ = ["SearchGuide", "candidates", "sample"]


def candidates(view: View, prior: Action | None, k: int) -> list[Action | None]:
    """The moves worth searching, the expert's own choice ``prior`` first."""
    legal = view.legal
    if any(isinstance(a, Sevens | Blast) for a in legal):
        return [prior]
    if any(isinstance(a, Take) and a.purpose for a in legal):
        return [prior]
    options: list[Action | None] = [prior]
    knock = [a for a in legal if isinstance(a, Knock)]
    draws = [a for a in legal if isinstance(a, Draw)]
    takes = [a for a in legal if isinstance(a, Take)]
    if knock or takes:
        # The start of a turn or a claim window: knock, take or draw (or let it go).
        for a in (*knock, *takes[:1], *draws):
            if a not in options:
                options.append(a)
        if view.can_pass and not view.is_my_turn and None not in options:
            options.append(None)
        return options[:k + 1]
    discards = [a for a in legal if isinstance(a, Discard)]
    if isinstance(prior, Discard) and len(discards) > 1:
        know = Knowledge(view)
        rules = view.rules
        ranked = sorted(discards, key=lambda a: -(card_value(a.card, rules)
                                                  - know.claim_danger(a.card)))
        for a in ranked:
            if a not in options:
                options.append(a)
        return options[:k]
    return options


def sample(view: View, rng: random.Random, lean: float = 2.0) -> DealState:
    """A deal consistent with the view; with ``lean`` above 0, opponents who have played hold
    low cards more often."""
    if lean <= 0:
        return determinize(view, rng)
    rules = view.rules
    unseen = unseen_cards(view)
    shuffle(rng, unseen)
    hands: list[list[int]] = []
    order = list(range(len(view.hand_sizes)))
    dealt: dict[int, list[int]] = {}
    for q in order:
        if q == view.player:
            continue
        size = view.hand_sizes[q]
        if view.had_turn[q]:
            keyed = sorted(unseen, key=lambda c: rng.random() ** (
                math.exp(lean * card_value(c, rules) / 14)))
            # Efraimidis-Spirakis: keys u ** (1 / w), the largest ``size`` win.
            chosen = keyed[-size:] if size else []
        else:
            chosen = unseen[:size]
        dealt[q] = chosen
        picked = set(chosen)
        unseen = [c for c in unseen if c not in picked] if size else unseen
    for q in order:
        hands.append(list(view.hand) if q == view.player else dealt[q])
    return state_from_view(view, hands, unseen[:view.stock_size], rng)


class SearchGuide(ExpertBot):
    """The expert as the search's guide (:mod:`hoola.bots.ismcts`, through
    :meth:`~hoola.core.game.Game.expert`): its choice, the moves worth trying besides it, and
    guesses at the hidden cards as good players leave them."""

    def candidates(self, view: View, prior: Action | None, k: int) -> list[Action | None]:
        """The moves worth searching here, ``prior`` first (:func:`candidates`)."""
        return candidates(view, prior, k)

    def sample(self, view: View, rng: random.Random, lean: float = 2.0) -> DealState:
        """A deal consistent with the view (:func:`sample`)."""
        return sample(view, rng, lean)

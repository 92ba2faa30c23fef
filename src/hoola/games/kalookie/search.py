"""What Kalookie tells the generic search (:mod:`hoola.bots.ismcts`): which moves are worth
searching, and how to guess and play out the hidden cards.

Only decisions with a real choice are searched; a forced or obvious one (anything before play
or after the hand, a warning, a lay the turn owes, a call-up, taking a joker, a card that goes
with nothing in the hand) is left to the expert, so it costs no playouts. The choices searched:

- **draw or take**, when the top discard could meld with the hand or the table;
- **laying now or holding**: where the expert lays (an initial meld, a meld or a build once
  opened), its discard instead; where it discards while its plan could lay (waiting for a
  kalookie, or holding its melds once the chance that someone goes out reaches
  :data:`HOLD_DOUBT`), the plan's first lay;
- **which card to discard**: the expert's discard against the next ones of its own ranking whose
  scores come within :data:`DISCARD_SPREAD` of it.

The guesses at the hidden cards (:func:`sample`) are
:func:`~hoola.games.kalookie.determinize.determinize`'s: each opponent keeps the cards it took
from the pile and has not laid (with :data:`INFER`, the rest leans away from what its recent
discards say it lacks). Where the rules and table have fitted weights (:mod:`.horizon`), a
playout stops :data:`HORIZON` turns a seat on and is scored by them, in stakes: about 2.5 times
cheaper than playing to the end of the hand (two players, 24 playouts: 44 against 112 CPU ms a
decision), and less noisy than the hand's all-or-nothing result.

>>> from hoola.games.kalookie import GAME
>>> state = GAME.new_deal(GAME.rules("british"), ["A", "B"], seed=1)
>>> view = state.view(1)
>>> from hoola.games.kalookie.expert import ExpertBot
>>> prior = ExpertBot().act(view)
>>> options = candidates(view, prior, 3)
>>> options[0] == prior and all(a in view.legal for a in options)
True
"""

from __future__ import annotations

import random

from hoola.games.kalookie.actions import Action, Add, Discard, Draw, NewMeld, Take
from hoola.games.kalookie.cards import JOKER
from hoola.games.kalookie.determinize import determinize
from hoola.games.kalookie.expert import (
    ExpertBot,
    _discard,
    _discard_scores,
    _lay_plan,
    _related,
    _step,
    _structure,
)
from hoola.games.kalookie.expert_know import Knowledge
from hoola.games.kalookie.horizon import horizon, worth_of
from hoola.games.kalookie.state import DealState
from hoola.games.kalookie.views import View

__all__ = ["DISCARD_SPREAD", "HOLD_DOUBT", "HORIZON", "INFER", "SearchGuide", "candidates",
           "sample"]

DISCARD_SPREAD = 0.75  # discard scores this close to the expert's best are worth a search
HOLD_DOUBT = 0.15  # once opened, laying instead of holding is searched from this threat on
HORIZON: int | None = 2  # turns a seat plays before a playout stops (None: to the hand's end)
INFER = False  # guesses lean on the others' recent discards: measured no better, so off


def candidates(view: View, prior: Action | None, k: int) -> list[Action | None]:
    """The moves worth searching at ``view``, the expert's own choice ``prior`` first, at most
    ``k`` of them (just ``[prior]`` where nothing is worth searching)."""
    if k < 2 or prior is None or view.phase != "play" or not view.is_my_turn:
        return [prior]
    legal = view.legal
    know = Knowledge(view)
    if not view.drawn:
        options = _draw_options(view, know)
    elif not any(isinstance(a, Discard) for a in legal):
        return [prior]  # the turn still owes a lay: the expert's obligation logic decides
    else:
        options = _play_options(view, know, prior)
    out: list[Action | None] = [prior]
    for a in options:
        if a not in out and a in legal:
            out.append(a)
    return out[:k]


def _draw_options(view: View, know: Knowledge) -> list[Action]:
    take = next((a for a in view.legal if isinstance(a, Take)), None)
    draw = next((a for a in view.legal if isinstance(a, Draw)), None)
    if take is None or draw is None:
        return []
    top = view.discards[-1]
    if top == JOKER or not _related(view, know, top):
        return []  # a joker is always taken; a card that goes with nothing is never
    return [draw, take]


def _play_options(view: View, know: Knowledge, prior: Action) -> list[Action]:
    turn = view.turn
    opened = view.opened[view.player]
    plan = _lay_plan(view, view.hand, turn)
    if plan is not None and plan.goes_out:
        return []  # calling up (or a kalookie) this turn is never worse
    deadwood = plan.left if plan is not None and opened else \
        _structure(view, view.hand, turn).left
    if isinstance(prior, NewMeld | Add):
        if turn.opening(opened):
            return []
        # Hold instead: the discard the expert would make keeping its melds in hand.
        held = _discard(view, know, deadwood)[0] if deadwood else None
        return [held] if held is not None else []
    if not isinstance(prior, Discard):
        return []  # a joker release or placement: the expert's judgment stands
    options: list[Action] = []
    # Holding melds while nobody is near out is clearly right (and searched, rarely overturned).
    if plan is not None and plan.lays and (not opened or know.threat >= HOLD_DOUBT):
        lay = _step(view, plan)
        if lay is not None and lay[0] is not None:
            options.append(lay[0])  # lay now instead of holding or waiting
    legal_cards = {a.card for a in view.legal if isinstance(a, Discard)}
    pool = [c for c in deadwood if c in legal_cards]
    if prior.card in pool and len(pool) > 1:
        ranked = _discard_scores(view, know, view.hand, sorted(set(pool)))
        best = next(s for s, c in ranked if c == prior.card)
        options.extend(Discard(view.player, c) for s, c in ranked
                       if c != prior.card and s >= best - DISCARD_SPREAD)
    return options


def sample(view: View, rng: random.Random, lean: float = 0.0) -> DealState:
    """A guess at the hidden cards (:func:`~hoola.games.kalookie.determinize.determinize`)
    that the search plays :data:`HORIZON` turns a seat deep (:mod:`.horizon`) where weights
    are fitted for the rules and table, else to the end of the hand. ``lean`` is the generic
    search's setting for games whose guesses take one; Kalookie's do not (see :data:`INFER`)."""
    world = determinize(view, rng, infer=INFER)
    weights = worth_of(view.rules, len(view.names))
    if HORIZON is None or weights is None:
        return world
    return horizon(world, HORIZON * len(view.names), weights)


class SearchGuide(ExpertBot):
    """The expert as the search's guide (:mod:`hoola.bots.ismcts`, through
    :meth:`~hoola.core.game.Game.expert`): its choice, the moves worth trying besides it, and
    guesses at the hidden cards."""

    def candidates(self, view: View, prior: Action | None, k: int) -> list[Action | None]:
        """The moves worth searching, ``prior`` first (:func:`candidates`)."""
        return candidates(view, prior, k)

    def sample(self, view: View, rng: random.Random, lean: float = 0.0) -> DealState:
        """A guess at the hidden cards for the search (:func:`sample`)."""
        return sample(view, rng, lean)

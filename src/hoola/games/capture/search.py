"""What the capture games tell the generic search (:mod:`hoola.bots.ismcts`): which moves are
worth searching.

A decision is searched only where the choice matters: the expert's own choice against the next
best plays, stops and darks of its own scoring (:func:`~hoola.games.capture.expert.options`)
whose values come within :data:`SPREAD` card points of the best. A forced move, a signal (they
bind nobody and cost no card), and a choice between cards of the same worth (two worthless
cards thrown onto the opponents' trick) cost no playouts. The guesses at the hidden cards are
:func:`~hoola.games.capture.determinize.determinize`'s.

>>> from hoola.games.capture import GAME
>>> from hoola.games.capture.expert import ExpertBot
>>> state = GAME.new_deal(GAME.rules("sedma"), ["A", "B"], seed=2)
>>> view = state.view(1)
>>> prior = ExpertBot().act(view)
>>> options = candidates(view, prior, 3)
>>> options[0] == prior and all(a in view.legal for a in options)
True
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import NamedTuple

from hoola.core.fit import least_squares
from hoola.games.capture.actions import Action, Play, Say
from hoola.games.capture.determinize import determinize
from hoola.games.capture.expert import ExpertBot, Option, options
from hoola.games.capture.expert_know import Knowledge
from hoola.games.capture.rules import Rules
from hoola.games.capture.state import DealState, _python_class
from hoola.games.capture.views import View

__all__ = ["HORIZON", "PLAIN", "SPREAD", "WORTH", "Horizon", "SearchGuide", "Worth", "candidates",
           "sample", "worth_of"]

SPREAD = 12.0  # card points within which a play is worth searching against the best
HORIZON = 6    # cards a seat plays after the current trick before a playout stops (None: never)


class Worth(NamedTuple):
    """What a side's position is worth at the horizon beyond its captured card points, in card
    points: per point in its hands, per wild in its hands, and for leading the next trick."""

    held_points: float
    wild: float
    lead: float


WORTH = {
    "hola": Worth(0.0, 25.0, 7.0),
    "sedma": Worth(0.0, 19.0, 3.0),
    "sedmice": Worth(0.0, 18.0, 7.0),
    "sedmice-croatian": Worth(0.0, 16.0, 5.5),
    "ristikontra": Worth(0.0, 0.0, 6.0),
}
"""The horizon's worths per preset (four players): :func:`fit_worth` over 400 expert-played
hands, rounded, the held points' small negative fits set to zero."""
PLAIN = Worth(0.3, 5.0, 0.0)  # other player counts: set by hand


@_python_class  # a Python class like DealState, whose __class__ it takes
class Horizon(DealState):
    """A guessed hand that the search plays only ``stop`` tricks deep: it is over for the
    search once that many tricks have been taken, and its returns are then each side's card
    points so far and what its hands are worth (see :func:`sample`)."""

    stop: int

    @property
    def is_over(self) -> bool:
        """Over at the end of the hand, or at the search's horizon."""
        return self.result is not None or len(self.taken) >= self.stop

    def copy(self) -> Horizon:
        """An independent copy, still stopping at the horizon."""
        new = DealState.copy(self)
        new.__class__ = Horizon
        return new  # type: ignore[return-value]

    def returns(self) -> list[Fraction]:
        """The hand's returns once over; at the horizon each seat's side's card points and
        held cards' worth less the mean of the other sides'."""
        if self.result is not None:
            return DealState.returns(self)
        rules = self.rules
        w = worth_of(rules, self.n)
        values = [float(sum(rules.points_of(c) for c in cs)) for cs in self.captured]
        for q, hand in enumerate(self.hands):
            values[self.side_of[q]] += sum(
                w.held_points * rules.points_of(c) + (w.wild if c % 13 in rules.wilds else 0)
                for c in hand)
        values[self.side_of[self.leader]] += w.lead
        k = len(values)
        total = sum(values)
        return [Fraction(values[s] - (total - values[s]) / (k - 1)).limit_denominator(1000)
                for s in self.side_of]


def fit_worth(preset: str, deals: int = 400, players: int = 4) -> Worth:
    """The worths that best predict, by least squares, how expert-played hands of ``preset``
    end from where they stand at each trick's start: the rest of the hand's card points (each
    side's final returns less its card points captured so far) against the difference between
    the sides in points held, wilds held and the next lead (hands seeded 10000 on)."""
    rules = Rules.preset(preset)
    bot = ExpertBot()
    rows: list[tuple[list[float], float]] = []
    for seed in range(deals):
        state = DealState.new(rules, [chr(65 + q) for q in range(players)], seed=10000 + seed)
        marks: list[tuple[list[float], float]] = []
        while not state.is_over:
            if not state.trick and state.taken and len(marks) < len(state.taken):
                diff = [0.0, 0.0, 0.0, 0.0]  # captured, held points, wilds, lead
                for q, hand in enumerate(state.hands):
                    sign = 1.0 if state.side_of[q] == 0 else -1.0
                    diff[1] += sign * sum(rules.points_of(c) for c in hand)
                    diff[2] += sign * sum(1 for c in hand if c % 13 in rules.wilds)
                for side, cards in enumerate(state.captured):
                    diff[0] += (1.0 if side == 0 else -1.0) * sum(rules.points_of(c) for c in cards)
                diff[3] = 1.0 if state.side_of[state.leader] == 0 else -1.0
                marks.append((diff[1:], diff[0]))
            assert state.turn is not None
            state.apply(bot.act(state.view(state.turn)))
        final = float(state.returns()[0])
        rows.extend((x, final - captured) for x, captured in marks)
    return Worth(*(round(c, 2) for c in least_squares(rows, 3)))



def worth_of(rules: Rules, players: int) -> Worth:
    """The horizon's worths for ``rules`` at a table of ``players``."""
    return WORTH.get(rules.preset_name, PLAIN) if players == 4 else PLAIN


def sample(view: View, rng: random.Random, lean: float = 0.0) -> DealState:
    """A guess at the hidden cards (:func:`~hoola.games.capture.determinize.determinize`)
    that the search plays the current trick and a few more (:data:`HORIZON` cards a seat, in
    whole tricks, at least one), where the rules score card points; Ristiklappi's outcomes are
    played out to the end."""
    world = determinize(view, rng, infer=True)
    if HORIZON is None or view.rules.phases:
        return world
    world.__class__ = Horizon
    # Whole tricks after the current one: one with four or six players, three with two.
    world.stop = len(view.taken) + 1 + max(1, HORIZON // len(view.names))  # type: ignore[attr-defined]
    return world


def candidates(view: View, prior: Action | None, k: int) -> list[Action | None]:
    """The moves worth searching at ``view``, the expert's own choice ``prior`` first, at most
    ``k`` of them (just ``[prior]`` where nothing is worth searching)."""
    if k < 2 or prior is None or isinstance(prior, Say):
        return [prior]
    scored = options(view, Knowledge(view))
    if len(scored) < 2:
        return [prior]
    best = max(o.value for o in scored)
    out: list[Action | None] = [prior]
    seen = {_kind(view, o) for o in scored if o.action == prior}
    for o in sorted(scored, key=lambda o: -o.value):
        if len(out) >= k or o.value < best - SPREAD:
            break
        kind = _kind(view, o)
        if o.action not in out and kind not in seen:
            out.append(o.action)
            seen.add(kind)
    return out


def _kind(view: View, o: Option) -> tuple[object, ...]:
    """Plays that differ only by a card's suit are the same move: search one of them."""
    if isinstance(o.action, Play):
        return ("play", o.action.card % 13)
    return (type(o.action).__name__,)


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

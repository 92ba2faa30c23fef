"""Driving a deal with players (bots or people) who only ever see their own views.

A claim window asks every eligible claimant at once; contested claims are settled by the rules'
``claims`` option (:func:`resolve_claims`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from hoola.actions import Action, Sevens, Take
from hoola.errors import IllegalActionError
from hoola.state import DealState
from hoola.views import View

__all__ = ["Player", "play_deal", "resolve_claims"]


class Player(Protocol):
    """Anything that chooses an action from a view: a bot, a person at a terminal, a socket."""

    def act(self, view: View) -> Action | None:
        """An action from ``view.legal``, or None to pass (only when ``view.can_pass``)."""
        ...


def resolve_claims(state: DealState, claims: Sequence[Take], rng: random.Random) -> Take:
    """The claim that wins the discard among several (ruling 2).

    ``battle``: the first claim, here drawn at random; ``battle-next-priority``: the claimant whose
    turn would come soonest; ``next-only``: the next player (others cannot claim).
    """
    if not claims:
        raise ValueError("no claims to resolve")
    if state.rules.claims == "battle":
        return rng.choice(list(claims))
    return min(claims, key=lambda a: (a.player - state.current) % state.n)


def play_deal(state: DealState, players: Sequence[Player], rng: random.Random | None = None,
              on_action: Callable[[DealState, Action], None] | None = None) -> DealState:
    """Play ``state`` to its end, asking each player for decisions through its view."""
    if len(players) != state.n:
        raise ValueError(f"{len(players)} players for a deal of {state.n} seats")
    rng = rng if rng is not None else state.rng
    while not state.is_over:
        actors = state.actors()
        current = state.current
        if len(actors) == 1:
            (seat,) = actors
            action = players[seat].act(state.view(seat))
            if action is None:
                raise IllegalActionError(f"{state.names[seat]} must act now and cannot pass",
                                         "must-act")
            _apply(state, action, on_action)
            continue
        decisions: dict[int, Action] = {}
        for seat in sorted(actors, key=lambda q: (q - current) % state.n):
            action = players[seat].act(state.view(seat))
            if action is not None:
                decisions[seat] = action
        sevens = [a for a in decisions.values() if isinstance(a, Sevens)]
        claims = [a for seat, a in decisions.items() if isinstance(a, Take)]
        if sevens:
            _apply(state, rng.choice(sevens), on_action)
        elif claims and (current not in decisions or isinstance(decisions[current], Take)
                         or decisions[current].verb == "draw"):
            _apply(state, resolve_claims(state, claims, rng), on_action)
        elif current in decisions:
            _apply(state, decisions[current], on_action)
        else:
            raise IllegalActionError(f"{state.names[current]} must act now and cannot pass",
                                     "must-act")
    return state


def _apply(state: DealState, action: Action,
           on_action: Callable[[DealState, Action], None] | None) -> None:
    record = state.apply(action)
    if on_action is not None:
        on_action(state, record)

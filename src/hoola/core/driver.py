"""Driving a deal with players (bots or people) who only ever see their own views.

When several seats may act, every one is asked, in turn order from the player whose turn it is or,
given ``rng``, in a random order (who reaches a real table first is chance); the decisions arrive
in that order and the game's :meth:`~hoola.core.game.GameState.resolve` says which one stands.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from hoola.core.errors import IllegalActionError
from hoola.core.game import GameState, Player

__all__ = ["play_deal", "turn_order"]


def turn_order(actors: frozenset[int], first: int, seats: int) -> list[int]:
    """``actors`` in play order, starting from seat ``first``."""
    return sorted(actors, key=lambda q: (q - first) % seats)


def play_deal(state: GameState, players: Sequence[Player],
              on_action: Callable[[GameState, Any], None] | None = None,
              *, rng: random.Random | None = None, max_actions: int = 1_000_000) -> GameState:
    """Play ``state`` to its end, asking each player for decisions through its view."""
    seats = len(state.names)
    if len(players) != seats:
        raise ValueError(f"{len(players)} players for a deal of {seats} seats")
    for _ in range(max_actions):
        if state.is_over:
            return state
        actors = state.actors()
        if not actors:
            raise IllegalActionError("nobody may act, yet the deal is not over", "stuck")
        first = min(actors)
        turn = getattr(state, "current", first)
        order = turn_order(actors, turn, seats)
        if rng is not None and len(order) > 1:
            rng.shuffle(order)
        decisions = []
        for seat in order:
            action = players[seat].act(state.view(seat))
            if action is not None:
                decisions.append(action)
        chosen = state.resolve(decisions)
        if chosen is None:
            raise IllegalActionError("the player to act must act now and cannot pass",
                                     "must-act")
        record = state.apply(chosen)
        if on_action is not None:
            on_action(state, record)
    raise IllegalActionError(f"the deal did not end within {max_actions} actions", "too-long")

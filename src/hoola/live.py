"""Playing any registered game live, one person against bots: the bots, and the driver.

The driver asks the seats that may act, each through its own view only. Seats that may let the
moment pass (a warning, a claim, the dealer's upcard swap) are asked before the seat whose turn it
is, and the game's :meth:`~hoola.core.game.GameState.resolve` hears the decisions in that order:
as soon as it names the action that stands, the action is played and the seats not yet asked are
asked again afresh. A person who warns is never overtaken by the draw of a bot they could not see.

>>> from hoola.core.registry import get_game
>>> game = get_game("kalookie")
>>> state = game.new_deal(game.rules(), ["A", "B"], seed=1)
>>> bots = [make_bot(game, "random", seed)[0] for seed in (1, 2)]
>>> play_hand(state, bots).is_over
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hoola.bots.levels import LEVELS
from hoola.core.driver import turn_order
from hoola.core.errors import IllegalActionError
from hoola.core.game import Game, GameState, Player

__all__ = ["BOT_KINDS", "check_bot_kind", "make_bot", "play_hand", "turn_of"]

BOT_KINDS = ("random", "expert", "ismcts", *LEVELS)
"""The bots every game may name: uniformly random moves, the game's own rule-based bot, the
search through it, and the strength levels (:mod:`hoola.bots`)."""


def check_bot_kind(kind: str) -> None:
    """Raise ``ValueError`` naming the kinds when ``kind`` is not one of :data:`BOT_KINDS`."""
    if kind not in BOT_KINDS:
        raise ValueError(f"unknown bot {kind!r}; the bots are {', '.join(BOT_KINDS)}")


def make_bot(game: Game, kind: str, seed: int | None = None) -> tuple[Player, str | None]:
    """The bot ``kind`` for ``game``, and a sentence when another had to play in its place.

    ``expert`` is the game's own bot (:meth:`~hoola.core.game.Game.expert`) and ``ismcts``
    searches through it; a game that has none yet is played by ``random``, and the sentence
    says so.
    """
    from hoola.bots import kinds_of
    from hoola.bots import make_bot as make
    from hoola.bots.random import RandomBot

    check_bot_kind(kind)
    if kind in kinds_of(game) or kind in LEVELS:
        return make(kind, seed, game=game), None
    return RandomBot(seed), f"{game.title} has no expert bot yet: random bots play in its place."


def turn_of(state: GameState) -> int:
    """The seat whose turn it is (the first actor when the game does not say)."""
    current = getattr(state, "current", None)
    if isinstance(current, int) and not isinstance(current, bool):
        return current
    return min(state.actors())


def play_hand(state: GameState, players: Sequence[Player],
              on_action: Callable[[GameState, Any], None] | None = None,
              *, max_actions: int = 1_000_000) -> GameState:
    """Play ``state`` to its end (after-deal decisions such as buy-ins included)."""
    seats = len(state.names)
    if len(players) != seats:
        raise ValueError(f"{len(players)} players for a deal of {seats} seats")
    for _ in range(max_actions):
        if state.is_over:
            return state
        chosen = _decide(state, players, seats)
        record = state.apply(chosen)
        if on_action is not None:
            on_action(state, record)
    raise IllegalActionError(f"the deal did not end within {max_actions} actions", "too-long")


def _decide(state: GameState, players: Sequence[Player], seats: int) -> Any:
    actors = state.actors()
    if not actors:
        raise IllegalActionError("nobody may act, yet the deal is not over", "stuck")
    views = {q: state.view(q) for q in turn_order(actors, turn_of(state), seats)}
    order = [q for q, v in views.items() if v.can_pass] + \
        [q for q, v in views.items() if not v.can_pass]
    decisions: list[Any] = []
    for seat in order:
        action = players[seat].act(views[seat])
        if action is None:
            continue
        decisions.append(action)
        chosen = state.resolve(decisions)
        if chosen is not None:
            return chosen
    raise IllegalActionError("the player to act must act now and cannot pass", "must-act")

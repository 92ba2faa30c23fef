"""Workloads for ``run.py``: random capture-game hands.

A capture hand is played through the generic interface every game implements (``actors()``,
``legal_actions(seat)``, ``apply``), a uniformly random legal action at every decision: the loop
OpenSpiel's games are driven by from Python (``legal_actions()``, ``apply_action``). A game
function plays one whole hand from seed ``i`` and returns (player decisions, forced ones, end).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

Play = Callable[[int], tuple[int, int, str]]

PRESETS = ("hola", "sedma", "sedmice", "sedmice-croatian", "ristikontra", "ristiklappi")


def capture_players(preset: str) -> tuple[int, ...]:
    """The player counts ``preset`` is played by."""
    registry = importlib.import_module("hoola.core.registry")
    game = registry.get_game("capture")
    return tuple(game.rules(preset).player_counts)


def state_loop(deal: Callable[[int], Any], keep: list[Any] | None = None) -> Play:
    """Random deals from ``deal(seed)`` played through the game interface alone, as OpenSpiel's
    games are driven from Python: the seats that may act (``actors()``), each one's
    ``legal_actions(seat)``, a uniform choice, ``apply``. No view is built. Where several seats
    may act (a Hoola claim window, a Kalookie warning), each is asked in a random order of
    arrival, one that may let the moment go (any seat but the one whose turn it is) passing as
    often as it takes each action, and the game's ``resolve`` says which decision stands, as
    ``play_deal`` does for bots. A decision is forced when one seat may act and has one action.
    """

    def play(seed: int) -> tuple[int, int, str]:
        rng = random.Random(seed)
        choice, randrange = rng.choice, rng.randrange
        state = deal(seed)
        actors, legal, apply = state.actors, state.legal_actions, state.apply
        forced = 0
        while not state.is_over:
            seats = actors()
            if len(seats) == 1:
                (seat,) = seats
                actions = legal(seat)
                if len(actions) == 1:
                    forced += 1
                apply(choice(actions))
                continue
            turn = getattr(state, "current", None)
            order = sorted(seats)
            rng.shuffle(order)
            decisions = []
            for seat in order:
                actions = legal(seat)
                k = randrange(len(actions) + (seat != turn))
                if k < len(actions):
                    decisions.append(actions[k])
            apply(state.resolve(decisions))
        if keep is not None:
            keep.append(state)
        return len(state.history), forced, state.outcome().end

    return play


def capture_game(preset: str, players: int, keep: list[Any] | None = None) -> Play:
    """Random hands of ``preset``, each a new deal from seed ``i`` (construction, shuffle, deal);
    finished hands are appended to ``keep`` when given (for tests).

    Decisions are the record's actions, ``len(state.history)``: plays, plays in the dark, stops
    and Sedmice's signals (dealing and refilling from the stock are not actions). One seat acts
    at a time and nobody passes, so a decision is forced when the seat has one legal action.
    """
    registry = importlib.import_module("hoola.core.registry")
    game = registry.get_game("capture")
    rules = game.rules(preset)
    names = [f"P{i}" for i in range(players)]
    new_deal = game.new_deal
    return state_loop(lambda seed: new_deal(rules, names, seed=seed), keep)

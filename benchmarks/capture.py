"""Workloads for ``run.py``: random capture-game hands and an OpenSpiel trick-taking reference.

A capture hand is played through the generic interface every game implements (``actors()``,
``legal_actions(seat)``, ``apply``), a uniformly random legal action at every decision, which is
how the OpenSpiel references are driven from Python too (``legal_actions()``, ``apply_action``).
A game function plays one whole game from seed ``i`` and returns (player decisions, end type).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

GameFn = Callable[[int], tuple[int, str]]

PRESETS = ("hola", "sedma", "sedmice", "sedmice-croatian", "ristikontra", "ristiklappi")
TRICK_GAMES = ("hearts", "spades", "euchre", "skat")
"""OpenSpiel trick-taking games whose chance nodes (the deal) are uniform, so that a uniform
choice of ``legal_actions()`` samples them as ``chance_outcomes()`` would, only cheaper."""


def capture_players(preset: str) -> tuple[int, ...]:
    """The player counts ``preset`` is played by."""
    registry = importlib.import_module("hoola.core.registry")
    game = registry.get_game("capture")
    return tuple(game.rules(preset).player_counts)


def capture_game(preset: str, players: int, mode: str) -> GameFn:
    """Random hands of ``preset``: a new deal per game (``new``) or a copy of one (``cloned``).

    Decisions are the record's actions, ``len(state.history)``: plays, plays in the dark, stops
    and Sedmice's signals (dealing and refilling from the stock are not actions).
    """
    registry = importlib.import_module("hoola.core.registry")
    game = registry.get_game("capture")
    rules = game.rules(preset)
    names = [f"P{i}" for i in range(players)]
    new_deal = game.new_deal
    template = new_deal(rules, names, seed=0)
    fresh = mode == "new"

    def play(seed: int) -> tuple[int, str]:
        choice = random.Random(seed).choice
        state = new_deal(rules, names, seed=seed) if fresh else template.copy()
        actors, legal, apply = state.actors, state.legal_actions, state.apply
        while not state.is_over:
            (seat,) = actors()  # one seat acts at a time in the capture games
            apply(choice(legal(seat)))
        return len(state.history), state.result.outcome or "played"

    return play


def trick_game(pyspiel: Any, name: str, mode: str) -> GameFn:
    """Random games of an OpenSpiel trick-taking game, every player action a decision.

    Every chance outcome is checked to be equally likely on a first game (a ValueError
    otherwise), so the games are sampled with a uniform choice of the chance node's actions.
    """
    game = pyspiel.load_game(name)
    initial = game.new_initial_state()
    _check_uniform_chance(initial.clone(), name)
    new_state = game.new_initial_state
    clone = initial.clone
    fresh = mode == "new"

    def play(seed: int) -> tuple[int, str]:
        choice = random.Random(seed).choice
        state = new_state() if fresh else clone()
        decisions = 0
        while not state.is_terminal():
            if not state.is_chance_node():
                decisions += 1
            state.apply_action(choice(state.legal_actions()))
        return decisions, "played"

    return play


def _check_uniform_chance(state: Any, name: str) -> None:
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            probs = [p for _, p in state.chance_outcomes()]
            if max(probs) - min(probs) > 1e-9:
                raise ValueError(f"{name}: chance outcomes are not uniform, so this benchmark "
                                 "cannot sample them with a uniform choice")
        state.apply_action(rng.choice(state.legal_actions()))

"""Kalookie through the core: the registry, the Game interface, the driver."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hoola.core import get_game
from hoola.core.driver import play_deal
from hoola.core.errors import RulesError
from hoola.core.game import GameState, Match
from hoola.games.kalookie import GAME


class RandomPlayer:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, view: Any) -> Any:
        return self.rng.choice(view.legal) if view.legal else None


def test_the_registry_finds_kalookie_through_its_entry_point() -> None:
    assert get_game("kalookie") is GAME
    assert (GAME.title, GAME.default_preset, GAME.teams(GAME.rules(), 4)) == \
        ("Kalookie", "british", None)


def test_rules_deals_and_matches_through_the_interface() -> None:
    rules = GAME.rules("swedish", {"warnings": "manual"})
    assert rules.target == 100 and rules.warnings == "manual"
    with pytest.raises(RulesError):
        GAME.rules("british", {"nope": 1})
    with pytest.raises(RulesError):
        GAME.new_deal("british", ["A", "B"])
    state = GAME.new_deal(rules, ["A", "B", "C"], seed=2)
    assert isinstance(state, GameState)
    play_deal(state, [RandomPlayer(i) for i in range(3)])
    assert state.is_over and sum(state.returns()) == 0
    match = GAME.new_match(rules, ["A", "B"], seed=2)
    assert isinstance(match, Match)
    expert = GAME.expert(1)
    assert expert.act(state.view(state.current)) is None  # the hand is over: nothing to do

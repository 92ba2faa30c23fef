"""The engines' fast paths keep every public contract, in every game and preset.

An action passed back from the moment's own legal list (the very object, as bots and interfaces
do) is applied without being checked again; an equal action made anew is checked in full. Both
must play the same deal. A listed action kept past its moment is checked again and refused with
its code, changing nothing. A view shares the state's tuples instead of copying them, so a view
taken earlier must not change as the deal goes on.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from hoola.core.errors import HoolaError
from hoola.core.game import Game, GameState
from hoola.core.registry import game_names, get_game

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]
CASES = [(name, preset.name) for name in game_names() for preset in get_game(name).presets()]


def deal_for(game: Game, preset: str, seed: int) -> GameState:
    """A deal of ``preset`` at the first of 4, 2, 3 or 5 players that it is played by."""
    for players in (4, 2, 3, 5):
        try:
            return game.new_deal(game.rules(preset), NAMES[:players], seed=seed)
        except HoolaError:
            continue
    raise AssertionError(f"{preset} is played by none of 2 to 5 players")


def shown(state: GameState, seat: int) -> str:
    """Everything a seat's view says, as text."""
    return json.dumps(state.view(seat).to_json(), sort_keys=True, default=str)


@pytest.mark.parametrize(("name", "preset"), CASES)
def test_listed_and_remade_actions_play_the_same_deal(name: str, preset: str) -> None:
    game = get_game(name)
    for seed in range(2):
        fast = deal_for(game, preset, seed)
        slow = fast.copy()
        rng = random.Random(seed)
        played: list[Any] = []
        steps = 0
        while not fast.is_over:
            steps += 1
            assert steps < 5000, "the deal does not end"
            actors = sorted(fast.actors())
            assert actors == sorted(slow.actors())
            seat = rng.choice(actors)
            action = rng.choice(fast.legal_actions(seat))
            remade = copy.copy(action)
            assert remade == action and remade is not action
            earlier = [(q, fast.view(q), shown(fast, q)) for q in actors]

            record = fast.apply(action)  # listed: the trusted path
            assert fast.format(record) == slow.format(slow.apply(remade))  # checked in full

            for q, view, text in earlier:  # what the state shares with its views never changes
                assert json.dumps(view.to_json(), sort_keys=True, default=str) == text, q
            played.append(action)
            old = rng.choice(played)
            if not fast.is_over and not fast.can(old):
                before = [shown(fast, q) for q in range(len(fast.names))]
                with pytest.raises(HoolaError) as refused:
                    fast.apply(old)
                assert refused.value.code
                assert [shown(fast, q) for q in range(len(fast.names))] == before
        assert slow.is_over
        assert [fast.format(a) for a in fast.history] == [slow.format(a) for a in slow.history]
        assert list(fast.returns()) == list(slow.returns())

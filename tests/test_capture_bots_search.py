"""The capture search's own parts: the expert's odds worked out once, what the guesses at the
hidden cards read from the public history, and the horizon's worths."""

from __future__ import annotations

import random
import sys
from collections import Counter

import pytest

from hoola.core.cards import parse_cards, rank_of
from hoola.core.driver import play_deal
from hoola.games.capture import GAME
from hoola.games.capture.determinize import Shortage, determinize, shortages, unseen
from hoola.games.capture.expert import ExpertBot, options
from hoola.games.capture.expert_know import Knowledge
from hoola.games.capture.search import PLAIN, WORTH, Horizon, fit_worth, sample, worth_of
from hoola.games.capture.state import DealState
from hoola.games.capture.views import View

BOT = ExpertBot()
PRESETS_4 = ["hola", "sedma", "sedmice", "sedmice-croatian", "ristikontra", "ristiklappi"]


def names(n: int) -> list[str]:
    return [chr(65 + i) for i in range(n)]


def views(preset: str, deals: int, players: int = 4) -> list[tuple[DealState, View]]:
    """Every decision's true hand (copied) and view in ``deals`` expert-played hands."""
    out: list[tuple[DealState, View]] = []
    for seed in range(deals):
        state = GAME.new_deal(GAME.rules(preset), names(players), seed=seed)
        while not state.is_over:
            assert state.turn is not None
            view = state.view(state.turn)
            out.append((state.copy(), view))
            state.apply(BOT.act(view))
    return out


def test_the_odds_worked_out_once_are_the_odds_worked_out_afresh() -> None:
    for _, view in views("hola", 3)[::5]:
        know = Knowledge(view)
        options(view, know)  # fills the memo
        fresh = Knowledge(view)
        for key, odds in know.memo.items():
            will, led, _side, order, leader, left, fights = key
            winner = next(q for q in range(4) if view.side_of[q] == _side)
            assert fresh._chance(list(will), led, winner, list(order), leader, left,
                                 fights) == odds


def test_a_seat_that_lets_a_trick_go_is_short_of_the_led_rank() -> None:
    hands = [parse_cards(h) for h in ["3c 8c 9c Jc", "5s 3h 4h 6h", "9h Jd Qc Kc",
                                      "Ts 4c 8d 9d"]]
    state = DealState.explicit(GAME.rules("hola"), names(4), hands, [], 0)
    for move in ["B play 5s", "C play 9h"]:  # C, against B, lets the fives go
        state.apply(state.parse(move))
    found, drawn = shortages(state.view(3))
    assert found == [Shortage(2, frozenset({4}), "led", 0)] and drawn == [0] * 4


@pytest.mark.parametrize("preset", PRESETS_4)
def test_inferred_guesses_deal_exactly_the_unseen_cards(preset: str) -> None:
    rng = random.Random(preset)
    for state, view in views(preset, 4)[::3]:
        world = determinize(view, rng, infer=True)
        hidden = [c for q, h in enumerate(world.hands) if q != view.player
                  and q not in dict(view.shown) for c in h]
        assert Counter([*hidden, *world.stock, *world.leftover]) == Counter(unseen(view))
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        assert world.hands[view.player] == state.hands[view.player]
        for q, shown in view.shown:
            assert tuple(world.hands[q]) == shown
        assert world.legal_actions(view.player) == state.legal_actions(view.player)


@pytest.mark.parametrize("preset", ["hola", "ristikontra"])
def test_inferred_guesses_read_the_view_alone(preset: str) -> None:
    rng = random.Random(1)
    for _, view in views(preset, 3)[::4]:
        other = determinize(view, rng)  # another hand the same seat cannot tell apart
        again = other.view(view.player)
        assert again.history == view.history and again.hand == view.hand
        seed = rng.randrange(2**32)
        a = determinize(view, random.Random(seed), infer=True)
        b = determinize(again, random.Random(seed), infer=True)
        assert a.hands == b.hands and a.stock == b.stock


def test_inferred_guesses_keep_a_short_seat_short(monkeypatch: pytest.MonkeyPatch) -> None:
    guessing = sys.modules["hoola.games.capture.determinize"]  # the package shadows its name
    monkeypatch.setattr(guessing, "DOUBT", {"led": 0.0, "wild": 0.0})
    hands = [parse_cards(h) for h in ["3c 8c 9c Jc", "5s 3h 4h 6h", "9h Jd Qc Kc",
                                      "Ts 4c 8d 9d"]]
    state = DealState.explicit(GAME.rules("hola"), names(4), hands, [], 0)
    for move in ["B play 5s", "C play 9h"]:
        state.apply(state.parse(move))
    view = state.view(3)
    rng = random.Random(2)
    fives = sum(any(rank_of(c) == 4 for c in determinize(view, rng).hands[2])
                for _ in range(200))
    assert fives > 0  # at random C often holds one of the two fives unseen
    for _ in range(200):
        assert all(rank_of(c) != 4 for c in determinize(view, rng, infer=True).hands[2])


def test_the_horizon_counts_the_lead_and_the_wilds_held() -> None:
    rules = GAME.rules("hola")
    assert worth_of(rules, 4) == WORTH["hola"] and worth_of(rules, 2) == PLAIN
    state = GAME.new_deal(rules, names(4), seed=8)
    world = sample(state.view(1), random.Random(1))
    assert isinstance(world, Horizon)
    play_deal(world, [BOT] * 4)
    w = WORTH["hola"]
    values = [float(sum(rules.points_of(c) for c in cs)) for cs in world.captured]
    for q, hand in enumerate(world.hands):
        values[world.side_of[q]] += sum(w.wild for c in hand if rank_of(c) in rules.wilds)
    values[world.side_of[world.leader]] += w.lead
    mine = world.side_of[1]
    assert float(world.returns()[1]) == pytest.approx(values[mine] - values[1 - mine], abs=1e-3)


def test_the_horizon_worths_are_fitted_to_how_hands_end() -> None:
    hola = fit_worth("hola", 40)
    assert hola.wild > 5 and hola.lead > 0  # a wild held and the lead are worth points
    assert fit_worth("ristikontra", 10).wild == 0.0  # no wilds: nothing fitted to them

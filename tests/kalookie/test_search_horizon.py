"""Kalookie's search, the second part: guesses that read the others' discards, and playouts that
stop at a horizon scored in stakes."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from tests.kalookie.test_search import BOT, JUNK, SETTINGS, agrees, positions

from hoola.games.kalookie import GAME
from hoola.games.kalookie.cards import JOKER, parse_tokens
from hoola.games.kalookie.determinize import LEAN, determinize, leanings
from hoola.games.kalookie.horizon import (
    DEAD_CAP,
    WORTH,
    Horizon,
    features,
    fit_worth,
    horizon,
    worth_of,
)
from hoola.games.kalookie.search import HORIZON, sample
from hoola.games.kalookie.state import DealState

# -- guesses that read the discards --------------------------------------------------------------

@pytest.mark.parametrize(("preset", "options", "players"), SETTINGS)
def test_every_inferred_guess_agrees_with_the_view(preset: str, options: dict[str, Any],
                                                   players: int) -> None:
    rng = random.Random(2)
    leaned = 0
    for state, seat in positions(preset, options, players, range(2)):
        for viewer in {seat, (seat + 1) % players}:
            view = state.view(viewer)
            leaned += any(w != 1.0 for ws in leanings(view) for w in ws)
            # Hand sizes, the whole pack dealt, known cards kept, the view shown unchanged.
            agrees(determinize(view, rng, infer=True), view, state)
    assert leaned > 0


def test_a_discard_leans_the_thrower_away_from_its_rank_and_neighbours(start: Any,
                                                                      play: Any) -> None:
    s = play(start({"A": JUNK, "B": "Ks Kh 9c Tc Jc 2d 3d 7s 8h 5h Qd 4c 6c"}, "Ac", "7c 3s"),
             "B draw", "B discard 7s")
    weights = leanings(s.view(0))
    seven_s, seven_h, six_s, nine_s, seven_s_again = parse_tokens("7s 7h 6s 9s 7s")
    assert weights[0] == [1.0] * (JOKER + 1)  # the viewer's own seat: nothing to lean
    b = weights[1]
    assert b[seven_h] == LEAN["rank"] and b[six_s] == b[nine_s] == LEAN["near"]
    assert b[seven_s] == b[seven_s_again] == 1.0 and b[JOKER] == 1.0
    assert b[parse_tokens("Td")[0]] == 1.0  # unrelated


def test_inferred_guesses_deal_the_throwers_related_cards_less_often(start: Any,
                                                                     play: Any) -> None:
    s = play(start({"A": JUNK, "B": "Ks Kh 9c Tc Jc 2d 3d 7s 8h 5h Qd 4c 6c"}, "Ac", "7c 3s"),
             "B draw", "B discard 7s")
    view = s.view(0)
    sevens = set(parse_tokens("7h 7d 7c"))
    counts = {}
    for infer in (False, True):
        rng = random.Random(7)
        counts[infer] = sum(sum(1 for c in determinize(view, rng, infer=infer).hand(1)
                                if c in sevens) for _ in range(400))
    # Weighted four to one against, the other sevens go to B far less often than at random.
    assert counts[True] < 0.6 * counts[False]


# -- the horizon ---------------------------------------------------------------------------------

def test_features_read_deadwood_opening_jokers_and_the_move(start: Any) -> None:
    s = start({"A": JUNK, "B": "Ks Kh Kd 9c Tc Jc 2d 3d 4d 7s 8h JK Qd"}, "Ac", "7c 3s")
    a, b = features(s, 0), features(s, 1)
    assert len(a) == len(b) == DEAD_CAP + 4
    assert a[:DEAD_CAP] == [0.0] * DEAD_CAP  # 13 cards of deadwood: beyond the cap
    assert b[:DEAD_CAP].index(1.0) == 3  # 7s 8h Qd left over (the joker is held, not dead)
    assert b[DEAD_CAP:] == [0.0, 1.0, 1.0, 1.0]  # not opened, could open, a joker, moves next
    assert a[DEAD_CAP:] == [0.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize("players", [2, 4])
def test_the_horizon_stops_where_it_says_and_pays_zero_sum_stakes(players: int) -> None:
    rules = GAME.rules("british")
    for seed in range(6):
        state = GAME.new_deal(rules, [f"P{i}" for i in range(players)], seed=seed)
        h = horizon(state, 4)
        assert isinstance(h, Horizon) and not h.is_over
        while not h.is_over:
            seat = min(h.actors())
            action = BOT.act(h.view(seat))
            h.apply(action if action is not None else h.legal_actions(seat)[0])
        returns = h.returns()
        assert all(isinstance(r, Fraction) for r in returns) and sum(returns) == 0
        if h.phase == "over":  # the hand ended first: its own stakes
            assert returns == DealState.returns(h)
        else:
            assert h.turns_begun() == 4 and not h.drawn
            # Within what a hand can pay: a kalookie from every other seat at the most.
            assert all(abs(r) <= rules.kalookie_stake * (players - 1) for r in returns)
        assert state.turns_begun() == 0  # the hand it was made from did not move


def test_a_horizon_copy_is_independent_and_keeps_its_stop() -> None:
    state = GAME.new_deal(GAME.rules("british"), ["A", "B"], seed=4)
    h = horizon(state, 2)
    c = h.copy()
    assert isinstance(c, Horizon) and c.stop == h.stop and c.weights == h.weights
    seat = min(c.actors())
    c.apply(BOT.act(c.view(seat)) or c.legal_actions(seat)[0])
    assert c.history != h.history and h.hands == state.hands


def test_sample_plays_to_the_horizon_only_where_weights_are_fitted() -> None:
    rng = random.Random(3)
    british = GAME.new_deal(GAME.rules("british"), ["A", "B"], seed=8)
    guess = sample(british.view(0), rng)
    assert HORIZON is not None and worth_of(british.rules, 2) == WORTH["british", 2]
    assert isinstance(guess, Horizon) and guess.stop == HORIZON * 2
    north = GAME.new_deal(GAME.rules("north-american"), ["A", "B"], seed=8)
    assert worth_of(north.rules, 2) is None
    assert type(sample(north.view(0), rng)) is DealState  # played to the end


def test_fit_worth_gives_a_weight_for_every_feature() -> None:
    weights = fit_worth("british", deals=4)
    assert len(weights) == DEAD_CAP + 4 and all(isinstance(w, float) for w in weights)
    assert weights == fit_worth("british", deals=4)  # expert play is deterministic


def test_the_search_plays_whole_hands_with_the_horizon_and_its_guesses() -> None:
    from hoola.bots import make_bot
    from hoola.core.driver import play_deal

    state = GAME.new_deal(GAME.rules("british"), ["A", "B"], seed=12)
    bot = make_bot("ismcts", game="kalookie", seed=1, playouts=6, seconds=float("inf"))
    play_deal(state, [bot, BOT])
    # Every move was applied by the engine (an illegal one raises); the real hand paid out.
    assert state.is_over and bot.searched > 0  # type: ignore[attr-defined]
    assert sum(state.returns()) == 0 and any(a.player == 0 for a in state.history)

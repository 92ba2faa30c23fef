"""Kalookie's expert bot: a test a main decision, legality everywhere, its edge over random."""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from hoola.core.driver import play_deal
from hoola.games.kalookie import GAME
from hoola.games.kalookie.actions import (
    Action,
    Add,
    BuyIn,
    Discard,
    Draw,
    NewMeld,
    Retire,
    Swap,
    SwapUpcard,
    Take,
    Warn,
)
from hoola.games.kalookie.cards import parse_tokens
from hoola.games.kalookie.deal import Standing
from hoola.games.kalookie.expert import ExpertBot
from hoola.games.kalookie.expert_know import Knowledge
from hoola.games.kalookie.state import DealState

Play = Callable[..., DealState]

JUNK = "2s 4s 6s 8s Ts 3h 5h 7h Jh 4d 6d 8d Td"  # 83 points, no meld
TWELVE = "Ks Kh Kd 9c Tc Jc 2d 3d 4d 7s 8s 9s 5h"  # four melds (75 points) and 5h
OPENER = "As Ah Ad 2c 3c 4c 5s 6s 7s Qh Qd Qc 9h"  # four melds and 9h
BOT = ExpertBot()


def card(text: str) -> int:
    return parse_tokens(text)[0]


def choose(state: DealState, seat: int | None = None) -> tuple[Action | None, str]:
    """The expert's choice for ``seat`` (the player to act), checked against the legal list."""
    view = state.view(state.current if seat is None else seat)
    action, why = BOT.explain(view)
    assert action == BOT.act(view)  # explain and act agree
    assert (action is None and view.can_pass) or action in view.legal
    assert why.endswith(".") and "\n" not in why
    return action, why


def run_turn(state: DealState) -> list[str]:
    """Let the expert play the current player's turn to its discard; the actions as notation."""
    seat, done = state.current, []
    while state.current == seat and not state.is_over:
        action, _ = choose(state)
        assert action is not None
        done.append(state.format(state.apply(action)))
    return done


# -- the initial meld ---------------------------------------------------------------------------

def test_it_opens_as_soon_as_it_can_biggest_meld_first(start: Any, play: Play) -> None:
    s = play(start({"A": JUNK, "B": "Ks Kh Kd 9c Tc Jc 2d 7h 3s 5s 8d 4h 6c"}, "Ac", "Qd"),
             "B draw")
    action, why = choose(s)
    assert action == NewMeld(1, tuple(parse_tokens("Ks Kh Kd"))) and "initial meld" in why
    assert run_turn(s) == ["B meld Ks Kh Kd", "B meld 9c Tc Jc", "B discard Qd"]
    assert s.opened[1]


def test_one_card_from_a_kalookie_it_waits_unless_someone_is_close(start: Any,
                                                                   play: Play) -> None:
    quiet = play(start({"A": OPENER, "B": TWELVE}, "Ac", "Th 8h Jh"), "B draw", "B discard Th",
                 "A draw", "A discard 8h", "B draw")
    action, why = choose(quiet)
    assert isinstance(action, Discard) and action.card in parse_tokens("5h Jh")
    assert "kalookie" in why
    assert isinstance(ExpertBot(wait_for_kalookie=False).act(quiet.view(1)), NewMeld)
    # A has melded down to one card: B opens rather than risk 80 points.
    close = play(start({"A": OPENER, "B": TWELVE}, "Ac", "Th 8h Jh"), "B draw", "B discard Th",
                 "A draw", "A meld As Ah Ad", "A meld 2c 3c 4c", "A meld 5s 6s 7s",
                 "A meld Qh Qd Qc", "A discard 9h", "B draw")
    assert isinstance(choose(close)[0], NewMeld)


def test_a_whole_hand_goes_down_as_a_kalookie(start: Any, play: Play) -> None:
    s = play(start({"A": JUNK, "B": TWELVE}, "Ac", "6h 2s 6s"), "B draw", "B discard 6h",
             "A draw", "A discard 2s", "B draw")
    done = run_turn(s)
    assert done[0].startswith("B meld") and done[-1].startswith("B discard")
    assert s.result is not None and s.result.end == "kalookie" and s.result.winner == 1


def test_a_short_kalookie_where_the_rules_allow_it(start: Any, play: Play) -> None:
    low = "2s 3s 4s 2h 3h 4h 2d 3d 4d 2c 3c 4c 9h"  # with 5c: 41 points, short of 51
    for options, expected in (({}, Discard), ({"kalookie_without_initial": True}, NewMeld)):
        s = play(start({"A": JUNK, "B": low}, "Ac", "6h 9s 5c", preset="blackpool", **options),
                 "B draw", "B discard 6h", "A draw", "A discard 9s", "B draw")
        assert isinstance(choose(s)[0], expected)
    run_turn(s)
    assert s.result is not None and s.result.end == "kalookie"


def test_once_opened_melds_stay_in_hand_until_someone_is_close(start: Any, play: Play) -> None:
    b = "Ks Kh Kd 9c Tc Jc 2d 3d 4d 7s 8h 5h Qd"
    s = play(start({"A": JUNK, "B": b}, "Ac", "6c Kc Jd"), "B draw", "B meld Ks Kh Kd",
             "B meld 9c Tc Jc", "B discard Qd", "A draw", "A discard Kc", "B take")
    view = s.view(1)
    action, why = BOT.explain(view)
    assert isinstance(action, Discard) and "stay in hand" in why  # 2d 3d 4d and Kc wait
    near = view._replace(opened=(True, True), hand_sizes=(2, view.hand_sizes[1]))
    assert BOT.act(near) in (s.parse("B meld 2d 3d 4d"), s.parse("B add Kc on m1"))
    assert isinstance(ExpertBot(hold_melds=False).act(view), NewMeld | Add)


def test_a_card_taken_to_meld_at_once_goes_down_alone(start: Any, play: Play) -> None:
    a = "2s 4s 6s 8s Ts 3h 5h 7h Jh 4d 6d 8d Td 2c Tc"
    b = "Ks Kh Kd Kc Qs Qh Qd 2d 3d 9c Tc Jc 7s 8h 5h"
    s = play(start({"A": a, "B": b}, "Ac", "6c 3s", preset="scarne"), "B draw",
             "B meld Ks Kh Kd Kc", "B meld Qs Qh Qd", "B discard 6c", "A draw", "A discard 4d")
    assert choose(s)[0] == Take(1)
    play(s, "B take")
    assert run_turn(s)[:-1] == ["B meld 2d 3d 4d"]  # Scarne: 4d must go down; 9c Tc Jc waits


# -- taking the discard -------------------------------------------------------------------------

HAND_KK = "Ks Kh 9c Tc Jc 2d 3d 7s 8h 5h Qd 4c 6c"


def test_it_takes_the_discard_that_opens_and_draws_otherwise(start: Any, play: Play) -> None:
    s = play(start({"A": "Kd 4s 6s 8s Ts 3h 5h 7h Jh 4d 6d 8d Td", "B": HAND_KK}, "Ac",
                   "7c 3s"), "B draw", "B discard Qd", "A draw", "A discard Kd")
    action, why = choose(s)
    assert action == Take(1) and "initial meld" in why
    s = play(start({"A": JUNK, "B": HAND_KK}, "Ac", "7c 3s"), "B draw", "B discard Qd",
             "A draw", "A discard 4s")
    assert Take(1) not in s.legal_actions(1)
    action, why = choose(s)
    assert action == Draw(1) and "(ruling 8)" in why


def test_it_takes_the_upcard_that_completes_a_meld_on_the_first_turn(start: Any) -> None:
    assert choose(start({"A": JUNK, "B": HAND_KK}, "Kc", "3s"))[0] == Take(1)
    action, why = choose(start({"A": JUNK, "B": HAND_KK}, "9h", "3s"))
    assert action == Draw(1) and "9h" in why


def test_a_card_that_adds_nothing_is_not_taken(start: Any, play: Play) -> None:
    # B can open with four kings already: a fifth king would not go down.
    b = "Ks Kh Kd Kc 9c Tc Jc 2d 3d 7s 8h 5h Qd"
    s = play(start({"A": "Ks 4s 6s 8s Ts 3h 5h 7h Jh 4d 6d 8d Td", "B": b}, "Ac", "6c 3s"),
             "B draw", "B discard Qd", "A draw", "A discard Ks")
    assert Take(1) in s.legal_actions(1) and choose(s)[0] == Draw(1)


def test_once_opened_it_takes_a_card_it_can_lay(start: Any, play: Play) -> None:
    b = "Ks Kh Kd 9c Tc Jc 2d 3d 7s 8h 5h Qd 4c"
    s = play(start({"A": "Kc 4s 6s 8s Ts 3h 5h 7h Jh 4d 6d 8d Td", "B": b}, "Ac", "6c 3s"),
             "B draw", "B meld Ks Kh Kd", "B meld 9c Tc Jc", "B discard Qd", "A draw")
    play(s, "A discard Kc")
    assert choose(s)[0] == Take(1)
    s = play(start({"A": "Kc 4s 6s 8s Ts 3h 5h 7h Jh 4d 6d 8d Td", "B": b}, "Ac", "6c 3s"),
             "B draw", "B meld Ks Kh Kd", "B meld 9c Tc Jc", "B discard Qd", "A draw",
             "A discard 4s")
    assert choose(s)[0] == Draw(1)


# -- discarding ---------------------------------------------------------------------------------

def test_it_keeps_back_the_card_the_next_player_could_build(start: Any, play: Play) -> None:
    a = "5s 6s 7s 8s 9s Qh Qd Qc Jh 7d Kc Kh 6h"
    b = "2s 3s 4s 2h 3h 4h 2d 3d 4d 5d 5c Ts 9d"  # melds of 27 points: B cannot open
    s = play(start({"A": a, "B": b}, "Ac", "Kd 8h 3c"), "B draw", "B discard Kd", "A draw",
             "A meld 5s 6s 7s 8s 9s", "A meld Qh Qd Qc", "A discard Kc", "B draw")
    action, why = choose(s)
    assert action == Discard(1, card("9d")) and "Ts" in why  # Ts would go on A's run
    know = Knowledge(s.view(1))
    assert know.danger(card("Ts")) > know.danger(card("9d"))


def test_a_rank_the_next_player_took_is_dangerous(start: Any, play: Play) -> None:
    s = start({"A": JUNK, "B": HAND_KK}, "7c", "3s")
    view = s.view(1)
    calm = Knowledge(view._replace(opened=(True, False)))
    taken = Knowledge(view._replace(opened=(True, False), history=(Take(0, card("7c")),)))
    assert taken.danger(card("7d")) > calm.danger(card("7d"))
    assert taken.danger(card("8c")) > calm.danger(card("8c"))
    assert taken.danger(card("Qs")) == calm.danger(card("Qs"))


def test_high_cards_go_when_the_others_are_close_to_out(start: Any, play: Play) -> None:
    b = "Ks Kh Kd 9c Tc Jc Qs Qd 4h 2d 3d 7s 8s"
    s = play(start({"A": JUNK, "B": b}, "Ac", "6c 5d 5c"), "B draw", "B meld Ks Kh Kd",
             "B meld 9c Tc Jc", "B discard 6c", "A draw", "A discard 5d", "B draw")
    view = s.view(1)  # B holds Qs Qd (a pair), 2d 3d, 7s 8s, and 4h 5c alone
    far = BOT.act(view)
    near = BOT.act(view._replace(opened=(True, True), hand_sizes=(1, view.hand_sizes[1])))
    assert far == Discard(1, card("5c"))
    assert isinstance(near, Discard) and near.card in parse_tokens("Qs Qd")


# -- jokers ---------------------------------------------------------------------------------------

def test_it_releases_a_joker_and_lays_it_at_once(start: Any, play: Play) -> None:
    a = "4s JK 6s Qh Qs Qd Qc 2c 5c 7c Jc 3h 8h"
    b = "Kh Kd Ks Kc 5s 9h 9d 2d 4d 6d 8c Th 3c"
    s = play(start({"A": a, "B": b}, "Tc", "Ad 7d 9c 7h 9s"), "B draw",
             "B meld Ks Kh Kd Kc", "B discard Ad", "A draw", "A meld 4s JK=5s 6s",
             "A meld Qs Qh Qd Qc", "A discard 7d", "B draw")
    action, why = choose(s)
    assert action == Swap(1, (card("5s"),), meld_id=2) and "(ruling 7)" in why
    done = run_turn(s)
    assert any("JK" in text for text in done[1:]) and s.turn.loose == 0


def test_a_held_joker_goes_down_safely_when_someone_is_close(start: Any, play: Play) -> None:
    b = "Ks Kh Kd 9c Tc Jc 2s 2h 2d JK 4h Qd 7s"
    s = play(start({"A": OPENER, "B": b}, "Ac", "6c 5d Jh"), "B draw", "B meld Ks Kh Kd",
             "B meld 9c Tc Jc", "B meld 2s 2h 2d", "B discard 6c", "A draw", "A meld As Ah Ad",
             "A meld 2c 3c 4c", "A meld 5s 6s 7s", "A meld Qh Qd Qc", "A discard 9h", "B draw")
    action, why = choose(s)
    # A holds one card: the joker closes a three-card set, where nobody can win it back.
    assert action in (s.parse("B add JK on m1"), s.parse("B add JK on m3"))
    assert "15 points" in why
    calm = s.view(1)._replace(hand_sizes=(9, 5), opened=(False, True))
    assert isinstance(BOT.act(calm), Discard)  # nobody close: the joker stays in hand


# -- warnings, the upcard swap, buying in -------------------------------------------------------

def test_it_always_warns(start: Any, play: Play) -> None:
    b = "Ks Kh Kd 7s 7h 7d 2c 3c 4c 9c Tc Qd 5h"
    s = play(start({"A": JUNK, "B": b}, "Ac", "Jc 8c 2h 9d 4h", warnings="manual"), "B draw",
             "B meld Ks Kh Kd", "B meld 7s 7h 7d", "B meld 2c 3c 4c", "B meld 9c Tc Jc",
             "B discard Qd")
    action, why = choose(s, 1)
    assert action == Warn(1) and "1 card:" in why
    assert choose(s, 0)[0] == Draw(0)


def test_the_dealer_swaps_an_upcard_that_completes_a_meld(start: Any) -> None:
    a = "Ks Kh 2s 4s 6s 8s Ts 3h 5h 7h Jh 4d 6d 8d Td"
    b = "2c 3c 5c 7c 9c Jc As 9s Qs 2h 9h Qh 3d 7d Qd"
    s = start({"A": a, "B": b}, "Kd", preset="scarne")
    action, _ = choose(s, 0)
    assert isinstance(action, SwapUpcard) and action.card not in parse_tokens("Ks Kh")
    assert choose(start({"A": a, "B": b}, "Qc", preset="scarne"), 0)[0] is None


@pytest.mark.parametrize(("c_before", "expected"), [(10, BuyIn), (65, Retire)])
def test_buying_in_weighs_the_pool_against_the_price(start: Any, play: Play, c_before: int,
                                                     expected: type) -> None:
    standing = Standing((100, 60, c_before), (0, 0, 0), (True, True, True))
    b = "Ks Kh Kd 7s 7h 7d 2c 3c 4c 9c Tc Jc Qc"
    c = "3s 5s 9s Js 2h 4h 6h 8h Th 3d 5d 9d Jd"  # 84 points
    s = play(start({"A": JUNK, "B": b, "C": c}, "Ac", "Kc", standing=standing), "B draw",
             "B meld Ks Kh Kd Kc", "B meld 7s 7h 7d", "B meld 2c 3c 4c", "B meld 9c Tc Jc",
             "B discard Qc")
    assert s.phase == "decide" and s.current == 0
    action, why = choose(s)
    assert isinstance(action, expected) and "chance" in why


# -- always legal, quick, and better than random -----------------------------------------------

CASES = [("british", {}, 3), ("north-american", {}, 4), ("scarne", {}, 2),
         ("three-deck", {"warnings": "manual"}, 3),
         ("british", {"joker_release": "interior", "run_build_limit": "two-total",
                      "kalookie_without_initial": True, "aces": "high-or-low"}, 2),
         ("swedish", {"identical_sets": True, "joker_sets": True, "reshuffle": "never"}, 5)]


@pytest.mark.parametrize(("preset", "options", "players"), CASES)
def test_it_only_ever_chooses_a_legal_action(preset: str, options: dict[str, Any],
                                            players: int) -> None:
    """Random play visits positions; at each one the expert is asked for every seat that may
    act, and must choose from ``view.legal`` (or pass where passing is allowed)."""
    rules = GAME.rules(preset, options)
    asked = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = GAME.new_deal(rules, [f"P{i}" for i in range(players)], seed=seed)
        while not state.is_over:
            for seat in state.actors():
                view = state.view(seat)
                action = BOT.act(view)
                assert (action is None and view.can_pass) or action in view.legal
                asked += 1
            legal = state.legal_actions(state.current)
            state.apply(rng.choice(legal))
    assert asked > 100


class RandomPolicy:
    """Uniform over ``view.legal``; a pass has the same chance as each action where allowed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, view: Any) -> Any:
        legal = view.legal
        if view.can_pass:
            k = self.rng.randrange(len(legal) + 1)
            return legal[k] if k < len(legal) else None
        return legal[self.rng.randrange(len(legal))] if legal else None


@pytest.mark.parametrize(("players", "shuffles"), [(2, 8), (4, 4)])
def test_duplicate_deals_against_random(players: int, shuffles: int) -> None:
    """Each shuffle is played twice, the seats swapped; the expert seats' mean stakes minus the
    random seats' must be positive with a 95% interval clear of zero (the expert never draws on
    a random source, so the test is deterministic)."""
    rules = GAME.rules("british")
    names = [f"P{i}" for i in range(players)]
    margins = []
    for seed in range(shuffles):
        margin = Fraction(0)
        for arrangement in (0, 1):
            expert = [(seat + arrangement) % 2 == 0 for seat in range(players)]
            bots = [ExpertBot(seed) if e else RandomPolicy(seed * 10 + seat)
                    for seat, e in enumerate(expert)]
            state = GAME.new_deal(rules, names, seed=seed)
            play_deal(state, bots)
            r = state.returns()
            margin += sum(r[q] for q in range(players) if expert[q]) \
                - sum(r[q] for q in range(players) if not expert[q])
        margins.append(float(margin) / players)  # per seat, averaged over both arrangements
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / len(margins) ** 0.5
    assert mean - half > 0, (mean, half)

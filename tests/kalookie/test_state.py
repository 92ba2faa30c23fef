"""The hand engine: turns, obligations, refusals with their codes, several actors at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from hoola.core.errors import HoolaError, IllegalActionError, OutOfTurnError
from hoola.games.kalookie.actions import Discard, Draw, NewMeld, SwapUpcard, Take, Warn
from hoola.games.kalookie.cards import parse_tokens
from hoola.games.kalookie.deal import Standing
from hoola.games.kalookie.state import DealState

Play = Callable[..., DealState]

# A deals, B plays first. A's hand is junk; B's holds 9h 9d and three kings.
A_JUNK = "2s 4s 6s 8s Ts 3h 5h 7h Jh 4d 6d 8d Td"
B_KINGS = "9h 9d Ks Kh Kd 2c 5c 7c Jc 3s 5s 7d Qd"


def refuse(state: DealState, text: str, code: str) -> str:
    """Apply ``text``, expecting a refusal with ``code`` that changes nothing."""
    before = (len(state.history), [h.copy() for h in state.hands], state.turn, state.melds)
    action = state.parse(text)
    assert not state.can(action)
    with pytest.raises(HoolaError) as info:
        state.apply(action)
    assert info.value.code == code, info.value.message
    assert (len(state.history), state.hands, state.turn, state.melds) == before
    return info.value.message


def test_turn_order_draw_first_and_out_of_turn(start: Any, play: Play) -> None:
    s = start({"A": A_JUNK, "B": B_KINGS}, "Ac", "Qc 9s 4c")
    assert s.actors() == frozenset({1})
    assert isinstance(refuse(s, "A draw", "out-of-turn"), str)
    with pytest.raises(OutOfTurnError):
        s.apply(s.parse("A draw"))
    refuse(s, "B discard 2c", "must-draw-first")
    play(s, "B draw")
    refuse(s, "B draw", "already-drawn")
    refuse(s, "B discard 4c", "not-in-hand")
    play(s, "B discard Qc")
    assert s.actors() == frozenset({0}) and s.discards[-1] == parse_tokens("Qc")[0]


def test_taking_the_discard_before_the_initial_meld(start: Any, play: Play) -> None:
    s = play(start({"A": A_JUNK, "B": B_KINGS}, "Ac", "Qc 9s 4c"),
             "B draw", "B discard Qc", "A draw", "A discard 9s")
    assert Take(1) in s.legal_actions(1)
    play(s, "B take")
    message = refuse(s, "B discard 2c", "initial-incomplete")
    assert "took the discard" in message and "(rulings 5, 8)" in message
    play(s, "B meld 9s 9h 9d")
    refuse(s, "B discard 2c", "initial-incomplete")
    play(s, "B meld Ks Kh Kd", "B discard 2c")
    assert s.opened[1]


def test_the_discard_cannot_be_taken_when_the_meld_is_out_of_reach(start: Any,
                                                                  play: Play) -> None:
    b = "9h 8d Ks Kh 2d 2c 5c 7c Jc 3s 5s 7d Qd"
    s = play(start({"A": A_JUNK, "B": b}, "Ac", "Qc 9s 4c"),
             "B draw", "B discard Qc", "A draw", "A discard 9s")
    assert Take(1) not in s.legal_actions(1)
    assert "could not make it this turn with 9s (ruling 8)" in refuse(
        s, "B take", "cannot-open-with-discard")
    refuse(s, "B take Qc", "not-top-discard")


def test_a_short_first_meld_needs_the_rest_to_complete_it(start: Any, play: Play) -> None:
    b = "2c 3c 4c Ks Kh Kd 7s 7h 7d 9c Jd 5h 8h"
    s = play(start({"A": A_JUNK, "B": b}, "Ac", "Qc"), "B draw")
    play(s, "B meld 2c 3c 4c")  # 9 now, 30 + 21 to come
    refuse(s, "B discard 9c", "initial-incomplete")
    play(s, "B meld Ks Kh Kd")
    refuse(s, "B add 5c on m1", "not-opened")  # 39 of 40: no building yet
    play(s, "B meld 7s 7h 7d", "B discard 9c")
    assert s.opened[1] and s.turn.value == 0 and s.current == 0
    short = "2c 3c 4c Ks Kh Kd 6s 7h 8d 9c Jd 5h 8h"
    s = play(start({"A": A_JUNK, "B": short}, "Ac", "Qc"), "B draw")
    message = refuse(s, "B meld 2c 3c 4c", "initial-out-of-reach")
    assert "9 of 40 points" in message and "(ruling 5)" in message
    refuse(s, "B meld Ks Kh Kd", "initial-out-of-reach")


def test_melding_every_card_is_refused(start: Any, play: Play) -> None:
    b = "Ks Kh Kd 7s 7h 7d 2c 3c 4c 9c Tc Jc Qc"
    s = play(start({"A": A_JUNK, "B": b}, "Ac", "Kc"), "B draw",
             "B meld Ks Kh Kd Kc", "B meld 7s 7h 7d", "B meld 2c 3c 4c")
    message = refuse(s, "B meld 9c Tc Jc Qc", "must-keep-discard")
    assert "a turn ends with a discard, so a card must stay in hand (ruling 9)" in message
    play(s, "B meld 9c Tc Jc", "B discard Qc")
    assert s.result is not None and s.result.end == "kalookie"


def test_building_limits_per_turn(start: Any, play: Play) -> None:
    a = "5s 6s 7s 8d 9d Td Jd 4s 3s 2s 8s 9s Ts"
    b = "Qh Kh Ah Qs Qd Qc 2c 5c 7c Jc 3h 5h 7d"
    s = play(start({"A": b, "B": a}, "Kc", "4h 2d 6h"), "B draw",
             "B meld 5s 6s 7s", "B meld 8d 9d Td Jd", "B add 4s on m1", "B add 3s on m1",
             "B add 8s on m1", "B add 9s on m1", "B add 2s on m1")
    assert s.melds[0].low == 2  # a run laid this turn grows freely
    two = play(start({"A": b, "B": a}, "Kc", "4h 2d 6h", run_build_limit="two-total"), "B draw",
               "B meld 5s 6s 7s", "B meld 8d 9d Td Jd", "B discard 4h", "A draw",
               "A discard 2d", "B draw", "B add 4s on m1", "B add 8s on m1")
    assert "two cards go on one run" in refuse(two, "B add 3s on m1", "build-limit")


def test_two_per_end_on_a_run_from_an_earlier_turn(start: Any, play: Play) -> None:
    a = "5s 6s 7s 8d 9d Td Jd 4s 3s 2s 8s 9s Ts"
    b = "Qh Kh Ah Qs Qd Qc 2c 5c 7c Jc 3h 5h 7d"
    s = play(start({"A": b, "B": a}, "Kc", "4h 2d 6h"), "B draw",
             "B meld 5s 6s 7s", "B meld 8d 9d Td Jd", "B discard 4h", "A draw",
             "A discard 2d", "B draw", "B add 4s on m1", "B add 3s on 5s")
    assert "same end" in refuse(s, "B add 2s on m1", "build-limit")
    play(s, "B add 8s on m1", "B add 9s on m1")
    refuse(s, "B add Ts on m1", "build-limit")
    free = play(start({"A": b, "B": a}, "Kc", "4h 2d 6h", run_build_limit="none"), "B draw",
                "B meld 5s 6s 7s", "B meld 8d 9d Td Jd", "B discard 4h", "A draw",
                "A discard 2d", "B draw", "B add 4s on m1", "B add 3s on m1", "B add 2s on m1")
    assert free.melds[0].low == 2


def test_releasing_a_joker_binds_the_turn(start: Any, play: Play) -> None:
    a = "4s JK 6s Qh Qs Qd Qc 2c 5c 7c Jc 3h 8h"
    b = "Kh Kd Ks Kc 5s 9h 9d 2d 4d 6d 8c Th 3c"
    s = play(start({"A": a, "B": b}, "Tc", "Ad 7d 9c 7h 9s"), "B draw",
             "B meld Ks Kh Kd Kc", "B discard Ad", "A draw",
             "A meld 4s JK=5s 6s", "A meld Qs Qh Qd Qc", "A discard 7d", "B draw")
    refuse(s, "B swap 9h for JK on m2", "bad-swap")
    play(s, "B swap 5s for JK on m2")
    assert s.turn.loose == 1 and s.actors() == frozenset({1})
    assert "released joker must be laid" in refuse(s, "B discard 2d", "joker-not-laid")
    play(s, "B meld 9h 9d JK", "B discard 2d")
    assert s.turn.loose == 0 and s.melds[1].jokers == 0


def test_a_release_is_refused_when_the_joker_could_not_be_laid(start: Any, play: Play) -> None:
    a = "9s 9h JK Qh Qs Qd Qc 2c 5c 7c Jc 3h 8h"
    b = "Kh Kd Ks Kc 9d 9c 2d 4d 6d 8c Th 3c 5d"
    s = play(start({"A": a, "B": b}, "Tc", "Ad 7d 7h 9s"), "B draw",
             "B meld Ks Kh Kd Kc", "B discard Ad", "A draw", "A meld 9s 9h JK",
             "A meld Qs Qh Qd Qc", "A discard 7d", "B draw")
    refuse(s, "B swap 9d for JK on m2", "bad-swap")
    assert s.can(s.parse("B swap 9d 9c for JK on m2"))
    # Every meld on the table closed, and Th 2s 7h 4c make no meld with a joker.
    b = "Kh Kd Ks Kc 5s 5h 5d 5c 9d 9c Th 2s 7h"
    t = play(start({"A": a, "B": b}, "Tc", "3h Ad 4c"), "B draw", "B meld Ks Kh Kd Kc",
             "B meld 5s 5h 5d 5c", "B discard 3h", "A draw", "A meld 9s 9h JK",
             "A meld Qs Qh Qd Qc", "A discard Ad", "B draw")
    message = refuse(t, "B swap 9d 9c for JK on m3", "joker-unplayable")
    assert "released joker could then not be laid" in message and "(ruling 7)" in message


def test_manual_warnings_bar_the_next_call_up(start: Any, play: Play) -> None:
    b = "Ks Kh Kd 7s 7h 7d 2c 3c 4c 9c Tc Qd 5h"
    s = play(start({"A": A_JUNK, "B": b}, "Ac", "Jc 8c 2h 9d 4h", warnings="manual"),
             "B draw", "B meld Ks Kh Kd", "B meld 7s 7h 7d", "B meld 2c 3c 4c", "B discard 5h")
    assert s.sizes[1] == 4 and s.actors() == frozenset({0})
    s = play(start({"A": A_JUNK, "B": b}, "Ac", "Jc 8c Kc 9d 4h", warnings="manual"),
             "B draw", "B meld Ks Kh Kd", "B meld 7s 7h 7d", "B meld 2c 3c 4c",
             "B meld 9c Tc Jc", "B discard 5h")
    assert s.sizes[1] == 1 and s.actors() == frozenset({0, 1}) and s.warner == 1
    assert s.view(1).can_pass and not s.view(0).can_pass
    assert s.resolve([Draw(0), Warn(1)]) == Warn(1)
    assert s.resolve([Draw(0)]) == Draw(0)
    play(s, "A draw")  # the window closes without a warning
    assert s.warner is None and s.barred == frozenset({1})
    refuse(s, "B warn", "no-warning-due")
    play(s, "A discard 8c", "B draw")
    # Building Kc would leave Qd alone, whose discard is the barred call-up: a dead end, refused.
    message = refuse(s, "B add Kc on m1", "not-warned")
    assert "two cards must stay in hand (ruling 10)" in message
    play(s, "B discard Kc")
    assert s.barred == frozenset() and s.sizes[1] == 1


def test_a_warning_given_keeps_the_call_up(start: Any, play: Play) -> None:
    b = "Ks Kh Kd 7s 7h 7d 2c 3c 4c 9c Tc Qd 5h"
    s = play(start({"A": A_JUNK, "B": b}, "Ac", "Jc 8c Kc 9d 4h", warnings="manual"),
             "B draw", "B meld Ks Kh Kd", "B meld 7s 7h 7d", "B meld 2c 3c 4c",
             "B meld 9c Tc Jc", "B discard 5h", "B warn", "A draw", "A discard 8c", "B draw",
             "B add Kc on m1", "B discard Qd")
    assert s.is_over and s.result is not None and s.result.winner == 1
    auto = play(start({"A": A_JUNK, "B": b}, "Ac", "Jc 8c Qs 9d 4h"), "B draw")
    refuse(auto, "B warn", "warnings-auto")


def test_the_dealer_may_swap_the_upcard_before_play(start: Any, play: Play) -> None:
    a = "2s 4s 6s 8s Ts 3h 5h 7h Jh 4d 6d 8d Td Qc Kc"
    b = "9h 9d Ks Kh Kd 2c 5c 7c Jc 3s 5s 7d Qd 3d 3c"
    s = start({"A": a, "B": b}, "Ac", "Qh 9s", preset="scarne")
    assert s.actors() == frozenset({0, 1})
    assert SwapUpcard(0, parse_tokens("Kc")[0]) in s.legal_actions(0)
    assert s.resolve([Draw(1), SwapUpcard(0, 38)]) == SwapUpcard(0, 38)
    play(s, "A swap-upcard Kc")
    assert s.discards == [parse_tokens("Kc")[0]] and s.hands[0][parse_tokens("Ac")[0]] == 1
    assert s.actors() == frozenset({1})
    refuse(s, "A swap-upcard Qc", "too-late")
    refuse(s, "B swap-upcard Qd", "not-dealer")
    late = play(start({"A": a, "B": b}, "Ac", "Qh 9s", preset="scarne"), "B draw")
    refuse(late, "A swap-upcard Kc", "too-late")
    british = start({"A": a[:-6], "B": b[:-6]}, "Ac", "Qh 9s")
    refuse(british, "A swap-upcard Kc", "upcard-swap-off")


def test_the_stock_is_reshuffled_once_then_the_hand_is_void(start: Any, play: Play) -> None:
    opts = {"decks": 1, "jokers": 0, "hand_size": 24}
    a = "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh"
    b = "Ad 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc"
    s = start({"A": a, "B": b}, "Ks", "Kh Kd Kc", **opts)
    assert len(s.stock) == 3
    play(s, "B draw", "B discard Kh", "A draw", "A discard Kd", "B draw")
    assert not s.stock
    play(s, "B discard Kc")
    assert s.reshuffles == 1 and len(s.stock) == 3 and s.discards == [parse_tokens("Kc")[0]]
    for _ in range(3):
        p = s.current
        s.apply(Draw(p))
        card = s.history[-1].card  # type: ignore[attr-defined]
        assert card is not None
        s.apply(Discard(p, card))
    assert s.is_over and s.result is not None and s.result.end == "void"
    assert s.returns() == [0, 0]
    never = play(start({"A": a, "B": b}, "Ks", "Kh Kd Kc", reshuffle="never", **opts),
                 "B draw", "B discard Kh", "A draw", "A discard Kd", "B draw", "B discard Kc")
    assert never.is_over and never.result is not None and never.result.end == "void"


def test_a_meld_may_be_named_by_a_card_it_holds(start: Any, play: Play) -> None:
    a = "5s 6s 7s 5h 6h 7h Qh Qs Qd 2c 4c 9c Jc"
    b = "Ks Kh Kd Kc 4s 4h 9d 2d 3d 8d 6c Th 3c"
    s = play(start({"A": a, "B": b}, "Tc", "Ad 7d 9s"), "B draw", "B meld Ks Kh Kd Kc",
              "B discard Ad", "A draw", "A meld 5s 6s 7s", "A meld 5h 6h 7h",
              "A meld Qs Qh Qd", "A discard 7d", "B draw")
    play(s, "B add 4s on 5s")
    assert s.melds[1].low == 4 and s.history[-1] == s.parse("B add 4s on m2")
    refuse(s, "B add 4h on 9h", "no-such-meld")
    refuse(s, "B add 4h on m9", "no-such-meld")


def test_garbage_is_refused_and_changes_nothing(start: Any) -> None:
    s = start({"A": A_JUNK, "B": B_KINGS}, "Ac", "Qc 9s")
    for bad in (None, "B draw", 3, Draw(True), Draw(-1), Draw(7), Draw(1, 5),  # type: ignore
                Discard(1, None), Discard(1, 99), NewMeld(1, []), NewMeld(1, (1, "x")),  # type: ignore
                Take(1, -3)):
        assert not s.can(bad)
        with pytest.raises(HoolaError) as info:
            s.apply(bad)
        assert info.value.code in ("unknown-action", "unknown-player", "bad-action")
    assert s.history == [] and s.legal_actions(True) == [] and s.legal_actions(9) == []  # type: ignore
    with pytest.raises(IllegalActionError):
        s.view(5)


def test_a_hand_over_refuses_everything(start: Any, play: Play) -> None:
    b = "Ah Kh Qh 5s 5d 5c 2d 3d 4d 9c Tc Jc Kd"
    s = play(start({"A": A_JUNK, "B": b}, "Js", "5h"), "B draw", "B meld Qh Kh Ah",
             "B meld 5s 5d 5c 5h", "B meld 2d 3d 4d", "B meld 9c Tc Jc", "B discard Kd")
    assert s.is_over and s.actors() == frozenset()
    refuse(s, "A draw", "deal-over")
    assert s.view(0).hands is not None and s.legal_actions(0) == []


def test_players_out_of_the_game_are_dealt_nothing(start: Any) -> None:
    standing = Standing((0, 160, 30), (0, 2, 0), (True, False, True), (0, 0, 0))
    s = start({"A": A_JUNK, "B": "", "C": B_KINGS}, "Ac", "Qc", standing=standing)
    assert s.actors() == frozenset({2}) and s.sizes == [13, 0, 13]
    refuse(s, "B draw", "out-player")


def test_named_check_ask_do_agree(start: Any) -> None:
    s = start({"A": A_JUNK, "B": B_KINGS}, "Ac", "Qc 9s")
    assert s.can_draw(1) and s.can_take(1) and not s.can_draw(0) and not s.can_warn(1)
    with pytest.raises(OutOfTurnError):
        s.verify_draw(0)
    record = s.draw(1)
    assert isinstance(record, Draw) and record.card == parse_tokens("Qc")[0]
    kings = parse_tokens("Ks Kh Kd")
    assert not s.can_meld(1, kings)  # 30, and the rest (9h 9d, Qc Qd...) melds nothing more
    assert not s.can_discard(1, parse_tokens("Kc")[0])
    s.discard(1, parse_tokens("Qc")[0])
    assert not s.can_add(0, parse_tokens("2s")[0], 1) and not s.can_swap(0, (1,), 1)
    assert not s.can_buy_in(0) and not s.can_retire(0) and not s.can_swap_upcard(0, 1)
    with pytest.raises(IllegalActionError):
        s.verify_buy_in(0)

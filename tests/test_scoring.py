"""Unit tests for hoola.games.hoola.scoring: hand points, blasts, and settle() on the rule
texts' examples."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from hoola.core.cards import card_mask, parse_cards
from hoola.games.hoola.rules import Rules
from hoola.games.hoola.scoring import SeatShowdown, blast_kind, blast_points, hand_points, settle

PAGAT = Rules.preset("pagat")


def mask(text: str) -> int:
    return card_mask(parse_cards(text))


def seat(points: int, sevens: int = 0, melded: bool = True, had_turn: bool = True) -> SeatShowdown:
    return SeatShowdown(points, sevens, melded, had_turn)


def paid(result: Any) -> dict[int, Fraction]:
    assert sum(result.payments.values()) == 0
    return dict(result.payments)


# -- hand points ------------------------------------------------------------------------------

def test_hand_points_standard_values() -> None:
    assert hand_points(mask("As 2s 3s 4s 5s 6s"), 0, PAGAT) == 21
    assert hand_points(mask("8h 9h Th Jh Qh Kh"), 0, PAGAT) == 8 + 9 + 10 + 11 + 12 + 13
    assert hand_points(0, 0, PAGAT) == 0


def test_sevens_count_fourteen_at_the_end() -> None:
    assert hand_points(mask("7s Kd As"), 0, PAGAT) == 28
    assert hand_points(mask("7s 7h 7d 7c"), 0, PAGAT) == 56
    assert hand_points(mask("7s Kd As"), 0, Rules.preset("pagat", seven_value_end=7)) == 21


def test_face_values_ten() -> None:
    ten = Rules.preset("pagat", face_values="ten")
    assert hand_points(mask("Js Qh Kd Tc"), 0, ten) == 40
    assert hand_points(mask("Js Qh Kd Tc"), 0, PAGAT) == 46
    assert hand_points(mask("7s Kd"), 0, ten) == 24


def test_quad_in_hand_free() -> None:
    free = Rules.preset("pagat", quad_in_hand_free=True)
    assert hand_points(mask("9s 9h 9d 9c 2s"), 0, free) == 2
    assert hand_points(mask("9s 9h 9d 9c 2s"), 0, PAGAT) == 38
    assert hand_points(mask("9s 9h 9d 2s"), 0, free) == 29  # three of a kind still count
    assert hand_points(mask("7s 7h 7d 7c Ks"), 0, free) == 13
    # a quad is free at the end, not for a blast
    assert blast_points(mask("9s 9h 9d 9c 2s"), free) == 38


# 7s 7h Kd As: 14 + 14 + 13 + 1 = 42 points of naturals
@pytest.mark.parametrize(("value", "multiplier", "expected"), [
    # (one joker after a turn, one joker no turn, two jokers after a turn, two jokers no turn)
    ("double", "after-turn", (84, 42, 168, 42)),
    ("double", "always", (84, 84, 168, 168)),
    ("quintuple", "after-turn", (210, 42, 1050, 42)),
    ("quintuple", "always", (210, 210, 1050, 1050)),
    ("zero", "after-turn", (42, 42, 42, 42)),
    ("zero", "always", (42, 42, 42, 42)),
    ("fourteen-triple", "after-turn", (140, 56, 406, 70)),
    ("fourteen-triple", "always", (140, 140, 406, 406)),
    ("twenty", "after-turn", (62, 62, 82, 82)),
    ("twenty", "always", (62, 62, 82, 82)),
    ("thirty", "after-turn", (72, 72, 102, 102)),
    ("thirty", "always", (72, 72, 102, 102)),
])
def test_joker_values(value: str, multiplier: str, expected: tuple[int, ...]) -> None:
    rules = Rules.preset("pagat", jokers=2, joker_value=value, joker_multiplier=multiplier)
    hand = mask("7s 7h Kd As")
    got = tuple(hand_points(hand, j, rules, had_turn) for j in (1, 2)
                for had_turn in (True, False))
    assert got == expected


def test_jokers_alone() -> None:
    rules = Rules.preset("pagat", jokers=2)
    assert hand_points(0, 2, rules) == 0
    assert hand_points(0, 1, Rules.preset("pagat", jokers=1, joker_value="thirty")) == 30


# -- blasts -----------------------------------------------------------------------------------

def test_blast_points_sevens_count_seven_and_jokers_nothing() -> None:
    assert blast_points(mask("7s 7h As Ah 2s"), PAGAT) == 7 + 7 + 1 + 1 + 2
    assert blast_points(mask("7s 7h As Ah 2s"), Rules.preset("winjoy")) == 14 + 14 + 1 + 1 + 2


@pytest.mark.parametrize(("hand", "jokers", "kind"), [
    ("As Ah Ad Ac 2s 2h 2d", 0, "sopang"),          # 10
    ("As Ah Ad Ac 2s 2h 5d", 0, "sopang"),          # 13
    ("As Ah Ad Ac 2s 2h 7d", 0, "sopang"),          # 15 with the seven at 7
    ("As Ah Ad Ac 2s 2h 8d", 0, None),              # 16
    ("Ks Kh Kd Kc Qs Qh Qd", 0, "daepang"),         # 88
    ("Ks Kh Kd Kc Qs Qh 6d", 0, None),              # 82
    ("Ks Kh Kd Kc Qs Qh 7d", 0, "daepang"),         # 83
    ("Ks Kh Kd Kc Qs Qh", 1, None),                 # 76 and a joker counting 0
    ("As Ah Ad Ac 9s 2h", 1, "sopang"),             # 15 and a joker counting 0
    ("5s 6h 8d 9c Ts Jh 2d", 0, None),
])
def test_blast_kind(hand: str, jokers: int, kind: str | None) -> None:
    assert blast_kind(mask(hand), jokers, PAGAT) == kind


def test_blast_thresholds_follow_options() -> None:
    online = Rules.preset("online")
    assert blast_kind(mask("Ks Kh Kd Kc Qs Qh 4d"), 0, online) == "daepang"   # 80
    assert blast_kind(mask("Ks Kh Kd Kc Qs Qh 4d"), 0, PAGAT) is None
    winjoy = Rules.preset("winjoy")
    assert blast_kind(mask("As Ah Ad Ac 2s 2h 7d"), 0, winjoy) is None         # 22
    low = Rules.preset("pagat", blast_low=10)
    assert blast_kind(mask("As Ah Ad Ac 2s 2h 2d"), 0, low) == "sopang"
    assert blast_kind(mask("As Ah Ad Ac 2s 2h 3d"), 0, low) is None


def test_blast_with_court_cards_ten() -> None:
    ten = Rules.preset("court-ten")
    assert blast_kind(mask("Js Jh Qs Qh Ks Kh Kd"), 0, ten) == "daepang"
    assert blast_kind(mask("Js Jh Qs Qh Ks Kh Td"), 0, ten) is None
    assert blast_kind(mask("Js Jh Qs Qh Ks Kh"), 1, ten) is None
    assert blast_kind(mask("As Ah Ad Ac 2s 2h 2d"), 0, ten) == "sopang"


# -- settle: the worked examples of hoola-pagat.txt -------------------------------------------

def test_five_player_tie_example() -> None:
    # A: 11, B: 3, C: 34, D: 34, E: 11 - C and D pay 4, A and E pay 2, B collects 12.
    seats = {i: seat(p) for i, p in enumerate([11, 3, 34, 34, 11])}
    result = settle(PAGAT, "knock", seats, [1])
    assert paid(result) == {0: -2, 1: 12, 2: -4, 3: -4, 4: -2}
    assert result.winners == (1,)
    assert result.points == {0: 11, 1: 3, 2: 34, 3: 34, 4: 11}
    assert result.payer is None


def test_five_players_no_ties_collect_ten() -> None:
    seats = {i: seat(p) for i, p in enumerate([0, 5, 10, 20, 30])}
    assert paid(settle(PAGAT, "out", seats, [0])) == {0: 10, 1: -1, 2: -2, 3: -3, 4: -4}


def test_shared_stock_win_example() -> None:
    # A: 9, B: 9, C: 15, D: 25 at the end of stock - C pays 2, D pays 3, A and B get 2.5 each.
    seats = {i: seat(p) for i, p in enumerate([9, 9, 15, 25])}
    result = settle(PAGAT, "stock", seats, [0, 1])
    assert paid(result) == {0: Fraction(5, 2), 1: Fraction(5, 2), 2: -2, 3: -3}
    assert result.winners == (0, 1)


def test_forty_eight_stakes_example() -> None:
    # 4 players, Hoola: the loser who had a turn, melded nothing and holds a seven ranks last:
    # 3 stakes x4 (Hoola) x2 (seven) x2 (no meld) = 48.
    seats = {0: seat(30, sevens=1, melded=False), 1: seat(0), 2: seat(5), 3: seat(10)}
    result = settle(PAGAT, "hoola", seats, [1])
    line = next(line for line in result.losers if line.seat == 0)
    assert line.base == 3
    assert line.amount == 48
    assert line.last == "melded nothing"
    assert sorted(f for _, f in line.multipliers) == [2, 2, 4]
    # the other losers pay their rank x4, even without a turn
    assert paid(result) == {0: -48, 1: 48 + 4 + 8, 2: -4, 3: -8}


def test_hoola_multiplier_applies_to_players_without_a_turn() -> None:
    seats = {0: seat(0), 1: seat(30, sevens=2, melded=False, had_turn=False), 2: seat(20)}
    result = settle(PAGAT, "hoola", seats, [0])
    # seat 1 had no turn: no last place, no doubles; ranked second by points: 2 x 4
    assert paid(result) == {0: 12, 1: -8, 2: -4}
    doubled_only = settle(Rules.preset("pagat", hoola_multiplier=2), "hoola", seats, [0])
    assert paid(doubled_only) == {0: 6, 1: -4, 2: -2}


def test_one_pays_all_example() -> None:
    # A discards, C claims it and goes out. B melded nothing and ranks last; D has 25 with a
    # seven (x2). A and B would owe 3 each, D 2; A pays all: 8 stakes to C.
    # B's last place without a double is pagat's "No Meld Penalty" variation (no turn yet).
    rules = Rules.preset("pagat", no_meld_last="always")
    seats = {0: seat(30), 1: seat(40, melded=False, had_turn=False), 2: seat(0),
             3: seat(25, sevens=1)}
    result = settle(rules, "out", seats, [2], claimed_from=0)
    assert paid(result) == {0: -8, 1: 0, 2: 8, 3: 0}
    assert result.payer == 0
    assert {line.seat: line.amount for line in result.losers} == {0: 3, 1: 3, 3: 2}


def test_one_pays_all_under_pagat_defaults() -> None:
    # The same table under the pagat preset with B having had a turn: B is last and doubled.
    seats = {0: seat(30), 1: seat(40, melded=False), 2: seat(0), 3: seat(25, sevens=1)}
    result = settle(PAGAT, "out", seats, [2], claimed_from=0)
    assert paid(result) == {0: -11, 1: 0, 2: 11, 3: 0}
    # B without a turn: not last, ranked by points behind D
    seats[1] = seat(40, melded=False, had_turn=False)
    assert paid(settle(PAGAT, "out", seats, [2], claimed_from=0)) == {0: -7, 1: 0, 2: 7, 3: 0}


def test_claimed_discarder_ranks_last_whatever_discarder_pays_all() -> None:
    seats = {0: seat(2), 1: seat(0), 2: seat(30)}
    never = Rules.preset("pagat", discarder_pays_all="never")
    result = settle(never, "out", seats, [1], claimed_from=0)
    assert paid(result) == {0: -2, 1: 3, 2: -1}   # last at 2 points, but no paying for all
    assert result.payer is None
    hoola_only = Rules.preset("pagat", discarder_pays_all="hoola-only")
    assert settle(hoola_only, "out", seats, [1], claimed_from=0).payer is None
    result = settle(hoola_only, "hoola", seats, [1], claimed_from=0)
    assert result.payer == 0
    assert paid(result) == {0: -12, 1: 12, 2: 0}


def test_undercut_knocker_pays_all() -> None:
    seats = {0: seat(8), 1: seat(8), 2: seat(20), 3: seat(30)}
    result = settle(PAGAT, "knock", seats, [1], undercut_knocker=0)
    # knocker last: 3; C 1; D 2; the knocker pays all 6
    assert paid(result) == {0: -6, 1: 6, 2: 0, 3: 0}
    assert result.payer == 0
    line = next(line for line in result.losers if line.seat == 0)
    assert line.last == "undercut knocker"


def test_undercut_shared_by_two_winners() -> None:
    seats = {0: seat(9), 1: seat(5), 2: seat(5), 3: seat(30)}
    result = settle(PAGAT, "knock", seats, [1, 2], undercut_knocker=0)
    # two winners; knocker last: 2 + 2 - 1 = 3; D: 2 + 1 - 1 = 2; knocker pays 5, shared
    assert paid(result) == {0: -5, 1: Fraction(5, 2), 2: Fraction(5, 2), 3: 0}


@pytest.mark.parametrize("kind", ["undercut", "claimed"])
def test_two_players_pay_double_instead(kind: str) -> None:
    seats = {0: seat(9), 1: seat(5)}
    if kind == "undercut":
        result = settle(PAGAT, "knock", seats, [1], undercut_knocker=0)
    else:
        result = settle(PAGAT, "out", seats, [1], claimed_from=0)
    assert paid(result) == {0: -2, 1: 2}
    assert result.pay_all_factor == 2
    # an ordinary two-player loss is single
    assert paid(settle(PAGAT, "out", seats, [1])) == {0: -1, 1: 1}


def test_two_players_and_pay_all_doubles_double_once() -> None:
    seats = {0: seat(9), 1: seat(5)}
    rules = Rules.preset("pagat", pay_all_doubles=True)
    assert paid(settle(rules, "knock", seats, [1], undercut_knocker=0)) == {0: -2, 1: 2}


def test_pay_all_doubles_at_four_players() -> None:
    seats = {0: seat(8), 1: seat(8), 2: seat(20), 3: seat(30)}
    rules = Rules.preset("pagat", pay_all_doubles=True)
    result = settle(rules, "knock", seats, [1], undercut_knocker=0)
    assert paid(result) == {0: -12, 1: 12, 2: 0, 3: 0}
    assert result.pay_all_factor == 2
    # no payer: nothing is doubled
    assert paid(settle(rules, "out", seats, [1])) == {0: -1, 1: 6, 2: -2, 3: -3}


def test_undercut_fixed_penalty() -> None:
    rules = Rules.preset("pagat", undercut="fixed")
    seats = {0: seat(8, sevens=1, melded=False), 1: seat(8), 2: seat(20), 3: seat(30)}
    result = settle(rules, "knock", seats, [1], undercut_knocker=0)
    assert paid(result) == {0: -15, 1: 5, 2: 5, 3: 5}
    assert result.losers == ()
    three = Rules.preset("pagat", undercut="fixed", undercut_penalty=3)
    assert paid(settle(three, "knock", seats, [1], undercut_knocker=0, stake=2)) == {
        0: -18, 1: 6, 2: 6, 3: 6}
    # a winning knock is paid as usual
    assert paid(settle(rules, "knock", {0: seat(1), 1: seat(8)}, [0])) == {0: 1, 1: -1}


def test_no_meld_and_seven_multipliers_need_a_turn() -> None:
    seats = {0: seat(0), 1: seat(20, sevens=2, melded=False, had_turn=True),
             2: seat(10, sevens=1, melded=False, had_turn=False)}
    result = settle(PAGAT, "out", seats, [0])
    # seat 1: last (2) x4 (two sevens) x2 (no meld) = 16; seat 2 ranked first: 1, no doubles
    assert paid(result) == {0: 17, 1: -16, 2: -1}
    online = Rules.preset("online")  # seven and no-meld doubles always (last place after a turn)
    assert paid(settle(online, "out", seats, [0])) == {0: 16 + 4, 1: -16, 2: -4}


def test_no_meld_options() -> None:
    seats = {0: seat(0), 1: seat(5, melded=False), 2: seat(30)}
    never = Rules.preset("pagat", no_meld_last="never", no_meld_double="never")
    assert paid(settle(never, "out", seats, [0])) == {0: 3, 1: -1, 2: -2}
    assert paid(settle(PAGAT, "out", seats, [0])) == {0: 5, 1: -4, 2: -1}


def test_seven_in_hand_last() -> None:
    rules = Rules.preset("pagat", seven_in_hand_last=True, seven_double="never")
    seats = {0: seat(0), 1: seat(14, sevens=1, had_turn=False), 2: seat(40)}
    assert paid(settle(rules, "out", seats, [0])) == {0: 3, 1: -2, 2: -1}
    assert paid(settle(PAGAT, "out", seats, [0])) == {0: 3, 1: -1, 2: -2}


def test_blast_and_sevens_multipliers() -> None:
    seats = {0: seat(0), 1: seat(10), 2: seat(20)}
    rules = Rules.preset("pagat", blast_multiplier=7, sevens_multiplier=10)
    assert paid(settle(rules, "sopang", seats, [0])) == {0: 21, 1: -7, 2: -14}
    assert paid(settle(rules, "daepang", seats, [0])) == {0: 21, 1: -7, 2: -14}
    assert paid(settle(rules, "sevens", seats, [0])) == {0: 30, 1: -10, 2: -20}
    assert paid(settle(rules, "out", seats, [0])) == {0: 3, 1: -1, 2: -2}


def test_online_claim_for_blast_discarder_pays_all_whatever_the_option() -> None:
    seats = {0: seat(30), 1: seat(0), 2: seat(20)}
    rules = Rules.preset("pagat", discarder_pays_all="never")
    result = settle(rules, "sopang", seats, [1], claimed_from=0)
    assert result.payer == 0
    assert paid(result) == {0: -3, 1: 3, 2: 0}



def test_a_discard_claimed_for_a_blast_is_paid_for_but_not_ranked_last() -> None:
    # Ruling 13 puts last the discarder of a card taken by one who went out; a blast is not
    # going out, so the discarder (10 points) ranks above seat 2 (20, a seven: x2) and pays
    # 1 for itself and 2 x 2 for seat 2.
    seats = {0: seat(10), 1: seat(0), 2: seat(20, sevens=1)}
    result = settle(PAGAT, "sopang", seats, [1], claimed_from=0)
    assert result.payer == 0 and paid(result) == {0: -5, 1: 5, 2: 0}
    # Gone out with that card, the discarder is last: 2 for itself, 1 x 2 for seat 2.
    assert paid(settle(PAGAT, "out", seats, [1], claimed_from=0)) == {0: -4, 1: 4, 2: 0}


def test_stake_multiplies_everything() -> None:
    seats = {i: seat(p) for i, p in enumerate([9, 9, 15, 25])}
    result = settle(PAGAT, "stock", seats, [0, 1], stake=2)
    assert paid(result) == {0: 5, 1: 5, 2: -4, 3: -6}
    result = settle(PAGAT, "stock", seats, [0, 1], stake=Fraction(1, 2))
    assert paid(result) == {0: Fraction(5, 4), 1: Fraction(5, 4), 2: -1, 3: Fraction(-3, 2)}


def test_hertzog_payments() -> None:
    rules = Rules.preset("hertzog")
    seats = {0: seat(0), 1: seat(10), 2: seat(20), 3: seat(30), 4: seat(50, melded=False)}
    result = settle(rules, "out", seats, [0])
    # most points among the melded losers 3, next 2, the others 1; no meld: one half stake
    assert paid(result) == {0: Fraction(13, 2), 1: -1, 2: -2, 3: -3, 4: Fraction(-1, 2)}


def test_hertzog_ties_pay_the_higher_amount_and_multipliers_apply() -> None:
    rules = Rules.preset("hertzog")
    seats = {0: seat(0), 1: seat(30), 2: seat(30), 3: seat(5, sevens=1)}
    # the tied pair both pay 3; the third loser is "every other": 1, doubled for the seven
    assert paid(settle(rules, "out", seats, [0])) == {0: 8, 1: -3, 2: -3, 3: -2}
    first = Rules.preset("hertzog", hertzog_no_meld_stake=0)
    seats = {0: seat(0), 1: seat(10), 2: seat(40, melded=False)}
    assert paid(settle(first, "out", seats, [0])) == {0: 3, 1: -3, 2: 0}
    assert paid(settle(first, "hoola", seats, [0])) == {0: 12, 1: -12, 2: 0}


def test_settlement_lines_explain_amounts() -> None:
    seats = {0: seat(0), 1: seat(20, sevens=1), 2: seat(10)}
    result = settle(PAGAT, "out", seats, [0], stake=3)
    lines = {line.seat: line for line in result.losers}
    assert lines[2].base == 1 and lines[2].amount == 3
    assert lines[1].base == 2 and lines[1].amount == 2 * 2 * 3
    assert ("stake", 3) in lines[1].multipliers
    assert result.end == "out"

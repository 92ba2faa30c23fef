"""The turn search: can an obligation still be met from this hand and table?"""

from __future__ import annotations

from hoola.games.kalookie.cards import JOKER, counts_of, parse_tokens
from hoola.games.kalookie.melds import new_meld
from hoola.games.kalookie.rules import Rules
from hoola.games.kalookie.solver import Goal, Slot, can_finish

BRITISH = Rules.preset("british")


def hand(text: str) -> tuple[list[int], int]:
    counts = counts_of(parse_tokens(text))
    return counts, counts[JOKER]


def ok(goal: Goal, text: str, rules: Rules = BRITISH, slots: tuple[Slot, ...] = ()) -> bool:
    counts, jokers = hand(text)
    return can_finish(goal, counts, jokers + goal.loose, slots, rules)


def test_initial_meld_reach_counts_jokers_at_their_card() -> None:
    assert ok(Goal(need=40), "Ks Kh Kd 9c Tc Jc 2d")  # 30 + 29
    assert not ok(Goal(need=40), "Ks Kh Kd 2c 3c 4c 9d")  # 30 + 9
    assert not ok(Goal(need=40), "Ks Kh JK 2c 3c 4c 9d")  # K K JK 30, 2-3-4c 9: 39
    assert ok(Goal(need=40), "Ks Kh JK 2c 3c 4c 5c 9d")  # 30 + 14
    assert not ok(Goal(need=40), "Ks Kh Kd")  # a card must stay for the discard
    assert ok(Goal(need=40), "Ks Kh Kd Kc 5h")


def test_one_card_kept_for_the_discard_and_two_when_barred() -> None:
    assert ok(Goal(must_lay=parse_tokens("9s")[0]), "9s 9h 9d 2c")
    assert not ok(Goal(must_lay=parse_tokens("9s")[0]), "9s 9h 9d")
    assert not ok(Goal(must_lay=parse_tokens("9s")[0], min_left=2), "9s 9h 9d 2c")
    assert ok(Goal(exact_left=1, builds=False), "9s 9h 9d 2c 3c 4c 7h")
    assert not ok(Goal(exact_left=1, builds=False), "9s 9h 9d 2c 3c 4c 7h 8d")


def test_loose_jokers_need_a_place() -> None:
    run = new_meld(parse_tokens("5s 6s 7s"), BRITISH, owner=0, meld_id=1)
    closed = new_meld(parse_tokens("5h 5d 5c 5s"), BRITISH, owner=0, meld_id=2)
    assert ok(Goal(loose=1), "2c 9d", slots=(Slot(run),))
    assert not ok(Goal(loose=1), "2c 9d", slots=(Slot(closed),))
    assert not ok(Goal(loose=1), "2c 9d", slots=(Slot(run, low_cap=0, high_cap=0),))
    assert ok(Goal(loose=1), "2c 2d 9d", slots=(Slot(closed),))  # 2c 2d JK


def test_builds_count_toward_the_initial_meld_with_a_new_meld() -> None:
    na = Rules.preset("north-american")
    run = new_meld(parse_tokens("5s 6s 7s"), na, owner=1, meld_id=1)
    goal = Goal(need=51, builds_count=True, need_meld=True)
    # Qh Kh Ah (35, ace 15) + 8s 9s built on 5s 6s 7s (17) = 52
    assert ok(goal, "Qh Kh Ah 8s 9s 2d", na, (Slot(run),))
    assert not ok(goal, "Qh Kh Ah 8s 9s 2d", na)
    assert not ok(Goal(need=10, builds_count=True, need_meld=True), "8s 9s 2d 4h", na,
                  (Slot(run),))

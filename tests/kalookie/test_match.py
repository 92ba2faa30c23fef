"""The whole game (ruling 13) and hand scoring (ruling 12) under pool, points and cards."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hoola.core.errors import HoolaError
from hoola.games.kalookie.cards import parse_tokens
from hoola.games.kalookie.deal import explicit
from hoola.games.kalookie.match import Match
from hoola.games.kalookie.rules import Rules
from hoola.games.kalookie.scoring import settle, void
from hoola.games.kalookie.state import DealState

# The winner draws 5h and lays 13 cards at once, discarding Kd: a kalookie.
WINNER = "Ah Kh Qh 5s 5d 5c 2d 3d 4d 9c Tc Jc Kd"
WIN = ["draw", "meld Qh Kh Ah", "meld 5s 5d 5c 5h", "meld 2d 3d 4d", "meld 9c Tc Jc",
       "discard Kd"]
LOSER_94 = "2s 3s 4h 6h 8h Ts Jd Qc Ac 7d 9s 6c 8c"
LOSER_122 = "Ks Qs Js Kc Qc Jh Th 9h 8d As Ac 7c 6d"


def kalookie_hand(match: Match, winner: str, hands: dict[str, str]) -> DealState:
    names = list(match.names)
    cards = [parse_tokens(WINNER if n == winner else hands.get(n, "")) for n in names]
    deal = explicit(match.rules, match.standing, match.dealer, cards, parse_tokens("Js")[0],
                    parse_tokens("5h"))
    state = match.start_deal(deal)
    for verb in WIN:
        state.apply(state.parse(f"{winner} {verb}"))
    return state


def test_settlements_by_mode() -> None:
    hands = {0: parse_tokens("As JK 9d"), 1: [], 2: parse_tokens("2c")}
    pool = settle(Rules.preset("british"), "call-up", 1, hands)
    assert pool.penalty == {0: 35, 1: 0, 2: 2} and pool.payments == {0: -1, 1: 2, 2: -1}
    doubled = settle(Rules.preset("british", kalookie_double_penalties=True), "kalookie", 1,
                     hands)
    assert doubled.penalty[0] == 70 and doubled.payments[1] == 4
    points = settle(Rules.preset("north-american"), "call-up", 1, hands)
    assert points.penalty == {0: 49, 1: 0, 2: 2} and points.payments == {0: -49, 1: 51, 2: -2}
    cards = settle(Rules.preset("scarne"), "kalookie", 1, hands)
    assert cards.payments == {0: -8, 1: 10, 2: -2}
    assert void([0, 2]).payments == {0: 0, 2: 0}


def test_a_pool_game_to_the_last_survivor() -> None:
    m = Match(Rules.preset("british"), ["A", "B", "C"])
    assert (m.pool, m.totals()) == (15, [-5, -5, -5])
    kalookie_hand(m, "B", {"A": LOSER_94, "C": LOSER_122})
    m.finish_deal()
    assert m.standing.penalty == (94, 0, 122) and m.dealer == 1
    second = kalookie_hand(m, "C", {"A": LOSER_122, "B": LOSER_94})
    assert second.phase == "decide" and second.actors() == frozenset({0})
    assert [second.format(a) for a in second.legal_actions(0)] == ["A buy-in", "A retire"]
    second.apply(second.parse("A buy-in"))
    m.finish_deal()
    assert m.standing.penalty == (122, 94, 122) and m.standing.buy_ins == (1, 0, 0)
    assert (m.pool, m.totals()) == (20, [-14, -3, -3])
    third = kalookie_hand(m, "A", {"B": LOSER_122, "C": LOSER_94})
    assert third.is_over and third.out == [1, 2]
    third.apply(third.parse("C retire"))  # no choice, but saying so is harmless
    with pytest.raises(HoolaError, match="the hand is over"):
        third.apply(third.parse("C retire"))
    m.finish_deal()
    assert m.is_over and m.winner == 0 and m.out == [1, 2]
    assert m.totals() == [10, -5, -5] and sum(m.totals()) == 0
    with pytest.raises(HoolaError, match="the game is over"):
        m.new_deal()


def test_the_deal_passes_on_but_not_after_a_void_hand() -> None:
    m = Match(Rules.preset("british", reshuffle="never", decks=1, jokers=0, hand_size=24),
              ["A", "B"], seed=3)
    s = m.new_deal()
    while not s.is_over:
        p = s.current
        s.apply(s.legal_actions(p)[0])  # draw, then discard the first card
    assert s.result is not None and s.result.end == "void"
    m.finish_deal()
    assert m.dealer == 0 and m.totals() == [-5, -5]
    with pytest.raises(HoolaError, match="no hand to finish"):
        m.finish_deal()


def test_a_points_game_ends_at_the_target_and_cards_never_end() -> None:
    m = Match(Rules.preset("north-american", target=100, hand_size={2: 13}), ["A", "B"])
    state = kalookie_hand(m, "B", {"A": LOSER_122})
    assert state.result is not None and state.result.payments == {0: -130, 1: 130}  # aces 15
    m.finish_deal()
    assert m.is_over and m.winner == 1 and m.pool == 0 and m.totals() == [-130, 130]
    scarne = Match(Rules.preset("scarne", hand_size={2: 13}, cut_joker=False), ["A", "B"])
    kalookie_hand(scarne, "B", {"A": LOSER_94})
    scarne.finish_deal()
    assert not scarne.is_over and scarne.totals() == [Fraction(-26), Fraction(26)]
    board = scarne.scoreboard()
    assert board.names == ("A", "B") and board.scores[-1].values == ("-26", "26")

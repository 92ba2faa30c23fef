"""The capture engine, rule by rule (``shared/spec/capture-rules.md``): the trick, fighting,
draws, every scoring, the next dealer, the match's end, the lead limit, the fourth king,
signals, the partner's view, every refusal with its code, and the rules' options.

Deals are written as records write them: ``hands`` in seat order (A deals, B leads unless said),
``stock`` top first. :func:`tiny` deals a small pack (every card not listed is set aside) so
that a whole hand fits in a test.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from hoola.core.cards import format_cards, parse_cards
from hoola.core.errors import HoolaError, IllegalActionError, NotationError, RulesError
from hoola.games.capture import GAME, Dark, DealState, Match, Play, Rules, Say, Stop
from hoola.games.capture.actions import format_action, parse_action

NAMES = ["A", "B", "C", "D", "E", "F"]


def deal(preset: str, hands: Sequence[str], stock: str = "", *, dealer: int = 0,
         **options: Any) -> DealState:
    """A hand dealt as given from the preset's pack; unlisted cards follow the stock."""
    rules = Rules.preset(preset, **options)
    return DealState.explicit(rules, NAMES[:len(hands)], [parse_cards(h) for h in hands],
                              parse_cards(stock), dealer)


def tiny(preset: str, hands: Sequence[str], stock: str = "", *, dealer: int = 0,
         **options: Any) -> DealState:
    """A hand from a pack of just the cards listed (the others set aside), hands of the size
    given."""
    listed = parse_cards(" ".join([*hands, stock]))
    full = Rules.preset(preset, **options).full_pack()
    for c in listed:
        full.remove(c)
    options = {"removed": format_cards(full) or "none",
               "hand_size": len(parse_cards(hands[0])), **options}
    return deal(preset, hands, stock, dealer=dealer, **options)


def act(state: DealState, *texts: str) -> DealState:
    """Apply each action in notation."""
    for text in texts:
        state.apply(state.parse(text))
    return state


def snapshot(s: DealState) -> tuple[Any, ...]:
    """Every field of the state that an action could change."""
    return (tuple(map(tuple, s.hands)), tuple(s.stock), tuple(s.leftover),
            tuple(map(tuple, s.captured)), tuple(s.tricks), tuple(s.history), tuple(s.darks),
            tuple(s.signals), s.signaled, tuple(s.leads), tuple(s.trick), tuple(s.taken),
            s.last_winner, s.leader, s.winner, s.led, tuple(s.queue), s.deciding, s.phase1,
            s.kings_played, tuple(s.dirty), tuple(s.cleaned), s.result)


def refuse(state: DealState, action: Any, code: str, *, parse: bool = True) -> str:
    """Apply ``action`` (notation, unless ``parse`` is false, or an object), expecting a refusal
    with ``code`` that changes nothing; the message."""
    if parse and isinstance(action, str):
        action = state.parse(action)
    before = snapshot(state)
    assert not state.can(action)
    assert action not in state.legal_actions(getattr(action, "player", -1))
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert info.value.code == code, info.value.message
    assert snapshot(state) == before
    message = info.value.message
    assert message and "\n" not in message
    return message


def legal(state: DealState) -> list[str]:
    """The player to act's legal actions in notation."""
    assert state.turn is not None
    return [state.format(a) for a in state.legal_actions(state.turn)]


def cards(text: str) -> list[int]:
    return parse_cards(text)


def end_hand(state: DealState, captured: Sequence[str], tricks: Sequence[int], last: int, *,
             dirty: Sequence[bool] = (), cleaned: Sequence[bool] = ()) -> DealState:
    """Score ``state`` as if its hand had ended with these piles (by side), trick counts and
    last-trick winner: a hand-made position for the scoring rules."""
    state.hands = [[] for _ in range(state.n)]
    state.stock, state.leftover, state.trick = [], [], []
    state.captured = tuple(tuple(cards(c)) for c in captured)
    state.tricks = tuple(tricks)
    state.last_winner = last
    state.dirty = tuple(dirty or state.dirty)
    state.cleaned = tuple(cleaned or state.cleaned)
    state._start_trick(last)  # nobody holds a card: the hand is scored
    assert state.result is not None
    return state


# -- the trick ------------------------------------------------------------------------------------

HOLA4 = ["3c 4c 8c 9c", "5s 5d 7c Kc", "9h Jh Qh 6d", "5h 2d Jc Qc"]
HOLA4_STOCK = "Ad Td As Ts Ah Th Ac Tc"


def test_the_led_rank_and_wilds_take_over_and_other_cards_do_not() -> None:
    s = deal("hola", HOLA4, HOLA4_STOCK)
    assert s.turn == 1 and s.leader == 1
    act(s, "B play 5s")
    assert s.winner == 1 and s.led == 4
    act(s, "C play 9h")
    assert s.winner == 1  # another rank cannot win
    act(s, "D play 5h")
    assert s.winner == 3  # the led rank takes over
    act(s, "A play 3c")
    assert s.winner == 3 and s.deciding and s.turn == 1


def test_a_wild_takes_over_whatever_was_led() -> None:
    s = deal("hola", ["3c 4c 8c 9c", "5s 5d 7c Kc", "9h 7h Qh 6d", "5h 2d Jc Qc"], HOLA4_STOCK)
    act(s, "B play 5s", "C play 7h")
    assert s.winner == 2
    act(s, "D play 2d")
    assert s.winner == 3


def test_a_led_wild_is_taken_by_its_rank_or_any_wild() -> None:
    s = deal("hola", ["3c 4c 8c 9c", "7s 5d 8d Kc", "2h Jh Qh 6d", "7d 3d Jc Qc"], HOLA4_STOCK)
    act(s, "B play 7s", "C play 2h")
    assert s.winner == 2  # a 2 is wild too
    act(s, "D play 7d")
    assert s.winner == 3  # the led rank
    act(s, "A play 3c")
    assert s.winner == 3
    # Sevens only: a 2 is an ordinary card when a 7 is led.
    s = deal("hola", ["3c 4c 8c 9c", "7s 5d 8d Kc", "2h Jh Qh 6d", "5h 3d Jc Qc"], HOLA4_STOCK,
             wilds="7")
    act(s, "B play 7s", "C play 2h")
    assert s.winner == 1


def test_fighting_a_partner_winning_counts_as_not_the_leader() -> None:
    s = act(deal("hola", HOLA4, HOLA4_STOCK), "B play 5s", "C play 9h", "D play 5h",
            "A play 3c")
    # D is B's partner, yet B may fight: only the led rank (5d) or a wild (7c), never Kc.
    assert legal(s) == ["B stop", "B play 5d", "B play 7c"]
    act(s, "B play 5d")
    assert s.winner == 1 and not s.deciding and list(s.queue) == [2, 3, 0]
    act(s, "C play Jh", "D play 2d", "A play 4c")
    assert s.deciding and s.winner == 3 and legal(s) == ["B stop", "B play 7c"]
    act(s, "B stop")
    assert list(s.captured[1]) == cards("5s 9h 5h 3c 5d Jh 2d 4c") and s.tricks == (0, 1)
    assert s.turn == 3 and s.leader == 3 and not s.trick  # the winner leads the next trick
    assert s.history[-1] == Stop(1)


def test_the_trick_ends_by_itself_when_the_leader_wins_or_cannot_fight() -> None:
    s = act(deal("hola", HOLA4, HOLA4_STOCK), "B play Kc", "C play 9h", "D play Jc",
            "A play 3c")
    assert s.tricks == (0, 1) and s.turn == 1 and not s.deciding  # the leader won: no stop
    assert len(s.history) == 4  # a trick that ends by itself leaves no action
    # A leader who is not winning decides while holding the led rank or a wild ...
    s = deal("hola", ["3c 4c 8c 9c", "Ks 5d 8d Kc", "9h Jh Qh 6d", "Kh 3d Jc Qc"], HOLA4_STOCK)
    act(s, "B play Ks", "C play 9h", "D play Kh", "A play 3c")
    assert s.deciding  # B holds Kc
    # ... and without one the trick goes to its winner.
    s = deal("hola", ["3c 4c 8c 9c", "Ks 5d 8d 4d", "9h Jh Qh 6d", "Kh 3d Jc Qc"], HOLA4_STOCK)
    act(s, "B play Ks", "C play 9h", "D play Kh", "A play 3c")
    assert not s.deciding and s.tricks == (0, 1) and s.turn == 3  # no K, no wild: D's trick
    assert Stop(1) not in s.legal_actions(1)


def test_a_fight_goes_on_until_the_hands_are_empty() -> None:
    s = deal("hola", ["5c 5h 3d 4d", "5s 7s 7h 7d", "6c 8c 9c Jc", "Kh 2s 2h 2d"], HOLA4_STOCK)
    act(s, "B play 5s", "C play 6c", "D play 2s", "A play 5c",   # A takes over with a 5
        "B play 7s", "C play 8c", "D play 2h", "A play 5h",     # fight: D's wild, A's 5
        "B play 7h", "C play 9c", "D play 2d", "A play 3d",     # fight: D's wild
        "B play 7d", "C play Jc", "D play Kh", "A play 4d")     # B wins the last round
    assert s.tricks == (0, 1) and len(s.captured[1]) == 16  # the hands emptied: B's trick
    assert all(len(h) == 4 for h in s.hands)  # each drew 4 at once


def test_leader_may_continue_always_lets_a_winning_leader_fight_or_stop() -> None:
    s = deal("hola", HOLA4, HOLA4_STOCK, leader_may_continue="always")
    act(s, "B play 5s", "C play 9h", "D play Jc", "A play 3c")
    assert s.deciding and s.winner == 1 and legal(s) == ["B stop", "B play 5d", "B play 7c"]
    act(s, "B stop")
    assert s.tricks == (0, 1) and s.turn == 1
    s = deal("hola", HOLA4, HOLA4_STOCK)  # not-winning (the preset): the trick ends by itself
    act(s, "B play 5s", "C play 9h", "D play Jc", "A play 3c")
    assert not s.deciding and s.tricks == (0, 1)


def test_without_fighting_a_trick_is_one_round() -> None:
    s = act(deal("hola", HOLA4, HOLA4_STOCK, fighting=False), "B play 5s", "C play 9h",
            "D play 5h", "A play 3c")
    assert s.tricks == (0, 1) and s.turn == 3
    s = act(deal("ristikontra", ["2s 3s 4s 6s 8s 9s", "5s Kd Kc Kh 2h 3h"]), "B play 5s")
    refuse(s, "B stop", "out-of-turn")
    act(s, "A play 2s")
    assert s.tricks == (0, 1)
    assert "no fighting" in refuse(s, Stop(1), "no-fighting")


def test_sevens_are_not_wild_in_ristikontra_and_the_last_led_rank_wins() -> None:
    s = deal("ristikontra", ["5h 7s 4s 6s 8s 9s", "5s Kd Kc Kh 2h 3h", "5d 7d 4d 6d 8d 9d",
                             "5c 7c 4c 6c 8c 9c"])
    act(s, "B play 5s", "C play 7d", "D play 5c")
    assert s.winner == 3
    act(s, "A play 5h")
    assert s.tricks == (1, 0) and s.turn == 0


# -- draws ----------------------------------------------------------------------------------------

def test_the_winner_draws_first_and_each_takes_all_it_needs_at_once() -> None:
    s = act(deal("hola", HOLA4, HOLA4_STOCK), "B play 5s", "C play 9h", "D play 5h",
            "A play 3c", "B play 5d", "C play Jh", "D play 2d", "A play 4c", "B stop")
    # D won: D draws Ad Td, then A As Ts, B Ah Th, C Ac Tc.
    assert s.hands[3][-2:] == cards("Ad Td") and s.hands[0][-2:] == cards("As Ts")
    assert s.hands[1][-2:] == cards("Ah Th") and s.hands[2][-2:] == cards("Ac Tc")
    assert all(len(h) == 4 for h in s.hands)


def test_a_short_stock_that_cannot_give_one_each_sets_its_cards_aside_for_the_last_trick() -> None:
    s = tiny("hola", ["8c 9c", "5s 5d"], "Kd Qd As")
    act(s, "B play 5s", "A play 8c")  # B's trick; three in the stock: one each, B first
    assert s.hands == [cards("9c Qd"), cards("5d Kd")] and s.stock == cards("As")
    act(s, "B play 5d", "A play 9c")  # both need one, the stock holds one: none each
    assert s.hands == [cards("Qd"), cards("Kd")] and s.stock == [] and s.leftover == cards("As")
    assert s.view(0).leftover_size == 1 and s.view(0).stock_size == 0
    act(s, "B play Kd", "A play Qd")
    r = s.result
    assert r is not None and r.last == 1 and s.leftover == []
    assert cards("As")[0] in s.captured[1]
    assert r.points == (0, 2 * 10 + 10) and r.hola == 1  # As is every point card here: a Hola


def test_a_short_stock_is_shared_equally_after_a_fight() -> None:
    s = tiny("hola", ["5c 9c", "5s 7d"], "Kd Qd As")
    act(s, "B play 5s", "A play 5c", "B play 7d", "A play 9c")  # a fight: both need two
    assert s.tricks == (0, 1) and s.hands == [cards("Qd"), cards("Kd")]  # one each, B first
    assert s.leftover == cards("As")


def test_a_player_who_played_in_the_dark_draws_nothing() -> None:
    s = deal("ristikontra", ["2s 3s 4s 6s 8s 9s", "5s Kd Kc Kh 2h 3h"], "5d 7c 7d")
    act(s, "B dark")
    assert s.trick == [(1, cards("5d")[0], True)] and list(s.darks) == cards("5d")
    act(s, "A play 2s")
    assert s.tricks == (0, 1)
    assert s.hands[1] == cards("5s Kd Kc Kh 2h 3h")  # B drew nothing
    assert s.hands[0] == cards("3s 4s 6s 8s 9s 7c")  # A drew the top card
    assert s.stock[-1] == cards("7d")[0]


def test_a_dark_card_of_the_led_rank_takes_the_trick() -> None:
    s = deal("ristikontra", ["2s 3s 4s 6s 8s 9s", "5s Kd Kc Kh 2h 3h"], "5d 7c 7d")
    act(s, "B play 5s", "A dark")
    assert s.tricks == (1, 0) and s.turn == 0


# -- scoring --------------------------------------------------------------------------------------

def test_hola_card_points_and_the_last_trick() -> None:
    s = end_hand(GAME.new_deal(Rules.preset("hola"), NAMES[:4], seed=1),
                 ["As Ah Ts", "Ad Ac Th Td Tc"], [5, 8], last=1)
    r = s.result
    assert r is not None and r.points == (30, 60) and r.hola is None
    assert r.tricks == (5, 8) and r.game_points is None and r.score == (30, 60)
    assert r.winners == (1,)


def test_a_hola_doubles_the_card_points_only_with_the_last_trick() -> None:
    every = "As Ah Ad Ac Ts Th Td Tc"
    s = end_hand(GAME.new_deal(Rules.preset("hola"), NAMES[:4], seed=1), ["2s", every],
                 [1, 12], last=3)
    assert s.result is not None and s.result.points == (0, 170) and s.result.hola == 1
    s = end_hand(GAME.new_deal(Rules.preset("hola"), NAMES[:4], seed=1), ["2s", every],
                 [1, 12], last=0)
    assert s.result is not None and s.result.points == (10, 80) and s.result.hola is None
    s = end_hand(GAME.new_deal(Rules.preset("hola", hola_bonus=False), NAMES[:4], seed=1),
                 ["2s", every], [1, 12], last=1)
    assert s.result is not None and s.result.points == (0, 90) and s.result.hola is None
    s = end_hand(GAME.new_deal(Rules.preset("hola"), NAMES[:2], seed=1), ["2s", every],
                 [1, 12], last=1)  # two players alone: the same Hola
    assert s.result is not None and s.result.points == (0, 170) and s.result.hola == 1


def test_six_player_hola_two_packs_no_hola_no_last_trick() -> None:
    rules = Rules.preset("hola").for_players(6)
    assert rules.deck == 104 and len(rules.pack()) == 104 and rules.target == 500
    assert sum(rules.points_of(c) for c in rules.pack()) == 160
    s = GAME.new_deal(Rules.preset("hola"), NAMES, seed=2)
    assert s.sides == ((0, 2, 4), (1, 3, 5)) and len(s.stock) == 80
    every = "As Ah Ad Ac Ts Th Td Tc " * 2
    end_hand(s, ["2s", every], [1, 16], last=1)
    assert s.result is not None and s.result.points == (0, 160) and s.result.hola is None


def test_sedma_game_points_three_two_one() -> None:
    def new() -> DealState:
        return GAME.new_deal(Rules.preset("sedma"), NAMES[:4], seed=3)

    every = "As Ah Ad Ac Ts Th Td Tc"
    r = end_hand(new(), ["", every + " 7s"], [0, 8], last=1).result
    assert r is not None and r.game_points == (0, 3) and r.points == (0, 90)
    r = end_hand(new(), ["7s", every], [1, 7], last=1).result
    assert r is not None and r.game_points == (0, 2) and r.points == (0, 90)
    r = end_hand(new(), ["As", "Ah Ad Ac Ts Th Td Tc"], [1, 7], last=1).result
    assert r is not None and r.game_points == (0, 1) and r.points == (10, 80)
    r = end_hand(new(), ["As Ah Ad Ac Ts", "Th Td Tc"], [4, 4], last=1).result
    assert r is not None and r.game_points == (1, 0) and r.points == (50, 40)
    assert r.score == (1, 0) and r.winners == (0,)
    r = end_hand(GAME.new_deal(Rules.preset("sedma"), NAMES[:2], seed=3),
                 ["", every], [0, 16], last=1).result
    assert r is not None and r.game_points == (0, 3)  # two players alone


def test_three_player_sedma_sets_two_eights_aside_and_the_winner_takes_from_each() -> None:
    rules = Rules.preset("sedma").for_players(3)
    assert len(rules.pack()) == 30 and format_cards(rules.removed) == "8h 8d"
    def new() -> DealState:
        return GAME.new_deal(Rules.preset("sedma"), NAMES[:3], seed=4)

    r = end_hand(new(), ["As Ah", "Ad Ac Ts", "Th Td Tc"], [2, 3, 3], last=2).result
    assert r is not None and r.points == (20, 30, 40) and r.game_points == (0, 0, 2)
    r = end_hand(new(), ["As Ah Ad", "Ac Ts Th", "Td Tc"], [2, 3, 3], last=2).result
    assert r is not None and r.points == (30, 30, 30) and r.game_points == (0, 0, 0)
    assert r.winners == ()
    r = end_hand(new(), ["As Ah Ad Ac", "Ts Th Td", "Tc"], [2, 3, 3], last=1).result
    assert r is not None and r.points == (40, 40, 10) and r.game_points == (0, 0, 0)
    r = end_hand(new(), ["As Ah Ad Ac Ts Th Td Tc", "", ""], [10, 0, 0], last=0).result
    assert r is not None and r.game_points == (6, 0, 0)  # every trick: 3 from each
    r = end_hand(new(), ["As Ah Ad Ac Ts Th Td Tc", "", "7s"], [9, 0, 1], last=0).result
    assert r is not None and r.game_points == (4, 0, 0)  # all 90: 2 from each


def test_croatian_sedmice_game_points_and_forty_all() -> None:
    def new() -> DealState:
        return GAME.new_deal(Rules.preset("sedmice-croatian"), NAMES[:4], seed=5)

    every = "As Ah Ad Ac Ts Th Td Tc"
    r = end_hand(new(), ["", every], [0, 8], last=1).result
    assert r is not None and r.points == (0, 80) and r.game_points == (0, 3)
    r = end_hand(new(), ["7s", every], [1, 7], last=0).result
    assert r is not None and r.points == (0, 80) and r.game_points == (0, 2)
    r = end_hand(new(), ["As", "Ah Ad Ac Ts Th Td Tc"], [1, 7], last=1).result
    assert r is not None and r.game_points == (0, 1)
    r = end_hand(new(), ["As Ah Ad Ac", "Ts Th Td Tc"], [4, 4], last=1).result
    assert r is not None and r.points == (40, 40) and r.game_points == (0, 1)
    r = end_hand(new(), ["As Ah Ad Ac", "Ts Th Td Tc"], [4, 4], last=2).result
    assert r is not None and r.game_points == (1, 0) and r.winners == (0,)


def test_sedmice_scores_card_points_with_the_last_trick() -> None:
    s = end_hand(GAME.new_deal(Rules.preset("sedmice"), NAMES[:4], seed=6),
                 ["As Ah Ad", "Ac Ts Th Td Tc"], [3, 5], last=0)
    assert s.result is not None and s.result.points == (40, 50)
    assert s.result.game_points is None and s.result.score == (40, 50)


RISTI_ALL = "As Ah Ad Ac Ts Th Td Tc Ks Kh Kd Kc Qs Qh Qd Qc Js Jh Jd Jc"


def test_ristikontra_sixty_one_one_all_two_sixty_all_carried() -> None:
    def new() -> DealState:
        return GAME.new_deal(Rules.preset("ristikontra"), NAMES[:4], seed=7)

    r = end_hand(new(), ["", RISTI_ALL], [3, 10], last=1).result
    assert r is not None and r.points == (0, 120) and r.game_points == (0, 2)
    r = end_hand(new(), ["As Ah Ad Ac Ts Th", "Td Tc Ks Kh Kd Kc Qs Qh Qd Qc Js Jh Jd Jc"],
                 [6, 7], last=0).result
    assert r is not None and r.points == (64, 56) and r.game_points == (1, 0)
    assert not r.carried
    # 60-60: A A A A T T (64) less ... : Ah Ad Ac Ts Th Td (63) ... make it exact:
    # A+C: As Ah Ad Ac (44) Ts (10) Ks Kh (8) = 62 - no; As Ah Ad Ac Ts Js Jh Jd = 44+10+6 = 60.
    r = end_hand(new(), ["As Ah Ad Ac Ts Js Jh Jd",
                         "Th Td Tc Ks Kh Kd Kc Qs Qh Qd Qc Jc"], [6, 7], last=0).result
    assert r is not None and r.points == (60, 60) and r.game_points == (0, 0) and r.carried
    r = end_hand(new(), ["As Ah Ad Ac Ts Js Jh", "Th Td Tc Ks Kh Kd Kc Qs Qh Qd Qc Jd Jc"],
                 [6, 7], last=0).result
    assert r is not None and r.points == (58, 62) and r.game_points == (0, 1)


def test_a_side_that_wins_every_trick_scores_the_most() -> None:
    for preset, most in (("sedma", 3), ("sedmice-croatian", 3), ("ristikontra", 2)):
        s = GAME.new_deal(Rules.preset(preset), NAMES[:2], seed=8)
        pack = format_cards(s.rules.pack())
        r = end_hand(s, [pack, ""], [s.rules.hand_size, 0], last=0).result
        assert r is not None and r.game_points == (most, 0), preset


def klappi(dirty: Sequence[bool], cleaned: Sequence[bool], a: str, b: str) -> Any:
    s = GAME.new_deal(Rules.preset("ristiklappi"), NAMES[:4], seed=9)
    return end_hand(s, [a, b], [6, 7], last=0, dirty=dirty, cleaned=cleaned).result


def test_ristiklappi_outcomes() -> None:
    high, low = "As Ah Ad Ac Ts Th", "Td Tc Ks Kh Kd Kc Qs Qh Qd Qc Js Jh Jd Jc"
    r = klappi([False, False], [False, False], high, low)
    assert r.clean == (True, True) and r.outcome == "win" and r.winners == (0,)
    assert r.score == (1, 0) and r.game_points is None
    r = klappi([True, False], [True, False], high, low)  # dirty, then cleaned
    assert r.clean == (True, True) and r.outcome == "win" and r.winners == (0,)
    r = klappi([True, False], [False, False], high, low)  # dirty: loses whatever the points
    assert r.clean == (False, True) and r.outcome == "win" and r.winners == (1,)
    assert r.score == (0, 1)
    r = klappi([True, True], [False, False], high, low)
    assert r.clean == (False, False) and r.outcome == "both-lose" and r.winners == ()
    assert r.score == (0, 0)
    r = klappi([False, False], [False, False], "As Ah Ad Ac Ts Js Jh Jd",
               "Th Td Tc Ks Kh Kd Kc Qs Qh Qd Qc Jc")
    assert r.points == (60, 60) and r.outcome == "draw" and r.winners == ()


def test_ristiklappi_a_queen_won_in_the_first_phase_dirties_and_a_king_without_one_cleans() -> None:
    # Two players, one card each: T1 (stock left) is the first phase, T2 the second.
    s = tiny("ristiklappi", ["3c", "Qs"], "Kd 4c")
    act(s, "B play Qs", "A play 3c")
    assert s.dirty == (False, True) and s.cleaned == (False, False) and not s.phase1
    act(s, "B play Kd", "A play 4c")  # B drew Kd: a king and no queen in the second phase
    r = s.result
    assert r is not None and r.clean == (True, True) and r.outcome == "win"
    assert r.winners == (1,) and r.points == (0, 7)
    # A king that comes with a queen does not clean.
    s = tiny("ristiklappi", ["3c", "Qs"], "Kd Qd")
    act(s, "B play Qs", "A play 3c", "B play Kd", "A play Qd")
    r = s.result
    assert r is not None and r.clean == (True, False) and r.winners == (0,)
    # A queen won in the second phase leaves a side clean.
    s = tiny("ristiklappi", ["3c", "4s"], "Qd 5d")
    act(s, "B play 4s", "A play 3c", "B play Qd", "A play 5d")
    r = s.result
    assert r is not None and r.clean == (True, True) and r.points == (0, 3)


def test_returns_are_the_side_less_the_mean_of_the_others() -> None:
    s = end_hand(GAME.new_deal(Rules.preset("hola"), NAMES[:4], seed=1),
                 ["As Ah Ts", "Ad Ac Th Td Tc"], [5, 8], last=1)
    assert s.returns() == [-30, 30, -30, 30]
    s = GAME.new_deal(Rules.preset("ristiklappi"), NAMES[:4], seed=9)
    end_hand(s, ["As", "Ah"], [6, 7], last=0, dirty=[True, False])
    assert s.returns() == [-3, 3, -3, 3]  # a dishonourable loss (-2) against a win (1)
    s = GAME.new_deal(Rules.preset("sedma"), NAMES[:3], seed=9)
    end_hand(s, ["As Ah", "Ad Ac Ts", "Th Td Tc"], [2, 3, 3], last=2)
    assert s.returns() == [-15, 0, 15]  # 20, 30, 40 less the mean of the others


def test_outcome_tags() -> None:
    s = end_hand(GAME.new_deal(Rules.preset("sedma"), NAMES[:4], seed=3),
                 ["", "As Ah Ad Ac Ts Th Td Tc"], [0, 8], last=1)
    out = s.outcome()
    assert out.winners == (1, 3) and out.tags["every trick"] == (1, 3)
    with pytest.raises(IllegalActionError) as info:
        GAME.new_deal(Rules.preset("sedma"), NAMES[:4], seed=3).outcome()
    assert info.value.code == "deal-not-over"


# -- the match: the next dealer and the end -------------------------------------------------------

def next_dealer(preset: str, players: int, dealer: int, captured: Sequence[str],
                tricks: Sequence[int], last: int, **options: Any) -> int:
    m = Match(Rules.preset(preset, **options), NAMES[:players], seed=1)
    end_hand(m.start_deal(dealer=dealer), captured, tricks, last)
    m.finish_deal()
    return m.dealer


def test_hola_the_dealer_deals_again_unless_the_other_side_scored_over_50() -> None:
    # D deals (B+D); A+C score 40 or 50: D again. 60: the next seat, A.
    assert next_dealer("hola", 4, 3, ["As Ah Ad Ac", "Ts Th Td Tc"], [1, 1], 1) == 3
    assert next_dealer("hola", 4, 3, ["As Ah Ad Ac Ts", "Th Td Tc"], [1, 1], 1) == 3
    assert next_dealer("hola", 4, 3, ["As Ah Ad Ac Ts", "Th Td Tc"], [1, 1], 0) == 0
    assert next_dealer("hola", 4, 3, ["As Ah Ad", "Ac Ts Th Td Tc"], [1, 1], 1,
                       redeal_at_most=30) == 3
    assert next_dealer("hola", 4, 3, ["As Ah Ad", "Ac Ts Th Td Tc"], [1, 1], 1,
                       redeal_at_most="none") == 0
    assert next_dealer("hola", 2, 1, ["As Ah Ad Ac Ts", "Th Td Tc"], [1, 1], 1) == 1
    assert next_dealer("hola", 2, 1, ["As Ah Ad Ac Ts", "Th Td Tc"], [1, 1], 0) == 0


def test_sedma_the_first_player_after_the_dealer_on_the_side_with_fewer_deals() -> None:
    # A deals; A+C score 1, B+D 0: B (the first after A on B+D).
    assert next_dealer("sedma", 4, 0, ["As Ah Ad Ac Ts", "Th Td Tc"], [4, 4], 1) == 1
    # A deals; B+D score: C, A's partner, deals (never A again).
    assert next_dealer("sedma", 4, 0, ["As Ah", "Ad Ac Ts Th Td Tc"], [4, 4], 1) == 2
    # Three players: B wins; C is the first loser after A.
    assert next_dealer("sedma", 3, 0, ["As", "Ah Ad Ac Ts Th", "Td Tc"], [2, 3, 3], 1) == 2
    # 30-30-30: nobody scored fewer, the next seat.
    assert next_dealer("sedma", 3, 0, ["As Ah Ad", "Ac Ts Th", "Td Tc"], [2, 3, 3], 2) == 1


def test_ristikontra_passes_the_deal_and_ristiklappi_goes_to_the_clean_side() -> None:
    assert next_dealer("ristikontra", 4, 2, ["As", RISTI_ALL[3:]], [1, 12], 1) == 3
    m = Match(Rules.preset("ristiklappi"), NAMES[:4], seed=1)
    end_hand(m.start_deal(dealer=0), ["As", "Ah"], [6, 7], 0, dirty=[False, True])
    m.finish_deal()
    assert m.dealer == 2  # B+D dirty: their opponents deal, C the first of them after A
    end_hand(m.start_deal(), ["As", "Ah"], [6, 7], 0, dirty=[True, False])
    m.finish_deal()
    assert m.dealer == 3  # A+C dirty: D, after C
    end_hand(m.start_deal(), ["As", "Ah"], [6, 7], 0)
    m.finish_deal()
    assert m.dealer == 0  # both clean: the next seat


def play_hand(m: Match, captured: Sequence[str], tricks: Sequence[int], last: int) -> None:
    end_hand(m.start_deal(), captured, tricks, last)
    m.finish_deal()


def test_a_points_game_ends_at_the_target_and_a_tie_plays_on() -> None:
    m = Match(Rules.preset("hola", target=100), NAMES[:4], seed=1)
    play_hand(m, ["As Ah Ad Ac Ts Th", "Td Tc"], [6, 7], 0)
    assert m.scores == [70, 20] and not m.is_over and m.leader() == 0
    play_hand(m, ["As Ah", "Ad Ac Ts Th Td Tc"], [6, 7], 1)
    assert m.scores == [90, 90] and not m.is_over and m.leader() is None
    play_hand(m, ["As Ah Ad Ac", "Ts Th Td Tc"], [6, 7], 1)
    assert m.scores == [130, 140] and m.is_over and m.winner == 1  # both over: the higher
    with pytest.raises(IllegalActionError) as info:
        m.start_deal()
    assert info.value.code == "match-over"
    m = Match(Rules.preset("hola", target=90), NAMES[:4], seed=1)
    play_hand(m, ["As Ah Ad Ac Ts Th", "Td Tc"], [6, 7], 0)
    play_hand(m, ["As Ah", "Ad Ac Ts Th Td Tc"], [6, 7], 1)
    assert m.scores == [90, 90] and not m.is_over  # both reach it tied: another hand
    play_hand(m, ["As", "Ah Ad Ac Ts Th Td Tc"], [6, 7], 1)
    assert m.is_over and m.winner == 1


def test_a_game_points_game_ends_at_the_target() -> None:
    m = Match(Rules.preset("sedma", target=5), NAMES[:4], seed=1)
    every = "As Ah Ad Ac Ts Th Td Tc"
    play_hand(m, ["", every], [0, 8], 1)
    play_hand(m, ["7s", every], [1, 7], 1)
    assert m.scores == [0, 5] and m.is_over and m.winner == 1


def test_ristikontra_carries_a_point_to_the_next_side_that_scores_and_carries_add_up() -> None:
    m = Match(Rules.preset("ristikontra"), NAMES[:4], seed=1)
    sixty = ["As Ah Ad Ac Ts Js Jh Jd", "Th Td Tc Ks Kh Kd Kc Qs Qh Qd Qc Jc"]
    play_hand(m, sixty, [6, 7], 0)
    play_hand(m, sixty, [6, 7], 0)
    assert m.scores == [0, 0] and m.carry == 2
    play_hand(m, ["", RISTI_ALL], [0, 13], 1)
    assert m.scores == [0, 2 + 2] and m.carry == 0
    assert m.deals[-1].result is not None and m.deals[-1].result.game_points == (0, 2)


def test_ristiklappi_is_a_series_of_games() -> None:
    m = Match(Rules.preset("ristiklappi"), NAMES[:4], seed=1)
    for _ in range(3):
        play_hand(m, ["As Ah Ad Ac Ts Th", "Td Tc"], [6, 7], 0)
    assert m.scores == [3, 0] and not m.is_over and m.leader() == 0  # target 0: no end
    assert m.record_totals() == [3 * 64, 3 * 20]  # a record's totals: card points
    m = Match(Rules.preset("ristiklappi", target=2), NAMES[:4], seed=1)
    play_hand(m, ["As Ah Ad Ac Ts Th", "Td Tc"], [6, 7], 0)
    play_hand(m, ["As Ah Ad Ac Ts Th", "Td Tc"], [6, 7], 0)
    assert m.is_over and m.winner == 0


def test_match_refuses_a_deal_out_of_order() -> None:
    m = Match(Rules.preset("sedma"), NAMES[:2], seed=1)
    with pytest.raises(IllegalActionError) as info:
        m.finish_deal()
    assert info.value.code == "deal-not-over"
    m.new_deal()
    for call in (m.new_deal, m.finish_deal):
        with pytest.raises(IllegalActionError) as info:
            call()
        assert info.value.code == "deal-not-over"


# -- the lead limit and the fourth king -----------------------------------------------------------

def test_a_fourth_lead_of_a_rank_in_a_row_is_refused_while_the_hand_holds_another() -> None:
    # B leads 5s, 5h, 5d (drawing 5h, then 5d), then holds 5c and 7s.
    s = tiny("ristikontra", ["2s 3s", "5s 5h"], "5d 4s 5c 6s 7s 8s 9s Ts")
    act(s, "B play 5s", "A play 2s", "B play 5h", "A play 3s", "B play 5d", "A play 4s")
    assert s.turn == 1 and s.hands[1] == cards("5c 7s")
    message = refuse(s, "B play 5c", "lead-limit")
    assert message == ("B has led 5 in each of the last 3 tricks and may not lead it again "
                       "while holding another rank")
    assert legal(s) == ["B play 7s", "B dark"]


def test_another_rank_or_another_leader_between_resets_the_count() -> None:
    s = tiny("ristikontra", ["2s 3s", "5s 5h"], "5d 4s 7s 6s 5c 8s 9s Ts", lead_limit=2)
    act(s, "B play 5s", "A play 2s", "B play 5h", "A play 3s")
    refuse(s, "B play 5d", "lead-limit")
    act(s, "B play 7s", "A play 4s")  # another rank between
    assert "B play 5d" in legal(s)


def test_the_lead_limit_gives_way_when_the_hand_holds_only_that_rank() -> None:
    # With cards still in the stock (so playing in the dark is possible too).
    s = tiny("ristikontra", ["2s 3s", "5s 5h"], "5d 4s 6s 7s", lead_limit=1)
    act(s, "B play 5s", "A play 2s")
    assert s.hands[1] == cards("5h 5d") and s.stock
    assert legal(s) == ["B play 5h", "B play 5d", "B dark"]
    act(s, "B play 5h")
    # And with the stock gone (the record ristikontra-fourth-lead-with-only-that-rank-left).
    s = tiny("ristikontra", ["2s 3s", "5s 5h"], "5d 4s", lead_limit=1)
    act(s, "B play 5s", "A play 2s")
    assert not s.stock and legal(s) == ["B play 5h", "B play 5d"]


def test_the_lead_limit_does_not_bar_following() -> None:
    s = tiny("ristikontra", ["5c 3s", "5s 5h"], "5d 4s 6s 7s", lead_limit=1)
    act(s, "B play 5s", "A play 3s", "B play 5h")
    assert "A play 5c" in legal(s)


def test_lead_limit_none_allows_any_run() -> None:
    s = tiny("ristikontra", ["2s 3s", "5s 5h"], "5d 4s 5c 6s 7s 8s", lead_limit="none")
    act(s, "B play 5s", "A play 2s", "B play 5h", "A play 3s", "B play 5d", "A play 4s")
    assert "B play 5c" in legal(s)


def test_the_fourth_king_stays_in_hand_while_the_stock_lasts() -> None:
    hands, stock = ["2s 3s", "Ks Kh"], "Kd 4s Kc 5s 6s 7s 8s 9s"
    s = tiny("ristiklappi", hands, stock)
    act(s, "B play Ks", "A play 2s")  # B wins, draws Kd; A draws 4s
    act(s, "B play Kh", "A play 3s")  # B draws Kc, A 5s
    assert s.kings_played == 2 and s.hands[1] == cards("Kd Kc")
    act(s, "B play Kd", "A play 4s")  # the third king; B draws 6s, A 7s
    assert s.kings_played == 3 and s.phase1 and s.hands[1] == cards("Kc 6s")
    message = refuse(s, "B play Kc", "fourth-king")
    assert "last king (Kc)" in message and "first-phase" in message
    assert legal(s) == ["B play 6s", "B dark"]
    act(s, "B play 6s", "A play 5s")  # B draws 8s, A 9s: the stock is gone
    assert not s.stock and not s.phase1 and "B play Kc" in legal(s)


def test_the_fourth_king_may_be_turned_in_the_dark() -> None:
    s = tiny("ristiklappi", ["2s 3s", "Ks Kh"], "Kd 4s 5s 6s 7s 8s Kc 9s")
    act(s, "B play Ks", "A play 2s", "B play Kh", "A play 3s", "B play Kd", "A play 4s")
    assert s.kings_played == 3 and s.stock[-1] == cards("Kc")[0]
    act(s, "B dark")  # the fourth king, turned up
    assert s.kings_played == 4 and list(s.darks) == cards("Kc") and s.winner == 1


def test_the_last_king_bar_holds_through_a_first_phase_trick_and_binds_fighting() -> None:
    # A pack with three kings (Kh set aside): the third is the last. B's dark play turns the
    # second king and the stock's last card; A may still not play the last king in this trick.
    s = tiny("ristiklappi", ["Kc 2s", "Ks 4s"], "5s 6s Kd")
    assert s.kings == 3
    act(s, "B play Ks", "A play 2s")  # B draws 5s, A 6s
    act(s, "B dark")
    assert list(s.darks) == cards("Kd") and not s.stock and s.phase1
    refuse(s, "A play Kc", "fourth-king")
    assert legal(s) == ["A play 6s"]
    act(s, "A play 6s", "B play 4s")
    assert not s.phase1 and "A play Kc" in legal(s)
    # With fighting on (options), the last king is no fighting card in the first phase.
    s = tiny("hola", ["Kc 8s", "Ks Kd"], "5s 6s 7s 9s", phases=True)
    act(s, "B play Ks", "A play Kc")
    assert not s.deciding and s.tricks == (1, 0)
    s = tiny("hola", ["Kc 8s", "Ks Kd"], "5s 6s 7s 9s")
    act(s, "B play Ks", "A play Kc")
    assert s.deciding and legal(s) == ["B stop", "B play Kd"]


# -- signals --------------------------------------------------------------------------------------

SEDMICE = ["8s 9s Js Qs", "7s As Ks 8h", "9h Jh Qh Kh", "Th Ah 7h 8d"]


def test_a_signal_one_per_turn_by_the_player_about_to_play_heard_by_all() -> None:
    s = deal("sedmice", SEDMICE)
    assert legal(s)[-3:] == ["B say ubij", "B say pusti", "B say napuni"]
    act(s, "B say ubij")
    assert s.turn == 1 and s.signals == [(1, "ubij")]
    assert "one" not in legal(s)[-1] and not any("say" in a for a in legal(s))
    assert "already given a signal" in refuse(s, "B say pusti", "one-signal")
    assert "C's turn" not in refuse(s, "C say pusti", "out-of-turn")
    act(s, "B play As")
    assert s.view(3).signals == ((1, "ubij"),) and s.view(0).signals == ((1, "ubij"),)
    act(s, "C say napuni", "C play 9h", "D play Ah", "A say pusti", "A play 8s")
    # The leader's decision (B holds 7s): a signal is allowed there too.
    assert s.deciding and "B say pusti" in legal(s)
    act(s, "B say pusti", "B stop")
    assert s.signals == [] and not s.signaled  # a new trick starts afresh


def test_signals_need_the_option_and_a_known_word() -> None:
    s = deal("sedma", SEDMICE)
    assert "no signals" in refuse(s, "B say ubij", "no-signals")
    s = deal("sedmice", SEDMICE, signals=False)
    refuse(s, "B say ubij", "no-signals")
    s = deal("sedmice", SEDMICE)
    for word in ("hello", "", 5, None, "UBIJ"):
        message = refuse(s, Say(1, word), "bad-signal")  # type: ignore[arg-type]
        assert "ubij, pusti, napuni" in message
    with pytest.raises(NotationError) as info:
        s.parse("B say hello")
    assert info.value.code == "bad-signal"
    assert s.parse("B say UBIJ") == Say(1, "ubij")


# -- the partner's hand ---------------------------------------------------------------------------

def test_the_partner_hand_shows_once_the_stock_is_gone_in_sedmice_only() -> None:
    stock = ["Ts", "Td", "Tc", "Ad"]
    s = tiny("sedmice", SEDMICE, " ".join(stock))
    assert s.view(0).shown == ()
    # Play the first trick with no fight: B As, C 9h, D Th, A 8s; B wins and everyone draws 1.
    act(s, "B play As", "C play 9h", "D play Th", "A play 8s")
    assert not s.stock
    assert s.view(0).shown == ((2, tuple(s.hands[2])),)
    assert s.view(1).shown == ((3, tuple(s.hands[3])),)
    table = s.view(0).table().to_json()
    zones = {z["id"]: z for z in table["zones"]}
    assert zones["hand-2"]["cards"] is not None and zones["hand-1"]["cards"] is None
    s = act(tiny("sedmice", SEDMICE, " ".join(stock), partner_sees_hand=False),
            "B play As", "C play 9h", "D play Th", "A play 8s")
    assert not s.stock and s.view(0).shown == ()
    s = act(tiny("sedmice", SEDMICE[:2], " ".join(stock[:2])), "B play As", "A play 8s")
    assert not s.stock and s.view(0).shown == ()  # two players: no partner


def test_a_view_of_a_seat_that_is_not_at_the_table_is_refused() -> None:
    s = deal("sedma", SEDMICE[:2])
    for seat in (-1, 2, "A", True, None):
        with pytest.raises(IllegalActionError) as info:
            s.view(seat)  # type: ignore[arg-type]
        assert info.value.code == "bad-player"


# -- refusals -------------------------------------------------------------------------------------

def test_every_refusal_has_its_code_and_changes_nothing() -> None:
    s = deal("hola", HOLA4, HOLA4_STOCK)
    for junk in (None, "B play 5s", 5, Play, object()):
        assert "not a capture-game action" in refuse(s, junk, "bad-action", parse=False)
    for seat in (-1, 4, True, "B", 1.0):
        assert "is not at this table" in refuse(s, Play(seat, 4), "bad-player")  # type: ignore
    assert refuse(s, "A play 3c", "out-of-turn") == "it is B's turn to play, not A's"
    for card in (-1, 52, "5s", None, True):
        refuse(s, Play(1, card), "bad-card")  # type: ignore[arg-type]
    assert refuse(s, "B play As", "not-in-hand") == "B does not hold As"
    assert "no trick to stop" in refuse(s, "B stop", "no-stop")
    assert "in the dark" in refuse(s, "B dark", "no-dark")
    act(s, "B play 5s", "C play 9h", "D play 5h", "A play 3c")
    assert refuse(s, "C play Qh", "out-of-turn") == (
        "it is B's turn to decide whether to fight on or stop, not C's")
    assert refuse(s, "B play Kc", "fight-card") == (
        "B fights on only with a card of the led rank (5) or a wild, not Kc")
    assert "not in the dark" in refuse(s, "B dark", "fight-card")
    assert refuse(s, "B say ubij", "no-signals") == "these rules have no signals"


def test_dark_play_refusals() -> None:
    s = tiny("ristikontra", ["2s", "5s"], "")
    assert "stock is empty" in refuse(s, "B dark", "stock-empty")
    s = deal("ristikontra", ["2s 3s 4s 6s 8s 9s", "5s Kd Kc Kh 2h 3h"], play_in_dark=False)
    refuse(s, "B dark", "no-dark")


def test_a_finished_hand_refuses_everything() -> None:
    s = act(tiny("sedma", ["8s", "9s"]), "B play 9s", "A play 8s")
    assert s.is_over and s.turn is None and s.actors() == frozenset()
    assert all(s.legal_actions(p) == [] for p in range(2))
    assert refuse(s, "A play 8s", "deal-over") == "the hand is over"


def test_resolve_takes_the_player_to_act_and_ignores_junk() -> None:
    s = deal("sedma", SEDMICE[:2])
    assert s.resolve([None, "junk", Play(0, 1), Play(1, 2)]) == Play(1, 2)
    assert s.resolve([None, 5]) is None


# -- explicit deals -------------------------------------------------------------------------------

@pytest.mark.parametrize(("hands", "stock", "code", "words"), [
    (["8s 9s Js", "7s As Ks 8h"], "", "bad-hand-size", "A holds 3 cards; the rules deal 4"),
    (["8s 9s Js 2s", "7s As Ks 8h"], "", "bad-card-count", "2s (A) is not in the pack"),
    (["8s 9s Js Qs", "7s As Ks 8s"], "", "bad-card-count", "8s (B) is not in the pack"),
    (["8s 9s Js Qs", "7s As Ks 8h"], "9s", "bad-card-count", "9s (stock)"),
    (["8s 9s Js Qs"], "", "bad-player-count", "sedma is played by 2, 3 or 4 players, not 1"),
])
def test_explicit_deals_refuse_impossible_cards(hands: list[str], stock: str, code: str,
                                                words: str) -> None:
    with pytest.raises(HoolaError) as info:
        deal("sedma", hands, stock)
    assert info.value.code == code and words in info.value.message


def test_three_player_sedma_refuses_a_set_aside_eight() -> None:
    with pytest.raises(NotationError) as info:
        deal("sedma", ["8s 9s Js Qs", "7s As Ks 8h", "9h Jh Qh Kh"])
    assert "8h (B) is not in the pack" in info.value.message


def test_explicit_deals_refuse_a_bad_dealer_or_hand_count() -> None:
    rules = Rules.preset("sedma")
    hands = [cards("8s 9s Js Qs"), cards("7s As Ks 8h")]
    for dealer in (-1, 2, True, "A"):
        with pytest.raises(NotationError) as info:
            DealState(rules, ["A", "B"], hands, [], dealer)  # type: ignore[arg-type]
        assert info.value.code == "bad-dealer"
    with pytest.raises(NotationError) as info:
        DealState(rules, ["A", "B"], hands[:1], [], 0)
    assert info.value.code == "bad-hand-count"


def test_the_player_after_the_dealer_leads() -> None:
    for dealer in range(4):
        s = deal("sedma", ["8s 9s Js Qs", "7s As Ks 8h", "9h Jh Qh Kh", "Th Ah 7h 8d"],
                 dealer=dealer)
        assert s.turn == (dealer + 1) % 4 and s.dealer == dealer
    s = GAME.new_deal(Rules.preset("hola"), NAMES[:4], seed=3)
    assert [len(h) for h in s.hands] == [4] * 4 and len(s.stock) == 36


# -- notation -------------------------------------------------------------------------------------

def test_actions_round_trip_through_notation() -> None:
    names = ["A", "B"]
    for action in (Play(1, 22), Dark(0), Stop(1), Say(0, "napuni")):
        assert parse_action(format_action(action, names), names) == action
    assert parse_action("B play 10h  # a comment", names) == Play(1, 22)


@pytest.mark.parametrize(("text", "code"), [
    ("", "bad-action"), ("B", "bad-action"), ("Z play 5s", "unknown-player"),
    ("B play", "bad-action"), ("B play 5s 6s", "bad-action"), ("B play 5x", "bad-card"),
    ("B play JK", "bad-card"), ("B dark now", "bad-action"), ("B stop 5s", "bad-action"),
    ("B say", "bad-signal"), ("B say hi", "bad-signal"), ("B draw", "bad-action"),
])
def test_bad_notation_is_refused_in_one_line(text: str, code: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text, ["A", "B"])
    assert info.value.code == code and "\n" not in info.value.message
    with pytest.raises(NotationError):
        parse_action(5, ["A", "B"])  # type: ignore[arg-type]


# -- rules ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("options", "words"), [
    ({"deck": 33}, "option deck = 33 must be 52, 32 or 104"),
    ({"deck": True}, "option deck = True must be 52, 32 or 104"),
    ({"removed": "Zz"}, "option removed = 'Zz' must be cards such as \"8h 8d\""),
    ({"removed": "As As"}, "each at most as often as the pack holds it"),
    ({"hand_size": 0}, "option hand_size = 0 must be a whole number from 1 to 26"),
    ({"hand_size": 4.0}, "option hand_size = 4.0 must be a whole number from 1 to 26"),
    ({"wilds": "X"}, "option wilds = 'X' must be ranks such as \"7 2\""),
    ({"wilds": 7}, "option wilds = 7 must be ranks"),
    ({"fighting": "yes"}, "option fighting = 'yes' must be true or false"),
    ({"leader_may_continue": "never"}, "must be not-winning or always"),
    ({"card_points": {"A": -1}}, "with whole numbers from 0 to 1000"),
    ({"card_points": "A 10"}, "must be a table by rank"),
    ({"card_points": {"T": 10, "10": 5}}, "naming each rank once (T is named twice)"),
    ({"last_trick": "10"}, "option last_trick = '10' must be a whole number from 0 to 1000"),
    ({"hola_bonus": None}, "option hola_bonus = None must be true or false"),
    ({"lead_limit": 0}, "option lead_limit = 0 must be a whole number from 1 to 52, or \"none\""),
    ({"scoring": "golf"}, "must be one of points, sedma, croatian, ristikontra, ristiklappi"),
    ({"target": -1}, "option target = -1 must be a whole number from 0 to 1000000"),
    ({"redeal_at_most": 1.5}, "option redeal_at_most = 1.5 must be a whole number"),
    ({"next_dealer": "me"}, "must be one of redeal, fewer, next, clean"),
    ({"target": "x" * 80}, "option target = 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."),
])
def test_bad_options_are_refused_with_the_option_named(options: dict[str, Any],
                                                       words: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_options("hola", options)
    assert info.value.code == "bad-option-value" and words in info.value.message


def test_unknown_presets_and_options() -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_options("holla", {})
    assert info.value.code == "unknown-preset" and "hola, sedma, sedmice" in info.value.message
    for key in ("bogus", "preset_name"):
        with pytest.raises(RulesError) as info:
            Rules.from_options("hola", {key: 1})
        assert info.value.code == "unknown-option" and repr(key) in info.value.message
    with pytest.raises(RulesError) as info:
        Rules.from_options("hola", [("target", 1)])  # type: ignore[arg-type]
    assert info.value.code == "bad-option-value"
    with pytest.raises(RulesError) as info:
        GAME.new_deal("hola", NAMES[:4])
    assert info.value.code == "bad-rules"


def test_check_players() -> None:
    for preset, counts in (("hola", (2, 4, 6)), ("sedma", (2, 3, 4)), ("sedmice", (2, 4)),
                           ("sedmice-croatian", (2, 4)), ("ristikontra", (2, 4)),
                           ("ristiklappi", (2, 4))):
        rules = Rules.preset(preset)
        for n in range(0, 9):
            if n in counts:
                rules.check_players(n)
            else:
                with pytest.raises(RulesError) as info:
                    rules.check_players(n)
                assert info.value.code == "bad-player-count"
                assert f"not {n}" in info.value.message
    with pytest.raises(RulesError) as info:
        Rules.preset("sedma").check_players(5)
    assert info.value.message == "sedma is played by 2, 3 or 4 players, not 5"
    with pytest.raises(RulesError) as info:
        Rules.preset("sedma", hand_size=17).check_players(2)
    assert info.value.message == "2 hands of 17 cards need more than the 32 cards of the pack"
    with pytest.raises(RulesError):
        Rules.preset("hola").check_players(True)


@pytest.mark.parametrize("options", [
    {}, {"wilds": "7"}, {"wilds": "none"}, {"removed": "8h 8d"}, {"card_points": {"A": 5}},
    {"card_points": {}}, {"lead_limit": "none"}, {"lead_limit": 2}, {"redeal_at_most": "none"},
    {"target": 0, "next_dealer": "clean", "phases": True, "deck": 104},
])
def test_options_round_trip_as_records_write_them(options: dict[str, Any]) -> None:
    import json

    from hoola.core.records import toml_value

    for preset in ("hola", "sedma", "ristiklappi"):
        rules = Rules.from_options(preset, options)
        again = json.loads(json.dumps(rules.overrides()))
        assert Rules.from_options(preset, again) == rules
        # Every option given: the same values (and kept so for every player count).
        assert Rules.from_options(preset, rules.options()).values() == rules.values()
        assert all(isinstance(toml_value(v), str) for v in rules.options().values())


def test_a_preset_changes_for_six_or_three_players_unless_an_option_was_given() -> None:
    assert Rules.preset("hola", target=300).for_players(6).target == 300
    assert Rules.preset("hola").for_players(4) == Rules.preset("hola")
    assert Rules.preset("sedma", removed="8s 8c").for_players(3).removed == tuple(
        cards("8s 8c"))


def test_an_option_given_explicitly_holds_for_every_player_count() -> None:
    r = Rules.preset("hola", last_trick=10, target=250).for_players(6)
    assert (r.last_trick, r.target, r.deck, r.hola_bonus) == (10, 250, 104, False)
    assert Rules.preset("sedma", removed="none").for_players(3).removed == ()
    assert Rules.preset("hola", last_trick=10).overrides() == {"last_trick": 10}
    assert Rules.preset("hola", last_trick=10) != Rules.preset("hola")
    with pytest.raises(RulesError) as info:
        Rules(given=frozenset({"colour"}))
    assert info.value.code == "bad-option-value"

"""Unit tests for hoola.games.hoola.state: the engine on explicit deals, action by action.

Every refused action is checked to leave the state exactly as it was and to carry the expected
error code; legal_actions() is checked against can() along the way.
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations
from typing import Any

import pytest

from hoola.core.cards import JOKER, format_card, format_cards, parse_card, parse_cards
from hoola.core.errors import IllegalActionError, OutOfTurnError
from hoola.games.hoola.actions import (
    Action,
    Add,
    Blast,
    Discard,
    Draw,
    Drop,
    Knock,
    NewMeld,
    Play,
    Sevens,
    Take,
    parse_action,
)
from hoola.games.hoola.deal import Deal
from hoola.games.hoola.rules import PRESETS, Rules
from hoola.games.hoola.state import DealState, three_sevens

PAGAT = Rules.preset("pagat")


def make(hands: list[str], upcard: str, stock: str = "", rules: Rules = PAGAT,
         names: str | None = None, **kwargs: Any) -> DealState:
    names = names or "ABCDEFG"[:len(hands)]
    deal = Deal.explicit(rules, [parse_cards(h) for h in hands], parse_card(upcard),
                         parse_cards(stock))
    return DealState(rules, list(names), deal, **kwargs)


def act(state: DealState, text: str) -> Action:
    return parse_action(text, state.names)


def do(state: DealState, *texts: str) -> None:
    for text in texts:
        state.apply(act(state, text))


def snapshot(state: DealState) -> tuple[Any, ...]:
    return (tuple(state.hand(p) for p in range(state.n)), tuple(state.table),
            tuple(state.discards), tuple(state.stock), tuple(state.history), state.actors(),
            state.current, state.drawn, state.claim_open, state.phase, tuple(state.had_turn),
            tuple(state.melded), tuple(state.in_deal), state.result,
            tuple(tuple(state.legal_actions(p)) for p in range(state.n)))


def refuse(state: DealState, action: str | Action, code: str,
           kind: type[IllegalActionError] = IllegalActionError) -> IllegalActionError:
    """Apply an action that must be refused; check the code and that nothing changed."""
    a = act(state, action) if isinstance(action, str) else action
    before = snapshot(state)
    assert not state.can(a)
    with pytest.raises(kind) as info:
        state.verify(a)
    assert info.value.code == code, info.value.message
    with pytest.raises(kind) as info:
        state.apply(a)
    assert info.value.code == code, info.value.message
    assert snapshot(state) == before
    for p in range(state.n):
        assert a not in state.legal_actions(p)
    return info.value


def legal(state: DealState, player: str) -> set[str]:
    return {state.format(a) for a in state.legal_actions(state.names.index(player))}


def seats(state: DealState, names: str) -> frozenset[int]:
    return frozenset(state.names.index(n) for n in names)


def candidates(state: DealState, p: int) -> list[Action]:
    """Every action worth trying for ``p`` in a joker-free deal (a superset of the legal ones)."""
    hand = [c for c in state.hand(p) if c != JOKER]
    out: list[Action] = [Draw(p), Knock(p), Blast(p), Sevens(p), Play(p), Drop(p)]
    out += [Discard(p, c) for c in hand]
    top = state.discards[-1] if state.discards else None
    if top is not None:
        out += [Take(p, top, pair) for pair in combinations(hand, 2)]
    for size in (1, 3, 4):
        out += [NewMeld(p, combo) for combo in combinations(hand, size)]
    for m in state.table:
        out += [Add(p, c, meld_id=m.id) for c in hand]
    return out


def normal(state: DealState, a: Action) -> Any:
    """An action up to the details the listing chooses (meld order, meld named by a card)."""
    if isinstance(a, NewMeld):
        return ("meld", a.player, frozenset(a.cards))
    if isinstance(a, Add):
        meld_id = a.meld_id
        if meld_id is None:
            meld_id = next(m.id for m in state.table if a.on in m.cards)
        return ("add", a.player, a.card, meld_id)
    if isinstance(a, Take):
        return ("take", a.player, a.card, frozenset(a.with_cards), a.joker_as, a.purpose)
    if isinstance(a, Draw):
        return Draw(a.player)
    return a


def check_legal(state: DealState) -> None:
    """legal_actions agrees with can(), covers every legal candidate, and makes the actors."""
    with_moves = set()
    for p in range(state.n):
        listed = state.legal_actions(p)
        assert len(listed) == len(set(listed))
        for a in listed:
            assert state.can(a), state.format(a)
        if listed:
            with_moves.add(p)
        if state.rules.jokers:
            continue
        wanted = {normal(state, a) for a in listed
                  if not isinstance(a, NewMeld) or len(a.cards) in (1, 3, 4)}
        found = {normal(state, a) for a in candidates(state, p) if state.can(a)}
        assert found == wanted, (state.names[p], found ^ wanted)
    assert state.actors() == frozenset(with_moves)


# A deal where A's discard 9d is wanted by C (9s 9h) and D (8d Td) but not by B.
CLAIM_HANDS = ["9d Kc Qd Jd 3h 5s 2h", "4d 5d 6d 8c 2s Ks Kh", "9s 9h Ah Ad 8h 6h 2c",
               "8d Td Th Tc 5h 3c 4c"]


def claim_state(rules: Rules = PAGAT) -> DealState:
    s = make(CLAIM_HANDS, "Ts", "4h Jc Qs 3d", rules)
    do(s, "A draw", "A discard 9d")
    return s


# -- the start of a deal ------------------------------------------------------------------------

def test_new_deal_state() -> None:
    s = make(CLAIM_HANDS, "Ts", "4h Jc Qs 3d")
    assert s.phase == "play" and not s.is_over
    assert s.actors() == seats(s, "A")
    assert s.current == 0 and s.dealer == 0
    assert s.discards == [parse_card("Ts")]
    assert len(s.stock) == 52 - 28 - 1
    assert format_cards(s.hand(1)) == "2s Ks Kh 4d 5d 6d 8c"
    assert legal(s, "A") == {"A draw"}
    assert s.history == []
    check_legal(s)


def test_draw_takes_top_of_stock_and_records_the_card() -> None:
    s = make(CLAIM_HANDS, "Ts", "4h Jc Qs 3d")
    record = s.apply(Draw(0))
    assert record == Draw(0, parse_card("4h"))
    assert s.history == [record]
    assert parse_card("4h") in s.hand(0)
    assert len(s.stock) == 22
    assert s.had_turn == (True, False, False, False)
    assert s.view(1).history == (Draw(0),)  # others do not see the card drawn
    check_legal(s)


@pytest.mark.parametrize(("players", "code"), [(1, "bad-player-count"), (8, "bad-player-count")])
def test_player_counts(players: int, code: str) -> None:
    deal = Deal.shuffled(PAGAT, 2, seed=1)
    with pytest.raises(IllegalActionError) as info:
        DealState(PAGAT, ["P"] * players, deal)
    assert info.value.code == code


def test_deal_must_match_players() -> None:
    deal = Deal.shuffled(PAGAT, 3, seed=1)
    with pytest.raises(IllegalActionError) as info:
        DealState(PAGAT, ["A", "B", "C", "D"], deal)
    assert info.value.code == "bad-deal"
    with pytest.raises(IllegalActionError) as info:
        DealState(PAGAT, ["A", "B", "C"], deal, dealer=3)
    assert info.value.code == "bad-deal"


def test_explicit_deal_errors() -> None:
    with pytest.raises(IllegalActionError) as info:
        make(["As 2s 3s", *CLAIM_HANDS[1:]], "Ts")
    assert info.value.code == "bad-deal"
    with pytest.raises(IllegalActionError) as info:
        make(CLAIM_HANDS, "9d")
    assert info.value.code == "bad-deal"
    with pytest.raises(IllegalActionError) as info:
        make(CLAIM_HANDS, "Ts", "Ts")
    assert info.value.code == "bad-deal"
    with pytest.raises(IllegalActionError) as info:
        make(["JK Kc Qd Jd 3h 5s 2h", *CLAIM_HANDS[1:]], "Ts")
    assert info.value.code == "bad-deal"


def test_explicit_stock_is_completed_in_canonical_order() -> None:
    s = make(CLAIM_HANDS, "Ts", "4h Jc")
    stock = s.deal.stock
    assert format_cards(stock[:4]) == "4h Jc As 3s"
    assert len(stock) == 23
    assert len(set(stock)) == 23


# -- order of play and refusals -----------------------------------------------------------------

def test_out_of_turn_and_turn_structure_refusals() -> None:
    s = make(CLAIM_HANDS, "Ts", "4h Jc Qs 3d")
    refuse(s, "B draw", "out-of-turn", OutOfTurnError)
    refuse(s, "A discard Kc", "must-draw-first")
    refuse(s, "A meld 9d Jd Qd", "must-draw-first")
    do(s, "A draw")
    refuse(s, "A draw", "already-drawn")
    refuse(s, "A knock", "already-drawn")
    refuse(s, "A discard 9s", "not-in-hand")
    refuse(s, "A meld Jd Qd Kd", "not-in-hand")
    refuse(s, "A meld Jd Qd", "meld-too-short")
    refuse(s, "A play", "not-choosing")
    refuse(s, "B discard Ks", "out-of-turn", OutOfTurnError)
    refuse(s, Draw(9), "unknown-player")
    refuse(s, Discard(0, 99), "bad-card")
    check_legal(s)


def test_discard_passes_the_turn() -> None:
    s = make(CLAIM_HANDS, "Ts", "4h Jc Qs 3d")
    do(s, "A draw", "A discard Kc")
    assert s.current == 1
    assert s.discards[-1] == parse_card("Kc")
    assert s.claim_open
    assert not s.drawn
    assert s.actors() == seats(s, "B")
    assert legal(s, "B") == {"B draw", "B take Kc with Ks Kh"}
    check_legal(s)


# -- claim windows ------------------------------------------------------------------------------

def test_claim_window_has_several_actors() -> None:
    s = claim_state()
    assert s.actors() == seats(s, "BCD")
    assert legal(s, "B") == {"B draw"}
    assert legal(s, "C") == {"C take 9d with 9s 9h"}
    assert legal(s, "D") == {"D take 9d with 8d Td"}
    assert legal(s, "A") == set()
    assert s.view(2).can_pass and not s.view(1).can_pass
    assert s.view(2).claimable == parse_card("9d")
    check_legal(s)


def test_battle_claim_out_of_turn_skips_players() -> None:
    s = claim_state()
    do(s, "D take 9d with 8d Td")
    assert s.current == 3
    assert s.actors() == seats(s, "D")
    assert s.had_turn == (True, False, False, True)   # B and C lost their turn
    assert s.melded == (False, False, False, True)
    assert str(s.table[0]) == "8d 9d Td"
    assert s.table[0].owner == 3
    assert s.discards == [parse_card("Ts")]
    refuse(s, "D draw", "already-drawn")
    refuse(s, "C take 9d with 9s 9h", "not-takeable")
    refuse(s, "B draw", "out-of-turn", OutOfTurnError)
    check_legal(s)
    do(s, "D discard 5h")
    assert s.current == 0  # play goes on from the taker
    assert s.actors() == seats(s, "A")  # A can take 5h with 3h 4h
    assert legal(s, "A") == {"A draw", "A take 5h with 3h 4h"}
    check_legal(s)


def test_claim_window_closes_when_next_player_draws() -> None:
    s = claim_state()
    do(s, "B draw")
    assert not s.claim_open
    assert s.actors() == seats(s, "B")
    refuse(s, "C take 9d with 9s 9h", "window-closed")
    refuse(s, "D take 9d with 8d Td", "window-closed")


def test_next_player_may_take_in_turn() -> None:
    s = make(["9s 9h Kc Qd Jd 3h 5s", "Qs Qh 4d 5d 6d 8c 2s", "2c 3c 4c Ah Ad 8h 6h",
              "Ks Th Td Tc 8d 9c 5h"], "Ts", "4h Jc Kh 3d")
    do(s, "A draw", "A discard Qd", "B take Qd with Qs Qh")
    assert s.current == 1 and s.drawn
    assert s.had_turn == (True, True, False, False)
    assert s.own_meld[1]


def test_own_discard_cannot_be_taken() -> None:
    s = make(["9s 9h Kc Qd Jd 3h 5s", "Qs Qh 4d 5d 6d 8c 2s", "2c 3c 4c Ah Ad 8h 6h",
              "Ks Th Td Tc 8d 9c 5h"], "Ts", "9d Jc Kh 3d")
    do(s, "A draw", "A discard 9d")
    refuse(s, "A take 9d with 9s 9h", "own-discard")


@pytest.mark.parametrize("claims", ["battle", "battle-next-priority"])
def test_battle_modes_accept_out_of_turn_claims(claims: str) -> None:
    s = claim_state(Rules.preset("pagat", claims=claims))
    assert s.actors() == seats(s, "BCD")
    do(s, "C take 9d with 9s 9h")
    assert s.current == 2
    assert s.had_turn == (True, False, True, False)


def test_next_only_refuses_out_of_turn_claims() -> None:
    s = claim_state(Rules.preset("classic"))
    assert s.actors() == seats(s, "B")
    assert legal(s, "C") == set()
    refuse(s, "C take 9d with 9s 9h", "out-of-turn", OutOfTurnError)
    refuse(s, "D take 9d with 8d Td", "out-of-turn", OutOfTurnError)
    check_legal(s)


def test_discarded_seven_taken_for_a_run_or_seven_set() -> None:
    hands = ["7c Kd Qd Jh 9s 9h 3h", "5c 6c Ks Kh 4d 5d Ah", "7s 7h 2c As Ad 8h 6h",
             "8c 9c Qs Th Td Tc 8d"]
    s = make(hands, "Ts", "2s")
    do(s, "A draw", "A discard 7c")
    assert s.actors() == seats(s, "BCD")
    assert legal(s, "B") == {"B draw", "B take 7c with 5c 6c"}
    assert legal(s, "C") == {"C take 7c with 7s 7h"}
    assert legal(s, "D") == {"D take 7c with 8c 9c"}
    check_legal(s)


# -- taking: only into a new three-card meld ----------------------------------------------------

def take_state() -> DealState:
    # A discards 8c; B holds 7c alone, 9c alone... and a pair of eights
    s = make(["Kd Qd Jh 9s 9h 3h 8c", "7c Ks Kh 4d 5d 8s 8h", "2c 3c 4c As Ad 9d 6h",
              "Qs Th Td Tc 8d 9c 5h"], "Ts", "2s 3s 4s")
    do(s, "A draw", "A discard 8c")
    return s


def test_take_refusals() -> None:
    s = take_state()
    # a lone seven does not take an adjacent card
    refuse(s, Take(1, parse_card("8c"), (parse_card("7c"),)), "take-needs-two")
    refuse(s, Take(1, parse_card("8c"), ()), "take-needs-two")
    refuse(s, Take(1, parse_card("8c"), tuple(parse_cards("8s 8h Ks"))), "take-needs-two")
    refuse(s, "B take 8c with 7c Ks", "not-a-meld")
    refuse(s, "B take 8c with Ks Kh", "not-a-meld")
    refuse(s, "B take 8c with 8s 8d", "not-in-hand")
    refuse(s, "B take 9c with 8s 8h", "not-takeable")
    refuse(s, "B take 8c with 8s 8s", "duplicate-card")
    check_legal(s)
    assert legal(s, "B") == {"B draw", "B take 8c with 8s 8h"}
    assert legal(s, "D") == {"D take 8c with 9c Tc"}
    do(s, "B take 8c with 8s 8h")
    assert str(s.table[0]) == "8s 8h 8c"


def test_take_cannot_add_to_a_meld_on_the_table() -> None:
    s = make(["3c 4c 5c 6c Kd Qd Jh", "9s 9h 9d Ah 2h 8s 8d", "Ac 2c 4h 5h 6d 8c Ks",
              "Ad 3d 4d 5s 6s 8h Kh"], "Th", "2s Tc Js Jd Qs")
    do(s, "A draw", "A meld 3c 4c 5c", "A discard Kd", "B draw", "B meld 9s 9h 9d",
       "B discard Tc", "C draw", "C discard Js", "D draw", "D discard Jd", "A draw",
       "A discard 6c")
    refuse(s, "B take 6c with 4c 5c", "not-in-hand")
    refuse(s, Take(1, parse_card("6c"), ()), "take-needs-two")
    assert legal(s, "B") == {"B draw"}
    check_legal(s)


def test_six_beside_melded_seven_needs_two_more_from_hand() -> None:
    hands = ["Kd Qd Jh 9s 9h 3h 8s", "7c 5c 4c As Ah Ad Ks", "6c 2d 3d Tc Jc 9d 8d",
             "4h 5h 6h 8h Ts Js Qs"]
    s = make(hands, "Th", "Td 2s 3s")
    do(s, "A draw", "A discard Kd", "B draw", "B meld 7c", "B meld As Ah Ad", "B discard Ks",
       "C draw", "C discard 6c")
    refuse(s, "B take 6c with 7c 5c", "not-in-hand")
    assert legal(s, "B") == {"B take 6c with 4c 5c"}
    check_legal(s)
    do(s, "B take 6c with 5c 4c")
    assert s.had_turn == (True, True, True, False)  # D's turn was skipped
    do(s, "B discard 2s")
    assert s.is_over
    r = s.result
    assert r is not None
    assert (r.end, r.winners) == ("out", (1,))
    # C's discard went out: C last and pays all
    assert r.payer == 2
    assert dict(r.payments) == {0: 0, 1: 13, 2: -13, 3: 0}


# -- the upcard ----------------------------------------------------------------------------------

def upcard_state(dealer: int = 0) -> DealState:
    hands = ["Ks Kh 2c 3h 5s 8d 9c", "Qs Qh 4d 5d 6d 8c 2s", "Jd Qd 4c Ah Ad 8h 6h",
             "Js Th Td 3c 2d 9s 5h"]
    return make(hands, "Kd", "4h Jc Kc 3d", dealer=dealer)


def test_dealer_takes_upcard_on_first_draw() -> None:
    s = upcard_state()
    assert legal(s, "A") == {"A draw", "A take Kd with Ks Kh"}
    check_legal(s)
    do(s, "A take Kd with Ks Kh")
    assert s.drawn and s.melded[0]
    assert s.discards == []
    assert len(s.stock) == 23  # nothing drawn
    assert str(s.table[0]) == "Ks Kh Kd"


def test_upcard_only_for_the_dealer() -> None:
    s = upcard_state()
    refuse(s, "B take Kd with Qs Qh", "upcard-dealer-only")
    refuse(s, "C take Kd with Jd Qd", "upcard-dealer-only")
    assert s.actors() == seats(s, "A")


def test_upcard_dead_after_dealer_draws() -> None:
    s = upcard_state()
    do(s, "A draw")
    refuse(s, "A take Kd with Ks Kh", "already-drawn")
    do(s, "A discard 8d")
    assert s.discards == parse_cards("Kd 8d")
    refuse(s, "B take Kd with Qs Qh", "not-takeable")


def test_upcard_with_another_dealer() -> None:
    s = upcard_state(dealer=2)
    assert s.current == 2
    assert s.actors() == seats(s, "C")
    assert legal(s, "C") == {"C draw", "C take Kd with Jd Qd", "C take Kd with Qd Ad"}
    refuse(s, "A take Kd with Ks Kh", "upcard-dealer-only")
    refuse(s, "A draw", "out-of-turn", OutOfTurnError)
    do(s, "C take Kd with Jd Qd")
    assert s.took_from is None  # the upcard is nobody's discard
    do(s, "C discard 4c")
    assert s.current == 3


# -- laying off -----------------------------------------------------------------------------------

LAY_HANDS = ["3c 4c 5c 9s 9h 9d 2h", "Ks Kh Kc Qd Tc 8s 6s", "7s 2d 4h 5h 6h Th 3d",
             "8d 8c 8h As Ah 3s 4s"]


def lay_state(rules: Rules = PAGAT) -> DealState:
    s = make(LAY_HANDS, "Jd", "Js 6c Jh 2c 9c", rules)
    do(s, "A draw", "A meld 3c 4c 5c", "A discard Js", "B draw")
    return s


def test_lay_off_needs_own_meld() -> None:
    s = lay_state()
    assert "B add 6c on 5c" not in legal(s, "B")
    refuse(s, "B add 6c on 5c", "no-own-meld")
    refuse(s, "B add 6c on m1", "no-own-meld")
    check_legal(s)
    do(s, "B meld Ks Kh Kc")
    assert "B add 6c on 5c" in legal(s, "B")
    check_legal(s)
    do(s, "B add 6c on m1")
    assert format_cards(s.table[0].cards) == "3c 4c 5c 6c"
    assert s.table[0].owner == 0  # the meld stays A's
    refuse(s, "B add 8s on 5c", "does-not-fit")
    refuse(s, "B add 8s on m9", "no-such-meld")
    refuse(s, "B add 8s on 9h", "no-such-meld")
    refuse(s, "B add 7c on 6c", "not-in-hand")


def test_lay_off_without_own_meld_option() -> None:
    s = lay_state(Rules.preset("pagat", lay_off_needs_own_meld=False))
    assert "B add 6c on 5c" in legal(s, "B")
    do(s, "B add 6c on 5c")
    assert s.melded[1] and not s.own_meld[1]
    check_legal(s)


def test_meld_made_by_taking_allows_adding() -> None:
    s = make(["Qd 3c 4c 5c 9s 9h 2h", "Qs Qh 6c 4d 5d 8s 6s", "7s 2d 4h 5h 6h Th 3d",
              "8d 8c 8h As Ah 3s 4s"], "Jd", "Js Kc")
    do(s, "A draw", "A meld 3c 4c 5c", "A discard Qd")
    refuse(s, "B add 6c on 5c", "must-draw-first")
    do(s, "B take Qd with Qs Qh")
    assert s.own_meld[1]
    do(s, "B add 6c on 5c")
    assert format_cards(s.table[0].cards) == "3c 4c 5c 6c"


def test_add_on_meld_named_by_number_and_seven_grows() -> None:
    s = lay_state()
    do(s, "B discard 8s", "C draw", "C meld 7s", "C meld 4h 5h 6h")
    assert [m.id for m in s.table] == [1, 2, 3]
    do(s, "C discard Th", "D draw", "D meld 8d 8c 8h")
    refuse(s, "D add 6s on m2", "not-in-hand")
    do(s, "D discard 2c", "A draw", "A discard 9c", "B draw")
    assert "B add 6s on 7s" not in legal(s, "B")
    refuse(s, "B add 6s on m2", "no-own-meld")
    do(s, "B meld Ks Kh Kc")
    assert "B add 6s on 7s" in legal(s, "B")
    do(s, "B add 6s on m2")
    assert format_cards(s.table[1].cards) == "6s 7s"
    assert s.table[1].owner == 2


# -- going out, Hoola ---------------------------------------------------------------------------

OUT_HANDS = ["3c 4c 5c 9s 9h 9d 7h", "Ks Kh Qh Qd Tc 8s 6s", "7s 2h 4h 5h 6h Th 2d",
             "8d 8c 3h As Ah 3s 4s"]


def test_hoola_with_a_discard() -> None:
    s = make(OUT_HANDS, "Kd", "Qs Js")
    do(s, "A draw", "A meld 3c 4c 5c", "A meld 9s 9h 9d", "A meld 7h")
    assert not s.is_over
    assert legal(s, "A") == {"A discard Qs"}
    do(s, "A discard Qs")
    assert s.is_over and s.actors() == frozenset()
    r = s.result
    assert r is not None
    assert (r.end, r.winners) == ("hoola", (0,))
    assert dict(r.points) == {0: 0, 1: 74, 2: 43, 3: 28}
    assert dict(r.payments) == {0: 24, 1: -12, 2: -8, 3: -4}
    refuse(s, "B draw", "deal-over")


def test_hoola_without_a_discard() -> None:
    s = make(OUT_HANDS, "Kd", "6c Js")
    do(s, "A draw", "A meld 3c 4c 5c 6c", "A meld 9s 9h 9d", "A meld 7h")
    assert s.is_over
    assert s.result is not None and s.result.end == "hoola"
    assert s.discards == [parse_card("Kd")]


def test_going_out_after_an_earlier_meld_is_not_hoola() -> None:
    s = make(["3c 4c 5c 9s 9h 9d 2h", "Ks Kh Qh Qd Tc 8s 6s", "7s 7h 4h 5h 6h Th 2d",
              "8d 8c 8h As Ah 3s 4s"], "Kd", "Qs Js Jh Jd 6c")
    do(s, "A draw", "A meld 3c 4c 5c", "A meld 9s 9h 9d", "A discard Qs", "B draw",
       "B discard Js", "C draw", "C meld 4h 5h 6h", "C discard Jh", "D draw",
       "D meld 8d 8c 8h", "D discard Jd", "A draw", "A add 6c on 5c")
    assert legal(s, "A") == {"A discard 2h"}
    do(s, "A discard 2h")
    r = s.result
    assert r is not None
    assert (r.end, r.winners) == ("out", (0,))
    assert dict(r.payments) == {0: 15, 1: -6, 2: -8, 3: -1}


def test_discard_to_go_out() -> None:
    rules = Rules.preset("pagat", discard_to_go_out=True)
    s = make(OUT_HANDS, "Kd", "6c Js", rules)
    do(s, "A draw", "A meld 3c 4c 5c 6c", "A meld 9s 9h 9d")
    assert legal(s, "A") == {"A discard 7h"}
    refuse(s, "A meld 7h", "must-discard-to-go-out")
    check_legal(s)
    do(s, "A discard 7h")
    assert s.result is not None and s.result.end == "hoola"
    # and a meld that would leave no card at all
    s = make(OUT_HANDS, "Kd", "6c Js", rules)
    do(s, "A draw", "A meld 3c 4c 5c 6c")
    refuse(s, "A meld 9s 9h 9d 7h", "not-a-meld")
    assert "A meld 9s 9h 9d" in legal(s, "A")


def test_discard_to_go_out_refuses_last_addition() -> None:
    rules = Rules.preset("pagat", discard_to_go_out=True)
    s = make(["3c 4c 5c 9s 9h 9d 2h", "Ks Kh Qh Qd Tc 8s 6s", "7s 7h 4h 5h 6h Th 2d",
              "8d 8c 8h As Ah 3s 4s"], "Kd", "Qs Js Jh Jd 6c 2c", rules)
    do(s, "A draw", "A meld 3c 4c 5c", "A meld 9s 9h 9d", "A discard 2h", "B draw",
       "B discard Js", "C draw", "C discard Jh", "D draw", "D discard Jd", "A draw")
    assert format_cards(s.hand(0)) == "Qs 6c"
    do(s, "A add 6c on 5c")
    assert legal(s, "A") == {"A discard Qs"}
    s2 = make(["3c 4c 5c 9s 9h 9d 2h", "Ks Kh Qh Qd Tc 8s 6s", "7s 7h 4h 5h 6h Th 2d",
               "8d 8c 8h As Ah 3s 4s"], "Kd", "2c Js Jh Jd 6c", rules)
    do(s2, "A draw", "A meld 3c 4c 5c", "A meld 9s 9h 9d", "A discard 2h", "B draw",
       "B discard Js", "C draw", "C discard Jh", "D draw", "D discard Jd", "A draw")
    assert format_cards(s2.hand(0)) == "2c 6c"
    do(s2, "A add 6c on 5c")
    refuse(s2, "A add 2c on 3c", "must-discard-to-go-out")


def test_hoola_only_out() -> None:
    rules = Rules.preset("pagat", hoola_only_out=True)
    s = make(["3c 4c 5c 9s 9h 9d 2h", "Ks Kh Qh Qd Tc 8s 6s", "7s 7h 4h 5h 6h Th 2d",
              "8d 8c 8h As Ah 3s 4s"], "Kd", "Qs Js Jh Jd 6c", rules)
    do(s, "A draw", "A meld 3c 4c 5c", "A meld 9s 9h 9d", "A discard Qs", "B draw",
       "B discard Js", "C draw", "C meld 4h 5h 6h", "C discard Jh", "D draw",
       "D meld 8d 8c 8h", "D discard Jd", "A draw")
    refuse(s, "A add 6c on 5c", "hoola-only-out")
    assert legal(s, "A") == {"A discard 2h", "A discard 6c"}
    check_legal(s)
    # a Hoola itself is allowed
    s = make(OUT_HANDS, "Kd", "Qs Js", rules)
    do(s, "A draw", "A meld 3c 4c 5c", "A meld 9s 9h 9d", "A meld 7h", "A discard Qs")
    assert s.result is not None and s.result.end == "hoola"


CLAIM_OUT_HANDS = ["9s 9h Kc Qd Jd 3h 5s", "2c 3c 4c Ah Ad 7h 6h", "Qs Qh 4d 5d 6d 7d 2s",
                   "Ks Th Td Tc 8d 9c 5h"]


def test_hoola_by_claiming_a_discard_discarder_pays_all() -> None:
    s = make(CLAIM_OUT_HANDS, "Ts", "8s 4h Jc Kh 3d")
    do(s, "A draw", "A discard Qd", "C take Qd with Qs Qh", "C meld 4d 5d 6d 7d", "C discard 2s")
    r = s.result
    assert r is not None
    assert (r.end, r.winners, r.payer) == ("hoola", (2,), 0)
    # A last: 3 x2 (no meld) x4 = 24; B first loser 1 x4; D 2 x4: A pays all 36
    assert dict(r.payments) == {0: -36, 1: 0, 2: 36, 3: 0}
    assert s.had_turn == (True, False, True, False)


def test_hoola_needs_all_played_and_discarder_pays_for_hoola_only() -> None:
    s = make(CLAIM_OUT_HANDS, "Ts", "8s 4h Jc Kh 3d", Rules.preset("rummy-rulebook"))
    do(s, "A draw", "A discard Qd", "C take Qd with Qs Qh", "C meld 4d 5d 6d 7d", "C discard 2s")
    r = s.result
    assert r is not None
    assert (r.end, r.payer) == ("out", None)
    # A still ranks last (3, x2 no meld); B holds 7h: x2 always; D 2
    assert dict(r.payments) == {0: -6, 1: -2, 2: 10, 3: -2}


# -- knocks --------------------------------------------------------------------------------------

LOW_HANDS = ["As Ah Ad Ac 2s 2h 2d", "Ks Kh Qh Qd Tc 8s 6s", "7s 3s 4h 5h 6h Th 3d",
             "8d 8c 3c 4s 5s 4d 5d"]


def test_knock_win() -> None:
    s = make(LOW_HANDS, "Kd", "Qs Js Jh Jd 6c")
    assert legal(s, "A") == {"A knock", "A blast", "A draw", "A take Kd with Ad 2d"}
    check_legal(s)
    do(s, "A knock")
    r = s.result
    assert r is not None
    assert (r.end, r.winners) == ("knock", (0,))
    assert dict(r.points) == {0: 10, 1: 74, 2: 45, 3: 37}
    assert dict(r.payments) == {0: 6, 1: -3, 2: -2, 3: -1}
    assert s.had_turn == (True, False, False, False)


@pytest.mark.parametrize(("options", "code"), [
    ({"knock_limit": 9}, "knock-over-limit"),
    ({"knock_limit": {4: 9, 5: 10}}, "knock-over-limit"),
    ({"knocks": False}, "knocks-off"),
])
def test_knock_refused(options: dict[str, Any], code: str) -> None:
    s = make(LOW_HANDS, "Kd", "Qs Js Jh Jd 6c", Rules.preset("pagat", **options))
    refuse(s, "A knock", code)
    assert "A knock" not in legal(s, "A")
    refuse(s, "B knock", "out-of-turn", OutOfTurnError)


def test_knock_limit_table_uses_players_in_deal() -> None:
    s = make(LOW_HANDS, "Kd", "Qs", Rules.preset("pagat", knock_limit={3: 9, 4: 10}))
    assert "A knock" in legal(s, "A")


def test_knock_counts_sevens_at_the_end_value() -> None:
    hands = ["As Ah Ad Ac 2s 2h 7d", "Ks Kh Qh Qd Tc 8s 6s", "7s 3s 4h 5h 6h Th 3d",
             "8d 8c 3c 4s 5s 4d 5d"]
    s = make(hands, "Kd", "Qs", Rules.preset("pagat", knock_limit=15))
    refuse(s, "A knock", "knock-over-limit")   # 8 + 14 = 22
    s = make(hands, "Kd", "Qs", Rules.preset("pagat", knock_limit=15, seven_value_end=7))
    do(s, "A knock")                            # 8 + 7 = 15
    assert s.result is not None and s.result.winners == (0,)


UNDERCUT_HANDS = ["Ks 2s 3h 4d Ac Kh 2h", "Ah As 2c 3c 4c 5h 3s", "7s 9s 4h Jh 6h Th 3d",
                  "8d 8c Tc 4s 5s Td 5d"]


def test_knock_undercut_pays_all() -> None:
    s = make(UNDERCUT_HANDS, "Kd", "Qs Js Jc Jd 6c", Rules.preset("pagat", knock_limit=40))
    do(s, "A knock")
    r = s.result
    assert r is not None
    assert (r.end, r.winners, r.payer) == ("knock", (1,), 0)
    assert dict(r.points) == {0: 38, 1: 19, 2: 57, 3: 50}
    # the knocker had a turn and melded nothing: last (3) x2, plus C 2 and D 1
    assert dict(r.payments) == {0: -9, 1: 9, 2: 0, 3: 0}


def test_knock_undercut_fixed_penalty() -> None:
    rules = Rules.preset("pagat", knock_limit=40, undercut="fixed")
    s = make(UNDERCUT_HANDS, "Kd", "Qs Js Jc Jd 6c", rules, stake=2)
    do(s, "A knock")
    assert s.result is not None
    assert dict(s.result.payments) == {0: -30, 1: 10, 2: 10, 3: 10}


def test_knock_rule_dealer_one_card() -> None:
    s = make(LOW_HANDS, "Kd", "Qs Js", Rules.preset("hertzog"))
    refuse(s, "A knock", "knock-not-allowed")   # ten points, but seven cards


# -- blasts --------------------------------------------------------------------------------------

def test_sopang() -> None:
    s = make(LOW_HANDS, "Kd", "Qs Js Jh Jd 6c")
    do(s, "A blast")
    r = s.result
    assert r is not None
    assert (r.end, r.winners) == ("sopang", (0,))
    assert dict(r.payments) == {0: 6, 1: -3, 2: -2, 3: -1}


def test_daepang_with_multiplier() -> None:
    hands = ["Ks Kh Kd Kc Qs Qh Qd", "As Ah Ad Ac 2s 2h 6s", "7s 3s 4h 5h 6h Th 3d",
             "8d 8c 3c 4s 5s 4d 5d"]
    s = make(hands, "9d", "Js", Rules.preset("pagat", blast_multiplier=7))
    refuse(s, "A knock", "knock-over-limit")
    do(s, "A blast")
    r = s.result
    assert r is not None
    assert (r.end, r.winners) == ("daepang", (0,))
    # B 14, C 45, D 37: B 1, D 2, C 3, all x7
    assert dict(r.payments) == {0: 42, 1: -7, 2: -21, 3: -14}


def test_blast_refusals() -> None:
    s = make(CLAIM_HANDS, "Ts", "4h Jc Qs 3d")
    refuse(s, "A blast", "not-a-blast")
    s = make(LOW_HANDS, "Kd", "Qs Js", Rules.preset("pagat", blasts=False))
    refuse(s, "A blast", "blasts-off")
    assert legal(s, "A") == {"A knock", "A draw", "A take Kd with Ad 2d"}


def test_no_blast_after_melding() -> None:
    hands = ["As Ah Ad 2c 2s 2h 2d", "Ks Kh Qh Qd Tc 8s 6s", "7s 3s 4h 5h 6h Th 3d",
             "8d 8c 3c 4s 5s 4d 5d"]
    s = make(hands, "Kd", "Ac Js Jh Jd Qs", Rules.preset("pagat", knock_limit=0))
    do(s, "A draw", "A meld As Ah Ad Ac", "A discard 2c", "B draw", "B discard Js", "C draw",
       "C discard Jh", "D draw", "D discard Jd")
    assert s.melded[0]
    refuse(s, "A blast", "blast-after-meld")


# -- four sevens ---------------------------------------------------------------------------------

SEVENS_HANDS = ["Ks 2s 3h 4d Ac Kh 2h", "Ah As 2c 3c 4c 5h 3s", "7s 7h 7d 7c 6h Th 3d",
                "8d 8c Tc 4s 5s Td 5d"]


def test_four_sevens_any_time_straight_after_the_deal() -> None:
    s = make(SEVENS_HANDS, "Kd", "Qs Js Jc Jd 6c")
    assert s.actors() == seats(s, "AC")
    assert legal(s, "C") == {"C sevens"}
    check_legal(s)
    do(s, "C sevens")
    r = s.result
    assert r is not None
    assert (r.end, r.winners) == ("sevens", (2,))
    assert dict(r.payments) == {0: -2, 1: -1, 2: 6, 3: -3}
    assert s.had_turn == (False, False, False, False)  # declared out of turn: no turn


def test_four_sevens_any_time_during_a_claim_window() -> None:
    s = make(SEVENS_HANDS, "Kd", "Qs Js Jc Jd 6c")
    do(s, "A draw", "A discard Qs")
    assert 2 in s.actors()
    do(s, "C sevens")
    assert s.result is not None and s.result.end == "sevens"


def test_four_sevens_at_turn_start_only() -> None:
    s = make(SEVENS_HANDS, "Kd", "Qs Js Jc Jd 6c", Rules.preset("classic"))
    assert s.actors() == seats(s, "A")
    refuse(s, "C sevens", "not-turn-start")
    do(s, "A draw", "A discard Qs", "B draw")
    refuse(s, "C sevens", "not-turn-start")
    do(s, "B discard Js")
    assert legal(s, "C") == {"C sevens", "C draw"}
    do(s, "C sevens")
    assert s.result is not None and s.result.end == "sevens"
    assert s.had_turn == (True, True, True, False)


@pytest.mark.parametrize(("preset", "allowed"), [("pagat", True), ("classic", False)])
def test_fourth_seven_drawn(preset: str, allowed: bool) -> None:
    hands = ["Ks 2s 3h 4d Ac Kh 2h", "Ah As 2c 3c 4c 5h 3s", "7s 7h 7d 9c 6h Th 3d",
             "8d 8c Tc 4s 5s Td 5d"]
    s = make(hands, "Kd", "Qs Js 7c Jd", Rules.preset(preset))
    do(s, "A draw", "A discard Qs", "B draw", "B discard Js")
    assert "C sevens" not in legal(s, "C")
    refuse(s, "C sevens", "not-four-sevens")
    do(s, "C draw")
    if allowed:
        assert "C sevens" in legal(s, "C")
        do(s, "C sevens")
        assert s.result is not None and s.result.end == "sevens"
    else:
        refuse(s, "C sevens", "not-turn-start")


def test_four_sevens_off() -> None:
    s = make(SEVENS_HANDS, "Kd", "Qs", Rules.preset("pagat", four_sevens=False))
    assert s.actors() == seats(s, "A")
    refuse(s, "C sevens", "sevens-off")


@pytest.mark.parametrize("joker_as_seven", [False, True])
def test_joker_as_seven(joker_as_seven: bool) -> None:
    hands = ["Ks 2s 3h 4d Ac Kh 2h", "Ah As 2c 3c 4c 5h 3s", "7s 7h 7d JK 6h Th 3d",
             "8d 8c Tc 4s 5s Td 5d"]
    rules = Rules.preset("pagat", jokers=1, joker_as_seven=joker_as_seven)
    s = make(hands, "Kd", "Qs", rules)
    if joker_as_seven:
        assert s.actors() == seats(s, "AC")
        do(s, "C sevens")
        assert s.result is not None and s.result.end == "sevens"
    else:
        assert s.actors() == seats(s, "A")
        refuse(s, "C sevens", "not-four-sevens")


def test_four_melded_sevens_win_old_rule() -> None:
    hands = ["7s 7h 7d 9c Qd Jd 2h", "Ks Kh 6d 8c 2s 3s 4h", "9s 9h Ah Ad 8h 6h 2c",
             "8d Td Th Tc 5h 3c 4c"]
    s = make(hands, "Ts", "7c Jc", Rules.preset("old"))
    do(s, "A draw")
    refuse(s, "A sevens", "not-turn-start")  # the old rule: only at the start of a turn
    do(s, "A meld 7s", "A meld 7h", "A meld 7d")
    assert not s.is_over
    do(s, "A meld 7c")
    r = s.result
    assert r is not None
    assert (r.end, r.winners) == ("sevens", (0,))
    s = make(hands, "Ts", "7c Jc")
    do(s, "A draw", "A meld 7s", "A meld 7h", "A meld 7d", "A meld 7c")
    assert not s.is_over


def test_fourth_melded_seven_that_empties_the_hand_goes_out() -> None:
    """Ruling 19: going out beats four melded sevens (a Hoola here, x4 for both losers)."""
    hands = ["7s 7h 7d 7c 2s 2h 2d", "Ks Kh Kd Qs Qh Jh 3d", "Kc Qd 9h 9c 3c 4h 5h"]
    s = make(hands, "Js", "2c", Rules.preset("old"))
    do(s, "A draw", "A meld 2s 2h 2d 2c", "A meld 7s", "A meld 7h", "A meld 7d", "A meld 7c")
    r = s.result
    assert r is not None
    assert (r.end, r.winners) == ("hoola", (0,))
    assert s.returns() == [12, -8, -4]


SEVENS_LATER = ["7s 7h 7d 2s 2h 2d Kc", "3s 5s 9h Jd Kd 4c 6c", "Qs Qh Qd 8s Th 4d Ac",
                "9s 9d 9c 3h 5h Jh 6d"]


def sevens_later(**options: Any) -> DealState:
    """A melds three sevens in turn 1 and draws 7c in turn 2, holding Qc."""
    rules = Rules.preset("pagat", four_melded_sevens_win=True, **options)
    s = make(SEVENS_LATER, "Js", "Qc 8h Td 5d 7c", rules)
    do(s, "A draw", "A meld 2s 2h 2d", "A meld 7s 7h 7d", "A discard Kc", "B draw",
       "B discard Kd", "C draw", "C meld Qs Qh Qd", "C discard 8s", "D draw",
       "D meld 9s 9d 9c", "D discard Jh", "A draw")
    return s


def test_four_melded_sevens_with_a_card_left_are_not_going_out() -> None:
    """With hoola_only_out, the fourth seven may still be melded when a card stays in hand."""
    s = sevens_later(hoola_only_out=True)
    do(s, "A meld 7c")
    assert s.result is not None and s.result.end == "sevens"
    s = sevens_later(hoola_only_out=True)
    refuse(s, "A add Qc on Qs", "hoola-only-out")  # 7c left alone would go out without a Hoola


def test_fourth_melded_seven_as_last_card_needs_a_discard_with_discard_to_go_out() -> None:
    s = sevens_later(discard_to_go_out=True)
    do(s, "A add Qc on Qs")
    refuse(s, "A meld 7c", "must-discard-to-go-out")


def test_grouping_sevens_old_rule() -> None:
    hands = ["7s Kc Qd Jd 3h 5s 2h", "7h 7d 6d 8c 2s Ks Kh", "9s 9h Ah Ad 8h 6h 2c",
             "8d Td Th Tc 5h 3c 4c"]
    s = make(hands, "Ts", "4h Jc Qs 3d 9c", Rules.preset("old"))
    do(s, "A draw", "A meld 7s", "A discard Kc", "B draw")
    assert "B meld 7s 7h 7d" in legal(s, "B")
    do(s, "B meld 7s 7h 7d")
    assert [str(m) for m in s.table] == ["7s 7h 7d"]
    assert s.table[0].owner == 1
    # it is not a meld of one's own: B may not add yet
    assert not s.own_meld[1]
    refuse(s, "B add 8c on 7s", "no-own-meld")
    s = make(hands, "Ts", "4h Jc Qs 3d 9c")
    do(s, "A draw", "A meld 7s", "A discard Kc", "B draw")
    refuse(s, "B meld 7s 7h 7d", "not-in-hand")


# -- end of the stock ----------------------------------------------------------------------------

STOCK_HANDS = ["As 2s 3s 4s 5s 6s 8s", "Ah 2h 3h 4h 5h 6h Kh", "Ad 2d 3d 4d 5d 6d Qd",
               "Ac 2c 3c 4c 5c 6c 8c"]
# Every other card, in canonical order but with 7c last.
STOCK = ("7s Ts Js Qs Ks 7h 8h 9h Th Jh Qh 7d 8d 9d Td Jd Kd 9c Tc Jc Qc Kc 7c")


def test_end_of_stock() -> None:
    s = make(STOCK_HANDS, "9s", STOCK)
    assert len(s.stock) == 23
    for _ in range(22):
        p = s.current
        record = s.apply(Draw(p))
        assert isinstance(record, Draw) and record.card is not None
        s.apply(Discard(p, record.card))
    assert s.current == 2 and len(s.stock) == 1
    do(s, "C draw")
    assert s.stock == []
    assert not s.is_over
    refuse(s, "C knock", "already-drawn")
    do(s, "C discard 7c")   # D could use 7c with 5c 6c, but play has ended
    assert s.is_over
    assert s.actors() == frozenset()
    refuse(s, "D take 7c with 5c 6c", "deal-over")
    r = s.result
    assert r is not None
    assert r.end == "stock"
    assert r.winners == (0, 3)
    assert dict(r.points) == {0: 29, 1: 34, 2: 33, 3: 29}
    # B and C had turns and melded nothing: both last (3) x2; A and D share 12
    assert dict(r.payments) == {0: 6, 1: -6, 2: -6, 3: 6}


# -- six and seven players ----------------------------------------------------------------------

SIX_HANDS = ["As 2s 3s 4s 5s 6s 7s", "8s 9s Ts Js Qs Ks Ah", "2h 3h 4h 5h 6h 7h 8h",
             "9h Th Jh Qh Kh Ad 2d", "3d 4d 5d 6d 7d 8d 9d", "Td Jd Qd Kd Ac 2c 3c"]


def test_six_players_forced_drop_and_compensation() -> None:
    s = make(SIX_HANDS, "4c", "", Rules.preset("pagat", knock_limit={5: 40, 6: 1}))
    assert s.phase == "choose"
    assert s.actors() == seats(s, "B")
    assert legal(s, "B") == {"B play", "B drop"}
    refuse(s, "A draw", "choosing", OutOfTurnError)
    refuse(s, "B draw", "choosing", OutOfTurnError)
    refuse(s, "C play", "out-of-turn", OutOfTurnError)
    refuse(s, "A play", "out-of-turn", OutOfTurnError)
    refuse(s, "E sevens", "choosing", OutOfTurnError)
    do(s, "B play", "C play", "D play", "E play")
    assert legal(s, "F") == {"F drop"}
    refuse(s, "F play", "forced-choice")
    do(s, "F drop")
    assert s.phase == "play"
    assert s.current == 0
    assert s.in_deal == (True,) * 5 + (False,)
    assert s.hand(5) == ()
    # F holds Td-Jd-Qd and Ac-2c-3c: two units, 1/4 from each of the four who chose to play
    assert s.compensation == {5: 2, 1: Fraction(-1, 2), 2: Fraction(-1, 2), 3: Fraction(-1, 2),
                              4: Fraction(-1, 2)}
    assert len(s.stock) == 52 - 35 - 1
    assert s.stock_after_drops is not None
    assert format_cards(s.stock_after_drops[:4]) == "Td Jd Qd Kd"
    refuse(s, "F draw", "dropped-out", OutOfTurnError)
    check_legal(s)
    # the knock limit is the one for five players
    assert "A knock" in legal(s, "A")
    do(s, "A knock")
    r = s.result
    assert r is not None
    assert 5 not in r.points
    # A 35 wins; C 42, E 49, D 58, B 64 pay 1, 2, 3, 4; compensation on top
    assert dict(r.payments) == {0: 10, 1: Fraction(-9, 2), 2: Fraction(-3, 2),
                                3: Fraction(-7, 2), 4: Fraction(-5, 2), 5: 2}
    assert sum(r.payments.values()) == 0


def test_six_players_voluntary_drop_forces_the_rest_to_play() -> None:
    s = make(SIX_HANDS, "4c", "")
    do(s, "B drop")
    assert legal(s, "C") == {"C play"}
    refuse(s, "C drop", "forced-choice")
    do(s, "C play", "D play", "E play", "F play")
    assert s.phase == "play"
    assert s.compensation == {}
    assert s.in_deal == (True, False, True, True, True, True)
    assert s.forced_out == []
    do(s, "A draw")
    record = s.apply(Discard(0, s.hand(0)[0]))
    assert record.player == 0
    assert s.current == 2  # B is skipped


SEVEN_HANDS = [*SIX_HANDS, "4c 5c 6c 7c 8c 9c Tc"]


def test_seven_players() -> None:
    s = make(SEVEN_HANDS, "Jc", "")
    do(s, "B drop")
    assert legal(s, "C") == {"C play", "C drop"}
    do(s, "C drop")
    for name in "DEFG":
        assert legal(s, name) == {f"{name} play"}
        refuse(s, f"{name} drop", "forced-choice")
        do(s, f"{name} play")
    assert s.phase == "play"
    assert s.in_deal == (True, False, False, True, True, True, True)
    assert s.compensation == {}
    assert len(s.stock) == 52 - 35 - 1
    do(s, "A draw", "A discard 7s")
    assert s.current == 3


def test_seven_players_two_forced_out() -> None:
    s = make(SEVEN_HANDS, "Jc", "")
    do(s, "B play", "C play", "D play", "E play")
    for name in "FG":
        assert legal(s, name) == {f"{name} drop"}
        do(s, f"{name} drop")
    assert s.forced_out == [5, 6]
    # F: two units; G: 7c and 4c-5c-6c, 8c-9c-Tc: three units; each paid by B, C, D, E
    assert s.compensation[5] == 2
    assert s.compensation[6] == 3
    assert s.compensation[1] == Fraction(-5, 4)
    assert sum(s.compensation.values()) == 0


# -- jokers -------------------------------------------------------------------------------------

JOKER_RULES = Rules.preset("pagat", jokers=1)


def test_joker_melds_in_play() -> None:
    s = make(["5h 7h JK Kc Qd 3s 2d", "9s 9h 4c Ah Ad 8d 6c", "Qs Qh 4d 5d 6d 7d 2s",
              "Ks Th Td Tc 9d 9c 5c"], "Ts", "8s 4h Jc Kh 3d", JOKER_RULES)
    do(s, "A draw")
    assert "A meld 5h JK=6h 7h" in legal(s, "A")
    refuse(s, "A meld JK", "lone-joker")
    refuse(s, "A meld 5h JK=8h 7h", "not-a-run")
    refuse(s, "A meld 7h JK 8s", "not-a-meld")
    s2 = s.copy()
    do(s2, "A meld 5h JK 7h")      # the one gap: inferred
    assert str(s2.table[0]) == "5h JK=6h 7h"
    assert s2.hand(0) == tuple(parse_cards("3s 8s 2d Qd Kc"))
    do(s, "A discard JK")
    assert not s.claim_open
    assert s.actors() == seats(s, "B")
    refuse(s, "B take JK with 9s 9h", "joker-dead")


def test_joker_in_a_take_and_in_hand_at_the_end() -> None:
    s = make(["5h 7h 9d Kc Qd 3s 2d", "9s 4c Ah Ad JK 8d 6c", "Qs Qh 4d 5d 6d 7d 2s",
              "Ks Th Td Tc 9h 9c 5c"], "Ts", "8s 4h Jc Kh 3d", JOKER_RULES)
    do(s, "A draw", "A discard 9d")
    assert legal(s, "B") >= {"B take 9d with 9s JK", "B take 9d with 8d JK=Td",
                             "B take 9d with 8d JK=7d"}
    assert "D take 9d with 9h 9c" in legal(s, "D")
    do(s, "B take 9d with 9s JK")
    assert str(s.table[0]) == "9s 9d JK"
    refuse(s, "B add JK on 9s", "not-in-hand")
    do(s, "B discard 6c", "C draw")
    refuse(s, "C add 7d on 9d", "no-own-meld")


def test_joker_in_hand_doubles_at_the_end() -> None:
    s = make(["As Ah Ad Ac 2s 2h JK", "Ks Kh Qh Qd Tc 8s 6s", "7s 3s 4h 5h 6h Th 3d",
              "8d 8c 3c 4s 5s 4d 5d"], "Kd", "Qs Js", JOKER_RULES)
    refuse(s, "A knock", "knock-over-limit")   # 8 points doubled by the joker
    s = make(["As Ah Ad Ac 2s 2h JK", "Ks Kh Qh Qd Tc 8s 6s", "7s 3s 4h 5h 6h Th 3d",
              "8d 8c 3c 4s 5s 4d 5d"], "Kd", "Qs Js", JOKER_RULES.replace(knock_limit=16))
    do(s, "A knock")
    r = s.result
    assert r is not None
    assert dict(r.points) == {0: 16, 1: 74, 2: 45, 3: 37}
    # the others had no turn: their points are not doubled by anything
    assert dict(r.payments) == {0: 6, 1: -3, 2: -2, 3: -1}


# -- copies and views ----------------------------------------------------------------------------

def test_copy_is_independent() -> None:
    s = claim_state()
    before = snapshot(s)
    c = s.copy()
    assert snapshot(c) == before
    do(c, "D take 9d with 8d Td", "D discard 5h", "A draw")
    assert snapshot(s) == before
    assert c.history != s.history
    assert c.rng.random() == s.rng.random()
    do(s, "C take 9d with 9s 9h")
    assert c.table[0].owner == 3 and s.table[0].owner == 2


def test_view_hides_other_hands_until_the_end() -> None:
    s = make(LOW_HANDS, "Kd", "Qs Js Jh Jd 6c")
    v = s.view(1)
    assert v.hand == s.hand(1)
    assert v.hands is None
    assert v.hand_sizes == (7, 7, 7, 7)
    assert v.legal == ()
    assert not v.is_my_turn
    do(s, "A knock")
    v = s.view(1)
    assert v.hands is not None and v.hands[0] == s.hand(0)
    assert v.result is s.result


# -- online claims ------------------------------------------------------------------------------

def test_online_claim_for_a_blast() -> None:
    hands = ["9s 9h Kc Qd Jd 3h 5s", "As Ah Ad 2s 2h 2d Kh", "2c 3c Qc Tc 4d 8h 6h",
             "Ks Th Td 9c 8d Ts 5h"]
    s = make(hands, "Js", "3s 4h", Rules.preset("online"))
    do(s, "A draw", "A discard 3s")
    assert legal(s, "B") == {"B draw", "B take 3s with As 2s", "B take 3s for blast"}
    refuse(s, "C take 3s for blast", "not-a-blast")
    refuse(s, "B take 3s for sevens", "not-four-sevens")
    do(s, "B take 3s for blast")
    r = s.result
    assert r is not None
    assert (r.end, r.winners, r.payer, r.pay_all_factor) == ("sopang", (1,), 0, 2)
    # A last: 3 x2 x7; C 1 x2 x7; D 2 x2 x7: 84, doubled: 168
    assert dict(r.payments) == {0: -168, 1: 168, 2: 0, 3: 0}
    s = make(hands, "Js", "3s 4h")
    do(s, "A draw", "A discard 3s")
    refuse(s, "B take 3s for blast", "claim-purpose-off")


def test_online_claim_for_four_sevens() -> None:
    hands = ["9s 9h Kc Qd Jd 3h 7c", "7s 7h 7d 2s 2h 2d Kh", "2c 3c Qc Tc 4d 8h 6h",
             "Ks Th Td 9c 8d Ts 5h"]
    s = make(hands, "Js", "3s 4h", Rules.preset("online"))
    do(s, "A draw", "A discard 7c")
    assert "B take 7c for sevens" in legal(s, "B")
    do(s, "B take 7c for sevens")
    r = s.result
    assert r is not None
    assert (r.end, r.winners, r.payer) == ("sevens", (1,), 0)


# -- Glenn's melds --------------------------------------------------------------------------------

def test_glenn_four_card_meld_is_killed() -> None:
    s = make(["3c 4c 5c 9s 9h 9d 2h", "Ks Kh Qh Qd Tc 8s 6s", "7s 7h 4h 5h 6h Th 2d",
              "8d 8c 8h As Ah 3s 4s"], "Kd", "6c Js", Rules.preset("glenn"))
    do(s, "A draw")
    refuse(s, "A meld 3c 4c 5c 6c 2h", "meld-too-long")
    do(s, "A meld 3c 4c 5c 6c")
    assert s.table == ()
    assert s.discards[:4] == parse_cards("3c 4c 5c 6c")
    assert s.discards[-1] == parse_card("Kd")
    assert s.own_meld[0]
    do(s, "A meld 9s 9h 9d")
    assert [m.id for m in s.table] == [2]


# -- legal_actions against can() along whole games -----------------------------------------------

@pytest.mark.parametrize(("preset", "players", "seed", "jokers"), [
    ("pagat", 4, 1, 0), ("classic", 3, 2, 0), ("rummy-rulebook", 4, 3, 0), ("online", 5, 4, 0),
    ("two-player", 2, 5, 0), ("pagat", 6, 6, 0), ("glenn", 4, 7, 0), ("old", 4, 8, 0),
    ("pagat", 4, 9, 2), ("online", 3, 10, 1), ("hertzog", 5, 11, 1),
])
def test_legal_actions_agree_with_can_in_random_games(preset: str, players: int, seed: int,
                                                      jokers: int) -> None:
    rng = random.Random(seed)
    s = DealState.new(Rules.preset(preset, jokers=jokers), players, seed=seed)
    steps = 0
    while not s.is_over and steps < 150:
        check_legal(s)
        actor = rng.choice(sorted(s.actors()))
        choices = s.legal_actions(actor)
        before = s.copy()
        s.apply(rng.choice(choices))
        assert len(s.history) == len(before.history) + 1
        steps += 1
    if s.is_over:
        assert s.result is not None
        assert sum(s.result.payments.values()) == 0
        assert s.actors() == frozenset()
        assert all(s.legal_actions(p) == [] for p in range(s.n))


def test_refused_garbage_leaves_state_unchanged() -> None:
    s = claim_state()
    refuse(s, Take(2, parse_card("9d"), (parse_card("9s"), 77)), "bad-card")
    refuse(s, NewMeld(0, (1, 2)), "out-of-turn", OutOfTurnError)
    refuse(s, NewMeld(1, (1, 2)), "must-draw-first")
    refuse(s, Add(2, parse_card("2c"), meld_id=1), "out-of-turn", OutOfTurnError)
    assert format_card(s.discards[-1]) == "9d"


@pytest.mark.parametrize(("action", "code"), [
    (Take(2, None), "bad-card"),  # type: ignore[arg-type]
    (Add(0, None, meld_id=1), "bad-card"),  # type: ignore[arg-type]
    (Discard(0, None), "bad-card"),  # type: ignore[arg-type]
    (NewMeld(0, None), "bad-card"),  # type: ignore[arg-type]
    (Take(2, parse_card("9d"), None), "bad-card"),  # type: ignore[arg-type]
    (Take(2, parse_card("9d"), purpose="keep"), "bad-action"),
    (Take(2, parse_card("9d"), (parse_card("9s"), parse_card("9h")), purpose="sevens"),
     "bad-action"),
    (NewMeld(0, (1, 2, 3), joker_as=4), "bad-action"),
    (Add(0, 5), "bad-action"),
    (Draw(1, parse_card("4h")), "bad-action"),
    (Draw(True), "unknown-player"),  # True is not seat 1
    (Take(False, parse_card("9d"), (parse_card("9s"), parse_card("9h"))), "unknown-player"),
    (Knock(-1), "unknown-player"),
    (Sevens(2**70), "unknown-player"),
    (Action(0), "bad-action"),
    ("C take 9d with 9s 9h", "bad-action"),  # a string is not an action value
])
def test_malformed_actions_are_refused_without_a_traceback(action: Any, code: str) -> None:
    s = claim_state()
    before = snapshot(s)
    assert s.can(action) is False
    for call in (s.verify, s.apply):
        with pytest.raises(IllegalActionError) as info:
            call(action)
        assert info.value.code == code, info.value.message
    assert snapshot(s) == before


def test_seats_must_be_seats() -> None:
    s = claim_state()
    assert s.legal_actions(2) and s.can_take(2, parse_card("9d"), parse_cards("9s 9h"))
    for seat in (True, -1, 4, "C", None):
        for call in (s.legal_actions, s.view, s.hand):
            with pytest.raises(IllegalActionError) as info:
                call(seat)  # view(-1) used to show the last seat's hand
            assert info.value.code == "unknown-player"
    assert not s.can_take(True, parse_card("9d"), parse_cards("9s 9h"))  # type: ignore[arg-type]
    assert not s.can_take(2, parse_card("9d"), None)  # type: ignore[arg-type]
    assert not s.can_meld(1, "9s 9h 9c")  # type: ignore[arg-type]


@pytest.mark.parametrize(("args", "kwargs", "code"), [
    ((8,), {}, "bad-player-count"),
    ((True,), {}, "bad-player-count"),
    (("ABCD",), {}, "bad-names"),
    ((["A", "A"],), {}, "bad-names"),
    ((["A", "B c"],), {}, "bad-names"),
    ((4,), {"dealer": True}, "bad-deal"),
    ((4,), {"dealer": 4}, "bad-deal"),
    ((4,), {"stake": 0}, "bad-stake"),
    ((4,), {"stake": 1.5}, "bad-stake"),
    ((4,), {"seed": "x"}, "bad-seed"),
    ((4,), {"rng": 3}, "bad-seed"),
    ((3,), {"deal": Deal.shuffled(PAGAT, 4, seed=1)}, "bad-deal"),
    ((2,), {"deal": Deal(((0, 1, 2, 3, 4, 5, 6), (7, 8, 9, 10, 11, 12, 13)), 14, ())},
     "bad-deal"),  # not the whole pack
])
def test_new_deal_state_refuses_bad_arguments(args: tuple[Any, ...], kwargs: dict[str, Any],
                                              code: str) -> None:
    with pytest.raises(IllegalActionError) as info:
        DealState.new(PAGAT, *args, **kwargs)
    assert info.value.code == code, info.value.message


def test_deal_values_are_checked() -> None:
    hands = ((0, 1, 2, 3, 4, 5, 6), (7, 8, 9, 10, 11, 12, 13))
    for deal_args, code in [((hands, 99, ()), "bad-card"), ((hands, 13, ()), "bad-deal"),
                            ((hands[:1], 14, ()), "bad-deal"), (("As 2s", 14, ()), "bad-card"),
                            ((hands, 14, (15, None)), "bad-card"),
                            ((hands, 14, (), "later"), "bad-deal")]:
        with pytest.raises(IllegalActionError) as info:
            Deal(*deal_args)  # type: ignore[arg-type]
        assert info.value.code == code, deal_args
    with pytest.raises(IllegalActionError) as info:
        Deal.shuffled(PAGAT, 8)  # used to raise IndexError
    assert info.value.code == "bad-player-count"


def test_online_claim_must_complete_the_blast_or_the_sevens() -> None:
    """The discard must be part of what is shown: a hand that blasts alone cannot claim any card."""
    hands = ["9s 9h Kc Qd Jd 3h 5s", "As Ah Ad 2s 2h 2d 3d", "2c 3c Qc Tc 4d 8h 6h",
             "Ks Th Td 9c 8d Ts 5h"]
    s = make(hands, "Js", "Qs 4h", Rules.preset("online"))
    do(s, "A draw", "A discard Qs")
    # B's own seven cards total 12 (a sopang at B's turn), but Qs cannot be in a blast of B's.
    refuse(s, "B take Qs for blast", "not-a-blast")
    assert "B blast" in legal(s, "B")  # B is next: at the start of B's turn B may blast
    hands = ["9s 9h Kc Qd Jd 3h 5s", "7s 7h 7d 7c 2h 2d Kh", "2c 3c Qc Tc 4d 8h 6h",
             "Ks Th Td 9c 8d Ts 5h"]
    s = make(hands, "Js", "Qs 4h", Rules.preset("online"))
    do(s, "A draw", "A discard Qs")
    # B already holds four sevens: B shows them (any time), but Qs completes nothing.
    refuse(s, "B take Qs for sevens", "not-four-sevens")
    assert "B sevens" in legal(s, "B")


def test_add_names_a_meld_by_the_card_its_joker_stands_for() -> None:
    rules = Rules.preset("pagat", jokers=1)
    hands = ["8h 9h JK Jh 4d 6c Kd", "As Ah Ad 2h 2d 2c Ks", "3c 4c Qc Tc 4s 8s 6h",
             "Qh Qs Td 9c 8d Ts 5h"]
    s = make(hands, "Js", "2s 3s", rules)
    do(s, "A draw", "A meld 8h 9h JK=Th")
    # Th is on the table only as the joker's face; "on Th" still names that meld.
    refuse(s, act(s, "A add 2s on Th"), "does-not-fit")
    do(s, "A add Jh on Th")
    assert [str(m) for m in s.table] == ["8h 9h JK=Th Jh"]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_seats_that_may_show_four_sevens_are_kept_as_cards_move(preset: str) -> None:
    # actors() asks a kept set of the seats holding three sevens or more, instead of every
    # hand at every decision: it must be what the hands say after every action, also in deals
    # dealt so that sevens gather in one hand and move between hands.
    sevens = [s * 13 + 6 for s in range(4)]
    for seed in range(12):
        for n in (2, 4, 7):
            rules = Rules.preset(preset, jokers=seed % 3) if seed % 2 else Rules.preset(preset)
            try:
                deal = Deal.shuffled(rules, n, seed=seed)
            except IllegalActionError:
                continue
            holder = seed % n  # three of the sevens into one hand, the fourth next to it
            cards = [list(h) for h in deal.hands]
            rest = [deal.upcard, *deal.stock]
            pool = [c for h in cards for c in h] + rest
            for k, seven in enumerate(sevens[:3 + seed % 2]):
                where = holder if k < 3 else (holder + 1) % n
                if seven in cards[where]:
                    continue
                victim = next(c for c in cards[where] if c not in sevens)
                src = next((h for h in cards if seven in h), rest)
                src[src.index(seven)] = victim
                cards[where][cards[where].index(victim)] = seven
            assert sorted(pool) == sorted([c for h in cards for c in h] + rest)
            rigged = Deal(tuple(tuple(sorted(h)) for h in cards), rest[0], tuple(rest[1:]),
                          deal.redeal)
            try:
                s = DealState(rules, [chr(65 + q) for q in range(n)], rigged)
            except IllegalActionError:
                continue
            rng = random.Random(seed)
            while not s.is_over:
                assert s._sevens == three_sevens(s.hands)
                actors = s.actors()
                if s.phase == "play" and not (s.claimable and rules.claims != "next-only"):
                    assert actors == {s.current} | {
                        q for q in range(n) if s._may_show_sevens(q)}
                seat = rng.choice(sorted(actors))
                s.apply(rng.choice(s.legal_actions(seat)))
            assert s._sevens == three_sevens(s.hands)

"""Unit tests for hoola.play: driving deals with bots, and settling contested claims."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from hoola.actions import Action, Draw, Take, format_action, parse_action
from hoola.bots import BOTS, GreedyBot, RandomBot, make_bot
from hoola.cards import parse_card, parse_cards
from hoola.deal import Deal
from hoola.errors import IllegalActionError
from hoola.play import play_deal, resolve_claims
from hoola.rules import Rules
from hoola.state import DealState
from hoola.views import View

PRESETS = ["pagat", "classic", "rummy-rulebook", "online", "two-player", "hertzog", "glenn",
           "old", "court-ten", "winjoy"]


@pytest.mark.parametrize("players", range(2, 8))
@pytest.mark.parametrize("preset", PRESETS)
def test_bots_finish_deals_and_payments_sum_to_zero(preset: str, players: int) -> None:
    for seed in range(2):
        rules = Rules.preset(preset, jokers=seed)
        state = DealState.new(rules, players, seed=1000 * players + seed)
        bots = [RandomBot(seed=i) if (i + seed) % 2 else GreedyBot(seed=i)
                for i in range(players)]
        seen: list[Action] = []
        play_deal(state, bots, random.Random(seed),
                  on_action=lambda _s, a, seen=seen: seen.append(a))
        assert state.is_over
        r = state.result
        assert r is not None
        assert sum(r.payments.values()) == 0
        assert all(isinstance(v, Fraction) for v in r.payments.values())
        assert r.winners and all(state.in_deal[w] for w in r.winners)
        assert set(r.points) == {q for q in range(players) if state.in_deal[q]}
        assert sum(state.in_deal) == min(players, 5)
        assert seen == state.history
        assert r.end in ("sopang", "daepang", "knock", "out", "hoola", "sevens", "stock")
        winners_paid = sum(r.payments[w] for w in r.winners)
        assert winners_paid >= 0


def test_greedy_bots_are_deterministic() -> None:
    def run() -> list[Action]:
        state = DealState.new(Rules.preset("pagat"), 4, seed=9)
        play_deal(state, [GreedyBot(seed=i) for i in range(4)], random.Random(9))
        return state.history

    assert run() == run()


def test_play_deal_needs_a_player_per_seat() -> None:
    state = DealState.new(Rules.preset("pagat"), 4, seed=1)
    with pytest.raises(ValueError):
        play_deal(state, [GreedyBot() for _ in range(3)])


class Passer:
    """A player that never acts."""

    def act(self, view: View) -> Action | None:
        return None


def test_a_player_who_must_act_cannot_pass() -> None:
    state = DealState.new(Rules.preset("pagat"), 3, seed=1)
    with pytest.raises(IllegalActionError) as info:
        play_deal(state, [Passer(), GreedyBot(), GreedyBot()])
    assert info.value.code == "must-act"
    assert state.history == []


class Cheater:
    """A player that tries to draw out of turn."""

    def act(self, view: View) -> Action | None:
        return parse_action("B draw", view.names)


def test_illegal_choice_from_a_player_is_refused() -> None:
    state = DealState.new(Rules.preset("pagat"), 2, seed=1)
    with pytest.raises(IllegalActionError):
        play_deal(state, [Cheater(), Cheater()])


def test_make_bot() -> None:
    assert {"greedy", "random"} <= set(BOTS)
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    assert isinstance(make_bot("random", 1), RandomBot)
    with pytest.raises(ValueError):
        make_bot("clever")


# -- contested claims ------------------------------------------------------------------------------

CLAIM_HANDS = ["9d Kc Qd Jd 3h 5s 2h", "4d 5d 6d 8c 2s Ks Kh", "9s 9h Ah Ad 8h 6h 2c",
               "8d Td Th Tc 5h 3c 4c"]


def claim_state(claims: str) -> DealState:
    rules = Rules.preset("pagat", claims=claims)
    deal = Deal.explicit(rules, [parse_cards(h) for h in CLAIM_HANDS], parse_card("Ts"),
                         parse_cards("4h Jc Qs 3d"))
    return DealState(rules, ["A", "B", "C", "D"], deal)


def claims_of(state: DealState) -> list[Take]:
    claims = [parse_action(t, state.names) for t in ("D take 9d with 8d Td",
                                                     "C take 9d with 9s 9h")]
    assert all(isinstance(a, Take) and state.can(a) for a in claims)
    return [a for a in claims if isinstance(a, Take)]


def test_resolve_claims_battle_next_priority() -> None:
    state = claim_state("battle-next-priority")
    state.apply(parse_action("A draw", state.names))
    state.apply(parse_action("A discard 9d", state.names))
    claims = claims_of(state)
    for seed in range(5):
        assert resolve_claims(state, claims, random.Random(seed)).player == 2
    b_take = Take(1, parse_card("9d"), tuple(parse_cards("9s 9h")))
    assert resolve_claims(state, [*claims, b_take], random.Random(0)).player == 1


def test_resolve_claims_battle_is_random_among_claimants() -> None:
    state = claim_state("battle")
    state.apply(parse_action("A draw", state.names))
    state.apply(parse_action("A discard 9d", state.names))
    claims = claims_of(state)
    winners = {resolve_claims(state, claims, random.Random(seed)).player for seed in range(40)}
    assert winners == {2, 3}
    assert resolve_claims(state, claims[:1], random.Random(0)) == claims[0]


def test_resolve_claims_needs_claims() -> None:
    with pytest.raises(ValueError):
        resolve_claims(claim_state("battle"), [], random.Random(0))


class Scripted:
    """Plays the wanted actions when they are legal, otherwise like the greedy bot."""

    def __init__(self, *wanted: str) -> None:
        self.wanted = list(wanted)
        self.greedy = GreedyBot(seed=0)
        self.asked: list[int] = []

    def act(self, view: View) -> Action | None:
        self.asked.append(len(view.history))
        for a in view.legal:
            text = format_for(view, a)
            if text in self.wanted:
                self.wanted.remove(text)
                return a
        if any(isinstance(a, Take) for a in view.legal) and view.can_pass:
            return None
        return self.greedy.act(view)


def format_for(view: View, action: Action) -> str:
    return format_action(action, view.names)


def scripted_players() -> list[Scripted]:
    return [Scripted("A discard 9d"), Scripted(), Scripted("C take 9d with 9s 9h"),
            Scripted("D take 9d with 8d Td")]


@pytest.mark.parametrize(("claims", "taker"), [("battle-next-priority", 2),
                                               ("next-only", None)])
def test_play_deal_settles_contested_claims(claims: str, taker: int | None) -> None:
    state = claim_state(claims)
    players = scripted_players()
    play_deal(state, players, random.Random(0))
    third = state.history[2]
    if taker is None:
        # only B, the next player, may act: B draws, and C and D were not asked in the window
        assert isinstance(third, Draw) and third.player == 1
        assert min(players[2].asked) >= 3
        assert min(players[3].asked) >= 3
        assert "C take 9d with 9s 9h" in players[2].wanted
    else:
        assert isinstance(third, Take)
        assert third.player == taker
        assert state.history[3].player == taker   # the taker plays on
        assert third.with_cards == tuple(parse_cards("9s 9h"))
    assert state.is_over


def test_play_deal_battle_claims_go_to_either_claimant() -> None:
    takers = set()
    for seed in range(12):
        state = claim_state("battle")
        play_deal(state, scripted_players(), random.Random(seed))
        third = state.history[2]
        assert isinstance(third, Take)
        takers.add(third.player)
        assert state.is_over
    assert takers == {2, 3}

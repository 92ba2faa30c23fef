"""Matches, resuming from records, the named check/ask/do trios, and determinized deals."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from hoola.bots import RandomBot
from hoola.core.driver import play_deal
from hoola.core.game import GameState
from hoola.games.hoola import DealState, HoolaError, Match, Rules
from hoola.games.hoola.determinize import determinize, unseen_cards
from hoola.games.hoola.greedy import GreedyBot
from hoola.games.hoola.match import next_dealer, next_stake
from hoola.games.hoola.records import dumps, loads, record_of, resume_match, verify


def play_match(rules: Rules, deals: int, seed: int) -> Match:
    match = Match(rules, ["A", "B", "C"], seed=seed)
    for _ in range(deals):
        state = match.new_deal()
        play_deal(state, [GreedyBot(1), RandomBot(2), GreedyBot(3)], rng=random.Random(seed))
        match.finish_deal()
    return match


def test_match_totals_are_the_sum_of_the_deals_and_the_winner_deals_next() -> None:
    match = play_match(Rules.preset("pagat"), 6, seed=4)
    assert sum(match.totals.values()) == 0
    for q in range(3):
        assert match.totals[q] == sum(s.returns()[q] for s in match.deals)
    for before, after in zip(match.deals, match.deals[1:], strict=False):
        assert before.result is not None
        assert after.dealer in before.result.winners


def test_match_record_verifies_with_its_totals() -> None:
    match = play_match(Rules.preset("classic", hoola_doubles_next=True), 5, seed=9)
    record = record_of(match.deals, totals=match.totals)
    text = dumps(record)
    assert dumps(loads(text)) == text
    assert verify(loads(text)).ok
    wrong = loads(text)
    assert wrong.totals is not None
    wrong.totals["A"] += 1
    assert not verify(wrong).ok


def test_new_deal_refuses_while_a_deal_is_unfinished() -> None:
    match = Match(Rules.preset("pagat"), ["A", "B"], seed=1)
    match.new_deal()
    with pytest.raises(ValueError):
        match.new_deal()


def test_match_counts_each_deal_once_and_refuses_bad_arguments() -> None:
    match = Match(Rules.preset("pagat"), ["A", "B"], seed=1)
    with pytest.raises(HoolaError) as info:
        match.finish_deal()  # used to raise IndexError
    assert info.value.code == "no-deal"
    state = match.new_deal()
    play_deal(state, [RandomBot(1)] * 2, rng=random.Random(1))
    match.finish_deal()
    totals = dict(match.totals)
    with pytest.raises(HoolaError) as info:
        match.finish_deal()  # used to add the payments twice
    assert info.value.code == "deal-counted" and match.totals == totals
    for call in (next_dealer, next_stake):
        with pytest.raises(HoolaError):
            call(None)  # type: ignore[arg-type]
    for names, seed in [(["A", "A"], 1), ("AB", 1), (["A", "B"], "x")]:
        with pytest.raises(HoolaError):
            Match(Rules.preset("pagat"), names, seed=seed)  # type: ignore[arg-type]


def test_resume_match_continues_an_unfinished_deal() -> None:
    match = play_match(Rules.preset("pagat"), 2, seed=3)
    unfinished = match.new_deal()
    for _ in range(5):
        unfinished.apply(unfinished.legal_actions(unfinished.current)[-1])
    record = loads(dumps(record_of(match.deals)))
    resumed = resume_match(record, seed=1)
    assert [s.is_over for s in resumed.deals] == [True, True, False]
    assert resumed.totals == match.totals
    last = resumed.deals[-1]
    assert last.hand(0) == unfinished.hand(0) and last.history == unfinished.history
    play_deal(last, [RandomBot(1)] * 3, rng=random.Random(1))
    resumed.finish_deal()
    assert sum(resumed.totals.values()) == 0


def test_verbs_agree_with_the_generic_check() -> None:
    state = DealState.new(Rules.preset("pagat"), 4, seed=8)
    assert state.can_draw(0) and not state.can_draw(1)
    with pytest.raises(HoolaError) as info:
        state.verify_discard(0, state.hand(0)[0])
    assert info.value.code == "must-draw-first"
    drawn = state.draw(0)
    assert drawn.card is not None and drawn.card in state.hand(0)
    card = state.hand(0)[0]
    assert state.can_discard(0, card)
    state.discard(0, card)
    assert state.discards[-1] == card and state.current == 1


def test_deal_state_is_a_game_state() -> None:
    state = DealState.new(Rules.preset("pagat"), 3, seed=2)
    assert isinstance(state, GameState)
    assert state.returns() == [Fraction(0)] * 3


def test_determinized_deals_agree_with_the_view_and_play_on() -> None:
    rules = Rules.preset("online", jokers=2)
    rng = random.Random(5)
    for seed in range(25):
        state = DealState.new(rules, 5, seed=seed)
        for _ in range(rng.randrange(0, 40)):
            if state.is_over:
                break
            p = rng.choice(sorted(state.actors()))
            state.apply(rng.choice(state.legal_actions(p)))
        if state.is_over:
            continue
        p = rng.choice(sorted(state.actors()))
        view = state.view(p)
        hidden = sorted(c for q in range(5) if q != p for c in state.hand(q)) + \
            sorted(state.stock)
        assert sorted(unseen_cards(view)) == sorted(hidden)
        guess = determinize(view, random.Random(seed))
        assert guess.view(p) == view
        assert guess.legal_actions(p) == state.legal_actions(p)
        play_deal(guess, [RandomBot(1)] * 5, rng=random.Random(2))
        assert guess.result is not None and sum(guess.returns()) == 0

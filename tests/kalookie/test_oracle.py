"""Exactness of the fast listing: the engine against its frozen reference (``oracle_*.py``).

The reference is a copy of the solver, the candidate lays, the melds, the turn and the state as
they were before the engine's speed work. At every position of random games (every preset, every
player count it allows) the engine must list the same legal actions as the reference and answer
``verify()`` (the same error code and message) and ``can()`` alike for the listed actions and
for probes that are mostly illegal: every meld of the hand with up to three jokers, every card
and joker on every meld, every release, every discard. The turn search is also compared alone,
on hands drawn to hold many melds, with goals of every kind.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hoola.core.cards import make_card
from hoola.core.errors import HoolaError
from hoola.games.kalookie import Add, DealState, Discard, Draw, NewMeld, Swap, Take
from hoola.games.kalookie.cards import JOKER, hand_code, named_joker
from hoola.games.kalookie.melds import Meld, find_melds, new_meld
from hoola.games.kalookie.rules import PRESETS, Rules
from hoola.games.kalookie.solver import (
    Goal,
    Slot,
    _cannot_lay,
    _lay_bound,
    can_finish,
    meld_bound,
)

from . import oracle_legal, oracle_melds, oracle_solver, oracle_state, oracle_turns

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CASES = [(preset, n) for preset in PRESETS for n in Rules.preset(preset).player_counts]


def reference(state: DealState) -> oracle_state.DealState:
    """The reference engine at the same position as ``state``."""
    ref = oracle_state.DealState.__new__(oracle_state.DealState)
    for name in oracle_state.DealState.FIELDS:
        value = getattr(state, name)
        setattr(ref, name, value.copy() if isinstance(value, list | dict) else value)
    ref.hands = [h.copy() for h in state.hands]
    ref.melds = tuple(reference_meld(m) for m in state.melds)
    ref.turn = oracle_turns.Turn(*state.turn)
    ref.rng = random.Random()
    ref.rng.setstate(state.rng.getstate())
    ref._cache, ref._plans = {}, {}
    return ref


def reference_meld(m: Meld) -> oracle_melds.Meld:
    return oracle_melds.Meld(m.id, m.owner, m.kind, m.tokens, m.rank, m.suit, m.low, m.identical)


def answer(state: Any, action: Any) -> tuple[Any, ...]:
    """What ``verify`` and ``can`` say of ``action``: None or the error's type, code, message."""
    try:
        state.verify(action)
    except HoolaError as exc:
        said: tuple[Any, ...] = (type(exc).__name__, exc.code, str(exc))
    else:
        said = ()
    return said, state.can(action)


def probes(ref: oracle_state.DealState, p: int) -> list[Any]:
    """Actions worth asking about at this position, legal or not."""
    hand, rules = ref.hands[p], ref.rules
    jokers = hand[JOKER] + ref.turn.loose
    out: list[Any] = [Draw(p), Take(p)]
    out += [NewMeld(p, t) for t in oracle_melds.find_melds(hand, jokers, rules, 3)]
    for m in ref.melds:
        for c in range(52):
            if hand[c]:
                out.append(Add(p, c, m.id))
                out.append(Swap(p, (c,), m.id))
        out += [Add(p, JOKER, m.id)] + [Add(p, named_joker(make_card(r, m.suit)), m.id)
                                        for r in range(13) if m.kind == "run"]
        if m.jokers:
            out += [Swap(p, cards, m.id) for cards in oracle_legal.swap_cards(m, hand, rules)]
    out += [Discard(p, c) for c in range(JOKER + 1) if hand[c]]
    return out


def compare(state: DealState, *, probe: bool) -> None:
    """The engine and the reference agree at this position."""
    ref = reference(state)
    for p in range(state.n):
        ours, theirs = state.legal_actions(p), ref.legal_actions(p)
        assert Counter(ours) == Counter(theirs), (state.rules.preset_name, p, state.history)
        if probe and p in state.actors():
            for a in [*theirs, *probes(ref, p)]:
                assert answer(state, a) == answer(ref, a), (a, state.history)


def play_compared(preset: str, players: int, seed: int, *, lays: float,
                  probe_every: int = 1) -> int:
    """Play one random hand, comparing with the reference at every decision; its length."""
    rng = random.Random(seed)
    state = DealState.new(Rules.preset(preset), players, seed=seed)
    step = 0
    while not state.is_over:
        compare(state, probe=step % probe_every == 0)
        seat = rng.choice(sorted(state.actors()))
        legal = state.legal_actions(seat)
        laid = [a for a in legal if isinstance(a, NewMeld | Add | Swap)]
        state.apply(rng.choice(laid if laid and rng.random() < lays else legal))
        step += 1
    return step


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_random_hands_match_the_reference(preset: str, players: int) -> None:
    """Whole hands, uniform and lay-biased, every position compared and probed."""
    for seed in range(2):
        play_compared(preset, players, seed, lays=0.0, probe_every=3)
        play_compared(preset, players, 100 + seed, lays=0.85)


@FAST
@given(st.sampled_from(CASES), st.integers(0, 2**32), st.sampled_from([0.0, 0.5, 0.9]))
def test_hypothesis_hands_match_the_reference(case: tuple[str, int], seed: int,
                                              lays: float) -> None:
    play_compared(*case, seed, lays=lays, probe_every=4)


# -- the turn search alone ---------------------------------------------------------------------

@st.composite
def searches(draw: st.DrawFn) -> tuple[Rules, list[int], int, Goal, list[Meld]]:
    """A hand rich in melds (a few ranks and suits), jokers, a table and a goal of any kind."""
    rules = Rules.preset(draw(st.sampled_from(list(PRESETS))))
    ranks = draw(st.lists(st.integers(0, 12), min_size=2, max_size=6, unique=True))
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True))
    pool = [make_card(r, s) for r in ranks for s in suits]
    cards = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=15))
    counts = [0] * 52
    for c in cards:
        counts[c] = min(counts[c] + 1, 2)
    jokers = draw(st.integers(0, 4))
    table: list[Meld] = []
    for i, tokens in enumerate(draw(st.lists(st.sampled_from(TABLE), max_size=4))):
        table.append(new_meld(tokens, rules, owner=0, meld_id=i + 1))
    need = draw(st.sampled_from([0, 0, 5, 15, 25, 40, 51, 70]))
    min_left = draw(st.integers(1, 2))
    if draw(st.booleans()):  # points and cards kept only: the initial meld, ruling 9
        return rules, counts, jokers, Goal(need=need, min_left=min_left), table
    loose = draw(st.integers(0, min(jokers, 2)))
    must_lay = draw(st.one_of(st.none(), st.sampled_from([*cards, JOKER])))
    exact = draw(st.booleans())
    goal = Goal(need=need, builds_count=draw(st.booleans()), made=draw(st.booleans()),
                need_meld=draw(st.booleans()), must_lay=must_lay, loose=loose,
                min_left=min_left, exact_left=1 if exact else None, builds=not exact)
    return rules, counts, jokers, goal, table


TABLE = [(1, 2, 3), (14, 15, 16), (0, 13, 26), (4, 17, JOKER), (8, 9, 10, 11),
         (5, named_joker(6), 7), (20, 21, 22), (40, 41, named_joker(42)), (3, JOKER, JOKER),
         (named_joker(46), 47, 48, 49)]


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(searches(), st.integers(0, 2), st.integers(0, 2), st.integers(0, 2))
def test_turn_search_matches_the_reference(case: Any, low: int, high: int, total: int) -> None:
    rules, counts, jokers, goal, table = case
    caps = (low, high, 99 if total == 2 else total + 1)
    slots = [Slot(m, *caps) if m.kind == "run" else Slot(m) for m in table]
    ref_slots = [oracle_solver.Slot(reference_meld(s.meld), s.low_cap, s.high_cap, s.total_cap)
                 for s in slots]
    # Several points owed on the same hand and table: the searches share what they learn.
    for need in dict.fromkeys([goal.need, goal.need + 7, max(goal.need - 9, 0), goal.need]):
        goal = replace(goal, need=need)
        ref_goal = oracle_solver.Goal(goal.need, goal.builds_count, goal.made, goal.need_meld,
                                      goal.must_lay, goal.loose, goal.min_left, goal.exact_left,
                                      goal.builds)
        assert can_finish(goal, counts, jokers, slots, rules) == \
            oracle_solver.can_finish(ref_goal, counts, jokers, ref_slots, rules), goal


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(searches(), st.integers(1, 2), st.booleans())
def test_lay_bound_is_never_beaten(case: Any, min_left: int, limited: bool) -> None:
    """No way of laying new melds and builds on the table makes more than the bound that rules
    out searches counting builds (the reference's word)."""
    rules, counts, jokers, _, table = case
    caps = (1, 1, 2) if limited else (99, 99, 99)
    slots = [Slot(m, *caps) if m.kind == "run" else Slot(m) for m in table]
    need = _lay_bound(hand_code(counts), jokers, slots, rules) + 1
    ref_slots = [oracle_solver.Slot(reference_meld(s.meld), s.low_cap, s.high_cap, s.total_cap)
                 for s in slots]
    goal = oracle_solver.Goal(need=need, builds_count=True, min_left=min_left)
    assert not oracle_solver.can_finish(goal, counts, jokers, ref_slots, rules)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(searches())
def test_a_card_said_unplayable_cannot_be_laid(case: Any) -> None:
    """A taken card ruled out before any search (no meld of the hand, no build) is one the
    reference cannot lay either."""
    rules, counts, jokers, _, table = case
    slots = [Slot(m) for m in table]
    ref_slots = [oracle_solver.Slot(reference_meld(m)) for m in table]
    for card in range(52):
        if counts[card] and _cannot_lay(card, hand_code(counts), jokers, slots, rules):
            goal = oracle_solver.Goal(must_lay=card)
            assert not oracle_solver.can_finish(goal, counts, jokers, ref_slots, rules), card


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(searches())
def test_find_melds_matches_the_reference(case: Any) -> None:
    """The melds found in a hand, in the reference's order, for every number of jokers."""
    rules, counts, _, _, _ = case
    for jokers in range(5):
        assert find_melds(counts, jokers, rules) == \
            list(oracle_melds.find_melds(counts, jokers, rules))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(searches(), st.integers(1, 2))
def test_meld_bound_is_never_beaten(case: Any, min_left: int) -> None:
    """No way of laying new melds makes more than :func:`meld_bound` says (the reference's word)."""
    rules, counts, jokers, _, _ = case
    need = meld_bound(counts, jokers, rules) + 1
    assert not oracle_solver.can_finish(oracle_solver.Goal(need=need, min_left=min_left),
                                        counts, jokers, [], rules)

"""Invariants over random games (Hypothesis): conservation, zero-sum, legality, no leaks."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hoola import (
    JOKER,
    Action,
    Add,
    Blast,
    DealState,
    Discard,
    Draw,
    Drop,
    HoolaError,
    Knock,
    NewMeld,
    Play,
    Rules,
    Sevens,
    Take,
)
from hoola.determinize import determinize
from hoola.records import dumps, loads, record_of, verify

PRESETS = ["pagat", "classic", "rummy-rulebook", "online", "two-player", "old", "hertzog",
           "glenn", "court-ten", "winjoy"]

games = st.fixed_dictionaries({
    "seed": st.integers(0, 2**32),
    "players": st.integers(2, 7),
    "preset": st.sampled_from(PRESETS),
    "jokers": st.sampled_from([0, 0, 1, 2]),
    "claims": st.sampled_from(["battle", "battle-next-priority", "next-only"]),
})


def make_state(game: dict[str, Any]) -> DealState:
    rules = Rules.preset(game["preset"], jokers=game["jokers"], claims=game["claims"])
    return DealState.new(rules, game["players"], seed=game["seed"])


def snapshot(s: DealState) -> tuple[Any, ...]:
    return (tuple(s.hands), tuple(s.jokers), tuple(s.stock), tuple(s.discards), tuple(s.table),
            tuple(s.history), s.current, s.drawn, s.claimable, s.phase, tuple(s.in_deal),
            tuple(s.melded), tuple(s.had_turn), s.actors())


def card_count(s: DealState) -> int:
    in_hands = sum(h.bit_count() for h in s.hands) + sum(s.jokers)
    on_table = sum(len(m.cards) for m in s.table)
    return in_hands + on_table + len(s.stock) + len(s.discards)


def random_action(rng: random.Random, s: DealState) -> Action:
    """An arbitrary action, most often illegal: any verb, any player, any cards."""
    p = rng.randrange(-1, s.n + 1)
    card = rng.choice([*range(52), JOKER, 99])
    cards = tuple(rng.choice([*range(52), JOKER]) for _ in range(rng.randrange(0, 5)))
    kind = rng.randrange(11)
    options: list[Action] = [
        Draw(p), Take(p, card, cards[:2], rng.choice([None, card])),
        Take(p, card, purpose=rng.choice(["blast", "sevens"])), NewMeld(p, cards),
        Add(p, card, on=rng.choice(cards) if cards else None, meld_id=rng.choice([None, 1, 3])),
        Discard(p, card), Knock(p), Blast(p), Sevens(p), Play(p), Drop(p),
    ]
    return options[kind]


def play_randomly(s: DealState, rng: random.Random, check_illegal: bool = True) -> None:
    total = card_count(s)
    steps = 0
    while not s.is_over:
        steps += 1
        assert steps < 2000, "the deal does not end"
        actors = sorted(s.actors())
        assert actors, "nobody may act in an unfinished deal"
        for p in range(s.n):
            legal = s.legal_actions(p)
            assert bool(legal) == (p in actors)
            for a in legal:
                assert s.can(a), f"listed but refused: {s.format(a)}"
        if check_illegal:
            for _ in range(3):
                bad = random_action(rng, s)
                if s.can(bad):
                    continue
                before = snapshot(s)
                try:
                    s.apply(bad)
                except HoolaError as exc:
                    assert exc.code and exc.message
                else:
                    raise AssertionError(f"can() said no but apply accepted {bad!r}")
                assert snapshot(s) == before
        p = rng.choice(actors)
        s.apply(rng.choice(s.legal_actions(p)))
        assert card_count(s) == total
        for q in range(s.n):
            assert_view_hides(s, q)
    assert s.result is not None
    assert sum(s.result.payments.values()) == 0


def assert_view_hides(s: DealState, q: int) -> None:
    """The view is the same whatever the hidden cards are, and shows only public cards."""
    v = s.view(q)
    assert v.hand == s.hand(q)
    if not s.is_over:
        assert v.hands is None
        # Re-deal every card q cannot see: q's view must not change at all.
        other = determinize(v, random.Random(len(s.history)))
        assert other.view(q) == v
    for a in v.history:
        if isinstance(a, Draw):
            assert a.card is None
    mine = set(v.hand)
    public = {c for m in v.table for c in m.cards} | set(v.discards)
    for a in v.legal:
        for c in getattr(a, "with_cards", ()) or getattr(a, "cards", ()):
            assert c in mine or c in public


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_random_games_keep_every_invariant(game: dict[str, Any]) -> None:
    s = make_state(game)
    play_randomly(s, random.Random(game["seed"]))


@settings(max_examples=150, deadline=None)
@given(games)
def test_records_of_random_games_round_trip_and_verify(game: dict[str, Any]) -> None:
    s = make_state(game)
    play_randomly(s, random.Random(game["seed"] + 1), check_illegal=False)
    text = dumps(record_of([s]))
    assert dumps(loads(text)) == text
    verdict = verify(loads(text))
    assert verdict.ok, verdict.problems


@settings(max_examples=30, deadline=None)
@given(games)
def test_copy_is_independent(game: dict[str, Any]) -> None:
    s = make_state(game)
    rng = random.Random(game["seed"])
    for _ in range(rng.randrange(0, 30)):
        if s.is_over:
            break
        p = rng.choice(sorted(s.actors()))
        s.apply(rng.choice(s.legal_actions(p)))
    before = snapshot(s)
    c = s.copy()
    if not c.is_over:
        p = rng.choice(sorted(c.actors()))
        c.apply(rng.choice(c.legal_actions(p)))
    assert snapshot(s) == before

"""Invariants over random Kalookie games (Hypothesis), played through the core's driver.

Cards are conserved, payments and the pool sum to zero, every listed action applies, a refused
action changes nothing, a played game's record round-trips and verifies, and no view shows a card
its player may not see.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hoola.core.driver import play_deal
from hoola.core.errors import HoolaError
from hoola.games.kalookie import GAME, Add, DealState, Discard, Draw, NewMeld, Swap, Take, View
from hoola.games.kalookie.cards import JOKER, NAMED
from hoola.games.kalookie.determinize import determinize
from hoola.games.kalookie.records import dumps, loads, record_of, verify
from hoola.games.kalookie.rules import PRESETS, Rules

EXAMPLES = settings(max_examples=8, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


class Biased:
    """A random player that prefers laying cards, so that hands reach their end."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> Any:
        legal = list(view.legal)
        if view.can_pass and self.rng.random() < 0.3:
            return None
        lays = [a for a in legal if isinstance(a, NewMeld | Add | Swap)]
        if lays and self.rng.random() < 0.85:
            return self.rng.choice(lays)
        return self.rng.choice(legal) if legal else None


def card_count(s: DealState) -> int:
    return sum(s.sizes) + sum(len(m.tokens) for m in s.melds) + len(s.stock) \
        + len(s.discards) + s.turn.loose


def snapshot(s: DealState) -> tuple[Any, ...]:
    return (tuple(tuple(h) for h in s.hands), tuple(s.sizes), tuple(s.stock), tuple(s.discards),
            tuple(s.melds), len(s.history), s.current, s.drawn, s.turn, s.phase, s.warner,
            s.barred, s.swap_window, tuple(s.opened), s.actors())


def junk(rng: random.Random, s: DealState, p: int) -> list[Any]:
    """Actions that are mostly illegal: wrong cards, wrong melds, wrong seats, garbage."""
    card = rng.randrange(52)
    target = rng.randrange(1, s.next_id + 2)
    return [
        Discard(p, card), Draw(rng.randrange(s.n)), Take(p, card),
        NewMeld(p, (card, (card + 1) % 52, JOKER)), NewMeld(p, (card, NAMED + card, card)),
        Add(p, rng.choice([card, JOKER, NAMED + card]), meld_id=target),
        Swap(p, (card,), meld_id=target), Discard(p, None), NewMeld(True, ()),  # type: ignore
        Add(p, card), "B draw", None,
    ]


def check_step(state: DealState, rng: random.Random, total: int) -> None:
    assert card_count(state) == total
    for p in state.actors():
        legal = state.legal_actions(p)
        for a in rng.sample(legal, min(3, len(legal))):
            assert state.can(a), a
        for a in junk(rng, state, p):
            if state.can(a):
                continue
            before = snapshot(state)
            try:
                state.apply(a)
            except HoolaError as exc:
                assert exc.code not in ("hoola-error", "illegal-action"), exc
                assert exc.message.count(".") <= 1
            else:  # pragma: no cover - can() said no
                raise AssertionError(f"{a!r} was applied although can() refused it")
            assert snapshot(state) == before


def no_leak(state: DealState, rng: random.Random) -> None:
    """A view is the same whatever the hidden cards are (before the showdown)."""
    if state.result is not None:
        return
    for p in range(state.n):
        if not state.standing.active[p]:
            continue
        view = state.view(p)
        other = determinize(view, rng)
        assert other.view(p).to_json() == view.to_json()
        if view.hands is None:
            text = repr(view.to_json())
            assert all(a.card is None for a in view.history if isinstance(a, Draw))
            assert "hands': None" in text


games = st.fixed_dictionaries({
    "seed": st.integers(0, 2**32),
    "preset": st.sampled_from(sorted(PRESETS)),
    "players": st.integers(2, 5),
    "warnings": st.sampled_from(["auto", "manual"]),
    "reshuffle": st.sampled_from(["once", "never"]),
})


@EXAMPLES
@given(games)
def test_random_matches_keep_every_invariant(game: dict[str, Any]) -> None:
    rules = Rules.preset(game["preset"], warnings=game["warnings"], reshuffle=game["reshuffle"])
    n = min(game["players"], max(rules.player_counts))
    rng = random.Random(game["seed"])
    names = [f"P{i}" for i in range(n)]
    match = GAME.new_match(rules, names, seed=game["seed"])
    players = [Biased(game["seed"] + i) for i in range(n)]
    total = rules.pack_size
    for _ in range(3):
        if match.is_over:
            break
        state = match.new_deal()

        def on_action(s: Any, record: Any) -> None:
            check_step(s, rng, total)
            if rng.random() < 0.05:
                no_leak(s, rng)

        play_deal(state, players, on_action)
        assert sum(state.returns()) == 0
        match.finish_deal()
        if rules.scoring == "pool":
            assert sum(match.totals()) + (0 if match.is_over else match.pool) == 0
        else:
            assert sum(match.totals()) == 0
    record = record_of(match)
    text = dumps(record)
    assert loads(text) == record
    assert dumps(loads(text)) == text
    assert verify(loads(text)) == []


@EXAMPLES
@given(st.integers(0, 2**32), st.sampled_from(sorted(PRESETS)))
def test_every_listed_action_applies_and_views_hide_cards(seed: int, preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    state = GAME.new_deal(rules, ["A", "B", "C"], seed=seed)
    for _ in range(400):
        if state.is_over:
            break
        p = rng.choice(sorted(state.actors()))
        legal = state.legal_actions(p)
        for a in legal:
            copy = state.copy()
            copy.apply(a)
        lays = [a for a in legal if not isinstance(a, Discard | Draw | Take)]
        state.apply(rng.choice(lays if lays and rng.random() < 0.8 else legal))
        if rng.random() < 0.1:
            no_leak(state, rng)
    assert sum(state.returns()) == Fraction(0)

"""Invariants over random capture-game hands and matches (Hypothesis), every preset and player
count and a few options: every card is in exactly one place at every step, the points add up,
``legal_actions`` is the one truth (every listed action applies, anything else is refused with a
specific code and changes nothing), records round-trip, no view holds a hidden card, and a
determinized hand agrees with the view it came from.

The number of examples follows the project's profile (``HOOLA_HYPOTHESIS``, tests/conftest.py);
the heavier properties run a fraction of it.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hoola.core.cards import format_card
from hoola.core.errors import HoolaError
from hoola.core.records import verify_text
from hoola.games.capture import GAME, Dark, DealState, Match, Play, Rules, Say, Stop
from hoola.games.capture.determinize import determinize
from hoola.games.capture.rules import SIGNALS

NAMES = ["A", "B", "C", "D", "E", "F"]
CASES: list[tuple[str, int, dict[str, Any]]] = [
    *((p, n, {}) for p, ns in (("hola", (2, 4, 6)), ("sedma", (2, 3, 4)), ("sedmice", (2, 4)),
                              ("sedmice-croatian", (2, 4)), ("ristikontra", (2, 4)),
                              ("ristiklappi", (2, 4))) for n in ns),
    ("hola", 4, {"leader_may_continue": "always"}),
    ("hola", 4, {"fighting": False, "play_in_dark": True}),
    ("hola", 2, {"hand_size": 5, "wilds": "7", "play_in_dark": True}),
    ("hola", 6, {"hand_size": 5}),  # 104 - 30 = 74 in the stock: short draws
    ("sedma", 3, {"removed": "8s 8c", "leader_may_continue": "always"}),
    ("ristikontra", 4, {"lead_limit": 1}),
    ("ristiklappi", 2, {"lead_limit": 1, "hand_size": 2}),
    ("sedmice", 4, {"play_in_dark": True}),
]
CASE = st.sampled_from(CASES)
SEED = st.integers(0, 2**32 - 1)
GENERIC_CODES = ("illegal-action", "hoola-error")


def examples(share: int) -> settings:
    """The profile's number of examples divided by ``share`` (at least 10)."""
    profile = settings.default
    assert profile is not None  # loaded by tests/conftest.py before collection
    return settings(max_examples=max(10, profile.max_examples // share))


def new_hand(case: tuple[str, int, dict[str, Any]], seed: int) -> DealState:
    preset, n, options = case
    return GAME.new_deal(Rules.preset(preset, **options), NAMES[:n], seed=seed)


def choose(state: DealState, rng: random.Random) -> Any:
    """A random legal action; signals now and then, so that hands move on."""
    assert state.turn is not None
    legal = state.legal_actions(state.turn)
    plays = [a for a in legal if not isinstance(a, Say)]
    if len(plays) < len(legal) and rng.random() < 0.2:
        return rng.choice([a for a in legal if isinstance(a, Say)])
    return rng.choice(plays)


def places(s: DealState) -> Counter[int]:
    """Every card where it is now: hands, stock, set aside, trick, captured piles."""
    where: Counter[int] = Counter()
    for h in s.hands:
        where.update(h)
    where.update(s.stock)
    where.update(s.leftover)
    where.update(c for _, c, _ in s.trick)
    for pile in s.captured:
        where.update(pile)
    return where


def snapshot(s: DealState) -> tuple[Any, ...]:
    return (tuple(map(tuple, s.hands)), tuple(s.stock), tuple(s.leftover),
            tuple(map(tuple, s.captured)), tuple(s.tricks), tuple(s.history), tuple(s.darks),
            tuple(s.signals), s.signaled, tuple(s.leads), tuple(s.trick), tuple(s.taken),
            s.last_winner, s.leader, s.winner, s.led, tuple(s.queue), s.deciding, s.phase1,
            s.kings_played, tuple(s.dirty), tuple(s.cleaned), s.result)


def junk(s: DealState, rng: random.Random) -> list[Any]:
    """Actions that are mostly illegal: other seats, other cards, the wrong verb, garbage."""
    seat, card = rng.randrange(s.n), rng.randrange(52)
    return [Play(seat, card), Play(rng.randrange(s.n), card), Dark(seat), Stop(seat),
            Say(seat, rng.choice(SIGNALS)), Say(seat, "hello"), Play(seat, 52), Play(-1, card),
            Play(True, card), Play(seat, None), Stop(s.n), None, "B play As", 7,  # type: ignore
            object()]


def check_step(s: DealState, rng: random.Random, pack: Counter[int]) -> None:
    assert places(s) == pack
    assert s.turn is not None and s.actors() == frozenset({s.turn})
    legal = s.legal_actions(s.turn)
    assert legal and all(s.can(a) for a in legal)
    for a in rng.sample(legal, min(2, len(legal))):
        trial = s.copy()
        assert trial.apply(a) == a and trial.history[-1] == a
        assert places(trial) == pack
    # Every action the player to act could name: allowed exactly when listed.
    everything = [Play(s.turn, c) for c in range(52)] + [Dark(s.turn), Stop(s.turn)] + \
        [Say(s.turn, w) for w in SIGNALS]
    assert [a for a in everything if s.can(a)] == [a for a in everything if a in legal]
    for a in junk(s, rng):
        well_formed = isinstance(a, Play | Dark | Stop | Say)
        if well_formed and a in s.legal_actions(a.player):
            assert s.can(a)
            continue
        before = snapshot(s)
        assert not s.can(a), a
        try:
            s.apply(a)
        except HoolaError as exc:
            assert exc.code not in GENERIC_CODES and exc.message and "\n" not in exc.message
        else:
            raise AssertionError(f"{a!r} was accepted")
        assert snapshot(s) == before


def check_result(s: DealState) -> None:
    r, rules = s.result, s.rules
    assert r is not None and not s.leftover and all(not h for h in s.hands) and not s.stock
    card_points = [sum(rules.points_of(c) for c in pile) for pile in s.captured]
    total = sum(rules.points_of(c) for c in rules.pack())
    assert sum(card_points) == total
    doubled = card_points[r.hola] if r.hola is not None else 0
    assert sum(r.points) == total + rules.last_trick + doubled
    assert sum(r.tricks) == len(s.taken) and sum(map(len, s.taken)) <= len(rules.pack())
    assert r.last == s.last_winner
    if r.game_points is not None:
        assert sum(1 for g in r.game_points if g) <= 1 and all(g >= 0 for g in r.game_points)
    if r.clean is not None:
        assert r.outcome in ("win", "draw", "both-lose")
    assert all(x >= 0 for x in r.score)
    assert sum(s.returns()) == 0


@examples(2)
@given(CASE, SEED)
def test_random_hands_conserve_cards_and_refuse_what_is_not_listed(case: Any, seed: int) -> None:
    s = new_hand(case, seed)
    rng = random.Random(seed)
    pack = Counter(s.rules.pack())
    while not s.is_over:
        check_step(s, rng, pack)
        s.apply(choose(s, rng))
    assert places(s) == pack
    check_result(s)
    for a in junk(s, rng):
        assert not s.can(a)


CARD = re.compile(r"^(?:10|[A2-9TJQK])[shdc]$")


def card_words(data: Any) -> Counter[str]:
    """Every card named anywhere in JSON-ready data."""
    out: Counter[str] = Counter()
    if isinstance(data, dict):
        for k, v in data.items():
            out += card_words(k) + card_words(v)
    elif isinstance(data, list | tuple):
        for v in data:
            out += card_words(v)
    elif isinstance(data, str):
        out.update(w.strip("(),;:") for w in data.split() if CARD.match(w.strip("(),;:")))
    return out


def hidden_from(s: DealState, seat: int) -> list[int]:
    """The cards ``seat`` may not see: other hands (but a partner's the rules show), the stock
    and the cards set aside."""
    shown = {q for q, _ in s.view(seat).shown}
    cards = [c for q in range(s.n) if q != seat and q not in shown for c in s.hands[q]]
    return cards + list(s.stock) + list(s.leftover)


def rehide(s: DealState, rng: random.Random, seat: int) -> DealState:
    """``s`` with the cards ``seat`` may not see dealt again at random into the same places."""
    t = s.copy()
    hidden = hidden_from(s, seat)
    rng.shuffle(hidden)
    shown = {q for q, _ in s.view(seat).shown}
    at = 0
    for q in range(s.n):
        if q != seat and q not in shown:
            size = len(t.hands[q])
            t.hands[q] = hidden[at:at + size]
            at += size
    t.stock = hidden[at:at + len(s.stock)]
    t.leftover = hidden[at + len(s.stock):]
    return t


def public(s: DealState, seat: int) -> str:
    view = s.view(seat)
    return json.dumps([view.to_json(), view.table().to_json()], sort_keys=True, default=str)


@examples(4)
@given(CASE, SEED)
def test_views_hold_no_hidden_card(case: Any, seed: int) -> None:
    s = new_hand(case, seed)
    rng = random.Random(seed)
    single = s.rules.deck != 104
    while True:
        for seat in range(s.n):
            view = s.view(seat)
            data = [view.to_json(), view.table().to_json()]
            if single:  # each card once: no hidden card may be named at all
                named = card_words(data)
                assert not [format_card(c) for c in hidden_from(s, seat)
                            if named[format_card(c)]], (seat, data)
            # Dealing the hidden cards again changes nothing this seat is shown.
            assert public(rehide(s, rng, seat), seat) == public(s, seat)
            partners = [q for q in s.sides[s.side_of[seat]] if q != seat]
            if view.shown:
                assert s.rules.partner_sees_hand and not s.stock and partners
                assert dict(view.shown) == {q: tuple(s.hands[q]) for q in partners}
        if s.is_over:
            break
        s.apply(choose(s, rng))


@examples(3)
@given(CASE, SEED, st.integers(0, 200))
def test_determinize_agrees_with_the_view(case: Any, seed: int, stop: int) -> None:
    s = new_hand(case, seed)
    rng = random.Random(seed)
    for _ in range(stop):
        if s.is_over:
            break
        s.apply(choose(s, rng))
    for seat in range(s.n):
        view = s.view(seat)
        world = determinize(view, random.Random(seed + seat))
        assert set(world.__dict__) == set(s.__dict__)
        assert world.view(seat) == view
        assert [len(h) for h in world.hands] == [len(h) for h in s.hands]
        assert len(world.stock) == len(s.stock) and len(world.leftover) == len(s.leftover)
        assert places(world) == Counter(s.rules.pack())
        assert world.hands[seat] == s.hands[seat]
        while not world.is_over:  # the guessed world plays on to its end
            world.apply(choose(world, rng))
        check_result(world)


def play_match(case: tuple[str, int, dict[str, Any]], seed: int, hands: int,
               unfinished: int | None) -> Match:
    preset, n, options = case
    target = {"target": 40} if preset in ("hola", "sedmice") else {"target": 2}
    match = GAME.new_match(Rules.preset(preset, **{**target, **options}), NAMES[:n], seed=seed)
    rng = random.Random(seed)
    for i in range(hands):
        if match.is_over:
            break
        s = match.new_deal()
        steps = unfinished if i == hands - 1 and unfinished is not None else 10**6
        for _ in range(steps):
            if s.is_over:
                break
            s.apply(choose(s, rng))
        if not s.is_over:
            break
        match.finish_deal()
    return match


@examples(6)
@given(CASE, SEED, st.integers(1, 4), st.none() | st.integers(0, 60))
def test_records_of_random_matches_verify_and_resume(case: Any, seed: int, hands: int,
                                                     unfinished: int | None) -> None:
    match = play_match(case, seed, hands, unfinished)
    text = GAME.record_text(match, comment="a random game")
    verdict = verify_text(text)
    assert verdict.ok, verdict.problems
    again = GAME.resume(text)
    assert again.scores == match.scores and again.carry == match.carry
    assert again.dealer == match.dealer and again.winner == match.winner
    assert again.finished == match.finished and len(again.deals) == len(match.deals)
    last, resumed = match.deals[-1], again.deals[-1]
    assert snapshot(resumed) == snapshot(last)
    assert resumed.dealt == last.dealt and resumed.stock_dealt == last.stock_dealt
    assert GAME.record_text(again, comment="a random game") == text
    # The totals are the hands' scores and the 60-60 points carried into them.
    scored = sum(sum(d.result.score) for d in match.deals if d.result is not None)
    carried = sum(1 for d in match.deals if d.result is not None and d.result.carried)
    assert sum(match.scores) == scored + carried - match.carry

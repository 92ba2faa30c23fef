"""Invariants over random games (Hypothesis): conservation, zero-sum, legality, no leaks.

How many examples each test tries is the profile's (``HOOLA_HYPOTHESIS``, tests/conftest.py).
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from hoola.games.hoola import (
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
    Match,
    NewMeld,
    Play,
    Rules,
    Sevens,
    Take,
)
from hoola.games.hoola.deal import Deal
from hoola.games.hoola.determinize import determinize
from hoola.games.hoola.records import dumps, loads, record_of, verify
from hoola.games.hoola.rules import OPTION_DOCS, PRESETS, OptionDoc

games = st.fixed_dictionaries({
    "seed": st.integers(0, 2**32),
    "players": st.integers(2, 7),
    "preset": st.sampled_from(sorted(PRESETS)),  # every preset, new ones too
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
            for kind in (Draw, Knock, Blast, Sevens):  # and the other way: allowed, so listed
                assert (kind(p) in legal) == s.can(kind(p)), f"{kind.__name__} of seat {p}"
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
    public = {c for m in v.melds for c in m.cards} | set(v.discards)
    for a in v.legal:
        for c in getattr(a, "with_cards", ()) or getattr(a, "cards", ()):
            assert c in mine or c in public


@given(games)
def test_random_games_keep_every_invariant(game: dict[str, Any]) -> None:
    s = make_state(game)
    play_randomly(s, random.Random(game["seed"]))


@given(games)
def test_records_of_random_games_round_trip_and_verify(game: dict[str, Any]) -> None:
    s = make_state(game)
    play_randomly(s, random.Random(game["seed"] + 1), check_illegal=False)
    text = dumps(record_of([s]))
    assert dumps(loads(text)) == text
    verdict = verify(loads(text))
    assert verdict.ok, verdict.problems


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


# -- malformed input at every entry point -------------------------------------------------------

SOME_JUNK = st.one_of(st.text(max_size=3), st.floats(allow_nan=True), st.booleans(),
                      st.lists(st.integers(0, 3), max_size=2), st.tuples(st.integers(0, 3)))
NOT_A_WHOLE = st.one_of(st.none(), SOME_JUNK)  # neither an int nor a Fraction (bools are not)
NOT_A_LIST = st.one_of(st.none(), st.booleans(), st.floats(), st.text(max_size=3))
NOT_A_CARD = st.one_of(NOT_A_WHOLE, st.integers(max_value=-1), st.integers(min_value=JOKER + 1),
                       st.just(2**64))
NOT_A_NATURAL = st.one_of(NOT_A_CARD, st.just(JOKER))
CARDS = st.lists(st.integers(0, JOKER), max_size=5).map(tuple)


def not_a_seat(n: int) -> st.SearchStrategy[Any]:
    return st.one_of(NOT_A_WHOLE, st.integers(max_value=-1), st.integers(min_value=n),
                     st.just(2**64))


def not_cards(good_lengths: tuple[int, ...] = ()) -> st.SearchStrategy[Any]:
    """Never a list of cards an action could use: not a sequence, a non-card inside, or a length
    that no action of the kind accepts (``good_lengths`` are left out)."""
    wrong_length = st.lists(st.integers(0, JOKER), max_size=6).filter(
        lambda cards: len(cards) not in good_lengths).map(tuple)
    with_garbage = st.lists(st.one_of(NOT_A_CARD, st.integers(0, JOKER)), min_size=1,
                            max_size=4).filter(lambda cards: not all(
                                isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= JOKER
                                for c in cards))
    return st.one_of(st.none(), st.text(max_size=4), st.integers(), with_garbage.map(tuple),
                     with_garbage, wrong_length)


# For each action class: a strategy per field, the good values and the malformed ones.
def action_fields(cls: type[Action], n: int) -> dict[str, tuple[Any, Any]]:
    seat = (st.integers(0, n - 1), not_a_seat(n))
    card = (st.integers(0, JOKER), NOT_A_CARD)
    fields: dict[type[Action], dict[str, tuple[Any, Any]]] = {
        Draw: {"player": seat, "card": (st.none(), st.integers(0, JOKER))},
        Take: {"player": seat, "card": card, "with_cards": (CARDS, not_cards((1, 2, 3, 4, 5))),
               "joker_as": (st.none(), NOT_A_NATURAL),
               "purpose": (st.none(), st.text(max_size=6).filter(
                   lambda t: t not in ("blast", "sevens")))},
        NewMeld: {"player": seat, "cards": (CARDS, not_cards((1, 3, 4, 5))),
                  "joker_as": (st.none(), NOT_A_NATURAL)},
        Add: {"player": seat, "card": card, "on": (st.integers(0, JOKER - 1), NOT_A_NATURAL),
              "meld_id": (st.none(), st.one_of(NOT_A_WHOLE, st.integers(max_value=0))),
              "joker_as": (st.none(), NOT_A_NATURAL)},
        Discard: {"player": seat, "card": card},
    }
    return fields.get(cls, {"player": seat})


ACTION_CLASSES = [Draw, Take, NewMeld, Add, Discard, Knock, Blast, Sevens, Play, Drop]
VERBS = {Draw: "draw", Take: "take", NewMeld: "meld", Add: "add", Discard: "discard",
         Knock: "knock", Blast: "blast", Sevens: "sevens", Play: "play", Drop: "drop"}


def malformed_action(data: st.DataObject, n: int) -> tuple[Any, str]:
    """An action of any class with at least one field that no legal action could hold."""
    cls = data.draw(st.sampled_from(ACTION_CLASSES))
    fields = action_fields(cls, n)
    bad = data.draw(st.sampled_from(sorted(fields)))
    values = {name: data.draw(good if name != bad else garbage)
              for name, (good, garbage) in fields.items()}
    return cls(**values), bad


def advanced_state(data: st.DataObject) -> DealState:
    """A deal at a random point of random play."""
    s = make_state(data.draw(games))
    rng = random.Random(data.draw(st.integers(0, 2**16)))
    for _ in range(data.draw(st.integers(0, 60))):
        if s.is_over:
            break
        p = rng.choice(sorted(s.actors()))
        s.apply(rng.choice(s.legal_actions(p)))
    return s


def assert_refused(call: Any, *args: Any, **kwargs: Any) -> HoolaError:
    """``call`` must raise a HoolaError with a code and a one-sentence message."""
    try:
        call(*args, **kwargs)
    except HoolaError as exc:
        assert exc.code and exc.message and "\n" not in exc.message
        return exc
    raise AssertionError(f"{getattr(call, '__name__', call)}{args} was accepted")


@given(st.data())
def test_malformed_actions_are_refused_and_change_nothing(data: st.DataObject) -> None:
    s = advanced_state(data)
    before = (snapshot(s), s.rng.getstate(), s.result)
    for _ in range(5):
        action, bad = malformed_action(data, s.n)
        assert s.can(action) is False
        assert_refused(s.verify, action)
        assert_refused(s.apply, action)
        # The named verbs take the fields as arguments (a draw names no card).
        if not (type(action) is Draw and bad == "card"):
            name = VERBS[type(action)]
            args = [getattr(action, f) for f in action_fields(type(action), s.n)
                    if not (type(action) is Draw and f == "card")]
            assert getattr(s, f"can_{name}")(*args) is False
            assert_refused(getattr(s, f"verify_{name}"), *args)
            assert_refused(getattr(s, name), *args)
    not_an_action: Any = data.draw(st.one_of(NOT_A_WHOLE, st.builds(Action, st.integers(0, 3))))
    assert s.can(not_an_action) is False
    assert_refused(s.apply, not_an_action)
    seat = data.draw(not_a_seat(s.n))
    for method in (s.legal_actions, s.view, s.hand):
        assert_refused(method, seat)
    assert (snapshot(s), s.rng.getstate(), s.result) == before


@given(st.data())
def test_malformed_construction_is_refused(data: st.DataObject) -> None:
    rules = Rules.preset(data.draw(st.sampled_from(sorted(PRESETS))))
    n = data.draw(st.integers(2, 7))
    not_a_count = st.one_of(NOT_A_WHOLE, st.integers(max_value=1), st.integers(min_value=8))
    not_names = st.one_of(NOT_A_LIST,
                          st.lists(st.sampled_from(["A", "B", "A", "a b", "", "C\n"]),
                                   min_size=2, max_size=7).filter(
                              lambda names: len(set(names)) < len(names) or not all(
                                  name.isalnum() for name in names)),
                          st.lists(st.just("P"), min_size=8, max_size=9))
    deal = Deal.shuffled(rules, n, seed=data.draw(st.integers(0, 99)))
    names = [chr(ord("A") + i) for i in range(n)]
    good = {"players": n, "seed": 1, "dealer": 0, "stake": 1, "rng": None, "deal": None}
    bad = data.draw(st.sampled_from(sorted(good)))
    not_a_seed = SOME_JUNK
    garbage = {"players": st.one_of(not_a_count, not_names), "seed": not_a_seed,
               "dealer": not_a_seat(n), "stake": st.one_of(NOT_A_WHOLE, st.integers(max_value=0)),
               "rng": st.one_of(SOME_JUNK, st.integers(), st.just(random)),
               "deal": st.one_of(SOME_JUNK, st.integers(),
                                 st.just(Deal.shuffled(rules, 2 if n > 2 else 3, seed=1)))}
    kwargs = {**good, bad: data.draw(garbage[bad])}
    assert_refused(DealState.new, rules, kwargs.pop("players"), **kwargs)
    assert_refused(DealState, data.draw(NOT_A_WHOLE), names, deal)
    assert_refused(DealState, rules, data.draw(not_names), deal)
    assert_refused(Match, rules, data.draw(not_names))
    assert_refused(Match, rules, names, seed=data.draw(not_a_seed))
    assert_refused(Deal.shuffled, rules, data.draw(not_a_count))
    hands: Any = [list(h) for h in deal.hands]
    where = data.draw(st.sampled_from(["hands", "card", "upcard", "stock"]))
    upcard: Any = deal.upcard
    stock: Any = list(deal.stock)
    if where == "hands":
        hands = data.draw(st.one_of(NOT_A_WHOLE, st.just(hands[:1]), st.just(hands * 4)))
    elif where == "card":
        hands[0][0] = data.draw(st.one_of(NOT_A_CARD, st.just(hands[1][0])))
    elif where == "upcard":
        upcard = data.draw(st.one_of(NOT_A_CARD, st.just(hands[0][0])))
    else:
        stock = data.draw(st.one_of(st.none(), st.text(min_size=1, max_size=3),
                                    st.just([*stock, None]), st.just([upcard])))
    assert_refused(Deal.explicit, rules, hands, upcard, stock)
    assert_refused(Deal, hands, upcard, stock)
    assert_refused(rules.knock_limit_for, data.draw(not_a_count))
    assert_refused(rules.rank_value, data.draw(st.one_of(NOT_A_WHOLE, st.integers(max_value=-1),
                                                         st.integers(min_value=13))))


def not_an_option_value(doc: OptionDoc) -> st.SearchStrategy[Any]:
    """Values the option never takes, by its kind."""
    words = st.text(alphabet="xyz- ", max_size=6)
    if doc.kind == "choice":
        return st.one_of(NOT_A_WHOLE, words.filter(lambda w: w not in doc.choices))
    if doc.kind == "bool":
        return st.one_of(NOT_A_LIST.filter(lambda v: not isinstance(v, bool)), words,
                         st.integers(), st.lists(st.booleans(), max_size=2))
    if doc.kind == "whole":
        above = st.integers(min_value=doc.maximum + 1) if doc.maximum is not None else st.nothing()
        return st.one_of(st.none(), st.text(max_size=3), st.lists(st.integers(0, 3), max_size=2),
                         st.floats(allow_nan=True).filter(lambda v: not v.is_integer()),
                         st.booleans(), st.integers(max_value=doc.minimum - 1), above)
    if doc.kind == "number":
        return st.one_of(st.none(), st.booleans(), words, st.integers(max_value=-1),
                         st.floats(max_value=-0.001), st.just(float("nan")),
                         st.just(float("inf")), st.lists(st.integers(0, 3), max_size=2))
    return st.one_of(st.none(), st.booleans(), words, st.integers(max_value=-1),
                     st.floats(allow_nan=True).filter(lambda v: not v.is_integer() or v < 0),
                     st.dictionaries(st.one_of(st.integers(max_value=1), st.integers(min_value=8)),
                                     st.integers(0, 20), min_size=1, max_size=3),
                     st.dictionaries(st.integers(2, 7), st.integers(max_value=-1), min_size=1),
                     st.just({}), st.lists(st.integers(0, 20), max_size=3))


@given(st.data())
def test_malformed_rules_are_refused(data: st.DataObject) -> None:
    preset = data.draw(st.sampled_from(sorted(PRESETS)))
    doc = data.draw(st.sampled_from(list(OPTION_DOCS.values())))
    value = data.draw(not_an_option_value(doc))
    error = assert_refused(Rules.preset, preset, **{doc.key: value})
    assert error.code == "bad-option-value" and doc.key in error.message
    assert_refused(Rules.from_options, preset, {doc.key: value})
    assert_refused(Rules.preset(preset).replace, **{doc.key: value})
    assert_refused(Rules.preset, data.draw(st.one_of(  # a short text may be a preset ("old")
        NOT_A_WHOLE, st.text(max_size=4)).filter(lambda name: not isinstance(name, str)
                                                  or name not in PRESETS)))
    assert_refused(Rules.from_options, preset, data.draw(NOT_A_WHOLE.filter(
        lambda v: not isinstance(v, dict))))

"""Unit tests for hoola.games.hoola.melds: new melds, additions, the finders (against brute
force), units."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from hoola.core.cards import JOKER, card_mask, format_cards, parse_card, parse_cards
from hoola.core.errors import IllegalActionError
from hoola.games.hoola.melds import (
    Meld,
    MeldKind,
    count_units,
    extend_meld,
    find_adds,
    find_melds,
    find_takes,
    is_killed,
    may_take,
    new_meld,
)
from hoola.games.hoola.rules import Rules

PAGAT = Rules.preset("pagat")
NO_WRAP = Rules.preset("pagat", wrap_runs=False)
GLENN = Rules.preset("glenn")
SEVEN_SETS = Rules.preset("pagat", seven_set_extend=True)
JOKERS = Rules.preset("pagat", jokers=2)


def meld(text: str, rules: Rules = PAGAT, joker_as: str | None = None, meld_id: int = 1) -> Meld:
    return new_meld(parse_cards(text), None if joker_as is None else parse_card(joker_as), rules,
                    owner=0, meld_id=meld_id)


def refused(text: str, rules: Rules = PAGAT, joker_as: str | None = None) -> str:
    with pytest.raises(IllegalActionError) as info:
        meld(text, rules, joker_as)
    return info.value.code


def add(m: Meld, card: str, rules: Rules = PAGAT, joker_as: str | None = None) -> Meld:
    return extend_meld(m, parse_card(card), None if joker_as is None else parse_card(joker_as),
                       rules)


def add_refused(m: Meld, card: str, rules: Rules = PAGAT, joker_as: str | None = None) -> str:
    with pytest.raises(IllegalActionError) as info:
        add(m, card, rules, joker_as)
    return info.value.code


# -- new melds ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["9s 9h 9d", "9d 9s 9h", "Ks Kh Kd Kc", "As Ad Ac"])
def test_sets_of_three_and_four(text: str) -> None:
    m = meld(text)
    assert m.kind == MeldKind.SET
    assert m.rank == parse_card(text.split()[0]) % 13
    assert sorted(m.cards) == sorted(parse_cards(text))
    assert m.cards == tuple(sorted(m.cards))  # laid in canonical order
    assert m.faces == m.cards
    assert (m.owner, m.id) == (0, 1)


@pytest.mark.parametrize(("text", "start", "laid"), [
    ("3c 4c 5c", 2, "3c 4c 5c"),
    ("5c 3c 4c", 2, "3c 4c 5c"),
    ("7h 8h 9h Th", 6, "7h 8h 9h Th"),
    ("As 2s 3s", 0, "As 2s 3s"),
    ("Js Qs Ks", 10, "Js Qs Ks"),
    ("Qd Kd Ad", 11, "Qd Kd Ad"),
    ("2c Ac Kc", 12, "Kc Ac 2c"),
    ("Qc Kc Ac 2c 3c", 11, "Qc Kc Ac 2c 3c"),
])
def test_runs_with_wrapping(text: str, start: int, laid: str) -> None:
    m = meld(text)
    assert m.kind == MeldKind.RUN
    assert m.start == start
    assert format_cards(m.cards) == laid
    assert m.suit == parse_card(laid.split()[0]) // 13


def test_runs_without_wrapping() -> None:
    assert refused("Kc Ac 2c", NO_WRAP) == "not-a-run"
    assert refused("Qc Kc Ac 2c", NO_WRAP) == "not-a-run"
    qka = meld("Qc Kc Ac", NO_WRAP)
    assert format_cards(qka.cards) == "Qc Kc Ac"
    assert qka.start == 11
    a23 = meld("3c Ac 2c", NO_WRAP)
    assert format_cards(a23.cards) == "Ac 2c 3c"
    assert a23.start == 0


def test_whole_suit_run() -> None:
    text = "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"
    for rules in (PAGAT, NO_WRAP):
        m = meld(text, rules)
        assert m.kind == MeldKind.RUN and len(m.cards) == 13
        assert add_refused(m, "JK", Rules.preset("pagat", jokers=1), "Ah") == "does-not-fit"


def test_lone_seven() -> None:
    m = meld("7d")
    assert m.kind == MeldKind.SEVEN
    assert m.cards == (parse_card("7d"),)
    assert m.suit == 2


@pytest.mark.parametrize("text", ["8d", "As", "Kc"])
def test_lone_non_seven_refused(text: str) -> None:
    assert refused(text) == "meld-too-short"


def test_sevens_sets() -> None:
    assert meld("7s 7h 7d").kind == MeldKind.SET
    assert refused("7s 7h 7d 7c") == "seven-set-closed"
    four = meld("7s 7h 7d 7c", SEVEN_SETS)
    assert four.kind == MeldKind.SET and len(four.cards) == 4


@pytest.mark.parametrize(("text", "code"), [
    ("5s 6s", "meld-too-short"),
    ("9s 9h", "meld-too-short"),
    ("5s 6h 7d", "not-a-meld"),
    ("5s 6s 8s", "not-a-run"),
    ("5s 7s 9s", "not-a-run"),
    ("9s 9h 9d 9s", "duplicate-card"),
    ("2s 3s 4s 2s", "duplicate-card"),
])
def test_not_melds(text: str, code: str) -> None:
    assert refused(text) == code


def test_glenn_melds_at_most_four() -> None:
    assert len(meld("3h 4h 5h 6h", GLENN).cards) == 4
    assert refused("3h 4h 5h 6h 7h", GLENN) == "meld-too-long"
    assert len(meld("3h 4h 5h 6h 7h").cards) == 5


def test_new_run_in_glenn_grows_upward() -> None:
    assert meld("3h 4h 5h", GLENN).direction == 1
    assert meld("3h 4h 5h").direction == 0


# -- jokers in new melds --------------------------------------------------------------------------

def test_one_joker_per_meld() -> None:
    assert refused("9s JK JK", JOKERS) == "two-jokers-in-meld"
    assert refused("5h JK JK 8h", JOKERS) == "two-jokers-in-meld"


def test_joker_never_a_lone_seven() -> None:
    assert refused("JK", JOKERS) == "lone-joker"


def test_joker_named_in_run() -> None:
    m = meld("6h 7h JK", JOKERS, "8h")
    assert str(m) == "6h 7h JK=8h"
    assert m.faces == tuple(parse_cards("6h 7h 8h"))
    assert m.cards == (*parse_cards("6h 7h"), JOKER)
    low = meld("6h 7h JK", JOKERS, "5h")
    assert str(low) == "JK=5h 6h 7h"
    assert low.start == 4
    assert meld("Kh JK 2h", JOKERS, "Ah").start == 12


@pytest.mark.parametrize(("text", "named", "code"), [
    ("6h 7h JK", "9h", "not-a-run"),
    ("6h 7h JK", "8s", "bad-joker-card"),
    ("6h 7h JK", "7h", "bad-joker-card"),
    ("9s 9h JK", "9s", "bad-joker-card"),
    ("9s 9h JK", "8c", "bad-joker-card"),
])
def test_joker_named_badly(text: str, named: str, code: str) -> None:
    assert refused(text, JOKERS, named) == code


def test_unnamed_joker_inferred_only_when_unambiguous() -> None:
    inside = meld("7h JK 9h", JOKERS)
    assert str(inside) == "7h JK=8h 9h"
    assert inside.faces[1] == parse_card("8h")
    gap = meld("4c 5c JK 7c 8c", JOKERS)
    assert str(gap) == "4c 5c JK=6c 7c 8c"
    # at an end either side fits: the joker must be named
    assert refused("6h 7h JK", JOKERS) == "joker-unnamed"
    assert refused("JK 8h 9h", JOKERS) == "joker-unnamed"
    # without wrapping K-A has only one place left for a third card (Q)
    no_wrap = Rules.preset("pagat", wrap_runs=False, jokers=1)
    assert str(meld("JK Kc Ac", no_wrap)) == "JK=Qc Kc Ac"
    assert refused("JK Kc Ac", JOKERS) == "joker-unnamed"  # Q or 2 with wrapping
    assert refused("JK Qc Kc", no_wrap) == "joker-unnamed"  # J or A


def test_joker_in_set_unnamed_or_named() -> None:
    m = meld("9s 9h JK", JOKERS)
    assert m.kind == MeldKind.SET
    assert str(m) == "9s 9h JK"
    assert m.faces[-1] == -1
    named = meld("9s JK 9h", JOKERS, "9c")
    assert str(named) == "9s 9h JK=9c"
    assert meld("7s 7h JK", JOKERS).kind == MeldKind.SET
    assert refused("7s 7h 7d JK", JOKERS) == "seven-set-closed"


# -- adding ---------------------------------------------------------------------------------------

def test_set_takes_fourth() -> None:
    m = add(meld("9s 9h 9d"), "9c")
    assert m.kind == MeldKind.SET and len(m.cards) == 4
    assert m.id == 1
    assert add_refused(m, "JK", JOKERS) == "meld-full"
    assert add_refused(meld("9s 9h 9d"), "9s") == "does-not-fit"
    assert add_refused(meld("9s 9h 9d"), "8c") == "does-not-fit"


def test_seven_set_takes_no_fourth_unless_option() -> None:
    assert add_refused(meld("7s 7h 7d"), "7c") == "seven-set-closed"
    assert len(add(meld("7s 7h 7d", SEVEN_SETS), "7c", SEVEN_SETS).cards) == 4


@pytest.mark.parametrize(("run", "card", "laid", "start"), [
    ("4c 5c 6c", "3c", "3c 4c 5c 6c", 2),
    ("4c 5c 6c", "7c", "4c 5c 6c 7c", 3),
    ("Jc Qc Kc", "Ac", "Jc Qc Kc Ac", 10),
    ("Ac 2c 3c", "Kc", "Kc Ac 2c 3c", 12),
    ("Qc Kc Ac", "2c", "Qc Kc Ac 2c", 11),
    ("Kc Ac 2c", "Qc", "Qc Kc Ac 2c", 11),
    ("3d 4d 5d 6d 7d", "8d", "3d 4d 5d 6d 7d 8d", 2),
])
def test_run_grows_at_either_end(run: str, card: str, laid: str, start: int) -> None:
    m = add(meld(run), card)
    assert format_cards(m.cards) == laid
    assert m.start == start
    assert m.kind == MeldKind.RUN


@pytest.mark.parametrize(("run", "card"), [
    ("4c 5c 6c", "8c"), ("4c 5c 6c", "7h"), ("4c 5c 6c", "5c"), ("4c 5c 6c", "2c"),
])
def test_run_refuses_non_adjacent(run: str, card: str) -> None:
    assert add_refused(meld(run), card) == "does-not-fit"


def test_run_without_wrapping_stops_at_ace() -> None:
    assert format_cards(add(meld("Jc Qc Kc", NO_WRAP), "Ac", NO_WRAP).cards) == "Jc Qc Kc Ac"
    assert add_refused(meld("Ac 2c 3c", NO_WRAP), "Kc", NO_WRAP) == "does-not-fit"
    assert add_refused(meld("Qc Kc Ac", NO_WRAP), "2c", NO_WRAP) == "does-not-fit"
    assert format_cards(add(meld("2c 3c 4c", NO_WRAP), "Ac", NO_WRAP).cards) == "Ac 2c 3c 4c"


def test_almost_whole_suit_run_takes_the_last_card() -> None:
    m = meld("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc")
    assert len(add(m, "Kc").cards) == 13
    assert add_refused(add(m, "Kc"), "Kc") == "does-not-fit"


def test_seven_becomes_two_card_run() -> None:
    low = add(meld("7h"), "6h")
    assert low.kind == MeldKind.RUN
    assert format_cards(low.cards) == "6h 7h"
    assert low.start == 5
    high = add(meld("7h"), "8h")
    assert format_cards(high.cards) == "7h 8h"
    assert high.start == 6
    # it then grows like any run
    assert format_cards(add(low, "5h").cards) == "5h 6h 7h"
    assert format_cards(add(low, "8h").cards) == "6h 7h 8h"
    assert add_refused(meld("7h"), "9h") == "does-not-fit"
    assert add_refused(meld("7h"), "6s") == "does-not-fit"
    assert add_refused(meld("7h"), "7s") == "does-not-fit"


def test_joker_additions() -> None:
    rules = Rules.preset("pagat", jokers=2)
    assert add_refused(meld("7h"), "JK", rules) == "joker-unnamed"
    assert str(add(meld("7h"), "JK", rules, "8h")) == "7h JK=8h"
    assert add_refused(meld("7h"), "JK", rules, "9h") == "does-not-fit"
    assert add_refused(meld("4c 5c 6c"), "JK", rules) == "joker-unnamed"
    assert str(add(meld("4c 5c 6c"), "JK", rules, "7c")) == "4c 5c 6c JK=7c"
    assert str(add(meld("4c 5c 6c"), "JK", rules, "3c")) == "JK=3c 4c 5c 6c"
    with_joker = meld("4c 5c JK", rules, "6c")
    assert add_refused(with_joker, "JK", rules, "7c") == "two-jokers-in-meld"
    # an unnamed joker goes to the only free end of a run
    nearly = meld("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc")
    assert str(add(nearly, "JK", rules)).endswith("JK=Kc")
    # sets: a joker takes the fourth place; a set holding a joker takes a natural fourth card
    assert str(add(meld("9s 9h 9d"), "JK", rules)) == "9s 9h 9d JK"
    set_with_joker = meld("9s 9h JK", rules)
    assert add_refused(set_with_joker, "JK", rules) == "two-jokers-in-meld"
    grown = add(set_with_joker, "9d", rules)
    assert len(grown.cards) == 4
    assert add_refused(grown, "9c", rules) == "meld-full"


def test_glenn_three_card_run_grows_only_upward() -> None:
    m = meld("3h 4h 5h", GLENN)
    assert add_refused(m, "2h", GLENN) == "does-not-fit"
    four = add(m, "6h", GLENN)
    assert format_cards(four.cards) == "3h 4h 5h 6h"
    assert is_killed(four, GLENN)
    assert not is_killed(four, PAGAT)
    assert not is_killed(m, GLENN)


def test_glenn_seven_direction_is_fixed_by_first_addition() -> None:
    down = add(meld("7s", GLENN), "6s", GLENN)
    assert down.direction == -1
    # the cards lie as they were placed, the top card last (ruling 21)
    assert format_cards(add(down, "5s", GLENN).cards) == "7s 6s 5s"
    assert add_refused(down, "8s", GLENN) == "does-not-fit"
    up = add(meld("7s", GLENN), "8s", GLENN)
    assert up.direction == 1
    assert format_cards(add(up, "9s", GLENN).cards) == "7s 8s 9s"
    assert add_refused(up, "6s", GLENN) == "does-not-fit"
    # without Glenn's melds a seven's run grows both ways
    assert add(meld("7s"), "6s").direction == 0
    assert format_cards(add(add(meld("7s"), "6s"), "8s").cards) == "6s 7s 8s"


def test_glenn_set_of_four_is_killed() -> None:
    four = add(meld("9s 9h 9d", GLENN), "9c", GLENN)
    assert is_killed(four, GLENN)
    assert not is_killed(meld("7s", GLENN), GLENN)


# -- the finders against brute force --------------------------------------------------------------

def _identity(m: Meld) -> tuple[frozenset[int], int, int | None]:
    """A meld as what it is made of: its naturals, its joker count, a run joker's face."""
    naturals = frozenset(c for c in m.cards if c != JOKER)
    jokers = len(m.cards) - len(naturals)
    face = m.faces[m.cards.index(JOKER)] if jokers and m.kind != MeldKind.SET else None
    return naturals, jokers, face


def _joker_names(naturals: tuple[int, ...]) -> list[int | None]:
    """None and every card a joker could stand for beside ``naturals`` (same suit or rank)."""
    suits = {c // 13 for c in naturals}
    ranks = {c % 13 for c in naturals}
    return [None, *(c for c in range(52) if c // 13 in suits or c % 13 in ranks)]


def _brute_melds(hand: list[int], rules: Rules) -> set[tuple[frozenset[int], int, int | None]]:
    naturals = [c for c in hand if c != JOKER]
    jokers = min(len(hand) - len(naturals), 1)
    found = set()
    for size in range(1, len(naturals) + 1):
        for combo in combinations(naturals, size):
            for j in range(jokers + 1):
                for named in _joker_names(combo) if j else [None]:
                    try:
                        m = new_meld((*combo, *[JOKER] * j), named, rules, owner=0, meld_id=1)
                    except IllegalActionError:
                        continue
                    found.add(_identity(m))
    return found


def _found_melds(hand: list[int], rules: Rules) -> set[tuple[frozenset[int], int, int | None]]:
    naturals = [c for c in hand if c != JOKER]
    options = find_melds(card_mask(naturals), len(hand) - len(naturals), rules)
    ids = [_identity(new_meld(cards, j, rules, owner=0, meld_id=1)) for cards, j in options]
    assert len(ids) == len(set(ids)), "a meld is listed twice"
    return set(ids)


def _brute_takes(hand: list[int], card: int, rules: Rules) -> set[tuple[frozenset[int], int,
                                                                        int | None]]:
    found = set()
    for pair in combinations(hand, 2):
        if pair.count(JOKER) > 1:
            continue
        for named in _joker_names((card,)) if JOKER in pair else [None]:
            try:
                m = new_meld((card, *pair), named, rules, owner=0, meld_id=1)
            except IllegalActionError:
                continue
            found.add(_identity(m))
    return found


def _found_takes(hand: list[int], card: int, rules: Rules) -> set[tuple[frozenset[int], int,
                                                                        int | None]]:
    naturals = [c for c in hand if c != JOKER]
    options = find_takes(card_mask(naturals), len(hand) - len(naturals), card, rules)
    for pair, _ in options:
        assert len(pair) == 2
        assert all(c == JOKER or c in hand for c in pair)
    return {_identity(new_meld((card, *pair), j, rules, owner=0, meld_id=1))
            for pair, j in options}


def _random_hands(seed: int, count: int, size: int, jokers: int) -> list[list[int]]:
    """Small hands from two suits, so that runs and sets both happen often."""
    rng = random.Random(seed)
    pool = [c for c in range(52) if c // 13 < 2 or c % 13 in (0, 6, 12)]
    return [sorted(rng.sample(pool, size)) + [JOKER] * jokers for _ in range(count)]


FINDER_RULES = [PAGAT, NO_WRAP, GLENN, SEVEN_SETS]


@pytest.mark.parametrize("rules", FINDER_RULES, ids=["pagat", "no-wrap", "glenn", "seven-sets"])
def test_find_melds_matches_brute_force(rules: Rules) -> None:
    for hand in _random_hands(1, 150, 7, 0):
        assert _found_melds(hand, rules) == _brute_melds(hand, rules), format_cards(hand)


def test_find_melds_examples() -> None:
    hand = parse_cards("7s 7h 7d 7c 8c 9c Kc")
    found = {format_cards(cards) for cards, _ in find_melds(card_mask(hand), 0, PAGAT)}
    assert found == {"7s", "7h", "7d", "7c", "7s 7h 7d", "7s 7h 7c", "7s 7d 7c", "7h 7d 7c",
                     "7c 8c 9c"}
    assert find_melds(card_mask(parse_cards("2s 5h 9d Kc")), 0, PAGAT) == []


@pytest.mark.parametrize("rules", [Rules.preset("pagat", jokers=1),
                                   Rules.preset("pagat", jokers=2, wrap_runs=False)],
                         ids=["wrap", "no-wrap"])
def test_find_melds_with_jokers_matches_brute_force(rules: Rules) -> None:
    for hand in _random_hands(2, 40, 5, rules.jokers):
        assert _found_melds(hand, rules) == _brute_melds(hand, rules), format_cards(hand)


def test_find_melds_lists_joker_standing_for_a_held_card() -> None:
    # ruling 18: a joker stands for any card, also one the hand holds
    rules = Rules.preset("pagat", jokers=1)
    hand = parse_cards("6h 7h 8h JK")
    assert _found_melds(hand, rules) == _brute_melds(hand, rules)


@pytest.mark.parametrize("rules", FINDER_RULES[:2], ids=["pagat", "no-wrap"])
def test_find_takes_matches_brute_force(rules: Rules) -> None:
    rng = random.Random(3)
    for hand in _random_hands(3, 150, 6, 0):
        card = rng.choice([c for c in range(52) if c not in hand])
        assert _found_takes(hand, card, rules) == _brute_takes(hand, card, rules), \
            (format_cards([card]), format_cards(hand))


@pytest.mark.parametrize("rules", [Rules.preset("pagat", jokers=1),
                                   Rules.preset("pagat", jokers=2, wrap_runs=False)],
                         ids=["wrap", "no-wrap"])
def test_find_takes_with_jokers_matches_brute_force(rules: Rules) -> None:
    rng = random.Random(4)
    for hand in _random_hands(4, 80, 6, rules.jokers):
        card = rng.choice([c for c in range(52) if c not in hand])
        assert _found_takes(hand, card, rules) == _brute_takes(hand, card, rules), \
            (format_cards([card]), format_cards(hand))


def test_find_takes_lists_joker_standing_for_a_held_card() -> None:
    rules = Rules.preset("pagat", jokers=1)
    hand = parse_cards("9s Ts JK")
    card = parse_card("8s")
    assert _found_takes(hand, card, rules) == _brute_takes(hand, card, rules)


def test_find_takes_examples() -> None:
    def takes(hand: str, card: str, rules: Rules = PAGAT) -> set[str]:
        cards = parse_cards(hand)
        return {format_cards(pair) for pair, _ in find_takes(card_mask(cards), 0,
                                                             parse_card(card), rules)}
    # pagat: a discarded seven for 5-6, 6-8, 8-9 of its suit or two other sevens
    assert takes("5c 6c 8c 9c 7s 7h", "7c") == {"5c 6c", "6c 8c", "8c 9c", "7s 7h"}
    # a lone seven in hand does not take an adjacent card
    assert takes("7c Ks 2d", "8c") == set()
    assert takes("Qc Kc", "Ac") == {"Qc Kc"}
    assert takes("Kc 2c", "Ac") == {"Kc 2c"}
    assert takes("Kc 2c", "Ac", NO_WRAP) == set()
    assert takes("Ac 2c", "Kc") == {"Ac 2c"}
    assert takes("Ac 2c", "Kc", NO_WRAP) == set()
    assert find_takes(card_mask(parse_cards("8c 9c")), 2, JOKER, JOKERS) == []


@pytest.mark.parametrize("rules", [PAGAT, NO_WRAP], ids=["wrap", "no-wrap"])
def test_may_take_is_whether_find_takes_finds_any(rules: Rules) -> None:
    # Every hand that matters to a card: its rank in the other suits, and its suit's ranks two
    # below to two above (cyclically), with no joker, one or two.
    checked = 0
    for card in range(52):
        rank, suit = card % 13, card // 13
        for near in range(16):
            for column in range(16):
                mask = sum(1 << (suit * 13 + (rank + d) % 13)
                           for i, d in enumerate((-2, -1, 1, 2)) if (near >> i) & 1)
                mask |= sum(1 << (s * 13 + rank) for s in range(4) if s != suit
                            and (column >> s) & 1)
                for jokers in (0, 1, 2):
                    want = bool(find_takes(mask, jokers, card, rules))
                    assert may_take(mask, jokers, card, rules) == want, (
                        format_cards(sorted(c for c in range(52) if (mask >> c) & 1)),
                        format_cards([card]), jokers)
                    checked += 1
    assert checked == 52 * 16 * 16 * 3
    assert not may_take(card_mask(parse_cards("8c 9c")), 2, JOKER, PAGAT)


def _brute_adds(hand: list[int], table: list[Meld], rules: Rules) -> set[tuple[int, int, tuple[
        int, ...]]]:
    found = set()
    for m in table:
        for card in set(hand):
            for named in ([None, *range(52)] if card == JOKER else [None]):
                try:
                    grown = extend_meld(m, card, named, rules)
                except IllegalActionError:
                    continue
                found.add(_add_identity(m, card, grown))
    return found


def _add_identity(m: Meld, card: int, grown: Meld) -> tuple[int, int, tuple[int, ...]]:
    # a joker in a set may be named or not: it is the same addition
    if grown.branches or m.branches or grown.kind != m.kind:
        # Glenn's building: only a joker joining a set part (not one starting a set branch on a
        # run's top card, which is named, unnamed it would continue the run)
        joins_set = grown.branches == m.branches and (
            grown.branches[-1].kind if grown.branches else grown.kind) == MeldKind.SET
        last = -1 if joins_set and grown.cards[-1] == JOKER else grown.faces[-1]
        return m.id, card, (*grown.faces[:-1], last)
    faces = tuple(-1 if grown.kind == MeldKind.SET and c == JOKER else f
                  for c, f in zip(grown.cards, grown.faces, strict=True))
    return m.id, card, faces


TABLE_SPECS = ["Ks Kh Kd", "7c", "7d 7h 7s", "Qs Ks As", "3h 4h 5h", "Jc Qc Kc", "Ac 2c 3c",
               "9d JK Jd", "4s 5s JK", "2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd", "9h Th Jh Qh Kh",
               "6c 7c", "8s 8h 8d 8c"]


@pytest.mark.parametrize("rules", [PAGAT, NO_WRAP, Rules.preset("pagat", jokers=2),
                                   Rules.preset("glenn", jokers=1),
                                   Rules.preset("pagat", seven_set_extend=True, jokers=1,
                                                wrap_runs=False)],
                         ids=["pagat", "no-wrap", "jokers", "glenn", "sevens-no-wrap"])
def test_find_adds_matches_brute_force(rules: Rules) -> None:
    rng = random.Random(5)
    for _ in range(120):
        table: list[Meld] = []
        for spec in rng.sample(TABLE_SPECS, 4):
            cards = parse_cards(spec)
            if JOKER in cards and not rules.jokers:
                continue
            try:
                if spec == "6c 7c":
                    m = extend_meld(meld("7c", rules, meld_id=len(table) + 1), cards[0], None,
                                    rules)
                else:
                    m = meld(spec, rules, meld_id=len(table) + 1)
            except IllegalActionError:
                continue
            table.append(m)
        used = {c for m in table for c in m.cards}
        rest = [c for c in range(52) if c not in used]
        hand = rng.sample(rest, 9) + [JOKER] * min(rules.jokers, 1)
        naturals = [c for c in hand if c != JOKER]
        by_id = {m.id: m for m in table}
        options = find_adds(card_mask(naturals), len(hand) - len(naturals), table, rules)
        found = {_add_identity(by_id[i], c, extend_meld(by_id[i], c, j, rules))
                 for c, i, j in options}
        assert len(found) == len(options), "an addition is listed twice"
        assert found == _brute_adds(hand, table, rules), (format_cards(hand),
                                                          [str(m) for m in table])


def test_find_adds_examples() -> None:
    table = [meld("7h", meld_id=1), meld("9s 9h 9d", meld_id=2), meld("Qc Kc Ac", meld_id=3)]
    hand = parse_cards("6h 8h 9c 2c Jc 5h")
    found = {(c, i) for c, i, _ in find_adds(card_mask(hand), 0, table, PAGAT)}
    assert found == {(parse_card("6h"), 1), (parse_card("8h"), 1), (parse_card("9c"), 2),
                     (parse_card("2c"), 3), (parse_card("Jc"), 3)}
    found = {(c, i) for c, i, _ in find_adds(card_mask(hand), 0, table, NO_WRAP)}
    assert (parse_card("2c"), 3) not in found
    assert (parse_card("Jc"), 3) in found


# -- compensation units ---------------------------------------------------------------------------

@pytest.mark.parametrize(("hand", "units"), [
    ("2s 5h 9d Kc Jh 3c 4d", 0),
    ("7s", 1),
    ("7s 7h 7d 7c", 4),
    ("9s 9h 9d Ts Js 2c 4d", 1),   # 9s in the set or the run, not both
    ("9s 9h 9d 9c Ts Js Qs", 2),   # 9h 9d 9c and Ts Js Qs
    ("3c 4c 5c 6c 7c 8c 9c", 2),   # 7c, and 3-4-5 or 4-5-6 (8-9 is short, 6-7-8 wastes 7c)
    ("As 2s 3s Ah 2h 3h Ad", 2),   # two runs (the aces set would leave only pairs)
    ("Ks As 2s 5d 6d 8d 9d", 1),
    ("Td Jd Qd Kd Ac 2c 3c", 2),
])
def test_count_units(hand: str, units: int) -> None:
    assert count_units(card_mask(parse_cards(hand)), PAGAT) == units


def test_count_units_wrapping_depends_on_rules() -> None:
    hand = card_mask(parse_cards("Ks As 2s 5d 6d 9h Tc"))
    assert count_units(hand, PAGAT) == 1
    assert count_units(hand, NO_WRAP) == 0


def test_count_units_brute_force() -> None:
    for hand in _random_hands(6, 60, 7, 0):
        naturals = [c for c in hand if c % 13 != 6]
        sevens = len(hand) - len(naturals)
        units = [combo for combo in combinations(naturals, 3) if _is_unit(combo)]
        best = 0
        for k in range(len(units), 0, -1):
            if any(len({c for u in pick for c in u}) == 3 * k for pick in combinations(units, k)):
                best = k
                break
        assert count_units(card_mask(hand), PAGAT) == sevens + best, format_cards(hand)


def _is_unit(cards: tuple[int, ...]) -> bool:
    try:
        new_meld(cards, None, PAGAT, owner=0, meld_id=1)
    except IllegalActionError:
        return False
    return True

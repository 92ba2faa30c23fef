"""Glenn's building (ruling 21, ``glenn_melds``): a meld as a stack with a top card, branches built
on it, and kills; the engine, its notation, the table as data, the records, random deals."""

from __future__ import annotations

import random
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hoola.core.cards import JOKER, card_mask, format_cards, parse_card, parse_cards
from hoola.core.errors import HoolaError, IllegalActionError
from hoola.games.hoola.actions import Action, Add, NewMeld, Take, parse_action
from hoola.games.hoola.deal import Deal
from hoola.games.hoola.glenn import build, kill, parts, parts_text, places, targets, top_text
from hoola.games.hoola.melds import Meld, MeldKind, extend_meld, find_adds, is_killed, new_meld
from hoola.games.hoola.missions import feat_achieved
from hoola.games.hoola.records import dumps, load, loads, record_of, verify
from hoola.games.hoola.replay import tell
from hoola.games.hoola.rules import Rules
from hoola.games.hoola.state import DealState

GLENN = Rules.preset("glenn")
PAGAT = Rules.preset("pagat")
RECORDS = Path(__file__).resolve().parent / "records"


def meld(text: str, rules: Rules = GLENN, meld_id: int = 1, joker_as: str | None = None) -> Meld:
    return new_meld(parse_cards(text), None if joker_as is None else parse_card(joker_as), rules,
                    owner=0, meld_id=meld_id)


def put(m: Meld, *cards: str, rules: Rules = GLENN) -> Meld:
    """``m`` with each card built on its top card, killing what reaches four cards."""
    for text in cards:
        joker_as = None
        if "=" in text:
            text, _, named = text.partition("=")
            joker_as = parse_card(named)
        grown = build(m, parse_card(text), joker_as, rules)
        if is_killed(grown, rules):
            rest, _ = kill(grown)
            assert rest is not None, "the meld left the table"
            grown = rest
        m = grown
    return m


def refused(m: Meld, card: str, rules: Rules = GLENN, joker_as: str | None = None) -> \
        IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        build(m, parse_card(card), None if joker_as is None else parse_card(joker_as), rules)
    return info.value


def takes(m: Meld, rules: Rules = GLENN) -> set[str]:
    """The natural cards the meld's top card takes."""
    return {format_cards([c]) for c, _, j in targets(m, rules) if c != JOKER}


# -- the stack ------------------------------------------------------------------------------------

def test_the_seed_example_at_the_meld() -> None:
    m = meld("9d 9h 9s")
    assert top_text(m) == "9s"
    assert takes(m) == {"9c", "Ts"}  # the set grows, or a run is built on 9s
    m = build(m, parse_card("Ts"), None, GLENN)
    assert (top_text(m), parts_text(m)) == ("Ts", "set 9d 9h 9s, run 9s Ts")
    assert takes(m) == {"Js", "Th", "Td", "Tc"}  # the run grows, or a set is built on Ts
    m = put(m, "Js")
    four = build(m, parse_card("Qs"), None, GLENN)
    assert is_killed(four, GLENN) and not is_killed(four, PAGAT)
    rest, dead = kill(four)
    assert rest is not None
    assert format_cards(dead) == "9s Ts Js Qs"
    assert (str(rest), top_text(rest), rest.branches) == ("9d 9h", "9h", ())
    # open to a new branch, and the set may grow (9s is dead, but a joker may stand for it)
    assert takes(rest) == {"9s", "9c", "Th"}
    assert parts_text(put(rest, "Th")) == "set 9d 9h, run 9h Th"


def test_places_tell_growth_from_branches() -> None:
    on_set = places(meld("9d 9h 9s"), GLENN)
    assert (on_set.kind, on_set.grows, on_set.run_branch, on_set.set_branch) == (
        MeldKind.SET, (parse_card("9c"),), parse_card("Ts"), ())
    on_run = places(meld("3c 4c 5c"), GLENN)
    assert (on_run.kind, on_run.grows, on_run.run_branch, on_run.set_branch) == (
        MeldKind.RUN, (parse_card("6c"),), None, tuple(parse_cards("5s 5h 5d")))
    assert on_set.joker_grows and on_set.joker_branches


def test_a_set_and_a_run_lie_as_written() -> None:
    assert top_text(meld("9s 9h 9d")) == "9d"
    assert str(meld("9d 9s 9h")) == "9d 9s 9h"
    assert str(meld("9d 9s 9h", PAGAT)) == "9s 9h 9d"  # without Glenn's building: sorted
    assert str(meld("5c 3c 4c", PAGAT)) == "3c 4c 5c"
    # Ruling 21: for a meld laid down, the top card is the last card written.
    assert (str(meld("5c 3c 4c")), top_text(meld("5c 3c 4c"))) == ("5c 3c 4c", "4c")
    assert top_text(meld("Kh Ah 2h")) == "2h"
    # A run grows upward from its highest card whatever its top card; a set starts on the top.
    on_run = places(meld("5c 4c 3c"), GLENN)
    assert (on_run.grows, on_run.set_branch) == ((parse_card("6c"),),
                                                 tuple(parse_cards("3s 3h 3d")))
    flat = Rules.preset("glenn", wrap_runs=False)
    assert places(meld("Ah Kh Qh", flat), flat).grows == ()  # a high ace ends the run
    assert places(meld("Ah Kh Qh"), GLENN).grows == (parse_card("2h"),)  # where runs wrap
    assert places(meld("Ah 3h 2h"), GLENN).grows == (parse_card("4h"),)
    # A set built on the top card 4c and killed takes 4c with it: 3c 5c is left, no run.
    rest = put(meld("3c 5c 4c"), "4h", "4s", "4d")
    assert (str(rest), top_text(rest)) == ("3c 5c", "5c")
    assert places(rest, GLENN).grows == () and takes(rest) == {"5s", "5h", "5d"}


def test_a_set_on_a_run_and_what_its_kill_uncovers() -> None:
    m = put(meld("3c 4c 5c"), "5h", "5s")
    assert parts_text(m) == "run 3c 4c 5c, set 5c 5h 5s"
    rest, dead = kill(build(m, parse_card("5d"), None, GLENN))
    assert rest is not None and format_cards(dead) == "5c 5h 5s 5d"
    assert (str(rest), top_text(rest)) == ("3c 4c", "4c")
    assert takes(rest) == {"5c", "4s", "4h", "4d"}  # 5c is dead, but a joker may stand for it
    assert parts_text(put(rest, "4h")) == "run 3c 4c, set 4c 4h"


def test_a_lone_seven_goes_up_or_down_and_takes_a_set() -> None:
    seven = meld("7s")
    assert takes(seven) == {"6s", "8s", "7h", "7d", "7c"}
    down = put(seven, "6s", "5s")
    assert (str(down), down.direction, takes(down)) == ("7s 6s 5s", -1, {"4s", "5h", "5d", "5c"})
    assert refused(down, "8s").code == "does-not-fit"
    assert build(down, parse_card("4s"), None, GLENN).cards[-1] == parse_card("4s")
    assert kill(build(down, parse_card("4s"), None, GLENN)) == (None, tuple(parse_cards(
        "7s 6s 5s 4s")))
    up = put(seven, "8s", "9s")
    assert (str(up), up.direction, takes(up)) == ("7s 8s 9s", 1, {"Ts", "9h", "9d", "9c"})
    sevens = put(seven, "7h")
    assert parts_text(sevens) == "lone seven 7s, set 7s 7h"
    assert takes(sevens) == {"7d", "7c", "8h"}  # a set of sevens grows; a run is built on 7h
    three = put(sevens, "7d")
    assert takes(three) == {"8d"}  # no fourth seven without seven_set_extend
    extend = Rules.preset("glenn", seven_set_extend=True)
    assert kill(build(three, parse_card("7c"), None, extend))[0] is None  # the meld leaves


def test_branches_on_branches_and_a_branch_left_with_its_first_card_ends() -> None:
    m = put(meld("9d 9h 9s"), "Ts", "Th", "Td")
    assert len(m.branches) == 2 and parts_text(m) == "set 9d 9h 9s, run 9s Ts, set Ts Th Td"
    rest, dead = kill(build(m, parse_card("Tc"), None, GLENN))
    assert rest is not None and format_cards(dead) == "Ts Th Td Tc"
    assert (str(rest), top_text(rest), rest.branches) == ("9d 9h 9s", "9s", ())
    assert kill(build(rest, parse_card("9c"), None, GLENN)) == (None, tuple(parse_cards(
        "9d 9h 9s 9c")))


def test_runs_turn_at_the_ace_as_the_rules_say() -> None:
    assert takes(meld("Ks Kh Kd")) == {"Kc", "Ad"}  # the ace above the king
    assert takes(meld("As Ah Ad")) == {"Ac", "2d"}  # a low ace: the two
    assert takes(meld("Qs Ks As")) == {"2s", "Ah", "Ad", "Ac"}  # wrapping: 2s above the ace
    no_wrap = Rules.preset("glenn", wrap_runs=False)
    assert takes(meld("Qs Ks As", no_wrap), no_wrap) == {"Ah", "Ad", "Ac"}
    assert takes(meld("Ks Kh Kd", no_wrap), no_wrap) == {"Kc", "Ad"}


def test_refusals_say_what_the_top_card_takes_and_the_ruling() -> None:
    error = refused(meld("9d 9h 9s"), "5h")
    assert error.code == "does-not-fit"
    assert error.message == ("cannot add 5h on m1: with Glenn's building its top card 9s takes "
                             "only 9c (the set grows) or Ts (a run built on 9s) (ruling 21)")
    assert refused(meld("9d 9h 9s"), "Th").code == "does-not-fit"  # 9h is covered
    assert refused(meld("3c 4c 5c"), "2c").code == "does-not-fit"  # runs grow only upward
    # Without Glenn's building the refusal names the option and its ruling.
    with pytest.raises(IllegalActionError) as info:
        extend_meld(meld("9d 9h 9s", PAGAT), parse_card("Ts"), None, PAGAT)
    assert info.value.code == "does-not-fit"
    assert "glenn_melds, ruling 21" in info.value.message
    with pytest.raises(IllegalActionError) as info:
        extend_meld(meld("3c 4c 5c", PAGAT), parse_card("5h"), None, PAGAT)
    assert "glenn_melds, ruling 21" in info.value.message


def test_jokers_in_branches() -> None:
    rules = Rules.preset("glenn", jokers=1)
    run = meld("3c 4c 5c", rules)
    assert str(build(run, JOKER, None, rules)).endswith("JK=6c")  # unnamed: the run grows
    branch = build(run, JOKER, parse_card("5h"), rules)  # named: a set built on 5c
    assert parts_text(branch) == "run 3c 4c 5c, set 5c JK=5h"
    assert refused(branch, "JK", rules).code == "two-jokers-in-meld"
    assert takes(branch, rules) == {"5s", "5d", "6h"}  # the joker stands for 5h: 6h above
    on_set = build(meld("9d 9h 9s", rules), JOKER, None, rules)
    assert (str(on_set), top_text(on_set)) == ("9d 9h 9s JK", "JK")
    assert is_killed(on_set, rules)  # an unnamed joker completes the set of four
    # a joker standing for no named card has no suit: no run is built on it
    seven = meld("7s", rules)
    assert refused(seven, "JK", rules).code == "joker-unnamed"
    started = build(meld("9d 9h 9s", rules), JOKER, parse_card("Ts"), rules)
    assert refused(started, "JK", rules, joker_as="Js").code == "two-jokers-in-meld"
    on_joker = build(meld("3c 4c JK", rules, joker_as="5c"), parse_card("5h"), None, rules)
    assert parts_text(on_joker) == "run 3c 4c JK=5c, set JK=5c 5h"
    assert refused(on_joker, "JK", rules).code == "two-jokers-in-meld"


def test_parts_are_sets_and_runs_of_their_own() -> None:
    m = put(meld("9d 9h 9s"), "Ts", "Js")
    base, branch = parts(m)
    assert (base.kind, str(base)) == (MeldKind.SET, "9d 9h 9s")
    assert (branch.kind, str(branch)) == (MeldKind.RUN, "9s Ts Js")
    assert parts(meld("9d 9h 9s")) == (meld("9d 9h 9s"),)
    # A stack of five cards holds no set of four (the mission feat "quad" looks at parts).
    stack = put(meld("9d 9h 9s"), "Ts", "Th")
    assert len(stack.cards) == 5
    assert not feat_achieved("quad", end="out", winner=0, table=(stack,), history=[],
                             dealer=0, in_deal=(True, True), winner_points=0)


STACKS = ["9d 9h 9s", "9d 9h 9s|Ts", "9d 9h 9s|Ts Js", "9d 9h 9s|Ts Th", "3c 4c 5c|5h",
          "3c 4c 5c|5h 5s", "7s", "7s|6s", "7s|8s 9s", "7h|7d", "Ks Kh Kd|Ad", "Qs Ks As",
          "9d 9h 9s|Ts Th Td Tc", "3c 4c 5c|5h 5s 5d", "JK 8d 8h|", "3c 4c JK=5c|5h",
          "9d 9h 9s|JK=Ts"]


def _stack(spec: str, rules: Rules, meld_id: int) -> Meld | None:
    base, _, built = spec.partition("|")
    words = base.split()
    joker_as = next((w.partition("=")[2] for w in words if "=" in w), None)
    cards = " ".join(w.partition("=")[0] for w in words)
    try:
        m = meld(cards, rules, meld_id=meld_id, joker_as=joker_as)
        return put(m, *built.split(), rules=rules)
    except IllegalActionError:
        return None


@pytest.mark.parametrize("jokers", [0, 1])
def test_targets_list_exactly_what_build_accepts(jokers: int) -> None:
    rules = Rules.preset("glenn", jokers=jokers)
    for i, spec in enumerate(STACKS, 1):
        if "JK" in spec and not jokers:
            continue
        m = _stack(spec, rules, i)
        assert m is not None, spec
        listed = targets(m, rules)
        assert len(listed) == len(set(listed)), spec
        for card in [*range(52), JOKER]:
            for named in [None, *range(52)] if card == JOKER else [None]:
                try:
                    build(m, card, named, rules)
                except IllegalActionError:
                    accepted = False
                else:
                    accepted = True
                # every listed option is accepted; a natural card is listed when accepted
                if (card, m.id, named) in listed:
                    assert accepted, (spec, card, named)
                elif card != JOKER:
                    assert not accepted, (spec, format_cards([card]))
        # a joker is listed when one is accepted at all
        assert any(c == JOKER for c, _, _ in listed) == any(
            _accepts(m, JOKER, named, rules) for named in [None, *range(52)]), spec
        hand = card_mask(range(52))
        assert find_adds(hand, jokers, [m], rules) == [o for o in listed
                                                      if jokers or o[0] != JOKER]


def _accepts(m: Meld, card: int, named: int | None, rules: Rules) -> bool:
    try:
        build(m, card, named, rules)
    except IllegalActionError:
        return False
    return True


# -- the engine -----------------------------------------------------------------------------------

SEED_HANDS = ["9d 9h 9s Kd Qd Jh 2c", "Ts Js 3c 3h 3d Ah 4d", "Qs Kc Kh Ks 5d 6d 8c",
              "As Ad 2s 2h 3s 5h 6c"]
SEED_STOCK = "8h 4c 5c Th 2d"


def make(rules: Rules = GLENN, hands: list[str] | None = None, upcard: str = "9c",
         stock: str = SEED_STOCK) -> DealState:
    hands = hands or SEED_HANDS
    deal = Deal.explicit(rules, [parse_cards(h) for h in hands], parse_card(upcard),
                         parse_cards(stock))
    return DealState(rules, list("ABCD"[:len(hands)]), deal)


def do(s: DealState, *texts: str) -> None:
    for text in texts:
        s.apply(parse_action(text, s.names))


def legal(s: DealState, player: str) -> list[str]:
    return [s.format(a) for a in s.legal_actions(s.names.index(player))]


def snapshot(s: DealState) -> tuple[Any, ...]:
    return (tuple(s.hands), tuple(s.jokers), tuple(s.table), tuple(s.discards), tuple(s.stock),
            tuple(s.history), s.current, s.drawn, s.phase,
            tuple(tuple(s.legal_actions(p)) for p in range(s.n)))


def refuse(s: DealState, text: str, code: str) -> IllegalActionError:
    a = parse_action(text, s.names)
    before = snapshot(s)
    assert not s.can(a)
    with pytest.raises(IllegalActionError) as info:
        s.verify(a)
    assert info.value.code == code, info.value.message
    with pytest.raises(IllegalActionError):
        s.apply(a)
    assert snapshot(s) == before
    return info.value


def test_the_seed_example_in_a_deal() -> None:
    s = make()
    do(s, "A draw", "A meld 9d 9h 9s", "A discard 8h", "B draw", "B meld 3c 3h 3d")
    assert "B add Ts on 9s" in legal(s, "B")
    assert s.can_add(1, parse_card("Ts"), on=parse_card("9s"))
    s.add(1, parse_card("Ts"), on=parse_card("9s"))
    assert "B add Js on Ts" in legal(s, "B")
    do(s, "B add Js on Ts", "B discard 4c", "C draw", "C meld Kc Kh Ks")
    pile = len(s.discards)
    do(s, "C add Qs on Js")
    assert format_cards(s.discards[:4]) == "9s Ts Js Qs"  # the bottom of the pile
    assert len(s.discards) == pile + 4 and format_cards(s.discards[-1:]) == "4c"
    assert [str(m) for m in s.table] == ["9d 9h", "3c 3h 3d", "Kc Kh Ks"]
    do(s, "C discard 5c", "D draw", "D meld As 2s 3s")
    assert "D add Th on 9h" in legal(s, "D")
    do(s, "D add Th on 9h")
    assert str(s.table[0]) == "9d 9h Th"


def test_a_build_on_a_covered_card_is_refused_with_the_ruling() -> None:
    s = make(hands=["9d 9h 9s Kd Qd Jh 2c", "Ts 3c 3h 3d Ah 4d 8c",
                    "Th 6s 6h 6d Kc 5d 2d", "As Ad 2s 2h 3s 5h 6c"], stock="8h 4c 5c")
    do(s, "A draw", "A meld 9d 9h 9s", "A discard 8h", "B draw", "B meld 3c 3h 3d",
       "B add Ts on 9s", "B discard 4c", "C draw", "C meld 6s 6h 6d")
    error = refuse(s, "C add Th on 9h", "not-top-card")
    assert error.message == ("cannot add Th on 9h: 9h is not the top card of m1 (the top card is "
                             "Ts), and with Glenn's building a card goes only on a meld's top "
                             "card (ruling 21)")
    assert "C add Th on Ts" in legal(s, "C")  # a set on the run's top card
    assert s.can(Add(2, parse_card("Th"), meld_id=1))  # by number: on the top card
    assert not s.can_add(2, parse_card("Th"), on=parse_card("9d"))
    do(s, "C add Th on Ts")


def test_a_build_is_refused_without_glenn_melds() -> None:
    s = make(PAGAT)
    do(s, "A draw", "A meld 9d 9h 9s", "A discard 8h", "B draw", "B meld 3c 3h 3d")
    assert not [a for a in legal(s, "B") if a.startswith("B add")]
    error = refuse(s, "B add Ts on 9s", "does-not-fit")
    assert error.message == ("cannot add Ts on m1: a set takes only a missing card of its rank; "
                             "building a run on a set's top card is Glenn's building "
                             "(glenn_melds, ruling 21)")


def test_the_legal_list_offers_a_set_in_every_order_and_takes_in_both() -> None:
    s = make(hands=["9d 9h 9s Kd Qd Jh 2c", "5h 5s 3c 3h 3d Ah 4d", "Qs Kc Kh Ks 5d 6d 8c",
                    "As Ad 2s 2h 3s Th 6c"], stock="5c 4c")
    do(s, "A draw")
    melds = {a for a in legal(s, "A") if a.startswith("A meld 9")}
    assert melds == {f"A meld {' '.join(p)}" for p in permutations(["9s", "9h", "9d"])}
    pagat = make(PAGAT, hands=["9d 9h 9s Kd Qd Jh 2c", "5h 5s 3c 3h 3d Ah 4d",
                               "Qs Kc Kh Ks 5d 6d 8c", "As Ad 2s 2h 3s Th 6c"], stock="5c 4c")
    do(pagat, "A draw")
    assert {a for a in legal(pagat, "A") if a.startswith("A meld 9")} == {"A meld 9s 9h 9d"}
    do(s, "A meld 9h 9s 9d", "A discard 5c")
    assert top_text(s.table[0]) == "9d"
    assert {a for a in legal(s, "B") if a.startswith("B take")} == {
        "B take 5c with 5s 5h", "B take 5c with 5h 5s"}
    do(s, "B take 5c with 5s 5h")
    assert (str(s.table[1]), top_text(s.table[1])) == ("5c 5s 5h", "5h")


def test_a_joker_on_top_is_built_on_by_the_melds_number() -> None:
    rules = Rules.preset("glenn", jokers=1)
    s = make(rules, hands=["9d 9h JK Kd Qd Jh 2c", "9s 3c 3h 3d Ah 4d 8c",
                           "Th 6s 6h 6d Kc 5d 2d", "As Ad 2s 2h 3s 5h 6c"], stock="8h 4c 5c")
    do(s, "A draw", "A meld 9d 9h JK", "A discard 8h", "B draw", "B meld 3c 3h 3d")
    assert "B add 9s on m1" in legal(s, "B")
    # Growth may name any card of the part it grows (the meld that holds 9d); a branch could not.
    assert s.can_add(1, parse_card("9s"), on=parse_card("9d"))
    assert not s.can_add(1, parse_card("Ts"), on=parse_card("9d"))
    do(s, "B add 9s on m1")
    assert [m.id for m in s.table] == [2]  # 9d 9h JK 9s: killed


def test_the_table_shows_each_stack_and_its_top_card() -> None:
    s = make()
    do(s, "A draw", "A meld 9d 9h 9s", "A discard 8h", "B draw", "B meld 3c 3h 3d",
       "B add Ts on 9s")
    zone = s.view(2).table().zone("m1")
    assert zone.cards == ("9d", "9h", "9s", "Ts")  # as they lie, the top card last
    assert zone.label == "m1 (A), top Ts: set 9d 9h 9s, run 9s Ts"
    assert zone.note == "m1 top Ts"
    assert s.view(2).table().zone("m2").label == "m2 (B), top 3d"
    assert s.view(2).to_json()["table"][0] == {
        "id": 1, "owner": 0, "kind": "set", "cards": ["9d", "9h", "9s", "Ts"], "top": "Ts",
        "parts": [{"kind": "set", "cards": ["9d", "9h", "9s"]},
                  {"kind": "run", "cards": ["9s", "Ts"]}]}
    pagat = make(PAGAT)
    do(pagat, "A draw", "A meld 9d 9h 9s")
    zone = pagat.view(1).table().zone("m1")
    assert (zone.label, zone.note, zone.cards) == ("m1 (A)", "m1", ("9s", "9h", "9d"))
    assert pagat.view(1).to_json()["table"] == [
        {"id": 1, "owner": 0, "kind": "set", "cards": ["9s", "9h", "9d"]}]


# -- records --------------------------------------------------------------------------------------

GLENN_RECORDS = sorted(RECORDS.glob("*glenn-building*.toml"))


def test_there_is_a_record_for_every_case_of_the_ruling() -> None:
    names = {p.name for p in GLENN_RECORDS}
    assert {"opt-glenn-building-seed-example.toml", "opt-glenn-building-set-on-run.toml",
            "opt-glenn-building-lone-seven-up-and-down.toml",
            "opt-glenn-building-kill-uncovers-card.toml",
            "opt-glenn-building-top-card-last-written.toml",
            "opt-glenn-building-on-covered-card-refused.toml",
            "glenn-building-refused-in-pagat.toml"} <= names


@pytest.mark.parametrize("path", GLENN_RECORDS, ids=lambda p: p.name)
def test_the_records_verify_round_trip_and_replay(path: Path) -> None:
    record = load(path)
    verdict = verify(record, path.name)
    assert verdict.ok, verdict.problems
    text = dumps(record)
    assert dumps(loads(text)) == text
    lines = list(tell(record))
    assert lines
    if "illegal" not in record.deals[0].result:
        assert record.deals[0].result.get("payments")  # every settlement is written out


def test_replay_tells_the_kill_and_the_top_cards() -> None:
    lines = list(tell(load(RECORDS / "opt-glenn-building-seed-example.toml")))
    assert "       killed: 9s Ts Js Qs (to the bottom of the discard pile)" in lines
    assert "       A: [m1 9d 9h 9s Ts Js, top Js: set 9d 9h 9s, run 9s Ts Js]" in lines
    assert "       A: [m1 9d 9h, top 9h]" in lines


def test_a_played_deal_writes_a_record_that_verifies() -> None:
    s = make()
    do(s, "A draw", "A meld 9d 9h 9s", "A discard 8h", "B draw", "B meld 3c 3h 3d",
       "B add Ts on 9s", "B add Js on Ts", "B discard 4c", "C draw", "C meld Kc Kh Ks",
       "C add Qs on Js", "C discard 5c", "D draw", "D meld As 2s 3s", "D add Th on 9h",
       "D discard 6c", "A draw", "A add Jh on Th", "A discard Kd", "B knock")
    text = dumps(record_of([s]))
    assert dumps(loads(text)) == text
    assert verify(loads(text)).ok
    assert 'rules = "glenn"' in text and '"C add Qs on Js",' in text


# -- random deals ---------------------------------------------------------------------------------

def card_count(s: DealState) -> int:
    return (sum(h.bit_count() for h in s.hands) + sum(s.jokers) + len(s.stock) + len(s.discards)
            + sum(len(m.cards) for m in s.table))


def keen_choice(rng: random.Random, acts: list[Action]) -> Action:
    """Mostly a build, a meld or a take, so that stacks grow, branch and die often."""
    keen = [a for a in acts if isinstance(a, Add | NewMeld | Take)]
    return rng.choice(keen if keen and rng.random() < 0.85 else acts)


def check_builds_are_listed(s: DealState, p: int, acts: list[Action]) -> None:
    """Every natural card p could build on a meld is listed, named by its top card; a card named
    on another card of the open part is taken only when it grows that part, and one named on a
    card beneath the open part is refused."""
    if s.is_over or p != s.current or not s.drawn:
        return
    listed = {(a.card, a.meld_id if a.on is None else next(
        m.id for m in s.table if m.cards[-1] == a.on)) for a in acts if isinstance(a, Add)}
    for a in acts:
        if isinstance(a, Add) and a.on is not None:
            assert any(m.cards[-1] == a.on for m in s.table), s.format(a)
    for m in s.table:
        for c in s.hand(p):
            if c == JOKER:
                continue
            ok = s.can(Add(p, c, meld_id=m.id))
            assert ok == ((c, m.id) in listed), (s.format(Add(p, c, meld_id=m.id)), ok)
            at = m.branches[-1].at if m.branches else 0
            for k, covered in enumerate(m.cards[:-1]):
                if covered != JOKER and covered != m.cards[-1]:
                    named = s.can(Add(p, c, on=covered))
                    assert named == (k >= at and ok and c in places(m, s.rules).grows), (
                        s.format(Add(p, c, on=covered)), named)


games = st.fixed_dictionaries({
    "seed": st.integers(0, 2**32),
    "players": st.integers(2, 5),
    "jokers": st.sampled_from([0, 0, 1, 2]),
    "extra": st.sampled_from([{}, {"wrap_runs": False}, {"seven_set_extend": True},
                              {"lay_off_needs_own_meld": False}, {"missions": True},
                              {"grouping_sevens": True, "claims": "next-only"}]),
})


@given(games)
def test_random_glenn_deals_keep_every_invariant(game: dict[str, Any]) -> None:
    rules = Rules.preset("glenn", jokers=game["jokers"], **game["extra"])
    s = DealState.new(rules, game["players"], seed=game["seed"])
    rng = random.Random(game["seed"])
    total = card_count(s)
    steps = 0
    while not s.is_over:
        steps += 1
        assert steps < 2000, "the deal does not end"
        actors = sorted(s.actors())
        assert actors
        for q in range(s.n):
            acts = s.legal_actions(q)
            assert bool(acts) == (q in actors)
            assert len(acts) == len(set(acts))
            for a in acts:
                assert s.can(a), f"listed but refused: {s.format(a)}"
        p = rng.choice(actors)
        acts = s.legal_actions(p)
        check_builds_are_listed(s, p, acts)
        a = keen_choice(rng, acts)
        try:
            s.apply(a)
        except HoolaError as exc:  # pragma: no cover - a listed action must apply
            raise AssertionError(f"{s.format(a)} refused: {exc}") from exc
        assert card_count(s) == total
        for m in s.table:
            assert 1 <= len(m.cards) - (m.branches[-1].at if m.branches else 0) <= 3
            assert all(len(part.cards) <= 4 for part in parts(m))
    assert s.result is not None
    assert sum(s.result.payments.values()) == 0
    text = dumps(record_of([s]))
    assert dumps(loads(text)) == text
    verdict = verify(loads(text))
    assert verdict.ok, verdict.problems

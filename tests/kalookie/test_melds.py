"""Melds (rulings 3, 4, 6, 7): new melds, builds, releases, values, the hand's melds."""

from __future__ import annotations

import pytest

from hoola.core.errors import IllegalActionError
from hoola.games.kalookie.cards import counts_of, format_tokens, parse_tokens
from hoola.games.kalookie.melds import Meld, build, find_melds, meld_value, new_meld, release
from hoola.games.kalookie.rules import Rules

BRITISH = Rules.preset("british")
NA = Rules.preset("north-american")


def meld(text: str, rules: Rules = BRITISH) -> Meld:
    return new_meld(parse_tokens(text), rules, owner=0, meld_id=1)


def refused(text: str, code: str, rules: Rules = BRITISH) -> str:
    with pytest.raises(IllegalActionError) as info:
        meld(text, rules)
    assert info.value.code == code
    return info.value.message


@pytest.mark.parametrize(("text", "kind", "laid", "value"), [
    ("Qh Qc Qs", "set", "Qs Qh Qc", 30),
    ("9h 9d 9c 9s", "set", "9s 9h 9d 9c", 36),
    ("9s JK JK", "set", "9s JK JK", 27),
    ("9s JK=Ts JK=Js", "run", "9s JK=Ts JK=Js", 29),
    ("Ah Kh Qh", "run", "Qh Kh Ah", 31),
    ("Js JK=Ts Qs", "run", "JK=Ts Js Qs", 30),
    ("As Ad Ah", "set", "As Ah Ad", 33),
    ("2s 3s 4s 5s 6s 7s 8s", "run", "2s 3s 4s 5s 6s 7s 8s", 35),
])
def test_valid_melds_and_their_values(text: str, kind: str, laid: str, value: int) -> None:
    m = meld(text)
    assert (m.kind, format_tokens(m.tokens), meld_value(m, BRITISH)) == (kind, laid, value)


def test_refused_melds_name_the_rule() -> None:
    assert "different suits" in refused("4d 4d 4c", "not-a-set")
    assert "A-2-3" in refused("As 2s 3s", "not-a-run")
    assert "K-A-2" in refused("Ks As 2s", "not-a-run")
    assert "at least three" in refused("9s 9h", "meld-too-short")
    assert "natural card" in refused("JK JK JK", "no-natural")
    assert "name every joker" in refused("9s JK JK=Js", "joker-naming")
    assert "must be named" in refused("9s Ts JK", "not-a-set")
    assert "one suit" in refused("9s Th Jc", "not-a-run")
    refused("9s 9h 9d 9c JK", "not-a-set")
    refused("9s JK=Ts JK=Qs", "not-a-run")


def test_aces_low_only_with_high_or_low() -> None:
    m = meld("As 2s 3s", NA)
    assert (m.low, meld_value(m, NA)) == (1, 6)
    assert meld_value(meld("Qs Ks As", NA), NA) == 35  # ace_penalty 15 as a high ace
    refused("Ks As 2s", "not-a-run", NA)
    assert meld("JK=As 2s 3s", NA).low == 1


def test_joker_sets_and_identical_sets_by_option() -> None:
    scarne = Rules.preset("scarne")
    assert meld_value(meld("JK JK JK", scarne), scarne) == 45
    three = Rules.preset("three-deck")
    m = meld("Kh Kh Kh", three)
    assert m.identical and meld_value(m, three) == 30
    assert meld("Kh Kh JK", three).identical
    refused("Kh Kh Ks", "not-a-set", three)
    refused("Kh Kh Kh Kh", "not-a-set", three)


def test_building_on_sets_and_runs() -> None:
    s = meld("9s 9h 9d")
    grown, end, _ = build(s, parse_tokens("9c")[0], BRITISH)
    assert (format_tokens(grown.tokens), end) == ("9s 9h 9d 9c", "set")
    with pytest.raises(IllegalActionError, match="already holds that suit"):
        build(s, parse_tokens("9h")[0], BRITISH)
    with pytest.raises(IllegalActionError, match="at most four"):
        build(grown, parse_tokens("JK")[0], BRITISH)
    r = meld("5s 6s 7s")
    low, end, position = build(r, parse_tokens("4s")[0], BRITISH)
    assert (format_tokens(low.tokens), end, position) == ("4s 5s 6s 7s", "low", 4)
    high, end, _ = build(r, parse_tokens("JK=8s")[0], BRITISH)
    assert (format_tokens(high.tokens), end) == ("5s 6s 7s JK=8s", "high")
    with pytest.raises(IllegalActionError, match="must be named"):
        build(r, parse_tokens("JK")[0], BRITISH)
    with pytest.raises(IllegalActionError, match="not next to"):
        build(r, parse_tokens("Ts")[0], BRITISH)
    top = meld("Qs Ks As")
    with pytest.raises(IllegalActionError, match="beyond the ace"):
        build(top, parse_tokens("JK=2s")[0], BRITISH)


def test_a_natural_card_for_a_run_joker_is_a_swap_not_a_build() -> None:
    r = meld("5s JK=6s 7s")
    with pytest.raises(IllegalActionError) as info:
        build(r, parse_tokens("6s")[0], BRITISH)
    assert info.value.code == "use-swap" and "swap 6s for JK" in info.value.message


def test_an_ace_fitting_both_ends_goes_high() -> None:
    long = meld("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks", NA)
    _, end, position = build(long, parse_tokens("As")[0], NA)
    assert (end, position) == ("high", 14)


def test_releasing_a_joker_both_suits() -> None:
    three = meld("Ts Td JK")
    freed = release(three, parse_tokens("Th Tc"), BRITISH)
    assert format_tokens(freed.tokens) == "Ts Th Td Tc"
    with pytest.raises(IllegalActionError, match="both missing suits"):
        release(three, parse_tokens("Th"), BRITISH)
    two = meld("Ts JK JK")
    assert format_tokens(release(two, parse_tokens("Td Tc"), BRITISH).tokens) == "Ts Td Tc JK"
    closed = meld("Ts Th Td JK")
    with pytest.raises(IllegalActionError, match="closed four-card set"):
        release(closed, parse_tokens("Tc"), Rules.preset("british"))
    run = meld("4s JK=5s 6s")
    assert format_tokens(release(run, parse_tokens("5s"), BRITISH).tokens) == "4s 5s 6s"
    with pytest.raises(IllegalActionError, match="stands for"):
        release(run, parse_tokens("7s"), BRITISH)


def test_release_variants() -> None:
    interior = Rules.preset("british", joker_release="interior")
    end = meld("4s 5s JK=6s")
    with pytest.raises(IllegalActionError, match="interior"):
        release(end, parse_tokens("6s"), interior)
    assert release(meld("4s JK=5s 6s"), parse_tokens("5s"), interior).jokers == 0
    one = Rules.preset("north-american")
    assert format_tokens(release(meld("Ts Th JK", one), parse_tokens("Tc"), one).tokens) \
        == "Ts Th Tc"
    # A closed four-card set never gives up a joker (ruling 7), one card or two.
    with pytest.raises(IllegalActionError, match="closed four-card set"):
        release(meld("Ts Th Td JK", one), parse_tokens("Tc"), one)
    with pytest.raises(IllegalActionError, match="one natural card"):
        release(meld("Ts Td JK", one), parse_tokens("Th Tc"), one)


def test_find_melds_lists_sets_and_runs_with_few_jokers() -> None:
    counts = counts_of(parse_tokens("5s 6s 7s 7h 7d"))
    found = {format_tokens(m) for m in find_melds(counts, 1, BRITISH)}
    assert {"5s 6s 7s", "7s 7h 7d", "7h 7d JK", "5s 6s 7s JK=8s", "JK=4s 5s 6s"} <= found
    assert all(meld(t) for t in found)
    assert not any(t.count("JK") > 2 for t in found)

"""Rule options as data: presets, validation, option and preset docs."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hoola.core.errors import RulesError
from hoola.games.kalookie import GAME
from hoola.games.kalookie.rules import OPTIONS, PRESETS, Rules


def test_presets_follow_the_spec() -> None:
    assert Rules.preset("british").options() == {o.key: o.default for o in OPTIONS}
    w = Rules.preset("williamson")
    assert (w.call_up, w.kalookie_stake, w.initial_stake, w.buy_in) == (1, 2, 3, 2)
    sw = Rules.preset("swedish")
    assert (sw.target, sw.kalookie_stake) == (100, 3)
    bp = Rules.preset("blackpool")
    assert (bp.initial_meld, bp.target) == (51, 100)
    td = Rules.preset("three-deck")
    assert (td.pack_size, td.joker_penalty, td.identical_sets, td.target) == (159, 25, True, 301)
    na = Rules.preset("north-american")
    assert (na.pack_size, na.hand_size_for(4), na.hand_size_for(5), na.hand_size_for(6)) == \
        (108, 15, 13, 11)
    assert (na.aces, na.ace_penalty, na.joker_penalty, na.joker_release, na.scoring) == \
        ("high-or-low", 15, 25, "one-card", "points")
    sc = Rules.preset("scarne")
    assert (sc.ace_penalty, sc.joker_sets, sc.discard_take, sc.upcard_swap, sc.cut_joker,
            sc.scoring) == (11, True, "meld-at-once", True, True, "cards")


def test_every_option_and_preset_is_documented() -> None:
    assert [o.key for o in GAME.option_infos()] == list(Rules.option_keys())
    assert all(o.doc and o.values for o in OPTIONS)
    infos = GAME.presets()
    assert [p.name for p in infos] == list(PRESETS) and infos[0].name == "british"
    assert all(p.source for p in infos)


@pytest.mark.parametrize(("options", "code", "words"), [
    ({"colour": 1}, "unknown-option", "unknown Kalookie rule option 'colour'"),
    ({"aces": "low"}, "bad-option-value", "aces = 'low' is not one of high, high-or-low"),
    ({"target": True}, "bad-option-value", "whole number"),
    ({"target": 0}, "bad-option-value", "from 1 to"),
    ({"joker_sets": "yes"}, "bad-option-value", "true or false"),
    ({"call_up": "1e100000"}, "bad-option-value", "must be a number"),
    ({"call_up": -1}, "bad-option-value", "must be a number"),
    ({"hand_size": {"x": 3}}, "bad-option-value", "hand_size"),
    ({"hand_size": 0}, "bad-option-value", "hand_size"),
    ({"decks": 4}, "bad-option-value", "decks"),
])
def test_bad_options_are_refused_in_one_sentence(options: dict[str, object], code: str,
                                                 words: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.preset("british", **options)
    assert info.value.code == code and words in info.value.message


def test_unknown_presets_and_player_counts() -> None:
    with pytest.raises(RulesError, match="unknown Kalookie preset 'pagat'"):
        Rules.preset("pagat")
    with pytest.raises(RulesError, match="2, 3, 4 or 5 players, not 6"):
        Rules.preset("british").check_players(6)
    Rules.preset("north-american").check_players(6)
    with pytest.raises(RulesError, match="leave no stock"):
        Rules.preset("british", hand_size=30).check_players(4)


def test_stakes_may_be_fractions_and_overrides_round_trip() -> None:
    r = Rules.preset("british", call_up="1/2", kalookie_stake=1.5, hand_size={"2": 15})
    assert (r.call_up, r.kalookie_stake, r.hand_size) == (Fraction(1, 2), Fraction(3, 2),
                                                          ((2, 15),))
    assert Rules.from_options("british", r.overrides()) == r
    assert r.replace(target=99).target == 99

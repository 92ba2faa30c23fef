"""Unit tests for hoola.games.hoola.rules: presets, overrides, validation, knock limit tables,
and the
options' documentation as data, as ``hoola rules`` prints it."""

from __future__ import annotations

import json
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hoola.cli import cli
from hoola.core.errors import HoolaError, RulesError
from hoola.games.hoola.rules import (
    OPTION_DOCS,
    PRESET_DOCS,
    PRESET_SOURCES,
    PRESETS,
    Rules,
    toml_value,
)

# The pagat column of shared/spec/hoola-rules.md, "Options and presets".
PAGAT: dict[str, Any] = {
    "claims": "battle", "wrap_runs": True, "lay_off_needs_own_meld": True,
    "seven_set_extend": False, "discard_to_go_out": False, "knock_limit": 10, "knocks": True,
    "blasts": True, "four_sevens": True, "hoola_only_out": False, "blast_low": 15,
    "blast_high": 83, "seven_value_blast": 7, "seven_value_end": 14, "face_values": "standard",
    "quad_in_hand_free": False, "four_sevens_timing": "any-time",
    "four_melded_sevens_win": False, "grouping_sevens": False, "no_meld_last": "after-turn",
    "no_meld_double": "after-turn", "seven_double": "after-turn", "seven_in_hand_last": False,
    "hoola_multiplier": 4, "hoola_needs_all_played": False, "hoola_doubles_next": False,
    "discarder_pays_all": "any-out", "undercut": "pays-all", "undercut_penalty": 5,
    "pay_all_doubles": False, "claim_for_blast_or_sevens": False, "blast_multiplier": 1,
    "sevens_multiplier": 1, "jokers": 0, "joker_value": "double", "joker_multiplier": "after-turn",
    "joker_as_seven": False, "dropout_compensation": Fraction(1, 4), "payments": "rank",
    "direction": "anticlockwise",
}

# What each required preset changes from pagat (the spec's preset list).
CHANGES: dict[str, dict[str, Any]] = {
    "pagat": {},
    "classic": {"claims": "next-only", "four_sevens_timing": "turn-start"},
    "rummy-rulebook": {"quad_in_hand_free": True, "seven_double": "always",
                       "hoola_needs_all_played": True, "discarder_pays_all": "hoola-only",
                       "discard_to_go_out": True},
    "online": {"claim_for_blast_or_sevens": True, "pay_all_doubles": True,
               "seven_double": "always", "no_meld_double": "always", "joker_multiplier": "always",
               "blast_multiplier": 7, "sevens_multiplier": 7, "blast_high": 80},
    "two-player": {"knocks": False, "blasts": False, "four_sevens": False},
}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_required_presets_have_the_spec_values(name: str) -> None:
    rules = Rules.preset(name)
    assert rules.preset_name == name
    expected = {**PAGAT, **CHANGES[name]}
    for key, value in expected.items():
        assert getattr(rules, key) == value, key
    # project options keep their defaults in these presets
    assert rules.knock_rule == "limit"
    assert rules.glenn_melds is False
    assert rules.hertzog_no_meld_stake == Fraction(1, 2)


def test_every_spec_key_is_an_option() -> None:
    keys = Rules.option_keys()
    assert set(PAGAT) <= set(keys)
    assert {"knock_rule", "hertzog_no_meld_stake", "glenn_melds"} <= set(keys)
    assert "preset_name" not in keys
    assert not any(k.startswith("_") for k in keys)
    assert list(Rules.preset("pagat").options()) == list(keys)


def test_default_preset_is_pagat() -> None:
    assert Rules.preset() == Rules.preset("pagat") == Rules()


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_builds_and_is_documented(name: str) -> None:
    rules = Rules.preset(name)
    assert rules.preset_name == name
    assert PRESET_SOURCES[name].strip()
    assert rules.overrides() == {}
    for key, value in PRESETS[name].items():
        assert getattr(rules, key) == value


def test_other_presets_values() -> None:
    assert Rules.preset("winjoy").seven_value_blast == 14
    assert Rules.preset("two-player-hoola-only").hoola_only_out is True
    assert Rules.preset("hertzog").payments == "hertzog"
    assert Rules.preset("hertzog").knock_rule == "dealer-one-card"
    assert Rules.preset("glenn").glenn_melds is True
    assert Rules.preset("court-ten").face_values == "ten"
    old = Rules.preset("old")
    assert (old.grouping_sevens, old.four_melded_sevens_win, old.claims) == (True, True,
                                                                             "next-only")


def test_preset_overrides_and_overrides_method() -> None:
    rules = Rules.preset("online", jokers=1, claims="next-only")
    assert rules.jokers == 1
    assert rules.claims == "next-only"
    assert rules.blast_high == 80  # the preset's value stays
    assert rules.preset_name == "online"
    assert rules.overrides() == {"jokers": 1, "claims": "next-only"}
    # overriding with the preset's own value is no override
    assert Rules.preset("classic", claims="next-only").overrides() == {}
    assert Rules.preset("pagat", claims="next-only").overrides() == {"claims": "next-only"}


def test_from_options_merges_over_preset() -> None:
    rules = Rules.from_options("classic", {"knock_limit": 5, "jokers": 2})
    assert rules.claims == "next-only"
    assert rules.knock_limit == 5
    assert rules.jokers == 2
    assert rules.overrides() == {"knock_limit": 5, "jokers": 2}


def test_replace_revalidates() -> None:
    rules = Rules.preset("pagat").replace(wrap_runs=False)
    assert rules.wrap_runs is False
    assert rules.preset_name == "pagat"
    with pytest.raises(RulesError) as info:
        Rules.preset("pagat").replace(claims="first-come")
    assert info.value.code == "bad-option-value"
    with pytest.raises(RulesError) as info:
        Rules.preset("pagat").replace(no_such_option=1)
    assert info.value.code == "unknown-option"


def test_rules_are_frozen_and_hashable() -> None:
    rules = Rules.preset("pagat")
    with pytest.raises(AttributeError):
        rules.claims = "next-only"  # type: ignore[misc]
    assert hash(rules) == hash(Rules.preset("pagat"))
    assert rules != Rules.preset("pagat", knock_limit=5)


def test_fractions_and_floats_are_exact() -> None:
    assert Rules.preset("pagat", dropout_compensation=0.5).dropout_compensation == Fraction(1, 2)
    assert Rules.preset("pagat", dropout_compensation="1/3").dropout_compensation == Fraction(1, 3)
    assert Rules.preset("pagat", undercut_penalty=2.5).undercut_penalty == Fraction(5, 2)
    penalty = Rules.preset("pagat", undercut_penalty=3.0).undercut_penalty
    assert penalty == 3 and isinstance(penalty, int)
    assert Rules.preset("pagat", blast_low=15.0).blast_low == 15


def test_unknown_preset() -> None:
    with pytest.raises(RulesError) as info:
        Rules.preset("poker")
    assert info.value.code == "unknown-preset"
    assert "'poker'" in info.value.message
    with pytest.raises(RulesError) as info:
        Rules.from_options("poker", {})
    assert info.value.code == "unknown-preset"


def test_unknown_option_key() -> None:
    with pytest.raises(RulesError) as info:
        Rules.preset("pagat", knock_limt=5)
    assert info.value.code == "unknown-option"
    assert "knock_limt" in info.value.message
    with pytest.raises(RulesError) as info:
        Rules.from_options("pagat", {"preset_name": "classic"})
    assert info.value.code == "unknown-option"


@pytest.mark.parametrize(("key", "value"), [
    # bad choices
    ("claims", "first"), ("face_values", "eleven"), ("four_sevens_timing", "never"),
    ("no_meld_last", "sometimes"), ("no_meld_double", True), ("seven_double", 2),
    ("discarder_pays_all", "all"), ("undercut", "none"), ("joker_value", "forty"),
    ("joker_multiplier", "never"), ("payments", "points"), ("direction", "up"),
    ("knock_rule", "anyone"),
    # bad types
    ("wrap_runs", "yes"), ("knocks", 1), ("blasts", None), ("seven_set_extend", "true"),
    ("blast_low", "15"), ("blast_high", True), ("seven_value_end", 14.5),
    ("hoola_multiplier", -1), ("jokers", 3), ("jokers", True), ("blast_multiplier", "x"),
    ("undercut_penalty", "lots"), ("undercut_penalty", -1), ("undercut_penalty", True),
    ("dropout_compensation", None), ("hertzog_no_meld_stake", "half"),
    ("knock_limit", True), ("knock_limit", "10"), ("knock_limit", {}),
    ("knock_limit", {2: "5"}), ("knock_limit", {"two": 5}), ("knock_limit", [5, 10]),
])
def test_bad_values_are_refused_with_code(key: str, value: Any) -> None:
    with pytest.raises(RulesError) as info:
        Rules.preset("pagat", **{key: value})
    assert info.value.code == "bad-option-value"
    assert isinstance(info.value, HoolaError)
    assert key in info.value.message or "option" in info.value.message


@pytest.mark.parametrize("key", ["undercut_penalty", "dropout_compensation"])
def test_zero_denominator_is_a_rules_error(key: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.preset("pagat", **{key: "1/0"})
    assert info.value.code == "bad-option-value"


def test_knock_limit_table_from_mapping() -> None:
    rules = Rules.preset("pagat", knock_limit={2: 5, 3: 10, 4: 15, 5: 21})
    assert rules.knock_limit == ((2, 5), (3, 10), (4, 15), (5, 21))
    assert [rules.knock_limit_for(n) for n in (2, 3, 4, 5)] == [5, 10, 15, 21]
    assert rules.overrides() == {"knock_limit": ((2, 5), (3, 10), (4, 15), (5, 21))}


def test_knock_limit_table_string_keys_as_in_toml() -> None:
    rules = Rules.from_options("pagat", {"knock_limit": {"4": 15, "2": 5}})
    assert rules.knock_limit == ((2, 5), (4, 15))


def test_knock_limit_missing_counts() -> None:
    rules = Rules.preset("pagat", knock_limit={2: 5, 4: 15})
    # a missing count takes the largest listed count below it ...
    assert rules.knock_limit_for(3) == 5
    assert rules.knock_limit_for(5) == 15
    assert rules.knock_limit_for(7) == 15
    # ... or else the smallest listed count
    rules = Rules.preset("pagat", knock_limit={3: 10, 5: 21})
    assert rules.knock_limit_for(2) == 10
    assert rules.knock_limit_for(4) == 10
    assert rules.knock_limit_for(6) == 21


def test_knock_limit_int_for_every_count() -> None:
    rules = Rules.preset("pagat", knock_limit=4)
    assert {rules.knock_limit_for(n) for n in range(2, 8)} == {4}
    assert Rules.preset("pagat").knock_limit_for(3) == 10


def test_rank_values() -> None:
    standard = Rules.preset("pagat")
    assert [standard.rank_value(r) for r in range(13)] == list(range(1, 14))
    ten = Rules.preset("pagat", face_values="ten")
    assert [ten.rank_value(r) for r in range(13)] == [*range(1, 11), 10, 10, 10]


@pytest.mark.parametrize(("call", "code"), [
    (lambda: Rules.preset(["pagat"]), "unknown-preset"),  # used to raise TypeError
    (lambda: Rules.preset(None), "unknown-preset"),
    (lambda: Rules(preset_name=["pagat"]), "unknown-preset"),  # type: ignore[arg-type]
    (lambda: Rules.from_options("pagat", [("jokers", 1)]), "bad-option-value"),
    (lambda: Rules.from_options("pagat", {1: 2}), "unknown-option"),
    (lambda: Rules.preset("pagat", dropout_compensation=float("inf")), "bad-option-value"),
    (lambda: Rules.preset("pagat", undercut_penalty=float("nan")), "bad-option-value"),
    (lambda: Rules.preset("pagat", hoola_multiplier=0), "bad-option-value"),
    (lambda: Rules.preset("pagat", knock_limit=-1), "bad-option-value"),
    (lambda: Rules.preset("pagat", knock_limit={9: 10}), "bad-option-value"),
    (lambda: Rules.preset("pagat", knock_limit={2: -5}), "bad-option-value"),
    (lambda: Rules.preset("pagat", knock_limit={2: 5, "2": 6}), "bad-option-value"),
    (lambda: Rules(knock_limit={"a": 3}), "bad-option-value"),  # used to raise ValueError
    (lambda: Rules(knock_limit=((2,),)), "bad-option-value"),  # type: ignore[arg-type]
    (lambda: Rules().replace(_values=(1,)), "unknown-option"),
    (lambda: Rules().knock_limit_for("3"), "bad-player-count"),  # type: ignore[arg-type]
    (lambda: Rules().knock_limit_for(8), "bad-player-count"),
    (lambda: Rules().rank_value(-1), "bad-rank"),  # used to read the king's value
    (lambda: Rules().rank_value(13), "bad-rank"),
])
def test_malformed_rules_input_is_a_rules_error(call: Any, code: str) -> None:
    with pytest.raises(RulesError) as info:
        call()
    assert info.value.code == code, info.value.message


def test_whole_floats_and_decimal_fractions_are_read_exactly() -> None:
    assert Rules.preset("pagat", jokers=2.0).jokers == 2
    assert Rules.preset("pagat", dropout_compensation=0.1).dropout_compensation == Fraction(1, 10)


def test_every_option_and_preset_is_documented_as_data() -> None:
    assert tuple(OPTION_DOCS) == Rules.option_keys()
    assert list(PRESET_DOCS) == list(PRESETS)
    for doc in OPTION_DOCS.values():
        assert doc.meaning.strip() and doc.values.strip() and "\n" not in doc.meaning
        for choice in doc.choices:  # every documented choice is accepted
            assert getattr(Rules.preset("pagat", **{doc.key: choice}), doc.key) == choice
    for preset in PRESET_DOCS.values():
        assert preset.meaning.strip() and preset.source.strip()
        assert set(preset.changes) == set(PRESETS[preset.name])  # each sets what it changes


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_toml_spelling_reads_back_as_the_same_value(name: str) -> None:
    rules = Rules.preset(name, knock_limit={2: 5, 4: 15}, dropout_compensation="1/3")
    for key, value in rules.options().items():
        text = toml_value(value)
        assert "True" not in text and "False" not in text and "Fraction" not in text
        read = tomllib.loads(f"v = {text}")["v"]
        assert getattr(Rules.from_options(name, {key: read}), key) == value, (key, text)


def test_rules_command_prints_meanings_and_toml_values() -> None:
    result = CliRunner().invoke(cli, ["rules"])
    assert result.exit_code == 0
    out = result.output
    for doc in OPTION_DOCS.values():
        assert f"\n  {doc.key} = " in out
    for name in PRESETS:
        assert f"\n  {name}: " in out or out.startswith(f"  {name}: ")
    assert '  claims = "battle"' in out and "  wrap_runs = true" in out
    assert "  dropout_compensation = 0.25" in out
    assert "(ruling 19)" in out and 'Sets: claims = "next-only"' in out
    assert "True" not in out and "1/4" not in out and "\xa0" not in out
    assert max(len(line) for line in out.splitlines()) <= 80  # not a terminal: 80 columns
    online = CliRunner().invoke(cli, ["rules", "-r", "online"]).output
    assert "  blast_high = 80" in online and "Options with their online values" in online


def test_rules_command_json_and_bad_preset() -> None:
    result = CliRunner().invoke(cli, ["rules", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert [o["key"] for o in data["options"]] == list(OPTION_DOCS)
    assert [p["name"] for p in data["presets"]] == list(PRESETS)
    by_key = {o["key"]: o for o in data["options"]}
    assert by_key["dropout_compensation"]["value"] == 0.25
    assert by_key["dropout_compensation"]["toml"] == "0.25"
    assert by_key["claims"]["values"] == '"battle", "battle-next-priority", "next-only"'
    assert data["game"] == "hoola" and "kalookie" in data["games"]
    bad = CliRunner().invoke(cli, ["rules", "--rules", "nope"])
    assert bad.exit_code == 2 and "unknown preset 'nope'" in bad.output
    assert "Traceback" not in bad.output


def test_rules_command_serves_every_game() -> None:
    result = CliRunner().invoke(cli, ["rules", "kalookie", "-r", "north-american"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("Kalookie") and "  scarne\n" in out
    assert "  initial_meld = 51" in out and '  aces = "high-or-low"' in out
    assert "  hand_size = {2 = 15, 3 = 15, 4 = 15, 5 = 13, 6 = 11}" in out
    bad = CliRunner().invoke(cli, ["rules", "chess"])
    assert bad.exit_code == 2
    assert "unknown game 'chess': the games are hoola, capture, kalookie" in bad.output


def test_rules_page_option_table_names_every_option() -> None:
    """docs/rules.md (linked from the README) names every Hoola option in its option table."""
    page = (Path(__file__).parent.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    table = page[page.index("| option | values"):page.index("## Kalookie")]
    for key in OPTION_DOCS:
        assert f"`{key}`" in table, key


def test_refused_values_are_named_as_a_record_spells_them() -> None:
    for options, shown in [({"jokers": True}, "jokers = true"),
                           ({"knock_limit": {"9": 3}}, "knock_limit = {9 = 3}"),
                           ({"claims": "first"}, 'claims = "first"')]:
        with pytest.raises(RulesError) as info:
            Rules.from_options("pagat", options)
        assert shown in info.value.message

"""The generic core: the registry, the record frame's dispatch, and Hoola through the interface."""

from __future__ import annotations

from pathlib import Path

import pytest

from hoola.core.errors import RulesError
from hoola.core.game import GameState
from hoola.core.records import verify_path, verify_text
from hoola.core.registry import game_names, get_game
from hoola.games.hoola.deal import Deal
from hoola.games.hoola.rules import Rules
from hoola.games.hoola.state import DealState

HEAD = 'format = "hoola-record/1"\nplayers = ["A", "B"]\n'


def test_the_registry_finds_hoola_by_its_entry_point() -> None:
    assert game_names()[0] == "hoola"
    game = get_game()
    assert game.name == "hoola" and game is get_game("hoola")
    assert {o.key for o in game.option_infos()} >= {"claims", "knock_limit", "jokers"}
    with pytest.raises(RulesError, match="unknown game 'chess': the games are hoola"):
        get_game("chess")


def test_a_hoola_deal_speaks_the_generic_interface() -> None:
    game = get_game("hoola")
    state = game.new_deal(game.rules("classic"), ["A", "B", "C"], seed=3)
    assert isinstance(state, GameState)
    assert state.format(state.parse("A draw")) == "A draw"


@pytest.mark.parametrize(("text", "problem"), [
    ('game = "chess"\n', "unknown game 'chess'"),
    ("game = 7\n", "game must be a name"),
    ('game = "hoola"\nrules = "pagat"\n[[deal]]\nseed = 1\nactions = ["A draw"]\n', None),
])
def test_the_frame_hands_a_record_to_the_game_it_names(text: str, problem: str | None) -> None:
    verdict = verify_text(HEAD + text, "r.toml")
    assert verdict.ok == (problem is None), verdict.problems
    if problem is not None:
        assert problem in verdict.problems[0]


def test_an_unreadable_file_fails_with_its_reason(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_bytes(b"\xff\xfe")
    verdict = verify_path(tmp_path / "bad.toml")
    assert not verdict.ok and "not UTF-8" in verdict.problems[0]


def _claim_window(claims: str) -> DealState:
    # A discards 9d: B (next to play) may take it with 9s 9h, C with 8d Td.
    from hoola.core.cards import parse_card, parse_cards

    hands = ["2s 4s 6s 8s Ts Qs 9d", "9s 9h 3h 5h Jh Kh Ah", "8d Td 2c 4c 6c Qc Kc",
             "3c 5c 7c Jc 2h 4h 6h"]
    rules = Rules.preset("pagat", claims=claims)
    deal = Deal.explicit(rules, [parse_cards(h) for h in hands], parse_card("Ac"),
                         parse_cards("3d"))
    state = DealState(rules, ["A", "B", "C", "D"], deal)
    state.apply(state.parse("A draw"))
    state.apply(state.parse("A discard 9d"))
    return state


def test_resolve_settles_simultaneous_claims_by_the_rules() -> None:
    battle, priority = _claim_window("battle"), _claim_window("battle-next-priority")
    draw, by_b, by_c = (battle.parse(t) for t in ("B draw", "B take 9d with 9s 9h",
                                                   "C take 9d with 8d Td"))
    assert battle.can(by_b) and battle.can(by_c) and priority.can(by_c)
    assert battle.resolve([]) is None  # B, whose turn it is, has not decided
    assert battle.resolve([draw]) == draw
    assert battle.resolve([by_c, draw]) == by_c  # a claim beats the draw
    assert battle.resolve([by_c, by_b]) == by_c  # battle: the first to arrive
    assert battle.resolve([by_b, by_c]) == by_b
    assert priority.resolve([by_c, by_b]) == by_b  # turn order from B
    assert priority.resolve([by_c, draw]) == by_c


def test_a_hoola_view_as_data_shows_only_the_seats_own_cards() -> None:
    import json

    game = get_game("hoola")
    state = game.new_deal(game.rules(), ["A", "B", "C"], seed=2)
    view = state.view(1)
    table = view.table()
    hands = [z for z in table.zones if z.kind == "hand"]
    assert [z.cards is not None for z in hands] == [False, True, False]
    assert [z.count for z in hands] == [7, 7, 7] and table.zone("stock").count == len(state.stock)
    assert table.moment.prompt == "A to play" and table.moment.actors == ()
    data = json.loads(json.dumps(view.to_json()))
    assert data["hand"] == list(table.zone("hand-1").cards or ()) and data["hands"] is None
    others = {c for q in (0, 2) for c in json.dumps(state.hand(q))}
    assert others  # the others' cards exist, yet no zone names them
    shown = {c for z in table.zones if z.cards for c in z.cards}
    from hoola.core.cards import format_card

    assert not shown & {format_card(c) for q in (0, 2) for c in state.hand(q)}


@pytest.mark.parametrize("name", game_names())
def test_every_registered_game_speaks_the_whole_interface(name: str) -> None:
    import json

    from hoola.core.game import View

    game = get_game(name)
    assert isinstance(game.name, str) and game.presets() and game.option_infos()
    for method in ("rules", "new_deal", "new_match", "determinize", "expert", "bots",
                   "format_action", "verify_record", "tell_record"):
        assert callable(getattr(game, method)), method
    names = ["A", "B", "C", "D"][:game.min_players]
    state = game.new_deal(game.rules(), names, seed=5)
    assert isinstance(state, GameState)
    for seat in range(len(names)):
        view = state.view(seat)
        assert isinstance(view, View)
        table = view.table()
        for zone in table.zones:
            if zone.kind == "hand" and zone.owner != seat:
                assert zone.cards is None, (name, zone)
        json.dumps(view.to_json())
        json.dumps(table.to_json())
    actor = min(state.actors())
    action = state.legal_actions(actor)[0]
    assert state.parse(state.format(action)) == action

"""What the games say to players, as keys with arguments: every key in English and Korean, the
settlement's lines equal to the engine's amounts, the score columns equal to the score table, the
presets' titles, and the hints without the rulings' numbers."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from hoola.core.game import game_heading, table_title
from hoola.core.registry import game_names, get_game
from hoola.core.table import Table
from hoola.core.words import PHRASES, Said, say

WORDS = Path(__file__).resolve().parents[1] / "src" / "hoola" / "server" / "web" / "words.json"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def words() -> dict[str, dict[str, str]]:
    data: dict[str, dict[str, str]] = json.loads(WORDS.read_text(encoding="utf-8"))
    return data


def _all_games_loaded() -> None:
    """Every game's words are registered when its views and presets are: play one step of each
    preset's deal and read its presets."""
    for name in game_names():
        game = get_game(name)
        game.presets()
        game.expert()
        state = game.new_deal(game.rules(None), ["A", "B"], seed=1)
        state.view(0).table()


def test_every_key_a_game_says_has_english_and_korean_words() -> None:
    _all_games_loaded()
    data = words()
    en, ko = data["en"], data["ko"]
    missing = sorted(k for k in PHRASES if k not in en or k not in ko)
    assert not missing, missing
    # The browser's English is the engine's own (the terminal prints the same sentences).
    assert {k: en[k] for k in PHRASES} == dict(PHRASES)
    assert set(en) == set(ko)
    for key in en:
        assert set(PLACEHOLDER.findall(en[key])) == set(PLACEHOLDER.findall(ko[key])), key
        words_of = PLACEHOLDER.sub("", ko[key])
        assert re.search("[\uac00-\ud7a3]", words_of) or not re.search("[A-Za-z]", words_of), \
            (key, ko[key])  # a Korean entry is Korean (or has no words of its own)


def _saids(table: Table) -> Iterator[Said]:
    def walk(s: Said) -> Iterator[Said]:
        yield s
        for v in s.args.values():
            if isinstance(v, Said):
                yield from walk(v)

    if table.moment.say is not None:
        yield from walk(table.moment.say)
    for said in table.outcome:
        yield from walk(said)
    for line in table.settlement:
        for said in line.why:
            yield from walk(said)
    for zone in table.zones:
        if zone.say is not None:
            yield from walk(zone.say)


def _play(game_name: str, preset: str, players: int, seed: int) -> Iterator[tuple[Any, Any]]:
    """A whole match of random moves, deal by deal: (the match, the deal just finished and
    folded into it)."""
    game = get_game(game_name)
    rules = game.rules(preset)
    names = ["A", "B", "C", "D", "E"][:players]
    match = game.new_match(rules, names, seed=seed)
    rng = random.Random(seed)
    for _ in range(3):
        state = match.new_deal()
        steps = 0
        while not state.is_over and steps < 4000:
            seat = min(state.actors())
            if steps % 7 == 0:
                for said in _saids(state.view(seat).table()):
                    assert said.key in PHRASES, said.key
                    assert said.text == PHRASES[said.key].format(**{
                        k: v.text if isinstance(v, Said) else v for k, v in said.args.items()})
            state.apply(rng.choice(state.legal_actions(seat)))
            steps += 1
        if not state.is_over:
            return
        match.finish_deal()
        yield match, state
        if match.is_over:
            return


PRESETS = [(g, p.name) for g in ("hoola", "kalookie", "capture") for p in get_game(g).presets()]


@pytest.mark.parametrize(("game_name", "preset"), PRESETS)
def test_settlement_lines_add_up_to_the_engine_payments(game_name: str, preset: str) -> None:
    """Each seat's payment is what its lines of the settlement table pay and receive; each line
    says why; the sentences are all registered words."""
    players = 2 if "two-player" in preset else 4 if game_name == "capture" else 3
    known = words()["ko"]
    for seed in (3, 11):
        for _match, state in _play(game_name, preset, players, seed):
            table = state.view(0).table()
            for said in _saids(table):
                assert said.key in known, said.key
            assert table.outcome, "the deal's end is told"
            if game_name == "capture":
                continue  # its lines are what each side scores: checked below
            payments = state.view(0).result.payments
            got = [Fraction(0)] * players
            for line in table.settlement:
                assert line.why, line
                amount = Fraction(line.amount)
                if line.payer is not None:
                    got[line.payer] -= amount
                if line.payee is not None:
                    got[line.payee] += amount
            assert got == [Fraction(payments.get(q, 0)) for q in range(players)], \
                (seed, table.settlement, payments)


@pytest.mark.parametrize("preset", [p.name for p in get_game("capture").presets()])
def test_capture_score_columns_after_a_hand_equal_the_score_table(preset: str) -> None:
    """Once a hand is over, the view's running score ("Game points (to 10)") counts the hand,
    as the match's score table beside it does, and the settlement's lines are what each side
    gained."""
    for match, state in _play("capture", preset, 4, 5):
        table = state.view(1).table()
        board = match.scoreboard()
        assert table.scores[0].label == board.scores[0].label
        assert table.scores[0].values == board.scores[0].values
        gained = [int(line.amount) for line in table.settlement]
        assert gained == list(state.view(1).gained())
        before = [int(v) - g for v, g in zip(table.scores[0].values, gained, strict=True)]
        assert before == list(state.view(1).standing)


def test_kalookie_prompts_say_add_as_the_button_does() -> None:
    assert "build" not in PHRASES["kalookie.turn"]
    assert PHRASES["kalookie.turn"] == "Meld, add, or discard to end the turn"


def test_a_prompt_of_two_parts_is_one_sentence_of_two() -> None:
    both = say("prompt.and", first=say("kalookie.warn", n=2), then=say("kalookie.draw"))
    assert both.text == "Warn that you hold 2 cards; Draw from the stock"
    assert both.to_json()["args"]["first"] == {"key": "kalookie.warn", "args": {"n": "2"},
                                               "text": "Warn that you hold 2 cards"}


def test_presets_have_titles_for_people() -> None:
    for name in ("hoola", "kalookie", "capture"):
        for p in get_game(name).presets():
            assert p.title and p.title != p.name and not p.title[0].islower(), (name, p.name)
    capture, kalookie = get_game("capture"), get_game("kalookie")
    assert table_title(capture, "sedma") == "Sedma"
    assert table_title(kalookie, "british") == "Kalookie · British club rules"
    assert game_heading(capture, "sedmice-croatian") == "Croatian Sedmice"
    assert game_heading(kalookie, "scarne") == "Kalookie, scarne rules"


def test_the_rules_book_serves_titles_meanings_and_options() -> None:
    from hoola.core.rulebook import rules_data

    data = rules_data(get_game("hoola"), "glenn")
    glenn = next(p for p in data["presets"] if p["name"] == "glenn")
    assert glenn["title"] == "Building on melds" and glenn["meaning"]
    assert next(o for o in data["options"] if o["key"] == "glenn_melds")["value"] is True


def test_hints_leave_the_rulings_numbers_to_the_rule_book() -> None:
    from hoola.server.replay import _RULING

    said = "Lay 8d now: it completes your initial meld this turn, so it may not be taken " \
           "(ruling 8)."
    assert _RULING.sub("", said).endswith("may not be taken.")


@pytest.mark.parametrize(("game_name", "preset"), [
    ("capture", "sedma"), ("capture", "ristiklappi"), ("capture", "sedmice"),
    ("hoola", "pagat"), ("hoola", "online-missions"), ("kalookie", "british"),
    ("kalookie", "scarne")])
def test_expert_hints_give_their_reasons_as_keys(game_name: str, preset: str) -> None:
    """Each game's expert gives its reason as a key too: the Korean page shows it."""
    from hoola.core.words import Reason

    game = get_game(game_name)
    known = words()["ko"]
    state = game.new_deal(game.rules(preset), ["A", "B", "C", "D"], seed=2)
    rng = random.Random(2)
    expert = game.expert()
    for _ in range(60):
        if state.is_over:
            break
        seat = min(state.actors())
        action, why = expert.explain(state.view(seat))
        assert isinstance(why, Reason) and why.said.key in known, why
        assert str(why) == why.said.text
        if action is None or rng.random() < 0.5:
            action = rng.choice(state.legal_actions(seat))
        state.apply(action)


def test_a_fixed_undercut_penalty_is_paid_to_each_other_player() -> None:
    """With ``undercut = "fixed"`` the undercut knocker pays everyone: one line each, adding up
    to the engine's payments."""
    game = get_game("hoola")
    fixed = 0
    for seed in range(150):
        state = game.new_deal(game.rules("pagat", {"undercut": "fixed"}), ["A", "B", "C", "D"],
                              seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = min(state.actors())
            legal = state.legal_actions(seat)
            knocks = [a for a in legal if type(a).__name__ == "Knock"]
            state.apply(knocks[0] if knocks and rng.random() < 0.7 else rng.choice(legal))
        view = state.view(0)
        result = view.result
        got = [Fraction(0)] * 4
        for line in view.table().settlement:
            assert line.payer is not None and line.payee is not None
            got[line.payer] -= Fraction(line.amount)
            got[line.payee] += Fraction(line.amount)
        assert got == [Fraction(result.payments.get(q, 0)) for q in range(4)]
        if not result.losers and result.payer is not None:
            fixed += 1
            assert all(w.key == "hoola.why.undercut-fixed"
                       for line in view.table().settlement for w in line.why)
    assert fixed, "no undercut knock in these deals"


def test_hoola_cues_tell_the_points_in_hand_and_the_knock_limit() -> None:
    """The seat's cues (the browser and the terminal show them): its points, and the knock
    limit while no knock is open; a seat sitting the deal out is told so."""
    from hoola.core.cards import card_mask
    from hoola.games.hoola import DealState, Rules
    from hoola.games.hoola.scoring import hand_points

    state = DealState.new(Rules.preset("pagat"), ["A", "B", "C", "D"], seed=7)
    view = state.view(1)
    cues = view.table().cues
    points = hand_points(card_mask(view.hand), 0, view.rules, True)
    assert cues[0].key == "hoola.cue.points" and cues[0].text == f"{points} points"
    limit = view.rules.knock_limit_for(4)
    assert any(c.text == f"knock at {limit} or less" for c in cues)
    assert view.table().to_json()["cues"][0]["args"] == {"n": str(points)}


def _unsaid(table: Table) -> list[str]:
    """The words of ``table`` a player reads that carry no key: a score line's label, the prompt,
    a zone's label (each must be a key with arguments, or the Korean page shows English)."""
    out = [f"score {s.label!r}" for s in table.scores if s.say is None]
    if table.moment.prompt and table.moment.say is None:
        out.append(f"prompt {table.moment.prompt!r}")
    # The stock and the discards are named by every front end from their kind; Hoola's notices
    # of the mission and the settlement are drawn from the view's mission and the table's
    # outcome and settlement lines.
    out += [f"zone {z.label!r}" for z in table.zones if z.label and z.say is None
            and z.kind not in ("stock", "discard") and z.id not in ("mission", "settlement")]
    return out


@pytest.mark.parametrize(("game_name", "preset"), PRESETS)
def test_every_word_of_a_table_and_a_scoreboard_is_a_key(game_name: str, preset: str) -> None:
    players = 2 if "two-player" in preset else 4 if game_name == "capture" else 3
    for seed in (3, 4):
        for match, state in _play(game_name, preset, players, seed):
            for seat in range(players):
                assert not _unsaid(state.view(seat).table()), seat
            assert not _unsaid(match.scoreboard()), _unsaid(match.scoreboard())

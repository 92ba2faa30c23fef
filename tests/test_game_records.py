"""Every registered game writes its matches as records and resumes them (Game.record_text and
Game.resume), the ground the saves of ``hoola play`` stand on."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from hoola.core.errors import RecordError
from hoola.core.records import verify_text
from hoola.core.registry import game_names, get_game

NAMES = ["You", "Random1", "Random2", "Random3"]


def play_randomly(state: Any, rng: random.Random, limit: int = 100_000) -> None:
    """Random legal moves by whoever may act, until the deal ends or ``limit`` moves."""
    for _ in range(limit):
        if state.is_over:
            return
        seat = rng.choice(sorted(state.actors()))
        legal = state.legal_actions(seat)
        if legal:
            state.apply(rng.choice(legal))


def a_match(name: str, finished: int, then: int, seed: int = 3) -> Any:
    """A match of ``finished`` deals played to their end and ``then`` moves of the next."""
    game = get_game(name)
    match = game.new_match(game.rules(), NAMES, seed=seed)
    rng = random.Random(seed)
    for _ in range(finished):
        play_randomly(match.new_deal(), rng)
        match.finish_deal()
    play_randomly(match.new_deal(), rng, then)
    return match


@pytest.mark.parametrize("name", game_names())
def test_a_match_in_play_is_a_record_that_verifies_and_resumes_as_it_was(name: str) -> None:
    game = get_game(name)
    match = a_match(name, 2, 12)
    text = game.record_text(match, "hoola play: you=You\nsecond line")
    assert text.startswith("# hoola play: you=You\n# second line\n")
    assert verify_text(text).ok, verify_text(text).line()
    resumed = game.resume(text, seed=9)
    assert len(resumed.deals) == 3 and not resumed.deals[-1].is_over
    assert [resumed.deals[-1].format(a) for a in resumed.deals[-1].history] == \
        [match.deals[-1].format(a) for a in match.deals[-1].history]
    # Written again, the resumed match is the same record, byte for byte.
    assert game.record_text(resumed, "hoola play: you=You\nsecond line") == text
    # And it plays on: the deal to its end, one more after it, still a record that verifies.
    rng = random.Random(1)
    play_randomly(resumed.deals[-1], rng)
    resumed.finish_deal()
    if not resumed.is_over:  # a capture game may be won by then
        play_randomly(resumed.new_deal(), rng)
        resumed.finish_deal()
    again = game.record_text(resumed)
    assert verify_text(again).ok, verify_text(again).line()


@pytest.mark.parametrize("name", game_names())
def test_a_record_that_does_not_replay_is_not_resumed(name: str) -> None:
    game = get_game(name)
    text = game.record_text(a_match(name, 0, 6))
    last = [line for line in text.splitlines() if re.fullmatch(r'  "\w+ .*",', line)][-1]
    broken = text.replace(last, '  "You discard Zz",')
    with pytest.raises(RecordError, match="cannot resume"):
        game.resume(broken)
    for garbage in ("", "format = 1", 'format = "hoola-record/1"\nplayers = 3\n', "[[["):
        with pytest.raises(RecordError):
            game.resume(garbage)

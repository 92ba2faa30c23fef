"""Kalookie records: reading, checking, verifying, writing, and refusing malformed ones."""

from __future__ import annotations

import random

import pytest

from hoola.core.driver import play_deal
from hoola.core.errors import RecordError
from hoola.games.kalookie import GAME
from hoola.games.kalookie.records import dumps, loads, record_of, verify

HEAD = 'format = "hoola-record/1"\ngame = "kalookie"\nrules = "british"\nplayers = ["A", "B"]\n'
KALOOKIE = """
[[deal]]
hands = { A = "2s 3s 4h 6h 8h Ts Jd Qc Ac 7d 9s 6c 8c", \
B = "Ah Kh Qh 5s 5d 5c 2d 3d 4d 9c Tc Jc Kd" }
upcard = "Js"
stock = "5h"
actions = ["B draw", "B meld Qh Kh Ah", "B meld 5s 5d 5c 5h", "B meld 2d 3d 4d", "B meld 9c Tc Jc",
           "B discard Kd"]
"""


class Random:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, view: object) -> object:
        legal = view.legal  # type: ignore[attr-defined]
        lays = [a for a in legal if type(a).__name__ in ("NewMeld", "Add", "Swap")]
        return self.rng.choice(lays if lays and self.rng.random() < 0.8 else legal)


def test_a_played_game_round_trips_and_verifies() -> None:
    rules = GAME.rules("british", {"warnings": "manual", "target": 60})
    match = GAME.new_match(rules, ["Ann", "Bo", "Cy"], seed=5)
    while not match.is_over and len(match.deals) < 6:
        play_deal(match.new_deal(), [Random(i) for i in range(3)])
        match.finish_deal()
    record = record_of(match)
    text = dumps(record, comment="a random game\nwith a comment")
    assert text.startswith("# a random game\n# with a comment\n")
    assert loads(text) == record and dumps(loads(text)) == dumps(record)
    assert verify(record) == []
    assert record["options"] == {"target": 60, "warnings": "manual"}


@pytest.mark.parametrize(("result", "problem"), [
    ("end = \"kalookie\"\nwinner = \"B\"\npenalty = { A = 94, B = 0 }\n"
     "payments = { A = -2, B = 2 }", None),
    ("end = \"call-up\"", "end is kalookie, record says call-up"),
    ("winner = \"A\"", "winner is B, record says A"),
    ("penalty = { A = 93 }", "penalty of A is 94, record says 93"),
    ("payments = { B = \"5/2\" }", "payments of B is 2, record says 2.5"),
    ("illegal = 6", "action 6 'B discard Kd' was accepted but must be refused"),
])
def test_results_are_compared_key_by_key(result: str, problem: str | None) -> None:
    problems = verify(loads(HEAD + KALOOKIE + "\n[deal.result]\n" + result + "\n"))
    assert problems == ([] if problem is None else [problem])


def test_with_a_refused_action_the_other_result_keys_still_describe_the_end() -> None:
    refused = HEAD + KALOOKIE.replace('"B discard Kd"', '"B discard Kc"') + "\n[deal.result]\n"
    assert verify(loads(refused + "illegal = 6\n")) == []
    assert verify(loads(refused + "illegal = 6\nend = \"call-up\"\n")) == [
        "the hand has not ended after the last action, but the record gives end"]


def test_a_deal_may_give_records_md_stake_of_1() -> None:
    assert verify(loads(HEAD + KALOOKIE.replace("[[deal]]", "[[deal]]\nstake = 1"))) == []


def test_a_refused_action_is_reported_with_its_rule() -> None:
    text = HEAD + KALOOKIE.replace('"B discard Kd"', '"B discard Kc"')
    assert verify(loads(text)) == ["action 6 'B discard Kc' refused: B cannot discard Kc: B does "
                                   "not hold Kc [not-in-hand]"]
    unfinished = HEAD + KALOOKIE + "\n[match]\nwinner = \"B\"\npool = 10\n"
    assert verify(loads(unfinished)) == ["the game stopped before its end, so nobody won it; "
                                         "record says winner B"]


@pytest.mark.parametrize(("text", "words"), [
    ("format = 1", "format must be"),
    ('format = "hoola-record/1"\nrules = "british"\nplayers = ["A", "B"]', "game must be"),
    (HEAD.replace('["A", "B"]', '["A", "A"]'), "distinct"),
    (HEAD.replace('["A", "B"]', '["A\\n", "B"]'), "names of letters"),
    (HEAD + "colour = 1\n", "unknown top-level key 'colour'"),
    (HEAD + "[options]\naces = \"low\"\n", "aces = 'low'"),
    (HEAD.replace("british", "pagat"), "unknown Kalookie preset"),
    (HEAD + KALOOKIE.replace('upcard = "Js"', 'upcard = "Js Qs"'), "upcard must be one card"),
    (HEAD + KALOOKIE.replace('stock = "5h"', 'stock = "5x"'), "cannot read card '5x'"),
    (HEAD + KALOOKIE + "\n[deal.result]\nillegal = 9\n", "illegal must be"),
    (HEAD + KALOOKIE + "\n[deal.result]\npayments = { A = 1e400 }\n", "must be a number"),
    (HEAD + KALOOKIE + "\n[deal.result]\npayments = { A = \"1/0\" }\n", "must be a number"),
    (HEAD + KALOOKIE + "\n[deal.result]\nwinner = \"Z\"\n", "winner must be a player"),
    (HEAD + KALOOKIE + "\n[match]\nout = \"A\"\n", "out must be a list"),
    (HEAD + "[[deal]]\nactions = []\n", "needs hands"),
    (HEAD + "[[deal]]\nseed = -1\n", "seed must be"),
    (HEAD + KALOOKIE.replace("[[deal]]", "[[deal]]\nstake = 2"), "stake must be 1, not 2"),
    ("x = [" * 5000, "not valid TOML"),
    (HEAD + "[options]\ntarget = " + "9" * 5000 + "\n", "thousands of digits"),
])
def test_malformed_records_raise_one_clear_sentence(text: str, words: str) -> None:
    with pytest.raises(RecordError) as info:
        verify(loads(text))
    assert words in info.value.message and "\n" not in info.value.message.strip()


def test_deal_problems_are_findings_not_crashes() -> None:
    bad_count = KALOOKIE.replace('Kd" }', 'Kd Kd Kd" }')
    assert verify(loads(HEAD + bad_count)) == ["a hand of 15 cards where 13 are dealt"]
    thrice = KALOOKIE.replace('stock = "5h"', 'stock = "5h Js Js"')
    assert verify(loads(HEAD + thrice)) == ["the deal holds Js more than the 2 the pack has"]
    cut = HEAD + KALOOKIE.replace("upcard", "cut = \"JK\"\nupcard")
    assert verify(loads(cut)) == ["a joker shown in the cut goes to the cutter only with "
                                  "cut_joker (Scarne)"]
    two = HEAD + KALOOKIE + KALOOKIE.replace("B draw", "A draw")
    problems = verify(loads(two))
    assert problems and problems[0].startswith("deal 2: ")


def test_long_actions_are_cut_short_in_findings() -> None:
    text = HEAD + KALOOKIE.replace('"B discard Kd"', '"B add Kd on m' + "9" * 5000 + '"')
    (problem,) = verify(loads(text))
    assert len(problem) < 300 and "(m1 to m999999)" in problem
    many = HEAD + KALOOKIE.replace('"B discard Kd"', '"B meld ' + "JK " * 200 + '"')
    assert verify(loads(many))[0].endswith("a meld has at most fourteen (ruling 3) [meld-too-long]")

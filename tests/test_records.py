"""Unit tests for hoola.games.hoola.records: reading, writing, replaying and verifying record
files."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from hoola.bots import RandomBot
from hoola.core.cards import format_cards
from hoola.core.driver import play_deal
from hoola.core.errors import HoolaError, RecordError
from hoola.games.hoola.greedy import GreedyBot
from hoola.games.hoola.match import Match
from hoola.games.hoola.records import (
    FORMAT,
    DealRecord,
    Record,
    dumps,
    format_number,
    load,
    loads,
    record_of,
    replay,
    verify,
    verify_path,
)
from hoola.games.hoola.rules import Rules
from hoola.games.hoola.state import DealState

HEAD = f'format = "{FORMAT}"\nrules = "pagat"\nplayers = ["A", "B", "C", "D"]\n'

# A knocks at once with 10 points (pagat): B 74, C 45, D 37 pay 3, 2, 1.
KNOCK_DEAL = """
[[deal]]
hands = { A = "As Ah Ad Ac 2s 2h 2d", B = "Ks Kh Qh Qd Tc 8s 6s", C = "7s 3s 4h 5h 6h Th 3d", \
D = "8d 8c 3c 4s 5s 4d 5d" }
upcard = "Kd"
stock = "Qs Js"
actions = [
  "A knock",
]
"""
KNOCK_RESULT = """
[deal.result]
end = "knock"
winners = ["A"]
points = { A = 10, B = 74, C = 45, D = 37 }
payments = { A = 6, B = -3, C = -2, D = -1 }
"""
KNOCK = HEAD + KNOCK_DEAL.replace(" \\\n", " ") + KNOCK_RESULT

# C claims A's discard out of turn and goes out at once: a Hoola; A ranks last and pays all.
CLAIM_OUT = HEAD + """
[[deal]]
hands = { A = "9s 9h Kc Qd Jd 3h 5s", B = "2c 3c 4c Ah Ad 7h 6h", C = "Qs Qh 4d 5d 6d 7d 2s", \
D = "Ks Th Td Tc 8d 9c 5h" }
upcard = "Ts"
stock = "8s 4h Jc Kh 3d"
actions = [
  "A draw",
  "A discard Qd",
  "C take Qd with Qs Qh",
  "C meld 4d 5d 6d 7d",
  "C discard 2s",
]

[deal.result]
end = "hoola"
winners = ["C"]
payments = { A = -36, B = 0, C = 36, D = 0 }
""".replace(" \\\n", " ")


def test_knock_record_verifies() -> None:
    verdict = verify(loads(KNOCK), "knock")
    assert verdict.ok, verdict.problems
    assert verdict.line() == "ok knock"
    states = [state for _, state, _ in replay(loads(KNOCK))]
    assert len(states) == 1
    assert states[0].result is not None


def test_claim_out_record_verifies() -> None:
    verdict = verify(loads(CLAIM_OUT))
    assert verdict.ok, verdict.problems


def test_loads_reads_every_field() -> None:
    text = HEAD + """
[options]
knock_limit = { 2 = 5, 4 = 15 }
dropout_compensation = "1/3"

[[deal]]
dealer = "B"
stake = 2
seed = 17
actions = [
  "B draw",
]

[deal.result]
end = "stock"
winners = ["A", "B"]
points = { A = 9, B = 9 }
payments = { A = 2.5, B = "5/2", C = -2, D = -3 }

[match]
totals = { A = "5/2", B = 2.5, C = -2, D = -3 }
"""
    record = loads(text)
    assert record.players == ["A", "B", "C", "D"]
    assert record.rules == "pagat"
    assert record.options == {"knock_limit": {"2": 5, "4": 15}, "dropout_compensation": "1/3"}
    rules = record.make_rules()
    assert rules.knock_limit == ((2, 5), (4, 15))
    assert rules.dropout_compensation == Fraction(1, 3)
    (deal,) = record.deals
    assert (deal.dealer, deal.stake, deal.seed, deal.hands) == ("B", 2, 17, None)
    assert deal.actions == ["B draw"]
    assert deal.result["payments"] == {"A": Fraction(5, 2), "B": Fraction(5, 2), "C": -2, "D": -3}
    assert deal.result["points"] == {"A": 9, "B": 9}
    assert record.totals == {"A": Fraction(5, 2), "B": Fraction(5, 2), "C": -2, "D": -3}
    assert isinstance(record.totals["A"], Fraction)


@pytest.mark.parametrize("text", [KNOCK, CLAIM_OUT])
def test_dumps_loads_round_trip(text: str) -> None:
    assert dumps(loads(text)) == text


def test_round_trip_with_options_fractions_comment_and_totals() -> None:
    text = ("# A comment block at the top\n# is kept.\n" + HEAD + """
[options]
knock_limit = { 2 = 5, 3 = 10 }
dropout_compensation = "1/3"
undercut_penalty = 2.5
wrap_runs = false
claims = "next-only"

[[deal]]
dealer = "C"
stake = 1.5
seed = 4
actions = []

[deal.result]
end = "stock"
winners = ["A", "B"]
points = { A = 9, B = 9, C = 15, D = 25 }
payments = { A = 2.5, B = 2.5, C = -2, D = -3 }

[match]
totals = { A = "1/3", B = 0.25, C = "-7/12", D = 0 }
""")
    record = loads(text)
    assert record.comment == "# A comment block at the top\n# is kept.\n"
    assert record.deals[0].stake == Fraction(3, 2)
    assert dumps(record) == text
    assert dumps(loads(dumps(record))) == text


@pytest.mark.parametrize(("value", "text"), [
    (5, "5"), (-3, "-3"), (0, "0"), (Fraction(5, 2), "2.5"), (Fraction(-5, 2), "-2.5"),
    (Fraction(1, 4), "0.25"), (Fraction(1, 8), "0.125"), (Fraction(4, 2), "2"),
    (Fraction(1, 3), '"1/3"'), (Fraction(-7, 12), '"-7/12"'), (Fraction(2, 3), '"2/3"'),
])
def test_format_number_is_exact(value: Fraction | int, text: str) -> None:
    assert format_number(value) == text
    record = loads(HEAD + f"\n[match]\ntotals = {{ A = {text} }}\n")
    assert record.totals == {"A": Fraction(value)}


def test_tiny_binary_fraction_is_written_exactly() -> None:
    value = Fraction(1, 2 ** 70)
    text = format_number(value)
    assert loads(HEAD + f"\n[match]\ntotals = {{ A = {text} }}\n").totals == {"A": value}


# -- errors --------------------------------------------------------------------------------------

def record_error(text: str) -> RecordError:
    with pytest.raises(RecordError) as info:
        loads(text)
    assert isinstance(info.value, HoolaError)
    assert info.value.message
    return info.value


def test_bad_toml() -> None:
    assert record_error('format = "hoola-record/1\nplayers = [').code == "bad-toml"
    assert record_error(HEAD + "[[deal]\n").code == "bad-toml"


@pytest.mark.parametrize("head", [
    'rules = "pagat"\nplayers = ["A", "B"]\n',
    'format = "hoola-record/2"\nplayers = ["A", "B"]\n',
    'format = 1\nplayers = ["A", "B"]\n',
])
def test_wrong_format(head: str) -> None:
    assert record_error(head).code == "bad-format"


DEAL = '\n[[deal]]\nseed = 1\nactions = []\n'
HANDS_DEAL = ('\n[[deal]]\nhands = { A = "As 2s 3s 4s 5s 6s 7s", B = "Ah 2h 3h 4h 5h 6h 7h", '
              'C = "Ad 2d 3d 4d 5d 6d 7d", D = "Ac 2c 3c 4c 5c 6c 7c" }\nupcard = "Ks"\n'
              'actions = []\n')


@pytest.mark.parametrize(("text", "words"), [
    # players
    ('format = "hoola-record/1"\n', "players"),
    ('format = "hoola-record/1"\nplayers = "A B"\n', "players"),
    ('format = "hoola-record/1"\nplayers = ["A", "B C"]\n', "players"),
    ('format = "hoola-record/1"\nplayers = ["A", 2]\n', "players"),
    ('format = "hoola-record/1"\nplayers = ["A", "A"]\n', "distinct"),
    # top level
    (HEAD + 'comment = "x"\n', "unknown top-level key 'comment'"),
    (HEAD.replace('rules = "pagat"', "rules = 3"), "rules"),
    (HEAD + "options = 3\n", "[options]"),
    (HEAD + "deal = 3\n", "[[deal]]"),
    (HEAD + "deal = [1]\n", "deal 1 must be a table"),
    # deals
    (HEAD + DEAL + "shuffle = true\n", "unknown key 'shuffle'"),
    (HEAD + "\n[[deal]]\nactions = []\n", "needs hands"),
    (HEAD + '\n[[deal]]\nseed = "1"\n', "seed"),
    (HEAD + "\n[[deal]]\nseed = true\n", "seed"),
    (HEAD + "\n[[deal]]\nseed = 1\nactions = [1]\n", "actions"),
    (HEAD + '\n[[deal]]\nseed = 1\nactions = "A draw"\n', "actions"),
    (HEAD + HANDS_DEAL.replace(', D = "Ac 2c 3c 4c 5c 6c 7c"', ""), "every player"),
    (HEAD + HANDS_DEAL.replace('D = "Ac', 'E = "Ac'), "every player"),
    (HEAD + HANDS_DEAL.replace('upcard = "Ks"\n', ""), "upcard"),
    (HEAD + HANDS_DEAL.replace('upcard = "Ks"', "upcard = 5"), "upcard"),
    (HEAD + HANDS_DEAL.replace('"As 2s 3s 4s 5s 6s 7s"', "7"), "hands"),
    (HEAD + DEAL + 'dealer = "E"\n', "dealer"),
    (HEAD + DEAL + "dealer = 1\n", "dealer"),
    (HEAD + DEAL + 'stake = "two"\n', "stake"),
    (HEAD + DEAL + "stake = true\n", "stake"),
    # results
    (HEAD + DEAL + "result = 1\n", "[deal.result]"),
    (HEAD + DEAL + '\n[deal.result]\nwinner = ["A"]\n', "unknown result key 'winner'"),
    (HEAD + DEAL + '\n[deal.result]\nend = "win"\n', "end"),
    (HEAD + DEAL + '\n[deal.result]\nwinners = ["E"]\n', "winners"),
    (HEAD + DEAL + '\n[deal.result]\nwinners = "A"\n', "winners"),
    (HEAD + DEAL + "\n[deal.result]\npayments = { A = true }\n", "payments of A"),
    (HEAD + DEAL + '\n[deal.result]\npayments = { A = "lots" }\n', "payments of A"),
    (HEAD + DEAL + "\n[deal.result]\npayments = { E = 1 }\n", "'E'"),
    (HEAD + DEAL + "\n[deal.result]\npayments = 3\n", "payments"),
    (HEAD + DEAL + "\n[deal.result]\npoints = { A = [1] }\n", "points of A"),
    (HEAD + DEAL + "\n[deal.result]\nillegal = 1\n", "illegal"),
    (HEAD + DEAL + "\n[deal.result]\nillegal = true\n", "illegal"),
    # match
    (HEAD + "\n[match]\ntotal = { A = 1 }\n", "[match]"),
    (HEAD + "\n[match]\ntotals = { A = [] }\n", "totals of A"),
    (HEAD + "\n[match]\ntotals = { Z = 1 }\n", "'Z'"),
])
def test_record_errors(text: str, words: str) -> None:
    error = record_error(text)
    assert error.code == "bad-record"
    assert words in error.message


def test_zero_denominator_is_a_record_error() -> None:
    error = record_error(HEAD + DEAL + '\n[deal.result]\npayments = { A = "1/0" }\n')
    assert error.code == "bad-record"


def test_verify_reports_bad_rules_as_failures() -> None:
    for options, code in (("no_such = 1", "unknown-option"),
                          ('undercut_penalty = "x"', "bad-option-value")):
        verdict = verify(loads(HEAD + f"\n[options]\n{options}\n" + DEAL))
        assert not verdict.ok
        assert verdict.problems[0].endswith(f"[{code}]")
    verdict = verify(loads(HEAD.replace('"pagat"', '"poker"') + DEAL))
    assert verdict.problems[0].endswith("[unknown-preset]")


def test_verify_reports_zero_denominator_option_as_failure() -> None:
    verdict = verify(loads(HEAD + '\n[options]\nundercut_penalty = "1/0"\n' + DEAL))
    assert not verdict.ok


def test_load_and_verify_path(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text(KNOCK, encoding="utf-8")
    assert load(good).players == ["A", "B", "C", "D"]
    assert verify_path(good).line() == "ok good.toml"
    broken = tmp_path / "broken.toml"
    broken.write_text("format = [", encoding="utf-8")
    verdict = verify_path(broken)
    assert not verdict.ok
    assert verdict.line().startswith("FAIL broken.toml: the record is not valid TOML")
    missing = verify_path(tmp_path / "missing.toml")
    assert not missing.ok
    assert missing.problems[0].startswith("cannot read the file")


# -- verify finds differences ----------------------------------------------------------------------

@pytest.mark.parametrize(("change", "problem"), [
    (("A = 6, B = -3", "A = 5, B = -3"), "payments of A is 6, record says 5"),
    (('end = "knock"', 'end = "sopang"'), "end is knock, record says sopang"),
    (('winners = ["A"]', 'winners = ["B"]'), "winners are ['A'], record says ['B']"),
    (("C = 45", "C = 44"), "points of C is 45, record says 44"),
])
def test_verify_finds_wrong_results(change: tuple[str, str], problem: str) -> None:
    verdict = verify(loads(KNOCK.replace(*change)), "k")
    assert not verdict.ok
    assert verdict.problems == [problem]
    assert verdict.line() == f"FAIL k: {problem}"


def test_verify_compares_fractions_exactly() -> None:
    text = CLAIM_OUT.replace("A = -36, B = 0, C = 36", 'A = "-72/2", B = 0.0, C = 36.0')
    assert verify(loads(text)).ok
    text = CLAIM_OUT.replace("C = 36, D = 0", "C = 36.5, D = -0.5")
    verdict = verify(loads(text))
    assert verdict.problems == ["payments of C is 36, record says 36.5",
                                "payments of D is 0, record says -0.5"]


def test_verify_refused_action() -> None:
    text = KNOCK.replace('"A knock",', '"A discard Kd",')
    verdict = verify(loads(text))
    assert not verdict.ok
    assert verdict.problems[0].startswith("action 1 'A discard Kd' refused:")
    assert verdict.problems[0].endswith("[must-draw-first]")


def test_verify_illegal_expected() -> None:
    illegal = HEAD + KNOCK_DEAL.replace(" \\\n", " ").replace(
        '"A knock",', '"A draw",\n  "B draw",') + "\n[deal.result]\nillegal = 2\n"
    assert verify(loads(illegal)).ok
    accepted = illegal.replace("illegal = 2", "illegal = 1")
    verdict = verify(loads(accepted))
    assert verdict.problems == ["action 1 'A draw' was accepted but must be refused"]
    # an earlier refusal than the expected one is a failure
    early = HEAD + KNOCK_DEAL.replace(" \\\n", " ").replace(
        '"A knock",', '"B draw",\n  "A draw",') + "\n[deal.result]\nillegal = 2\n"
    verdict = verify(loads(early))
    assert not verdict.ok
    assert "action 1 'B draw' refused" in verdict.problems[0]


def test_verify_unfinished_deal() -> None:
    text = KNOCK.replace('"A knock",', '"A draw",')
    verdict = verify(loads(text))
    assert verdict.problems == ["play has not ended after the last action, but the record gives "
                                "end"]
    # without an end, an unfinished deal only checks that its actions are accepted
    no_end = HEAD + KNOCK_DEAL.replace(" \\\n", " ").replace('"A knock",', '"A draw",')
    assert verify(loads(no_end)).ok


def test_verify_checks_payments_given_without_an_end() -> None:
    """Every result key is optional: payments alone are still checked."""
    text = KNOCK.replace('end = "knock"\n', "")
    assert "end" not in loads(text).deals[0].result
    assert verify(loads(text)).ok
    wrong = text.replace("A = 6,", "A = 5,")
    assert wrong != text
    verdict = verify(loads(wrong))
    assert any("payments of A is 6, record says 5" in p for p in verdict.problems)


def test_verify_bad_cards_in_the_deal() -> None:
    text = KNOCK.replace('upcard = "Kd"', 'upcard = "Kd Qd"')
    verdict = verify(loads(text))
    assert not verdict.ok
    assert "upcard must be one card" in verdict.problems[0]
    text = KNOCK.replace('upcard = "Kd"', 'upcard = "As"')
    verdict = verify(loads(text))
    assert not verdict.ok
    assert "[bad-deal]" in verdict.problems[0]


def test_explicit_stock_fills_in_canonical_order() -> None:
    ((_, state, _),) = replay(loads(KNOCK))
    stock = state.deal.stock
    assert format_cards(stock[:5]) == "Qs Js 9s Ts 3h"


# -- matches ---------------------------------------------------------------------------------------

def two_deal_match(totals: str) -> str:
    second = CLAIM_OUT.split("[[deal]]", 1)[1]
    return KNOCK + "\n[[deal]]" + second + f"\n[match]\ntotals = {totals}\n"


def test_match_totals() -> None:
    text = two_deal_match("{ A = -30, B = -3, C = 34, D = -1 }")
    verdict = verify(loads(text))
    assert verdict.ok, verdict.problems
    # deal 2 is dealt by the winner of deal 1 (A)
    assert [s.dealer for _, s, _ in replay(loads(text))] == [0, 0]
    assert dumps(loads(text)) == text


def test_match_totals_wrong() -> None:
    verdict = verify(loads(two_deal_match("{ A = -30, B = -3, C = 33, D = -1 }")))
    assert verdict.problems == ["match total of C is 34, record says 33"]


def test_deal_problems_are_numbered_in_a_match() -> None:
    text = two_deal_match("{ A = -30, B = -3, C = 34, D = -1 }").replace(
        "A = -36, B = 0, C = 36", "A = -35, B = 0, C = 36")
    verdict = verify(loads(text))
    assert verdict.problems == ["deal 2: payments of A is -36, record says -35"]


def test_next_dealer_and_doubled_stake_after_hoola() -> None:
    text = CLAIM_OUT.replace("players = [\"A\", \"B\", \"C\", \"D\"]\n",
                 "players = [\"A\", \"B\", \"C\", \"D\"]\n\n[options]\nhoola_doubles_next = true\n")
    second = KNOCK_DEAL.replace(" \\\n", " ").replace(
        'hands = { A = "As Ah Ad Ac 2s 2h 2d", B = "Ks Kh Qh Qd Tc 8s 6s", C = "7s 3s 4h 5h 6h Th '
        '3d", ', 'hands = { C = "As Ah Ad Ac 2s 2h 2d", B = "Ks Kh Qh Qd Tc 8s 6s", A = "7s 3s 4h '
        '5h 6h Th 3d", ').replace('"A knock"', '"C knock"')
    text = text + second + """
[deal.result]
end = "knock"
winners = ["C"]
payments = { A = -4, B = -6, C = 12, D = -2 }
"""
    verdict = verify(loads(text))
    assert verdict.ok, verdict.problems
    (_, first, _), (_, then, _) = replay(loads(text))
    assert then.dealer == 2          # C won the first deal
    assert then.stake == 2           # after a Hoola
    assert first.stake == 1


# -- records of played games -----------------------------------------------------------------------

@pytest.mark.parametrize(("preset", "players", "seed"), [
    ("pagat", 4, 1), ("classic", 3, 2), ("online", 5, 3), ("pagat", 6, 4), ("pagat", 7, 5),
    ("two-player", 2, 6), ("rummy-rulebook", 4, 7),
])
def test_record_of_played_deal_verifies_and_round_trips(preset: str, players: int,
                                                        seed: int) -> None:
    rules = Rules.preset(preset, dropout_compensation=Fraction(1, 3))
    state = DealState.new(rules, players, seed=seed)
    bots = [RandomBot(seed=seed + i) if i % 2 else GreedyBot(seed=i) for i in range(players)]
    play_deal(state, bots, rng=random.Random(seed))
    record = record_of([state])
    assert record.options == {"dropout_compensation": Fraction(1, 3)}
    text = dumps(record)
    assert dumps(loads(text)) == text
    verdict = verify(loads(text))
    assert verdict.ok, verdict.problems
    ((_, replayed, _),) = replay(loads(text))
    assert replayed.result is not None and state.result is not None
    assert dict(replayed.result.payments) == dict(state.result.payments)
    assert replayed.history == state.history


def test_record_of_a_match_with_totals() -> None:
    match = Match(Rules.preset("pagat"), ["Ann", "Bo", "Cy"], seed=3)
    for _ in range(3):
        state = match.new_deal()
        play_deal(state, [GreedyBot(seed=i) for i in range(3)], rng=random.Random(1))
        match.finish_deal()
    assert sum(match.totals.values()) == 0
    record = record_of(match.deals, totals=match.totals)
    text = dumps(record)
    verdict = verify(loads(text))
    assert verdict.ok, verdict.problems
    assert loads(text).totals == {name: match.totals[i] for i, name in
                                  enumerate(["Ann", "Bo", "Cy"])}
    bad = loads(text)
    assert bad.totals is not None
    bad.totals["Ann"] += 1
    assert not verify(bad).ok


def test_record_of_needs_a_deal() -> None:
    with pytest.raises(RecordError):
        record_of([])


def test_record_dataclasses_dump() -> None:
    record = Record(["A", "B"], deals=[DealRecord(actions=["A draw"], seed=3)])
    assert dumps(record) == (f'format = "{FORMAT}"\nrules = "pagat"\nplayers = ["A", "B"]\n\n'
                             '[[deal]]\nseed = 3\nactions = [\n  "A draw",\n]\n')
    assert verify(loads(dumps(record))).ok


def test_record_of_with_a_knock_limit_table_verifies_before_and_after_writing() -> None:
    # Rules.overrides() gives the table as (count, limit) pairs; the option check takes both forms.
    rules = Rules.preset("pagat", knock_limit={2: 5, 4: 15})
    state = DealState.new(rules, 3, seed=2)
    play_deal(state, [GreedyBot(seed=i) for i in range(3)], rng=random.Random(2))
    record = record_of([state])
    assert record.options == {"knock_limit": ((2, 5), (4, 15))}
    assert verify(record).ok
    assert verify(loads(dumps(record))).ok


# -- a match stopped before the game's own end (records.md) ---------------------------------------

RECORDS = Path(__file__).resolve().parent / "records"


@pytest.mark.parametrize("path", sorted((RECORDS / "refused").glob("*.toml.refused")),
                         ids=lambda p: p.name)
def test_the_refused_records_are_refused_for_their_reason(path: Path) -> None:
    from hoola.core.records import verify_text

    text = path.read_text(encoding="utf-8")
    why = text.splitlines()[0].removeprefix("# refused: ")
    verdict = verify_text(text, path.name)
    assert not verdict.ok
    assert any(why in p for p in verdict.problems), verdict.problems


def _stopped_match(game_name: str, preset: str, players: int, deals: int) -> tuple[Any, Any]:
    """A match of ``game_name`` played by its expert for ``deals`` deals (or to its end)."""
    from hoola.core.driver import play_deal as play_any_deal
    from hoola.core.registry import get_game

    game = get_game(game_name)
    names = [f"P{q}" for q in range(1, players + 1)]
    match = game.new_match(game.rules(preset), names, seed=3)
    bots = [game.expert(q) for q in range(players)]
    while not match.is_over and len(match.deals) < deals:
        play_any_deal(match.new_deal(), bots)
        match.finish_deal()
    return game, match


@pytest.mark.parametrize(("game_name", "preset", "players"), [
    ("capture", "sedma", 4), ("capture", "hola", 2), ("capture", "sedmice", 4),
    ("capture", "ristikontra", 4), ("kalookie", "british", 3), ("kalookie", "north-american", 4),
])
def test_a_match_stopped_before_its_end_is_written_stopped_without_a_winner(
        game_name: str, preset: str, players: int) -> None:
    from hoola.core.records import parse_toml, verify_text

    game, match = _stopped_match(game_name, preset, players, 1)
    assert not match.is_over
    text = game.record_text(match)
    data = parse_toml(text)
    assert data["match"]["stopped"] is True and "winner" not in data["match"]
    assert verify_text(text).ok, verify_text(text).problems
    side = text.replace("stopped = true", f"winner = {data['players'][0]!r}".replace("'", '"'))
    problems = verify_text(side).problems
    assert problems and "stopped before its end, so nobody won it" in problems[0]
    unsaid = verify_text(text.replace("stopped = true\n", "")).ok  # stopped is optional
    assert unsaid


def test_a_match_played_to_its_end_names_its_winner_and_is_not_stopped() -> None:
    from hoola.core.records import parse_toml, verify_text

    game, match = _stopped_match("capture", "sedma", 2, 200)
    assert match.is_over
    text = game.record_text(match)
    assert "stopped" not in parse_toml(text)["match"] and "winner" in parse_toml(text)["match"]
    assert verify_text(text).ok
    problems = verify_text(text.replace("[match]\n", "[match]\nstopped = true\n")).problems
    assert problems and problems[0].startswith("the game was won by ")


def test_a_game_without_an_end_of_its_own_is_never_stopped() -> None:
    from hoola.core.records import parse_toml, verify_text

    game, match = _stopped_match("capture", "ristiklappi", 4, 2)
    data = parse_toml(game.record_text(match))
    assert "stopped" not in data["match"] and "winner" not in data["match"]
    verdict = verify_text(HEAD + KNOCK_DEAL + "\n[match]\nstopped = true\n")
    assert not verdict.ok and "no end of its own" in verdict.problems[0]

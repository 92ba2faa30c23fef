"""Missions (ruling 20): the catalog, the draw, each feat's judgement, the payments, the table,
the records and the rules listing."""

from __future__ import annotations

import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from hoola.cli import cli
from hoola.core.cards import parse_card, parse_cards
from hoola.core.driver import play_deal
from hoola.core.errors import HoolaError, IllegalActionError, RecordError, RulesError
from hoola.games.hoola import (
    Add,
    Blast,
    DealState,
    Discard,
    Draw,
    Knock,
    Match,
    NewMeld,
    Rules,
    Sevens,
    Take,
)
from hoola.games.hoola.actions import Action
from hoola.games.hoola.deal import Deal
from hoola.games.hoola.determinize import determinize
from hoola.games.hoola.expert import ExpertBot
from hoola.games.hoola.melds import Meld, MeldKind
from hoola.games.hoola.missions import (
    CATALOG_NOTE,
    FEATS,
    MULTIPLIERS,
    Mission,
    check_mission,
    draw_mission,
    feat_achieved,
    turn_facts,
)
from hoola.games.hoola.records import dumps, loads, record_of, verify
from hoola.games.hoola.scoring import SeatShowdown, settle
from hoola.games.hoola.text import describe_settlement

MISSIONS = Rules.preset("online-missions")
PAGAT_MISSIONS = Rules.preset("pagat", missions=True)
RECORDS = Path(__file__).parent / "records"


def c(text: str) -> int:
    return parse_card(text)


def cs(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def meld(owner: int, kind: MeldKind, text: str, faces: str | None = None, id: int = 1) -> Meld:
    cards = cs(text)
    return Meld(id, owner, kind, cards, cs(faces) if faces else cards)


def judge(feat: str, *, end: str = "out", winner: int = 0, table: tuple[Meld, ...] = (),
          history: tuple[Action, ...] = (), points: int = 0, n: int = 4) -> bool:
    return feat_achieved(feat, end=end, winner=winner, table=table, history=history,
                         dealer=0, in_deal=(True,) * n, winner_points=points)


# -- the catalog and the draw ---------------------------------------------------------------------

def test_the_catalog_is_ruling_20s_ten_feats() -> None:
    assert list(FEATS) == ["thank-you", "hoola", "quad", "long-run", "corner", "two-sevens",
                           "knock-low", "blast", "quick", "no-take"]
    assert MULTIPLIERS == (2, 3, 4)
    assert "project's own" in CATALOG_NOTE
    assert "project's own" in Mission("quad", 3).label


@pytest.mark.parametrize(("feat", "multiplier", "said"), [
    ("grand-slam", 2, "mission feat 'grand-slam' is not in the catalog"),
    ("quad", 5, "mission multiplier 5 is not allowed"),
    ("quad", 1, "mission multiplier 1 is not allowed"),
    ("quad", True, "mission multiplier True is not allowed"),
    ("quad", 3.0, "mission multiplier 3.0 is not allowed"),
    (None, 2, "mission feat None is not in the catalog"),
])
def test_a_mission_outside_the_catalog_is_refused_in_one_line(feat: object, multiplier: object,
                                                              said: str) -> None:
    with pytest.raises(IllegalActionError) as info:
        check_mission(feat, multiplier)
    assert said in info.value.message and "\n" not in info.value.message
    assert info.value.code == "bad-mission"


def test_the_draw_covers_the_catalog_with_weights_3_2_1() -> None:
    rng = random.Random(11)
    draws = [draw_mission(rng) for _ in range(6000)]
    assert {m.feat for m in draws} == set(FEATS)
    counts = {k: sum(1 for m in draws if m.multiplier == k) for k in MULTIPLIERS}
    assert set(counts) == {2, 3, 4}
    # Weights 3 : 2 : 1 of 6000 draws: 3000, 2000, 1000, each well within 10%.
    assert abs(counts[2] - 3000) < 300 and abs(counts[3] - 2000) < 200 \
        and abs(counts[4] - 1000) < 100


def test_the_same_seed_draws_the_same_mission_in_another_process() -> None:
    here = [(DealState.new(MISSIONS, 4, seed=s).mission) for s in range(8)]
    code = ("from hoola.games.hoola import DealState, Rules\n"
            "r = Rules.preset('online-missions')\n"
            "for s in range(8):\n"
            "    m = DealState.new(r, 4, seed=s).mission\n"
            "    print(m.feat, m.multiplier)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    assert [f"{m.feat} {m.multiplier}" for m in here if m is not None] == out[:8]
    assert len({m for m in here}) > 1  # the seed matters


@pytest.mark.parametrize("players", [2, 4, 6])
def test_without_missions_the_deal_and_its_random_source_are_as_before(players: int) -> None:
    for seed in range(5):
        rng = random.Random(seed)
        dealt = Deal.shuffled(Rules.preset("online"), players, rng=rng)
        off = DealState.new(Rules.preset("online"), players, seed=seed)
        assert off.deal == dealt and off.mission is None
        assert off.rng.getstate() == rng.getstate()  # nothing drawn after the cards
        on = DealState.new(MISSIONS, players, seed=seed)
        assert on.deal == dealt and on.mission is not None  # the same cards with missions


def test_a_given_mission_is_kept_and_a_bad_one_refused() -> None:
    given = Mission("corner", 4)
    assert DealState.new(MISSIONS, 3, seed=1, mission=given).mission == given
    with pytest.raises(HoolaError) as info:
        DealState.new(MISSIONS, 3, seed=1, mission=Mission("corner", 7))
    assert info.value.code == "bad-mission"
    with pytest.raises(HoolaError) as info:
        DealState.new(MISSIONS, 3, seed=1, mission=("corner", 2))
    assert "must be a Mission value" in info.value.message
    with pytest.raises(RulesError) as off:
        DealState.new(Rules.preset("pagat"), 3, seed=1, mission=given)
    assert "missions = false" in off.value.message


# -- each feat's judgement ------------------------------------------------------------------------

def test_hoola_and_blast_follow_the_end() -> None:
    assert judge("hoola", end="hoola") and not judge("hoola", end="out")
    assert judge("blast", end="sopang") and judge("blast", end="daepang")
    assert not judge("blast", end="knock")


def test_knock_low_needs_the_winners_own_knock_at_3_or_fewer() -> None:
    knocked = (Draw(1), Discard(1, c("Kd")), Knock(0))
    assert judge("knock-low", end="knock", history=knocked, points=3)
    assert not judge("knock-low", end="knock", history=knocked, points=4)
    # A winner by an undercut did not knock.
    assert not judge("knock-low", end="knock", winner=2, history=knocked, points=1)
    assert not judge("knock-low", end="out", history=(Draw(0),), points=0)


def test_quad_needs_a_set_of_four_of_the_winners_own() -> None:
    quad = meld(0, MeldKind.SET, "9s 9h 9d 9c")
    assert judge("quad", table=(quad,))
    assert not judge("quad", table=(meld(0, MeldKind.SET, "9s 9h 9d"),))
    assert not judge("quad", table=(meld(1, MeldKind.SET, "9s 9h 9d 9c"),))  # not the winner's
    assert judge("quad", table=(meld(0, MeldKind.SET, "9s 9h 9d JK", "9s 9h 9d 9c"),))


def test_long_run_needs_five_cards_in_the_winners_run() -> None:
    assert judge("long-run", table=(meld(0, MeldKind.RUN, "3d 4d 5d 6d 7d"),))
    assert not judge("long-run", table=(meld(0, MeldKind.RUN, "3d 4d 5d 6d"),))
    assert not judge("long-run", table=(meld(1, MeldKind.RUN, "3d 4d 5d 6d 7d"),))


def test_corner_needs_a_run_standing_for_k_a_2() -> None:
    assert judge("corner", table=(meld(0, MeldKind.RUN, "Kc Ac 2c"),))
    assert judge("corner", table=(meld(0, MeldKind.RUN, "Qc Kc JK 2c", "Qc Kc Ac 2c"),))
    assert not judge("corner", table=(meld(0, MeldKind.RUN, "Qh Kh Ah"),))
    assert not judge("corner", table=(meld(0, MeldKind.SET, "Ks Kh Kd"),))


def test_two_sevens_counts_natural_sevens_in_the_winners_melds() -> None:
    assert judge("two-sevens", table=(meld(0, MeldKind.SEVEN, "7s", id=1),
                                      meld(0, MeldKind.RUN, "6h 7h 8h", id=2)))
    assert not judge("two-sevens", table=(meld(0, MeldKind.SEVEN, "7s", id=1),
                                          meld(1, MeldKind.SEVEN, "7h", id=2)))


def test_two_sevens_leaves_a_joker_out() -> None:
    joker_seven = meld(0, MeldKind.RUN, "6d JK 8d", "6d 7d 8d", id=2)  # the joker stands for 7d
    assert not judge("two-sevens", table=(meld(0, MeldKind.SEVEN, "7s"), joker_seven))
    assert judge("two-sevens", table=(meld(0, MeldKind.SET, "7s 7h JK", "7s 7h 7d"),))


def test_turns_and_takes_are_read_from_the_history() -> None:
    history = (
        Draw(0), Discard(0, c("Kd")),          # A's turn 1
        Take(2, c("Kd"), cs("Ks Kh")),          # C claims out of turn: C's turn 1
        Discard(2, c("2s")),
        Draw(3), Discard(3, c("3s")),          # D
        Take(0, c("3s"), cs("3h 3d")),          # A takes in turn: A's turn 2
        Discard(0, c("4s")),
        Draw(1), Discard(1, c("5s")),          # B
        Sevens(2),                              # C shows four sevens at the start of turn 2
    )
    a, b, cc = (turn_facts(history, p, 0, (True,) * 4) for p in range(3))
    assert (a.turns, a.takes, a.takes_out_of_turn) == (2, 1, 0)
    assert (b.turns, b.takes, b.takes_out_of_turn) == (1, 0, 0)
    assert (cc.turns, cc.takes, cc.takes_out_of_turn) == (2, 1, 1)
    assert judge("thank-you", winner=2, history=history)
    assert not judge("thank-you", winner=0, history=history)  # A's take was in turn
    assert judge("no-take", winner=1, history=history)
    assert not judge("no-take", winner=0, history=history)
    assert judge("quick", winner=2, history=history)


def test_quick_fails_once_a_third_turn_begins() -> None:
    turns = (Draw(0), Discard(0, c("Kd")), Draw(1), Discard(1, c("Qd")),
             Draw(0), Discard(0, c("Jd")), Draw(1), Discard(1, c("Td")))
    assert judge("quick", winner=0, n=2, history=(*turns, Knock(0))) is False
    assert judge("quick", winner=0, n=2, history=(*turns[:4], Knock(0)))
    # Four sevens shown out of turn begin no turn.
    assert judge("quick", winner=1, n=2, history=(*turns[:6], Sevens(1)))
    assert judge("quick", winner=0, n=2, history=(*turns[:6], Blast(0))) is False


def test_the_dealers_upcard_take_is_in_turn() -> None:
    history = (Take(0, c("9c"), cs("9s 9h")), Add(0, c("9d"), on=c("9s")),
               NewMeld(0, cs("2c 3c 4c")), Discard(0, c("Kd")))
    facts = turn_facts(history, 0, 0, (True,) * 3)
    assert (facts.turns, facts.takes, facts.takes_out_of_turn) == (1, 1, 0)


# -- the payments ---------------------------------------------------------------------------------

SEATS = {0: SeatShowdown(0, 0, True, True), 1: SeatShowdown(20, 0, True, True),
         2: SeatShowdown(30, 1, True, True), 3: SeatShowdown(40, 0, False, True)}


@pytest.mark.parametrize("multiplier", MULTIPLIERS)
def test_an_achieved_mission_multiplies_every_payment_to_the_winner(multiplier: int) -> None:
    rules = Rules.preset("pagat")
    plain = settle(rules, "out", SEATS, [0])
    mission = Mission("quad", multiplier)
    won = settle(rules, "out", SEATS, [0], mission=mission, mission_achieved=True)
    lost = settle(rules, "out", SEATS, [0], mission=mission, mission_achieved=False)
    assert won.payments == {q: v * multiplier for q, v in plain.payments.items()}
    assert lost.payments == plain.payments
    assert sum(won.payments.values()) == 0
    assert won.mission_achieved and not lost.mission_achieved
    assert all(("mission quad", multiplier) in line.multipliers for line in won.losers)
    assert "achieved: every payment to the winner" in won.notes[-1]
    assert "failed: the winner did not perform it" in lost.notes[-1]


def test_a_one_pays_all_total_is_multiplied_too() -> None:
    rules = Rules.preset("online")  # pay_all_doubles
    plain = settle(rules, "out", SEATS, [0], claimed_from=2)
    won = settle(rules, "out", SEATS, [0], claimed_from=2, mission=Mission("quick", 3),
                 mission_achieved=True)
    assert plain.payer == won.payer == 2 and plain.pay_all_factor == 2
    assert won.payments[2] == plain.payments[2] * 3 and won.payments[0] == -won.payments[2]


def test_a_shared_win_changes_nothing() -> None:
    rules = Rules.preset("pagat")
    plain = settle(rules, "stock", SEATS, [0, 1])
    shared = settle(rules, "stock", SEATS, [0, 1], mission=Mission("no-take", 4),
                    mission_achieved=True)
    assert shared.payments == plain.payments and not shared.mission_achieved
    assert "no single winner" in shared.notes[-1]


def test_a_fixed_undercut_penalty_to_the_winner_is_multiplied() -> None:
    rules = Rules.preset("pagat", undercut="fixed", undercut_penalty=5)
    won = settle(rules, "knock", SEATS, [1], undercut_knocker=3, mission=Mission("quad", 2),
                 mission_achieved=True)
    assert won.payments == {0: 5, 1: 10, 2: 5, 3: -20}


def test_hertzogs_fixed_amount_is_multiplied() -> None:
    rules = Rules.preset("hertzog")
    plain = settle(rules, "out", SEATS, [0])
    won = settle(rules, "out", SEATS, [0], mission=Mission("quad", 4), mission_achieved=True)
    assert won.payments[3] == plain.payments[3] * 4 != 0


def test_compensation_for_forced_drops_is_not_multiplied() -> None:
    for seed in range(40):
        s = DealState.new(PAGAT_MISSIONS, 7, seed=seed, mission=Mission("quick", 4))
        play_deal(s, [ExpertBot(seed=q) for q in range(7)])
        if s.result is None or not s.compensation or not s.result.mission_achieved:
            continue
        winner = s.result.winners[0]
        for q, amount in s.compensation.items():
            if q != winner and q not in {line.seat for line in s.result.losers}:
                assert s.result.payments[q] == amount  # a dropped player only compensated
        assert sum(s.result.payments.values()) == 0
        return
    pytest.skip("no deal of seven with a forced drop and an achieved mission in 40 seeds")


# -- the table, the view, the settlement's words --------------------------------------------------

def test_the_mission_is_on_the_table_from_the_deals_start_and_after() -> None:
    s = DealState.new(MISSIONS, 4, seed=2)
    assert s.mission is not None
    zone = s.view(1).table().zone("mission")
    assert zone.kind == "pile" and zone.cards is None and zone.count == 0
    assert zone.label == s.mission.label and CATALOG_NOTE in zone.label
    assert s.view(1).to_json()["mission"]["achieved"] is None
    play_deal(s, [ExpertBot(seed=q) for q in range(4)])
    assert s.result is not None
    outcome = "achieved" if s.result.mission_achieved else "failed"
    assert s.view(0).table().zone("mission").label.endswith(f": {outcome}")
    assert s.view(0).to_json()["mission"]["achieved"] is s.result.mission_achieved
    lines = describe_settlement(s.result, s.names)
    assert any(f"Mission {s.mission.feat} ×{s.mission.multiplier}" in line and outcome in line
               for line in lines)


def test_without_missions_the_table_has_no_mission() -> None:
    s = DealState.new(Rules.preset("online"), 4, seed=2)
    assert all(z.id != "mission" for z in s.view(0).table().zones)
    assert "mission" not in s.view(0).to_json()


def test_the_plain_table_text_prints_the_mission() -> None:
    from hoola.terminal.tabletext import table_lines

    s = DealState.new(MISSIONS, 3, seed=4)
    assert s.mission is not None
    assert any(s.mission.label in line for line in table_lines(s.view(0).table(), 0))


def test_a_guessed_deal_keeps_the_mission() -> None:
    s = DealState.new(MISSIONS, 4, seed=6)
    assert determinize(s.view(2), random.Random(1)).mission == s.mission
    assert s.copy().mission == s.mission


# -- records --------------------------------------------------------------------------------------

def played_match(seed: int, deals: int = 3) -> Match:
    match = Match(MISSIONS, ["A", "B", "C", "D"], seed=seed)
    for _ in range(deals):
        play_deal(match.new_deal(), [ExpertBot(seed=q) for q in range(4)])
        match.finish_deal()
    return match


def test_a_record_with_missions_round_trips_and_verifies() -> None:
    match = played_match(5)
    text = dumps(record_of(match.deals, totals=match.totals))
    assert dumps(loads(text)) == text
    assert verify(loads(text)).ok, verify(loads(text)).problems
    for state in match.deals:
        assert state.mission is not None and state.result is not None
        said = "achieved" if state.result.mission_achieved else "failed"
        assert (f'mission = {{ feat = "{state.mission.feat}", multiplier = '
                f'{state.mission.multiplier} }}') in text
        assert f'mission = "{said}"' in text


def test_a_records_seed_draws_its_mission() -> None:
    state = DealState.new(MISSIONS, ["A", "B"], seed=9)
    play_deal(state, [ExpertBot(seed=q) for q in range(2)])
    assert state.result is not None
    record = record_of([state])
    deal = record.deals[0]
    deal.hands = deal.upcard = deal.stock = None
    deal.mission, deal.seed, deal.dealer = None, 9, None
    assert verify(loads(dumps(record))).ok


def test_a_wrong_outcome_is_named() -> None:
    match = played_match(7, 1)
    text = dumps(record_of(match.deals))
    said = "achieved" if match.deals[0].result.mission_achieved else "failed"  # type: ignore
    other = "failed" if said == "achieved" else "achieved"
    problems = verify(loads(text.replace(f'mission = "{said}"', f'mission = "{other}"'))).problems
    assert problems == [f"mission is {said}, record says {other}"]
    with pytest.raises(RecordError) as info:
        loads(text.replace(f'mission = "{said}"', 'mission = "maybe"'))
    assert 'result mission must be "achieved" or "failed"' in info.value.message


@pytest.mark.parametrize("path", sorted(RECORDS.glob("opt-missions-*.toml")), ids=lambda p: p.name)
def test_each_mission_record_verifies_and_says_its_outcome(path: Path) -> None:
    record = loads(path.read_text(encoding="utf-8"))
    assert verify(record).ok
    assert record.deals[0].mission is not None and record.deals[0].result["mission"] in (
        "achieved", "failed")


def test_every_feat_has_a_record_achieved_and_one_failed() -> None:
    seen = set()
    for path in RECORDS.glob("opt-missions-*.toml"):
        deal = loads(path.read_text(encoding="utf-8")).deals[0]
        assert deal.mission is not None
        seen.add((deal.mission.feat, deal.result["mission"]))
    assert seen == {(f, o) for f in FEATS for o in ("achieved", "failed")}


# -- the rules listing ----------------------------------------------------------------------------

def test_the_rules_listing_gives_the_catalog_and_whose_it_is() -> None:
    result = CliRunner().invoke(cli, ["rules", "hoola", "--rules", "online-missions"])
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "this catalog is the project's own" in flat
    for feat, words in FEATS.items():
        assert f"{feat}: {words}" in flat
    assert "missions = true" in flat
    plain = CliRunner().invoke(cli, ["rules", "hoola", "--rules", "online"])
    assert "thank-you:" not in plain.output


def test_pagat_with_missions_scores_like_pagat_when_the_mission_fails() -> None:
    for seed in range(6):
        off = DealState.new(Rules.preset("pagat"), 4, seed=seed)
        on = DealState.new(PAGAT_MISSIONS, 4, seed=seed)
        for s in (off, on):
            play_deal(s, [ExpertBot(seed=q) for q in range(4)], rng=random.Random(seed))
        assert off.history == on.history  # the bots do not look at the mission (yet)
        assert off.result is not None and on.result is not None
        factor = on.mission.multiplier if on.result.mission_achieved else 1  # type: ignore
        assert on.result.payments == {q: v * factor for q, v in off.result.payments.items()}
        assert Fraction(sum(on.result.payments.values())) == 0


def test_the_plain_game_shows_the_mission_from_the_deals_start(tmp_path: Path) -> None:
    """The plain game puts the mission with the middle of the table at every question, and its
    outcome in the settlement."""
    import io

    from hoola.core.registry import get_game
    from hoola.terminal.plain import run_plain_game
    from hoola.terminal.saves import SavedGame

    out = io.StringIO()
    answers = iter(["1"] * 400)
    saved = SavedGame.new(get_game("hoola"), preset="online-missions", players=3,
                          bots=("greedy",), seed=11, deals=1, path=tmp_path / "g.toml")
    run_plain_game(saved, read=lambda _p: next(answers), out=out, bot_reaction=(0, 0))
    text = out.getvalue()
    first_hand = text.index("Your hand:")
    assert "(the project's own list)" in text[:first_hand]
    assert text.count("Mission ") >= 2

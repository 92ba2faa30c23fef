"""Missions over random deals (Hypothesis): payments still sum to zero, the same seed draws the
same mission, and a record whose mission or payments are wrong is refused.

How many examples each test tries is the profile's (``HOOLA_HYPOTHESIS``, tests/conftest.py).
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

from hoola.core.errors import RecordError
from hoola.games.hoola import DealState, Rules
from hoola.games.hoola.missions import FEATS, MULTIPLIERS
from hoola.games.hoola.records import dumps, loads, record_of, verify

deals = st.fixed_dictionaries({
    "seed": st.integers(0, 2**32),
    "players": st.integers(2, 7),
    "preset": st.sampled_from(["online-missions", "pagat", "classic", "hertzog", "glenn"]),
    "jokers": st.sampled_from([0, 0, 1]),
    "undercut": st.sampled_from(["pays-all", "pays-all", "fixed"]),
})


def rules_of(deal: dict[str, Any]) -> Rules:
    return Rules.preset(deal["preset"], missions=True, jokers=deal["jokers"],
                        undercut=deal["undercut"])


def played(deal: dict[str, Any]) -> DealState:
    """A deal played with random legal moves to its end."""
    s = DealState.new(rules_of(deal), deal["players"], seed=deal["seed"])
    rng = random.Random(deal["seed"])
    while not s.is_over:
        p = rng.choice(sorted(s.actors()))
        s.apply(rng.choice(s.legal_actions(p)))
    return s


@given(deals)
def test_payments_sum_to_zero_and_the_mission_is_judged(deal: dict[str, Any]) -> None:
    s = played(deal)
    r = s.result
    assert r is not None and r.mission == s.mission and s.mission is not None
    assert sum(r.payments.values(), Fraction(0)) == 0
    assert s.mission.feat in FEATS and s.mission.multiplier in MULTIPLIERS
    if r.mission_achieved:
        assert len(r.winners) == 1
        winner = r.winners[0]
        assert r.payments[winner] > 0 or r.payments[winner] == 0 == sum(
            abs(v) for v in r.payments.values())
    said = [n for n in r.notes if n.startswith(f"Mission {s.mission.feat} ")]
    assert len(said) == 1 and ("achieved" if r.mission_achieved else "failed") in said[0]


@given(deals)
def test_the_same_seed_draws_the_same_mission(deal: dict[str, Any]) -> None:
    rules = rules_of(deal)
    first = DealState.new(rules, deal["players"], seed=deal["seed"])
    again = DealState.new(rules, deal["players"], seed=deal["seed"])
    assert first.mission == again.mission and first.deal == again.deal
    off = DealState.new(rules.replace(missions=False), deal["players"], seed=deal["seed"])
    assert off.deal == first.deal and off.mission is None


@given(deals)
def test_records_of_deals_with_missions_round_trip_and_verify(deal: dict[str, Any]) -> None:
    s = played(deal)
    text = dumps(record_of([s]))
    assert dumps(loads(text)) == text
    verdict = verify(loads(text))
    assert verdict.ok, verdict.problems


_MISSION = re.compile(r'mission = \{ feat = "([a-z-]+)", multiplier = ([0-9]+) \}')


@given(deals, st.text(alphabet="abcdefghijklmnopqrstuvwxyz-", min_size=1, max_size=12))
def test_a_feat_outside_the_catalog_is_refused(deal: dict[str, Any], feat: str) -> None:
    assume(feat not in FEATS)
    text = dumps(record_of([played(deal)]))
    bad = _MISSION.sub(lambda m: f'mission = {{ feat = "{feat}", multiplier = {m[2]} }}', text)
    try:
        problems = verify(loads(bad)).problems
    except RecordError as exc:
        problems = [exc.message]
    assert problems and f"mission feat {feat!r} is not in the catalog" in problems[0]
    assert "\n" not in problems[0]


@given(deals, st.integers(-5, 50).filter(lambda k: k not in MULTIPLIERS))
def test_a_multiplier_outside_2_3_4_is_refused(deal: dict[str, Any], multiplier: int) -> None:
    text = dumps(record_of([played(deal)]))
    bad = _MISSION.sub(lambda m: f'mission = {{ feat = "{m[1]}", multiplier = {multiplier} }}',
                       text)
    try:
        problems = verify(loads(bad)).problems
    except RecordError as exc:
        problems = [exc.message]
    assert problems and f"mission multiplier {multiplier} is not allowed" in problems[0]


@given(deals)
def test_payments_that_ignore_the_mission_are_refused(deal: dict[str, Any]) -> None:
    s = played(deal)
    r = s.result
    assert r is not None and s.mission is not None
    record = record_of([s])
    payments: dict[str, Fraction] = record.deals[0].result["payments"]
    m = s.mission.multiplier
    # As if the mission had been left out (achieved) or applied (failed): each payment to or
    # from the winner's table, compensation for forced drops aside.
    comp = {s.names[q]: v for q, v in s.compensation.items()}
    factor = Fraction(1, m) if r.mission_achieved else Fraction(m)
    wrong = {p: (v - comp.get(p, 0)) * factor + comp.get(p, 0) for p, v in payments.items()}
    assume(wrong != payments)  # else nothing but compensation was paid: nothing to see
    record.deals[0].result["payments"] = wrong
    problems = verify(loads(dumps(record))).problems
    assert problems
    if r.mission_achieved:
        assert problems == [f"payments ignore the mission {s.mission.feat} ×{m}, which "
                            f"{s.names[r.winners[0]]} achieved: every payment to "
                            f"{s.names[r.winners[0]]} is multiplied by {m}"]

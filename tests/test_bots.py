"""Bots: they play whole deals legally, decide from the view alone, and the expert explains."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from hoola.bots import BOTS, LEVELS, IsmctsBot, bot_for_level, bot_kinds, make_bot
from hoola.cli import cli
from hoola.core.cards import parse_cards
from hoola.core.driver import play_deal
from hoola.games.hoola import DealState, Rules
from hoola.games.hoola.actions import Blast, Discard, NewMeld, Take
from hoola.games.hoola.deal import Deal
from hoola.games.hoola.determinize import determinize
from hoola.games.hoola.expert import ExpertBot, undercut_risk

PAGAT = Rules.preset("pagat")
FAST = {"ismcts": {"playouts": 6, "seconds": 5.0}}


def _bot(name: str, seed: int) -> object:
    return make_bot(name, seed, **FAST.get(name, {}))


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("preset", ["pagat", "classic", "online"])
def test_every_bot_plays_whole_deals_legally(name: str, preset: str) -> None:
    rules = Rules.preset(preset)
    for seed in range(2):
        state = DealState.new(rules, 4, seed=seed)
        players = [make_bot(name, seed + s, **FAST.get(name, {})) for s in range(4)]
        play_deal(state, players, rng=random.Random(seed))
        assert state.result is not None
        assert sum(state.result.payments.values()) == 0


def _mid_deal_states(count: int) -> list[tuple[DealState, int]]:
    """Real states part way through expert games, with a seat that may act there."""
    found: list[tuple[DealState, int]] = []
    expert = ExpertBot()
    for seed in range(40):
        state = DealState.new(PAGAT, 4, seed=seed)
        steps = 0
        while not state.is_over and len(found) < count:
            actors = sorted(state.actors())
            if steps in (3, 8, 13):
                found.append((state.copy(), actors[-1]))
            seat = actors[0]
            action = expert.act(state.view(seat))
            if action is None:
                action = next(a for a in state.legal_actions(seat))
            state.apply(action)
            steps += 1
        if len(found) >= count:
            break
    return found


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_decide_from_the_view_alone(name: str) -> None:
    # Two real states that differ only in what the player cannot see give equal views; a bot
    # seeded the same way must choose the same in both.
    for state, seat in _mid_deal_states(6):
        view = state.view(seat)
        other = determinize(view, random.Random(99))
        assert other.view(seat) == view
        hidden = [state.hand(q) for q in range(4) if q != seat]
        assert hidden != [other.hand(q) for q in range(4) if q != seat]
        assert _bot(name, 5).act(view) == _bot(name, 5).act(other.view(seat))  # type: ignore


def test_expert_explains_the_choice_it_makes() -> None:
    expert = ExpertBot()
    for state, seat in _mid_deal_states(12):
        view = state.view(seat)
        action, why = expert.explain(view)
        assert action == expert.act(view)
        assert action is None or action in view.legal
        assert why and why.endswith(".") and why.count(". ") == 0


def test_expert_blasts_a_low_hand() -> None:
    hands = [parse_cards("As Ah Ad 2s 2h 3s 3h"), parse_cards("Ks Kh Kd Qs Qh Qd Js"),
             parse_cards("4s 4h 5s 5h 6s 6h 8s"), parse_cards("9s 9h Ts Th Jh Jd 8h")]
    deal = Deal.explicit(PAGAT, hands, parse_cards("Kc")[0])
    state = DealState(PAGAT, ["A", "B", "C", "D"], deal)
    action, why = ExpertBot().explain(state.view(0))
    assert isinstance(action, Blast)
    assert "Blast" in why


def test_expert_claims_a_discard_it_can_meld_and_melds_before_discarding() -> None:
    expert = ExpertBot()
    claimed = melded = 0
    for seed in range(30):
        state = DealState.new(PAGAT, 4, seed=seed)
        while not state.is_over:
            for seat in sorted(state.actors()):
                view = state.view(seat)
                choice = expert.act(view)
                if view.can_pass and any(isinstance(a, Take) for a in view.legal):
                    assert isinstance(choice, Take)
                    claimed += 1
                if view.is_my_turn and view.drawn and any(
                        isinstance(a, NewMeld) for a in view.legal):
                    assert not isinstance(choice, Discard)
                    melded += 1
            play_one(state, expert)
    assert claimed and melded


def play_one(state: DealState, bot: ExpertBot) -> None:
    """Apply one decision of the lowest seat that may act (passes skipped)."""
    for seat in sorted(state.actors(), key=lambda q: q != state.current):
        choice = bot.act(state.view(seat))
        if choice is not None:
            state.apply(choice)
            return


def test_undercut_risk_grows_as_opponents_shed_cards() -> None:
    state = DealState.new(PAGAT, 4, seed=2)
    view = state.view(0)
    assert undercut_risk(view, 5) < 0.01  # everyone holds seven cards
    short = view._replace(hand_sizes=(7, 1, 1, 1), melded=(False, True, True, True))
    assert undercut_risk(short, 5) > 0.3


def test_ismcts_keeps_to_its_budget_and_is_reproducible() -> None:
    for state, seat in _mid_deal_states(4):
        view = state.view(seat)
        a, b = IsmctsBot(seed=3, playouts=9), IsmctsBot(seed=3, playouts=9)
        assert a.act(view) == b.act(view)
        assert a.act(view) in (*view.legal, None)
        assert a.rollouts <= 2 * (9 + 4)  # two searches, each stops once it spent its playouts


def test_ismcts_stops_at_its_time_budget_after_one_sample() -> None:
    bot = IsmctsBot(seed=1, playouts=10_000, seconds=0.0)
    for state, seat in _mid_deal_states(6):
        bot.act(state.view(seat))
    assert bot.searched > 0
    assert bot.rollouts <= bot.searched * 4  # one sample of at most four candidates each


def test_levels_name_bots_for_the_interfaces() -> None:
    assert list(LEVELS) == ["beginner", "easy", "medium", "hard", "master"]
    state = DealState.new(PAGAT, 4, seed=1)
    for level in LEVELS:
        bot = bot_for_level(level, seed=1)
        assert bot.act(state.view(0)) in state.legal_actions(0)
    with pytest.raises(ValueError, match="unknown level"):
        bot_for_level("godlike")


def test_levels_are_accepted_wherever_a_bot_kind_is(tmp_path: Path) -> None:
    assert bot_kinds() == [*BOTS, *LEVELS]
    master = make_bot("master", 1, playouts=3)
    assert isinstance(master, IsmctsBot) and master.playouts == 3 and master.seconds == 1.0
    assert type(make_bot("easy", 1)).__name__ == "GreedyBot"
    with pytest.raises(ValueError, match="levels are beginner, easy, medium, hard, master"):
        make_bot("godlike")
    save = tmp_path / "game.toml"
    result = CliRunner().invoke(cli, ["play", "--plain", "--bots", "master,beginner", "--seed",
                                      "2", "--players", "3", "--save", str(save)], input="q\n")
    assert result.exit_code == 0, result.output
    assert "Master1" in result.output and "Beginner2" in result.output
    assert "unknown bot 'chess'" in CliRunner().invoke(cli, ["play", "--bots", "chess"]).output

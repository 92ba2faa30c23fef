"""The capture games' bots: the expert plays only legal actions from its view in every preset,
its judgement in constructed positions, and the search hooks ISMCTS uses."""

from __future__ import annotations

import random

import pytest

from hoola.bots import make_bot
from hoola.bots.ismcts import IsmctsBot
from hoola.core.cards import parse_cards, rank_of
from hoola.core.driver import play_deal
from hoola.games.capture import GAME
from hoola.games.capture.actions import Action, Dark, Play, Say, Stop
from hoola.games.capture.determinize import determinize
from hoola.games.capture.expert import ExpertBot
from hoola.games.capture.expert_know import Knowledge, at_least
from hoola.games.capture.rules import PLAYERS, PRESETS, Rules
from hoola.games.capture.search import Horizon, candidates, sample
from hoola.games.capture.state import DealState

BOT = ExpertBot()
SETTINGS = [(preset, n) for preset in PRESETS for n in PLAYERS[preset]]
ACE, TEN, QUEEN = 0, 9, 11


def names(n: int) -> list[str]:
    return [chr(65 + i) for i in range(n)]


def position(rules: Rules | str, hands: list[str], moves: list[str], dealer: int = 0,
             stock: str = "") -> DealState:
    """A hand dealt as given (the rest of the pack the stock), with ``moves`` played."""
    r = rules if isinstance(rules, Rules) else GAME.rules(rules)
    state = DealState.explicit(r, names(len(hands)), [parse_cards(h) for h in hands],
                               parse_cards(stock) if stock else [], dealer)
    for m in moves:
        state.apply(state.parse(m))
    return state


def choose(state: DealState) -> Action:
    """The expert's choice for the player to act, checked: legal, explained, act agreeing."""
    assert state.turn is not None
    view = state.view(state.turn)
    action, why = BOT.explain(view)
    assert action is not None and action in view.legal
    assert action == BOT.act(view)
    assert why.endswith(".") and "\n" not in why
    return action


class Checked:
    """A seat that asks the expert from its view alone and checks every answer."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.said = 0

    def act(self, view: object) -> Action:
        action = BOT.act(view)  # type: ignore[arg-type]
        assert action in view.legal  # type: ignore[attr-defined]
        self.said += isinstance(action, Say)
        if self.rng.random() < 0.1:  # another deal consistent with the view: the same answer
            world = determinize(view, self.rng)  # type: ignore[arg-type]
            assert BOT.act(world.view(view.player)) == action  # type: ignore[attr-defined]
        assert action is not None
        return action


@pytest.mark.parametrize(("preset", "players"), SETTINGS)
def test_expert_plays_only_legal_actions_from_its_view(preset: str, players: int) -> None:
    rng = random.Random(preset)
    for seed in range(30):
        state = GAME.new_deal(GAME.rules(preset), names(players), seed=seed)
        seat = Checked(rng)
        play_deal(state, [seat] * players)
        assert state.is_over


def test_hypergeometric_odds() -> None:
    assert at_least(10, 0, 4, 1) == 0.0
    assert at_least(10, 10, 4, 4) == 1.0
    assert abs(at_least(4, 2, 2, 1) - 5 / 6) < 1e-12
    assert at_least(30, 3, 2, 3) == 0.0


def test_knowledge_counts_the_cards_gone() -> None:
    state = position("hola", ["3c 8c 9c Jc", "5s 3h 4h 6h", "9h Jd Qc Kc", "Ts 4c 8d 9d"],
                     ["B play 5s", "C play 9h"])
    know = Knowledge(state.view(3))
    assert know.counts[4] == 3 and know.counts[8] == 4 - 2  # 5s played; 9h played, 9d held
    assert know.unseen == 52 - 4 - 2
    assert know.unseen_of(know.takers(4)) == 3 + 8  # the other fives and the eight wilds


def test_expert_loads_a_ten_onto_a_trick_its_side_has_won() -> None:
    # No wilds, and every five is seen: B's 5h cannot be beaten, so D loads its ten.
    state = position(Rules.preset("hola", wilds="none"),
                     ["5s 8c 9c Jc", "5h 3h 4h 6h", "9h Jd Qc Kc", "5d 5c Ts 4c"],
                     ["A play 5s", "B play 5h", "C play 9h"], dealer=3)
    assert choose(state) == Play(3, parse_cards("Ts")[0])


def test_expert_keeps_its_ace_off_the_opponents_trick() -> None:
    state = position("hola", ["3c 8c 9c Jc", "5s 3h 4h 6h", "As 9h Jd Kc", "Ts 4c 8d 9d"],
                     ["B play 5s"])
    action = choose(state)
    assert isinstance(action, Play) and rank_of(action.card) not in (ACE, TEN)


def test_expert_fights_for_points_and_stops_otherwise() -> None:
    hands = ["3c 8c 9c Jc", "Ts Th 7s 2c", "Td 9h Jd Kc", "4c 8d 9d Qd"]
    fight = position("hola", hands, ["B play Ts", "C play Td", "D play 4c", "A play 9c"])
    assert isinstance(choose(fight), Play)  # 20 points at stake, three cards to fight with
    hands = ["3c 8c 9c Jc", "5s 5d 4h 6h", "9h Jd Qc Kc", "5h 4c 8d 9d"]
    partner = position("hola", hands, ["B play 5s", "C play 9h", "D play 5h", "A play 8c"])
    assert choose(partner) == Stop(1)  # the partner is winning
    hands = ["3c 8c 9c Jc", "5s 2s 4h 6h", "5c Jd Qc Kc", "3h 4c 8d 9d"]
    worthless = position("hola", hands, ["B play 5s", "C play 5c", "D play 4c", "A play 9c"])
    assert choose(worthless) == Stop(1)  # no wild is spent on a trick without points


def test_ristiklappi_keeps_clean_and_gives_queens_away() -> None:
    hands = ["3c 8c 9c Jc 4h", "Qs 5d 4s 6h 8h", "Qh 3d 9h Jd 6c", "5h 4c 8d 9d 6s"]
    led_queen = position("ristiklappi", hands, ["B play Qs"])
    action = choose(led_queen)
    assert not (isinstance(action, Play) and rank_of(action.card) == QUEEN)
    hands[1] = "5s 5d 4s 6h 8h"
    their_trick = position("ristiklappi", hands, ["B play 5s"])
    assert choose(their_trick) == Play(2, parse_cards("Qh")[0])


def second_phase(hands: list[str], moves: list[str], dirty: list[bool],
                 dealer: int = 0) -> DealState:
    """A Ristiklappi position after the stock is gone (the hands as given), sides dirty."""
    state = position("ristiklappi", hands, [], dealer)
    state.stock, state.phase1, state.dirty = [], False, tuple(dirty)
    for m in moves:
        state.apply(state.parse(m))
    return state


def test_ristiklappi_cleans_and_keeps_dirty_opponents_from_cleaning() -> None:
    hands = ["3c 8c 9c Jc 4h", "5s 5d 4s 6h 8h", "Kh Qh 9h Jd 6c", "5h 4c 8d 9d 6s"]
    action = choose(second_phase(hands, ["B play 5s"], [False, True]))
    assert isinstance(action, Play) and rank_of(action.card) != 12  # no king for B+D
    hands[1] = "Ks 5d 4s 6h 8h"
    spoil = second_phase(hands, ["B play Ks"], [False, True])
    assert choose(spoil) in (Play(2, parse_cards("Qh")[0]), Play(2, parse_cards("Kh")[0]))
    lead = second_phase(hands, [], [True, False], dealer=1)
    assert choose(lead) == Play(2, parse_cards("Kh")[0])  # a king led to clean


def test_ristikontra_plays_in_the_dark_rather_than_feed_points() -> None:
    hands = ["3c 8c 9c Jc 4h 6d", "5s 5d 4s 6h 8h 3s", "As Ah Ts Th Ks Kh", "5h 4c 8d 9d 6s 7d"]
    assert choose(position("ristikontra", hands, ["B play 5s"])) == Dark(2)
    hands[2], hands[3] = "As Ah Ts Th Ks 5h", "9h 4c 8d 9d 6s 7d"  # a five takes it instead
    assert choose(position("ristikontra", hands, ["B play 5s"])) == Play(2, parse_cards("5h")[0])


def test_sedmice_signals_are_said_and_kept() -> None:
    said = 0
    for seed in range(30):
        state = GAME.new_deal(GAME.rules("sedmice"), names(4), seed=seed)
        while not state.is_over:
            assert state.turn is not None
            action = choose(state)
            state.apply(action)
            if isinstance(action, Say):
                said += 1
                follow = choose(state)  # the speaker then plays, as it said
                assert isinstance(follow, Play)
                if action.word == "napuni":
                    led = state.led
                    assert led is None or rank_of(follow.card) in (led, *state.rules.wilds)
                state.apply(follow)
    assert said > 0


def test_candidates_are_legal_and_start_with_the_prior() -> None:
    for preset, players in SETTINGS:
        state = GAME.new_deal(GAME.rules(preset), names(players), seed=5)
        searched = 0
        while not state.is_over:
            assert state.turn is not None
            view = state.view(state.turn)
            prior = BOT.act(view)
            options = candidates(view, prior, 3)
            assert options[0] == prior and len(options) <= 3
            assert all(a in view.legal for a in options)
            assert len({rank_of(a.card) for a in options if isinstance(a, Play)}) == \
                sum(isinstance(a, Play) for a in options)  # one card of a rank
            if isinstance(prior, Say):
                assert options == [prior]
            searched += len(options) > 1
            state.apply(prior)
        assert searched > 0


def test_search_sample_stops_at_its_horizon() -> None:
    state = GAME.new_deal(GAME.rules("hola"), names(4), seed=8)
    view = state.view(1)
    world = sample(view, random.Random(1))
    assert isinstance(world, Horizon) and isinstance(world.copy(), Horizon)
    play_deal(world, [BOT] * 4)
    assert world.result is None and len(world.taken) == world.stop
    assert sum(world.returns()) == 0
    klappi = GAME.new_deal(GAME.rules("ristiklappi"), names(4), seed=8)
    assert not isinstance(sample(klappi.view(1), random.Random(1)), Horizon)


@pytest.mark.parametrize(("preset", "players"), [("hola", 4), ("sedma", 2), ("sedmice", 4),
                                                 ("ristikontra", 4), ("ristiklappi", 2)])
def test_ismcts_plays_legal_actions_with_a_tiny_budget(preset: str, players: int) -> None:
    state = GAME.new_deal(GAME.rules(preset), names(players), seed=4)
    bot = IsmctsBot(seed=1, game=GAME, playouts=4, seconds=60)  # the playouts bind, not time
    play_deal(state, [bot] + [BOT] * (players - 1))
    assert state.is_over and bot.searched > 0


def test_bots_are_registered() -> None:
    assert set(GAME.bots()) == {"expert"}
    assert isinstance(GAME.expert(1), ExpertBot)
    assert make_bot("ismcts", 1, game="capture").name == "ismcts"

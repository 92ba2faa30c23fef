"""The one driver (hoola.core.driver): deals played with bots, windows settled in the order
their decisions arrived, and a person racing bots in real time."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import pytest

from hoola.bots import BOTS, RandomBot, make_bot
from hoola.core.cards import parse_card, parse_cards
from hoola.core.driver import Arrival, LiveClock, Race, next_action, play_deal
from hoola.core.errors import IllegalActionError
from hoola.core.flow import Moment
from hoola.core.game import GameState, Player
from hoola.core.registry import get_game
from hoola.games.hoola.actions import Action, Draw, Take, format_action, parse_action
from hoola.games.hoola.deal import Deal
from hoola.games.hoola.greedy import GreedyBot
from hoola.games.hoola.rules import Rules
from hoola.games.hoola.state import DealState
from hoola.games.hoola.views import View
from hoola.terminal.races import describe_race, hoola_race

PRESETS = ["pagat", "classic", "rummy-rulebook", "online", "two-player", "hertzog", "glenn",
           "old", "court-ten", "winjoy"]


@pytest.mark.parametrize("players", range(2, 8))
@pytest.mark.parametrize("preset", PRESETS)
def test_bots_finish_deals_and_payments_sum_to_zero(preset: str, players: int) -> None:
    for seed in range(2):
        rules = Rules.preset(preset, jokers=seed)
        state = DealState.new(rules, players, seed=1000 * players + seed)
        bots = [RandomBot(seed=i) if (i + seed) % 2 else GreedyBot(seed=i)
                for i in range(players)]
        seen: list[Action] = []
        play_deal(state, bots, rng=random.Random(seed),
                  on_action=lambda _s, a, seen=seen: seen.append(a))
        assert state.is_over
        r = state.result
        assert r is not None
        assert sum(r.payments.values()) == 0
        assert all(isinstance(v, Fraction) for v in r.payments.values())
        assert r.winners and all(state.in_deal[w] for w in r.winners)
        assert set(r.points) == {q for q in range(players) if state.in_deal[q]}
        assert sum(state.in_deal) == min(players, 5)
        assert seen == state.history
        assert r.end in ("sopang", "daepang", "knock", "out", "hoola", "sevens", "stock")
        winners_paid = sum(r.payments[w] for w in r.winners)
        assert winners_paid >= 0


def test_greedy_bots_are_deterministic() -> None:
    def run() -> list[Action]:
        state = DealState.new(Rules.preset("pagat"), 4, seed=9)
        play_deal(state, [GreedyBot(seed=i) for i in range(4)], rng=random.Random(9))
        return state.history

    assert run() == run()


def test_play_deal_needs_a_player_per_seat() -> None:
    state = DealState.new(Rules.preset("pagat"), 4, seed=1)
    with pytest.raises(ValueError):
        play_deal(state, [GreedyBot() for _ in range(3)])


class Passer:
    """A player that never acts."""

    def act(self, view: View) -> Action | None:
        return None


def test_a_player_who_must_act_cannot_pass() -> None:
    state = DealState.new(Rules.preset("pagat"), 3, seed=1)
    with pytest.raises(IllegalActionError) as info:
        play_deal(state, [Passer(), GreedyBot(), GreedyBot()])
    assert info.value.code == "must-act"
    assert state.history == []


class Cheater:
    """A player that tries to draw out of turn."""

    def act(self, view: View) -> Action | None:
        return parse_action("B draw", view.names)


def test_illegal_choice_from_a_player_is_refused() -> None:
    state = DealState.new(Rules.preset("pagat"), 2, seed=1)
    with pytest.raises(IllegalActionError):
        play_deal(state, [Cheater(), Cheater()])


def test_make_bot() -> None:
    assert {"greedy", "random"} <= set(BOTS)
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    assert isinstance(make_bot("random", 1), RandomBot)
    with pytest.raises(ValueError):
        make_bot("clever")


# -- contested claims ------------------------------------------------------------------------------

CLAIM_HANDS = ["9d Kc Qd Jd 3h 5s 2h", "4d 5d 6d 8c 2s Ks Kh", "9s 9h Ah Ad 8h 6h 2c",
               "8d Td Th Tc 5h 3c 4c"]


def claim_state(claims: str) -> DealState:
    rules = Rules.preset("pagat", claims=claims)
    deal = Deal.explicit(rules, [parse_cards(h) for h in CLAIM_HANDS], parse_card("Ts"),
                         parse_cards("4h Jc Qs 3d"))
    return DealState(rules, ["A", "B", "C", "D"], deal)


def claims_of(state: DealState) -> list[Take]:
    claims = [parse_action(t, state.names) for t in ("D take 9d with 8d Td",
                                                     "C take 9d with 9s 9h")]
    assert all(isinstance(a, Take) and state.can(a) for a in claims)
    return [a for a in claims if isinstance(a, Take)]


def test_battle_next_priority_gives_the_discard_to_the_nearest_claimant() -> None:
    state = window_state("battle-next-priority")
    d_take, c_take = claims_of(state)
    assert state.resolve([d_take, c_take]) == c_take
    assert state.resolve([c_take, d_take]) == c_take


def test_battle_gives_the_discard_to_the_first_claim_to_arrive() -> None:
    state = window_state("battle")
    d_take, c_take = claims_of(state)
    assert state.resolve([d_take, B_DRAWS, c_take]) == d_take
    assert state.resolve([c_take, d_take]) == c_take


class Scripted:
    """Plays the wanted actions when they are legal, otherwise like the greedy bot."""

    def __init__(self, *wanted: str) -> None:
        self.wanted = list(wanted)
        self.greedy = GreedyBot(seed=0)
        self.asked: list[int] = []

    def act(self, view: View) -> Action | None:
        self.asked.append(len(view.history))
        for a in view.legal:
            text = format_for(view, a)
            if text in self.wanted:
                self.wanted.remove(text)
                return a
        if any(isinstance(a, Take) for a in view.legal) and view.can_pass:
            return None
        return self.greedy.act(view)


def format_for(view: View, action: Action) -> str:
    return format_action(action, view.names)


def scripted_players() -> list[Scripted]:
    return [Scripted("A discard 9d"), Scripted(), Scripted("C take 9d with 9s 9h"),
            Scripted("D take 9d with 8d Td")]


@pytest.mark.parametrize(("claims", "taker"), [("battle-next-priority", 2),
                                               ("next-only", None)])
def test_play_deal_settles_contested_claims(claims: str, taker: int | None) -> None:
    state = claim_state(claims)
    players = scripted_players()
    play_deal(state, players, rng=random.Random(0))
    third = state.history[2]
    if taker is None:
        # only B, the next player, may act: B draws, and C and D were not asked in the window
        assert isinstance(third, Draw) and third.player == 1
        assert min(players[2].asked) >= 3
        assert min(players[3].asked) >= 3
        assert "C take 9d with 9s 9h" in players[2].wanted
    else:
        assert isinstance(third, Take)
        assert third.player == taker
        assert state.history[3].player == taker   # the taker plays on
        assert third.with_cards == tuple(parse_cards("9s 9h"))
    assert state.is_over


def test_play_deal_battle_claims_go_to_either_claimant() -> None:
    takers = set()
    for seed in range(12):
        state = claim_state("battle")
        play_deal(state, scripted_players(), rng=random.Random(seed))
        third = state.history[2]
        assert isinstance(third, Take)
        takers.add(third.player)
        assert state.is_over
    assert takers == {2, 3}


# -- the window in time: first claim, turn order, the next player's own move ---------------------

def window_state(claims: str) -> DealState:
    """A discards 9d; C (9s 9h) and D (8d Td) may take it, B is next."""
    state = claim_state(claims)
    state.apply(parse_action("A draw", state.names))
    state.apply(parse_action("A discard 9d", state.names))
    return state


C_TAKES = Take(2, parse_card("9d"), tuple(parse_cards("9s 9h")))
D_TAKES = Take(3, parse_card("9d"), tuple(parse_cards("8d Td")))
B_DRAWS = Draw(1)


class Fixed:
    """A clock whose window brings the given decisions at the given moments."""

    def __init__(self, *arrivals: Arrival) -> None:
        self.arrivals = list(arrivals)
        self.asked: list[int] = []

    def ask(self, state: GameState, moment: Moment, views: Mapping[int, Any],
            players: Sequence[Player]) -> list[Arrival]:
        self.asked = list(views)
        return self.arrivals

    def heard(self, state: GameState, moment: Moment, chosen: Any,
              arrivals: Sequence[Arrival]) -> None:
        pass


def settled(state: DealState, *arrivals: Arrival) -> Any:
    return next_action(state, [GreedyBot()] * state.n, Fixed(*arrivals))


def test_battle_the_first_claim_in_time_wins() -> None:
    state = window_state("battle")
    assert settled(state, Arrival(1, B_DRAWS, math.inf), Arrival(2, C_TAKES, 1.4),
                   Arrival(3, D_TAKES, 0.9)) == D_TAKES


def test_battle_next_priority_turn_order_beats_time() -> None:
    state = window_state("battle-next-priority")
    assert settled(state, Arrival(1, B_DRAWS, math.inf), Arrival(2, C_TAKES, 1.4),
                   Arrival(3, D_TAKES, 0.2)) == C_TAKES


def test_the_next_players_draw_closes_the_window() -> None:
    state = window_state("battle")
    # B draws at 0.5 s: D's claim at 0.9 s comes too late, C's at 0.3 s is in time.
    assert settled(state, Arrival(1, B_DRAWS, 0.5), Arrival(3, D_TAKES, 0.9)) == B_DRAWS
    assert settled(state, Arrival(1, B_DRAWS, 0.5), Arrival(2, C_TAKES, 0.3),
                   Arrival(3, D_TAKES, 0.9)) == C_TAKES
    # Without a clock (a simulation) a claim beats the draw made at the same moment.
    assert settled(state, Arrival(1, B_DRAWS), Arrival(3, D_TAKES)) == D_TAKES
    assert len(state.history) == 2  # nothing applied


def test_a_window_without_a_move_from_the_next_player_is_refused() -> None:
    state = window_state("battle")
    with pytest.raises(IllegalActionError) as info:
        settled(state, Arrival(1, None), Arrival(2, None))
    assert info.value.code == "must-act"
    assert len(state.history) == 2


def test_a_decision_for_another_seat_is_refused_with_the_flows_reason() -> None:
    state = window_state("battle")
    with pytest.raises(IllegalActionError) as info:
        settled(state, Arrival(2, D_TAKES), Arrival(1, B_DRAWS))
    assert info.value.code == "not-your-seat"
    assert len(state.history) == 2


def test_the_window_is_put_to_its_seats_in_turn_order() -> None:
    state = window_state("battle")
    clock = Fixed(Arrival(1, B_DRAWS))
    next_action(state, [GreedyBot()] * 4, clock)
    assert clock.asked == [1, 2, 3]


class FakePerson:
    """A person who answers after a set number of seconds (None: never, in time)."""

    def __init__(self, action: Action | None, after: float | None) -> None:
        self.action = action
        self.after = after
        self.within: list[float | None] = []
        self.asked: list[View] = []

    def act(self, view: View) -> Action | None:
        return GreedyBot(seed=0).act(view)

    def ask(self, view: View) -> None:
        self.asked.append(view)

    def answer(self, within: float | None) -> tuple[Action | None, float] | None:
        self.within.append(within)
        if self.after is None or (within is not None and self.after > within):
            return None
        return self.action, self.after


class Always:
    """A bot that plays one action when it is legal, else passes or draws."""

    def __init__(self, action: Action | None) -> None:
        self.action = action

    def act(self, view: View) -> Action | None:
        if self.action in view.legal:
            return self.action
        return None if view.can_pass else GreedyBot(seed=0).act(view)


def race(claims: str, person: FakePerson, reaction: float) -> tuple[Action, list[Race]]:
    """C is the person and D a bot that claims 9d after ``reaction`` seconds."""
    state = window_state(claims)
    told: list[Race] = []
    clock = LiveClock(2, person, reaction=(reaction, reaction), rng=random.Random(1),
                      on_race=told.append, clock=lambda: 100.0)
    players = [Always(None), Always(None), person, Always(D_TAKES)]
    return next_action(state, players, clock), told


NAMES = ["A", "B", "C", "D"]


def test_a_quick_person_beats_the_bot_and_is_told() -> None:
    person = FakePerson(C_TAKES, 0.4)
    action, told = race("battle", person, 1.2)
    assert action == C_TAKES
    assert person.within == [1.2]  # the person could answer until the bot's claim
    assert hoola_race(told[0], NAMES, 2) == "You were quicker than D and took 9d."
    assert describe_race(told[0], NAMES, 2) == \
        "You were quicker than D: C take 9d with 9s 9h."


def test_a_slow_person_is_cut_off_and_told_who_was_quicker() -> None:
    person = FakePerson(C_TAKES, 2.0)
    action, told = race("battle", person, 1.2)
    assert action == D_TAKES
    assert told[0].claimants == (3,) and not told[0].answered
    assert hoola_race(told[0], NAMES, 2) == "D was quicker and took 9d before you answered."
    assert describe_race(told[0], NAMES, 2) == \
        "D was quicker, before you answered: D take 9d with 8d Td."


def test_under_next_priority_the_person_may_take_their_time() -> None:
    person = FakePerson(C_TAKES, 4.0)
    action, told = race("battle-next-priority", person, 0.5)
    assert person.within == [None]
    assert action == C_TAKES  # C's turn comes before D's
    assert hoola_race(told[0], NAMES, 2) == "You took 9d: your turn comes before D's."


def test_a_person_who_lets_the_discard_go_hears_nothing() -> None:
    action, told = race("battle", FakePerson(None, 0.2), 1.2)
    assert action == D_TAKES and told == []


def test_the_next_players_draw_in_time_closes_the_window_on_a_slower_bot() -> None:
    def window(after: float) -> tuple[Action, list[Race]]:
        told: list[Race] = []
        clock = LiveClock(1, FakePerson(B_DRAWS, after), reaction=(0.5, 0.5),
                          rng=random.Random(1), on_race=told.append, clock=lambda: 100.0)
        players = [Always(None), FakePerson(B_DRAWS, after), Always(None), Always(D_TAKES)]
        clock.seat = players[1]
        return next_action(window_state("battle"), players, clock), told

    assert window(0.3) == (B_DRAWS, [])  # B drew first: D's claim came too late
    action, told = window(2.0)  # D's claim settles the window while B still thinks
    assert action == D_TAKES
    assert hoola_race(told[0], NAMES, 1) == "D was quicker and took 9d before you answered."


def test_bot_reaction_times_are_drawn_from_the_seed() -> None:
    def times(seed: int) -> list[float]:
        live = LiveClock(0, FakePerson(None, 0.1), reaction=(0.8, 1.5), rng=random.Random(seed))
        arrivals = live.ask(window_state("battle"), Moment(0, frozenset({1, 2, 3}),
                                                           frozenset({2, 3})),
                            {q: window_state("battle").view(q) for q in (1, 2, 3)},
                            [Always(None), Always(None), Always(C_TAKES), Always(D_TAKES)])
        return [a.at for a in arrivals if isinstance(a.action, Take)]

    assert times(4) == times(4) != times(5)
    assert all(0.8 <= t <= 1.5 for t in times(4) + times(5))


def test_a_kalookie_warning_races_in_any_games_words() -> None:
    """Every game's windows go through the same clock: a bot's warning in Kalookie settles the
    window while the person to move still thinks, and the news is worded from the notation."""
    game = get_game("kalookie")
    for seed in range(200):
        state = game.new_deal(game.rules(options={"warnings": "manual"}), ["A", "B", "C"],
                              seed=seed)
        bots = [RandomBot(seed=q) for q in range(3)]
        while not state.is_over:
            actors = state.actors()
            warners = [q for q in actors if q != 0 and state.view(q).can_pass
                       and any(type(a).__name__ == "Warn" for a in state.view(q).legal)]
            if 0 in actors and not state.view(0).can_pass and warners:
                break
            state.apply(next_action(state, bots))
        else:
            continue
        break
    else:
        pytest.skip("no window with a warning to race for in 200 hands")
    told: list[Race] = []
    person = FakePerson(None, None)
    clock = LiveClock(0, person, reaction=(0.5, 0.5), rng=random.Random(1),
                      on_race=told.append, clock=lambda: 100.0)
    warn = next(a for a in state.view(warners[0]).legal if type(a).__name__ == "Warn")
    players: list[Player] = [person, *(Always(warn) if q == warners[0] else RandomBot(seed=q)
                                       for q in (1, 2))]
    action = next_action(state, players, clock)
    assert action == warn
    assert person.within == [0.5]
    assert told and describe_race(told[0], ["A", "B", "C"], 0).startswith(
        f"{state.names[warners[0]]} was quicker, before you answered: ")

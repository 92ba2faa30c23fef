"""Kalookie's search hooks: the candidates ISMCTS searches, the guesses it plays out, and whole
hands played by ``make_bot("ismcts", game="kalookie")``."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from hoola.bots import make_bot
from hoola.core.cards import pack
from hoola.core.driver import play_deal
from hoola.games.kalookie import GAME
from hoola.games.kalookie.actions import Add, Discard, Draw, NewMeld, Take
from hoola.games.kalookie.cards import JOKER, counts_of, parse_tokens
from hoola.games.kalookie.determinize import determinize, held_cards
from hoola.games.kalookie.expert import ExpertBot
from hoola.games.kalookie.search import SearchGuide, candidates
from hoola.games.kalookie.state import DealState
from hoola.games.kalookie.views import View

BOT = SearchGuide()
JUNK = "2s 4s 6s 8s Ts 3h 5h 7h Jh 4d 6d 8d Td"  # no meld
HAND_KK = "Ks Kh 9c Tc Jc 2d 3d 7s 8h 5h Qd 4c 6c"
SETTINGS = [("british", {}, 2), ("british", {}, 4), ("north-american", {}, 3),
            ("scarne", {}, 2), ("swedish", {"identical_sets": True, "joker_sets": True}, 3)]


def positions(preset: str, options: dict[str, Any], players: int,
              seeds: range) -> list[tuple[DealState, int]]:
    """(state, seat) at every decision of expert play, each state a copy taken there."""
    rules = GAME.rules(preset, options)
    out = []
    for seed in seeds:
        state = GAME.new_deal(rules, [f"P{i}" for i in range(players)], seed=seed)
        while not state.is_over:
            seat = state.current
            out.append((state.copy(), seat))
            action = BOT.act(state.view(seat))
            state.apply(action if action is not None else state.legal_actions(seat)[0])
    return out


def agrees(guess: DealState, view: View, truth: DealState) -> None:
    """The guess shows the viewer exactly ``view``, deals out the whole pack, and keeps every
    opponent's known cards (which the true hands hold as well)."""
    p = view.player
    seen = guess.view(p)
    for field in ("hand", "hand_sizes", "melds", "discards", "stock_size", "history", "legal",
                  "turn", "opened", "can_pass", "phase", "current"):
        assert getattr(seen, field) == getattr(view, field), field
    every = [*guess.stock, *view.discards, *(t for m in view.melds for t in m.tokens)]
    for q in range(view.players):
        every.extend(guess.hand(q))
    assert counts_of(every)[:JOKER] == counts_of(pack(view.rules.decks, view.rules.jokers))[:JOKER]
    for q, known in enumerate(held_cards(view)):
        for c, n in Counter(known).items():
            assert guess.hand(q).count(c) >= n and truth.hand(q).count(c) >= n


# -- guessing the hidden cards --------------------------------------------------------------------

@pytest.mark.parametrize(("preset", "options", "players"), SETTINGS)
def test_every_guess_agrees_with_the_view(preset: str, options: dict[str, Any],
                                          players: int) -> None:
    rng = random.Random(0)
    known = 0
    for state, seat in positions(preset, options, players, range(2)):
        for viewer in {seat, (seat + 1) % players}:
            view = state.view(viewer)
            known += sum(len(h) for h in held_cards(view))
            agrees(determinize(view, rng), view, state)
    if preset != "scarne":  # where a taken card must go down at once, none stays known
        assert known > 0  # some opponent took from the pile and kept it


def test_a_card_taken_from_the_pile_stays_in_that_hand(start: Any, play: Any) -> None:
    s = play(start({"A": "Kd 4s 6s 8s Ts 3h 5h 7h Jh 4d 6d 8d Td", "B": HAND_KK}, "Ac",
                   "7c 3s 9s"), "B draw", "B discard Qd", "A draw", "A discard Kd", "B take",
             "B meld Ks Kh Kd", "B meld 9c Tc Jc", "B discard 2d")
    view = s.view(0)
    assert held_cards(view)[1] == []  # Kd went down in a meld: nothing known any more
    s = play(start({"A": "Kd 4s 6s 8s Ts 3h 5h 7h Jh 4d 6d 8d Td", "B": HAND_KK}, "Qd",
                   "7c 3s 9s"), "B take", "B discard 2d")
    view = s.view(0)
    assert held_cards(view)[1] == parse_tokens("Qd")
    rng = random.Random(1)
    for _ in range(50):
        assert parse_tokens("Qd")[0] in determinize(view, rng).hand(1)


def test_a_taken_joker_is_forgotten_once_a_joker_goes_down(start: Any, play: Any) -> None:
    s = play(start({"A": JUNK, "B": "Ks Kh 9c Tc Jc 2d 3d 7s 8h 5h Qd 4c 6c"}, "JK",
                   "7c 3s 9s"), "B take")
    assert held_cards(s.view(0))[1] == [JOKER]
    play(s, "B meld Ks Kh JK", "B meld 9c Tc Jc", "B discard Qd")
    assert held_cards(s.view(0))[1] == []


# -- the candidates ---------------------------------------------------------------------------

@pytest.mark.parametrize(("preset", "options", "players"), SETTINGS)
def test_candidates_are_legal_few_and_the_experts_first(preset: str, options: dict[str, Any],
                                                        players: int) -> None:
    searched = 0
    for state, seat in positions(preset, options, players, range(2)):
        view = state.view(seat)
        prior = BOT.act(view)
        for k in (1, 2, 3):
            options_ = BOT.candidates(view, prior, k)
            assert options_[0] == prior and 1 <= len(options_) <= k
            assert len(set(options_)) == len(options_)
            assert all(a in view.legal for a in options_[1:])
        searched += len(BOT.candidates(view, prior, 3)) > 1
    assert searched > 0


def test_draw_or_take_is_searched_only_for_a_card_that_could_meld(start: Any,
                                                                  play: Any) -> None:
    s = play(start({"A": "Kd 4s 6s 8s Ts 3h 5h 7h Jh 4d 6d 8d Td", "B": HAND_KK}, "Ac",
                   "7c 3s"), "B draw", "B discard Qd", "A draw", "A discard Kd")
    view = s.view(1)
    prior = BOT.act(view)
    assert prior == Take(1) and candidates(view, prior, 3) == [Take(1), Draw(1)]
    s = play(start({"A": JUNK, "B": HAND_KK}, "JK", "7c 3s"))
    assert candidates(s.view(1), Take(1), 3) == [Take(1)]  # a joker is always taken


def test_laying_now_is_weighed_against_holding_once_someone_may_be_near_out(
        start: Any, play: Any) -> None:
    b = "Ks Kh Kd 9c Tc Jc 2d 3d 4d 7s 8h 5h Qd"
    s = play(start({"A": JUNK, "B": b}, "Ac", "6c Kc Jd"), "B draw", "B meld Ks Kh Kd",
             "B meld 9c Tc Jc", "B discard Qd", "A draw", "A discard Kc", "B take")
    view = s.view(1)
    prior = BOT.act(view)
    assert isinstance(prior, Discard)  # the expert holds 2d 3d 4d and Kc
    # A has not melded: nobody is near out, holding is clearly right and not searched.
    assert not any(isinstance(a, NewMeld | Add) for a in candidates(view, prior, 3))
    near = view._replace(opened=(True, True), hand_sizes=(4, view.hand_sizes[1]))
    prior = BOT.act(near)
    assert isinstance(prior, Discard)  # still under the expert's threshold to lay
    assert any(isinstance(a, NewMeld | Add) for a in candidates(near, prior, 3))


def test_nothing_is_searched_outside_the_players_own_turn() -> None:
    state = GAME.new_deal(GAME.rules("british"), ["A", "B"], seed=3)
    view = state.view(0)  # B is to play first
    assert candidates(view, BOT.act(view), 3) == [BOT.act(view)]


# -- whole hands ---------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 4])
def test_ismcts_plays_whole_hands_legally_and_reproducibly(players: int) -> None:
    rules = GAME.rules("british")
    names = [f"P{i}" for i in range(players)]
    histories = []
    for _ in range(2):
        state = GAME.new_deal(rules, names, seed=11)
        bot = make_bot("ismcts", game="kalookie", seed=5, playouts=4, seconds=float("inf"))
        play_deal(state, [bot if q % 2 == 0 else ExpertBot() for q in range(players)])
        assert state.is_over and state.result is not None
        assert bot.searched > 0  # type: ignore[attr-defined]
        histories.append([state.format(a) for a in state.history])
    assert histories[0] == histories[1]

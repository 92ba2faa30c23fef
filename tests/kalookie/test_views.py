"""Views: only what a seat may know, drawn as a table; determinization from a view."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from hoola.core.game import GameState, View
from hoola.core.table import Table
from hoola.games.kalookie import GAME
from hoola.games.kalookie.actions import Draw
from hoola.games.kalookie.determinize import determinize, unseen_cards
from hoola.games.kalookie.state import DealState

Play = Callable[..., DealState]


def test_a_view_holds_only_the_own_hand_and_public_facts(start: Any, play: Play) -> None:
    s = play(start({"A": "2s 4s 6s 8s Ts 3h 5h 7h Jh 4d 6d 8d Td",
                    "B": "Ks Kh Kd 7s 7h 7d 2c 3c 4c 9c Tc Jc Qd"}, "Ac", "Qh 9s"),
             "B draw", "B meld Ks Kh Kd", "B meld 7s 7h 7d", "B discard Qh")
    view = s.view(0)
    assert isinstance(view, View) and view.hands is None
    assert view.hand == s.hand(0) and view.hand_sizes == (13, 7)
    assert view.history[0] == Draw(1)  # the card drawn is not shown
    assert s.history[0] != Draw(1)
    text = json.dumps(view.to_json())
    assert "Qd" not in text and "2c" not in text  # B's hidden cards
    table = view.table()
    assert isinstance(table, Table)
    assert [z.id for z in table.zones] == ["hand-0", "hand-1", "m1", "m2", "discard", "stock"]
    assert table.zone("hand-1").cards is None and table.zone("hand-1").count == 7
    assert table.zone("m1").cards == ("Ks", "Kh", "Kd") and table.zone("m1").note == "m1"
    assert table.zone("discard").cards == ("Ac", "Qh") and table.zone("stock").count == 78
    assert table.moment.actors == (0,) and table.moment.prompt == "Draw from the stock"
    assert s.view(1).table().moment.prompt == "A to play"
    json.dumps(table.to_json())


def test_showdown_shows_every_hand(start: Any, play: Play) -> None:
    s = play(start({"A": "2s 3s 4h 6h 8h Ts Jd Qc Ac 7d 9s 6c 8c",
                    "B": "Ah Kh Qh 5s 5d 5c 2d 3d 4d 9c Tc Jc Kd"}, "Js", "5h"),
             "B draw", "B meld Qh Kh Ah", "B meld 5s 5d 5c 5h", "B meld 2d 3d 4d",
             "B meld 9c Tc Jc", "B discard Kd")
    view = s.view(0)
    assert view.hands is not None and view.hands[0] == s.hand(0)
    assert view.prompt() == "B went kalookie"
    assert view.table().scores[-1].values == ("-2", "2")


def test_determinize_keeps_the_view(start: Any, play: Play) -> None:
    s = GAME.new_deal(GAME.rules("british"), ["A", "B", "C"], seed=11)
    assert isinstance(s, GameState)
    rng = random.Random(4)
    for _ in range(30):
        p = s.current
        s.apply(rng.choice(s.legal_actions(p)))
    view = s.view(2)
    guess = GAME.determinize(view, rng)
    assert guess.view(2).to_json() == view.to_json()
    assert guess.hand(2) == s.hand(2) and guess.sizes == s.sizes
    assert len(unseen_cards(view)) == sum(s.sizes) - s.sizes[2] + len(s.stock)
    for _ in range(20):
        if guess.is_over:
            break
        guess.apply(rng.choice(guess.legal_actions(guess.current)))
    assert determinize(view, random.Random(1)).hand(2) == s.hand(2)

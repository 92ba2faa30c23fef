"""The capture expert's reasons say what is true of the position and the card chosen: a card
loaded goes onto the side's own trick, odds of keeping a trick are said only when they favour
the side, "the cheapest card" is the cheapest, over random deals of every preset."""

from __future__ import annotations

import pytest

from hoola.core.words import Reason
from hoola.games.capture import GAME
from hoola.games.capture.actions import Play
from hoola.games.capture.expert import ExpertBot, options
from hoola.games.capture.expert_know import Knowledge
from hoola.games.capture.rules import PLAYERS, PRESETS
from hoola.games.capture.views import View

BOT = ExpertBot()
SETTINGS = [(preset, n) for preset in PRESETS for n in PLAYERS[preset]]
# The reasons that tell the side it should keep (or win) the trick.
HOPEFUL = {"capture.hint.take", "capture.hint.fight", "capture.hint.lead-safe",
           "capture.hint.load", "capture.hint.load-over"}


def falsehoods(view: View) -> list[str]:
    """What the expert's reason for ``view`` says that is not so."""
    action, why = BOT.explain(view)
    assert isinstance(why, Reason)  # a key with arguments beside the English
    key = why.said.key
    if len(view.legal) < 2 or not isinstance(action, Play):
        return []
    know = Knowledge(view)
    chosen = next(o for o in options(view, know) if o.action == action)
    ours = view.led is not None and view.side_of[view.winner] == know.side
    points = know.points[action.card % 13]
    wrong = []
    if key in HOPEFUL and chosen.chance < 0.5:
        wrong.append("says the side should keep a trick it probably loses")
    if key == "capture.hint.load" and not (ours and not chosen.takes):
        wrong.append("loads onto a trick that is not the side's")
    if key == "capture.hint.load-over" and (ours or chosen.takes):
        wrong.append("says the trick is the opponents' when it is not")
    if (key.endswith("-ours") and not ours) or (key.endswith("-theirs") and ours):
        wrong.append("names the wrong side's trick")
    if key.startswith("capture.hint.throw-cheapest") and \
            any(know.points[c % 13] < points for c in view.hand):
        wrong.append("calls a card the cheapest when a cheaper one is in hand")
    if key.startswith("capture.hint.throw-spare"):
        takers = know.takers(view.led)
        if any(know.points[c % 13] < points and c % 13 not in takers for c in view.hand):
            wrong.append("keeps a cheaper card that does not take")
    if key.startswith("capture.hint.throw-keep") and \
            not any(know.points[c % 13] < points for c in view.hand):
        wrong.append("keeps cheaper cards it does not hold")
    if key in ("capture.hint.lead-cheap", "capture.hint.throw-nothing-ours",
               "capture.hint.throw-nothing-theirs") and \
            (points or action.card % 13 in know.wilds):
        wrong.append("calls a card worth something worth nothing")
    return [f"{why!s} ({w})" for w in wrong]


@pytest.mark.parametrize(("preset", "players"), SETTINGS)
def test_the_reasons_are_true_of_the_position(preset: str, players: int) -> None:
    found: list[str] = []
    for seed in range(12):
        state = GAME.new_deal(GAME.rules(preset), [chr(65 + i) for i in range(players)],
                              seed=seed)
        while not state.is_over:
            assert state.turn is not None
            view = state.view(state.turn)
            found += falsehoods(view)
            action = BOT.act(view)
            assert action is not None
            state.apply(action)
    assert not found, found[:5]


def test_a_point_card_onto_the_opponents_trick_is_not_loaded_onto_ours() -> None:
    # Hola for four, the first deal of seed 0: the opponents hold the trick when the expert
    # plays its ace onto it, counting on its side to take it over.
    state = GAME.new_deal(GAME.rules("hola"), ["A", "B", "C", "D"], seed=0)
    seen: list[Reason] = []
    while not state.is_over:
        assert state.turn is not None
        view = state.view(state.turn)
        action, why = BOT.explain(view)
        if isinstance(action, Play) and view.led is not None and not view.deciding:
            know = Knowledge(view)
            if view.side_of[view.winner] != know.side and know.points[action.card % 13] and \
                    action.card % 13 not in know.takers(view.led):
                assert isinstance(why, Reason)
                seen.append(why)
        assert action is not None
        state.apply(action)
    assert seen
    keys = {w.said.key for w in seen}
    assert "capture.hint.load" not in keys and "capture.hint.load-over" in keys, seen
    assert all("your side's trick" not in w for w in seen)


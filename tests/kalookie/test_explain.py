"""Kalookie's expert says why it does what it does: over random-play positions of several
presets, the reason's key names the kind of action chosen, and the reason given for a lay is the
one that holds (a card taken to be laid at once is laid because it must be, not to shed points;
an initial meld only before opening; a kalookie only before opening)."""

from __future__ import annotations

import random

import pytest

from hoola.core.words import Reason, Said
from hoola.games.kalookie import GAME
from hoola.games.kalookie.actions import (
    Action,
    Add,
    BuyIn,
    Discard,
    Draw,
    NewMeld,
    Retire,
    Swap,
    SwapUpcard,
    Take,
    Warn,
)
from hoola.games.kalookie.cards import JOKER
from hoola.games.kalookie.expert import ExpertBot
from hoola.games.kalookie.views import View

BOT = ExpertBot()
NONE = type(None)
KINDS: dict[str, tuple[type, ...]] = {
    "hint.nothing": (NONE,),
    "kalookie.hint.warn": (Warn,), "kalookie.hint.warn-one": (Warn,),
    "kalookie.hint.let-go": (NONE,), "kalookie.hint.keep-hand": (NONE,),
    "kalookie.hint.draw": (Draw,), "kalookie.hint.draw-no-open": (Draw,),
    "kalookie.hint.draw-alone": (Draw,), "kalookie.hint.draw-no-meld": (Draw,),
    "kalookie.hint.take-joker": (Take,), "kalookie.hint.take-out": (Take,),
    "kalookie.hint.take-opens": (Take,), "kalookie.hint.take-completes": (Take,),
    "kalookie.hint.meld": (NewMeld,), "kalookie.hint.add": (Add,),
    "kalookie.hint.swap": (Swap,), "kalookie.hint.owed": (NewMeld, Add, Swap),
    "kalookie.hint.discard": (Discard,), "kalookie.hint.break": (Discard,),
    "kalookie.hint.discard-last-kalookie": (Discard,),
    "kalookie.hint.discard-last-call-up": (Discard,),
    "kalookie.hint.swap-upcard": (SwapUpcard,),
    "kalookie.hint.buy-in": (BuyIn,), "kalookie.hint.retire": (Retire,),
}
SETTINGS = [("british", 3), ("swedish", 2), ("blackpool", 4), ("north-american", 3),
            ("scarne", 2), ("scarne", 3), ("three-deck", 5)]


def laid(action: Action | None) -> tuple[int, ...]:
    if isinstance(action, NewMeld | Swap):
        return action.cards
    if isinstance(action, Add):
        return (action.card,)
    return ()


def mismatches(view: View) -> list[str]:
    """Where the expert's reason for ``view`` does not agree with its choice."""
    action, why = BOT.explain(view)
    assert isinstance(why, Reason)  # a key with arguments beside the English
    said = why.said
    key, wrong = said.key, []
    if key == "hint.only":
        if len(view.legal) != 1 or view.can_pass:
            wrong.append("says it is the only move among several")
    elif not isinstance(action, KINDS[key]):
        wrong.append(f"{type(action).__name__} explained as {key}")
    because = said.args.get("why")
    sub = because.key if isinstance(because, Said) else None
    must = view.turn.must_lay
    owed = must is not None and any(t == must or (t >= JOKER and must == JOKER)
                                    for t in laid(action))
    if sub == "kalookie.why.sheds" and owed:
        wrong.append("a lay it owes explained as shedding points")
    if sub == "kalookie.why.taken" and not owed:
        wrong.append("a lay it does not owe explained as owed")
    if sub == "kalookie.why.opening" and view.opened[view.player]:
        wrong.append("an initial meld after opening")
    if sub == "kalookie.why.kalookie" and view.turn.opened_before:
        wrong.append("a kalookie after opening")
    if sub == "kalookie.why.call-up" and not view.turn.opened_before:
        wrong.append("a call-up without having opened")
    if sub == "kalookie.why.must-go" and not (isinstance(action, Add) and action.card >= JOKER):
        wrong.append("a card that must go is not the loose joker")
    return [f"{why!s} [{action}] ({w})" for w in wrong]


@pytest.mark.parametrize(("preset", "players"), SETTINGS)
def test_the_reason_agrees_with_the_action(preset: str, players: int) -> None:
    rules = GAME.rules(preset)
    found: list[str] = []
    asked = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = GAME.new_deal(rules, [f"P{i}" for i in range(players)], seed=seed)
        while not state.is_over:
            for seat in state.actors():
                found += mismatches(state.view(seat))
                asked += 1
            state.apply(rng.choice(state.legal_actions(state.current)))
    assert asked > 100
    assert not found, found[:5]

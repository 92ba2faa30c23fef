"""Helpers for the Kalookie tests: hands from notation, actions from notation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from hoola.games.kalookie.cards import parse_tokens
from hoola.games.kalookie.deal import Standing, explicit
from hoola.games.kalookie.rules import Rules
from hoola.games.kalookie.state import DealState

Start = Callable[..., DealState]


def start_hand(hands: dict[str, str], upcard: str, stock: str = "", *, preset: str = "british",
               dealer: str | None = None, standing: Standing | None = None,
               **options: Any) -> DealState:
    """A hand dealt as given (seats in the order of ``hands``), the first seat dealing."""
    rules = Rules.preset(preset, **options)
    names = list(hands)
    standing = standing or Standing.fresh(len(names))
    seat = names.index(dealer) if dealer else 0
    deal = explicit(rules, standing, seat, [parse_tokens(hands[n]) for n in names],
                    parse_tokens(upcard)[0], parse_tokens(stock))
    return DealState(rules, names, deal, dealer=seat, standing=standing)


def play(state: DealState, *actions: str) -> DealState:
    """Apply each action in notation."""
    for text in actions:
        state.apply(state.parse(text))
    return state


@pytest.fixture
def start() -> Start:
    return start_hand


@pytest.fixture(name="play")
def play_fixture() -> Callable[..., DealState]:
    return play

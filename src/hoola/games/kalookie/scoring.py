"""Scoring a hand (ruling 12) under the three scoring modes: pool, points and cards.

>>> from hoola.games.kalookie.rules import Rules
>>> s = settle(Rules.preset("british"), "kalookie", 1, {0: [12, 52], 1: []})
>>> s.penalty, s.payments
({0: 25, 1: 0}, {0: Fraction(-2, 1), 1: Fraction(2, 1)})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final

from hoola.games.kalookie.rules import Rules

__all__ = ["END_KINDS", "Settlement", "hand_penalty", "settle", "void"]

END_KINDS: Final = ("call-up", "kalookie", "void")


@dataclass(frozen=True, slots=True)
class Settlement:
    """How a hand ended: ``end``, the ``winner`` (None when void), each player's penalty points
    this hand (the winner's 0 included) and payments (net stakes, summing to zero)."""

    end: str
    winner: int | None
    penalty: dict[int, int] = field(default_factory=dict)
    payments: dict[int, Fraction] = field(default_factory=dict)


def hand_penalty(cards: Sequence[int], rules: Rules) -> int:
    """Penalty points of cards left in hand (aces ``ace_penalty``, jokers ``joker_penalty``)."""
    return sum(rules.card_value(c) for c in cards)


def void(players: Sequence[int]) -> Settlement:
    """A void hand (ruling 11): no payment, no penalty."""
    return Settlement("void", None, {q: 0 for q in players}, {q: Fraction(0) for q in players})


def settle(rules: Rules, end: str, winner: int, hands: Mapping[int, Sequence[int]]) -> Settlement:
    """Settle a call-up or kalookie by ``winner``; ``hands`` holds every player's cards left."""
    double = 2 if end == "kalookie" and rules.kalookie_double_penalties else 1
    penalty = {q: 0 if q == winner else double * hand_penalty(cards, rules)
               for q, cards in hands.items()}
    payments: dict[int, Fraction] = {}
    for q, cards in hands.items():
        if q == winner:
            continue
        if rules.scoring == "pool":
            owed = Fraction(rules.kalookie_stake if end == "kalookie" else rules.call_up)
        elif rules.scoring == "points":
            owed = Fraction(penalty[q])
        else:
            owed = Fraction(sum(2 if c >= 52 else 1 for c in cards)) * (
                2 if end == "kalookie" else 1)
        payments[q] = -owed
    payments[winner] = -sum(payments.values(), Fraction(0))
    return Settlement(end, winner, penalty, dict(sorted(payments.items())))

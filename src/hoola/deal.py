"""The deal: hands, upcard and stock, shuffled from a seed or given explicitly.

>>> from hoola.rules import Rules
>>> d = Deal.shuffled(Rules.preset("pagat"), 4, seed=1)
>>> len(d.hands), [len(h) for h in d.hands], len(d.stock)
(4, [7, 7, 7, 7], 23)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from hoola.cards import JOKER, format_card
from hoola.errors import IllegalActionError
from hoola.rules import Rules

__all__ = ["HAND_SIZE", "Deal", "complete_stock"]

HAND_SIZE = 7


@dataclass(frozen=True, slots=True)
class Deal:
    """What was dealt: a hand per seat (jokers as JOKER), the upcard, and the stock, top first.

    With six or seven players the stock changes once the dropped hands join it: ``redeal`` says how
    (``"shuffle"`` with the deal's random source, ``"listed"`` when ``stock`` lists the stock after
    the drops, as a record does, with unlisted cards following in canonical order).
    """

    hands: tuple[tuple[int, ...], ...]
    upcard: int
    stock: tuple[int, ...]
    redeal: str = "shuffle"

    @classmethod
    def shuffled(cls, rules: Rules, players: int, *, seed: int | None = None,
                 rng: random.Random | None = None) -> Deal:
        """A random deal from ``seed`` (or ``rng``): seven cards each, an upcard, the stock."""
        rng = rng if rng is not None else random.Random(seed)
        deck = list(range(52)) + [JOKER] * rules.jokers
        rng.shuffle(deck)
        hands = tuple(tuple(sorted(deck[i:HAND_SIZE * players:players])) for i in range(players))
        upcard = deck[HAND_SIZE * players]
        return cls(hands, upcard, tuple(deck[HAND_SIZE * players + 1:]), "shuffle")

    @classmethod
    def explicit(cls, rules: Rules, hands: Sequence[Sequence[int]], upcard: int,
                 stock: Sequence[int] = ()) -> Deal:
        """A deal as a record gives it; the stock is completed in canonical order (see records.md).

        Raises :class:`IllegalActionError` (code ``bad-deal``) when cards repeat or hands are short.
        """
        hands_t = tuple(tuple(h) for h in hands)
        for i, h in enumerate(hands_t):
            if len(h) != HAND_SIZE:
                raise IllegalActionError(f"hand {i + 1} has {len(h)} cards, not {HAND_SIZE}",
                                         "bad-deal")
        every = [c for h in hands_t for c in h] + [upcard]
        if len(hands_t) < 6:
            every += list(stock)
        else:
            # The listed stock is the stock after the drops: it may hold dropped cards.
            listed = [c for c in stock if c != JOKER]
            if len(set(listed)) != len(listed):
                raise IllegalActionError("a card is listed twice in the stock", "bad-deal")
        naturals = [c for c in every if c != JOKER]
        if len(set(naturals)) != len(naturals):
            twice = sorted({c for c in naturals if naturals.count(c) > 1})
            raise IllegalActionError(f"card {format_card(twice[0])} is dealt twice", "bad-deal")
        jokers = len(every) - len(naturals)
        if jokers > rules.jokers:
            raise IllegalActionError(f"the deal holds {jokers} jokers but the rules use "
                                     f"{rules.jokers}", "bad-deal")
        if len(hands_t) >= 6:
            return cls(hands_t, upcard, tuple(stock), "listed")
        full = complete_stock(rules, [c for h in hands_t for c in h] + [upcard], stock)
        return cls(hands_t, upcard, full, "listed")


def complete_stock(rules: Rules, elsewhere: Sequence[int],
                   listed: Sequence[int]) -> tuple[int, ...]:
    """``listed`` followed by every card not ``elsewhere`` nor listed, in canonical order."""
    used = set(c for c in elsewhere if c != JOKER) | set(c for c in listed if c != JOKER)
    jokers_left = rules.jokers - sum(1 for c in (*elsewhere, *listed) if c == JOKER)
    rest = [c for c in range(52) if c not in used] + [JOKER] * max(jokers_left, 0)
    return (*listed, *rest)

"""The deal: hands, upcard and stock, shuffled from a seed or given explicitly.

>>> from hoola.games.hoola.rules import Rules
>>> d = Deal.shuffled(Rules.preset("pagat"), 4, seed=1)
>>> len(d.hands), [len(h) for h in d.hands], len(d.stock)
(4, [7, 7, 7, 7], 23)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from hoola.core.cards import JOKER, format_card
from hoola.core.chance import shuffle
from hoola.core.errors import IllegalActionError, RulesError
from hoola.games.hoola.inputs import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    check_player_count,
    check_rng,
    check_seed,
    is_card,
)
from hoola.games.hoola.rules import Rules

__all__ = ["HAND_SIZE", "Deal", "check_jokers", "complete_stock"]

HAND_SIZE: Final = 7


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

    def __post_init__(self) -> None:
        """Refuse what is not a deal: non-cards, a card dealt twice, 2 to 7 hands (``bad-deal``).

        Hand sizes are the state's to check: a guessed deal of a game in progress (see
        :mod:`hoola.games.hoola.determinize`) holds hands of any size.
        """
        hands = _cards_lists(self.hands, "the hands")
        if not MIN_PLAYERS <= len(hands) <= MAX_PLAYERS:
            raise IllegalActionError(f"a deal has {MIN_PLAYERS} to {MAX_PLAYERS} hands, not "
                                     f"{len(hands)}", "bad-deal")
        stock = _cards(self.stock, "the stock")
        if not is_card(self.upcard):
            raise IllegalActionError(f"the upcard {self.upcard!r} is not a card", "bad-card")
        if self.redeal not in ("shuffle", "listed"):
            raise IllegalActionError(f"redeal {self.redeal!r} is not shuffle or listed",
                                     "bad-deal")
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "stock", stock)
        every = [c for h in hands for c in h] + [self.upcard]
        if self.redeal == "listed" and len(hands) >= 6:
            # The listed stock is the stock after the drops: it may hold dropped cards.
            listed = [c for c in stock if c != JOKER]
            if len(set(listed)) != len(listed):
                raise IllegalActionError("a card is listed twice in the stock", "bad-deal")
            if self.upcard != JOKER and self.upcard in listed:
                raise IllegalActionError(f"the upcard {format_card(self.upcard)} is also in the "
                                         "stock", "bad-deal")
        else:
            every += stock
        naturals = [c for c in every if c != JOKER]
        if len(set(naturals)) != len(naturals):
            twice = sorted({c for c in naturals if naturals.count(c) > 1})
            raise IllegalActionError(f"card {format_card(twice[0])} is dealt twice", "bad-deal")

    @classmethod
    def shuffled(cls, rules: Rules, players: int, *, seed: int | None = None,
                 rng: random.Random | None = None) -> Deal:
        """A random deal from ``seed`` (or ``rng``): seven cards each, an upcard, the stock."""
        _check_rules(rules)
        players = check_player_count(players)
        rng = check_rng(rng) or random.Random(check_seed(seed))
        deck = list(range(52)) + [JOKER] * rules.jokers
        shuffle(rng, deck)
        hands = tuple(tuple(sorted(deck[i:HAND_SIZE * players:players])) for i in range(players))
        upcard = deck[HAND_SIZE * players]
        # The engine's own shuffle of the whole pack needs none of the checks a given deal does.
        deal = object.__new__(cls)
        for name, value in (("hands", hands), ("upcard", upcard),
                            ("stock", tuple(deck[HAND_SIZE * players + 1:])),
                            ("redeal", "shuffle")):
            object.__setattr__(deal, name, value)
        return deal

    @classmethod
    def explicit(cls, rules: Rules, hands: Sequence[Sequence[int]], upcard: int,
                 stock: Sequence[int] = ()) -> Deal:
        """A deal as a record gives it; the stock is completed in canonical order (see records.md).

        Raises :class:`IllegalActionError` (code ``bad-deal``) when cards repeat or hands are short.
        """
        _check_rules(rules)
        listed = cls(_cards_lists(hands, "the hands"), upcard, _cards(stock, "the stock"),
                     "listed")  # checks the cards themselves
        hands_t = listed.hands
        for i, h in enumerate(hands_t):
            if len(h) != HAND_SIZE:
                raise IllegalActionError(f"hand {i + 1} has {len(h)} cards, not {HAND_SIZE}",
                                         "bad-deal")
        check_jokers(rules, listed)
        if len(hands_t) >= 6:
            return listed
        full = complete_stock(rules, [c for h in hands_t for c in h] + [upcard], listed.stock)
        return cls(hands_t, upcard, full, "listed")


def check_jokers(rules: Rules, deal: Deal) -> None:
    """Refuse a deal holding more jokers than ``rules`` put in the pack."""
    dealt = [c for h in deal.hands for c in h] + [deal.upcard]
    if len(deal.hands) < 6 or deal.redeal == "shuffle":
        dealt += deal.stock
    jokers = dealt.count(JOKER)
    if jokers > rules.jokers:
        raise IllegalActionError(f"the deal holds {jokers} jokers but the rules use "
                                 f"{rules.jokers}", "bad-deal")


def _check_rules(rules: object) -> None:
    if not isinstance(rules, Rules):
        raise RulesError(f"the rules must be a Rules value, not {rules!r}", "bad-rules")


def _cards(value: object, what: str) -> tuple[int, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise IllegalActionError(f"{what} must be a list of cards, not {value!r}", "bad-card")
    for c in value:
        if not is_card(c):
            raise IllegalActionError(f"{c!r} in {what} is not a card", "bad-card")
    return tuple(value)


def _cards_lists(value: object, what: str) -> tuple[tuple[int, ...], ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise IllegalActionError(f"{what} must be a list of card lists, not {value!r}",
                                 "bad-card")
    return tuple(_cards(h, what) for h in value)


def complete_stock(rules: Rules, elsewhere: Sequence[int],
                   listed: Sequence[int]) -> tuple[int, ...]:
    """``listed`` followed by every card not ``elsewhere`` nor listed, in canonical order."""
    used = set(c for c in elsewhere if c != JOKER) | set(c for c in listed if c != JOKER)
    jokers_left = rules.jokers - sum(1 for c in (*elsewhere, *listed) if c == JOKER)
    rest = [c for c in range(52) if c not in used] + [JOKER] * max(jokers_left, 0)
    return (*listed, *rest)

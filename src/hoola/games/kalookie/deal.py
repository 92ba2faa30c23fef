"""The cards of one hand: dealt from a seeded shuffle or given explicitly (a record's deal).

A :class:`Deal` holds every seat's hand (empty for a player out of the game), the upcard, the
stock (top first), whether Scarne's cut joker went to the cutter, and the new stock a record gives
for a reshuffle. :class:`Standing` is what the game has reached before the hand: penalty totals,
buy-ins used and who is still in.

>>> from hoola.games.kalookie.rules import Rules
>>> d = shuffled(Rules.preset("british"), Standing.fresh(2), 0, random.Random(1))
>>> [len(h) for h in d.hands], len(d.stock)
([13, 13], 79)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from hoola.core.cards import format_card, pack
from hoola.core.chance import shuffle
from hoola.core.errors import IllegalActionError
from hoola.games.kalookie.cards import JOKER, cards_of_counts, counts_of
from hoola.games.kalookie.rules import Rules

__all__ = ["Deal", "Standing", "cutter", "explicit", "fill", "shuffled"]


class Standing(NamedTuple):
    """The game before a hand: penalty totals, buy-ins used, who is still in, points scored."""

    penalty: tuple[int, ...]
    buy_ins: tuple[int, ...]
    active: tuple[bool, ...]
    scored: tuple[int, ...] = ()

    @classmethod
    def fresh(cls, players: int) -> Standing:
        """The standing at the start of a game of ``players``."""
        return cls((0,) * players, (0,) * players, (True,) * players, (0,) * players)

    def seats(self) -> list[int]:
        """The seats still in the game."""
        return [q for q, a in enumerate(self.active) if a]


class Deal(NamedTuple):
    """The cards of a hand as dealt (``stock`` and ``restock`` top first)."""

    hands: tuple[tuple[int, ...], ...]
    upcard: int
    stock: tuple[int, ...]
    cut: bool = False
    restock: tuple[int, ...] | None = None


def _bad(message: str) -> IllegalActionError:
    return IllegalActionError(message, "bad-deal")


def cutter(standing: Standing, dealer: int) -> int:
    """The player who cuts: the one on the dealer's right (the seat before, still in)."""
    n = len(standing.active)
    seat = (dealer - 1) % n
    while not standing.active[seat]:
        seat = (seat - 1) % n
    return seat


def shuffled(rules: Rules, standing: Standing, dealer: int, rng: random.Random) -> Deal:
    """A deal from a seeded shuffle: one card at a time from the seat after the dealer."""
    seats = standing.seats()
    rules.check_players(len(seats))
    size = rules.hand_size_for(len(seats))
    cards = pack(rules.decks, rules.jokers)
    shuffle(rng, cards)
    hands: list[list[int]] = [[] for _ in standing.active]
    cut = False
    if rules.cut_joker:
        # The bottom card of the cut is shown; a joker goes to the cutter (Scarne).
        index = rng.randrange(len(cards))
        if cards[index] == JOKER:
            cut = True
            hands[cutter(standing, dealer)].append(cards.pop(index))
    order = sorted(seats, key=lambda q: (q - dealer - 1) % len(standing.active))
    for q in order:
        while len(hands[q]) < size:
            hands[q].append(cards.pop())
    upcard = cards.pop()
    return Deal(tuple(tuple(sorted(h)) for h in hands), upcard, tuple(reversed(cards)), cut)


def fill(rules: Rules, used: Sequence[int], listed: Sequence[int]) -> tuple[int, ...]:
    """``listed`` then every card of the pack not in ``used`` nor ``listed``, in canonical order.

    Raises when the cards hold a card more often than the pack does.
    """
    left = counts_of(pack(rules.decks, rules.jokers))
    for c in (*used, *listed):
        if left[c] == 0:
            total = rules.jokers if c == JOKER else rules.decks
            raise _bad(f"the deal holds {format_card(c)} more than the {total} the pack has")
        left[c] -= 1
    return (*listed, *cards_of_counts(left))


def explicit(rules: Rules, standing: Standing, dealer: int, hands: Sequence[Sequence[int]],
             upcard: int, stock: Sequence[int], *, cut: bool = False,
             restock: Sequence[int] | None = None) -> Deal:
    """A deal given card by card; the stock is completed in canonical order (records.md).

    ``hands`` has one entry a seat (empty for players out). With ``cut``, the cutter's hand may
    list the joker (the full hand) or leave it out (then it is added).
    """
    seats = standing.seats()
    rules.check_players(len(seats))
    size = rules.hand_size_for(len(seats))
    if cut and not rules.cut_joker:
        raise _bad("a joker shown in the cut goes to the cutter only with cut_joker (Scarne)")
    if len(hands) != len(standing.active):
        raise _bad(f"the deal has {len(hands)} hands for {len(standing.active)} seats")
    full: list[tuple[int, ...]] = []
    cutting = cutter(standing, dealer) if cut else -1
    for q, hand in enumerate(hands):
        cards = tuple(sorted(hand))
        if not standing.active[q]:
            if cards:
                raise _bad(f"seat {q + 1} is out of the game and is dealt no hand")
            full.append(())
            continue
        if q == cutting and len(cards) == size - 1:
            cards = tuple(sorted((*cards, JOKER)))
        if len(cards) != size:
            raise _bad(f"a hand of {len(cards)} cards where {size} are dealt")
        if q == cutting and JOKER not in cards:
            raise _bad("the cut joker is not in the cutter's hand")
        full.append(cards)
    used = [c for h in full for c in h] + [upcard]
    whole = fill(rules, used, stock)
    if restock is not None and len(restock) > len(whole):
        raise _bad("the restock lists more cards than the stock and pile could hold")
    return Deal(tuple(full), upcard, whole, cut, tuple(restock) if restock is not None else None)

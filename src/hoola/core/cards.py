"""Cards as small integers, hands as 52-bit masks, and the card notation of every game.

A natural card is ``suit * 13 + rank`` with ranks ``A 2 .. K`` as 0..12 and suits ``s h d c`` as
0..3, so integer order is the canonical order of the records. Jokers are all the same card,
:data:`JOKER` (52): hands keep their natural cards in a mask and count their jokers apart.

>>> parse_card("10h"), format_card(parse_card("♠q"))
(22, 'Qs')
>>> format_cards(parse_cards("2c JK As"))
'2c JK As'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Final, Generic, TypeVar

from hoola.core.errors import NotationError

__all__ = [
    "DECK",
    "JOKER",
    "PIQUET_RANKS",
    "RANKS",
    "SUITS",
    "BySuit",
    "as_card_tuple",
    "bits",
    "card_mask",
    "cards_of",
    "format_card",
    "format_cards",
    "is_joker",
    "make_card",
    "pack",
    "parse_card",
    "parse_cards",
    "rank_of",
    "sort_cards",
    "suit_of",
]

T = TypeVar("T")

RANKS: Final = "A23456789TJQK"
SUITS: Final = "shdc"
JOKER: Final = 52
DECK: Final[tuple[int, ...]] = tuple(range(52))
SEVEN: Final = 6  # rank index of the seven
# A 7 8 9 T J Q K: the 32-card pack
PIQUET_RANKS: Final[tuple[int, ...]] = (0, 6, 7, 8, 9, 10, 11, 12)

_SUIT_ALIASES: Final = {"s": 0, "h": 1, "d": 2, "c": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3,
                 "♤": 0, "♡": 1, "♢": 2, "♧": 3}
_RANK_ALIASES: Final = {r.lower(): i for i, r in enumerate(RANKS)} | {"10": 9, "1": 0}
_NAMES: Final = (*(r + s for s in SUITS for r in RANKS), "JK")


def make_card(rank: int, suit: int) -> int:
    """The card of rank index ``rank`` (0 = ace .. 12 = king) in suit index ``suit``."""
    return suit * 13 + rank


def rank_of(card: int) -> int:
    """Rank index of a natural card: 0 for an ace up to 12 for a king."""
    return card % 13


def suit_of(card: int) -> int:
    """Suit index of a natural card: 0 spades, 1 hearts, 2 diamonds, 3 clubs."""
    return card // 13


def is_joker(card: int) -> bool:
    """Whether ``card`` is a joker."""
    return card == JOKER


def parse_card(text: str) -> int:
    """Read one card such as ``7s``, ``10h``, ``Td``, ``♣K`` or ``JK`` (case-insensitive)."""
    t = text.strip().lower()
    if t in ("jk", "joker", "*"):
        return JOKER
    if len(t) >= 2:
        for rank_text, suit_text in ((t[:-1], t[-1]), (t[1:], t[0])):
            if rank_text in _RANK_ALIASES and suit_text in _SUIT_ALIASES:
                return make_card(_RANK_ALIASES[rank_text], _SUIT_ALIASES[suit_text])
    raise NotationError(f"cannot read card {text.strip()!r}: write a rank A23456789TJQK and a suit "
                        "shdc, such as 7s or Th, or JK for a joker", "bad-card")


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Read a list of cards separated by spaces (or an iterable of card strings)."""
    words = text.split() if isinstance(text, str) else list(text)
    return [parse_card(w) for w in words]


def format_card(card: int) -> str:
    """The canonical name of a card: rank then suit, ``JK`` for a joker."""
    if not 0 <= card <= JOKER:
        raise NotationError(f"{card!r} is not a card number (0-52)", "bad-card")
    return _NAMES[card]


def format_cards(cards: Iterable[int]) -> str:
    """Canonical names separated by single spaces."""
    return " ".join(format_card(c) for c in cards)


def card_mask(cards: Iterable[int]) -> int:
    """The 52-bit mask of the natural cards among ``cards`` (jokers are not in masks)."""
    m = 0
    for c in cards:
        if c != JOKER:
            m |= 1 << c
    return m


class BySuit(Generic[T]):
    """What a mask's cards make, suit by suit: ``make(suit, pattern)`` for one suit's 13-bit
    pattern, worked out the first time and looked up by index after (hands repeat patterns)."""

    __slots__ = ("make", "slots")

    def __init__(self, make: Callable[[int, int], tuple[T, ...]]) -> None:
        self.make = make
        self.slots: list[tuple[T, ...] | None] = [None] * (4 << 13)

    def add(self, mask: int, out: list[T]) -> None:
        """Append what each suit of ``mask`` makes to ``out``, suit by suit."""
        slots = self.slots
        # Unrolled: the slot of suit s is s << 13 | its pattern (the pattern's place in the mask).
        for slot in (mask & 0x1FFF, 0x2000 | ((mask >> 13) & 0x1FFF),
                     0x4000 | ((mask >> 26) & 0x1FFF), 0x6000 | (mask >> 39)):
            if slot & 0x1FFF:
                got = slots[slot]
                if got is None:
                    got = slots[slot] = self.make(slot >> 13, slot & 0x1FFF)
                out.extend(got)


def _suit_cards(suit: int, pattern: int) -> tuple[int, ...]:
    return tuple(suit * 13 + r for r in range(13) if (pattern >> r) & 1)


_CARDS: Final[BySuit[int]] = BySuit(_suit_cards)


def cards_of(mask: int) -> list[int]:
    """The cards of a mask in canonical order, as a list (table lookups per suit: the hot path)."""
    out: list[int] = []
    _CARDS.add(mask, out)
    return out


def bits(mask: int) -> Iterator[int]:
    """The cards of a mask in canonical order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def sort_cards(cards: Sequence[int]) -> list[int]:
    """Cards in canonical order, jokers last."""
    return sorted(cards)


def pack(decks: int = 1, jokers: int = 0, ranks: Iterable[int] = range(13)) -> list[int]:
    """Every card of ``decks`` packs holding ``ranks`` (52 or 32 cards), then ``jokers``.

    The list is in canonical order, copies of a card side by side (records.md).

    >>> len(pack(2, 2)), len(pack(ranks=PIQUET_RANKS)), format_cards(pack(2, 1)[:3])
    (106, 32, 'As As 2s')
    """
    kept = sorted(set(ranks))
    return [make_card(r, s) for s in range(4) for r in kept for _ in range(decks)] \
        + [JOKER] * jokers


def as_card_tuple(cards: Any) -> Any:
    """``cards`` as the tuple an action holds when it is a list or tuple of some kind; anything
    else as it is, for the engine's check to refuse with its own error (a string is a sequence,
    not a list of cards)."""
    if isinstance(cards, Sequence) and not isinstance(cards, str | bytes):
        return tuple(cards)
    return cards

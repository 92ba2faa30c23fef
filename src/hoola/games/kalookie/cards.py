"""Kalookie's cards: packs of two or three decks with jokers, hands as multisets, point values.

Cards are the core's small integers (:mod:`hoola.core.cards`): ``0..51`` natural cards and
``JOKER`` (52). On the table a joker in a run stands for a named card; such a joker is the *token*
``NAMED + card`` and is written ``JK=4s``. A hand is a list of 53 counts (index 52: jokers), since
identical cards of the packs are interchangeable.

>>> format_tokens(parse_tokens("9s JK=Ts jk"))
'9s JK=Ts JK'
>>> counts = counts_of(parse_tokens("As As JK"))
>>> counts[0], counts[JOKER], format_tokens(cards_of_counts(counts))
(2, 1, 'As As JK')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from hoola.core.cards import JOKER, format_card, parse_card
from hoola.core.errors import NotationError

__all__ = [
    "JOKER",
    "NAMED",
    "cards_of_counts",
    "counts_of",
    "face_of",
    "format_token",
    "format_tokens",
    "hand_code",
    "is_joker_token",
    "named_joker",
    "parse_token",
    "parse_tokens",
]

NAMED: Final = 64  # a joker standing for card c is the token NAMED + c


def named_joker(face: int) -> int:
    """The token of a joker standing for the natural card ``face`` (written ``JK=<face>``)."""
    return NAMED + face


def is_joker_token(token: int) -> bool:
    """Whether a token is a joker, named or not."""
    return token == JOKER or token >= NAMED


def hand_code(counts: Sequence[int]) -> int:
    """A hand's natural cards (52 counts, jokers apart) as one number, a byte a card, card 0
    lowest: the summary the meld finder and the turn search remember hands by."""
    # (Masked rather than sliced: a hand's 53 counts are turned into bytes as they are.)
    return int.from_bytes(bytes(counts), "little") & _NATURALS


_NATURALS: Final = (1 << (8 * 52)) - 1  # the bytes of the 52 natural cards


def face_of(token: int) -> int | None:
    """The natural card a token stands for: itself, a named joker's card, None for ``JK``."""
    if token < JOKER:
        return token
    if token >= NAMED:
        return token - NAMED
    return None


def format_token(token: int) -> str:
    """A card or table token in notation: ``7h``, ``JK``, ``JK=7h``."""
    if token >= NAMED:
        return f"JK={format_card(token - NAMED)}"
    return format_card(token)


def format_tokens(tokens: Iterable[int]) -> str:
    """Tokens in notation, separated by single spaces."""
    return " ".join(format_token(t) for t in tokens)


def parse_token(text: str) -> int:
    """Read a card or a named joker such as ``JK=Ts`` (case-insensitive)."""
    head, eq, face = text.strip().partition("=")
    if not eq:
        return parse_card(head)
    if parse_card(head) != JOKER:
        raise NotationError(f"cannot read {text.strip()!r}: only a joker may be written with '=' "
                            "(JK=7h)", "bad-card")
    card = parse_card(face)
    if card == JOKER:
        raise NotationError(f"cannot read {text.strip()!r}: a joker stands for a natural card",
                            "bad-card")
    return named_joker(card)


def parse_tokens(text: str | Iterable[str]) -> list[int]:
    """Read tokens separated by spaces (or an iterable of token strings)."""
    words = text.split() if isinstance(text, str) else list(text)
    return [parse_token(w) for w in words]


def counts_of(cards: Iterable[int]) -> list[int]:
    """The multiset of ``cards`` as 53 counts (named jokers count as jokers)."""
    counts = [0] * (JOKER + 1)
    for c in cards:
        counts[JOKER if c >= JOKER else c] += 1
    return counts


def cards_of_counts(counts: Sequence[int]) -> list[int]:
    """The cards of a multiset in canonical order, copies side by side, jokers last."""
    return [c for c in range(JOKER + 1) for _ in range(counts[c])]

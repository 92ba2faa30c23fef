"""A meld on the table, as a value: its kind, its cards and what each stands for, and with
Glenn's building (ruling 21) the branches started on its top card. What melds may be laid and
how one grows is :mod:`hoola.games.hoola.melds`'s (and :mod:`hoola.games.hoola.glenn`'s)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from hoola.core.cards import JOKER, format_card

__all__ = ["AddOption", "Branch", "Meld", "MeldKind", "face_name"]

AddOption = tuple[int, int, int | None]


class MeldKind(IntEnum):
    """The three kinds of meld on the table."""

    SET = 0
    RUN = 1
    SEVEN = 2


@dataclass(frozen=True, slots=True)
class Branch:
    """Glenn's building (ruling 21): a branch started on a meld's top card.

    ``at`` is the index in the meld's ``cards`` of its first card, the top card it was started on;
    a run branch has a ``suit`` and grows in its ``direction`` (+1: up), a set branch a ``rank``.
    """

    at: int
    kind: MeldKind
    rank: int = -1
    suit: int = -1
    direction: int = 0


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld on the table.

    ``cards`` are the cards as laid (a run low to high, jokers as ``JOKER``); ``faces`` what each
    stands for (a joker's named card, or -1 for an unnamed joker in a set). With Glenn's building
    (:mod:`hoola.games.hoola.glenn`) ``cards`` are the stack in the order the cards were placed,
    the last its top card, the fields before ``branches`` describe the meld laid down (its base),
    ``direction`` is a run's (+1 grows upward only, -1 downward only), and ``branches`` are those
    started on its top card, the last one open.
    """

    id: int
    owner: int
    kind: MeldKind
    cards: tuple[int, ...]
    faces: tuple[int, ...]
    rank: int = -1
    suit: int = -1
    start: int = 0
    direction: int = 0
    branches: tuple[Branch, ...] = ()

    @property
    def has_joker(self) -> bool:
        """Whether a joker is in this meld."""
        return JOKER in self.cards

    def naturals(self) -> tuple[int, ...]:
        """The natural cards of the meld."""
        return tuple(c for c in self.cards if c != JOKER)

    def __str__(self) -> str:
        return " ".join(face_name(c, f) for c, f in zip(self.cards, self.faces, strict=True))


def face_name(card: int, face: int | None) -> str:
    """A card as written in a meld: a joker as ``JK`` or ``JK=<the card it names>``."""
    if card != JOKER:
        return format_card(card)
    return "JK" if face is None or face < 0 else f"JK={format_card(face)}"

"""Cards drawn for the screen: white faces, red hearts and diamonds, jokers in purple.

A card appears either as a *chip* (``10♦`` inline, for melds and the log) or as a *face* three
lines high (the hand and the discard pile).

>>> card_label(22), card_label(52)
('10♥', 'JK')
>>> [f.plain for f in card_face(0)]
['A    ', '  ♠  ', '    A']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.style import Style
from rich.text import Text

from hoola.core.cards import JOKER
from hoola.games.hoola.melds import Meld

__all__ = [
    "FACE_WIDTH",
    "card_chip",
    "card_face",
    "card_label",
    "card_style",
    "chips",
    "empty_face",
    "face_size",
    "meld_chips",
    "sort_hand",
    "stock_face",
]

SUIT_SYMBOLS = "♠♥♦♣"
RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FACE_WIDTH = 5
PAPER = "#f4f1e8"
INK = {0: "#111111", 1: "#c8102e", 2: "#c8102e", 3: "#111111"}
JOKER_INK = "#7b2cbf"
SELECTED_PAPER = "#ffd75f"
BACK = Style(color="#d0d8ff", bgcolor="#28408c", bold=True)


def card_label(card: int, face: int | None = None) -> str:
    """``10♥`` for a natural card; ``JK`` for a joker, ``★7♥`` for one standing for a card."""
    if card == JOKER:
        return "JK" if face is None or face < 0 else "★" + card_label(face)
    return RANK_LABELS[card % 13] + SUIT_SYMBOLS[card // 13]


def card_style(card: int, *, selected: bool = False) -> Style:
    """Ink on paper: red for hearts and diamonds, black for spades and clubs."""
    ink = JOKER_INK if card == JOKER else INK[card // 13]
    return Style(color=ink, bgcolor=SELECTED_PAPER if selected else PAPER, bold=True)


def card_chip(card: int, face: int | None = None) -> Text:
    """A card inline: `` 10♥ `` on paper."""
    return Text(f" {card_label(card, face)} ", style=card_style(card))


def meld_chips(meld: Meld) -> Text:
    """A meld as one strip of paper: `` 3♣ 4♣ 5♣ ``."""
    text = Text(" ", style=Style(bgcolor=PAPER))
    for card, face in zip(meld.cards, meld.faces, strict=True):
        text.append(card_label(card, face if card == JOKER else None), style=card_style(card))
        text.append(" ", style=Style(bgcolor=PAPER))
    return text


def face_size(big: bool) -> tuple[int, int]:
    """Width and height of a card face: 5 by 3, or 7 by 5 on a large screen."""
    return (7, 5) if big else (FACE_WIDTH, 3)


def card_face(card: int, *, selected: bool = False, big: bool = False,
              stands_for: int | None = None) -> list[Text]:
    """A card face, one Text a line: rank in the corners, the suit in the middle.

    A joker in a meld shows the card it stands for (``stands_for``) in its middle.
    """
    style = card_style(card, selected=selected)
    width, _ = face_size(big)
    if card == JOKER and stands_for is not None and stands_for >= 0:
        middle = f"{card_label(stands_for):^{width}}"
        lines = [f"{'JK':<{width}}", *([" " * width] if big else []), middle,
                 *([" " * width] if big else []), f"{'JK':>{width}}"]
        return [Text(line, style=style) for line in lines]
    if card == JOKER:
        rank, suit = "JK", "★"
    else:
        rank, suit = RANK_LABELS[card % 13], SUIT_SYMBOLS[card // 13]
    if big:
        lines = [f"{rank:<{width}}", f"{suit:<{width}}", f"{suit:^{width}}", f"{suit:>{width}}",
                 f"{rank:>{width}}"]
    else:
        lines = [f"{rank:<{width}}", f"{suit:^{width}}", f"{rank:>{width}}"]
    return [Text(line, style=style) for line in lines]


def stock_face(count: int, *, big: bool = False) -> list[Text]:
    """The back of the stock with the number of cards left on it."""
    width, height = face_size(big)
    lines = [" " * width] * height
    lines[height // 2] = f"{count:^{width}}"
    return [Text(line, style=BACK) for line in lines]


def empty_face(*, big: bool = False) -> list[Text]:
    """An empty place on the table."""
    width, height = face_size(big)
    dim = Style(color="grey50")
    middle = ["│" + " " * (width - 2) + "│"] * (height - 2)
    lines = ["┌" + "─" * (width - 2) + "┐", *middle, "└" + "─" * (width - 2) + "┘"]
    return [Text(line, style=dim) for line in lines]


def sort_hand(hand: Sequence[int], by_rank: bool) -> list[int]:
    """Indices into ``hand`` in display order: by suit then rank, or by rank then suit.

    Jokers come last either way.

    >>> hand = (13, 1, 52, 0)   # Ah 2s JK As
    >>> sort_hand(hand, by_rank=False), sort_hand(hand, by_rank=True)
    ([3, 1, 0, 2], [3, 0, 1, 2])
    """
    def key(i: int) -> tuple[int, int, int]:
        c = hand[i]
        if c == JOKER:
            return (1, 0, i)
        return (0, c % 13 * 4 + c // 13, i) if by_rank else (0, c, i)
    return sorted(range(len(hand)), key=key)


def chips(cards: Iterable[int]) -> Text:
    """Several cards inline, a space between."""
    return Text(" ").join(card_chip(c) for c in cards)

"""Cards drawn for the screen: white faces, red hearts and diamonds, jokers in purple.

A card appears either as a *chip* (``10♦`` inline, for melds, moves and the log) or as a *face*
three lines high (the hand, on a terminal with room for it).

>>> card_label(22), card_label(52), card_label(52, 19)
('10♥', 'JK', '★7♥')
>>> [f.plain for f in card_face(0)]
['A    ', '  ♠  ', '    A']
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from hoola.core.cards import JOKER

__all__ = ["FACE_WIDTH", "PAPER", "card_face", "card_label", "card_style"]

SUIT_SYMBOLS = "♠♥♦♣"
RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FACE_WIDTH = 5
PAPER = "#f4f1e8"
INK = {0: "#111111", 1: "#c8102e", 2: "#c8102e", 3: "#111111"}
JOKER_INK = "#7b2cbf"
SELECTED_PAPER = "#ffd75f"


def card_label(card: int, face: int | None = None) -> str:
    """``10♥`` for a natural card; ``JK`` for a joker, ``★7♥`` for one standing for a card."""
    if card == JOKER:
        return "JK" if face is None or face < 0 else "★" + card_label(face)
    return RANK_LABELS[card % 13] + SUIT_SYMBOLS[card // 13]


def card_style(card: int, *, selected: bool = False) -> Style:
    """Ink on paper: red for hearts and diamonds, black for spades and clubs."""
    ink = JOKER_INK if card == JOKER else INK[card // 13]
    return Style(color=ink, bgcolor=SELECTED_PAPER if selected else PAPER, bold=True)


def card_face(card: int, *, selected: bool = False, stands_for: int | None = None) -> list[Text]:
    """A card face, one Text a line: rank in the corners, the suit in the middle.

    A joker standing for a card (``stands_for``) shows that card in its middle.
    """
    style = card_style(card, selected=selected)
    width = FACE_WIDTH
    if card == JOKER and stands_for is not None and stands_for >= 0:
        lines = [f"{'JK':<{width}}", f"{card_label(stands_for):^{width}}", f"{'JK':>{width}}"]
        return [Text(line, style=style) for line in lines]
    if card == JOKER:
        rank, suit = "JK", "★"
    else:
        rank, suit = RANK_LABELS[card % 13], SUIT_SYMBOLS[card // 13]
    lines = [f"{rank:<{width}}", f"{suit:^{width}}", f"{rank:>{width}}"]
    return [Text(line, style=style) for line in lines]

"""The table on the screen, drawn from a :class:`~hoola.core.table.Table` alone: the seats with
what they own and the match's score, the middle of the table (its piles clicked), the person's
hand with a key under each card, the moves, the keys.

Cards come as notation (``7h``, ``JK``, ``JK=7h``) and are drawn as chips or faces on paper.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from rich.console import RenderableType
from rich.style import Style
from rich.table import Table as Grid
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from hoola.core.cards import JOKER, parse_card
from hoola.core.errors import NotationError
from hoola.core.table import Score, Table, Zone
from hoola.terminal.cardface import PAPER, card_face, card_label, card_style
from hoola.terminal.tabletext import (
    SETTLEMENT,
    hand_of,
    middle_text,
    plural,
    score_label,
    seat_scores,
    zones_of,
)

__all__ = ["CARD_KEYS", "HandView", "SeatsView", "card_keys", "card_of", "chip", "chips",
           "middle_line", "pick_keys", "words"]

CARD_KEYS = "1234567890abcdefgijkmnoprtuvwxyz"
"""The keys that pick the cards of the hand, in the order shown (h, l, q and s are commands)."""


def card_keys(verbs: Iterable[str] = ()) -> str:
    """The keys that pick cards when ``verbs`` keys stand for a game's verbs.

    >>> card_keys("dtmax")[:14]
    '1234567890bcef'
    """
    taken = set(verbs)
    return "".join(k for k in CARD_KEYS if k not in taken)


def pick_keys(cards: int, keys: str = CARD_KEYS) -> str:
    """The keys that pick a hand of ``cards`` cards, as the key bar says them.

    >>> pick_keys(5), pick_keys(1), pick_keys(10), pick_keys(13), pick_keys(0)
    ('1-5', '1', '1-0', '1-0 a-c', '')
    >>> pick_keys(14, card_keys("dtmax"))
    '1-0 b-c e-f'
    """
    chosen = keys[:max(cards, 0)]
    digits, letters = chosen[:10], chosen[10:]
    parts = [digits if len(digits) <= 1 else f"{digits[0]}-{digits[-1]}"] if digits else []
    run = ""
    for key in letters:
        if run and ord(key) != ord(run[-1]) + 1:
            parts.append(run if len(run) == 1 else f"{run[0]}-{run[-1]}")
            run = ""
        run += key
    if run:
        parts.append(run if len(run) == 1 else f"{run[0]}-{run[-1]}")
    return " ".join(parts)


NOTATION = re.compile(r"(?:10|[2-9TJQKA])[shdc]|JK(?:=(?:10|[2-9TJQKA])[shdc])?")
"""A card as the records write it (``Ts``, ``JK=7h``), so that English words stay words."""


def card_of(word: str) -> tuple[int, int | None] | None:
    """A notation word as (card, the card a joker stands for), or None if it is not a card.

    >>> card_of("7h"), card_of("JK=7h"), card_of("as"), card_of("m2")
    ((19, None), (52, 19), None, None)
    """
    if not NOTATION.fullmatch(word):
        return None
    face, sep, stands = word.partition("=")
    try:
        card = parse_card(face)
        return (card, parse_card(stands) if sep and card == JOKER else None)
    except NotationError:
        return None


def chip(word: str, *, selected: bool = False, mark: bool = False, width: int = 0) -> Text:
    """A card in notation as a chip on paper (``7♥``, ``★7♥`` for a joker standing for it),
    centred in ``width`` columns; ``mark`` underlines a card new in the hand."""
    found = card_of(word)
    if found is None:
        return Text(word.center(width))
    card, face = found
    style = card_style(card, selected=selected)
    if mark:
        style += Style(underline=True)
    return Text(card_label(card, face).center(width), style=style)


def chips(cards: Sequence[str]) -> Text:
    """Cards as one strip of paper: `` 3♣ 4♣ 5♣ ``."""
    paper = Style(bgcolor=PAPER)
    text = Text(" ", style=paper)
    for card in cards:
        text.append_text(chip(card))
        text.append(" ", style=paper)
    return text


def words(label: str) -> Text:
    """A move's notation (or a prompt) with its cards drawn as chips.

    >>> words("take 9d with 9s 9h.").plain
    'take 9♦ with 9♠ 9♥.'
    """
    out = Text()
    for i, word in enumerate(label.split()):
        if i:
            out.append(" ")
        inner = word.lstrip("([")
        bare = inner.rstrip(",.;:)]")
        out.append(word[:len(word) - len(inner)])
        out.append_text(chip(bare) if card_of(bare) else Text(bare))
        out.append(inner[len(bare):])
    return out


def _zone_cards(zone: Zone) -> Text:
    if zone.cards is None:
        return Text(plural(zone.count or 0, "card"), style="dim")
    return chips(zone.cards) if zone.cards else Text("none", style="dim")


class SeatsView(Static):
    """A line a seat (who, cards in hand, a touch's note, score values), what they own under it."""

    def show(self, table: Table, me: int, notes: Sequence[str] = (),
             board: Sequence[Score] = ()) -> None:
        """Draw the seats of ``table`` for seat ``me``, with a note a seat and the match's score
        lines (``board``) that the hand's table does not already show."""
        grid = Grid.grid(padding=(0, 1), expand=True)
        grid.add_column(no_wrap=True)
        grid.add_column(ratio=1)
        moment = table.moment
        shown = {score_label(s.label) for s in table.scores}
        extra = Table(zones=(), moment=moment, names=table.names, teams=table.teams,
                      scores=tuple(s for s in board if score_label(s.label) not in shown))
        for seat, name in enumerate(table.names):
            turn = seat == moment.turn and moment.phase != "over"
            who = Text("▶ " if turn else "· " if seat in moment.actors else "  ",
                       style="bold yellow")
            who.append("You" if seat == me else name, style="bold" if turn or seat == me else "")
            hand = hand_of(table, seat)
            info = Text()
            if hand is not None:
                info.append(plural(hand.count or 0, "card"))
                if hand.note:
                    info.append(f" ({hand.note})", style="dim")
            if seat < len(notes) and notes[seat]:
                info.append(" · " if info else "")
                info.append(notes[seat], style="#87d7ff")
            for score in seat_scores(table, seat):
                info.append(" · " if info else "")
                info.append(score, style="cyan")
            for score in seat_scores(extra, seat):
                info.append(" · " if info else "")
                info.append(score, style="bold cyan")
            for zone in zones_of(table, seat, ("captured",)):
                info.append(f" · {zone.label} ")
                info.append_text(_zone_cards(zone))
            grid.add_row(who, info)
            owned = Text()
            if seat != me and hand is not None and hand.cards is not None:
                owned.append("shows ", style="dim")
                owned.append_text(chips(hand.cards))
            for zone in zones_of(table, seat, ("meld",)):
                if owned:
                    owned.append("  ")
                owned.append(f"{zone.note or zone.label} ", style="dim")
                owned.append_text(chips(zone.cards or ()))
            if owned:
                grid.add_row(Text(""), owned)
        loose = [z for z in table.zones if z.kind == "meld" and z.owner is None]
        if loose:
            grid.add_row(Text("  Table", style="bold"),
                         Text("  ").join(Text(f"{z.note or z.label} ", style="dim") +
                                         chips(z.cards or ()) for z in loose))
        self.update(grid)


def middle_line(table: Table, clicks: Iterable[str] = ()) -> Text:
    """The zones no seat owns: the discard pile's top card, the stock, the trick, the rest (the
    settlement is told apart). A pile whose kind is in ``clicks`` may be clicked: it asks the app
    for ``pile('<kind>')``."""
    text = Text()
    clickable = set(clicks)
    for zone in table.zones:
        if zone.kind == "meld" or (zone.kind in ("hand", "meld", "captured")
                                   and zone.owner is not None) or zone.id == SETTLEMENT:
            continue
        if text:
            text.append("   ")
        start = len(text)
        owner = f" ({table.names[zone.owner]})" if zone.owner is not None and \
            zone.owner < len(table.names) else ""
        if zone.kind == "discard":
            text.append(f"{zone.label}: ", style="bold")
            text.append_text(chips(zone.cards[-1:]) if zone.cards else Text("empty", "dim"))
            text.append(f" ({zone.count})", style="dim")
        elif zone.kind == "stock":
            text.append(f"{zone.label}: ", style="bold")
            text.append(plural(zone.count or 0, "card"))
        elif zone.cards is None and not zone.count:
            text.append(f"{zone.label}{owner}", style="bold")
        else:
            text.append(f"{zone.label}{owner}: ", style="bold")
            text.append_text(_zone_cards(zone))
            if zone.note:
                text.append(f" ({zone.note})", style="dim")
        if zone.kind in clickable:
            text.stylize(Style(meta={"@click": f"app.pile({zone.kind!r})"}), start, len(text))
    return text if text else Text(middle_text(table))


class HandView(Widget):
    """The person's hand in display order, a key under each card; click a card to pick it.

    ``groups`` are drawn apart (a game's touch groups runs and sets); picked cards are lifted on
    yellow paper, cards new since the person last chose are underlined; the key under a card a
    move would use is coloured as the touch marks that move's verb (green: it melds).
    """

    class Picked(Message):
        """A card was clicked: ``index`` is its place in the display order."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self) -> None:
        super().__init__()
        self.groups: list[list[str]] = []
        self.picked: set[int] = set()
        self.new: Counter[str] = Counter()
        self.label = "Your hand"
        self.note = ""
        self.faces = False
        self.keys = CARD_KEYS
        self.marks: Mapping[str, str] = {}
        self.sorted = ""
        self.spans: list[tuple[int, int]] = []  # each card's columns, for clicks

    @property
    def order(self) -> list[str]:
        """The cards in display order."""
        return [c for group in self.groups for c in group]

    def show(self, label: str, groups: list[list[str]], picked: set[int], new: Counter[str],
             note: str = "", faces: bool = False, keys: str = CARD_KEYS,
             marks: Mapping[str, str] | None = None, order: str = "") -> None:
        """Draw ``groups`` of cards with ``picked`` places lifted and ``new`` cards marked, the
        ``keys`` that pick them under them, coloured by ``marks`` (a colour a card); ``order``
        says how they are sorted."""
        self.label, self.groups, self.picked = label, groups, picked
        self.new, self.note, self.faces = new, note, faces
        self.keys, self.marks, self.sorted = keys, marks or {}, order
        self.refresh(layout=True)

    def render(self) -> RenderableType:
        """The head line, the cards (as faces when there is room), and their keys."""
        order = self.order
        head = Text(f" {self.label} ({len(order)})", style="bold")
        if self.sorted:
            head.append(f" {self.sorted}", style="dim")
        if self.note:
            head.append(f" · {self.note}", style="italic #87d7ff")
        rows = [Text(), Text(), Text()] if self.faces else [Text()]
        keys = Text()
        self.spans = []
        new = Counter(self.new)
        place = 0
        column = 1
        for g, group in enumerate(self.groups):
            for card in group:
                mark = new[card] > 0
                if mark:
                    new[card] -= 1
                selected = place in self.picked
                width = self._draw(rows, card, selected, mark)
                key = self.keys[place] if place < len(self.keys) else " "
                colour = self.marks.get(card.split("=", 1)[0])
                keys.append(" ")
                keys.append(f"{key:^{width}}"[:width],
                            style="bold reverse" if selected else
                            Style(color="#000000", bgcolor=colour, bold=True) if colour else "dim")
                self.spans.append((column, column + width))
                column += width + 1
                place += 1
            if g < len(self.groups) - 1:
                for row in rows:
                    row.append(" ")
                keys.append(" ")
                column += 1
        return Text("\n").join([head, *rows, keys])

    def _draw(self, rows: list[Text], card: str, selected: bool, mark: bool) -> int:
        found = card_of(card)
        if self.faces and found is not None:
            lines = card_face(found[0], selected=selected, stands_for=found[1])
            if mark:
                lines[-1].stylize("underline")
        else:
            width = max(3, len(card_label(*found)) if found is not None else len(card))
            lines = [Text(" " * width)] * (len(rows) // 2) + \
                [chip(card, selected=selected, mark=mark, width=width)] + \
                [Text(" " * width)] * (len(rows) - len(rows) // 2 - 1)
        for row, line in zip(rows, lines, strict=True):
            row.append(" ")
            row.append_text(line)
        return lines[0].cell_len

    def on_click(self, event: events.Click) -> None:
        """A click on a card picks it (or puts it back)."""
        if event.y < 1:
            return
        for index, (start, end) in enumerate(self.spans):
            if start <= event.x < end:
                self.post_message(self.Picked(index))
                return

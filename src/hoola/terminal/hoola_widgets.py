"""The table on the screen: the seats with their melds, the piles, the hand, the keys.

Each widget draws from the person's :class:`~hoola.games.hoola.views.View` and nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from hoola.core.cards import JOKER
from hoola.games.hoola.actions import Action, Add, Discard, Draw, Knock, NewMeld, Take
from hoola.games.hoola.melds import Meld
from hoola.games.hoola.text import stakes
from hoola.games.hoola.views import View
from hoola.terminal.cardface import (
    card_face,
    empty_face,
    face_size,
    meld_chips,
    sort_hand,
    stock_face,
)
from hoola.terminal.hoola_moves import HandStatus, hand_status

__all__ = ["HandPanel", "KeyBar", "PilePanel", "ScoreBar", "SeatsPanel", "pick_keys", "short_name"]

class ScoreBar(Static):
    """The top line: rules, deal number, stake and the running score of every player.

    On a narrow screen it says less (``deal 1/3``) and shortens names (``Gree3``), so that no
    player drops off the end.
    """

    def show(self, preset: str, deal: int, deals: int, stake: Fraction,
             names: Sequence[str], totals: dict[int, Fraction], person: int) -> None:
        """Update the line."""
        room = self.size.width or 10**6
        scores = [stakes(totals.get(q, Fraction(0))) for q in range(len(names))]
        stake_text = f" · stake {stakes(stake).lstrip('+')}" if stake != 1 else ""
        heads = (f" {preset} · deal {deal} of {deals}{stake_text}",
                 f" deal {deal}/{deals}{stake_text}", f" {deal}/{deals}")
        longest = max(len(n) for n in names)
        # Whole names before the rules' name; then names shortened, but not below 5 letters
        # until the deal number is all that is left of the head.
        tries = [(head, longest) for head in heads] + \
            [(heads[1], w) for w in range(longest - 1, 4, -1)] + \
            [(heads[2], w) for w in range(longest - 1, 2, -1)]
        text = Text()
        for head, width in tries:
            for gap in ("  ", " "):
                text = self._line(head, names, scores, person, width, gap)
                if text.cell_len <= room:
                    self.update(text)
                    return
        self.update(text)

    @staticmethod
    def _line(head: str, names: Sequence[str], scores: Sequence[str], person: int, width: int,
              gap: str) -> Text:
        text = Text.assemble(Text(" HOOLA ", style="bold #ffffff on #b5172f"), head, " │")
        for q, (name, score) in enumerate(zip(names, scores, strict=True)):
            text.append(gap)
            text.append(f"{short_name(name, width)} {score}", style="bold" if q == person else "")
        return text


def short_name(name: str, width: int) -> str:
    """``name`` in at most ``width`` characters, keeping a number at its end (``Gree3``).

    >>> short_name("Greedy3", 5), short_name("You", 5), short_name("Expert12", 4)
    ('Gree3', 'You', 'Ex12')
    """
    if len(name) <= width:
        return name
    digits = len(name) - len(name.rstrip("0123456789"))
    keep = max(1, width - digits)
    return name[:keep] + name[len(name) - digits:] if digits else name[:width]


class SeatsPanel(Static):
    """One row a seat: who, how many cards, melded or not, and the melds they own.

    On a large screen the melds are drawn as cards, when they fit the width.
    """

    INFO_WIDTH = 24

    def show(self, view: View, big: bool = False) -> None:
        """Draw the seats for ``view``."""
        grid = Table.grid(padding=(0, 1), expand=True)
        grid.add_column(no_wrap=True, width=self.INFO_WIDTH if big else None)
        grid.add_column(ratio=1)
        room = self.size.width - self.INFO_WIDTH - 4
        for q, name in enumerate(view.names):
            turn = q == view.current and view.phase != "over"
            who = Text()
            who.append("▶ " if turn else "  ", style="bold yellow")
            who.append(f"{'You' if q == view.player else name:<9.9}",
                       style="bold" if q == view.player or turn else "")
            who.append("D" if q == view.dealer else " ", style="dim")
            if not view.in_deal[q]:
                status = Text("out of this deal", style="dim")
            else:
                n = view.hand_sizes[q]
                status = Text(f"{n} card{'s' if n != 1 else ' '} ")
                status.append("melded " if view.melded[q] else "no meld", style="green"
                              if view.melded[q] else "dim")
            mine = [m for m in view.melds if m.owner == q]
            faces = _meld_faces(mine) if big and mine else None
            if big:
                fits = faces is not None and faces[0].cell_len <= room
                melds = Text("\n").join(faces) if faces is not None and fits else \
                    Text("  ").join(meld_chips(m) for m in mine)
                grid.add_row(Text.assemble(who, "\n   ", status, "\n" if fits else ""), melds)
            else:
                melds = Text("  ").join(meld_chips(m) for m in mine)
                grid.add_row(Text.assemble(who, " ", status), melds)
        self.update(grid)


def _meld_faces(melds: Sequence[Meld]) -> list[Text]:
    """The melds as three lines of small card faces, a wider gap between melds."""
    lines = [Text(), Text(), Text()]
    for k, meld in enumerate(melds):
        for card, face in zip(meld.cards, meld.faces, strict=True):
            drawn = card_face(card, stands_for=face if card == JOKER else None)
            for line, part in zip(lines, drawn, strict=True):
                line.append_text(part)
                line.append(" ")
        if k < len(melds) - 1:
            for line in lines:
                line.append("  ")
    return lines


class PilePanel(Widget):
    """The discard pile and the stock; click the stock to draw, the discard to take or discard."""

    class Clicked(Message):
        """A pile was clicked: ``pile`` is ``"stock"`` or ``"discard"``."""

        def __init__(self, pile: str) -> None:
            super().__init__()
            self.pile = pile

    GAP = 4  # columns between the two piles

    def __init__(self) -> None:
        super().__init__()
        self.view: View | None = None
        self.big = False

    def show(self, view: View, big: bool = False) -> None:
        """Draw the piles for ``view`` (larger cards when ``big``)."""
        self.view = view
        self.big = big
        self.refresh()

    def render(self) -> RenderableType:
        """``Discard`` and ``Stock`` labels over their cards."""
        view, big = self.view, self.big
        width, height = face_size(big)
        top = empty_face(big=big) if view is None or not view.discards else \
            card_face(view.discards[-1], big=big)
        stock = empty_face(big=big) if view is None or not view.stock_size else \
            stock_face(view.stock_size, big=big)
        labels = f"{'Discard':<{width + 1 + self.GAP}}Stock"
        text = Text()
        text.append(f" {labels}\n", style="dim")
        for i in range(height):
            text.append("  ")
            text.append_text(top[i])
            text.append(" " * self.GAP)
            text.append_text(stock[i])
            if i < height - 1:
                text.append("\n")
        return text

    def on_click(self, event: events.Click) -> None:
        """The stock draws; the discard is taken, or gets the picked card."""
        width, _ = face_size(self.big)
        stock_at = 2 + width + self.GAP
        if event.y >= 1:
            if 2 <= event.x < 2 + width:
                self.post_message(self.Clicked("discard"))
            elif stock_at <= event.x < stock_at + width:
                self.post_message(self.Clicked("stock"))


class HandPanel(Widget):
    """The person's hand as cards, numbered for the keys; picked cards stand up.

    Under each card a bar shows what it could do: green, part of a meld in hand; blue, it could
    be added to a meld on the table; yellow, it melds with the discard.
    """

    class Picked(Message):
        """A card was clicked: ``index`` is its place on the screen, from 0."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self) -> None:
        super().__init__()
        self.view: View | None = None
        self.status: HandStatus | None = None
        self.order: list[int] = []
        self.picked: set[int] = set()
        self.by_rank = False
        self.big = False

    def show(self, view: View, picked: set[int], by_rank: bool, big: bool | None = None) -> None:
        """Draw ``view``'s hand with ``picked`` (indices into ``view.hand``) standing up."""
        self.view = view
        self.status = hand_status(view)
        self.by_rank = by_rank
        self.order = sort_hand(view.hand, by_rank)
        self.picked = picked
        if big is not None:
            self.big = big
        self.refresh()

    def render(self) -> RenderableType:
        """The title line, the numbers, the cards and the bars under them."""
        view, status = self.view, self.status
        if view is None or status is None:
            return Text("")
        width, height = face_size(self.big)
        if not view.in_deal[view.player]:
            return Text(" You sit this deal out.", style="bold")
        title = Text.assemble(Text(" Your hand", style="bold"),
                              (f" (by {'rank' if self.by_rank else 'suit'}, s sorts) · ", "dim"),
                              status.summary())
        lines = [title, Text(" ")]
        for i in range(len(self.order)):
            key = str(i + 1) if i < 9 else "0" if i == 9 else " "
            lines[1].append(f"{key:^{width}} ", style="bold")
        rows = [Text(" ") for _ in range(height + 1)]
        marks = Text(" ")
        blank = Text(" " * width)
        for i in self.order:
            card = view.hand[i]
            up = i in self.picked
            face = card_face(card, selected=up, big=self.big)
            column = [*face, blank] if up else [blank, *face]
            for row, part in zip(rows, column, strict=True):
                row.append_text(part)
                row.append(" ")
            marks.append_text(_mark(card, status, width))
            marks.append(" ")
        lines.extend(rows)
        lines.append(marks)
        return Text("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        """A click on a card picks it (or puts it back)."""
        width, _ = face_size(self.big)
        if event.y >= 2 and event.x >= 1 and (event.x - 1) % (width + 1) < width:
            index = (event.x - 1) // (width + 1)
            if index < len(self.order):
                self.post_message(self.Picked(index))


def _mark(card: int, status: HandStatus, width: int) -> Text:
    if card in status.take_cards:
        return Text("▀" * width, style="bold yellow")
    if card in status.meld_cards:
        return Text("▀" * width, style="bold green")
    if card in status.add_cards:
        return Text("▀" * width, style="bold #5fafff")
    return Text(" " * width)


_KEYS: tuple[tuple[str, str, str, type[Action] | None], ...] = (
    ("d", "draw", "draw", Draw),
    ("t", "take", "take", Take),
    ("m", "meld", "meld", NewMeld),
    ("a", "add", "add", Add),
    ("x", "discard", "discard", Discard),
    ("k", "knock", "knock", Knock),
)


class KeyBar(Static):
    """The keys that do something now (click them too), then the keys that always work."""

    def show(self, view: View | None, asked: bool) -> None:
        """List the keys for the person's situation."""
        parts: list[str] = []
        legal: Sequence[Action] = view.legal if view is not None and asked else ()
        kinds = {type(a) for a in legal}
        for key, verb, label, kind in _KEYS:
            if kind in kinds:
                parts.append(_key(key, label, f"verb('{verb}')"))
        for key, verb, label in (("b", "blast", "blast"), ("v", "sevens", "sevens"),
                                 ("p", "play", "play"), ("o", "drop", "drop out")):
            if any(a.verb == verb for a in legal):
                parts.append(_key(key, label, f"verb('{verb}')"))
        if view is not None and asked and view.can_pass:
            parts.append(_key("esc", "let it go", "let_go"))
        picks = pick_keys(len(view.hand)) if view is not None else ""
        if picks:
            parts.append(_key(picks, "pick", "help"))
        parts.extend([_key("s", "sort", "sort"),
                      _key("h", "hint", "hint"), _key("l", "log", "log"),
                      _key("?", "help", "help"), _key("q", "quit", "quit")])
        self.update(" ".join(parts))


def pick_keys(cards: int) -> str:
    """The keys that pick the cards of a hand of ``cards`` (1 to 9, then 0 for the tenth).

    >>> pick_keys(5), pick_keys(1), pick_keys(10), pick_keys(0)
    ('1-5', '1', '1-0', '')
    """
    if cards <= 0:
        return ""
    last = str(min(cards, 10) % 10)
    return "1" if cards == 1 else f"1-{last}"


def _key(key: str, label: str, action: str) -> str:
    return f"[@click=app.{action}][b reverse] {key} [/b reverse] {label}[/]"

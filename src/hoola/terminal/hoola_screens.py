"""Screens over the table: choosing among several moves, the settlement, help, the log, leaving."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from hoola.games.hoola.actions import Action
from hoola.games.hoola.text import describe_end, describe_settlement, knocker_of, stakes
from hoola.games.hoola.views import View
from hoola.terminal.cardface import chips
from hoola.terminal.table_screens import SCROLL_KEYS

__all__ = ["ChoiceScreen", "HelpScreen", "SettlementScreen"]


class ChoiceScreen(ModalScreen[Action | None]):
    """Several moves fit the keys pressed: pick one by its number, arrows and Enter, or a click."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss_none", "cancel"),
                *[Binding(str(i), f"choose({i - 1})", show=False) for i in range(1, 10)]]

    def __init__(self, title: str, actions: Sequence[Action], labels: Sequence[Text]) -> None:
        super().__init__()
        self.title_text = title
        self.actions = list(actions)
        self.labels = list(labels)

    def compose(self) -> ComposeResult:
        """A title over the numbered moves."""
        with Vertical(id="choice"):
            yield Static(Text(self.title_text, style="bold"))
            yield OptionList(*[Option(Text.assemble(f"{i}. ", label)) for i, label in
                               enumerate(self.labels, 1)])
            yield Static(Text("number or arrows and Enter to choose · Esc to cancel", style="dim"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter or a click on a move chooses it."""
        self.dismiss(self.actions[event.option_index])

    def action_choose(self, index: int) -> None:
        """A number key chooses that move."""
        if index < len(self.actions):
            self.dismiss(self.actions[index])

    def action_dismiss_none(self) -> None:
        """Esc: choose nothing."""
        self.dismiss(None)


class SettlementScreen(ModalScreen[str]):
    """The end of a deal: everyone's cards, the settlement line by line, the running score."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,n,space", "next", "next deal"), Binding("q", "leave", "leave")]

    def __init__(self, view: View, deal: int, deals: int,
                 results: Sequence[tuple[int, dict[int, Fraction]]],
                 totals: dict[int, Fraction], path: str, match_over: bool) -> None:
        super().__init__()
        self.view = view
        self.deal = deal
        self.deals = deals
        self.results = list(results)
        self.totals = totals
        self.path = path
        self.match_over = match_over

    def compose(self) -> ComposeResult:
        """The report in a scrolling box."""
        view = self.view
        result = view.result
        assert result is not None
        names = view.names
        won = view.player in result.winners
        head = Text(f"Deal {self.deal} of {self.deals}: ", style="bold")
        head.append(describe_end(result, names, knocker_of(view.history), me=view.player),
                    style="bold green" if won else "bold red")
        with Vertical(id="settlement"):
            with VerticalScroll():
                yield Static(head)
                hands = Table.grid(padding=(0, 1))
                hands.add_column(no_wrap=True)
                hands.add_column()
                for q, name in enumerate(names):
                    if view.hands is not None and view.in_deal[q]:
                        points = result.points.get(q)
                        label = f"{'You' if q == view.player else name}" + (
                            f" ({points})" if points is not None else "")
                        hands.add_row(Text(label, style="bold"), chips(view.hands[q]))
                yield Static(hands)
                # The hands above show the points; the rest explains who pays what and why.
                lines = [line for line in describe_settlement(result, names, me=view.player)[1:]
                         if not line.endswith("points in hand")]
                yield Static(Text("\n".join(lines)))
                yield Static(self._score())
            if self.match_over:
                best = max(self.totals.values())
                top = ["You" if q == view.player else names[q]
                       for q, v in self.totals.items() if v == best]
                verb = "win" if len(top) > 1 or top == ["You"] else "wins"
                foot = Text(f"The match is over: {' and '.join(top)} {verb}. "
                            f"Saved to {self.path}. Enter or q leaves.", style="bold")
            else:
                foot = Text(f"Enter: next deal · q: leave (saved to {self.path})", style="bold")
            yield Static(foot, id="settlement-keys")


    def _score(self) -> Table:
        names = self.view.names
        table = Table(title="Running score", title_justify="left", expand=False,
                      show_edge=False, pad_edge=False)
        table.add_column("deal")
        for q, name in enumerate(names):
            table.add_column("You" if q == self.view.player else name, justify="right")
        for number, payments in self.results:
            table.add_row(str(number), *[stakes(payments.get(q, Fraction(0)))
                                         for q in range(len(names))])
        table.add_row(Text("total", style="bold"),
                      *[Text(stakes(self.totals.get(q, Fraction(0))), style="bold")
                        for q in range(len(names))])
        return table

    def action_next(self) -> None:
        """Go on to the next deal (or leave, when the match is over)."""
        self.dismiss("leave" if self.match_over else "next")

    def action_leave(self) -> None:
        """Leave the game (it is saved)."""
        self.dismiss("leave")


HELP = """\
[b]Hoola[/b]: get rid of your cards by [b]melding[/b] them. A meld is three of a kind
(Q♠ Q♥ Q♦), three or more in a row of one suit (K♣ A♣ 2♣ turns the
corner), or a lone 7. After your own first meld you may [b]add[/b] to any meld.
[b]Your turn[/b]: draw (d), or take the discard (t) if it makes a new meld with
two of your cards; meld (m) and add (a) as you like; discard a card (x).
[b]Thank you![/b] A discard that makes you a new meld may be taken out of
turn: the prompt counts down; t takes it, Esc lets it go.
[b]Play ends[/b] when someone melds all their cards (a [b]Hoola[/b] if all at once:
pays x4), or at the start of a turn [b]knocks[/b] (k) with few points (fewest
wins; a tie or worse pays for everyone), [b]blasts[/b] (b) with 7 unmelded cards
worth 15 or less or 83 or more, or shows four sevens (v). Sevens count 14
at the end. Losers pay by rank, doubled per 7 in hand and for no meld.

[b]Keys[/b]  1-9 0 pick cards   d draw   t take   m meld   a add   x discard
      k knock   b blast   v sevens   p/o play or drop out (6-7 players)
      Esc let it go, or put cards back   h hint (Enter plays it)
      s sort   l the whole log   ? help   q leave (the game is saved)
[b]Mouse[/b] click cards to pick them, the stock to draw, the discard to take
      it (or to discard the picked card), and the keys at the bottom.
""" + "Under cards: [green]▀[/green] melds in hand  [#5fafff]▀[/] adds to the table  " \
    "[yellow]▀[/yellow] takes the discard\n" + " " * 50 + "Any key closes this help."

class HelpScreen(ModalScreen[None]):
    """The rules in brief and every key."""

    def compose(self) -> ComposeResult:
        """The help text."""
        with VerticalScroll(id="help"):
            yield Static(HELP)

    def on_key(self, event: events.Key) -> None:
        """Any key but the scrolling ones closes the help."""
        if event.key not in SCROLL_KEYS:
            event.stop()
            self.dismiss(None)

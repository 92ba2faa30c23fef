"""Screens over the table for every game: choosing among the moves a key fits, the end of a hand
(the settlement told, the running score), the help, the log, and leaving."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.markup import escape
from rich.table import Table as Grid
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, RichLog, Static
from textual.widgets.option_list import Option

from hoola.core.table import Score, Table
from hoola.terminal.table_widgets import chips, words
from hoola.terminal.tabletext import hand_of, settlement_of

__all__ = ["SCROLL_KEYS", "ChoiceScreen", "HandOverScreen", "LeaveScreen", "Leaving",
           "LogScreen", "TableHelpScreen", "help_text", "score_grid"]

SCROLL_KEYS = frozenset({"up", "down", "pageup", "pagedown", "home", "end"})


def score_grid(title: str, scores: Sequence[Score], names: Sequence[str], me: int,
               teams: Sequence[Sequence[int]] | None = None) -> Grid:
    """Score lines as a table: a row a line, a column a seat (or a team)."""
    grid = Grid(title=title, title_justify="left", show_edge=False, pad_edge=False)
    grid.add_column("")
    columns: list[str] = ["You" if q == me else n for q, n in enumerate(names)]
    widths = {len(s.values) for s in scores}
    if teams is not None and widths == {len(teams)}:
        columns = [" & ".join(columns[q] for q in team) for team in teams]
    for column in columns:
        grid.add_column(column, justify="right")
    for score in scores:
        values = list(score.values) + [""] * (len(columns) - len(score.values))
        grid.add_row(Text(score.label, style="bold"), *values[:len(columns)])
    return grid


class ChoiceScreen(ModalScreen[Any]):
    """Several moves fit the key pressed (a card that makes several melds): choose one by its
    number, arrows and Enter, or a click; Esc goes back to the table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "back"),
        *[Binding(str(i), f"choose({i - 1})", show=False) for i in range(1, 10)]]

    def __init__(self, title: str, actions: Sequence[Any], labels: Sequence[str]) -> None:
        super().__init__()
        self.title_text = title
        self.actions = list(actions)
        self.labels = list(labels)

    def compose(self) -> ComposeResult:
        """A title over the numbered moves."""
        with Vertical(id="choice"):
            yield Static(Text(self.title_text, style="bold"))
            yield OptionList(*[Option(Text.assemble((f"{i}. ", "dim"), words(label)))
                               for i, label in enumerate(self.labels, 1)])
            yield Static(Text("number, or arrows and Enter · Esc goes back", style="dim"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter or a click on a move chooses it."""
        self.dismiss(self.actions[event.option_index])

    def action_choose(self, index: int) -> None:
        """A number key chooses that move."""
        if index < len(self.actions):
            self.dismiss(self.actions[index])

    def action_back(self) -> None:
        """Esc: choose nothing."""
        self.dismiss(None)


class HandOverScreen(ModalScreen[str]):
    """The end of a hand: how it ended, the hands shown, the settlement as the table tells it,
    the hand's score, and the running score (``hands``: each finished hand's line, then the
    match's own lines); ``hand`` is what the game calls a hand, ``won`` who won a game that
    ended with the deals planned rather than by its own end ("You win")."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,n,space", "next", "next hand"), Binding("q,escape", "leave", "leave")]

    def __init__(self, table: Table, me: int, board: Table, head: str, path: str,
                 game_over: bool, hands: Sequence[Score] = (), hand: str = "hand",
                 won: str = "") -> None:
        super().__init__()
        self.hand = hand
        self.won = won
        self.table = table
        self.me = me
        self.board = board
        self.head = head
        self.path = path
        self.game_over = game_over
        self.hands = list(hands)

    def compose(self) -> ComposeResult:
        """The report in a scrolling box, the keys under it."""
        table, board = self.table, self.board
        told = settlement_of(table)
        with Vertical(id="hand-over"):
            with VerticalScroll():
                yield Static(Text.assemble((f"{self.head}: ", "bold"),
                                           (told[0] if told else table.moment.prompt,
                                            "bold green")))
                shown = Grid.grid(padding=(0, 1))
                shown.add_column(no_wrap=True)
                shown.add_column()
                for seat, name in enumerate(table.names):
                    hand = hand_of(table, seat)
                    if seat != self.me and hand is not None and hand.cards:
                        shown.add_row(Text(name, style="bold"), chips(hand.cards))
                if shown.row_count:
                    yield Static(shown)
                if told[1:]:
                    yield Static(Text("\n").join(words(line) for line in told[1:]),
                                 id="settlement")
                # The hand's own lines, less those the running score repeats.
                own = [s for s in table.scores if s not in board.scores]
                if own:
                    yield Static(score_grid("This hand", own, table.names, self.me,
                                            table.teams))
                yield Static(score_grid("The score", [*self.hands, *board.scores],
                                        board.names, self.me, board.teams))
                notes = [z.label for z in board.zones if z.label]
                if board.moment.prompt and not self.won:
                    notes.append(board.moment.prompt)
                if notes:
                    yield Static(Text(" · ".join(notes), style="bold"))
            if self.game_over:
                won = f": {self.won}" if self.won else ""
                foot = f"The game is over{won}. Saved to {self.path}. Enter or q leaves."
            else:
                foot = f"Enter: next {self.hand} · q: leave (saved to {self.path})"
            yield Static(Text(foot, style="bold"), id="hand-over-keys")

    def action_next(self) -> None:
        """Go on to the next hand (or leave, when the game is over)."""
        self.dismiss("leave" if self.game_over else "next")

    def action_leave(self) -> None:
        """Leave the game (it is saved)."""
        self.dismiss("leave")


HELP = """\
[b]{title}[/b] against bots.
[b]Keys[/b]  {picks} pick cards   ↑ ↓ Enter play   Esc put cards back / pass
{verb_keys}      h hint: the expert's move and why (Enter plays it)   s sort the hand
      l the whole log   ? help   q leave (the game is saved)
{marks}
The table shows every seat (▶ whose turn it is, · who may act now), what each owns \
(melds, captured cards) and the score, the middle of the table and your hand. Your legal \
moves are listed at the bottom, numbered as the plain game numbers them.
[b]Pick cards[/b] with the key under each card (or click it): the list narrows to the \
moves that use all the picked cards. Press the key again to put a card back.
[b]Play a move[/b]: arrows and Enter, or click it.{verbs} When you may let a moment pass \
(a warning, a claim), the list ends with "let it pass"; Esc lets it pass too, and a \
countdown passes for you when it runs out.
{how}
Any key closes this help."""

VERB_HELP = " A verb's key plays the move of that verb that uses the picked cards (with " \
    "none picked, the one there is), or lists them when several fit; click the stock to " \
    "draw, the discard pile to take it (or to discard the picked card)."


def help_text(title: str, picks: str, verbs: Mapping[str, str], marks: Mapping[str, str],
              how: str) -> str:
    """The help for a game: its keys (and its verbs' keys, its marks), what the screen shows,
    and how the game is played, in the game's own words."""
    verb_keys = ""
    if verbs:
        said = [f"{key} {verb}" for key, verb in verbs.items()]
        lines = [said[i:i + 6] for i in range(0, len(said), 6)]
        verb_keys = "".join("      " + "   ".join(line) + "\n" for line in lines)
    shown = ""
    if marks:
        shown = "A key coloured under a card: you may " + \
            " ".join(f"[#000000 on {colour}] {verb} [/]" for verb, colour in marks.items()) \
            + " with it.\n"
    how_text = f"[b]How to play[/b] {escape(how)}\n" if how else ""
    return HELP.format(title=title, picks=picks, verbs=VERB_HELP if verbs else "",
                       verb_keys=verb_keys, marks=shown, how=how_text)


class TableHelpScreen(ModalScreen[None]):
    """The keys, and how the screen reads."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        """The help text."""
        with VerticalScroll(id="help"):
            yield Static(self.text)

    def on_key(self, event: events.Key) -> None:
        """Any key but the scrolling ones closes the help."""
        if event.key not in SCROLL_KEYS:
            event.stop()
            self.dismiss(None)


class LogScreen(ModalScreen[None]):
    """The whole log of the deal, to scroll through."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,l,q", "close", "close")]

    def __init__(self, lines: Sequence[Text]) -> None:
        super().__init__()
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        """The log, newest at the bottom."""
        with Vertical(id="log-screen"):
            yield Static(Text("The deal so far (Esc closes)", style="bold"))
            log = RichLog(wrap=True, min_width=20)
            for line in self.lines:
                log.write(line)
            yield log

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)


class LeaveScreen(ModalScreen[bool]):
    """Make sure before leaving."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("y,enter,q", "answer(True)", "leave"),
                Binding("n,escape", "answer(False)", "stay")]

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path

    def compose(self) -> ComposeResult:
        """The question."""
        with Vertical(id="leave"):
            yield Static(Text.assemble(("Leave the game?", "bold"),
                                       f"\nIt is saved; go on later with:\n"
                                       f"  hoola play --resume {self.path}",
                                       "\n\ny: leave    n: stay"))

    def action_answer(self, leave: bool) -> None:
        """Leave or stay."""
        self.dismiss(leave)


class Leaving:
    """Leaving a terminal game, for the apps that mix it in: ``q`` asks first, Ctrl+C leaves at
    once; either way the session and the person's seat stop and the app exits with the path
    of the save (the game is saved after every move).

    The app provides ``session`` and ``person`` (each with ``stop()``), ``save_path`` and the
    Textual ``App`` methods used here.
    """

    session: Any
    person: Any
    screen_stack: Any
    push_screen: Any
    exit: Any

    @property
    def save_path(self) -> str:
        """Where the game is saved."""
        raise NotImplementedError

    def _on_table(self) -> bool:
        """Whether the table is in front (no list, help, log or settlement over it)."""
        return len(self.screen_stack) == 1

    async def action_quit(self) -> None:
        """Ask, then leave (the game is saved after every move)."""
        def answered(leave: bool | None) -> None:
            if leave:
                self._leave()
        if self._on_table():
            self.push_screen(LeaveScreen(self.save_path), answered)

    def action_leave_now(self) -> None:
        """Ctrl+C leaves at once (the game is saved)."""
        self._leave()

    def _leave(self) -> None:
        self.session.stop()
        self.person.stop()
        self.exit(self.save_path)

"""The line-by-line game for every registered game: the table printed from ``view.table()``, the
legal moves numbered, a move typed by its number or in the game's notation, and at the end of a
hand the settlement the table tells and the score.

A game plays here with no code of its own; its touch (:mod:`hoola.terminal.touches`) may add a
word beside a seat or the hand and name its hands (Hoola's deals). The game is saved after every
move (:class:`~hoola.terminal.saves.SavedGame`).
"""

from __future__ import annotations

import random
import shutil
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from hoola.core.driver import REACTION, LiveClock, play_deal
from hoola.core.errors import HoolaError
from hoola.core.game import GameState, Player, game_heading
from hoola.core.table import Table
from hoola.terminal.saves import SavedGame, seat_player
from hoola.terminal.tabletext import (
    hand_of,
    plural,
    score_lines,
    settlement_of,
    sorted_cards,
    table_lines,
    wrap_line,
)
from hoola.terminal.touches import NO_TOUCH, Touch, touch_of

__all__ = ["HELP", "Notation", "PlainPerson", "Quit", "choose", "last_move", "move_label",
           "move_number", "no_such_move", "print_wrapped", "run_plain_game", "taken",
           "terminal_width", "unreadable"]

HELP = """Type the number of a move, or the move itself as the list writes it (for example:
draw, discard Kd). Enter lets a moment pass when you may pass. Other keys:
  s  sort your hand by suit / by rank      t  show the table again
  h  this help                             q  quit (the game so far is saved)"""


class Quit(Exception):
    """The person asked to leave the game."""


def terminal_width(out: TextIO | None = None) -> int | None:
    """The columns of the terminal ``out`` writes to, now (``COLUMNS`` first), at least 40;
    None when ``out`` is no terminal (a file or a pipe: lines are written whole)."""
    try:
        is_terminal = out is not None and out.isatty()
    except (AttributeError, ValueError):  # a closed or odd stream
        is_terminal = False
    if not is_terminal:
        return None
    return max(40, shutil.get_terminal_size((80, 24)).columns)



def print_wrapped(text: str, out: TextIO, width: int | None = None, *,
                  wrap: bool = True) -> None:
    """Print ``text`` to ``out``, each line broken between words to fit ``width`` (default: the
    terminal's, asked at each call, as it may be resized; none when ``out`` is no terminal); a
    line with a path to copy is printed whole (``wrap=False``)."""
    width = width or terminal_width(out)
    if not wrap or width is None:
        print(text, file=out, flush=True)
        return
    lines = [part for line in text.split("\n") for part in wrap_line(line, width)]
    print("\n".join(lines), file=out, flush=True)


def taken(before: Table | None, after: Table) -> str | None:
    """What a move took, as the table tells it: the piles a seat or team captures into that
    grew (``Bot1 took 20 points in 2 tricks``), with a pile that came into sight with them (the
    trick just taken, ``Last trick (Bot1 took): As 7d``); None when nothing was taken.

    >>> from hoola.core.table import Moment, Table, Zone
    >>> def table(count, *extra):
    ...     return Table(zones=(Zone("c0", "captured", f"Bot1 took {count} points", owner=1,
    ...                               count=count), *extra), moment=Moment((), None, "play"))
    >>> taken(table(0), table(2, Zone("t", "pile", "Last trick (Bot1 took)", cards=("As", "7d"))))
    'Last trick (Bot1 took): As 7d · Bot1 took 2 points'
    >>> taken(table(2), table(2)) is None
    True
    """
    if before is None:
        return None
    counts = {z.id: z.count for z in before.zones if z.kind == "captured"}
    grown = [z for z in after.zones
             if z.kind == "captured" and z.id in counts and (z.count or 0) > (counts[z.id] or 0)]
    if not grown:
        return None
    old = {z.id: z.cards for z in before.zones}
    shown = [f"{z.label}: {' '.join(z.cards)}" for z in after.zones
             if z.kind == "pile" and z.cards and old.get(z.id) != z.cards]
    return " · ".join([*shown, *(z.label for z in grown)])


@dataclass(frozen=True, slots=True)
class Notation:
    """What a person's seat may ask of the deal besides its view: the moves' notation, and why a
    typed move is refused (the engine's own sentence). It reveals nothing hidden."""

    format: Callable[[Any], str]
    parse: Callable[[str], Any]
    verify: Callable[[Any], None]

    @classmethod
    def of(cls, state: GameState) -> Notation:
        """The notation of ``state``'s deal."""
        return cls(state.format, state.parse, state.verify)


def move_label(notation: Notation, action: Any, me: str) -> str:
    """A move as the person types it: its notation without their own name."""
    text = notation.format(action)
    return text[len(me) + 1:] if text.startswith(me + " ") else text


def move_number(line: str) -> int | None:
    """The number a typed line names, or None when it is not one (``²`` is not: only decimal
    digits are); a number too long to be a move's is returned as one past any list.

    >>> move_number("3"), move_number("２"), move_number("²"), move_number("9" * 5000)
    (3, 2, None, 1000000000)
    """
    if not line.isdecimal():
        return None
    return int(line) if len(line) <= 9 else 10**9


def no_such_move(line: str, count: int) -> str:
    """The one line saying a typed number names no move (a long number cut short)."""
    shown = line if len(line) <= 9 else line[:6] + "..."
    return f"There is no move {shown}: choose 1 to {count}." if count else \
        "There is no move to choose now."


def choose(line: str, view: Any, notation: Notation, me: str) -> tuple[Any | None, str | None]:
    """The move a typed line names (its number, or its notation), or why there is none.

    A move the game accepts though it is not listed (Kalookie lists melds with at most two
    jokers) is taken too; one it refuses gets the game's reason, in one line.
    """
    moves = list(view.legal)
    k = move_number(line)
    if k is not None:
        if 1 <= k <= len(moves):
            return moves[k - 1], None
        return None, no_such_move(line, len(moves))
    try:
        action = notation.parse(f"{me} {line}")
    except HoolaError as exc:
        return None, unreadable(line, exc.message, [move_label(notation, m, me) for m in moves])
    if action in moves:
        return action, None
    typed = notation.format(action)
    same = next((m for m in moves if notation.format(m) == typed), None)
    if same is not None:
        return same, None
    try:
        notation.verify(action)
    except HoolaError as exc:
        return None, f"Not now: {exc.message.rstrip('.')}."
    except Exception:  # an action the engine cannot even check is not a move
        return None, f"Not now: {line!r} is not a move."
    return action, None


def unreadable(line: str, message: str, labels: Sequence[str]) -> str:
    """One line on a typed move that cannot be read: the engine's reason; for a verb of the
    notation typed wrong, how the list writes such a move (or how the notation does), rather than
    the whole notation.

    >>> grammar = "cannot read action 'You meld': expected one of draw, meld C.., knock"
    >>> unreadable("meld", grammar, ["draw", "meld 3c 4c 5c"])
    "Cannot read 'meld': type it as the list writes it, such as 'meld 3c 4c 5c'."
    >>> unreadable("meld", grammar, ["draw"])
    "Cannot read 'meld': type it as meld C.. (C is a card, such as 7h)."
    >>> unreadable("fly", grammar.replace("meld'", "fly'"), ["draw"])
    "Cannot read 'fly': expected one of draw, meld C.., knock."
    """
    reason = message.split("': ", 1)[-1].rstrip(".")
    verb = line.split()[0].lower() if line.split() else ""
    head, sep, forms = reason.partition("expected one of ")
    if not sep or head:
        return f"Cannot read {line!r}: {reason}."
    example = next((label for label in labels if label.split()[:1] == [verb]), None)
    if example is not None:
        return f"Cannot read {line!r}: type it as the list writes it, such as {example!r}."
    typed = [form for form in forms.split(", ") if form.split()[:1] == [verb]]
    if typed:
        return f"Cannot read {line!r}: type it as {' or '.join(typed)} (C is a card, such as 7h)."
    return f"Cannot read {line!r}: {reason}."


class PlainPerson:
    """A person at a terminal: the table, the numbered moves, a typed choice."""

    def __init__(self, read: Callable[[str], str] | None = None, out: TextIO | None = None,
                 name: str = "You", width: int | None = None, touch: Touch = NO_TOUCH) -> None:
        self.read = read or input
        self.out = out or sys.stdout
        self.name = name
        self.width = width  # None: the terminal's, asked at each line (it may be resized)
        self.touch = touch
        self.by_rank = False
        self.notation: Notation | None = None
        self.hand: Counter[str] = Counter()  # the hand when last asked: what is new after

    def say(self, text: str = "", *, wrap: bool = True) -> None:
        """Print ``text`` to the person (:func:`print_wrapped`)."""
        print_wrapped(text, self.out, self.width, wrap=wrap)

    def show(self, view: Any) -> None:
        """The whole table as the person's view shows it."""
        self.say("")
        for line in self.table_lines(view):
            self.say(line)

    def table_lines(self, view: Any) -> list[str]:
        """The table of ``view`` as lines, with the touch's words beside the seats and hand."""
        table = view.table()
        touch = self.touch
        seats = [touch.seat_note(view, q) for q in range(len(table.names))] \
            if touch.seat_note is not None else []
        note = touch.note(view) if touch.note is not None else ""
        return table_lines(table, view.player, self.by_rank, seat_notes=seats, hand_note=note)

    def act(self, view: Any) -> Any | None:
        """Ask for a move until a legal one (or a pass, or quit) is given."""
        if not view.legal:
            return None
        assert self.notation is not None, "the seat is given the deal's notation first"
        table = view.table()
        mine = hand_of(table, view.player)
        self.hand = Counter(mine.cards or ()) if mine is not None else Counter()
        self.show(view)
        moves = list(view.legal)
        for i, action in enumerate(moves, 1):
            self.say(f"  {i:2}. {move_label(self.notation, action, self.name)}")
        if view.can_pass:
            self.say("   Enter. let it pass")
        while True:
            try:
                line = self.read("Pass? " if view.can_pass else "Your move: ").strip()
            except EOFError as exc:
                raise Quit from exc
            key = line.lower()
            if not line:
                if view.can_pass:
                    return None
                continue
            if key in ("q", "quit", "exit"):
                raise Quit
            if key in ("h", "help", "?"):
                self.say(HELP)
            elif key == "s":
                self.by_rank = not self.by_rank
                if mine is not None:
                    cards = sorted_cards(mine.cards or (), self.by_rank)
                    self.say(f"{mine.label}: {' '.join(cards)}")
            elif key == "t":
                self.show(view)
            else:
                action, problem = choose(line, view, self.notation, self.name)
                if action is not None:
                    return action
                self.say(problem or "That is not a move now.")

    def news(self, view: Any) -> str | None:
        """The cards new in the person's hand since they last chose (a draw's card)."""
        mine = hand_of(view.table(), view.player)
        if mine is None or mine.cards is None:
            return None
        new = Counter(mine.cards) - self.hand
        self.hand = Counter(mine.cards)
        return " ".join(sorted_cards(new.elements())) if new else None


def last_move(view: Any) -> str | None:
    """The newest move of the deal as this seat may know it (the table's log)."""
    log = view.table().log
    return log[-1] if log else None


def run_plain_game(saved: SavedGame, *, read: Callable[[str], str] | None = None,
                   out: TextIO | None = None, notes: Sequence[str] = (),
                   width: int | None = None,
                   bot_reaction: tuple[float, float] = REACTION) -> Path:
    """Play ``saved`` line by line until its end or until the person leaves; return the path
    of its record, saved after every move. Lines fit ``width`` columns (the terminal's); a bot
    takes ``bot_reaction`` (seconds, low and high) to act in a window, the person's answer is
    timed from the moment the question is printed."""
    names, me = saved.names, saved.person
    touch = touch_of(saved.game.name)
    person = PlainPerson(read, out, names[me], width, touch)
    seats: list[Player] = []
    told = list(notes)
    hand = touch.hand
    clock = LiveClock(me, person, reaction=bot_reaction,
                      rng=random.Random(f"reaction {saved.seed}"),
                      on_race=lambda race: person.say(touch.race(race, names, me)))
    for q, kind in enumerate(saved.kinds):
        if q == me:
            seats.append(person)
            continue
        bot, note = seat_player(saved.game, kind, saved.seed + q)
        seats.append(bot)
        if note is not None and note not in told:
            told.append(note)
    for note in told:
        person.say(note)
    person.say(f"{game_heading(saved.game, saved.preset)}, {len(names)} players: "
               f"{', '.join(names)}. Seed {saved.seed}. Type h for help.")

    seen: list[Table | None] = [None]  # the table after the last move, to see what it took

    def announce(state: GameState, record: Any) -> None:
        problem = saved.moved(state)
        if problem is not None:
            person.say(problem)
        view = state.view(me)
        table = view.table()
        took = taken(seen[0], table)
        seen[0] = table
        if getattr(record, "player", None) != me:
            line = last_move(view)
            person.say(f"  {line}" if line else f"  {names[record.player]} moved")
        if took is not None:
            person.say(f"  {took}")
        if getattr(record, "player", None) == me:
            new = person.news(view)
            if new:
                person.say(f"New in your hand: {new}")

    if saved.is_over:
        person.say("This game is over.")
        _scoreboard(person, saved)
    try:
        while not saved.is_over:
            state = saved.next_deal()
            planned = f" of {saved.plan.deals}" if saved.plan.deals is not None else ""
            person.say("")
            person.say(f"=== {hand.capitalize()} {saved.deal_number}{planned} ===")
            if state.history:
                person.say(f"(resumed after {len(state.history)} moves)")
            person.notation = Notation.of(state)
            seen[0] = state.view(me).table()
            play_deal(state, seats, on_action=announce, clock=clock)
            person.say("")
            person.say(f"--- The {hand} is over ---")
            end = state.view(me)
            lines = person.table_lines(end)
            told = settlement_of(end.table())
            if told and lines and lines[-1] == end.table().moment.prompt:
                lines.pop()  # the settlement says how the hand ended, in its own words
            for line in lines:
                person.say(line)
            for i, line in enumerate(told):
                person.say(line if i == 0 else f"  {line}")
            _scoreboard(person, saved)
    except (Quit, KeyboardInterrupt):  # q, the end of input, or Ctrl+C: all leave the same way
        person.say("")
        person.say("You left the game.")
    finally:
        if saved.save_problem is None:
            person.say(f"Game saved to {saved.path} (check it with: hoola verify {saved.path})",
                       wrap=False)
        else:
            person.say(saved.save_problem)
    if not saved.is_over:
        person.say(f"Go on with: hoola play --plain --resume {saved.path}", wrap=False)
    return saved.path


def _scoreboard(person: PlainPerson, saved: SavedGame) -> None:
    board = saved.match.scoreboard()
    person.say(f"Score after {plural(saved.finished_deals, person.touch.hand)}:")
    for line in score_lines(board):
        person.say(f"  {line}")
    extra = [z.label for z in board.zones if z.label]
    if board.moment.prompt:
        extra.append(board.moment.prompt)
    if extra:
        person.say("  " + " · ".join(extra))

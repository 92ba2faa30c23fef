"""The line-by-line terminal game: one person against bots, every game saved as a record."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from hoola.bots import make_bot
from hoola.core.cards import JOKER, format_card, format_cards
from hoola.core.driver import LiveClock, play_deal
from hoola.core.errors import HoolaError
from hoola.core.game import Player
from hoola.games.hoola.actions import Action, Draw, parse_action
from hoola.games.hoola.rules import Rules
from hoola.games.hoola.scoring import hand_points
from hoola.games.hoola.state import DealState
from hoola.games.hoola.text import (
    agree,
    describe_settlement,
    describe_table,
    knocker_of,
    stakes,
)
from hoola.games.hoola.views import View
from hoola.terminal.plain import move_number, no_such_move, print_wrapped
from hoola.terminal.races import hoola_race
from hoola.terminal.saves import SavedMatch, default_save_path, forget_if_empty

__all__ = ["Quit", "TerminalPlayer", "default_save_path", "run_terminal_game"]

HELP = """Type the number of a move, or the move itself (for example: draw, meld 3c 4c 5c,
add 6c on 5c, discard Kd, take 9d with 9s 9h, knock). Other keys:
  s  sort your hand by suit / by rank      t  show the table again
  h  this help                             q  quit (the game so far is saved)"""


class Quit(Exception):
    """The person asked to leave the game."""


class TerminalPlayer:
    """A person at a terminal: shows the view, lists the legal moves, reads a choice."""

    def __init__(self, read: Callable[[str], str] | None = None, out: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic, width: int | None = None) -> None:
        self.read = read or input
        self.out = out or sys.stdout
        self.clock = clock
        self.width = width  # None: the terminal's, asked at each line (it may be resized)
        self.by_rank = False
        self.question: View | None = None

    def ask(self, view: View) -> None:
        """Note the question of a claim window; it is put when :meth:`answer` is called."""
        self.question = view

    def answer(self, within: float | None) -> tuple[Action | None, float] | None:
        """Put the noted question and read the answer, timed from the moment it was shown (a
        line cannot be taken back, so ``within`` is not kept: a late claim loses the race)."""
        assert self.question is not None
        start = self.clock()
        action = self.act(self.question)
        return action, self.clock() - start

    def say(self, text: str = "", *, wrap: bool = True) -> None:
        """Print ``text`` to the player (:func:`hoola.terminal.plain.print_wrapped`)."""
        print_wrapped(text, self.out, self.width, wrap=wrap)

    def sorted_hand(self, hand: Sequence[int]) -> list[int]:
        """The hand by suit (canonical order) or by rank, jokers last."""
        if self.by_rank:
            return sorted(hand, key=lambda c: (c == JOKER, c % 13 if c != JOKER else 99, c))
        return sorted(hand)

    def show(self, view: View) -> None:
        """The table, the discard, the stock, the opponents, the hand."""
        names = view.names
        self.say("")
        if view.mission is not None:  # the deal's mission, from its start (ruling 20)
            self.say(view.mission_text())
        self.say("Table:")
        for line in describe_table(view.melds, names):
            self.say(line)
        top = format_card(view.discards[-1]) if view.discards else "-"
        self.say(f"Discard pile: {top}    Stock: {view.stock_size} cards    Stake: {view.stake}")
        others = []
        for q, name in enumerate(names):
            if q == view.player:
                continue
            if not view.in_deal[q]:
                others.append(f"{name}: out of this deal")
                continue
            state = "melded" if view.melded[q] else "no meld yet"
            others.append(f"{name}: {view.hand_sizes[q]} cards, {state}")
        self.say("Opponents: " + " | ".join(others))
        points = hand_points(sum(1 << c for c in view.hand if c != JOKER),
                             sum(1 for c in view.hand if c == JOKER), view.rules, True)
        self.say(f"Your hand: {format_cards(self.sorted_hand(view.hand))}   ({points} points)")

    def act(self, view: View) -> Action | None:
        """Ask the person for a move until a legal one (or a pass, or quit) is given."""
        if not view.legal:
            return None
        claim = view.can_pass
        if claim:
            by = view.names[view.discarder] if view.discarder is not None else "someone"
            card = format_card(view.claimable) if view.claimable is not None else "the discard"
            self.say("")
            self.say(f"{by} discarded {card}. You may claim it (Thank you!) or let it go.")
            self.say(f"Your hand: {format_cards(self.sorted_hand(view.hand))}")
        else:
            self.show(view)
        moves = list(view.legal)
        for i, a in enumerate(moves, 1):
            self.say(f"  {i:2}. {self.describe(a, view)}")
        if claim:
            self.say("   Enter. let it go")
        while True:
            try:
                line = self.read("Your move: " if not claim else "Claim? ").strip()
            except EOFError as exc:
                raise Quit from exc
            if not line:
                if claim:
                    return None
                continue
            key = line.lower()
            if key in ("q", "quit", "exit"):
                raise Quit
            if key in ("h", "help", "?"):
                self.say(HELP)
                continue
            if key == "s":
                self.by_rank = not self.by_rank
                self.say(f"Your hand: {format_cards(self.sorted_hand(view.hand))}")
                continue
            if key == "t":
                self.show(view)
                continue
            k = move_number(line)
            if k is not None:
                if 1 <= k <= len(moves):
                    return moves[k - 1]
                self.say(no_such_move(line, len(moves)))
                continue
            try:
                action = parse_action(f"{view.names[view.player]} {line}", view.names)
            except HoolaError as exc:
                self.say(unreadable(line, exc))
                continue
            match = _find_equivalent(action, moves)
            if match is None:
                self.say("That move is not allowed now; choose one of the numbered moves.")
                continue
            return match

    def describe(self, action: Action, view: View) -> str:
        """A move as the person would type it (without their own name)."""
        from hoola.games.hoola.actions import format_action
        return format_action(action, view.names).split(" ", 1)[1]


# How each move is typed, for a move that could not be read.
FORMS = {"draw": "draw", "take": "take 9d with 9s 9h (or take 9d for blast)",
         "meld": "meld 3c 4c 5c", "add": "add 6c on 5c (or add 6c on m2)",
         "discard": "discard Kd", "knock": "knock", "blast": "blast", "sevens": "sevens",
         "play": "play", "drop": "drop"}


def unreadable(line: str, error: HoolaError) -> str:
    """One line on a typed move that cannot be read: the card at fault, or how that move is
    typed, never the whole grammar.

    >>> from hoola.games.hoola.actions import parse_action
    >>> def why(line: str) -> str:
    ...     try:
    ...         parse_action(f"You {line}", ["You", "Bot"])
    ...     except HoolaError as exc:
    ...         return unreadable(line, exc)
    ...     return "read"
    >>> why("meld")
    "Cannot read 'meld': type it as: meld 3c 4c 5c."
    >>> why("discard Zz")[:26]
    "Cannot read card 'Zz': wri"
    """
    verb = line.split()[0].lower()
    # The engine's message names the action as read ('You meld ...'): keep only the reason.
    reason = error.message.split("': ", 1)[-1].rstrip(".")
    if reason.startswith("cannot read "):
        return f"C{reason[1:]}."
    if verb in FORMS and not reason.startswith("expected one of"):
        return f"Cannot read that: {reason}."
    if verb in FORMS:
        return f"Cannot read {line!r}: type it as: {FORMS[verb]}."
    return f"There is no move {verb!r}: type the number of a move, or a move such as " \
           "'discard Kd' (h for help)."


def _find_equivalent(action: Action, moves: Sequence[Action]) -> Action | None:
    """The listed move meaning the same as a typed one (card order and meld naming aside)."""
    from hoola.games.hoola.actions import Add, NewMeld, Take
    for m in moves:
        if m == action:
            return m
        if type(m) is not type(action):
            continue
        if isinstance(m, NewMeld) and isinstance(action, NewMeld) \
                and sorted(m.cards) == sorted(action.cards) \
                and (action.joker_as is None or action.joker_as == m.joker_as):
            return m
        if isinstance(m, Take) and isinstance(action, Take) and m.card == action.card \
                and m.purpose == action.purpose \
                and sorted(m.with_cards) == sorted(action.with_cards) \
                and (action.joker_as is None or action.joker_as == m.joker_as):
            return m
        if isinstance(m, Add) and isinstance(action, Add) and m.card == action.card \
                and (action.joker_as is None or action.joker_as == m.joker_as):
            return m if action.on is None or action.on == m.on else action
    return None


def run_terminal_game(rules: Rules, *, players: int = 4, bots: Sequence[str] = ("greedy",),
                      seed: int | None = None, deals: int = 1, name: str = "You",
                      save: Path | None = None, resume: Path | None = None,
                      bot_reaction: tuple[float, float] = (0.8, 1.5),
                      read: Callable[[str], str] | None = None,
                      out: TextIO | None = None, width: int | None = None) -> Path:
    """Play ``deals`` deals against bots in the terminal (or go on with the match saved at
    ``resume``); return the path of the saved record, which is saved after every move.

    Raises :class:`~hoola.core.errors.RecordError` for a save that cannot be resumed and ``OSError``
    when the game cannot be saved, before play starts.
    """
    person = TerminalPlayer(read, out, width=width)
    if resume is not None:
        game = SavedMatch.resume(resume, seed=seed)
    else:
        path = save or default_save_path()
        try:
            game = SavedMatch.new(rules, players=players, bots=bots, seed=seed, deals=deals,
                                  name=name, path=path)
        finally:
            if save is None:
                forget_if_empty(path)
    names, me = game.names, game.person
    seats: list[Player] = [person if q == me else make_bot(kind, game.seed + q)
                           for q, kind in enumerate(game.kinds)]
    clock = LiveClock(me, person, reaction=bot_reaction,
                      rng=random.Random(f"reaction {game.seed}"),
                      on_race=lambda race: person.say(hoola_race(race, names, me)))
    person.say(f"Hoola, {game.rules.preset_name} rules, {len(names)} players: "
               f"{', '.join(names)}. Seed {game.seed}. Type h for help.")

    def announce(state: DealState, record: Action) -> None:
        problem = game.moved(state)
        if problem is not None:
            person.say(problem)
        if record.player == me:
            if isinstance(record, Draw) and record.card is not None:
                person.say(f"You drew {format_card(record.card)}.")
            return
        shown = state.format(Draw(record.player) if isinstance(record, Draw) else record)
        person.say(f"  {shown}")

    if game.is_over:
        person.say(f"This match is over ({game.plan.deals} of {game.plan.deals} deals played): "
                   + ", ".join(f"{names[q]} {stakes(v)}" for q, v in game.match.totals.items()))
    try:
        while not game.is_over:
            state = game.next_deal()
            stake = f", stake {stakes(state.stake).lstrip('+')}" if state.stake != 1 else ""
            person.say("")
            person.say(f"=== Deal {game.deal_number} of {game.plan.deals}: "
                       f"{agree(names[state.dealer], 'deal')}{stake} ===")
            if state.history:
                person.say(f"(resumed after {len(state.history)} moves)")
            play_deal(state, seats, on_action=announce, clock=clock)
            assert state.result is not None
            person.say("")
            for line in describe_settlement(state.result, names,
                                            [state.hand(q) for q in range(state.n)], me=me,
                                            knocker=knocker_of(state.history)):
                person.say(line)
            if game.plan.deals > 1:
                person.say("Match totals: " + ", ".join(f"{names[q]} {stakes(v)}"
                                                        for q, v in game.match.totals.items()))
    except (Quit, KeyboardInterrupt):  # q, the end of input, or Ctrl+C: all leave the same way
        person.say("")
        person.say("You left the game.")
    finally:
        if game.save_problem is None:
            person.say(f"Game saved to {game.path} (check it with: hoola verify {game.path})",
                       wrap=False)
        else:
            person.say(game.save_problem)
    if not game.is_over:
        person.say(f"Go on with: hoola play --plain --resume {game.path}", wrap=False)
    return game.path

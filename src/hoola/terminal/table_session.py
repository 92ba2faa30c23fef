"""One person's game of any kind against bots on the full screen: each deal played by
:func:`hoola.live.play_hand` in a worker thread, the record saved after every move.

The person's seat is a :class:`ScreenSeat`: it puts each question on the screen and waits for the
answer. The screen only ever receives the person's views. No Textual import here.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hoola.core.game import GameState, Player
from hoola.live import make_bot, play_hand
from hoola.terminal.plain import Notation, last_move
from hoola.terminal.saves import SavedGame

__all__ = ["PacedBot", "Question", "ScreenSeat", "Stop", "TableSession"]


class Stop(Exception):
    """The person left: the deal's worker stops where it is (the record is already saved)."""


@dataclass(frozen=True, slots=True)
class Question:
    """What the person is asked: their view, and the deal's notation to list the moves."""

    view: Any
    notation: Notation


class ScreenSeat:
    """The person at the table: each question goes to the screen (``show``, called from the
    worker) and the answer comes back through :meth:`give`."""

    def __init__(self, show: Callable[[Question], None]) -> None:
        self.show = show
        self.notation: Notation | None = None
        self.answers: queue.Queue[tuple[bool, Any]] = queue.Queue()
        self.lock = threading.Lock()
        self.open: Question | None = None

    def act(self, view: Any) -> Any | None:
        """Ask the screen for a decision on ``view``; wait until it is given (or the game ends)."""
        if not view.legal:
            return None
        assert self.notation is not None, "the seat is given the deal's notation first"
        question = Question(view, self.notation)
        with self.lock:
            self.open = question
        self.show(question)
        stop, action = self.answers.get()
        if stop:
            raise Stop
        return action

    def give(self, question: Question, action: Any | None) -> bool:
        """The person's answer to ``question`` (a legal action, or None to let it pass); False
        when that question is no longer open."""
        with self.lock:
            if self.open is not question:
                return False
            self.open = None
        self.answers.put((False, action))
        return True

    def stop(self) -> None:
        """End the waiting: the deal's worker stops."""
        self.answers.put((True, None))


class PacedBot:
    """A bot that pauses before each move of its own turn, so a person can follow the play (a
    moment it may let pass it decides at once)."""

    def __init__(self, bot: Player, delay: float, stopped: threading.Event) -> None:
        self.bot = bot
        self.delay = delay
        self.stopped = stopped

    def act(self, view: Any) -> Any | None:
        """The bot's choice, after the pause on its own turn."""
        if self.stopped.is_set() or (not view.can_pass and view.legal and self.delay > 0
                                     and self.stopped.wait(self.delay)):
            raise Stop
        return self.bot.act(view)


class TableSession:
    """A saved game on the full screen: the seats, and each deal played in the calling thread.

    ``notes`` are sentences for the person about the seats (an expert bot missing).
    """

    def __init__(self, saved: SavedGame, *, bot_delay: float = 0.6) -> None:
        self.saved = saved
        self.bot_delay = bot_delay
        self.stopped = threading.Event()
        self.notes: list[str] = []
        self.bots: dict[int, Player] = {}
        for q, kind in enumerate(saved.kinds):
            if q == saved.person:
                continue
            bot, note = make_bot(saved.game, kind, saved.seed + q)
            self.bots[q] = PacedBot(bot, bot_delay, self.stopped)
            if note is not None and note not in self.notes:
                self.notes.append(note)

    def play(self, person: ScreenSeat, on_start: Callable[[Any], None],
             on_action: Callable[[Any, str | None, bool], None],
             on_problem: Callable[[str], None] | None = None) -> GameState | None:
        """Play the current deal (or the next one) to its end, in the calling thread.

        ``on_start`` gets the person's first view; ``on_action`` the person's view after each
        action, the action as the person may know it (the table's log) and whether it was their
        own; ``on_problem`` a sentence when saving fails or works again. Returns the finished
        deal, or None if the person left.
        """
        saved = self.saved
        me = saved.person
        state = saved.next_deal()
        person.notation = Notation.of(state)
        on_start(state.view(me))

        def told(s: GameState, record: Any) -> None:
            problem = saved.moved(s)
            if problem is not None and on_problem is not None:
                on_problem(problem)
            if self.stopped.is_set():
                raise Stop
            view = s.view(me)
            on_action(view, last_move(view), getattr(record, "player", None) == me)

        seats: list[Player] = [person if q == me else self.bots[q]
                               for q in range(len(saved.names))]
        try:
            play_hand(state, seats, on_action=told)
        except Stop:
            return None
        return state

    def stop(self) -> None:
        """Make a running deal's worker stop at its next step."""
        self.stopped.set()

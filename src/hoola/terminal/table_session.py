"""One person's game against bots on the full screen: each deal played by the one driver
(:func:`hoola.core.driver.play_deal`, on a :class:`~hoola.core.driver.LiveClock`) in a worker
thread, the record saved after every move.

The person's seat is a :class:`PersonSeat`: it puts each question on the screen and waits for the
answer. The screen only ever receives the person's views. No Textual import here.
"""

from __future__ import annotations

import queue
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hoola.core.driver import REACTION, LiveClock, Race, play_deal
from hoola.core.game import GameState, Player
from hoola.terminal.plain import Notation, last_move
from hoola.terminal.saves import SavedGame, seat_player

__all__ = ["REACTION", "PacedBot", "PersonSeat", "Question", "Stop", "TableSession"]


class Stop(Exception):
    """The person left: the deal's worker stops where it is (the record is already saved)."""


@dataclass(frozen=True, slots=True)
class Question:
    """What the person is asked: their view, and the deal's notation to list the moves."""

    view: Any
    notation: Notation


class PersonSeat:
    """The person at the table: each question goes to the screen, and the answer comes back
    with the moment it was given (for a race in a window: :class:`~hoola.core.driver.LiveClock`).

    ``show`` puts a question on the screen; ``withdraw`` takes it off when the window was settled
    before the person answered. Both are called from the deal's worker thread. ``pose`` makes the
    question from a view (the view itself by default).
    """

    def __init__(self, show: Callable[[Any], None],
                 withdraw: Callable[[Any], None] | None = None, *,
                 pose: Callable[[Any], Any] = lambda view: view,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.show = show
        self.withdraw = withdraw
        self.pose = pose
        self.clock = clock
        self.answers: queue.Queue[tuple[bool, Any, float]] = queue.Queue()
        self.lock = threading.Lock()
        self.open: Any = None
        self.asked_at = 0.0

    def ask(self, view: Any) -> None:
        """Put the question on ``view`` to the person, without waiting."""
        question = self.pose(view)
        with self.lock:
            self.open = question
            self.asked_at = self.clock()
        self.show(question)

    def answer(self, within: float | None) -> tuple[Any | None, float] | None:
        """The person's answer and how long after the question it came; None if none came
        ``within`` seconds (the question is then taken off the screen)."""
        try:
            timeout = None if within is None else max(0.0, self.asked_at + within - self.clock())
            stop, action, at = self.answers.get(timeout=timeout)
        except queue.Empty:
            with self.lock:
                # An answer given while the wait ran out still counts, by its own moment.
                if self.answers.empty():
                    question, self.open = self.open, None
                    if self.withdraw is not None and question is not None:
                        self.withdraw(question)
                    return None
            stop, action, at = self.answers.get_nowait()
        if stop:
            raise Stop
        return action, at

    def act(self, view: Any) -> Any | None:
        """Ask the screen for a decision on ``view``; wait until it is given (or the game ends)."""
        if not view.legal:
            return None
        self.ask(view)
        got = self.answer(None)
        assert got is not None
        return got[0]

    def give(self, action: Any | None, question: Any = None) -> bool:
        """The person's decision (a legal action of the question's view, or None to let it
        pass); False when the question (the open one, if not named) was withdrawn already."""
        with self.lock:
            if self.open is None or (question is not None and self.open is not question):
                return False
            self.open = None
            self.answers.put((False, action, self.clock() - self.asked_at))
            return True

    def stop(self) -> None:
        """End the waiting: the deal's worker stops."""
        self.answers.put((True, None, 0.0))


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

    ``bot_delay`` is the pause before each move of a bot's turn; ``reaction`` the range of a bot's
    reaction time in a window (drawn from the game's seed, window by window). ``notes`` are
    sentences for the person about the seats (an expert bot missing).
    """

    def __init__(self, saved: SavedGame, *, bot_delay: float = 0.6,
                 reaction: tuple[float, float] = REACTION) -> None:
        self.saved = saved
        self.bot_delay = bot_delay
        self.reaction = reaction
        self.reactions = random.Random(f"reaction {saved.seed}")
        self.stopped = threading.Event()
        self.notation: Notation | None = None
        self.notes: list[str] = []
        self.bots: dict[int, Player] = {}
        for q, kind in enumerate(saved.kinds):
            if q == saved.person:
                continue
            bot, note = seat_player(saved.game, kind, saved.seed + q)
            self.bots[q] = PacedBot(bot, bot_delay, self.stopped)
            if note is not None and note not in self.notes:
                self.notes.append(note)

    def play(self, person: PersonSeat, on_start: Callable[[Any], None],
             on_action: Callable[[Any, str | None, bool], None],
             on_problem: Callable[[str], None] | None = None,
             on_race: Callable[[Race], None] | None = None) -> GameState | None:
        """Play the current deal (or the next one) to its end, in the calling thread.

        ``on_start`` gets the person's first view; ``on_action`` the person's view after each
        action, the action as the person may know it (the table's log) and whether it was their
        own; ``on_problem`` a sentence when saving fails or works again; ``on_race`` how a
        contested window the person had a say in ended. Returns the finished deal, or None if the
        person left.
        """
        saved = self.saved
        me = saved.person
        state = saved.next_deal()
        self.notation = Notation.of(state)
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
        clock = LiveClock(me, person, reaction=self.reaction, rng=self.reactions,
                          on_race=on_race, pause=self.pause)
        try:
            play_deal(state, seats, on_action=told, clock=clock)
        except Stop:
            return None
        return state

    def pause(self, seconds: float) -> None:
        """Wait ``seconds`` (a bot's decision is due), unless the person leaves meanwhile."""
        if self.stopped.wait(seconds):
            raise Stop

    def stop(self) -> None:
        """Make a running deal's worker stop at its next step."""
        self.stopped.set()

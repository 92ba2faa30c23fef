"""One person's match against bots on the full screen: the seats, each deal run by
:func:`hoola.play.play_deal` with a live claim window, the record saved after every move.

The deal runs in a worker thread with the engine's own driver, so the screen plays by exactly the
rules of the plain game: the person's seat is a :class:`PersonSeat` that puts each question on
the screen and waits for the answer. The screen only ever receives the person's view.
"""

from __future__ import annotations

import queue
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path

from hoola.bots import make_bot
from hoola.games.hoola.actions import Action, Draw
from hoola.games.hoola.match import Match
from hoola.games.hoola.state import DealState
from hoola.games.hoola.views import View
from hoola.play import ClaimRace, LiveWindow, Player, play_deal
from hoola.terminal.saves import MatchPlan, SavedMatch

__all__ = ["REACTION", "MatchPlan", "PacedBot", "PersonSeat", "Session", "Stop"]

REACTION = (0.8, 1.5)  # seconds a bot takes to claim a discard: a quick person can beat it


class Stop(Exception):
    """The person left: the deal's worker stops where it is (the record is already saved)."""


class PersonSeat:
    """The person at the table: each question goes to the screen, and the answer comes back
    with the moment it was given (for the race for a discard).

    ``show`` puts a question on the screen; ``withdraw`` takes it off when the window closed
    before the person answered. Both are called from the deal's worker thread.
    """

    def __init__(self, show: Callable[[View], None],
                 withdraw: Callable[[View], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.show = show
        self.withdraw = withdraw
        self.clock = clock
        self.answers: queue.Queue[tuple[bool, Action | None, float]] = queue.Queue()
        self.lock = threading.Lock()
        self.open = False
        self.asked_at = 0.0
        self.view: View | None = None

    def ask(self, view: View) -> None:
        """Put the question on ``view`` to the person, without waiting."""
        with self.lock:
            self.open = True
            self.asked_at = self.clock()
            self.view = view
        self.show(view)

    def answer(self, within: float | None) -> tuple[Action | None, float] | None:
        """The person's answer and how long after the question it came; None if none came
        ``within`` seconds (the question is then taken off the screen)."""
        try:
            timeout = None if within is None else max(0.0, self.asked_at + within - self.clock())
            stop, action, at = self.answers.get(timeout=timeout)
        except queue.Empty:
            with self.lock:
                # An answer given while the wait ran out still counts, by its own moment.
                if self.answers.empty():
                    self.open = False
                    if self.withdraw is not None and self.view is not None:
                        self.withdraw(self.view)
                    return None
            stop, action, at = self.answers.get_nowait()
        if stop:
            raise Stop
        return action, at

    def act(self, view: View) -> Action | None:
        """Ask the screen for a decision on ``view``; wait until it is given (or the game ends)."""
        if not view.legal:
            return None
        self.ask(view)
        got = self.answer(None)
        assert got is not None
        return got[0]

    def give(self, action: Action | None) -> bool:
        """The person's decision (a legal action of the question's view, or None to let the
        discard go); False if the question was withdrawn already."""
        with self.lock:
            if not self.open:
                return False
            self.open = False
            self.answers.put((False, action, self.clock() - self.asked_at))
            return True

    def stop(self) -> None:
        """End the waiting: the deal's worker stops."""
        self.answers.put((True, None, 0.0))


class PacedBot:
    """A bot that waits a moment before acting on its own turn, so a person can follow the play.

    In a claim window it decides at once; the window gives its claim a reaction time.
    """

    def __init__(self, bot: Player, delay: float, stopped: threading.Event) -> None:
        self.bot = bot
        self.delay = delay
        self.stopped = stopped

    def act(self, view: View) -> Action | None:
        """The bot's choice, after the pause on its own turn."""
        if self.stopped.is_set() or (not view.can_pass and self.delay > 0
                                     and self.stopped.wait(self.delay)):
            raise Stop
        return self.bot.act(view)


class Session(SavedMatch):
    """A match between one person and bots on the full screen, saved after every move.

    ``bot_delay`` is the pause before each move of a bot's turn; ``reaction`` the range of a bot's
    reaction time in a claim window (drawn from the session's seed, window by window).
    """

    def __init__(self, match: Match, plan: MatchPlan, path: Path, *, seed: int,
                 bot_delay: float = 0.6, reaction: tuple[float, float] = REACTION) -> None:
        super().__init__(match, plan, path, seed=seed)
        self.rng = random.Random(seed)
        self.reactions = random.Random(f"reaction {seed}")
        self.stopped = threading.Event()
        self.bot_delay = bot_delay
        self.reaction = reaction

    def players(self, person: PersonSeat) -> list[Player]:
        """The seats: the person, and each bot paced for the screen."""
        seats: list[Player] = []
        for q, kind in enumerate(self.kinds):
            if q == self.person:
                seats.append(person)
            else:
                seats.append(PacedBot(make_bot(kind, self.seed + q), self.bot_delay,
                                      self.stopped))
        return seats

    def play(self, person: PersonSeat, on_action: Callable[[View, Action, int | None], None],
             on_start: Callable[[View], None],
             on_race: Callable[[ClaimRace], None] | None = None,
             on_problem: Callable[[str], None] | None = None) -> DealState | None:
        """Play the current deal (or the next one) to its end, in the calling thread.

        ``on_start`` gets the person's first view; ``on_action`` each public action with the
        person's view after it (and the card the person drew, for their own draws); ``on_race``
        how a claim window the person had a say in ended; ``on_problem`` a sentence when saving
        fails or works again. Returns the finished deal, or None if the person left.
        """
        state = self.next_deal()
        on_start(state.view(self.person))

        def told(s: DealState, record: Action) -> None:
            public = Draw(record.player) if isinstance(record, Draw) else record
            drawn = record.card if isinstance(record, Draw) and record.player == self.person \
                else None
            problem = self.moved(s)
            if problem is not None and on_problem is not None:
                on_problem(problem)
            if self.stopped.is_set():
                raise Stop
            on_action(s.view(self.person), public, drawn)

        window = LiveWindow(self.person, person, reaction=self.reaction, rng=self.reactions,
                            on_race=on_race, pause=self._pause)
        try:
            play_deal(state, self.players(person), self.rng, on_action=told, window=window)
        except Stop:
            return None
        return state

    def _pause(self, seconds: float) -> None:
        if self.stopped.wait(seconds):
            raise Stop

    def stop(self) -> None:
        """Make a running deal's worker stop at its next step."""
        self.stopped.set()

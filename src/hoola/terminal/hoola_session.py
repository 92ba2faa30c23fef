"""One person's Hoola match against bots on Hoola's own full screen: the seats, each deal run by
the one driver (:func:`hoola.core.driver.play_deal` on a :class:`~hoola.core.driver.LiveClock`),
the record saved after every move.

The deal runs in a worker thread, so the screen plays by exactly the rules of the plain game: the
person's seat is a :class:`~hoola.terminal.table_session.PersonSeat` that puts each question on
the screen and waits for the answer. The screen only ever receives the person's view.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from pathlib import Path

from hoola.bots import make_bot
from hoola.core.driver import LiveClock, Race, play_deal
from hoola.core.game import Player
from hoola.games.hoola.actions import Action, Draw
from hoola.games.hoola.match import Match
from hoola.games.hoola.state import DealState
from hoola.games.hoola.views import View
from hoola.terminal.saves import MatchPlan, SavedMatch
from hoola.terminal.table_session import REACTION, PacedBot, PersonSeat, Stop

__all__ = ["REACTION", "MatchPlan", "PersonSeat", "Session", "Stop"]


class Session(SavedMatch):
    """A match between one person and bots on the full screen, saved after every move.

    ``bot_delay`` is the pause before each move of a bot's turn; ``reaction`` the range of a bot's
    reaction time in a claim window (drawn from the session's seed, window by window).
    """

    def __init__(self, match: Match, plan: MatchPlan, path: Path, *, seed: int,
                 bot_delay: float = 0.6, reaction: tuple[float, float] = REACTION) -> None:
        super().__init__(match, plan, path, seed=seed)
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
             on_race: Callable[[Race], None] | None = None,
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

        clock = LiveClock(self.person, person, reaction=self.reaction, rng=self.reactions,
                          on_race=on_race, pause=self._pause)
        try:
            play_deal(state, self.players(person), on_action=told, clock=clock)
        except Stop:
            return None
        return state

    def _pause(self, seconds: float) -> None:
        if self.stopped.wait(seconds):
            raise Stop

    def stop(self) -> None:
        """Make a running deal's worker stop at its next step."""
        self.stopped.set()

"""One person's match against bots: the seats, each deal run by :func:`hoola.play.play_deal`,
the record saved after every move, and resuming a saved match.

The deal runs in a worker thread with the engine's own driver, so the screen plays by exactly the
rules of the plain game: the person's seat is a :class:`PersonSeat` whose ``act`` asks the screen
and waits for the answer. The screen only ever receives the person's view.

>>> plan = MatchPlan("You", ("greedy", "random"), 3)
>>> MatchPlan.from_comment(plan.comment(), ["You", "Greedy1", "Random2"]) == plan
True
"""

from __future__ import annotations

import os
import queue
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from hoola.actions import Action, Draw
from hoola.bots import make_bot
from hoola.match import Match
from hoola.play import Player, play_deal
from hoola.records import dumps, load, record_of, resume_match
from hoola.rules import Rules
from hoola.state import DealState
from hoola.views import View

__all__ = ["MatchPlan", "PacedBot", "PersonSeat", "Session", "Stop"]

META = "# hoola play:"


class Stop(Exception):
    """The person left: the deal's worker stops where it is (the record is already saved)."""


@dataclass(frozen=True, slots=True)
class MatchPlan:
    """Who the person is, which bots sit at the other seats (in seat order), how many deals."""

    you: str
    bots: tuple[str, ...]
    deals: int

    def comment(self) -> str:
        """The record's first line, so that ``--resume`` knows the match as it was set up."""
        return f"{META} you={self.you} bots={','.join(self.bots)} deals={self.deals}\n"

    @classmethod
    def from_comment(cls, comment: str, players: Sequence[str]) -> MatchPlan:
        """The plan a record's comment names; for other records: the first player against
        greedy bots, as many deals as recorded."""
        fields: dict[str, str] = {}
        for line in comment.splitlines():
            if line.startswith(META):
                fields = dict(w.partition("=")[::2] for w in line[len(META):].split())
        you = fields.get("you", players[0])
        if you not in players:
            you = players[0]
        bots = tuple(b for b in fields.get("bots", "").split(",") if b)
        if len(bots) != len(players) - 1:
            bots = ("greedy",) * (len(players) - 1)
        deals = fields.get("deals", "")
        return cls(you, bots, int(deals) if deals.isdigit() and int(deals) > 0 else 0)


class PersonSeat:
    """The person at the table: ``act`` shows the question on the screen and waits for a key."""

    def __init__(self, ask: Callable[[View], None]) -> None:
        self.ask = ask
        self.answers: queue.Queue[tuple[bool, Action | None]] = queue.Queue()

    def act(self, view: View) -> Action | None:
        """Ask the screen for a decision on ``view``; wait until it is given (or the game ends)."""
        if not view.legal:
            return None
        self.ask(view)
        stop, action = self.answers.get()
        if stop:
            raise Stop
        return action

    def answer(self, action: Action | None) -> None:
        """The person's decision: an action from the view's legal ones, or None to let it go."""
        self.answers.put((False, action))

    def stop(self) -> None:
        """End the waiting: the deal's worker stops."""
        self.answers.put((True, None))


class PacedBot:
    """A bot that waits a moment before acting on its own turn, so a person can follow the play.

    In a claim window it decides at once: bots decide in the same window as the person.
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


class Session:
    """A match between one person and bots, saved to ``path`` after every move."""

    def __init__(self, match: Match, plan: MatchPlan, path: Path, *, seed: int,
                 bot_delay: float = 0.6) -> None:
        if plan.deals < 1:
            plan = MatchPlan(plan.you, plan.bots, max(len(match.deals), 1))
        self.match = match
        self.plan = plan
        self.path = path
        self.seed = seed
        self.names = match.names
        self.person = self.names.index(plan.you)
        self.rng = random.Random(seed)
        self.stopped = threading.Event()
        self.bot_delay = bot_delay
        kinds = iter(plan.bots)
        self.kinds = ["you" if q == self.person else next(kinds) for q in range(len(self.names))]

    @classmethod
    def new(cls, rules: Rules, *, players: int = 4, bots: Sequence[str] = ("greedy",),
            seed: int | None = None, deals: int = 1, name: str = "You",
            path: Path, bot_delay: float = 0.6) -> Session:
        """A new match: the person in the first seat, bots named after their kind."""
        seed = seed if seed is not None else random.randrange(2**31)
        kinds = tuple(bots[i % len(bots)] for i in range(players - 1))
        names = [name] + [f"{kind.capitalize()}{i}" for i, kind in enumerate(kinds, 1)]
        return cls(Match(rules, names, seed=seed), MatchPlan(name, kinds, deals), path, seed=seed,
                   bot_delay=bot_delay)

    @classmethod
    def resume(cls, path: Path, *, seed: int | None = None, bot_delay: float = 0.6) -> Session:
        """The match saved at ``path``, its unfinished deal continued where it stopped."""
        record = load(path)
        seed = seed if seed is not None else random.randrange(2**31)
        match = resume_match(record, seed=seed)
        return cls(match, MatchPlan.from_comment(record.comment, record.players), path,
                   seed=seed, bot_delay=bot_delay)

    # -- the match ----------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules of the match."""
        return self.match.rules

    @property
    def deal_number(self) -> int:
        """The number of the deal being played (or last played), from 1."""
        return max(len(self.match.deals), 1)

    @property
    def finished_deals(self) -> int:
        """How many deals are over."""
        return sum(1 for s in self.match.deals if s.is_over)

    @property
    def is_over(self) -> bool:
        """Whether every deal of the match has been played."""
        return self.finished_deals >= self.plan.deals

    def deal_results(self) -> list[tuple[int, dict[int, Fraction]]]:
        """Each finished deal's number and payments, for the running score."""
        return [(i, dict(s.result.payments)) for i, s in enumerate(self.match.deals, 1)
                if s.result is not None]

    def save(self) -> None:
        """Write the record of the match so far (``hoola verify`` accepts it)."""
        if not self.match.deals:
            return
        totals = self.match.totals if self.plan.deals > 1 and self.finished_deals else None
        record = record_of(self.match.deals, rules=self.rules, totals=totals,
                           comment=self.plan.comment())
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Write aside, then replace: whoever reads the file never sees half a record.
        part = self.path.with_name(self.path.name + ".part")
        part.write_text(dumps(record), encoding="utf-8")
        os.replace(part, self.path)

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
             on_start: Callable[[View], None]) -> DealState | None:
        """Play the current deal (or the next one) to its end, in the calling thread.

        ``on_start`` gets the person's first view; ``on_action`` each public action with the
        person's view after it (and the card the person drew, for their own draws). Returns the
        finished deal, or None if the person left.
        """
        deals = self.match.deals
        state = deals[-1] if deals and not deals[-1].is_over else self.match.new_deal()
        self.save()
        on_start(state.view(self.person))

        def told(s: DealState, record: Action) -> None:
            public = Draw(record.player) if isinstance(record, Draw) else record
            drawn = record.card if isinstance(record, Draw) and record.player == self.person \
                else None
            if s.is_over:
                self.match.finish_deal()
            self.save()
            if self.stopped.is_set():
                raise Stop
            on_action(s.view(self.person), public, drawn)

        try:
            play_deal(state, self.players(person), self.rng, on_action=told)
        except Stop:
            return None
        return state

    def stop(self) -> None:
        """Make a running deal's worker stop at its next step."""
        self.stopped.set()

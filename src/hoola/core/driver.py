"""The one driver of a deal with players (bots, or a person at a terminal) who only ever see their
own views: the lab, both terminal games and the searches play through :func:`play_deal`; the game
server drives the same flow (:mod:`hoola.core.flow`) from its sockets, on the real clock.

A moment with one seat to act asks that seat. A *window* (several seats may act, some may let it
pass: a claim on a Hoola discard, a Kalookie warning) is put to its seats by a *clock*, which says
when each decision arrived: :class:`Instant` for the lab (every decision at the same moment, in
turn order or, given ``rng``, in a random order: who reaches a real table first is chance) and
:class:`LiveClock` for one person against bots (each bot takes a human reaction time, the person
answers in real time). The decisions are taken in the order they arrived; the decision of the
seat that must act closes the window (those arriving later come too late, those at the same
moment count), and the game's :meth:`~hoola.core.game.GameState.resolve` says which one stands.

>>> from hoola.core.registry import get_game
>>> from hoola.bots.random import RandomBot
>>> game = get_game("kalookie")
>>> state = game.new_deal(game.rules(), ["A", "B"], seed=1)
>>> play_deal(state, [RandomBot(1), RandomBot(2)]).is_over
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from hoola.core.errors import IllegalActionError
from hoola.core.flow import FlowError, Moment, close, decide
from hoola.core.game import GameState, Player

__all__ = ["REACTION", "Arrival", "Clock", "Instant", "LiveClock", "Person", "Race", "next_action",
           "play_deal", "turn_of", "turn_order"]

S = TypeVar("S", bound=GameState)

REACTION = (0.8, 1.5)
"""Seconds a bot takes to act in a window, by default: a quick person can beat it."""


def turn_order(actors: frozenset[int], first: int, seats: int) -> list[int]:
    """``actors`` in play order, starting from seat ``first``."""
    return sorted(actors, key=lambda q: (q - first) % seats)


def turn_of(state: GameState) -> int:
    """The seat whose turn it is (the first actor when the game does not say)."""
    current = getattr(state, "current", None)
    if isinstance(current, int) and not isinstance(current, bool):
        return current
    return min(state.actors())


@dataclass(frozen=True, slots=True)
class Arrival:
    """A seat's decision in a window and when it arrived: seconds after the window opened
    (``math.inf``: when the window closes, as a bot's own draw lets everyone claim first).
    ``action`` None lets the window pass (or, from a person, came no answer in time)."""

    seat: int
    action: Any | None
    at: float = 0.0


class Clock(Protocol):
    """How a window is put to its seats, and what they hear of how it ended."""

    def ask(self, state: GameState, moment: Moment, views: Mapping[int, Any],
            players: Sequence[Player]) -> list[Arrival]:
        """Every decision of the window's seats (``views`` in turn order), with its time."""
        ...

    def heard(self, state: GameState, moment: Moment, chosen: Any,
              arrivals: Sequence[Arrival]) -> None:
        """Hear that the window ends with ``chosen``, before it is played."""
        ...


class Instant:
    """The lab's clock: every seat asked in turn order from the seat to move (given ``rng``, in a
    random order), every decision at the same moment."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng

    def ask(self, state: GameState, moment: Moment, views: Mapping[int, Any],
            players: Sequence[Player]) -> list[Arrival]:
        """Each seat's decision, all at 0."""
        order = list(views)
        if self.rng is not None:
            self.rng.shuffle(order)
        return [Arrival(q, players[q].act(views[q])) for q in order]

    def heard(self, state: GameState, moment: Moment, chosen: Any,
              arrivals: Sequence[Arrival]) -> None:
        """Nothing to tell."""


def play_deal(state: S, players: Sequence[Player],
              on_action: Callable[[S, Any], None] | None = None, *,
              rng: random.Random | None = None, clock: Clock | None = None,
              max_actions: int = 1_000_000) -> S:
    """Play ``state`` to its end (after-deal decisions such as buy-ins included), asking each
    player for decisions through its view; ``on_action`` hears each applied action's record.
    ``clock`` puts the windows to their seats (:class:`Instant` with ``rng`` by default)."""
    seats = len(state.names)
    if len(players) != seats:
        raise ValueError(f"{len(players)} players for a deal of {seats} seats")
    clock = clock if clock is not None else Instant(rng)
    for counter in range(max_actions):
        if state.is_over:
            return state
        record = state.apply(next_action(state, players, clock, counter))
        if on_action is not None:
            on_action(state, record)
    raise IllegalActionError(f"the deal did not end within {max_actions} actions", "too-long")


def next_action(state: GameState, players: Sequence[Player], clock: Clock | None = None,
                counter: int = 0) -> Any:
    """The action the moment ``state`` is at ends with (not applied): the one seat's, or the one
    that stands in a window put to its seats by ``clock`` (:class:`Instant` by default)."""
    actors = state.actors()
    if len(actors) == 1:
        (seat,) = actors
        action = players[seat].act(state.view(seat))
        if action is None:
            raise IllegalActionError(f"{state.names[seat]} must act now and cannot pass",
                                     "must-act")
        return action
    if not actors:
        raise IllegalActionError("nobody may act, yet the deal is not over", "stuck")
    clock = clock if clock is not None else Instant()
    views = {q: state.view(q) for q in turn_order(actors, turn_of(state), len(state.names))}
    passers = frozenset(q for q, v in views.items() if v.can_pass)
    moment = Moment(counter, actors, passers)
    arrivals = clock.ask(state, moment, views, players)
    closes = math.inf
    for arrival in sorted(arrivals, key=lambda a: a.at):
        if arrival.at > closes or (arrival.action is None and arrival.at == math.inf
                                   and arrival.seat not in passers):
            continue  # too late (the window closed), or no answer came
        try:
            chosen = decide(state, moment, arrival.seat, arrival.action)
        except FlowError as error:  # a player's decision the moment does not take
            raise IllegalActionError(str(error), error.code) from None
        if chosen is not None:  # several seats, none of which may pass: the first one stands
            return chosen
        if arrival.seat in moment.mandatory:
            closes = arrival.at  # the seat to move moved: the window closes
    close(moment)
    chosen = state.resolve(moment.decisions)
    if chosen is None:
        who = ", ".join(state.names[q] for q in sorted(moment.mandatory)) or "the seat to move"
        raise IllegalActionError(f"{who} must act now and cannot pass", "must-act")
    clock.heard(state, moment, chosen, arrivals)
    return chosen


# -- one person against bots, in real time -----------------------------------------------------

class Person(Player, Protocol):
    """A person at the table, whose answers take time: asked first, waited for after."""

    def ask(self, view: Any) -> None:
        """Put the question on ``view`` to the person (without waiting for the answer)."""
        ...

    def answer(self, within: float | None) -> tuple[Any | None, float] | None:
        """The answer to the last question and how many seconds after it was put it came; None
        if none came ``within`` seconds (the question is then withdrawn)."""
        ...


@dataclass(frozen=True, slots=True)
class Race:
    """How a contested window the person had a say in ended, for telling them.

    ``claimants`` are the seats whose decisions came in time and raced, first first (the seat
    to move's ordinary move is left out when it lost); ``by_turn`` whether the winner won by the
    game's order of precedence (it would have stood had it come last), not by speed; ``mine`` the
    person's
    decision (None: they let it pass, or had not answered, as ``answered`` says). ``said`` is
    the winning action in the game's notation.
    """

    winner: Any
    said: str
    claimants: tuple[int, ...]
    by_turn: bool
    mine: Any | None
    answered: bool


class LiveClock:
    """A window in real time between one person (seat ``person``) and bots.

    Each bot takes a reaction time drawn for it in every window (uniform in ``reaction``, from
    ``rng``) before a decision that does not let the window pass counts, or longer if it thinks
    longer; the seat to move's own ordinary move, when a bot's, waits for the window (a move of
    the kind the others race for, such as a claim on the discard, races with them). The person
    is asked first and waited for, until the bots' decisions settle the window whatever the
    person does (under Hoola's ``battle`` the first claim; under ``battle-next-priority`` a claim
    by the seat next in turn): a person still deciding is then cut off.
    ``on_race`` hears every contested window the person took part in or was cut off from;
    ``pause`` waits (seconds) until a winning bot's decision is due.
    """

    def __init__(self, person: int, seat: Player, *, rng: random.Random,
                 reaction: tuple[float, float] = REACTION,
                 on_race: Callable[[Race], None] | None = None,
                 pause: Callable[[float], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.person = person
        self.seat = seat
        self.reaction = reaction
        self.rng = rng
        self.on_race = on_race
        self.pause = pause
        self.clock = clock
        self.opened = 0.0
        self.raced: set[type] = set()
        self.asked: Any = None  # the person's view in the window, when asked

    def ask(self, state: GameState, moment: Moment, views: Mapping[int, Any],
            players: Sequence[Player]) -> list[Arrival]:
        """Ask the person, let the bots decide meanwhile, then wait for the person's answer."""
        self.opened = self.clock()
        me = self.person
        asking = me in views and bool(views[me].legal)
        self.asked = views[me] if asking else None
        ask = getattr(self.seat, "ask", None)
        if asking and ask is not None:
            ask(views[me])
        # What the seats that may let the window pass race for (a claim on the discard): the
        # seat to move racing for it too is timed like them; its own ordinary move waits.
        self.raced = raced = {type(a) for q in moment.passers for a in views[q].legal}
        arrivals: list[Arrival] = []
        # The seat to move last: a bot's pause before its own move must not delay the others.
        for q in sorted(views, key=lambda q: q in moment.mandatory):
            if q == me:
                continue
            due = self.rng.uniform(*self.reaction)
            started = self.clock()
            action = players[q].act(views[q])
            timed = action is not None and (q in moment.passers or type(action) in raced)
            arrivals.append(Arrival(q, action, max(due, self.clock() - started) if timed
                                    else math.inf))
        if asking:
            arrivals.append(self._answer(state, views[me], arrivals))
        return arrivals

    def _answer(self, state: GameState, view: Any, arrivals: Sequence[Arrival]) -> Arrival:
        answer = getattr(self.seat, "answer", None)
        if answer is None:  # a seat that only acts: its answer comes when it is given
            started = self.clock()
            action = self.seat.act(view)
            return Arrival(self.person, action, self.clock() - started)
        got = answer(_settled_by(state, view, arrivals))
        if got is None:
            return Arrival(self.person, None, math.inf)
        return Arrival(self.person, got[0], got[1])

    def heard(self, state: GameState, moment: Moment, chosen: Any,
              arrivals: Sequence[Arrival]) -> None:
        """Wait until the winning bot's decision is due, and tell the person how the race went."""
        winner = chosen
        me = self.person
        by = {a.seat: a for a in arrivals}
        won = by.get(winner.player)
        if winner.player != me and won is not None and won.at != math.inf:
            wait = self.opened + won.at - self.clock()
            if self.pause is not None and wait > 0:
                self.pause(wait)
        mine = by.get(me)
        if mine is None or self.on_race is None:
            return
        counted = sorted((a for a in arrivals if a.seat in moment.decided and a.action is not None
                          and (a.seat in moment.passers or type(a.action) in self.raced
                               or a.seat == winner.player)), key=lambda a: a.at)
        claimants = tuple(a.seat for a in counted)
        answered = mine.at != math.inf
        raced = won is not None and won.at != math.inf  # not the seat to move's ordinary move
        lost = winner.player != me and raced and (not answered or mine.action is not None)
        if lost or (winner.player == me and len(claimants) > 1):
            others = [a.action for a in counted if a.action is not winner]
            # Won by the game's order: it would have stood had it come last (against what the
            # person might have done, when they were cut off).
            if not answered and self.asked is not None:
                mights = [a for a in self.asked.legal if type(a) in self.raced]
                by_turn = bool(mights) and all(
                    state.resolve([a, *others, winner]) is winner for a in mights)
            else:
                by_turn = bool(others) and state.resolve([*others, winner]) is winner
            self.on_race(Race(winner, state.format(winner), claimants, by_turn, mine.action,
                              answered))


def _settled_by(state: GameState, view: Any, arrivals: Sequence[Arrival]) -> float | None:
    """The earliest moment at which the bots' decisions settle the window whatever the person
    (``view``) decides: then the person's question is withdrawn. None: it waits for them."""
    made: list[Any] = []
    for arrival in sorted(arrivals, key=lambda a: a.at):
        if arrival.action is None or arrival.at == math.inf:
            continue
        made.append(arrival.action)
        chosen = state.resolve(made)
        if chosen is not None and all(state.resolve([*made, a]) is chosen for a in view.legal):
            return arrival.at
    return None

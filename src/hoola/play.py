"""Driving a deal with players (bots or people) who only ever see their own views.

A claim window asks every eligible player; :func:`settle_window` decides which decision is
played, by the rules' ``claims`` option (ruling 2) and, in a live game, by when each decision came
(:class:`LiveWindow`: the first claim wins the battle, and bots take a human time to react).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from hoola.core.cards import format_card
from hoola.core.errors import IllegalActionError
from hoola.games.hoola.actions import Action, Draw, Sevens, Take
from hoola.games.hoola.state import DealState
from hoola.games.hoola.text import players_named
from hoola.games.hoola.views import View

__all__ = [
    "ClaimRace",
    "ClaimWindow",
    "Decision",
    "LiveWindow",
    "Person",
    "Player",
    "describe_race",
    "play_deal",
    "resolve_claims",
    "settle_window",
]


class Player(Protocol):
    """Anything that chooses an action from a view: a bot, a person at a terminal, a socket."""

    def act(self, view: View) -> Action | None:
        """An action from ``view.legal``, or None to pass (only when ``view.can_pass``)."""
        ...


@dataclass(frozen=True, slots=True)
class Decision:
    """One player's decision in a claim window, and when it came.

    ``at`` is in seconds from the moment the window was put to that player; None means the
    decision waits for the window to close (a bot's own draw lets everyone claim first). A
    simulation has no clock: every decision comes at 0.
    """

    seat: int
    action: Action | None
    at: float | None = 0.0

    @property
    def time(self) -> float:
        """``at``, with "when the window closes" as infinity."""
        return math.inf if self.at is None else self.at


def resolve_claims(state: DealState, claims: Sequence[Take], rng: random.Random,
                   times: Sequence[float] | None = None) -> Take:
    """The claim that wins the discard among several (ruling 2).

    ``battle``: the first claim (by ``times``; claims made at the same moment, as all are in a
    simulation, drawn at random); ``battle-next-priority``: the claimant whose turn would come
    soonest; ``next-only``: the next player (others cannot claim).
    """
    if not claims:
        raise ValueError("no claims to resolve")
    if state.rules.claims == "battle":
        if times is None:
            return rng.choice(list(claims))
        first = min(times)
        return rng.choice([c for c, t in zip(claims, times, strict=True) if t == first])
    return min(claims, key=lambda a: (a.player - state.current) % state.n)


def settle_window(state: DealState, decisions: Sequence[Decision],
                  rng: random.Random) -> tuple[Action, list[Decision]]:
    """The action a claim window ends with, and the claims that came in time for it.

    Four sevens shown come first. The next player's own move closes the window: claims made
    before it win (a claim made at the same moment beats a draw, not a declaration such as a
    knock), claims made after it come too late. With no claim, the next player's move is played.
    Raises ``must-act`` when the next player passed and nobody claimed.
    """
    current = state.current
    own = next((d for d in decisions if d.seat == current and d.action is not None
                and not isinstance(d.action, Take | Sevens)), None)
    closes = own.time if own is not None else math.inf
    draws = own is not None and isinstance(own.action, Draw)
    sevens = [d for d in decisions if isinstance(d.action, Sevens) and d.time <= closes]
    if sevens:
        first = min(d.time for d in sevens)
        shown = [d.action for d in sevens if d.time == first and isinstance(d.action, Sevens)]
        return rng.choice(shown), sevens
    claims = [d for d in decisions if isinstance(d.action, Take)
              and (d.time < closes or (d.time == closes and draws))]
    if claims:
        takes = [d.action for d in claims if isinstance(d.action, Take)]
        winner = resolve_claims(state, takes, rng, [d.time for d in claims])
        return winner, sorted(claims, key=lambda d: d.time)
    if own is not None and own.action is not None:
        return own.action, []
    raise IllegalActionError(f"{state.names[current]} must act now and cannot pass", "must-act")


class ClaimWindow:
    """How a claim window is put to the players: each asked in turn order, every decision
    coming at the same moment (the simulation's window). :class:`LiveWindow` adds the clock."""

    def decide(self, state: DealState, actors: Sequence[int],
               players: Sequence[Player]) -> list[Decision]:
        """Every actor's decision (``actors`` in turn order from the next player)."""
        return [Decision(seat, players[seat].act(state.view(seat))) for seat in actors]

    def settled(self, state: DealState, decisions: Sequence[Decision], action: Action,
                in_time: Sequence[Decision]) -> None:
        """Hear how the window ended, before ``action`` is played (nothing to do here)."""


def play_deal(state: DealState, players: Sequence[Player], rng: random.Random | None = None,
              on_action: Callable[[DealState, Action], None] | None = None,
              window: ClaimWindow | None = None) -> DealState:
    """Play ``state`` to its end, asking each player for decisions through its view.

    A claim window is put to the players by ``window`` (the simulation's by default).
    """
    if len(players) != state.n:
        raise ValueError(f"{len(players)} players for a deal of {state.n} seats")
    rng = rng if rng is not None else state.rng
    window = window if window is not None else ClaimWindow()
    while not state.is_over:
        actors = state.actors()
        if len(actors) == 1:
            (seat,) = actors
            action = players[seat].act(state.view(seat))
            if action is None:
                raise IllegalActionError(f"{state.names[seat]} must act now and cannot pass",
                                         "must-act")
            _apply(state, action, on_action)
            continue
        current = state.current
        order = sorted(actors, key=lambda q: (q - current) % state.n)
        decisions = window.decide(state, order, players)
        action, in_time = settle_window(state, decisions, rng)
        window.settled(state, decisions, action, in_time)
        _apply(state, action, on_action)
    return state


def _apply(state: DealState, action: Action,
           on_action: Callable[[DealState, Action], None] | None) -> None:
    record = state.apply(action)
    if on_action is not None:
        on_action(state, record)


# -- a live window: one person against bots, in real time ----------------------------------------

class Person(Player, Protocol):
    """A person at the table, whose answers take time: asked first, waited for after."""

    def ask(self, view: View) -> None:
        """Put the question on ``view`` to the person (without waiting for the answer)."""
        ...

    def answer(self, within: float | None) -> tuple[Action | None, float] | None:
        """The answer to the last question and how many seconds after it was put it came; None
        if none came ``within`` seconds (the question is then withdrawn)."""
        ...


@dataclass(frozen=True, slots=True)
class ClaimRace:
    """How a claim window the person had a say in ended, for telling them.

    ``claimants`` are the seats whose claims came in time, first first (the winner among them);
    ``mine`` is the person's own decision (None: they had not answered when the window closed).
    """

    card: int
    winner: Action
    claimants: tuple[int, ...]
    mine: Action | None
    answered: bool
    by_turn: bool


def describe_race(race: ClaimRace, names: Sequence[str], me: int,
                  label: Callable[[int], str] = format_card) -> str:
    """What a claim window the person had a say in came to: "Greedy3 was quicker and took Q♦."

    ``label`` names a card (``Qd`` by default; the full screen draws ``Q♦``).
    """
    card = label(race.card)
    winner = race.winner.player
    others = [q for q in race.claimants if q not in (winner, me)]
    if winner == me:
        if race.by_turn:
            return f"You took {card}: your turn comes before {players_named(names, others, me)}'s."
        return f"You were quicker than {players_named(names, others, me)} and took {card}."
    who = names[winner]
    if isinstance(race.mine, Draw):
        return f"{who} claimed {card} before you drew."
    if race.by_turn and race.answered:
        return f"{who} took {card}: {who}'s turn comes before yours."
    if race.answered or not isinstance(race.winner, Take):
        return f"{who} was quicker and took {card}."
    return f"{who} was quicker and took {card} before you answered."


class LiveWindow(ClaimWindow):
    """A claim window in real time between one person and bots.

    Each bot takes a reaction time drawn for it in every window (uniform in ``reaction``, from
    ``rng``) before its claim counts, or longer if it thinks longer; a bot's own draw waits for
    the window. Under ``battle`` the first claim wins and closes the window at once: a person
    still deciding is cut off. ``on_race`` hears every window the person claimed in, was cut off
    from, or won against others; ``pause`` waits (seconds) until a bot's claim is due.
    """

    def __init__(self, person: int, seat: Person, *, reaction: tuple[float, float],
                 rng: random.Random, on_race: Callable[[ClaimRace], None] | None = None,
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

    def decide(self, state: DealState, actors: Sequence[int],
               players: Sequence[Player]) -> list[Decision]:
        """Ask the person, let the bots decide meanwhile, then wait for the person's answer
        (under ``battle`` no longer than the first bot's claim)."""
        self.opened = self.clock()
        asking = self.person in actors
        if asking:
            self.seat.ask(state.view(self.person))
        decisions: list[Decision] = []
        # The next player last: a bot's pause before its own move must not delay the claimants.
        for seat in sorted(actors, key=lambda q: q == state.current):
            if seat == self.person:
                continue
            due = self.rng.uniform(*self.reaction)
            started = self.clock()
            action = players[seat].act(state.view(seat))
            claims = isinstance(action, Take | Sevens)
            decisions.append(Decision(seat, action,
                                      max(due, self.clock() - started) if claims else None))
        if asking:
            within = None
            if state.rules.claims == "battle":
                within = min((d.time for d in decisions if isinstance(d.action, Take)),
                             default=None)
            got = self.seat.answer(within)
            decisions.append(Decision(self.person, None, None) if got is None
                             else Decision(self.person, got[0], got[1]))
        return decisions

    def settled(self, state: DealState, decisions: Sequence[Decision], action: Action,
                in_time: Sequence[Decision]) -> None:
        """Wait until the winning bot's claim is due, and tell the person how the race went."""
        mine = next((d for d in decisions if d.seat == self.person), None)
        if isinstance(action, Take | Sevens) and action.player != self.person:
            due = next((d.time for d in in_time if d.action == action), 0.0)
            wait = self.opened + due - self.clock()
            if self.pause is not None and wait > 0:
                self.pause(wait)
        if mine is None or self.on_race is None or not isinstance(action, Take):
            return
        claimants = tuple(d.seat for d in in_time)
        answered = mine.at is not None
        # The person lost the race if they claimed, drew, or had not answered yet.
        lost = action.player != self.person and (not answered
                                                 or isinstance(mine.action, Take | Draw))
        won_a_contest = action.player == self.person and len(claimants) > 1
        if lost or won_a_contest:
            self.on_race(ClaimRace(action.card, action, claimants, mine.action, answered,
                                   state.rules.claims != "battle"))

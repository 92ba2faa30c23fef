"""How a deal moves from one moment to the next, for any front end that seats players who act on
their own time (the game server today; the model is boardgame.io's flow, which its server and
every client run alike).

A *moment* is the deal between two applied actions: the seats the game lets act
(:meth:`~hoola.core.game.GameState.actors`). When some of them may let it pass (a claim on a Hoola
discard, a Kalookie warning), the moment is a *window*: decisions are kept in the order they
arrive, and once the window is ready (closed by its clock, or everyone it waits for has decided)
the game's own :meth:`~hoola.core.game.GameState.resolve` says which one stands. Otherwise the
one decision is applied at once.

While the public table shows a window, every seat that may let it pass is in it, whether or not
it holds anything to claim with: a window opened only when someone can claim would tell everyone
that someone can. Outside a shown window nobody waits for a seat that may pass (a seat that could
show four sevens acts if it is quick): waiting would tell too.

The clock is the front end's: it closes a window (:func:`close`) when its time is up.

>>> from hoola.core.registry import get_game
>>> game = get_game("hoola")
>>> state = game.new_match(game.rules(), ["A", "B", "C"], seed=1).new_deal()
>>> moment = open_moment(state)
>>> sorted(moment.actors), moment.is_window
([0], False)
>>> state.format(decide(state, moment, 0, state.parse("A draw")))
'A draw'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from hoola.core.errors import HoolaError
from hoola.core.game import GameState

__all__ = ["Claim", "FlowError", "Moment", "Settled", "close", "decide", "deciders",
           "open_moment", "settle", "window_shown"]


class FlowError(HoolaError):
    """A decision the moment does not take (out of turn, decided already, too late, a pass
    where one must act); the code says which."""

    code = "refused"


@dataclass
class Moment:
    """Who may act now, what they decided (in arrival order), and the deadlines a front end
    keeps (Unix seconds, or None)."""

    counter: int
    actors: frozenset[int]
    passers: frozenset[int]
    shown: bool = False
    """Whether the public table shows a window: then it waits for everyone in it (or its
    deadline); otherwise those who may pass act only if they are quick."""
    decisions: list[Any] = field(default_factory=list)
    decided: set[int] = field(default_factory=set)
    closed: bool = False
    window_deadline: float | None = None
    turn_deadline: float | None = None

    @property
    def is_window(self) -> bool:
        """Whether several decisions are collected before one stands."""
        return bool(self.passers)

    @property
    def mandatory(self) -> frozenset[int]:
        """The seats that must act (they may not let the moment pass)."""
        return self.actors - self.passers

    @property
    def ready(self) -> bool:
        """Whether the decisions are in: the window is closed, or everyone it waits for (in a
        shown window everyone in it, else the seats that must act) has decided."""
        waited = self.actors if self.shown else self.mandatory
        return self.closed or waited <= self.decided

    def asked(self, seat: int) -> bool:
        """Whether ``seat`` should decide now."""
        return seat in self.actors and seat not in self.decided and \
            not (self.closed and seat in self.passers)


@dataclass(frozen=True, slots=True)
class Claim:
    """What a decider in a contested window is told: its decision (notation), ``won`` or
    ``lost``, and the decision that stood."""

    seat: int
    action: str
    result: str
    winner: str


@dataclass(frozen=True, slots=True)
class Settled:
    """How a ready moment ended: the action that stands (None: the window closed, and the seat
    whose turn it is still decides) and what each decider is told."""

    action: Any | None
    claims: tuple[Claim, ...] = ()


def window_shown(state: GameState) -> bool:
    """Whether the public table shows a window open (a Hoola discard others may claim, a
    Kalookie warning): what every seat can tell, whoever may act in it."""
    return state.view(0).table().moment.window is not None


def open_moment(state: GameState, counter: int = 0) -> Moment:
    """The moment ``state`` is at (``counter`` names it for the front end)."""
    actors = state.actors()
    passers = frozenset(q for q in actors if state.view(q).can_pass)
    shown = window_shown(state)
    if shown:
        idle = frozenset(q for q in range(len(state.names))
                         if q not in actors and state.view(q).can_pass)
        actors, passers = actors | idle, passers | idle
    return Moment(counter, actors, passers, shown=shown)


def decide(state: GameState, moment: Moment, seat: int, action: Any | None) -> Any | None:
    """Take ``seat``'s decision at ``moment``: an action, or None to let the moment pass.
    Returns the action to apply now when the moment is not a window; in a window the decision
    is kept (None is returned) until :func:`settle`. A decision the moment does not take raises
    :class:`FlowError` (or the game's own error, for an action of the seat's that the rules
    refuse), and changes nothing."""
    if seat not in moment.actors:
        # The game says why for the seat's own action only: verifying another seat's would
        # tell whether that seat holds the cards named.
        if action is not None and getattr(action, "player", None) == seat:
            state.verify(action)
        raise FlowError(f"{state.names[seat]} may not act now", "out-of-turn")
    if seat in moment.decided:
        raise FlowError(f"{state.names[seat]} has already decided at this moment",
                        "already-decided")
    if moment.closed and seat in moment.passers and seat not in moment.mandatory:
        raise FlowError("too late: the window has closed", "window-closed")
    if action is None:
        if seat not in moment.passers:
            raise FlowError(f"{state.names[seat]} must act now and cannot pass", "must-act")
        moment.decided.add(seat)
        return None
    if getattr(action, "player", None) != seat:
        raise FlowError(f"you hold {state.names[seat]}'s seat and act for it alone",
                        "not-your-seat")
    state.verify(action)
    if not moment.is_window:
        return action
    moment.decisions.append(action)
    moment.decided.add(seat)
    return None


def close(moment: Moment) -> None:
    """The window's time is up: no more passes are taken from those who may pass."""
    moment.closed = True


def settle(state: GameState, moment: Moment) -> Settled | None:
    """None while ``moment`` waits for decisions; once it is ready, it is closed and the game's
    :meth:`~hoola.core.game.GameState.resolve` says which decision stands. Every decision that
    lost is told so, and the winner when it claimed out of turn or beat someone to the moment
    (the seat to move, too, when it took the discard first)."""
    if not moment.ready:
        return None
    moment.closed = True
    chosen = state.resolve(moment.decisions)
    if chosen is None:
        return Settled(None)
    won = state.format(chosen)
    claims = [Claim(d.player, state.format(d), "lost", won) for d in moment.decisions
              if d is not chosen]
    if chosen.player in moment.passers or claims:
        claims.append(Claim(chosen.player, won, "won", won))
    return Settled(chosen, tuple(claims))


def deciders(moment: Moment) -> Sequence[int]:
    """The seats whose decisions the moment holds, in seat order."""
    return sorted({d.player for d in moment.decisions})

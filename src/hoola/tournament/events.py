"""The events of a tournament: small frozen values, each a line of its record.

A tournament is what its events say. Some come from outside (an entrant, the seed, a table's
result, a player leaving a table, a buy-in or a retirement); the others follow from the state and
the seed (a table formed, a bye, buy-ins closing, a refund, the winner): the tournament computes
them, and refuses one that differs from what it computes.

>>> event = Seat(3, "buy-in", 1, ("A", "B", "C", "D"))
>>> as_table(event)
{'event': 'table', 'table': 3, 'stage': 'buy-in', 'round': 1, 'players': ['A', 'B', 'C', 'D']}
>>> from_table(as_table(event)) == event, describe(event)
(True, 'table 3 (buy-in): A B C D')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from hoola.core.errors import HoolaError
from hoola.core.records import format_number

__all__ = [
    "DERIVED",
    "NAME_RE",
    "STAGES",
    "BuyIn",
    "Bye",
    "Close",
    "Enter",
    "Event",
    "Finish",
    "Leave",
    "Open",
    "Refund",
    "Result",
    "Retire",
    "Seat",
    "Start",
    "TournamentError",
    "as_table",
    "describe",
    "from_table",
    "read_amount",
]

NAME_RE: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
STAGES: Final = ("round", "knockout", "qualifying", "buy-in", "semi-final", "final")
"""Where a table or a bye belongs: a Swiss round, a knockout round, Blackpool's qualifying tables
(the first draw), its buy-in tables, its semi-finals, and the final of a knockout or Blackpool."""


class TournamentError(HoolaError, ValueError):
    """An event the tournament refuses, or a tournament that cannot be set up as asked."""

    code = "bad-tournament"


@dataclass(frozen=True, slots=True)
class Open:
    """The tournament is set up: its format, the game and preset (with options) every table
    plays, and the format's settings (``hoola.tournament.config.Settings``)."""

    format: str
    game: str
    rules: str
    options: Mapping[str, Any] = field(default_factory=dict)
    settings: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Enter:
    """A player enters (before the start)."""

    player: str


@dataclass(frozen=True, slots=True)
class Start:
    """The entries close; ``seed`` is the seed of every draw."""

    seed: int


@dataclass(frozen=True, slots=True)
class Seat:
    """A table is formed: its ``players`` in seat order (the first deals first)."""

    table: int
    stage: str
    round: int
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Bye:
    """A player goes on without a table: a Swiss bye, or Blackpool's semi-final of two."""

    player: str
    stage: str
    round: int


@dataclass(frozen=True, slots=True)
class Leave:
    """A player leaves a table, over the target (Blackpool)."""

    table: int
    player: str


@dataclass(frozen=True, slots=True)
class BuyIn:
    """A player who left a table buys in: pays into the pot and joins the buy-in queue."""

    player: str


@dataclass(frozen=True, slots=True)
class Retire:
    """A player who left a table does not buy in: out of the tournament."""

    player: str


@dataclass(frozen=True, slots=True)
class Close:
    """Buy-ins close: the tournament has had its tables, or no qualifying table is playing."""


@dataclass(frozen=True, slots=True)
class Refund:
    """A player left in the queue when buy-ins closed gets the buy-in back and is out."""

    player: str


@dataclass(frozen=True, slots=True)
class Result:
    """A table has ended: each player's place (1 the best, ties share) and ``totals``, the
    money (or the game's score) each took from the table."""

    table: int
    places: Mapping[str, int]
    totals: Mapping[str, Fraction]


@dataclass(frozen=True, slots=True)
class Finish:
    """The tournament is over and ``winner`` has won it."""

    winner: str


Event = (Open | Enter | Start | Seat | Bye | Leave | BuyIn | Retire | Close | Refund | Result
         | Finish)
DERIVED: Final = (Seat, Bye, Close, Refund, Finish)
"""The kinds of event the tournament computes itself from its state and seed."""

_KINDS: Final[dict[str, type]] = {
    "open": Open, "enter": Enter, "start": Start, "table": Seat, "bye": Bye, "leave": Leave,
    "buy-in": BuyIn, "retire": Retire, "close": Close, "refund": Refund, "result": Result,
    "finish": Finish,
}
_NAMES: Final = {kind: name for name, kind in _KINDS.items()}


def as_table(event: Event) -> dict[str, Any]:
    """The event as a TOML table: ``event`` (its kind) first, then its fields."""
    out: dict[str, Any] = {"event": _NAMES[type(event)]}
    if isinstance(event, Seat):
        out.update(table=event.table, stage=event.stage, round=event.round,
                   players=list(event.players))
    elif isinstance(event, Result):
        out.update(table=event.table, places=dict(event.places),
                   totals={k: Fraction(v) for k, v in event.totals.items()})
    elif isinstance(event, Open):
        out.update(format=event.format, game=event.game, rules=event.rules,
                   options=dict(event.options), settings=dict(event.settings))
    else:
        for name in event.__dataclass_fields__:
            out[name] = getattr(event, name)
    return out


def _bad(message: str) -> TournamentError:
    return TournamentError(message, "bad-event")


def _name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not NAME_RE.fullmatch(value):
        raise _bad(f"{what} must be a name of letters, digits, _ and - (at most 64 characters)")
    return value


def _whole(value: Any, what: str, low: int = 1, high: int = 10**6) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad(f"{what} must be a whole number from {low} to {high:,}")
    return value


def read_amount(value: Any, what: str) -> Fraction:
    """An amount as a record writes it (an integer, a decimal or ``"1/3"``), exact."""
    try:
        if isinstance(value, bool):
            raise ValueError
        if isinstance(value, int | Fraction):
            number = Fraction(value)
        elif isinstance(value, float):
            number = Fraction(repr(value))
        elif isinstance(value, str) and len(value) <= 40:
            number = Fraction(value.strip())
        else:
            raise ValueError
    except (ValueError, ZeroDivisionError):
        raise _bad(f"{what} must be a number such as 3, 2.5 or \"1/3\"") from None
    if abs(number) > 10**12:
        raise _bad(f"{what} is {format_number(number)}, larger than any tournament's amounts")
    return number


def from_table(table: Any) -> Event:
    """The event a TOML table writes; a TournamentError names what is malformed."""
    if not isinstance(table, Mapping):
        raise _bad("an event is a table such as { event = \"buy-in\", player = \"A\" }")
    name = table.get("event")
    kind: Any = _KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise _bad(f"event must be one of {', '.join(_KINDS)}")
    fields = set(kind.__dataclass_fields__) | {"event"}
    unknown = sorted(str(k) for k in table if k not in fields)
    if unknown:
        raise _bad(f"a {table['event']} event has no key {unknown[0]!r}")
    missing = sorted(k for k in kind.__dataclass_fields__ if k not in table
                     and k not in ("options", "settings"))
    if missing:
        raise _bad(f"a {table['event']} event needs {missing[0]!r}")
    if kind is Seat:
        players = table["players"]
        if not isinstance(players, list) or not 1 <= len(players) <= 64:
            raise _bad("players must be a list of names")
        if table["stage"] not in STAGES:
            raise _bad(f"stage must be one of {', '.join(STAGES)}")
        return Seat(_whole(table["table"], "table"), table["stage"],
                    _whole(table["round"], "round"),
                    tuple(_name(p, "a player") for p in players))
    if kind is Bye:
        if table["stage"] not in STAGES:
            raise _bad(f"stage must be one of {', '.join(STAGES)}")
        return Bye(_name(table["player"], "player"), table["stage"],
                   _whole(table["round"], "round"))
    if kind is Result:
        places, totals = table["places"], table["totals"]
        if not isinstance(places, Mapping) or not isinstance(totals, Mapping):
            raise _bad("places and totals must be tables of player = number")
        return Result(_whole(table["table"], "table"),
                      {_name(k, "a player"): _whole(v, f"the place of {k}", 1, 64)
                       for k, v in places.items()},
                      {_name(k, "a player"): read_amount(v, f"the total of {k}")
                       for k, v in totals.items()})
    if kind is Leave:
        return Leave(_whole(table["table"], "table"), _name(table["player"], "player"))
    if kind is Start:
        return Start(_whole(table["seed"], "seed", 0, 2**63 - 1))
    if kind is Close:
        return Close()
    if kind is Open:
        texts = [table.get(k) for k in ("format", "game", "rules")]
        if not all(isinstance(t, str) for t in texts):
            raise _bad("format, game and rules must be names")
        named = [str(t) for t in texts]
        options, settings = table.get("options", {}), table.get("settings", {})
        if not isinstance(options, Mapping) or not isinstance(settings, Mapping):
            raise _bad("options and settings must be tables")
        return Open(named[0], named[1], named[2], dict(options), dict(settings))
    key = "winner" if kind is Finish else "player"
    event: Event = kind(_name(table[key], key))
    return event


def describe(event: Event) -> str:
    """The event in a few words, for messages and progress lines."""
    if isinstance(event, Seat):
        return f"table {event.table} ({event.stage}): {' '.join(event.players)}"
    if isinstance(event, Bye):
        return f"{event.player} goes on without a table ({event.stage} {event.round})"
    if isinstance(event, Leave):
        return f"{event.player} leaves table {event.table}"
    if isinstance(event, BuyIn):
        return f"{event.player} buys in"
    if isinstance(event, Retire):
        return f"{event.player} retires"
    if isinstance(event, Close):
        return "buy-ins close"
    if isinstance(event, Refund):
        return f"{event.player} gets the buy-in back"
    if isinstance(event, Result):
        order = sorted(event.places, key=lambda p: event.places[p])
        return f"table {event.table} ends: " + ", ".join(
            f"{event.places[p]}. {p}" for p in order)
    if isinstance(event, Finish):
        return f"{event.winner} wins the tournament"
    if isinstance(event, Enter):
        return f"{event.player} enters"
    if isinstance(event, Start):
        return f"the tournament starts (seed {event.seed})"
    return f"a {event.format} tournament of {event.game} ({event.rules}) opens"

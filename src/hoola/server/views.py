"""The messages that tell a seat, or a spectator, what the table looks like now.

A seat's message is built from that seat's own view only (``view.to_json()`` and
``view.table()``), so it holds what the rules let that seat know and nothing else. Spectators get
the *public* table: a zone keeps its cards only where every seat's table shows the same cards
(a meld, the discard pile, a showdown), and a log line only where every seat's log has it.
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Mapping, Set
from typing import Any, Protocol

from hoola.core.game import Game, GameState, Match
from hoola.core.table import Moment, Table, Zone
from hoola.core.words import say
from hoola.server.store import SeatRow

__all__ = ["PROTOCOL", "Played", "Waiting", "public_table", "seat_message", "spectator_message"]

PROTOCOL = "hoola-server/1"


class Waiting(Protocol):
    """A moment of a table as the messages tell it (:class:`hoola.core.flow.Moment`)."""

    @property
    def actors(self) -> Set[int]: ...
    @property
    def passers(self) -> Set[int]: ...
    @property
    def decided(self) -> Set[int]: ...
    @property
    def closed(self) -> bool: ...
    @property
    def window_deadline(self) -> float | None: ...
    @property
    def turn_deadline(self) -> float | None: ...
    def asked(self, seat: int) -> bool: ...


class Played(Protocol):
    """A table at play as the messages read it (:class:`hoola.server.room.Room`)."""

    @property
    def id(self) -> str: ...
    @property
    def counter(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def game(self) -> Game: ...
    @property
    def rules(self) -> Any: ...
    @property
    def state(self) -> GameState | None: ...
    @property
    def match(self) -> Match | None: ...
    @property
    def moment(self) -> Waiting | None: ...
    @property
    def seats(self) -> Mapping[int, SeatRow]: ...
    @property
    def connected(self) -> Mapping[int, int]: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def n(self) -> int: ...
    @property
    def between(self) -> Any:
        """The pause between two deals (``to_json()``), or None."""


@dataclasses.dataclass
class _Memo:
    """What one state of a table looks like, built once: every announcement of a state sends
    it to each seat and the spectators, who would otherwise each build the scoreboard and the
    spectators every seat's table again (a third of the server's time per action)."""

    key: tuple[int, int]
    scoreboard: dict[str, Any] | None
    seats: dict[int, tuple[dict[str, Any], Table, dict[str, Any], bool]] = \
        dataclasses.field(default_factory=dict)


_memos: weakref.WeakKeyDictionary[Played, list[_Memo]] = weakref.WeakKeyDictionary()
"""Each room's memo, in a box of its own: a new state replaces the box's content (setting a weak
dictionary's item makes a weak reference each time)."""


def _memo(room: Played) -> _Memo:
    # The room's counter moves on with every change of its state (the protocol's stale-action
    # check rests on that), and a new deal is a new state object: between two moves of the
    # key, the views and the scoreboard are the same. The JSON parts are shared by the
    # messages of that state and only read (encoded), never changed.
    key = (id(room.state), room.counter)
    box = _memos.get(room)
    if box is None:
        box = _memos[room] = []
    if not box or box[0].key != key:
        match = room.match
        box[:] = [_Memo(key, match.scoreboard().to_json() if match is not None else None)]
    return box[0]


def _seat_view(room: Played, seat: int) -> tuple[dict[str, Any], Table, dict[str, Any], bool]:
    """The seat's view as JSON, its table and the table as JSON, whether it may pass."""
    memo = _memo(room)
    got = memo.seats.get(seat)
    if got is None:
        assert room.state is not None
        view = room.state.view(seat)
        table = view.table()
        got = memo.seats[seat] = (view.to_json(), table, table.to_json(), bool(view.can_pass))
    return got


def _common(room: Played, seat: int | None) -> dict[str, Any]:
    match = room.match
    return {
        "type": "state", "protocol": PROTOCOL, "table_id": room.id, "counter": room.counter,
        "status": room.status, "game": room.game.name, "rules": room.rules.preset_name,
        "names": list(room.names),
        "seats": [{"seat": q, "name": s.name, "kind": s.kind, "bot": s.bot,
                   "connected": room.connected.get(q, 0) > 0, "leaving": s.leaving}
                  for q, s in sorted(room.seats.items())],
        "deal": len(match.deals) if match is not None else 0,
        "moment": _moment(room, seat),
        "scoreboard": _memo(room).scoreboard,
        "teams": _teams(room),
        "between": room.between.to_json() if room.between is not None else None,
    }


def _moment(room: Played, seat: int | None) -> dict[str, Any] | None:
    """The moment as ``seat`` may know it. Who *may* claim tells what they hold, so a seat sees
    the seats that must act, and itself; a window (and its deadline) only when it is in it."""
    moment = room.moment
    if moment is None:
        return None
    shown = moment.actors - moment.passers
    mine = False
    if seat is not None and seat in moment.passers:
        mine, shown = True, shown | {seat}
    return {"actors": sorted(shown), "window": mine, "closed": mine and moment.closed,
            "window_deadline": moment.window_deadline if mine else None,
            "turn_deadline": moment.turn_deadline}


def _teams(room: Played) -> list[list[int]] | None:
    teams = room.game.teams(room.rules, room.n)
    return None if teams is None else [list(t) for t in teams]


def seat_message(room: Played, seat: int) -> dict[str, Any]:
    """What ``seat`` sees now: its view, its table, the moment and whether it is asked."""
    message = _common(room, seat)
    message["seat"] = seat
    state, moment = room.state, room.moment
    if state is None:
        message.update(view=None, table=None, asked=False, can_pass=False)
        return message
    message["view"], _table, message["table"], can_pass = _seat_view(room, seat)
    asked = moment is not None and moment.asked(seat)
    message["asked"] = asked
    message["can_pass"] = bool(asked and can_pass)
    return message


def spectator_message(room: Played) -> dict[str, Any]:
    """What a spectator sees now: the public table."""
    message = _common(room, None)
    message["seat"] = None
    message["view"] = None
    state = room.state
    message["table"] = None if state is None else public_table(
        [_seat_view(room, q)[1] for q in range(room.n)], room.names).to_json()
    message["asked"] = False
    message["can_pass"] = False
    return message


def public_table(tables: list[Table], names: tuple[str, ...]) -> Table:
    """What every seat's table agrees on: the cards all of them see, the log lines all of them
    have; hands labelled by their owners."""
    first = tables[0]
    zones: list[Zone] = []
    for zone in first.zones:
        cards = zone.cards
        for other in tables[1:]:
            try:
                if other.zone(zone.id).cards != cards:
                    cards = None
            except KeyError:
                cards = None
        label, said = zone.label, zone.say
        if zone.kind == "hand" and zone.owner is not None and zone.owner < len(names):
            said = say("zone.hand", who=names[zone.owner])
            label = said.text
        zones.append(dataclasses.replace(zone, cards=cards, label=label, say=said,
                                         count=zone.count if cards is None else len(cards)))
    log = tuple(line for i, line in enumerate(first.log)
                if all(i < len(t.log) and t.log[i] == line for t in tables[1:]))
    m = first.moment
    # Only the actors every seat's table shows: a seat's own table lists it as a claimant.
    actors = tuple(q for q in m.actors if all(q in t.moment.actors for t in tables[1:]))
    who = ", ".join(names[q] for q in actors if q < len(names))
    moment = Moment(actors=actors, turn=m.turn, phase=m.phase,
                    prompt=f"{who} to act" if who else "", window=m.window, deadline=m.deadline,
                    say=say("prompt.to-act", who=who) if who else None)
    scores = tuple(s for s in first.scores if all(s in t.scores for t in tables[1:]))
    return Table(zones=tuple(zones), moment=moment, names=names, scores=scores,
                 teams=first.teams, log=log, settlement=first.settlement, outcome=first.outcome)

"""Tournaments of any game and preset between players: Swiss over tables, knockouts, and
Kalookie's Blackpool tournament (ruling 16 of ``shared/spec/kalookie-rules.md``).

A :class:`Tournament` is a state machine of events (:mod:`hoola.tournament.events`): what comes
from outside (entrants, the seed, table results, players leaving tables, buy-ins) is checked and
applied, and what follows (tables formed, byes, buy-ins closing, refunds, the winner) is computed
from the state and the seed. Its events alone rebuild it (:meth:`Tournament.replay`), so a
server can store each event before announcing it and survive a restart. The lab plays one between
bots (:func:`play`), and its record (:mod:`hoola.tournament.record`, ``docs/tournaments.md``)
holds every event and every table's own game record, which ``hoola verify`` checks.

>>> t = Tournament.open("blackpool", "kalookie", options={"target": 40})
>>> games = play(t, entrant_names(["expert", "random"], 8), seed=2)
>>> t.winner in t.entrants, t.pot == 5 * 8 + 5 * sum(t.buy_ins.values()) - 5 * len(
...     [e for e in t.events if isinstance(e, Refund)]), sum(t.money.values())
(True, True, Fraction(0, 1))
"""

from __future__ import annotations

from hoola.tournament.config import FORMATS, Settings
from hoola.tournament.events import (
    BuyIn,
    Bye,
    Close,
    Enter,
    Event,
    Finish,
    Leave,
    Open,
    Refund,
    Result,
    Retire,
    Seat,
    Start,
    TournamentError,
    describe,
)
from hoola.tournament.play import entrant_names, play
from hoola.tournament.record import FORMAT, dumps, loads, verify
from hoola.tournament.state import Table, Tournament

__all__ = [
    "FORMAT",
    "FORMATS",
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
    "Settings",
    "Start",
    "Table",
    "Tournament",
    "TournamentError",
    "describe",
    "dumps",
    "entrant_names",
    "loads",
    "play",
    "verify",
]

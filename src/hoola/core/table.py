"""The table as data: what a seat sees, described so that any front end can draw any game.

A game builds a :class:`Table` from a view (never from the hidden state), so a hidden card cannot
reach an interface: a zone the seat may not see carries its ``count`` and no ``cards``. The terminal
game and the web UI draw zones by their ``kind`` and ``owner``; a new game needs no front-end code.

>>> t = Table(zones=(Zone("hand-0", "hand", "Your hand", owner=0, cards=("7s", "JK=7h")),
...                  Zone("stock", "stock", "Stock", count=23)),
...           moment=Moment(actors=(0,), turn=0, phase="play", prompt="Draw or take"))
>>> t.to_json()["zones"][1]
{'id': 'stock', 'kind': 'stock', 'label': 'Stock', 'owner': None, 'count': 23, 'cards': None}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hoola.core.words import Said

__all__ = ["ZONE_KINDS", "Moment", "Payment", "Score", "Table", "Zone"]

ZONE_KINDS = ("hand", "meld", "trick", "pile", "stock", "discard", "captured", "upcard")


@dataclass(frozen=True, slots=True)
class Zone:
    """A place cards lie: a hand, a meld, the trick, a captured pile, the stock, the discards.

    ``cards`` are in record notation (``"7s"``, ``"JK=7h"`` for a joker standing for a card) when
    this seat may see them, else None with only ``count`` known. ``note`` says what a front end
    should add to the label (``"winning"`` on a trick card's zone, ``"m2"`` on a meld). ``say``
    is the label as a key and arguments, where the game gives one (the label is its English).
    """

    id: str
    kind: str
    label: str
    owner: int | None = None
    cards: tuple[str, ...] | None = None
    count: int | None = None
    note: str = ""
    say: Said | None = None

    def __post_init__(self) -> None:
        if self.count is None:
            object.__setattr__(self, "count", len(self.cards) if self.cards is not None else 0)

    def to_json(self) -> dict[str, Any]:
        """The zone as JSON-ready data."""
        data: dict[str, Any] = {"id": self.id, "kind": self.kind, "label": self.label,
                                "owner": self.owner, "count": self.count,
                                "cards": list(self.cards) if self.cards is not None else None}
        if self.note:
            data["note"] = self.note
        if self.say is not None:
            data["say"] = self.say.to_json()
        return data


@dataclass(frozen=True, slots=True)
class Score:
    """One line of the score: a seat's (or team's) figure with its label (``"Penalty"``);
    ``say`` is the label as a key and arguments, where the game gives one."""

    label: str
    values: tuple[str, ...]
    say: Said | None = None

    def to_json(self) -> dict[str, Any]:
        """The score line as JSON-ready data."""
        data: dict[str, Any] = {"label": self.label, "values": list(self.values)}
        if self.say is not None:
            data["say"] = self.say.to_json()
        return data


@dataclass(frozen=True, slots=True)
class Moment:
    """Who may act now and why: the turn, an open window (claims, a fight) and its deadline.
    ``say`` is the prompt as a key and arguments (``prompt`` is its English text)."""

    actors: tuple[int, ...]
    turn: int | None
    phase: str
    prompt: str = ""
    window: str | None = None
    deadline: float | None = None
    say: Said | None = None

    def to_json(self) -> dict[str, Any]:
        """The moment as JSON-ready data."""
        data: dict[str, Any] = {"actors": list(self.actors), "turn": self.turn,
                                "phase": self.phase, "prompt": self.prompt,
                                "window": self.window, "deadline": self.deadline}
        if self.say is not None:
            data["say"] = self.say.to_json()
        return data


@dataclass(frozen=True, slots=True)
class Payment:
    """One line of a deal's settlement: ``payer`` pays ``payee`` ``amount`` (a number as text,
    a fraction as ``"a/b"``) for the reasons in ``why``, in the order the rules apply them (the
    base amount first, then what multiplies it). A seat of None is the pool or the bank."""

    payer: int | None
    payee: int | None
    amount: str
    why: tuple[Said, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The line as JSON-ready data."""
        return {"payer": self.payer, "payee": self.payee, "amount": self.amount,
                "why": [w.to_json() for w in self.why]}


@dataclass(frozen=True, slots=True)
class Table:
    """Everything a front end draws for one seat: zones, score lines, seats' names, the moment;
    once a deal is settled, how it ended (``outcome``) and its ``settlement``, line by line;
    ``cues``: what the seat's own hand allows now (Hoola's points and knock limit)."""

    zones: tuple[Zone, ...]
    moment: Moment
    names: tuple[str, ...] = ()
    scores: tuple[Score, ...] = ()
    teams: tuple[tuple[int, ...], ...] | None = None
    log: tuple[str, ...] = field(default_factory=tuple)
    settlement: tuple[Payment, ...] = ()
    outcome: tuple[Said, ...] = ()
    cues: tuple[Said, ...] = ()

    def zone(self, zone_id: str) -> Zone:
        """The zone with this id (KeyError when there is none)."""
        for z in self.zones:
            if z.id == zone_id:
                return z
        raise KeyError(zone_id)

    def to_json(self) -> dict[str, Any]:
        """The table as JSON-ready data."""
        return {"names": list(self.names), "zones": [z.to_json() for z in self.zones],
                "scores": [s.to_json() for s in self.scores],
                "teams": [list(t) for t in self.teams] if self.teams is not None else None,
                "moment": self.moment.to_json(), "log": list(self.log),
                "settlement": [p.to_json() for p in self.settlement],
                "outcome": [w.to_json() for w in self.outcome],
                "cues": [w.to_json() for w in self.cues]}

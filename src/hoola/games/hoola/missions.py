"""Missions (ruling 20, ``missions = true``): a feat drawn at each deal's start, which multiplies
every payment to a single winner who performs it.

The online portals give "an extra random multiplier for a winner who performs particular feats"
but do not publish their lists: the catalog here is the project's own, in their style, and every
place that shows a mission says so (:data:`CATALOG_NOTE`).

>>> import random
>>> m = draw_mission(random.Random(1))
>>> m.feat in FEATS and m.multiplier in MULTIPLIERS
True
>>> check_mission("quad", 3).label
"Mission quad ×3 (the project's own list): own a set of four on the table at the end"
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from hoola.core.cards import JOKER, SEVEN
from hoola.core.errors import IllegalActionError
from hoola.games.hoola.actions import (
    Action,
    Blast,
    Discard,
    Draw,
    Knock,
    Sevens,
    Take,
)
from hoola.games.hoola.glenn import parts
from hoola.games.hoola.melds import Meld, MeldKind

__all__ = [
    "CATALOG_NOTE",
    "FEATS",
    "MULTIPLIERS",
    "Mission",
    "TurnFacts",
    "catalog_text",
    "check_mission",
    "draw_mission",
    "feat_achieved",
    "mission_line",
    "turn_facts",
]

FEATS: Final[dict[str, str]] = {
    "thank-you": "win having taken a discard out of turn",
    "hoola": "win by a Hoola",
    "quad": "own a set of four on the table at the end",
    "long-run": "own a run of five cards or more",
    "corner": "own a run holding K-A-2",
    "two-sevens": "own melds holding two sevens or more",
    "knock-low": "win by a knock with 3 points or fewer",
    "blast": "win by a blast (sopang or daepang)",
    "quick": "win before your third turn begins",
    "no-take": "win without taking any discard",
}
"""The feats by id, each with what the winner must do, in the catalog's order (ruling 20)."""

MULTIPLIERS: Final = (2, 3, 4)
"""The multipliers a mission may carry; drawn with weights 3, 2, 1."""

# The multipliers by weight (3, 2, 1): one of six equally likely draws.
_WEIGHTED: Final = (2, 2, 2, 3, 3, 4)
_FEAT_IDS: Final = tuple(FEATS)
_TIMES: Final = {2: "doubled", 3: "tripled", 4: "quadrupled"}
KNOCK_LOW: Final = 3
"""The most points in hand for the ``knock-low`` feat."""

CATALOG_NOTE: Final = "the project's own list"
"""What every place showing a mission says of the catalog (ruling 20)."""


@dataclass(frozen=True, slots=True)
class Mission:
    """One drawn mission: a ``feat`` id of :data:`FEATS` and its ``multiplier`` (2, 3 or 4).

    Build one with :func:`check_mission` (which refuses a feat or multiplier outside the
    catalog with a one-line ``bad-mission`` error) or :func:`draw_mission`.
    """

    feat: str
    multiplier: int

    @property
    def words(self) -> str:
        """What the feat asks, in a few words."""
        return FEATS.get(self.feat, self.feat)

    @property
    def label(self) -> str:
        """The mission for people, saying whose catalog it is: ``Mission quad ×3 (the project's
        own list): own a set of four on the table at the end``."""
        return f"Mission {self.feat} ×{self.multiplier} ({CATALOG_NOTE}): {self.words}"


def check_mission(feat: object, multiplier: object) -> Mission:
    """A :class:`Mission` from a feat id and a multiplier, or an :class:`IllegalActionError`
    (``bad-mission``) naming the value refused and what is allowed."""
    if not isinstance(feat, str) or feat not in FEATS:
        raise IllegalActionError(f"mission feat {_shown(feat)} is not in the catalog; the feats "
                                 f"are {', '.join(_FEAT_IDS)}", "bad-mission")
    if type(multiplier) is not int or multiplier not in MULTIPLIERS:
        raise IllegalActionError(f"mission multiplier {_shown(multiplier)} is not allowed: a "
                                 "mission multiplies by 2, 3 or 4", "bad-mission")
    return Mission(feat, multiplier)


def _shown(value: object) -> str:
    """A refused value as it is quoted in messages: ``repr`` cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def draw_mission(rng: random.Random) -> Mission:
    """A mission drawn from ``rng``: a feat, each equally likely, and a multiplier of 2, 3 or 4
    with weights 3, 2, 1. Two draws of ``randrange``: the same seed draws the same mission in
    every process and Python version."""
    feat = _FEAT_IDS[rng.randrange(len(_FEAT_IDS))]
    return Mission(feat, _WEIGHTED[rng.randrange(len(_WEIGHTED))])


@dataclass(frozen=True, slots=True)
class TurnFacts:
    """What a deal's history says of one seat: turns begun, discards taken (in and out of
    turn)."""

    turns: int = 0
    takes: int = 0
    takes_out_of_turn: int = 0


def turn_facts(history: Sequence[Action], seat: int, dealer: int,
               in_deal: Sequence[bool]) -> TurnFacts:
    """Walk a deal's history (the state's, in order) and count ``seat``'s turns and takes.

    A turn begins with a draw, a take (a claim out of turn too: ruling 12), a knock, a blast,
    or four sevens shown at the start of one's own turn; a take is out of turn when the taker is
    not the player whose turn it was.
    """
    n = len(in_deal)
    current, drawn = dealer, False
    turns = takes = out = 0
    for a in history:
        p = a.player
        kind = type(a)
        if kind is Discard:
            q = (p + 1) % n
            while not in_deal[q] and q != p:
                q = (q + 1) % n
            current, drawn = q, False
            continue
        begins = False
        if kind is Draw or kind is Knock or kind is Blast:
            begins = True
        elif kind is Take:
            begins = True
            if p == seat:
                takes += 1
                if p != current:
                    out += 1
        elif kind is Sevens:
            begins = p == current and not drawn
        if begins:
            if p == seat:
                turns += 1
            current, drawn = p, True
    return TurnFacts(turns, takes, out)


def _owned(table: Sequence[Meld], seat: int) -> list[Meld]:
    return [m for m in table if m.owner == seat]


def _owned_parts(table: Sequence[Meld], seat: int) -> list[Meld]:
    """The sets and runs a seat owns: with Glenn's building (ruling 21) each part of a meld, the
    meld laid down and every branch built on it, is a set or run of its own."""
    return [part for m in table if m.owner == seat for part in parts(m)]


def feat_achieved(feat: str, *, end: str, winner: int, table: Sequence[Meld],
                  history: Sequence[Action], dealer: int, in_deal: Sequence[bool],
                  winner_points: int) -> bool:
    """Whether ``winner``, the deal's single winner, performed ``feat`` in this deal.

    ``table`` is the table at the end of play, ``history`` the deal's actions in order,
    ``winner_points`` the winner's hand points at the end (sevens as at the end). Owning a meld
    means having laid it down: cards added to it by anyone count (ruling 20). Sevens are natural
    sevens; a run's cards are what they stand for (a joker named as the ace completes K-A-2).
    """
    if feat == "hoola":
        return end == "hoola"
    if feat == "blast":
        return end in ("sopang", "daepang")
    if feat == "knock-low":
        return end == "knock" and _last_knocker(history) == winner \
            and winner_points <= KNOCK_LOW
    if feat == "quad":
        return any(m.kind == MeldKind.SET and len(m.cards) >= 4
                   for m in _owned_parts(table, winner))
    if feat == "long-run":
        return any(m.kind == MeldKind.RUN and len(m.cards) >= 5
                   for m in _owned_parts(table, winner))
    if feat == "corner":
        for m in _owned_parts(table, winner):
            if m.kind == MeldKind.RUN:
                ranks = {f % 13 for f in m.faces if f >= 0}
                if {12, 0, 1} <= ranks:
                    return True
        return False
    if feat == "two-sevens":
        sevens = sum(1 for m in _owned(table, winner) for c in m.cards
                     if c != JOKER and c % 13 == SEVEN)
        return sevens >= 2
    facts = turn_facts(history, winner, dealer, in_deal)
    if feat == "thank-you":
        return facts.takes_out_of_turn > 0
    if feat == "no-take":
        return facts.takes == 0
    if feat == "quick":
        return facts.turns <= 2
    raise IllegalActionError(f"mission feat {_shown(feat)} is not in the catalog", "bad-mission")


def _last_knocker(history: Sequence[Action]) -> int | None:
    return history[-1].player if history and type(history[-1]) is Knock else None


def catalog_text() -> str:
    """The catalog in a few sentences, saying whose it is (``hoola rules`` with missions)."""
    feats = "; ".join(f"{feat}: {words}" for feat, words in FEATS.items())
    return ("Missions (ruling 20): at each deal's start one mission is drawn and shown to all, "
            "a feat and a multiplier of 2, 3 or 4; when a single winner performs the feat, "
            "every payment to them is multiplied by it, on top of every other multiplier. The "
            "portals do not publish their lists, so this catalog is the project's own, in their "
            "style: " + feats + ". Owning a meld means having laid it down; cards anyone "
            "added to it count.")


def mission_line(mission: Mission, achieved: bool, single_winner: bool = True) -> str:
    """The settlement's line for a mission: ``Mission quad ×3 (...) achieved: every payment to
    the winner tripled``, or why it changed nothing.

    >>> mission_line(Mission("quad", 3), False).endswith("failed: the winner did not perform "
    ...                                                   "it, payments unchanged")
    True
    """
    head = f"Mission {mission.feat} ×{mission.multiplier} ({mission.words}; {CATALOG_NOTE})"
    if achieved:
        return f"{head} achieved: every payment to the winner {_TIMES[mission.multiplier]}"
    if not single_winner:
        return f"{head} failed: no single winner, payments unchanged"
    return f"{head} failed: the winner did not perform it, payments unchanged"

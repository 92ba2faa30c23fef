"""What one player may know of a capture-game hand, and the table drawn from it.

Every card played is seen by all (a card played in the dark too, once turned), so the trick, the
captured piles and the history are public; hands are private, but for the partner's once the
stock is gone where the rules show it (Sedmice), and the stock is unseen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from hoola.core.cards import RANKS, format_card, format_cards
from hoola.core.table import Moment, Score, Table, Zone
from hoola.games.capture.actions import Action, Dark, format_action
from hoola.games.capture.result import Result, side_label
from hoola.games.capture.rules import Rules

__all__ = ["View", "played_cards"]


class View(NamedTuple):
    """One seat's knowledge of a hand at one moment (see the module).

    ``shown`` holds the hands this seat may see besides its own (``(seat, cards)``: a partner's
    in Sedmice once the stock is gone). ``darks`` are the cards turned by each ``dark`` in the
    history, in order. ``standing`` is the match score per side before this hand.
    """

    player: int
    names: tuple[str, ...]
    rules: Rules
    dealer: int
    sides: tuple[tuple[int, ...], ...]
    side_of: tuple[int, ...]
    hand: tuple[int, ...]
    shown: tuple[tuple[int, tuple[int, ...]], ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    leftover_size: int
    trick: tuple[tuple[int, int, bool], ...]
    led: int | None
    leader: int
    winner: int
    deciding: bool
    turn: int | None
    queue: tuple[int, ...]
    captured: tuple[tuple[int, ...], ...]
    tricks: tuple[int, ...]
    taken: tuple[tuple[int, ...], ...]
    last_winner: int | None
    leads: tuple[tuple[int, int], ...]
    phase1: bool
    kings_played: int
    dirty: tuple[bool, ...]
    cleaned: tuple[bool, ...]
    history: Sequence[Action]
    darks: tuple[int, ...]
    signals: tuple[tuple[int, str], ...]
    signaled: bool
    legal: tuple[Action, ...]
    result: Result | None
    standing: tuple[int, ...]
    carry: int
    can_pass: bool = False

    @property
    def players(self) -> int:
        """Number of seats at the table."""
        return len(self.names)

    @property
    def side(self) -> int:
        """This seat's side."""
        return self.side_of[self.player]

    @property
    def partners(self) -> tuple[int, ...]:
        """The other seats of this seat's side."""
        return tuple(q for q in self.sides[self.side] if q != self.player)

    def label(self, side: int) -> str:
        """A side's name: ``A+C``, or the player's."""
        return side_label(self.sides[side], self.names)

    def card_points(self) -> tuple[int, ...]:
        """The card points each side has captured so far (no last trick, no doubling)."""
        return tuple(sum(self.rules.points_of(c) for c in cs) for cs in self.captured)

    def prompt(self) -> str:
        """What this seat is asked to do now, in a few words."""
        who = self.names
        if self.result is not None:
            return _result_text(self)
        said = "".join(f"{who[q]} says {w}. " for q, w in self.signals)
        assert self.turn is not None
        if self.turn != self.player:
            doing = "decides: fight on or stop" if self.deciding else "to play"
            return f"{said}{who[self.turn]} {doing}"
        if self.deciding:
            led = RANKS[self.led] if self.led is not None else "?"
            wild = " or a wild" if self.rules.wilds else ""
            if self.winner == self.player:
                return f"{said}You are winning: stop and take the trick, or fight on with a " \
                       f"{led}{wild}"
            return (f"{said}{who[self.winner]} is winning: stop and let them take the trick, or "
                    f"fight on with a {led}{wild}")
        dark = " (or play in the dark)" if any(isinstance(a, Dark) for a in self.legal) else ""
        if not self.trick:
            return f"{said}Lead a card{dark}"
        led = RANKS[self.led] if self.led is not None else "?"
        return f"{said}Play a card{dark}: {led} led, {who[self.winner]} winning"

    def table(self) -> Table:
        """The table as data: hands, the trick and its winner, the captured piles, the stock,
        the hand's points and the match score."""
        names, rules = self.names, self.rules
        zones: list[Zone] = []
        shown = dict(self.shown)
        for q, name in enumerate(names):
            mine = q == self.player
            cards = self.hand if mine else shown.get(q)
            partner = not mine and q in self.partners
            zones.append(Zone(f"hand-{q}", "hand", "Your hand" if mine else
                              f"{name}'s hand{' (partner)' if partner else ''}", owner=q,
                              count=self.hand_sizes[q],
                              cards=None if cards is None else tuple(map(format_card, cards))))
        if self.trick:
            led = RANKS[self.led] if self.led is not None else "?"
            zones.append(Zone("trick", "trick",
                              f"Trick ({names[self.leader]} led {led}; "
                              f"{names[self.winner]} winning)",
                              cards=tuple(format_card(c) for _, c, _ in self.trick),
                              note=" ".join(names[q] + ("*" if d else "")
                                            for q, _, d in self.trick)))
        elif self.taken and self.last_winner is not None:
            zones.append(Zone("last-trick", "pile", f"Last trick ({names[self.last_winner]} took)",
                              cards=tuple(map(format_card, self.taken[-1]))))
        points = self.card_points()
        for s in range(len(self.sides)):
            zones.append(Zone(f"captured-{s}", "captured",
                              f"{self.label(s)} took {points[s]} points in "
                              f"{self.tricks[s]} trick{'' if self.tricks[s] == 1 else 's'}",
                              count=len(self.captured[s])))
        zones.append(Zone("stock", "stock", "Stock", count=self.stock_size))
        if self.leftover_size:
            zones.append(Zone("leftover", "pile", "Set aside for the last trick",
                              count=self.leftover_size))
        goal = f" to {rules.target}" if rules.target else ""
        unit = "Games won" if rules.scoring == "ristiklappi" else \
            "Game points" if rules.scoring != "points" else "Points"
        standing = self.standing
        if self.carry:
            unit += f" (+{self.carry} carried)"
        scores = [Score(f"{unit}{goal}", tuple(str(v) for v in standing)),
                  Score("This hand", tuple(str(v) for v in (
                      self.result.points if self.result is not None else points)))]
        if self.result is not None and self.result.game_points is not None:
            scores.append(Score("Game points this hand",
                                tuple(str(v) for v in self.result.game_points)))
        if rules.phases:
            scores.append(Score("Clean", tuple(
                "no" if self.dirty[s] and not self.cleaned[s] else "yes"
                for s in range(len(self.sides)))))
        teams = self.sides if len(self.sides) < self.players else None
        if teams is not None:
            scores = [Score(s.label, s.values) for s in scores]
        moment = Moment(actors=() if self.turn is None else (self.turn,), turn=self.turn,
                        phase="over" if self.result is not None else
                        "fight" if self.deciding else "play", prompt=self.prompt(),
                        window="fight" if self.deciding else None)
        return Table(zones=tuple(zones), moment=moment, names=names, scores=tuple(scores),
                     teams=teams, log=tuple(self.log()[-12:]))

    def log(self) -> list[str]:
        """The history in notation, a card played in the dark shown once turned."""
        out, darks = [], iter(self.darks)
        for a in self.history:
            text = format_action(a, self.names)
            if isinstance(a, Dark):
                text += f" ({format_card(next(darks))})"
            out.append(text)
        return out

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data (cards in notation), holding nothing hidden."""
        r = self.result
        return {
            "game": "capture", "player": self.player, "names": list(self.names),
            "rules": self.rules.preset_name, "dealer": self.dealer,
            "sides": [list(s) for s in self.sides], "hand": [format_card(c) for c in self.hand],
            "shown": {self.names[q]: format_cards(cs) for q, cs in self.shown},
            "hand_sizes": list(self.hand_sizes), "stock_size": self.stock_size,
            "trick": [{"player": self.names[q], "card": format_card(c), "dark": d}
                      for q, c, d in self.trick],
            "leader": self.leader, "winning": self.winner, "deciding": self.deciding,
            "turn": self.turn, "tricks": list(self.tricks),
            "captured": [format_cards(cs) for cs in self.captured],
            "history": self.log(), "signals": [[self.names[q], w] for q, w in self.signals],
            "legal": [format_action(a, self.names) for a in self.legal],
            "can_pass": False, "prompt": self.prompt(), "standing": list(self.standing),
            "result": None if r is None else {
                "points": list(r.points), "tricks": list(r.tricks),
                "game_points": None if r.game_points is None else list(r.game_points),
                "hola": r.hola, "clean": None if r.clean is None else list(r.clean),
                "outcome": r.outcome, "winners": list(r.winners)},
        }


def _result_text(view: View) -> str:
    r = view.result
    assert r is not None
    parts = [", ".join(f"{view.label(s)} {p}" for s, p in enumerate(r.points))]
    if r.hola is not None:
        parts.append(f"Hola for {view.label(r.hola)}")
    if r.game_points is not None:
        parts.append("game points " + ", ".join(f"{view.label(s)} {g}"
                                                for s, g in enumerate(r.game_points)))
    if r.carried:
        parts.append("60-60: a game point carried")
    if r.outcome == "both-lose":
        parts.append("both sides dirty: both lose")
    elif r.outcome == "draw":
        parts.append("a draw")
    elif r.winners:
        plural = len(r.winners) > 1 or len(view.sides[r.winners[0]]) > 1
        parts.append(" and ".join(view.label(s) for s in r.winners) +
                     (" win" if plural else " wins") + " the hand")
    return "; ".join(parts)


def played_cards(view: View) -> list[int]:
    """Every card seen played this hand: the captured piles and the trick."""
    out = [c for cs in view.captured for c in cs]
    out.extend(c for _, c, _ in view.trick)
    return out


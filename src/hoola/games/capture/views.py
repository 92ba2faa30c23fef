"""What one player may know of a capture-game hand, and the table drawn from it.

Every card played is seen by all (a card played in the dark too, once turned), so the trick, the
captured piles and the history are public; hands are private, but for the partner's once the
stock is gone where the rules show it (Sedmice), and the stock is unseen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from hoola.core.cards import RANKS, format_card, format_cards
from hoola.core.table import Moment, Payment, Score, Table, Zone
from hoola.core.words import Said, phrases, say
from hoola.games.capture.actions import Action, Dark, format_action
from hoola.games.capture.result import Result, side_label
from hoola.games.capture.rules import Rules

phrases({
    "capture.says": "{who} says {word}. {then}",
    "zone.trick": "Trick ({leader} led {led}; {winner} winning)",
    "zone.last-trick": "Last trick ({who} took)",
    "zone.took": "{side} took {points} points in {tricks} tricks",
    "zone.took-one": "{side} took {points} points in {tricks} trick",
    "zone.leftover": "Set aside for the last trick",
    "score.games-won": "Games won",
    "score.games-won-to": "Games won (to {target})",
    "score.game-points": "Game points",
    "score.game-points-to": "Game points (to {target})",
    "score.points-to": "Points (to {target})",
    "score.carried": "{label} (+{n} carried)",
    "score.game-points-hand": "Game points this hand",
    "score.clean": "Clean",
    "match.won": "{side} won the game",
    "match.carried": "{first}; {n} game points carried to the next side that scores",
    "match.carried-one": "{first}; a game point carried to the next side that scores",
    "capture.decides": "{who} decides: fight on or stop",
    "capture.fight.mine": "You are winning: stop and take the trick, or fight on with a {led}",
    "capture.fight.mine-wild": "You are winning: stop and take the trick, or fight on with a "
                               "{led} or a wild",
    "capture.fight.theirs": "{who} is winning: stop and let them take the trick, or fight on "
                            "with a {led}",
    "capture.fight.theirs-wild": "{who} is winning: stop and let them take the trick, or fight "
                                 "on with a {led} or a wild",
    "capture.lead": "Lead a card",
    "capture.lead-dark": "Lead a card (or play in the dark)",
    "capture.play": "Play a card: {led} led, {who} winning",
    "capture.play-dark": "Play a card (or play in the dark): {led} led, {who} winning",
    "capture.points": "{side} {points}",
    "capture.and-points": "{first}, {then}",
    "capture.hola": "Hola for {side}",
    "capture.game-points": "game points {list}",
    "capture.carried": "60-60: a game point carried",
    "capture.both-lose": "both sides dirty: both lose",
    "capture.draw": "a draw",
    "capture.wins": "{side} wins the hand",
    "capture.win": "{side} win the hand",
    "capture.why.points": "{points} card points in {tricks} tricks",
    "capture.why.last": "the last trick counts",
    "capture.why.hola": "Hola: the points doubled",
    "capture.why.game-points": "{n} game points",
    "capture.why.carried": "{n} game points carried from a 60-60 hand",
    "capture.why.won": "the game won",
})

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
        return self.says().text

    def says(self) -> Said:
        """The prompt as a key and arguments (:mod:`hoola.core.words`)."""
        who = self.names
        if self.result is not None:
            return _result_said(self)
        assert self.turn is not None
        said = self._turn_said()
        for q, w in reversed(self.signals):
            said = say("capture.says", who=who[q], word=w, then=said)
        return said

    def _turn_said(self) -> Said:
        who = self.names
        assert self.turn is not None
        if self.turn != self.player:
            return say("capture.decides", who=who[self.turn]) if self.deciding else \
                say("prompt.to-play", who=who[self.turn])
        led = _rank(self.led)
        if self.deciding:
            wild = "-wild" if self.rules.wilds else ""
            if self.winner == self.player:
                return say(f"capture.fight.mine{wild}", led=led)
            return say(f"capture.fight.theirs{wild}", who=who[self.winner], led=led)
        dark = "-dark" if any(isinstance(a, Dark) for a in self.legal) else ""
        if not self.trick:
            return say(f"capture.lead{dark}")
        return say(f"capture.play{dark}", led=led, who=who[self.winner])

    def settlement(self) -> tuple[Payment, ...]:
        """What each side scores this hand and why (the engine's figures), one line a side."""
        r = self.result
        if r is None:
            return ()
        out = []
        for s, side in enumerate(self.sides):
            why = [say("capture.why.points", points=self.card_points()[s], tricks=r.tricks[s])]
            if r.last == s:
                why.append(say("capture.why.last"))
            if r.hola == s:
                why.append(say("capture.why.hola"))
            if r.game_points is not None and r.game_points[s]:
                why.append(say("capture.why.game-points", n=r.game_points[s]))
            if self.carry and r.score[s] and self.rules.scoring in _CARRIES:
                why.append(say("capture.why.carried", n=self.carry))
            if self.rules.scoring == "ristiklappi" and r.score[s]:
                why.append(say("capture.why.won"))
            out.append(Payment(None, side[0], str(self.gained()[s]), tuple(why)))
        return tuple(out)

    def gained(self) -> tuple[int, ...]:
        """What the finished hand adds to each side's match score (a carried point with it)."""
        r = self.result
        if r is None:
            return (0,) * len(self.sides)
        carry = self.carry if self.rules.scoring in _CARRIES else 0
        return tuple(g + carry if g and carry else g for g in r.score)

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
            named = say("zone.your-hand") if mine else \
                say("zone.partner-hand" if partner else "zone.hand", who=name)
            zones.append(Zone(f"hand-{q}", "hand", named.text, owner=q,
                              count=self.hand_sizes[q],
                              cards=None if cards is None else tuple(map(format_card, cards)),
                              say=named))
        if self.trick:
            led = RANKS[self.led] if self.led is not None else "?"
            zones.append(Zone("trick", "trick",
                              f"Trick ({names[self.leader]} led {led}; "
                              f"{names[self.winner]} winning)",
                              say=say("zone.trick", leader=names[self.leader],
                                      led=_rank(self.led), winner=names[self.winner]),
                              cards=tuple(format_card(c) for _, c, _ in self.trick),
                              note=" ".join(names[q] + ("*" if d else "")
                                            for q, _, d in self.trick)))
        elif self.taken and self.last_winner is not None:
            zones.append(Zone("last-trick", "pile", f"Last trick ({names[self.last_winner]} took)",
                              cards=tuple(map(format_card, self.taken[-1])),
                              say=say("zone.last-trick", who=names[self.last_winner])))
        points = self.card_points()
        for s in range(len(self.sides)):
            zones.append(Zone(f"captured-{s}", "captured",
                              f"{self.label(s)} took {points[s]} points in "
                              f"{self.tricks[s]} trick{'' if self.tricks[s] == 1 else 's'}",
                              count=len(self.captured[s]),
                              say=say("zone.took-one" if self.tricks[s] == 1 else "zone.took",
                                      side=self.label(s), points=points[s],
                                      tricks=self.tricks[s])))
        zones.append(Zone("stock", "stock", "Stock", count=self.stock_size))
        if self.leftover_size:
            zones.append(Zone("leftover", "pile", "Set aside for the last trick",
                              count=self.leftover_size, say=say("zone.leftover")))
        # Labelled as the match's score table labels it; once the hand is over, with the hand
        # counted, as the score table beside it.
        standing = self.standing
        unit = score_label(rules)
        if self.result is not None:
            standing = tuple(a + b for a, b in zip(standing, self.gained(), strict=True))
        elif self.carry:
            unit = say("score.carried", label=unit, n=self.carry)
        scores = [Score(unit.text, tuple(str(v) for v in standing), unit),
                  Score("This hand", tuple(str(v) for v in (
                      self.result.points if self.result is not None else points)),
                        say("score.this-hand"))]
        if self.result is not None and self.result.game_points is not None:
            scores.append(Score("Game points this hand",
                                tuple(str(v) for v in self.result.game_points),
                                say("score.game-points-hand")))
        if rules.phases:
            scores.append(Score("Clean", tuple(
                "no" if self.dirty[s] and not self.cleaned[s] else "yes"
                for s in range(len(self.sides))), say("score.clean")))
        teams = self.sides if len(self.sides) < self.players else None
        if teams is not None:
            scores = [Score(s.label, s.values, s.say) for s in scores]
        said = self.says()
        moment = Moment(actors=() if self.turn is None else (self.turn,), turn=self.turn,
                        phase="over" if self.result is not None else
                        "fight" if self.deciding else "play", prompt=said.text,
                        window="fight" if self.deciding else None, say=said)
        return Table(zones=tuple(zones), moment=moment, names=names, scores=tuple(scores),
                     teams=teams, log=tuple(self.log()[-12:]), settlement=self.settlement(),
                     outcome=(said,) if self.result is not None else ())

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


_CARRIES = ("sedma", "croatian", "ristikontra")


def score_label(rules: Rules) -> Said:
    """The match score's label: "Game points (to 10)", "Points (to 250)", "Games won"."""
    if rules.scoring == "ristiklappi":
        return say("score.games-won-to" if rules.target else "score.games-won",
                   target=rules.target)
    unit = "points" if rules.scoring == "points" else "game-points"
    return say(f"score.{unit}-to", target=rules.target) if rules.target \
        else say(f"score.{unit}")


def _rank(rank: int | None) -> str:
    """A rank as players write it: ``"10"``, ``"A"``."""
    return "?" if rank is None else "10" if RANKS[rank] == "T" else RANKS[rank]


def _result_said(view: View) -> Said:
    r = view.result
    assert r is not None
    points = [say("capture.points", side=view.label(s), points=p) for s, p in enumerate(r.points)]
    listed = points[-1]
    for part in reversed(points[:-1]):
        listed = say("capture.and-points", first=part, then=listed)
    parts = [listed]
    if r.hola is not None:
        parts.append(say("capture.hola", side=view.label(r.hola)))
    if r.game_points is not None:
        parts.append(say("capture.game-points", list=", ".join(
            f"{view.label(s)} {g}" for s, g in enumerate(r.game_points))))
    if r.carried:
        parts.append(say("capture.carried"))
    if r.outcome == "both-lose":
        parts.append(say("capture.both-lose"))
    elif r.outcome == "draw":
        parts.append(say("capture.draw"))
    elif r.winners:
        plural = len(r.winners) > 1 or len(view.sides[r.winners[0]]) > 1
        parts.append(say("capture.win" if plural else "capture.wins",
                         side=" and ".join(view.label(s) for s in r.winners)))
    said = parts[-1]
    for part in reversed(parts[:-1]):
        said = say("prompt.and", first=part, then=said)
    return said


def played_cards(view: View) -> list[int]:
    """Every card seen played this hand: the captured piles and the trick."""
    out = [c for cs in view.captured for c in cs]
    out.extend(c for _, c, _ in view.trick)
    return out


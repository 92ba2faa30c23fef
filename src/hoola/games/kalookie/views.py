"""What one player may know: the view that bots, interfaces and observations receive.

A :class:`View` is built from the state's current values without copying them (tuples and frozen
records are shared), and draws itself as a :class:`~hoola.core.table.Table` for any front end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from hoola.core.cards import format_card
from hoola.core.table import Moment, Payment, Score, Table, Zone
from hoola.core.words import Said, phrases, say
from hoola.games.kalookie.actions import Action, Take, format_action
from hoola.games.kalookie.amounts import format_number
from hoola.games.kalookie.cards import format_token
from hoola.games.kalookie.deal import Standing
from hoola.games.kalookie.melds import Meld
from hoola.games.kalookie.rules import Rules
from hoola.games.kalookie.scoring import Settlement
from hoola.games.kalookie.turns import Turn

phrases({
    "kalookie.void": "The hand is void: no payment, no penalty",
    "score.penalty": "Penalty",
    "score.buy-ins": "Buy-ins",
    "kalookie.won.kalookie": "{who} went kalookie",
    "kalookie.won.call-up": "{who} called up",
    "kalookie.decides": "{who} decides to buy in or retire",
    "kalookie.decide": "Over {target}: buy in for {stake} (back to {reset}) or retire",
    "kalookie.warn": "Warn that you hold {n} cards",
    "kalookie.swap": "Swap the upcard for a card of your hand, or let play begin",
    "kalookie.draw-or-take": "Draw, or take {card}",
    "kalookie.draw": "Draw from the stock",
    "kalookie.loose": "Lay the released joker in a meld or an addition",
    "kalookie.must-lay": "Lay {card} in a meld",
    "kalookie.opening": "Complete your initial meld ({value} of {need})",
    "kalookie.turn": "Meld, add, or discard to end the turn",
    "kalookie.why.pool": "the pool's stake for a call-up",
    "kalookie.why.pool-kalookie": "the pool's stake for a kalookie",
    "kalookie.why.points": "{n} penalty points left in hand",
    "kalookie.why.cards": "{n} cards left in hand, jokers 2",
    "kalookie.why.x2-kalookie": "×2: kalookie",
})

__all__ = ["View"]


class View(NamedTuple):
    """A player's knowledge of a hand at one moment.

    ``hand`` is the player's own hand; other hands appear in ``hands`` only at a call-up's
    showdown. ``history`` is the public history (cards drawn from the stock are not shown);
    ``discards`` is the whole pile, every card of which was seen when discarded. ``legal`` lists
    what the player may do; ``can_pass`` says whether doing nothing is allowed (a warning or the
    dealer's upcard swap may be let go). The fields from ``turn`` on are the rest of the public
    state, enough to rebuild a hand from a view and a guess at the hidden cards.
    """

    player: int
    names: tuple[str, ...]
    rules: Rules
    dealer: int
    phase: str
    current: int
    drawn: bool
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    standing: Standing
    opened: tuple[bool, ...]
    melds: tuple[Meld, ...]
    discards: tuple[int, ...]
    stock_size: int
    history: Sequence[Action]
    legal: tuple[Action, ...]
    can_pass: bool
    turn: Turn
    first: bool
    swap_window: bool
    warner: int | None
    barred: tuple[int, ...]
    reshuffles: int
    next_id: int
    result: Settlement | None
    hands: tuple[tuple[int, ...], ...] | None
    totals: tuple[int, ...]
    queue: tuple[int, ...]
    out: tuple[int, ...]
    bought: tuple[int, ...]
    reset_to: int
    after: Standing | None

    @property
    def is_my_turn(self) -> bool:
        """Whether it is this player's turn (not merely a chance to warn or swap)."""
        return self.phase != "over" and self.current == self.player

    @property
    def players(self) -> int:
        """Number of seats at the table."""
        return len(self.names)

    def actors(self) -> tuple[int, ...]:
        """The seats that may act now, as everyone at the table can tell."""
        if self.phase == "over":
            return ()
        seats = {self.current}
        if self.phase == "play":
            if self.warner is not None:
                seats.add(self.warner)
            if self.swap_window:
                seats.add(self.dealer)
        return tuple(sorted(seats))

    def prompt(self) -> str:
        """What this player is asked to do now, in a few words."""
        return self.says().text

    def says(self) -> Said:
        """The prompt as a key and arguments (:mod:`hoola.core.words`)."""
        rules, who = self.rules, self.names
        if self.phase == "over":
            r = self.result
            if r is None or r.winner is None:
                return say("kalookie.void")
            end = "kalookie" if r.end == "kalookie" else "call-up"
            return say(f"kalookie.won.{end}", who=who[r.winner])
        if self.phase == "decide":
            if self.current != self.player:
                return say("kalookie.decides", who=who[self.current])
            return say("kalookie.decide", target=rules.target,
                       stake=format_number(rules.buy_in), reset=self.reset_to)
        asks: list[Said] = []
        if self.warner == self.player:
            asks.append(say("kalookie.warn", n=self.hand_sizes[self.player]))
        if self.swap_window and self.dealer == self.player:
            asks.append(say("kalookie.swap"))
        if self.current == self.player:
            asks.append(self._turn_prompt())
        if not asks:
            return say("prompt.to-play", who=who[self.current])
        said = asks[0]
        for then in asks[1:]:
            said = say("prompt.and", first=said, then=then)
        return said

    def _turn_prompt(self) -> Said:
        rules, turn = self.rules, self.turn
        if not self.drawn:
            top = format_card(self.discards[-1]) if self.discards else ""
            return say("kalookie.draw-or-take", card=top) \
                if any(isinstance(a, Take) for a in self.legal) else say("kalookie.draw")
        if turn.loose:
            return say("kalookie.loose")
        if turn.must_lay is not None:
            return say("kalookie.must-lay", card=format_card(turn.must_lay))
        if turn.opening(self.opened[self.player]):
            return say("kalookie.opening", value=turn.value, need=rules.initial_meld)
        return say("kalookie.turn")

    def settlement(self) -> tuple[Payment, ...]:
        """Who pays the winner how much and why, one line a loser (the engine's amounts)."""
        r = self.result
        if r is None or r.winner is None:
            return ()
        out = []
        kalookie = r.end == "kalookie"
        for q, paid in sorted(r.payments.items()):
            if q == r.winner or paid == 0:
                continue
            why: list[Said]
            if self.rules.scoring == "pool":
                why = [say("kalookie.why.pool-kalookie" if kalookie else "kalookie.why.pool")]
            elif self.rules.scoring == "points":
                why = [say("kalookie.why.points", n=r.penalty.get(q, 0))]
            else:
                why = [say("kalookie.why.cards", n=format_number(-paid // (2 if kalookie
                                                                          else 1)))]
                if kalookie:
                    why.append(say("kalookie.why.x2-kalookie"))
            out.append(Payment(q, r.winner, format_number(-paid), tuple(why)))
        return tuple(out)

    def table(self) -> Table:
        """The table as data: hands, melds m1.., the discard pile, the stock, scores, the moment."""
        zones: list[Zone] = []
        for q, name in enumerate(self.names):
            mine = q == self.player
            cards = self.hand if mine else self.hands[q] if self.hands is not None else None
            named = say("zone.your-hand") if mine else say("zone.hand", who=name)
            zones.append(Zone(f"hand-{q}", "hand", named.text, say=named,
                              owner=q, count=self.hand_sizes[q],
                              cards=None if cards is None else tuple(format_token(c)
                                                                     for c in cards),
                              note="" if self.standing.active[q] else "out"))
        for m in self.melds:
            named = say("zone.meld", id=m.id, who=self.names[m.owner])
            zones.append(Zone(f"m{m.id}", "meld", named.text, say=named,
                              owner=m.owner, cards=tuple(format_token(t) for t in m.tokens),
                              note=f"m{m.id}"))
        zones.append(Zone("discard", "discard", "Discard pile",
                          cards=tuple(format_card(c) for c in self.discards)))
        zones.append(Zone("stock", "stock", "Stock", count=self.stock_size))
        scores = [Score("Penalty", tuple(str(t) for t in self.totals), say("score.penalty")),
                  Score("Buy-ins", tuple(str(b + self.bought.count(q)) for q, b in
                                         enumerate(self.standing.buy_ins)),
                        say("score.buy-ins"))]
        if self.result is not None:
            scores.append(Score("This hand", tuple(
                format_number(self.result.payments.get(q, 0)) for q in range(self.players)),
                say("score.this-hand")))
        said = self.says()
        moment = Moment(actors=self.actors(), turn=self.current, phase=self.phase,
                        prompt=said.text,
                        window="warning" if self.warner is not None else
                        "upcard-swap" if self.swap_window else None, say=said)
        log = tuple(_log_line(a, self.names) for a in self.history[-12:])
        ended = (said,) if self.result is not None else ()
        return Table(zones=tuple(zones), moment=moment, names=self.names, scores=tuple(scores),
                     log=log, settlement=self.settlement(), outcome=ended)

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data (cards in notation), holding nothing hidden."""
        r = self.result
        return {
            "game": "kalookie", "player": self.player, "names": list(self.names),
            "rules": self.rules.preset_name, "dealer": self.dealer, "phase": self.phase,
            "current": self.current, "drawn": self.drawn,
            "hand": [format_card(c) for c in self.hand], "hand_sizes": list(self.hand_sizes),
            "opened": list(self.opened),
            "melds": [{"id": m.id, "owner": m.owner, "kind": m.kind,
                       "cards": [format_token(t) for t in m.tokens]} for m in self.melds],
            "discards": [format_card(c) for c in self.discards], "stock_size": self.stock_size,
            "history": [format_action(a, self.names) for a in self.history],
            "legal": [format_action(a, self.names) for a in self.legal],
            "can_pass": self.can_pass, "penalty": list(self.totals),
            "active": list(self.standing.active), "prompt": self.prompt(),
            "result": None if r is None else {
                "end": r.end, "winner": r.winner,
                "penalty": {self.names[q]: v for q, v in r.penalty.items()},
                "payments": {self.names[q]: format_number(v) for q, v in r.payments.items()}},
            "hands": None if self.hands is None else [[format_card(c) for c in h]
                                                      for h in self.hands],
        }


def _log_line(action: Action, names: Sequence[str]) -> str:
    """An action as the table's log tells it: its notation, and the card a take took from the
    pile (public, though the notation does not name it)."""
    line = format_action(action, names)
    if isinstance(action, Take) and action.card is not None:
        return f"{line} {format_card(action.card)}"
    return line

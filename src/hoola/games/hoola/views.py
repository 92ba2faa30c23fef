"""What one player may know: the view that bots, interfaces and observations receive."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from hoola.core.cards import format_card, format_cards
from hoola.core.table import Moment, Payment, Score, Table, Zone
from hoola.core.words import Said, phrases, say
from hoola.games.hoola.actions import Action, format_action
from hoola.games.hoola.glenn import parts, parts_said, top_text
from hoola.games.hoola.melds import Meld
from hoola.games.hoola.missions import Mission
from hoola.games.hoola.rules import Rules
from hoola.games.hoola.scoring import Settlement
from hoola.games.hoola.settled import outcome, payments

__all__ = ["View"]

_ENDS = {"sopang": "a minor blast (sopang)", "daepang": "a major blast (daepang)",
         "knock": "knock", "out": "going out", "hoola": "Hoola", "sevens": "four sevens",
         "stock": "the end of the stock"}

phrases({
    **{f"hoola.won.{end}": f"{{who}} won by {words}" for end, words in _ENDS.items()},
    **{f"hoola.nobody.{end}": f"Nobody won by {words}" for end, words in _ENDS.items()},
    "hoola.choose": "Play this deal or drop out",
    "hoola.chooses": "{who} chooses to play or drop",
    "hoola.claim": "Thank you? You may take {card}, or let it go",
    "hoola.draw": "Draw from the stock, or take the discard",
    "hoola.after-draw": "Meld, add, or discard to end the turn",
    "hoola.cue.sit-out": "you sit this deal out",
    "zone.meld-top": "m{id} ({who}), top {top}",
    "zone.meld-built": "{meld}: {parts}",
    "hoola.cue.points": "{n} points",
    "hoola.cue.may-knock": "you may knock",
    "hoola.cue.knock-at": "knock at {limit} or less",
    "hoola.cue.sopang": "blast ready: sopang",
    "hoola.cue.daepang": "blast ready: daepang",
    "hoola.cue.no-blast": "blast: no",
    "hoola.cue.stake": "stake ×{stake}",
})


class View(NamedTuple):
    """A player's knowledge of a deal at one moment.

    ``hand`` is the player's own hand; other hands appear in ``hands`` only after play has ended.
    ``history`` is the public history (cards drawn from the stock are not shown). ``legal`` lists
    what the player may do; ``can_pass`` says whether doing nothing is allowed (a claimant in a
    claim window may let the discard go). ``claimable`` is the card this player may take now;
    ``claim_open`` says whether the top discard may still be taken by anyone. The fields after
    ``hands`` are the rest of the public state, enough to rebuild a deal from a view and a guess
    at the hidden cards (:mod:`hoola.games.hoola.determinize`).
    """

    player: int
    names: tuple[str, ...]
    rules: Rules
    dealer: int
    stake: Fraction
    phase: str
    current: int
    drawn: bool
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    in_deal: tuple[bool, ...]
    melded: tuple[bool, ...]
    own_meld: tuple[bool, ...]
    had_turn: tuple[bool, ...]
    melds: tuple[Meld, ...]
    discards: tuple[int, ...]
    claimable: int | None
    discarder: int | None
    stock_size: int
    history: Sequence[Action]
    legal: tuple[Action, ...]
    can_pass: bool
    result: Settlement | None
    hands: tuple[tuple[int, ...], ...] | None = None
    claim_open: bool = False
    upcard_live: bool = False
    hoola_turn: bool = False
    took_from: int | None = None
    last_draw: bool = False
    sevens_laid: tuple[int, ...] = ()
    next_meld_id: int = 1
    chose: tuple[bool | None, ...] = ()
    compensation: tuple[tuple[int, Fraction], ...] = ()
    mission: Mission | None = None

    @property
    def is_my_turn(self) -> bool:
        """Whether it is this player's turn (not merely a chance to claim)."""
        return self.phase != "over" and self.current == self.player

    @property
    def players(self) -> int:
        """Number of seats at the table."""
        return len(self.names)

    def prompt(self) -> str:
        """What this player is asked to do now, in a few words."""
        return self.says().text

    def says(self) -> Said:
        """The prompt as a key and arguments (:mod:`hoola.core.words`)."""
        who = self.names
        if self.phase == "over":
            r = self.result
            if r is None:
                return say("prompt.over")
            if not r.winners:
                return say(f"hoola.nobody.{r.end}")
            return say(f"hoola.won.{r.end}", who=" and ".join(who[w] for w in r.winners))
        if self.phase == "choose":
            return say("hoola.choose") if self.is_my_turn else \
                say("hoola.chooses", who=who[self.current])
        if self.claimable is not None and not self.is_my_turn and self.legal:
            return say("hoola.claim", card=format_card(self.claimable))
        if not self.is_my_turn:
            return say("prompt.to-play", who=who[self.current])
        if not self.drawn:
            return say("hoola.draw")
        return say("hoola.after-draw")

    def cues(self) -> tuple[Said, ...]:
        """What the seat's hand allows, beside it while play goes on: its points, whether a
        knock is open or the limit it needs, a blast ready, a stake other than 1."""
        from hoola.core.cards import JOKER, card_mask
        from hoola.games.hoola.actions import Knock
        from hoola.games.hoola.scoring import blast_kind, hand_points
        from hoola.games.hoola.text import stakes

        rules, me = self.rules, self.player
        if not self.in_deal[me]:
            return (say("hoola.cue.sit-out"),)
        if self.phase == "over":
            return ()  # the points are the settlement's now
        mask = card_mask(self.hand)
        jokers = sum(1 for c in self.hand if c == JOKER)
        cues = [say("hoola.cue.points", n=hand_points(mask, jokers, rules, True))]
        if any(isinstance(a, Knock) for a in self.legal):
            cues.append(say("hoola.cue.may-knock"))
        elif rules.knocks and rules.knock_rule == "limit":
            cues.append(say("hoola.cue.knock-at", limit=rules.knock_limit_for(sum(self.in_deal))))
        if rules.blasts and not self.melded[me] and len(self.hand) == 7:
            kind = blast_kind(mask, jokers, rules)
            cues.append(say(f"hoola.cue.{kind}" if kind else "hoola.cue.no-blast"))
        if self.stake != 1:
            cues.append(say("hoola.cue.stake", stake=stakes(self.stake).lstrip("+")))
        return tuple(cues)

    def table(self) -> Table:
        """The table as data: hands, melds m1.., the discard pile, the stock, the moment."""
        zones: list[Zone] = []
        for q, name in enumerate(self.names):
            mine = q == self.player
            cards = self.hand if mine else self.hands[q] if self.hands is not None else None
            named = say("zone.your-hand") if mine else say("zone.hand", who=name)
            zones.append(Zone(f"hand-{q}", "hand", named.text,
                              owner=q, count=self.hand_sizes[q],
                              cards=None if cards is None else tuple(format_cards(cards).split()),
                              note="" if self.in_deal[q] else "out", say=named))
        glenn = self.rules.glenn_melds
        for m in self.melds:
            if glenn:
                zones.append(_stack_zone(m, self.names[m.owner]))
                continue
            named = say("zone.meld", id=m.id, who=self.names[m.owner])
            zones.append(Zone(f"m{m.id}", "meld", named.text, owner=m.owner,
                              cards=tuple(str(m).split()), note=f"m{m.id}", say=named))
        zones.append(Zone("discard", "discard", "Discard pile",
                          cards=tuple(format_cards(self.discards).split())))
        zones.append(Zone("stock", "stock", "Stock", count=self.stock_size))
        if self.mission is not None:
            # A zone of no cards: every front end prints its label with the middle of the table.
            zones.append(Zone("mission", "pile", self.mission_text(), count=0))
        if self.result is not None:
            zones.append(self._settlement())
        scores: list[Score] = []
        if self.result is not None:
            r = self.result
            scores.append(Score("Points", tuple(str(r.points.get(q, "")) for q in
                                                range(self.players)), say("score.points")))
            scores.append(Score("This deal", tuple(_number(r.payments.get(q, 0))
                                                   for q in range(self.players)),
                                say("score.this-deal")))
        actors = (self.player,) if self.legal else ()
        said = self.says()
        moment = Moment(actors=actors, turn=self.current, phase=self.phase, prompt=said.text,
                        window="claim" if self.claim_open and self.rules.claims != "next-only"
                        else None, say=said)
        log = tuple(format_action(a, self.names) for a in self.history[-12:])
        settlement: tuple[Payment, ...] = ()
        ended: tuple[Said, ...] = ()
        if self.result is not None:
            from hoola.games.hoola.text import knocker_of

            settlement = payments(self.result, self.names, self.rules.payments == "hertzog",
                                  self.melded)
            ended = (outcome(self.result, self.names, knocker_of(self.history)),)
        return Table(zones=tuple(zones), moment=moment, names=self.names, scores=tuple(scores),
                     log=log, settlement=settlement, outcome=ended, cues=self.cues())

    def _settlement(self) -> Zone:
        """The settlement told to this seat, a zone of no cards: how play ended (its label) and
        who pays what and why, line by line (its note), as
        :func:`~hoola.games.hoola.text.describe_settlement` tells it (the points in hand are the
        ``Points`` score line)."""
        from hoola.games.hoola.text import describe_settlement, knocker_of

        assert self.result is not None
        end, *lines = describe_settlement(self.result, self.names, me=self.player,
                                          knocker=knocker_of(self.history))
        told = [line.strip() for line in lines
                if not line.endswith((" points in hand", " point in hand"))]
        return Zone("settlement", "pile", end, count=0, note="\n".join(told))

    def mission_text(self) -> str:
        """The deal's mission for people (ruling 20), with its outcome once play has ended:
        ``Mission quad ×3 (the project's own list): own a set of four on the table at the end``.
        """
        if self.mission is None:
            return ""
        r = self.result
        outcome = "" if r is None else ": achieved" if r.mission_achieved else ": failed"
        return self.mission.label + outcome

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data (cards and actions in record notation), nothing hidden."""
        names = self.names
        result = None
        if self.result is not None:
            r = self.result
            result = {"end": r.end, "winners": [names[w] for w in r.winners],
                      "points": {names[q]: p for q, p in sorted(r.points.items())},
                      "payments": {names[q]: _plain(v) for q, v in sorted(r.payments.items())}}
        data: dict[str, Any] = {
            "game": "hoola",
            "player": self.player,
            "name": names[self.player],
            "names": list(names),
            "rules": {"preset": self.rules.preset_name,
                      "options": _plain(self.rules.overrides())},
            "dealer": self.dealer,
            "stake": _plain(self.stake),
            "phase": self.phase,
            "current": self.current,
            "drawn": self.drawn,
            "hand": format_cards(self.hand).split(),
            "hand_sizes": list(self.hand_sizes),
            "in_deal": list(self.in_deal),
            "melded": list(self.melded),
            "own_meld": list(self.own_meld),
            "had_turn": list(self.had_turn),
            "table": [_meld_json(m, self.rules.glenn_melds) for m in self.melds],
            "discards": format_cards(self.discards).split(),
            "claimable": format_card(self.claimable) if self.claimable is not None else None,
            "claim_open": self.claim_open,
            "discarder": self.discarder,
            "stock_size": self.stock_size,
            "history": [format_action(a, names) for a in self.history],
            "legal": [format_action(a, names) for a in self.legal],
            "can_pass": self.can_pass,
            "result": result,
            "hands": {names[q]: format_cards(h).split() for q, h in enumerate(self.hands)}
            if self.hands is not None else None,
        }
        if self.mission is not None:
            m = self.mission
            data["mission"] = {"feat": m.feat, "multiplier": m.multiplier, "words": m.words,
                               "text": self.mission_text(),
                               "achieved": None if self.result is None
                               else self.result.mission_achieved}
        return data


def _meld_json(m: Meld, stacks: bool) -> dict[str, Any]:
    """A meld as JSON-ready data; with Glenn's building (ruling 21) also its top card and its
    parts (the meld laid down, then each branch, holding its first card)."""
    data: dict[str, Any] = {"id": m.id, "owner": m.owner, "kind": m.kind.name.lower(),
                            "cards": str(m).split()}
    if stacks:
        data["top"] = top_text(m)
        data["parts"] = [{"kind": part.kind.name.lower(), "cards": str(part).split()}
                         for part in parts(m)]
    return data


def _stack_zone(m: Meld, owner: str) -> Zone:
    """A meld under Glenn's building (ruling 21): its cards as they lie, the top card last, and
    the top card (what every addition is built on) in its label and note, with its parts once a
    branch stands on it."""
    top = top_text(m)
    named = say("zone.meld-top", id=m.id, who=owner, top=top)
    if m.branches:
        named = say("zone.meld-built", meld=named, parts=parts_said(m))
    return Zone(f"m{m.id}", "meld", named.text, owner=m.owner, say=named,
                cards=tuple(str(m).split()), note=f"m{m.id} top {top}")


def _plain(value: Any) -> Any:
    """Fractions as whole numbers or "a/b", containers as lists and string-keyed objects."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else str(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _number(value: Fraction | int) -> str:
    return str(_plain(Fraction(value)))


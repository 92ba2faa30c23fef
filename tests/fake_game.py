"""Snap, a tiny game that exists only in the tests: the proof that a new game needs no front-end
code. It speaks the core's interface (Game, GameState, View with ``table()``, Match, records) and
nothing more; tests register it with the registry and play it in the generic front ends.

Sixteen cards (A to 4 of each suit), three to a hand. On your turn you may draw once (up to four
cards), then play a card onto the pile. When it matches the rank of the card under it, everyone
but its player may call ``snap`` before the next play (the player to move may let the moment go
by playing): the first snap takes the pile. When the cards are gone, the most cards taken wins.
A game is two deals.
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hoola.core.cards import format_card, parse_card
from hoola.core.errors import IllegalActionError, NotationError, RecordError, RulesError
from hoola.core.game import OptionInfo, Player, PresetInfo, places_by, played_to_its_end
from hoola.core.table import Moment, Score, Table, Zone

DECK = [suit * 13 + rank for suit in range(4) for rank in range(4)]


@dataclass(frozen=True, slots=True)
class Draw:
    player: int


@dataclass(frozen=True, slots=True)
class Play:
    player: int
    card: int


@dataclass(frozen=True, slots=True)
class Snap:
    player: int


@dataclass(frozen=True)
class SnapView:
    player: int
    names: tuple[str, ...]
    legal: tuple[Any, ...]
    can_pass: bool
    snapshot: Table

    def table(self) -> Table:
        return self.snapshot

    def to_json(self) -> dict[str, Any]:
        return {"game": "snap", "player": self.player, **self.snapshot.to_json()}


class SnapState:
    def __init__(self, names: Sequence[str], seed: int) -> None:
        rng = random.Random(seed)
        deck = list(DECK)
        rng.shuffle(deck)
        self.seed = seed
        self.names = tuple(names)
        n = len(self.names)
        self.hands = [sorted(deck[3 * q:3 * q + 3]) for q in range(n)]
        self.stock = deck[3 * n:]
        self.pile: list[int] = []
        self.captured: list[list[int]] = [[] for _ in range(n)]
        self.current = 0
        self.drawn = False
        self.snappable = False
        self.last: int | None = None
        self.history: list[Any] = []

    @property
    def is_over(self) -> bool:
        return not self.stock and not any(self.hands)

    def actors(self) -> frozenset[int]:
        if self.is_over:
            return frozenset()
        seats = {self.current}
        if self.snappable:
            seats |= {q for q in range(len(self.names)) if q != self.last}
        return frozenset(seats)

    def legal_actions(self, player: int) -> list[Any]:
        if self.is_over or player not in self.actors():
            return []
        acts: list[Any] = []
        if self.snappable and player != self.last:
            acts.append(Snap(player))
        if player == self.current:
            if self.stock and not self.drawn and len(self.hands[player]) < 4:
                acts.append(Draw(player))
            acts.extend(Play(player, c) for c in self.hands[player])
        return acts

    def resolve(self, decisions: Sequence[Any]) -> Any | None:
        for a in decisions:
            if isinstance(a, Snap):
                return a
        return next((a for a in decisions if a.player == self.current), None)

    def verify(self, action: Any) -> None:
        if not isinstance(action, Draw | Play | Snap) or action not in \
                self.legal_actions(action.player):
            raise IllegalActionError(f"{self.format(action)} is not a move now", "illegal")

    def can(self, action: Any) -> bool:
        try:
            self.verify(action)
        except Exception:
            return False
        return True

    def apply(self, action: Any) -> Any:
        self.verify(action)
        p = action.player
        if isinstance(action, Draw):
            self.hands[p].append(self.stock.pop())
            self.hands[p].sort()
            self.drawn = True
        elif isinstance(action, Snap):
            self.captured[p].extend(self.pile)
            self.pile = []
            self.snappable = False
        else:
            self.hands[p].remove(action.card)
            self.snappable = bool(self.pile) and self.pile[-1] % 13 == action.card % 13
            self.pile.append(action.card)
            self.last = p
            self.drawn = False
            self._advance()
        self.history.append(action)
        return action

    def _advance(self) -> None:
        n = len(self.names)
        for step in range(1, n + 1):
            seat = (self.current + step) % n
            if self.hands[seat] or self.stock:
                self.current = seat
                return

    def view(self, player: int) -> SnapView:
        legal = tuple(self.legal_actions(player))
        return SnapView(player, self.names, legal,
                        player in self.actors() and player != self.current,
                        self._table(player))

    def _table(self, me: int) -> Table:
        zones = [Zone(f"hand-{q}", "hand", "Your hand" if q == me else f"{name}'s hand",
                      owner=q, count=len(self.hands[q]),
                      cards=tuple(format_card(c) for c in self.hands[q]) if q == me else None)
                 for q, name in enumerate(self.names)]
        zones += [Zone(f"taken-{q}", "captured", "taken", owner=q, count=len(self.captured[q]))
                  for q in range(len(self.names))]
        zones.append(Zone("pile", "pile", "Pile", cards=tuple(format_card(c)
                                                             for c in self.pile)))
        zones.append(Zone("stock", "stock", "Stock", count=len(self.stock)))
        who = self.names[self.current]
        prompt = "Snap! or let it go" if self.snappable and me != self.last else \
            "Draw, then play a card" if me == self.current else f"{who} to play"
        moment = Moment(actors=tuple(sorted(self.actors())), turn=self.current,
                        phase="over" if self.is_over else "play",
                        prompt="The cards are gone" if self.is_over else prompt,
                        window="snap" if self.snappable else None)
        return Table(zones=tuple(zones), moment=moment, names=self.names,
                     scores=(Score("Taken", tuple(str(len(c)) for c in self.captured)),),
                     log=tuple(self.format(a) for a in self.history[-12:]))

    def returns(self) -> list[Fraction]:
        if not self.is_over:
            return [Fraction(0)] * len(self.names)
        counts = [len(c) for c in self.captured]
        mean = Fraction(sum(counts), len(counts))
        return [c - mean for c in counts]

    def format(self, action: Any) -> str:
        who = self.names[action.player]
        if isinstance(action, Play):
            return f"{who} play {format_card(action.card)}"
        return f"{who} {'draw' if isinstance(action, Draw) else 'snap'}"

    def parse(self, text: str) -> Any:
        words = text.split()
        if len(words) < 2 or words[0] not in self.names:
            raise NotationError(f"cannot read action {text!r}: write a name and a verb")
        seat = self.names.index(words[0])
        if words[1:] == ["draw"]:
            return Draw(seat)
        if words[1:] == ["snap"]:
            return Snap(seat)
        if len(words) == 3 and words[1] == "play":
            return Play(seat, parse_card(words[2]))
        raise NotationError(f"cannot read action {text!r}: expected draw, play C or snap")

    def copy(self) -> SnapState:
        raise NotImplementedError


class SnapMatch:
    def __init__(self, names: Sequence[str], seed: int | None) -> None:
        self.names = tuple(names)
        self.rng = random.Random(seed)
        self.deals: list[SnapState] = []
        self.money = [Fraction(0)] * len(self.names)
        self.finished = 0

    @property
    def is_over(self) -> bool:
        return self.finished >= 2

    def new_deal(self, seed: int | None = None) -> SnapState:
        state = SnapState(self.names, self.rng.randrange(2**32) if seed is None else seed)
        self.deals.append(state)
        return state

    def finish_deal(self) -> None:
        self.money = [m + r for m, r in zip(self.money, self.deals[-1].returns(), strict=True)]
        self.finished += 1

    def totals(self) -> list[Fraction]:
        return list(self.money)

    def places(self) -> list[int]:
        return places_by(self.money, higher=True)

    def takings(self) -> list[Fraction]:
        return list(self.money)

    def scoreboard(self) -> Table:
        best = max(range(len(self.names)), key=lambda q: self.money[q])
        prompt = f"{self.names[best]} wins" if self.is_over else f"{self.names[best]} leads"
        return Table(zones=(), moment=Moment((), None, "over" if self.is_over else "play",
                                             prompt=prompt), names=self.names,
                     scores=(Score("Total", tuple(str(m) for m in self.money)),))


class SnapGame:
    name = "snap"
    title = "Snap"
    min_players = 2
    max_players = 4
    default_preset = "plain"
    ends_by_itself = True

    def presets(self) -> Sequence[PresetInfo]:
        return [PresetInfo("plain", "the tests")]

    def option_infos(self) -> Sequence[OptionInfo]:
        return []

    def rules(self, preset: str | None = None, options: Mapping[str, Any] | None = None) -> str:
        if preset not in (None, "plain") or options:
            raise RulesError(f"Snap has one preset, plain, and no options (not {preset!r})")
        return "plain"

    def teams(self, rules: Any, players: int) -> None:
        return None

    def new_deal(self, rules: Any, names: Sequence[str], *, seed: int | None = None) -> SnapState:
        return SnapState(names, seed or 0)

    def new_match(self, rules: Any, names: Sequence[str], *, seed: int | None = None,
                  until: int = 1) -> SnapMatch:
        played_to_its_end(until, "Snap")
        return SnapMatch(names, seed)

    def determinize(self, view: Any, rng: random.Random) -> SnapState:
        raise NotImplementedError

    def expert(self, seed: int | None = None) -> Player:
        raise NotImplementedError("Snap has no expert")

    def bots(self) -> Mapping[str, Any]:
        return {}  # no bot of its own: random plays, and ismcts needs an expert

    def format_action(self, action: Any, names: Sequence[str]) -> str:
        return SnapState(names, 0).format(action)

    def record_text(self, match: Any, comment: str = "") -> str:
        out = [f"# {line}\n" for line in comment.splitlines()]
        out.append('format = "hoola-record/1"\ngame = "snap"\nrules = "plain"\n')
        out.append("players = [" + ", ".join(f'"{n}"' for n in match.names) + "]\n")
        for state in match.deals:
            out.append(f"\n[[deal]]\nseed = {state.seed}\nactions = [\n")
            out.extend(f'  "{state.format(a)}",\n' for a in state.history)
            out.append("]\n")
        return "".join(out)

    def _replay(self, data: dict[str, Any], seed: int | None) -> SnapMatch:
        players = data.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 4:
            raise RecordError("players must be 2 to 4 names")
        match = SnapMatch(players, seed)
        for i, deal in enumerate(data.get("deal", []), 1):
            if match.deals and not match.deals[-1].is_over:
                raise RecordError(f"deal {i - 1} has not ended, yet another follows")
            state = match.new_deal(deal.get("seed"))
            for text in deal.get("actions", []):
                try:
                    state.apply(state.parse(text))
                except (IllegalActionError, NotationError) as exc:
                    raise RecordError(f"deal {i}: {exc.message}") from exc
            if state.is_over:
                match.finish_deal()
        return match

    def resume(self, text: str, *, seed: int | None = None) -> SnapMatch:
        return self._replay(tomllib.loads(text), seed)

    def verify_record(self, data: dict[str, Any], text: str = "") -> list[str]:
        try:
            self._replay(data, None)
        except RecordError as exc:
            return [exc.message]
        return []


SNAP = SnapGame()

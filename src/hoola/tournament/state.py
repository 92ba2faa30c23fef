"""A tournament as a state machine of events: apply them one by one, and it says what is due.

Events from outside (entrants, the start with its seed, table results, players leaving tables,
buy-ins and retirements) are checked and applied; the events that follow from them (tables
formed, byes, buy-ins closing, refunds, the winner) are computed from the state and the seed, and
:meth:`Tournament.advance` applies them. Replaying a tournament's events rebuilds it exactly, and
an event that is not what the draw or the rules give is refused: a server stores each event
before announcing it and, after a restart, replays them.

Every draw has its own random source, seeded by the tournament's seed and the draw's name (the
lot, the seating of a table, a round), so a draw does not depend on the order in which tables
finished.

>>> t = Tournament.open("swiss", "hoola", settings={"table_size": 2, "rounds": 1})
>>> for name in "ABCD":
...     _ = t.apply(Enter(name))
>>> _ = t.apply(Start(seed=1))
>>> [describe(e) for e in t.advance()]
['table 1 (round): A C', 'table 2 (round): B D']
>>> _ = t.step(Result(1, {"A": 2, "C": 1}, {"A": Fraction(-3), "C": Fraction(3)}))
>>> [describe(e) for e in t.step(Result(2, {"B": 1, "D": 2}, {"B": Fraction(1), "D": -1}))]
['table 2 ends: 1. B, 2. D', 'C wins the tournament']
>>> [(p, str(t.points[p])) for p in t.standings()]
[('C', '1'), ('B', '1'), ('A', '0'), ('D', '0')]
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from hoola.core.errors import HoolaError
from hoola.core.registry import get_game
from hoola.tournament.config import (
    BLACKPOOL_ENTRANTS,
    Settings,
    check_sizes,
    table_rules,
)
from hoola.tournament.events import (
    DERIVED,
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
from hoola.tournament.pairing import blackpool_sizes, even_sizes, pair_key, swiss_tables

__all__ = ["Table", "Tournament"]

MOST_ENTRANTS = 1024


def _refuse(message: str, code: str = "bad-event") -> TournamentError:
    return TournamentError(message, code)


@dataclass
class Table:
    """A table of the tournament: its stage, round, players in seat order, who left it (in
    order) and, once it has ended, its result."""

    id: int
    stage: str
    round: int
    players: tuple[str, ...]
    left: list[str] = field(default_factory=list)
    result: Result | None = None

    @property
    def is_over(self) -> bool:
        """Whether the table has its result."""
        return self.result is not None

    @property
    def until(self) -> int:
        """Players left at which the table's game ends: two at a semi-final, else one."""
        return 2 if self.stage == "semi-final" else 1


def semi_final_sizes(winners: int) -> tuple[int, ...]:
    """How Blackpool's table winners are grouped into semi-finals, the larger group first (ruling
    16: one table for four winners or fewer, else two).

    >>> semi_final_sizes(4), semi_final_sizes(7), semi_final_sizes(10)
    ((4,), (4, 3), (5, 5))
    """
    if winners <= 4:
        return (winners,)
    return (winners - winners // 2, winners // 2)


class Tournament:
    """A tournament of any format, game and preset; see the module's documentation."""

    def __init__(self, opening: Open) -> None:
        try:
            game = get_game(opening.game)
            self.settings = Settings.make(opening.format, game.name, **dict(opening.settings))
            self.rules = table_rules(game, opening.rules, opening.options, opening.format)
        except HoolaError as exc:
            raise TournamentError(exc.message, exc.code) from exc
        if opening.format == "blackpool":
            # Every table may send a winner to the semi-finals (two or fewer have byes).
            tables = self.settings.tables
            semi = semi_final_sizes(tables)[0]
            try:
                if semi > 2:
                    check_sizes(game.name, self.rules, {semi})
            except TournamentError as exc:
                raise _refuse(f"setting tables = {tables} is too many: the winners of {tables} "
                              f"tables meet at two semi-finals of up to {semi}, and {exc.message}",
                              "bad-settings") from exc
        self.format = opening.format
        self.game = game.name
        self.preset = self.rules.preset_name
        self.options = dict(opening.options)
        # The settings in full, defaults included: the same event whether written or read.
        self.events: list[Event] = [replace(opening, settings=self.settings.as_mapping())]
        self.entrants: list[str] = []
        self.seed: int | None = None
        self.tables: dict[int, Table] = {}
        self.points: dict[str, Fraction] = {}
        self.money: dict[str, Fraction] = {}
        self.byes: Counter[str] = Counter()
        self.met: Counter[tuple[str, str]] = Counter()
        self.opponents: dict[str, list[str]] = {}
        self.buy_ins: Counter[str] = Counter()
        self.queue: list[str] = []
        self.deciding: list[str] = []
        self.out: list[str] = []  # out of the tournament, in order
        self.closed = False
        self.pot = Fraction(0)
        self.round = 0
        self.reached: dict[str, tuple[int, int]] = {}  # knockout: (round, place) last played
        self.qualified: list[str] = []  # Blackpool: table winners, in order of their tables
        self.finalists: list[str] = []
        self.knockout_byes: list[tuple[int, str]] = []  # (round, player)
        self.winner: str | None = None
        self._plan: list[Event] = []
        self._lot: dict[str, int] = {}

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def open(cls, format: str, game: str, rules: str | None = None,
             options: Mapping[str, Any] | None = None,
             settings: Mapping[str, Any] | None = None) -> Tournament:
        """A new tournament, open for entries (its first event, :class:`Open`)."""
        if rules is None:
            try:
                rules = "blackpool" if format == "blackpool" else get_game(game).default_preset
            except HoolaError as exc:
                raise TournamentError(exc.message, exc.code) from exc
        return cls(Open(format, game, rules, dict(options or {}), dict(settings or {})))

    @classmethod
    def replay(cls, events: Iterable[Event]) -> Tournament:
        """The tournament its events make (the first is :class:`Open`); a TournamentError
        names the first event refused."""
        items = iter(events)
        first = next(items, None)
        if not isinstance(first, Open):
            raise _refuse("a tournament's first event opens it")
        t = cls(first)
        for i, event in enumerate(items, 2):
            try:
                t.apply(event)
            except TournamentError as exc:
                raise TournamentError(f"event {i} ({describe(event)}): {exc.message}",
                                      exc.code) from exc
        return t

    # -- what the state says ------------------------------------------------------------------

    @property
    def started(self) -> bool:
        """Whether the entries have closed and the draws begun."""
        return self.seed is not None

    @property
    def is_over(self) -> bool:
        """Whether the tournament has its winner."""
        return self.winner is not None

    @property
    def entry_fee(self) -> Fraction:
        """What each entrant pays into the pot: Blackpool's ``initial_stake``, else nothing."""
        return Fraction(self.rules.initial_stake) if self.format == "blackpool" else Fraction(0)

    def playing(self) -> list[Table]:
        """The tables formed and not yet over, in order: those to play now."""
        return [t for t in self.tables.values() if not t.is_over]

    next_tables = playing

    def table_of(self, player: str) -> Table | None:
        """The table ``player`` is playing at now, if any."""
        for t in self.playing():
            if player in t.players and player not in t.left:
                return t
        return None

    def table_seed(self, table: int) -> int:
        """The seed of table ``table``'s shuffles."""
        return self._rng(f"table {table}/deals").randrange(2**62)

    def standings(self) -> list[str]:
        """Every entrant, best first (before the start, in the order they entered)."""
        if not self.started:
            return list(self.entrants)
        if self.format == "swiss":
            return sorted(self.entrants, key=self._swiss_key)
        if self.format == "knockout":
            return sorted(self.entrants, key=lambda p: (
                p != self.winner, -self.reached.get(p, (0, 0))[0],
                self.reached.get(p, (0, 0))[1], self._lot[p]))
        gone = {p: i for i, p in enumerate(self.out)}
        last: dict[str, tuple[int, int]] = {}
        for t in self.tables.values():
            if t.result is not None:
                for p in t.players:
                    last[p] = (t.id, t.result.places[p])
        return sorted(self.entrants, key=lambda p: (
            p != self.winner, p not in self.finalists, p not in self.qualified,
            -gone.get(p, len(gone)), last.get(p, (0, 0))[1], self._lot[p]))

    def buchholz(self, player: str) -> Fraction:
        """The sum of the points of every opponent ``player`` has met (a Swiss tie-break)."""
        return sum((self.points[o] for o in self.opponents.get(player, [])), Fraction(0))

    def _swiss_key(self, player: str) -> tuple[Fraction, Fraction, int]:
        return (-self.points[player], -self.buchholz(player), self._lot[player])

    # -- events -------------------------------------------------------------------------------

    def next_due(self) -> Event | None:
        """The next event that follows from the state (a table, a bye, buy-ins closing, a
        refund, the winner), or None when the tournament waits for events from outside."""
        if not self.started or self.is_over:
            return None
        if not self._plan:
            self._plan = self._derive()
        return self._plan[0] if self._plan else None

    def advance(self) -> list[Event]:
        """Apply every event due now, in order, and return them."""
        done: list[Event] = []
        while (event := self.next_due()) is not None:
            done.append(self.apply(event))
        return done

    def step(self, event: Event) -> list[Event]:
        """Apply ``event`` and then every event it makes due: all of them, in order."""
        return [self.apply(event), *self.advance()]

    def verify(self, event: Event) -> None:
        """Raise a TournamentError saying why ``event`` cannot be applied now; nothing else."""
        if isinstance(event, DERIVED):
            due = self.next_due()
            if due is None:
                raise _refuse("nothing of the kind is due now", "not-due")
            if event != due:
                raise _refuse(f"the draw and the rules give {describe(due)}", "not-drawn")
            return
        if self.started:
            due = self.next_due()
            if due is not None:
                raise _refuse(f"{describe(due)} is due first", "not-due")
        self._check(event)

    def can(self, event: Event) -> bool:
        """Whether ``event`` may be applied now (never raises)."""
        try:
            self.verify(event)
        except TournamentError:
            return False
        return True

    def apply(self, event: Event) -> Event:
        """Check and apply one event and return it; a TournamentError says why one is refused
        (the state is then unchanged)."""
        self.verify(event)
        if isinstance(event, DERIVED):
            self._plan.pop(0)
        self._do(event)
        self.events.append(event)
        return event

    def _check(self, event: Event) -> None:
        if isinstance(event, Open):
            raise _refuse("the tournament is already open")
        if isinstance(event, Enter):
            if self.started:
                raise _refuse(f"{event.player} cannot enter: the tournament has started")
            if event.player in self.entrants:
                raise _refuse(f"{event.player} has already entered")
            if len(self.entrants) >= MOST_ENTRANTS:
                raise _refuse(f"a tournament has at most {MOST_ENTRANTS} entrants")
        elif isinstance(event, Start):
            if self.started:
                raise _refuse("the tournament has already started")
            self._check_entrants()
        elif not self.started:
            raise _refuse("the tournament has not started")
        elif isinstance(event, Leave):
            table = self.tables.get(event.table)
            if table is None or table.is_over:
                raise _refuse(f"table {event.table} is not playing")
            if event.player not in table.players or event.player in table.left:
                raise _refuse(f"{event.player} is not at table {event.table}")
            if len(table.players) - len(table.left) <= 1:
                raise _refuse(f"{event.player} is the last player at table {event.table}")
            if self.format != "blackpool":
                raise _refuse("players leave tables only in the Blackpool tournament")
        elif isinstance(event, BuyIn | Retire):
            if event.player not in self.deciding:
                raise _refuse(f"{event.player} has not left a table to decide whether to buy "
                              "in")
            if isinstance(event, BuyIn) and self.closed:
                raise _refuse(f"{event.player} cannot buy in: buy-ins are closed")
        elif isinstance(event, Result):
            self._check_result(event)

    def _check_entrants(self) -> None:
        n = len(self.entrants)
        if self.format == "blackpool":
            low, high = BLACKPOOL_ENTRANTS
            if not low <= n <= high:
                raise _refuse(f"a Blackpool tournament has {low} to {high} entrants, not {n}",
                              "bad-entrants")
            sizes = {3, 4, 2}
        elif self.format == "swiss":
            if n < self.settings.table_size:
                raise _refuse(f"a Swiss tournament at tables of {self.settings.table_size} needs "
                              f"at least {self.settings.table_size} entrants, not {n}",
                              "bad-entrants")
            sizes = {self.settings.table_size}
        else:
            if n < 2:
                raise _refuse(f"a knockout needs at least 2 entrants, not {n}", "bad-entrants")
            sizes = set()
            left = n
            while True:
                tables = even_sizes(left, self.settings.table_size)
                sizes.update(s for s in tables if s > 1)
                if len(tables) == 1:
                    break
                left = sum(min(self.settings.advance, s - 1) if s > 1 else 1 for s in tables)
        try:
            check_sizes(self.game, self.rules, sizes)
        except TournamentError as exc:
            raise TournamentError(exc.message, "bad-entrants") from exc

    def _check_result(self, event: Result) -> None:
        table = self.tables.get(event.table)
        if table is None or table.is_over:
            raise _refuse(f"table {event.table} is not playing")
        if set(event.places) != set(table.players) or set(event.totals) != set(table.players):
            raise _refuse(f"the result of table {event.table} must give a place and a total to "
                          f"each of its players: {', '.join(table.players)}")
        ranked = sorted(event.places.values())
        if any(place != ranked.index(place) + 1 for place in ranked):
            raise _refuse(f"the places at table {event.table} are not a ranking (1, 2, ...; "
                          "tied players share a place and the next is skipped)")
        if self.format != "blackpool":
            return
        if sum(event.totals.values(), Fraction(0)) != 0:
            raise _refuse(f"the money of table {event.table} does not add up to zero (its pool "
                          "goes to its winners)")
        staying = {p for p in table.players if p not in table.left}
        firsts = {p for p, place in event.places.items() if place == 1}
        if len(staying) > table.until:
            raise _refuse(f"table {event.table} is not over: {', '.join(sorted(staying))} "
                          "are still playing")
        if any(event.places[p] > table.until for p in staying) or (
                table.until == 1 and firsts != staying):
            raise _refuse(f"the players left at table {event.table} must have its first "
                          f"place{'s' if table.until > 1 else ''}, the winner alone")
        if len(table.players) > table.until and \
                len(self._advancers(table, event)) != table.until:
            raise _refuse(f"table {event.table} must send {table.until} players on")

    # -- effects ------------------------------------------------------------------------------

    def _do(self, event: Event) -> None:
        if isinstance(event, Enter):
            self.entrants.append(event.player)
        elif isinstance(event, Start):
            self._start(event.seed)
        elif isinstance(event, Seat):
            self.tables[event.table] = Table(event.table, event.stage, event.round, event.players)
            if event.stage == "buy-in":
                self.queue = [p for p in self.queue if p not in event.players]
        elif isinstance(event, Bye):
            self.byes[event.player] += 1
            if self.format == "swiss":
                self.points[event.player] += self.settings.bye
            elif self.format == "knockout":
                self.knockout_byes.append((event.round, event.player))
                self.reached[event.player] = (event.round, 1)
            else:
                self.finalists.append(event.player)
        elif isinstance(event, Leave):
            table = self.tables[event.table]
            table.left.append(event.player)
            if table.stage in ("qualifying", "buy-in"):
                if self.closed:
                    self.out.append(event.player)
                else:
                    self.deciding.append(event.player)
        elif isinstance(event, BuyIn):
            self.deciding.remove(event.player)
            self.buy_ins[event.player] += 1
            self.money[event.player] -= Fraction(self.rules.buy_in)
            self.pot += Fraction(self.rules.buy_in)
            self.queue.append(event.player)
        elif isinstance(event, Retire):
            self.deciding.remove(event.player)
            self.out.append(event.player)
        elif isinstance(event, Close):
            self.closed = True
            self.out.extend(self.deciding)
            self.deciding = []
        elif isinstance(event, Refund):
            self.queue.remove(event.player)
            self.money[event.player] += Fraction(self.rules.buy_in)
            self.pot -= Fraction(self.rules.buy_in)
            self.out.append(event.player)
        elif isinstance(event, Result):
            self._finish_table(event)
        elif isinstance(event, Finish):
            self.winner = event.winner
            if self.format == "blackpool":
                self.money[event.winner] += self.pot

    def _start(self, seed: int) -> None:
        self.seed = seed
        lot = list(self.entrants)
        self._rng("lot").shuffle(lot)
        self._lot = {p: i for i, p in enumerate(lot)}
        fee = self.entry_fee
        for p in self.entrants:
            self.points[p] = Fraction(0)
            self.money[p] = -fee
            self.opponents[p] = []
        self.pot = fee * len(self.entrants)

    def _finish_table(self, event: Result) -> None:
        table = self.tables[event.table]
        table.result = event
        for p in table.players:
            self.money[p] += Fraction(event.totals[p])
            self.opponents[p].extend(o for o in table.players if o != p)
        for i, a in enumerate(table.players):
            for b in table.players[i + 1:]:
                self.met[pair_key(a, b)] += 1
        if self.format == "swiss":
            for p, share in self._place_points(event).items():
                self.points[p] += share
        elif self.format == "knockout":
            for p in table.players:
                self.reached[p] = (table.round, event.places[p])
        elif table.stage in ("qualifying", "buy-in"):
            (winner,) = [p for p in table.players if event.places[p] == 1]
            self.qualified.append(winner)
        elif table.stage == "semi-final":
            going = self._advancers(table, event)
            self.finalists.extend(going)
            self.out.extend(sorted((p for p in table.players if p not in going),
                                   key=lambda p: (-event.places[p], self._lot[p])))

    def _place_points(self, event: Result) -> dict[str, Fraction]:
        """Points by place; players tied share the points of the places they span."""
        points = self.settings.points
        shares: dict[str, Fraction] = {}
        for p, place in event.places.items():
            tied = sum(1 for q in event.places.values() if q == place)
            span = points[place - 1:place - 1 + tied]
            shares[p] = sum(span, Fraction(0)) / len(span)
        return shares

    def _advancers(self, table: Table, event: Result) -> list[str]:
        """Those who go on from a knockout table or a semi-final: the best places, ties broken
        by the lot."""
        count = self.settings.advance if self.format == "knockout" else table.until
        count = min(count, len(table.players) - 1)
        order = sorted(table.players, key=lambda p: (event.places[p], self._lot[p]))
        if self.format == "blackpool":
            return [p for p in order if event.places[p] <= table.until][:count]
        return order[:count]

    # -- what follows -------------------------------------------------------------------------

    def _rng(self, name: str) -> random.Random:
        return random.Random(f"{self.seed}/{name}")

    def _seat(self, stage: str, round: int, players: Sequence[str], id: int) -> Seat:
        seats = list(players)
        self._rng(f"table {id}").shuffle(seats)
        return Seat(id, stage, round, tuple(seats))

    def _derive(self) -> list[Event]:
        if self.format == "swiss":
            return self._derive_swiss()
        if self.format == "knockout":
            return self._derive_knockout()
        return self._derive_blackpool()

    def _round_over(self) -> bool:
        return all(t.is_over for t in self.tables.values())

    def _derive_swiss(self) -> list[Event]:
        if not self._round_over():
            return []
        if self.round == self.settings.rounds:
            return [Finish(self.standings()[0])]
        self.round += 1
        size = self.settings.table_size
        order = self.standings() if self.round > 1 else sorted(self.entrants,
                                                               key=self._lot.__getitem__)
        byes = len(order) % size
        position = {p: i for i, p in enumerate(order)}
        given = sorted(order, key=lambda p: (self.byes[p], -position[p]))[:byes]
        playing = [p for p in order if p not in given]
        plan: list[Event] = [Bye(p, "round", self.round)
                             for p in sorted(given, key=position.__getitem__)]
        next_id = len(self.tables) + 1
        for i, table in enumerate(swiss_tables(playing, size, self.met)):
            plan.append(self._seat("round", self.round, table, next_id + i))
        return plan

    def _derive_knockout(self) -> list[Event]:
        if not self._round_over():
            return []
        if self.round == 0:
            players = sorted(self.entrants, key=self._lot.__getitem__)
        else:
            last = [t for t in self.tables.values() if t.round == self.round]
            byes = [p for r, p in self.knockout_byes if r == self.round]
            if len(last) == 1 and not byes:
                result = last[0].result
                assert result is not None
                return [Finish(self._advancers(last[0], result)[0])]
            players = [p for t in last if t.result is not None
                       for p in self._advancers(t, t.result)] + byes
            self._rng(f"round {self.round + 1}").shuffle(players)
        self.round += 1
        sizes = even_sizes(len(players), self.settings.table_size)
        stage = "final" if len(sizes) == 1 else "knockout"
        plan: list[Event] = []
        start, next_id = 0, len(self.tables) + 1
        for size in sizes:
            group = players[start:start + size]
            start += size
            if size == 1:  # an odd player out at tables of two goes on
                plan.append(Bye(group[0], "knockout", self.round))
            else:
                plan.append(self._seat(stage, self.round, group, next_id))
                next_id += 1
        return plan

    def _derive_blackpool(self) -> list[Event]:
        tables = self.tables.values()
        next_id = len(self.tables) + 1
        if not self.tables:
            players = list(self.entrants)
            self._rng("seating").shuffle(players)
            plan: list[Event] = []
            start = 0
            for i, size in enumerate(blackpool_sizes(len(players))):
                plan.append(self._seat("qualifying", 1, players[start:start + size], i + 1))
                start += size
            return plan
        qualifying = [t for t in tables if t.stage in ("qualifying", "buy-in")]
        if not self.closed:
            if len(self.tables) >= self.settings.tables:
                return [Close()]
            if len(self.queue) >= 4:
                return [self._seat("buy-in", 1, self.queue[:4], next_id)]
            if all(t.is_over for t in qualifying) and not self.deciding:
                return [Close()]
            return []
        if self.queue:
            if len(self.queue) == 3:
                return [self._seat("buy-in", 1, self.queue, next_id)]
            return [Refund(p) for p in self.queue]
        if not all(t.is_over for t in tables) or self.deciding:
            return []
        stages = {t.stage for t in tables}
        if "final" in stages:
            (final,) = [t for t in tables if t.stage == "final"]
            assert final.result is not None
            (winner,) = [p for p, place in final.result.places.items() if place == 1]
            return [Finish(winner)]
        if "semi-final" not in stages and not self.finalists:
            return self._semi_finals(next_id)
        finalists = list(self.finalists)
        return [self._seat("final", 1, finalists, next_id)]

    def _semi_finals(self, next_id: int) -> list[Event]:
        players = list(self.qualified)
        self._rng("semi-finals").shuffle(players)
        first = semi_final_sizes(len(players))[0]
        groups = [players[:first], players[first:]] if first < len(players) else [players]
        plan: list[Event] = []
        for group in groups:
            if len(group) <= 2:
                plan.extend(Bye(p, "semi-final", 1) for p in group)
            else:
                plan.append(self._seat("semi-final", 1, group, next_id))
                next_id += 1
        return plan

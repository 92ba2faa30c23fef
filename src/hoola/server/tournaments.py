"""Tournaments on the server: a :class:`hoola.tournament.Tournament` driven by ``hoola serve``.

A tournament is made from the lobby (any format, game and preset), people enter by name (or as
their signed-in account) and the creator starts it, bots filling the empty places if allowed.
From then on the server drives it: each table the tournament's state asks for is opened as an
ordinary server table (timers, stand-in bots and spectators as at any table), seated with the
entrants (a person's seat held by the token they entered with), and what the table's game does
comes back as events: a Blackpool player over the target leaves, a finished table gives its
result. A person who leaves a Blackpool table decides whether to buy in (a bot decides at once,
as the lab's bots do: it buys in while it may; a person who has not decided by the deadline is
decided for by the same rule).

Nothing is lost: every event is stored (``tournament_events``) before it is announced; a
restart replays each tournament's events and goes on, the tables themselves being rebuilt from
their own stored actions by the hub. A finished tournament's record
(:mod:`hoola.tournament.record`) holds each table's game record and verifies.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import FileResponse, PlainTextResponse
from pydantic import BaseModel, Field

from hoola.core.registry import game_and_preset, get_game
from hoola.server.accounts import check_origin
from hoola.server.context import NAME_RE, Server, address, bearer, plain, same
from hoola.server.errors import STATUS, responses
from hoola.server.hub import Hub
from hoola.server.room import Room, RoomError
from hoola.server.store import SeatRow, Store, StoreUnavailable, TableRow, digest, new_token
from hoola.tournament import outcome
from hoola.tournament.events import (
    BuyIn,
    Bye,
    Enter,
    Event,
    Leave,
    Retire,
    Start,
    as_table,
    describe,
    from_table,
)
from hoola.tournament.play import table_result
from hoola.tournament.record import dumps
from hoola.tournament.state import Table, Tournament

__all__ = ["CreateTournament", "TournamentRoom", "Tournaments", "router"]

log = logging.getLogger("hoola.server")

DECIDE_SECONDS = 60.0
"""A person's time to choose whether to buy in after leaving a Blackpool table; then the bots'
rule decides for them (buy in while buy-ins are open)."""
GRACE_SECONDS = 15.0
"""Seconds a person has to reach a new table of theirs before a stand-in bot plays for them."""
WAIT_SECONDS = 20.0
"""The longest a page's request for news of a tournament waits before it is answered as is."""
MOST_OPEN = 20
"""Tournaments one address may have open for entries at once."""

STATUS.setdefault("no-tournament", 404)  # as a table that is not there

metadata = sa.MetaData()

tournaments_table = sa.Table(
    "tournaments", metadata,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("config", sa.Text, nullable=False),  # JSON: name, size, bots, timers, creator
    sa.Column("status", sa.String(16), nullable=False),  # open, playing, over
    sa.Column("host_digest", sa.String(64), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)

events_table = sa.Table(
    "tournament_events", metadata,
    sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"),
              primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("event", sa.Text, nullable=False),  # JSON: the event as its record writes it
    sa.Column("at", sa.Float, nullable=False),
)

entrants_table = sa.Table(
    "tournament_entrants", metadata,
    sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"),
              primary_key=True),
    sa.Column("name", sa.String(24), primary_key=True),
    sa.Column("bot", sa.String(64), nullable=True),  # a bot's kind; None: a person
    sa.Column("token_digest", sa.String(64), nullable=True),  # the person's token, digested
    sa.Column("account_id", sa.String(24), nullable=True),
)

seats_table = sa.Table(
    "tournament_tables", metadata,
    sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"),
              primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),  # the tournament's table number
    sa.Column("table_id", sa.String(24), nullable=False),  # the server's table
)


# -- the tables of a tournament -----------------------------------------------------------------

class TournamentRoom(Room):
    """A server table that a tournament opened: a Blackpool semi-final is played until two are
    left, and every finished deal tells the tournament (which reads the leavers and the end
    from the game itself)."""

    def __init__(self, *args: Any, on_deal: Callable[[str], None], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.on_deal = on_deal
        self.replaying = False
        self.grace_until = float(self.config.get("grace_until", 0.0))

    def rebuild(self) -> None:
        """Replay the stored actions, telling the tournament nothing (it reads them after)."""
        self.replaying = True
        try:
            super().rebuild()
        finally:
            self.replaying = False

    def _after_deal(self) -> None:
        super()._after_deal()
        if not self.replaying:
            self.on_deal(str(self.config["tournament"]))


def finished_match(store: Store, row: TableRow) -> Any:
    """The game of a stored tournament table, replayed from its actions."""
    room = TournamentRoom(row, store.seats(row.id), store, lambda seat, message: None,
                          on_deal=lambda tid: None)
    room.rebuild()
    return room.match


# -- the tournaments ---------------------------------------------------------------------------

@dataclass(eq=False)
class Live:
    """A tournament this process drives: its state, its settings on the server, its people."""

    id: str
    config: dict[str, Any]
    status: str
    host_digest: str
    t: Tournament
    entrants: dict[str, dict[str, Any]]  # name -> {bot, token_digest, account_id}
    tables: dict[int, str] = field(default_factory=dict)  # number -> server table id
    decided_at: dict[str, float] = field(default_factory=dict)  # deciding -> since when
    version: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def _encode(event: Event) -> str:
    return json.dumps(as_table(event), default=lambda v: str(v) if isinstance(v, Fraction)
                      else repr(v))


class Tournaments:
    """Every tournament of the server: stored, replayed at the start, driven to its end."""

    def __init__(self, store: Store, hub: Hub) -> None:
        self.store = store
        self.hub = hub
        self.live: dict[str, Live] = {}
        self.retry: asyncio.Task[None] | None = None  # the start, again, once the database is back
        for attempt in range(5):
            try:
                metadata.create_all(store.engine)
                break
            except sa.exc.DBAPIError:
                # Servers started together on a new database race to create the tables (as the
                # store's own): the losers find them made and look again.
                if attempt == 4:
                    raise
                time.sleep(0.05 * (attempt + 1))
        plain_room = hub.make_room

        def make_room(row: TableRow, *args: Any, **kwargs: Any) -> Room:
            if "tournament" in row.config:
                return TournamentRoom(row, *args, on_deal=self.kick, **kwargs)
            return plain_room(row, *args, **kwargs)

        hub.make_room = make_room

    # -- life ---------------------------------------------------------------------------------

    async def start(self) -> None:
        """Replay every tournament not over, and drive those in play on (with the database
        away, a little later)."""
        try:
            with self.store.reading("the tournaments") as db:
                rows = db.execute(sa.select(tournaments_table).where(
                    tournaments_table.c.status != "over")).all()
        except StoreUnavailable:
            log.warning("tournaments wait for the database to go on")
            self.retry = asyncio.get_running_loop().create_task(self._start_later())
            return
        for row in rows:
            if row.id in self.live:
                continue
            try:
                live = self._load(row)
            except Exception:
                log.exception("tournament %s cannot be replayed", row.id)
                continue
            self.live[live.id] = live
            if live.status == "playing":
                self._drive(live)

    async def _start_later(self) -> None:
        await asyncio.sleep(5.0)
        await self.start()

    async def stop(self) -> None:
        """Stop driving (the tournaments go on at the next start)."""
        if self.retry is not None:
            self.retry.cancel()
        for live in self.live.values():
            if live.task is not None:
                live.task.cancel()

    def _load(self, row: Any) -> Live:
        with self.store.reading("a tournament") as db:
            events = [from_table(json.loads(e.event)) for e in db.execute(
                sa.select(events_table).where(events_table.c.tournament_id == row.id)
                .order_by(events_table.c.seq))]
            entrants = {e.name: {"bot": e.bot, "token_digest": e.token_digest,
                                 "account_id": e.account_id}
                        for e in db.execute(sa.select(entrants_table).where(
                            entrants_table.c.tournament_id == row.id))}
            tables = {s.number: s.table_id for s in db.execute(sa.select(seats_table).where(
                seats_table.c.tournament_id == row.id))}
            ats = [e.at for e in db.execute(sa.select(events_table.c.at).where(
                events_table.c.tournament_id == row.id).order_by(events_table.c.seq))]
        t = Tournament.replay(events)
        live = Live(row.id, json.loads(row.config), row.status, row.host_digest, t, entrants,
                    tables)
        for event, at in zip(events, ats, strict=True):
            if isinstance(event, Leave) and event.player in t.deciding:
                live.decided_at[event.player] = at
        return live

    def get(self, tid: str) -> Live:
        """The tournament ``tid`` (over ones are read from the store)."""
        live = self.live.get(tid) if isinstance(tid, str) and len(tid) <= 24 else None
        if live is not None:
            return live
        if not isinstance(tid, str) or len(tid) > 24:
            raise RoomError("there is no such tournament", "no-tournament")
        with self.store.reading("a tournament") as db:
            row = db.execute(sa.select(tournaments_table).where(
                tournaments_table.c.id == tid)).first()
        if row is None:
            raise RoomError("there is no such tournament", "no-tournament")
        live = self._load(row)
        self.live[tid] = live
        return live

    # -- storing and announcing ---------------------------------------------------------------

    def _store(self, live: Live, events: list[Event], *, status: str | None = None,
               entrant: dict[str, Any] | None = None) -> None:
        """Store ``events`` (applied to ``live.t`` already) in one transaction, then announce
        them; a refusal replays the tournament from what is stored and raises."""
        first = len(live.t.events) - len(events) + 1
        now = time.time()
        try:
            with self.store.writing("a tournament's events") as db:
                if entrant is not None:
                    db.execute(entrants_table.insert().values(tournament_id=live.id, **entrant))
                for i, event in enumerate(events):
                    db.execute(events_table.insert().values(
                        tournament_id=live.id, seq=first + i, event=_encode(event), at=now))
                if status is not None:
                    db.execute(tournaments_table.update().where(
                        tournaments_table.c.id == live.id).values(status=status))
        except (StoreUnavailable, sa.exc.IntegrityError):
            with contextlib.suppress(Exception):
                with self.store.reading("a tournament") as db:
                    row = db.execute(sa.select(tournaments_table).where(
                        tournaments_table.c.id == live.id)).one()
                fresh = self._load(row)
                live.t, live.entrants, live.status = fresh.t, fresh.entrants, fresh.status
            raise
        if status is not None:
            live.status = status
        for event in events:
            if isinstance(event, Leave) and event.player in live.t.deciding:
                live.decided_at[event.player] = now
        self._announce(live)

    def _announce(self, live: Live) -> None:
        live.version += 1
        live.changed.set()
        live.changed = asyncio.Event()

    def _step(self, live: Live, event: Event) -> list[Event]:
        """Apply ``event`` and what follows, store them all, then announce."""
        done = live.t.step(event)
        self._store(live, done)
        return done

    # -- making, entering, starting -----------------------------------------------------------

    def create(self, spec: CreateTournament, creator: str,
               account_id: str | None = None) -> tuple[Live, str]:
        """A new tournament open for entries; the creator's secret token. ``creator`` (an
        address's key) and ``account_id`` (a signed-in creator) have so many open at once."""
        if self.hub.redis_url is not None:
            # Every process would drive the same tournament and open its tables twice.
            raise RoomError("tournaments are played on a server of one process (no --redis)",
                            "no-tournaments")
        game, preset = game_and_preset(spec.game, spec.preset)
        if spec.format == "blackpool" and preset is None:
            preset = "blackpool"
        t = Tournament.open(spec.format, game.name, preset or game.default_preset,
                            spec.options, spec.settings)
        bots = spec.bots
        if bots is not None:
            from hoola.bots import check_seat_kind

            try:
                check_seat_kind(bots)
            except ValueError as exc:
                raise RoomError(str(exc), "unknown-bot") from exc
        probe = Tournament.replay(t.events)
        for i in range(spec.entrants):
            probe.apply(Enter(f"P{i + 1}"))
        probe.verify(Start(0))  # the number of entrants fits the format and the game
        if spec.name and not plain(spec.name, 40):
            raise RoomError("a tournament's name is plain text", "bad-name")
        open_here = sum(1 for lv in self.live.values() if lv.status == "open" and (
            lv.config.get("creator") == creator
            or (account_id is not None and lv.config.get("account") == account_id)))
        if open_here >= MOST_OPEN:
            raise RoomError(f"you have {open_here} tournaments open for entries already: start "
                            "or finish one first", "too-many-tournaments")
        token = new_token()
        tid = secrets.token_urlsafe(9)
        config = {"name": plain(spec.name or "", 40), "entrants": spec.entrants,
                  "bots": bots, "turn_seconds": spec.turn_seconds,
                  "claim_seconds": spec.claim_seconds, "bot_delay": spec.bot_delay,
                  "bot_reaction": list(spec.bot_reaction), "decide_seconds": spec.decide_seconds,
                  "grace_seconds": spec.grace_seconds,
                  "creator": creator, "account": account_id, "created": time.time()}
        live = Live(tid, config, "open", digest(token), t, {})
        with self.store.writing("a new tournament") as db:
            db.execute(tournaments_table.insert().values(
                id=tid, config=json.dumps(config), status="open", host_digest=live.host_digest,
                created=time.time()))
            db.execute(events_table.insert().values(tournament_id=tid, seq=1,
                                                    event=_encode(t.events[0]), at=time.time()))
        self.live[tid] = live
        return live, token

    async def enter(self, tid: str, name: str, account_id: str | None) -> str:
        """A person enters; returns their secret token (it holds their seat at every table)."""
        live = self.get(tid)
        async with live.lock:
            if live.status != "open":
                raise RoomError("the tournament has started: entries are closed", "started")
            if len(live.t.entrants) >= int(live.config["entrants"]):
                raise RoomError(f"the tournament is full ({live.config['entrants']} entrants)",
                                "tournament-full")
            if account_id is not None and any(e["account_id"] == account_id
                                              for e in live.entrants.values()):
                raise RoomError("your account has entered already", "entered")
            token = new_token()
            entrant = {"name": name, "bot": None, "token_digest": digest(token),
                       "account_id": account_id}
            event = live.t.apply(Enter(name))
            try:
                self._store(live, [event], entrant=entrant)
            except sa.exc.IntegrityError as exc:
                raise RoomError(f"{name} has already entered", "name-taken") from exc
            live.entrants[name] = {k: v for k, v in entrant.items() if k != "name"}
            return token

    async def begin(self, tid: str, token: str | None) -> None:
        """The creator starts the tournament: bots take the places left (if allowed), the
        seed is drawn, and the first tables open."""
        live = self.get(tid)
        if token is None or len(token) > 100 or not same(live.host_digest, digest(token)):
            raise RoomError("only the tournament's creator may start it", "not-host")
        async with live.lock:
            if live.status != "open":
                raise RoomError("the tournament has already started", "already-started")
            size, kind = int(live.config["entrants"]), live.config.get("bots")
            probe = Tournament.replay(live.t.events)
            fill: list[str] = []
            i = 0
            while kind is not None and len(probe.entrants) < size:
                i += 1
                name = f"{kind}-{i}"
                if name not in live.entrants:
                    probe.apply(Enter(name))
                    fill.append(name)
            seed = random.SystemRandom().randrange(2**62)
            probe.verify(Start(seed))  # enough entrants: refused here with nothing stored
            for name in fill:
                self._store(live, [live.t.apply(Enter(name))],
                            entrant={"name": name, "bot": kind, "token_digest": None,
                                     "account_id": None})
                live.entrants[name] = {"bot": kind, "token_digest": None, "account_id": None}
            done = live.t.step(Start(seed))
            self._store(live, done, status="playing")
        self._drive(live)

    async def decide(self, tid: str, token: str | None, buy: bool) -> None:
        """A person who left a Blackpool table buys in or retires."""
        live = self.get(tid)
        name = self.entrant_of(live, token)
        if name is None:
            raise RoomError("that token is no entrant's of this tournament", "bad-token")
        async with live.lock:
            if name not in live.t.deciding:
                raise RoomError(f"{name} has no buy-in to decide", "not-deciding")
            self._step(live, BuyIn(name) if buy else Retire(name))
        live.wake.set()

    def entrant_of(self, live: Live, token: str | None) -> str | None:
        """The entrant a person's token names, if any."""
        if not isinstance(token, str) or len(token) > 100:
            return None
        wanted = digest(token)
        for name, e in live.entrants.items():
            if e["token_digest"] is not None and same(e["token_digest"], wanted):
                return name
        return None

    # -- driving ------------------------------------------------------------------------------

    def kick(self, tid: str) -> None:
        """A table of tournament ``tid`` has finished a deal: look at it soon."""
        live = self.live.get(tid)
        if live is not None:
            live.wake.set()

    def _drive(self, live: Live) -> None:
        if live.task is None or live.task.done():
            live.task = asyncio.get_running_loop().create_task(self._run(live))

    async def _run(self, live: Live) -> None:
        pause = 0.25
        while live.status == "playing":
            live.wake.clear()
            try:
                async with live.lock:
                    await self._reconcile(live)
                pause = 0.25
                timeout = self._next_deadline(live)
            except asyncio.CancelledError:
                raise
            except StoreUnavailable:
                timeout, pause = pause, min(5.0, pause * 2)
            except Exception:
                log.exception("tournament %s: its tables cannot be followed", live.id)
                timeout, pause = pause, min(5.0, pause * 2)
            if live.status != "playing":
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(live.wake.wait(), timeout)

    def _next_deadline(self, live: Live) -> float | None:
        seconds = float(live.config.get("decide_seconds", DECIDE_SECONDS))
        people = [live.decided_at.get(p, time.time()) + seconds for p in live.t.deciding
                  if live.entrants.get(p, {}).get("bot") is None]
        return max(0.0, min(people) - time.time()) if people else None

    async def _reconcile(self, live: Live) -> None:
        """Bring the tournament up to its tables: open the tables it asks for, read leavers
        and results from the games, decide for bots and for people out of time."""
        t = live.t
        if t.is_over:
            self._store(live, [], status="over")
            return
        for table in t.playing():
            if table.id not in live.tables:
                await self._open_table(live, table)
            tid = live.tables[table.id]
            row = self.store.table(tid)
            if row is None:
                raise RoomError(f"table {tid} is missing", "no-table")
            if row.status == "waiting":
                await self.hub.call(tid, "start")
                continue
            room = self.hub.rooms.get(tid)
            if room is None and row.status == "playing":
                await self.hub.call(tid, "announce")  # owned and rebuilt here
                room = self.hub.rooms.get(tid)
            match = room.match if room is not None else finished_match(self.store, row)
            if match is None:
                continue
            self._read_table(live, table, match)
            if t.is_over:
                break
        self._decide_for(live)
        if t.is_over and live.status != "over":
            self._store(live, [], status="over")
        elif any(table.id not in live.tables for table in t.playing()):
            live.wake.set()  # new tables to open

    def _read_table(self, live: Live, table: Table, match: Any) -> None:
        t = live.t
        if t.format == "blackpool":
            for q in outcome.gone(match):
                name = table.players[q]
                if name not in table.left and not table.is_over:
                    self._step(live, Leave(table.id, name))
                    self._decide_for(live)
        if not table.is_over and outcome.ended(match, until=table.until, deals=t.settings.deals):
            result = table_result(t, table, match)
            self._step(live, result)

    def _decide_for(self, live: Live) -> None:
        """Bots decide at once, people out of time by the bots' rule: buy in while it may."""
        seconds = float(live.config.get("decide_seconds", DECIDE_SECONDS))
        for name in list(live.t.deciding):
            bot = live.entrants.get(name, {}).get("bot") is not None
            late = time.time() >= live.decided_at.get(name, time.time()) + seconds
            if bot or late:
                if live.t.closed:
                    self._step(live, Retire(name))
                else:
                    self._step(live, BuyIn(name))

    async def _open_table(self, live: Live, table: Table) -> None:
        """Make the server table that tournament table ``table`` is played at, and start it."""
        t, c = live.t, live.config
        options = dict(t.options)
        if t.format == "blackpool":
            options["buy_ins"] = 0
        people = [p for p in table.players if live.entrants[p]["bot"] is None]
        config = {"game": t.game, "preset": t.preset, "options": options,
                  "deals": t.settings.deals, "claim_seconds": c["claim_seconds"],
                  "turn_seconds": c["turn_seconds"], "bot_delay": c["bot_delay"],
                  "bot_reaction": c["bot_reaction"], "public": False, "rated": False,
                  "seed": t.table_seed(table.id), "tournament": live.id,
                  "tournament_table": table.id, "until": table.until,
                  "grace_until": time.time() + float(c.get("grace_seconds", GRACE_SECONDS))
                  if people else 0.0,
                  "creator": c.get("creator", "")}
        rows = []
        for q, name in enumerate(table.players):
            e = live.entrants[name]
            if e["bot"] is None:
                rows.append(SeatRow(q, "person", name, None, e["token_digest"], False))
            else:
                rows.append(SeatRow(q, "bot", name, e["bot"], None, False))
        tid = self.store.create_table(config, host_digest=digest(new_token()),
                                      invite=secrets.token_urlsafe(12), seat_rows=rows)
        with self.store.writing("a tournament's table") as db:
            db.execute(seats_table.insert().values(tournament_id=live.id, number=table.id,
                                                   table_id=tid))
        live.tables[table.id] = tid
        await self.hub.call(tid, "start")
        self._announce(live)

    # -- what a page sees ---------------------------------------------------------------------

    def view(self, live: Live, token: str | None = None) -> dict[str, Any]:
        """The tournament as its page shows it: no cards, no tokens."""
        t = live.t
        invites: dict[str, str] = {}
        statuses: dict[str, str] = {}
        for made in live.tables.values():
            row = self.store.table(made)
            if row is not None:
                invites[made], statuses[made] = row.invite, row.status
        me = self.entrant_of(live, token)
        seconds = float(live.config.get("decide_seconds", DECIDE_SECONDS))
        tables = []
        for table in t.tables.values():
            tid: str | None = live.tables.get(table.id)
            entry: dict[str, Any] = {
                "number": table.id, "stage": table.stage, "round": table.round,
                "players": list(table.players), "left": list(table.left),
                "table_id": tid, "invite": invites.get(tid or ""),
                "status": "over" if table.is_over else statuses.get(tid or "", "waiting")}
            if table.result is not None:
                entry["places"] = dict(table.result.places)
                entry["totals"] = {p: _amount(v) for p, v in table.result.totals.items()}
            if me is not None and me in table.players and tid is not None:
                entry["my_seat"] = table.players.index(me)
            tables.append(entry)
        standings = []
        for place, name in enumerate(t.standings(), 1):
            e = live.entrants.get(name, {})
            item: dict[str, Any] = {"place": place, "name": name, "bot": e.get("bot")}
            if t.started:
                item["points"] = _amount(t.points.get(name, Fraction(0)))
                item["money"] = _amount(t.money.get(name, Fraction(0)))
                item["out"] = name in t.out
            standings.append(item)
        return {
            "id": live.id, "name": live.config.get("name", ""), "status": live.status,
            "format": t.format, "game": t.game, "rules": t.preset, "options": t.options,
            "settings": {k: _plain(v) for k, v in t.settings.as_mapping().items()},
            "size": live.config["entrants"], "bots": live.config.get("bots"),
            "entrants": len(t.entrants), "round": t.round, "version": live.version,
            "standings": standings, "tables": tables,
            "byes": [{"player": e.player, "stage": e.stage, "round": e.round}
                     for e in t.events if isinstance(e, Bye)],
            "queue": list(t.queue), "closed": t.closed, "pot": _amount(t.pot),
            "deciding": [{"name": p, "deadline": live.decided_at.get(p, 0.0) + seconds}
                         for p in t.deciding],
            "winner": t.winner,
            "events": [describe(e) for e in t.events[-40:]],
            "log": [_plain_table(as_table(e)) for e in t.events[-40:]],
            "me": me}

    def record(self, live: Live) -> str:
        """A finished tournament's record, each table's game record in it."""
        if not live.t.is_over:
            raise RoomError("the tournament is not over: its tables' records hold hidden "
                            "cards until then", "not-over")
        records = {}
        for number, tid in sorted(live.tables.items()):
            row = self.store.table(tid)
            if row is None:
                raise RoomError(f"table {number} is missing", "no-table")
            game = get_game(live.t.game)
            records[number] = game.record_text(finished_match(self.store, row),
                                               f"hoola server table {tid}")
        return dumps(live.t, records)

    def listing(self) -> list[dict[str, Any]]:
        """Tournaments open for entries or in play, newest first, and the last finished."""
        with self.store.reading("the tournaments") as db:
            rows = db.execute(sa.select(tournaments_table).order_by(
                tournaments_table.c.created.desc()).limit(50)).all()
        out = []
        for row in rows:
            config = json.loads(row.config)
            live = self.live.get(row.id)
            if live is None:
                with contextlib.suppress(Exception):
                    live = self.get(row.id)
            if live is None:
                continue
            t = live.t
            out.append({"id": row.id, "name": config.get("name", ""), "status": live.status,
                        "format": t.format, "game": t.game, "rules": t.preset,
                        "size": config.get("entrants"), "entrants": len(t.entrants),
                        "winner": t.winner})
        return out



def _amount(value: Fraction) -> int | str:
    value = Fraction(value)
    return int(value) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _plain_table(table: dict[str, Any]) -> dict[str, Any]:
    return {k: {p: _plain(v) for p, v in value.items()} if isinstance(value, dict)
            else _plain(value) for k, value in table.items()}


def _plain(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Fraction):
        return _amount(value)
    return value


# -- HTTP -------------------------------------------------------------------------------------

Seconds = Annotated[float, Field(ge=0, le=10)]


class CreateTournament(BaseModel):
    """A new tournament: its format, game and preset, settings, size and bots."""

    format: str = Field("swiss", description="swiss, knockout or blackpool")
    game: str = Field("hoola", description="A registered game, or one of its presets")
    preset: str | None = Field(None, description="The game's preset (Blackpool: blackpool)")
    options: dict[str, Any] = Field(default_factory=dict, description="Rule option overrides")
    settings: dict[str, Any] = Field(default_factory=dict,
                                     description="The format's settings (docs/tournaments.md)")
    name: str | None = Field(None, max_length=40, description="The tournament's name")
    entrants: int = Field(8, ge=2, le=64, description="Places in the tournament")
    bots: str | None = Field(None, description="A bot kind or level that takes the places "
                                               "left at the start; absent: people only")
    turn_seconds: float = Field(60.0, ge=0, le=3600, description="A person's time to act")
    claim_seconds: float = Field(5.0, ge=0, le=60, description="A claim window's time")
    bot_delay: float = Field(0.5, ge=0, le=10, description="A bot's pause before its move")
    bot_reaction: tuple[Seconds, Seconds] = Field((0.8, 1.5),
                                                  description="A bot's reaction to a window")
    decide_seconds: float = Field(DECIDE_SECONDS, ge=0, le=3600,
                                  description="A person's time to choose to buy in or not")
    grace_seconds: float = Field(GRACE_SECONDS, ge=0, le=300,
                                 description="A person's time to reach a new table of theirs "
                                             "before a stand-in bot plays for them")


class EnterTournament(BaseModel):
    """A person enters by name (a signed-in account enters by its own name)."""

    name: str = "Guest"


class Decision(BaseModel):
    """A Blackpool player who left a table: buy in, or retire."""

    buy_in: bool


router = APIRouter()


def _manager(request: Request) -> Tournaments:
    got: Tournaments = request.app.state.tournaments
    return got


def _server(request: Request) -> Server:
    got: Server = request.app.state.server
    return got


@router.get("/tournament/{tid}", include_in_schema=False)
def tournament_page(tid: str) -> FileResponse:
    from hoola.server.pages import WEB

    return FileResponse(WEB / "tournament.html", media_type="text/html",
                        headers={"Cache-Control": "no-cache"})


@router.get("/api/tournaments", responses=responses(503))
async def list_tournaments(request: Request) -> list[dict[str, Any]]:
    """Tournaments, newest first: open for entries, in play, over."""
    return _manager(request).listing()  # on the loop, where the tournaments live


@router.post("/api/tournaments", responses=responses(400, 422, 503))
async def create_tournament(spec: CreateTournament, request: Request) -> dict[str, Any]:
    """Make a tournament, open for entries; returns its creator's secret token (to start it)."""
    srv = _server(request)
    account = srv.accounts.of(request) if srv.accounts is not None else None
    if account is not None:
        check_origin(request)
    creator = srv.guard.creator(address(request))
    maker = account.id if account else None
    srv.guard.may_make_tournament(address(request), maker)
    live, token = _manager(request).create(spec, creator, maker)
    srv.guard.made_tournament(address(request), maker)
    return {"id": live.id, "token": token, "url": f"/tournament/{live.id}"}


@router.get("/api/tournaments/{tid}", responses=responses(403, 404, 503))
async def tournament(tid: str, request: Request,
                     after: Annotated[int | None, Query(ge=-1, le=2**31)] = None,
                     authorization: str | None = Header(None)) -> dict[str, Any]:
    """A tournament's standings, tables, byes, queue and events; with ``after`` (a version
    seen), answered when there is news (or after a while as it is)."""
    manager = _manager(request)
    live = manager.get(tid)
    if after is not None and live.version <= after and live.status != "over":
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(live.changed.wait(), WAIT_SECONDS)
    return manager.view(live, bearer(authorization))


@router.post("/api/tournaments/{tid}/enter", responses=responses(400, 401, 404, 503))
async def enter(tid: str, req: EnterTournament, request: Request) -> dict[str, Any]:
    """Enter the tournament; returns the entrant's secret token (it holds their seats)."""
    srv = _server(request)
    account = srv.accounts.of(request) if srv.accounts is not None else None
    if account is not None:
        check_origin(request)
    name = account.name if account is not None else plain(req.name, 24)
    if not NAME_RE.fullmatch(name):
        raise RoomError("a name is 1 to 24 letters, digits, _ or -", "bad-name")
    token = await _manager(request).enter(tid, name, account.id if account else None)
    return {"id": tid, "name": name, "token": token}


@router.post("/api/tournaments/{tid}/start", responses=responses(400, 403, 404, 503))
async def start(tid: str, request: Request,
                authorization: str | None = Header(None)) -> dict[str, Any]:
    """The creator starts the tournament (bots take the places left, if it allows them)."""
    await _manager(request).begin(tid, bearer(authorization))
    return {"id": tid, "status": "playing"}


@router.post("/api/tournaments/{tid}/decide", responses=responses(400, 403, 404, 503))
async def decide(tid: str, req: Decision, request: Request,
                 authorization: str | None = Header(None)) -> dict[str, Any]:
    """A person who left a Blackpool table buys in or retires (with their entrant's token)."""
    await _manager(request).decide(tid, bearer(authorization), req.buy_in)
    return {"id": tid, "buy_in": req.buy_in}


@router.get("/api/tournaments/{tid}/record", response_class=PlainTextResponse,
            responses=responses(400, 404, 503))
async def record(tid: str, request: Request) -> str:
    """A finished tournament's record (TOML) that ``hoola verify`` accepts."""
    manager = _manager(request)  # on the loop, as every route that builds rooms
    return manager.record(manager.get(tid))


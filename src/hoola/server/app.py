"""``hoola serve``: tables of every registered game over HTTP and WebSocket (FastAPI on uvicorn).

HTTP (documented at ``/docs``, schema at ``/openapi.json``) creates, lists, joins and starts
tables and downloads finished games as records; a WebSocket per client (``/ws/{table}``) carries
the play: the client says ``hello`` with its seat's token (or the table's invite, to watch), then
sends actions in the records' notation with the state counter it acted on, and receives its own
view after every change. The protocol is in ``docs/server.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import random
import re
import secrets
import time
from collections.abc import Callable, Mapping
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection

from hoola.core.errors import HoolaError
from hoola.core.game import Game, Player
from hoola.core.registry import game_and_preset, game_names
from hoola.server.hub import LEASE_SECONDS, Hub
from hoola.server.limits import BodyLimits, Guard, LimitError, Limits
from hoola.server.metrics import Metrics
from hoola.server.metrics import install as install_metrics
from hoola.server.pages import install as install_pages
from hoola.server.room import Room, RoomError
from hoola.server.store import SeatRow, Store, TableRow, digest, new_token
from hoola.server.views import PROTOCOL

__all__ = ["Error", "create_app"]

log = logging.getLogger("hoola.server")

MAX_MESSAGE = 4096
"""The largest client message read, in bytes."""
RATE = 10.0
"""Messages a second a connection may send on average (a burst of :data:`BURST`)."""
BURST = 30
HELLO_SECONDS = 10.0
KEEP_ALIVE = 75
"""Seconds an idle HTTP connection is kept open: longer than clients keep theirs (httpx 5,
proxies commonly 60), so no client sends a request on a connection the server is closing, which
it would see as a read error. uvicorn's own default is 5, the same as httpx's: a race."""
NAME_RE = re.compile(r"[A-Za-z0-9_-]{1,24}")
LOBBY_SCAN = 1000
"""Waiting tables, newest first, the lobby looks through to choose the ones it lists."""
STATUS = {"no-table": 404, "bad-token": 403, "not-host": 403, "too-large": 413,
          "rate-limited": 429, "unavailable": 503}
"""The HTTP status of a refusal's code; any other code is 400."""

Seconds = Annotated[float, Field(ge=0, le=10)]


class Error(BaseModel):
    """Every HTTP error's body (and the WebSocket's ``error`` message, less its type)."""

    code: str = Field(description="A stable code: no-table, not-host, bad-json, rate-limited, "
                                  "... (docs/server.md lists them)")
    message: str = Field(description="One sentence for a person: what was refused and why")


_MEANINGS = {
    400: "Refused: the request breaks a rule of the game or the table (or its body is not "
         "JSON this server reads: bad-json)",
    403: "Not yours: the token is not the host's, or holds no seat here",
    404: "There is no such table (no-table)",
    408: "The request's body did not arrive in time (timeout); the connection is closed",
    413: "The request's body is too large (too-large); the connection is closed",
    422: "The request does not match its schema (bad-request)",
    429: "Too many requests from this address (rate-limited): Retry-After says when to try "
         "again",
    500: "The server failed (internal): logged, with no detail given",
    503: "The database or Redis cannot be reached now (unavailable): try again",
}
ALWAYS = (408, 413, 500)
"""The statuses any route may answer: the body limits apply to every request that has one."""
UI_ERRORS = {("get", "/api/tables/{tid}/replay"): (400, 403, 404, 422, 503),
             ("get", "/api/tables/{tid}/hint"): (400, 403, 404, 503),
             ("get", "/api/time"): ()}
"""The errors of the browser UI's JSON routes (:mod:`hoola.server.pages`), for the schema."""
_HTTP_ERRORS = {
    400: ("bad-json", "the body is not JSON this server reads (not UTF-8, or nested too "
                      "deeply)"),
    401: ("not-allowed", "that is not open to you"),
    404: ("not-found", "there is nothing here: the API is described at /docs"),
    405: ("method-not-allowed", ""),
    413: ("too-large", "the request body is too large"),
}
"""Codes and messages of Starlette's and FastAPI's own refusals, by status."""


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """A route's error answers for its OpenAPI ``responses``: these and :data:`ALWAYS`."""
    return {s: {"model": Error, "description": _MEANINGS[s]}
            for s in sorted({*statuses, *ALWAYS})}


def _document_errors(schema: dict[str, Any]) -> None:
    """Every operation of ``schema`` lists :data:`ALWAYS` (and the UI's routes their errors,
    :data:`UI_ERRORS`) as :class:`Error`, and FastAPI's own 422 gives way to ours; what a route
    declares itself stays."""
    ref = "#/components/schemas/Error"
    schemas = schema.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("Error", Error.model_json_schema())
    for path, operations in schema.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            for status in sorted({*ALWAYS, *UI_ERRORS.get((method, path), ())}):
                responses.setdefault(str(status), {})
            for status, answer in responses.items():
                said = json.dumps(answer)  # FastAPI gives a text route's errors its text type
                if not answer or "HTTPValidationError" in said or "schemas/Error" in said:
                    responses[status] = {"description": _MEANINGS[int(status)], "content": {
                        "application/json": {"schema": {"$ref": ref}}}}
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)


class SeatSpec(BaseModel):
    """Who sits in a seat when the table is made: an open seat for a person, or a bot."""

    bot: str | None = Field(None, description="A bot kind or level (random, expert, ismcts, "
                                              "beginner ... master); absent: a seat for a person")
    name: str | None = Field(None, description="The seat's name (letters, digits, _ and -)")


class CreateTable(BaseModel):
    """A new table: the game and its rules, the seats, the timers."""

    game: str = Field("hoola", description="A registered game, or one of its presets")
    preset: str | None = Field(None, description="The game's preset (default: its first)")
    options: dict[str, Any] = Field(default_factory=dict, description="Rule option overrides")
    name: str = Field("Host", description="The host's name; the host takes the first seat")
    seats: list[SeatSpec] = Field(default_factory=list,
                                  description="The other seats, in play order")
    deals: int | None = Field(None, ge=1, le=1000,
                              description="Deals to play (default: until the game's own end)")
    claim_seconds: float = Field(3.0, ge=0, le=60, description="How long a claim window stays "
                                                               "open")
    turn_seconds: float = Field(60.0, ge=0, le=3600,
                                description="A person's time to act before a bot plays for "
                                            "them (0: no limit)")
    bot_delay: float = Field(0.5, ge=0, le=10, description="A bot's pause before its move")
    bot_reaction: tuple[Seconds, Seconds] = Field((0.8, 1.5), description="A bot's reaction to "
                                                                          "a window, low and high")
    seed: int | None = Field(None, ge=0, lt=2**63, description="Seed of the shuffles")
    public: bool = Field(True, description="Listed in the lobby with its invite")


class JoinTable(BaseModel):
    """Taking an open seat with the table's invite."""

    invite: str
    name: str = "Guest"
    seat: int | None = None


class BotSeat(BaseModel):
    """Giving an open seat to a bot."""

    bot: str = "expert"


@dataclass(eq=False)
class Connection:
    """One client's socket: its outgoing queue (so a slow client never holds a table up), its
    rate budget."""

    ws: WebSocket
    address: str = ""  # the client's, for the per-address limits
    held: str | None = None  # the digest of the token that took the seat
    retired: bool = False
    rate: float | None = None  # None: the module's RATE and BURST, read at each message
    burst: float | None = None
    queue: asyncio.Queue[dict[str, Any] | str] = field(
        default_factory=lambda: asyncio.Queue(256))
    tokens: float = BURST
    stamp: float = field(default_factory=time.monotonic)

    def retire(self, code: str, message: str) -> None:
        """Send a last error, then close the socket (the writer closes it once sent)."""
        if not self.retired:
            self.push(_error(code, message))
            self.push(_CLOSE)
            self.retired = True

    def push(self, message: dict[str, Any] | str) -> None:
        """Queue a message (or its JSON text, encoded once for every connection that gets it);
        a client too slow to read 256 messages loses the oldest."""
        if self.retired:
            return
        if self.queue.full():
            self.queue.get_nowait()
        self.queue.put_nowait(message)

    def allow(self) -> bool:
        """Whether the rate budget allows one more message."""
        now = time.monotonic()
        rate = RATE if self.rate is None else self.rate
        burst = BURST if self.burst is None else self.burst
        self.tokens = min(burst, self.tokens + (now - self.stamp) * rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def _error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


def _same(secret: str, given: Any) -> bool:
    """Whether ``given`` is ``secret``, in constant time, for any text a client sends."""
    return isinstance(given, str) and secrets.compare_digest(
        secret.encode("utf-8", "surrogatepass"), given.encode("utf-8", "surrogatepass"))


def _plain(text: Any, limit: int) -> str:
    """Chat and names as plain text: no control characters, trimmed."""
    if not isinstance(text, str):
        return ""
    return "".join(c for c in text if c.isprintable())[:limit].strip()


def create_app(store: Store | None = None, *, db_url: str = "sqlite:///hoola-server.db",
               redis_url: str | None = None, lease_seconds: float = LEASE_SECONDS,
               externals: Mapping[str, str] | None = None,
               rate: float | None = None, burst: int | None = None,
               bots: Callable[[Game, str, int | None], Player] | None = None,
               limits: Limits | None = None) -> FastAPI:
    """The server's ASGI application (``uvicorn`` runs it; tests too); with ``redis_url`` it
    shares its tables with the other processes on the same Redis and database. ``rate`` and
    ``burst`` bound each connection's messages a second (default :data:`RATE`, :data:`BURST`);
    ``limits`` are the abuse limits (default :class:`~hoola.server.limits.Limits`), those of
    request heads enforced by the protocol class that
    :func:`~hoola.server.limits.http_protocol` makes for uvicorn."""
    store = store or Store(db_url)
    limits = limits or Limits()
    guard = Guard(limits)
    hub = Hub(store, redis_url=redis_url, bots=bots, lease_seconds=lease_seconds,
              externals=externals)

    def check_bot(kind: str) -> None:
        """A built-in bot kind or level, or an external bot this server was started with."""
        if externals and kind in externals:
            return
        from hoola.live import check_bot_kind

        try:
            check_bot_kind(kind)
        except ValueError as exc:
            extra = f"; external bots: {', '.join(externals)}" if externals else ""
            raise RoomError(f"{exc}{extra}", "unknown-bot") from exc

    metrics = Metrics(hub)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        await hub.start()
        metrics.start()
        yield
        await metrics.stop()
        await hub.stop()

    app = FastAPI(title="hoola server", version=PROTOCOL, lifespan=lifespan,
                  description="Tables of Hoola, Kalookie and the capture games for people and "
                              "bots. The play itself is on the WebSocket /ws/{table_id}; see "
                              "docs/server.md.")
    app.state.hub = hub
    app.state.metrics = metrics
    install_metrics(app, metrics)  # /health and /metrics
    app.state.guard = guard
    app.add_middleware(BodyLimits, limits=limits)
    install_pages(app, store)  # the browser UI: pages, static files, replays, hints
    schema_of = app.openapi

    def openapi() -> dict[str, Any]:
        schema = schema_of()
        _document_errors(schema)  # in place, once: FastAPI keeps the schema it made
        return schema

    app.openapi = openapi  # type: ignore[method-assign]

    def host_only(tid: str, authorization: str | None, doing: str) -> None:
        row = store.table(tid) if len(tid) <= 24 else None
        if row is None:
            raise RoomError("there is no such table", "no-table")
        token = _bearer(authorization)
        if token is None or len(token) > 100 or \
                not _same(row.host_digest, digest(token)):
            raise RoomError(f"only the host may {doing}", "not-host")

    def seat_of(tid: str, token: Any) -> int:
        if isinstance(token, str) and len(token) <= 100:
            wanted = digest(token)
            for s in store.seats(tid):
                if s.token_digest is not None and _same(s.token_digest, wanted):
                    return s.seat
        raise RoomError("that token holds no seat at this table", "bad-token")

    @app.exception_handler(HoolaError)
    async def refused(_request: Request, exc: HoolaError) -> JSONResponse:
        headers = {}
        if isinstance(exc, LimitError) and exc.retry_after is not None:
            headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
        return JSONResponse({"code": exc.code, "message": exc.message},
                            status_code=STATUS.get(exc.code, 400), headers=headers)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        """Starlette's and FastAPI's own refusals (no route, a wrong method, a body that cannot
        be parsed) as every other error: a code and a message, never ``detail``."""
        code, message = _HTTP_ERRORS.get(exc.status_code, (f"http-{exc.status_code}", ""))
        if exc.status_code == 405:
            allowed = (exc.headers or {}).get("Allow")
            message = f"{request.method} is not allowed here" + (
                f": use {allowed}" if allowed else "")
        elif not message:
            message = " ".join(str(exc.detail).split())[:200]
        return JSONResponse({"code": code, "message": message}, status_code=exc.status_code,
                            headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        """A request the schema refuses, in one line (FastAPI's own answer echoes the input,
        and fails on a NaN in it)."""
        errors = exc.errors()
        first = errors[0] if errors else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
        if first.get("type") == "json_invalid":  # its place is a character offset
            where = "body"
        message = " ".join(f"{where}: {first.get('msg', 'not valid')}".split())[:200]
        return JSONResponse({"code": "bad-request", "message": message}, status_code=422)

    @app.exception_handler(Exception)
    async def failed(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("request failed")
        return JSONResponse({"code": "internal", "message": "the server could not do that"},
                            status_code=500)

    @app.get("/api/games", responses=_errors())
    def games() -> list[dict[str, Any]]:
        """Every registered game with its presets and player counts."""
        from hoola.core.registry import get_game

        out = []
        for name in game_names():
            g = get_game(name)
            out.append({"name": g.name, "title": g.title, "min_players": g.min_players,
                        "max_players": g.max_players, "default_preset": g.default_preset,
                        "presets": [{"name": p.name, "meaning": p.meaning}
                                    for p in g.presets()]})
        return out

    @app.post("/api/tables", responses=_errors(400, 422, 429, 503))
    def create(spec: CreateTable, request: Request) -> dict[str, Any]:
        """Make a table; the host takes the first seat. Returns the host's secret token and the
        invite that others join with. An address makes so many tables a minute, and has so many
        waiting for players at once (429)."""
        game, preset = game_and_preset(spec.game, spec.preset)
        preset = preset or game.default_preset
        n = 1 + len(spec.seats)
        if not game.min_players <= n <= game.max_players:
            raise RoomError(f"{game.title} is played by {game.min_players} to "
                            f"{game.max_players} players, not {n}", "bad-player-count")
        rules = game.rules(preset, spec.options)
        names = _names([spec.name, *(s.name or (f"Bot{q}" if s.bot else f"Seat{q}")
                                     for q, s in enumerate(spec.seats, 1))])
        game.new_match(rules, names, seed=0).new_deal()  # the rules take this many players
        for s in spec.seats:
            if s.bot is not None:
                check_bot(s.bot)
        token, invite = new_token(), secrets.token_urlsafe(12)
        rows = [SeatRow(0, "person", names[0], None, digest(token), False)]
        rows += [SeatRow(q, "bot" if s.bot else "empty", names[q], s.bot, None, False)
                 for q, s in enumerate(spec.seats, 1)]
        config = {"game": game.name, "preset": preset, "options": spec.options,
                  "deals": spec.deals, "claim_seconds": spec.claim_seconds,
                  "turn_seconds": spec.turn_seconds, "bot_delay": spec.bot_delay,
                  "bot_reaction": list(spec.bot_reaction), "public": spec.public,
                  "seed": spec.seed if spec.seed is not None else random.randrange(2**63)}
        address = _address(request)
        config["creator"] = guard.creator(address)  # for the lobby; never the address itself

        def is_waiting(made: str) -> bool:
            row = store.table(made)
            return row is not None and row.status == "waiting"

        ticket = guard.tables.admit(address, is_waiting)
        tid = None
        try:
            tid = store.create_table(config, host_digest=digest(token), invite=invite,
                                     seat_rows=rows)
        finally:
            guard.tables.made_table(address, ticket, tid)
        return {"table_id": tid, "seat": 0, "token": token, "invite": invite,
                "join_url": f"/join/{tid}?invite={invite}", "ws": f"/ws/{tid}"}

    @app.get("/api/tables", responses=_errors(503))
    def lobby() -> list[dict[str, Any]]:
        """Public tables in play and waiting for players, newest first, with their seats; of
        the tables one creator has waiting, those with someone connected and its newest few
        (so one address's flood of tables pushes nobody else's off the list)."""
        cap = limits.lobby_waiting_per_creator
        rows = [row for row in store.tables(status=["playing"]) if row.config.get("public", True)]
        listed: dict[str, int] = {}
        for row in store.tables(status=["waiting"], limit=LOBBY_SCAN):
            if not row.config.get("public", True):
                continue
            creator = str(row.config.get("creator", row.id))
            if has_people(row.id):
                rows.append(row)
            elif not cap or listed.get(creator, 0) < cap:
                listed[creator] = listed.get(creator, 0) + 1
                rows.append(row)
        rows.sort(key=lambda row: row.created, reverse=True)
        return [_summary(store, row, invite=True) for row in rows]

    def has_people(tid: str) -> bool:
        """Whether someone is connected to a seat of the table (as this process knows it)."""
        room = hub.rooms.get(tid)
        return room is not None and any(n > 0 for n in list(room.connected.values()))

    @app.get("/api/history", responses=_errors(503))
    def history() -> list[dict[str, Any]]:
        """Finished tables, newest first; each downloadable as a record."""
        return [_summary(store, row) for row in store.tables(status=["over"])]

    @app.get("/api/tables/{tid}", responses=_errors(404, 503))
    def table(tid: str) -> dict[str, Any]:
        """One table: its game, rules, seats and status (no cards)."""
        row = store.table(tid) if len(tid) <= 24 else None
        if row is None:
            raise RoomError("there is no such table", "no-table")
        return _summary(store, row, invite=row.config.get("public", True))

    @app.post("/api/tables/{tid}/join", responses=_errors(400, 404, 422, 503))
    async def join(tid: str, req: JoinTable) -> dict[str, Any]:
        """Take an open seat with the table's invite; returns the seat's secret token."""
        row = store.table(tid) if len(tid) <= 24 else None
        if row is None:
            raise RoomError("there is no such table", "no-table")
        if not _same(row.invite, req.invite[:64]):
            raise RoomError("that invite is not this table's", "bad-invite")
        name = _plain(req.name, 24)
        if not NAME_RE.fullmatch(name):
            raise RoomError("a name is 1 to 24 letters, digits, _ or -", "bad-name")
        got = await hub.call(tid, "join", name=name)
        return {"table_id": tid, "seat": got["seat"], "token": got["token"], "ws": f"/ws/{tid}"}

    @app.post("/api/tables/{tid}/start", responses=_errors(400, 403, 404, 503))
    async def start(tid: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        """The host starts the game (every seat held)."""
        host_only(tid, authorization, "start the table")
        await hub.call(tid, "start")
        return {"table_id": tid, "status": "playing"}

    @app.post("/api/tables/{tid}/seats/{seat}/bot", responses=_errors(400, 403, 404, 422, 503))
    async def seat_bot(tid: str, seat: int, req: BotSeat,
                       authorization: str | None = Header(None)) -> dict[str, Any]:
        """The host gives an open seat to a bot."""
        host_only(tid, authorization, "seat a bot")
        check_bot(req.bot)
        got = await hub.call(tid, "seat_bot", seat=seat, bot=req.bot)
        return {"table_id": tid, **got}

    @app.post("/api/tables/{tid}/leave", responses=_errors(400, 403, 503))
    async def leave(tid: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        """Leave the table at the end of the deal (at once before the game starts); a bot
        takes the seat."""
        seat = seat_of(tid, _bearer(authorization))
        got = await hub.call(tid, "leave", seat=seat)
        return {"table_id": tid, **got}

    @app.get("/api/tables/{tid}/record", response_class=PlainTextResponse,
             responses=_errors(400, 404, 503))
    async def record(tid: str) -> str:  # on the loop, like every route that builds rooms
        """A finished game as a record (TOML) that ``hoola verify`` accepts."""
        row = store.table(tid) if len(tid) <= 24 else None
        if row is None:
            raise RoomError("there is no such table", "no-table")
        if row.status != "over":
            raise RoomError("the game is not over: its record holds hidden cards until then",
                            "not-over")
        room = Room(row, store.seats(tid), store, lambda seat, message: None)
        room.rebuild()
        assert room.match is not None
        return room.game.record_text(room.match, f"hoola server table {tid}")

    @app.websocket("/ws/{tid}")
    async def play(ws: WebSocket, tid: str) -> None:
        await ws.accept()
        conn = Connection(ws, address=_address(ws), rate=rate, burst=burst,
                          tokens=BURST if burst is None else burst)
        writer = asyncio.create_task(_write(conn))
        seat: int | None = None
        joined = counted = False
        opened = contextlib.ExitStack()
        try:
            if not guard.sockets.acquire(conn.address):
                raise LimitError(f"at most {limits.sockets_per_address} connections at once "
                                 "from one address", "too-many-connections")
            opened.callback(guard.sockets.release, conn.address)
            hello = await asyncio.wait_for(_read(conn), HELLO_SECONDS)
            if hello is None or hello.get("type") != "hello":
                raise RoomError("say hello first: {\"type\": \"hello\", \"token\": ...}",
                                "hello-first")
            row = store.table(tid) if len(tid) <= 24 else None
            if row is None:
                raise RoomError("there is no such table", "no-table")
            if "token" in hello:
                seat = seat_of(tid, hello["token"])
                conn.held = digest(hello["token"])
            else:
                invite = hello.get("invite")
                if not isinstance(invite, str) or \
                        not _same(row.invite, invite[:64]):
                    raise RoomError("a spectator needs the table's invite", "bad-invite")
                if not guard.spectators.acquire(tid):
                    raise LimitError(f"the table has {limits.spectators_per_table} spectators, "
                                     "the most it takes: try again later",
                                     "too-many-spectators")
                opened.callback(guard.spectators.release, tid)
            joined = True
            opened.enter_context(metrics.socket("spectator" if seat is None else "seat"))
            await hub.watch(tid, seat, conn)
            conn.push({"type": "welcome", "protocol": PROTOCOL, "table_id": tid, "seat": seat,
                       "game": row.config["game"], "rules": row.config["preset"]})
            for name, text in store.chat(tid, 20):
                conn.push({"type": "chat", "name": name, "text": text})
            await hub.presence(tid, seat, +1)
            counted = True  # taken back when the socket closes, and only then
            await hub.call(tid, "announce")
            while True:
                message = await _read(conn)
                if message is not None:
                    await _handle(hub, tid, seat, conn, message, metrics, guard)
        except (WebSocketDisconnect, asyncio.CancelledError):
            pass
        except TimeoutError:
            conn.push(_error("hello-timeout", "no hello within 10 seconds"))
        except HoolaError as exc:
            conn.push(_error(exc.code, exc.message))
        except Exception:  # never a traceback to a client
            log.exception("socket failed")
            conn.push(_error("internal", "the server could not handle that message"))
        finally:
            opened.close()
            if joined:
                with suppress(Exception):
                    await hub.unwatch(tid, seat, conn)
            if counted:
                with suppress(Exception):
                    await hub.presence(tid, seat, -1)
            await asyncio.sleep(0)
            writer.cancel()
            with suppress(Exception):  # the client may have gone already
                await ws.close()

    return app


async def _read(conn: Connection) -> dict[str, Any] | None:
    """The next client message as a JSON object; None after answering a bad one."""
    frame = await conn.ws.receive()
    if frame["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(frame.get("code", 1000), frame.get("reason"))
    if not conn.allow():
        conn.push(_error("rate-limited", f"at most {conn.rate or RATE:g} messages a second"))
        return None
    text = frame.get("text")
    if not isinstance(text, str):
        conn.push(_error("binary-frame", "a message is JSON in a text frame, not binary"))
        return None
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        conn.push(_error("too-large", f"a message has at most {MAX_MESSAGE} bytes"))
        return None
    try:
        message = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        conn.push(_error("bad-json", "a message is one JSON object"))
        return None
    if not isinstance(message, dict):
        conn.push(_error("bad-json", "a message is one JSON object"))
        return None
    return message


_CLOSE: dict[str, Any] = {}
"""Queued after a connection's last message: the writer closes the socket."""


async def _write(conn: Connection) -> None:
    while True:
        message = await conn.queue.get()
        if message is _CLOSE:
            with suppress(Exception):
                await conn.ws.close(1000)
            return
        try:
            await conn.ws.send_text(message if isinstance(message, str) else
                                    json.dumps(message))
        except Exception:  # the socket is gone; the reader ends the connection
            return


async def _handle(hub: Hub, tid: str, seat: int | None, conn: Connection,
                  message: dict[str, Any], metrics: Metrics, guard: Guard) -> None:
    kind = message.get("type")
    try:
        if kind == "ping":
            conn.push({"type": "pong"})
        elif kind in ("act", "pass"):
            if seat is None:
                raise RoomError("spectators watch; they do not act", "spectator")
            text = message.get("action") if kind == "act" else None
            if kind == "act" and not isinstance(text, str):
                raise RoomError("act needs an action in notation, such as \"draw\"",
                                "bad-action")
            counter = message.get("counter")
            with metrics.decision():
                await hub.call(tid, "submit", seat=seat, text=text, counter=counter,
                               holder=conn.held)
        elif kind == "chat":
            text = _plain(message.get("text"), 300)
            if not text:
                raise RoomError("a chat line is some plain text", "bad-chat")
            guard.chat(conn.address, tid)  # refused: neither relayed nor stored
            await hub.call(tid, "chat", seat=seat, text=text)
        elif kind == "state":  # to the asker alone: no client makes the table announce to all
            conn.push(await hub.call(tid, "message", seat=seat))
        else:
            raise RoomError(f"unknown message type {str(kind)[:20]!r}: hello, act, pass, chat, "
                            "state, ping", "bad-type")
    except HoolaError as exc:
        conn.push(_error(exc.code, exc.message))


def _address(conn: HTTPConnection) -> str:
    """The client's address, as the per-address limits count it (behind a proxy, the proxy's,
    unless uvicorn takes it from X-Forwarded-For)."""
    return conn.client.host if conn.client is not None else "unknown"


def _bearer(header: str | None) -> str | None:
    if header and header.lower().startswith("bearer "):
        return header[7:].strip()
    return None


def _names(names: list[str]) -> list[str]:
    out = []
    for name in names:
        name = _plain(name, 24)
        if not NAME_RE.fullmatch(name):
            raise RoomError(f"{name[:24]!r} is not a name: use 1 to 24 letters, digits, _ or -",
                            "bad-name")
        if name in out:
            raise RoomError(f"two seats are named {name}", "name-taken")
        out.append(name)
    return out


def _summary(store: Store, row: TableRow, invite: bool = False) -> dict[str, Any]:
    c = row.config
    out: dict[str, Any] = {
        "table_id": row.id, "game": c["game"], "rules": c["preset"], "options": c["options"],
        "status": row.status, "deals": c.get("deals"), "created": row.created,
        "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "bot": s.bot}
                  for s in store.seats(row.id)]}
    if invite:
        out["invite"] = row.invite
    return out

"""The tables over HTTP: the games, making a table, the lobby, joining, starting, seating a bot,
leaving, the history (``docs/server.md``, "Tables over HTTP")."""

from __future__ import annotations

import random
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request
from pydantic import BaseModel, Field

from hoola.core.errors import HoolaError
from hoola.core.registry import game_and_preset, game_names, get_game
from hoola.server.accounts import Account, Accounts, check_origin
from hoola.server.context import (
    NAME_RE,
    Server,
    address,
    bearer,
    names,
    plain,
    same,
    server,
    summary,
)
from hoola.server.errors import responses
from hoola.server.ratings import ANCHORS
from hoola.server.room import CLAIM_SECONDS, RESULT_SECONDS, RoomError
from hoola.server.store import SeatRow, digest, new_token

__all__ = ["LOBBY_SCAN", "BotSeat", "CreateTable", "JoinTable", "SeatSpec", "router"]

LOBBY_SCAN = 1000
"""Waiting tables, newest first, the lobby looks through to choose the ones it lists."""

Seconds = Annotated[float, Field(ge=0, le=10)]
Context = Annotated[Server, Depends(server)]

router = APIRouter(prefix="/api")


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
    claim_seconds: float = Field(CLAIM_SECONDS, ge=0, le=60,
                                 description="How long a claim window stays open")
    turn_seconds: float = Field(60.0, ge=0, le=3600,
                                description="A person's time to act before a bot plays for "
                                            "them (0: no limit)")
    bot_delay: float = Field(0.5, ge=0, le=10, description="A bot's pause before its move")
    result_seconds: float = Field(RESULT_SECONDS, ge=0, le=600,
                                  description="How long the next deal waits for the people to "
                                              "read the last one's result, unless each presses "
                                              "Continue sooner (0: it is dealt at once)")
    bot_reaction: tuple[Seconds, Seconds] = Field((0.8, 1.5), description="A bot's reaction to "
                                                                          "a window, low and high")
    seed: int | None = Field(None, ge=0, lt=2**63, description="Seed of the shuffles")
    public: bool = Field(False, description="Listed in the lobby with its invite (a table is "
                                              "private unless told: only its invite link finds it)")
    rated: bool = Field(False, description="Rated: every person's seat is bound to a signed-in "
                                           "account, the result moves the ratings (needs deals; "
                                           "no seed, no options, no external bots)")


class JoinTable(BaseModel):
    """Taking an open seat with the table's invite."""

    invite: str
    name: str = "Guest"
    seat: int | None = None


class BotSeat(BaseModel):
    """Giving an open seat to a bot."""

    bot: str = "expert"


@router.get("/games", responses=responses())
def games() -> list[dict[str, Any]]:
    """Every registered game with its presets and player counts."""
    out = []
    for name in game_names():
        g = get_game(name)
        out.append({"name": g.name, "title": g.title, "min_players": g.min_players,
                    "max_players": g.max_players, "default_preset": g.default_preset,
                    "presets": [{"name": p.name, "meaning": p.meaning, "title": p.title or p.name,
                                 "is_game": p.is_game} for p in g.presets()]})
    return out


@router.post("/tables", responses=responses(400, 422, 429, 503))
def create(spec: CreateTable, request: Request, srv: Context) -> dict[str, Any]:
    """Make a table; the host takes the first seat. Returns the host's secret token and the
    invite that others join with. An address makes so many tables a minute, and has so many
    waiting for players at once (429)."""
    store, guard = srv.store, srv.guard
    account = _accounts(srv).of(request)
    if account is not None or spec.rated:
        check_origin(request)
    if spec.rated:
        account = _rated_host(srv, spec, request)
    game, preset = game_and_preset(spec.game, spec.preset)
    preset = preset or game.default_preset
    n = 1 + len(spec.seats)
    if not game.min_players <= n <= game.max_players:
        raise RoomError(f"{game.title} is played by {game.min_players} to "
                        f"{game.max_players} players, not {n}", "bad-player-count")
    rules = game.rules(preset, spec.options)
    host = account.name if spec.rated and account is not None else spec.name
    seated = names([host, *(s.name or (f"Bot{q}" if s.bot else f"Seat{q}")
                                 for q, s in enumerate(spec.seats, 1))])
    game.new_match(rules, seated, seed=0).new_deal()  # the rules take this many players
    for s in spec.seats:
        if s.bot is not None:
            srv.check_bot(s.bot)
    token, invite = new_token(), secrets.token_urlsafe(12)
    rows = [SeatRow(0, "person", seated[0], None, digest(token), False)]
    rows += [SeatRow(q, "bot" if s.bot else "empty", seated[q], s.bot, None, False)
             for q, s in enumerate(spec.seats, 1)]
    config = {"game": game.name, "preset": preset, "options": spec.options,
              "deals": spec.deals, "claim_seconds": spec.claim_seconds,
              "turn_seconds": spec.turn_seconds, "bot_delay": spec.bot_delay,
              "result_seconds": spec.result_seconds,
              "bot_reaction": list(spec.bot_reaction), "public": spec.public,
              "rated": spec.rated,
              "seed": spec.seed if spec.seed is not None else random.randrange(2**63)}
    where = address(request)
    config["creator"] = guard.creator(where)  # for the lobby; never the address itself

    def is_waiting(made: str) -> bool:
        row = store.table(made)
        return row is not None and row.status == "waiting"

    ticket = guard.tables.admit(where, is_waiting)
    tid = None
    mine = f"account:{account.id}" if account is not None else None
    try:
        # An account makes tables as an address does, wherever it signs in from.
        mine_ticket = guard.tables.admit(mine, is_waiting) if mine is not None else None
        try:
            tid = store.create_table(config, host_digest=digest(token), invite=invite,
                                     seat_rows=rows,
                                     holders={0: account.id} if account is not None else None)
        finally:
            if mine is not None and mine_ticket is not None:
                guard.tables.made_table(mine, mine_ticket, tid)
    finally:
        guard.tables.made_table(where, ticket, tid)
    return {"table_id": tid, "seat": 0, "token": token, "invite": invite, "name": seated[0],
            "rated": spec.rated,
            "join_url": f"/join/{tid}?invite={invite}",
            "invite_url": f"{srv.invite_origin(request)}/join/{tid}?invite={invite}",
            "ws": f"/ws/{tid}"}


def _accounts(srv: Server) -> Accounts:
    assert srv.accounts is not None, "create_app makes the accounts"
    return srv.accounts


def _rated_host(srv: Server, spec: CreateTable, request: Request) -> Account:
    """The signed-in account that makes a rated table, once the table is one a rating may come
    from: the server's shuffles (no seed), a preset as it is, a number of deals, bots of fixed
    strengths."""
    account = _accounts(srv).signed_in(request)
    if spec.seed is not None:
        raise RoomError("a rated table's shuffles are the server's: leave the seed out",
                        "rated-seed")
    if spec.options:
        raise RoomError("a rated table plays a preset as it is: leave the options out",
                        "rated-options")
    if spec.deals is None:
        raise RoomError("a rated table says how many deals it plays (at most: a game that "
                        "ends by itself ends sooner)", "rated-deals")
    for s in spec.seats:
        if s.bot is not None:
            _rated_bot(srv, s.bot)
    return account


def _rated_bot(srv: Server, bot: str) -> None:
    if bot not in ANCHORS or bot in srv.externals:
        raise RoomError(f"a rated table seats the bots of fixed strength only "
                        f"({', '.join(ANCHORS)}), not {bot}", "rated-bot")


@router.get("/tables", responses=responses(503))
def lobby(srv: Context) -> list[dict[str, Any]]:
    """Public tables in play and waiting for players, newest first, with their seats; of the
    tables one creator has waiting, those with someone connected and its newest few (so one
    address's flood of tables pushes nobody else's off the list)."""
    store = srv.store
    cap = srv.limits.lobby_waiting_per_creator
    rows = [row for row in store.tables(status=["playing"]) if row.config.get("public", True)]
    listed: dict[str, int] = {}
    for row in store.tables(status=["waiting"], limit=LOBBY_SCAN):
        if not row.config.get("public", True):
            continue
        creator = str(row.config.get("creator", row.id))
        if _has_people(srv, row.id):
            rows.append(row)
        elif not cap or listed.get(creator, 0) < cap:
            listed[creator] = listed.get(creator, 0) + 1
            rows.append(row)
    rows.sort(key=lambda row: row.created, reverse=True)
    return [summary(store, row, invite=True) for row in rows]


def _has_people(srv: Server, tid: str) -> bool:
    """Whether someone is connected to a seat of the table (as this process knows it)."""
    room = srv.hub.rooms.get(tid)
    return room is not None and any(n > 0 for n in list(room.connected.values()))


@router.get("/history", responses=responses(503))
def history(srv: Context) -> list[dict[str, Any]]:
    """Finished tables, newest first; each downloadable as a record."""
    return [summary(srv.store, row) for row in srv.store.tables(status=["over"])]


@router.get("/tables/{tid}", responses=responses(404, 503))
def table(tid: str, srv: Context) -> dict[str, Any]:
    """One table: its game, rules, seats and status (no cards)."""
    row = srv.table(tid)
    return summary(srv.store, row, invite=row.config.get("public", True))


@router.post("/tables/{tid}/join", responses=responses(400, 401, 403, 404, 422, 503))
async def join(tid: str, req: JoinTable, request: Request, srv: Context) -> dict[str, Any]:
    """Take an open seat with the table's invite; returns the seat's secret token. A signed-in
    account keeps the seat in its history; a rated table's seat needs one, and is named after
    it."""
    row = srv.table(tid)
    if not same(row.invite, req.invite[:64]):
        raise RoomError("that invite is not this table's", "bad-invite")
    accounts = _accounts(srv)
    account = accounts.of(request)
    rated = bool(row.config.get("rated"))
    if rated and account is None:
        account = accounts.signed_in(request)  # refused: not-signed-in
    if account is not None:
        check_origin(request)
    name = account.name if rated and account is not None else plain(req.name, 24)
    if not NAME_RE.fullmatch(name):
        raise RoomError("a name is 1 to 24 letters, digits, _ or -", "bad-name")
    held = False
    if account is not None:
        try:
            accounts.claim(tid, account)  # before the seat: one seat an account at a table
            held = True
        except HoolaError:
            if rated:
                raise
    try:
        got = await srv.hub.call(tid, "join", name=name)
    except BaseException:
        if held and account is not None:
            accounts.bind(tid, account, None)
        raise
    if held and account is not None:
        accounts.bind(tid, account, got["seat"])
    return {"table_id": tid, "seat": got["seat"], "token": got["token"], "ws": f"/ws/{tid}",
            "name": name, "rated": rated}


@router.post("/tables/{tid}/start", responses=responses(400, 403, 404, 503))
async def start(tid: str, srv: Context,
                authorization: str | None = Header(None)) -> dict[str, Any]:
    """The host starts the game (every seat held)."""
    srv.host_only(tid, authorization, "start the table")
    await srv.hub.call(tid, "start")
    return {"table_id": tid, "status": "playing"}


@router.post("/tables/{tid}/seats/{seat}/bot", responses=responses(400, 403, 404, 422, 503))
async def seat_bot(tid: str, seat: int, req: BotSeat, srv: Context,
                   authorization: str | None = Header(None)) -> dict[str, Any]:
    """The host gives an open seat to a bot."""
    srv.host_only(tid, authorization, "seat a bot")
    srv.check_bot(req.bot)
    if srv.table(tid).config.get("rated"):
        _rated_bot(srv, req.bot)
    got = await srv.hub.call(tid, "seat_bot", seat=seat, bot=req.bot)
    return {"table_id": tid, **got}


@router.post("/tables/{tid}/leave", responses=responses(400, 403, 503))
async def leave(tid: str, request: Request, srv: Context,
                authorization: str | None = Header(None)) -> dict[str, Any]:
    """Leave the table at the end of the deal (at once before the game starts); a bot takes the
    seat. Leaving a rated game in play counts as last place."""
    seat = srv.seat_of(tid, bearer(authorization))
    row = srv.table(tid)
    _accounts(srv).check_holder(tid, row.config, seat, request)
    got = await srv.hub.call(tid, "leave", seat=seat)
    if row.status == "waiting":  # the seat is open again: no account holds it now
        _accounts(srv).release(tid, seat)
    return {"table_id": tid, **got}

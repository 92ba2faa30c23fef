"""Finished games and replays over HTTP: a table's record (TOML that ``hoola verify`` accepts) and
the table at any step of its game (:mod:`hoola.server.replay`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header
from fastapi.responses import PlainTextResponse

from hoola.server.context import Server, server
from hoola.server.errors import responses
from hoola.server.replay import ReplayError, replay_of
from hoola.server.room import Room, RoomError

__all__ = ["router"]

Context = Annotated[Server, Depends(server)]

router = APIRouter(prefix="/api/tables/{tid}")


@router.get("/record", response_class=PlainTextResponse, responses=responses(400, 404, 503))
async def record(tid: str, srv: Context) -> str:  # on the loop, like every route that builds rooms
    """A finished game as a record (TOML) that ``hoola verify`` accepts."""
    row = srv.table(tid)
    if row.status != "over":
        raise RoomError("the game is not over: its record holds hidden cards until then",
                        "not-over")
    room = Room(row, srv.store.seats(tid), srv.store, lambda seat, message: None)
    room.rebuild()
    assert room.match is not None
    return room.game.record_text(room.match, f"hoola server table {tid}")


@router.get("/replay", responses=responses(400, 403, 404, 422, 503))
def replay(tid: str, srv: Context, step: int = 0, seat: str | None = None,
           deal: int | None = None, authorization: str | None = Header(None)) -> dict[str, Any]:
    """The table at one step of its game: ``seat`` (0, 1, ...) as that seat saw it, or ``all``
    with every hand open. A finished game is open to everyone; in play, a seat's token shows
    that seat its own view of the deals already finished."""
    row = srv.table(tid)
    mine = srv.seat_if_any(tid, authorization)
    wanted: int | str
    if seat is None or seat == "":
        wanted = "all" if row.status == "over" or mine is None else mine
    elif seat == "all":
        wanted = "all"
    elif seat.isdecimal() and len(seat) < 4:
        wanted = int(seat)
    else:
        raise ReplayError("seat is a seat number (0, 1, ...) or all", "bad-seat")
    if row.status == "waiting":
        raise ReplayError("the game has not started: there is nothing to replay", "not-started")
    r = replay_of(row, srv.store.actions(tid))
    if deal is not None:
        if not 0 <= deal < len(r.starts):
            raise ReplayError(f"there is no deal {deal}: the deals are 0 to "
                              f"{len(r.starts) - 1}", "bad-step")
        size = len(r.texts[deal]) + 1
        if not -size <= step < size:
            raise ReplayError(f"deal {deal} has steps 0 to {size - 1}", "bad-step")
        position = r.positions.index((deal, step % size))
    else:
        position = step
    if row.status != "over":
        if mine is None or wanted != mine:
            raise RoomError("until the game is over, a seat replays its own view only (with its "
                            "token)", "not-over")
        places = r.positions
        if 0 <= position < len(places) and not r.over[places[position][0]]:
            raise RoomError("the deal is still in play: replay it when it is over", "not-over")
    return r.snapshot(position, wanted)

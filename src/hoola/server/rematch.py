"""A rematch over HTTP: a finished table's seats, bots and options at a new table.

Each person keeps their seat with the token they held it by (their page carries it over), the
host stays the host, the bots stay; the shuffles are new. However many ask, a table has one
rematch: the first request makes it, the others are sent to it. A rematch with nobody but bots
beside the one who asks starts at once; otherwise the host starts it when the others are in.
"""

from __future__ import annotations

import random
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header

from hoola.server.context import Server, bearer, server
from hoola.server.errors import responses
from hoola.server.room import RoomError
from hoola.server.store import SeatRow, TableRow

__all__ = ["REMATCH_SCAN", "router"]

REMATCH_SCAN = 1000
"""Tables waiting or in play, newest first, looked through for a table's rematch."""

Context = Annotated[Server, Depends(server)]

router = APIRouter(prefix="/api/tables/{tid}")


def _made(srv: Server, tid: str) -> TableRow | None:
    """The rematch of table ``tid``, if it has been made."""
    for row in srv.store.tables(status=["waiting", "playing", "over"], limit=REMATCH_SCAN):
        if row.config.get("rematch_of") == tid:
            return row
    return None


@router.post("/rematch", responses=responses(400, 404, 503))
async def rematch(tid: str, srv: Context,
                  authorization: str | None = Header(None)) -> dict[str, Any]:
    """The rematch of a finished table, made by the first seat that asks (with its token):
    the new table's id and invite, the asker's seat there (held by the same token), and its
    status."""
    row = srv.table(tid)
    seat = srv.seat_of(tid, bearer(authorization))
    if row.status != "over":
        raise RoomError("the game is not over: a rematch follows its end", "not-over")
    if row.config.get("rated"):
        raise RoomError("a rated game's rematch is a new rated table: make it in the lobby",
                        "rated-rematch")
    made = _made(srv, tid)
    if made is None:
        seats = [SeatRow(s.seat, s.kind, s.name, s.bot, s.token_digest, False)
                 for s in srv.store.seats(tid)]
        config = {k: v for k, v in row.config.items() if k not in ("names", "rematch_of")}
        config.update(seed=random.randrange(2**63), rematch_of=tid)
        invite = secrets.token_urlsafe(12)
        new = srv.store.create_table(config, host_digest=row.host_digest, invite=invite,
                                     seat_rows=seats)
        if all(s.kind == "bot" for s in seats if s.seat != seat) and \
                srv.store.seats(tid)[seat].token_digest == row.host_digest:
            await srv.hub.call(new, "start")
        await srv.hub.call(tid, "rematch_made", table=new)
        made = srv.table(new)
    return {"table_id": made.id, "seat": seat, "invite": made.invite, "status": made.status,
            "ws": f"/ws/{made.id}"}

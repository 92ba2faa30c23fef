"""The browser UI's routes: its static files, its pages, replays, hints and the server's clock.

``create_app`` installs them (:func:`install`). The pages are plain HTML, CSS and JavaScript
modules from the ``web`` folder beside this module, nothing built or fetched at run time:

- ``/`` the lobby, ``/join/{table}`` the same page opened from an invite link,
- ``/table/{table}`` a table (a seat's token kept by the browser, or the invite to watch),
- ``/replay/{table}`` a finished game step by step.

The JSON routes: ``GET /api/tables/{id}/replay?step=K&seat=S|all`` (``deal=D`` makes ``step``
count within that deal, ``-1`` its end), ``GET /api/tables/{id}/hint`` (a seat's token: the
expert's move and why) and ``GET /api/time`` (the server's clock, for the countdowns).
"""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from hoola.server.replay import ReplayError, hint, replay_of
from hoola.server.room import RoomError
from hoola.server.store import Store, TableRow, digest

__all__ = ["WEB", "install"]

WEB = Path(__file__).with_name("web")
"""The folder of the UI's static files."""
_NO_CACHE = {"Cache-Control": "no-cache"}


def install(app: FastAPI, store: Store) -> None:
    """Add the UI's pages, static files and JSON routes to ``app``."""
    app.mount("/static", StaticFiles(directory=WEB), name="static")

    def page(name: str) -> FileResponse:
        return FileResponse(WEB / name, media_type="text/html", headers=_NO_CACHE)

    @app.get("/", include_in_schema=False)
    def lobby_page() -> FileResponse:
        return page("lobby.html")

    @app.get("/join/{tid}", include_in_schema=False)
    def join_page(tid: str) -> FileResponse:
        return page("lobby.html")

    @app.get("/table/{tid}", include_in_schema=False)
    def table_page(tid: str) -> FileResponse:
        return page("table.html")

    @app.get("/replay/{tid}", include_in_schema=False)
    def replay_page(tid: str) -> FileResponse:
        return page("replay.html")

    @app.get("/api/time")
    def clock() -> dict[str, float]:
        """The server's clock (Unix seconds): the deadlines in ``state`` messages are on it."""
        return {"now": time.time()}

    def table_row(tid: str) -> TableRow:
        row = store.table(tid) if len(tid) <= 24 else None
        if row is None:
            raise RoomError("there is no such table", "no-table")
        return row

    def seat_of(tid: str, authorization: str | None) -> int | None:
        token = authorization[7:].strip() if authorization and \
            authorization.lower().startswith("bearer ") else None
        if token is None or len(token) > 100:
            return None
        wanted = digest(token)
        for s in store.seats(tid):
            if s.token_digest is not None and secrets.compare_digest(s.token_digest, wanted):
                return s.seat
        raise RoomError("that token holds no seat at this table", "bad-token")

    @app.get("/api/tables/{tid}/replay")
    def replay(tid: str, step: int = 0, seat: str | None = None, deal: int | None = None,
               authorization: str | None = Header(None)) -> dict[str, Any]:
        """The table at one step of its game: ``seat`` (0, 1, ...) as that seat saw it, or
        ``all`` with every hand open. A finished game is open to everyone; in play, a seat's
        token shows that seat its own view of the deals already finished."""
        row = table_row(tid)
        mine = seat_of(tid, authorization)
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
            raise ReplayError("the game has not started: there is nothing to replay",
                              "not-started")
        r = replay_of(row, store.actions(tid))
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
                raise RoomError("until the game is over, a seat replays its own view only "
                                "(with its token)", "not-over")
            places = r.positions
            if 0 <= position < len(places) and not r.over[places[position][0]]:
                raise RoomError("the deal is still in play: replay it when it is over",
                                "not-over")
        return r.snapshot(position, wanted)

    @app.get("/api/tables/{tid}/hint")
    def ask_hint(tid: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        """The expert's move for the token's seat now, and why (a hint for a learner)."""
        row = table_row(tid)
        mine = seat_of(tid, authorization)
        if mine is None:
            raise RoomError("a hint is for a seat: send its token", "bad-token")
        if row.status != "playing":
            raise RoomError("the game is not in play", "not-playing")
        return hint(row, store.actions(tid), mine)

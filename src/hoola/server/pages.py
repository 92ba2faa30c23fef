"""The browser UI's routes: its static files, its pages, hints and the server's clock.

The pages are plain HTML, CSS and JavaScript modules from the ``web`` folder beside this module,
nothing built or fetched at run time:

- ``/`` the lobby, ``/join/{table}`` the same page opened from an invite link,
- ``/table/{table}`` a table (a seat's token kept by the browser, or the invite to watch),
- ``/replay/{table}`` a finished game step by step (its data from :mod:`hoola.server.records`).
- ``/rules/{game}?preset=`` how to play a game under a preset, in English (the engine's) and
  Korean (``web/howto.ko.json``).

The JSON routes: ``GET /api/tables/{id}/hint`` (a seat's token: the expert's move and why) and
``GET /api/time`` (the server's clock, for the countdowns), ``GET /api/origin`` (the address
invite links name).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Header, Request
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from hoola.core.errors import HoolaError
from hoola.core.registry import game_and_preset
from hoola.core.rulebook import rules_data
from hoola.server.context import Server, server
from hoola.server.errors import responses
from hoola.server.replay import hint
from hoola.server.room import RoomError

__all__ = ["WEB", "mount_static", "router"]

WEB = Path(__file__).with_name("web")
"""The folder of the UI's static files."""
_NO_CACHE = {"Cache-Control": "no-cache"}

Context = Annotated[Server, Depends(server)]

router = APIRouter()


def mount_static(app: FastAPI) -> None:
    """Serve the UI's static files under ``/static``."""
    app.mount("/static", StaticFiles(directory=WEB), name="static")


def _page(name: str) -> FileResponse:
    return FileResponse(WEB / name, media_type="text/html", headers=_NO_CACHE)


@router.get("/", include_in_schema=False)
def lobby_page() -> FileResponse:
    return _page("lobby.html")


@router.get("/join/{tid}", include_in_schema=False)
def join_page(tid: str) -> FileResponse:
    return _page("lobby.html")


@router.get("/table/{tid}", include_in_schema=False)
def table_page(tid: str) -> FileResponse:
    return _page("table.html")


@router.get("/replay/{tid}", include_in_schema=False)
def replay_page(tid: str) -> FileResponse:
    return _page("replay.html")


@router.get("/rules/{game}", include_in_schema=False)
def rules_page(game: str) -> FileResponse:
    return _page("rules.html")


@router.get("/api/rules/{game}", responses=responses(400))
def rules_book(game: str, preset: str | None = None) -> dict[str, Any]:
    """A game's presets (title, meaning, source, what each sets) and options (meaning, allowed
    values, the value under ``preset``), as ``hoola rules GAME --json`` prints them: the
    lobby's form is drawn from it."""
    try:
        found, named = game_and_preset(game, preset)
    except HoolaError as exc:
        raise RoomError(exc.message, "no-game") from exc
    try:
        return rules_data(found, named or found.default_preset)
    except HoolaError as exc:
        raise RoomError(exc.message, "bad-rules") from exc


@router.get("/api/time", responses=responses())
def clock() -> dict[str, float]:
    """The server's clock (Unix seconds): the deadlines in ``state`` messages are on it."""
    return {"now": time.time()}


@router.get("/api/origin", responses=responses())
def origin(request: Request, srv: Context) -> dict[str, str]:
    """The origin to put in invite links: the address this browser used, or this machine's LAN
    address when that was the loopback and the server listens on every interface."""
    return {"origin": srv.invite_origin(request)}


@router.get("/api/tables/{tid}/hint", responses=responses(400, 403, 404, 503))
def ask_hint(tid: str, srv: Context,
             authorization: str | None = Header(None)) -> dict[str, Any]:
    """The expert's move for the token's seat now, and why (a hint for a learner)."""
    row = srv.table(tid)
    mine = srv.seat_if_any(tid, authorization)
    if mine is None:
        raise RoomError("a hint is for a seat: send its token", "bad-token")
    if row.status != "playing":
        raise RoomError("the game is not in play", "not-playing")
    if row.config.get("rated"):  # the expert's advice would be the expert's rating
        raise RoomError("a rated game is played without hints", "rated-hint")
    return hint(row, srv.store.actions(tid), mine)

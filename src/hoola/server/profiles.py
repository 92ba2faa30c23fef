"""Accounts, profiles and leaderboards over HTTP (``docs/server.md``, "Accounts and ratings").

- ``POST /api/account/signup``, ``/signin``, ``/guest``, ``/signout``: a name and a password as
  JSON; the answer sets (or clears) the session cookie. Signing up while a guest names the guest's
  account, so its games and ratings stay.
- ``GET /api/account/me``: the account signed in, or null.
- ``GET /api/accounts/{name}``: a profile: games played, ratings per game and table size, the
  recent finished games (to replay or download), with each rated one's place and rating change.
- ``GET /api/leaderboard/{game}``: the named accounts rated at a game, best first.
- The pages ``/profile``, ``/profile/{name}``, ``/leaderboard``, ``/leaderboard/{game}``.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field, SecretStr

from hoola.core.registry import game_names
from hoola.server import store as st
from hoola.server.accounts import Account, AccountError, Accounts, check_origin
from hoola.server.context import Server, address, server
from hoola.server.errors import responses
from hoola.server.pages import WEB
from hoola.server.ratings import leaderboard, ratings_of, shown

__all__ = ["Credentials", "router"]

Context = Annotated[Server, Depends(server)]
_NO_CACHE = {"Cache-Control": "no-cache"}

router = APIRouter()


class Credentials(BaseModel):
    """A name and a password (the password is never echoed, logged or stored as it is)."""

    name: str = Field(max_length=64, description="2 to 24 letters, digits, _ or -")
    password: SecretStr = Field(max_length=256, description="8 to 256 characters")


def _accounts(srv: Server) -> Accounts:
    assert srv.accounts is not None, "create_app makes the accounts"
    return srv.accounts


def _me(account: Account) -> dict[str, Any]:
    return {"account": account.to_json()}


@router.post("/api/account/signup", responses=responses(400, 403, 422, 429, 503))
def sign_up(creds: Credentials, request: Request, response: Response,
            srv: Context) -> dict[str, Any]:
    """A new account, signed in; a guest signing up keeps its games and ratings."""
    check_origin(request)
    accounts = _accounts(srv)
    current = accounts.of(request)
    account = accounts.sign_up(creds.name, creds.password.get_secret_value(), address(request),
                               guest=current if current is not None and current.guest else None)
    accounts.open_session(account, response, request)
    return _me(account)


@router.post("/api/account/signin", responses=responses(401, 403, 422, 429, 503))
def sign_in(creds: Credentials, request: Request, response: Response,
            srv: Context) -> dict[str, Any]:
    """Sign in with a name and a password (so many tries a minute, per address and per
    account)."""
    check_origin(request)
    accounts = _accounts(srv)
    account = accounts.sign_in(creds.name, creds.password.get_secret_value(), address(request))
    accounts.open_session(account, response, request)
    return _me(account)


@router.post("/api/account/guest", responses=responses(403, 429, 503))
def guest(request: Request, response: Response, srv: Context) -> dict[str, Any]:
    """Play at once as a guest (an account with no password, to name later by signing up)."""
    check_origin(request)
    accounts = _accounts(srv)
    account = accounts.of(request)
    if account is None:
        account = accounts.guest(address(request))
        accounts.open_session(account, response, request)
    return _me(account)


@router.post("/api/account/signout", responses=responses(403, 503))
def sign_out(request: Request, response: Response, srv: Context) -> dict[str, Any]:
    """Sign out: the session ends, here and in the store."""
    check_origin(request)
    _accounts(srv).close_session(request, response)
    return {"account": None}


@router.get("/api/account/me", responses=responses(503))
def me(request: Request, srv: Context) -> dict[str, Any]:
    """The account signed in on this browser, or null."""
    account = _accounts(srv).of(request)
    return {"account": None if account is None else account.to_json()}


@router.get("/api/accounts/{name}", responses=responses(404, 503))
def profile(name: str, srv: Context) -> dict[str, Any]:
    """An account's profile: games played, ratings, the recent finished games."""
    accounts = _accounts(srv)
    account = accounts.named(name)
    if account is None:
        raise AccountError("there is no such account", "no-account")
    played = accounts.seats_of(account.id)
    tids = [row.id for row, _ in played]
    rated: dict[str, Any] = {}
    if tids:
        with srv.store.reading("the results") as db:
            rated = {r.table_id: r for r in db.execute(
                sa.select(st.results).where(st.results.c.table_id.in_(tids)))}
    recent = []
    for row, seat in played:
        c = row.config
        entry: dict[str, Any] = {
            "table_id": row.id, "game": c["game"], "rules": c["preset"],
            "players": len(c.get("names") or []), "finished": row.finished, "seat": seat,
            "rated": bool(c.get("rated")), "names": c.get("names") or []}
        found = rated.get(row.id)
        if found is not None:
            entry["place"] = json.loads(found.places)[seat] + 1
            change = json.loads(found.changes).get(account.id)
            if change is not None:
                before, after = shown(change[0], change[1]), shown(change[2], change[3])
                entry["rating"] = after["text"]
                entry["change"] = round(after["ordinal"] - before["ordinal"], 1)
        recent.append(entry)
    return {"account": {"name": account.name, "guest": account.guest,
                        "created": account.created},
            "games": accounts.games_played(account.id),
            "ratings": ratings_of(srv.store, account.id), "recent": recent}


@router.get("/api/leaderboard/{game}", responses=responses(400, 503))
def board(game: str, srv: Context, players: int | None = None) -> dict[str, Any]:
    """The named accounts rated at ``game`` (at ``players``, default: the table size with the
    most rated accounts), best ordinal first, with the bots' fixed ratings beside them."""
    if game not in game_names():
        raise AccountError(f"there is no game {game[:30]!r}: the games are "
                           f"{', '.join(game_names())}", "no-game")
    if players is not None and not 1 <= players <= 16:
        raise AccountError("players is a table size, 2 to 7", "bad-players")
    return leaderboard(srv.store, game, players)


def _page(name: str) -> FileResponse:
    return FileResponse(WEB / name, media_type="text/html", headers=_NO_CACHE)


@router.get("/profile", include_in_schema=False)
def own_profile_page() -> FileResponse:
    return _page("profile.html")


@router.get("/profile/{name}", include_in_schema=False)
def profile_page(name: str) -> FileResponse:
    return _page("profile.html")


@router.get("/leaderboard", include_in_schema=False)
def leaderboard_index() -> FileResponse:
    return _page("leaderboard.html")


@router.get("/leaderboard/{game}", include_in_schema=False)
def leaderboard_page(game: str) -> FileResponse:
    return _page("leaderboard.html")

"""``hoola serve``: tables of every registered game over HTTP and WebSocket (FastAPI on uvicorn).

:func:`create_app` makes the application from its parts (:class:`~hoola.server.context.Server`:
the store, the hub, the limits, the metrics) and its routers, one per concern:

- :mod:`~hoola.server.tables`: the games, making, listing, joining and starting tables;
- :mod:`~hoola.server.records`: finished games as records, and replays;
- :mod:`~hoola.server.pages`: the browser UI, its hints and the server's clock;
- :mod:`~hoola.server.socket`: the play, one WebSocket per client (``/ws/{table}``);
- :mod:`~hoola.server.profiles`: accounts, sessions, profiles and leaderboards (the rated
  results and ratings: :mod:`~hoola.server.ratings`);
- :mod:`~hoola.server.tournaments`: tournaments, driven over the tables, and their records;
- :mod:`~hoola.server.ops`: ``/health`` and Prometheus ``/metrics``.

Every error is ``{code, message}`` (:mod:`~hoola.server.errors`). HTTP is documented at ``/docs``
(schema at ``/openapi.json``); the protocol of the play is in ``docs/server.md``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager

from argon2 import PasswordHasher
from fastapi import FastAPI

from hoola.core.game import Game, Player
from hoola.server import errors, ops, pages, profiles, ratings, records, rematch, socket, tables
from hoola.server import tournaments as tournament_routes
from hoola.server.accounts import Accounts
from hoola.server.context import Server
from hoola.server.errors import ALWAYS, STATUS, Error
from hoola.server.hub import LEASE_SECONDS, Hub
from hoola.server.limits import BodyLimits, Guard, Limits
from hoola.server.metrics import Metrics
from hoola.server.room import Room
from hoola.server.store import Store, StoreUnavailable
from hoola.server.views import PROTOCOL
from hoola.server.where import default_db_url

__all__ = ["ALWAYS", "KEEP_ALIVE", "STATUS", "Error", "create_app"]

KEEP_ALIVE = 75
"""Seconds an idle HTTP connection is kept open: longer than clients keep theirs (httpx 5,
proxies commonly 60), so no client sends a request on a connection the server is closing, which
it would see as a read error. uvicorn's own default is 5, the same as httpx's: a race."""


def create_app(store: Store | None = None, *, db_url: str | None = None,
               redis_url: str | None = None, lease_seconds: float = LEASE_SECONDS,
               externals: Mapping[str, str] | None = None,
               rate: float | None = None, burst: int | None = None,
               bots: Callable[[Game, str, int | None], Player] | None = None,
               limits: Limits | None = None, lan: str | None = None,
               hasher: PasswordHasher | None = None) -> FastAPI:
    """The server's ASGI application (``uvicorn`` runs it; tests too); with ``redis_url`` it
    shares its tables with the other processes on the same Redis and database. ``rate`` and
    ``burst`` bound each connection's messages a second (default
    :data:`~hoola.server.socket.RATE`, :data:`~hoola.server.socket.BURST`); ``limits`` are the
    abuse limits (default :class:`~hoola.server.limits.Limits`), those of request heads enforced
    by the protocol class that :func:`~hoola.server.limits.http_protocol` makes for uvicorn.
    Without ``store`` or ``db_url`` the tables are kept in the user's folder
    (:func:`~hoola.server.where.default_db_url`). ``lan``, this machine's address on its network
    when the server listens on every interface, goes in invite links in place of the loopback
    the host's browser used. ``hasher`` hashes the accounts' passwords (default: argon2 with its
    library's parameters)."""
    store = store or Store(db_url or default_db_url())
    limits = limits or Limits()
    accounts = Accounts(store, limits, hasher)
    hub = Hub(store, redis_url=redis_url, bots=bots, lease_seconds=lease_seconds,
              externals=externals)
    hub.on_over = lambda room: _rate(store, room)
    tournaments = tournament_routes.Tournaments(store, hub)
    metrics = Metrics(hub)
    srv = Server(store, hub, metrics, limits, Guard(limits), dict(externals or {}), rate, burst,
                 lan, accounts)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        await tournaments.start()
        try:  # rated games whose process stopped before rating them (found over just now too)
            await asyncio.to_thread(ratings.catch_up, store)
        except StoreUnavailable:
            logging.getLogger("hoola.server").warning("rated games left unrated: the database "
                                                      "is away; they are rated at the next start")
        metrics.start()
        yield
        await metrics.stop()
        await tournaments.stop()
        await hub.stop()

    app = FastAPI(title="hoola server", version=PROTOCOL, lifespan=lifespan,
                  description="Tables of Hoola, Kalookie and the capture games for people and "
                              "bots. The play itself is on the WebSocket /ws/{table_id}; see "
                              "docs/server.md.")
    app.state.server = srv
    app.state.hub = hub  # as the tests and the load benchmark reach it
    app.state.metrics = metrics
    app.state.tournaments = tournaments
    app.state.guard = srv.guard
    app.add_middleware(BodyLimits, limits=limits)
    errors.install(app)
    pages.mount_static(app)
    for router in (pages.router, tables.router, records.router, rematch.router, socket.router,
                   ops.router, profiles.router, tournament_routes.router):
        app.include_router(router)
    return app


def _rate(store: Store, room: Room) -> None:
    """Rate a table whose game has just ended (before the end is announced). The database away
    makes the room try again; any other failure is logged and leaves the table unrated, to be
    rated at the next start."""
    assert room.match is not None
    try:
        ratings.record(store, room.id, room.config, list(room.seats.values()), room.game,
                       room.rules, room.match)
    except StoreUnavailable:
        raise
    except Exception:
        logging.getLogger("hoola.server").exception("table %s cannot be rated", room.id)

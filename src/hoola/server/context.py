"""What every route of a server reaches: its store, hub, limits and metrics, and the checks the
routes share (a table, the host's token, a seat's token, a bot's kind, names).

One :class:`Server` is made by :func:`~hoola.server.app.create_app` and kept on the application
(``app.state.server``); a route asks for it as a dependency (:func:`server`), as FastAPI's
routers intend, so the routers (:mod:`~hoola.server.tables`, :mod:`~hoola.server.records`,
:mod:`~hoola.server.pages`, :mod:`~hoola.server.socket`) hold no state of their own.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import HTTPConnection

from hoola.server.accounts import Accounts
from hoola.server.hub import Hub
from hoola.server.limits import Guard, Limits
from hoola.server.metrics import Metrics
from hoola.server.room import RoomError
from hoola.server.store import Store, TableRow, digest
from hoola.server.where import invite_origin

__all__ = ["NAME_RE", "Server", "address", "bearer", "names", "plain", "same", "server",
           "summary"]

NAME_RE = re.compile(r"[A-Za-z0-9_-]{1,24}")


@dataclass(eq=False)
class Server:
    """One server process's parts, for its routes."""

    store: Store
    hub: Hub
    metrics: Metrics
    limits: Limits
    guard: Guard
    externals: Mapping[str, str] = field(default_factory=dict)
    rate: float | None = None  # a socket's messages a second (None: the protocol's default)
    burst: int | None = None
    lan: str | None = None  # this machine's LAN address, when listening on every interface
    accounts: Accounts | None = None  # the accounts and their sessions (create_app makes them)

    def invite_origin(self, conn: HTTPConnection) -> str:
        """The origin invite links name, for the browser that asked (see
        :func:`~hoola.server.where.invite_origin`)."""
        return invite_origin(conn.url.scheme, conn.headers.get("host") or conn.url.netloc,
                             self.lan)

    def table(self, tid: str) -> TableRow:
        """The table ``tid``, or ``no-table``."""
        row = self.store.table(tid) if len(tid) <= 24 else None
        if row is None:
            raise RoomError("there is no such table", "no-table")
        return row

    def check_bot(self, kind: str) -> None:
        """A built-in bot kind or level, or an external bot this server was started with."""
        if kind in self.externals:
            return
        from hoola.bots import check_seat_kind

        try:
            check_seat_kind(kind)
        except ValueError as exc:
            extra = f"; external bots: {', '.join(self.externals)}" if self.externals else ""
            raise RoomError(f"{exc}{extra}", "unknown-bot") from exc

    def host_only(self, tid: str, authorization: str | None, doing: str) -> None:
        """Refuse ``not-host`` unless ``authorization`` bears the table's host token."""
        row = self.table(tid)
        token = bearer(authorization)
        if token is None or len(token) > 100 or not same(row.host_digest, digest(token)):
            raise RoomError(f"only the host may {doing}", "not-host")

    def seat_of(self, tid: str, token: Any) -> int:
        """The seat ``token`` holds at table ``tid``, or ``bad-token``."""
        if isinstance(token, str) and len(token) <= 100:
            wanted = digest(token)
            for s in self.store.seats(tid):
                if s.token_digest is not None and same(s.token_digest, wanted):
                    return s.seat
        raise RoomError("that token holds no seat at this table", "bad-token")


    def seat_if_any(self, tid: str, authorization: str | None) -> int | None:
        """The seat an ``Authorization`` header's token holds (None without a token; a token
        that holds no seat is ``bad-token``)."""
        token = bearer(authorization)
        if token is None or len(token) > 100:
            return None
        return self.seat_of(tid, token)


def server(conn: HTTPConnection) -> Server:
    """The :class:`Server` of the application a request (or a socket) came to: a dependency."""
    got: Server = conn.app.state.server
    return got


def same(secret: str, given: Any) -> bool:
    """Whether ``given`` is ``secret``, in constant time, for any text a client sends."""
    return isinstance(given, str) and secrets.compare_digest(
        secret.encode("utf-8", "surrogatepass"), given.encode("utf-8", "surrogatepass"))


def plain(text: Any, limit: int) -> str:
    """Chat and names as plain text: no control characters, trimmed."""
    if not isinstance(text, str):
        return ""
    return "".join(c for c in text if c.isprintable())[:limit].strip()


def address(conn: HTTPConnection) -> str:
    """The client's address, as the per-address limits count it (behind a proxy, the proxy's,
    unless uvicorn takes it from X-Forwarded-For)."""
    return conn.client.host if conn.client is not None else "unknown"


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header."""
    if header and header.lower().startswith("bearer "):
        return header[7:].strip()
    return None


def names(wanted: list[str]) -> list[str]:
    """Seat names as given, checked: letters, digits, ``_`` and ``-``, each once."""
    out: list[str] = []
    for name in wanted:
        name = plain(name, 24)
        if not NAME_RE.fullmatch(name):
            raise RoomError(f"{name[:24]!r} is not a name: use 1 to 24 letters, digits, _ or -",
                            "bad-name")
        if name in out:
            raise RoomError(f"two seats are named {name}", "name-taken")
        out.append(name)
    return out


def summary(store: Store, row: TableRow, invite: bool = False) -> dict[str, Any]:
    """A table as the lobby and the history list it: no cards."""
    c = row.config
    out: dict[str, Any] = {
        "table_id": row.id, "game": c["game"], "rules": c["preset"], "options": c["options"],
        "status": row.status, "deals": c.get("deals"), "created": row.created,
        "rated": bool(c.get("rated")),
        "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "bot": s.bot}
                  for s in store.seats(row.id)]}
    if invite:
        out["invite"] = row.invite
    return out

"""The play over WebSocket, ``/ws/{table_id}`` (``docs/server.md``, protocol ``hoola-server/1``).

The client says ``hello`` with its seat's token (or the table's invite, to watch), then sends
actions in the records' notation with the state counter it acted on, and receives its own view
after every change. Each connection has an outgoing queue (a slow client never holds a table up)
and a rate budget; every refusal is one ``error`` message with a code, and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import APIRouter, Depends, WebSocket, WebSocketDisconnect

from hoola.core.errors import HoolaError
from hoola.server.context import Server, address, plain, same, server
from hoola.server.limits import LimitError
from hoola.server.room import RoomError
from hoola.server.store import digest
from hoola.server.views import PROTOCOL

__all__ = ["BURST", "HELLO_SECONDS", "MAX_MESSAGE", "RATE", "Connection", "router"]

log = logging.getLogger("hoola.server")

MAX_MESSAGE = 4096
"""The largest client message read, in bytes."""
RATE = 10.0
"""Messages a second a connection may send on average (a burst of :data:`BURST`)."""
BURST = 30
HELLO_SECONDS = 10.0

router = APIRouter()


@dataclass(eq=False)
class Connection:
    """One client's socket: its outgoing queue (so a slow client never holds a table up), its
    rate budget."""

    ws: WebSocket
    address: str = ""  # the client's, for the per-address limits
    held: str | None = None  # the digest of the token that took the seat
    account: str | None = None  # the signed-in account, once asked ("" for none)
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


@router.websocket("/ws/{tid}")
async def play(ws: WebSocket, tid: str, srv: Annotated[Server, Depends(server)]) -> None:
    """One client's connection to a table, from its hello to its close."""
    hub, guard, limits, metrics, store = srv.hub, srv.guard, srv.limits, srv.metrics, srv.store
    await ws.accept()
    conn = Connection(ws, address=address(ws), rate=srv.rate, burst=srv.burst,
                      tokens=BURST if srv.burst is None else srv.burst)
    writer = asyncio.create_task(_write(conn))
    seat: int | None = None
    joined = counted = False
    opened = contextlib.ExitStack()
    try:
        if not guard.sockets.acquire(conn.address):
            raise LimitError(f"at most {limits.sockets_per_address} connections at once from "
                             "one address", "too-many-connections")
        opened.callback(guard.sockets.release, conn.address)
        hello = await asyncio.wait_for(_read(conn), HELLO_SECONDS)
        if hello is None or hello.get("type") != "hello":
            raise RoomError("say hello first: {\"type\": \"hello\", \"token\": ...}",
                            "hello-first")
        row = srv.table(tid)
        if "token" in hello:
            seat = srv.seat_of(tid, hello["token"])
            if srv.accounts is not None:  # a rated seat is played by its account's session
                srv.accounts.check_holder(tid, row.config, seat, ws)
            conn.held = digest(hello["token"])
        else:
            invite = hello.get("invite")
            if not isinstance(invite, str) or not same(row.invite, invite[:64]):
                raise RoomError("a spectator needs the table's invite", "bad-invite")
            if not guard.spectators.acquire(tid):
                raise LimitError(f"the table has {limits.spectators_per_table} spectators, the "
                                 "most it takes: try again later", "too-many-spectators")
            opened.callback(guard.spectators.release, tid)
        joined = True
        opened.enter_context(metrics.socket("spectator" if seat is None else "seat"))
        await hub.watch(tid, seat, conn)
        conn.push({"type": "welcome", "protocol": PROTOCOL, "table_id": tid, "seat": seat,
                   "game": row.config["game"], "rules": row.config["preset"]})
        for name, text in store.chat(tid, 20):
            conn.push({"type": "chat", "name": name, "text": text})
        try:
            await hub.presence(tid, seat, +1)
            counted = True  # taken back when the socket closes, and only then
            await hub.call(tid, "announce")
        except HoolaError as exc:
            if exc.code != "unavailable":
                raise
            # Welcomed and listening, but the owner could not be reached (Redis went away in
            # between): the client is told, and stays; the state comes once Redis is back.
            conn.push(_error(exc.code, exc.message))
        while True:
            message = await _read(conn)
            if message is not None:
                await _handle(srv, tid, seat, conn, message)
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


async def _handle(srv: Server, tid: str, seat: int | None, conn: Connection,
                  message: dict[str, Any]) -> None:
    hub = srv.hub
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
            with srv.metrics.decision():
                await hub.call(tid, "submit", seat=seat, text=text, counter=counter,
                               holder=conn.held)
        elif kind == "chat":
            text = plain(message.get("text"), 300)
            if not text:
                raise RoomError("a chat line is some plain text", "bad-chat")
            if conn.account is None:  # asked once, at the first line
                signed = srv.accounts.of(conn.ws) if srv.accounts is not None else None
                conn.account = signed.id if signed is not None else ""
            srv.guard.chat(conn.address, tid, conn.account)  # refused: neither relayed nor stored
            await hub.call(tid, "chat", seat=seat, text=text)
        elif kind == "continue":  # the result between two deals read: the next may come
            if seat is None:
                raise RoomError("spectators watch; they do not act", "spectator")
            await hub.call(tid, "go_on", seat=seat)
        elif kind == "state":  # to the asker alone: no client makes the table announce to all
            conn.push(await hub.call(tid, "message", seat=seat))
        else:
            raise RoomError(f"unknown message type {str(kind)[:20]!r}: hello, act, pass, "
                            "continue, chat, state, ping", "bad-type")
    except HoolaError as exc:
        conn.push(_error(exc.code, exc.message))

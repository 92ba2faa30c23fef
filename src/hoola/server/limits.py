"""The server's abuse limits: every number in one frozen :class:`Limits`, and what enforces them.

- :func:`http_protocol` is uvicorn's own HTTP protocol with a deadline and a size for the request
  head (uvicorn has neither: a client that sends half a head and stalls is kept for ever), and
  with its bare-text refusals of broken requests answered as JSON.
- :class:`BodyLimits` is ASGI middleware that reads a request's body before the app does, within
  a size and a time (413 ``too-large`` from the Content-Length alone when it says too much, or as
  soon as a chunked body passes the size; 408 ``timeout`` when the body stalls).
- :class:`Guard` holds one process's per-address and per-table counters: WebSocket connections
  per address, spectators per table, chat lines per address and per table, table creation per
  address (a token bucket and a cap on tables waiting for players), and per account alike
  (:mod:`hoola.server.tables`); sign-ins and sign-ups are counted by
  :class:`~hoola.server.accounts.Accounts` with the same buckets.

A limit of 0 is no limit. Addresses are the ASGI scope's client, so behind a proxy every client
comes from the proxy's address unless uvicorn takes them from its ``X-Forwarded-For`` (trusted
from ``forwarded_allow_ips``: loopback by default).

>>> bucket = Buckets(per_second=0.001, burst=2)
>>> [bucket.take("a") for _ in range(3)], bucket.take("b")
([True, True, False], True)
>>> Limits.parse({"chat_burst": "3"}).chat_burst
3
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import http
import itertools
import json
import math
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import h11
from h11 import _connection as h11_limit
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from hoola.core.errors import HoolaError

__all__ = ["BodyLimits", "Buckets", "Guard", "LimitError", "Limits", "TableQuota", "Tally",
           "http_protocol"]


@dataclass(frozen=True)
class Limits:
    """Every limit of a server process, with its default; 0 turns a limit off."""

    head_seconds: float = 10.0
    """A connection that has not sent a whole request head this long after it opened (or after
    the first byte of its next request) is closed."""
    head_bytes: int = 32 * 1024
    """The largest request head (request line and headers): past it, 431 and closed."""
    body_seconds: float = 20.0
    """A request's body must have arrived whole this long after its head: else 408."""
    body_bytes: int = 64 * 1024
    """The largest request body: past it, 413 (from the Content-Length, before reading)."""
    sockets_per_address: int = 64
    """WebSocket connections open at once from one client address."""
    spectators_per_table: int = 50
    """Spectators watching one table at once (in this process)."""
    chat_per_minute: float = 30.0
    """Chat lines a minute from one client address, on average ..."""
    chat_burst: int = 8
    """... in bursts of this many."""
    table_chat_per_minute: float = 120.0
    """Chat lines a minute at one table, from everyone, on average ..."""
    table_chat_burst: int = 20
    """... in bursts of this many."""
    tables_per_minute: float = 20.0
    """Tables one client address may make a minute, on average ..."""
    tables_burst: int = 30
    """... in bursts of this many."""
    waiting_tables_per_address: int = 10
    """Tables made from one address (since this process started) still waiting for players."""
    lobby_waiting_per_creator: int = 3
    """Waiting tables the lobby lists per creator, newest first, beside those with people."""
    signins_per_minute: float = 20.0
    """Sign-ins one client address may try a minute, on average ..."""
    signins_burst: int = 10
    """... in bursts of this many."""
    account_signins_per_minute: float = 6.0
    """Sign-ins to one account name a minute, from anywhere, on average ..."""
    account_signins_burst: int = 5
    """... in bursts of this many."""
    signups_per_minute: float = 5.0
    """Accounts (guests too) one client address may make a minute, on average ..."""
    signups_burst: int = 10
    """... in bursts of this many."""
    tournaments_per_hour: float = 12.0
    """Tournaments one client address, and one account, may make an hour, on average ..."""
    tournaments_burst: int = 4
    """... in bursts of this many."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int | float) or \
                    not math.isfinite(value) or value < 0:
                raise ValueError(f"the limit {f.name} is a number of 0 or more, not {value!r}")
            if f.type == "int" and not isinstance(value, int):
                raise ValueError(f"the limit {f.name} is a whole number, not {value!r}")
        for rate, burst in (("chat_per_minute", "chat_burst"),
                            ("table_chat_per_minute", "table_chat_burst"),
                            ("tables_per_minute", "tables_burst"),
                            ("signins_per_minute", "signins_burst"),
                            ("account_signins_per_minute", "account_signins_burst"),
                            ("signups_per_minute", "signups_burst"),
                            ("tournaments_per_hour", "tournaments_burst")):
            if getattr(self, rate) and not getattr(self, burst):
                raise ValueError(f"{rate} needs a {burst} of 1 or more")

    @classmethod
    def parse(cls, pairs: Mapping[str, str], base: Limits | None = None) -> Limits:
        """``base`` (default: the defaults) with the limits named in ``pairs`` set from text,
        as ``hoola serve --limit KEY=VALUE`` gives them; ValueError names a bad one."""
        kinds = {f.name: f.type for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for key, text in pairs.items():
            if key not in kinds:
                raise ValueError(f"there is no limit {key!r}: the limits are "
                                 f"{', '.join(kinds)}")
            try:
                values[key] = int(text) if kinds[key] == "int" else float(text)
            except ValueError:
                kind = "a whole number" if kinds[key] == "int" else "a number"
                raise ValueError(f"the limit {key} is {kind}, not {text!r}") from None
        return dataclasses.replace(base or cls(), **values)


class LimitError(HoolaError):
    """A request refused by a limit; ``retry_after`` is when to try again, in seconds."""

    code = "rate-limited"

    def __init__(self, message: str, code: str | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(message, code)
        self.retry_after = retry_after


# -- counters -----------------------------------------------------------------------------------

class Buckets:
    """A token bucket per key: ``burst`` at once, refilled at ``per_second``; off (no limit)
    when ``per_second`` is 0. Buckets that have filled up again are forgotten now and then, so
    the keys of a flood of addresses do not pile up."""

    PRUNE_EVERY = 4096

    def __init__(self, per_second: float, burst: int) -> None:
        self.per_second = per_second
        self.burst = float(burst)
        self.off = per_second == 0
        self.state: dict[str, tuple[float, float]] = {}  # key -> (tokens, when counted)
        self.writes = 0

    def _tokens(self, key: str, now: float) -> float:
        tokens, stamp = self.state.get(key, (self.burst, now))
        return min(self.burst, tokens + (now - stamp) * self.per_second)

    def ready(self, key: str) -> bool:
        """Whether ``key`` may have one more now (nothing taken)."""
        return self.off or self._tokens(key, time.monotonic()) >= 1

    def take(self, key: str) -> bool:
        """Take one for ``key`` if it has one; whether it had."""
        if self.off:
            return True
        now = time.monotonic()
        tokens = self._tokens(key, now)
        if tokens < 1:
            return False
        self.state[key] = (tokens - 1, now)
        self.writes += 1
        if self.writes % self.PRUNE_EVERY == 0:
            self.state = {k: v for k, v in self.state.items() if self._tokens(k, now) < self.burst}
        return True

    def wait(self, key: str) -> float:
        """Seconds until ``key`` has one again."""
        missing = 1 - self._tokens(key, time.monotonic())
        if self.off or missing <= 0:
            return 0.0
        return missing / self.per_second


class Tally:
    """How many of something each key holds at once, at most ``cap`` (0: no cap)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.counts: dict[str, int] = {}

    def acquire(self, key: str) -> bool:
        """Count one more for ``key`` if under the cap; whether it was."""
        held = self.counts.get(key, 0)
        if self.cap and held >= self.cap:
            return False
        self.counts[key] = held + 1
        return True

    def release(self, key: str) -> None:
        """Count one fewer for ``key``."""
        held = self.counts.get(key, 0) - 1
        if held > 0:
            self.counts[key] = held
        else:
            self.counts.pop(key, None)


class TableQuota:
    """Table creation per address: a token bucket, and a cap on the tables it made that are
    still waiting for players. Thread-safe (the server makes tables in worker threads)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.bucket = Buckets(limits.tables_per_minute / 60, limits.tables_burst)
        self.made: dict[str, list[str]] = {}  # address -> its tables (or tickets of ones in hand)
        self.lock = threading.Lock()
        self.tickets = itertools.count()

    def admit(self, address: str, is_waiting: Callable[[str], bool]) -> str:
        """A ticket to make one table from ``address``, or LimitError; ``is_waiting`` tells
        whether one of its earlier tables still waits for players (it may look at the store,
        so it is asked outside the lock)."""
        cap = self.limits.waiting_tables_per_address
        gone: set[str] = set()
        if cap:
            with self.lock:
                mine = list(self.made.get(address, ()))
            gone = {t for t in mine if not t.startswith("ticket:") and not is_waiting(t)}
        with self.lock:
            mine = self.made.setdefault(address, [])
            if cap:
                mine[:] = [t for t in mine if t not in gone]
                if len(mine) >= cap:
                    raise LimitError(f"this address has {len(mine)} tables waiting for players, "
                                     "the most it may: start or leave one first")
            if not self.bucket.take(address):
                wait = self.bucket.wait(address)
                if not mine:
                    del self.made[address]
                raise LimitError(f"this address may make {self.limits.tables_per_minute:g} "
                                 f"tables a minute: try again in {math.ceil(wait)} s",
                                 retry_after=wait)
            ticket = f"ticket:{next(self.tickets)}"
            if cap:
                mine.append(ticket)
            elif not mine:
                del self.made[address]
            return ticket

    def made_table(self, address: str, ticket: str, tid: str | None) -> None:
        """The table of ``ticket`` is made (``tid``), or failed (None)."""
        with self.lock:
            mine = self.made.get(address)
            if mine is None or ticket not in mine:
                return
            if tid is None:
                mine.remove(ticket)
            else:
                mine[mine.index(ticket)] = tid
            if not mine:
                del self.made[address]


class Guard:
    """One server process's per-address and per-table counters under its :class:`Limits`.

    The counts are this process's own: with several processes (``--redis``) each enforces them
    on the connections and requests it serves.
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.sockets = Tally(limits.sockets_per_address)
        self.spectators = Tally(limits.spectators_per_table)
        self.chat_by_address = Buckets(limits.chat_per_minute / 60, limits.chat_burst)
        self.chat_by_table = Buckets(limits.table_chat_per_minute / 60, limits.table_chat_burst)
        self.tables = TableQuota(limits)
        self.tournaments = Buckets(limits.tournaments_per_hour / 3600, limits.tournaments_burst)
        self._key = secrets.token_bytes(32)  # never stored: the creator hashes are unlinkable

    def chat(self, address: str, tid: str, account: str | None = None) -> None:
        """Count a chat line from ``address`` (and a signed-in ``account``, wherever it writes
        from) at table ``tid``, or LimitError (nothing counted) when one has had its share."""
        senders = _makers(address, account)
        if not all(self.chat_by_address.ready(k) for k in senders):
            raise LimitError(f"at most {self.limits.chat_per_minute:g} chat lines a minute "
                             "from one address or account: wait a little")
        if not self.chat_by_table.ready(tid):
            raise LimitError(f"at most {self.limits.table_chat_per_minute:g} chat lines a "
                             "minute at a table: wait a little")
        for key in senders:
            self.chat_by_address.take(key)
        self.chat_by_table.take(tid)

    def may_make_tournament(self, address: str, account: str | None = None) -> None:
        """LimitError when ``address`` (or ``account``) has made its share of tournaments."""
        if not all(self.tournaments.ready(k) for k in _makers(address, account)):
            raise LimitError(f"at most {self.limits.tournaments_per_hour:g} tournaments an "
                             "hour from one address or account: wait a little")

    def made_tournament(self, address: str, account: str | None = None) -> None:
        """Count a tournament made from ``address`` (and by ``account``): one refused as bad
        is never counted."""
        for key in _makers(address, account):
            self.tournaments.take(key)

    def creator(self, address: str) -> str:
        """The address as the tables it makes keep it: a keyed hash (the key dies with the
        process), enough to tell one creator's tables from another's and no more."""
        return hmac.new(self._key, address.encode("utf-8", "surrogatepass"),
                        hashlib.sha256).hexdigest()[:16]


def _makers(address: str, account: str | None) -> list[str]:
    """The keys a request counts against: its address, and its signed-in account if any."""
    return [address] if not account else [address, f"account {account}"]


# -- request bodies -------------------------------------------------------------------------------

def error_body(code: str, message: str) -> bytes:
    """An HTTP error's JSON body."""
    return json.dumps({"code": code, "message": message}).encode()


async def _answer(send: Send, status: int, code: str, message: str) -> None:
    """An error answered at once on a connection then closed: the rest of the body is unread,
    and would otherwise be taken for the next request."""
    body = error_body(code, message)
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class BodyLimits:
    """ASGI middleware: a request's body is read whole, at most ``body_bytes`` within
    ``body_seconds`` of its head, before the app sees it; else 413 ``too-large`` (at once
    when the Content-Length says too much) or 408 ``timeout``, and the connection is closed."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.most = limits.body_bytes
        self.seconds = limits.body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not (self.most or self.seconds):
            await self.app(scope, receive, send)
            return
        length: int | None = None
        chunked = False
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    length = int(value)
                except ValueError:  # the HTTP parser has refused such a request already
                    length = None
            elif name == b"transfer-encoding":
                chunked = True
        if not chunked and not length:  # no body
            await self.app(scope, receive, send)
            return
        too_large = f"a request body has at most {self.most} bytes"
        if self.most and length is not None and length > self.most:
            await _answer(send, 413, "too-large", too_large)
            return
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.seconds or None):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":  # the client has gone
                        return
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if self.most and size > self.most:
                        await _answer(send, 413, "too-large", too_large)
                        return
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await _answer(send, 408, "timeout", "the request body did not arrive in time "
                                                f"({self.seconds:g} s)")
            return
        body = b"".join(chunks)
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


# -- request heads --------------------------------------------------------------------------------

class _HeadLimits(asyncio.Protocol):
    """Mixed into a uvicorn HTTP protocol: a deadline and a size for each request head.

    The deadline runs from the connection's opening, and from the first byte after a response
    (uvicorn's keep-alive timer governs an idle connection, but stops at any byte it receives);
    it ends when the head is whole, which is when uvicorn starts a new request cycle (or hands
    the connection to its WebSocket protocol)."""

    head_seconds = 0.0
    head_bytes = 0
    # What the uvicorn protocol it is mixed into has.
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    cycle: Any

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_size = 0
        self._head_tail = b""  # the last bytes of the head so far: its end may span two reads
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.head_bytes and self._between_requests():
            # Measured before the parser sees it (h11 would refuse a long head as not HTTP).
            seen = self._head_tail + data
            end = seen.find(b"\r\n\r\n")
            self._head_size += len(data) if end < 0 else end + 4 - len(self._head_tail)
            self._head_tail = seen[-3:]
            if self._head_size > self.head_bytes:
                self._refuse(431, "too-large", f"a request head has at most {self.head_bytes} "
                                               "bytes")
                return
        before = self.cycle
        super().data_received(data)
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            self._disarm()  # refused, or a WebSocket now: no more requests here
        elif self.cycle is not before:  # a head came in whole
            self._disarm()
            self._head_size = 0
            self._head_tail = b""
        elif self._between_requests() and self._head_timer is None:
            self._arm()  # part of a head (or stray bytes) after a response

    def send_400_response(self, msg: str) -> None:
        """A request that is not HTTP: answered as every other error, in JSON."""
        self._refuse(400, "bad-request", "the request is not valid HTTP/1.1")

    def _between_requests(self) -> bool:
        return self.cycle is None or bool(self.cycle.response_complete)

    def _arm(self) -> None:
        self._disarm()
        if self.head_seconds:
            self._head_timer = self.loop.call_later(self.head_seconds, self._head_timeout)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timeout(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing() and self.transport.get_protocol() is self and \
                self._between_requests():
            self.transport.close()  # as nginx does: a client this slow reads no answer

    def _refuse(self, status: int, code: str, message: str) -> None:
        body = error_body(code, message)
        head = (f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}\r\n"
                f"content-type: application/json\r\ncontent-length: {len(body)}\r\n"
                "connection: close\r\n\r\n")
        self._disarm()
        self.transport.write(head.encode() + body)
        self.transport.close()


class _H11(_HeadLimits, H11Protocol):
    """uvicorn's h11 protocol with the head limits."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.head_bytes:  # h11's own cap (16 KiB) would refuse a longer head as not HTTP
            self.conn = h11.Connection(h11.SERVER, max_incomplete_event_size=self.head_bytes +
                                       h11_limit.DEFAULT_MAX_INCOMPLETE_EVENT_SIZE)


_BASE: type[_HeadLimits] = _H11
try:  # uvicorn's "auto" choice: httptools when it is installed
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class _HttpTools(_HeadLimits, HttpToolsProtocol):
        """uvicorn's httptools protocol with the head limits."""

    _BASE = _HttpTools
except ImportError:  # pragma: no cover
    pass


def http_protocol(limits: Limits) -> type[asyncio.Protocol]:
    """The HTTP protocol class to give uvicorn (``Config(http=...)``, ``uvicorn.run(http=...)``)
    that enforces ``limits.head_seconds`` and ``limits.head_bytes`` and answers a request that
    is not HTTP with a JSON error."""
    return type("LimitedHTTPProtocol", (_BASE,), {"head_seconds": limits.head_seconds,
                                                  "head_bytes": limits.head_bytes})

"""Which process plays which table, and how messages reach the clients of every process.

Alone (no Redis), a server process owns every table. With ``--redis URL`` several processes, on
one machine or many, serve the same tables from the same database:

- **Ownership.** A table is played by one process at a time, the holder of its lease in Redis
  (``hoola:lease:{table}``, renewed every third of :data:`LEASE_SECONDS`). A process that needs a
  table nobody holds takes the lease and rebuilds the table from its stored actions; a process
  that finds its lease gone drops the table. Every stored action names its place in the table's
  sequence, so a process that lost its lease cannot write after the new owner (the database
  refuses the second writer of a place).
- **Requests.** A client may connect to any process. What it asks of a table (an action, a join,
  the start) runs on the owner: another process forwards it on ``hoola:in:{table}`` and waits for
  the answer on its own ``hoola:reply:{process}`` channel; an owner that does not answer in time
  is presumed dead, and the table is taken over when its lease runs out.
- **Fan-out.** The owner delivers each message to its own connections and publishes it on
  ``hoola:out:{table}``; the other processes deliver it to theirs.
- **Takeover.** Every process looks, at each lease tick, for tables in play whose lease has run
  out (their owner was killed) and takes them over, so their bots play on and their clients,
  connected anywhere, see the table move again without asking.
- **Redis away.** An owner that cannot renew a lease stops writing its table once the lease may
  have run out (another process may hold it by then: the table is *fenced*), and goes on when
  a renewal succeeds; requests that need Redis meanwhile are answered ``unavailable``. The
  listener subscribes anew when Redis is back and asks for the state of every table whose
  clients it holds, so nothing announced during the outage stays missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol, TypeVar

from hoola.core.errors import HoolaError
from hoola.core.game import Game, Player
from hoola.server import heap
from hoola.server.room import Room, RoomError
from hoola.server.store import Store

__all__ = ["LEASE_SECONDS", "OPS", "Hub", "Pushable"]

log = logging.getLogger("hoola.server")

LEASE_SECONDS = 5.0
"""How long a table's owner may go silent before another process takes the table over."""
OPS = ("start", "join", "seat_bot", "leave", "submit", "chat", "connect", "announce", "message",
       "go_on", "rematch_made")
"""What may be asked of a table's owner."""
_ALL, _SPECTATORS = -2, -1
RECONNECT_SECONDS = (0.1, 2.0)
"""While Redis is away: the first pause before subscribing anew, and the longest."""

T = TypeVar("T")

_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_CONFIRM = """
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] or not holder then
  return redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) and 1 or 0
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""
REDIS_CONNECTIONS = 64
"""Connections to Redis a process opens at most for its requests (besides its subscription)."""
FENCE_MARGIN = 0.2
"""The share of a lease an owner leaves unused: it stops writing a table that long before the
lease it last renewed could run out, whatever the write's own delay."""


class Pushable(Protocol):
    """A client connection: queue a message for it; ``held`` is the digest of the token it
    holds its seat by."""

    held: str | None

    def push(self, message: dict[str, Any] | str) -> None:
        """Queue ``message`` (or its JSON text) for the client."""
        ...

    def retire(self, code: str, message: str) -> None:
        """Send a last error and close."""
        ...


class Hub:
    """The tables this process owns, the connections it holds, and (with Redis) the others."""

    def __init__(self, store: Store, *, redis_url: str | None = None,
                 bots: Callable[[Game, str, int | None], Player] | None = None,
                 lease_seconds: float = LEASE_SECONDS,
                 externals: Mapping[str, str] | None = None) -> None:
        self.store = store
        self.bots = bots
        self.externals = dict(externals or {})
        self.rooms: dict[str, Room] = {}
        self.conns: dict[str, dict[int, set[Pushable]]] = {}
        self.redis_url = redis_url
        self.redis: Any = None
        self.pubsub: Any = None
        # The tables whose announcements this process hears from the others: those it holds a
        # connection of (subscribed while it does; the future is done once Redis confirmed it).
        self.listening: dict[str, asyncio.Future[None]] = {}
        self.pid = secrets.token_hex(6)
        self.lease = lease_seconds
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self._renew: Any = None
        self._release: Any = None
        self._confirm: Any = None
        self.looking: asyncio.Task[None] | None = None  # the takeover now under way
        self.listener: Any = None  # the Redis client of the subscription
        self.pending: set[asyncio.Task[None]] = set()  # catching up after an outage
        self.wake = asyncio.Event()  # Redis answered a request: subscribe anew without waiting
        # One publisher per process: messages leave in the order they were made, over one
        # connection, however many tables announce at once.
        self.outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        # Fencing: until when (monotonic) this process may still write each table it owns, the
        # lease's span counted from before the request that took or renewed it, less a margin
        # for the write itself.
        self.valid_until: dict[str, float] = {}
        self.redis_up = True
        self.redis_errors = 0  # Redis requests that failed, since the start
        self.on_stored: Callable[[], None] = lambda: None  # an action was stored (metrics)
        # A table's game has ended (the ratings); StoreUnavailable makes the room try again.
        self.on_over: Callable[[Room], None] = lambda room: None
        # What a table is played by: a plain room, or one of a tournament's (tournaments).
        self.make_room: Callable[..., Room] = Room
        self._redis_errors: tuple[type[BaseException], ...] = (OSError,)

    # -- life ---------------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect to Redis (if any), and go on with every table in play that nobody holds."""
        if self.redis_url is not None:
            import redis.asyncio as aioredis
            from redis.asyncio.retry import Retry
            from redis.backoff import NoBackoff
            from redis.exceptions import RedisError

            self._redis_errors = (RedisError, OSError)
            # A request is tried once more on a fresh connection (a pooled one may have died
            # with an earlier Redis), then fails: while Redis is away, at once (the client is
            # told 'unavailable'). A Redis that stops answering is given up on after a lease.
            # The subscription has a client of its own that never reconnects by itself: the
            # hub subscribes anew, and so knows to catch up on what it missed.
            options: dict[str, Any] = {"decode_responses": True,
                                       "socket_timeout": self.lease,
                                       "socket_connect_timeout": self.lease}
            # Requests beyond the pool's connections wait for one (a lease at most): redis-py's
            # own pool refuses them at once (MaxConnectionsError), which the hub would take
            # for Redis gone, pausing every table, in a burst of connections and joins.
            pool = aioredis.BlockingConnectionPool.from_url(
                self.redis_url, max_connections=REDIS_CONNECTIONS, timeout=self.lease,
                retry=Retry(NoBackoff(), 1), **options)
            self.redis = aioredis.Redis.from_pool(pool)
            self.listener = aioredis.from_url(self.redis_url, retry=Retry(NoBackoff(), 0),
                                              **options)
            await self.redis.ping()
            self._renew = self.redis.register_script(_RENEW)
            self._release = self.redis.register_script(_RELEASE)
            self._confirm = self.redis.register_script(_CONFIRM)
            await self.redis.set(_alive(self.pid), "1", px=int(self.lease * 1000))
            self.pubsub = await self._subscribe()
            self.tasks.append(asyncio.create_task(self._listen()))
            self.tasks.append(asyncio.create_task(self._publish()))
            self.tasks.append(asyncio.create_task(self._tick()))
        self.tasks.append(asyncio.create_task(heap.tend()))  # no collector pauses on the loop
        await self._take_over()

    async def _subscribe(self) -> Any:
        """A new subscription: requests for any table (the owner answers; they are few),
        replies to this process, and the announcements of the tables this process holds
        connections of (:meth:`watch`)."""
        pubsub = self.listener.pubsub()
        try:
            await pubsub.psubscribe("hoola:in:*")
            await pubsub.subscribe(f"hoola:reply:{self.pid}", *map(_out, self.listening))
        except BaseException:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
            raise
        return pubsub

    # -- Redis's health -----------------------------------------------------------------------

    async def _ask(self, request: Awaitable[T]) -> T:
        """``request`` to Redis; while Redis is away, an ``unavailable`` refusal."""
        try:
            answer = await request
        except self._redis_errors as exc:
            self._redis_failed(exc)
            raise RoomError("the server has lost touch with the other servers (Redis); try "
                            "again in a moment", "unavailable") from exc
        return answer

    def _redis_failed(self, exc: BaseException) -> None:
        self.redis_errors += 1
        if str(exc).startswith("No connection available"):
            return  # every pooled connection busy for a lease: this process is overloaded, and
            # the request is refused, but Redis answers
        if self.redis_up:
            self.redis_up = False
            log.error("Redis is unreachable (%s: %s): tables whose lease cannot be renewed "
                      "pause, requests that need Redis are answered 'unavailable'",
                      type(exc).__name__, " ".join(str(exc).split())[:160])

    def _redis_back(self) -> None:
        self.wake.set()
        if not self.redis_up:
            self.redis_up = True
            log.warning("Redis answers again")

    @property
    def linked(self) -> bool:
        """Whether this process hears the others now (always, alone)."""
        return self.redis is None or (self.redis_up and self.pubsub is not None)

    def may_write(self, tid: str) -> bool:
        """Whether this process may still write table ``tid``: alone, always; with Redis, while
        the lease it last took or renewed cannot have run out."""
        return self.redis is None or time.monotonic() < self.valid_until.get(tid, 0.0)

    async def stop(self) -> None:
        """Stop the rooms' timers and bots, give up the leases, close Redis."""
        for task in [*self.tasks, *self.pending, *([self.looking] if self.looking else [])]:
            task.cancel()
        for tid, room in list(self.rooms.items()):
            room.close()
            if self.redis is not None:
                with contextlib.suppress(Exception):
                    if await self.redis.get(_lease(tid)) == self.pid:
                        await self.redis.delete(_lease(tid))
        self.rooms.clear()
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()
        for client in (self.listener, self.redis):
            if client is not None:
                with contextlib.suppress(Exception):
                    await client.aclose()

    # -- connections ----------------------------------------------------------------------------

    def attach(self, tid: str, seat: int | None, conn: Pushable) -> None:
        """Deliver the table's messages for ``seat`` (None: a spectator) to ``conn``."""
        self.conns.setdefault(tid, {}).setdefault(_key(seat), set()).add(conn)

    def detach(self, tid: str, seat: int | None, conn: Pushable) -> None:
        """Stop delivering to ``conn``."""
        self.conns.get(tid, {}).get(_key(seat), set()).discard(conn)

    async def watch(self, tid: str, seat: int | None, conn: Pushable) -> None:
        """:meth:`attach`, and with Redis hear the table's announcements from whichever process
        owns it: subscribed with the table's first connection here, returning once Redis has
        confirmed it (so nothing announced after is missed)."""
        self.attach(tid, seat, conn)
        if self.redis is None:
            return
        if self.pubsub is None:
            raise RoomError("the server has lost touch with the other servers (Redis); try "
                            "again in a moment", "unavailable")
        confirmed = self.listening.get(tid)
        if confirmed is None:
            confirmed = self.listening[tid] = asyncio.get_running_loop().create_future()
            try:
                await self._ask(self.pubsub.subscribe(_out(tid)))
            except RoomError:
                self.listening.pop(tid, None)
                raise
        try:
            await asyncio.wait_for(asyncio.shield(confirmed), self.lease)
        except TimeoutError:
            log.warning("table %s: Redis has not confirmed the subscription", tid)

    async def unwatch(self, tid: str, seat: int | None, conn: Pushable) -> None:
        """:meth:`detach`; with the table's last connection here gone, stop hearing it."""
        self.detach(tid, seat, conn)
        if self.redis is None or any(self.conns.get(tid, {}).values()):
            return
        self.conns.pop(tid, None)
        if self.listening.pop(tid, None) is not None and self.pubsub is not None:
            await self._ask(self.pubsub.unsubscribe(_out(tid)))

    def sender(self, tid: str) -> Callable[[int | None, dict[str, Any]], None]:
        """The ``send`` a room of table ``tid`` announces through."""
        def send(seat: int | None, message: dict[str, Any]) -> None:
            room = self.rooms.get(tid)
            holder = room.holder(seat) if room is not None and seat is not None and seat >= 0 \
                else None
            self.deliver(tid, _key(seat), message, holder=holder)
        return send

    def broadcast(self, tid: str, message: dict[str, Any]) -> None:
        """A message to every connection of a table, on every process."""
        self.deliver(tid, _ALL, message)

    def deliver(self, tid: str, key: int, message: dict[str, Any] | str, publish: bool = True,
                holder: str | None = None) -> None:
        """Deliver locally, and publish for the other processes. A seat's message goes to the
        connections that hold the seat by its holder's token (``holder``); a connection of a
        person who has left the seat is told so and closed instead. ``message`` may be its
        JSON text already."""
        targets = self.conns.get(tid, {})
        text = message if isinstance(message, str) else None
        for conn in list(targets.get(key, ()) if key != _ALL else
                         (c for cs in targets.values() for c in cs)):
            if key < 0 or conn.held == holder:
                if text is None:
                    text = encode(message)  # once, for every connection of the seat
                conn.push(text)
            else:  # the seat has passed to a bot (or opened): its old socket sees no more
                conn.retire("not-seated", "you have left this seat; a bot plays it now")
        if publish and self.redis is not None:
            # The envelope's line, then the message's text as the clients get it: the others
            # deliver it as it is, with no decoding and encoding again.
            head = encode({"origin": self.pid, "key": key, "holder": holder})
            self.outbox.put_nowait((_out(tid), f"{head}\n{text or encode(message)}"))

    async def _publish(self) -> None:
        """Send the outbox to Redis in order, in pipelined batches."""
        while True:
            batch = [await self.outbox.get()]
            while not self.outbox.empty() and len(batch) < 256:
                batch.append(self.outbox.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, data in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
            except self._redis_errors as exc:
                # Lost with Redis: the listeners ask every table's state anew once it is back.
                self._redis_failed(exc)
            except Exception:
                log.exception("publishing %d messages failed", len(batch))

    # -- tables ---------------------------------------------------------------------------------

    async def call(self, tid: str, op: str, **args: Any) -> Any:
        """Run ``op`` on table ``tid``'s owner (this process, or another through Redis)."""
        if op not in OPS:
            raise RoomError(f"unknown request {op!r}", "bad-request")
        for _ in range(3):
            room = await self._own(tid)
            if room is not None:
                return await _run(room, op, args)
            answer = await self._forward(tid, op, args)
            if answer is None:
                continue  # no owner answered: try to take the table, then ask again
            if "error" in answer:
                raise RoomError(answer["error"]["message"], answer["error"]["code"])
            return answer.get("result")
        raise RoomError("the table is busy moving between servers; try again", "table-busy")

    async def _own(self, tid: str) -> Room | None:
        """The room if this process owns the table, taking the lease when nobody holds it."""
        room = self.rooms.get(tid)
        if room is not None:
            return room
        row = self.store.table(tid) if isinstance(tid, str) and len(tid) <= 24 else None
        if row is None:
            raise RoomError("there is no such table", "no-table")
        if self.redis is not None:
            sent = time.monotonic()
            got = await self._ask(self.redis.set(_lease(tid), self.pid, nx=True,
                                                 px=int(self.lease * 1000)))
            if not got:
                return None
            self.valid_until[tid] = sent + self.lease * (1 - FENCE_MARGIN)
        if tid in self.rooms:  # taken meanwhile by another request of this process
            return self.rooms[tid]
        try:
            room = self.make_room(row, self.store.seats(tid), self.store, self.sender(tid),
                                  bots=self.bots, externals=self.externals)
            room.on_lost = lambda: self._drop(tid)
            room.may_write = lambda: self.may_write(tid)
            room.on_stored = self.on_stored
            room.on_over = lambda: self.on_over(room)
            room.watched = lambda: self.redis is not None or bool(
                self.conns.get(tid, {}).get(_SPECTATORS))
            if self.redis is None:
                room.rebuild()
            else:
                # A long table takes a while to replay: off the event loop, so this process's
                # other leases are renewed meanwhile; then the lease is renewed (or taken again
                # if it ran out meanwhile and nobody took it), or the table left to its holder.
                await asyncio.to_thread(room.rebuild)
                for seat, count in (await self._presence(tid)).items():
                    room.connected[seat] = count
                if tid in self.rooms:
                    room.close()
                    return self.rooms[tid]
                sent = time.monotonic()
                px = int(self.lease * 1000)
                if not await self._ask(self._confirm(keys=[_lease(tid)], args=[self.pid, px])):
                    room.close()
                    return None
                self.valid_until[tid] = sent + self.lease * (1 - FENCE_MARGIN)
        except BaseException:
            # Not rebuilt (the database refused, say): give the lease back at once, so this
            # process or another takes the table at its next look rather than a lease later.
            if self.redis is not None:
                self.valid_until.pop(tid, None)
                with contextlib.suppress(*self._redis_errors):
                    await self._release(keys=[_lease(tid)], args=[self.pid])
            raise
        self.rooms[tid] = room
        room.resume()
        return room

    def _drop(self, tid: str) -> None:
        room = self.rooms.pop(tid, None)
        self.valid_until.pop(tid, None)
        if room is not None:
            room.close()
            log.warning("table %s: lease lost, left to its new owner", tid)

    async def _presence(self, tid: str) -> dict[int, int]:
        """Each seat's connections on the processes alive (a killed process's count stays in
        the hash, but its heartbeat has run out)."""
        fields = await self._ask(self.redis.hgetall(f"hoola:presence:{tid}"))
        pids = sorted({f.split(":")[0] for f in fields})
        alive = dict(zip(pids, await self._ask(self.redis.mget([_alive(p) for p in pids])),
                         strict=True)) if pids else {}
        counts: dict[int, int] = {}
        for field, value in fields.items():
            pid, _, seat = field.partition(":")
            if pid == self.pid or alive.get(pid):
                counts[int(seat)] = counts.get(int(seat), 0) + max(0, int(value))
        return counts

    async def presence(self, tid: str, seat: int | None, delta: int) -> None:
        """Count a connection of ``seat`` opening or closing, for whichever process owns it."""
        if seat is None:
            return
        if self.redis is not None:
            await self._ask(self.redis.hincrby(f"hoola:presence:{tid}", f"{self.pid}:{seat}",
                                               delta))
        await self.call(tid, "connect", seat=seat, delta=delta)

    async def _forward(self, tid: str, op: str, args: dict[str, Any]) -> dict[str, Any] | None:
        rid = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[rid] = future
        try:
            await self._ask(self.redis.publish(f"hoola:in:{tid}", json.dumps(
                {"id": rid, "reply": self.pid, "op": op, "args": args})))
            return await asyncio.wait_for(future, self.lease)
        except TimeoutError:
            return None
        finally:
            self.waiting.pop(rid, None)

    async def _listen(self) -> None:
        """Hear requests, replies and announcements. When Redis goes away, subscribe anew
        (pausing longer each time, up to :data:`RECONNECT_SECONDS`) until it is back, then ask
        every table whose clients this process holds for its state: what was announced
        meanwhile is lost with the old subscription."""
        first, longest = RECONNECT_SECONDS
        pause = first
        while True:
            pubsub = self.pubsub
            try:
                if pubsub is None:
                    pubsub = self.pubsub = await self._subscribe()
                    self._redis_back()
                    self._catch_up()
                async for item in pubsub.listen():
                    pause = first
                    await self._item(item)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                # What reaches here is the subscription's connection failing (a message's own
                # handling keeps its errors, :meth:`_item`); redis-py raises more than its own
                # errors as it tries to reconnect (a closed transport's RuntimeError).
                self._redis_failed(exc)
            if self.pubsub is pubsub and pubsub is not None:
                self.pubsub = None
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), pause)
            pause = min(longest, pause * 2)

    def _catch_up(self) -> None:
        """Ask the owner of every table this process holds connections of to announce it."""
        for tid, conns in list(self.conns.items()):
            if any(conns.values()) and tid not in self.rooms:
                task = asyncio.get_running_loop().create_task(self._announce_quietly(tid))
                self.pending.add(task)
                task.add_done_callback(self.pending.discard)

    async def _announce_quietly(self, tid: str) -> None:
        with contextlib.suppress(HoolaError):
            await self.call(tid, "announce")

    async def _item(self, item: dict[str, Any]) -> None:
        kind = item.get("type")
        if kind == "subscribe":  # Redis confirms a table's subscription (watch)
            confirmed = self.listening.get(str(item["channel"]).removeprefix("hoola:out:"))
            if confirmed is not None and not confirmed.done():
                confirmed.set_result(None)
        if kind not in ("message", "pmessage"):
            return
        try:
            channel = str(item["channel"])
            if channel.startswith("hoola:out:"):
                head, _, text = str(item["data"]).partition("\n")
                self._heard_out(channel.removeprefix("hoola:out:"), decode(head), text)
                return
            await self._heard(item["channel"], decode(item["data"]))
        except self._redis_errors:
            raise
        except Exception:  # one bad message must not stop the listener
            log.exception("cluster message failed")

    def _heard_out(self, tid: str, head: dict[str, Any], text: str) -> None:
        """A table's message announced by its owner (``head`` says for whom), as its text."""
        if head.get("origin") != self.pid:
            self.deliver(tid, int(head["key"]), text, publish=False, holder=head.get("holder"))

    async def _heard(self, channel: str, data: dict[str, Any]) -> None:
        kind, _, tid = channel.removeprefix("hoola:").partition(":")
        if kind == "reply":
            future = self.waiting.get(data.get("id", ""))
            if future is not None and not future.done():
                future.set_result(data)
        elif kind == "in" and tid in self.rooms:
            answer: dict[str, Any] = {"id": data["id"]}
            try:
                answer["result"] = await _run(self.rooms[tid], data["op"], data["args"])
            except HoolaError as exc:
                answer["error"] = {"code": exc.code, "message": exc.message}
            await self.redis.publish(f"hoola:reply:{data['reply']}", json.dumps(answer))

    async def _tick(self) -> None:
        """Every third of a lease: renew this process's leases and heartbeat, then take over
        the tables nobody holds. Nothing stops it but the hub's end."""
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                if await self._renew_all() and (self.looking is None or self.looking.done()):
                    # In a task of its own: a takeover (a table to replay) never delays the
                    # renewal of the leases this process holds.
                    self.looking = asyncio.get_running_loop().create_task(self._look())
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the lease tick failed")

    async def _look(self) -> None:
        with contextlib.suppress(HoolaError):  # Redis or the database away: looked at again
            await self._take_over()            # at the next tick

    async def _renew_all(self) -> bool:
        """Renew every lease this process holds, in one round trip with its heartbeat; drop
        the tables whose lease another holds now. Whether Redis answered."""
        tids = list(self.rooms)
        sent = time.monotonic()
        px = int(self.lease * 1000)
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.set(_alive(self.pid), "1", px=px)
                for tid in tids:
                    await self._renew(keys=[_lease(tid)], args=[self.pid, px], client=pipe)
                kept = (await pipe.execute())[1:]
        except self._redis_errors as exc:
            self._redis_failed(exc)  # the tables write on while their fences allow
            return False
        self._redis_back()
        for tid, ok in zip(tids, kept, strict=True):
            room = self.rooms.get(tid)
            if room is None:
                continue
            if ok:
                self.valid_until[tid] = sent + self.lease * (1 - FENCE_MARGIN)
            else:
                self._drop(tid)
        return True

    async def _take_over(self) -> None:
        """Own every table in play that no live process holds: every table in play is looked
        at (with Redis, one round trip tells which have no lease), those whose clients are
        here first."""
        here = set(self.conns)
        tids = sorted((t for t in self.store.table_ids(status=["playing"])
                       if t not in self.rooms), key=lambda t: t not in here)
        if self.redis is not None and tids:
            holders = await self._ask(self.redis.mget([_lease(t) for t in tids]))
            tids = [t for t, holder in zip(tids, holders, strict=True) if holder is None]
        for tid in tids:
            try:
                await self._own(tid)
            except Exception:
                log.exception("table %s cannot be rebuilt", tid)


async def _run(room: Room, op: str, args: dict[str, Any]) -> Any:
    method = getattr(room, op)
    result = method(**args)
    if asyncio.iscoroutine(result):
        result = await result
    return result


def _codec() -> tuple[Callable[[Any], str], Callable[[str], Any]]:
    """The JSON encoder and decoder of the messages: orjson's where it is installed (six times
    faster than json's at a state message, the server's largest cost after the views), else
    json's."""
    try:
        import orjson
    except ImportError:
        return json.dumps, json.loads

    def dumps(value: Any) -> str:
        try:
            return orjson.dumps(value).decode()
        except TypeError:  # what orjson refuses (a key not a string, a huge int): json's way
            return json.dumps(value)

    return dumps, orjson.loads


encode, decode = _codec()


def _out(tid: str) -> str:
    """The channel of a table's announcements."""
    return f"hoola:out:{tid}"


def _lease(tid: str) -> str:
    return f"hoola:lease:{tid}"


def _alive(pid: str) -> str:
    """A process's heartbeat, renewed with its leases."""
    return f"hoola:alive:{pid}"


def _key(seat: int | None) -> int:
    return _SPECTATORS if seat is None else seat


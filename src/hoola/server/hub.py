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
  reconnecting anywhere, find them where they were.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from hoola.core.errors import HoolaError
from hoola.core.game import Game, Player
from hoola.server.room import Room, RoomError
from hoola.server.store import Store

__all__ = ["LEASE_SECONDS", "OPS", "Hub", "Pushable"]

log = logging.getLogger("hoola.server")

LEASE_SECONDS = 5.0
"""How long a table's owner may go silent before another process takes the table over."""
OPS = ("start", "join", "seat_bot", "leave", "submit", "chat", "connect", "announce", "message")
"""What may be asked of a table's owner."""
_ALL, _SPECTATORS = -2, -1

_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""


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
        # One publisher per process: messages leave in the order they were made, over one
        # connection, however many tables announce at once.
        self.outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()

    # -- life ---------------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect to Redis (if any), and go on with every table in play that nobody holds."""
        if self.redis_url is not None:
            import redis.asyncio as aioredis

            self.redis = aioredis.from_url(self.redis_url, decode_responses=True)
            await self.redis.ping()
            self._renew = self.redis.register_script(_RENEW)
            pubsub = self.pubsub = self.redis.pubsub()
            # Requests for any table (the owner answers; they are few), replies to this process;
            # a table's announcements only while it holds a connection of it (watch).
            await pubsub.psubscribe("hoola:in:*")
            await pubsub.subscribe(f"hoola:reply:{self.pid}")
            self.tasks.append(asyncio.create_task(self._listen(pubsub)))
            self.tasks.append(asyncio.create_task(self._publish()))
            self.tasks.append(asyncio.create_task(self._tick()))
        await self._take_over()

    async def stop(self) -> None:
        """Stop the rooms' timers and bots, give up the leases, close Redis."""
        for task in self.tasks:
            task.cancel()
        for tid, room in list(self.rooms.items()):
            room.close()
            if self.redis is not None:
                with contextlib.suppress(Exception):
                    if await self.redis.get(_lease(tid)) == self.pid:
                        await self.redis.delete(_lease(tid))
        self.rooms.clear()
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.aclose()

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
        if self.pubsub is None:
            return
        confirmed = self.listening.get(tid)
        if confirmed is None:
            confirmed = self.listening[tid] = asyncio.get_running_loop().create_future()
            await self.pubsub.subscribe(_out(tid))
        try:
            await asyncio.wait_for(asyncio.shield(confirmed), self.lease)
        except TimeoutError:
            log.warning("table %s: Redis has not confirmed the subscription", tid)

    async def unwatch(self, tid: str, seat: int | None, conn: Pushable) -> None:
        """:meth:`detach`; with the table's last connection here gone, stop hearing it."""
        self.detach(tid, seat, conn)
        if self.pubsub is None or any(self.conns.get(tid, {}).values()):
            return
        self.conns.pop(tid, None)
        if self.listening.pop(tid, None) is not None:
            await self.pubsub.unsubscribe(_out(tid))

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

    def deliver(self, tid: str, key: int, message: dict[str, Any], publish: bool = True,
                holder: str | None = None) -> None:
        """Deliver locally, and publish for the other processes. A seat's message goes to the
        connections that hold the seat by its holder's token (``holder``); a connection of a
        person who has left the seat is told so and closed instead."""
        targets = self.conns.get(tid, {})
        text: str | None = None
        for conn in list(targets.get(key, ()) if key != _ALL else
                         (c for cs in targets.values() for c in cs)):
            if key < 0 or conn.held == holder:
                if text is None:
                    text = json.dumps(message)  # once, for every connection of the seat
                conn.push(text)
            else:  # the seat has passed to a bot (or opened): its old socket sees no more
                conn.retire("not-seated", "you have left this seat; a bot plays it now")
        if publish and self.redis is not None:
            data = json.dumps({"origin": self.pid, "key": key, "msg": message, "holder": holder})
            self.outbox.put_nowait((_out(tid), data))

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
            got = await self.redis.set(_lease(tid), self.pid, nx=True,
                                       px=int(self.lease * 1000))
            if not got:
                return None
        room = Room(row, self.store.seats(tid), self.store, self.sender(tid), bots=self.bots,
                    externals=self.externals)
        room.on_lost = lambda: self._drop(tid)
        room.watched = lambda: self.redis is not None or bool(
            self.conns.get(tid, {}).get(_SPECTATORS))
        room.rebuild()
        if self.redis is not None:
            for seat, count in (await self._presence(tid)).items():
                room.connected[seat] = count
        self.rooms[tid] = room
        room.resume()
        return room

    def _drop(self, tid: str) -> None:
        room = self.rooms.pop(tid, None)
        if room is not None:
            room.close()
            log.warning("table %s: lease lost, left to its new owner", tid)

    async def _presence(self, tid: str) -> dict[int, int]:
        counts: dict[int, int] = {}
        for field, value in (await self.redis.hgetall(f"hoola:presence:{tid}")).items():
            seat = int(field.split(":")[1])
            counts[seat] = counts.get(seat, 0) + max(0, int(value))
        return counts

    async def presence(self, tid: str, seat: int | None, delta: int) -> None:
        """Count a connection of ``seat`` opening or closing, for whichever process owns it."""
        if seat is None:
            return
        if self.redis is not None:
            await self.redis.hincrby(f"hoola:presence:{tid}", f"{self.pid}:{seat}", delta)
        await self.call(tid, "connect", seat=seat, delta=delta)

    async def _forward(self, tid: str, op: str, args: dict[str, Any]) -> dict[str, Any] | None:
        rid = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[rid] = future
        try:
            await self.redis.publish(f"hoola:in:{tid}", json.dumps(
                {"id": rid, "reply": self.pid, "op": op, "args": args}))
            return await asyncio.wait_for(future, self.lease)
        except TimeoutError:
            return None
        finally:
            self.waiting.pop(rid, None)

    async def _listen(self, pubsub: Any) -> None:
        async for item in pubsub.listen():
            kind = item.get("type")
            if kind == "subscribe":  # Redis confirms a table's subscription (watch)
                confirmed = self.listening.get(str(item["channel"]).removeprefix("hoola:out:"))
                if confirmed is not None and not confirmed.done():
                    confirmed.set_result(None)
            if kind not in ("message", "pmessage"):
                continue
            try:
                await self._heard(item["channel"], json.loads(item["data"]))
            except Exception:  # one bad message must not stop the listener
                log.exception("cluster message failed")

    async def _heard(self, channel: str, data: dict[str, Any]) -> None:
        kind, _, tid = channel.removeprefix("hoola:").partition(":")
        if kind == "out":
            if data.get("origin") != self.pid:
                self.deliver(tid, int(data["key"]), data["msg"], publish=False,
                             holder=data.get("holder"))
        elif kind == "reply":
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
        while True:
            await asyncio.sleep(self.lease / 3)
            for tid in list(self.rooms):
                try:
                    kept = await self._renew(keys=[_lease(tid)],
                                             args=[self.pid, int(self.lease * 1000)])
                except Exception:
                    log.exception("lease renewal failed")
                    continue
                if not kept:
                    self._drop(tid)
            await self._take_over()

    async def _take_over(self) -> None:
        """Own every table in play that no live process holds."""
        for row in self.store.tables(status=["playing"]):
            if row.id in self.rooms:
                continue
            try:
                await self._own(row.id)
            except Exception:
                log.exception("table %s cannot be rebuilt", row.id)


async def _run(room: Room, op: str, args: dict[str, Any]) -> Any:
    method = getattr(room, op)
    result = method(**args)
    if asyncio.iscoroutine(result):
        result = await result
    return result


def _out(tid: str) -> str:
    """The channel of a table's announcements."""
    return f"hoola:out:{tid}"


def _lease(tid: str) -> str:
    return f"hoola:lease:{tid}"


def _key(seat: int | None) -> int:
    return _SPECTATORS if seat is None else seat


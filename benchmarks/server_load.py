#!/usr/bin/env python3
"""Load benchmark of ``hoola serve``: many concurrent tables played through real WebSockets.

Run from the repository root::

    python benchmarks/server_load.py                      # 100 Hoola tables, 20 s measured
    python benchmarks/server_load.py --tables 1000 --think 3 --procs 2   # a person's pace
    python benchmarks/server_load.py --profile py-spy     # where the server's time goes
    python benchmarks/server_load.py --tables 2000 --think 3 --procs 2 --servers 2 --redis auto

It starts the server (``python -m hoola serve``, or ``--servers`` of them sharing ``--redis``)
on free loopback ports with a throwaway SQLite database and the per-address limits off (every
client here is 127.0.0.1), then client processes open every table: the first client creates
it, the others join by its invite, every seat a *person* on its own WebSocket (so every action
travels client -> server -> store -> every seat), seat *q* of table *i* on server *i* + *q*
(or all on server *i* with ``--by-table``). No bot ever plays (``turn_seconds = 0``). A table
that ends is replaced by a new one, so the load stays the same for the whole run.

A person acts as people do (the browser UI too): in a claim window where they hold nothing to
claim they pass at once; on their turn they think ``--think`` seconds (uniform from half to one
and a half times; 0: at once), and when they could claim, as long but well inside the window's
deadline (:data:`WITHIN` of the time left); a state that comes while they think replaces the one
they were thinking about, so they act on the newest state only, never on one gone. Their client
reads every message as it comes, thinking or not. They choose at random among their view's legal
moves and, where they may, passing, keeping under the server's 10 messages a second.

After ``--warmup`` seconds it measures for ``--seconds``:

* **decisions/s**: act and pass messages the clients sent (and the passes sent at once);
  **stored actions/s**: rows the server stored (passes are not stored);
* **latency as a person feels it**, from sending a decision to the first message that answers
  it: the new state when it moved the table on, the server's acknowledgement (the decider's
  state again, no longer asked) when a window it decided in stays open, or a refusal;
  p50, p90, p99, max over every decision, and apart by answer;
* **announced to each seat**: from the send of a decision that moved the table on to each seat's
  receipt of the state it made (what the others feel of it);
* **waits for a window**, apart and no latency: from a decision's acknowledgement to the state
  that moves the table on (the others' thinking, or the window's ``--claim-seconds``);
* **CPU** of each server process (its user + system time over the measured seconds, 100% = one
  core; and per decision) and of the clients (on the same cores), and how long each server was
  ready to run but waited for a CPU (on a shared machine, most of the latency);
* the refusals the servers sent, by code.

Everything listens on 127.0.0.1 and the run is bounded (``--seconds``, ``--timeout``). With
``--profile cprofile`` the server runs under cProfile (slower); ``--profile py-spy`` samples it
from outside (``pip install py-spy``). ``--json FILE`` writes every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import pstats
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

try:  # the clients decode every state message: orjson when present keeps them light
    import orjson

    def loads(data: str | bytes) -> Any:
        return orjson.loads(data)
except ImportError:  # pragma: no cover
    def loads(data: str | bytes) -> Any:
        return json.loads(data)

RATE, BURST = 9.0, 25.0
"""The clients keep under the server's limit of 10 messages a second per connection."""
WITHIN = 0.6
LIMITS_OFF = ("sockets_per_address", "tables_per_minute", "waiting_tables_per_address")
"""The per-address limits ``hoola serve`` is started without: every table and socket here comes
from 127.0.0.1 (start a server given with ``--url`` with ``--limit KEY=0`` for each)."""
ANSWERED = 1.0
"""Seconds the clients go on reading after the measured time, for the last answers."""
"""A person who could claim decides within this share of the time left in the window."""


# -- servers ------------------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class ServerProc:
    """One ``hoola serve`` process."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path
    profile: Path | None = None

    @property
    def base(self) -> str:
        return f"127.0.0.1:{self.port}"

    def cpu_seconds(self) -> float:
        """User + system time the process (all its threads) has used."""
        with open(f"/proc/{self.process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def cpu_wait_seconds(self) -> float:
        """Time the process was ready to run but waited for a CPU (other work on the machine),
        from the scheduler's own counts (all threads)."""
        total = 0
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{self.process.pid}/task"):
                with open(f"/proc/{self.process.pid}/task/{task}/schedstat") as f:
                    total += int(f.read().split()[1])
        return total / 1e9

    def rss_mib(self) -> float:
        """Resident memory, MiB."""
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def stop(self) -> None:
        """A graceful stop (SIGINT: uvicorn shuts down, cProfile writes its file), then kill."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(30)


def start_server(db: str, workdir: Path, index: int, redis: str | None,
                 profile: str | None) -> ServerProc:
    """``python -m hoola serve`` on a free loopback port (under cProfile when asked)."""
    port = free_port()
    log = workdir / f"server{index}.log"
    args = [sys.executable]
    prof = None
    if profile == "cprofile":
        prof = workdir / f"server{index}.prof"
        args += ["-m", "cProfile", "-o", str(prof)]
    args += ["-m", "hoola", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", db]
    if redis is not None:
        args += ["--redis", redis]
    for limit in LIMITS_OFF:
        args += ["--limit", f"{limit}=0"]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    with open(log, "wb") as out:
        process = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, env=env,
                                   cwd=workdir)
    return ServerProc(process, port, log, prof)


def wait_ready(server: ServerProc, timeout: float) -> None:
    """Until the server answers on its port (polled), or its log in the error."""
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise SystemExit(f"the server exited: {server.log.read_text()[-2000:]}")
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(f"http://{server.base}/api/games", timeout=5).status_code == 200:
                return
        time.sleep(0.05)
    raise SystemExit(f"the server did not start in {timeout:g} s")


def start_redis(workdir: Path, timeout: float) -> tuple[subprocess.Popen[bytes], str]:
    """A throwaway ``redis-server`` on a free loopback port, no persistence."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("--redis auto needs redis-server: apt-get install redis-server")
    port = free_port()
    process = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1",
                                "--save", "", "--appendonly", "no", "--dir", str(workdir)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1) as s:
            s.sendall(b"PING\r\n")
            if s.recv(64).startswith(b"+PONG"):
                return process, f"redis://127.0.0.1:{port}/0"
        time.sleep(0.05)
    process.kill()
    raise SystemExit("redis-server did not start")


# -- clients ------------------------------------------------------------------------------------


@dataclass
class Stats:
    """What one client process measured."""

    sent: int = 0
    sent_in_window: int = 0
    at_once: int = 0  # of those measured: passes with nothing to claim, sent without a pause
    moved_ms: list[float] = field(default_factory=list)
    acked_ms: list[float] = field(default_factory=list)
    refused_ms: list[float] = field(default_factory=list)
    seen_ms: list[float] = field(default_factory=list)
    window_wait_ms: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    unanswered: int = 0
    games: int = 0
    cpu: float = 0.0


@dataclass
class TableRun:
    """One table as its clients see it: when each seat first received each state number, and
    which decision moved the table to it (when one did, not a window's timer)."""

    connected: asyncio.Event = field(default_factory=asyncio.Event)
    received: dict[int, list[float]] = field(default_factory=dict)
    moved_by: dict[int, float] = field(default_factory=dict)
    persons: list[Person] = field(default_factory=list)


@dataclass
class Person:
    """One seat's person: the newest state their client holds, and their decision in flight."""

    latest: dict[str, Any] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    pending: tuple[int, float] | None = None  # (counter, sent at) of a decision not yet answered
    acked_at: float | None = None  # when a decision was taken into a window that stays open
    acted: int = -1  # the counter last decided at
    tries: int = 0  # decisions refused at that counter
    over: bool = False


class Clients:
    """The tables of one client process."""

    def __init__(self, cfg: dict[str, Any], first: int, count: int) -> None:
        self.cfg = cfg
        self.first, self.count = first, count
        self.stats = Stats()
        self.begin = self.end = float("inf")
        self.go = asyncio.Event()
        self.stop = asyncio.Event()
        self.rng = random.Random(cfg["seed"] + first)
        self.http: Any = None
        self.runs: list[TableRun] = []

    def measuring(self, t: float) -> bool:
        return self.begin <= t <= self.end

    async def run(self, ready: Any, go: Any, quit_: Any, times: Any, out: Any) -> None:
        import httpx

        from hoola.server.heap import tend

        # The clients hold every table's newest states too: without this, the collector's
        # pauses here would count as the server's latency.
        tending = asyncio.create_task(tend())
        limits = httpx.Limits(max_connections=32, max_keepalive_connections=32)
        async with httpx.AsyncClient(timeout=self.cfg["timeout"], limits=limits) as http:
            self.http = http
            gate = asyncio.Semaphore(16)  # tables being set up at once
            first = [asyncio.get_running_loop().create_future() for _ in range(self.count)]
            tasks = [asyncio.create_task(self.table_loop(self.first + i, gate, first[i]))
                     for i in range(self.count)]
            await asyncio.wait_for(asyncio.gather(*first), self.cfg["timeout"])
            ready.set()
            await asyncio.to_thread(go.wait)
            self.begin, self.end = times[0], times[1]
            cpu0 = None
            self.go.set()
            while time.time() < self.end:
                if cpu0 is None and time.time() >= self.begin:
                    cpu0 = _cpu()
                await asyncio.sleep(min(0.2, max(0.0, self.end - time.time())))
            self.stats.cpu = _cpu() - (cpu0 if cpu0 is not None else _cpu())
            self.stop.set()  # no more decisions; the sockets stay open until the servers stop,
            await asyncio.sleep(ANSWERED)  # so no bot takes a seat while they are being
            self.collect()  # measured; the last decisions' answers come in meanwhile
            out.put(self.stats)
            await asyncio.to_thread(quit_.wait)
            for task in tasks:
                task.cancel()
            tending.cancel()

    async def table_loop(self, index: int, gate: asyncio.Semaphore,
                         set_up: asyncio.Future[None]) -> None:
        while not self.stop.is_set():
            try:
                await self.play_table(index, gate, set_up)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # counted; the table is replaced
                self.stats.errors[f"client: {type(exc).__name__}"] += 1
                if not set_up.done():
                    set_up.set_exception(exc)
                    return
                await asyncio.sleep(0.5)

    async def play_table(self, index: int, gate: asyncio.Semaphore,
                         set_up: asyncio.Future[None]) -> None:
        import websockets

        cfg = self.cfg
        bases: list[str] = cfg["bases"]
        n = cfg["players"]
        async with gate:
            base = bases[index % len(bases)]
            spread = 0 if cfg["by_table"] else 1  # seat q on server index + q, or all on one
            r = await self.http.post(f"http://{base}/api/tables", json={
                "game": cfg["game"], "name": "P0", "seats": [{}] * (n - 1),
                "deals": cfg["deals"], "claim_seconds": cfg["claim_seconds"],
                "turn_seconds": 0, "bot_delay": 0, "seed": self.rng.randrange(2**62)})
            r.raise_for_status()
            t = r.json()
            tid = t["table_id"]
            tokens = [t["token"]]
            for q in range(1, n):
                joiner = bases[(index + spread * q) % len(bases)]
                r = await self.http.post(f"http://{joiner}/api/tables/{tid}/join",
                                         json={"invite": t["invite"], "name": f"P{q}"})
                r.raise_for_status()
                tokens.append(r.json()["token"])
            run = TableRun()
            self.runs.append(run)
            sockets = []
            for q in range(n):
                ws = await websockets.connect(
                    f"ws://{bases[(index + spread * q) % len(bases)]}/ws/{tid}", max_size=2**22,
                    open_timeout=cfg["timeout"], ping_interval=None,
                    compression=None if cfg["no_compression"] else "deflate")
                await ws.send(json.dumps({"type": "hello", "token": tokens[q]}))
                sockets.append(ws)
        try:
            seats = [asyncio.create_task(self.seat(ws, q, run)) for q, ws in enumerate(sockets)]
            await asyncio.wait_for(run.connected.wait(), cfg["timeout"])
            first = not set_up.done()
            if first:
                set_up.set_result(None)
            await self.go.wait()
            if first:  # the first tables start over the warm-up's first half, not all at once
                await asyncio.sleep(self.rng.uniform(0, cfg["warmup"] / 2))
            async with gate:  # httpx's pool slows down with every request queued in it
                r = await self.http.post(f"http://{base}/api/tables/{tid}/start",
                                         headers={"Authorization": f"Bearer {t['token']}"})
            r.raise_for_status()
            outcomes = await asyncio.gather(*seats, return_exceptions=True)
            failed = [o for o in outcomes if isinstance(o, BaseException)]
            if failed and not self.stop.is_set():
                raise failed[0]
            if not failed:
                self.stats.games += 1
        finally:
            for ws in sockets:
                with contextlib.suppress(Exception):
                    await ws.close()

    async def seat(self, ws: Any, q: int, run: TableRun) -> None:
        """One person: their client reads every message as it comes (what it measures), and
        the person decides on the newest state."""
        from websockets.exceptions import ConnectionClosed

        person = Person()
        run.persons.append(person)
        decider = asyncio.create_task(self._decide(ws, person, run))
        try:
            await self._read(ws, person, run)
        except ConnectionClosed:
            if not self.stop.is_set():  # the servers stop at the end: that is no failure
                raise
        finally:
            decider.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await decider

    async def _read(self, ws: Any, person: Person, run: TableRun) -> None:
        """Every message, timed as it arrives: the answer to the person's decision in flight
        (a new state, the acknowledgement of a decision a window keeps, or a refusal), and
        each new state's receipt."""
        stats = self.stats
        seen = 0
        async for raw in ws:
            received = time.time()
            m = loads(raw)
            kind = m["type"]
            pending = person.pending
            if kind == "error":
                stats.errors[m["code"]] += 1
                if pending is not None:
                    person.pending = None
                    if self.measuring(pending[1]):
                        stats.refused_ms.append((received - pending[1]) * 1000)
                    person.tries += 1
                    if person.tries < 3:  # a refused decision: the person may try again
                        person.acted = -1
                    person.changed.set()
                continue
            if kind != "state":
                continue
            counter = m["counter"]
            if not run.connected.is_set() and all(s["connected"] for s in m["seats"]):
                run.connected.set()
            if counter > seen:
                seen = counter
                run.received.setdefault(counter, []).append(received)
                if person.acked_at is not None:  # the window a decision waited for is over
                    if self.measuring(person.acked_at):
                        stats.window_wait_ms.append((received - person.acked_at) * 1000)
                    person.acked_at = None
            if pending is not None:
                at_counter, sent = pending
                if counter > at_counter:  # it moved the table on (or was overtaken)
                    person.pending = None
                    run.moved_by.setdefault(counter, sent)
                    if self.measuring(sent):
                        stats.moved_ms.append((received - sent) * 1000)
                elif counter == at_counter and not m["asked"]:  # taken; the window stays open
                    person.pending = None
                    person.acked_at = received
                    if self.measuring(sent):
                        stats.acked_ms.append((received - sent) * 1000)
            person.latest = m
            if m["status"] == "over":
                person.over = True
            person.changed.set()
            if person.over:
                return

    async def _decide(self, ws: Any, person: Person, run: TableRun) -> None:
        """A person: passes at once in a window where they hold nothing to claim; thinks
        (``--think``) on their turn, and when they could claim, well inside the window's
        deadline; acts on the newest state, never on one gone."""
        tokens, stamp = BURST - 1, time.monotonic()
        while True:
            await person.changed.wait()
            person.changed.clear()
            m = person.latest
            if m is None or person.over or self.stop.is_set():
                continue
            counter = m["counter"]
            if not m["asked"] or person.acted == counter or person.pending is not None:
                continue
            if counter != person.acted:
                person.tries = 0
            pause = self._pause(m)
            until = time.monotonic() + pause
            while pause > 0:  # thinking; a newer state may come meanwhile
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(person.changed.wait(), pause)
                person.changed.clear()
                pause = until - time.monotonic()
                latest = person.latest
                if latest is None or latest["counter"] != counter or not latest["asked"]:
                    break  # the moment has gone: think again about the newest state
            m = person.latest
            if m is None or m["counter"] != counter or not m["asked"] or person.over \
                    or self.stop.is_set():
                person.changed.set()
                continue
            legal = m["view"]["legal"]
            choices = len(legal) + (1 if m["can_pass"] else 0)
            pick = self.rng.randrange(choices) if choices else -1
            if pick < 0 or pick == len(legal):
                message = {"type": "pass", "counter": counter}
            else:
                message = {"type": "act", "action": legal[pick], "counter": counter}
            now = time.monotonic()  # keep to the server's rate limit, as a client should
            tokens = min(BURST, tokens + (now - stamp) * RATE)
            stamp = now
            if tokens < 1:
                await asyncio.sleep((1 - tokens) / RATE)
                tokens, stamp = 1.0, time.monotonic()
            tokens -= 1
            at = time.time()
            person.acted = counter
            person.pending = (counter, at)
            await ws.send(json.dumps(message))
            self.stats.sent += 1
            if self.measuring(at):
                self.stats.sent_in_window += 1
                self.stats.at_once += not m["view"]["legal"] and m["can_pass"]

    def _pause(self, m: dict[str, Any]) -> float:
        """How long the person thinks before acting on state ``m``: nothing with nothing to
        claim, else about ``--think`` seconds, kept well inside a window's deadline."""
        think = self.cfg["think"]
        if think <= 0 or (not m["view"]["legal"] and m["can_pass"]):
            return 0.0
        pause = self.rng.uniform(0.5, 1.5) * think
        moment = m["moment"] or {}
        deadline = moment.get("window_deadline") if m["can_pass"] else None
        if deadline is not None:
            pause = min(pause, max(0.0, WITHIN * (deadline - time.time())))
        return float(pause)

    def collect(self) -> None:
        """What every seat saw of each state a decision moved the table to: from that
        decision's send to each seat's receipt (the announcement as the others feel it)."""
        for run in self.runs:
            for counter, sent in run.moved_by.items():
                if self.measuring(sent):
                    self.stats.seen_ms.extend((r - sent) * 1000
                                              for r in run.received.get(counter, ()))
            for person in run.persons:
                pending = person.pending
                if pending is not None and self.begin <= pending[1] <= self.end - 1:
                    self.stats.unanswered += 1


def _cpu() -> float:
    t = os.times()
    return t.user + t.system


def client_process(cfg: dict[str, Any], first: int, count: int, ready: Any, go: Any,
                   quit_: Any, times: Any, out: Any) -> None:
    """A client process: ``count`` tables from number ``first``."""
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    clients = Clients(cfg, first, count)
    try:
        asyncio.run(clients.run(ready, go, quit_, times, out))
    except BaseException as exc:  # the parent reports it
        out.put(f"client process failed: {type(exc).__name__}: {exc}")
    out.close()
    out.join_thread()
    os._exit(0)  # thousands of sockets: no slow, orderly goodbye


# -- the run ------------------------------------------------------------------------------------


def percentiles(values: list[float]) -> dict[str, float]:
    """p50, p90, p99 and max of ``values`` (ms), and how many."""
    if not values:
        return {"n": 0}
    v = sorted(values)

    def at(p: float) -> float:
        return v[min(len(v) - 1, int(p * len(v)))]

    return {"n": len(v), "p50": at(0.5), "p90": at(0.9), "p99": at(0.99), "max": v[-1]}


def count_actions(db: str) -> int:
    """Rows in the actions table."""
    import sqlalchemy as sa

    engine = sa.create_engine(db)
    try:
        with engine.connect() as c:
            return int(c.execute(sa.text("select count(*) from actions")).scalar() or 0)
    finally:
        engine.dispose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100, help="concurrent tables (100)")
    parser.add_argument("--game", default="hoola", help="game or preset (hoola)")
    parser.add_argument("--players", type=int, default=4, help="seats per table (4)")
    parser.add_argument("--deals", type=int, default=2, help="deals per table before a new "
                                                             "one replaces it (2)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time (20)")
    parser.add_argument("--warmup", type=float, default=5.0, help="unmeasured start (5)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="a client's pause before acting, mean seconds (0: at once)")
    parser.add_argument("--claim-seconds", type=float, default=2.0,
                        help="a claim window's limit; windows close when all have decided")
    parser.add_argument("--procs", type=int, default=1, help="client processes (1)")
    parser.add_argument("--servers", type=int, default=1, help="server processes (1; more "
                                                               "need --redis)")
    parser.add_argument("--redis", default=None, metavar="URL",
                        help="share tables through this Redis; 'auto' starts a redis-server")
    parser.add_argument("--by-table", action="store_true",
                        help="every seat of a table on the same server (as a load balancer "
                             "routing by table would), not spread over the servers")
    parser.add_argument("--db", default=None, help="the servers' database (default: a "
                                                   "temporary SQLite file)")
    parser.add_argument("--url", default=None, metavar="HOST:PORT", action="append",
                        help="use running server(s) instead of starting them (no CPU figures)")
    parser.add_argument("--no-compression", action="store_true",
                        help="no permessage-deflate on the sockets")
    parser.add_argument("--profile", choices=["cprofile", "py-spy"], default=None,
                        help="profile the (first) server process")
    parser.add_argument("--profile-out", type=Path, default=None, metavar="FILE",
                        help="keep the raw profile (pstats file, or py-spy's folded stacks)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the working folder (servers' logs, database) and say where")
    parser.add_argument("--timeout", type=float, default=120.0, help="any one wait's limit")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args(argv)
    if args.tables < 1 or args.procs < 1 or args.servers < 1 or args.seconds <= 0:
        parser.error("--tables, --procs, --servers and --seconds must be positive")
    if args.servers > 1 and args.redis is None and not args.url:
        parser.error("several servers share their tables through Redis: add --redis URL "
                     "(or --redis auto)")

    spy_exe = None
    if args.profile == "py-spy":
        beside = Path(sys.executable).parent / "py-spy"
        spy_exe = str(beside) if beside.exists() else shutil.which("py-spy")
        if spy_exe is None:
            parser.error("--profile py-spy needs py-spy: pip install py-spy")
    workdir = Path(tempfile.mkdtemp(prefix="hoola-load-"))
    db = args.db or f"sqlite:///{workdir / 'load.db'}"
    servers: list[ServerProc] = []
    redis_proc = None
    spy = None
    try:
        if args.url:
            bases = list(args.url)
        else:
            redis = args.redis
            if redis == "auto":
                redis_proc, redis = start_redis(workdir, args.timeout)
            for i in range(args.servers):
                servers.append(start_server(db, workdir, i, redis, args.profile))
            for s in servers:
                wait_ready(s, args.timeout)
            bases = [s.base for s in servers]
        cfg = {"bases": bases, "game": args.game, "players": args.players,
               "deals": args.deals, "claim_seconds": args.claim_seconds, "think": args.think,
               "timeout": args.timeout, "seed": args.seed, "warmup": args.warmup,
               "no_compression": args.no_compression, "by_table": args.by_table}
        ctx = multiprocessing.get_context("spawn")
        here = str(Path(__file__).resolve().parent)
        if here not in sys.path:  # the client processes import this module by name
            sys.path.insert(0, here)
        ready = [ctx.Event() for _ in range(args.procs)]
        go, quit_ = ctx.Event(), ctx.Event()
        times = ctx.Array("d", [0.0, 0.0])
        out = ctx.Queue()
        share = [args.tables // args.procs + (i < args.tables % args.procs)
                 for i in range(args.procs)]
        procs = [ctx.Process(target=client_process, daemon=True,
                             args=(cfg, sum(share[:i]), share[i], ready[i], go, quit_, times,
                                   out))
                 for i in range(args.procs)]
        started = time.monotonic()
        for p in procs:
            p.start()
        for i, event in enumerate(ready):
            while not event.wait(0.5):
                if not procs[i].is_alive() or time.monotonic() - started > args.timeout:
                    raise SystemExit(f"client process {i} did not set up its tables: "
                                     f"{out.get(timeout=1) if not out.empty() else 'no word'}")
        setup = time.monotonic() - started
        begin = time.time() + args.warmup
        times[0], times[1] = begin, begin + args.seconds
        go.set()
        time.sleep(max(0.0, begin - time.time()))
        cpu0 = [s.cpu_seconds() for s in servers]
        wait0 = [s.cpu_wait_seconds() for s in servers]
        stored0 = count_actions(db) if servers else 0
        if spy_exe is not None and servers:
            spy_out = workdir / "py-spy.txt"
            spy = subprocess.Popen([spy_exe, "record", "--pid", str(servers[0].process.pid),
                                    "--duration", str(int(args.seconds)), "--rate", "200",
                                    "--format", "raw", "--output", str(spy_out), "--nonblocking"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(max(0.0, times[1] - time.time()))
        cpu1 = [s.cpu_seconds() for s in servers]
        waited = [s.cpu_wait_seconds() - w for s, w in zip(servers, wait0, strict=True)]
        rss = [s.rss_mib() for s in servers]
        stored1 = count_actions(db) if servers else 0
        results = []
        for _ in procs:
            got = out.get(timeout=args.timeout)
            if isinstance(got, str):
                raise SystemExit(got)
            results.append(got)
        for s in servers:  # before the clients hang up: no bot takes their seats meanwhile
            s.stop()
        quit_.set()
        report = summarise(args, results, setup, cpu0, cpu1, rss, stored1 - stored0, times[0])
        report["server_cpu_wait_percent"] = [round(100 * w / args.seconds, 1) for w in waited]
        raw = None
        if spy is not None:
            spy.wait(args.timeout)
            raw = workdir / "py-spy.txt"
            report["py_spy"] = spy_summary(raw, spy)
        if args.profile == "cprofile" and servers and servers[0].profile is not None:
            raw = servers[0].profile
            report["cprofile"] = cprofile_summary(raw)
        if args.profile_out is not None and raw is not None and raw.exists():
            shutil.copyfile(raw, args.profile_out)
        print_report(report)
        if args.json is not None:
            args.json.write_text(json.dumps(report, indent=2))
        for p in procs:
            p.join(10)
            if p.is_alive():
                p.kill()
        return 0
    finally:
        for s in servers:
            s.stop()
        if redis_proc is not None:
            redis_proc.kill()
            redis_proc.wait(30)
        if args.keep:
            print(f"kept {workdir} (servers' logs and database)")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


def summarise(args: argparse.Namespace, results: list[Stats], setup: float, cpu0: list[float],
              cpu1: list[float], rss: list[float], stored: int,
              measured_from: float) -> dict[str, Any]:
    """Every figure of the run."""
    def every(name: str) -> list[float]:
        return [x for r in results for x in getattr(r, name)]

    moved, acked, refused = every("moved_ms"), every("acked_ms"), every("refused_ms")
    errors: Counter[str] = Counter()
    for r in results:
        errors.update(r.errors)
    decisions = sum(r.sent_in_window for r in results)
    server_cpu = sum(b - a for a, b in zip(cpu0, cpu1, strict=True))
    return {
        "command": " ".join(sys.argv), "measured_from": round(measured_from, 3),
        "tables": args.tables, "game": args.game, "players": args.players,
        "think": args.think, "servers": max(args.servers, len(args.url or [])),
        "client_procs": args.procs, "by_table": args.by_table, "seconds": args.seconds,
        "setup_seconds": round(setup, 1),
        "decisions_per_s": decisions / args.seconds,
        "stored_actions_per_s": stored / args.seconds if cpu0 else None,
        "server_cpu_ms_per_decision": round(1000 * server_cpu / decisions, 3)
        if cpu0 and decisions else None,
        "passes_at_once_per_s": sum(r.at_once for r in results) / args.seconds,
        "latency_ms": percentiles(moved + acked + refused),
        "latency_moved_ms": percentiles(moved),
        "latency_acked_ms": percentiles(acked),
        "latency_refused_ms": percentiles(refused),
        "announced_ms": percentiles(every("seen_ms")),
        "window_wait_ms": percentiles(every("window_wait_ms")),
        "unanswered": sum(r.unanswered for r in results),
        "server_cpu_percent": [round(100 * (b - a) / args.seconds, 1)
                               for a, b in zip(cpu0, cpu1, strict=True)],
        "server_rss_mib": [round(x, 1) for x in rss],
        "client_cpu_percent": [round(100 * r.cpu / args.seconds, 1) for r in results],
        "games_finished": sum(r.games for r in results),
        "errors": dict(errors),
        "cpus": os.cpu_count(), "python": sys.version.split()[0],
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def spy_summary(path: Path, spy: subprocess.Popen[bytes], top: int = 25) -> dict[str, Any]:
    """py-spy's raw stacks folded into the functions with the most samples, by themselves
    (self) and with what they call (total)."""
    if not path.exists():
        err = spy.stderr.read().decode(errors="replace") if spy.stderr else ""
        return {"error": f"py-spy wrote nothing: {err.strip()[-300:]}"}
    own: Counter[str] = Counter()
    total: Counter[str] = Counter()
    samples = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        samples += n
        frames = [_frame(f) for f in stack.split(";")]
        own[frames[-1]] += n
        for f in set(frames):
            total[f] += n
    return {"samples": samples,
            "self": [(f, round(100 * n / samples, 1)) for f, n in own.most_common(top)],
            "total": [(f, round(100 * n / samples, 1)) for f, n in total.most_common(top * 2)]}


def _frame(frame: str) -> str:
    # "function (path/to/module.py:123)" -> "function (module.py)"
    name, _, where = frame.partition(" (")
    module = where.rsplit("/", 1)[-1].split(":")[0].rstrip(")")
    return f"{name} ({module})"


def cprofile_summary(path: Path, top: int = 30) -> dict[str, Any]:
    """The functions with the most time of their own, and with the most in all."""
    if not path.exists():
        return {"error": "cProfile wrote nothing (the server did not stop cleanly)"}
    stats = pstats.Stats(str(path))
    entries = stats.stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in entries.values()) or 1.0

    def name(key: tuple[str, int, str]) -> str:
        return f"{key[2]} ({Path(key[0]).name}:{key[1]})"

    by_self = sorted(entries.items(), key=lambda kv: kv[1][2], reverse=True)[:top]
    by_cum = sorted(entries.items(), key=lambda kv: kv[1][3], reverse=True)[:top * 2]
    return {"self": [(name(k), round(100 * v[2] / total, 1)) for k, v in by_self],
            "total": [(name(k), round(100 * v[3] / total, 1)) for k, v in by_cum]}


def print_report(r: dict[str, Any]) -> None:
    """The figures, as text."""
    def lat(d: dict[str, float], what: str = "decisions") -> str:
        if not d.get("n"):
            return "none measured"
        return (f"p50 {d['p50']:.1f}  p90 {d['p90']:.1f}  p99 {d['p99']:.1f}  "
                f"max {d['max']:.1f} ms  ({d['n']} {what})")

    print(f"{r['tables']} tables of {r['game']} ({r['players']} people each, think "
          f"{r['think']:g} s), {r['servers']} server(s)"
          + (" (a table's seats on one)" if r["by_table"] and r["servers"] > 1 else "")
          + f", {r['client_procs']} client process(es), "
          f"{r['seconds']:g} s measured (set-up {r['setup_seconds']:g} s)")
    stored = r["stored_actions_per_s"]
    print(f"decisions/s {r['decisions_per_s']:.0f} ({r['passes_at_once_per_s']:.0f} passes "
          "at once with nothing to claim)"
          + (f", stored actions/s {stored:.0f}" if stored is not None else ""))
    print(f"latency, act -> answer  {lat(r['latency_ms'])}")
    print(f"  the table moved on    {lat(r['latency_moved_ms'])}")
    print(f"  taken, window open    {lat(r['latency_acked_ms'])}")
    print(f"  refused               {lat(r['latency_refused_ms'])}")
    print(f"announced to each seat  {lat(r['announced_ms'], 'receipts')}")
    print(f"waits for a window (its timer or the others; not latency) "
          f"{lat(r['window_wait_ms'], 'waits')}")
    if r["unanswered"]:
        print(f"decisions never answered {r['unanswered']}")
    per = r["server_cpu_ms_per_decision"]
    print(f"server CPU {r['server_cpu_percent']} % of a core"
          + (f" ({per:.2f} ms a decision)" if per is not None else "")
          + f", RSS {r['server_rss_mib']} MiB; clients CPU {r['client_cpu_percent']} %; "
          f"load average {r['load_average']}")
    if r.get("server_cpu_wait_percent"):
        print(f"server ready but waiting for a CPU {r['server_cpu_wait_percent']} % of the time "
              "(other work on the machine)")
    print(f"games finished {r['games_finished']}; errors {r['errors'] or 'none'}")
    for key in ("py_spy", "cprofile"):
        prof = r.get(key)
        if not prof:
            continue
        if "error" in prof:
            print(f"{key}: {prof['error']}")
            continue
        print(f"{key}: functions by own time (% of samples)")
        for name, pct in prof["self"]:
            print(f"  {pct:5.1f}  {name}")
        print(f"{key}: functions by total time, with what they call")
        for name, pct in prof["total"]:
            print(f"  {pct:5.1f}  {name}")


if __name__ == "__main__":
    sys.exit(main())

"""A small test client of ``hoola serve`` and two ways to run the server for it.

:func:`serve_in_thread` runs the app under uvicorn in this process (its own event loop in a
thread) on a free loopback port; :func:`serve_process` runs ``hoola serve`` as a subprocess, for
tests that need a real process to kill. :class:`Client` is one WebSocket connection that keeps every
message it receives and waits for the ones a test wants (never a fixed sleep); :func:`play` drives
a seat to the end of the game with a chooser. Tests call :func:`run` to run a coroutine.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import uvicorn
import websockets

from hoola.server import socket as play_socket
from hoola.server.app import KEEP_ALIVE, create_app
from hoola.server.store import Store

WAIT = 60.0
"""How long a test waits for a message, a port or a state before it fails (a loaded machine)."""
WS_MAX_SIZE = 65536
"""The largest WebSocket frame, as ``hoola serve`` runs uvicorn."""
FAST = {"claim_seconds": 0.3, "bot_delay": 0, "bot_reaction": [0, 0.05], "turn_seconds": 120}
"""Timers that make bot tables quick; a person's turn is long enough never to run out."""
TRACEBACK_SIGNS = ("Traceback", 'File "', "Error(")


def run(coro: Awaitable[Any], timeout: float = 4 * WAIT) -> Any:
    """Run a test's coroutine to its end (failing after ``timeout`` seconds)."""
    async def bounded() -> Any:
        return await asyncio.wait_for(coro, timeout)
    return asyncio.run(bounded())


class LoopThread:
    """An event loop in a thread, for clients that outlive one call (Hypothesis examples share
    a socket): :meth:`call` runs a coroutine there and returns its result."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def call(self, coro: Awaitable[Any], timeout: float = 4 * WAIT) -> Any:
        """Run ``coro`` on the loop; its result."""
        async def bounded() -> Any:
            return await asyncio.wait_for(coro, timeout)
        return asyncio.run_coroutine_threadsafe(bounded(), self.loop).result()

    def close(self) -> None:
        """Stop the loop and its thread."""
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(WAIT)
        self.loop.close()


# -- servers ------------------------------------------------------------------------------------

@dataclass
class Live:
    """A running server: where it listens, and (in process) its store."""

    port: int
    store: Store | None = None
    app: Any = None

    def counter(self, tid: str) -> int:
        """A table's state counter as the in-process server holds it."""
        return int(self.app.state.hub.rooms[tid].counter)

    @property
    def http(self) -> str:
        """The HTTP base URL."""
        return f"http://127.0.0.1:{self.port}"

    def ws(self, tid: str) -> str:
        """A table's WebSocket URL."""
        return f"ws://127.0.0.1:{self.port}/ws/{tid}"


@contextlib.contextmanager
def serve_in_thread(db_url: str, **options: Any) -> Iterator[Live]:
    """The app under uvicorn in this process, on a free loopback port, until the block ends;
    ``options`` go to :func:`~hoola.server.app.create_app`."""
    store = Store(db_url)
    app = create_app(store, **options)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", ws_max_size=WS_MAX_SIZE, lifespan="on",
                            timeout_keep_alive=KEEP_ALIVE)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])),
                              daemon=True)
    thread.start()
    try:
        wait_port(port)
        deadline = time.monotonic() + WAIT
        while not server.started:  # the lifespan has run: tables in play resumed
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError("the in-process server did not start")
            time.sleep(0.01)
        yield Live(port, store, app)
    finally:
        server.should_exit = True
        thread.join(WAIT)
        sock.close()
        store.close()


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = WAIT, proc: subprocess.Popen[Any] | None = None) -> None:
    """Wait until ``port`` accepts a connection (or the process serving it has died)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if proc is not None and proc.poll() is not None:
                raise RuntimeError(f"the server exited with {proc.returncode}") from None
            if time.monotonic() > deadline:
                raise TimeoutError(f"nothing listens on port {port}") from None
            time.sleep(0.02)


def hoola_command() -> list[str]:
    """How to start ``hoola``: the script next to this Python (the virtualenv's), else -m."""
    bindir = str(Path(sys.executable).parent)
    found = shutil.which("hoola", path=bindir + os.pathsep + os.environ.get("PATH", ""))
    return [found] if found else [sys.executable, "-m", "hoola"]


@contextlib.contextmanager
def serve_process(db_url: str, port: int, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``hoola serve`` in a subprocess until the block ends (killed if still running)."""
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    with log.open("ab") as out:
        proc = subprocess.Popen([*hoola_command(), "serve", "--db", db_url, "--port", str(port)],
                                stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        wait_port(port, proc=proc)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(WAIT)


# -- HTTP ---------------------------------------------------------------------------------------

async def create_table(http: httpx.AsyncClient, game: str, seats: list[dict[str, Any]],
                       **spec: Any) -> dict[str, Any]:
    """A new table (the host in seat 0, then ``seats``) with quick timers unless given."""
    body = {"game": game, "name": "Host", "seats": seats, **FAST, **spec}
    r = await http.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    return dict(r.json())


def bearer(token: str) -> dict[str, str]:
    """The header that authenticates a seat's token."""
    return {"Authorization": f"Bearer {token}"}


async def start(http: httpx.AsyncClient, table: dict[str, Any]) -> None:
    """The host starts the table."""
    r = await http.post(f"/api/tables/{table['table_id']}/start", headers=bearer(table["token"]))
    assert r.status_code == 200, r.text


async def join(http: httpx.AsyncClient, table: dict[str, Any], name: str) -> dict[str, Any]:
    """Take an open seat by the table's invite."""
    r = await http.post(f"/api/tables/{table['table_id']}/join",
                        json={"invite": table["invite"], "name": name})
    assert r.status_code == 200, r.text
    return dict(r.json())


async def record(http: httpx.AsyncClient, tid: str) -> str:
    """The finished table's record."""
    r = await http.get(f"/api/tables/{tid}/record")
    assert r.status_code == 200, r.text
    return r.text


# -- WebSocket ----------------------------------------------------------------------------------

class Closed(Exception):
    """The server closed the socket."""


class Client:
    """One WebSocket connection: every message it receives kept in :attr:`log`, in order."""

    def __init__(self, ws: websockets.ClientConnection, pace: bool = True) -> None:
        self.ws = ws
        self.log: list[dict[str, Any]] = []
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.last: dict[str, Any] | None = None
        self.close_code: int | None = None
        self.pace = pace
        self.tokens = play_socket.BURST - 2.0
        self.stamp = time.monotonic()
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, url: str, hello: dict[str, Any] | None = None,
                   pace: bool = True) -> Client:
        """Connect and (when ``hello`` is given) say it and wait for the welcome."""
        ws = await websockets.connect(url, max_size=None, open_timeout=WAIT)
        client = cls(ws, pace)
        if hello is not None:
            await client.send({"type": "hello", **hello})
            welcome = await client.expect(lambda m: m["type"] in ("welcome", "error"))
            if welcome["type"] == "error":
                raise AssertionError(f"hello refused: {welcome}")
        return client

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                self.log.append(message)
                if message.get("type") == "state":
                    self.last = message
                await self.queue.put(message)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.close_code = self.ws.close_code
            await self.queue.put(None)

    async def _throttle(self) -> None:
        """Keep under the server's rate limit (tests that flood set ``pace`` False)."""
        if not self.pace:
            return
        now = time.monotonic()
        self.tokens = min(play_socket.BURST - 2.0, self.tokens + (now - self.stamp) * (
            play_socket.RATE * 0.9))
        self.stamp = now
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / (play_socket.RATE * 0.9))
            self.tokens = 1.0
            self.stamp = time.monotonic()
        self.tokens -= 1

    async def send(self, message: Any) -> None:
        """Send a JSON message."""
        await self.send_raw(json.dumps(message))

    async def send_raw(self, data: str | bytes) -> None:
        """Send a frame as it is (text or binary)."""
        await self._throttle()
        await self.ws.send(data)

    async def next(self, timeout: float = WAIT) -> dict[str, Any]:
        """The next message (Closed when the socket is closed)."""
        message = await asyncio.wait_for(self.queue.get(), timeout)
        if message is None:
            await self.queue.put(None)  # later waits see the close too
            raise Closed(f"closed with code {self.close_code}")
        return message

    async def expect(self, pred: Callable[[dict[str, Any]], bool],
                     timeout: float = WAIT) -> dict[str, Any]:
        """Skip messages until one satisfies ``pred``; that one."""
        deadline = time.monotonic() + timeout
        while True:
            message = await self.next(max(0.01, deadline - time.monotonic()))
            if pred(message):
                return message

    async def error(self, timeout: float = WAIT) -> dict[str, Any]:
        """The next error message."""
        return await self.expect(lambda m: m["type"] == "error", timeout)

    async def state(self, pred: Callable[[dict[str, Any]], bool] = lambda m: True,
                    timeout: float = WAIT) -> dict[str, Any]:
        """The next state message satisfying ``pred``."""
        return await self.expect(lambda m: m["type"] == "state" and pred(m), timeout)

    async def fresh_state(self) -> dict[str, Any]:
        """Ask for the state and return it: the last state before the pong of a ping sent
        after the request (messages of one socket are handled in order)."""
        await self.send({"type": "state"})
        await self.send({"type": "ping"})
        newest = None
        while True:
            message = await self.next()
            if message["type"] == "state":
                newest = message
            elif message["type"] == "pong" and newest is not None:
                return newest

    async def closed(self, timeout: float = WAIT) -> int | None:
        """Wait until the server has closed the socket; its close code."""
        await asyncio.wait_for(asyncio.shield(self.reader), timeout)
        return self.close_code

    async def close(self) -> None:
        """Close the socket and stop reading."""
        await self.ws.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.reader, WAIT)


TOLERATE = ("stale", "window-closed", "already-decided", "out-of-turn")
"""The refusals a live table gives a quick script: a window closed, a stand-in moved first."""

Chooser = Callable[[dict[str, Any]], str | None]
"""Picks a seat's decision from its state message: an action, or None to pass."""


def first_legal(message: dict[str, Any]) -> str | None:
    """The first legal action; a pass in a window."""
    if message["can_pass"] or not message["view"]["legal"]:
        return None
    return str(message["view"]["legal"][0])


def random_legal(rng: random.Random, pass_rate: float = 0.7) -> Chooser:
    """A random legal action (passing in a window most of the time)."""
    def choose(message: dict[str, Any]) -> str | None:
        legal = message["view"]["legal"]
        if message["can_pass"] and (not legal or rng.random() < pass_rate):
            return None
        return str(rng.choice(legal))
    return choose


async def decide(client: Client, message: dict[str, Any], choice: str | None) -> None:
    """Send a decision on the state ``message``."""
    if choice is None:
        await client.send({"type": "pass", "counter": message["counter"]})
    else:
        await client.send({"type": "act", "action": choice, "counter": message["counter"]})


async def play(client: Client, choose: Chooser = first_legal,
               until: Callable[[dict[str, Any]], bool] = lambda m: m["status"] == "over",
               tolerate: tuple[str, ...] = TOLERATE) -> dict[str, Any]:
    """Play a seat whenever it is asked until a state satisfies ``until``; that state.

    Errors of the codes in ``tolerate`` are the races of a live table (a window closed, a bot
    stood in); any other error fails the test.
    """
    acted: set[int] = set()
    if client.last is not None and not until(client.last):
        message: dict[str, Any] | None = client.last
    else:
        message = None
    while True:
        if message is None:
            message = await client.next()
        if message["type"] == "error":
            assert message["code"] in tolerate, message
        elif message["type"] == "state":
            if until(message):
                return message
            if message["asked"] and message["counter"] not in acted and (
                    message["view"]["legal"] or message["can_pass"]):
                acted.add(message["counter"])
                await decide(client, message, choose(message))
        message = None


def texts(message: Any) -> Iterator[str]:
    """Every string in a message, keys too."""
    if isinstance(message, str):
        yield message
    elif isinstance(message, dict):
        for k, v in message.items():
            yield str(k)
            yield from texts(v)
    elif isinstance(message, list):
        for v in message:
            yield from texts(v)


def no_internals(messages: list[dict[str, Any]]) -> None:
    """No message shows a traceback or an exception's repr."""
    for m in messages:
        for t in texts(m):
            for sign in TRACEBACK_SIGNS:
                assert sign not in t, (sign, m)

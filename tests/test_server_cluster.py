"""Scale-out: two ``hoola serve`` processes on one Redis and one database serve the same table;
killing the process that owns it (``kill -9``) loses nothing: the other takes it over when the
lease runs out, and the client, reconnecting there, plays the game to the end.

Real parts: Debian's ``redis-server`` and two server processes on loopback, real WebSockets.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from hoola.core.records import verify_text

ROOT = Path(__file__).resolve().parent.parent
SETTLE = 60.0  # the most any one wait takes on a loaded machine


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + SETTLE
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the process on port {port} ended: {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port}")


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    exe = shutil.which("redis-server")
    assert exe is not None, "redis-server is missing: scripts/test.sh installs it"
    port = free_port()
    proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(tmp_path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(port, proc)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.kill()
        proc.wait()


def serve(db: str, redis: str, home: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "HOME": str(home)}
    proc = subprocess.Popen([sys.executable, "-m", "hoola", "serve", "--port", str(port),
                             "--db", db, "--redis", redis, "--lease", "1.5"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    wait_port(port, proc)
    return proc, port


async def play_across(a: int, b: int, kill: Any) -> tuple[str, list[dict[str, Any]]]:
    """Make a Hoola table on A and start it through B, which so owns it; play seat 0 connected
    to A (its moves forwarded to B, B's announcements fanned out to A); after five moves
    ``kill()`` B, and go on: A takes the table over. Returns the record and every error."""
    errors: list[dict[str, Any]] = []
    async with httpx.AsyncClient(timeout=SETTLE) as http:
        made = (await http.post(f"http://127.0.0.1:{a}/api/tables", json={
            "game": "hoola", "name": "Me", "seats": [{"bot": "random"}] * 3, "deals": 2,
            "claim_seconds": 0.2, "bot_delay": 0, "bot_reaction": [0, 0.02], "seed": 11,
            "turn_seconds": 0})).json()
        tid, token = made["table_id"], made["token"]
        started = await http.post(f"http://127.0.0.1:{b}/api/tables/{tid}/start",
                                  headers={"Authorization": f"Bearer {token}"})
        assert started.status_code == 200, started.text
        lease = await http.get(f"http://127.0.0.1:{a}/api/tables/{tid}")
        assert lease.json()["status"] == "playing"
        port, moves, killed = a, 0, False
        answered: set[int] = set()  # one answer a moment, again only if it was refused
        last: dict[str, Any] | None = None
        while True:
            try:
                async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{tid}") as ws:
                    await ws.send(json.dumps({"type": "hello", "token": token}))
                    while True:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), SETTLE))
                        if msg["type"] == "error":
                            errors.append(msg)
                            if msg["code"] == "rate-limited" and last is not None:
                                # Refused for speed: back off, then answer the moment again.
                                await asyncio.sleep(0.2)
                                answered.discard(last["counter"])
                                msg = last
                        if msg["type"] != "state":
                            continue
                        last = msg
                        if msg["status"] == "over":
                            record = await http.get(f"http://127.0.0.1:{a}/api/tables/{tid}/record")
                            assert record.status_code == 200, record.text
                            return record.text, errors
                        if not msg["asked"] or msg["counter"] in answered:
                            continue
                        answered.add(msg["counter"])
                        act = {"type": "pass"} if msg["can_pass"] else \
                            {"type": "act", "action": msg["view"]["legal"][0]}
                        await ws.send(json.dumps({**act, "counter": msg["counter"]}))
                        moves += 1
                        if moves == 5 and not killed:
                            kill()
                            killed = True
            except (websockets.ConnectionClosed, OSError) as exc:
                raise AssertionError("the connection to the surviving process dropped") from exc


def test_a_table_survives_the_death_of_its_owner(redis_url: str, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    first, a = serve(db, redis_url, tmp_path)
    second, b = serve(db, redis_url, tmp_path)
    try:
        record, errors = asyncio.run(play_across(a, b, lambda: os.kill(second.pid,
                                                                         signal.SIGKILL)))
    finally:
        for proc in (first, second):
            proc.kill()
            proc.wait()
    verdict = verify_text(record)
    assert verdict.ok, verdict.problems
    assert record.count("[[deal]]") == 2
    # Only a move answering a state that a newer one had replaced may be refused, one sent
    # while the table moved between processes, or one over the rate a connection may send (the
    # client answers every window at once, faster than a person, while the bots wait for none),
    # or an answer again to a moment the table already has this seat's answer for.
    assert {e["code"] for e in errors} <= {"stale", "window-closed", "table-busy",
                                           "rate-limited", "already-decided"}, errors
    assert b"Traceback" not in (first.stderr.read() if first.stderr else b"")


async def subscribers_while_connected(a: int, b: int, redis_url: str) -> tuple[int, int, int]:
    """A table made on A and owned by B (started through it): how many processes hear its
    announcements with no connection, with a person connected to A, and once they have gone."""
    import redis.asyncio as aioredis

    r = aioredis.from_url(redis_url)
    try:
        async with httpx.AsyncClient(timeout=SETTLE) as http:
            made = (await http.post(f"http://127.0.0.1:{a}/api/tables", json={
                "game": "hoola", "name": "Me", "seats": [{"bot": "random"}] * 3,
                "seed": 3, "turn_seconds": 0})).json()
            tid, token = made["table_id"], made["token"]
            started = await http.post(f"http://127.0.0.1:{b}/api/tables/{tid}/start",
                                      headers={"Authorization": f"Bearer {token}"})
            assert started.status_code == 200, started.text
        channel = f"hoola:out:{tid}"

        async def count() -> int:
            return int(dict(await r.pubsub_numsub(channel))[channel.encode()])

        before = await count()
        async with websockets.connect(f"ws://127.0.0.1:{a}/ws/{tid}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            while json.loads(await asyncio.wait_for(ws.recv(), SETTLE))["type"] != "state":
                pass  # the state B announced reached the person through A's subscription
            during = await count()
        deadline = time.monotonic() + SETTLE
        after = await count()
        while after and time.monotonic() < deadline:  # A unsubscribes once it sees the close
            await asyncio.sleep(0.05)
            after = await count()
        return before, during, after
    finally:
        await r.aclose()


def test_a_process_hears_only_the_tables_it_holds_connections_of(redis_url: str,
                                                                   tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    first, a = serve(db, redis_url, tmp_path)
    second, b = serve(db, redis_url, tmp_path)
    try:
        counts = asyncio.run(subscribers_while_connected(a, b, redis_url))
    finally:
        for proc in (first, second):
            proc.kill()
            proc.wait()
    # Nobody listens to a table no one is connected to (its owner B publishes, hearing nothing);
    # A listens while its person is there, and no longer once they have gone.
    assert counts == (0, 1, 0)

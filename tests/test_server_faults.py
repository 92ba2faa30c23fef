"""Faults a server meets in production, each with real parts: Redis killed and restarted in the
middle of a game, the owner of a table killed again and again, a full disk under SQLite.

- **Redis away.** The process that does not own a table answers ``unavailable`` (no
  ``internal``); the owner stops writing once its lease may have passed to another (fenced);
  when Redis is back every process subscribes anew, a client that stayed connected sees the
  table move again, a new connection is served at once, and the game plays to its end.
- **Takeover.** A process whose clients watch a table takes it over by itself when its owner
  dies, within a lease and a bit, with no client asking: twenty times in a row.
- **A full disk.** SQLite on a 2 MiB tmpfs: a write that fails is told to the player who acted
  (``unavailable``, the action not taken), nobody's connection drops, the operator gets one
  clear log line, and once there is space again the table plays on to a record that verifies.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from hoola.core.records import verify_text
from server_client import (
    WAIT,
    Client,
    Closed,
    bearer,
    create_table,
    free_port,
    hoola_command,
    run,
    wait_port,
)

LEASE = 1.5
"""The servers' lease here: short, so that a takeover comes quickly."""
ROOT = Path(__file__).resolve().parent.parent
BOTS = {"bot_delay": 0.05, "bot_reaction": [0.0, 0.05], "claim_seconds": 0.3,
        "turn_seconds": 0}
"""Quick bots; a person's turn has no limit (no stand-in plays for the test's client)."""
REFUSALS = {"unavailable", "stale", "window-closed", "table-busy", "already-decided"}
"""What a client may be told while its table's server loses Redis or dies."""


# -- real parts --------------------------------------------------------------------------------

@dataclass
class Redis:
    """A ``redis-server`` on a fixed loopback port, to kill and start again."""

    port: int
    folder: Path
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        exe = shutil.which("redis-server")
        assert exe is not None, "redis-server is missing: scripts/test.sh installs it"
        self.proc = subprocess.Popen(
            [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.port, proc=self.proc)

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(WAIT)
            self.proc = None


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[Redis]:
    server = Redis(free_port(), tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.kill()


@dataclass
class Server:
    """One ``hoola serve`` process."""

    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, tid: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{tid}"

    def ready(self) -> Server:
        wait_port(self.port, proc=self.proc)
        return self

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(WAIT)

    def output(self) -> str:
        return self.log.read_text(errors="replace")


def spawn(db: str, folder: Path, *extra: str) -> Server:
    """``hoola serve`` on a free port (not waited for: :meth:`Server.ready`)."""
    port = free_port()
    log = folder / f"server-{port}.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    with log.open("wb") as out:
        proc = subprocess.Popen([*hoola_command(), "serve", "--port", str(port), "--db", db,
                                 *extra], stdout=out, stderr=subprocess.STDOUT, env=env)
    return Server(proc, port, log)


async def health(server: Server) -> tuple[int, dict[str, Any]]:
    async with httpx.AsyncClient(timeout=WAIT) as http:
        r = await http.get(f"{server.http}/health")
        return r.status_code, r.json()


async def until(check: Any, what: str, timeout: float = WAIT) -> Any:
    """Poll ``check()`` (a coroutine function) until it answers something true; that answer."""
    deadline = time.monotonic() + timeout
    while True:
        got = await check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:g} s: {what}")
        await asyncio.sleep(0.05)


@dataclass
class Player:
    """The test's person at seat 0: acts at once whenever asked (the first legal move, or a
    pass in a window) on whatever socket it holds now; keeps every refusal."""

    token: str
    client: Client | None = None
    errors: list[dict[str, Any]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None

    async def connect(self, url: str) -> Client:
        await self.hang_up()
        self.client = await Client.open(url, {"token": self.token})
        self.task = asyncio.get_running_loop().create_task(self._play(self.client))
        return self.client

    async def hang_up(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Closed):
                await self.task
        if self.client is not None:
            await self.client.close()
        self.task = self.client = None

    async def _play(self, client: Client) -> None:
        answered: int | None = None  # the counter answered, until asked anew
        with contextlib.suppress(Closed):
            while True:
                m = await client.next(timeout=10 * WAIT)
                if m["type"] == "error":
                    self.errors.append(m)
                    answered = None  # refused: answer the next time it is asked
                    continue
                if m["type"] != "state":
                    continue
                if not m["asked"]:
                    answered = None
                    continue
                # As a person does: answer when asked, and again when asked anew (after a
                # refusal, or when a new owner asks again for a decision the old one lost).
                if answered == m["counter"]:
                    continue
                answered = m["counter"]
                if m["can_pass"] or not m["view"]["legal"]:
                    await client.send({"type": "pass", "counter": m["counter"]})
                else:
                    await client.send({"type": "act", "action": m["view"]["legal"][0],
                                       "counter": m["counter"]})


async def new_table(made_on: Server, started_on: Server, **spec: Any) -> dict[str, Any]:
    """A Hoola table of the test's person and three bots, made on one process and started
    through another, which so owns it."""
    async with httpx.AsyncClient(base_url=made_on.http, timeout=WAIT) as http:
        table = await create_table(http, "hoola", [{"bot": "random"}] * 3, **{**BOTS, **spec})
    async with httpx.AsyncClient(timeout=WAIT) as http:
        r = await http.post(f"{started_on.http}/api/tables/{table['table_id']}/start",
                            headers=bearer(table["token"]))
        assert r.status_code == 200, r.text
    return table


def stored(db_file: Path, tid: str) -> list[tuple[int, str, float]]:
    """The table's stored actions (place, notation, when), read from the file directly."""
    with contextlib.closing(sqlite3.connect(db_file)) as c:
        return list(c.execute("select seq, text, at from actions where table_id = ? "
                              "order by seq", (tid,)))


# -- takeover ----------------------------------------------------------------------------------

async def bots_table(made_on: Server, started_on: Server) -> dict[str, Any]:
    """A Hoola table of four bots (the host gives its own seat to one), made on one process
    and started through another, which so owns it: nobody at it ever sends a thing."""
    async with httpx.AsyncClient(base_url=made_on.http, timeout=WAIT) as http:
        table = await create_table(http, "hoola", [{"bot": "random"}] * 3, **BOTS)
        tid = table["table_id"]
        r = await http.post(f"/api/tables/{tid}/leave", headers=bearer(table["token"]))
        assert r.status_code == 200, r.text
        r = await http.post(f"/api/tables/{tid}/seats/0/bot", json={"bot": "random"},
                            headers=bearer(table["token"]))
        assert r.status_code == 200, r.text
    async with httpx.AsyncClient(timeout=WAIT) as http:
        r = await http.post(f"{started_on.http}/api/tables/{tid}/start",
                            headers=bearer(table["token"]))
        assert r.status_code == 200, r.text
    return table


def test_a_survivor_takes_a_table_over_by_itself_twenty_times_in_a_row(
        redis: Redis, tmp_path: Path) -> None:
    """Three processes; the owner of a table of bots is killed while a spectator watches it
    through another. A survivor takes the table over with nobody asking (the spectator sends
    nothing), and the spectator sees it move again. A fresh process replaces the dead one, and
    the new owner is killed in turn: twenty times."""
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    extra = ("--redis", redis.url, "--lease", str(LEASE))

    async def main() -> list[float]:
        servers = [spawn(db, tmp_path, *extra).ready() for _ in range(3)]
        started = list(servers)
        table = await bots_table(servers[0], servers[1])
        tid = table["table_id"]
        owner = servers[1]
        took: list[float] = []
        watcher: Client | None = None
        try:
            for _ in range(20):
                beside = next(s for s in servers if s is not owner)
                watcher = await Client.open(beside.ws(tid), {"invite": table["invite"]})
                first = (await watcher.state())["counter"]
                moved = (await watcher.state(lambda m, f=first: m["counter"] > f))["counter"]
                owner.kill()
                killed = time.monotonic()
                servers.remove(owner)

                async def new_owner() -> Server | None:
                    for s in servers:
                        code, body = await health(s)
                        if code == 200 and body["tables"] >= 1:
                            return s
                    return None

                owner = await until(new_owner, "a survivor owns the table",
                                    timeout=8 * LEASE + 10)
                took.append(time.monotonic() - killed)
                await watcher.state(lambda m, c=moved: m["counter"] > c)  # and plays it
                await watcher.close()
                watcher = None
                fresh = spawn(db, tmp_path, *extra)
                started.append(fresh)
                servers.append(fresh.ready())
            return took
        finally:
            if watcher is not None:
                await watcher.close()
            for s in started:
                s.kill()
            for s in started:
                assert "Traceback" not in s.output(), s.output()[-3000:]

    took = run(main(), timeout=20 * 60)
    assert len(took) == 20
    # By itself and soon: the lease runs out, and the next look (a third of a lease on) finds
    # it. The bound is loose for a loaded machine.
    assert max(took) < 8 * LEASE + 10, took


# -- Redis away --------------------------------------------------------------------------------

def test_a_game_goes_on_after_redis_is_killed_and_started_again(redis: Redis,
                                                                  tmp_path: Path) -> None:
    db_file = tmp_path / "tables.db"
    db = f"sqlite:///{db_file}"
    extra = ("--redis", redis.url, "--lease", str(LEASE))

    async def main() -> None:
        a = spawn(db, tmp_path, *extra).ready()  # holds a spectator
        b = spawn(db, tmp_path, *extra).ready()  # owns the table, holds the person
        try:
            # Two deals: the first must not end within a lease of Redis going away, or no
            # write would be left to fence.
            table = await new_table(a, b, deals=2)
            tid = table["table_id"]
            person = Player(table["token"])
            await person.connect(b.ws(tid))
            watcher = await Client.open(a.ws(tid), {"invite": table["invite"]})
            await watcher.state(lambda m: m["counter"] >= 3)

            redis.kill()
            killed = time.time()
            for server in (a, b):
                code, body = await until(lambda s=server: _down(s), "health says Redis is away")
                assert code == 503 and body["redis"] == "unreachable", body
            # The process that does not own the table: clear refusals, nothing internal.
            refused = await Client.open(a.ws(tid))
            await refused.send({"type": "hello", "invite": table["invite"]})
            error = await refused.error()
            assert error["code"] == "unavailable", error
            await refused.close()
            async with httpx.AsyncClient(timeout=WAIT) as http:
                r = await http.post(f"{a.http}/api/tables/{tid}/leave",
                                    headers=bearer(table["token"]))
                assert r.status_code == 503 and r.json()["code"] == "unavailable", r.text
            # The owner: its lease may pass to another once it has run out, so it stops
            # writing (fenced) and says so; it had written on until then.
            async def halted() -> bool:
                return bool((await health(b))[1]["halted"])

            await until(halted, "the owner halts its table")
            await until(lambda: _after(killed + LEASE + 2), "the outage lasts")
            during = [at for _, _, at in stored(db_file, tid) if at > killed + LEASE + 0.5]
            assert not during, f"written {len(during)} actions after the lease ran out"
            counter = watcher.last["counter"] if watcher.last else 0

            redis.start()  # empty: every lease is gone
            # The spectator that stayed connected to A sees the table move again; once A says
            # it is linked again, a new connection to it is served at once.
            await watcher.state(lambda m: m["counter"] > counter)

            async def linked() -> bool:
                return (await health(a))[0] == 200

            await until(linked, "A hears Redis again")
            late = await Client.open(a.ws(tid), {"invite": table["invite"]})
            await late.state()
            # Two deals of quick bots and a person who acts at once: the whole game, however
            # loaded the machine.
            over = await watcher.state(lambda m: m["status"] == "over", timeout=4 * WAIT)
            assert over["status"] == "over"
            async with httpx.AsyncClient(timeout=WAIT) as http:
                text = (await http.get(f"{a.http}/api/tables/{tid}/record")).text
            verdict = verify_text(text)
            assert verdict.ok, verdict.problems
            assert {e["code"] for e in person.errors} <= REFUSALS, person.errors
            await person.hang_up()
            await late.close()
            await watcher.close()
        finally:
            a.kill()
            b.kill()
        for server in (a, b):
            log = server.output()
            assert "Traceback" not in log, log[-3000:]
            assert log.count("Redis is unreachable") == 1, log[-3000:]
            assert "Redis answers again" in log, log[-3000:]

    run(main(), timeout=10 * WAIT)


async def _down(server: Server) -> tuple[int, dict[str, Any]] | None:
    code, body = await health(server)
    return (code, body) if body.get("redis") == "unreachable" else None


async def _after(moment: float) -> bool:
    return time.time() > moment


# -- a full disk -------------------------------------------------------------------------------

@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs, mounted for the test (the tests run as root, as CI does)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    assert done.returncode == 0, f"cannot mount a tmpfs: {done.stderr.strip()}"
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path) -> Path:
    """Fill the disk to the last byte; the filler file, to delete."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        for size in (65536, 4096, 1):
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * size):
                    pass
    finally:
        os.close(fd)
    return filler


def test_a_full_disk_refuses_writes_clearly_and_the_table_plays_on(small_disk: Path,
                                                                    tmp_path: Path) -> None:
    db_file = small_disk / "tables.db"
    server = spawn(f"sqlite:///{db_file}", tmp_path).ready()

    async def main() -> None:
        table = await new_table(server, server, deals=1)
        tid = table["table_id"]
        person = await Client.open(server.ws(tid), {"token": table["token"]})
        watcher = await Client.open(server.ws(tid), {"invite": table["invite"]})
        turn = await _play_out(person, until=lambda m: m["asked"] and not m["can_pass"]
                               and m["counter"] > 3)
        filler = fill(small_disk)
        # The person acts on a full disk: told why, the action not taken, the socket open.
        await person.send({"type": "act", "action": turn["view"]["legal"][0],
                           "counter": turn["counter"]})
        error = await person.error()
        assert error["code"] == "unavailable", error
        await person.send({"type": "ping"})
        await person.expect(lambda m: m["type"] == "pong")
        assert len(stored(db_file, tid)) == turn["counter"] - 1  # nothing stored
        code, body = await health(server)
        assert code == 503 and body["store"].startswith("failing"), body
        async with httpx.AsyncClient(base_url=server.http, timeout=WAIT) as http:
            r = await http.post("/api/tables", json={"game": "hoola", "seats": [{"bot": "random"}]})
            assert r.status_code == 503 and r.json()["code"] == "unavailable", r.text
            lobby = await http.get("/api/tables")  # reading still works
            assert lobby.status_code == 200
            metrics = (await http.get("/metrics")).text
            assert _metric(metrics, "hoola_store_errors_total") >= 2
            assert _metric(metrics, "hoola_store_ok") == 0
        await person.send({"type": "chat", "text": "anyone?"})
        error = await person.error()
        assert error["code"] == "unavailable", error

        filler.unlink()  # space again: the person, asked again, plays on; so do the bots
        again = await person.state(lambda m: m["asked"] and m["counter"] == turn["counter"])
        await person.send({"type": "act", "action": again["view"]["legal"][0],
                           "counter": again["counter"]})
        await watcher.state(lambda m: m["counter"] > turn["counter"])
        person_task = asyncio.get_running_loop().create_task(_play_out(person))
        over = await watcher.state(lambda m: m["status"] == "over")
        await person_task
        async with httpx.AsyncClient(base_url=server.http, timeout=WAIT) as http:
            text = (await http.get(f"/api/tables/{tid}/record")).text
        verdict = verify_text(text)
        assert verdict.ok, verdict.problems
        assert len(stored(db_file, tid)) == over["counter"] - 1
        code, body = await health(server)
        assert code == 200 and body["store"] == "ok", body
        await watcher.close()
        await person.close()

    try:
        run(main())
    finally:
        server.kill()
    log = server.output()
    assert "Traceback" not in log, log[-3000:]
    refusals = [line for line in log.splitlines() if "the database refused to write" in line]
    assert refusals and "full" in refusals[0], log[-3000:]
    assert "the database accepts writes again" in log, log[-3000:]


async def _play_out(client: Client, until: Any = lambda m: m["status"] == "over"
                    ) -> dict[str, Any]:
    """Play the seat (the first legal move, or a pass) until a state satisfies ``until``."""
    acted: set[int] = set()
    while True:
        m = await client.next()
        if m["type"] == "error":
            assert m["code"] in REFUSALS, m
        elif m["type"] == "state":
            if until(m):
                return m
            if m["asked"] and m["counter"] not in acted:
                acted.add(m["counter"])
                if m["can_pass"] or not m["view"]["legal"]:
                    await client.send({"type": "pass", "counter": m["counter"]})
                else:
                    await client.send({"type": "act", "action": m["view"]["legal"][0],
                                       "counter": m["counter"]})


def _metric(text: str, name: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"no {name} in the metrics")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))


# -- watching a server -------------------------------------------------------------------------

def test_health_and_metrics_tell_an_operator_what_the_server_does(tmp_path: Path) -> None:
    from server_client import decide, first_legal, serve_in_thread, start

    async def main(live: Any) -> None:
        async with httpx.AsyncClient(base_url=live.http, timeout=WAIT) as http:
            table = await create_table(http, "hoola", [{"bot": "random"}] * 3, **BOTS)
            person = await Client.open(live.ws(table["table_id"]), {"token": table["token"]})
            await start(http, table)
            asked = await person.state(lambda m: m["asked"])
            await decide(person, asked, first_legal(asked))
            await person.state(lambda m: m["counter"] > asked["counter"]
                               or (m["counter"] == asked["counter"] and not m["asked"]))
            r = await http.get("/health")
            code, body = r.status_code, r.json()
            assert code == 200 and body["status"] == "ok" and body["store"] == "ok", body
            assert body["redis"] is None and body["tables"] == 1 and body["sockets"] == 1, body

            async def sampled() -> str | None:
                text = (await http.get("/metrics")).text
                return text if _metric(text, "hoola_event_loop_lag_seconds_count") > 0 else None

            text = await until(sampled, "the loop's lag sampled")
            assert _metric(text, 'hoola_decisions_total{result="accepted"}') >= 1
            assert _metric(text, "hoola_decision_seconds_count") >= 1
            assert _metric(text, 'hoola_sockets{role="seat"}') == 1
            assert _metric(text, "hoola_tables") == 1
            assert _metric(text, "hoola_actions_stored_total") >= 1
            assert _metric(text, "hoola_store_errors_total") == 0
            assert "hoola_redis_up" not in text  # alone: no Redis to watch
            await person.send({"type": "act", "action": "Host knock", "counter": 0})
            await person.error()
            after = (await http.get("/metrics")).text
            assert _metric(after, 'hoola_decisions_total{result="refused"}') >= 1
            await person.close()

    with serve_in_thread(f"sqlite:///{tmp_path / 'tables.db'}") as live:
        run(main(live))

"""The server on a real PostgreSQL server (Debian's ``postgresql``, started by :mod:`pg`).

No skip: when PostgreSQL's binaries are missing these tests fail (``scripts/test.sh`` installs
them), since "PostgreSQL by URL" is a promise the server makes. The store, then whole games
through the app over real sockets, then a server killed mid-deal and a new app on the same
database taking the table up where its stored actions left it.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import websockets

from hoola.core.records import verify_text
from hoola.server.app import KEEP_ALIVE, create_app
from hoola.server.room import Room
from hoola.server.store import PlaceTaken, SeatRow, Store, digest
from hoola.server.views import seat_message
from pg import PostgresMissing, PostgresServer, find_bin, free_port

TIMEOUT = 120.0
"""Seconds any one wait may take on a loaded machine before the test fails."""

_names = itertools.count(1)


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the module (a database per test)."""
    with PostgresServer.running() as server:
        yield server


@pytest.fixture
def pg_url(postgres: PostgresServer) -> str:
    """The SQLAlchemy URL of a fresh, empty database."""
    return postgres.create_database(f"hoola_{os.getpid()}_{next(_names)}")


def test_missing_binaries_fail_instead_of_skipping() -> None:
    with pytest.raises(PostgresMissing, match="apt-get install postgresql"):
        find_bin("no-such-postgres-binary")


# -- the store ----------------------------------------------------------------------------------


def test_store_tables_seats_and_actions_in_order(pg_url: str) -> None:
    store = Store(pg_url)
    try:
        assert store.engine.dialect.name == "postgresql"
        rows = [SeatRow(0, "person", "Ann", None, digest("tok"), False),
                SeatRow(1, "bot", "Bob", "random", None, False)]
        tid = store.create_table({"game": "hoola", "seed": 5}, host_digest=digest("tok"),
                                 invite="inv", seat_rows=rows)
        other = store.create_table({"game": "sedma"}, host_digest=digest("x"), invite="i2")
        assert store.table(tid) is not None and store.table(tid).config["seed"] == 5  # type: ignore[union-attr]
        assert store.seats(tid) == rows
        store.set_seat(tid, SeatRow(1, "person", "Bob", None, digest("b"), True))
        assert store.seats(tid)[1].leaving and store.seats(tid)[1].kind == "person"
        texts = [f"A move{i}" for i in range(30)]
        seqs = [store.add_action(tid, i // 10, t) for i, t in enumerate(texts)]
        store.add_action(other, 0, "B elsewhere")
        assert seqs == list(range(1, 31))
        assert [(a.seq, a.deal, a.text) for a in store.actions(tid)] == \
            [(i + 1, i // 10, t) for i, t in enumerate(texts)]
        assert [a.text for a in store.actions(other)] == ["B elsewhere"]
        store.start_table(tid, {"game": "hoola", "seed": 5, "names": ["Ann", "Bob"]})
        store.set_status(tid, "over")
        row = store.table(tid)
        assert row is not None and row.status == "over" and row.finished is not None
        assert row.config["names"] == ["Ann", "Bob"]
        assert [r.id for r in store.tables(status=["over"])] == [tid]
        store.add_chat(tid, 0, "Ann", "hi")
        assert store.chat(tid) == [("Ann", "hi")]
    finally:
        store.close()


def test_the_same_place_in_a_table_cannot_be_written_twice(pg_url: str) -> None:
    """The fence a process that lost its table runs into: the place it writes is taken."""
    store = Store(pg_url)
    try:
        tid = store.create_table({"game": "hoola"}, host_digest=digest("t"), invite="i")
        assert store.add_action(tid, 0, "A draw", seq=1) == 1
        with pytest.raises(PlaceTaken):  # the database's unique key, told as the store's own
            store.add_action(tid, 0, "B draw", seq=1)
        assert store.add_action(tid, 0, "A discard 7c", seq=2) == 2
        assert [a.text for a in store.actions(tid)] == ["A draw", "A discard 7c"]
    finally:
        store.close()


def test_two_writers_of_one_table_never_fork_its_sequence(pg_url: str) -> None:
    """Two threads append to the same table at once: every stored action has its own place,
    the places run 1, 2, 3 ... without a gap, and each writer got the place it was stored at
    (or an error, never a silent overwrite)."""
    store = Store(pg_url)
    try:
        tid = store.create_table({"game": "hoola"}, host_digest=digest("t"), invite="i")
        per_thread = 60
        start = threading.Barrier(2)
        stored: dict[str, list[tuple[int, str]]] = {"A": [], "B": []}
        refused: dict[str, int] = {"A": 0, "B": 0}

        def write(who: str) -> None:
            start.wait()
            for i in range(per_thread):
                text = f"{who} move{i}"
                try:
                    stored[who].append((store.add_action(tid, 0, text), text))
                except PlaceTaken:
                    refused[who] += 1

        threads = [threading.Thread(target=write, args=(w,)) for w in "AB"]
        for t in threads:
            t.start()
        for t in threads:
            t.join(TIMEOUT)
        assert not any(t.is_alive() for t in threads)
        rows = store.actions(tid)
        assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
        assert sorted(stored["A"] + stored["B"]) == [(r.seq, r.text) for r in rows]
        assert len(rows) + refused["A"] + refused["B"] == 2 * per_thread
        for who in "AB":  # each writer's own actions keep their order
            mine = [r.text for r in rows if r.text.startswith(who)]
            assert mine == sorted(mine, key=lambda t: int(t.split("move")[1]))
    finally:
        store.close()


# -- whole games through the app ----------------------------------------------------------------


@asynccontextmanager
async def serving(app: Any) -> AsyncIterator[str]:
    """The app under uvicorn on a free loopback port; its base URL."""
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning",
                                            timeout_keep_alive=KEEP_ALIVE))
    task = asyncio.create_task(server.serve())
    deadline = time.monotonic() + TIMEOUT
    while not server.started:
        assert not task.done(), "the server did not start"
        assert time.monotonic() < deadline
        await asyncio.sleep(0.01)  # polling uvicorn's own started flag
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, TIMEOUT)


FAST = {"claim_seconds": 0.05, "bot_delay": 0, "bot_reaction": [0, 0.01], "turn_seconds": 60}


async def _watch_to_end(base: str, tid: str, invite: str) -> dict[str, Any]:
    """A spectator's last state message, once the table says it is over."""
    async with websockets.connect(f"ws://{base}/ws/{tid}") as ws:
        await ws.send(json.dumps({"type": "hello", "invite": invite}))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            assert message["type"] != "error", message
            if message["type"] == "state" and message["status"] == "over":
                return message


async def _record(http: httpx.AsyncClient, tid: str) -> str:
    r = await http.get(f"/api/tables/{tid}/record")
    assert r.status_code == 200, r.text
    return r.text


@pytest.mark.parametrize(("game", "bots", "deals"), [("hoola", 3, 2), ("sedma", 3, None)])
def test_a_bot_game_on_postgres_ends_with_a_record_that_verifies(
        pg_url: str, game: str, bots: int, deals: int | None) -> None:
    async def main() -> None:
        store = Store(pg_url)
        async with serving(create_app(store)) as base, \
                httpx.AsyncClient(base_url=f"http://{base}", timeout=TIMEOUT) as http:
            r = await http.post("/api/tables", json={
                "game": game, "name": "Host", "seats": [{"bot": "random"}] * bots,
                "deals": deals, "seed": 11, **FAST})
            assert r.status_code == 200, r.text
            t = r.json()
            # The host never connects: a bot stands in for that seat at once.
            r = await http.post(f"/api/tables/{t['table_id']}/start",
                                headers={"Authorization": f"Bearer {t['token']}"})
            assert r.status_code == 200, r.text
            last = await _watch_to_end(base, t["table_id"], t["invite"])
            assert last["scoreboard"] is not None
            text = await _record(http, t["table_id"])
        verdict = verify_text(text, game)
        assert verdict.ok, verdict.problems
        stored = store.actions(t["table_id"])
        assert len(stored) > 10 and "[match]" in text
        store.close()

    asyncio.run(main())


def test_a_server_killed_mid_deal_is_taken_up_by_a_new_app_on_the_same_database(
        pg_url: str, tmp_path: Path) -> None:
    """``hoola serve`` on PostgreSQL, the host playing through its socket, is killed (SIGKILL)
    on the host's own turn; a new app on the same URL rebuilds the table to the very state the
    host last saw, and plays it to a record that verifies."""
    port = free_port()
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}"
                                f"{os.environ.get('PATH', '')}")
    log = (tmp_path / "serve.log").open("wb")
    serve = subprocess.Popen([sys.executable, "-m", "hoola", "serve", "--host", "127.0.0.1",
                              "--port", str(port), "--db", pg_url],
                             stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"127.0.0.1:{port}"
    try:
        last, t = asyncio.run(_play_until_killed(serve, base, tmp_path))
    finally:
        if serve.poll() is None:
            serve.kill()
        serve.wait(TIMEOUT)
        log.close()
    assert serve.returncode == -signal.SIGKILL

    async def resume() -> None:
        store = Store(pg_url)
        app = create_app(store)
        row = store.table(t["table_id"])
        assert row is not None and row.status == "playing"
        room = Room(row, store.seats(row.id), store, lambda seat, message: None)
        room.rebuild()  # what the new app will do: the table from its stored actions
        assert room.counter == last["counter"]
        again = seat_message(room, 0)
        assert again["view"] == last["view"] and again["table"] == last["table"]
        async with serving(app) as base2, \
                httpx.AsyncClient(base_url=f"http://{base2}", timeout=TIMEOUT) as http:
            await _watch_to_end(base2, t["table_id"], t["invite"])
            text = await _record(http, t["table_id"])
        verdict = verify_text(text, "resumed")
        assert verdict.ok, verdict.problems
        store.close()

    asyncio.run(resume())


async def _play_until_killed(serve: subprocess.Popen[bytes], base: str,
                             tmp_path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=TIMEOUT) as http:
        deadline = time.monotonic() + TIMEOUT
        while True:  # waiting for the subprocess's port
            assert serve.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                if (await http.get("/api/games")).status_code == 200:
                    break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "hoola serve did not start"
                await asyncio.sleep(0.05)
        r = await http.post("/api/tables", json={
            "game": "hoola", "name": "Host", "seats": [{"bot": "random"}] * 3, "deals": 2,
            "seed": 7, **FAST})
        t = r.json()
        async with websockets.connect(f"ws://{base}/ws/{t['table_id']}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": t["token"]}))
            while True:  # the host counted as connected before the start: no bot stands in
                m = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                if m["type"] == "state" and m["seats"][0]["connected"]:
                    break
            r = await http.post(f"/api/tables/{t['table_id']}/start",
                                headers={"Authorization": f"Bearer {t['token']}"})
            assert r.status_code == 200, r.text
            mine = 0
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                assert m["type"] != "error", m
                if m["type"] != "state" or not m["asked"] or m["status"] != "playing":
                    continue
                alone = m["moment"]["actors"] == [0] and not m["moment"]["window"]
                if mine >= 6 and alone:
                    serve.kill()  # mid-deal, on the host's turn: nothing else can move
                    serve.wait(TIMEOUT)
                    return m, t
                if m["can_pass"]:
                    await ws.send(json.dumps({"type": "pass", "counter": m["counter"]}))
                else:
                    await ws.send(json.dumps({"type": "act", "action": m["view"]["legal"][0],
                                              "counter": m["counter"]}))
                mine += 1


def test_servers_starting_together_on_a_new_database_all_open_it(
        pg_url: str, tmp_path: Path) -> None:
    """Several processes started at once on an empty database each create the tables when
    they find none: the losers of that race open the database all the same."""
    for url in (pg_url, f"sqlite:///{tmp_path / 'new.db'}"):
        start = threading.Barrier(6)
        failures: list[BaseException] = []

        def open_store(url: str = url, start: threading.Barrier = start,
                       failures: list[BaseException] = failures) -> None:
            start.wait()
            try:
                Store(url).close()
            except BaseException as exc:  # reported below, with the URL
                failures.append(exc)

        threads = [threading.Thread(target=open_store) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(TIMEOUT)
        assert failures == [], f"{url}: {failures[0]!r}"
        store = Store(url)
        assert store.tables() == []
        store.close()

"""Crash and restart: ``hoola serve`` killed with SIGKILL mid-deal and started again on the same
database; the person's seat, counter and view are where they were, and the game plays on to a
record that verifies. The server runs as a real subprocess; the test waits for its port."""

from __future__ import annotations

import http.client
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx

from hoola.core.records import parse_toml, verify_text
from hoola.server.app import KEEP_ALIVE
from server_client import (
    WAIT,
    Client,
    Live,
    create_table,
    first_legal,
    free_port,
    no_internals,
    play,
    record,
    run,
    serve_in_thread,
    serve_process,
    start,
)

UVICORN_KEEP_ALIVE = 5
"""uvicorn's default seconds of keep-alive, the same as httpx's expiry of an idle connection."""


def same_place(before: dict[str, Any], after: dict[str, Any]) -> None:
    """Two state messages of one seat show the same moment of the game."""
    assert after["seat"] == before["seat"]
    assert after["counter"] == before["counter"] and after["deal"] == before["deal"]
    assert after["view"] == before["view"]
    assert after["table"]["zones"] == before["table"]["zones"]
    assert after["asked"] == before["asked"]


def test_a_killed_server_restarts_where_its_tables_were(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    port = free_port()
    live = Live(port)
    log = tmp_path / "serve.log"
    mine: list[str] = []  # the host's actions, in order

    def chooser(message: dict[str, Any]) -> str | None:
        choice = first_legal(message)
        if choice is not None:
            mine.append(choice)
        return choice

    async def until_asked_at(client: Client, counter: int) -> dict[str, Any]:
        return await play(client, chooser, until=lambda m: m["status"] == "over" or (
            m["asked"] and m["counter"] >= counter))

    async def reconnect(tid: str, token: str) -> tuple[Client, dict[str, Any]]:
        client = await Client.open(live.ws(tid), {"token": token})
        assert client.log[0]["seat"] == 0
        return client, await client.state()

    with serve_process(db, port, log) as proc:
        async def first() -> tuple[dict[str, Any], dict[str, Any]]:
            async with httpx.AsyncClient(base_url=live.http) as http:
                table = await create_table(http, "hoola", [{"bot": "expert"}] * 3, deals=2,
                                           seed=21)
                host = await Client.open(live.ws(table["table_id"]), {"token": table["token"]})
                await start(http, table)
                asked = await until_asked_at(host, 12)
                assert asked["status"] == "playing" and asked["deal"] == 1
                return table, asked
        table, before = run(first())
        proc.kill()  # SIGKILL while the table waits on the host, mid-deal
        proc.wait()
    tid, token = table["table_id"], table["token"]

    with serve_process(db, port, log) as proc:
        async def second() -> int:
            host, after = await reconnect(tid, token)
            same_place(before, after)
            # The host acts and the server dies at once, bots in the middle of their moves.
            await host.send({"type": "act", "action": chooser(after), "counter": after["counter"]})
            moved = await host.state(lambda m: m["counter"] > after["counter"])
            return int(moved["counter"])
        acted = run(second())
        proc.kill()
        proc.wait()

    with serve_process(db, port, log):
        async def third() -> str:
            host, again = await reconnect(tid, token)
            assert again["counter"] >= acted and again["status"] == "playing"
            await play(host, chooser)
            no_internals(host.log)
            async with httpx.AsyncClient(base_url=live.http) as http:
                return await record(http, tid)
        text = run(third())

    verdict = verify_text(text)
    assert verdict.ok, verdict.problems
    played = [a for deal in parse_toml(text)["deal"] for a in deal["actions"]
              if a.startswith("Host ")]
    assert played == [f"Host {a}" if not a.startswith("Host ") else a for a in mine]
    assert "Traceback" not in log.read_text()


def test_a_game_over_but_not_yet_marked_so_is_finished_on_restart(tmp_path: Path) -> None:
    """Killed between storing a game's last action and marking the table over: on restart the
    table is over (in the history, out of the lobby), not in play forever."""
    path = tmp_path / "tables.db"

    async def finish(live: Live) -> str:
        async with httpx.AsyncClient(base_url=live.http) as http:
            table = await create_table(http, "sedma", [{"bot": "expert"}], deals=1, seed=2)
            host = await Client.open(live.ws(table["table_id"]), {"token": table["token"]})
            await start(http, table)
            await play(host)
            await host.close()
            return str(table["table_id"])

    with serve_in_thread(f"sqlite:///{path}") as live:
        tid = run(finish(live))
    with sqlite3.connect(path) as db:  # the crash: the last action stored, the status not
        db.execute("UPDATE tables SET status = 'playing', finished = NULL WHERE id = ?", (tid,))

    async def look(live: Live) -> tuple[list[Any], list[Any], str]:
        async with httpx.AsyncClient(base_url=live.http) as http:
            lobby = (await http.get("/api/tables")).json()
            history = (await http.get("/api/history")).json()
            return lobby, history, await record(http, tid)

    with serve_in_thread(f"sqlite:///{path}") as live:
        lobby, history, text = run(look(live))
    assert tid not in [t["table_id"] for t in lobby]
    assert tid in [t["table_id"] for t in history]
    assert verify_text(text).ok


def test_hoola_serve_keeps_an_idle_connection_longer_than_clients_do(tmp_path: Path) -> None:
    # uvicorn closes an idle connection after 5 s by default, when httpx may still reuse it: the
    # request then meets a closing socket and fails with a read error. ``hoola serve`` keeps it
    # KEEP_ALIVE seconds; the idle time here is the subject, longer than uvicorn's default.
    port = free_port()
    with serve_process(f"sqlite:///{tmp_path / 'tables.db'}", port, tmp_path / "serve.log"):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
        try:
            conn.request("GET", "/api/games")
            first = conn.getresponse()
            assert first.status == 200 and json.loads(first.read())
            sock = conn.sock
            time.sleep(UVICORN_KEEP_ALIVE + 1.5)
            conn.request("GET", "/api/games")
            again = conn.getresponse()  # RemoteDisconnected if the server had closed it
            assert again.status == 200 and json.loads(again.read())
            assert conn.sock is sock  # the same connection, not a new one
        finally:
            conn.close()
    assert KEEP_ALIVE > UVICORN_KEEP_ALIVE + 1.5

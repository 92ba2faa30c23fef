"""The server's abuse limits and its error format, through real sockets on a loopback port: request
heads and bodies that stall or are too large, spectators and connections, chat, table creation
and the lobby under a flood, and every HTTP error as ``{code, message}`` listed in the schema.

Each test runs its own server (uvicorn in this process, with the limits' protocol class, or
``hoola serve`` itself) with small limits. Clients name other addresses with X-Forwarded-For,
which uvicorn trusts from loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import websockets

from hoola.core.errors import HoolaError
from hoola.server.app import ALWAYS, KEEP_ALIVE, STATUS, create_app
from hoola.server.limits import Buckets, Guard, LimitError, Limits, http_protocol
from hoola.server.store import Store
from server_client import (
    TRACEBACK_SIGNS,
    WAIT,
    WS_MAX_SIZE,
    Client,
    Live,
    bearer,
    create_table,
    free_port,
    hoola_command,
    run,
    start,
    wait_port,
)


@contextlib.contextmanager
def serve(tmp_path: Path, limits: Limits) -> Iterator[Live]:
    """The app under uvicorn in this process with ``limits`` (its protocol class too), on a
    free loopback port, until the block ends."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    store = Store(f"sqlite:///{tmp_path / 'tables.db'}")
    app = create_app(store, limits=limits)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, log_level="warning", ws_max_size=WS_MAX_SIZE, lifespan="on",
                            timeout_keep_alive=KEEP_ALIVE, http=http_protocol(limits),
                            forwarded_allow_ips="127.0.0.1")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])),
                              daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + WAIT
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError("the in-process server did not start")
            time.sleep(0.01)
        yield Live(sock.getsockname()[1], store, app)
    finally:
        server.should_exit = True
        thread.join(WAIT)
        sock.close()
        store.close()


def from_address(address: str) -> dict[str, str]:
    """The header that makes a request come from ``address`` (trusted from loopback)."""
    return {"X-Forwarded-For": address}


async def connect(live: Live, tid: str, hello: dict[str, Any] | None = None,
                  address: str | None = None) -> tuple[Client, dict[str, Any] | None]:
    """A WebSocket client of table ``tid`` (from ``address``), and its first answer: the
    welcome or an error (None without a hello)."""
    ws = await websockets.connect(live.ws(tid), max_size=None, open_timeout=WAIT,
                                  additional_headers=from_address(address) if address else None)
    client = Client(ws)
    if hello is None:
        return client, None
    await client.send({"type": "hello", **hello})
    return client, await client.expect(lambda m: m["type"] in ("welcome", "error"))


async def open_raw(live: Live, data: bytes = b"") -> tuple[asyncio.StreamReader,
                                                           asyncio.StreamWriter]:
    """A plain TCP connection to the server, ``data`` sent on it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", live.port)
    if data:
        writer.write(data)
        await writer.drain()
    return reader, writer


async def until_closed(reader: asyncio.StreamReader, timeout: float = WAIT) -> bytes:
    """Everything the server sends until it closes the connection (failing after
    ``timeout``)."""
    async def drain() -> bytes:
        data = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := await reader.read(65536):
                data += chunk
        return data
    return await asyncio.wait_for(drain(), timeout)


def answer(data: bytes) -> tuple[int, dict[str, Any]]:
    """A raw HTTP answer's status and JSON body."""
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), json.loads(body)


async def read_answer(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """One HTTP answer (with a Content-Length) off a kept-alive connection."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    length = next(int(v) for k, _, v in (line.partition(": ") for line in lines[1:])
                  if k.lower() == "content-length")
    return int(lines[0].split(" ")[1]), await reader.readexactly(length)


def is_error(status: int, body: Any) -> None:
    """An HTTP error's body: a code and a one-line message, nothing else, no traceback."""
    assert isinstance(body, dict) and set(body) == {"code", "message"}, (status, body)
    assert isinstance(body["code"], str) and body["code"], body
    assert isinstance(body["message"], str) and body["message"], body
    assert "\n" not in body["message"], body
    for sign in TRACEBACK_SIGNS:
        assert sign not in body["message"], body


HEAD = b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
GAME = {"game": "hoola", "name": "Host", "seats": [{"bot": "expert"}]}


# -- request heads and bodies ---------------------------------------------------------------------

def test_a_request_head_that_stalls_is_closed_and_nothing_else_is(tmp_path: Path) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            table = await create_table(http, "hoola", [{"bot": "expert"}])
        watcher, welcome = await connect(live, table["table_id"], {"invite": table["invite"]})
        assert welcome is not None and welcome["type"] == "welcome"
        # A connection kept alive after a whole request, then sent half of the next head.
        kept = await open_raw(live, b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
        status, _ = await read_answer(kept[0])
        assert status == 200
        kept[1].write(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
        idle = await open_raw(live, b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
        await read_answer(idle[0])
        stalled = [await open_raw(live, HEAD + b"Content-Length: 2\r\n") for _ in range(20)]
        silent = [await open_raw(live) for _ in range(5)]
        for reader, _ in (*stalled, *silent, kept):
            assert await until_closed(reader) == b""  # closed, unanswered
        # The head timer is for heads alone: a WebSocket and an idle kept-alive connection
        # opened before all the closes live on.
        await watcher.send({"type": "ping"})
        assert (await watcher.expect(lambda m: m["type"] in ("pong", "error")))["type"] == "pong"
        idle[1].write(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
        assert (await read_answer(idle[0]))[0] == 200
        for _, writer in (*stalled, *silent, kept, idle):
            writer.close()
        await watcher.close()

    with serve(tmp_path, Limits(head_seconds=1.0)) as live:
        run(main())


def test_a_body_too_large_is_refused_before_it_is_read(tmp_path: Path) -> None:
    async def main() -> None:
        # Said by its Content-Length: answered at once, though not a byte of it came.
        reader, writer = await open_raw(live, HEAD + b"Content-Length: 52428800\r\n\r\n")
        status, body = answer(await until_closed(reader))
        assert status == 413 and body["code"] == "too-large"
        is_error(status, body)
        writer.close()
        # Chunked: refused once past the limit, though the body has not ended.
        chunk = b"4000\r\n" + b" " * 0x4000 + b"\r\n"
        reader, writer = await open_raw(live, HEAD + b"Transfer-Encoding: chunked\r\n\r\n" +
                                        chunk * 5)
        status, body = answer(await until_closed(reader))
        assert status == 413 and body["code"] == "too-large"
        writer.close()
        # A head too large for the protocol's limit.
        reader, writer = await open_raw(live, HEAD + b"X-Pad: " + b"a" * 40_000 + b"\r\n")
        status, body = answer(await until_closed(reader))
        assert status == 431 and body["code"] == "too-large"
        writer.close()
        # A body of just the limit is read whole, and made into a table.
        async with httpx.AsyncClient(base_url=live.http) as http:
            text = json.dumps(GAME)
            padded = text[:-1] + " " * (64 * 1024 - len(text)) + "}"
            r = await http.post("/api/tables", content=padded,
                                headers={"content-type": "application/json"})
            assert r.status_code == 200, r.text
            r = await http.post("/api/tables", content=padded + " ",
                                headers={"content-type": "application/json"})
            assert r.status_code == 413 and r.json()["code"] == "too-large"

    with serve(tmp_path, Limits()) as live:
        run(main())


def test_a_body_that_stalls_is_answered_408(tmp_path: Path) -> None:
    async def main() -> None:
        reader, writer = await open_raw(live, HEAD + b"Content-Length: 100\r\n\r\n{\"game\"")
        status, body = answer(await until_closed(reader))
        assert status == 408 and body["code"] == "timeout"
        is_error(status, body)
        writer.close()
        assert live.store is not None and not live.store.tables()

    with serve(tmp_path, Limits(body_seconds=1.0)) as live:
        run(main())


# -- spectators, connections, chat ----------------------------------------------------------------

def test_spectators_per_table_and_connections_per_address_are_limited(tmp_path: Path) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            table = await create_table(http, "hoola", [{"bot": "expert"}])
        tid, invite = table["table_id"], table["invite"]
        watchers = []
        for _ in range(3):
            client, first = await connect(live, tid, {"invite": invite})
            assert first is not None and first["type"] == "welcome", first
            watchers.append(client)
        extra, first = await connect(live, tid, {"invite": invite})
        assert first is not None and first["code"] == "too-many-spectators", first
        await extra.closed()
        # The seats still come in; then the address's sixth socket is its last.
        host, first = await connect(live, tid, {"token": table["token"]})
        assert first is not None and first["type"] == "welcome", first
        quiet = [(await connect(live, tid))[0] for _ in range(2)]
        refused, _ = await connect(live, tid)
        error = await refused.error()
        assert error["code"] == "too-many-connections" and error["message"], error
        await refused.closed()
        # Per address: another address is let in (as the host, there being no spectator slot).
        elsewhere, first = await connect(live, tid, {"token": table["token"]},
                                         address="203.0.113.9")
        assert first is not None and first["type"] == "welcome", first
        # A spectator who leaves frees the slot, once the server has seen it go.
        await watchers.pop().close()
        deadline = time.monotonic() + WAIT
        while True:
            client, first = await connect(live, tid, {"invite": invite})
            assert first is not None
            if first["type"] == "welcome":
                watchers.append(client)
                break
            assert first["code"] in ("too-many-spectators", "too-many-connections"), first
            await client.close()
            assert time.monotonic() < deadline, "the slot was never freed"
        for c in (*watchers, host, *quiet, elsewhere):
            await c.close()

    with serve(tmp_path, Limits(spectators_per_table=3, sockets_per_address=6)) as live:
        run(main())


def test_chat_is_limited_per_address_and_per_table(tmp_path: Path) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            table = await create_table(http, "hoola", [{"bot": "expert"}])
        tid, invite = table["table_id"], table["invite"]
        watcher, _ = await connect(live, tid, {"invite": invite}, address="198.51.100.1")
        host, _ = await connect(live, tid, {"token": table["token"]})
        same, _ = await connect(live, tid, {"invite": invite})  # the host's address too
        other, _ = await connect(live, tid, {"invite": invite}, address="198.51.100.2")

        async def say(client: Client, text: str) -> dict[str, Any]:
            """Send a line; the sender's own copy of it, or its refusal."""
            await client.send({"type": "chat", "text": text})
            return await client.expect(lambda m: m["type"] == "error" or (
                m["type"] == "chat" and m["text"] == text))

        for text in ("a1", "a2", "a3"):
            assert (await say(host, text))["type"] == "chat"
        for client in (host, same):  # the address's budget, whichever socket it uses
            refusal = await say(client, "a4")
            assert refusal["type"] == "error" and refusal["code"] == "rate-limited", refusal
        for text in ("b1", "b2"):
            assert (await say(other, text))["type"] == "chat"
        refusal = await say(other, "b3")  # the table's budget, though the address has some
        assert refusal["type"] == "error" and refusal["code"] == "rate-limited", refusal
        # Everything relayed to the watcher came before the pong of a ping sent after.
        await watcher.send({"type": "ping"})
        await watcher.expect(lambda m: m["type"] == "pong")
        heard = [m["text"] for m in watcher.log if m["type"] == "chat"]
        assert heard == ["a1", "a2", "a3", "b1", "b2"]
        assert live.store is not None
        assert [text for _, text in live.store.chat(tid)] == heard
        for c in (watcher, host, same, other):
            await c.close()

    limits = Limits(chat_per_minute=0.5, chat_burst=3, table_chat_per_minute=0.5,
                    table_chat_burst=5)
    with serve(tmp_path, limits) as live:
        run(main())


# -- tables and the lobby -------------------------------------------------------------------------

def test_table_creation_is_limited_per_address(tmp_path: Path) -> None:
    async def rate(live: Live) -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            for _ in range(3):
                r = await http.post("/api/tables", json=GAME, headers=from_address("192.0.2.7"))
                assert r.status_code == 200, r.text
            r = await http.post("/api/tables", json=GAME, headers=from_address("192.0.2.7"))
            assert r.status_code == 429 and r.json()["code"] == "rate-limited", r.text
            is_error(429, r.json())
            assert int(r.headers["retry-after"]) >= 1
            r = await http.post("/api/tables", json=GAME, headers=from_address("192.0.2.8"))
            assert r.status_code == 200, r.text
            assert live.store is not None and len(live.store.tables()) == 4

    async def waiting(live: Live) -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            made = []
            for _ in range(2):
                r = await http.post("/api/tables", json=GAME, headers=from_address("192.0.2.7"))
                assert r.status_code == 200, r.text
                made.append(r.json())
            r = await http.post("/api/tables", json=GAME, headers=from_address("192.0.2.7"))
            assert r.status_code == 429 and r.json()["code"] == "rate-limited", r.text
            assert "waiting" in r.json()["message"]
            await start(http, made[0])  # one waits no more: room for another
            r = await http.post("/api/tables", json=GAME, headers=from_address("192.0.2.7"))
            assert r.status_code == 200, r.text

    with serve(tmp_path / "rate", Limits(tables_per_minute=0.5, tables_burst=3,
                                         waiting_tables_per_address=0)) as live:
        run(rate(live))
    with serve(tmp_path / "waiting", Limits(tables_per_minute=0,
                                            waiting_tables_per_address=2)) as live:
        run(waiting(live))


def test_the_lobby_keeps_other_tables_through_one_address_flood(tmp_path: Path) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http, timeout=WAIT) as http:
            async def make(address: str, **spec: Any) -> dict[str, Any]:
                r = await http.post("/api/tables", json={**GAME, "public": True, **spec},
                                    headers=from_address(address))
                assert r.status_code == 200, r.text
                return dict(r.json())

            playing = await make("192.0.2.1", bot_delay=10)  # slow bots: it stays in play
            await start(http, playing)
            theirs = [await make("192.0.2.2") for _ in range(3)]
            host, _ = await connect(live, theirs[0]["table_id"], {"token": theirs[0]["token"]},
                                    address="192.0.2.2")
            await host.state()  # counted as connected by then
            flood: list[dict[str, Any]] = []
            for _ in range(25):
                flood += await asyncio.gather(*(make("192.0.2.66") for _ in range(10)))
            newest = [await make("192.0.2.66") for _ in range(2)]
            listed = {t["table_id"] for t in (await http.get("/api/tables")).json()}
            assert playing["table_id"] in listed
            assert {t["table_id"] for t in theirs} <= listed  # one with people, two newest
            assert {t["table_id"] for t in flood + newest} & listed == {
                t["table_id"] for t in newest}
            await host.close()
        # The database file and its write-ahead log: the creators' hashes, no address.
        stored = b"".join(p.read_bytes() for p in tmp_path.glob("tables.db*"))
        for address in (b"192.0.2.1", b"192.0.2.2", b"192.0.2.66"):
            assert address not in stored

    limits = Limits(tables_per_minute=0, waiting_tables_per_address=0,
                    lobby_waiting_per_creator=2)
    with serve(tmp_path, limits) as live:
        run(main())


# -- errors ----------------------------------------------------------------------------------------

async def asking(http: httpx.AsyncClient, method: str, path: str,
                 body: bytes | None) -> httpx.Response:
    """The answer to one request. A body past the limit is refused (413) and the connection
    closed while the client may still be writing it, and a connection the server has closed
    may still be in the client's pool: on a loaded machine the client then sees a reset before
    an answer, so a request is asked again on a new connection, a few times at most."""
    for _ in range(4):
        try:
            return await http.request(method, path, content=body, headers={
                "content-type": "application/json", **bearer("not-a-token")})
        except httpx.TransportError:
            continue
    raise AssertionError(f"{method} {path}: the connection failed every time")


def test_every_http_error_is_a_code_and_a_message_the_schema_lists(tmp_path: Path) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http, timeout=WAIT) as http:
            schema = (await http.get("/openapi.json")).json()
            table = await create_table(http, "hoola", [{"bot": "expert"}])
            tid = table["table_id"]
            paths = ["/api/games", "/api/tables", "/api/history", f"/api/tables/{tid}",
                     f"/api/tables/{tid}/join", f"/api/tables/{tid}/start",
                     f"/api/tables/{tid}/seats/1/bot", f"/api/tables/{tid}/seats/x/bot",
                     f"/api/tables/{tid}/leave", f"/api/tables/{tid}/record",
                     f"/api/tables/{tid}/replay?step=x", f"/api/tables/{tid}/hint",
                     "/api/tables/nope", "/api/tables/nope/join", "/api/tables/nope/record",
                     "/nowhere", "/api/tables/x/y/z", "/static/nothing.js"]
            bodies: list[bytes | None] = [
                None, b"[", b"[" * 5000 + b"]" * 5000, b"{}", b"\xff\xfe", b'{"bot": 5}',
                b'{"invite": "wrong", "name": "X"}', b" " * (64 * 1024 + 1)]
            seen: set[tuple[int, str]] = set()
            requests = [*itertools.product(("GET", "POST"), paths, bodies),
                        *itertools.product(("PUT", "DELETE", "OPTIONS"), paths, [None])]
            for method, path, body in requests:
                r = await asking(http, method, path, body)
                if r.status_code < 400:
                    continue
                is_error(r.status_code, r.json())
                seen.add((r.status_code, r.json()["code"]))
                if r.status_code == 405:
                    assert r.headers["allow"], path
                operation = route_of(schema, method, path)
                if operation is not None:
                    assert str(r.status_code) in operation["responses"], (method, path, r.text)
            # And one of each kind was met, with its own code.
            assert {(400, "bad-json"), (405, "method-not-allowed"), (404, "not-found"),
                    (404, "no-table"), (422, "bad-request"), (413, "too-large"),
                    (403, "bad-token"), (403, "not-host"), (400, "not-over")} <= seen, seen
            for _ in range(2):  # past the creation limit
                r = await http.post("/api/tables", json=GAME, headers=from_address("192.0.2.9"))
            assert r.status_code == 429
            is_error(429, r.json())
        reader, writer = await open_raw(live, b"NOT HTTP AT ALL\r\n\r\n")
        status, body = answer(await until_closed(reader))
        assert status == 400
        is_error(status, body)
        writer.close()

    with serve(tmp_path, Limits(tables_per_minute=0.5, tables_burst=1)) as live:
        run(main())


def route_of(schema: dict[str, Any], method: str, url: str) -> dict[str, Any] | None:
    """The schema's operation that answers ``method`` on ``url`` (None: no such one)."""
    path = url.partition("?")[0].split("/")
    for template, operations in schema["paths"].items():
        parts = template.split("/")
        if len(parts) == len(path) and all(p == q or (p.startswith("{") and q)
                                           for p, q in zip(parts, path, strict=True)):
            found = operations.get(method.lower())
            if found is not None:
                return dict(found)
    return None


EXPECTED = {
    ("post", "/api/tables"): {400, 422, 429, 503},
    ("get", "/api/tables"): {503},
    ("get", "/api/history"): {503},
    ("get", "/api/tables/{tid}"): {404, 503},
    ("post", "/api/tables/{tid}/join"): {400, 404, 422, 503},
    ("post", "/api/tables/{tid}/start"): {400, 403, 404, 503},
    ("post", "/api/tables/{tid}/seats/{seat}/bot"): {400, 403, 404, 422, 503},
    ("post", "/api/tables/{tid}/leave"): {400, 403, 503},
    ("get", "/api/tables/{tid}/record"): {400, 404, 503},
    ("get", "/api/tables/{tid}/replay"): {400, 403, 404, 422, 503},
    ("get", "/api/tables/{tid}/hint"): {400, 403, 404, 503},
    ("get", "/api/games"): set(),
    ("get", "/api/origin"): set(),
}
"""What each route may answer besides :data:`~hoola.server.app.ALWAYS`."""


def test_the_schema_lists_every_route_s_errors_as_code_and_message(tmp_path: Path) -> None:
    async def main() -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=live.http) as http:
            return dict((await http.get("/openapi.json")).json())

    with serve(tmp_path, Limits()) as live:
        schema = run(main())
    error = schema["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"code", "message"}
    assert {error["properties"][k]["type"] for k in ("code", "message")} == {"string"}
    assert "HTTPValidationError" not in json.dumps(schema)
    operations = {(m, p): op for p, ops in schema["paths"].items() for m, op in ops.items()}
    assert set(EXPECTED) <= set(operations)
    for (method, path), op in operations.items():
        statuses = {int(s) for s in op["responses"] if int(s) >= 400}
        assert statuses >= {*ALWAYS, *EXPECTED.get((method, path), ())}, (method, path)
        for status in statuses:
            answer = op["responses"][str(status)]
            if (method, path, status) == ("get", "/health", 503):
                continue  # a health check's own answer, not an error
            assert answer["content"] == {"application/json": {"schema": {
                "$ref": "#/components/schemas/Error"}}}, (method, path, status)
            assert answer["description"], (method, path, status)


@pytest.mark.parametrize(("code", "status"), [
    ("unavailable", 503), ("rate-limited", 429), ("too-large", 413), ("no-table", 404),
    ("not-host", 403), ("anything-else", 400)])
def test_a_refusal_s_code_sets_its_status(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          code: str, status: int) -> None:
    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise HoolaError("refused for the test", code)

    with serve(tmp_path, Limits()) as live:
        monkeypatch.setattr(live.store, "tables", refuse)
        r = httpx.get(f"{live.http}/api/tables", timeout=WAIT)
    assert r.status_code == status == STATUS.get(code, 400)
    assert r.json() == {"code": code, "message": "refused for the test"}


# -- the limits themselves, and hoola serve's options -------------------------------------------

def test_tournament_creation_is_limited_per_address(tmp_path: Path) -> None:
    cup = {"format": "swiss", "game": "sedma", "entrants": 4, "bots": "random"}

    async def rate(live: Live) -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            for _ in range(2):
                r = await http.post("/api/tournaments", json=cup,
                                    headers=from_address("192.0.2.7"))
                assert r.status_code == 200, r.text
            r = await http.post("/api/tournaments", json=cup, headers=from_address("192.0.2.7"))
            assert r.status_code == 429 and r.json()["code"] == "rate-limited", r.text
            assert "tournaments an hour" in r.json()["message"]
            r = await http.post("/api/tournaments", json=cup, headers=from_address("192.0.2.8"))
            assert r.status_code == 200, r.text
            listed = (await http.get("/api/tournaments")).json()
            assert len(listed) == 3  # the refused one was never made
            for _ in range(3):  # a bad one is refused as bad and never counted
                r = await http.post("/api/tournaments", json={**cup, "format": "ladder"},
                                    headers=from_address("192.0.2.9"))
                assert r.status_code in (400, 422), r.text
            r = await http.post("/api/tournaments", json=cup, headers=from_address("192.0.2.9"))
            assert r.status_code == 200, r.text

    with serve(tmp_path / "cups", Limits(tournaments_per_hour=1, tournaments_burst=2)) as live:
        run(rate(live))


def test_an_account_has_its_share_wherever_it_writes_from() -> None:
    """Chat and tournaments count per account as well as per address: a signed-in account
    moving between addresses gets no more; a refused line or tournament counts nothing."""
    guard = Guard(Limits(chat_per_minute=0.01, chat_burst=2, tournaments_per_hour=0.01,
                         tournaments_burst=2))
    guard.chat("192.0.2.1", "t1", "ann")
    guard.chat("192.0.2.2", "t2", "ann")
    with pytest.raises(LimitError, match="chat lines a minute from one address or account"):
        guard.chat("192.0.2.3", "t3", "ann")
    guard.chat("192.0.2.3", "t3", "bob")  # the refusal counted nothing against the address
    guard.made_tournament("192.0.2.1", "ann")
    guard.may_make_tournament("192.0.2.2", "ann")
    guard.made_tournament("192.0.2.2", "ann")
    with pytest.raises(LimitError, match="tournaments an hour"):
        guard.may_make_tournament("192.0.2.3", "ann")
    guard.may_make_tournament("192.0.2.3")


def test_limits_are_checked_and_parsed() -> None:
    assert Limits.parse({"tables_burst": "5", "body_seconds": "2.5"}) == Limits(
        tables_burst=5, body_seconds=2.5)
    for pairs in ({"nope": "1"}, {"chat_burst": "1.5"}, {"chat_burst": "-1"},
                  {"head_seconds": "nan"}, {"tables_burst": "0"}):
        with pytest.raises(ValueError, match=r"limit|tables_per_minute"):
            Limits.parse(pairs)
    assert Limits.parse({"tables_per_minute": "0", "tables_burst": "0"}).tables_burst == 0
    off = Buckets(per_second=0, burst=0)
    assert all(off.take("a") for _ in range(1000))


def test_hoola_serve_enforces_its_limit_options(tmp_path: Path) -> None:
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep +
               os.environ.get("PATH", ""))
    bad = subprocess.run([*hoola_command(), "serve", "--limit", "tables_per_minit=5"],
                         capture_output=True, text=True, env=env, timeout=WAIT)
    assert bad.returncode == 2 and "no limit 'tables_per_minit'" in bad.stderr
    assert "Traceback" not in bad.stderr

    port = free_port()
    log = (tmp_path / "serve.log").open("wb")
    proc = subprocess.Popen([*hoola_command(), "serve", "--port", str(port), "--db",
                             f"sqlite:///{tmp_path / 't.db'}", "--limit", "head_seconds=1",
                             "--limit", "tables_burst=1", "--limit", "tables_per_minute=0.5"],
                            stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        wait_port(port, proc=proc)

        async def main() -> None:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(HEAD)
            assert await until_closed(reader) == b""
            writer.close()
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
                assert (await http.post("/api/tables", json=GAME)).status_code == 200
                r = await http.post("/api/tables", json=GAME)
                assert r.status_code == 429 and r.json()["code"] == "rate-limited"

        run(main())
    finally:
        proc.kill()
        proc.wait(WAIT)
        log.close()

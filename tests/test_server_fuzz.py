"""Fuzzing the server's protocol: messages of every shape (Hypothesis) and hand-written nasties
(malformed, binary, oversized, deeply nested, replayed, foreign, floods) on a live table. Every
one is answered with an error (or, past the WebSocket frame limit, the socket is closed), nothing
changes, no reply shows a traceback, and the table still plays to a record that verifies.

The tests share one started table (two people and a spectator) and run in file order: the
fuzzing seat is the one *not* to act, so no message of its can move the game; the last test plays
the table to its end.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from unittest.mock import patch

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hoola.core.records import verify_text
from hoola.server import socket as play_socket
from hoola.server.limits import Limits
from server_client import (
    TRACEBACK_SIGNS,
    Client,
    Live,
    LoopThread,
    create_table,
    join,
    no_internals,
    play,
    record,
    serve_in_thread,
    start,
)

EXAMPLES = min(150, settings().max_examples)  # each one is a round trip through the server


@dataclass
class Table:
    """The shared table: its id and invite, the seats' tokens and sockets, who fuzzes."""

    live: Live
    loop: LoopThread
    tid: str
    invite: str
    tokens: dict[int, str]
    clients: dict[int, Client]
    watcher: Client
    mover: int
    idle: int
    counter: int

    def stored(self) -> int:
        assert self.live.store is not None
        return len(self.live.store.actions(self.tid))


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    """A started two-person Hoola table with a spectator, on its own in-process server."""
    path = tmp_path_factory.mktemp("fuzz") / "tables.db"
    loop = LoopThread()
    # Every exchange ends with a chat line as its marker: hundreds a minute from one address.
    unlimited_chat = Limits(chat_per_minute=0, table_chat_per_minute=0)
    with serve_in_thread(f"sqlite:///{path}", limits=unlimited_chat) as live:
        async def setup() -> Table:
            async with httpx.AsyncClient(base_url=live.http) as http:
                made = await create_table(http, "hoola", [{}], deals=1, seed=8)
                guest = await join(http, made, "Guest")
                tokens = {0: made["token"], 1: guest["token"]}
                tid = made["table_id"]
                clients = {q: await Client.open(live.ws(tid), {"token": tokens[q]})
                           for q in (0, 1)}
                watcher = await Client.open(live.ws(tid), {"invite": made["invite"]})
                await start(http, made)
                now = await clients[0].state(lambda m: m["status"] == "playing")
                mover = now["moment"]["actors"][0]
                return Table(live, loop, tid, made["invite"], tokens, clients, watcher, mover,
                             1 - mover, now["counter"])
        shared = loop.call(setup())
        yield shared

        async def teardown() -> None:
            for c in (*shared.clients.values(), shared.watcher):
                await c.close()
        loop.call(teardown())
    loop.close()


_sync = itertools.count()


async def exchange(client: Client, frame: str | bytes) -> list[dict[str, Any]]:
    """Send a frame, then a chat line that marks the end: every reply in between."""
    marker = f"sync-{next(_sync)}"
    await client.send_raw(frame)
    await client.send({"type": "chat", "text": marker})
    replies = []
    while True:
        message = await client.next()
        if message["type"] == "chat" and message["text"] == marker:
            return replies
        replies.append(message)


def sound(replies: list[dict[str, Any]]) -> None:
    """Replies are errors with a code and a one-line message, or ordinary messages."""
    for m in replies:
        assert m["type"] in ("error", "pong", "state", "chat"), m
        if m["type"] == "error":
            assert set(m) == {"type", "code", "message"}, m
            assert m["code"] != "internal", m
            assert isinstance(m["message"], str) and "\n" not in m["message"], m
            assert len(m["message"]) < 300, m
    no_internals(replies)


# -- strategies -----------------------------------------------------------------------------------

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12)
types = st.sampled_from(["act", "pass", "chat", "state", "ping", "hello", "welcome", "error",
                         "", "ACT", "act "]) | values
notations = st.sampled_from(["draw", "Host draw", "Guest draw", "discard 7s", "Guest discard 7s",
                             "Host discard 7s", "take 5s with 5h 5d", "meld 2c 3c 4c", "hoola",
                             "  ", "\x00draw", "draw draw", "Host", "Guest take", "x" * 300])


def messages(counter: int) -> st.SearchStrategy[Any]:
    """Message-shaped JSON: a type and any of the fields, each right, wrong or absent."""
    counters = st.sampled_from([counter, counter - 1, counter + 1, 0, -1, 10**30]) | values
    return st.fixed_dictionaries({}, optional={
        "type": types, "action": notations | st.text(max_size=40) | values,
        "counter": counters, "text": values, "token": values, "invite": values})


def frames(counter: int) -> st.SearchStrategy[str | bytes]:
    """A frame: a message, any JSON, any text, any bytes."""
    return st.one_of(messages(counter).map(json.dumps), values.map(json.dumps),
                     st.text(max_size=100), st.binary(max_size=100))


# -- Hypothesis -----------------------------------------------------------------------------------

def test_any_message_in_play_is_refused_and_changes_nothing(table: Table) -> None:
    stored = table.stored()

    @settings(max_examples=EXAMPLES)
    @given(frame=frames(table.counter), spectator=st.booleans())
    def check(frame: str | bytes, spectator: bool) -> None:
        client = table.watcher if spectator else table.clients[table.idle]
        replies = table.loop.call(exchange(client, frame))
        sound(replies)
        assert table.live.counter(table.tid) == table.counter
        assert table.stored() == stored
        assert client.close_code is None

    with patch.object(play_socket, "RATE", 1e6), patch.object(play_socket, "BURST", 10**6):
        check()


def test_any_first_message_is_a_hello_or_refused(table: Table) -> None:
    hellos = st.fixed_dictionaries({"type": st.just("hello")}, optional={
        "token": st.sampled_from([table.tokens[0], table.tokens[0][:-1], ""]) | values,
        "invite": st.sampled_from([table.invite, table.invite.upper(), ""]) | values})

    async def first(frame: str | bytes) -> tuple[list[dict[str, Any]], int | None]:
        client = await Client.open(table.live.ws(table.tid), pace=False)
        await client.send_raw(frame)
        replies = [await client.next()]
        if replies[0]["type"] == "welcome":
            await client.close()
            return replies, None
        code = await client.closed()
        return client.log, code

    @settings(max_examples=EXAMPLES // 2)
    @given(frame=hellos.map(json.dumps) | frames(table.counter))
    def check(frame: str | bytes) -> None:
        replies, _code = table.loop.call(first(frame))
        if replies[0]["type"] == "welcome":
            return
        sound(replies)
        assert replies and all(m["type"] == "error" for m in replies)

    with patch.object(play_socket, "RATE", 1e6), patch.object(play_socket, "BURST", 10**6):
        check()
    assert table.live.counter(table.tid) == table.counter


def test_http_requests_of_any_shape_get_a_one_line_error(table: Table) -> None:
    paths = st.sampled_from(["/api/tables", f"/api/tables/{table.tid}/join",
                             f"/api/tables/{table.tid}/start", f"/api/tables/{table.tid}/leave",
                             f"/api/tables/{table.tid}/seats/1/bot", "/api/tables/x/join",
                             f"/api/tables/{table.tid}/seats/x/bot"])
    bodies = st.fixed_dictionaries({}, optional={
        "game": st.sampled_from(["hoola", "kalookie", "sedma", "nope"]) | values,
        "preset": values, "options": st.dictionaries(st.sampled_from(
            ["claims", "target", "pool", "x"]), values, max_size=2) | values,
        "name": values, "seats": st.lists(st.fixed_dictionaries({}, optional={
            "bot": st.sampled_from(["expert", "random", "nope"]) | values, "name": values}),
            max_size=8) | values,
        "deals": values, "claim_seconds": values, "turn_seconds": values, "bot_delay": values,
        "bot_reaction": values, "seed": values, "public": values,
        "invite": st.just(table.invite) | values, "seat": values, "bot": values}) | values

    http = httpx.Client(base_url=table.live.http)

    @settings(max_examples=EXAMPLES // 2)
    @given(path=paths, body=bodies, auth=st.sampled_from([None, "Bearer x", "Basic y", "Bearer"]))
    def check(path: str, body: Any, auth: str | None) -> None:
        headers = {"Authorization": auth} if auth else {}
        r = http.post(path, content=json.dumps(body), headers={
            "content-type": "application/json", **headers})
        assert r.status_code in (200, 400, 403, 404, 422), (r.status_code, r.text)
        for sign in TRACEBACK_SIGNS:
            assert sign not in r.text
        if r.status_code != 200:
            error = r.json()
            assert set(error) == {"code", "message"} and "\n" not in error["message"], r.text

    with http:
        check()
    assert table.live.counter(table.tid) == table.counter


# -- hand-written nasties -------------------------------------------------------------------------

def test_http_nasties_get_a_one_line_error(table: Table) -> None:
    cases: list[tuple[str, str]] = [
        ('{"game": "hoola", "seats": [{}], "claim_seconds": NaN}', "claim_seconds"),
        ('{"game": "hoola", "seats": [{}], "turn_seconds": Infinity}', "turn_seconds"),
        ('{"game": "hoola", "seats": [{}], "bot_reaction": [0, 1e308]}', "bot_reaction.1"),
        ('{"game": "hoola", "seats": [{}], "bot_reaction": [-1, 0]}', "bot_reaction.0"),
        ('{"game": "hoola", "seats": [{}], "bot_reaction": [0]}', "bot_reaction.1"),
        ('{"game": 5}', "game"), ("[", "body: JSON"), ("[]", "body"),
        ('{"game": "hoola", "seats": "x"}', "seats")]
    with httpx.Client(base_url=table.live.http) as http:
        for body, where in cases:
            r = http.post("/api/tables", content=body,
                          headers={"content-type": "application/json"})
            assert r.status_code == 422, (body, r.text)
            error = r.json()
            assert error["code"] == "bad-request" and error["message"].startswith(where), error
            assert "\n" not in error["message"]



def test_malformed_binary_and_nested_frames_get_errors(table: Table) -> None:
    nested = 1900  # within the 4 KiB limit, deeper than the JSON parser goes
    cases: list[tuple[str | bytes, str]] = [
        ("{", "bad-json"), ("nul", "bad-json"), ('"text"', "bad-json"), ("[1, 2]", "bad-json"),
        ("null", "bad-json"), ("", "bad-json"), ('{"type": "\\udc80"}', "bad-type"),
        ('{"type": "act", "action": "draw", "counter": 1,}', "bad-json"),
        (b"\x00\x01\x02", "binary-frame"), (b'{"type": "ping"}', "binary-frame"),
        ("[" * nested + "]" * nested, "bad-json"),
        ('{"type": "act", "action": ' + "[" * nested + "]" * nested + "}", "bad-json"),
        ('{"a":' * 600 + "1" + "}" * 600, "bad-type"),
        (json.dumps({"type": "act", "action": "draw", "counter": 10**30}), "stale"),
        (json.dumps({"type": "act", "action": {"nested": [[[["draw"]]]]}}), "bad-action"),
        (json.dumps({"type": ["act"], "action": "draw"}), "bad-type"),
    ]
    client = table.clients[table.idle]
    for frame, code in cases:
        replies = table.loop.call(exchange(client, frame))
        sound(replies)
        assert [m["code"] for m in replies if m["type"] == "error"] == [code], (frame, replies)
    assert table.live.counter(table.tid) == table.counter


def test_oversized_messages_are_refused_or_cut_off(table: Table) -> None:
    client = table.clients[table.idle]
    big = json.dumps({"type": "chat", "text": "x" * 5000})
    replies = table.loop.call(exchange(client, big))
    assert [m["code"] for m in replies if m["type"] == "error"] == ["too-large"]
    wide = "é" * 2100  # under 4096 characters, over 4096 bytes
    replies = table.loop.call(exchange(client, json.dumps({"type": "chat", "text": wide},
                                                          ensure_ascii=False)))
    assert [m["code"] for m in replies if m["type"] == "error"] == ["too-large"]

    async def huge() -> int | None:
        await client.send_raw(json.dumps({"type": "chat", "text": "y" * 70_000}))
        return await client.closed()

    assert table.loop.call(huge()) == 1009  # past the frame limit: the socket is closed

    async def back() -> dict[str, Any]:
        table.clients[table.idle] = await Client.open(table.live.ws(table.tid),
                                                      {"token": table.tokens[table.idle]})
        return await table.clients[table.idle].state()

    again = table.loop.call(back())
    assert again["counter"] == table.counter and again["seat"] == table.idle
    assert table.live.counter(table.tid) == table.counter


def test_a_flood_is_rate_limited_and_the_socket_lives_on(table: Table) -> None:
    client = table.clients[table.idle]

    async def flood() -> tuple[int, int]:
        client.pace = False
        for _ in range(80):
            await client.send({"type": "ping"})
        pongs = limited = 0
        while pongs + limited < 80:
            m = await client.next()
            if m["type"] == "pong":
                pongs += 1
            elif m["type"] == "error":
                assert m["code"] == "rate-limited", m
                limited += 1
        client.pace = True
        client.tokens = 0  # let the budget fill again before the next message
        await client.send({"type": "ping"})
        await client.expect(lambda m: m["type"] == "pong")
        return pongs, limited

    pongs, limited = table.loop.call(flood())
    assert limited > 0 and pongs >= play_socket.BURST - 1
    assert client.close_code is None


def test_the_table_still_plays_to_the_end_after_replays_and_foreign_actions(
        table: Table) -> None:
    async def main() -> str:
        mover = table.clients[table.mover]
        idle = table.clients[table.idle]
        names = (await mover.fresh_state())["names"]
        sent: list[dict[str, Any]] = []
        for _ in range(3):  # a few real moves, kept to replay
            now = await mover.fresh_state()
            assert now["asked"], now
            # A move that keeps the turn (draw, meld, add) while there is one: a discard ends it.
            legal = now["view"]["legal"]
            action = next((a for a in legal if " discard " not in a), legal[0])
            move = {"type": "act", "action": action, "counter": now["counter"]}
            await mover.send(move)
            sent.append(move)
            await mover.state(lambda m, c=now["counter"]: m["counter"] > c)
        counter = table.live.counter(table.tid)
        stored = table.stored()
        for move in sent:
            await mover.send(move)
            assert (await mover.error())["code"] == "stale"
        await idle.send({"type": "act", "action": f"{names[table.mover]} draw",
                         "counter": counter})
        assert (await idle.error())["code"] in ("out-of-turn", "not-your-seat")
        assert table.live.counter(table.tid) == counter and table.stored() == stored
        await asyncio.gather(play(mover), play(idle),
                             table.watcher.state(lambda m: m["status"] == "over"))
        async with httpx.AsyncClient(base_url=table.live.http) as http:
            return await record(http, table.tid)

    text = table.loop.call(main())
    verdict = verify_text(text)
    assert verdict.ok, verdict.problems
    for c in (*table.clients.values(), table.watcher):
        no_internals(c.log)

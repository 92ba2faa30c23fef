"""The server's protocol through real sockets: every game played to its record, people joining by
invite, spectators, reconnection, leaving, seats given to bots, chat, every refusal, claim windows
and turn timers. The server runs in this process under uvicorn on a free loopback port."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from hoola.core.records import verify_text
from hoola.core.registry import get_game
from server_client import (
    TOLERATE,
    WAIT,
    Client,
    Closed,
    Live,
    bearer,
    create_table,
    join,
    no_internals,
    play,
    record,
    run,
    serve_in_thread,
    start,
)

GAMES = [("hoola", 4), ("kalookie", 3), ("sedma", 2), ("hola", 4)]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    """One in-process server for the module."""
    path = tmp_path_factory.mktemp("protocol") / "tables.db"
    with serve_in_thread(f"sqlite:///{path}") as server:
        yield server


def verified(text: str) -> None:
    verdict = verify_text(text)
    assert verdict.ok, verdict.problems


def hand_cards(message: dict[str, Any]) -> list[str]:
    return list(message["view"]["hand"])


def sees_no_hands(message: dict[str, Any]) -> bool:
    """A spectator's table shows no hand's cards while the deal is on."""
    zones = message["table"]["zones"] if message["table"] else []
    return all(z["cards"] is None for z in zones if z["kind"] == "hand")


# -- every game, to the end ---------------------------------------------------------------------

@pytest.mark.parametrize(("game", "n"), GAMES)
def test_two_people_bots_and_a_spectator_play_a_deal_to_a_record(live: Live, game: str,
                                                                 n: int) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            table = await create_table(http, game, [{}] + [{"bot": "expert"}] * (n - 2),
                                       deals=1, seed=7)
            tid = table["table_id"]
            guest = await join(http, table, "Guest")
            assert guest["seat"] == 1
            host_ws = await Client.open(live.ws(tid), {"token": table["token"]})
            guest_ws = await Client.open(live.ws(tid), {"token": guest["token"]})
            watcher = await Client.open(live.ws(tid), {"invite": table["invite"]})
            assert [c.log[0]["seat"] for c in (host_ws, guest_ws, watcher)] == [0, 1, None]
            await start(http, table)
            last_host, last_guest, last_watch = await asyncio.gather(
                play(host_ws), play(guest_ws),
                watcher.state(lambda m: m["status"] == "over"))
            assert last_host["counter"] == last_guest["counter"] == last_watch["counter"]
            assert last_host["scoreboard"] is not None and last_watch["view"] is None
            text = await record(http, tid)
            verified(text)
            assert "Host" in text and "Guest" in text
            states = [m for m in watcher.log if m["type"] == "state" and m["status"] == "playing"]
            assert states and all(sees_no_hands(m) for m in states)
            for seat, client in ((0, host_ws), (1, guest_ws)):
                mine = [m for m in client.log if m["type"] == "state" and m["view"]]
                assert mine and all(m["seat"] == seat and m["view"]["player"] == seat
                                    for m in mine)
            for client in (host_ws, guest_ws, watcher):
                no_internals(client.log)
                await client.close()
            history = (await http.get("/api/history")).json()
            assert tid in [t["table_id"] for t in history]
    run(main())


def test_a_match_of_several_deals_keeps_a_running_score(live: Live) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            table = await create_table(http, "hoola", [{"bot": "expert"}] * 2, deals=3, seed=11)
            host = await Client.open(live.ws(table["table_id"]), {"token": table["token"]})
            await start(http, table)
            last = await play(host)
            assert last["deal"] == 3 and last["scoreboard"]["scores"]
            deals = {m["deal"] for m in host.log if m["type"] == "state" and m["deal"]}
            assert deals == {1, 2, 3}
            text = await record(http, table["table_id"])
            verified(text)
            assert text.count("[[deal]]") == 3
            await host.close()
    run(main())


# -- reconnection -------------------------------------------------------------------------------

def test_a_reconnected_seat_gets_the_same_seat_counter_and_view(live: Live) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            table = await create_table(http, "hoola", [{}], deals=1, seed=5)
            tid = table["table_id"]
            guest = await join(http, table, "Guest")
            tokens = {0: table["token"], 1: guest["token"]}
            clients = {q: await Client.open(live.ws(tid), {"token": tokens[q]}) for q in (0, 1)}
            await start(http, table)
            first = await clients[0].state(lambda m: m["status"] == "playing")
            mover = first["moment"]["actors"][0]
            idle = 1 - mover
            # The idle seat drops and comes back while the other thinks: nothing has changed.
            before = await clients[idle].state(lambda m: m["status"] == "playing"
                                               and m["counter"] == first["counter"])
            assert not before["asked"]
            await clients[idle].close()
            clients[idle] = await Client.open(live.ws(tid), {"token": tokens[idle]})
            assert clients[idle].log[0]["seat"] == idle
            after = await clients[idle].state()
            assert after["counter"] == before["counter"] and after["seat"] == idle
            assert after["view"] == before["view"] and hand_cards(after) == hand_cards(before)
            assert after["table"]["zones"] == before["table"]["zones"]
            # The seat to act drops: a bot plays for it at once, and it comes back to that.
            await clients[mover].close()
            moved = await clients[idle].state(lambda m: m["counter"] > first["counter"])
            clients[mover] = await Client.open(live.ws(tid), {"token": tokens[mover]})
            back = await clients[mover].state()
            assert back["seat"] == mover and back["counter"] >= moved["counter"]
            await asyncio.gather(play(clients[0]), play(clients[1]))
            verified(await record(http, tid))
            for c in clients.values():
                await c.close()
    run(main())


def test_a_seat_back_before_its_stand_in_moves_keeps_its_turn(live: Live) -> None:
    """A bot stands in for a dropped person after ``bot_delay``; a person back in time plays on."""
    async def main() -> None:
        delay = 1.0
        async with httpx.AsyncClient(base_url=live.http) as http:
            table, tokens, clients = await two_people(live, http, "sedma", bot_delay=delay)
            tid = table["table_id"]
            for _attempt in range(5):
                now = await clients[0].fresh_state()
                mover, counter = now["moment"]["actors"][0], now["counter"]
                dropped = time.monotonic()
                await clients[mover].close()
                clients[mover] = await Client.open(live.ws(tid), {"token": tokens[mover]})
                back = await clients[mover].state()
                if time.monotonic() - dropped < delay / 2 and back["counter"] == counter:
                    break
                # A loaded machine: the stand-in may rightly have moved meanwhile; again.
            else:
                pytest.fail("no reconnection within half the bot delay in five attempts")
            assert back["asked"]
            with pytest.raises(TimeoutError):  # nobody moves for the person who is back
                await clients[mover].state(lambda m: m["counter"] > counter,
                                           timeout=2 * delay + 0.5)
            for c in clients.values():
                await c.close()
    run(main())


# -- leaving, seats for bots ----------------------------------------------------------------------

def test_leaving_is_queued_to_the_end_of_the_deal_then_a_bot_sits(live: Live) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            table = await create_table(http, "hoola", [{}, {"bot": "expert"}], deals=2, seed=9)
            tid = table["table_id"]
            guest = await join(http, table, "Guest")
            host_ws = await Client.open(live.ws(tid), {"token": table["token"]})
            guest_ws = await Client.open(live.ws(tid), {"token": guest["token"]})
            await start(http, table)
            await guest_ws.state(lambda m: m["status"] == "playing")
            r = await http.post(f"/api/tables/{tid}/leave", headers=bearer(guest["token"]))
            assert r.status_code == 200 and r.json()["leaving"] is True
            queued = await host_ws.state(lambda m: m["seats"][1]["leaving"])
            assert queued["deal"] == 1 and queued["seats"][1]["kind"] == "person"
            # The guest still plays its seat to the end of the deal; then a bot has it, and the
            # guest's socket is told so and closed: it sees none of the bot's cards.
            host_task = asyncio.create_task(play(host_ws))
            with pytest.raises(Closed):
                await play(guest_ws, tolerate=(*TOLERATE, "not-seated"))
            errors = [m for m in guest_ws.log if m["type"] == "error"]
            assert errors[-1]["code"] == "not-seated" and guest_ws.close_code == 1000
            assert max(m["deal"] for m in guest_ws.log if m["type"] == "state") == 1
            assert any(m["asked"] for m in guest_ws.log if m["type"] == "state"
                       and m["seats"][1]["leaving"])  # it played on after asking to leave
            final = await host_task
            assert final["seats"][1]["kind"] == "bot" and final["seats"][1]["bot"] == "expert"
            assert final["seats"][1]["name"] == "Guest" and not final["seats"][1]["leaving"]
            text = await record(http, tid)
            verified(text)
            refused = await Client.open(live.ws(tid))
            await refused.send({"type": "hello", "token": guest["token"]})
            assert (await refused.error())["code"] == "bad-token"
            for c in (host_ws, guest_ws, refused):
                await c.close()
    run(main())


def test_leaving_before_the_start_opens_the_seat_and_closes_its_socket(live: Live) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            table = await create_table(http, "sedma", [{}], deals=1, seed=3)
            tid = table["table_id"]
            guest = await join(http, table, "Guest")
            guest_ws = await Client.open(live.ws(tid), {"token": guest["token"]})
            r = await http.post(f"/api/tables/{tid}/leave", headers=bearer(guest["token"]))
            assert r.status_code == 200 and r.json()["leaving"] is False
            assert (await guest_ws.error())["code"] == "not-seated"
            await guest_ws.closed()
            assert (await http.get(f"/api/tables/{tid}")).json()["seats"][1]["kind"] == "empty"
            again = await join(http, table, "Other")
            assert again["seat"] == 1
            await guest_ws.close()
    run(main())


def test_the_host_gives_an_open_seat_to_a_bot(live: Live) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            table = await create_table(http, "sedma", [{}], deals=1, seed=4)
            tid = table["table_id"]
            r = await http.post(f"/api/tables/{tid}/start", headers=bearer(table["token"]))
            assert r.status_code == 400 and r.json()["code"] == "seat-empty"
            r = await http.post(f"/api/tables/{tid}/seats/1/bot", json={"bot": "expert"})
            assert r.status_code == 403 and r.json()["code"] == "not-host"
            r = await http.post(f"/api/tables/{tid}/seats/1/bot", json={"bot": "nonsense"},
                                headers=bearer(table["token"]))
            assert r.status_code == 400 and r.json()["code"] == "unknown-bot"
            r = await http.post(f"/api/tables/{tid}/seats/1/bot", json={"bot": "expert"},
                                headers=bearer(table["token"]))
            assert r.status_code == 200, r.text
            r = await http.post(f"/api/tables/{tid}/seats/1/bot", json={"bot": "random"},
                                headers=bearer(table["token"]))
            assert r.status_code == 400 and r.json()["code"] == "seat-taken"
            r = await http.post(f"/api/tables/{tid}/join",
                                json={"invite": table["invite"], "name": "Late"})
            assert r.status_code == 400 and r.json()["code"] == "table-full"
            summary = (await http.get(f"/api/tables/{tid}")).json()
            assert summary["seats"][1]["kind"] == "bot" and summary["seats"][1]["bot"] == "expert"
            host = await Client.open(live.ws(tid), {"token": table["token"]})
            await start(http, table)
            await play(host)
            verified(await record(http, tid))
            await host.close()
    run(main())


# -- chat -----------------------------------------------------------------------------------------

def test_chat_is_broadcast_as_plain_text(live: Live) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            table = await create_table(http, "hoola", [{"bot": "expert"}], seed=1)
            tid = table["table_id"]
            host = await Client.open(live.ws(tid), {"token": table["token"]})
            watcher = await Client.open(live.ws(tid), {"invite": table["invite"]})
            await host.send({"type": "chat", "text": "hi\x00 \x1b[31mthere\n\u2028<b>x</b>"})
            for c in (host, watcher):
                line = await c.expect(lambda m: m["type"] == "chat")
                assert line == {"type": "chat", "name": "Host", "text": "hi [31mthere<b>x</b>"}
            await watcher.send({"type": "chat", "text": "  watching  "})
            line = await host.expect(lambda m: m["type"] == "chat")
            assert line["name"] == "spectator" and line["text"] == "watching"
            for bad in ("\x00\x01\n", "", 42, None, ["a"]):
                await host.send({"type": "chat", "text": bad})
                assert (await host.error())["code"] == "bad-chat"
            await host.send({"type": "chat", "text": "x" * 1000})
            long = await host.expect(lambda m: m["type"] == "chat")
            assert long["text"] == "x" * 300
            late = await Client.open(live.ws(tid), {"invite": table["invite"]})
            replay = [m["text"] for m in late.log if m["type"] == "chat"]
            while len(replay) < 3:
                replay.append((await late.expect(lambda m: m["type"] == "chat"))["text"])
            assert replay == ["hi [31mthere<b>x</b>", "watching", "x" * 300]
            for c in (host, watcher, late):
                await c.close()
    run(main())


# -- refusals -------------------------------------------------------------------------------------

async def two_people(live: Live, http: httpx.AsyncClient, game: str = "hoola", seed: int = 5,
                     **spec: Any) -> tuple[dict[str, Any], dict[int, str], dict[int, Client]]:
    """A started table of two people (host and guest), both connected."""
    table = await create_table(http, game, [{}], deals=1, seed=seed, **spec)
    guest = await join(http, table, "Guest")
    tokens = {0: table["token"], 1: guest["token"]}
    clients = {q: await Client.open(live.ws(table["table_id"]), {"token": tokens[q]})
               for q in (0, 1)}
    await start(http, table)
    return table, tokens, clients


def test_every_refusal_is_an_error_that_changes_nothing(live: Live) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            table, tokens, clients = await two_people(live, http)
            tid = table["table_id"]
            assert live.store is not None
            now = await clients[0].state(lambda m: m["status"] == "playing")
            mover = now["moment"]["actors"][0]
            other = 1 - mover
            names = now["names"]
            m_ws, o_ws = clients[mover], clients[other]
            mine = await m_ws.fresh_state()
            counter, stored = mine["counter"], len(live.store.actions(tid))
            absent = next(c for c in ("2c", "3d", "4h", "5s", "6c", "7d", "8h", "9s", "Tc", "Jd")
                          if c not in mine["view"]["hand"])
            watcher = await Client.open(live.ws(tid), {"invite": table["invite"]})
            cases: list[tuple[Client, Any, str]] = [
                (m_ws, {"type": "act", "action": "draw", "counter": counter - 1}, "stale"),
                (m_ws, {"type": "act", "action": "draw", "counter": counter + 5}, "stale"),
                (m_ws, {"type": "act", "action": "draw"}, "stale"),
                (m_ws, {"type": "act", "action": "draw", "counter": str(counter)}, "stale"),
                (m_ws, {"type": "act", "action": "draw", "counter": True}, "stale"),
                (o_ws, {"type": "act", "action": "draw", "counter": counter}, "out-of-turn"),
                (o_ws, {"type": "pass", "counter": counter}, "out-of-turn"),
                (o_ws, {"type": "act", "action": f"{names[mover]} draw", "counter": counter},
                 "out-of-turn"),
                (m_ws, {"type": "act", "action": f"{names[other]} draw", "counter": counter},
                 "not-your-seat"),
                (m_ws, {"type": "act", "action": f"discard {absent}", "counter": counter},
                 "*"),
                (m_ws, {"type": "act", "action": "fly to the moon", "counter": counter}, "*"),
                (m_ws, {"type": "act", "action": "", "counter": counter}, "bad-action"),
                (m_ws, {"type": "act", "action": 42, "counter": counter}, "bad-action"),
                (m_ws, {"type": "act", "counter": counter}, "bad-action"),
                (m_ws, {"type": "pass", "counter": counter}, "must-act"),
                (m_ws, {"type": "dance"}, "bad-type"),
                (m_ws, {"action": "draw", "counter": counter}, "bad-type"),
                (m_ws, {"type": "hello", "token": tokens[mover]}, "bad-type"),
                (watcher, {"type": "act", "action": "draw", "counter": counter}, "spectator"),
                (watcher, {"type": "pass", "counter": counter}, "spectator"),
            ]
            for client, message, code in cases:
                await client.send(message)
                error = await client.error()
                assert set(error) == {"type", "code", "message"}, error
                assert isinstance(error["message"], str) and error["message"], error
                assert "\n" not in error["message"]
                if code != "*":
                    assert error["code"] == code, (message, error)
                else:
                    assert error["code"] not in ("internal", "stale"), (message, error)
                assert live.counter(tid) == counter, message
                assert len(live.store.actions(tid)) == stored, message
            for hello, code in (({"token": "not-a-token"}, "bad-token"),
                                ({"token": tokens[mover][:-1]}, "bad-token"),
                                ({"token": 7}, "bad-token"),
                                ({"invite": "wrong"}, "bad-invite"),
                                ({"invite": None}, "bad-invite"),
                                ({}, "bad-invite"),
                                ({"token": "é\udc80"}, "bad-token"),
                                ({"invite": "ünïcödé"}, "bad-invite")):
                intruder = await Client.open(live.ws(tid))
                await intruder.send({"type": "hello", **hello})
                error = await intruder.error()
                assert error["code"] == code, (hello, error)
                await intruder.closed()
                await intruder.close()
            nowhere = await Client.open(live.ws("no-such-table"))
            await nowhere.send({"type": "hello", "token": tokens[0]})
            assert (await nowhere.error())["code"] == "no-table"
            await nowhere.close()
            for path, body, headers, status, code in (
                    (f"/api/tables/{tid}/join", {"invite": "wrong", "name": "X"}, {}, 400,
                     "bad-invite"),
                    (f"/api/tables/{tid}/join", {"invite": "ünïcödé", "name": "X"}, {}, 400,
                     "bad-invite"),
                    (f"/api/tables/{tid}/join", {"invite": table["invite"], "name": "X"}, {}, 400,
                     "table-full"),
                    (f"/api/tables/{tid}/start", None, bearer(tokens[1]), 403, "not-host"),
                    (f"/api/tables/{tid}/start", None, {"Authorization": "Bearer é".encode()},
                     403, "not-host"),
                    (f"/api/tables/{tid}/start", None, {}, 403, "not-host"),
                    (f"/api/tables/{tid}/start", None, bearer(tokens[0]), 400,
                     "already-started"),
                    (f"/api/tables/{tid}/seats/1/bot", {"bot": "expert"}, bearer(tokens[1]), 403,
                     "not-host"),
                    (f"/api/tables/{tid}/leave", None, bearer("nobody"), 403, "bad-token"),
                    ("/api/tables/nope/start", None, bearer(tokens[0]), 404, "no-table"),
                    ("/api/tables/nope/join", {"invite": "x", "name": "X"}, {}, 404, "no-table")):
                r = await http.post(path, json=body, headers=headers)
                assert r.status_code == status and r.json()["code"] == code, (path, r.text)
            r = await http.get(f"/api/tables/{tid}/record")
            assert r.status_code == 400 and r.json()["code"] == "not-over"
            assert (await clients[0].fresh_state())["counter"] == counter
            await asyncio.gather(play(clients[0]), play(clients[1]))
            verified(await record(http, tid))
            for c in (*clients.values(), watcher):
                no_internals(c.log)
                await c.close()
    run(main())


def test_acting_for_another_seat_tells_nothing_of_its_hand(live: Live) -> None:
    """An action sent in another seat's name is refused before the engine looks at it: the
    refusal is the same whether that seat holds the card or not (no oracle of its hand)."""
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            _table, _tokens, clients = await two_people(live, http, seed=3)
            now = await clients[0].state(lambda m: m["status"] == "playing")
            mover = now["moment"]["actors"][0]
            other = 1 - mover
            await clients[mover].send({"type": "act", "action": "draw", "counter": now["counter"]})
            drawn = await clients[mover].state(lambda m: m["counter"] == now["counter"] + 1)
            held = drawn["view"]["hand"]
            absent = [c for c in ("2c", "3d", "4h", "5s", "6c", "7d", "8h", "9s") if c not in held]
            name = drawn["names"][mover]
            answers = []
            for verb in ("discard", "meld", "meld 2c 3c"):
                for card in (held[0], absent[0], held[1], absent[1]):
                    await clients[other].send({"type": "act", "action": f"{name} {verb} {card}",
                                               "counter": drawn["counter"]})
                    answers.append(await clients[other].error())
            assert all(a == answers[0] for a in answers), answers
            assert answers[0]["code"] == "out-of-turn"
            for c in clients.values():
                await c.close()
    run(main())


# -- claim windows --------------------------------------------------------------------------------

NAMES = ["Host", "P1", "P2", "P3"]


def contest(options: dict[str, Any], mover_takes: bool = False,
            ) -> tuple[int, list[tuple[int, str]], list[int], int]:
    """A seed of a 4-seat Hoola deal where, after a few plain moves (no window before), two seats
    other than the one to move may both take the same discard (``mover_takes``: one other seat
    and the seat to move): the seed, the moves (seat, notation) up to that window, the two
    claimants and the seat to move."""
    game = get_game("hoola")
    rules = game.rules(None, options)

    def takes(state: Any, q: int) -> bool:
        return any(type(a).__name__ == "Take" for a in state.legal_actions(q))

    for seed in [219, *range(600)]:
        state = game.new_match(rules, NAMES, seed=seed).new_deal()
        moves: list[tuple[int, str]] = []
        while not state.is_over and len(moves) < 40:
            actors = state.actors()
            passers = {q for q in actors if state.view(q).can_pass}
            claimants = [q for q in sorted(passers) if takes(state, q)]
            if mover_takes and claimants and passers and takes(state, state.current):
                return seed, moves, claimants[:1], state.current
            if len(claimants) >= 2 and not mover_takes:
                return seed, moves, claimants[:2], state.current
            if passers:
                break  # a window before the contest: try another seed
            (seat,) = actors
            legal = state.legal_actions(seat)
            action = next((a for a in legal if type(a).__name__ != "Take"), legal[0])
            moves.append((seat, state.format(action)))
            state.apply(action)
    raise AssertionError("no seed gives two claimants")


@dataclass
class Contest:
    """A 4-person Hoola table at a window where two seats may take the same discard."""

    tid: str
    clients: dict[int, Client]
    watcher: Client
    window: dict[int, dict[str, Any]]
    current: int
    far: int
    near: int
    takes: dict[int, str]


async def at_contest(live: Live, http: httpx.AsyncClient, options: dict[str, Any],
                     claim_seconds: float, mover_takes: bool = False) -> Contest:
    seed, moves, claimants, current = contest(options, mover_takes)
    if mover_takes:
        claimants = [*claimants, current]
    table = await create_table(http, "hoola", [{}, {}, {}], options=options, seed=seed,
                               deals=1, claim_seconds=claim_seconds)
    tid = table["table_id"]
    tokens = {0: table["token"]}
    for q in (1, 2, 3):
        tokens[q] = (await join(http, table, NAMES[q]))["token"]
    clients = {q: await Client.open(live.ws(tid), {"token": tokens[q]}) for q in tokens}
    watcher = await Client.open(live.ws(tid), {"invite": table["invite"]})
    await start(http, table)
    discarded = False
    for seat, text in moves:
        now = await clients[seat].state(lambda m: m["asked"] and m["status"] == "playing")
        await clients[seat].send({"type": "act", "action": text, "counter": now["counter"]})
        passed = await pass_window(clients, now["counter"], but=seat)
        # Nobody could take the discards before the contest, yet each opened a window for all:
        # a window only when someone can claim would tell everyone that someone can.
        assert passed == (sorted(set(clients) - {seat}) if discarded else []), (text, passed)
        discarded = " discard " in text and not text.endswith(" JK")
    window = {q: await clients[q].state(lambda m: m["counter"] == len(moves) + 1)
              for q in clients}
    assert window[current]["asked"] and not window[current]["can_pass"]
    far, near = sorted(claimants, key=lambda q: (q - current) % 4, reverse=True)
    takes = {q: next(a for a in window[q]["view"]["legal"] if " take " in a) for q in claimants}
    for q in claimants:
        if q != current:
            assert window[q]["asked"] and window[q]["can_pass"] and window[q]["moment"]["window"]
    return Contest(tid, clients, window=window, watcher=watcher, current=current, far=far,
                   near=near, takes=takes)


async def pass_window(clients: dict[int, Client], counter: int, but: int) -> list[int]:
    """Every seat but ``but`` that is in a window at ``counter`` lets it pass; those seats."""
    passed = []
    for q, client in sorted(clients.items()):
        if q != but:
            seen = await client.state(lambda m: m["counter"] == counter)
            if seen["asked"] and seen["can_pass"]:
                assert seen["moment"]["window"] and seen["moment"]["window_deadline"]
                await client.send({"type": "pass", "counter": counter})
                passed.append(q)
    return passed


async def finish(http: httpx.AsyncClient, c: Contest) -> None:
    """Everyone leaves; stand-in bots play the deal out; its record verifies."""
    for client in c.clients.values():
        await client.close()
    await c.watcher.state(lambda m: m["status"] == "over")
    verified(await record(http, c.tid))
    await c.watcher.close()


@pytest.mark.parametrize("claims", ["battle", "battle-next-priority"])
def test_two_claimants_of_one_discard_are_told_who_won(live: Live, claims: str) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            c = await at_contest(live, http, {"claims": claims}, claim_seconds=30)
            far, near, takes, counter = c.far, c.near, c.takes, c.window[c.far]["counter"]
            # The farther claimant reaches the server first (its pong proves it), then the nearer.
            await c.clients[far].send({"type": "act", "action": takes[far], "counter": counter})
            await c.clients[far].send({"type": "ping"})
            await c.clients[far].expect(lambda m: m["type"] == "pong")
            await c.clients[near].send({"type": "act", "action": takes[near],
                                        "counter": counter})
            for q in c.clients:  # the rest decide: the window resolves long before its 30 s
                if q not in (far, near) and c.window[q]["asked"]:
                    await decide_plainly(c.clients[q], c.window[q])
            winner = far if claims == "battle" else near
            loser = near if winner == far else far
            won = await c.clients[winner].expect(lambda m: m["type"] == "claim")
            lost = await c.clients[loser].expect(lambda m: m["type"] == "claim")
            assert won["result"] == "won" and lost["result"] == "lost"
            assert won["action"] == takes[winner] and lost["action"] == takes[loser]
            assert won["winner"] == lost["winner"] == takes[winner]
            assert live.store is not None
            assert live.store.actions(c.tid)[-1].text == takes[winner]
            for q in c.clients:  # nobody else hears of the claims but the seat whose draw lost
                heard = [m for m in c.clients[q].log if m["type"] == "claim"]
                assert all(m["seat"] == q for m in heard)
                if q not in (winner, loser, c.current):
                    assert not heard
            await finish(http, c)
    run(main())


def test_the_seat_to_move_that_takes_the_discard_first_is_told_it_won(live: Live) -> None:
    """A race between the seat whose turn it is (taking the discard) and a claimant out of turn,
    under ``battle`` (the first to arrive): both are told, the winner too."""
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            c = await at_contest(live, http, {"claims": "battle"}, claim_seconds=30,
                                 mover_takes=True)
            mover = c.current
            (other,) = [q for q in c.takes if q != mover]
            counter = c.window[mover]["counter"]
            await c.clients[mover].send({"type": "act", "action": c.takes[mover],
                                         "counter": counter})
            await c.clients[mover].send({"type": "ping"})
            await c.clients[mover].expect(lambda m: m["type"] == "pong")
            await c.clients[other].send({"type": "act", "action": c.takes[other],
                                         "counter": counter})
            for q in c.clients:
                if q not in (mover, other) and c.window[q]["asked"]:
                    await decide_plainly(c.clients[q], c.window[q])
            won = await c.clients[mover].expect(lambda m: m["type"] == "claim")
            lost = await c.clients[other].expect(lambda m: m["type"] == "claim")
            assert won["result"] == "won" and won["action"] == c.takes[mover], won
            assert lost["result"] == "lost" and lost["winner"] == c.takes[mover], lost
            await finish(http, c)
    run(main())


def test_a_window_closes_on_its_timer_and_a_late_claim_is_refused(live: Live) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            c = await at_contest(live, http, {"claims": "battle-next-priority"},
                                 claim_seconds=0.4)
            far, near, counter = c.far, c.near, c.window[c.far]["counter"]
            deadline = c.window[far]["moment"]["window_deadline"]
            assert deadline is not None and deadline - time.time() <= 0.4
            await c.clients[far].send({"type": "act", "action": c.takes[far],
                                       "counter": counter})
            await decide_plainly(c.clients[c.current], c.window[c.current])
            # The nearer claimant, who would have won, says nothing: the timer closes the window.
            won = await c.clients[far].expect(lambda m: m["type"] == "claim")
            assert won["result"] == "won" and won["action"] == c.takes[far]
            await c.clients[near].send({"type": "act", "action": c.takes[near],
                                        "counter": counter})
            late = await c.clients[near].error()
            assert late["code"] in ("stale", "window-closed"), late
            assert not [m for m in c.clients[near].log if m["type"] == "claim"]
            await finish(http, c)
    run(main())


async def decide_plainly(client: Client, message: dict[str, Any]) -> None:
    """Pass in a window; else the first legal action that is not a claim."""
    if message["can_pass"]:
        await client.send({"type": "pass", "counter": message["counter"]})
        return
    legal = [a for a in message["view"]["legal"] if " take " not in a] or message["view"]["legal"]
    await client.send({"type": "act", "action": legal[0], "counter": message["counter"]})


# -- turn timers ----------------------------------------------------------------------------------

def test_a_person_out_of_time_is_played_for_by_a_bot(live: Live) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            table = await create_table(http, "hoola", [{"bot": "expert"}] * 2, deals=1, seed=2,
                                       turn_seconds=0.2)
            host = await Client.open(live.ws(table["table_id"]), {"token": table["token"]})
            await start(http, table)
            asked = await host.state(lambda m: m["asked"])
            deadline = asked["moment"]["turn_deadline"]
            assert deadline is not None and deadline - time.time() <= 0.2
            over = await host.state(lambda m: m["status"] == "over")  # the host never acts
            assert over["seats"][0]["kind"] == "person"
            text = await record(http, table["table_id"])
            verified(text)
            assert '"Host draw"' in text or '"Host take' in text
            await host.close()
    run(main())


def test_the_api_lists_games_tables_and_schema(live: Live) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            games = (await http.get("/api/games")).json()
            assert {g["name"] for g in games} >= {"hoola", "kalookie", "capture"}
            table = await create_table(http, "kalookie", [{"bot": "expert"}], seed=1, public=True)
            lobby = (await http.get("/api/tables")).json()
            assert table["table_id"] in [t["table_id"] for t in lobby]
            private = await create_table(http, "kalookie", [{"bot": "expert"}], public=False)
            lobby = (await http.get("/api/tables")).json()
            assert private["table_id"] not in [t["table_id"] for t in lobby]
            summary = (await http.get(f"/api/tables/{private['table_id']}")).json()
            assert "invite" not in summary and "token" not in str(summary)
            schema = (await http.get("/openapi.json")).json()
            assert "/api/tables" in schema["paths"]
    run(main())


def test_requests_racing_the_first_load_of_the_games_all_find_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The server answers requests in threads: one that asks for a game while another thread is
    still loading the registry waits for it instead of finding no games at all."""
    import threading

    from hoola.core import registry

    hoola = get_game("hoola")
    answers: list[Any] = []

    def ask() -> None:
        try:
            answers.append(registry.get_game("hoola"))
        except Exception as exc:
            answers.append(exc)

    racer = threading.Thread(target=ask)

    class Entry:
        name = "hoola"

        def load(self) -> Any:
            racer.start()  # a second request arrives while the games are being loaded
            racer.join(0.5)
            return hoola

    monkeypatch.setattr(registry, "_GAMES", {})
    monkeypatch.setattr(registry, "_loaded", False)
    monkeypatch.setattr(registry, "entry_points", lambda group: [Entry()])
    assert registry.get_game("hoola") is hoola
    racer.join(WAIT)
    assert answers == [hoola]


def test_a_state_request_is_answered_to_the_asker_alone(live: Live) -> None:
    """Asking for the state does not make the table announce to everyone (no amplification)."""
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            table, _tokens, clients = await two_people(live, http)
            watcher = await Client.open(live.ws(table["table_id"]), {"invite": table["invite"]})
            for c in (clients[0], clients[1], watcher):  # let every socket's queue settle
                await c.fresh_state()
            for asker in (clients[0], watcher):
                for _ in range(5):
                    await asker.send({"type": "state"})
                await asker.send({"type": "ping"})
                await asker.expect(lambda m: m["type"] == "pong")
            # Whatever the requests made for the others is queued before their pongs.
            await clients[1].send({"type": "ping"})
            extra = []
            while (m := await clients[1].next())["type"] != "pong":
                extra.append(m)
            assert not [m for m in extra if m["type"] == "state"], extra
            for c in (*clients.values(), watcher):
                await c.close()
    run(main())


def test_rooms_are_made_and_used_on_the_event_loop_alone(live: Live,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """HTTP handlers that run in worker threads must not build rooms: two threads could each
    build one for the same table."""
    import threading

    from hoola.server.room import Room

    hub = live.app.state.hub
    threads: list[str] = []
    original = Room.rebuild

    def rebuild(self: Room) -> None:
        threads.append(threading.current_thread().name)
        original(self)

    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            table = await create_table(http, "sedma", [{}], deals=1, seed=4)
            tid = table["table_id"]
            room = hub.rooms.pop(tid, None)
            if room is not None:
                room.close()
            assert (await http.get(f"/api/tables/{tid}/record")).json()["code"] == "not-over"
            await http.get(f"/api/tables/{tid}")
            await http.post(f"/api/tables/{tid}/join", json={"invite": table["invite"],
                                                             "name": "G"})
            await http.post(f"/api/tables/{tid}/start", headers=bearer(table["token"]))

    monkeypatch.setattr(Room, "rebuild", rebuild)
    run(main())
    assert threads and all(t == threads[-1] for t in threads), threads  # the server's loop

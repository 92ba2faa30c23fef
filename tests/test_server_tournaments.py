"""Tournaments on ``hoola serve``: made, entered and started over HTTP, their tables opened and
followed by the server, played to the end by bots; the record verifies. A server killed with
SIGKILL in the middle of a tournament and started again finishes it. Bad input is refused in
one line."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from hoola.core.records import verify_text
from server_client import (
    TRACEBACK_SIGNS,
    WAIT,
    Client,
    Live,
    free_port,
    play,
    run,
    serve_in_thread,
    serve_process,
)

QUICK = {"bot_delay": 0, "claim_seconds": 0.2, "bot_reaction": [0, 0.02], "turn_seconds": 120,
         "grace_seconds": 0}
"""Pacing that makes bot tables quick."""


async def make(http: httpx.AsyncClient, **spec: Any) -> dict[str, Any]:
    r = await http.post("/api/tournaments", json={**QUICK, **spec})
    assert r.status_code == 200, r.text
    return dict(r.json())


async def begin(http: httpx.AsyncClient, made: dict[str, Any]) -> None:
    r = await http.post(f"/api/tournaments/{made['id']}/start",
                        headers={"Authorization": f"Bearer {made['token']}"})
    assert r.status_code == 200, r.text


async def watch(http: httpx.AsyncClient, tid: str, until: Any, *,
                seen: list[dict[str, Any]] | None = None,
                token: str | None = None) -> dict[str, Any]:
    """The tournament's page data, asked for news after each version, until ``until`` holds."""
    version = -1
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    for _ in range(100_000):
        r = await http.get(f"/api/tournaments/{tid}", params={"after": version},
                           headers=headers, timeout=WAIT)
        assert r.status_code == 200, r.text
        view = dict(r.json())
        if seen is not None:
            seen.append(view)
        if until(view):
            return view
        assert view["status"] != "over", view
        version = view["version"]
    raise AssertionError("the tournament never got there")


async def verified_record(http: httpx.AsyncClient, tid: str) -> str:
    r = await http.get(f"/api/tournaments/{tid}/record")
    assert r.status_code == 200, r.text
    verdict = verify_text(r.text)
    assert verdict.ok, verdict.problems
    return r.text


def test_a_swiss_tournament_with_a_person_and_bots_is_played_to_its_end(tmp_path: Path) -> None:
    async def main(live: Live) -> None:
        async with httpx.AsyncClient(base_url=live.http, timeout=WAIT) as http:
            made = await make(http, format="swiss", game="hoola", entrants=4, bots="random",
                              name="Friday", settings={"table_size": 2, "rounds": 2, "deals": 1},
                              grace_seconds=60)
            r = await http.post(f"/api/tournaments/{made['id']}/enter", json={"name": "Ann"})
            assert r.status_code == 200, r.text
            ann = r.json()["token"]
            again = await http.post(f"/api/tournaments/{made['id']}/enter",
                                    json={"name": "Ann"})
            assert again.status_code == 400 and "already entered" in again.json()["message"]
            await begin(http, made)
            # Ann's seat at her first table is held by her entrant's token: she watches the
            # table as that seat sees it (a stand-in bot plays it when she is away).
            first = await watch(http, made["id"], lambda v: any(
                "my_seat" in t for t in v["tables"]), token=ann)
            mine = next(t for t in first["tables"] if "my_seat" in t)
            client = await Client.open(live.ws(mine["table_id"]), {"token": ann})
            state = await client.state()
            assert state["seat"] == mine["my_seat"]
            # The page's watch link: a spectator by the table's invite sees no hand (the deal
            # waits for Ann, connected, whose turn timer is long).
            watcher = await Client.open(live.ws(mine["table_id"]), {"invite": mine["invite"]})
            seen_table = await watcher.state()
            assert seen_table["status"] == "playing"
            assert seen_table["seat"] is None and seen_table["view"] is None
            hands = [z for z in seen_table["table"]["zones"] if z.get("owner") is not None
                     and z["kind"] == "hand"]
            assert hands and all(not z.get("cards") for z in hands)
            await watcher.close()
            # Ann plays her tables herself: her seat waits for her (a long grace), so nothing
            # races her to the end of a deal.
            await play(client)
            await client.close()
            second = await watch(http, made["id"], lambda v: any(
                "my_seat" in t and t["table_id"] != mine["table_id"] for t in v["tables"]),
                token=ann)
            table = next(t for t in second["tables"]
                         if "my_seat" in t and t["table_id"] != mine["table_id"])
            client = await Client.open(live.ws(table["table_id"]), {"token": ann})
            await play(client)
            await client.close()
            seen: list[dict[str, Any]] = []
            over = await watch(http, made["id"], lambda v: v["status"] == "over", seen=seen)
            assert over["winner"] == over["standings"][0]["name"]
            assert {s["name"] for s in over["standings"]} == {"Ann", "random-1", "random-2",
                                                                "random-3"}
            assert [t["stage"] for t in over["tables"]] == ["round"] * 4
            assert all(t["status"] == "over" and "places" in t for t in over["tables"])
            assert sum(_fraction(s["points"]) for s in over["standings"]) == 2 * (1 + 0) * 2
            listed = (await http.get("/api/tournaments")).json()
            assert any(x["id"] == made["id"] and x["status"] == "over" for x in listed)
            text = await verified_record(http, made["id"])
            assert 'tournament = "swiss"' in text and "Ann" in text

    with serve_in_thread(f"sqlite:///{tmp_path / 'tables.db'}") as live:
        run(main(live))


def test_a_blackpool_tournament_of_bots_is_played_to_its_final(tmp_path: Path) -> None:
    async def main(live: Live) -> None:
        async with httpx.AsyncClient(base_url=live.http, timeout=WAIT) as http:
            made = await make(http, format="blackpool", game="kalookie", entrants=8,
                              bots="random", options={"target": 30})
            await begin(http, made)
            seen: list[dict[str, Any]] = []
            over = await watch(http, made["id"], lambda v: v["status"] == "over", seen=seen)
            stages = [t["stage"] for t in over["tables"]]
            assert stages[:2] == ["qualifying", "qualifying"] and stages[-1] == "final"
            assert over["closed"] and not over["queue"] and not over["deciding"]
            assert sum(float(_fraction(s["money"])) for s in over["standings"]) == 0
            assert over["winner"] == over["standings"][0]["name"]
            text = await verified_record(http, made["id"])
            assert 'tournament = "blackpool"' in text and 'event = "leave"' in text

    with serve_in_thread(f"sqlite:///{tmp_path / 'tables.db'}") as live:
        run(main(live))


def never_melds(message: dict[str, Any]) -> str | None:
    """A poor Kalookie player: draws and discards, never melds (so goes over a low target)."""
    legal = [str(m) for m in message["view"]["legal"]]
    for verb in ("draw", "discard"):
        found = [m for m in legal if verb in m.split()]
        if found:
            return found[0]
    if message["can_pass"] or not legal:
        return None
    return legal[0]


def test_a_person_who_leaves_a_blackpool_table_chooses_to_retire(tmp_path: Path) -> None:
    async def main(live: Live) -> None:
        async with httpx.AsyncClient(base_url=live.http, timeout=WAIT) as http:
            made = await make(http, format="blackpool", game="kalookie", entrants=8,
                              bots="random", options={"target": 30}, decide_seconds=600,
                              grace_seconds=60)  # her seat waits for her: no stand-in melds
            tid = made["id"]
            ann = (await http.post(f"/api/tournaments/{tid}/enter",
                                   json={"name": "Ann"})).json()["token"]
            await begin(http, made)
            first = await watch(http, tid, lambda v: any("my_seat" in t for t in v["tables"]),
                                token=ann)
            table = next(t for t in first["tables"] if "my_seat" in t)
            client = await Client.open(live.ws(table["table_id"]), {"token": ann})
            playing = asyncio.create_task(play(client, never_melds))
            deciding = await watch(http, tid, lambda v: "Ann" in [d["name"] for d in
                                                                  v["deciding"]], token=ann)
            assert deciding["me"] == "Ann" and not deciding["closed"]
            playing.cancel()
            await client.close()
            wrong = await http.post(f"/api/tournaments/{tid}/decide", json={"buy_in": True},
                                    headers={"Authorization": "Bearer nobody"})
            assert wrong.status_code == 403 and wrong.json()["code"] == "bad-token"
            r = await http.post(f"/api/tournaments/{tid}/decide", json={"buy_in": False},
                                headers={"Authorization": f"Bearer {ann}"})
            assert r.status_code == 200, r.text
            again = await http.post(f"/api/tournaments/{tid}/decide", json={"buy_in": True},
                                    headers={"Authorization": f"Bearer {ann}"})
            assert again.status_code == 400 and "no buy-in to decide" in again.json()["message"]
            over = await watch(http, tid, lambda v: v["status"] == "over")
            assert next(s for s in over["standings"] if s["name"] == "Ann")["out"]
            text = await verified_record(http, tid)
            assert '{ event = "retire", player = "Ann" }' in text

    with serve_in_thread(f"sqlite:///{tmp_path / 'tables.db'}") as live:
        run(main(live))


def _fraction(value: Any) -> float:
    if isinstance(value, str) and "/" in value:
        top, bottom = value.split("/")
        return int(top) / int(bottom)
    return float(value)


def test_a_tournament_survives_kill_9_and_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    port = free_port()
    live = Live(port)
    log = tmp_path / "serve.log"
    with serve_process(db, port, log) as proc:
        async def first() -> tuple[str, dict[str, Any]]:
            async with httpx.AsyncClient(base_url=live.http, timeout=WAIT) as http:
                made = await make(http, format="knockout", game="hoola", entrants=6,
                                  bots="random", bot_delay=0.02,
                                  settings={"table_size": 2, "advance": 1, "deals": 2})
                await begin(http, made)
                # Killed once the first tables have ended and others are in play.
                view = await watch(http, made["id"], lambda v: any(
                    t["status"] == "over" for t in v["tables"]))
                assert view["status"] == "playing" and view["winner"] is None
                return made["id"], view
        tid, before = run(first())
        proc.kill()
        proc.wait()
    with serve_process(db, port, log):
        async def second() -> None:
            async with httpx.AsyncClient(base_url=live.http, timeout=WAIT) as http:
                again = (await http.get(f"/api/tournaments/{tid}")).json()
                # Every event announced before the kill was stored: the tables ended then are
                # ended now, with the same results.
                done = {t["number"]: t.get("places") for t in before["tables"]
                        if t["status"] == "over"}
                assert all(t.get("places") == done[t["number"]] for t in again["tables"]
                           if t["number"] in done)
                over = await watch(http, tid, lambda v: v["status"] == "over")
                assert over["winner"] is not None
                await verified_record(http, tid)
        run(second())
    text = log.read_text()
    assert not any(sign in text for sign in TRACEBACK_SIGNS), text[-2000:]


def test_a_signed_in_account_enters_under_its_own_name_once(tmp_path: Path) -> None:
    async def main(live: Live) -> None:
        async with httpx.AsyncClient(base_url=live.http, timeout=WAIT) as http:
            r = await http.post("/api/account/guest")
            assert r.status_code == 200, r.text
            me = (await http.get("/api/account/me")).json()["account"]
            made = await make(http, format="knockout", entrants=4, settings={"table_size": 2})
            r = await http.post(f"/api/tournaments/{made['id']}/enter", json={"name": "Other"})
            assert r.status_code == 200, r.text
            assert r.json()["name"] == me["name"] != "Other"
            r = await http.post(f"/api/tournaments/{made['id']}/enter", json={"name": "Again"})
            assert r.status_code == 400 and r.json()["code"] == "entered"

    with serve_in_thread("sqlite://") as live:
        run(main(live))


def test_bad_tournaments_are_refused_in_one_line(tmp_path: Path) -> None:
    async def main(live: Live) -> None:
        async with httpx.AsyncClient(base_url=live.http, timeout=WAIT) as http:
            bad = [
                ({"format": "blackpool", "game": "kalookie", "entrants": 3}, "8 to 32"),
                ({"format": "blackpool", "game": "hoola", "entrants": 8}, "Kalookie"),
                ({"format": "blackpool", "game": "kalookie", "entrants": 24,
                  "settings": {"tables": 11}}, "semi-finals of up to 6"),
                ({"format": "swiss", "settings": {"rounds": "many"}}, "rounds"),
                ({"format": "swiss", "settings": {"colour": 1}}, "no setting"),
                ({"format": "ladder"}, "unknown tournament format"),
                ({"format": "swiss", "bots": "cheater"}, "unknown bot"),
                ({"format": "swiss", "game": "chess"}, "chess"),
                ({"format": "swiss", "entrants": 3, "settings": {"table_size": 4}}, "at least 4"),
            ]
            for spec, words in bad:
                r = await http.post("/api/tournaments", json=spec)
                assert r.status_code in (400, 422), (spec, r.text)
                message = r.json()["message"]
                assert words in message and "\n" not in message, (spec, message)
                assert not any(sign in message for sign in TRACEBACK_SIGNS)
            r = await http.post("/api/tournaments", content=b"{not json",
                                headers={"Content-Type": "application/json"})
            assert r.status_code in (400, 422) and "\n" not in r.json()["message"]
            made = await make(http, format="swiss", entrants=4,
                              settings={"table_size": 2, "rounds": 1})
            r = await http.post(f"/api/tournaments/{made['id']}/start",
                                headers={"Authorization": "Bearer not-the-token"})
            assert r.status_code == 403 and "creator" in r.json()["message"]
            r = await http.post(f"/api/tournaments/{made['id']}/start",
                                headers={"Authorization": f"Bearer {made['token']}"})
            assert r.status_code == 400 and "needs at least 2 entrants, not 0" in \
                r.json()["message"], r.text
            r = await http.post(f"/api/tournaments/{made['id']}/enter", json={"name": "no way"})
            assert r.status_code == 400 and "a name is" in r.json()["message"]
            r = await http.get("/api/tournaments/nosuchthing")
            assert r.status_code == 404 and r.json()["code"] == "no-tournament"
            r = await http.get(f"/api/tournaments/{made['id']}/record")
            assert r.status_code == 400 and "not over" in r.json()["message"]

    with serve_in_thread("sqlite://") as live:
        run(main(live))

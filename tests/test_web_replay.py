"""The browser UI's server side: its pages and static files, replays of stored games (as a seat
saw them, or all hands open, never a hidden card before the end), the hint, the clock."""

from __future__ import annotations

import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from hoola.bots import seat_bot
from hoola.core.registry import get_game
from hoola.server.app import create_app
from hoola.server.replay import Replay, settlement_lines
from hoola.server.store import SeatRow, Store, digest

TOKEN = "seat-zero-token"


def _store_game(store: Store, game_name: str, preset: str, deals: int, extra: int,
                status: str, seed: int = 7) -> tuple[str, Any]:
    """A table whose game was played by bots: ``deals`` finished deals and ``extra`` actions of
    the next, stored as the server stores them. Returns the table id and the engine's match."""
    game = get_game(game_name)
    rules = game.rules(preset)
    names = ["A", "B"]
    config = {"game": game_name, "preset": preset, "options": {}, "seed": seed, "names": names,
              "deals": None, "claim_seconds": 1, "turn_seconds": 0}
    tid = store.create_table(config, host_digest=digest(TOKEN), invite="inv",
                             seat_rows=[SeatRow(0, "person", "A", None, digest(TOKEN), False),
                                        SeatRow(1, "bot", "B", "expert", None, False)])
    if status != "waiting":
        store.start_table(tid, config)
    match = game.new_match(rules, names, seed=seed)
    bots = [seat_bot(game, "expert", q)[0] for q in range(2)]
    for d in range(deals + (1 if extra else 0)):
        state = match.new_deal()
        played = 0
        while not state.is_over and (d < deals or played < extra):
            actors = sorted(state.actors())
            choice = None
            for q in actors:
                choice = bots[q].act(state.view(q))
                if choice is not None:
                    break
            if choice is None:
                choice = state.resolve([])
            assert choice is not None
            store.add_action(tid, d, state.format(choice))
            state.apply(choice)
            played += 1
        if state.is_over:
            match.finish_deal()
    if status == "over":
        store.set_status(tid, "over")
    return tid, match


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path / 'r.db'}")
    yield s
    s.close()


@pytest.fixture
def client(store: Store) -> TestClient:
    # No lifespan: the hub is not started, so no table here is played on by bots.
    return TestClient(create_app(store))


def test_pages_and_static_files(client: TestClient) -> None:
    lobby = client.get("/")
    assert lobby.status_code == 200 and "text/html" in lobby.headers["content-type"]
    assert "/static/js/lobby.js" in lobby.text
    assert "/static/js/lobby.js" in client.get("/join/abc?invite=x").text
    assert "/static/js/table.js" in client.get("/table/abc").text
    assert "/static/js/replay.js" in client.get("/replay/abc").text
    script = client.get("/static/js/table.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    for path in ("/static/style.css", "/static/js/cards.js", "/static/js/touches/hoola.js",
                 "/static/js/touches/kalookie.js", "/static/js/touches/capture.js"):
        assert client.get(path).status_code == 200, path
    assert client.get("/static/../app.py").status_code == 404
    assert client.get("/static/nothing.js").status_code == 404
    now = client.get("/api/time").json()["now"]
    assert abs(now - time.time()) < 60


def test_nothing_is_fetched_from_outside() -> None:
    web = Path(__file__).resolve().parent.parent / "src" / "hoola" / "server" / "web"
    files = [p for p in web.rglob("*") if p.is_file()]
    assert len(files) >= 10
    for path in files:
        text = path.read_bytes().decode("utf-8", errors="replace")  # the sound cues are binary
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", ""), path
        assert "https://" not in text, path
        assert "//cdn" not in text and "@import" not in text, path


def test_replay_of_a_finished_game(client: TestClient, store: Store) -> None:
    tid, match = _store_game(store, "capture", "sedma", deals=1, extra=0, status="over")
    game = get_game("capture")
    first = client.get(f"/api/tables/{tid}/replay", params={"step": 0, "seat": "all"}).json()
    assert (first["deal"], first["step"], first["action"]) == (0, 0, None)
    hands = [z for z in first["table"]["zones"] if z["kind"] == "hand"]
    assert len(hands) == 2 and all(z["cards"] for z in hands)  # all hands open
    mine = client.get(f"/api/tables/{tid}/replay", params={"step": 0, "seat": "0"}).json()
    zones = {z["id"]: z for z in mine["table"]["zones"]}
    assert zones["hand-0"]["cards"] and zones["hand-1"]["cards"] is None
    assert zones["hand-1"]["count"] == len(hands[1]["cards"])
    assert mine["legal"] == [] or all(m.startswith("A ") for m in mine["legal"])

    # Every step is the engine's own view of the stored actions.
    texts = [a.text for a in store.actions(tid)]
    state = match.deals[0]
    assert first["positions"] == len(texts) + 1
    replayed = game.new_match(game.rules("sedma"), ["A", "B"], seed=7).new_deal()
    for k in (1, 2, len(texts)):
        while len(replayed.history) < k:
            replayed.apply(replayed.parse(texts[len(replayed.history)]))
        got = client.get(f"/api/tables/{tid}/replay", params={"step": k, "seat": "1"}).json()
        assert got["action"] == texts[k - 1]
        assert got["table"] == replayed.view(1).table().to_json()

    last = client.get(f"/api/tables/{tid}/replay", params={"deal": 0, "step": -1}).json()
    assert last["position"] == len(texts) and last["seat"] == "all"
    record = game.record_text(match)
    told = settlement_lines(list(game.tell_record(tomllib.loads(record), record)))
    assert last["settlement"] == told[0] and last["settlement"]
    assert last["scoreboard"] == match.scoreboard().to_json()
    assert state.is_over


@pytest.mark.parametrize("params, code", [
    ({"step": 10_000}, "bad-step"), ({"step": -1}, "bad-step"), ({"seat": "x"}, "bad-seat"),
    ({"seat": "9"}, "bad-seat"), ({"seat": "-1"}, "bad-seat"), ({"deal": 5}, "bad-step"),
    ({"deal": 0, "step": 999}, "bad-step")])
def test_bad_replay_requests_say_why(client: TestClient, store: Store, params: dict[str, Any],
                                     code: str) -> None:
    tid, _ = _store_game(store, "capture", "sedma", deals=1, extra=0, status="over")
    answer = client.get(f"/api/tables/{tid}/replay", params=params)
    assert answer.status_code == 400 and answer.json()["code"] == code
    assert "\n" not in answer.json()["message"]


def test_replay_refusals(client: TestClient, store: Store) -> None:
    assert client.get("/api/tables/nope/replay").status_code == 404
    assert client.get(f"/api/tables/{'x' * 40}/replay").status_code == 404
    waiting, _ = _store_game(store, "capture", "sedma", deals=0, extra=0, status="waiting")
    answer = client.get(f"/api/tables/{waiting}/replay")
    assert answer.status_code == 400 and answer.json()["code"] == "not-started"
    bad = client.get(f"/api/tables/{waiting}/replay",
                     headers={"Authorization": "Bearer wrong"})
    assert bad.status_code == 403 and bad.json()["code"] == "bad-token"


def test_a_game_in_play_replays_only_finished_deals_to_their_own_seat(
        client: TestClient, store: Store) -> None:
    tid, match = _store_game(store, "hoola", "pagat", deals=1, extra=3, status="playing")
    url = f"/api/tables/{tid}/replay"
    auth = {"Authorization": f"Bearer {TOKEN}"}
    for params, headers in (({"deal": 0, "step": -1, "seat": "all"}, auth),
                            ({"deal": 0, "step": -1, "seat": "1"}, auth),
                            ({"deal": 0, "step": -1}, {})):
        refused = client.get(url, params=params, headers=headers)
        assert refused.status_code == 400 and refused.json()["code"] == "not-over", params
    in_play = client.get(url, params={"deal": 1, "step": 0}, headers=auth)
    assert in_play.status_code == 400 and in_play.json()["code"] == "not-over"
    done = client.get(url, params={"deal": 0, "step": -1}, headers=auth).json()
    assert done["seat"] == 0 and done["table"]["moment"]["phase"] == "over"
    assert any(line.startswith("Payments") for line in done["settlement"])
    assert done["scoreboard"] == match.scoreboard().to_json()


def test_hint_is_the_experts_move_for_the_seat(client: TestClient, store: Store) -> None:
    tid, match = _store_game(store, "hoola", "pagat", deals=0, extra=4, status="playing")
    url = f"/api/tables/{tid}/hint"
    assert client.get(url).status_code == 403
    assert client.get(url, headers={"Authorization": "Bearer nope"}).status_code == 403
    got = client.get(url, headers={"Authorization": f"Bearer {TOKEN}"}).json()
    state = match.deals[-1]
    legal = [state.format(a) for a in state.view(0).legal]
    if legal:
        assert got["action"] in legal and got["why"]
    else:
        assert got["action"] is None and got["why"]


def test_hint_for_a_capture_game_is_its_experts_move(client: TestClient, store: Store) -> None:
    tid, _ = _store_game(store, "capture", "sedma", deals=0, extra=1, status="playing")
    got = client.get(f"/api/tables/{tid}/hint", headers={"Authorization": f"Bearer {TOKEN}"})
    assert got.status_code == 200
    hint = got.json()
    assert isinstance(hint["action"], str) and hint["action"], hint
    assert isinstance(hint["why"], str) and hint["why"], hint


def test_hint_refused_when_not_in_play(client: TestClient, store: Store) -> None:
    tid, _ = _store_game(store, "capture", "sedma", deals=1, extra=0, status="over")
    got = client.get(f"/api/tables/{tid}/hint", headers={"Authorization": f"Bearer {TOKEN}"})
    assert got.status_code == 400 and got.json()["code"] == "not-playing"


def test_replay_object_positions_and_merged_table() -> None:
    store = Store("sqlite://")
    tid, _ = _store_game(store, "kalookie", "british", deals=1, extra=0, status="over")
    row = store.table(tid)
    assert row is not None
    replay = Replay(row, store.actions(tid))
    places = replay.positions
    assert places[0] == (0, 0) and places[-1] == (0, len(replay.texts[0]))
    snap = replay.snapshot(len(places) // 2, "all")
    assert all(z["cards"] is not None for z in snap["table"]["zones"] if z["kind"] == "hand")
    assert snap["settlement"] == []  # mid-deal: nothing settled yet
    with pytest.raises(Exception, match="no step"):
        replay.snapshot(len(places), 0)
    store.close()

"""What the load benchmark found and changed, and the benchmark itself.

* The views of a table's state are built once per state and shared by the announcements of that
  state (:mod:`hoola.server.views`): never stale, whatever the moves.
* ``benchmarks/server_load.py`` runs end to end on a few tables: real server, real sockets. Its
  people act as people do: at once with nothing to claim, thinking on their turn and inside a
  window's deadline when they could claim, on the newest state only.
* The server keeps the garbage collector's pauses off its event loop (:mod:`hoola.server.heap`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from hoola.server.room import Room
from hoola.server.store import SeatRow, Store, digest
from hoola.server.views import public_table, seat_message, spectator_message

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.mark.parametrize(("game", "preset"), [("hoola", None), ("kalookie", None),
                                             ("capture", "sedma")])
def test_every_message_shows_the_state_it_is_sent_at(game: str, preset: str | None) -> None:
    """After every decision (turns, claims in windows, passes, new deals), each seat's message
    and the spectators' are what that seat's view says now, built afresh."""
    store = Store("sqlite://")
    rows = [SeatRow(q, "person", f"P{q}", None, digest(f"t{q}"), False) for q in range(4)]
    config = {"game": game, "preset": preset, "deals": 2, "claim_seconds": 30,
              "turn_seconds": 0, "seed": 3}
    tid = store.create_table(config, host_digest=digest("t0"), invite="i", seat_rows=rows)
    row = store.table(tid)
    assert row is not None
    sent: list[tuple[int | None, dict[str, Any]]] = []
    room = Room(row, store.seats(tid), store, lambda seat, m: sent.append((seat, m)))
    room.connected.update({q: 1 for q in range(4)})
    rng = random.Random(5)

    def check() -> None:
        state = room.state
        assert state is not None
        for q in range(4):
            view = state.view(q)
            message = seat_message(room, q)
            assert message["counter"] == room.counter
            assert message["view"] == view.to_json()
            assert message["table"] == view.table().to_json()
            assert message["scoreboard"] == room.match.scoreboard().to_json()  # type: ignore[union-attr]
        fresh = public_table([state.view(q).table() for q in range(4)], room.names)
        assert spectator_message(room)["table"] == fresh.to_json()

    async def play() -> int:
        await room.start()
        decisions = deals = after = 0
        while room.status == "playing" and after < 30 and decisions < 5000:
            check()
            moment = room.moment
            assert moment is not None
            seat = min(q for q in moment.actors if q not in moment.decided)
            message = seat_message(room, seat)
            legal = message["view"]["legal"]
            pick = rng.randrange(len(legal) + message["can_pass"])
            deal = len(room.match.deals)  # type: ignore[union-attr]
            await room.submit(seat, legal[pick] if pick < len(legal) else None, room.counter)
            deals += len(room.match.deals) != deal  # type: ignore[union-attr]
            decisions += 1
            after += deals > 0  # a few decisions into the second deal
        room.close()
        return deals

    deals = asyncio.run(play())
    assert deals >= 1 or room.status == "over"  # the checks crossed into a new deal (or the end)
    store.close()


def _module(name: str) -> Any:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_the_load_benchmark_plays_tables_through_real_sockets(tmp_path: Path) -> None:
    bench = _module("server_load")
    out = tmp_path / "load.json"
    assert bench.main(["--tables", "3", "--seconds", "3", "--warmup", "1",
                       "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["decisions_per_s"] > 0 and report["stored_actions_per_s"] > 0
    assert report["latency_ms"]["n"] > 0
    assert 0 < report["latency_ms"]["p50"] <= report["latency_ms"]["max"]
    assert report["server_cpu_percent"][0] > 0
    assert report["errors"] == {}


def test_the_load_benchmarks_people_think_and_act_on_the_newest_state(tmp_path: Path) -> None:
    """People who think: every decision is answered (a new state, or its acknowledgement while
    its window stays open), and none is refused as stale or too late."""
    bench = _module("server_load")
    out = tmp_path / "load.json"
    assert bench.main(["--tables", "3", "--seconds", "3", "--warmup", "1", "--think", "0.05",
                       "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["latency_moved_ms"]["n"] > 0 and report["latency_acked_ms"]["n"] > 0
    assert report["latency_ms"]["n"] == (report["latency_moved_ms"]["n"]
                                         + report["latency_acked_ms"]["n"])
    assert report["announced_ms"]["n"] > 0 and report["passes_at_once_per_s"] > 0
    assert report["unanswered"] == 0
    assert report["errors"] == {}


def _state(counter: int, *, legal: list[str], can_pass: bool, asked: bool = True,
           deadline: float | None = None) -> dict[str, Any]:
    return {"type": "state", "counter": counter, "status": "playing", "asked": asked,
            "can_pass": can_pass, "view": {"legal": legal},
            "moment": {"window": can_pass, "window_deadline": deadline}}


def test_a_person_passes_at_once_with_nothing_to_claim_and_thinks_inside_the_window() -> None:
    bench = _module("server_load")
    clients = bench.Clients({"seed": 1, "think": 3.0}, 0, 1)
    assert clients._pause(_state(4, legal=[], can_pass=True)) == 0
    deadline = time.time() + 1.0
    for _ in range(50):
        claim = clients._pause(_state(4, legal=["B take"], can_pass=True, deadline=deadline))
        assert 0 <= claim <= bench.WITHIN * 1.0
        turn = clients._pause(_state(4, legal=["draw", "take"], can_pass=False))
        assert 1.5 <= turn <= 4.5
    assert bench.Clients({"seed": 1, "think": 0.0}, 0, 1)._pause(
        _state(4, legal=["draw"], can_pass=False)) == 0


def test_a_person_who_is_thinking_acts_on_the_newest_state_only() -> None:
    """A state that comes while the person thinks replaces the one they were thinking about:
    they act once, on the newest."""
    bench = _module("server_load")
    clients = bench.Clients({"seed": 1, "think": 0.05}, 0, 1)
    sent: list[dict[str, Any]] = []
    got = asyncio.Event()

    class Socket:
        async def send(self, text: str) -> None:
            sent.append(json.loads(text))
            got.set()

    async def play() -> None:
        person = bench.Person()
        decider = asyncio.create_task(clients._decide(Socket(), person, bench.TableRun()))
        person.latest = _state(5, legal=["draw"], can_pass=False)
        person.changed.set()
        for _ in range(3):
            await asyncio.sleep(0)  # the person starts thinking about state 5
        assert not sent
        person.latest = _state(6, legal=["discard 4c"], can_pass=False)
        person.changed.set()
        await asyncio.wait_for(got.wait(), 30)
        assert person.pending is not None and person.pending[0] == 6
        person.latest = _state(6, legal=["discard 4c"], can_pass=False, asked=False)
        person.pending = None
        person.changed.set()
        await asyncio.sleep(0)
        decider.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await decider

    asyncio.run(play())
    assert sent == [{"type": "act", "action": "discard 4c", "counter": 6}]


def test_the_server_freezes_what_lives_long_and_thaws_it_when_it_stops() -> None:
    """:func:`hoola.server.heap.tend`: the collector's permanent generation holds what was
    alive at each tick while it runs, and nothing once it is cancelled."""
    from hoola.server.heap import tend

    async def run() -> tuple[int, int]:
        task = asyncio.create_task(tend(tenure=0.01))
        deadline = time.monotonic() + 30
        while gc.get_freeze_count() == 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        frozen = gc.get_freeze_count()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return frozen, gc.get_freeze_count()

    frozen, after = asyncio.run(run())
    assert frozen > 0 and after == 0


def test_the_load_benchmark_refuses_servers_without_redis(
        capsys: pytest.CaptureFixture[str]) -> None:
    bench = _module("server_load")
    with pytest.raises(SystemExit):
        bench.main(["--servers", "2"])
    assert "share their tables through Redis: add --redis URL" in capsys.readouterr().err


def test_a_hoola_views_json_builds_no_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server turns a view into JSON for every seat at every move: naming the rules'
    options must not build and check the preset's rules each time (it was 6% of the server's
    time), and still names exactly the options that differ."""
    from hoola.core.registry import get_game
    from hoola.games.hoola.rules import Rules

    game = get_game("hoola")
    state = game.new_deal(Rules.preset("online", jokers=1), ["A", "B", "C"], seed=1)
    state.view(0).to_json()  # the preset's rules, built once
    built: list[str] = []
    real = Rules.from_options.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(Rules, "from_options",
                        classmethod(lambda cls, p, o: built.append(p) or real(cls, p, o)))
    for q in range(3):
        assert state.view(q).to_json()["rules"] == {"preset": "online",
                                                    "options": {"jokers": 1}}
    assert built == []

"""The benchmarks' accounting (``benchmarks/run.py``, ``capture.py``, ``bots.py``).

Nothing here depends on how fast anything runs: the workloads are checked to play whole games
from a seed, to count decisions and forced decisions as an independent count does, the OpenSpiel
references to sample only uniform chance and to count the C++ loop's decisions exactly, ratios
to pair the rounds of the same run, and the command lines to refuse bad input in one line.
"""

from __future__ import annotations

import importlib
import json
import statistics
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from hoola.core import registry

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _module(name: str) -> ModuleType:
    """A module of ``benchmarks/``, imported as ``run.py`` imports it, sys.path left as it was."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCHMARKS))


# -- our side -----------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 4])
def test_capture_workload_counts_decisions_and_forced_ones(players: int) -> None:
    capture = _module("capture")
    game = registry.get_game("capture")
    assert [p.name for p in game.presets()] == list(capture.PRESETS)
    names = [f"P{i}" for i in range(players)]
    forced_anywhere = 0
    for preset in capture.PRESETS:
        kept: list[Any] = []
        play = capture.capture_game(preset, players, kept)
        decisions, forced, end = play(3)
        assert (decisions, forced, end) == play(3), preset  # a seed repeats its hand
        rules = game.rules(preset)
        # Every card of the pack is played once; the record may hold stops and signals too.
        assert decisions == len(kept[0].history) >= len(rules.for_players(players).pack())
        assert end in ("played", "win", "draw", "both-lose"), preset
        # An independent count: the hand's record replayed, the state asked at every step.
        state = game.new_deal(rules, names, seed=3)
        expected = 0
        for record in kept[0].history:
            (seat,) = state.actors()
            expected += len(state.legal_actions(seat)) == 1
            state.apply(record)
        assert state.is_over
        assert forced == expected, preset
        forced_anywhere += forced
    assert forced_anywhere > 0  # the count is tested on hands that have forced decisions


@pytest.mark.parametrize(("engine", "players"), [("hoola", 4), ("kalookie", 3)])
def test_the_state_loop_plays_whole_deals_and_counts_forced_decisions(engine: str,
                                                                     players: int) -> None:
    """The state loop plays deals with windows (several seats asked, resolved by the game) to
    their end, repeatably; its forced count agrees with the deal's record replayed."""
    capture = _module("capture")
    run = _module("run")
    api = run.import_hoola()
    deal = run.hoola_deal(api, players) if engine == "hoola" else run.kalookie_deal(api, players)
    windows = 0
    for seed in range(4):
        kept: list[Any] = []
        decisions, forced, end = capture.state_loop(deal, kept)(seed)
        assert (decisions, forced, end) == capture.state_loop(deal)(seed)
        state = kept[0]
        assert state.is_over and decisions == len(state.history) and end == state.outcome().end
        replayed, expected = deal(seed), 0
        for record in state.history:
            seats = replayed.actors()
            windows += len(seats) > 1
            expected += len(seats) == 1 and len(replayed.legal_actions(min(seats))) == 1
            replayed.apply(replayed.parse(state.format(record)))
        assert forced == expected
    # Hoola's deals had claim windows (British Kalookie warns for the players: one seat at a time).
    assert windows > 0 if engine == "hoola" else windows == 0


@pytest.mark.parametrize(("engine", "players"), [("hoola", 4), ("hoola", 2), ("kalookie", 2)])
def test_forced_decisions_tallied_as_the_state_says(engine: str, players: int) -> None:
    """The tally (asked seats, one option, no pass) agrees with ``state.actors()`` asked at
    every decision, and the audit's replays are the very deals the timed loop played."""
    run = _module("run")
    api = run.import_hoola()
    deal = run.hoola_deal(api, players) if engine == "hoola" else run.kalookie_deal(api, players)
    driver = api.play_deal
    states: list[Any] = []
    seen: list[bool] = []

    def watched(seed: int) -> Any:
        states.append(deal(seed))
        return states[-1]

    class Probe(run.TallyBot):  # type: ignore[misc]
        __slots__ = ()

        def act(self, view: Any) -> Any:
            alone = len(states[-1].actors()) == 1
            seen.append(alone and len(view.legal) == 1 and not view.can_pass)
            return super().act(view)

    play, audit = (run.hoola_game if engine == "hoola" else run.kalookie_game)(api, players)
    total = Counter[str]()
    for seed in range(1, 4):
        seen.clear()
        decisions, forced = run.tallied(watched, driver, api.RandomBot, players, seed, Probe)
        assert forced == sum(seen)
        assert decisions == len(states[-1].history) >= forced
        timed, unknown, _ = play(seed)
        assert (timed, unknown) == (decisions, -1)  # the same deal; forced left to the audit
        total.update(decisions=decisions, forced=forced)
    assert audit() == (total["forced"], total["decisions"])
    assert audit() == (0, 0)  # the kept deals were cleared
    assert total["forced"] > 0


def test_audit_refuses_a_replay_that_differs() -> None:
    run = _module("run")
    api = run.import_hoola()
    deal = run.hoola_deal(api, 2)
    calls = Counter[int]()

    def unsteady(seed: int) -> Any:  # a second call deals another shuffle
        calls[seed] += 1
        return deal(seed + 1000 * (calls[seed] - 1))

    play, audit = run.driven(unsteady, api.play_deal, api.RandomBot, 2)
    for seed in range(1, 6):
        play(seed)
    with pytest.raises(RuntimeError, match="replayed"):
        audit()


# -- the OpenSpiel references -------------------------------------------------------------------

def test_gin_python_loop_counts_player_decisions_and_forced_ones() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    run = _module("run")
    ref = run.load_reference(pyspiel, "gin_rummy")
    for fresh in (True, False):
        kept: list[Any] = []
        play = run.python_loop(ref, fresh, kept)
        for seed in range(1, 4):
            decisions, forced, end = play(seed)
            assert play(seed) == (decisions, forced, end)  # a seed repeats its game
            state = kept[-1]
            moves = [pa.action for pa in state.full_history() if pa.player >= 0]
            assert decisions == sum(a != run.GIN_PASS for a in moves)
            assert (decisions, forced) == run.replay(ref, state.history())
            assert end == ("knock" if run.GIN_KNOCK in moves else "wall")
        # Fresh shuffles: the games differ from seed to seed.
        assert len({tuple(s.history()[:run.GIN_DEALT]) for s in kept}) > 1


@pytest.mark.parametrize("name", ["gin_rummy", "hearts"])
def test_cpp_loop_counts_decisions_exactly(name: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    run = _module("run")
    ref = run.load_reference(pyspiel, name)
    # The count from history() is the count of player actions (gin: passes out) in full_history.
    initial = ref.game.new_initial_state()
    for seed in range(5):
        state = initial.clone()
        bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(ref.players)]
        pyspiel.evaluate_bots(state, bots, seed)
        players = [pa for pa in state.full_history() if pa.player >= 0]
        assert ref.decisions_in(state.history()) == \
            sum(pa.action not in ref.passes for pa in players)
    play, audit = run.cpp_loop(pyspiel, ref, audited=3)
    played = [play(seed) for seed in range(1, 6)]
    assert all(forced == -1 for _, forced, _ in played)
    forced, decisions = audit()  # the first three games, replayed
    assert decisions == sum(d for d, _, _ in played[:3])
    assert 0 <= forced <= decisions
    assert audit() == (0, 0)


def test_cpp_loop_audit_refuses_a_wrong_count() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    run = _module("run")
    ref = run.load_reference(pyspiel, "gin_rummy")
    wrong = run.Reference(ref.name, ref.game, ref.passes, len, ref.end_of)  # counts dealing too
    play, audit = run.cpp_loop(pyspiel, wrong, audited=1)
    play(1)
    with pytest.raises(RuntimeError, match="on replay"):
        audit()


def test_uniform_chance_check_refuses_a_weighted_game_in_one_line(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    run = _module("run")
    assert run.check_uniform_chance(pyspiel.load_game("gin_rummy").new_initial_state(),
                                    "gin_rummy") > run.GIN_DEALT
    with pytest.raises(ValueError, match="not equally likely") as error:
        run.load_reference(pyspiel, "hanabi")  # cards drawn by how many of each are left
    assert "\n" not in str(error.value)
    # Through the command line: one line on stderr, the rest still measured, exit status 1.
    load = run.load_reference
    monkeypatch.setattr(run, "load_reference", lambda ps, name: load(ps, "hanabi"))
    status = run.main(["--quick", "--seconds", "0.02", "--rounds", "1", "--players", "2",
                       "--kalookie", "none", "--capture", "none", "--no-install", "--plain"])
    assert status == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["gin_rummy: hanabi: a chance node's outcomes are not equally likely, so this "
                   "benchmark cannot sample them with a uniform choice"]


# -- rounds and ratios --------------------------------------------------------------------------

def _workload(run: ModuleType, name: str, rounds: list[tuple[int, int, float, float]]) -> Any:
    w = run.Workload(name, 4, "py-clone", lambda seed: (0, 0, ""))
    w.rounds = [run.Round(1, d, f, d, wall, cpu, Counter()) for d, f, wall, cpu in rounds]
    return w


def test_ratios_pair_the_rounds_of_the_same_run() -> None:
    run = _module("run")
    a = _workload(run, "a", [(100, 10, 1.0, 0.5), (300, 30, 1.0, 1.0), (200, 20, 2.0, 1.0)])
    b = _workload(run, "b", [(50, 0, 1.0, 1.0), (150, 0, 1.0, 1.0), (400, 0, 1.0, 1.0)])
    assert a.spread("decisions_per_s") == (100, 100, 300)
    entry = run.ratio_of(a, b)
    assert entry["per_round"] == [2.0, 2.0, 0.25]  # round i of a over round i of b
    # The ratio of medians (100 / 150), not the median of the per-round ratios (2.0).
    assert entry["ratio"] == pytest.approx(100 / 150)
    cpu = run.ratio_of(a, b, "cpu_decisions_per_s")
    assert cpu["per_round"] == [200 / 50, 300 / 150, 200 / 400]
    choices = run.ratio_of(a, b, "choices_per_s")  # a's decisions a tenth forced
    assert choices["per_round"] == pytest.approx([1.8, 1.8, 0.225])
    assert run.ratio_cell(entry) == "0.67 (0.25-2.00)"


def test_run_writes_every_round_and_its_ratios(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel")
    run = _module("run")
    out = tmp_path / "bench.json"
    status = run.main(["--quick", "--seconds", "0.1", "--rounds", "2", "--players", "4",
                       "--kalookie", "none", "--capture", "none", "--no-install", "--plain",
                       "--json", str(out)])
    assert status == 0
    data = json.loads(out.read_text())
    loops = {w["loop"]: w for w in data["workloads"]}
    assert set(loops) == {"py-new", "py-clone", "cpp", "state loop", "play_deal"}
    for w in data["workloads"]:
        assert len(w["rounds"]) == 2
        assert w["decisions"] == sum(r["decisions"] for r in w["rounds"])
        assert 0 <= w["forced"] <= w["forced_counted_in"] <= w["decisions"]
    hoola, gin = loops["state loop"], loops["py-clone"]
    rate = [[r["decisions"] / r["wall_s"] for r in w["rounds"]] for w in (hoola, gin)]
    entry = data["ratios_vs_gin_rummy"]["hoola pagat 4p"]["wall/py-clone"]
    assert entry["per_round"] == pytest.approx([x / y for x, y in zip(*rate, strict=True)])
    assert entry["ratio"] == pytest.approx(statistics.median(rate[0]) /
                                           statistics.median(rate[1]))
    assert data["load_average"]["start"] is not None
    printed = capsys.readouterr().out
    assert "Headline, Hoola 4p (state loop) ÷ gin_rummy (Python loop, cloned state), " \
        f"decisions/s: {run.ratio_cell(entry)} by wall clock" in printed
    driven = data["ratios_vs_gin_rummy"]["hoola pagat 4p play_deal"]["wall/py-clone"]
    assert f"through play_deal (a view for every decision) ÷ the same: " \
        f"{run.ratio_cell(driven)} by wall clock" in printed


# -- command lines ------------------------------------------------------------------------------

def test_run_refuses_a_player_count_no_capture_game_has(
        capsys: pytest.CaptureFixture[str]) -> None:
    run = _module("run")
    assert run.main(["--capture", "5", "--no-install", "--players", "4", "--kalookie", "none"]) \
        == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().splitlines() == [
        "--capture: no capture game is played by 5 players (hola 2/4/6; sedma 2/3/4; sedmice "
        "2/4; sedmice-croatian 2/4; ristikontra 2/4; ristiklappi 2/4)"]
    for bad, message in ((["--capture", "four"], "--capture takes comma-separated integers"),
                         (["--players", "9"], "--players must be between 2 and 5"),
                         (["--rounds", "0"], "--rounds at least 1")):
        with pytest.raises(SystemExit):
            run.parse_args(bad)
        assert message in capsys.readouterr().err


def test_bots_benchmark_searches_where_the_search_searches(
        capsys: pytest.CaptureFixture[str]) -> None:
    bots = _module("bots")
    spots = bots.positions("capture", 2)
    assert len(spots) == 2
    assert [seat for _, seat in spots] == [seat for _, seat in bots.positions("capture", 2)]
    done = bots.search_round("capture", spots, 4)
    assert done.searched == 2 and done.rollouts >= 2 * 4
    assert bots.default_lineup("hoola") == ("expert", "greedy")
    assert bots.default_lineup("capture") == ("expert", "random")
    sim = bots.sim_round("capture", 2, 1)
    assert sim.deals == 2 * 2  # two units, each under both seatings of expert and random
    with pytest.raises(SystemExit):
        bots.parse_args(["--games", "chess"])
    assert "--games: unknown game 'chess'; games are hoola, kalookie, capture" in \
        capsys.readouterr().err

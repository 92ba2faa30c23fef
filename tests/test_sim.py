"""The simulation lab: seatings, duplicate deals, statistics, ratings, the sim command, Ray."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hoola.bots import make_bot
from hoola.cli import cli
from hoola.core.driver import play_deal
from hoola.core.errors import IllegalActionError, NotationError, RulesError
from hoola.core.game import GameState, OptionInfo, Outcome, PresetInfo, places_by, played_to_its_end
from hoola.core.records import verify_path
from hoola.core.registry import get_game
from hoola.core.table import Moment, Table
from hoola.games.hoola.rules import Rules
from hoola.sim import SimConfig, bot_stats, margin, rules_stats, run, seatings
from hoola.sim.simulation import parse_spec, play_unit
from hoola.sim.stats import mean_ci, team_stats

PAGAT = Rules.preset("pagat")


def test_seatings_are_the_distinct_rotations() -> None:
    assert seatings(["a", "b", "c", "d"], 4) == [("a", "b", "c", "d"), ("d", "a", "b", "c"),
                                                 ("c", "d", "a", "b"), ("b", "c", "d", "a")]
    assert seatings(["x"], 3) == [("x", "x", "x")]
    assert len(seatings(["a", "b"], 5)) == 5


def test_a_duplicate_unit_deals_the_same_cards_to_every_seating() -> None:
    config = SimConfig(("expert", "greedy"), PAGAT, units=1, seed=3, records=True)
    first, second = play_unit(config, 0)
    assert (first.seats, second.seats) == (("expert", "greedy") * 2, ("greedy", "expert") * 2)
    hands = [g.record.split("hands = ")[1].split("\n")[0] for g in (first, second)  # type: ignore
             ]
    strip = [h.replace("expert", "X").replace("greedy", "X") for h in hands]
    assert strip[0] == strip[1]


def test_units_are_independent_of_the_number_of_processes() -> None:
    config = SimConfig(("expert", "random"), PAGAT, units=6, seed=1)
    one = run(config, workers=1)
    two = run(config, workers=2)
    assert [(g.unit, g.rotation, g.deals) for g in one] == \
        [(g.unit, g.rotation, g.deals) for g in two]
    for g in one:
        for d in g.deals:
            assert abs(sum(d.payments)) < 1e-9


def test_statistics_over_units() -> None:
    m = mean_ci([2.0] * 10)
    assert (m.mean, m.half, m.n) == (2.0, 0.0, 10)
    assert mean_ci([1.0, -1.0] * 50).excludes_zero is False
    config = SimConfig(("expert", "random"), PAGAT, units=30, seed=2)
    games = run(config, workers=1)
    expert, rnd = bot_stats(games, ["expert", "random"])
    assert expert.seat_deals == rnd.seat_deals == 30 * 2 * 2
    assert expert.stakes.mean == pytest.approx(-rnd.stakes.mean)
    assert margin(games, "expert", "random").mean == pytest.approx(2 * expert.stakes.mean)
    assert expert.stakes.mean > 0 and margin(games, "expert", "random").excludes_zero
    assert 0 < expert.win_rate < 1 and sum(expert.ends.values()) == pytest.approx(expert.win_rate)
    rules = rules_stats(games, 4)
    assert rules.deals == 60 and sum(rules.ends.values()) == pytest.approx(1)
    assert sum(e.mean for e in rules.seat_edges) == pytest.approx(0, abs=1e-9)


def test_matches_pass_the_deal_to_the_winner() -> None:
    config = SimConfig(("greedy",), PAGAT, units=2, seed=5, match_deals=3, duplicate=False)
    for g in run(config, workers=1):
        assert len(g.deals) == 3
        for before, after in zip(g.deals, g.deals[1:], strict=False):
            assert after.dealer in before.winners


def test_ratings_put_the_stronger_bot_first() -> None:
    pytest.importorskip("openskill")
    from hoola.sim.ratings import rate

    games = run(SimConfig(("expert", "random"), PAGAT, units=25, seed=4), workers=1)
    ratings = rate(games, ["random", "expert"])
    assert [r.bot for r in ratings] == ["expert", "random"]
    assert ratings[0].mu > ratings[1].mu


def test_ratings_rank_bots_as_the_stakes_do() -> None:
    """Seed 13 is a run whose deal-by-deal ratings (with openskill's drift) put greedy first
    while the stakes and the paired margin put the expert clearly ahead."""
    pytest.importorskip("openskill")
    from hoola.sim.ratings import rate, unit_scores
    from hoola.sim.stats import bot_stats

    games = run(SimConfig(("expert", "greedy"), PAGAT, units=200, seed=13), workers=1)
    stakes = {s.bot: s.stakes.mean for s in bot_stats(games, ("expert", "greedy"))}
    assert stakes["expert"] > stakes["greedy"]
    ratings = rate(games, ["greedy", "expert"])
    assert [r.bot for r in ratings] == ["expert", "greedy"]
    assert ratings[0].mu > ratings[1].mu and ratings[0].ordinal > ratings[1].ordinal
    assert all(r.units == 200 for r in ratings)  # one contest a shuffle, both seatings in it
    scores = unit_scores(games, ["expert", "greedy"])
    assert len(scores) == 200 and all(abs(u["expert"] + u["greedy"]) < 1e-9 for u in scores)


def test_the_ratings_table_says_what_it_rates() -> None:
    pytest.importorskip("openskill")
    result = CliRunner().invoke(cli, ["sim", "-n", "3", "-j", "1", "--bots", "expert,greedy"])
    assert result.exit_code == 0, result.output
    assert "who won more stakes on each shuffle" in " ".join(result.output.split())
    assert "every deal" not in result.output


def test_bot_specs_carry_options() -> None:
    assert parse_spec("ismcts:playouts=30:seconds=0.5") == ("ismcts",
                                                           {"playouts": 30, "seconds": 0.5})
    with pytest.raises(ValueError, match="key=value"):
        parse_spec("ismcts:30")


def test_hoola_sim_reports_plots_and_saves_records_that_verify(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    plots, records = tmp_path / "plots", tmp_path / "records"
    result = CliRunner().invoke(cli, ["sim", "-n", "4", "-j", "1", "--bots", "expert,greedy",
                                      "--plot", str(plots), "--records", str(records)])
    assert result.exit_code == 0, result.output
    for word in ("stakes/deal", "expert - greedy", "openskill", "ordinal"):
        assert word in result.output
    assert sorted(p.name for p in plots.iterdir()) == ["ends.png", "running.png", "stakes.png"]
    files = sorted(records.iterdir())
    assert len(files) == 8
    assert all(verify_path(f).ok for f in files)


def test_hoola_sim_round_robin_and_rotated_seats() -> None:
    result = CliRunner().invoke(cli, ["sim", "-n", "6", "-j", "1", "--bots",
                                      "random,greedy,expert", "--round-robin", "--rotate"])
    assert result.exit_code == 0, result.output
    assert "random - greedy" in result.output and "greedy - expert" in result.output


def test_hoola_sim_refuses_unknown_bots_and_options() -> None:
    runner = CliRunner()
    assert "unknown bot" in runner.invoke(cli, ["sim", "--bots", "nobody"]).output
    assert runner.invoke(cli, ["sim", "-o", "knock_limit=banana", "-n", "1"]).exit_code != 0


def test_hoola_sim_compares_rules(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = CliRunner().invoke(cli, ["sim", "--compare-rules", "pagat,classic,online", "-n",
                                      "5", "-j", "1", "--bots", "greedy", "--plot",
                                      str(tmp_path)])
    assert result.exit_code == 0, result.output
    for word in ("pagat", "classic", "online", "dealer", "dealer+3"):
        assert word in result.output
    assert (tmp_path / "rules-seats.png").exists()


def test_ray_runs_the_same_simulation() -> None:
    ray = pytest.importorskip("ray")
    from hoola.sim.simulation import run_ray

    config = SimConfig(("expert", "greedy"), PAGAT, units=3, seed=8)
    try:
        on_ray = run_ray(config, "local")
    finally:
        ray.shutdown()
    here = run(replace(config), workers=1)
    assert [(g.unit, g.rotation, g.deals) for g in on_ray] == \
        [(g.unit, g.rotation, g.deals) for g in here]


# -- external bots in the lab: forfeits, error reports, no orphans --------------------------------

FAULTY_BOT = '''\
import json, os, sys, time
# Named by pid and start time: a pid the system reuses later is not mistaken for this process.
start = open("/proc/self/stat").read().rpartition(")")[2].split()[19]
open(os.path.join(sys.argv[1], f"{os.getpid()}-{start}"), "w").close()
mode = sys.argv[2]
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "faulty"}), flush=True)
    elif m["type"] == "act":
        if mode == "hang":
            time.sleep(120)
        if mode == "crash" and "Kd" in m["view"]["hand"]:
            sys.exit(7)  # a crash mid-deal, in some deals only
        print(json.dumps({"type": "action", "id": m["id"], "index": 0}), flush=True)
    elif m["type"] == "quit" and mode != "stubborn":
        break
if mode == "stubborn":
    time.sleep(120)  # ignores quit and the end of its input
'''


def faulty(tmp_path: Path, mode: str) -> tuple[str, Path]:
    """An external bot command (``NAME=COMMAND``) and the folder where each process leaves its
    pid; ``mode`` is crash, hang, stubborn or fine."""
    script, pids = tmp_path / "faulty.py", tmp_path / "pids"
    script.write_text(FAULTY_BOT, encoding="utf-8")
    pids.mkdir(exist_ok=True)
    return f"faulty={sys.executable} {script} {pids} {mode}", pids


def assert_no_orphans(pids: Path, *, started: bool = True) -> None:
    """No bot that left its pid in ``pids`` still exists, not even as a zombie left unreaped."""
    bots = [p.name.split("-") for p in pids.iterdir()]
    assert bots or not started, "no bot process was started"
    alive = [int(pid) for pid, start in bots if _start_time(pid) == start]
    assert not alive, f"bot processes {alive} outlived the run"


def _start_time(pid: str) -> str | None:
    """A process's start time (in clock ticks since boot), or None if there is no such pid."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return None
    return stat.rpartition(")")[2].split()[19]


@pytest.mark.parametrize(("game", "other", "units"), [("hoola", "greedy", 6),
                                                       ("kalookie", "random", 3)])
def test_a_bot_that_crashes_forfeits_its_deals_and_the_run_goes_on(tmp_path: Path, game: str,
                                                                   other: str,
                                                                   units: int) -> None:
    command, pids = faulty(tmp_path, "crash")
    external = (tuple(command.split("=", 1)),)
    config = SimConfig(("faulty", other), get_game(game).rules(), units=units, seed=1,
                       records=True, external=external, game=game)  # type: ignore[arg-type]
    games = run(config, workers=1)
    assert len(games) == 2 * units
    forfeited = [(g, d) for g in games for d in g.deals if d.forfeit is not None]
    errors = [e for g in games for e in g.errors]
    assert forfeited and len(errors) == len(forfeited) < len(games)
    for g, d in forfeited:
        assert d.end == "forfeit" and d.winners == ()
        assert g.seats[d.forfeit] == "faulty"  # type: ignore[index]
        assert d.payments[d.forfeit] == -9.0  # type: ignore[index]
        assert sorted(d.payments) == [-9.0, 3.0, 3.0, 3.0]
    for g in games:
        for d in g.deals:
            assert sum(d.payments) == pytest.approx(0)
    for e in errors:
        assert e.bot == "faulty" and e.code == "external-exited" and "exit code 7" in e.reason
    stats = {s.bot: s for s in bot_stats(games, ["faulty", other])}
    assert stats["faulty"].forfeits == len(forfeited) and stats[other].forfeits == 0
    assert stats["faulty"].stakes.mean == pytest.approx(-stats[other].stakes.mean)
    for g in games:  # the record holds the forfeited deal as played so far, and verifies
        path = tmp_path / f"{g.unit}-{g.rotation}.toml"
        path.write_text(g.record or "", encoding="utf-8")
        assert verify_path(path).ok
    assert_no_orphans(pids)


def test_hoola_sim_reports_every_bot_error_and_leaves_no_process(tmp_path: Path) -> None:
    command, pids = faulty(tmp_path, "crash")
    result = CliRunner().invoke(cli, ["sim", "-x", command, "--bots", "faulty,greedy", "-n", "4",
                                      "-j", "2"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "stakes/deal" in out and "forfeits" in out and "openskill" in out
    assert "bot errors" in out
    lines = [line for line in out.splitlines() if "forfeited the deal" in line]
    assert lines and all("faulty (seat" in line and "exit code 7" in line for line in lines)
    assert_no_orphans(pids)


@pytest.mark.parametrize("mode", ["hang", "stubborn"])
def test_slow_and_stubborn_bots_are_ended_with_their_game(tmp_path: Path, mode: str) -> None:
    command, pids = faulty(tmp_path, mode)
    result = CliRunner().invoke(cli, ["sim", "-x", command, "--bots", "faulty:timeout=0.5,greedy",
                                      "-n", "2", "-j", "2"])
    assert result.exit_code == 0, result.output
    assert ("did not answer within 0.5 s" in result.output) == (mode == "hang")
    assert_no_orphans(pids)


def _sim_in_background(command: str, workers: int) -> subprocess.Popen[str]:
    """``hoola sim`` with a hanging bot, in a session of its own as a terminal's foreground job
    (a Ctrl-C there reaches the whole group: the main process and the pool's workers)."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.Popen(["hoola", "sim", "-x", command, "--bots", "faulty:timeout=100,greedy",
                             "-n", "8", "-j", str(workers)], env=env, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _wait_for(proc: subprocess.Popen[str], done: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 60
    while not done():
        assert proc.poll() is None, proc.communicate()[0]
        assert time.monotonic() < deadline, "the run never got there"
        time.sleep(0.01)


def _ended(proc: subprocess.Popen[str]) -> str:
    """The output of a run told to stop, once it has ended (killed if it will not end)."""
    try:
        return proc.communicate(timeout=60)[0]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _pool_workers(pid: int) -> list[int]:
    """The pool's worker processes a process has spawned so far (read from /proc)."""
    workers = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            if int(stat.read_text().rpartition(")")[2].split()[1]) == pid and \
                    b"spawn_main" in (stat.parent / "cmdline").read_bytes():
                workers.append(int(stat.parent.name))
    return workers


@pytest.mark.parametrize(("sig", "workers"), [(signal.SIGINT, 2), (signal.SIGINT, 1),
                                              (signal.SIGTERM, 2)])
def test_ctrl_c_or_sigterm_ends_the_run_and_every_bot(tmp_path: Path, sig: int,
                                                      workers: int) -> None:
    command, pids = faulty(tmp_path, "hang")
    proc = _sim_in_background(command, workers)
    try:  # each worker (or the main process) waits on a hanging bot, of two bots in its game
        _wait_for(proc, lambda: len(list(pids.iterdir())) == 2 * workers)
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)  # Ctrl-C reaches the terminal's whole foreground group
        else:
            os.kill(proc.pid, sig)  # kill PID reaches the main process only
    finally:
        out = _ended(proc)
    assert proc.returncode != 0 and "Traceback" not in out, out
    assert ("Aborted" in out) == (sig == signal.SIGINT)
    assert_no_orphans(pids)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_or_sigterm_while_the_workers_start_ends_the_run_quietly(tmp_path: Path,
                                                                        sig: int) -> None:
    # The workers are still importing: a signal must not strike there, where nothing catches it.
    command, pids = faulty(tmp_path, "hang")
    proc = _sim_in_background(command, 2)
    try:
        _wait_for(proc, lambda: len(_pool_workers(proc.pid)) == 2)
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)
        else:
            os.kill(proc.pid, sig)
    finally:
        out = _ended(proc)
    assert proc.returncode != 0 and "Traceback" not in out, out
    assert ("Aborted" in out) == (sig == signal.SIGINT)
    assert_no_orphans(pids, started=False)


@pytest.mark.parametrize(("args", "words"), [
    (["-x", "gone=/nonexistent/bot", "--bots", "gone,greedy"],
     "gone: program '/nonexistent/bot' is not an executable file"),
    (["-x", "gone=no-such-program-hoola --fast", "--bots", "gone"],
     "program 'no-such-program-hoola' is not found on PATH"),
    (["-x", "expert=python bot.py", "--bots", "expert"], "name 'expert' is taken"),
    (["-x", "master=python bot.py"], "name 'master' is taken"),
    (["-x", "a:b=python bot.py"], "use letters, digits, _ and - only"),
    (["-x", "mine=", "--bots", "mine"], "is not NAME=COMMAND"),
    (["-x", "mine=python 'x", "--bots", "mine"], "cannot read the bot command"),
    (["-x", f"mine={sys.executable}", "--bots", "mine:timeout=0"], "positive number"),
    (["-x", f"mine={sys.executable}", "--bots", "mine:speed=2"], "takes the option timeout"),
    (["--bots", "nobody"], "levels are beginner, easy, medium, hard, master"),
    (["--bots", "expert:depth=3"], "expert:depth=3"),
    (["--bots", ","], "name at least one bot"),
    (["--compare-rules", ","], "name at least one preset"),
])
def test_hoola_sim_refuses_bad_bots_before_playing(args: list[str], words: str) -> None:
    result = CliRunner().invoke(cli, ["sim", "-n", "1", "-j", "1", *args])
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(("args", "module", "words"), [
    ([], "openskill", "openskill (for the ratings)"),
    (["--plot", "charts"], "matplotlib", "matplotlib (for --plot)"),
])
def test_hoola_sim_checks_the_extras_before_playing(monkeypatch: pytest.MonkeyPatch,
                                                    args: list[str], module: str,
                                                    words: str) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # as if it were not installed
    played: list[object] = []
    monkeypatch.setattr("hoola.sim.report.run", lambda *a, **k: played.append(a) or [])
    result = CliRunner().invoke(cli, ["sim", "-n", "1", "-j", "1", *args])
    assert result.exit_code == 1
    from hoola.install import install_command

    assert words in result.output and install_command("sim") in result.output
    assert not played


def test_the_report_fits_an_80_column_terminal() -> None:
    from rich.console import Console

    from hoola.sim.report import compare_rules, simulate

    console = Console(width=80, record=True, file=io.StringIO())
    config = SimConfig(("ismcts:playouts=2", "random", "greedy"), PAGAT, units=3, seed=2,
                       round_robin=(("ismcts:playouts=2", "random"), ("random", "greedy"),
                                    ("ismcts:playouts=2", "greedy")))
    simulate(config, workers=1, console=console)
    compare_rules(replace(config, lineup=("greedy",), round_robin=()),
                  ["pagat", "classic", "online", "rummy-rulebook"], {}, workers=1,
                  console=console)
    text = console.export_text()
    assert max(len(line.rstrip()) for line in text.splitlines()) <= 80
    assert "…" not in text  # nothing cut short
    for bot in ("ismcts:playouts=2", "random", "greedy"):  # one line per bot, never wrapped
        assert any(line.startswith(f" {bot} ") for line in text.splitlines()), bot
    for word in ("dealer+3", "won by knock", "undercut", "paid for all", "turns per deal",
                 "seconds per deal", "stakes/deal", "openskill", "Margins"):
        assert word in text, word  # every figure Hoola's report has always printed


def test_levels_are_bots_for_the_sim_and_the_help_names_them_all() -> None:
    from hoola.bots import bot_kinds

    result = CliRunner().invoke(cli, ["sim", "--bots", "master:playouts=2,beginner", "-n", "1",
                                      "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "master:playouts=2 - beginner" in result.output
    for command in ("sim", "play"):
        help_text = " ".join(CliRunner().invoke(cli, [command, "--help"]).output.split())
        for kind in bot_kinds():
            assert kind in help_text, (command, kind)


# -- the generic outcome of a deal, as each game tells it ----------------------------------------

def _played(game_name: str, seed: int, preset: str | None = None,
            bot: str = "random") -> GameState:
    """A deal of ``game_name`` played to its end by four ``bot``s."""
    game = get_game(game_name)
    state = game.new_deal(game.rules(preset), ["A", "B", "C", "D"], seed=seed)
    bots = [make_bot(bot, seed + s, game=game) for s in range(4)]
    return play_deal(state, bots, rng=random.Random(seed))


def test_a_hoola_outcome_tells_the_end_the_winners_and_the_undercut_knocker() -> None:
    from hoola.games.hoola.actions import Draw, Knock, Take

    unfinished = get_game("hoola").new_deal(PAGAT, ["A", "B", "C", "D"], seed=1)
    with pytest.raises(IllegalActionError) as caught:
        unfinished.outcome()
    assert caught.value.code == "deal-not-over"
    undercuts = 0
    for seed in range(60):
        state = _played("hoola", seed, bot="greedy")  # knocks whenever it may
        o, result = state.outcome(), state.result  # type: ignore[attr-defined]
        assert (o.end, o.winners, o.dealer) == (result.end, tuple(result.winners), 0)
        assert o.turns == sum(isinstance(a, Draw | Take) for a in state.history)
        assert list(o.tags) == ["undercut", "paid for all"]
        last = state.history[-1]
        knocker_lost = isinstance(last, Knock) and last.player not in result.winners
        assert o.tags["undercut"] == ((last.player,) if knocker_lost else ())
        undercuts += bool(o.tags["undercut"])
        assert o.tags["paid for all"] == (() if knocker_lost or result.payer is None
                                          else (result.payer,))
    assert undercuts  # the case the tag is for did occur


@pytest.mark.parametrize(("preset", "tags"), [("british", ["bought in", "out"]),
                                              ("north-american", [])])
def test_a_kalookie_outcome_tells_the_end_and_the_winner(preset: str, tags: list[str]) -> None:
    for seed in range(4):
        state = _played("kalookie", seed, preset)
        o, result = state.outcome(), state.result  # type: ignore[attr-defined]
        assert o.end == result.end in ("call-up", "kalookie", "void")
        assert o.winners == (() if result.winner is None else (result.winner,))
        assert o.dealer == 0 and o.turns > 0 and list(o.tags) == tags


# -- a third game, registered in these tests only: the lab plays it with no change --------------

@dataclass(frozen=True)
class Add:
    """Race's only action: ``player`` adds ``amount`` (1 to 3) to the count."""

    player: int
    amount: int


@dataclass(frozen=True)
class RaceRules:
    """Race's rules: the count to reach (exactly; going over busts)."""

    preset_name: str = "standard"
    target: int = 10

    def options(self) -> dict[str, Any]:
        return {"target": self.target}

    def overrides(self) -> dict[str, Any]:
        return {} if self.target == 10 else {"target": self.target}


@dataclass(frozen=True)
class RaceView:
    """What a seat knows of a Race deal: everything (nothing is hidden)."""

    player: int
    names: tuple[str, ...]
    count: int
    target: int
    legal: tuple[Add, ...]
    can_pass: bool = False

    def table(self) -> Table:
        return Table(zones=(), moment=Moment(actors=(), turn=None, phase="play"))

    def to_json(self) -> dict[str, Any]:
        return {"game": "race", "player": self.player, "names": list(self.names),
                "count": self.count, "target": self.target,
                "legal": [race_format(a, self.names) for a in self.legal],
                "can_pass": self.can_pass}


def race_format(action: Add, names: Sequence[str]) -> str:
    return f"{names[action.player]} add {action.amount}"


def race_parse(text: str, names: Sequence[str]) -> Add:
    words = text.split()
    if len(words) != 3 or words[0] not in names or words[1] != "add" or \
            words[2] not in ("1", "2", "3"):
        raise NotationError(f"cannot read {text!r}: write 'NAME add 1', 2 or 3")
    return Add(list(names).index(words[0]), int(words[2]))


class RaceState:
    """A deal of Race: in turn from the dealer's left, each adds 1 to 3 to the count; who
    reaches the target exactly wins for their team, who goes over loses it (and is tagged)."""

    def __init__(self, rules: RaceRules, names: Sequence[str], dealer: int, start: int) -> None:
        self.rules, self.names, self.dealer = rules, tuple(names), dealer
        self.count = start
        self.history: list[Any] = []
        self.current = (dealer + 1) % len(names)

    @property
    def is_over(self) -> bool:
        return self.count >= self.rules.target

    def actors(self) -> frozenset[int]:
        return frozenset() if self.is_over else frozenset({self.current})

    def legal_actions(self, player: int) -> list[Add]:
        return [Add(player, k) for k in (1, 2, 3)] if player in self.actors() else []

    def can(self, action: Any) -> bool:
        return action in self.legal_actions(getattr(action, "player", -1))

    def verify(self, action: Any) -> None:
        if not self.can(action):
            raise IllegalActionError(f"{action!r} is not legal now")

    def apply(self, action: Any) -> Any:
        self.verify(action)
        self.history.append(action)
        self.count += action.amount
        self.current = (self.current + 1) % len(self.names)
        return action

    def resolve(self, decisions: Sequence[Any]) -> Any | None:
        return decisions[0] if decisions else None

    def view(self, player: int) -> RaceView:
        return RaceView(player, self.names, self.count, self.rules.target,
                        tuple(self.legal_actions(player)))

    def _teams(self, seat: int) -> tuple[int, ...]:
        n = len(self.names)
        return tuple(q for q in range(n) if q % 2 == seat % 2) if n == 4 else (seat,)

    def outcome(self) -> Outcome:
        if not self.is_over:
            raise IllegalActionError("the deal is not over", "deal-not-over")
        last = self.history[-1]
        bust = self.count > self.rules.target
        mover = self._teams(last.player)
        winners = tuple(q for q in range(len(self.names)) if (q in mover) != bust)
        return Outcome("bust" if bust else "exact", winners, self.dealer, len(self.history),
                       {"went over": (last.player,) if bust else ()})

    def returns(self) -> list[Fraction]:
        if not self.is_over:
            return [Fraction(0)] * len(self.names)
        won = self.outcome().winners
        return [Fraction(len(self.names) - len(won), len(won)) if q in won else Fraction(-1)
                for q in range(len(self.names))]

    def format(self, action: Any) -> str:
        return race_format(action, self.names)

    def parse(self, text: str) -> Any:
        return race_parse(text, self.names)

    def copy(self) -> RaceState:
        other = RaceState(self.rules, self.names, self.dealer, self.count)
        other.history, other.current = list(self.history), self.current
        return other


class RaceMatch:
    """Race deals, the deal passing left, until a seat is 3 up or the front end stops."""

    def __init__(self, rules: RaceRules, names: Sequence[str], seed: int | None) -> None:
        self.rules, self.names = rules, tuple(names)
        self.rng = random.Random(seed)
        self.deals: list[RaceState] = []
        self.money = [Fraction(0)] * len(self.names)

    @property
    def is_over(self) -> bool:
        return max(self.money) >= 3

    def new_deal(self) -> RaceState:
        state = RaceState(self.rules, self.names, len(self.deals) % len(self.names),
                          self.rng.randrange(6))
        self.deals.append(state)
        return state

    def finish_deal(self) -> None:
        self.money = [m + r for m, r in zip(self.money, self.deals[-1].returns(), strict=True)]

    def totals(self) -> list[Fraction]:
        return list(self.money)

    def places(self) -> list[int]:
        return places_by(self.money, higher=True)

    def takings(self) -> list[Fraction]:
        return list(self.money)

    def scoreboard(self) -> Table:
        return Table(zones=(), moment=Moment(actors=(), turn=None, phase="over"))


class RaceGame:
    """Race as a registry holds it; its records are the deals' starts and actions."""

    name, title, min_players, max_players, default_preset = "race", "Race", 2, 4, "standard"
    ends_by_itself = True

    def presets(self) -> Sequence[PresetInfo]:
        return [PresetInfo("standard", "these tests"), PresetInfo("short", "these tests")]

    def option_infos(self) -> Sequence[OptionInfo]:
        return [OptionInfo("target", 10, "a whole number", "the count to reach")]

    def rules(self, preset: str | None = None, options: Mapping[str, Any] | None = None,
              ) -> RaceRules:
        if preset not in (None, "standard", "short"):
            raise RulesError(f"unknown Race preset {preset!r}")
        target = dict(options or {}).get("target", 6 if preset == "short" else 10)
        return RaceRules(preset or "standard", target)

    def teams(self, rules: Any, players: int) -> tuple[tuple[int, ...], ...] | None:
        return ((0, 2), (1, 3)) if players == 4 else None

    def new_deal(self, rules: Any, names: Sequence[str], *, seed: int | None = None,
                 ) -> RaceState:
        return RaceMatch(rules, names, seed).new_deal()

    def new_match(self, rules: Any, names: Sequence[str], *, seed: int | None = None,
                  until: int = 1) -> RaceMatch:
        played_to_its_end(until, "Race")
        return RaceMatch(rules, names, seed)

    def determinize(self, view: Any, rng: random.Random) -> RaceState:
        raise NotImplementedError

    def expert(self, seed: int | None = None) -> Any:
        raise NotImplementedError

    def bots(self) -> Mapping[str, Callable[..., Any]]:
        return {}

    def format_action(self, action: Any, names: Sequence[str]) -> str:
        return race_format(action, names)

    def parse_action(self, text: str, names: Sequence[str]) -> Any:
        return race_parse(text, names)

    def record_text(self, match: Any, comment: str = "") -> str:
        lines = [f"# {line}" for line in comment.splitlines()]
        lines += ['format = "hoola-record/1"', 'game = "race"',
                  f"target = {match.rules.target}", f"players = {json.dumps(match.names)}"]
        for d in match.deals:
            start = d.count - sum(a.amount for a in d.history)
            lines += ["[[deal]]", f"dealer = {d.dealer}", f"start = {start}",
                      f"actions = {json.dumps([d.format(a) for a in d.history])}"]
        return "\n".join(lines) + "\n"

    def verify_record(self, data: dict[str, Any], text: str = "") -> list[str]:
        rules = RaceRules(target=data["target"])
        for i, d in enumerate(data["deal"], 1):
            state = RaceState(rules, data["players"], d["dealer"], d["start"])
            for text_ in d["actions"]:
                if not state.can(state.parse(text_)):
                    return [f"deal {i}: {text_} refused"]
                state.apply(state.parse(text_))
        return []

    def tell_record(self, data: dict[str, Any], text: str = "") -> Iterator[str]:
        return iter(())


@pytest.fixture
def race(monkeypatch: pytest.MonkeyPatch) -> RaceGame:
    """Race, registered for one test."""
    from hoola.core import registry

    game = RaceGame()
    registry.game_names()  # the entry points first, so Race is one more
    monkeypatch.setitem(registry._GAMES, game.name, game)
    return game


def test_the_lab_plays_a_game_it_has_never_heard_of_with_teams(race: RaceGame,
                                                               tmp_path: Path) -> None:
    from rich.console import Console

    from hoola.sim.report import simulate

    console = Console(width=80, record=True, file=io.StringIO())
    config = SimConfig(("random", "beginner"), race.rules(), units=12, seed=3, game="race",
                       match_deals=5)
    games = simulate(config, workers=1, console=console, records_dir=tmp_path)
    text = console.export_text()
    assert "Race: 12 units" in text and "rules standard" in text
    for words in ("Teams: stakes won per deal", "random+random", "beginner+beginner",
                  "won by exact", "went over", "random - beginner"):
        assert words in text, words
    assert len(games) == 24 and all(g.teams == ((0, 2), (1, 3)) for g in games)
    assert any(len(g.deals) < 5 for g in games)  # a match ended by the game's own end
    for g in games:
        totals = [sum(d.payments[q] for d in g.deals) for q in range(4)]
        assert totals[0] == totals[2] and totals[1] == totals[3] and sum(totals) == 0
        assert all(d.dealer == k % 4 for k, d in enumerate(g.deals))
    teams = {t.team: t for t in team_stats(games)}
    assert teams["random+random"].stakes.mean == pytest.approx(
        -teams["beginner+beginner"].stakes.mean)
    files = sorted(tmp_path.iterdir())
    assert len(files) == 24 and all(verify_path(f).ok for f in files)
    # Another seat count: no teams, so no team table.
    two = SimConfig(("random",), race.rules("short"), players=3, units=2, seed=1, game="race")
    assert all(g.teams is None for g in run(two, workers=1)) and not team_stats(run(two, 1))


# -- Kalookie in the lab ---------------------------------------------------------------------------

BRITISH = get_game("kalookie").rules("british")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_hoola_sim_plays_kalookie_and_saves_records_that_verify(tmp_path: Path,
                                                                workers: str) -> None:
    result = CliRunner().invoke(cli, ["sim", "--game", "kalookie", "--bots", "random,beginner",
                                      "-n", "3", "-j", workers, "--seed", "4", "--records",
                                      str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "Kalookie: 3 units (duplicate seats), 6 games, 6 deals, 4 players, rules british" \
        in result.output
    for words in ("stakes/deal", "random - beginner", "bought in", "turns per deal"):
        assert words in result.output, words
    files = sorted(tmp_path.iterdir())
    assert len(files) == 6 and all(verify_path(f).ok for f in files)
    assert all('game = "kalookie"' in f.read_text(encoding="utf-8") for f in files)


def test_kalookie_units_are_duplicate_deals_and_independent_of_the_processes() -> None:
    config = SimConfig(("random", "beginner"), BRITISH, units=2, seed=6, game="kalookie",
                       records=True)
    one, two = run(config, workers=1), run(config, workers=2)
    assert [(g.unit, g.rotation, g.deals) for g in one] == \
        [(g.unit, g.rotation, g.deals) for g in two]
    first, second = play_unit(config, 0)
    hands = [g.record.split("hands = ")[1].split("\n")[0] for g in (first, second)  # type: ignore
             ]
    assert hands[0].replace("random", "X").replace("beginner", "X") == \
        hands[1].replace("random", "X").replace("beginner", "X")
    for g in one:
        for d in g.deals:  # a lone hand's money is its own payments: zero-sum
            assert sum(d.payments) == 0 and d.end in ("call-up", "kalookie", "void")


def test_a_kalookie_match_counts_its_pool_and_ends_when_the_pool_is_won() -> None:
    config = SimConfig(("random",), BRITISH, units=2, seed=2, game="kalookie",
                       match_deals=500, records=True)
    for g in run(config, workers=1):
        assert 1 < len(g.deals) < 500  # ended by the game: the pool was won
        money = [sum(d.payments[q] for d in g.deals) for q in range(4)]
        assert sum(money) == pytest.approx(0)  # stakes in, buy-ins in, the pool out
        assert max(money) > 0 and sum(d.tags["out"] != () for d in g.deals) >= 1
        totals = g.record.split("totals = ")[1].split("\n")[0]  # type: ignore[union-attr]
        for q, name in enumerate(g.names):
            assert f"{name} = {money[q]:g}" in totals
    # Cut short by the deal count, the pool is still on the table: it counts as paid in.
    short = run(replace(config, match_deals=1 + 1, records=False), workers=1)
    assert all(sum(sum(d.payments) for d in g.deals) < 0 for g in short)


def test_hoola_sim_compares_kalookie_presets() -> None:
    result = CliRunner().invoke(cli, ["sim", "-g", "kalookie", "--compare-rules",
                                      "british,swedish", "-n", "2", "-j", "1", "--bots",
                                      "random", "-p", "3"])
    assert result.exit_code == 0, result.output
    for words in ("Kalookie: 2 units per rule set", "british", "swedish", "dealer+2",
                  "stakes/deal"):
        assert words in result.output, words


@pytest.mark.parametrize(("args", "words"), [
    (["-g", "chess"], "unknown game 'chess': the games are hoola, capture, kalookie"),
    (["-g", "kalookie", "--bots", "greedy"], "unknown bot 'greedy'; bots are random"),
    (["-g", "kalookie", "-p", "9"], "Kalookie is played by 2 to 6 players, not 9"),
    (["-p", "1"], "Hoola (훌라) is played by 2 to 7 players, not 1"),
    (["-g", "kalookie", "-r", "pagat"], "unknown Kalookie preset 'pagat'"),
    (["-g", "kalookie", "-o", "knock_limit=3"], "knock_limit"),
    (["-g", "kalookie", "--compare-rules", "british,pagat"], "pagat"),
])
def test_hoola_sim_refuses_a_bad_game_before_playing(args: list[str], words: str) -> None:
    result = CliRunner().invoke(cli, ["sim", "-n", "1", "-j", "1", "--bots", "random", *args]
                                if "--bots" not in args else ["sim", "-n", "1", "-j", "1", *args])
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output


def test_the_game_s_own_bots_are_the_default_lineup() -> None:
    result = CliRunner().invoke(cli, ["sim", "-g", "kalookie", "-n", "1", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert " expert " in result.output and " random " in result.output


def test_a_game_without_a_dealer_counts_seats_from_the_first() -> None:
    from rich.console import Console

    from hoola.sim.report import rules_table
    from hoola.sim.simulation import DealOutcome, GameOutcome

    deals = (DealOutcome("won", (1,), (-1.0, 1.0), None, 3, 3),
             DealOutcome("drawn", (), (0.0, 0.0), None, 4, 4))
    games = [GameOutcome(u, 0, ("a", "b"), deals, 0.1) for u in range(3)]
    stats = rules_stats(games, 2)
    assert not stats.from_dealer and stats.ends == {"drawn": 0.5, "won": 0.5}
    assert [e.mean for e in stats.seat_edges] == [-0.5, 0.5] and stats.turns == 3.5
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(rules_table([("standard", stats)], 2))
    text = console.export_text()
    assert "seat 1" in text and "seat 2" in text and "dealer" not in text

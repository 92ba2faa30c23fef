"""The simulation lab: seatings, duplicate deals, statistics, ratings, the sim command, Ray."""

from __future__ import annotations

import io
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from hoola.bots import make_bot
from hoola.cli import cli
from hoola.core.driver import play_deal
from hoola.core.errors import IllegalActionError
from hoola.core.game import GameState
from hoola.core.registry import get_game
from hoola.games.hoola.records import verify_path
from hoola.games.hoola.rules import Rules
from hoola.sim import SimConfig, bot_stats, margin, rules_stats, run, seatings
from hoola.sim.simulation import parse_spec, play_unit
from hoola.sim.stats import mean_ci

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
open(os.path.join(sys.argv[1], str(os.getpid())), "w").close()
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


def assert_no_orphans(pids: Path) -> None:
    started = [int(p.name) for p in pids.iterdir()]
    assert started, "no bot process was started"
    alive = [p for p in started if Path(f"/proc/{p}").exists()]
    assert not alive, f"bot processes {alive} outlived the run"


def test_a_bot_that_crashes_forfeits_its_deals_and_the_run_goes_on(tmp_path: Path) -> None:
    command, pids = faulty(tmp_path, "crash")
    external = (tuple(command.split("=", 1)),)
    config = SimConfig(("faulty", "greedy"), PAGAT, units=6, seed=1, records=True,
                       external=external)  # type: ignore[arg-type]
    games = run(config, workers=1)
    assert len(games) == 12
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
    stats = {s.bot: s for s in bot_stats(games, ["faulty", "greedy"])}
    assert stats["faulty"].forfeits == len(forfeited) and stats["greedy"].forfeits == 0
    assert stats["faulty"].stakes.mean == pytest.approx(-stats["greedy"].stakes.mean)
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


@pytest.mark.parametrize(("sig", "workers"), [(signal.SIGINT, 2), (signal.SIGINT, 1),
                                              (signal.SIGTERM, 2)])
def test_ctrl_c_or_sigterm_ends_the_run_and_every_bot(tmp_path: Path, sig: int,
                                                      workers: int) -> None:
    command, pids = faulty(tmp_path, "hang")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    # A session of its own, as a terminal's foreground job: Ctrl-C reaches the whole group.
    proc = subprocess.Popen(["hoola", "sim", "-x", command, "--bots", "faulty:timeout=100,greedy",
                             "-n", "8", "-j", str(workers)], env=env, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while len(list(pids.iterdir())) < 2 * workers:  # each worker waits on a hanging bot
            assert proc.poll() is None and time.monotonic() < deadline, proc.stdout
            time.sleep(0.05)
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)  # Ctrl-C reaches the terminal's whole foreground group
        else:
            os.kill(proc.pid, sig)  # kill PID reaches the main process only
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode != 0 and "Traceback" not in out
    assert ("Aborted" in out) == (sig == signal.SIGINT)
    assert_no_orphans(pids)


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
    assert words in result.output and "pip install 'hoola[sim]'" in result.output
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
    for word in ("dealer+3", "won by knock", "openskill", "Margins"):
        assert word in text


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

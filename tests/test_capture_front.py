"""The capture games through the front ends: a preset named as the game (``hoola play sedma``),
whole games in the plain game that save records which verify, team scores on every seat's line,
``hoola rules`` and ``hoola sim`` of a preset."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hoola.cli import cli
from hoola.core.errors import RulesError
from hoola.core.records import verify_path
from hoola.core.registry import game_and_preset, get_game, resolve
from hoola.core.table import Moment, Score, Table, Zone
from hoola.terminal.tabletext import seat_scores

ROOT = Path(__file__).resolve().parent.parent
CAPTURE = get_game("capture")


def test_a_preset_named_as_a_game_finds_its_game() -> None:
    assert resolve("sedma") == (CAPTURE, "sedma")
    assert resolve("capture") == (CAPTURE, None)
    assert resolve(None) == (get_game("hoola"), None)
    assert resolve("british")[0].name == "kalookie"
    assert game_and_preset("hola", None) == (CAPTURE, "hola")
    assert game_and_preset("capture", "ristikontra") == (CAPTURE, "ristikontra")


def test_an_unknown_name_lists_the_games_and_presets() -> None:
    with pytest.raises(RulesError, match=r"unknown game .sedmа.*hoola, capture, kalookie.*"
                                          r"sedmice-croatian"):
        resolve("sedmа")  # a Cyrillic a
    with pytest.raises(RulesError, match="give either it or --rules hola"):
        game_and_preset("sedma", "hola")


def play(args: list[str], home: Path, answers: str) -> subprocess.CompletedProcess[str]:
    """``hoola play`` in a real process, input from a pipe (so the plain game)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "hoola", "play", *args], input=answers,
                          capture_output=True, text=True, env=env, timeout=300, check=False)


@pytest.mark.parametrize(("preset", "players"), [("hola", "4"), ("sedma", "2")])
def test_a_whole_game_in_the_plain_game_ends_in_a_record_that_verifies(
        preset: str, players: str, tmp_path: Path) -> None:
    save = tmp_path / "game.toml"
    done = play([preset, "-p", players, "--seed", "5", "--bots", "random", "--save", str(save)],
                tmp_path, "1\n" * 5000)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    # A capture game is introduced by its own name, the preset's title.
    title = {"hola": "Hola", "sedma": "Sedma"}[preset]
    assert out.startswith(f"{title}, {players} players: You, Random1")
    assert "Lead a card" in out and "Stock: " in out and " winning)" in out
    assert "won the game" in out.rsplit("Score after", 1)[1]
    assert verify_path(save).ok, verify_path(save).problems


def test_play_refuses_a_preset_and_a_different_rules_in_one_line(tmp_path: Path) -> None:
    done = play(["sedma", "--rules", "hola"], tmp_path, "")
    assert done.returncode == 2
    assert "'sedma' is already a preset of capture" in done.stderr
    assert "Traceback" not in done.stderr


def test_team_scores_show_on_each_members_line() -> None:
    table = Table(zones=(Zone("hand-0", "hand", "Your hand", owner=0, count=4),),
                  moment=Moment(actors=(0,), turn=0, phase="play"),
                  names=("A", "B", "C", "D"), teams=((0, 2), (1, 3)),
                  scores=(Score("Points", ("30", "60")), Score("Seat", ("1", "2", "3", "4"))))
    assert seat_scores(table, 2) == ["Points: 30", "Seat: 3"]
    assert seat_scores(table, 3) == ["Points: 60", "Seat: 4"]


def test_rules_and_sim_take_a_preset_as_the_game() -> None:
    runner = CliRunner()
    shown = runner.invoke(cli, ["rules", "ristiklappi"])
    assert shown.exit_code == 0, shown.output
    assert "Options with their ristiklappi values" in shown.output
    assert "phases = true" in shown.output and 'scoring = "ristiklappi"' in shown.output
    sim = runner.invoke(cli, ["sim", "-g", "sedma", "--bots", "random", "-p", "2", "-n", "4",
                              "-j", "1"])
    assert sim.exit_code == 0, sim.output
    assert "rules sedma" in sim.output and "2 players" in sim.output

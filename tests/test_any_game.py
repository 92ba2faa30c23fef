"""``hoola play GAME`` for every game: the plain game from the table as data, saves that verify
and resume, the bots of every game, and a game defined only here (Snap) that plays with no
front-end code."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import hoola.core.registry as registry
from fake_game import SNAP
from hoola.cli import cli
from hoola.core.errors import RecordError
from hoola.core.records import read_text, verify_path
from hoola.core.registry import get_game
from hoola.terminal.plain import run_plain_game
from hoola.terminal.saves import GamePlan, SavedGame

ROOT = Path(__file__).resolve().parent.parent
KALOOKIE = get_game("kalookie")


@pytest.fixture
def snap(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Snap registered for this test only."""
    registry.game_names()  # the entry points first, so that Snap is only added
    monkeypatch.setitem(registry._GAMES, "snap", SNAP)
    yield


def hoola_play(args: list[str], home: Path, answers: str) -> subprocess.CompletedProcess[str]:
    """``hoola play`` in a real process, input from a pipe (so the plain game)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "hoola", "play", *args], input=answers,
                          capture_output=True, text=True, env=env, timeout=300, check=False)


def actions_of(path: Path) -> list[str]:
    """Every action a saved record holds, in order."""
    return re.findall(r'^  "(.*)",$', read_text(path), re.M)


def test_plain_kalookie_in_a_real_process_ends_in_a_record_that_verifies(tmp_path: Path) -> None:
    save = tmp_path / "k.toml"
    done = hoola_play(["kalookie", "--seed", "5", "--players", "3", "--deals", "1", "--bots",
                       "random", "--save", str(save)], tmp_path, "1\n" * 3000)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("Kalookie, british rules, 3 players: You, Random1, Random2. Seed 5.")
    assert "=== Hand 1 of 1 ===" in out and "Your hand: " in out and "Stock: " in out
    assert "   1. draw" in out and "Score after 1 hand:" in out and "Penalty: You " in out
    during, _, after = out.partition("--- The hand is over ---")
    assert after, out[-2000:]
    # Hidden cards stay hidden: other hands show only at the end, and only if the rules show
    # them; the person's view never holds another hand before.
    assert " shows " not in during
    assert f"Game saved to {save}" in after and "Go on with" not in after
    assert verify_path(save).ok, verify_path(save).line()
    text = read_text(save)
    assert text.startswith("# hoola play: you=You bots=random,random deals=1\n")
    assert 'game = "kalookie"' in text and "[deal.result]" in text


def test_a_kalookie_save_resumes_where_it_stopped(tmp_path: Path) -> None:
    save = tmp_path / "k.toml"
    left = hoola_play(["kalookie", "--seed", "8", "--players", "4", "--save", str(save)],
                      tmp_path, "1\n" * 12 + "q\n")
    assert left.returncode == 0, left.stderr
    assert "You left the game." in left.stdout
    assert f"Go on with: hoola play --plain --resume {save}" in left.stdout
    assert verify_path(save).ok
    before = actions_of(save)
    assert len(before) > 12
    again = hoola_play(["--resume", str(save)], tmp_path, "1\n" * 10 + "q\n")
    assert again.returncode == 0, again.stderr
    assert f"(resumed after {len(before)} moves)" in again.stdout
    after = actions_of(save)
    assert after[:len(before)] == before and len(after) > len(before)
    assert verify_path(save).ok
    # A record of another game is not resumed as this one.
    other = CliRunner().invoke(cli, ["play", "hoola", "--resume", str(save)])
    assert other.exit_code == 2 and f"{save} is a game of kalookie, not hoola" in other.output


def test_typed_moves_are_read_and_refusals_are_one_clear_line(tmp_path: Path) -> None:
    save = tmp_path / "k.toml"
    saved = SavedGame.new(KALOOKIE, players=3, bots=("random",), seed=3, path=save)
    answers = iter(["99", "fly away", "discard Zz", "meld As 2s 3s", "t", "s", "h", "DRAW", "q"])
    out = io.StringIO()
    run_plain_game(saved, read=lambda _prompt: next(answers), out=out)
    lines = out.getvalue().splitlines()
    assert "There is no move 99: choose 1 to 2." in lines
    assert any(line.startswith("Cannot read 'fly away': expected one of draw, take") for line in
               lines)
    assert any(line.startswith("Cannot read 'discard Zz': ") for line in lines)
    # A move the engine refuses gets the engine's own reason, with its ruling.
    assert "Not now: You cannot meld: a turn begins by drawing or taking the discard " \
           "(ruling 8)." in lines
    assert "You left the game." in lines
    # "DRAW" was read (the verb is not case-sensitive) and played; the rest changed nothing.
    assert actions_of(save)[-1] == "You draw"
    assert verify_path(save).ok


def test_ctrl_c_leaves_the_plain_game_saved(tmp_path: Path) -> None:
    save = tmp_path / "k.toml"
    saved = SavedGame.new(KALOOKIE, players=2, bots=("random",), seed=1, path=save)

    def interrupt(_prompt: str) -> str:
        raise KeyboardInterrupt

    out = io.StringIO()
    run_plain_game(saved, read=interrupt, out=out)
    assert "You left the game." in out.getvalue()
    assert f"Go on with: hoola play --plain --resume {save}" in out.getvalue()
    assert verify_path(save).ok


@pytest.mark.parametrize(("args", "says"), [
    (["chess"], "unknown game 'chess': the games are hoola, capture, kalookie"),
    (["kalookie", "--bots", "greedy"], "unknown bot 'greedy'; the bots are random, expert"),
    (["kalookie", "--players", "7"], "kalookie is played by 2 to 6 players, not 7"),
    (["kalookie", "--rules", "nope"], "unknown"),
    (["kalookie", "-o", "nope=1"], "nope"),
    (["kalookie", "--name", "two words"], "use letters, digits, _ and - only"),
])
def test_play_refuses_what_a_game_cannot_play_in_one_line(args: list[str], says: str,
                                                          tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["play", *args, "--save", str(tmp_path / "g.toml")])
    assert result.exit_code == 2, result.output
    assert says in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "g.toml").exists()


def test_a_broken_kalookie_save_is_refused_in_one_line_and_left_alone(tmp_path: Path) -> None:
    save = tmp_path / "k.toml"
    SavedGame.new(KALOOKIE, players=3, bots=("random",), seed=3, path=save)
    good = save.read_text()
    for broken, says in ((good.replace("bots=random,random", "bots=greedy,random"),
                          "unknown bot 'greedy'"),
                         (good.replace("deals=end", "deals=0"), "deals=0, not a number"),
                         (good.replace('upcard = "', 'upcard = "Zz '), "upcard"),
                         (good.replace('game = "kalookie"', 'game = "kalooky"'),
                          "unknown game 'kalooky'")):
        save.write_text(broken)
        result = CliRunner().invoke(cli, ["play", "--resume", str(save)], input="")
        assert result.exit_code == 1, result.output
        assert result.output.startswith(f"Error: cannot resume {save}: "), result.output
        assert result.output.count("\n") == 1 and says in result.output, result.output
        assert save.read_text() == broken


def test_the_plan_line_of_any_game() -> None:
    plan = GamePlan("Ann", ("random", "expert"), None)
    text = f"# {plan.comment()}\nformat = 1\n"
    assert GamePlan.from_text(text, ["Ann", "Random1", "Expert2"]) == plan
    assert GamePlan.from_text("", ["A", "B", "C"]) == GamePlan("A", ("random", "random"), None)
    with pytest.raises(RecordError, match="deals=x, not a number of deals"):
        GamePlan.from_text("# hoola play: you=A bots=random deals=x\n", ["A", "B"])


def test_a_game_defined_only_here_plays_in_the_plain_game(snap: None, tmp_path: Path) -> None:
    save = tmp_path / "snap.toml"
    result = CliRunner().invoke(cli, ["play", "snap", "--players", "3", "--seed", "4",
                                      "--bots", "expert,random", "--save", str(save)],
                                input="1\n" * 400)
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("Snap has no expert bot yet: random bots play in its place.\n")
    assert "Snap, plain rules, 3 players: You, Expert1, Random2." in out
    assert "=== Hand 2 ===" in out and "Total: You " in out and "Pile: " in out
    assert re.search(r"  \w+ wins\n", out), out[-500:]  # the game's own end, after 2 hands
    assert verify_path(save).ok
    # Its save resumes: a finished game says so, and stays as it is.
    before = save.read_text()
    again = CliRunner().invoke(cli, ["play", "--resume", str(save)], input="")
    assert again.exit_code == 0 and "This game is over." in again.output
    assert save.read_text() == before


def test_a_game_defined_only_here_is_saved_after_every_move(snap: None, tmp_path: Path) -> None:
    save = tmp_path / "snap.toml"
    saved = SavedGame.new(SNAP, players=2, bots=("random",), seed=2, path=save)
    answers = iter(["1", "1", "q"])
    run_plain_game(saved, read=lambda _p: next(answers), out=io.StringIO())
    moves = actions_of(save)
    assert [m for m in moves if m.startswith("You ")][:2] and verify_path(save).ok
    resumed = SavedGame.resume(save, seed=1)
    assert resumed.kinds == ["you", "random"] and resumed.plan.deals is None
    assert [resumed.match.deals[-1].format(a) for a in resumed.match.deals[-1].history] == moves


def test_a_game_that_cannot_be_saved_stops_before_it_starts(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    target = blocker / "k.toml"
    result = CliRunner().invoke(cli, ["play", "kalookie", "--save", str(target)], input="1\n")
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert result.output.startswith(f"Error: cannot save the game to {target}: ")
    assert result.output.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


@pytest.mark.parametrize("game", ["hoola", "kalookie"])
def test_odd_digits_and_huge_numbers_are_one_line_in_every_plain_game(game: str,
                                                                      tmp_path: Path) -> None:
    # "²" is a digit to str.isdigit but no number to int(); 5,000 digits are over int()'s limit.
    answers = "²\n" + "7" * 5000 + "\nq\n"
    result = CliRunner().invoke(cli, ["play", game, "--plain", "--save",
                                      str(tmp_path / "g.toml")], input=answers)
    assert result.exit_code == 0 and result.exception is None, result.output
    assert "There is no move 777777...: choose 1 to " in result.output
    assert "'²'" in result.output and "You left the game." in result.output


def test_without_players_a_game_gets_four_or_as_near_as_it_allows(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from fake_game import SnapGame

    duel = type("Duel", (SnapGame,), {"name": "duel", "title": "Duel", "max_players": 2})()
    registry.game_names()
    monkeypatch.setitem(registry._GAMES, "duel", duel)
    result = CliRunner().invoke(cli, ["play", "duel", "--save", str(tmp_path / "d.toml")],
                                input="q\n")
    assert result.exit_code == 0, result.output
    assert "Duel, plain rules, 2 players: You, Random1." in result.output

"""Saved games: atomic writes, names that never collide, and saves that cannot be resumed."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hoola.cli import cli
from hoola.core.errors import RecordError
from hoola.core.registry import get_game
from hoola.games.hoola.records import verify_path
from hoola.terminal.saves import (
    GamePlan,
    SavedGame,
    default_save_path,
    forget_if_empty,
    seat_kinds,
    write_atomically,
)

NAMES = ["You", "Greedy1", "Greedy2"]
HOOLA = get_game("hoola")


def boom(*_: Any, **__: Any) -> Any:
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize("step", ["fsync", "replace", "write"])
def test_a_failed_save_keeps_the_previous_one_whole(tmp_path: Path, step: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.toml"
    write_atomically(path, "before\n")
    if step == "write":
        real_fdopen = os.fdopen

        def broken_fdopen(fd: int, *args: Any, **kwargs: Any) -> Any:
            out = real_fdopen(fd, *args, **kwargs)
            out.write = boom  # the disk fills up halfway through the record
            return out

        monkeypatch.setattr("hoola.terminal.saves.os.fdopen", broken_fdopen)
    else:
        monkeypatch.setattr(f"hoola.terminal.saves.os.{step}", boom)
    with pytest.raises(OSError, match="No space left"):
        write_atomically(path, "after\n")
    monkeypatch.undo()
    assert path.read_text() == "before\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.toml"]  # no temporary left


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="needs POSIX permissions that apply (not root)")
def test_a_read_only_folder_keeps_the_previous_save(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    write_atomically(path, "before\n")
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(PermissionError):
            write_atomically(path, "after\n")
    finally:
        tmp_path.chmod(0o755)
    assert path.read_text() == "before\n"


def test_a_save_keeps_the_files_mode(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    write_atomically(path, "one\n")
    assert path.stat().st_mode & 0o777 == 0o644
    path.chmod(0o600)
    write_atomically(path, "two\n")
    assert path.stat().st_mode & 0o777 == 0o600


def test_games_started_at_the_same_moment_get_their_own_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    suffixes = iter(["beef", "beef", "cafe"])
    monkeypatch.setattr("hoola.terminal.saves.secrets.token_hex", lambda _n: next(suffixes))
    first, second = default_save_path(tmp_path), default_save_path(tmp_path)
    assert first != second and first.exists() and second.exists()
    assert first.name.startswith("hoola-") and second.name.endswith("-cafe.toml")
    forget_if_empty(first)
    assert not first.exists()


def test_two_new_games_in_one_second_both_stay(tmp_path: Path) -> None:
    games = [SavedGame.new(HOOLA, players=3, bots=("greedy",), seed=s, deals=1,
                           path=default_save_path(tmp_path)) for s in (1, 2)]
    assert len({g.path for g in games}) == 2
    assert all(verify_path(g.path).ok for g in games)


@pytest.mark.parametrize(("line", "says"), [
    ("you=You bots=nope,greedy deals=1", "unknown bot 'nope'"),
    ("you=You bots=greedy deals=1", "names 1 bot for 2 seats"),
    ("you=Bob bots=greedy,greedy deals=1", "you=Bob, who is not a player"),
    ("you=You bots=greedy,greedy deals=abc", "deals=abc, not a number of deals"),
    ("you=You bots=greedy,greedy deals=1001", "deals=1001, not a number of deals"),
    ("you=You bots=greedy,greedy deals=0", "deals=0, not a number of deals"),
    ("you=You bots=greedy,greedy", "does not say deals="),
    ("junk you=You bots=greedy,greedy deals=1", "has 'junk', not key=value"),
])
def test_a_wrong_plan_line_says_what_is_wrong(line: str, says: str) -> None:
    with pytest.raises(RecordError) as info:
        GamePlan.from_text(f"# hoola play: {line}\n", NAMES, kinds=seat_kinds(HOOLA))
    assert says in info.value.message
    assert "\n" not in info.value.message


def test_a_hoola_record_without_a_plan_line_is_played_against_greedy_bots(
        tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    path.write_text("".join(line for line in path.read_text().splitlines(keepends=True)
                            if not line.startswith("# hoola play:")))
    saved = SavedGame.resume(path, seed=1)
    assert saved.plan == GamePlan("You", ("greedy",) * 2, 10)  # Hoola's touch: ten deals


def saved_game(tmp_path: Path) -> Path:
    game = SavedGame.new(HOOLA, players=3, bots=("greedy",), seed=4, deals=1,
                         path=tmp_path / "g.toml")
    return game.path


@pytest.mark.parametrize(("change", "says"), [
    (lambda t: t.replace("bots=greedy,greedy", "bots=nope,greedy"), "unknown bot 'nope'"),
    (lambda t: "garbage\n", "not valid TOML"),
    (lambda t: "", "no format line"),
    (lambda t: t + "\n[[deal]]\nseed = 3\n", "holds 2 deals, more than the 1 of its game"),
])
def test_resuming_a_broken_save_is_one_clear_line(tmp_path: Path, change: Any, says: str) -> None:
    path = saved_game(tmp_path)
    path.write_text(change(path.read_text()))
    before = path.read_text()
    for args in (["play", "--resume", str(path)], ["play", "--plain", "--resume", str(path)]):
        result = CliRunner().invoke(cli, args, input="")
        assert result.exit_code == 1, result.output
        assert isinstance(result.exception, SystemExit)  # no traceback
        assert result.output.startswith(f"Error: cannot resume {path}: "), result.output
        assert result.output.count("\n") == 1 and says in result.output, result.output
    assert path.read_text() == before  # nothing changed


def test_a_good_save_resumes_where_it_stopped(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    saved = SavedGame.resume(path, seed=9)
    assert saved.plan == GamePlan("You", ("greedy", "greedy"), 1)
    assert len(saved.match.deals) == 1 and not saved.match.deals[0].is_over


def test_a_game_that_cannot_be_saved_stops_before_it_starts(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = CliRunner().invoke(cli, ["play", "--plain", "--save", str(blocker / "g.toml")],
                                input="")
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert result.output.startswith(f"Error: cannot save the game to {blocker / 'g.toml'}: ")
    assert result.output.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]

"""The benchmark's capture workloads and options (``benchmarks/capture.py``, ``run.py``).

Nothing here times anything: the workloads are checked to play whole hands, count the record's
actions and repeat from a seed; ``run.py`` to refuse player counts no capture game is played by.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

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


@pytest.mark.parametrize("mode", ["new", "cloned"])
@pytest.mark.parametrize("players", [2, 4])
def test_capture_workload_plays_whole_hands(players: int, mode: str) -> None:
    capture = _module("capture")
    game = registry.get_game("capture")
    assert [p.name for p in game.presets()] == list(capture.PRESETS)
    for preset in capture.PRESETS:
        play = capture.capture_game(preset, players, mode)
        decisions, end = play(3)
        assert (decisions, end) == play(3), preset  # a seed repeats its game
        # Every card of the pack is played once, and the record may hold stops and signals too.
        cards = len(game.rules(preset).for_players(players).pack())
        assert decisions >= cards, preset
        assert end in ("played", "win", "draw", "both-lose"), preset


def test_trick_reference_refuses_unequal_chance() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    capture = _module("capture")
    decisions, _ = capture.trick_game(pyspiel, "hearts", "new")(1)
    assert 52 <= decisions <= 64  # 52 cards played, 12 passed unless the hand keeps them
    with pytest.raises(ValueError, match="not uniform"):
        capture.trick_game(pyspiel, "hanabi", "new")


def test_run_refuses_a_player_count_no_capture_game_has(
        capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel")
    run = _module("run")
    assert run.main(["--capture", "5", "--no-install", "--players", "4", "--kalookie", "none"]) \
        == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().splitlines() == [
        "--capture: no capture game is played by 5 players (hola 2/4/6; sedma 2/3/4; sedmice "
        "2/4; sedmice-croatian 2/4; ristikontra 2/4; ristiklappi 2/4)"]
    with pytest.raises(SystemExit):
        run.parse_args(["--capture", "four"])
    assert "--capture takes comma-separated integers" in capsys.readouterr().err

"""The command line as a user meets it: verify, replay, rules, and play in a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hoola.cli import cli
from hoola.games.hoola.records import load, verify

ROOT = Path(__file__).resolve().parent.parent
# shared/ sits next to the main checkout (and above a worktree's folder).
CONFORMANCE = next((p / "shared" / "conformance" for p in ROOT.parents
                    if (p / "shared" / "conformance").is_dir()), ROOT / "missing")
OWN = ROOT / "tests" / "records"

GOOD = """format = "hoola-record/1"
rules = "pagat"
players = ["A", "B", "C", "D"]

[[deal]]
hands = { A = "As Ah Ad Ac 2s 2h 2d", B = "3s 4s 5s 6s 8s 9s Ts", \
C = "3h 4h 5h 6h 8h 9h Th", D = "3d 4d 5d 6d 8d 9d Td" }
upcard = "Kc"
stock = "Qc Jc"
actions = ["A knock"]

[deal.result]
end = "knock"
winners = ["A"]
payments = { A = 9, B = -3, C = -3, D = -3 }
"""


def test_verify_passes_on_the_public_conformance_records() -> None:
    # Hoola's records at the top level, Kalookie's and the capture games' folders.
    files = sorted(CONFORMANCE.glob("*.toml")) + sorted(CONFORMANCE.glob("kalookie/*.toml")) \
        + sorted(CONFORMANCE.glob("capture/*.toml"))
    result = CliRunner().invoke(cli, ["verify", *map(str, files)])
    assert result.exit_code == 0, result.output
    *lines, total = result.output.splitlines()
    assert len(files) >= 8 + 4 and len(lines) == len(files)
    assert all(line.startswith("ok ") for line in lines)
    assert total == f"{len(files)} passed, 0 failed"


def test_verify_passes_on_the_projects_own_records() -> None:
    # Every game's records: Hoola's, Kalookie's and the capture games'.
    files = sorted(OWN.rglob("*.toml"))
    assert len(files) >= 60 + 107 + 24 + 74
    assert len([p for p in files if p.parent.name == "capture"]) >= 74
    result = CliRunner().invoke(cli, ["verify", *map(str, files)])
    assert result.exit_code == 0, "\n".join(
        line for line in result.output.splitlines() if not line.startswith("ok "))


def test_verify_reports_a_wrong_payment_and_exits_1(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text(GOOD)
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace("A = 9, B = -3", "A = 8, B = -2"))
    result = CliRunner().invoke(cli, ["verify", str(good), str(bad)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "ok good.toml",
        "FAIL bad.toml: payments of A is 9, record says 8; payments of B is -3, record says -2",
        "1 passed, 1 failed"]


def test_verify_json_report(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace('end = "knock"', 'end = "stock"'))
    result = CliRunner().invoke(cli, ["verify", "--json", str(bad)])
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["failed"] == 1 and report["passed"] == 0
    assert report["records"][0]["problems"] == ["end is knock, record says stock"]


def test_verify_malformed_record_is_a_clear_failure(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text('format = "hoola-record/1"\nplayers = ["A", "B"]\n[[deal]]\nactions = [1]\n')
    result = CliRunner().invoke(cli, ["verify", str(broken)])
    assert result.exit_code == 1
    assert "FAIL broken.toml:" in result.output and "actions must be a list of strings" \
        in result.output


def test_replay_tells_the_deal() -> None:
    path = CONFORMANCE / "going-out-with-doubles.toml"
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "14. A add 6c on 5c" in result.output
    assert "C owes 8: rank pays 2, x4 2 sevens in hand" in result.output
    assert result.output.rstrip().endswith("Payments: A +15, B -6, C -8, D -1")


def test_rules_lists_presets() -> None:
    result = CliRunner().invoke(cli, ["rules"])
    assert result.exit_code == 0
    for name in ("pagat", "classic", "rummy-rulebook", "online", "two-player"):
        assert f"  {name}: " in result.output


def test_play_rejects_unknown_preset_and_bot() -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["play", "--rules", "nope"])
    assert result.exit_code == 2 and "unknown preset 'nope'" in result.output
    result = runner.invoke(cli, ["play", "--bots", "chess"])
    assert result.exit_code == 2 and "unknown bot 'chess'" in result.output


def run_play(args: list[str], tmp_path: Path, answers: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "HOME": str(tmp_path)}
    return subprocess.run([sys.executable, "-m", "hoola", "play", *args], input=answers,
                          capture_output=True, text=True, env=env, timeout=120, check=False)


def test_play_a_whole_deal_in_a_real_process(tmp_path: Path) -> None:
    save = tmp_path / "game.toml"
    # Always the first listed move (ends play when possible, else melds first) and claims taken.
    done = run_play(["--seed", "11", "--players", "3", "--save", str(save)], tmp_path,
                    "1\n" * 400)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Your hand:" in out and "Stock:" in out and "  Greedy1: 7 cards" in out
    assert " points · knock at 10 or less" in out and "Payments:" in out
    assert f"Game saved to {save}" in out
    record = load(save)
    assert record.deals[0].result.get("end")
    assert verify(record).ok


def test_play_quit_saves_an_unfinished_game_that_verifies(tmp_path: Path) -> None:
    done = run_play(["--seed", "2", "--rules", "classic", "-o", "knock_limit=5"], tmp_path,
                    "h\ns\nq\n")
    assert done.returncode == 0, done.stderr
    assert "You left the game." in done.stdout
    saved = list((tmp_path / ".hoola" / "games").glob("*.toml"))
    assert len(saved) == 1
    record = load(saved[0])
    assert record.options == {"knock_limit": 5} and record.rules == "classic"
    assert verify(record).ok


def test_play_refuses_a_typed_illegal_move_and_goes_on(tmp_path: Path) -> None:
    done = run_play(["--seed", "4"], tmp_path, "discard 2c\nmeld Qs Qh\nq\n")
    assert done.returncode == 0
    assert done.stdout.count("Not now: ") == 2  # the engine's reason, each time


def test_replay_tells_every_record_to_its_end() -> None:
    from hoola.games.hoola.replay import tell

    for path in sorted(OWN.glob("*.toml")) + sorted(CONFORMANCE.glob("*.toml")):
        record = load(path)
        lines = list(tell(record))
        finished = [d for d in record.deals if "end" in d.result]
        assert sum(line.startswith("Payments: ") for line in lines) >= len(finished), path.name
        if any("illegal" in d.result for d in record.deals):
            assert any("-- refused: " in line for line in lines), path.name


def test_replay_tells_every_kalookie_record() -> None:
    paths = sorted(OWN.glob("kalookie*/*.toml")) + sorted(CONFORMANCE.glob("kalookie/*.toml"))
    assert len(paths) >= 100
    for path in paths:
        result = CliRunner().invoke(cli, ["replay", str(path)])
        assert result.exit_code == 0, (path.name, result.output[-300:])
        assert result.output.startswith("Kalookie, rules: "), path.name
        if "illegal = " in path.read_text(encoding="utf-8"):
            assert "-- refused: " in result.output, path.name


def test_replay_of_a_refused_kalookie_action_exits_1(tmp_path: Path) -> None:
    text = (CONFORMANCE / "kalookie" / "kalookie-first-turn.toml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('"B discard Kd"', '"B discard 2c"'), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(bad)])
    assert result.exit_code == 1 and "-- refused: " in result.output
    assert "deal 1, action 6 is refused" in result.output


class _Installed:
    """An installed distribution's metadata as pip leaves it (``direct_url.json`` or none)."""

    def __init__(self, direct_url: str | None) -> None:
        self.direct_url = direct_url

    def read_text(self, name: str) -> str | None:
        return self.direct_url if name == "direct_url.json" else None


def test_a_missing_extra_is_asked_for_as_this_install_takes_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from importlib import metadata

    from hoola.install import install_command

    checkout = tmp_path / "hoola checkout"
    checkout.mkdir()
    url = json.dumps({"url": checkout.as_uri(), "dir_info": {"editable": True}})
    monkeypatch.setattr(metadata, "distribution", lambda name: _Installed(url))
    assert install_command("sim") == f'pip install -e "{checkout}[sim]"'
    monkeypatch.chdir(checkout)
    assert install_command("cli") == 'pip install -e ".[cli]"'
    wheel = json.dumps({"url": "https://example.org/hoola.whl", "archive_info": {}})
    for found in (_Installed(wheel), _Installed(None)):
        monkeypatch.setattr(metadata, "distribution", lambda name, found=found: found)
        assert install_command("sim") == "pip install 'hoola[sim]'"
    monkeypatch.setattr(metadata, "distribution", lambda name: _Installed("{not json"))
    assert install_command("sim") == "pip install 'hoola[sim]'"


def test_hoola_sim_asks_for_its_extra_as_a_source_checkout_takes_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import metadata

    url = json.dumps({"url": ROOT.as_uri(), "dir_info": {"editable": True}})
    monkeypatch.setattr(metadata, "distribution", lambda name: _Installed(url))
    monkeypatch.chdir(ROOT)
    monkeypatch.setitem(sys.modules, "openskill", None)  # as if it were not installed
    result = CliRunner().invoke(cli, ["sim", "-n", "1", "-j", "1"])
    assert result.exit_code == 1
    assert 'pip install -e ".[sim]"' in result.output
    assert "hoola[sim]'" not in result.output


def test_hoola_help_presents_every_game_and_command() -> None:
    from hoola.core.registry import game_names, get_game

    out = " ".join(CliRunner().invoke(cli, ["--help"]).output.split())
    assert "the Korean rummy game: play it" not in out
    for name in game_names():
        game = get_game(name)
        assert game.title.split()[0].lower() in out.lower() or name in out, name
        for preset in game.presets():
            if name == "capture":  # the capture games are its presets
                assert preset.name.split("-")[0] in out.lower(), preset.name
    for command in ("play", "rules", "sim", "verify", "replay", "serve"):
        assert f"hoola {command}" in out, command


def test_each_command_serving_every_game_says_so() -> None:
    for command, words in (("verify", "of any game"), ("replay", "of any game"),
                           ("sim", "of any game"), ("rules", "capture game"),
                           ("play", "capture game")):
        out = " ".join(CliRunner().invoke(cli, [command, "--help"]).output.split())
        assert words in out, (command, out)


def test_hoola_rules_starts_with_how_to_play_for_every_game() -> None:
    from hoola.core.registry import game_names, get_game

    asked = [(name, None) for name in game_names()]
    asked += [(p.name, p.name) for p in get_game("capture").presets()]
    for name, preset in asked:
        result = CliRunner().invoke(cli, ["rules", name])
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        game = get_game("capture") if preset else get_game(name)
        text = game.how_to_play(preset)
        assert "object" in text and "end" in text and len(text.split()) > 60, name
        assert lines[2].startswith("How to play ("), (name, lines[:3])
        told = " ".join(" ".join(lines[3:lines.index("", 3)]).split())
        assert told == text, name
        assert result.output.index("How to play") < result.output.index("Presets (")
        data = json.loads(CliRunner().invoke(cli, ["rules", name, "--json"]).output)
        assert data["how_to_play"] == text


def test_hoola_play_is_a_match_of_ten_deals_by_default(tmp_path: Path) -> None:
    from hoola.core.registry import get_game
    from hoola.terminal.saves import GamePlan, seat_kinds

    save = tmp_path / "game.toml"
    result = CliRunner().invoke(cli, ["play", "--plain", "--seed", "2", "--players", "3",
                                      "--save", str(save)], input="q\n")
    assert result.exit_code == 0, result.output
    assert "Deal 1 of 10" in result.output
    record = load(save)
    plan = GamePlan.from_text(record.comment, record.players, kinds=seat_kinds(get_game("hoola")))
    assert plan.deals == 10
    asked = CliRunner().invoke(cli, ["play", "--plain", "--seed", "2", "--players", "3",
                                     "--deals", "1", "--save", str(tmp_path / "one.toml")],
                               input="q\n")
    assert "Deal 1 of 1" in asked.output

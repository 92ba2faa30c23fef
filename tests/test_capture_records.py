"""Capture-game records and the command line: every record verifies, a changed result is named
exactly, a malformed record is one clean line, and replay and rules speak of the capture games.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from hoola.cli import cli
from hoola.core.records import parse_toml, verify_path, verify_text
from hoola.games.capture import GAME, Rules
from hoola.games.capture.records import check, dumps, record_of

ROOT = Path(__file__).resolve().parent.parent
OWN = ROOT / "tests" / "records" / "capture"
# shared/ sits next to the main checkout (and above a worktree's folder).
SHARED = next((p / "shared" / "conformance" / "capture" for p in ROOT.parents
               if (p / "shared" / "conformance" / "capture").is_dir()), ROOT / "missing")
RECORDS = sorted(OWN.glob("*.toml")) + sorted(SHARED.glob("*.toml"))


def test_the_record_folders_are_there() -> None:
    assert len(list(OWN.glob("*.toml"))) >= 72 and len(list(SHARED.glob("*.toml"))) >= 4


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_capture_record_verifies(path: Path) -> None:
    verdict = verify_path(path)
    assert verdict.ok, verdict.problems


def test_the_readme_table_lists_every_own_record() -> None:
    readme = (OWN / "README.md").read_text()
    listed = set(re.findall(r"^\| ([a-z0-9-]+) \|", readme, re.M)) - {"file"}
    assert listed == {p.stem for p in OWN.glob("*.toml")}


# -- a changed result is named --------------------------------------------------------------------

def mutated(path: Path, old: str, new: str) -> list[str]:
    """The problems ``hoola verify`` finds once ``old`` (once in the file) becomes ``new``."""
    text = path.read_text()
    assert text.count(old) == 1, old
    verdict = verify_text(text.replace(old, new), path.name)
    assert not verdict.ok
    return verdict.problems


SEDMA2 = SHARED / "sedma-two-player-hand.toml"


@pytest.mark.parametrize(("path", "old", "new", "problem"), [
    (SEDMA2, "points = { A = 50, B = 40 }", "points = { A = 60, B = 40 }",
     "points of A is 50, record says 60"),
    (SEDMA2, "tricks = { A = 8, B = 8 }", "tricks = { A = 9, B = 7 }",
     "tricks of A is 8, record says 9"),
    (SEDMA2, "game_points = { A = 1, B = 0 }", "game_points = { A = 0, B = 0 }",
     "game_points of A is 1, record says 0"),
    (OWN / "hola-hola-doubles-the-card-points.toml", "hola = true", "hola = false",
     "hola is true, record says false"),
    (OWN / "hola-four-player-hand-with-fights.toml", 'end = "played"',
     'end = "played"\ngame_points = { "A+C" = 1 }',
     "game_points are not counted under these rules"),
    (OWN / "ristiklappi-both-dirty-both-lose.toml", 'outcome = "both-lose"', 'outcome = "draw"',
     "outcome is both-lose, record says draw"),
    (OWN / "ristiklappi-king-with-a-queen-does-not-clean.toml",
     'clean = { "A+C" = false', 'clean = { "A+C" = true',
     "deal 1: clean of A+C is false, record says true"),
    (SEDMA2, "game_points = { A = 1, B = 0 }", 'clean = { A = true }',
     "clean are not counted under these rules"),
    (SEDMA2, "game_points = { A = 1, B = 0 }", 'outcome = "win"',
     "outcome is not counted, record says win"),
    (OWN / "hola-match-hola-then-250.toml", 'totals = { "A+C" = 250, "B+D" = 10 }',
     'totals = { "A+C" = 250, "B+D" = 20 }', "match totals of B+D is 10, record says 20"),
    (OWN / "hola-match-hola-then-250.toml", 'winner = "A+C"', 'winner = "B"',
     "match winner is A+C, record says B"),
    (OWN / "ristikontra-sixty-all-carries-a-game-point.toml", '"B+D" = 2 }', '"B+D" = 1 }',
     "match totals of B+D is 2, record says 1"),
    (OWN / "ristiklappi-both-clean-higher-points-win.toml", 'winner = "A+C"',
     'totals = { "A+C" = 1, "B+D" = 0 }',
     "match totals of A+C is 95, record says 1"),  # totals: card points (the spec)
])
def test_a_changed_result_is_named(path: Path, old: str, new: str, problem: str) -> None:
    assert problem in mutated(path, old, new)


def test_an_illegal_index_must_point_at_the_refused_action() -> None:
    path = SHARED / "sedma-leader-decides-before-next-trick.toml"
    assert mutated(path, "illegal = 3", "illegal = 2") == [
        "action 2 'A play 7h' was accepted but must be refused"]
    assert mutated(path, "illegal = 3", "end = \"played\"") == [
        "action 3 'A play 9c' refused: it is B's turn to decide whether to fight on or stop, "
        "not A's [out-of-turn]"]
    assert mutated(path, "illegal = 3", "illegal = 4") == [
        "deal 1: illegal must be the 1-based number of one of its actions"]


def test_a_result_for_a_hand_not_played_out_is_refused() -> None:
    path = SHARED / "sedma-two-player-hand.toml"
    problems = mutated(path, '  "B play 8c", "A play 7c",  # T16\n', "")
    assert problems == ["the hand has not ended after the last action, but the record gives "
                        "points"]


def test_a_later_deal_after_an_unfinished_one_is_refused() -> None:
    text = (SHARED / "sedma-two-player-hand.toml").read_text()
    text = text.replace('  "B play 8c", "A play 7c",  # T16\n', "")
    text = text.split("[deal.result]")[0] + "\n[[deal]]\nseed = 3\n"
    assert verify_text(text).problems == [
        "deal 1: the hand has not ended, yet another deal follows"]


# -- malformed records: one line through hoola verify ---------------------------------------------

HEAD = 'format = "hoola-record/1"\ngame = "capture"\nrules = "sedma"\nplayers = ["A", "B"]\n'
DEAL = '[[deal]]\nhands = { A = "Kh As Ts 8s", B = "Ks 9s Ah Qs" }\nactions = ["B play Ks"]\n'


@pytest.mark.parametrize(("text", "message"), [
    (HEAD + "colour = 1\n" + DEAL, "unknown top-level key 'colour'"),
    (HEAD + DEAL + "seed = 1\nwhat = 2\n", "deal 1 has an unknown key 'what'"),
    (HEAD + DEAL + "stake = 3\n", "deal 1: stake must be 1, not 3"),
    (HEAD + DEAL + "[deal.result]\nscore = 1\n", "deal 1: unknown result key 'score'"),
    (HEAD + DEAL.replace("Qs", "Qx"), "deal 1 hand of B: cannot read card 'Qx'"),
    (HEAD + DEAL.replace("Qs", "JK"), "the capture games are played without jokers"),
    (HEAD + DEAL.replace("Qs", "As"),
     "As (B) is not in the pack, or is listed more often than the pack holds it"),
    (HEAD + DEAL.replace("Qs", "2s"), "2s (B) is not in the pack"),
    (HEAD + DEAL.replace(" Qs", ""), "B holds 3 cards; the rules deal 4"),
    (HEAD + DEAL.replace('"Kh', '"7c Kh'), "A holds 5 cards; the rules deal 4"),
    (HEAD + "[options]\nfoo = 1\n" + DEAL, "unknown capture-game rule option 'foo'"),
    (HEAD + "[options]\ntarget = \"ten\"\n" + DEAL,
     "option target = 'ten' must be a whole number from 0 to 1000000"),
    (HEAD + "[options]\nwilds = 7\n" + DEAL, "option wilds = 7 must be ranks"),
    (HEAD + "[options]\ncard_points = { T = 1, 10 = 2 }\n" + DEAL, "T is named twice"),
    (HEAD.replace("sedma", "sedmo") + DEAL, "unknown capture-game preset 'sedmo'"),
    (HEAD.replace('"A", "B"', '"A", "B", "C", "D", "E"') + DEAL,
     "sedma is played by 2, 3 or 4 players, not 5"),
    (HEAD + DEAL.replace("B play Ks", "B fly"), "unknown verb 'fly'"),
    (HEAD + DEAL.replace("B play Ks", "B say ubij"), "these rules have no signals [no-signals]"),
    (HEAD + DEAL + "[deal.result]\npoints = { Z = 1 }\n",
     "deal 1 points names 'Z', which is neither a side (A, B) nor a player"),
    (HEAD + DEAL + "[deal.result]\noutcome = \"lost\"\n",
     "deal 1: outcome must be one of win, draw, both-lose"),
    (HEAD + DEAL + "[match]\nwinner = 3\n", "match winner must be a side"),
    (HEAD + "[[deal]]\nactions = []\n", "deal 1 needs hands (and a stock) or a seed"),
    ("\x00\x01binary\xff", "the record is not valid TOML"),
])
def test_a_malformed_record_is_one_clean_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 1 and not isinstance(result.exception, Exception)
    lines = result.output.splitlines()
    assert lines[0].startswith("FAIL bad.toml: ") and message in lines[0], lines
    assert lines[1:] == ["0 passed, 1 failed"] and "Traceback" not in result.output


def test_binary_garbage_is_one_clean_line(tmp_path: Path) -> None:
    path = tmp_path / "noise.toml"
    path.write_bytes(bytes(range(256)) * 4)
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 1 and not isinstance(result.exception, Exception)
    assert result.output.splitlines()[1:] == ["0 passed, 1 failed"]
    assert result.output.startswith("FAIL noise.toml: ") and "Traceback" not in result.output


# -- writing records ------------------------------------------------------------------------------

def test_record_text_round_trips_with_options() -> None:
    rules = Rules.preset("hola", wilds="7", lead_limit=2, redeal_at_most="none",
                         card_points={"A": 11, "K": 3}, removed="2c")
    match = GAME.new_match(rules, ["A", "B"], seed=5)
    state = match.new_deal()
    while not state.is_over:
        assert state.turn is not None
        state.apply(state.legal_actions(state.turn)[0])
    match.finish_deal()
    text = GAME.record_text(match, comment="options")
    data = parse_toml(text)
    assert data["options"] == {"removed": "2c", "wilds": "7", "card_points": {"A": 11, "K": 3},
                               "lead_limit": 2, "redeal_at_most": "none"}
    assert check(data)[0] == rules
    assert verify_text(text).ok and dumps(record_of(GAME.resume(text)), comment="options") == text


def test_a_ristiklappi_record_gives_card_points_as_totals() -> None:
    match = GAME.new_match(Rules.preset("ristiklappi"), ["A", "B"], seed=2)
    state = match.new_deal()
    while not state.is_over:
        assert state.turn is not None
        state.apply(state.legal_actions(state.turn)[-1])
    match.finish_deal()
    data = record_of(match)
    r = state.result
    assert r is not None
    assert data["match"]["totals"] == {"A": r.points[0], "B": r.points[1]}
    assert verify_text(dumps(data)).ok


def test_resume_refuses_a_record_that_cannot_go_on() -> None:
    from hoola.core.errors import RecordError

    with pytest.raises(RecordError) as info:
        GAME.resume(HEAD)
    assert "holds no hand" in info.value.message
    with pytest.raises(RecordError) as info:
        GAME.resume((SHARED / "hola-card-not-in-hand-refused.toml").read_text())
    assert "ends with an action that must be refused" in info.value.message


# -- the command line -----------------------------------------------------------------------------

def test_verify_reads_both_capture_folders() -> None:
    result = CliRunner().invoke(cli, ["verify", str(OWN), str(SHARED)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == f"{len(RECORDS)} passed, 0 failed"


def test_replay_tells_a_capture_record() -> None:
    result = CliRunner().invoke(cli, ["replay", str(SHARED / "sedma-two-player-hand.toml")])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Capture game, rules: sedma; players: A, B; sides: A against B"
    assert "Deal 1: A deals" in lines and "  A: Kh As Ts 8s" in lines
    assert "  1. B play Ks" in lines and "     trick 1 to A" in lines
    assert "  A 50, B 40; game points A 1, B 0; A wins the hand" in lines
    assert lines[-2:] == ["Game points (to 10): A 1, B 0", "B deals next"]


def test_replay_shows_a_dark_card_and_a_refusal() -> None:
    out = CliRunner().invoke(cli, ["replay", str(OWN / "ristikontra-dark-card-takes-the-trick"
                                                 ".toml")]).output
    assert "  2. C dark (Kd)" in out.splitlines()
    result = CliRunner().invoke(cli, ["replay", str(SHARED / "sedma-leader-decides-before-"
                                                             "next-trick.toml")])
    assert result.exit_code == 0
    assert result.output.splitlines()[-1] == (
        "  3. A play 9c  -- refused: it is B's turn to decide whether to fight on or stop, not "
        "A's")


def test_replay_of_a_record_with_an_unexpected_refusal_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "wrong.toml"
    path.write_text(HEAD + DEAL.replace("B play Ks", "A play Kh"))
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.splitlines()[-1] == (
        f"Error: {path}: deal 1, action 1 is refused: it is B's turn to play, not A's")


def test_rules_lists_the_six_presets_and_every_option() -> None:
    result = CliRunner().invoke(cli, ["rules", "capture"])
    assert result.exit_code == 0, result.output
    for name in ("hola", "sedma", "sedmice", "sedmice-croatian", "ristikontra", "ristiklappi"):
        assert f"\n  {name}: " in result.output
    for key in Rules.option_keys():
        assert f"\n  {key} = " in result.output
    result = CliRunner().invoke(cli, ["rules", "capture", "--rules", "ristikontra"])
    assert result.exit_code == 0 and '\n  lead_limit = 3 ' in result.output
    assert '\n  redeal_at_most = "none" ' in result.output
    assert '\n  wilds = "none" ' in result.output
    result = CliRunner().invoke(cli, ["rules", "capture", "--json"])
    assert result.exit_code == 0 and '"sedmice-croatian"' in result.output

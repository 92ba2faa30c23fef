"""Record files as a hostile user writes them: each gets one clear sentence, never a traceback.

Every input here once crashed ``hoola verify``, ``hoola replay`` or ``hoola play --resume`` with a
traceback, hung, or took minutes or gigabytes. The limits are in ``docs/records.md``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from hoola.cli import cli
from hoola.core.errors import NotationError, RecordError
from hoola.games.hoola.actions import NAME_RE, parse_action
from hoola.games.hoola.records import (
    MAX_DEALS,
    MAX_FILE_BYTES,
    load,
    loads,
    resume_match,
    verify,
)

HEAD = 'format = "hoola-record/1"\nrules = "pagat"\nplayers = ["A", "B"]\n'
SEED_DEAL = "\n[[deal]]\nseed = 1\nactions = []\n"
GOOD = HEAD + SEED_DEAL
# A deal that is over at once: A knocks with 10 points (pagat).
KNOCK = HEAD.replace('["A", "B"]', '["A", "B", "C", "D"]') + """
[[deal]]
hands = { A = "As Ah Ad Ac 2s 2h 2d", B = "Ks Kh Qh Qd Tc 8s 6s", C = "7s 3s 4h 5h 6h Th 3d", \
D = "8d 8c 3c 4s 5s 4d 5d" }
upcard = "Kd"
stock = "Qs Js"
actions = ["A knock"]
""".replace(" \\\n", " ")
FAST = 10.0  # seconds: each of these took from 30 s to minutes before; it now takes milliseconds


def deep(opening: str, closing: str, depth: int = 10_000) -> str:
    """A value nested ``depth`` times."""
    return opening * depth + closing * depth


def huge(digits: int = 5000) -> str:
    """A whole number of ``digits`` nines."""
    return "9" * digits


# (file name, bytes, the words the one-line verdict must hold)
HOSTILE: list[tuple[str, bytes, str]] = [
    ("binary.toml", bytes(range(256)) * 4,
     "the file is not UTF-8 text: byte 0x80 on line 2 cannot be read"),
    ("latin1.toml", (HEAD.replace('"A"', '"José"') + SEED_DEAL).encode("latin-1"),
     "the file is not UTF-8 text: byte 0xe9 on line 3 cannot be read"),
    ("nested-array.toml", (HEAD + "x = " + deep("[", "]") + "\n").encode(),
     "the record nests arrays or tables too deeply to read"),
    ("nested-table.toml", (HEAD + "x = " + deep("{ a = ", "}")).replace("= }", "= 1 }")
     .encode(), "the record nests arrays or tables too deeply to read"),
    ("stake-inf.toml", (GOOD + "stake = inf\n").encode(),
     "deal 1 stake must be a finite number, not inf"),
    ("stake-nan.toml", (GOOD + "stake = nan\n").encode(),
     "deal 1 stake must be a finite number, not nan"),
    ("stake-exponent.toml", (GOOD + 'stake = "1e100000000"\n').encode(),
     "deal 1 stake has more than 100 digits"),
    ("stake-float.toml", (GOOD + "stake = 1e300\n").encode(),
     "deal 1 stake has more than 100 digits"),
    ("stake-digits.toml", (GOOD + f"stake = {huge()}\n").encode(),
     "the record holds a number of thousands of digits"),
    ("stake-fraction.toml", (GOOD + f'stake = "1/{huge(101)}"\n').encode(),
     "deal 1 stake has more than 100 digits"),
    ("seed-digits.toml", (HEAD + f"\n[[deal]]\nseed = {huge(101)}\n").encode(),
     "deal 1 seed has more than 100 digits"),
    ("payment-inf.toml", (GOOD + "\n[deal.result]\npayments = { A = -inf }\n").encode(),
     "deal 1 payments of A must be a finite number, not -inf"),
    ("payment-digits.toml", (GOOD + f'\n[deal.result]\npayments = {{ A = "{huge()}" }}\n')
     .encode(), "deal 1 payments of A has more than 100 digits"),
    ("total-exponent.toml", (GOOD + '\n[match]\ntotals = { B = "-2.5e999" }\n').encode(),
     "match totals of B has more than 100 digits"),
    ("option-inf.toml", (HEAD + "\n[options]\nknock_limit = inf\n" + SEED_DEAL).encode(),
     "option knock_limit must be a finite number, not inf [bad-option-value]"),
    ("option-nan-table.toml", (HEAD + "\n[options]\nknock_limit = { 2 = nan }\n" + SEED_DEAL)
     .encode(), "option knock_limit must be a finite number, not nan [bad-option-value]"),
    ("option-exponent.toml",
     (HEAD + '\n[options]\ndropout_compensation = "1e100000000"\n' + SEED_DEAL).encode(),
     "option dropout_compensation has more than 100 digits"),
    ("option-fraction.toml",
     (HEAD + f'\n[options]\nundercut_penalty = "{huge(200)}/3"\n' + SEED_DEAL).encode(),
     "option undercut_penalty has more than 100 digits"),
    ("option-arabic-digits.toml",
     (HEAD + '\n[options]\nundercut_penalty = "\u0661e100000000"\n' + SEED_DEAL).encode(),
     "option undercut_penalty must be a number or a fraction"),
    ("option-digits.toml", (HEAD + f"\n[options]\nblast_low = {huge()}\n" + SEED_DEAL).encode(),
     "the record holds a number of thousands of digits"),
    ("option-table-keys.toml",
     (HEAD + '\n[options]\nknock_limit = { "2" = 5, "02" = "x" }\n' + SEED_DEAL).encode(),
     "option knock_limit must be a table of player counts"),
    ("option-date.toml", (HEAD + "\n[options]\nclaims = 1979-05-27\n" + SEED_DEAL).encode(),
     "option claims = datetime.date(1979, 5, 27) must be a number, true or false, or a word"),
    ("option-key.toml", (HEAD + f"\n[options]\nk{huge(300)} = 1\n" + SEED_DEAL).encode(),
     "unknown rule option 'k99999999999999999999"),
    ("meld-id.toml", (GOOD.replace("actions = []", f'actions = ["A add 6c on m{huge()}"]'))
     .encode(), "deal 1 action 1 has 5,013 characters; a string in a record has at most 500"),
    ("meld-id-short.toml", (GOOD.replace("actions = []", f'actions = ["A add 6c on m{huge(9)}"]'))
     .encode(), "'m9999999...' is not a meld number (m1 to m999)"),
    ("eight-players.toml",
     (HEAD.replace('["A", "B"]', str(list("ABCDEFGH")).replace("'", '"')) + SEED_DEAL).encode(),
     "a record has 2 to 7 players, not 8"),
    ("one-player.toml", (HEAD.replace('["A", "B"]', '["A"]') + SEED_DEAL).encode(),
     "a record has 2 to 7 players, not 1"),
    ("name-newline.toml", (HEAD.replace('"B"', '"B\\n"') + SEED_DEAL).encode(),
     "players must be a list of names of 1 to 64 letters, digits, _ and -"),
    ("duplicate-stock.toml",
     KNOCK.replace('stock = "Qs Js"', f'stock = "{"Qs " * 200_000}"').encode(),
     "deal 1 stock has 600,000 characters; a string in a record has at most 500"),
    ("too-many-deals.toml", (HEAD + SEED_DEAL * (MAX_DEALS + 1)).encode(),
     "the record has 1,001 deals; a record has at most 1,000"),
    ("oversize.toml", (GOOD + "#" * MAX_FILE_BYTES).encode(),
     "the file is larger than 4,194,304 bytes (4 MiB), the most a record may have"),
    ("empty.toml", b"", "the record has no format line"),
    ("format.toml", HEAD.replace('"hoola-record/1"', "[" + "1," * 1000 + "]").encode(),
     "format must be 'hoola-record/1', not [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, ..."),
]


@pytest.fixture(scope="module")
def hostile_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding every hostile file."""
    folder = tmp_path_factory.mktemp("hostile")
    for name, data, _ in HOSTILE:
        (folder / name).write_bytes(data)
    return folder


@pytest.mark.parametrize(("name", "words"), [(name, words) for name, _, words in HOSTILE],
                         ids=[name for name, _, _ in HOSTILE])
def test_verify_gives_each_hostile_file_one_clear_line(hostile_dir: Path, name: str,
                                                        words: str) -> None:
    start = time.perf_counter()
    result = CliRunner().invoke(cli, ["verify", str(hostile_dir / name)])
    assert time.perf_counter() - start < FAST
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code == 1
    verdict, total = result.output.splitlines()
    assert verdict.startswith(f"FAIL {name}: ")
    assert words in verdict
    assert total == "0 passed, 1 failed"


@pytest.mark.parametrize("name", [name for name, _, _ in HOSTILE],
                         ids=[name for name, _, _ in HOSTILE])
def test_replay_and_resume_raise_only_record_errors(hostile_dir: Path, name: str) -> None:
    # What `hoola play --resume` calls: the front end prints a RecordError's message.
    with pytest.raises(RecordError) as error:
        resume_match(load(hostile_dir / name), seed=1)
    assert "\n" not in error.value.message
    result = CliRunner().invoke(cli, ["replay", str(hostile_dir / name)])
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit), result.output
    assert result.output.splitlines()[-1].startswith(f"Error: {hostile_dir / name}: ")


def test_a_folder_gives_every_file_its_verdict_and_a_total(hostile_dir: Path,
                                                           tmp_path: Path) -> None:
    (hostile_dir / "good.toml").write_text(GOOD)
    try:
        result = CliRunner().invoke(cli, ["verify", str(hostile_dir)])
        report = CliRunner().invoke(cli, ["verify", "--json", str(hostile_dir)])
    finally:
        (hostile_dir / "good.toml").unlink()
    lines = result.output.splitlines()
    assert result.exit_code == 1
    assert "ok good.toml" in lines
    assert sum(line.startswith("FAIL ") for line in lines) == len(HOSTILE)
    assert lines[-1] == f"1 passed, {len(HOSTILE)} failed"
    data = json.loads(report.output)
    assert report.exit_code == 1
    assert (data["passed"], data["failed"]) == (1, len(HOSTILE))
    assert {r["name"] for r in data["records"] if not r["ok"]} == {n for n, _, _ in HOSTILE}


def test_a_missing_file_fails_and_the_others_are_still_verified(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text(GOOD)
    result = CliRunner().invoke(cli, ["verify", str(tmp_path / "gone.toml"), str(good)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "FAIL gone.toml: cannot read the file: No such file or directory", "ok good.toml",
        "1 passed, 1 failed"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_named_toml_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    (tmp_path / "good.toml").write_text(GOOD)
    result = CliRunner().invoke(cli, ["verify", str(tmp_path)])
    assert result.output.splitlines() == [
        "ok good.toml", "FAIL pipe.toml: the file is a FIFO, not a record file",
        "1 passed, 1 failed"]
    with pytest.raises(RecordError, match="the file is a FIFO, not a record file"):
        load(fifo)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_device_is_refused_without_reading_it() -> None:
    result = CliRunner().invoke(cli, ["verify", "/dev/zero"])
    assert result.output.splitlines() == [
        "FAIL zero: the file is a device, not a record file", "0 passed, 1 failed"]


def test_a_folder_is_not_a_record_to_replay(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="the file is a folder, not a record file"):
        load(tmp_path)


def test_file_names_cannot_forge_output_lines(tmp_path: Path) -> None:
    (tmp_path / "evil\nok forged.toml").write_text("junk")
    result = CliRunner().invoke(cli, ["verify", str(tmp_path)])
    assert result.output.splitlines() == [
        "FAIL evil\\nok forged.toml: the record is not valid TOML: Expected '=' after a key in a "
        "key/value pair (at end of document)", "0 passed, 1 failed"]


def test_replay_exits_1_when_an_action_is_refused_or_unreadable(tmp_path: Path) -> None:
    for action, reason in (("A discard Zz", "cannot read card 'Zz'"),
                           ("B draw", "B cannot draw: it is A's turn")):
        path = tmp_path / "refused.toml"
        path.write_text(GOOD.replace("actions = []", f'actions = ["{action}"]'))
        result = CliRunner().invoke(cli, ["replay", str(path)])
        assert result.exit_code == 1, result.output
        assert f"  1. {action}  -- refused: " in result.output
        assert result.output.splitlines()[-1].startswith(
            f"Error: {path}: deal 1, action 1 is refused: ")
        assert reason in result.output


def test_replay_exits_0_when_the_record_expects_the_refusal(tmp_path: Path) -> None:
    path = tmp_path / "expected.toml"
    path.write_text(GOOD.replace("actions = []", 'actions = ["B draw"]')
                    + "\n[deal.result]\nillegal = 1\n")
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "  1. B draw  -- refused: " in result.output


def test_control_characters_in_an_action_are_escaped(tmp_path: Path) -> None:
    path = tmp_path / "escape.toml"
    path.write_text(GOOD.replace("actions = []", 'actions = ["A draw\\u001b[2J"]'))
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert "\x1b" not in result.output
    assert "  1. A draw\\x1b[2J  -- refused: " in result.output


def test_names_must_match_in_full() -> None:
    for name in ("B\n", "B\nC", "", "A" * 65, "Bé", "B C"):
        assert not NAME_RE.match(name), name
        with pytest.raises(RecordError, match="players must be a list of names"):
            loads(HEAD.replace('"B"', json.dumps(name)))
    assert NAME_RE.match("A" * 64)


def test_meld_numbers_of_thousands_of_digits_are_a_notation_error() -> None:
    with pytest.raises(NotationError, match=r"'m9999999\.\.\.' is not a meld number"):
        parse_action(f"A add 6c on m{huge()}", ["A", "B"])
    assert parse_action("A add 6c on m12", ["A", "B"]) == parse_action("A add 6c on M12",
                                                                         ["A", "B"])


def test_numbers_within_the_limits_are_read_exactly() -> None:
    record = loads(GOOD + 'stake = "2.5e1"\n\n[deal.result]\npayments = { A = "-7/3", B = 0.1 }\n')
    deal = record.deals[0]
    assert deal.stake == 25
    assert [str(v) for v in deal.result["payments"].values()] == ["-7/3", "1/10"]
    assert loads(GOOD + f"stake = {huge(100)}\n").deals[0].stake == 10**100 - 1


def test_verify_lets_each_deal_go_once_checked() -> None:
    # Keeping every deal's state made a 50 MB record take 6 GB (about 5 KB a deal, even for a deal
    # of one draw). Deals let go may wait for the cycle collector, so allow a little growth, far
    # below what keeping the states costs.
    def peak(deals: int) -> int:
        record = loads(HEAD + '\n[[deal]]\nseed = 7\nactions = ["A draw"]\n' * deals)
        tracemalloc.start()
        try:
            assert verify(record).ok
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    assert peak(400) - peak(40) < 360 * 1024


def test_hostile_folder_in_a_real_process(hostile_dir: Path) -> None:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["hoola", "verify", str(hostile_dir)], capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    # Standard output holds one line a record; the total goes to standard error.
    lines = done.stdout.splitlines()
    assert len(lines) == len(HOSTILE) and all(line.startswith("FAIL ") for line in lines)
    assert done.stderr.splitlines() == [f"0 passed, {len(HOSTILE)} failed"]

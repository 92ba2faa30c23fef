"""External bots: whole deals through the hoola-bot/1 protocol with real subprocesses, and hostile
programs that must not hang, flood, fool or outlive the host."""

from __future__ import annotations

import json
import os
import random
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from hoola.bots import make_bot
from hoola.bots.external import MAX_LINE, ExternalBot, ExternalBotError, hello_message, stop_all
from hoola.core.driver import play_deal
from hoola.core.records import verify_path
from hoola.core.registry import get_game
from hoola.games.hoola import DealState, Rules
from hoola.games.hoola.expert import ExpertBot
from hoola.games.hoola.greedy import GreedyBot

ROOT = Path(__file__).resolve().parent.parent
RANDOM_BOT = [sys.executable, str(ROOT / "examples" / "random_bot.py")]
PAGAT = Rules.preset("pagat")
SLACK = 5.0  # seconds of grace on a loaded machine: budgets are checked loosely, never tightly


def test_a_deal_plays_through_the_protocol_with_a_real_subprocess() -> None:
    with ExternalBot([*RANDOM_BOT, "1"], name="rnd") as bot:
        assert bot.bot_name == "random-example"
        for seed in range(3):
            state = DealState.new(PAGAT, 4, seed=seed)
            bot.begin_deal(state.view(1))
            play_deal(state, [GreedyBot(), bot, ExpertBot(), GreedyBot()],
                      rng=random.Random(seed))
            bot.end_deal(state.view(1))
            assert state.result is not None
            assert sum(state.result.payments.values()) == 0
            assert any(a.player == 1 for a in state.history)
        assert bot.questions > 0


def hostile(tmp_path: Path, act: str, *, hello: str = "", setup: str = "") -> list[str]:
    """A bot script: ``act`` runs for each act message ``m`` (``out(text)`` writes and flushes
    raw text); ``hello`` replaces the ready answer; ``setup`` runs at the start."""
    path = tmp_path / "bot.py"
    ready = hello or "out(json.dumps({'type': 'ready', 'name': 'bad'}) + '\\n')"
    path.write_text(
        "import json, os, sys, time\n"
        "def out(text):\n"
        "    sys.stdout.write(text)\n"
        "    sys.stdout.flush()\n"
        f"{setup}\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        f"        {ready}\n"
        "    elif m['type'] == 'act':\n"
        f"        {act}\n", encoding="utf-8")
    return [sys.executable, str(path)]


def answer(**fields: object) -> str:
    """Code that writes one action message with these fields plus the question's id."""
    return f"out(json.dumps({{'type': 'action', 'id': m['id'], **{fields!r}}}) + '\\n')"


def _refusal(command: list[str], timeout: float = 1.0) -> tuple[ExternalBotError, float, int]:
    """Ask seat 0 (which must draw) for a decision; the error, the seconds it took, the pid."""
    state = DealState.new(PAGAT, 4, seed=1)
    bot = ExternalBot(command, name="bad", timeout=timeout)
    try:
        bot.start()
        pid = bot.pid
        assert pid is not None
        start = time.monotonic()
        with pytest.raises(ExternalBotError) as caught:
            bot.act(state.view(0))
        return caught.value, time.monotonic() - start, pid
    finally:
        bot.close()


def assert_gone(pid: int) -> None:
    """The process is neither running nor a zombie left unreaped."""
    assert not Path(f"/proc/{pid}").exists(), f"process {pid} outlived its bot"


@pytest.mark.parametrize(("act", "code"), [
    (answer(action="A knock"), "external-illegal"),
    (answer(index=99), "external-illegal"),
    (answer(index=True), "external-illegal"),  # JSON true is not the index 1
    (answer(index=0, action="A draw"), "external-protocol"),
    (answer(action=5), "external-illegal"),
    (answer(action=None), "external-illegal"),  # a pass when one must draw
    ("out(json.dumps({'type': 'action', 'id': m['id'] - 1, 'action': 'A draw'}) + '\\n')",
     "external-stale"),
    ("out(json.dumps({'type': 'action', 'id': str(m['id']), 'action': 'A draw'}) + '\\n')",
     "external-stale"),
    ("out(json.dumps({'type': 'hello'}) + '\\n')", "external-protocol"),
    ("out('not json\\n')", "external-bad-json"),
    ("out('[' * 100000 + '\\n')", "external-long-line"),
    ("out('[' * 60000 + '\\n')", "external-bad-json"),  # nested too deep for the parser
    ("sys.stdout.buffer.write(b'\\xff\\xfe\\n'); sys.stdout.flush()", "external-bad-json"),
    ("out('[1, 2]\\n')", "external-bad-json"),
    ("sys.exit(3)", "external-exited"),
    ("os.close(1)", "external-exited"),
    ("time.sleep(30)", "external-timeout"),
])
def test_a_bot_that_breaks_the_protocol_is_refused_by_name(tmp_path: Path, act: str,
                                                           code: str) -> None:
    error, seconds, pid = _refusal(hostile(tmp_path, act))
    assert error.code == code, error.message
    assert "bad" in error.message and "\n" not in error.message
    assert seconds < 1.0 + SLACK
    assert_gone(pid)  # a bot that broke the protocol is killed and reaped at once


def test_the_budget_holds_when_a_bot_writes_half_a_line_and_goes_quiet(tmp_path: Path) -> None:
    act = "out('{\"type\": \"action\", \"act'); time.sleep(60)"
    error, seconds, _ = _refusal(hostile(tmp_path, act), timeout=1.0)
    assert error.code == "external-timeout"
    assert "part of a line" in error.message
    assert 0.9 <= seconds < 1.0 + SLACK


def test_the_budget_holds_against_a_trickle_of_blank_lines(tmp_path: Path) -> None:
    act = "while True: out('\\n'); time.sleep(0.01)"
    error, seconds, _ = _refusal(hostile(tmp_path, act), timeout=1.0)
    assert error.code == "external-timeout"
    assert 0.9 <= seconds < 1.0 + SLACK


def test_endless_bytes_without_a_newline_are_cut_off_without_eating_memory(
        tmp_path: Path) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    error, seconds, _ = _refusal(hostile(tmp_path, "while True: out('x' * 65536)"),
                                 timeout=30.0)
    assert error.code == "external-long-line"
    assert str(MAX_LINE) in error.message
    assert seconds < SLACK  # refused at the limit, long before the budget
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100 * 1024


def test_an_answer_on_time_is_taken_and_a_late_one_is_not(tmp_path: Path) -> None:
    state = DealState.new(PAGAT, 4, seed=1)
    slow = hostile(tmp_path, f"time.sleep(0.3); {answer(action='A draw')}")
    with ExternalBot(slow, name="slow", timeout=1.0 + SLACK) as bot:
        assert bot.act(state.view(0)) == state.legal_actions(0)[0]
    error, seconds, _ = _refusal(hostile(tmp_path, f"time.sleep(3); {answer(index=0)}"),
                                 timeout=1.0)
    assert error.code == "external-timeout" and "within 1 s" in error.message
    assert 0.9 <= seconds < 3.0


def test_two_lines_in_one_write(tmp_path: Path) -> None:
    state = DealState.new(PAGAT, 4, seed=1)
    # A blank line and the answer in one write: no false timeout.
    blank_first = "out('\\n' + json.dumps({'type': 'action', 'id': m['id'], 'index': 0}) + '\\n')"
    with ExternalBot(hostile(tmp_path, blank_first), name="ok", timeout=1.0 + SLACK) as bot:
        for _ in range(3):
            assert bot.act(state.view(0)) == state.legal_actions(0)[0]
    # Two answers in one write: the second answers nothing and is refused, at once.
    twice = "a = json.dumps({'type': 'action', 'id': m['id'], 'index': 0}) + '\\n'; out(a + a)"
    error, seconds, _ = _refusal(hostile(tmp_path, twice), timeout=30.0)
    assert error.code == "external-extra"
    assert seconds < SLACK


def test_an_answer_nobody_asked_for_is_refused_at_the_next_message(tmp_path: Path) -> None:
    state = DealState.new(PAGAT, 4, seed=1)
    late = f"{answer(index=0)}; time.sleep(0.2); {answer(index=0)}"
    bot = ExternalBot(hostile(tmp_path, late), name="chatty", timeout=1.0 + SLACK)
    try:
        assert bot.act(state.view(0)) is not None
        time.sleep(0.5)  # the unasked line is written meanwhile (a delay, not a wait for it)
        with pytest.raises(ExternalBotError) as caught:
            bot.act(state.view(0))
        assert caught.value.code == "external-extra"
    finally:
        bot.close()


def test_old_bots_without_ids_still_play(tmp_path: Path) -> None:
    state = DealState.new(PAGAT, 4, seed=1)
    old = "out(json.dumps({'type': 'action', 'action': 'A draw'}) + '\\n')"
    with ExternalBot(hostile(tmp_path, old), name="old", timeout=1.0 + SLACK) as bot:
        assert bot.act(state.view(0)) == state.legal_actions(0)[0]


def test_a_bot_that_does_not_read_its_input_cannot_block_the_host(tmp_path: Path) -> None:
    deaf = hostile(tmp_path, "pass", hello="out(json.dumps({'type': 'ready'}) + '\\n'); "
                                           "time.sleep(60)")
    state = DealState.new(PAGAT, 4, seed=1)
    bot = ExternalBot(deaf, name="deaf", timeout=0.5)
    start = time.monotonic()
    try:
        with pytest.raises(ExternalBotError) as caught:
            for _ in range(1000):  # the pipe fills after some dozens of views
                bot.begin_deal(state.view(0))
        assert caught.value.code == "external-timeout"
        assert "did not read its input" in caught.value.message
        assert time.monotonic() - start < 0.5 + SLACK
    finally:
        bot.close()


@pytest.mark.parametrize(("command", "words"), [
    (["/nonexistent/bot"], "cannot start '/nonexistent/bot'"),
    (["no-such-program-hoola"], "cannot start 'no-such-program-hoola'"),
    ([str(ROOT / "README.md")], "cannot start"),  # not executable
])
def test_a_missing_program_is_a_clear_error(command: list[str], words: str) -> None:
    bot = ExternalBot(command, name="gone")
    with pytest.raises(ExternalBotError) as caught:
        bot.act(DealState.new(PAGAT, 4, seed=1).view(0))
    assert caught.value.code == "external-missing"
    assert words in caught.value.message


@pytest.mark.parametrize(("command", "timeout", "words"), [
    ("", 1.0, "empty"),
    ("python 'unclosed", 1.0, "cannot read the bot command"),
    ("python bot.py", 0.0, "positive number"),
    ("python bot.py", float("nan"), "positive number"),
])
def test_bad_bot_settings_are_refused_before_anything_starts(command: str, timeout: float,
                                                             words: str) -> None:
    with pytest.raises(ExternalBotError, match=words):
        ExternalBot(command, timeout=timeout)


def test_quit_ends_a_bot_that_ignores_it_and_its_children(tmp_path: Path) -> None:
    # The program starts a grandchild, ignores quit and the end of its input, and sleeps on.
    stubborn = hostile(tmp_path, answer(index=0),
                       setup="import subprocess\n"
                             "child = subprocess.Popen([sys.executable, '-c', "
                             "'import time; time.sleep(60)'])\n"
                             f"open({str(tmp_path / 'child')!r}, 'w').write(str(child.pid))")
    path = Path(stubborn[1])
    path.write_text(path.read_text(encoding="utf-8") + "time.sleep(60)\n", encoding="utf-8")
    bot = ExternalBot(stubborn, name="stubborn", timeout=1.0 + SLACK)
    bot.start()
    pid = bot.pid
    assert pid is not None
    child = int((tmp_path / "child").read_text(encoding="utf-8"))
    start = time.monotonic()
    bot.close()
    assert time.monotonic() - start < 1.0 + SLACK
    assert_gone(pid)
    for _ in range(100):  # the grandchild is not ours to reap: init does it, soon
        if not Path(f"/proc/{child}").exists() or _is_zombie(child):
            break
        time.sleep(0.05)
    assert not Path(f"/proc/{child}").exists() or _is_zombie(child)


def _is_zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").split()[2] == "Z"
    except OSError:
        return True


def _ctrl_c_after(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    """Make ``module.name`` press Ctrl-C (SIGINT to this process) just after it has done its
    work; the pids of the processes it concerned are collected in the list returned."""
    real = getattr(module, name)
    pids: list[int] = []

    def then_ctrl_c(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        pids.append(args[0] if result is None else result.pid)  # killpg(pid, sig) or a Popen
        signal.raise_signal(signal.SIGINT)
        return result

    monkeypatch.setattr(module, name, then_ctrl_c)
    return pids


def test_ctrl_c_between_killing_and_reaping_bots_waits_until_all_are_reaped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bots = [ExternalBot(hostile(tmp_path, "time.sleep(60)"), name=f"bot{i}") for i in range(2)]
    for bot in bots:
        bot.start()
    killed = _ctrl_c_after(monkeypatch, os, "killpg")
    with pytest.raises(KeyboardInterrupt):
        stop_all(bots)
    assert len(killed) == 2  # the first Ctrl-C did not stop the second kill
    for pid in killed:
        assert_gone(pid)  # nor leave a zombie


def test_ctrl_c_just_as_a_bot_starts_leaves_no_program_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started = _ctrl_c_after(monkeypatch, subprocess, "Popen")
    bot = ExternalBot(hostile(tmp_path, "time.sleep(60)"), name="bot")
    with pytest.raises(KeyboardInterrupt):
        bot.start()
    assert bot.pid is None and len(started) == 1
    assert_gone(started[0])


def test_the_view_message_shows_only_what_the_player_may_know() -> None:
    state = DealState.new(PAGAT, 4, seed=4)
    message = state.view(2).to_json()
    text = json.dumps(message)
    assert message["hands"] is None and message["result"] is None
    others = {c for q in (0, 1, 3) for c in state.view(q).to_json()["hand"]}
    assert len(others) == 21 and not others & set(message["hand"])
    assert not any(f'"{c}"' in text for c in others)


def test_the_act_message_carries_an_id_the_example_echoes(tmp_path: Path) -> None:
    log = tmp_path / "log"
    tee = tmp_path / "tee.py"  # the example bot behind a recorder of both directions
    tee.write_text(
        "import subprocess, sys\n"
        f"log = open({str(log)!r}, 'w')\n"
        f"bot = subprocess.Popen({RANDOM_BOT!r}, stdin=subprocess.PIPE, stdout=subprocess.PIPE,"
        " text=True)\n"
        "for line in sys.stdin:\n"
        "    log.write('host ' + line); log.flush()\n"
        "    bot.stdin.write(line); bot.stdin.flush()\n"
        "    if '\"act\"' in line or '\"hello\"' in line:\n"
        "        reply = bot.stdout.readline()\n"
        "        log.write('bot ' + reply); log.flush()\n"
        "        sys.stdout.write(reply); sys.stdout.flush()\n", encoding="utf-8")
    state = DealState.new(PAGAT, 4, seed=1)
    with ExternalBot([sys.executable, str(tee)], name="tee", timeout=1.0 + SLACK) as bot:
        bot.act(state.view(0))
        bot.act(state.view(0))
    lines = [json.loads(line.split(" ", 1)[1]) for line in log.read_text().splitlines()]
    acts = [m for m in lines if m.get("type") == "act"]
    answers = [m for m in lines if m.get("type") == "action"]
    assert [m["id"] for m in acts] == [1, 2] and [m["id"] for m in answers] == [1, 2]


# -- every game through the same protocol ------------------------------------------------------

KALOOKIE = get_game("kalookie")
BRITISH = KALOOKIE.rules("british")


def test_the_example_plays_kalookie_and_the_hello_names_the_game_and_its_rules(
        tmp_path: Path) -> None:
    log = tmp_path / "log"
    tee = tmp_path / "tee.py"  # the example bot behind a recorder of what the host sends
    tee.write_text(
        "import subprocess, sys\n"
        f"log = open({str(log)!r}, 'w')\n"
        f"bot = subprocess.Popen({[*RANDOM_BOT, '3']!r}, stdin=subprocess.PIPE, text=True)\n"
        "for line in sys.stdin:\n"
        "    log.write(line); log.flush()\n"
        "    bot.stdin.write(line); bot.stdin.flush()\n", encoding="utf-8")
    rules = KALOOKIE.rules("british", {"target": 151})
    with ExternalBot([sys.executable, str(tee)], name="rnd", game="kalookie", rules=rules,
                     timeout=10 + SLACK) as bot:
        for seed in range(2):
            state = KALOOKIE.new_deal(rules, ["A", "B", "C"], seed=seed)
            others = [make_bot("random", seed, game=KALOOKIE) for _ in range(2)]
            bot.begin_deal(state.view(1))
            play_deal(state, [others[0], bot, others[1]], rng=random.Random(seed))
            bot.end_deal(state.view(1))
            assert state.is_over and sum(state.returns()) == 0
            assert any(a.player == 1 for a in state.history)
    sent = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert sent[0] == {"type": "hello", "protocol": "hoola-bot/1", "game": "kalookie",
                       "rules": {"preset": "british", "options": {"target": 151}}}
    acts = [m for m in sent if m["type"] == "act"]
    assert acts and all(m["view"]["game"] == "kalookie" and m["view"]["legal"] for m in acts)
    assert [m["type"] for m in sent].count("end") == 2


def test_a_hoola_hello_names_the_game_and_keeps_the_protocol() -> None:
    assert hello_message(get_game("hoola")) == {"type": "hello", "protocol": "hoola-bot/1",
                                                "game": "hoola"}
    assert hello_message(get_game("hoola"), Rules.preset("pagat", knock_limit=15))["rules"] == \
        {"preset": "pagat", "options": {"knock_limit": 15}}


@pytest.mark.parametrize(("act", "code", "words"), [
    (answer(action="B draw"), None, ""),
    (answer(action="B  draw   # a comment"), None, ""),  # read by the notation, not as text
    (answer(action="B discard As"), "external-illegal", "not legal now"),
    (answer(action="B fly"), "external-illegal", "'B fly'"),
    (answer(action="Z draw"), "external-illegal", "no player is named 'Z'"),
])
def test_a_kalookie_answer_is_read_with_kalookie_s_notation(tmp_path: Path, act: str,
                                                            code: str | None,
                                                            words: str) -> None:
    state = KALOOKIE.new_deal(BRITISH, ["A", "B", "C"], seed=3)  # B draws first
    bot = ExternalBot(hostile(tmp_path, act), name="bad", game=KALOOKIE, rules=BRITISH,
                      timeout=1.0 + SLACK)
    try:
        if code is None:
            assert bot.act(state.view(1)) == state.legal_actions(1)[0]
            return
        with pytest.raises(ExternalBotError) as caught:
            bot.act(state.view(1))
        assert caught.value.code == code and words in caught.value.message
    finally:
        bot.close()


def test_hoola_sim_seats_an_external_bot_at_kalookie(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from hoola.cli import cli

    command = f"rnd={sys.executable} {ROOT / 'examples' / 'random_bot.py'} 5"
    result = CliRunner().invoke(cli, ["sim", "-g", "kalookie", "-x", command, "--bots",
                                      "rnd,random", "-n", "2", "-j", "1", "--records",
                                      str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "rnd - random" in result.output and "bot errors" not in result.output
    files = sorted(tmp_path.iterdir())
    assert len(files) == 4 and all(verify_path(f).ok for f in files)

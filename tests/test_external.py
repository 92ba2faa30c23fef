"""External bots: whole deals through the hoola-bot/1 protocol with a real subprocess."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hoola import DealState, Rules
from hoola.bots import ExpertBot, GreedyBot
from hoola.bots.external import ExternalBot, ExternalBotError, view_to_json
from hoola.cli import cli
from hoola.play import play_deal

ROOT = Path(__file__).resolve().parent.parent
RANDOM_BOT = [sys.executable, str(ROOT / "examples" / "random_bot.py")]
PAGAT = Rules.preset("pagat")


def test_a_deal_plays_through_the_protocol_with_a_real_subprocess() -> None:
    with ExternalBot([*RANDOM_BOT, "1"], name="rnd") as bot:
        assert bot.bot_name == "random-example"
        for seed in range(3):
            state = DealState.new(PAGAT, 4, seed=seed)
            bot.begin_deal(state.view(1))
            play_deal(state, [GreedyBot(), bot, ExpertBot(), GreedyBot()], random.Random(seed))
            bot.end_deal(state.view(1))
            assert state.result is not None
            assert sum(state.result.payments.values()) == 0
            assert any(a.player == 1 for a in state.history)


def _script(tmp_path: Path, body: str) -> list[str]:
    path = tmp_path / "bot.py"
    path.write_text("import json, sys, time\n"
                    "for line in sys.stdin:\n"
                    "    m = json.loads(line)\n"
                    "    if m['type'] == 'hello':\n"
                    "        print(json.dumps({'type': 'ready', 'name': 'bad'}), flush=True)\n"
                    "    elif m['type'] == 'act':\n"
                    f"        {body}\n", encoding="utf-8")
    return [sys.executable, str(path)]


@pytest.mark.parametrize(("body", "code"), [
    ("print(json.dumps({'type': 'action', 'action': 'A knock'}), flush=True)", "external-illegal"),
    ("print(json.dumps({'type': 'action', 'index': 99}), flush=True)", "external-illegal"),
    ("print(json.dumps({'type': 'action', 'action': None}), flush=True)", "external-illegal"),
    ("print('not json', flush=True)", "external-bad-json"),
    ("sys.exit(3)", "external-exited"),
    ("time.sleep(30)", "external-timeout"),
])
def test_a_bot_that_breaks_the_protocol_is_refused_by_name(tmp_path: Path, body: str,
                                                           code: str) -> None:
    state = DealState.new(PAGAT, 4, seed=1)  # A (seat 0) must draw: pass and knock are illegal
    bot = ExternalBot(_script(tmp_path, body), name="bad", timeout=1.0)
    try:
        with pytest.raises(ExternalBotError) as caught:
            bot.act(state.view(0))
        assert caught.value.code == code
        assert "bad" in caught.value.message
    finally:
        bot.close()


def test_the_view_message_shows_only_what_the_player_may_know() -> None:
    state = DealState.new(PAGAT, 4, seed=4)
    message = view_to_json(state.view(2))
    text = json.dumps(message)
    assert message["hands"] is None and message["result"] is None
    others = {c for q in (0, 1, 3) for c in view_to_json(state.view(q))["hand"]}
    assert len(others) == 21 and not others & set(message["hand"])
    assert not any(f'"{c}"' in text for c in others)


def test_hoola_sim_runs_an_external_bot() -> None:
    command = " ".join(RANDOM_BOT)
    result = CliRunner().invoke(cli, ["sim", "--external", f"rnd={command}", "--bots",
                                      "rnd,greedy", "-n", "3", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "rnd" in result.output and "greedy" in result.output

"""End to end: ``hoola play`` in a real terminal (tmux), driven by keys, read off the screen.

scripts/test.sh installs tmux when it is missing; without it these tests are skipped.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hoola.records import load, verify_path

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

ROOT = Path(__file__).resolve().parent.parent
ASKED = ("Your turn", "You may", "Now pick", "Thank you?", "Go on", "you must")


class Terminal:
    """An 80x24 tmux window on a server of its own, running one command."""

    def __init__(self, socket: str, command: str, size: tuple[int, int] = (80, 24)) -> None:
        self.socket = socket
        env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
        subprocess.run(["tmux", "-L", socket, "new-session", "-d", "-s", "play",
                        "-x", str(size[0]), "-y", str(size[1]), command],
                       check=True, env=env, cwd=ROOT)

    def screen(self) -> str:
        """What the window shows now."""
        return subprocess.run(["tmux", "-L", self.socket, "capture-pane", "-p", "-t", "play"],
                              capture_output=True, text=True, check=True).stdout

    def send(self, *keys: str) -> None:
        """Type keys (tmux key names: Enter, Escape, or plain letters)."""
        subprocess.run(["tmux", "-L", self.socket, "send-keys", "-t", "play", *keys], check=True)

    def wait_for(self, *texts: str, limit: float = 30.0) -> str:
        """The screen, once it shows any of ``texts``."""
        end = time.monotonic() + limit
        while True:
            screen = self.screen()
            if any(t in screen for t in texts):
                return screen
            if time.monotonic() > end:
                raise AssertionError(f"the screen never showed {texts}:\n{screen}")
            time.sleep(0.05)

    def close(self) -> None:
        """Stop this test's tmux server (only it: it has its own socket)."""
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    opened: list[Terminal] = []
    yield opened
    for t in opened:
        t.close()


def play_command(*args: str) -> str:
    line = " ".join([sys.executable, "-m", "hoola", "play", *args])
    # Keep the window after the game ends, to read the goodbye and the exit status.
    return f"{line}; echo HOOLA-EXIT-$?; sleep 60"


def test_play_a_deal_in_tmux_leave_and_resume_to_the_end(tmp_path: Path,
                                                          terminals: list[Terminal]) -> None:
    save = tmp_path / "game.toml"
    socket = f"hoola-test-{os.getpid()}"
    term = Terminal(socket, play_command("--seed", "5", "--players", "3", "--bot-delay", "0",
                                         "--claim-seconds", "0", "--save", str(save)))
    terminals.append(term)
    screen = term.wait_for("Your turn: draw (d).")
    assert "Greedy1" in screen and "Greedy2" in screen and "Your hand" in screen
    assert "57 points" in screen and "d  draw" in screen
    term.send("d")
    screen = term.wait_for("x  discard")
    assert "You drew" in screen
    term.send("1", "x")
    term.wait_for("You discard")
    term.wait_for(*ASKED)
    term.send("q")
    term.wait_for("Leave the game?")
    term.send("y")
    screen = term.wait_for("HOOLA-EXIT-")
    assert "HOOLA-EXIT-0" in screen and f"hoola play --resume {save}" in screen.replace("\n", "")
    assert verify_path(save).ok
    actions = load(save).deals[0].actions
    assert actions[:2] == ["You draw", "You discard 2s"]
    term.close()

    # Resume the match and play it to the end as the hint key advises.
    term = Terminal(socket + "-2", play_command("--resume", str(save), "--bot-delay", "0",
                                                "--claim-seconds", "0"))
    terminals.append(term)
    term.wait_for(*ASKED, "Running score")
    for _ in range(200):
        screen = term.screen()
        if "Running score" in screen:
            break
        if "Enter plays it" in screen:
            term.send("Enter")
        elif "Hint: let it go (Esc)" in screen:
            term.send("Escape")
        elif any(t in screen for t in ASKED):
            term.send("h")
        time.sleep(0.15)
    screen = term.wait_for("Running score")
    assert "Deal 1 of 1" in screen and "total" in screen
    term.send("Enter")
    screen = term.wait_for("HOOLA-EXIT-")
    assert "HOOLA-EXIT-0" in screen and "Go on with" not in screen
    record = load(save)
    assert record.deals[0].actions[:2] == ["You draw", "You discard 2s"]
    assert record.deals[0].result
    verdict = verify_path(save)
    assert verdict.ok, verdict.problems

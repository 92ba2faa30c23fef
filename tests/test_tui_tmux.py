"""End to end: ``hoola play`` in a real terminal (tmux), driven by keys, read off the screen.

scripts/test.sh installs tmux when it is missing; without it these tests are skipped.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hoola.games.hoola.records import load, verify_path

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

ROOT = Path(__file__).resolve().parent.parent
ASKED = ("Your moves (", "using the picked cards: ", " moves: ")  # the list's titles when asked


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

    def wait_for(self, *texts: str, limit: float = 60.0) -> str:
        """The screen, once it shows any of ``texts``."""
        return self.wait_until(lambda screen: any(t in screen for t in texts),
                               f"any of {texts}", limit)

    def wait_for_all(self, *texts: str, limit: float = 60.0) -> str:
        """The screen, once it shows every one of ``texts`` (at the same time)."""
        return self.wait_until(lambda screen: all(t in screen for t in texts),
                               f"all of {texts}", limit)

    def wait_until(self, shows: Callable[[str], bool], what: str, limit: float) -> str:
        """The screen, once ``shows`` holds for it; polled, so a slow machine only waits longer."""
        end = time.monotonic() + limit
        while True:
            screen = self.screen()
            if shows(screen):
                return screen
            if time.monotonic() > end:
                raise AssertionError(f"the screen never showed {what}:\n{screen}")
            time.sleep(0.05)

    def game_pid(self) -> int:
        """The process id of the game (the child of the window's shell)."""
        shell = subprocess.run(["tmux", "-L", self.socket, "list-panes", "-t", "play", "-F",
                                "#{pane_pid}"], capture_output=True, text=True,
                               check=True).stdout.split()[0]
        children = subprocess.run(["pgrep", "-P", shell, "-f", "hoola"], capture_output=True,
                                  text=True, check=True).stdout.split()
        return int(children[0])

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
    term = Terminal(socket, play_command("--seed", "5", "--players", "3", "--deals", "1",
                                         "--bot-delay", "0", "--bot-reaction", "0",
                                         "--claim-seconds", "0",
                                         "--save", str(save)))
    terminals.append(term)
    # Wait for everything the test reads, not for one part of a screen still being drawn.
    term.wait_for_all("Draw from the stock, or take the discard", "Greedy1", "Greedy2",
                      "Your hand", "57 points · knock at 10 or less", " d draw ", "Your moves (")
    term.send("d")
    term.wait_for_all(" x discard", "You draw")
    term.send("1", "x")
    term.wait_for("You discard")
    term.send("q")
    term.wait_for("Leave the game?")
    term.send("y")
    screen = term.wait_for("HOOLA-EXIT-")  # printed after the game's last words
    assert "HOOLA-EXIT-0" in screen and f"hoola play --resume {save}" in screen.replace("\n", "")
    assert verify_path(save).ok
    actions = load(save).deals[0].actions
    assert actions[:2] == ["You draw", "You discard 2s"]
    term.close()

    # Resume the match and play it to the end as the hint key advises.
    term = Terminal(socket + "-2", play_command("--resume", str(save), "--bot-delay", "0",
                                                "--bot-reaction", "0", "--claim-seconds", "0"))
    terminals.append(term)
    term.wait_for(*ASKED, "The score")
    end = time.monotonic() + 180
    while time.monotonic() < end:
        screen = term.screen()
        if "The score" in screen:
            break
        # Each key answers what the screen shows now; a key the game no longer expects (the
        # screen moved on meanwhile) changes nothing, so the loop needs no fixed pauses.
        if "Enter plays it" in screen:
            term.send("Enter")
        elif "Hint: let it go (Esc)" in screen:
            term.send("Escape")
        elif any(t in screen for t in ASKED):
            term.send("h")
        term.wait_until(lambda now, before=screen: now != before or "The score" in now,
                        "a change on the screen", 30)
    screen = term.wait_for_all("The score", "Deal 1 of 1: ", "Totals", "The game is over")
    term.send("Enter")
    screen = term.wait_for("HOOLA-EXIT-")
    assert "HOOLA-EXIT-0" in screen and "Go on with" not in screen
    record = load(save)
    assert record.deals[0].actions[:2] == ["You draw", "You discard 2s"]
    assert record.deals[0].result
    verdict = verify_path(save)
    assert verdict.ok, verdict.problems


@pytest.mark.skipif(shutil.which("pgrep") is None, reason="pgrep is not installed")
def test_a_full_screen_game_killed_puts_the_terminal_back_and_resumes(
        tmp_path: Path, terminals: list[Terminal]) -> None:
    save = tmp_path / "game.toml"
    socket = f"hoola-kill-{os.getpid()}"
    term = Terminal(socket, play_command("--seed", "5", "--players", "3", "--bot-delay", "0",
                                         "--bot-reaction", "0", "--claim-seconds", "0",
                                         "--save", str(save)))
    terminals.append(term)
    term.wait_for_all("Draw from the stock, or take the discard", " d draw ", "Your moves (")
    term.send("d")
    term.wait_for_all(" x discard", "You draw")
    term.send("1", "x")
    term.wait_for("You discard")
    os.kill(term.game_pid(), signal.SIGTERM)
    screen = term.wait_for_all("HOOLA-EXIT-0", "Go on with")
    assert "Your hand" not in screen  # the full screen is gone: the shell's lines are back
    assert verify_path(save).ok
    before = load(save).deals[0].actions
    assert before[:2] == ["You draw", "You discard 2s"]
    term.close()

    term = Terminal(socket + "-2", play_command("--resume", str(save), "--bot-delay", "0",
                                                "--bot-reaction", "0", "--claim-seconds", "0"))
    terminals.append(term)
    term.wait_for("Your hand")
    term.wait_for(*ASKED)
    term.send("q")
    term.wait_for("Leave the game?")
    term.send("y")
    term.wait_for("HOOLA-EXIT-0")
    assert load(save).deals[0].actions[:len(before)] == before

"""The plain (line-by-line) game, Hoola's and every game's: saved after every move, killed and
resumed, races for a discard, the words it uses, and a save of Hoola's from before every game
shared one game."""

from __future__ import annotations

import io
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hoola.core.cards import parse_card, parse_cards
from hoola.core.driver import LiveClock, play_deal
from hoola.core.registry import get_game
from hoola.games.hoola.actions import Action, Take, parse_action
from hoola.games.hoola.deal import Deal
from hoola.games.hoola.greedy import GreedyBot
from hoola.games.hoola.records import load, loads, verify_path
from hoola.games.hoola.rules import Rules
from hoola.games.hoola.state import DealState
from hoola.games.hoola.views import View
from hoola.terminal.plain import Notation, PlainPerson, Quit, run_plain_game
from hoola.terminal.races import hoola_race
from hoola.terminal.saves import SavedGame

ROOT = Path(__file__).resolve().parent.parent
HOOLA = get_game("hoola")
SAVED_MATCH = ROOT / "tests" / "saves" / "hoola-savedmatch.toml"


def play_hoola(save: Path, read: Callable[[str], str], *, out: io.StringIO | None = None,
               resume: bool = False, width: int | None = None, **new: Any) -> Path:
    """Hoola's plain game against greedy bots, saved at ``save`` (or resumed from it)."""
    if resume:
        saved = SavedGame.resume(save, seed=new.get("seed"))
    else:
        options = {"players": 3, "bots": ("greedy",), "deals": 1, **new}
        saved = SavedGame.new(HOOLA, path=save, **options)
    return run_plain_game(saved, read=read, out=out or io.StringIO(), width=width,
                          bot_reaction=(0.0, 0.0))


def hoola_play(*args: str) -> list[str]:
    return [sys.executable, "-m", "hoola", "play", "--plain", *args]


def env_for(home: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT / "src"), "HOME": str(home)}


def my_actions(path: Path) -> int:
    """How many actions of You the save holds (0 while it is not there yet)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return 0
    if not text:
        return 0
    # Every save is whole (written aside, then renamed): a half record is never read here.
    return sum(a.startswith("You ") for a in loads(text).deals[-1].actions)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL, signal.SIGHUP])
def test_a_game_killed_mid_deal_leaves_a_save_that_verifies_and_resumes(
        tmp_path: Path, signum: int) -> None:
    save = tmp_path / "game.toml"
    game = subprocess.Popen(hoola_play("--seed", "11", "--players", "3", "--save", str(save),
                                       "--bot-reaction", "0"),
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, text=True, env=env_for(tmp_path),
                            # the signal's own default, even where the tests run under nohup
                            preexec_fn=lambda: signal.signal(signum, signal.SIG_DFL)
                            if signum != signal.SIGKILL else None)
    try:
        assert game.stdin is not None
        game.stdin.write("1\n" * 4)  # the first listed move, four times; then it waits
        game.stdin.flush()
        end = time.monotonic() + 60
        while my_actions(save) < 4:
            assert game.poll() is None, "the game ended early"
            assert time.monotonic() < end, "the four moves were never saved"
            time.sleep(0.02)
        game.send_signal(signum)
        game.wait(timeout=30)
    finally:
        if game.poll() is None:
            game.kill()
            game.wait()
    verdict = verify_path(save)
    assert verdict.ok, verdict.problems
    before = load(save).deals[0].actions
    assert sorted(p.name for p in tmp_path.glob("*.toml")) == ["game.toml"]

    done = subprocess.run(hoola_play("--resume", str(save)), input="1\n" * 400,
                          capture_output=True, text=True, timeout=120, env=env_for(tmp_path))
    assert done.returncode == 0, done.stderr
    assert f"(resumed after {len(before)} moves)" in done.stdout
    after = load(save).deals[0]
    assert after.actions[:len(before)] == before and after.result.get("end")
    assert verify_path(save).ok


def test_every_move_is_saved_at_once(tmp_path: Path) -> None:
    save = tmp_path / "g.toml"
    seen: list[int] = []

    def read(_prompt: str) -> str:
        seen.append(my_actions(save))
        return "1" if len(seen) < 4 else "q"

    play_hoola(save, read, seed=11)
    assert seen == [0, 1, 2, 3]  # each answer is on disk before the next question


def test_the_words_of_the_plain_game(tmp_path: Path) -> None:
    out = io.StringIO()
    answers = iter(["meld", "fly", "discard Zz", "meld 2c 3c", *["1"] * 400])
    play_hoola(tmp_path / "g.toml", lambda _p: next(answers), out=out, seed=11)
    text = out.getvalue()
    assert "=== Deal 1 of 1 ===" in text
    assert "▶ You: 7 cards · dealer" in text  # the dealer plays first
    assert re.search(r"Your hand: .* · \d+ points · knock at 10 or less", text)
    assert "You deals" not in text and "You owes" not in text and "You pays" not in text
    assert "Cannot read 'meld': type it as meld C.. (C is a card, such as 7h)." in text
    assert "Cannot read 'fly': expected one of draw" in text
    assert "Cannot read 'discard Zz': cannot read card 'Zz'" in text
    assert "Not now: You cannot meld: a turn begins by drawing" in text
    # The end of the deal: everyone's cards, the settlement line by line, the score.
    during, _, after = text.partition("--- The deal is over ---")
    assert after and "Payments: " in after and "Score after 1 deal:" in after
    assert re.search(r"\w+ (owe|owes) \d+: rank pays", after), after
    assert " shows " in after and " shows " not in during
    assert "Go on with" not in text  # the match is over


# -- the race for a discard at the terminal ---------------------------------------------------

HANDS = ["9d Kc Qd Jd 3h 5s 2h", "4d 5d 6d 8c 2s Ks Kh", "9s 9h Ah Ad 8h 6h 2c",
         "8d Td Th Tc 5h 3c 4c"]


class Claimer:
    """A bot that takes 9d with 8d Td when it can, and otherwise plays greedily."""

    def act(self, view: View) -> Action | None:
        take = Take(3, parse_card("9d"), tuple(parse_cards("8d Td")))
        if take in view.legal:
            return take
        return None if view.can_pass else GreedyBot(seed=0).act(view)


class Discarder:
    """A discards 9d at once, then plays greedily."""

    def act(self, view: View) -> Action | None:
        for text in ("A draw", "A discard 9d"):
            action = parse_action(text, view.names)
            if action in view.legal and len(view.history) < 2:
                return action
        return GreedyBot(seed=0).act(view)


@pytest.mark.parametrize(("typing", "taker", "told"), [
    (0.3, 2, "You were quicker than D and took 9d."),
    (2.5, 3, "D was quicker and took 9d."),
])
def test_the_person_at_the_terminal_races_by_the_clock(typing: float, taker: int,
                                                       told: str) -> None:
    rules = Rules.preset("pagat")
    state = DealState(rules, ["A", "B", "C", "D"], Deal.explicit(
        rules, [parse_cards(h) for h in HANDS], parse_card("Ts"), parse_cards("4h Jc Qs 3d")))
    now = [0.0]

    def read(prompt: str) -> str:
        now[0] += typing  # the person takes this long to answer
        return "1" if prompt == "Pass? " else "q"

    out = io.StringIO()
    person = PlainPerson(read, out, "C")
    person.notation = Notation.of(state)
    heard: list[str] = []
    clock = LiveClock(2, person, reaction=(1.0, 1.0), rng=random.Random(0),
                      on_race=lambda race: heard.append(hoola_race(race, state.names, 2)),
                      clock=lambda: now[0])
    seen: list[Action] = []
    with pytest.raises(Quit):  # the person leaves (q) at their next turn
        play_deal(state, [Discarder(), GreedyBot(seed=1), person, Claimer()],
                  on_action=lambda _s, a: seen.append(a), clock=clock)
    take = seen[2]
    assert isinstance(take, Take) and take.player == taker
    assert heard == [told]
    assert "Thank you? You may take 9d, or let it go" in out.getvalue()


def test_ctrl_c_leaves_like_q_and_a_finished_match_says_so(tmp_path: Path) -> None:
    save = tmp_path / "g.toml"

    def interrupt(_prompt: str) -> str:
        raise KeyboardInterrupt

    out = io.StringIO()
    play_hoola(save, interrupt, out=out, seed=11)
    assert "You left the game." in out.getvalue()
    assert f"Go on with: hoola play --plain --resume {save}" in out.getvalue()
    answers = iter(["1"] * 400)
    play_hoola(save, lambda _p: next(answers), resume=True)
    again = io.StringIO()
    play_hoola(save, interrupt, out=again, resume=True)
    assert "This game is over." in again.getvalue()
    assert "Score after 1 deal:" in again.getvalue()
    assert "Go on with" not in again.getvalue()


def test_save_and_resume_together_are_refused(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from hoola.cli import cli

    save = tmp_path / "g.toml"
    play_hoola(save, lambda _p: "q", seed=1)
    result = CliRunner().invoke(cli, ["play", "--resume", str(save), "--save", str(save)])
    assert result.exit_code == 2 and "--save and --resume do not go together" in result.output


# -- every plain game: who took a trick, score lines a person reads, lines that fit ---------------

def fits(line: str, width: int) -> bool:
    """Whether ``line`` fits ``width``, or holds a file's path to copy (said whole)."""
    return len(line) <= width or line.startswith(("Game saved to ", "Go on with: "))


def plain_transcript(game: str, preset: str, players: int, width: int, moves: int,
                     tmp_path: Path) -> list[str]:
    """The plain game of ``preset`` against experts, the first move chosen ``moves`` times."""
    from hoola.core.registry import get_game
    from hoola.terminal.plain import run_plain_game
    from hoola.terminal.saves import SavedGame

    saved = SavedGame.new(get_game(game), preset=preset, players=players, bots=("expert",),
                          seed=3, path=tmp_path / f"{preset}.toml")
    answers = iter(["1"] * moves + ["q"])
    out = io.StringIO()
    run_plain_game(saved, read=lambda prompt: next(answers), out=out, width=width)
    return out.getvalue().splitlines()


@pytest.mark.parametrize(("game", "preset", "players"), [
    ("capture", "sedma", 2), ("capture", "hola", 4), ("capture", "ristikontra", 2),
    ("capture", "sedmice", 4), ("kalookie", "british", 3), ("hoola", "pagat", 4),
])
def test_the_plain_games_say_who_took_what_and_fit_the_width(
        tmp_path: Path, game: str, preset: str, players: int) -> None:
    lines = plain_transcript(game, preset, players, 64, 12, tmp_path)
    text = "\n".join(lines)
    assert all(fits(line, 64) for line in lines), max(lines, key=len)
    # A label never runs into its number: "Game points to 10 0" reads "Game points (to 10): 0".
    assert not any(re.search(r"[A-Za-z] to \d+ \d", line) for line in lines), text
    assert not any(re.search(r"(Penalty|This hand|Points|Game points) \d", line)
                   for line in lines), text
    if game == "capture":
        tricks = [line for line in lines if "took): " in line]
        assert tricks, text  # every trick taken is told, with who took it
        assert all(re.search(r"Last trick \(\S+ took\): ", line) for line in tricks)


def test_a_long_plain_line_breaks_between_words(tmp_path: Path) -> None:
    from hoola.terminal.plain import PlainPerson

    out = io.StringIO()
    person = PlainPerson(out=out, width=40)
    words = "Trick (Expert1 led A; Expert1 winning): As 7d Ad (Expert1 You Expert1) · Stock: 20"
    person.say(words)
    lines = out.getvalue().splitlines()
    assert len(lines) > 1 and all(len(line) <= 40 for line in lines)
    assert " ".join(" ".join(lines).split()) == words  # no word cut, none lost


def test_hoola_plain_game_fits_a_narrow_terminal(tmp_path: Path) -> None:
    answers = iter(["1"] * 30 + ["q"])
    out = io.StringIO()
    play_hoola(tmp_path / "h.toml", lambda prompt: next(answers), out=out, width=50,
               players=4, seed=3)
    lines = out.getvalue().splitlines()
    assert len(lines) > 20 and all(fits(line, 50) for line in lines), max(lines, key=len)


def test_output_to_a_file_is_not_wrapped_and_a_terminal_is(monkeypatch: pytest.MonkeyPatch) -> None:
    from hoola.terminal.plain import terminal_width

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setenv("COLUMNS", "72")
    assert terminal_width(io.StringIO()) is None  # a pipe or a file: lines as they are
    assert terminal_width(Terminal()) == 72
    out = Terminal()
    from hoola.terminal.plain import PlainPerson

    PlainPerson(out=out).say("word " * 30)
    assert all(len(line) <= 72 for line in out.getvalue().splitlines())


# -- a save of Hoola's own plain or full-screen game, from before every game shared one -------

def test_a_save_of_the_old_hoola_game_resumes_in_the_plain_game(tmp_path: Path) -> None:
    save = tmp_path / "old.toml"
    shutil.copy(SAVED_MATCH, save)
    before = load(save)
    assert before.comment.startswith("# hoola play: you=You bots=greedy,expert deals=3")
    out = io.StringIO()
    answers = iter(["1", "1", "q"])
    play_hoola(save, lambda _p: next(answers), out=out, resume=True, seed=2)
    text = out.getvalue()
    assert "Hoola (훌라), pagat rules, 3 players: You, Greedy1, Expert2." in text
    assert "=== Deal 2 of 3 ===" in text and "(resumed after 15 moves)" in text
    assert f"Go on with: hoola play --plain --resume {save}" in text
    after = load(save)
    assert after.deals[0] == before.deals[0]  # the finished deal as it was
    assert after.deals[1].actions[:15] == before.deals[1].actions
    assert len(after.deals[1].actions) > 15 and not after.deals[1].result
    assert after.totals == before.totals  # the first deal's payments, kept
    verdict = verify_path(save)
    assert verdict.ok, verdict.problems
    # And again, from the command line, to the end of the match.
    done = subprocess.run(hoola_play("--resume", str(save), "--bot-reaction", "0"),
                          input="1\n" * 600, capture_output=True, text=True, timeout=300,
                          env=env_for(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "Deal 3 of 3" in done.stdout and "The game is over" not in done.stdout
    finished = load(save)
    assert len(finished.deals) == 3 and all(d.result for d in finished.deals)
    assert "Go on with" not in done.stdout.rpartition("Score after 3 deals:")[2]
    assert verify_path(save).ok


GLENN_SEED = '''# hoola play: you=You bots=greedy,greedy,greedy deals=1
format = "hoola-record/1"
rules = "pagat"
players = ["A", "B", "You", "D"]

[options]
glenn_melds = true

[[deal]]
hands = { A = "9d 9h 9s Kd Qd Jh 2c", B = "Ts Js 3c 3h 3d Ah 4d", You = "Qs Kc Kh Ks 5d 6d 8c", \
D = "As Ad 2s 2h 3s 5h 6c" }
upcard = "9c"
stock = "8h 4c 5c Th 2d"
actions = ["A draw", "A meld 9d 9h 9s", "A discard 8h", "B draw", "B meld 3c 3h 3d",
           "B add Ts on 9s", "B add Js on Ts", "B discard 4c"]
'''


def test_the_seeds_glenn_example_plays_in_the_terminal(tmp_path: Path) -> None:
    """Ruling 21's own example at the plain game: 9d 9h 9s laid, a run 9s Ts Js built on its
    top card; the person builds Qs on Js, the four are killed and 9h is the top card again. The
    game saved goes on to verify as a record."""
    save = tmp_path / "glenn.toml"
    save.write_text(GLENN_SEED)
    done = subprocess.run([sys.executable, "-m", "hoola", "play", "--plain", "--resume",
                           str(save)], input="draw\nmeld Kc Kh Ks\nadd Qs on Js\nq\n",
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    before, after = done.stdout.split("add Qs on Js", 1)
    assert "m1 top Js 9d 9h 9s Ts Js" in before
    assert "m1 top 9h 9d 9h" in after  # the run killed, 9h uncovered
    assert "Discard pile: 4c (7 cards)" in after  # the four at the pile's bottom
    actions = load(save).deals[0].actions
    assert actions[-3:] == ["You draw", "You meld Kc Kh Ks", "You add Qs on Js"]
    assert verify_path(save).ok

"""The generic full-screen game played as a person plays it (Textual's pilot): whole Kalookie
hands against random bots, a game defined only in the tests (Snap), picking cards to narrow the
moves, letting a moment pass, leaving and resuming. Every wait is for the screen's own state."""

from __future__ import annotations

import asyncio
import html
import re
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot
from textual.widgets import OptionList

import hoola.core.registry as registry
from fake_game import SNAP
from hoola.core.records import read_text, verify_path
from hoola.core.registry import get_game
from hoola.terminal.plain import move_label
from hoola.terminal.saves import SavedGame
from hoola.terminal.table_app import TableApp, uses
from hoola.terminal.table_hints import hint_parts
from hoola.terminal.table_screens import HandOverScreen, LeaveScreen
from hoola.terminal.table_session import TableSession
from hoola.terminal.table_widgets import HandView, pick_keys, words

KALOOKIE = get_game("kalookie")


@pytest.fixture
def snap(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Snap registered for this test only (so that its records verify)."""
    registry.game_names()
    monkeypatch.setitem(registry._GAMES, "snap", SNAP)
    yield


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run an async scenario (the pilot is async; pytest needs no plugin for this)."""
    asyncio.run(scenario())


async def until(pilot: Pilot[Any], condition: Callable[[], bool], what: str,
                limit: float = 60.0) -> None:
    """Let the app run until ``condition`` holds (bots play in a worker thread)."""
    end = time.monotonic() + limit
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"gave up waiting for {what}")
        await pilot.pause(0.01)
    await pilot.pause()  # let the screen catch up (layout, refresh) before it is read


def screen_text(app: TableApp) -> str:
    """What the terminal shows, line by line (from the screenshot the app exports)."""
    svg = app.export_screenshot()
    lines: dict[int, list[tuple[float, str]]] = {}
    for x, line, text in re.findall(r'<text class="[^"]*" x="([\d.]+)" y="[\d.]+" '
                                    r'textLength="[\d.]+" clip-path="url\(#[^)]*-line-(\d+)\)">'
                                    r"([^<]*)</text>", svg):
        lines.setdefault(int(line), []).append((float(x), html.unescape(text).strip("\n")))
    return "\n".join("".join(t for _, t in sorted(lines[k])).replace("\xa0", " ")
                     for k in sorted(lines))


def an_app(game: Any, tmp_path: Path, *, claim_seconds: float = 0, clock: Any = None,
           **new: Any) -> TableApp:
    saved = SavedGame.new(game, path=tmp_path / "game.toml", **new)
    extra = {"clock": clock} if clock is not None else {}
    return TableApp(TableSession(saved, bot_delay=0), claim_seconds=claim_seconds, **extra)


def asked_or_over(app: TableApp, old: Any = None) -> Callable[[], bool]:
    """A new question for the person, or the end of a hand on the screen."""
    return lambda: (app.question is not None and app.question is not old) or \
        isinstance(app.screen, HandOverScreen)


Hook = Callable[[Pilot[Any]], Coroutine[Any, Any, None]]


async def play_first_moves(pilot: Pilot[Any], app: TableApp, limit: int = 3000,
                           on_question: Hook | None = None) -> int:
    """Enter on the first listed move at every question until a hand ends (``on_question``
    may answer first); the moves made."""
    moves = 0
    while True:
        await until(pilot, asked_or_over(app), "the person's move or the hand's end")
        if isinstance(app.screen, HandOverScreen):
            return moves
        question = app.question
        assert "shows" not in screen_text(app)  # no other hand is ever on the table
        if on_question is not None:
            await on_question(pilot)
            if app.question is not question:
                continue
        await pilot.press("enter")
        moves += 1
        assert moves < limit
        await until(pilot, asked_or_over(app, question), "the move to be played")


def test_a_whole_kalookie_hand_at_80x24_against_random_bots(tmp_path: Path) -> None:
    app = an_app(KALOOKIE, tmp_path, players=3, bots=("random",), seed=11, deals=1)
    narrowed: list[tuple[str, list[str]]] = []

    async def pick_a_card_once(pilot: Pilot[Any]) -> None:
        question = app.question
        assert question is not None
        if narrowed or len(question.view.legal) < 3:
            return
        hand = app.query_one(HandView).order
        card = hand[-1]
        await pilot.press(app.keys[len(hand) - 1])  # Kalookie's verbs keep their keys
        await until(pilot, lambda: app.picked == {len(hand) - 1}, "the card picked")
        me = question.view.names[question.view.player]
        labels = [question.notation.format(a) for a in app.listed if a is not None]
        assert labels and all(uses(label[len(me) + 1:], Counter([card])) for label in labels)
        assert len(app.listed) < len(question.view.legal)
        narrowed.append((card, labels))
        await pilot.press("escape")  # the cards go back, the whole list with them
        await until(pilot, lambda: not app.picked and len(app.listed) ==
                    len(question.view.legal), "the list back whole")

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.question is not None, "the first question")
            text = screen_text(app)
            hand = app.query_one(HandView).order
            assert len(hand) == 13
            # The whole hand fits at 80x24, a key under every card, and every move is listed.
            lines = text.splitlines()
            keys = lines[next(i for i, line in enumerate(lines) if "Your hand (13)" in line) + 2]
            assert keys.split() == list(app.keys[:13])
            assert "Your moves" in text and "draw" in text and "KALOOKIE" in text
            await play_first_moves(pilot, app, on_question=pick_a_card_once)
            text = screen_text(app)
            assert "Hand 1 of 1: " in text and "The score" in text and "Penalty" in text
            assert "The game is over" in text
            await pilot.press("enter")
            await until(pilot, lambda: app.return_value is not None, "the app to leave")

    run(scenario)
    assert narrowed, "a card was picked and the list narrowed to the moves using it"
    assert app.return_value == str(tmp_path / "game.toml")
    assert verify_path(tmp_path / "game.toml").ok
    assert "[deal.result]" in read_text(tmp_path / "game.toml")


def test_a_game_defined_only_in_the_tests_plays_to_its_own_end(snap: None,
                                                                tmp_path: Path) -> None:
    app = an_app(SNAP, tmp_path, players=3, bots=("random", "expert"), seed=5)
    ends: list[str] = []

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(2):  # Snap's game is two hands
                await play_first_moves(pilot, app)
                ends.append(screen_text(app))
                await pilot.press("enter")
            await until(pilot, lambda: app.return_value is not None, "the app to leave")

    run(scenario)
    assert "Hand 1: The cards are gone" in ends[0] and "Enter: next hand" in ends[0]
    assert "Hand 2: The cards are gone" in ends[1] and "The game is over" in ends[1]
    assert re.search(r"\w+ wins", ends[1])
    # The seat asked for an expert is played by random, and the log says so every hand.
    assert "Snap has no expert bot yet: random bots play in its place." in \
        [line.plain for line in app.lines]
    assert verify_path(tmp_path / "game.toml").ok


def test_a_moment_to_pass_counts_down_and_passes(snap: None, tmp_path: Path) -> None:
    now = [0.0]
    app = an_app(SNAP, tmp_path, players=3, bots=("random",), seed=5, claim_seconds=5,
                 clock=lambda: now[0])
    passed: list[str] = []

    async def let_it_run_out(pilot: Pilot[Any]) -> None:
        question = app.question
        assert question is not None
        if not question.view.can_pass:
            return
        assert "let it pass (Esc)" in screen_text(app) and "s to pass" in screen_text(app)
        now[0] += 5.5  # the person does nothing; the countdown runs out
        await until(pilot, lambda: app.question is not question, "the pass")
        passed.append(question.view.table().moment.prompt)
        assert "You let it pass" in [line.plain for line in app.lines]

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await play_first_moves(pilot, app, on_question=let_it_run_out)

    run(scenario)
    assert passed and set(passed) == {"Snap! or let it go"}
    assert verify_path(tmp_path / "game.toml").ok


def test_clicks_pick_cards_and_play_moves(tmp_path: Path) -> None:
    app = an_app(KALOOKIE, tmp_path, players=2, bots=("random",), seed=2, deals=1)

    async def scenario() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            await until(pilot, lambda: app.question is not None, "the first question")
            assert app.screen.has_class("faces")  # room enough for card faces
            question = app.question
            await pilot.press("enter")  # draw
            await until(pilot, asked_or_over(app, question), "the rest of the turn")
            hand = app.query_one(HandView)
            start, _ = hand.spans[0]
            await pilot.click(HandView, offset=(start + 1, 2))
            await until(pilot, lambda: app.picked == {0}, "the clicked card picked")
            card = hand.order[0]
            question = app.question
            assert question is not None and app.listed
            assert all(uses(question.notation.format(a), Counter([card])) for a in app.listed)
            await pilot.click("#moves", offset=(5, 1))  # the first move listed, clicked
            await until(pilot, asked_or_over(app, question), "the clicked move played")

    run(scenario)
    moves = re.findall(r'^  "You (.*)",$', read_text(tmp_path / "game.toml"), re.M)
    assert moves[0] in ("draw", "take") and len(moves) >= 2


def test_leaving_and_resuming_on_the_full_screen(tmp_path: Path) -> None:
    app = an_app(KALOOKIE, tmp_path, players=4, bots=("random",), seed=3)
    path = tmp_path / "game.toml"

    async def leave_after_three_moves() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(3):
                await until(pilot, asked_or_over(app), "a question")
                question = app.question
                await pilot.press("enter")
                await until(pilot, asked_or_over(app, question), "the move")
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, LeaveScreen), "the leave prompt")
            await pilot.press("y")
            await until(pilot, lambda: app.return_value is not None, "the app to leave")

    run(leave_after_three_moves)
    before = re.findall(r'^  "(.*)",$', read_text(path), re.M)
    assert verify_path(path).ok and sum(m.startswith("You ") for m in before) == 3
    again = TableApp(TableSession(SavedGame.resume(path, seed=1), bot_delay=0), claim_seconds=0)

    async def go_on() -> None:
        async with again.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: again.question is not None, "the question")
            assert again.screen.has_class("wide")  # the log beside the table
            text = screen_text(again)
            assert "(resumed: the last moves)" in text
            question = again.question
            await pilot.press("enter")
            await until(pilot, asked_or_over(again, question), "the move")
            await pilot.press("ctrl+c")
            await until(pilot, lambda: again.return_value is not None, "the app to leave")

    run(go_on)
    after = re.findall(r'^  "(.*)",$', read_text(path), re.M)
    assert after[:len(before)] == before and len(after) > len(before)
    assert verify_path(path).ok



def keys_line(app: TableApp) -> str:
    """The key bar at the bottom of the screen."""
    return screen_text(app).splitlines()[app.query_one("#keys").region.y]


@pytest.mark.parametrize(("game", "preset", "players"), [
    ("capture", "sedma", 2), ("kalookie", "british", 3),
])
def test_the_hint_gives_the_experts_move_and_reason_and_the_keys_follow_the_hand(
        tmp_path: Path, game: str, preset: str, players: int) -> None:
    the_game = get_game(game)
    app = an_app(the_game, tmp_path, preset=preset, players=players, bots=("expert",), seed=4,
                 deals=1)
    sizes: set[int] = set()
    hints: list[str] = []

    async def scenario() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            while True:
                await until(pilot, asked_or_over(app), "the person's move or the hand's end")
                if isinstance(app.screen, HandOverScreen):
                    return
                question = app.question
                assert question is not None
                hand = app.query_one(HandView).order
                sizes.add(len(hand))
                line = keys_line(app)
                picks = re.escape(pick_keys(len(hand), app.keys))
                assert re.search(rf"(^|\s){picks} pick\b", line), line
                assert " h hint" in line
                await pilot.press("h")
                await until(pilot, lambda q=question: app.advice is not None
                            or app.question is not q, "the hint")
                if app.question is not question:
                    continue
                advice = app.advice
                assert advice is not None
                action, reason = the_game.expert(0).explain(question.view)
                assert advice.action == action
                said = " ".join(app.message.plain.split())
                me = question.view.names[question.view.player]
                label = move_label(question.notation, action, me) if action is not None \
                    else "let it pass"
                move, why = hint_parts(label, " ".join(reason.split()))
                assert said.startswith(f"Hint: {words(move).plain} "), said
                assert said.endswith(words(why).plain) and len(why) > 10, said  # the reason
                hints.append(said)
                moves = app.query_one("#moves", OptionList)
                if action is None:
                    await pilot.press("escape")
                else:
                    assert app.listed[moves.highlighted or 0] == action  # Enter plays it
                    await pilot.press("enter")
                await until(pilot, asked_or_over(app, question), "the move to be played")
                if len(hints) >= 12 and len(sizes) > 1:
                    return

    run(scenario)
    assert hints and len(sizes) > 1, sizes  # the hand changed size, and the bar with it

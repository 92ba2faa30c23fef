"""Hoola in the one full-screen game, played as a person plays it: keys and clicks through
Textual's pilot.

Deals are built card by card (``Deal.explicit``) so that a claim, a bot's claim and a knock happen
at known moments; the bots are greedy, so every move of theirs is known too. Each test reads the
screen (the text of a screenshot) and checks the saved record with the engine's verifier. Every
wait is for the screen's own state, never a fixed time.
"""

from __future__ import annotations

import asyncio
import html
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from click.testing import CliRunner
from textual.pilot import Pilot

from hoola.cli import cli
from hoola.core.cards import parse_card, parse_cards
from hoola.core.errors import RecordError
from hoola.core.registry import get_game
from hoola.games.hoola.actions import Discard, Draw, Knock, NewMeld, Play, Take, parse_action
from hoola.games.hoola.deal import Deal
from hoola.games.hoola.match import Match
from hoola.games.hoola.records import load, verify_path
from hoola.games.hoola.rules import Rules
from hoola.games.hoola.state import DealState
from hoola.games.hoola.views import View
from hoola.terminal.plain import Notation, last_move
from hoola.terminal.saves import GamePlan, SavedGame, seat_kinds
from hoola.terminal.table_app import TableApp
from hoola.terminal.table_hints import TableAdviser, hint_parts
from hoola.terminal.table_moves import fitting, why_none
from hoola.terminal.table_screens import (
    ChoiceScreen,
    HandOverScreen,
    LeaveScreen,
    LogScreen,
    TableHelpScreen,
)
from hoola.terminal.table_session import PersonSeat, TableSession
from hoola.terminal.table_widgets import (
    CARD_KEYS,
    HandView,
    SeatsView,
    card_keys,
    middle_line,
    pick_keys,
    words,
)
from hoola.terminal.tabletext import sorted_cards
from hoola.terminal.touches import RUMMY_MARKS, TOUCHES

ROOT = Path(__file__).resolve().parent.parent
HOOLA = get_game("hoola")
NAMES = ["You", "Greedy1", "Greedy2"]
SAVED_MATCH = ROOT / "tests" / "saves" / "hoola-savedmatch.toml"

# Claim and knock: Greedy1 discards 9d (its costliest card) and You hold 9s 9h; after taking it and
# discarding Qs, You hold As Ac 2d 3c (7 points) and knock at the start of the next turn.
CLAIM_AND_KNOCK = (["9s 9h As Ac 2d 3c Kh", "9d 8c 2s 4h 5c 6d 3s", "Td Tc 8s 6h 4d 2h Kd"],
                   "5h", "Qs 2c Jh 4s")
# A bot's claim: You discard 5d, and Greedy2 (not next) takes it with 5s 5h, skipping Greedy1.
BOT_CLAIM = (["5d Kh Ks Jd 2c 3h 9s", "As 3s 8s Td Qc 4h 6h", "5s 5h 8h 4d 2s 6c Kd"],
             "Ac", "8d")


def explicit_game(tmp_path: Path, deal: tuple[list[str], str, str], *, deals: int = 1,
                  rules: Rules | None = None) -> SavedGame:
    """A Hoola game whose first deal is ``deal`` (hands in seat order, upcard, top of the stock),
    against two greedy bots."""
    rules = rules or Rules.preset("pagat")
    hands, upcard, stock = deal
    match = Match(rules, NAMES, seed=5)
    cards = Deal.explicit(rules, [parse_cards(h) for h in hands], parse_card(upcard),
                          parse_cards(stock))
    match.deals.append(DealState.new(rules, NAMES, deal=cards))
    return SavedGame(HOOLA, match, GamePlan("You", ("greedy", "greedy"), deals),
                     tmp_path / "game.toml", seed=5, preset=rules.preset_name)


def an_app(saved: SavedGame, *, claim_seconds: float = 0,
           reaction: tuple[float, float] = (0.0, 0.0), clock: Any = None) -> TableApp:
    """The full screen on ``saved``; bots play at once and claim without a reaction time unless
    told."""
    extra = {"clock": clock} if clock is not None else {}
    return TableApp(TableSession(saved, bot_delay=0, reaction=reaction),
                    claim_seconds=claim_seconds, **extra)


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run an async scenario (the pilot is async; pytest needs no plugin for this)."""
    asyncio.run(scenario())


async def until(pilot: Pilot[Any], condition: Callable[[], bool], what: str,
                limit: float = 30.0) -> None:
    """Let the app run until ``condition`` holds (bots play in a worker thread)."""
    end = time.monotonic() + limit
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"gave up waiting for {what}")
        await pilot.pause(0.01)
    await pilot.pause()  # let the screen catch up (layout, refresh) before it is read


def asked(app: TableApp) -> View | None:
    """The view the person is asked about now (None while they wait)."""
    return app.question.view if app.question is not None else None


async def my_move(pilot: Pilot[Any], app: TableApp) -> None:
    """Wait until the person is asked for a move, or the deal is over."""
    await until(pilot, lambda: app.question is not None or isinstance(app.screen,
                                                                      HandOverScreen),
                "the person's move")


async def after_draw(pilot: Pilot[Any], app: TableApp) -> None:
    """Wait until the person has drawn and is asked for the rest of the turn."""
    await until(pilot, lambda: (v := asked(app)) is not None and v.drawn, "the draw")


async def pick(pilot: Pilot[Any], app: TableApp, card: str) -> None:
    """Press the key under ``card`` as the hand shows it."""
    place = app.query_one(HandView).order.index(card)
    await pilot.press(app.keys[place])


async def discard_to_a_claim(pilot: Pilot[Any], app: TableApp, card: str) -> None:
    """Discard ``card`` and wait for the Thank-you prompt on the next player's discard."""
    await pick(pilot, app, card)
    await pilot.press("x")
    await until(pilot, lambda: (v := asked(app)) is not None and v.can_pass,
                "the claim prompt")


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


def told(app: TableApp) -> list[str]:
    """The log of the deal as the person reads it."""
    return [line.plain for line in app.lines]


async def follow_hints(pilot: Pilot[Any], app: TableApp, limit: int = 400) -> int:
    """Play as the hint key advises (h, then Enter) until the deal's end shows."""
    moves = 0
    while moves < limit:
        await my_move(pilot, app)
        if isinstance(app.screen, HandOverScreen):
            return moves
        question = app.question
        await pilot.press("h")
        await until(pilot, lambda q=question: app.advice is not None or app.question is not q,
                    "a hint")
        if app.question is question:
            advice = app.advice
            assert advice is not None
            await pilot.press("enter" if advice.action is not None else "escape")
        await until(pilot, lambda q=question: app.question is not q, "the move to be played")
        moves += 1
    raise AssertionError("the deal did not end")


def record_actions(path: Path) -> list[str]:
    return load(path).deals[-1].actions


def middle(app: TableApp) -> str:
    """The first line of the middle of the table, as drawn."""
    assert app.table is not None
    return middle_line(app.table).plain.splitlines()[0]


def keys_line(app: TableApp) -> str:
    """The key bar as the terminal shows it."""
    bar = app.query_one("#keys").region
    return " ".join(screen_text(app).splitlines()[bar.y:bar.bottom])


# -- whole deals through the screen ------------------------------------------------------------

def test_a_claim_and_a_knock_played_with_keys(tmp_path: Path) -> None:
    saved = explicit_game(tmp_path, CLAIM_AND_KNOCK)
    app = an_app(saved)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            screen = screen_text(app)
            assert "Draw from the stock, or take the discard" in screen
            assert " d draw " in keys_line(app) and " x discard" not in keys_line(app)
            await pilot.press("d")
            await after_draw(pilot, app)
            assert "You draw" in told(app) and "Q♠" in screen_text(app)
            # Greedy1 discards 9d: the Thank-you prompt asks You, Greedy2 has decided already.
            await discard_to_a_claim(pilot, app, "Kh")
            screen = screen_text(app)
            assert "Thank you? You may take 9♦, or let it go" in screen
            assert " t take " in keys_line(app)
            # The keys under 9♠ and 9♥ are yellow: they take the discard.
            assert app.query_one(HandView).marks == {"9s": RUMMY_MARKS["take"],
                                                     "9h": RUMMY_MARKS["take"]}
            await pilot.press("t")  # one way to take it: played at once
            await until(pilot, lambda: (v := asked(app)) is not None and v.is_my_turn
                        and v.drawn, "the rest of the claimed turn")
            assert "You take 9♦ with 9♠ 9♥  Thank you!" in told(app)
            await pick(pilot, app, "Qs")
            await pilot.press("x")
            await until(pilot, lambda: (v := asked(app)) is not None and not v.drawn,
                        "the next turn")
            assert "7 points · you may knock (k)" in screen_text(app)
            assert any(isinstance(a, Knock) for a in asked(app).legal)  # type: ignore[union-attr]
            await pilot.press("k")
            await until(pilot, lambda: isinstance(app.screen, HandOverScreen), "the settlement")
            screen = screen_text(app)
            assert "Deal 1 of 1: You knocked with 7 points and won." in screen
            assert "Greedy1 owes" in screen and "Greedy2 owes" in screen  # line by line
            assert "Payments: You +" in screen and "The score" in screen
            assert re.search(r"Deal 1\s*│\s*\d", screen), screen  # the running score
            await pilot.press("enter")
            await until(pilot, lambda: app.return_value is not None, "the app to close")

    run(scenario)
    assert app.return_value == str(saved.path)
    assert record_actions(saved.path) == [
        "You draw", "You discard Kh", "Greedy1 draw", "Greedy1 discard 9d",
        "You take 9d with 9s 9h", "You discard Qs", "Greedy1 draw", "Greedy1 discard Jh",
        "Greedy2 draw", "Greedy2 discard Kd", "You knock"]
    verdict = verify_path(saved.path)
    assert verdict.ok, verdict.problems
    result = load(saved.path).deals[0].result
    assert result["end"] == "knock" and result["winners"] == ["You"]


class HandClock:
    """A clock the test turns by hand: the countdown runs only when the test says so, however
    slow the machine."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def ticks(pilot: Pilot[Any], app: TableApp, count: int = 3) -> None:
    """Let the countdown's tick run ``count`` more times."""
    seen: list[int] = []

    def ticked() -> bool:
        seen.append(app.ticks)
        return seen[-1] - seen[0] >= count

    await until(pilot, ticked, f"{count} ticks of the countdown")


def test_a_claim_left_to_the_countdown_goes_to_the_next_player(tmp_path: Path) -> None:
    saved = explicit_game(tmp_path, CLAIM_AND_KNOCK)
    clock = HandClock()
    app = an_app(saved, claim_seconds=0.5, clock=clock)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            await pilot.press("d")
            await after_draw(pilot, app)
            await discard_to_a_claim(pilot, app, "Kh")
            screen = screen_text(app)
            assert "■■■■■■■■■■" in screen and "to pass" in screen  # the countdown bar, full
            clock.now += 0.6
            await until(pilot, lambda: "Greedy2 draw" in record_actions(saved.path),
                        "Greedy2's draw once the countdown ran out")
            assert "You let it pass" in told(app)

    run(scenario)
    actions = record_actions(saved.path)
    assert actions[4] == "Greedy2 draw"
    assert verify_path(saved.path).ok


def test_the_countdown_waits_while_the_help_is_open(tmp_path: Path) -> None:
    saved = explicit_game(tmp_path, CLAIM_AND_KNOCK)
    clock = HandClock()
    app = an_app(saved, claim_seconds=0.5, clock=clock)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            await pilot.press("d")
            await after_draw(pilot, app)
            await discard_to_a_claim(pilot, app, "Kh")
            await pilot.press("question_mark")
            assert isinstance(app.screen, TableHelpScreen)
            for _ in range(4):  # two seconds, four times the countdown, spent reading the help
                clock.now += 0.5
                await ticks(pilot, app, 1)
            assert (v := asked(app)) is not None and v.can_pass
            await pilot.press("escape")  # closes the help, does not let the card go
            await ticks(pilot, app)
            assert (v := asked(app)) is not None and v.can_pass
            await pilot.press("t")
            await until(pilot, lambda: "You take 9d with 9s 9h" in record_actions(saved.path),
                        "the claim")

    run(scenario)


def test_a_claim_let_go_with_escape(tmp_path: Path) -> None:
    saved = explicit_game(tmp_path, CLAIM_AND_KNOCK)
    app = an_app(saved)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            await pilot.press("d")
            await after_draw(pilot, app)
            await discard_to_a_claim(pilot, app, "Kh")
            assert "■" not in screen_text(app)  # no countdown: the prompt waits
            assert "let it pass (Esc)" in screen_text(app)
            await pilot.press("escape")
            await until(pilot, lambda: "Greedy2 draw" in record_actions(saved.path),
                        "Greedy2's draw")

    run(scenario)
    assert record_actions(saved.path)[4] == "Greedy2 draw"


def test_a_bot_claim_then_quit_then_resume_and_finish(tmp_path: Path) -> None:
    saved = explicit_game(tmp_path, BOT_CLAIM)
    app = an_app(saved)

    async def first() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            await pilot.press("d")
            await after_draw(pilot, app)
            await pick(pilot, app, "5d")
            await pilot.press("x")
            await until(pilot, lambda: (v := asked(app)) is not None and not v.drawn,
                        "the next turn")
            assert "Greedy2 take 5♦ with 5♠ 5♥  Thank you!" in told(app)
            assert " t take " in keys_line(app)  # You may take Greedy2's Kd with Kh Ks
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, LeaveScreen), "the question")
            assert "Leave the game?" in screen_text(app)
            assert app.screen.path == str(saved.path)  # type: ignore[attr-defined]
            await pilot.press("y")
            await until(pilot, lambda: app.return_value is not None, "the app to close")

    run(first)
    assert app.return_value == str(saved.path)
    actions = record_actions(saved.path)
    assert actions == ["You draw", "You discard 5d", "Greedy2 take 5d with 5s 5h",
                       "Greedy2 discard Kd"]
    assert verify_path(saved.path).ok

    resumed = SavedGame.resume(saved.path, seed=3)
    assert resumed.kinds == ["you", "greedy", "greedy"]
    again = an_app(resumed)

    async def second() -> None:
        async with again.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, again)
            view = asked(again)
            assert view is not None
            assert sorted(view.hand) == sorted(parse_cards("Kh Ks Jd 2c 3h 9s 8d"))
            assert "(resumed: the last moves)" in told(again)
            assert told(again)[-1] == "Greedy2 discard K♦"
            await pilot.press("t")
            await until(pilot, lambda: (v := asked(again)) is not None and v.drawn, "the take")
            await follow_hints(pilot, again)
            assert "Deal 1 of 1" in screen_text(again)
            await pilot.press("enter")

    run(second)
    actions = record_actions(saved.path)
    assert actions[4] == "You take Kd with Ks Kh"
    verdict = verify_path(saved.path)
    assert verdict.ok, verdict.problems
    assert load(saved.path).deals[0].result["end"]


def test_resuming_a_finished_match_shows_how_it_ended(tmp_path: Path) -> None:
    saved = explicit_game(tmp_path, CLAIM_AND_KNOCK)
    state = saved.match.deals[0]
    for text in ["You draw", "You discard Kh", "Greedy1 draw", "Greedy1 discard 9d",
                 "You take 9d with 9s 9h", "You discard Qs", "Greedy1 draw", "Greedy1 discard Jh",
                 "Greedy2 draw", "Greedy2 discard Kd", "You knock"]:
        state.apply(parse_action(text, NAMES))
    saved.moved(state)
    before = saved.path.read_text()
    app = an_app(SavedGame.resume(saved.path))

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, HandOverScreen), "the settlement")
            assert "The game is over: You win." in screen_text(app)
            await pilot.press("enter")
            await until(pilot, lambda: app.return_value is not None, "the app to close")

    run(scenario)
    assert saved.path.read_text() == before  # no deal was added


def test_a_whole_match_by_hints_keeps_the_running_score(tmp_path: Path) -> None:
    saved = SavedGame.new(HOOLA, players=4, bots=("greedy",), seed=21, deals=2,
                          path=tmp_path / "match.toml")
    app = an_app(saved)

    async def scenario() -> None:
        async with app.run_test(size=(160, 50)) as pilot:
            for deal in (1, 2):
                await follow_hints(pilot, app)
                screen = screen_text(app)
                assert f"Deal {deal} of 2: " in screen
                assert "The score" in screen and "Totals" in screen
                assert all(re.search(rf"Deal {n}\s*│", screen) for n in range(1, deal + 1))
                await pilot.press("enter")
            await until(pilot, lambda: app.return_value is not None, "the end of the match")

    run(scenario)
    assert saved.is_over
    record = load(saved.path)
    assert len(record.deals) == 2 and all(d.result for d in record.deals)
    assert record.totals == {saved.names[q]: v for q, v in enumerate(saved.match.totals())}
    assert sum(record.totals.values()) == 0
    verdict = verify_path(saved.path)
    assert verdict.ok, verdict.problems


def test_six_players_the_person_chooses_to_drop_out(tmp_path: Path) -> None:
    rules = Rules.preset("pagat")
    names = ["You", *[f"Greedy{i}" for i in range(1, 6)]]
    match = Match(rules, names, seed=2)
    match.deals.append(DealState.new(rules, names, seed=8, dealer=1))
    saved = SavedGame(HOOLA, match, GamePlan("You", ("greedy",) * 5, 1), tmp_path / "six.toml",
                      seed=2, preset="pagat")
    app = an_app(saved)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            # The four greedy bots before You chose to play: five are in, You must drop out.
            view = asked(app)
            assert view is not None and view.phase == "choose"
            assert not any(isinstance(a, Play) for a in view.legal)
            assert "Play this deal or drop out" in screen_text(app)
            await pilot.press("p")
            assert "You must drop (exactly five play each deal" in app.message.plain
            await pilot.press("o")
            await until(pilot, lambda: isinstance(app.screen, HandOverScreen), "the settlement")
            assert "You drop" in told(app)

    run(scenario)
    assert verify_path(saved.path).ok
    assert load(saved.path).deals[0].actions[4] == "You drop"


# -- the screen ---------------------------------------------------------------------------------

def test_the_table_fits_80x24_and_spreads_out_at_160x50(tmp_path: Path) -> None:
    async def scenario(size: tuple[int, int]) -> None:
        app = an_app(explicit_game(tmp_path, CLAIM_AND_KNOCK))
        async with app.run_test(size=size) as pilot:
            await my_move(pilot, app)
            width, height = size
            for widget in (app.query_one(SeatsView), app.query_one("#middle"),
                           app.query_one(HandView), app.query_one("#keys")):
                region = widget.region
                assert region.height > 0 and region.bottom <= height and region.right <= width, \
                    (type(widget).__name__, region)
            assert app.query_one(HandView).region.bottom <= app.query_one("#keys").region.y
            screen = screen_text(app)
            for seen in ("Greedy1", "Greedy2", "7 cards", "Discard pile", "Stock", "dealer",
                         "38 points · knock at 10 or less · blast: no", " d draw", "HOOLA",
                         "deal 1 of 1"):
                assert seen in screen, seen
            assert app.query_one("#side").display == (width >= 120)
            assert app.screen.has_class("faces") == (width >= 100 and height >= 32)

    asyncio.run(scenario((80, 24)))
    asyncio.run(scenario((160, 50)))


def test_hand_sorts_by_suit_or_rank_and_cards_are_picked_by_key_and_click(tmp_path: Path) -> None:
    saved = explicit_game(tmp_path, CLAIM_AND_KNOCK)
    app = an_app(saved)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            hand = app.query_one(HandView)
            assert hand.order == ["As", "9s", "9h", "Kh", "2d", "Ac", "3c"]
            await pilot.press("s")
            assert hand.order == ["As", "Ac", "2d", "3c", "9s", "9h", "Kh"]
            assert "by rank" in screen_text(app)
            await pilot.press("2")
            assert app._picked_cards() == Counter(["Ac"])
            start, _ = hand.spans[4]  # the fifth card, 9s
            await pilot.click(HandView, offset=(start + 1, 1))
            await until(pilot, lambda: app._picked_cards() == Counter(["Ac", "9s"]),
                        "the clicked card picked")
            await pilot.press("2")
            assert app._picked_cards() == Counter(["9s"])
            await pilot.press("escape")
            assert app._picked_cards() == Counter()
            # A click on the stock draws (the middle's first line, after a column of padding).
            await pilot.click("#middle", offset=(1 + middle(app).index("Stock") + 1, 0))
            await after_draw(pilot, app)
            assert record_actions(saved.path)[0] == "You draw"
            # Then a click on the discard pile discards the picked card.
            await pick(pilot, app, "Kh")
            await pilot.click("#middle", offset=(1 + middle(app).index("Discard") + 1, 0))
            await until(pilot, lambda: "You discard Kh" in record_actions(saved.path),
                        "the discard")

    run(scenario)


def test_wrong_keys_explain_themselves_and_nothing_changes(tmp_path: Path) -> None:
    saved = explicit_game(tmp_path, CLAIM_AND_KNOCK)
    app = an_app(saved)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            await pilot.press("k")
            assert app.message.plain \
                == "You cannot knock: 38 points in hand is more than the knock limit of 10."
            await pilot.press("b")
            assert "You cannot blast: 38 points is neither at most 15" in app.message.plain
            await pilot.press("m")
            assert app.message.plain == "No meld now: Draw from the stock, or take the discard."
            assert "No meld now" in screen_text(app)
            await pilot.press("d")
            await after_draw(pilot, app)
            await pilot.press("x")  # no card picked: every discard, to choose from
            assert isinstance(app.screen, ChoiceScreen) and len(app.screen.actions) == 8
            await pilot.press("escape")
            assert not isinstance(app.screen, ChoiceScreen)
            assert app.verb == "discard"  # the list keeps to the discards, until Esc
            await pilot.press("escape")
            assert app.verb is None
            for card in ("As", "2d", "3c"):
                await pick(pilot, app, card)
            await pilot.press("m")
            assert "cannot meld A♠ 2♦ 3♣: the cards are neither of one rank nor of one suit" \
                in app.message.plain
            assert record_actions(saved.path) == ["You draw"]

    run(scenario)


def test_several_fitting_moves_open_a_choice(tmp_path: Path) -> None:
    # After drawing 9c, You hold 9s 9h 9d 9c: four sets of three and the set of four.
    deal = (["9s 9h 9d As 2d 3c Kh", "4d 8c 2s 4h 5c 6d 3s", "Td Tc 8s 6h Jd 2h Kd"],
            "5h", "9c")
    saved = explicit_game(tmp_path, deal)
    app = an_app(saved)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            await pilot.press("d")
            await after_draw(pilot, app)
            await pick(pilot, app, "9c")
            await pilot.press("m")
            assert isinstance(app.screen, ChoiceScreen)
            await pilot.press("x")  # the table's keys wait while the list is open
            assert isinstance(app.screen, ChoiceScreen)
            screen = app.screen
            assert "Which meld?" in screen_text(app)
            assert len(screen.labels) == 4 and all("9c" in label for label in screen.labels)
            four = next(i for i, a in enumerate(screen.actions)
                        if isinstance(a, NewMeld) and len(a.cards) == 4)
            assert f"{four + 1}. meld " in screen_text(app)
            await pilot.press(str(four + 1))
            await until(pilot, lambda: "You meld" in " ".join(record_actions(saved.path)),
                        "the meld")
            assert sorted(parse_cards(record_actions(saved.path)[1].split()[2:])) == \
                sorted(parse_cards("9s 9h 9d 9c"))

    run(scenario)


def test_hint_help_and_log_screens(tmp_path: Path) -> None:
    saved = explicit_game(tmp_path, CLAIM_AND_KNOCK)
    app = an_app(saved)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            await pilot.press("h")
            await until(pilot, lambda: app.advice is not None, "the hint")
            hint = app.message.plain
            assert hint.startswith("Hint: Draw from the stock · Enter plays it\n"), hint
            assert "Enter plays it" in screen_text(app)
            # Said once: not again in the reason, nor in the log.
            assert hint.lower().count("draw") == 1, hint
            assert not any("Hint" in line for line in told(app))
            assert isinstance(app.advice.action, Draw)  # type: ignore[union-attr]
            await pilot.press("enter")
            await after_draw(pilot, app)
            await pilot.press("h")
            await until(pilot, lambda: app.advice is not None, "the hint")
            action = app.advice.action  # type: ignore[union-attr]
            assert isinstance(action, Discard)
            card = sorted_cards([c for c in app.query_one(HandView).order
                                 if parse_card(c) == action.card])[0]
            assert app._picked_cards() == Counter([card])  # the hint picks its card
            # Cards as the screen draws them (K♥), never as typed (Kh), and said once.
            hint = app.message.plain
            label = words(card).plain
            assert label in hint and not re.search(r"\b[2-9TJQKA][cdhs]\b", hint), hint
            assert hint.count(label) == 1, hint
            await pilot.press("question_mark")
            assert isinstance(app.screen, TableHelpScreen)
            assert "x discard" in screen_text(app)
            assert "How to play" in app.screen.text  # type: ignore[attr-defined]
            await pilot.press("down")
            assert isinstance(app.screen, TableHelpScreen)
            await pilot.press("z")
            assert not isinstance(app.screen, TableHelpScreen)
            await pilot.press("l")
            assert isinstance(app.screen, LogScreen)
            assert "You draw" in screen_text(app)
            await pilot.press("escape")
            assert not isinstance(app.screen, LogScreen)
            await pilot.press("enter")  # the hinted discard, still the highlighted move
            await until(pilot, lambda: len(record_actions(saved.path)) > 1, "the discard")
            assert record_actions(saved.path)[1] == f"You discard {card}"

    run(scenario)


# -- the race for a discard ---------------------------------------------------------------------

# Greedy1 discards 9d; You (9s 9h) and Greedy2 (8d Td), the next player, may both take it.
RACE = (["9s 9h As Ac 2d 3c Kh", "9d 8c 2s 4h 5c 6d 3s", "Td Tc 8d 6h 4d 2h Kd"], "5h",
        "Qs 2c Jh 4s")


async def to_the_race(pilot: Pilot[Any], app: TableApp) -> None:
    """Draw, discard Kh, and let Greedy1 draw and discard 9d."""
    await my_move(pilot, app)
    await pilot.press("d")
    await after_draw(pilot, app)
    await pick(pilot, app, "Kh")
    await pilot.press("x")


def test_a_bot_quicker_to_claim_cuts_the_person_off(tmp_path: Path) -> None:
    saved = explicit_game(tmp_path, RACE)  # bots claim at once
    app = an_app(saved)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await to_the_race(pilot, app)
            news = "Greedy2 was quicker and took 9♦ before you answered."
            await until(pilot, lambda: news in told(app), "the news of the race")
            await until(pilot, lambda: news in screen_text(app), "the news on the screen")
            assert (v := asked(app)) is None or not v.can_pass  # the prompt was taken back
            await pilot.press("t")  # too late: nothing changes
            # The news comes as the claim is settled, the save after it is applied.
            await until(pilot, lambda: len(record_actions(saved.path)) > 4, "the take saved")
            assert "You take" not in " ".join(record_actions(saved.path))

    run(scenario)
    assert record_actions(saved.path)[4] == "Greedy2 take 9d with 8d Td"
    assert verify_path(saved.path).ok


def test_a_quick_person_wins_the_race_and_is_told(tmp_path: Path) -> None:
    saved = explicit_game(tmp_path, RACE)
    app = an_app(saved, reaction=(30.0, 30.0))  # slow bots

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await to_the_race(pilot, app)
            await until(pilot, lambda: (v := asked(app)) is not None and v.can_pass,
                        "the claim prompt")
            await pilot.press("t")
            news = "You were quicker than Greedy2 and took 9♦."
            await until(pilot, lambda: news in screen_text(app), "the news of the race")

    run(scenario)
    assert record_actions(saved.path)[4] == "You take 9d with 9s 9h"


def test_turn_order_decides_under_battle_next_priority(tmp_path: Path) -> None:
    saved = explicit_game(tmp_path, RACE,
                          rules=Rules.preset("pagat", claims="battle-next-priority"))
    app = an_app(saved)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await to_the_race(pilot, app)
            # Greedy2, next in turn, claimed at once: no claim of the person's could win now,
            # so the window ends without waiting for them, and they are told why.
            news = "Greedy2 took 9♦: Greedy2's turn comes before yours."
            await until(pilot, lambda: news in screen_text(app), "the news of the race")

    run(scenario)
    assert record_actions(saved.path)[4] == "Greedy2 take 9d with 8d Td"


def test_a_list_of_ways_to_take_closes_when_a_bot_was_quicker(tmp_path: Path) -> None:
    # You hold three nines: three ways to take 9d, so t opens a list; Greedy2 claims after 5 s.
    hands, upcard, stock = RACE
    deal = (["9s 9h 9c As 2d 3c Kh", *hands[1:]], upcard, stock)
    saved = explicit_game(tmp_path, deal)
    app = an_app(saved, reaction=(5.0, 5.0))

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await to_the_race(pilot, app)
            await until(pilot, lambda: (v := asked(app)) is not None and v.can_pass,
                        "the claim prompt")
            await pilot.press("t")
            assert isinstance(app.screen, ChoiceScreen)
            await until(pilot, lambda: not isinstance(app.screen, ChoiceScreen),
                        "the list to close when Greedy2 claims")
            news = "Greedy2 was quicker and took 9♦ before you answered."
            await until(pilot, lambda: news in screen_text(app), "the news of the race")
            await pilot.press("1")  # the list is gone: a number only picks a card
            # The news comes as the claim is settled, the save after it is applied.
            await until(pilot, lambda: len(record_actions(saved.path)) > 4, "the take saved")
            assert record_actions(saved.path)[4] == "Greedy2 take 9d with 8d Td"

    run(scenario)


def test_an_undercut_knock_is_told_as_one(tmp_path: Path) -> None:
    # Greedy1 knocks with 30 points; You hold 7 after taking 9d: the title must not say that
    # the winner knocked.
    saved = explicit_game(tmp_path, CLAIM_AND_KNOCK, rules=Rules.preset("pagat",
                                                                        knock_limit=40))
    state = saved.match.deals[0]
    for text in ["You draw", "You discard Kh", "Greedy1 draw", "Greedy1 discard 9d",
                 "You take 9d with 9s 9h", "You discard Qs", "Greedy1 knock"]:
        state.apply(parse_action(text, NAMES))
    saved.moved(state)
    app = an_app(saved)

    async def scenario() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, HandOverScreen), "the settlement")
            screen = screen_text(app)
            assert "Greedy1 knocked with 30 points but was undercut: you win with 7." in screen
            assert "won by a knock" not in screen

    run(scenario)


def test_seven_players_all_show_with_their_totals_at_80_columns(tmp_path: Path) -> None:
    saved = SavedGame.new(HOOLA, players=7, bots=("greedy", "random"), seed=3,
                          path=tmp_path / "seven.toml")
    saved.match.totals.update({1: Fraction(-25, 2), 4: Fraction(37)})  # type: ignore[attr-defined]
    app = an_app(saved)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.view is not None and app.board is not None,
                        "the table")
            lines = screen_text(app).splitlines()
            for seat, name in enumerate(saved.names):
                shown = "You" if seat == 0 else name
                line = next(x for x in lines if x[2:].startswith(shown) and "Totals" in x)
                total = {1: "-12.5", 4: "37"}.get(seat, "0")
                assert line.rstrip().endswith(f"Totals: {total}"), line
                assert len(line.rstrip()) <= 80

    run(scenario)


def test_a_save_that_fails_keeps_the_last_one_and_says_so(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    saved = explicit_game(tmp_path, CLAIM_AND_KNOCK)
    saved.save()
    before = saved.path.read_text()
    app = an_app(saved)

    def full(*_: Any) -> None:
        raise OSError(28, "No space left on device")

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            monkeypatch.setattr("hoola.terminal.saves.os.fsync", full)
            await pilot.press("d")
            await until(pilot, lambda: "No space left on device" in screen_text(app),
                        "the news that saving fails")
            assert saved.path.read_text() == before  # the last good save, whole
            monkeypatch.undo()
            await after_draw(pilot, app)
            await pick(pilot, app, "Kh")
            await pilot.press("x")
            await until(pilot, lambda: any("saved again" in line for line in told(app)),
                        "the news that saving works again")

    run(scenario)
    assert record_actions(saved.path)[:2] == ["You draw", "You discard Kh"]
    assert verify_path(saved.path).ok


def test_ctrl_c_leaves_at_once_with_the_save(tmp_path: Path) -> None:
    saved = explicit_game(tmp_path, CLAIM_AND_KNOCK)
    app = an_app(saved)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            await pilot.press("d")
            await after_draw(pilot, app)
            await pilot.press("ctrl+c")
            await until(pilot, lambda: app.return_value is not None, "the app to close")

    run(scenario)
    assert app.return_value == str(saved.path)
    assert record_actions(saved.path) == ["You draw"] and verify_path(saved.path).ok


def test_the_key_bar_picks_as_many_cards_as_the_hand_holds(tmp_path: Path) -> None:
    saved = SavedGame.new(HOOLA, players=4, bots=("greedy",), seed=21, deals=1,
                          path=tmp_path / "match.toml")
    app = an_app(saved)
    sizes: set[int] = set()

    async def scenario() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            while True:
                await my_move(pilot, app)
                if isinstance(app.screen, HandOverScreen):
                    return
                question = app.question
                view = asked(app)
                assert view is not None
                line = keys_line(app)
                size = len(view.hand)
                sizes.add(size)
                assert re.search(rf"\b{re.escape(pick_keys(size, app.keys))} pick\b", line), \
                    (size, line)
                assert size == 8 or "1-8" not in line, line
                await pilot.press("h")
                await until(pilot, lambda q=question: app.advice is not None
                            or app.question is not q, "a hint")
                if app.question is question and app.advice is not None:
                    await pilot.press("enter" if app.advice.action is not None else "escape")
                await until(pilot, lambda q=question: app.question is not q, "the move")

    run(scenario)
    assert min(sizes) < 7, sizes  # the hand went down: the bar followed it


# -- a save of Hoola's own game, from before every game shared one ------------------------------

def test_a_save_of_the_old_hoola_game_resumes_on_the_full_screen(tmp_path: Path) -> None:
    path = tmp_path / "old.toml"
    shutil.copy(SAVED_MATCH, path)
    saved = SavedGame.resume(path, seed=1)
    assert saved.game is HOOLA and saved.preset == "pagat"
    assert saved.plan == GamePlan("You", ("greedy", "expert"), 3)
    assert saved.kinds == ["you", "greedy", "expert"] and saved.finished_deals == 1
    assert list(saved.match.totals()) == [-8, 9, -1]
    app = an_app(saved)

    async def scenario() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await my_move(pilot, app)
            screen = screen_text(app)
            assert "deal 2 of 3" in screen and "(resumed: the last moves)" in told(app)
            assert "Totals: -8" in screen  # the first deal's payments, in the running score
            view = asked(app)
            assert view is not None and view.drawn  # the person had drawn when they left
            await follow_hints(pilot, app)
            screen = screen_text(app)
            assert "Deal 2 of 3: " in screen
            assert re.search(r"Deal 1\s*│\s*-8\s*│\s*9\s*│\s*-1", screen), screen
            await pilot.press("q")
            await until(pilot, lambda: app.return_value is not None, "the app to close")

    run(scenario)
    record = load(path)
    assert len(record.deals) == 2 and record.deals[1].result
    assert record.comment.startswith("# hoola play: you=You bots=greedy,expert deals=3")
    verdict = verify_path(path)
    assert verdict.ok, verdict.problems


# -- the pieces ---------------------------------------------------------------------------------

def test_moves_of_a_verb_read_only_the_view() -> None:
    rules = Rules.preset("pagat")
    hands, upcard, stock = CLAIM_AND_KNOCK
    state = DealState.new(rules, NAMES, deal=Deal.explicit(
        rules, [parse_cards(h) for h in hands], parse_card(upcard), parse_cards(stock)))
    notation = Notation.of(state)
    view = state.view(0)
    assert fitting(view, notation, "draw", Counter()) == [Draw(0)]
    assert fitting(view, notation, "take", Counter()) == []
    assert why_none(view, notation, "discard", ["Kh"], view.prompt()) == \
        (None, "You cannot discard: a turn begins by drawing (or taking the discard).")
    state.apply(Draw(0))
    state.apply(Discard(0, parse_card("Kh")))
    state.apply(Draw(1))
    state.apply(Discard(1, parse_card("9d")))
    view = state.view(0)
    assert view.can_pass
    assert fitting(view, notation, "take", Counter(["9s"])) == \
        [Take(0, parse_card("9d"), tuple(parse_cards("9s 9h")))]
    assert fitting(view, notation, "take", Counter(["As"])) == []
    # Another player's draw never shows its card, even if the record knows it.
    assert "Greedy1 draw" in view.table().log and last_move(view) == "Greedy1 discard 9d"


def test_every_touchs_verb_keys_are_keys_the_screen_reads() -> None:
    for name, touch in TOUCHES.items():
        assert set(touch.verbs) <= set(CARD_KEYS), name  # bound, and never a command key
        assert not set(touch.verbs) & set(card_keys(touch.verbs)), name
    assert pick_keys(8, card_keys(TOUCHES["hoola"].verbs)) == "1-8"


def test_the_plan_of_a_hoola_game_survives_the_record() -> None:
    kinds = seat_kinds(HOOLA)
    plan = GamePlan("Ann", ("greedy", "random"), 4)
    assert GamePlan.from_text(f"# {plan.comment()}", ["Ann", "Greedy1", "Random2"],
                              kinds=kinds) == plan
    # A record of Hoola without the line: its first player against greedy bots, ten deals.
    assert GamePlan.from_text("# a note\n", ["A", "B", "C"], kinds=kinds, bot="greedy",
                              deals=10) == GamePlan("A", ("greedy", "greedy"), 10)


def test_the_hint_asks_the_experts_explain() -> None:
    view = DealState.new(Rules.preset("pagat"), 3, seed=1).view(0)
    advice = TableAdviser(HOOLA, seed=1).advise(view)
    assert advice.action in view.legal and advice.reason

    class FakeExpert:
        def explain(self, view: Any) -> tuple[Any, str]:
            return view.legal[0], "because the fake says so"

    class Fake:
        def expert(self, seed: int | None = None) -> FakeExpert:
            return FakeExpert()

    advice = TableAdviser(Fake(), seed=1).advise(view)  # type: ignore[arg-type]
    assert (advice.action, advice.reason) == (view.legal[0], "because the fake says so")


def test_the_hint_says_the_move_once() -> None:
    assert hint_parts("discard Kh", "Discard Kh: it costs 13 points and As is no help.") == \
        ("Discard Kh", "It costs 13 points and As is no help.")
    assert hint_parts("draw", "Draw from the stock: the discard completes no meld for you.") \
        == ("Draw from the stock", "The discard completes no meld for you.")


def test_the_person_seat_keeps_the_moment_of_each_answer() -> None:
    now = [10.0]
    shown: list[View] = []
    withdrawn: list[View] = []
    seat = PersonSeat(shown.append, withdrawn.append, clock=lambda: now[0])
    view = DealState.new(Rules.preset("pagat"), 3, seed=1).view(0)
    seat.ask(view)
    now[0] += 0.4
    assert seat.give(Draw(0))
    now[0] += 5.0  # the worker looks late: the answer still counts by its own moment
    assert seat.answer(within=1.0) == (Draw(0), pytest.approx(0.4))
    seat.ask(view)
    assert seat.answer(within=0.0) is None  # nobody answered in time: taken back
    assert withdrawn == [view] and shown == [view, view]
    assert not seat.give(Draw(0))  # too late: refused, nothing waits in the queue
    assert seat.answers.empty()


def test_a_broken_save_is_refused_before_the_screen_opens(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    SavedGame.new(HOOLA, players=3, bots=("greedy",), seed=1, path=path)
    path.write_text(path.read_text().replace("bots=greedy,greedy", "bots=greedy,chess"))
    before = path.read_text()
    with pytest.raises(RecordError, match="unknown bot 'chess'"):
        SavedGame.resume(path)
    result = CliRunner().invoke(cli, ["play", "--resume", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.startswith(f"Error: cannot resume {path}: ")
    assert "unknown bot 'chess'" in result.output and result.output.count("\n") == 1
    assert path.read_text() == before


def test_play_falls_back_to_the_plain_game_without_a_terminal(tmp_path: Path) -> None:
    save = tmp_path / "g.toml"
    done = subprocess.run([sys.executable, "-m", "hoola", "play", "--seed", "3", "--save",
                           str(save)], input="1\nq\n", capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert "Type h for help" in done.stdout and done.returncode == 0
    assert "=== Deal 1 of 10 ===" in done.stdout
    assert f"Go on with: hoola play --plain --resume {save}" in done.stdout
    # The plain game resumes too (it saves after every move).
    resume = subprocess.run([sys.executable, "-m", "hoola", "play", "--resume", str(save)],
                            input="q\n", capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert resume.returncode == 0, resume.stderr
    assert "(resumed after" in resume.stdout
    assert load(save).deals[0].actions[0] == "You draw"

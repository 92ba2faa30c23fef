"""The full-screen game played as a person plays it: keys and clicks through Textual's pilot.

Deals are built card by card (``Deal.explicit``) so that a claim, a bot's claim and a knock happen
at known moments; the bots are greedy, so every move of theirs is known too. Each test reads the
screen (the text of a screenshot) and checks the saved record with the engine's verifier.
"""

from __future__ import annotations

import asyncio
import html
import re
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

import hoola.bots
from hoola.core.cards import parse_card, parse_cards
from hoola.core.errors import RecordError
from hoola.games.hoola.actions import Discard, Draw, Knock, NewMeld, Play, Take, parse_action
from hoola.games.hoola.deal import Deal
from hoola.games.hoola.match import Match
from hoola.games.hoola.records import load, verify_path
from hoola.games.hoola.rules import Rules
from hoola.games.hoola.state import DealState
from hoola.games.hoola.views import View
from hoola.terminal import HoolaApp, Session, run_tui
from hoola.terminal.cardface import card_label, sort_hand
from hoola.terminal.hoola_hints import Adviser, hint_words, with_symbols
from hoola.terminal.hoola_moves import candidates, describe, log_line, next_step, why_not
from hoola.terminal.hoola_screens import ChoiceScreen, HelpScreen, SettlementScreen
from hoola.terminal.hoola_session import MatchPlan, PersonSeat
from hoola.terminal.hoola_widgets import (
    HandPanel,
    KeyBar,
    PilePanel,
    SeatsPanel,
    pick_keys,
    short_name,
)
from hoola.terminal.table_screens import LeaveScreen, LogScreen

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["You", "Greedy1", "Greedy2"]

# Claim and knock: Greedy1 discards 9d (its costliest card) and You hold 9s 9h; after taking it and
# discarding Qs, You hold As Ac 2d 3c (7 points) and knock at the start of the next turn.
CLAIM_AND_KNOCK = (["9s 9h As Ac 2d 3c Kh", "9d 8c 2s 4h 5c 6d 3s", "Td Tc 8s 6h 4d 2h Kd"],
                   "5h", "Qs 2c Jh 4s")
# A bot's claim: You discard 5d, and Greedy2 (not next) takes it with 5s 5h, skipping Greedy1.
BOT_CLAIM = (["5d Kh Ks Jd 2c 3h 9s", "As 3s 8s Td Qc 4h 6h", "5s 5h 8h 4d 2s 6c Kd"],
             "Ac", "8d")


def explicit_session(tmp_path: Path, deal: tuple[list[str], str, str], *, deals: int = 1,
                     rules: Rules | None = None,
                     reaction: tuple[float, float] = (0.0, 0.0)) -> Session:
    """A session whose first deal is ``deal`` (hands in seat order, upcard, top of the stock);
    bots claim without a reaction time unless told."""
    rules = rules or Rules.preset("pagat")
    hands, upcard, stock = deal
    match = Match(rules, NAMES, seed=5)
    cards = Deal.explicit(rules, [parse_cards(h) for h in hands], parse_card(upcard),
                          parse_cards(stock))
    match.deals.append(DealState.new(rules, NAMES, deal=cards))
    plan = MatchPlan("You", ("greedy", "greedy"), deals)
    return Session(match, plan, tmp_path / "game.toml", seed=5, bot_delay=0, reaction=reaction)


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run an async scenario (the pilot is async; pytest needs no plugin for this)."""
    asyncio.run(scenario())


async def until(pilot: Pilot[Any], condition: Callable[[], bool], what: str,
                limit: float = 20.0) -> None:
    """Let the app run until ``condition`` holds (bots play in a worker thread)."""
    end = time.monotonic() + limit
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"gave up waiting for {what}")
        await pilot.pause(0.01)
    await pilot.pause()  # let the screen catch up (layout, refresh) before it is read


async def my_move(pilot: Pilot[Any], app: HoolaApp) -> None:
    """Wait until the person is asked for a move."""
    await until(pilot, lambda: app.asking is not None or isinstance(app.screen,
                                                                    SettlementScreen),
                "the person's move")


async def after_draw(pilot: Pilot[Any], app: HoolaApp) -> None:
    """Wait until the person has drawn and is asked for the rest of the turn."""
    await until(pilot, lambda: app.asking is not None and app.asking.drawn, "the draw")


async def discard_to_a_claim(pilot: Pilot[Any], app: HoolaApp, card: str) -> None:
    """Discard ``card`` and wait for the Thank-you prompt on the next player's discard."""
    await pick(pilot, app, card)
    await pilot.press("x")
    await until(pilot, lambda: app.asking is not None and app.asking.can_pass,
                "the claim prompt")


def screen_text(app: HoolaApp) -> str:
    """What the terminal shows, line by line (from the screenshot the app exports)."""
    svg = app.export_screenshot()
    lines: dict[int, list[tuple[float, str]]] = {}
    for x, line, text in re.findall(r'<text class="[^"]*" x="([\d.]+)" y="[\d.]+" '
                                    r'textLength="[\d.]+" clip-path="url\(#[^)]*-line-(\d+)\)">'
                                    r"([^<]*)</text>", svg):
        lines.setdefault(int(line), []).append((float(x), html.unescape(text).strip("\n")))
    return "\n".join("".join(t for _, t in sorted(lines[k])).replace("\xa0", " ")
                     for k in sorted(lines))


async def pick(pilot: Pilot[Any], app: HoolaApp, card: str) -> None:
    """Press the number key of ``card`` as the hand shows it."""
    view = app.view
    assert view is not None
    place = app.query_one(HandPanel).order.index(view.hand.index(parse_card(card)))
    await pilot.press(str(place + 1))


async def follow_hints(pilot: Pilot[Any], app: HoolaApp, limit: int = 400) -> int:
    """Play as the hint key advises (h, then Enter) until the deal's settlement shows."""
    moves = 0
    while moves < limit:
        await my_move(pilot, app)
        if isinstance(app.screen, SettlementScreen):
            return moves
        asked = app.asking
        await pilot.press("h")
        await until(pilot, lambda asked=asked: app.suggested is not None
                    or app.asking is not asked or app.message.plain.startswith("Hint"), "a hint")
        await pilot.press("enter" if app.suggested is not None else "escape")
        await until(pilot, lambda asked=asked: app.asking is not asked, "the move to be played")
        moves += 1
    raise AssertionError("the deal did not end")


def record_actions(path: Path) -> list[str]:
    return load(path).deals[-1].actions


# -- whole deals through the screen ------------------------------------------------------------

def test_a_claim_and_a_knock_played_with_keys(tmp_path: Path) -> None:
    session = explicit_session(tmp_path, CLAIM_AND_KNOCK)

    async def scenario() -> None:
        app = HoolaApp(session, claim_seconds=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            assert "Your turn: draw (d)" in screen_text(app)
            await pilot.press("d")
            await after_draw(pilot, app)
            assert "You drew" in screen_text(app) and card_label(parse_card("Qs")) in \
                screen_text(app)
            # Greedy1 discards 9d: the Thank-you prompt asks You, Greedy2 has decided already.
            await discard_to_a_claim(pilot, app, "Kh")
            screen = screen_text(app)
            assert "Thank you?" in screen and "Greedy1 discarded  9♦ : t takes it" in screen
            await pilot.press("t")
            await until(pilot, lambda: app.asking is not None and app.asking.is_my_turn
                        and app.asking.drawn, "the rest of the claimed turn")
            assert "You: Thank you!" in screen_text(app)
            await pick(pilot, app, "Qs")
            await pilot.press("x")
            await until(pilot, lambda: app.asking is not None and not app.asking.drawn,
                        "the next turn")
            assert "you may knock (k)" in screen_text(app)
            assert any(isinstance(a, Knock) for a in app.asking.legal)
            await pilot.press("k")
            await until(pilot, lambda: isinstance(app.screen, SettlementScreen), "the settlement")
            screen = screen_text(app)
            assert "You knocked with 7 points and won." in screen
            assert "Greedy1 owes" in screen and "Greedy2 owes" in screen
            assert "Running score" in screen
            await pilot.press("enter")
            await until(pilot, lambda: not app.is_running, "the app to close")

    run(scenario)
    assert record_actions(session.path) == [
        "You draw", "You discard Kh", "Greedy1 draw", "Greedy1 discard 9d",
        "You take 9d with 9s 9h", "You discard Qs", "Greedy1 draw", "Greedy1 discard Jh",
        "Greedy2 draw", "Greedy2 discard Kd", "You knock"]
    verdict = verify_path(session.path)
    assert verdict.ok, verdict.problems
    result = load(session.path).deals[0].result
    assert result["end"] == "knock" and result["winners"] == ["You"]


class HandClock:
    """A clock the test turns by hand: the countdown runs only when the test says so, however
    slow the machine."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def ticks(pilot: Pilot[Any], app: HoolaApp, count: int = 3) -> None:
    """Let the countdown's tick run ``count`` more times."""
    seen: list[float] = []

    def ticked() -> bool:
        seen.append(app.ticks)
        return seen[-1] - seen[0] >= count

    await until(pilot, ticked, f"{count} ticks of the countdown")


def test_a_claim_left_to_the_countdown_goes_to_the_next_player(tmp_path: Path) -> None:
    session = explicit_session(tmp_path, CLAIM_AND_KNOCK)
    clock = HandClock()

    async def scenario() -> None:
        app = HoolaApp(session, claim_seconds=0.5, clock=clock)
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            await pilot.press("d")
            await after_draw(pilot, app)
            await discard_to_a_claim(pilot, app, "Kh")
            assert "■" in screen_text(app)  # the countdown bar, full
            clock.now += 0.6
            await until(pilot, lambda: "Greedy2 draw" in record_actions(session.path),
                        "Greedy2's draw once the countdown ran out")
            assert any(line.plain.split() == ["You", "let", "9♦", "go"] for line in app.lines)

    run(scenario)
    actions = record_actions(session.path)
    assert actions[4] == "Greedy2 draw"
    assert verify_path(session.path).ok


def test_the_countdown_waits_while_the_help_is_open(tmp_path: Path) -> None:
    session = explicit_session(tmp_path, CLAIM_AND_KNOCK)
    clock = HandClock()

    async def scenario() -> None:
        app = HoolaApp(session, claim_seconds=0.5, clock=clock)
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            await pilot.press("d")
            await after_draw(pilot, app)
            await discard_to_a_claim(pilot, app, "Kh")
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            for _ in range(4):  # two seconds, four times the countdown, spent reading the help
                clock.now += 0.5
                await ticks(pilot, app, 1)
            assert app.asking is not None and app.asking.can_pass
            await pilot.press("escape")  # closes the help, does not let the card go
            await ticks(pilot, app)
            assert app.asking is not None and app.asking.can_pass
            await pilot.press("t")
            await until(pilot, lambda: "You take 9d with 9s 9h" in record_actions(session.path),
                        "the claim")

    run(scenario)


def test_a_claim_let_go_with_escape(tmp_path: Path) -> None:
    session = explicit_session(tmp_path, CLAIM_AND_KNOCK)

    async def scenario() -> None:
        app = HoolaApp(session, claim_seconds=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            await pilot.press("d")
            await after_draw(pilot, app)
            await discard_to_a_claim(pilot, app, "Kh")
            assert "■" not in screen_text(app)  # no countdown: the prompt waits
            await pilot.press("escape")
            await until(pilot, lambda: "Greedy2 draw" in record_actions(session.path),
                        "Greedy2's draw")

    run(scenario)
    assert record_actions(session.path)[4] == "Greedy2 draw"


def test_a_bot_claim_then_quit_then_resume_and_finish(tmp_path: Path) -> None:
    session = explicit_session(tmp_path, BOT_CLAIM)

    async def first() -> None:
        app = HoolaApp(session, claim_seconds=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            await pilot.press("d")
            await after_draw(pilot, app)
            await pick(pilot, app, "5d")
            await pilot.press("x")
            await until(pilot, lambda: app.asking is not None and not app.asking.drawn,
                        "the next turn")
            screen = screen_text(app)
            assert "Greedy2: Thank you!" in screen
            assert " t  take" in screen  # You may take Greedy2's Kd with Kh Ks
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, LeaveScreen), "the question")
            await pilot.press("y")
            await until(pilot, lambda: not app.is_running, "the app to close")

    run(first)
    actions = record_actions(session.path)
    assert actions == ["You draw", "You discard 5d", "Greedy2 take 5d with 5s 5h",
                       "Greedy2 discard Kd"]
    assert verify_path(session.path).ok

    resumed = Session.resume(session.path, seed=3, bot_delay=0)

    async def second() -> None:
        app = HoolaApp(resumed, claim_seconds=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            assert app.asking is not None
            assert sorted(app.asking.hand) == sorted(parse_cards("Kh Ks Jd 2c 3h 9s 8d"))
            told = [line.plain for line in app.lines]
            assert "(resumed: the deal so far)" in told
            assert told[-1].split() == ["Greedy2", "discards", "K♦"]
            await pilot.press("t")
            await until(pilot, lambda: app.asking is not None and app.asking.drawn, "the take")
            await follow_hints(pilot, app)
            assert "Deal 1 of 1" in screen_text(app)
            await pilot.press("enter")

    run(second)
    actions = record_actions(session.path)
    assert actions[4] == "You take Kd with Ks Kh"
    verdict = verify_path(session.path)
    assert verdict.ok, verdict.problems
    assert load(session.path).deals[0].result["end"]


def test_resuming_a_finished_match_shows_how_it_ended(tmp_path: Path) -> None:
    session = explicit_session(tmp_path, CLAIM_AND_KNOCK)
    state = session.match.deals[0]
    for text in ["You draw", "You discard Kh", "Greedy1 draw", "Greedy1 discard 9d",
                 "You take 9d with 9s 9h", "You discard Qs", "Greedy1 draw", "Greedy1 discard Jh",
                 "Greedy2 draw", "Greedy2 discard Kd", "You knock"]:
        state.apply(parse_action(text, NAMES))
    session.match.finish_deal()
    session.save()
    before = session.path.read_text()
    resumed = Session.resume(session.path, bot_delay=0)

    async def scenario() -> None:
        app = HoolaApp(resumed)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SettlementScreen), "the settlement")
            assert "The match is over: You win." in screen_text(app)
            await pilot.press("enter")
            await until(pilot, lambda: not app.is_running, "the app to close")

    run(scenario)
    assert session.path.read_text() == before  # no deal was added


def test_a_whole_match_by_hints_keeps_the_running_score(tmp_path: Path) -> None:
    session = Session.new(Rules.preset("pagat"), players=4, seed=21, deals=2,
                          path=tmp_path / "match.toml", bot_delay=0)

    async def scenario() -> None:
        app = HoolaApp(session, claim_seconds=0)
        async with app.run_test(size=(160, 50)) as pilot:
            for deal in (1, 2):
                await follow_hints(pilot, app)
                screen = screen_text(app)
                assert f"Deal {deal} of 2" in screen
                assert "Running score" in screen and "total" in screen
                await pilot.press("enter")
            await until(pilot, lambda: not app.is_running, "the end of the match")

    run(scenario)
    assert session.is_over
    record = load(session.path)
    assert len(record.deals) == 2 and all(d.result for d in record.deals)
    assert record.totals == {session.names[q]: v for q, v in session.match.totals.items()}
    assert sum(record.totals.values()) == 0
    verdict = verify_path(session.path)
    assert verdict.ok, verdict.problems


def test_six_players_the_person_chooses_to_drop_out(tmp_path: Path) -> None:
    rules = Rules.preset("pagat")
    names = ["You", *[f"Greedy{i}" for i in range(1, 6)]]
    match = Match(rules, names, seed=2)
    match.deals.append(DealState.new(rules, names, seed=8, dealer=1))
    session = Session(match, MatchPlan("You", ("greedy",) * 5, 1), tmp_path / "six.toml", seed=2,
                      bot_delay=0)

    async def scenario() -> None:
        app = HoolaApp(session, claim_seconds=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            # The four greedy bots before You chose to play: five are in, You must drop out.
            assert app.asking is not None and app.asking.phase == "choose"
            assert not any(isinstance(a, Play) for a in app.asking.legal)
            assert "Five are playing this deal already" in screen_text(app)
            await pilot.press("p")
            assert "you must drop out" in app.message.plain
            await pilot.press("o")
            await until(pilot, lambda: isinstance(app.screen, SettlementScreen), "the settlement")
            assert "You drop out of this deal" in " ".join(line.plain for line in app.lines)

    run(scenario)
    assert verify_path(session.path).ok
    assert load(session.path).deals[0].actions[4] == "You drop"


# -- the screen ---------------------------------------------------------------------------------

def test_the_table_fits_80x24_and_spreads_out_at_160x50(tmp_path: Path) -> None:
    async def scenario(size: tuple[int, int]) -> None:
        session = explicit_session(tmp_path, CLAIM_AND_KNOCK)
        app = HoolaApp(session, claim_seconds=0)
        async with app.run_test(size=size) as pilot:
            await my_move(pilot, app)
            width, height = size
            for widget in (app.query_one(SeatsPanel), app.query_one(PilePanel),
                           app.query_one(HandPanel), app.query_one(KeyBar)):
                region = widget.region
                assert region.height > 0 and region.bottom <= height and region.right <= width, \
                    (type(widget).__name__, region)
            assert app.query_one(HandPanel).region.bottom <= app.query_one(KeyBar).region.y
            screen = screen_text(app)
            for seen in ("Greedy1", "Greedy2", "7 cards", "Discard", "Stock", "38 points",
                         "knock at 10 or less · blast: no", "d  draw", "HOOLA"):
                assert seen in screen, seen
            side = app.query_one("#side")
            assert side.display == (width >= 120)
            assert app.big == (height >= 36)

    asyncio.run(scenario((80, 24)))
    asyncio.run(scenario((160, 50)))


def test_hand_sorts_by_suit_or_rank_and_cards_are_picked_by_key_and_click(tmp_path: Path) -> None:
    session = explicit_session(tmp_path, CLAIM_AND_KNOCK)

    async def scenario() -> None:
        app = HoolaApp(session, claim_seconds=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            panel = app.query_one(HandPanel)
            hand = app.asking.hand if app.asking else ()
            by_suit = [card_label(hand[i]) for i in panel.order]
            assert by_suit == ["A♠", "9♠", "9♥", "K♥", "2♦", "A♣", "3♣"]
            await pilot.press("s")
            by_rank = [card_label(hand[i]) for i in panel.order]
            assert by_rank == ["A♠", "A♣", "2♦", "3♣", "9♠", "9♥", "K♥"]
            assert "by rank" in screen_text(app)
            await pilot.press("2")
            assert app._picked_cards() == [parse_card("Ac")]
            await pilot.click(HandPanel, offset=(1 + 6 * 4 + 2, 4))  # the fifth card, 9s
            assert sorted(app._picked_cards()) == sorted(parse_cards("Ac 9s"))
            await pilot.press("2")
            assert app._picked_cards() == [parse_card("9s")]
            await pilot.press("escape")
            assert app._picked_cards() == []
            await pilot.click(PilePanel, offset=(12, 2))  # the stock: draw
            await after_draw(pilot, app)
            assert record_actions(session.path)[0] == "You draw"

    run(scenario)


def test_wrong_keys_explain_themselves_and_nothing_changes(tmp_path: Path) -> None:
    session = explicit_session(tmp_path, CLAIM_AND_KNOCK)

    async def scenario() -> None:
        app = HoolaApp(session, claim_seconds=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            await pilot.press("k")
            assert "you hold 38" in app.message.plain
            await pilot.press("b")
            assert "A blast needs 15 points or less" in app.message.plain
            await pilot.press("m")
            assert "Draw first" in app.message.plain
            assert "Draw first" in screen_text(app)
            await pilot.press("d")
            await after_draw(pilot, app)
            await pilot.press("x")
            assert "Pick exactly one card" in app.message.plain
            await pick(pilot, app, "As")
            await pick(pilot, app, "2d")
            await pick(pilot, app, "3c")
            await pilot.press("m")
            assert "is not a meld" in app.message.plain
            assert record_actions(session.path) == ["You draw"]

    run(scenario)


def test_several_fitting_moves_open_a_choice(tmp_path: Path) -> None:
    # After drawing 9c, You hold 9s 9h 9c: three 3-card sets and the 4-card... choose by number.
    deal = (["9s 9h 9d As 2d 3c Kh", "4d 8c 2s 4h 5c 6d 3s", "Td Tc 8s 6h Jd 2h Kd"],
            "5h", "9c")
    session = explicit_session(tmp_path, deal)

    async def scenario() -> None:
        app = HoolaApp(session, claim_seconds=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            await pilot.press("d")
            await after_draw(pilot, app)
            await pilot.press("m")
            assert isinstance(app.screen, ChoiceScreen)
            await pilot.press("x")  # the table's keys wait while the list is open
            assert isinstance(app.screen, ChoiceScreen)
            options = [describe(a, app.asking).plain for a in app.screen.actions]
            assert len(options) == 5 and any("9♣" in o and "9♦" in o and "9♥" in o
                                             and "9♠" in o for o in options)
            four = next(i for i, a in enumerate(app.screen.actions)
                        if isinstance(a, NewMeld) and len(a.cards) == 4)
            await pilot.press(str(four + 1))
            await until(pilot, lambda: "You meld" in " ".join(record_actions(session.path)),
                        "the meld")
            assert sorted(parse_cards(record_actions(session.path)[1].split()[2:])) == \
                sorted(parse_cards("9s 9h 9d 9c"))

    run(scenario)


def test_hint_help_and_log_screens(tmp_path: Path) -> None:
    session = explicit_session(tmp_path, CLAIM_AND_KNOCK)

    async def scenario() -> None:
        app = HoolaApp(session, claim_seconds=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            await pilot.press("h")
            await until(pilot, lambda: app.suggested is not None, "the hint")
            hint = app.message.plain
            assert hint.startswith("Hint: draw from the stock · Enter plays it\n")
            assert "Enter plays it" in screen_text(app)
            # Said once: not again in the reason, nor in the log under it.
            assert hint.lower().count("draw") == 1, hint
            assert not any("Hint" in line.plain for line in app.lines)
            assert isinstance(app.suggested, Draw)
            await pilot.press("enter")
            await after_draw(pilot, app)
            await pilot.press("h")
            await until(pilot, lambda: app.suggested is not None, "the hint")
            assert isinstance(app.suggested, Discard)
            assert app._picked_cards() == [app.suggested.card]  # the hint picks its card
            # Cards as the screen draws them (K♥), never as typed (Kh), and said once.
            hint = app.message.plain
            assert card_label(app.suggested.card) in hint
            assert not re.search(r"\b[2-9TJQKA][cdhs]\b", hint), hint
            assert hint.count(card_label(app.suggested.card)) == 1, hint
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            assert "Thank you!" in screen_text(app) and "x discard" in screen_text(app)
            await pilot.press("down")
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("z")
            assert not isinstance(app.screen, HelpScreen)
            await pilot.press("l")
            assert isinstance(app.screen, LogScreen)
            assert "You drew" in screen_text(app)
            await pilot.press("escape")
            assert not isinstance(app.screen, LogScreen)

    run(scenario)


# -- the pieces ---------------------------------------------------------------------------------

def test_moves_read_only_the_view() -> None:
    rules = Rules.preset("pagat")
    hands, upcard, stock = CLAIM_AND_KNOCK
    state = DealState.new(rules, NAMES, deal=Deal.explicit(
        rules, [parse_cards(h) for h in hands], parse_card(upcard), parse_cards(stock)))
    view = state.view(0)
    assert next_step(view, True) == "Your turn: draw (d)."
    assert candidates(view, "draw", []) == [Draw(0)]
    assert candidates(view, "take", []) == []
    assert "5♥ makes no new three-card meld" in why_not(view, "take", [])
    state.apply(Draw(0))
    state.apply(Discard(0, parse_card("Kh")))
    state.apply(Draw(1))
    state.apply(Discard(1, parse_card("9d")))
    view = state.view(0)
    assert view.can_pass
    assert next_step(view, True).startswith("Thank you?")
    assert candidates(view, "take", parse_cards("9s")) == \
        [Take(0, parse_card("9d"), tuple(parse_cards("9s 9h")))]
    assert candidates(view, "take", parse_cards("As")) == []
    # Another player's draw never shows its card, even if the record knows it.
    line = log_line(Draw(1, parse_card("Qd")), view)
    assert line.plain == "Greedy1 draws from the stock"
    assert log_line(Draw(0, parse_card("Qd")), view, parse_card("Qd")).plain.startswith(
        "You drew")


def test_sort_hand_puts_jokers_last() -> None:
    hand = (parse_card("Kd"), 52, parse_card("2s"), parse_card("2h"))
    assert sort_hand(hand, by_rank=False) == [2, 3, 0, 1]
    assert sort_hand(hand, by_rank=True) == [2, 3, 0, 1]
    assert sort_hand((parse_card("As"), parse_card("Ks"), parse_card("Ah")), True) == [0, 2, 1]


def test_match_plan_survives_the_record(tmp_path: Path) -> None:
    plan = MatchPlan("Ann", ("greedy", "random"), 4)
    assert MatchPlan.from_comment(plan.comment(), ["Ann", "Greedy1", "Random2"]) == plan
    other = MatchPlan.from_comment("", ["A", "B", "C"])
    assert other == MatchPlan("A", ("greedy", "greedy"), 0)


def test_adviser_uses_explain_when_an_expert_is_there(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Rules.preset("pagat")
    view = DealState.new(rules, 3, seed=1).view(0)
    real = Adviser(seed=1)  # the project's expert bot, which explains its moves
    assert real.source == "expert bot"
    action, why = real.advise(view)
    assert action in view.legal and why

    class FakeExpert:
        def __init__(self, seed: int | None = None) -> None:
            self.seed = seed

        def explain(self, view: Any) -> tuple[Any, str]:
            return view.legal[0], "because the fake says so"

    class Module:
        ExpertBot = FakeExpert

    monkeypatch.setitem(sys.modules, "hoola.games.hoola.expert", Module)
    adviser = Adviser(seed=1)
    assert adviser.source == "expert bot"
    assert adviser.advise(view) == (view.legal[0], "because the fake says so")

    monkeypatch.setitem(sys.modules, "hoola.games.hoola.expert", None)  # no expert: greedy advises
    monkeypatch.delitem(hoola.bots.BOTS, "expert", raising=False)
    adviser = Adviser(seed=1)
    assert adviser.source == "greedy bot"
    action, why = adviser.advise(view)
    assert action in view.legal and why
    # Whoever advises, the move is said once.
    what, reason = hint_words(action, why, view)
    assert what.plain.split()[0] not in reason.lower(), (what.plain, reason)


def test_hint_words_say_the_move_once_with_symbols() -> None:
    rules = Rules.preset("pagat")
    hands, upcard, stock = CLAIM_AND_KNOCK
    state = DealState.new(rules, NAMES, deal=Deal.explicit(
        rules, [parse_cards(h) for h in hands], parse_card(upcard), parse_cards(stock)))
    state.apply(Draw(0))
    view = state.view(0)
    kh = Discard(0, parse_card("Kh"))
    what, why = hint_words(kh, "Discard Kh: it costs 13 points and As is no help.", view)
    assert (what.plain.split(), why) == (["discard", "K♥"],
                                         "It costs 13 points and A♠ is no help.")
    what, why = hint_words(kh, "Discard Kh, your last card, to go out.", view)
    assert (what.plain, why) == ("Discard K♥, your last card, to go out", "")
    what, why = hint_words(None, "Let the discard go: it completes no meld for you.", view)
    assert (what.plain, why) == ("let it go", "It completes no meld for you.")
    # Only the cards in sight are rewritten: "Ah" stays a word while the ace of hearts is unseen.
    assert with_symbols("Ah, keep Qs.", view) == "Ah, keep Q♠."


def test_play_falls_back_to_the_plain_game_without_a_terminal(tmp_path: Path) -> None:
    save = tmp_path / "g.toml"
    done = subprocess.run([sys.executable, "-m", "hoola", "play", "--seed", "3", "--save",
                           str(save)], input="1\nq\n", capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert "Type h for help" in done.stdout and done.returncode == 0
    assert f"Go on with: hoola play --plain --resume {save}" in done.stdout
    # The plain game resumes too (it saves after every move).
    resume = subprocess.run([sys.executable, "-m", "hoola", "play", "--resume", str(save)],
                            input="q\n", capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert resume.returncode == 0, resume.stderr
    assert "(resumed after" in resume.stdout
    assert load(save).deals[0].actions[0] == "You draw"


# -- the race for a discard ---------------------------------------------------------------------

# Greedy1 discards 9d; You (9s 9h) and Greedy2 (8d Td), the next player, may both take it.
RACE = (["9s 9h As Ac 2d 3c Kh", "9d 8c 2s 4h 5c 6d 3s", "Td Tc 8d 6h 4d 2h Kd"], "5h",
        "Qs 2c Jh 4s")


async def to_the_race(pilot: Pilot[Any], app: HoolaApp) -> None:
    """Draw, discard Kh, and let Greedy1 draw and discard 9d."""
    await my_move(pilot, app)
    await pilot.press("d")
    await after_draw(pilot, app)
    await pick(pilot, app, "Kh")
    await pilot.press("x")


def test_a_bot_quicker_to_claim_cuts_the_person_off(tmp_path: Path) -> None:
    session = explicit_session(tmp_path, RACE)  # bots claim at once

    async def scenario() -> None:
        app = HoolaApp(session, claim_seconds=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await to_the_race(pilot, app)
            told = "Greedy2 was quicker and took 9♦ before you answered."
            await until(pilot, lambda: any(line.plain == told for line in app.lines),
                        "the news of the race")
            await until(pilot, lambda: told in screen_text(app), "the news on the screen")
            assert app.asking is None or not app.asking.can_pass  # the prompt was taken back
            await pilot.press("t")  # too late: nothing changes
            # The news comes as the claim is settled, the save after it is applied.
            await until(pilot, lambda: len(record_actions(session.path)) > 4, "the take saved")
            assert "You take" not in " ".join(record_actions(session.path))

    run(scenario)
    assert record_actions(session.path)[4] == "Greedy2 take 9d with 8d Td"
    assert verify_path(session.path).ok


def test_a_quick_person_wins_the_race_and_is_told(tmp_path: Path) -> None:
    session = explicit_session(tmp_path, RACE, reaction=(30.0, 30.0))  # slow bots

    async def scenario() -> None:
        app = HoolaApp(session, claim_seconds=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await to_the_race(pilot, app)
            await until(pilot, lambda: app.asking is not None and app.asking.can_pass,
                        "the claim prompt")
            await pilot.press("t")
            told = "You were quicker than Greedy2 and took 9♦."
            await until(pilot, lambda: told in screen_text(app), "the news of the race")

    run(scenario)
    assert record_actions(session.path)[4] == "You take 9d with 9s 9h"


def test_turn_order_decides_under_battle_next_priority(tmp_path: Path) -> None:
    session = explicit_session(tmp_path, RACE,
                               rules=Rules.preset("pagat", claims="battle-next-priority"))

    async def scenario() -> None:
        app = HoolaApp(session, claim_seconds=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await to_the_race(pilot, app)
            # Greedy2, next in turn, claimed at once: no claim of the person's could win now,
            # so the window ends without waiting for them, and they are told why.
            told = "Greedy2 took 9♦: Greedy2's turn comes before yours."
            await until(pilot, lambda: told in screen_text(app), "the news of the race")

    run(scenario)
    assert record_actions(session.path)[4] == "Greedy2 take 9d with 8d Td"


def test_an_undercut_knock_is_told_as_one(tmp_path: Path) -> None:
    # Greedy1 knocks with 30 points; You hold 7 after taking 9d: the title must not say that
    # the winner knocked.
    session = explicit_session(tmp_path, CLAIM_AND_KNOCK, rules=Rules.preset("pagat",
                                                                           knock_limit=40))
    state = session.match.deals[0]
    for text in ["You draw", "You discard Kh", "Greedy1 draw", "Greedy1 discard 9d",
                 "You take 9d with 9s 9h", "You discard Qs", "Greedy1 knock"]:
        state.apply(parse_action(text, NAMES))
    session.moved(state)

    async def scenario() -> None:
        app = HoolaApp(session)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SettlementScreen), "the settlement")
            screen = screen_text(app)
            assert "Greedy1 knocked with 30 points but was undercut: you win with 7." in screen
            assert "won by a knock" not in screen

    run(scenario)


def test_seven_players_all_show_in_the_score_line_at_80_columns(tmp_path: Path) -> None:
    session = Session.new(Rules.preset("pagat"), players=7, bots=("greedy", "random"), seed=3,
                          path=tmp_path / "seven.toml", bot_delay=0, reaction=(0.0, 0.0))
    session.match.totals.update({1: Fraction(-25, 2), 4: Fraction(37)})

    async def scenario() -> None:
        app = HoolaApp(session, claim_seconds=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.view is not None, "the table")
            line = screen_text(app).splitlines()[0]
            assert len(line.rstrip()) <= 80
            words = line.split("│")[1].split()
            labels, scores = words[::2], words[1::2]
            assert scores == ["0", "-12.5", "0", "0", "+37", "0", "0"], line
            for label, name in zip(labels, session.names, strict=True):
                assert label == name or (label[:4] == name[:4] and label[-1] == name[-1]), line
            assert short_name("Greedy3", 5) == "Gree3"

    run(scenario)


def test_a_save_that_fails_keeps_the_last_one_and_says_so(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    session = explicit_session(tmp_path, CLAIM_AND_KNOCK)
    session.save()
    before = session.path.read_text()

    def full(*_: Any) -> None:
        raise OSError(28, "No space left on device")

    async def scenario() -> None:
        app = HoolaApp(session, claim_seconds=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await my_move(pilot, app)
            monkeypatch.setattr("hoola.terminal.saves.os.fsync", full)
            await pilot.press("d")
            await until(pilot, lambda: "No space left on device" in screen_text(app),
                        "the news that saving fails")
            assert session.path.read_text() == before  # the last good save, whole
            monkeypatch.undo()
            await after_draw(pilot, app)
            await pick(pilot, app, "Kh")
            await pilot.press("x")
            await until(pilot, lambda: any("saved again" in line.plain for line in app.lines),
                        "the news that saving works again")

    run(scenario)
    assert record_actions(session.path)[:2] == ["You draw", "You discard Kh"]
    assert verify_path(session.path).ok


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


def test_the_full_screen_game_refuses_a_broken_save_before_it_opens(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    session = Session.new(Rules.preset("pagat"), players=3, seed=1, path=path, bot_delay=0)
    path.write_text(path.read_text().replace("bots=greedy,greedy", "bots=greedy,chess"))
    with pytest.raises(RecordError, match="unknown bot 'chess'"):
        run_tui(resume=session.path)


def test_a_list_of_ways_to_take_closes_when_a_bot_was_quicker(tmp_path: Path) -> None:
    # You hold three nines: three ways to take 9d, so t opens a list; Greedy2 claims after 5 s.
    hands, upcard, stock = RACE
    deal = (["9s 9h 9c As 2d 3c Kh", *hands[1:]], upcard, stock)
    session = explicit_session(tmp_path, deal, reaction=(5.0, 5.0))

    async def scenario() -> None:
        app = HoolaApp(session, claim_seconds=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await to_the_race(pilot, app)
            await until(pilot, lambda: app.asking is not None and app.asking.can_pass,
                        "the claim prompt")
            await pilot.press("t")
            assert isinstance(app.screen, ChoiceScreen)
            await until(pilot, lambda: not isinstance(app.screen, ChoiceScreen),
                        "the list to close when Greedy2 claims")
            told = "Greedy2 was quicker and took 9♦ before you answered."
            await until(pilot, lambda: told in screen_text(app), "the news of the race")
            await pilot.press("1")  # the list is gone: a number only picks a card
            # The news comes as the claim is settled, the save after it is applied.
            await until(pilot, lambda: len(record_actions(session.path)) > 4, "the take saved")
            assert record_actions(session.path)[4] == "Greedy2 take 9d with 8d Td"

    run(scenario)


def key_bar_line(app: HoolaApp) -> str:
    """The key bar as the terminal shows it (its first line)."""
    bar = app.query_one(KeyBar).region
    return screen_text(app).splitlines()[bar.y]


def test_the_key_bar_picks_as_many_cards_as_the_hand_holds(tmp_path: Path) -> None:
    session = Session.new(Rules.preset("pagat"), players=4, seed=21, deals=1,
                          path=tmp_path / "match.toml", bot_delay=0)
    sizes: set[int] = set()

    async def scenario() -> None:
        app = HoolaApp(session, claim_seconds=0)
        async with app.run_test(size=(120, 40)) as pilot:
            while True:
                await my_move(pilot, app)
                if isinstance(app.screen, SettlementScreen):
                    return
                asked = app.asking
                assert asked is not None
                await pilot.pause()
                line = key_bar_line(app)
                size = len(asked.hand)
                sizes.add(size)
                assert re.search(rf"\b{re.escape(pick_keys(size))}\s+pick\b", line), (size, line)
                assert size == 8 or "1-8" not in line, line
                await pilot.press("h")
                await until(pilot, lambda asked=asked: app.suggested is not None
                            or app.asking is not asked, "a hint")
                await pilot.press("enter" if app.suggested is not None else "escape")
                await until(pilot, lambda asked=asked: app.asking is not asked, "the move")

    run(scenario)
    assert min(sizes) < 7, sizes  # the hand went down: the bar followed it

"""The browser table's feel, played for real in Debian's Chromium against ``hoola serve``: cards
that fly from where they were to where they go (and stay still under reduced motion), the sound
cues and their remembered toggle, the result screen that holds the next deal until everyone has
pressed Continue, the end of a match with its winner and a working Rematch, a bot standing in
announced on the table, an open chooser that follows the state; and the room's pause between
deals, a restart included.

The fixtures and the moves by hand are those of ``test_web_browser``; waits are on the page's
state, never a fixed sleep.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")

from playwright.async_api import Page, async_playwright

import test_web_browser as web
from hoola.server.room import Room, RoomError
from hoola.server.store import SeatRow, Store, digest

DESKTOP, LONG, SHOTS = web.DESKTOP, web.LONG, web.SHOTS
_open_seat, _table, hoola_choice = web._open_seat, web._table, web.hoola_choice
launch, make_move, new_page, run = web.launch, web.make_move, web.new_page, web.run
server = web.server  # the same fixtures: hoola serve in a thread, Debian's Chromium asserted
_chromium = web._chromium


def first_choice(state: dict[str, Any]) -> str | None:
    """Any legal move (a capture game's first card), or let the moment pass."""
    if state["can_pass"]:
        return None
    legal: list[str] = state["view"]["legal"]
    return legal[0]


async def play_until(page: Page, done: str, choose: Any, limit: int = 300) -> dict[str, Any]:
    """Make the page's moves until the JavaScript condition ``done`` (on ``s``, the state)
    holds; the state then."""
    check = ("(() => { const s = window.hoola && window.hoola.state(); "
             f"return !!s && ({done}); }})()")
    for _ in range(limit):
        await page.wait_for_function(f"window.hoola && window.hoola.state() && "
                                     f"(window.hoola.asked() || {check})",
                                     timeout=LONG, polling=50)
        state: dict[str, Any] = await page.evaluate("window.hoola.state()")
        if await page.evaluate(check):
            return state
        await make_move(page, choose(state))
    raise AssertionError(f"never: {done}")


WATCH_MOTION = """() => {
  window.watched = { flying: 0, running: 0, lit: 0 };
  const look = () => {
    const all = document.getAnimations();
    if (all.some((a) => a.id === 'fly')) window.watched.flying += 1;
    if (all.length) window.watched.running += 1;
    if (document.querySelector('#board .seat.acted')) window.watched.lit += 1;
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""


# -- motion ------------------------------------------------------------------------------------

def test_cards_fly_and_stay_still_under_reduced_motion(server: tuple[str, Any]) -> None:
    base, _ = server
    run(_motion(base))


async def _motion(base: str) -> None:
    async with async_playwright() as p:
        browser = await launch(p)
        for reduce in (False, True):
            page = await new_page(browser, DESKTOP)
            if reduce:
                await page.emulate_media(reduced_motion="reduce")
            made = _table(base, "hoola", [{"bot": "random"}] * 3, seed=21, bot_delay=0.3)
            await _open_seat(page, base, made)
            await page.wait_for_function("window.hoola && window.hoola.state() && "
                                         "window.hoola.state().status === 'playing'")
            assert await page.get_attribute("body", "data-motion") == ("off" if reduce else "on")
            await page.evaluate(WATCH_MOTION)
            start = await page.evaluate("window.hoola.counter()")
            # Play until the bots have made a good few moves (each one a card that moves).
            await play_until(page, f"s.counter >= {start + 12} || s.status === 'over'",
                             hoola_choice)
            stats = await page.evaluate("window.hoola.motion()")
            watched = await page.evaluate("window.watched")
            if reduce:
                assert stats == {"flights": 0, "on": False}, stats
                assert watched["running"] == 0 and watched["flying"] == 0, watched
                assert await page.evaluate("document.getAnimations().length") == 0
            else:
                assert stats["on"] and stats["flights"] > 0, stats
                assert watched["flying"] > 0, watched  # seen in flight, not only counted
                assert watched["lit"] > 0, watched  # the seat that acted lit up
                await page.screenshot(path=str(SHOTS / "motion-desktop.png"))
            assert not page.errors, page.errors  # type: ignore[attr-defined]
            await page.close()
        await browser.close()


WATCH_DEAL = """window.watchedDeal = { dealing: 0, running: 0 };
const lookDeal = () => {
  const all = document.getAnimations();
  if (all.some((a) => a.id === 'deal')) window.watchedDeal.dealing += 1;
  if (all.length) window.watchedDeal.running += 1;
  requestAnimationFrame(lookDeal);
};
requestAnimationFrame(lookDeal);"""


def test_a_new_deal_is_dealt_from_the_stock_and_not_under_reduced_motion(
        server: tuple[str, Any]) -> None:
    base, _ = server
    run(_deal_motion(base))


async def _deal_motion(base: str) -> None:
    async with async_playwright() as p:
        browser = await launch(p)
        for game, preset in (("hoola", None), ("capture", "sedma")):
            for reduce in (False, True):
                page = await new_page(browser, DESKTOP)
                if reduce:
                    await page.emulate_media(reduced_motion="reduce")
                await page.add_init_script(WATCH_DEAL)
                extra = {"preset": preset} if preset else {}
                made = _table(base, game, [{"bot": "random"}] * 2, seed=31, bot_delay=0.5,
                              **extra)
                # The page looks on as the host starts the table: the deal comes to it.
                await _open_seat(page, base, made)
                await page.wait_for_function("window.hoola && window.hoola.state() && "
                                             "window.hoola.state().status === 'playing'")
                if reduce:
                    # The deal shows at once: nothing moves while the bots play on.
                    start = await page.evaluate("window.hoola.counter()")
                    await play_until(page, f"s.counter >= {start + 3} || s.status === 'over'",
                                     first_choice)
                    assert await page.evaluate("window.hoola.deals()") == 0
                    watched = await page.evaluate("window.watchedDeal")
                    assert watched == {"dealing": 0, "running": 0}, watched
                else:
                    # The cards fly from the stock to the hands, seen in flight, and land.
                    await dealt_once_more(page, 1)
                assert not page.errors, page.errors  # type: ignore[attr-defined]
                await page.close()
        # The next deal, after the result between deals, is dealt too (and not under reduced
        # motion).
        for reduce in (False, True):
            page = await new_page(browser, DESKTOP)
            if reduce:
                await page.emulate_media(reduced_motion="reduce")
            await page.add_init_script(WATCH_DEAL)
            made = _table(base, "capture", [{"bot": "random"}], seed=32, preset="sedma",
                          deals=2, result_seconds=120)
            await _open_seat(page, base, made)
            await play_until(page, "!!s.between", first_choice)
            await page.wait_for_selector("#result:not([hidden]) #result-continue")
            flown = await page.evaluate("window.hoola.deals()")
            await page.evaluate("window.watchedDeal.dealing = 0")
            await page.click("#result-continue")
            await page.wait_for_function("window.hoola.state() && !window.hoola.state().between"
                                         " && window.hoola.state().status === 'playing'")
            if reduce:
                assert flown == 0 and await page.evaluate("window.hoola.deals()") == 0
                assert await page.evaluate("window.watchedDeal.dealing") == 0
            else:
                await dealt_once_more(page, flown + 1)
            assert not page.errors, page.errors  # type: ignore[attr-defined]
            await page.close()
        await browser.close()


async def dealt_once_more(page: Page, deals: int) -> None:
    """The page has dealt ``deals`` deals with motion, this one seen in flight, and landed."""
    await page.wait_for_function(f"window.hoola.deals() === {deals}")
    await page.wait_for_function("window.watchedDeal.dealing > 0")
    await page.wait_for_function("!document.getAnimations().some((a) => a.id === 'deal')")
    assert not await page.locator("body > .flying").count()


# -- sound -------------------------------------------------------------------------------------

PLAYS = """() => {
  window.__plays = [];
  HTMLMediaElement.prototype.play = function () {
    window.__plays.push(this.src.split('/').pop());
    return Promise.resolve();
  };
}"""


def test_sound_toggle_is_remembered_and_cues_are_asked(server: tuple[str, Any]) -> None:
    base, _ = server
    run(_sound(base))


async def _sound(base: str) -> None:
    async with async_playwright() as p:
        browser = await launch(p)
        page = await new_page(browser, DESKTOP)
        await page.add_init_script(f"({PLAYS})()")
        made = _table(base, "capture", [{"bot": "random"}], seed=4, preset="sedma",
                      bot_delay=0.2)
        await _open_seat(page, base, made)
        await page.wait_for_selector("body[data-sound='on'] #sound[aria-pressed='true'] svg")
        # Sound on: the person's turn and the cards laid on the table are heard.
        await play_until(page, "['discard.wav', 'turn.wav', 'trick.wav'].every((f) => "
                               "window.__plays.includes(f))", first_choice)
        assert set(await page.evaluate("window.hoola.sounds().played")) >= \
            {"turn", "discard", "trick"}
        # Every card has its name in words, the hand's cards are buttons; in Korean too.
        names = await page.eval_on_selector_all("#hand .card", "cs => cs.map((c) => "
                                                "[c.getAttribute('aria-label'), c.role])")
        assert names and all(re.fullmatch(r"(ace|two|three|four|five|six|seven|eight|nine|ten|"
                                          r"jack|queen|king) of (spades|hearts|diamonds|clubs)",
                                          name) and role == "button" for name, role in names), names
        assert await page.get_attribute("#others .hidden-card", "aria-label") == "face-down card"
        await page.click("#lang")
        await page.wait_for_function("document.querySelector('#hand .card')"
                                     ".getAttribute('aria-label').match(/^(스페이드|하트|"
                                     "다이아몬드|클로버) /)")
        await page.click("#lang")
        assert (await page.get_attribute("#sound", "aria-label") or "").startswith("Sound on")
        # Off at once, and remembered across a reload: nothing more is played.
        await page.click("#sound")
        await page.wait_for_selector("body[data-sound='off'] #sound[aria-pressed='false']")
        assert await page.evaluate("localStorage.getItem('hoola.sound')") == "0"
        await page.reload()
        await page.wait_for_function("window.hoola && window.hoola.state() && "
                                     "window.hoola.state().status === 'playing'")
        assert await page.get_attribute("body", "data-sound") == "off"
        start = await page.evaluate("window.hoola.counter()")
        await play_until(page, f"s.counter >= {start + 4} || s.status === 'over'",
                         first_choice)
        assert await page.evaluate("window.__plays") == []
        assert await page.evaluate("window.hoola.sounds()") == {"on": False, "played": []}
        await page.click("#sound")
        await page.wait_for_selector("body[data-sound='on']")
        assert await page.evaluate("localStorage.getItem('hoola.sound')") == "1"
        # The cue files are the project's own, served with the page.
        for cue in ("discard", "turn", "claim", "thankyou", "out", "trick"):
            got = httpx.get(f"{base}/static/sounds/{cue}.wav", timeout=30)
            assert got.status_code == 200 and got.content[:4] == b"RIFF", cue
            assert len(got.content) < 20_000, (cue, len(got.content))
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        await browser.close()


# Hoola without knocks, blasts or four sevens: a deal ends when someone goes out (or the stock
# runs out), and battle rules let anyone claim a discard, so windows and claims come often.
GOING_OUT = {"knocks": False, "blasts": False, "four_sevens": False}
EVENT_CUES = {"claim", "thankyou", "out"}


async def claims_and_out(browser: Any, base: str, seed: int, sound: bool) -> tuple[set[str],
                                                                                     set[str]]:
    """One Hoola deal of four seats played to its end with the sound on or off: the events seen
    (a claim window opened for this seat, a claim called out, a player going out) and the cues
    played for them."""
    page = await new_page(browser, DESKTOP)
    await page.add_init_script(f"({PLAYS})()")
    if not sound:
        await page.add_init_script("localStorage.setItem('hoola.sound', '0')")
    seen: set[str] = set()

    def frame(payload: str | bytes) -> None:
        # Every state the server sends is looked at as it arrives (a window may close again
        # before a poll of the page would see it).
        state = json.loads(payload)
        if state.get("type") != "state" or not state.get("asked") or not state.get("can_pass"):
            return
        moment = (state.get("table") or {}).get("moment") or {}
        legal = (state.get("view") or {}).get("legal") or []
        if moment.get("turn") != state["seat"] and any(m.split()[1] == "take" for m in legal):
            seen.add("claim")  # a window this seat may claim in, not on its own turn

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    made = _table(base, "hoola", [{"bot": "random"}] * 3, seed=seed, bot_delay=0.05,
                  options=GOING_OUT)
    await _open_seat(page, base, made)
    await play_until(page, "s.status === 'over' || !!s.between", hoola_choice)
    if await page.evaluate("window.hoola.announced().length"):
        seen.add("thankyou")
    if web.result_of(base, made["table_id"]).get("end") in ("out", "hoola"):
        seen.add("out")
    played = set(await page.evaluate("window.hoola.sounds().played")) & EVENT_CUES
    files = {f.removesuffix(".wav") for f in await page.evaluate("window.__plays")}
    if not sound:
        assert await page.evaluate("window.hoola.sounds()") == {"on": False, "played": []}
        assert files == set(), files
    else:
        assert played & EVENT_CUES <= files, (played, files)  # asked cues were played
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    await page.close()
    return seen, played


def test_claim_window_thank_you_and_going_out_are_heard_and_silent_when_off(
        server: tuple[str, Any]) -> None:
    base, _ = server
    run(_event_cues(base))


async def _event_cues(base: str) -> None:
    async with async_playwright() as p:
        browser = await launch(p)
        for sound in (True, False):
            seen: set[str] = set()
            heard: set[str] = set()
            for seed in range(1, 13):
                events, played = await claims_and_out(browser, base, seed, sound)
                seen |= events
                heard |= played
                if sound:
                    # A window opened for this seat is heard (its cue is asked as it opens).
                    assert "claim" not in events or "claim" in played, (seed, events, played)
                    assert "thankyou" not in events or "thankyou" in played, (seed, events,
                                                                               played)
                    assert "out" not in events or "out" in played, (seed, events, played)
                else:
                    assert not played, (seed, played)
                if seen >= EVENT_CUES:
                    break
            assert seen >= EVENT_CUES, (sound, seen)  # every event came, on and off
            assert heard == (EVENT_CUES if sound else set()), heard
        await browser.close()


# -- the result between deals ------------------------------------------------------------------

def test_the_result_waits_for_everyone_to_continue(server: tuple[str, Any]) -> None:
    base, _ = server
    run(_result(base))


async def _result(base: str) -> None:
    async with async_playwright() as p:
        browser = await launch(p)
        made = _table(base, "capture", [{}], seed=6, preset="sedma", deals=2,
                      result_seconds=120)
        tid = made["table_id"]
        joined = httpx.post(f"{base}/api/tables/{tid}/join",
                            json={"invite": made["invite"], "name": "Bob"}, timeout=30).json()
        alice = await new_page(browser, DESKTOP)
        bob = await new_page(browser, DESKTOP, lang="ko-KR")
        await bob.goto(base + "/")
        await bob.evaluate("([k, v]) => localStorage.setItem(k, v)",
                           [f"hoola.seat.{tid}", json.dumps({"token": joined["token"],
                                                            "seat": joined["seat"],
                                                            "name": "Bob"})])
        await bob.goto(f"{base}/table/{tid}")
        await _open_seat(alice, base, made)
        paused = "!!s.between"
        await asyncio.gather(play_until(alice, paused, first_choice),
                             play_until(bob, paused, first_choice))
        for page in (alice, bob):
            await page.wait_for_selector("#result:not([hidden]) #result-extra[data-state='pause'] "
                                         "#result-continue")
            await page.wait_for_selector("#result #settlement tr[data-row]")
        assert await alice.text_content("#result-continue") == "Continue"
        assert await bob.text_content("#result-continue") == "계속"
        # The countdown runs, and the next deal is not dealt behind the result meanwhile.
        left = int(await alice.get_attribute("#result-countdown", "data-left") or 0)
        assert 100 < left <= 120, left
        await alice.wait_for_function(f"Number(document.querySelector('#result-countdown')"
                                      f".dataset.left) < {left}", timeout=LONG)
        for page in (alice, bob):
            state = await page.evaluate("window.hoola.state()")
            assert state["deal"] == 1 and state["between"]["deal"] == 0, state
            assert not await page.evaluate("window.hoola.asked()")
        # The deal's log and its replay are a click away.
        await alice.click("#result .result-log summary")
        assert await alice.locator("#result .result-log li").count() > 4
        href = await alice.get_attribute("#result-replay-deal", "href")
        assert href == f"/replay/{tid}?deal=0&seat=0", href
        await alice.screenshot(path=str(SHOTS / "result-pause-desktop.png"))

        await alice.click("#result-continue")  # one has read it: the other is waited for
        await bob.wait_for_selector("#result-waiting", state="detached")
        await alice.wait_for_selector("#result-waiting:has-text('Bob')")
        state = await alice.evaluate("window.hoola.state()")
        assert state["deal"] == 1 and state["between"]["waiting"] == [1], state

        replay = await new_page(browser, DESKTOP)  # the replay link, with Alice's seat
        await replay.goto(base + "/")
        await replay.evaluate("([k, v]) => localStorage.setItem(k, v)",
                              [f"hoola.seat.{tid}", json.dumps({"token": made["token"],
                                                               "seat": 0})])
        await replay.goto(base + href)
        await replay.wait_for_selector("#r-action[data-step]")
        snap = await replay.evaluate("window.hoolaReplay.snapshot()")
        assert snap["deal"] == 0 and snap["seat"] == 0, snap
        await replay.close()

        await bob.click("#result-continue")  # everyone has: the next deal, the result closed
        for page in (alice, bob):
            await page.wait_for_function("window.hoola.state().deal === 2 && "
                                         "!window.hoola.state().between", timeout=LONG)
            await page.wait_for_selector("#result", state="hidden")
        for page in (alice, bob):
            assert not page.errors, page.errors  # type: ignore[attr-defined]
        await browser.close()


# -- the end of a match ------------------------------------------------------------------------

def test_the_match_ends_with_its_winner_and_a_rematch(server: tuple[str, Any]) -> None:
    base, _ = server
    run(_rematch(base))


async def _rematch(base: str) -> None:
    async with async_playwright() as p:
        browser = await launch(p)
        page = await new_page(browser, DESKTOP)
        made = _table(base, "hoola", [{"bot": "random"}, {"bot": "medium"}], seed=8,
                      preset="classic", options={"knock_limit": 15})
        tid = made["table_id"]
        await _open_seat(page, base, made)
        await play_until(page, "s.status === 'over'", hoola_choice)
        await page.wait_for_selector("#result:not([hidden]) #result-extra[data-state='final']")
        winner = await page.text_content("#result-extra .match-winner") or ""
        assert winner.endswith("wins the match") or winner.endswith("share the win"), winner
        board = (await page.evaluate("window.hoola.state()"))["scoreboard"]
        totals = [float(v) for v in board["scores"][-1]["values"]]
        best = [board["names"][i] for i, v in enumerate(totals) if v == max(totals)]
        assert winner.split(" wins")[0].split(" share")[0] == ", ".join(best), (winner, board)
        assert await page.get_attribute("#result-lobby", "href") == "/"
        record = await page.get_attribute("#result-record", "href")
        assert httpx.get(base + (record or ""), timeout=30).status_code == 200
        assert not await page.is_hidden("#result-replay")
        await page.screenshot(path=str(SHOTS / "match-over-desktop.png"))

        await page.click("#result-rematch")
        await page.wait_for_url(lambda url: "/table/" in url and not url.endswith(tid))
        new = page.url.rsplit("/", 1)[-1]
        # The rematch starts at once (the other seats are bots); until the page has connected
        # a stand-in may play the person's turns, so on a slow machine its one deal may be over
        # by the time the page sees it.
        await page.wait_for_function("([tid]) => window.hoola && window.hoola.state() && "
                                     "window.hoola.state().table_id === tid", arg=[new],
                                     timeout=LONG)
        state = await page.evaluate("window.hoola.state()")
        assert state["seat"] == 0 and state["status"] in ("playing", "over"), state["status"]
        info = httpx.get(f"{base}/api/tables/{new}", timeout=30).json()
        old = httpx.get(f"{base}/api/tables/{tid}", timeout=30).json()
        assert (info["game"], info["rules"]) == (old["game"], old["rules"]) == ("hoola", "classic")
        assert [(s["name"], s["kind"], s["bot"]) for s in info["seats"]] == \
            [(s["name"], s["kind"], s["bot"]) for s in old["seats"]]
        # Asked again, the same rematch: never a second table.
        again = httpx.post(f"{base}/api/tables/{tid}/rematch",
                           headers={"Authorization": f"Bearer {made['token']}"}, timeout=30)
        assert again.status_code == 200 and again.json()["table_id"] == new, again.text
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        await browser.close()


# -- a bot standing in, announced --------------------------------------------------------------

def test_a_bot_playing_for_a_person_out_of_time_is_announced(server: tuple[str, Any]) -> None:
    base, _ = server
    run(_standin(base))


async def _standin(base: str) -> None:
    async with async_playwright() as p:
        browser = await launch(p)
        page = await new_page(browser, DESKTOP)
        await page.add_init_script("""document.addEventListener('DOMContentLoaded', () => {
            window.heard = [];
            const live = document.getElementById('live');  // the table's page alone has it
            if (live) new MutationObserver(() => window.heard.push(live.textContent))
                .observe(live, { childList: true, subtree: true });
        })""")
        made = _table(base, "capture", [{"bot": "random"}], seed=5, preset="sedma",
                      turn_seconds=1)
        await _open_seat(page, base, made)
        # The person does nothing: their timer runs out and a bot plays; the table says so, on
        # the table and to a screen reader.
        await page.wait_for_selector(".toast:has-text(\"a bot played Me's turn\")", timeout=LONG)
        heard = await page.evaluate("window.heard")
        assert any("a bot played Me's turn" in line for line in heard), heard
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        await browser.close()


HEAR = """document.addEventListener('DOMContentLoaded', () => {
    window.heard = [];
    const live = document.getElementById('live');  // the table's page alone has it
    if (live) new MutationObserver(() => window.heard.push(live.textContent))
        .observe(live, { childList: true, subtree: true });
})"""
# A card as notation ("7s", "Td", "10h", "JK=7h") or a meld's number ("m2") read out as it is.
NOTATION = re.compile(r"(?<![A-Za-z0-9])(?:JK|(?:10|[2-9TJQKA])[shdc]|m\d+)(?![A-Za-z0-9])")


def draw_and_discard(state: dict[str, Any]) -> str | None:
    """A player who keeps the deal going: lets every window pass, draws and discards."""
    legal: list[str] = state["view"]["legal"]
    if state["can_pass"]:
        return None
    for verb in ("draw", "discard"):
        found = [m for m in legal if m.split()[1] == verb]
        if found:
            return found[-1]
    return legal[0]


def test_the_live_region_reads_moves_in_words(server: tuple[str, Any]) -> None:
    base, _ = server
    run(_live(base))


async def _live(base: str) -> None:
    async with async_playwright() as p:
        browser = await launch(p)
        page = await new_page(browser, DESKTOP)
        await page.add_init_script(HEAR)
        made = _table(base, "hoola", [{"bot": "random"}] * 2, seed=23, bot_delay=0.2)
        await _open_seat(page, base, made)
        bots = ("Bot1", "Bot2")
        # English: a bot's move, its cards as words ("Bot1 discards the ten of diamonds").
        await play_until(page, r"window.heard.some((h) => /Bot\d discards the /.test(h))",
                         draw_and_discard)
        heard: list[str] = await page.evaluate("window.heard")
        assert any(re.search(r"Bot\d discards the (ace|two|three|four|five|six|seven|eight|"
                             r"nine|ten|jack|queen|king) of (spades|hearts|diamonds|clubs)", h)
                   for h in heard), heard
        for h in heard:
            assert not NOTATION.search(h), h
            # no notation's "Bot1 discard Td" (a sentence says "discards", "adds ... to the meld")
            assert not re.search(r"\b(Me|Bot\d) (discard|draw|meld|add|take) ", h), h
        # Korean: the same, in the players' words.
        await page.click("#lang")
        await page.evaluate("window.heard = []")
        await play_until(page, r"window.heard.some((h) => /Bot\d이\(가\) .*버렸습니다/.test(h))",
                         draw_and_discard)
        heard = await page.evaluate("window.heard")
        assert any(re.search(r"Bot\d이\(가\) (스페이드|하트|다이아몬드|클로버) "
                             r"(에이스|[2-9]|10|잭|퀸|킹)을\(를\) 버렸습니다", h)
                   for h in heard), heard
        for h in heard:
            assert not NOTATION.search(h), h
            rest = h
            for name in ("Me", *bots):
                rest = rest.replace(name, "")
            assert not re.search("[A-Za-z]", rest), h  # nothing left in English
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        await browser.close()


def test_an_open_chooser_follows_the_state(server: tuple[str, Any]) -> None:
    base, _ = server
    run(_chooser(base))


async def _chooser(base: str) -> None:
    async with async_playwright() as p:
        browser = await launch(p)
        page = await new_page(browser, DESKTOP)
        # Seed 2: after the person's first draw, Meld stands for two melds (9h Th Jh, 7c).
        made = _table(base, "hoola", [{"bot": "random"}], seed=2, turn_seconds=3)
        await _open_seat(page, base, made)
        await page.wait_for_function("window.hoola && window.hoola.asked() && "
                                     "window.hoola.legal().includes('Me draw')", timeout=LONG)
        await make_move(page, "Me draw")
        await page.wait_for_function("window.hoola.asked()", timeout=LONG)
        await page.click('#verbs button[data-verb="meld"]')
        await page.wait_for_selector("#chooser:not([hidden]) #chooser-list button[data-move]")
        # The person does not choose: the timer runs out and a bot plays for them. From then on,
        # at every frame, the chooser holds only what is legal now, or is gone.
        await page.evaluate("""() => {
            window.stale = [];
            const look = () => {
                const box = document.getElementById('chooser');
                const legal = window.hoola.asked() ? window.hoola.legal() : [];
                const shown = [...box.querySelectorAll('button[data-move]')]
                    .map((b) => b.dataset.move);
                if (!box.hidden && !shown.every((m) => legal.includes(m))) {
                    window.stale.push([window.hoola.counter(), shown]);
                }
                requestAnimationFrame(look);
            };
            requestAnimationFrame(look);
        }""")
        start = await page.evaluate("window.hoola.counter()")
        await page.wait_for_selector(".toast:has-text(\"a bot played Me's turn\")", timeout=LONG)
        await page.wait_for_function(f"window.hoola.counter() >= {start + 3}", timeout=LONG)
        assert await page.evaluate("window.stale") == []
        assert not await page.locator(".toast.bad:has-text('does not hold')").count()
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        await browser.close()


# -- the room's pause between deals, and a restart in it ---------------------------------------

def test_the_room_holds_the_next_deal_and_a_restart_starts_the_countdown_again() -> None:
    asyncio.run(_pause())


async def _pause() -> None:
    store = Store("sqlite://")
    config = {"game": "capture", "preset": "sedma", "options": {}, "deals": 3, "seed": 3,
              "turn_seconds": 0, "result_seconds": 30}
    seats = [SeatRow(0, "person", "A", None, digest("a"), False),
             SeatRow(1, "person", "B", None, digest("b"), False)]
    tid = store.create_table(config, host_digest=digest("a"), invite="i", seat_rows=seats)
    sent: list[tuple[int | None, dict[str, Any]]] = []

    def room_of() -> Room:
        row = store.table(tid)
        assert row is not None
        return Room(row, store.seats(tid), store, lambda q, m: sent.append((q, m)))

    room = room_of()
    await room.start()
    while room.between is None:
        assert room.state is not None and room.moment is not None
        seat = min(room.moment.actors)
        view = room.state.view(seat)
        text = None if view.can_pass and not view.legal else room.state.format(view.legal[0])
        await room.submit(seat, text, room.counter)
    assert room.match is not None and room.state is not None
    assert len(room.match.deals) == 1 and room.state.is_over
    told = [m for q, m in sent if q == 0 and m.get("type") == "state"][-1]
    assert told["between"]["deal"] == 0 and told["between"]["waiting"] == [0, 1]
    with pytest.raises(RoomError) as refused:
        await room.submit(0, "play Ah", room.counter)
    assert refused.value.code == "between-deals"

    # Rebuilt in the pause (a restart): still between the deals, with a fresh countdown.
    room.close()
    again = room_of()
    again.rebuild()
    again.resume()
    assert again.between is not None and again.between.deal == 0
    assert again.between.waiting == {0, 1} and again.match is not None
    assert len(again.match.deals) == 1
    await again.go_on(0)
    assert again.between is not None and again.between.waiting == {1}
    await again.go_on(1)
    assert again.between is None and len(again.match.deals) == 2
    assert again.moment is not None and again.moment.actors
    await again.go_on(1)  # a late Continue changes nothing
    assert len(again.match.deals) == 2
    again.close()
    store.close()

"""The words of the browser table, played for real in Debian's Chromium (as
``tests/test_web_browser.py`` does, whose server and helpers these tests share):

- Hoola, Kalookie and Sedma played under Korean: no prompt, hint, refusal or settlement text left
  in English (card codes, numbers and the players' names aside);
- the settlement table's amounts are the record's, and the capture games' score column after a
  hand is the score table's;
- the plain bugs: Enter after a top-bar button, Draw open with cards picked, Enter and Discard
  with nothing picked, a refused Meld that says why, keys for a 13-15 card hand, Kalookie's count
  toward 40 across several melds, a page for a wrong table address, the join page alone, the
  lobby's presets by title with their options in a form.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")

from playwright.async_api import Page, async_playwright

import test_web_browser
from hoola.server.store import Store
from test_web_browser import (
    DESKTOP,
    LONG,
    SHOTS,
    _open_seat,
    _table,
    hoola_choice,
    kalookie_choice,
    launch,
    make_move,
    new_page,
    no_card_codes,
    result_of,
    run,
    wait_ready,
)

# The browser tests' server (the fixture "server", a module's own) and its Chromium check.
server = test_web_browser.server
_chromium = test_web_browser._chromium

HANGUL = re.compile("[\uac00-\ud7a3]")
LATIN = re.compile("[A-Za-z]")
CARD = re.compile(r"(?:10|[2-9JQKA])[\u2660\u2665\u2666\u2663]|JK(?:=\S+)?")
NAMES = ("Me", "Bot1", "Bot2", "Bot3")


def english_left(text: str) -> bool:
    """Whether ``text`` is an English sentence under the Korean page: Latin words and no Hangul,
    once the cards, numbers and players' names are set aside."""
    rest = CARD.sub(" ", text)
    for name in NAMES:
        rest = rest.replace(name, " ")
    return bool(LATIN.search(rest)) and not HANGUL.search(text)


async def korean_texts(page: Page) -> list[str]:
    """Every prompt, hint, refusal, cue, log line and settlement text the page shows now."""
    texts: list[str] = await page.evaluate("""() => {
        const out = [];
        const add = (sel) => document.querySelectorAll(sel).forEach((n) => {
            if (n.offsetParent !== null || n.closest('#result:not([hidden])')) {
                const t = n.textContent.trim();
                if (t) out.push(t);
            }
        });
        add('#prompt');
        add('#hint .hint-move'); add('#hint .hint-why');
        add('#toasts .toast');
        add('#touch b'); add('#touch span');
        add('#cues'); add('#log li');
        add('#result:not([hidden]) .result-end');
        add('#result:not([hidden]) #payments th');
        add('#result:not([hidden]) #payments td.why');
        add('#result:not([hidden]) .payments-box h3');
        return out;
    }""")
    return texts


async def check_korean(page: Page, seen: list[str]) -> None:
    for text in await korean_texts(page):
        seen.append(text)
        assert not english_left(text), text


async def open_korean(browser: Any, base: str, made: dict[str, Any]) -> Page:
    page = await new_page(browser, DESKTOP, lang="ko-KR")
    await page.goto(base + "/")
    await page.evaluate("() => { localStorage.setItem('hoola.lang', 'ko');"
                        " localStorage.setItem('hoola.hints', '1'); }")
    await _open_seat(page, base, made)
    return page


async def refuse_a_meld(page: Page, state: dict[str, Any]) -> bool:
    """Pick two cards that make no meld and press Meld: the refusal says why. Whether it
    could be tried now."""
    view = state["view"]
    legal: list[str] = view["legal"]
    if view.get("current") != view.get("player") or not any(" discard " in f" {m} " for m in legal):
        return False
    hand: list[str] = await page.evaluate("window.hoola.slots()")
    melds = [m for m in legal if m.split()[1] == "meld"]
    natural = [c for c in hand if not c.startswith("JK")]
    for a in natural:
        for b in natural:
            if a < b and a[0] != b[0] and a[-1] != b[-1] and \
                    not any(a in m and b in m for m in melds):
                await page.locator(f'#hand .card[data-card="{a}"]').first.click()
                await page.locator(f'#hand .card[data-card="{b}"]').first.click()
                # A greyed button still answers a click: with why it is refused.
                await page.click('#verbs button[data-verb="meld"]', force=True)
                toast = page.locator("#toasts .toast").last
                await toast.wait_for(timeout=LONG)
                text = await toast.text_content() or ""
                await page.click("#clear")
                assert "조합이 아닙니다" in text or "첫 등록" in text or "고른 조합" in text, text
                return True
    return False


async def play_korean(page: Page, choose: Any, seen: list[str], refused: list[bool],
                      shot: str, limit: int = 400) -> dict[str, Any]:
    hinted = False
    for _ in range(limit):
        state = await wait_ready(page)
        if not hinted and state["status"] == "playing":
            # The expert's hint: the move and its reason, both in Korean.
            await page.wait_for_selector("#hint .hint-why", timeout=LONG)
            await page.screenshot(path=str(SHOTS / shot))
            hinted = True
        await check_korean(page, seen)
        if state["status"] == "over" or state["deal"] > 1:
            return state
        if not refused and await refuse_a_meld(page, state):
            refused.append(True)
            await check_korean(page, seen)
            state = await page.evaluate("window.hoola.state()")
        await make_move(page, choose(state))
    raise AssertionError("the deal did not end")


def sedma_choice(state: dict[str, Any]) -> str | None:
    legal: list[str] = state["view"]["legal"]
    stops = [m for m in legal if m.split()[1] == "stop"]
    return stops[0] if stops else legal[0]


@pytest.mark.parametrize("game", ["hoola", "kalookie", "sedma"])
def test_korean_page_has_no_english_engine_text(server: tuple[str, Store], game: str) -> None:
    base, _ = server
    run(_korean(base, game))


async def _korean(base: str, game: str) -> None:
    async with async_playwright() as p:
        browser = await launch(p)
        if game == "sedma":
            made = _table(base, "capture", [{"bot": "medium"}], seed=4, preset="sedma")
        else:
            made = _table(base, game, [{"bot": "medium"}], seed=7)
        page = await open_korean(browser, base, made)
        seen: list[str] = []
        refused: list[bool] = []
        choose = {"hoola": hoola_choice, "kalookie": kalookie_choice, "sedma": sedma_choice}[game]
        await play_korean(page, choose, seen, refused, f"words-{game}-ko-play.png")
        await page.wait_for_selector("#result:not([hidden]) #payments tr.payment", timeout=LONG)
        await check_korean(page, seen)
        await no_card_codes(page)
        # The settlement is the result's table, not an empty box on the table; no pile of no
        # cards shows a count of 0.
        assert not await page.locator('#middle-zones [data-zone="settlement"]').count()
        zero = await page.eval_on_selector_all(
            "#middle-zones .zone-pile", "zs => zs.filter((z) => !z.querySelector('.card') && "
            "z.querySelector('.zone-count')).length")
        assert zero == 0
        await page.screenshot(path=str(SHOTS / f"words-{game}-ko.png"))
        assert len(seen) > 5, seen
        if game != "sedma":
            assert refused, "a refused Meld was tried and said why"
            # The settlement table's amounts are the record's.
            result = result_of(base, made["table_id"])
            rows = await page.eval_on_selector_all(
                "#payments tr.payment",
                "rows => rows.map(r => [r.dataset.payer, r.dataset.payee, r.dataset.amount])")
            names = (await page.evaluate("window.hoola.state()"))["names"]
            got = {name: Fraction(0) for name in names}
            for payer, payee, amount in rows:
                if payer != "":
                    got[names[int(payer)]] -= Fraction(amount)
                if payee != "":
                    got[names[int(payee)]] += Fraction(amount)
            assert got == {n: Fraction(str(result["payments"].get(n, 0))) for n in names}
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        await browser.close()


# -- the score columns after a hand --------------------------------------------------------

def test_capture_result_columns_agree_with_the_score_table(server: tuple[str, Store]) -> None:
    base, _ = server
    run(_capture_columns(base))


async def _capture_columns(base: str) -> None:
    async with async_playwright() as p:
        browser = await launch(p)
        page = await new_page(browser, DESKTOP)
        made = _table(base, "capture", [{"bot": "medium"}], seed=9, preset="sedma")
        await _open_seat(page, base, made)
        for _ in range(200):
            state = await wait_ready(page)
            if state["status"] == "over" or state["deal"] > 1:
                break
            await make_move(page, sedma_choice(state))
        await page.wait_for_selector("#result:not([hidden]) #settlement tr[data-row]", timeout=LONG)
        assert await page.text_content("#title") == "Sedma"
        # "Game points (to 10)" in the deal's table is the score table's, the hand counted.
        column = await page.eval_on_selector_all(
            "#settlement tr[data-row]",
            "rows => rows.map(r => r.querySelector('td[data-label^=\"Game points (to\"]')"
            ".textContent)")
        board = await page.eval_on_selector_all(
            "#result-body > h3 + .scoreboard tr[data-row]",
            "rows => rows.map(r => r.querySelector('td').textContent)")
        assert column == board, (column, board)
        scored = await page.eval_on_selector_all(
            "#payments tr.payment", "rows => rows.map(r => Number(r.dataset.amount))")
        assert sum(scored) == sum(int(v) for v in column)
        await browser.close()


# -- the plain bugs ------------------------------------------------------------------------

def test_keys_and_buttons_do_what_they_say(server: tuple[str, Store]) -> None:
    base, _ = server
    run(_keys(base))


async def _keys(base: str) -> None:
    async with async_playwright() as p:
        browser = await launch(p)
        page = await new_page(browser, DESKTOP)
        made = _table(base, "hoola", [{"bot": "medium"}], seed=21)
        await _open_seat(page, base, made)
        for _ in range(40):  # to the page's own turn, before its draw
            state = await wait_ready(page)
            view = state["view"]
            if view["current"] == view["player"] and not view["drawn"]:
                break
            await make_move(page, hoola_choice(state))
        else:
            raise AssertionError("the page's turn never came")
        counter = state["counter"]
        # Enter with nothing picked plays nothing and says what to do, on every turn.
        await page.keyboard.press("Enter")
        toast = page.locator("#toasts .toast").last
        await toast.wait_for()
        assert "Pick cards first" in (await toast.text_content() or "")
        assert await page.evaluate("window.hoola.counter()") == counter
        # Picking a card does not grey Draw out: a draw uses no card of the hand.
        first = (await page.evaluate("window.hoola.slots()"))[0]
        await page.locator(f'#hand .card[data-card="{first}"]').first.click()
        draw = page.locator('#verbs button[data-verb="draw"]')
        assert await draw.get_attribute("data-legal") == "true"
        await page.click("#clear")
        # After a top-bar button, Enter plays the picked cards, not the button again.
        await draw.click()
        await page.wait_for_function("c => window.hoola.counter() !== c", arg=counter,
                                     timeout=LONG)
        await wait_ready(page)
        state = await page.evaluate("window.hoola.state()")
        # Discard with nothing picked asks for the card instead of listing the whole hand.
        await page.click('#verbs button[data-verb="discard"]')
        toast = page.locator("#toasts .toast", has_text="Pick the card to discard")
        await toast.wait_for()
        assert await page.locator("#chooser").is_hidden()
        hints = await page.locator("#hint-toggle").get_attribute("aria-pressed")
        await page.click("#hint-toggle")  # a top-bar button, focused after the click
        assert await page.locator("#hint-toggle").get_attribute("aria-pressed") != hints
        discard = next(m for m in state["view"]["legal"] if m.split()[1] == "discard")
        card = discard.split()[2]
        slots: list[str] = await page.evaluate("window.hoola.slots()")
        await page.keyboard.press(str(slots.index(card) + 1))  # picked by its key
        await page.wait_for_selector(f'#hand .card.picked[data-card="{card}"]')
        counter = state["counter"]
        await page.keyboard.press("Enter")
        await page.wait_for_function("c => window.hoola.counter() !== c", arg=counter,
                                     timeout=LONG)
        assert await page.locator("#hint-toggle").get_attribute("aria-pressed") != hints
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        await browser.close()


def test_a_long_hand_has_keys_for_every_card(server: tuple[str, Store]) -> None:
    base, _ = server
    run(_long_hand(base))


async def _long_hand(base: str) -> None:
    async with async_playwright() as p:
        browser = await launch(p)
        page = await new_page(browser, {"width": 390, "height": 844})  # two rows of cards
        made = _table(base, "kalookie", [{"bot": "medium"}], seed=5)
        await _open_seat(page, base, made)
        await wait_ready(page)
        slots: list[str] = await page.evaluate("window.hoola.slots()")
        assert len(slots) >= 13
        keys = await page.locator("#hand .card .key").all_text_contents()
        assert len(keys) == len(slots)
        assert keys[10] == "\u21e71"
        # No card hides a key label: the second row stands clear of the first one's labels.
        overlaps = await page.evaluate("""() => {
            const cards = [...document.querySelectorAll('#hand .card')];
            const bad = [];
            cards.forEach((c, i) => {
                const k = c.querySelector('.key').getBoundingClientRect();
                cards.forEach((o, j) => {
                    if (i === j) return;
                    const r = o.getBoundingClientRect();
                    if (k.left < r.right - 1 && k.right > r.left + 1 && k.top < r.bottom - 1 &&
                        k.bottom > r.top + 1) bad.push([i, j]);
                });
            });
            return bad;
        }""")
        assert not overlaps, overlaps
        await page.screenshot(path=str(SHOTS / "kalookie-long-hand.png"))
        # Shift with a digit picks the eleventh card on.
        await page.keyboard.press("Shift+Digit1")
        picked = await page.locator("#hand .card.picked").get_attribute("data-card")
        assert picked == slots[10]
        await browser.close()


def test_kalookie_count_toward_the_initial_meld_across_melds(server: tuple[str, Store]) -> None:
    base, _ = server
    run(_count(base))


async def _count(base: str) -> None:
    async with async_playwright() as p:
        browser = await launch(p)
        page = await new_page(browser, DESKTOP)
        await page.goto(base + "/")
        got = await page.evaluate("""async () => {
            const touch = (await import("/static/js/touches/kalookie.js")).default;
            const moves = await import("/static/js/moves.js");
            const { t } = await import("/static/js/i18n.js");
            await (await import("/static/js/words.js")).wordsReady;
            const read = (s) => moves.readMove(s, "Me");
            const view = { player: 0, current: 0, drawn: true, phase: "play",
                           opened: [false, false], rules: "british" };
            const say = { key: "kalookie.opening", args: { value: "0", need: "40" } };
            const base = { view, table: { moment: { say } }, lang: "en", t, options: null,
                moves: [read("Me meld 9s Ts Js"), read("Me meld Kh Kd Kc"),
                        read("Me discard 2c")] };
            const label = (picked) => {
                const box = touch.panel({ ...base, picked });
                return box.querySelector(".open-label").dataset.value;
            };
            return {
                none: label([]),
                one: label(["9s", "Ts", "Js"]),
                two: label(["9s", "Ts", "Js", "Kh", "Kd", "Kc"]),
                refused: touch.whyNot("meld", { ...base, picked: ["2h", "3h", "4h"] }),
                several: touch.several("meld", { ...base,
                    picked: ["9s", "Ts", "Js", "Kh", "Kd", "Kc"] }).text,
            };
        }""")
        assert got["none"] == "0"
        assert got["one"] == "29"
        assert got["two"] == "59"
        assert got["refused"] == "Your melds add up to 9 of 40"
        assert got["several"] == "Me meld 9s Ts Js"
        await browser.close()


def test_pages_for_a_wrong_address_and_an_invite(server: tuple[str, Store]) -> None:
    base, _ = server
    run(_pages(base))


async def _pages(base: str) -> None:
    async with async_playwright() as p:
        browser = await launch(p)
        page = await new_page(browser, DESKTOP)
        await page.goto(f"{base}/table/no-such-table")
        await page.wait_for_selector("#no-table h1")
        assert await page.text_content("#no-table h1") == "No such table"
        assert await page.get_attribute("#no-table a", "href") == "/"
        assert await page.locator("#layout").is_hidden()
        # The join page shows the join form alone.
        made = _table(base, "hoola", [{}], seed=2)
        await page.goto(f"{base}/join/{made['table_id']}?invite={made['invite']}")
        await page.wait_for_selector("#join:not([hidden])")
        assert await page.locator("#create").is_hidden()
        assert await page.locator("#tables").is_hidden()
        # The lobby's form: presets by their titles, their options as a form, the JSON box
        # for experts folded away, bots by level only.
        await page.goto(base + "/")
        await page.wait_for_selector('#c-rule-options .option-row[data-option="knock_limit"]',
                                     state="attached")
        assert not await page.locator("#c-rules").evaluate("d => d.open")
        await page.click("#c-rules > summary")  # the options, with what each means
        doc = await page.text_content('.option-row[data-option="knock_limit"] .option-doc') or ""
        assert "knock" in doc.lower()
        titles = await page.locator("#c-preset option").all_text_contents()
        assert "Battle rules" in titles and not {"pagat", "hertzog", "glenn"} & set(titles)
        assert not await page.locator("#c-json").evaluate("d => d.open")
        bots = " ".join(await page.locator("#c-seats option").all_text_contents() +
                        await page.locator("#practice-level option").all_text_contents())
        assert "Master" in bots and "ismcts" not in bots and "expert" not in bots
        await page.screenshot(path=str(SHOTS / "lobby-options.png"), full_page=True)
        await page.select_option("#c-preset", "glenn")
        await page.wait_for_function(
            "() => document.querySelector('#opt-glenn_melds') &&"
            " document.querySelector('#opt-glenn_melds').checked")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        await browser.close()


# -- the lobby's form under Korean -----------------------------------------------------------

def test_korean_lobby_form_has_no_english_engine_text(server: tuple[str, Store]) -> None:
    base, _ = server
    run(_korean_lobby(base))


async def lobby_form_texts(page: Page) -> list[str]:
    """The form's meanings: the preset's and every option's (the option's name is its key, as
    the JSON box and the records spell it)."""
    texts: list[str] = await page.evaluate("""() => [
        document.querySelector('#c-meaning').textContent.trim(),
        ...[...document.querySelectorAll('#c-rule-options .option-doc')]
            .map((n) => n.textContent.trim()),
        ...[...document.querySelectorAll('#c-preset option')].map((n) => n.textContent.trim()),
    ].filter((t) => t)""")
    return texts


async def _korean_lobby(base: str) -> None:
    async with async_playwright() as p:
        browser = await launch(p)
        page = await new_page(browser, DESKTOP)
        await page.goto(base + "/")
        await page.wait_for_selector('#c-rule-options[data-preset] .option-row', state="attached")
        english = await lobby_form_texts(page)
        assert any(english_left(t) for t in english), english  # the English page is English
        # The language switch rewrites the form's meanings at once.
        await page.click("#lang")
        await page.wait_for_function(
            "() => /[\\uac00-\\ud7a3]/.test(document.querySelector('.option-doc').textContent)")
        seen: list[str] = []
        games = await page.eval_on_selector_all("#c-game option", "os => os.map(o => o.value)")
        for game in games:
            await page.select_option("#c-game", game)
            presets = await page.eval_on_selector_all("#c-preset option",
                                                      "os => os.map(o => o.value)")
            for preset in presets:
                await page.select_option("#c-preset", preset)
                await page.wait_for_selector(
                    f'#c-rule-options[data-preset="{preset}"] .option-row', state="attached")
                for text in await lobby_form_texts(page):
                    seen.append(text)
                    assert not english_left(text), (game, preset, text)
        assert len(seen) > 100, seen
        # A page opened in Korean is Korean from the start.
        page = await new_page(browser, DESKTOP, lang="ko-KR")
        await page.goto(base + "/")
        await page.wait_for_selector('#c-rule-options[data-preset] .option-row', state="attached")
        for text in await lobby_form_texts(page):
            assert not english_left(text), text
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        await browser.close()

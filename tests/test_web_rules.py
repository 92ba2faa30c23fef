"""The rules primer page (``/rules/{game}?preset=``): the engine's how-to-play in English and
``web/howto.ko.json`` in Korean for every game and preset, the preset picker, the language
toggle, and the links to it from the lobby and a table's top bar (Debian's Chromium, driven by
Playwright, against ``hoola serve`` on a loopback port; every wait is on the page's state)."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from hoola.core.registry import game_names, get_game
from hoola.server.pages import WEB

KOREAN = json.loads((WEB / "howto.ko.json").read_text(encoding="utf-8"))
HANGUL = re.compile(r"[\uac00-\ud7a3]")
ENGLISH_RUN = re.compile(r"\b[A-Za-z]{2,}(?:[\s,'’]+[A-Za-z]{2,}){3,}")
"""Four English words in a row: a sentence left untranslated."""
NUMBER = re.compile(r"\d+")
CHROMIUM = shutil.which("chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
LONG = 90_000  # ms: the longest any one wait may take on a loaded machine


def every_primer() -> list[tuple[str, str, str]]:
    """(game, preset, the engine's English primer) for every game and preset."""
    return [(name, p.name, get_game(name).how_to_play(p.name))
            for name in game_names() for p in get_game(name).presets()]


def korean(game: str, preset: str) -> str | None:
    texts = KOREAN.get(game, {})
    found: str | None = texts.get(preset, texts.get("*"))
    return found


def is_korean(text: str) -> bool:
    return bool(HANGUL.search(text)) and ENGLISH_RUN.search(text) is None


# -- the Korean primers as data ------------------------------------------------------------

def test_korean_primers_cover_every_game_and_preset() -> None:
    """Every game and preset has a Korean primer, Korean throughout, naming every number its
    English one does; presets that share an English primer share the Korean one, and those
    that differ differ; no entry names an unknown game or preset."""
    english_for: dict[str, str] = {}
    for game, preset, english in every_primer():
        text = korean(game, preset)
        assert text, f"no Korean primer for {game} {preset}"
        assert is_korean(text), (game, preset, ENGLISH_RUN.search(text))
        missing = set(NUMBER.findall(english)) - set(NUMBER.findall(text))
        assert not missing, (game, preset, missing)
        assert english_for.setdefault(text, english) == english, (game, preset)
    assert len(english_for) == len({english for _, _, english in every_primer()})
    for game, texts in KOREAN.items():
        names = {p.name for p in get_game(game).presets()}
        assert set(texts) - {"*"} <= names, (game, set(texts) - names)


# -- the page in the browser ---------------------------------------------------------------

@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``hoola serve``'s app under uvicorn in a thread, on a free loopback port."""
    pytest.importorskip("playwright")
    pytest.importorskip("uvicorn")
    assert CHROMIUM is not None, "Debian's chromium is missing (apt-get install -y chromium)"
    from server_client import serve_in_thread

    with serve_in_thread(f"sqlite:///{tmp_path_factory.mktemp('rules') / 'web.db'}") as live:
        yield f"http://127.0.0.1:{live.port}"


async def _browser(p: Any) -> Any:
    return await p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)


async def _page(browser: Any, locale: str) -> Any:
    context = await browser.new_context(locale=locale)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    return page


async def _primer(page: Any, preset: str, lang: str) -> str:
    """The primer's text once the page shows ``preset``'s in ``lang``."""
    box = page.locator(f'#r-howto[data-preset="{preset}"][lang="{lang}"]')
    await box.wait_for(timeout=LONG)
    text: str = await box.inner_text()
    return text


def test_every_primer_in_english_and_korean(base: str) -> None:
    """Each game's page under each preset shows the engine's English primer, and in Korean a
    Korean one; the toggle and the picker switch them in place."""
    from playwright.async_api import async_playwright

    async def go() -> None:
        async with async_playwright() as p:
            browser = await _browser(p)
            en = await _page(browser, "en-US")
            ko = await _page(browser, "ko-KR")
            for game, preset, english in every_primer():
                url = f"{base}/rules/{game}?preset={preset}"
                await en.goto(url)
                assert await _primer(en, preset, "en") == english, (game, preset)
                await ko.goto(url)
                text = await _primer(ko, preset, "ko")
                assert is_korean(text), (game, preset, text)
                assert text == korean(game, preset)
            # The toggle relabels in place; the picker loads another preset and names it.
            await en.goto(f"{base}/rules/sedma")
            await _primer(en, "sedma", "en")
            assert await en.inner_text("#r-title") == "Sedma"
            await en.click("#lang")
            assert await _primer(en, "sedma", "ko") == korean("capture", "sedma")
            assert "세드마" in await en.inner_text("#r-title")
            await en.select_option("#r-preset", "ristikontra")
            assert await _primer(en, "ristikontra", "ko") == korean("capture", "ristikontra")
            assert en.url.endswith("/rules/capture?preset=ristikontra")
            await en.click("#lang")
            assert (await _primer(en, "ristikontra", "en")
                    == get_game("capture").how_to_play("ristikontra"))
            for page in (en, ko):
                assert not page.errors, page.errors
            await browser.close()

    asyncio.run(go())


def test_lobby_and_table_link_to_the_primer(base: str) -> None:
    """The lobby's link beside the game and rules picker opens the chosen preset's primer in a
    new tab; a table's top bar links to its game and preset's."""
    from playwright.async_api import async_playwright

    made = httpx.post(f"{base}/api/tables", timeout=30, json={
        "game": "hoola", "preset": "online-missions", "name": "Me", "seats": [{"bot": "easy"}],
        "public": False})
    assert made.status_code == 200, made.text
    tid = made.json()["table_id"]

    async def go() -> None:
        async with async_playwright() as p:
            browser = await _browser(p)
            page = await _page(browser, "en-US")
            await page.goto(base + "/")
            await page.wait_for_selector('#c-game option[value="kalookie"]', state="attached",
                                         timeout=LONG)
            await page.select_option("#c-game", "kalookie")
            await page.select_option("#c-preset", "swedish")
            link = page.locator('#c-howto[href="/rules/kalookie?preset=swedish"]')
            await link.wait_for(timeout=LONG)
            async with page.context.expect_page() as opened:
                await link.click()
            primer = await opened.value
            assert (await _primer(primer, "swedish", "en")
                    == get_game("kalookie").how_to_play("swedish"))
            assert await primer.inner_text("#r-title") == "Kalookie"
            assert await page.get_attribute("#practice-howto", "href") == "/rules/hoola"
            await page.goto(f"{base}/table/{tid}")
            howto = page.locator('#howto[href="/rules/hoola?preset=online-missions"]')
            await howto.wait_for(timeout=LONG)
            assert await howto.get_attribute("target") == "_blank"
            assert not page.errors, page.errors
            await browser.close()

    asyncio.run(go())

"""Accounts in the browser, played for real: Chromium (Debian's, driven by Playwright) against
``hoola serve`` on a loopback port.

A new player signs up in the lobby, makes a rated Hoola table against two bots with the create
form's "rated" switch, plays it to its end by clicking, and finds the rating it moved on the
profile page and on the leaderboard (in English and Korean); signing out and in again from the
lobby's bar keeps the account. Waits are on the page's own state, never a fixed sleep.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")
pytest.importorskip("argon2")

from playwright.async_api import Page, async_playwright

from hoola.server.accounts import fast_hasher
from server_client import serve_in_thread
from test_web_browser import hoola_choice, play_seat

CHROMIUM = shutil.which("chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
DESKTOP = {"width": 1280, "height": 800}
LONG = 90_000  # ms: the longest any one wait may take on a loaded machine
PASSWORD = "a long enough secret"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """``hoola serve``'s app under uvicorn in a thread, on a free loopback port."""
    assert CHROMIUM is not None, "Debian's chromium is missing (apt-get install -y chromium)"
    with serve_in_thread(f"sqlite:///{tmp_path / 'web-accounts.db'}",
                         hasher=fast_hasher()) as live:
        yield f"http://127.0.0.1:{live.port}"


async def sign(page: Page, button: str, name: str) -> None:
    """Sign up or in from the lobby's bar; waits for the bar to name the account."""
    await page.click(button)
    await page.fill("#account-user", name)
    await page.fill("#account-password", PASSWORD)
    await page.click("#account-submit")
    await page.wait_for_selector(f"#account-name:text-is('{name}')", timeout=LONG)


async def rating_cell(page: Page, selector: str) -> str:
    await page.wait_for_selector(selector, timeout=LONG)
    return (await page.locator(selector).inner_text()).strip()


def test_sign_up_play_a_rated_game_and_see_the_rating(server: str) -> None:
    asyncio.run(_rated_game(server))


async def _rated_game(base: str) -> None:
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        context = await browser.new_context(viewport=DESKTOP, locale="en-US")
        page = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        await page.goto(f"{base}/")
        await page.wait_for_selector("#account-signup", timeout=LONG)
        await sign(page, "#account-signup", "Quinn")

        # A rated Hoola table of three against two beginners, one deal, quick timers.
        await page.select_option("#c-game", "hoola")
        await page.select_option("#c-players", "3")
        for q in (1, 2):
            await page.select_option(f"select[name='seat-{q}']", "beginner")
        await page.check("#c-rated")
        assert await page.input_value("#c-deals") == "1"  # the switch asks for a number of deals
        await page.click("#create details:has(#c-claim) > summary")
        await page.fill("#c-claim", "2")  # time enough to click a claim on a loaded machine
        await page.fill("#c-delay", "0")
        await page.click("#c-submit")
        await page.wait_for_url("**/table/*", timeout=LONG)
        tid = page.url.rsplit("/", 1)[-1]
        await page.click("#start", timeout=LONG)
        final: dict[str, Any] = await play_seat(page, hoola_choice)
        assert final["status"] == "over"

        # The profile: one rated game, the rating moved from the start (0.0?), provisional.
        await page.goto(f"{base}/profile")
        shown = await rating_cell(page, "#p-ratings tr[data-game='hoola'][data-players='3'] "
                                        "td.rating")
        api = httpx.get(f"{base}/api/accounts/Quinn", timeout=30).json()
        [rating] = api["ratings"]
        assert shown == rating["text"] and shown.endswith("?")
        assert rating["games"] == 1 and rating["mu"] != 25.0 and shown != "0.0?"
        await page.wait_for_selector(f"#p-recent tr[data-table='{tid}']", timeout=LONG)

        # The leaderboard shows it, in English and in Korean.
        await page.goto(f"{base}/leaderboard/hoola?players=3")
        assert await rating_cell(page, "#lb-rows tr[data-name='Quinn'] td.rating") == shown
        await page.click("#lang")
        await page.wait_for_selector(".topbar .title:text-is('순위표')", timeout=LONG)
        await page.click("#lang")
        await page.wait_for_selector(".topbar .title:text-is('Leaderboard')", timeout=LONG)

        # Out and in again from the lobby's bar: the same account.
        await page.goto(f"{base}/")
        await page.wait_for_selector("#account-signout", timeout=LONG)
        await page.click("#account-signout")
        await page.wait_for_selector("#account-signin", timeout=LONG)
        await sign(page, "#account-signin", "Quinn")
        assert not errors, errors
        await browser.close()

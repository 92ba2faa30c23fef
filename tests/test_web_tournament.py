"""A tournament in the browser (Debian's Chromium driven by Playwright): made from the lobby's
form with bots taking every place, started on its page, followed live to its end; the standings,
the rounds' tables and the record's link are on the page, and the record verifies. A second page
in Korean follows the same tournament. Waits are on the page's own state, never fixed sleeps."""

from __future__ import annotations

import re

import httpx
import pytest

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")

from playwright.async_api import async_playwright

import test_web_browser
from hoola.core.records import verify_text
from test_web_browser import DESKTOP, LONG, PHONE, launch, new_page, run

# The browser tests' server (the fixture "server", a module's own) and its Chromium check.
server = test_web_browser.server
_chromium = test_web_browser._chromium


def test_a_tournament_made_in_the_lobby_is_watched_to_its_end(server: tuple[str, object]) -> None:
    base, _store = server

    async def main() -> None:
        async with async_playwright() as p:
            browser = await launch(p)
            page = await new_page(browser, DESKTOP)
            await page.goto(base + "/")
            await page.click("#tn-make summary")
            await page.fill("#tn-name", "Cup")
            # Blackpool's format offers only the game that has Blackpool's rules.
            await page.select_option("#tn-format", "blackpool")
            options = await page.eval_on_selector_all("#tn-game option",
                                                      "os => os.map(o => o.value)")
            assert options == ["kalookie"], options
            await page.select_option("#tn-format", "swiss")
            await page.select_option("#tn-game", "hoola")
            await page.fill("#tn-entrants", "4")
            await page.select_option("#tn-bots", "beginner")  # random moves: quick
            await page.fill("#tn-size", "2")
            await page.fill("#tn-rounds", "2")
            await page.fill("#tn-deals", "1")
            await page.check("#tn-quick")
            await page.click("#tn-submit")
            await page.wait_for_url(re.compile(r"/tournament/[^/]+$"), timeout=LONG)
            tid = page.url.rsplit("/", 1)[1]
            await page.wait_for_selector("#tn-start", state="visible", timeout=LONG)
            assert "Cup" in await page.inner_text("#tn-name")

            watcher = await new_page(browser, PHONE, lang="ko-KR")
            await watcher.goto(f"{base}/tournament/{tid}")
            await watcher.wait_for_selector("body[data-status=open]", timeout=LONG)
            assert "참가 접수 중" in await watcher.inner_text("#tn-status")

            await page.click("#tn-start")
            await page.wait_for_selector("body[data-status=over]", timeout=LONG)
            winner = await page.inner_text("#tn-winner")
            assert "beginner-1" in await page.inner_text("#tn-standings")
            rows = page.locator("#tn-standings tr")
            assert await rows.count() == 4
            first = await rows.first.get_attribute("data-name")
            assert first is not None and first in winner
            cards = page.locator(".tn-table")
            assert await cards.count() == 4  # two rounds of two tables of two
            assert await page.locator(".tn-table[data-status=over]").count() == 4
            assert await page.locator(".tn-table .button", has_text="Replay").count() == 4
            href = await page.get_attribute("#tn-record", "href")
            assert href == f"/api/tournaments/{tid}/record"

            await watcher.wait_for_selector("body[data-status=over]", timeout=LONG)
            assert "우승" in await watcher.inner_text("#tn-winner")
            assert "순위" in await watcher.inner_text("#tn-standings-panel h2")
            assert await watcher.locator(".stage", has_text="라운드").count() == 2
            said = await watcher.inner_text("#tn-events")
            assert "토너먼트 시작" in said and "우승" in said and "wins" not in said
            assert page.errors == [] and watcher.errors == []  # type: ignore[attr-defined]
            await browser.close()

        async with httpx.AsyncClient(base_url=base) as http:
            r = await http.get(f"/api/tournaments/{tid}/record")
            assert r.status_code == 200, r.text
            verdict = verify_text(r.text)
            assert verdict.ok, verdict.problems

    run(main())


def test_a_blackpool_tournament_of_sixteen_is_watched_to_its_final(
        server: tuple[str, object]) -> None:
    """Kalookie's Blackpool tournament with bots in every place: the page shows the qualifying
    and buy-in tables, the semi-finals and the final, the pot, and the winner."""
    base, _store = server
    spec = {"format": "blackpool", "game": "kalookie", "entrants": 16, "bots": "random",
            "options": {"target": 30}, "bot_delay": 0, "claim_seconds": 0.2,
            "bot_reaction": [0, 0.02], "turn_seconds": 120, "grace_seconds": 0}

    async def main() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            made = (await http.post("/api/tournaments", json=spec)).json()
            tid = made["id"]
            async with async_playwright() as p:
                browser = await launch(p)
                page = await new_page(browser, DESKTOP)
                await page.goto(f"{base}/tournament/{tid}")
                await page.wait_for_selector("body[data-status=open]", timeout=LONG)
                r = await http.post(f"/api/tournaments/{tid}/start",
                                    headers={"Authorization": f"Bearer {made['token']}"})
                assert r.status_code == 200, r.text
                await page.wait_for_selector("body[data-status=over]", timeout=4 * LONG)
                stages = await page.locator("#tn-rounds .stage").all_inner_texts()
                assert stages[0] == "Qualifying" and stages[-1] == "Final", stages
                assert "Semi-final" in stages, stages
                assert await page.locator("#tn-standings tr").count() == 16
                winner = await page.get_attribute("#tn-standings tr >> nth=0", "data-name")
                assert winner and winner in await page.inner_text("#tn-winner")
                assert re.search(r"\d", await page.inner_text("#tn-pot"))
                await browser.close()
            r = await http.get(f"/api/tournaments/{tid}/record")
            verdict = verify_text(r.text)
            assert verdict.ok, verdict.problems
            assert 'tournament = "blackpool"' in r.text

    run(main())

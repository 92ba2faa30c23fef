"""External bots at the server's tables: a program speaking the bot protocol (docs/protocol.md)
named at ``hoola serve --external NAME=COMMAND`` takes a seat like any bot; one that breaks the
protocol is replaced by the expert and the game goes on."""

from __future__ import annotations

import logging
import shlex
import sys
from pathlib import Path

import httpx
import pytest

from hoola.core.records import verify_text
from server_client import (
    Client,
    create_table,
    play,
    random_legal,
    record,
    run,
    serve_in_thread,
    start,
)

ROOT = Path(__file__).resolve().parent.parent
RANDOM = f"{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'examples' / 'random_bot.py'))} 7"
BROKEN = f"{shlex.quote(sys.executable)} -c \"print('not json', flush=True)\""


def test_an_external_bot_plays_a_seat_and_a_broken_one_is_replaced(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import random

    externals = {"rnd": RANDOM, "broken": BROKEN}
    with serve_in_thread(f"sqlite:///{tmp_path / 't.db'}", externals=externals) as live:
        async def main() -> None:
            async with httpx.AsyncClient(base_url=live.http, timeout=60) as http:
                bad = await http.post("/api/tables", json={
                    "game": "sedma", "name": "Host", "seats": [{"bot": "nobody"}]})
                assert bad.status_code == 400 and bad.json()["code"] == "unknown-bot"
                assert "external bots: rnd, broken" in bad.json()["message"]
                table = await create_table(http, "sedma", [{"bot": "rnd"}, {"bot": "broken"},
                                                           {"bot": "random"}], deals=1, seed=5)
                client = await Client.open(live.ws(table["table_id"]),
                                           {"type": "hello", "token": table["token"]})
                await start(http, table)
                last = await play(client, random_legal(random.Random(1)))
                await client.close()
                text = await record(http, table["table_id"])
                assert verify_text(text).ok, verify_text(text).line()
                assert last["status"] == "over"
                # The external program played its own seat: its moves are in the record.
                assert '"Bot1 play ' in text and '"Bot2 play ' in text

        with caplog.at_level(logging.WARNING, logger="hoola.server"):
            run(main())
    failed = [r.getMessage() for r in caplog.records if "failed" in r.getMessage()]
    # Only the broken program was replaced (once); the other played its seat to the end.
    assert len(failed) == 1 and "seat 2" in failed[0], failed

"""The trained network at the server's tables: for every shipped policy, a person and ``learned``
bots play a deal of its game, preset and size through real sockets to a record that verifies,
the bots deciding by the network (its scores asked) rather than a stand-in, and the table telling
every client the seat's kind. The server runs in this process under uvicorn."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("numpy")

from hoola.bots import learned
from hoola.core.records import verify_text
from server_client import (
    Client,
    Live,
    create_table,
    no_internals,
    play,
    record,
    run,
    serve_in_thread,
    start,
)

SHIPPED = [tuple(re.fullmatch(r"(\w+)-([\w-]+)-(\d)p", name).groups())  # type: ignore[union-attr]
           for name in learned.shipped()]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    path = tmp_path_factory.mktemp("learned") / "tables.db"
    with serve_in_thread(f"sqlite:///{path}") as server:
        yield server


@pytest.mark.parametrize(("family", "preset", "players"), SHIPPED)
def test_a_learned_bot_plays_a_server_table_by_its_network(
        live: Live, family: str, preset: str, players: str, monkeypatch: pytest.MonkeyPatch
        ) -> None:
    asked: list[int] = []
    scores = learned.Policy.logits

    def counted(self: learned.Policy, *args: Any, **kwargs: Any) -> Any:
        asked.append(len(args[1]))  # the legal ids it scored
        return scores(self, *args, **kwargs)

    monkeypatch.setattr(learned.Policy, "logits", counted)
    game = preset if family == "capture" else family  # a capture game is named by its preset
    spec: dict[str, Any] = {} if family == "capture" else {"preset": preset}

    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            table = await create_table(http, game, [{"bot": "learned"}] * (int(players) - 1),
                                       deals=1, seed=11, **spec)
            tid = table["table_id"]
            info = (await http.get(f"/api/tables/{tid}")).json()
            assert [s["bot"] for s in info["seats"][1:]] == ["learned"] * (int(players) - 1)
            host = await Client.open(live.ws(tid), {"token": table["token"]})
            await start(http, table)
            await play(host)
            verdict = verify_text(await record(http, tid))
            assert verdict.ok, verdict.problems
            no_internals(host.log)
            await host.close()

    run(main())
    assert asked and all(n > 1 for n in asked), "the network chose the bots' moves"

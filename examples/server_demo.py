#!/usr/bin/env python3
"""Two people and two bots play whole games on ``hoola serve``, as four clients would.

Run from the repository root (the server's extra installed: ``pip install -e ".[server]"``)::

    python examples/server_demo.py                  # starts a server with a throwaway database
    python examples/server_demo.py --url 127.0.0.1:8000   # or plays on a running `hoola serve`
    python examples/server_demo.py --quick          # no pauses: the three games in seconds

For each game (a Hoola match of ``--deals`` deals, a British Kalookie game, a Sedma game) it does
what four people at four screens would: Ann creates the table (the host takes the first seat),
gives two seats to the server's expert bots, and sends the invite to Bob, who joins by it; both
open their own WebSocket, each seeing only what its seat may see, and play from their own view's
legal moves (a scripted person picks among them at random, and claims a Hoola discard now and
then: the "thank you" race against the bots is real). It prints every claim and each deal's
score as the table announces it, the final scoreboard, then downloads the game's record and has
``hoola verify`` check it against the engine. The exit status is 0 when every record verifies.

The protocol (``docs/server.md``): ``hello`` with the seat's token, then ``act`` or ``pass`` with
the state counter the decision was made on; the server answers with ``state`` messages.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Game:
    """One game to play: what the table is made with."""

    title: str
    game: str
    preset: str | None = None
    deals: int | None = None
    options: dict[str, Any] = field(default_factory=dict)


def games(deals: int, kalookie_deals: int | None, sedma_deals: int | None) -> list[Game]:
    """Hoola, Kalookie and Sedma, as this demo plays them."""
    return [Game(f"Hoola, a match of {deals} deals", "hoola", "pagat", deals),
            Game("Kalookie, a British game" + (f" of {kalookie_deals} deals" if kalookie_deals
                                               else " to its end"),
                 "kalookie", "british", kalookie_deals),
            Game("Sedma, a game" + (f" of {sedma_deals} deals" if sedma_deals else
                                    " to its end"), "capture", "sedma", sedma_deals)]


def line(scoreboard: dict[str, Any] | None) -> str:
    """The running score, one line: each score row with every seat's figure."""
    if not scoreboard:
        return ""
    names = scoreboard["names"]
    rows = []
    for score in scoreboard["scores"]:
        rows.append(f"{score['label']}: " + ", ".join(f"{n} {v}" for n, v in
                                                       zip(names, score["values"], strict=False)))
    return "; ".join(rows)


class Person:
    """A scripted person on its own socket: acts when its seat is asked."""

    def __init__(self, name: str, seat: int, token: str, rng: random.Random,
                 scores: bool) -> None:
        self.name, self.seat, self.token, self.rng = name, seat, token, rng
        self.scores = scores  # whether this one prints the running score
        self.connected = asyncio.Event()
        self.last: dict[str, Any] = {}
        self.decisions = 0
        self.tokens, self.stamp = 20.0, time.monotonic()

    async def send(self, ws: Any, message: dict[str, Any]) -> None:
        """Send, keeping under the server's limit of 10 messages a second (burst 30)."""
        now = time.monotonic()
        self.tokens = min(20.0, self.tokens + (now - self.stamp) * 8)
        self.stamp = now
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / 8)
            self.tokens, self.stamp = 1.0, time.monotonic()
        self.tokens -= 1
        await ws.send(json.dumps(message))

    async def play(self, ws_url: str) -> None:
        """Until the table is over."""
        async with websockets.connect(ws_url, open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            acted = -1
            seen_deal = 0
            sent: dict[str, Any] = {}
            async for raw in ws:
                m = json.loads(raw)
                kind = m["type"]
                if kind == "error" and m["code"] == "rate-limited" and sent:
                    await asyncio.sleep(0.5)  # refused unread: the same decision again
                    await self.send(ws, sent)
                    continue
                if kind == "error":  # a decision refused: say so and wait for the next state
                    print(f"    {self.name}: the server refused: {m['message']}")
                    continue
                if kind == "claim":
                    print(f"    {self.name}'s claim {m['action']!r} {m['result']} "
                          f"(the table took {m['winner']!r})")
                    continue
                if kind != "state":
                    continue
                self.last = m
                if all(s["connected"] for s in m["seats"] if s["kind"] == "person"):
                    self.connected.set()
                if self.scores and m["deal"] > seen_deal and m["deal"] > 1:
                    print(f"  after deal {m['deal'] - 1}: {line(m['scoreboard'])}")
                seen_deal = max(seen_deal, m["deal"])
                if m["status"] == "over":
                    return
                if not m["asked"] or acted == m["counter"]:
                    continue
                acted = m["counter"]
                sent = self.choose(m)
                await self.send(ws, sent)
                self.decisions += 1

    def choose(self, m: dict[str, Any]) -> dict[str, Any]:
        """A legal move of its own view at random; a claim (where it may pass) one time in
        three."""
        legal = m["view"]["legal"]
        counter = m["counter"]
        if m["can_pass"] and (not legal or self.rng.random() < 2 / 3):
            return {"type": "pass", "counter": counter}
        return {"type": "act", "action": self.rng.choice(legal), "counter": counter}


async def play_game(http: httpx.AsyncClient, base: str, g: Game, args: argparse.Namespace,
                    out: Path, rng: random.Random) -> bool:
    """One table, created, joined, played to its end; its record verified."""
    print(f"\n== {g.title}")
    spec = {"game": g.game, "preset": g.preset, "options": g.options, "name": "Ann",
            "seats": [{"bot": args.bot, "name": "Cleo"}, {},
                      {"bot": args.bot, "name": "Dan"}],
            "deals": g.deals, "claim_seconds": args.claim_seconds,
            "turn_seconds": args.turn_seconds, "bot_delay": args.bot_delay,
            "bot_reaction": [args.bot_delay, args.bot_delay * 2], "seed": rng.randrange(2**62)}
    host = answer(await http.post("/api/tables", json=spec), "make the table")
    tid = host["table_id"]
    print(f"  table {tid}: Ann hosts, Cleo and Dan are {args.bot} bots, Bob joins by the invite")
    bob = answer(await http.post(f"/api/tables/{tid}/join",
                                 json={"invite": host["invite"], "name": "Bob"}), "join")
    people = [Person("Ann", 0, host["token"], random.Random(rng.random()), True),
              Person("Bob", bob["seat"], bob["token"], random.Random(rng.random()), False)]
    ws_url = f"ws://{base}/ws/{tid}"
    tasks = [asyncio.create_task(p.play(ws_url)) for p in people]
    # The host starts once both people are at the table (else a bot would stand in at once).
    await asyncio.wait_for(asyncio.gather(*(p.connected.wait() for p in people)), 60)
    answer(await http.post(f"/api/tables/{tid}/start",
                           headers={"Authorization": f"Bearer {host['token']}"}), "start")
    started = time.monotonic()
    await asyncio.wait_for(asyncio.gather(*tasks), args.timeout)
    final = people[0].last
    print(f"  over after {final['deal']} deal(s), {time.monotonic() - started:.1f} s; "
          f"Ann decided {people[0].decisions} times, Bob {people[1].decisions}")
    print(f"  final scoreboard: {line(final['scoreboard'])}")
    r = await http.get(f"/api/tables/{tid}/record")
    if r.status_code != 200:
        answer(r, "download the record")
    path = out / f"{g.game}-{g.preset}-{tid}.toml"
    path.write_text(r.text)
    done = subprocess.run([sys.executable, "-m", "hoola", "verify", str(path)],
                          capture_output=True, text=True, check=False,
                          env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))
    print(f"  record {path}: hoola verify says: {done.stdout.strip().splitlines()[0]}")
    return done.returncode == 0


def answer(r: httpx.Response, doing: str) -> Any:
    """The server's JSON answer; its refusal, in one line, ends the demo."""
    try:
        body = r.json()
    except ValueError:
        body = {"message": r.text[:200]}
    if r.status_code != 200:
        raise SystemExit(f"could not {doing}: {body.get('message', body)}")
    return body


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def server(workdir: Path) -> Any:
    """``hoola serve`` on a free loopback port with its SQLite file in ``workdir``."""
    port = free_port()
    log = (workdir / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "hoola", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", f"sqlite:///{workdir / 'demo.db'}"], stdout=log, stderr=subprocess.STDOUT,
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))
    try:
        deadline = time.monotonic() + 60
        while True:  # until it answers on its port
            if process.poll() is not None:
                raise SystemExit("hoola serve ended: "
                                 + (workdir / "server.log").read_text()[-1000:])
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"http://127.0.0.1:{port}/api/games").status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise SystemExit("hoola serve did not start in 60 s")
            time.sleep(0.05)
        print(f"hoola serve on 127.0.0.1:{port} (tables in {workdir / 'demo.db'})")
        yield f"127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(30)
        log.close()


async def run(base: str, args: argparse.Namespace, out: Path) -> bool:
    rng = random.Random(args.seed)
    ok = True
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=60) as http:
        for g in games(args.deals, args.kalookie_deals, args.sedma_deals):
            ok = await play_game(http, base, g, args, out, rng) and ok
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=None, metavar="HOST:PORT",
                        help="a running hoola serve (default: start one)")
    parser.add_argument("--deals", type=int, default=3, help="deals of the Hoola match (3)")
    parser.add_argument("--kalookie-deals", type=int, default=None,
                        help="stop Kalookie after this many deals (default: its end)")
    parser.add_argument("--sedma-deals", type=int, default=None,
                        help="stop Sedma after this many deals (default: its end)")
    parser.add_argument("--bot", default="expert", help="the bots' kind (expert)")
    parser.add_argument("--quick", action="store_true",
                        help="no pauses: bots move at once, windows close when all decided")
    parser.add_argument("--bot-delay", type=float, default=0.1,
                        help="a bot's pause before moving, seconds (0.1)")
    parser.add_argument("--claim-seconds", type=float, default=2.0,
                        help="how long a claim window stays open at most (2)")
    parser.add_argument("--turn-seconds", type=float, default=60.0,
                        help="a person's time before a bot plays for them (60)")
    parser.add_argument("--out", type=Path, default=None, help="where records are saved "
                                                               "(default: a temporary folder)")
    parser.add_argument("--timeout", type=float, default=600.0, help="a game's time limit")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    if args.quick:
        args.bot_delay = 0.0
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    with tempfile.TemporaryDirectory(prefix="hoola-demo-") as tmp:
        out = args.out or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        if args.url:
            try:
                ok = asyncio.run(run(args.url, args, out))
            except (httpx.TransportError, OSError, websockets.WebSocketException) as exc:
                raise SystemExit(f"cannot play on {args.url}: {exc or type(exc).__name__}") \
                    from None
        else:
            with server(Path(tmp)) as base:
                ok = asyncio.run(run(base, args, out))
    print("\nevery record verifies" if ok else "\nA RECORD DID NOT VERIFY")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""No card leaks through the server: every message to every seat and spectator, over many deals
of every game, checked against the truth rebuilt from the finished record.

Every seat is a person played by a script (random legal moves, claims now and then) on its own
socket, and a spectator watches. Afterwards the game is replayed from its seed and the record's
actions (the replay must give the very record the server wrote), which gives, for every state
counter, each seat's hand. A card string in another seat's hand that seat ``s`` cannot know (never
in its own hand this deal, never named by an action, never face up on the table for all) must
not appear anywhere in a message to ``s``; a spectator must see no such card of any hand. Claim
windows must not tell who else may claim (the moment lists only the seats that must act, and the
seat itself).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from hoola.core.records import parse_toml, verify_text
from hoola.core.registry import get_game, resolve
from hoola.server import socket as play_socket
from server_client import (
    TOLERATE,
    Chooser,
    Client,
    Live,
    join,
    no_internals,
    play,
    record,
    run,
    serve_in_thread,
    start,
)

NAMES = ["Host", "P1", "P2", "P3", "P4", "P5"]
# (game or preset, seats, options, deals at least): some 15 deals of Hoola and of the capture
# games, Kalookie's long deals fewer.
TABLES = [("hoola", 4, {}, 6), ("hoola", 3, {"claims": "battle-next-priority"}, 6),
          ("hoola", 2, {}, 4), ("kalookie", 3, {}, 3), ("sedma", 2, {}, 4), ("hola", 4, {}, 4),
          ("ristikontra", 2, {}, 3), ("sedmice", 4, {}, 4)]
JOKER_AS = re.compile(r"=[^\s\"',\]]+")  # "JK=7h": a joker standing for 7h is not the card 7h


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    """One in-process server for the module."""
    path = tmp_path_factory.mktemp("leaks") / "tables.db"
    with serve_in_thread(f"sqlite:///{path}") as server:
        yield server


@dataclass
class Played:
    """A finished table: its spec, the messages each seat and the spectator received."""

    tid: str
    game: str
    options: dict[str, Any]
    seed: int
    names: list[str]
    record: str
    seats: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    spectator: list[dict[str, Any]] = field(default_factory=list)
    secrets: tuple[str, ...] = ()  # the server's random strings: the table id, invite, tokens


async def play_table(live: Live, http: httpx.AsyncClient, game: str, n: int,
                     options: dict[str, Any], deals: int, seed: int) -> Played:
    spec = {"game": game, "name": NAMES[0], "seats": [{}] * (n - 1), "options": options,
            "deals": deals, "seed": seed, "claim_seconds": 2, "bot_delay": 0,
            "bot_reaction": [0, 0.05], "turn_seconds": 300}
    r = await http.post("/api/tables", json=spec)
    assert r.status_code == 200, r.text
    table = r.json()
    tid = table["table_id"]
    tokens = {0: table["token"]}
    for q in range(1, n):
        tokens[q] = (await join(http, table, NAMES[q]))["token"]
    seats = {q: await Client.open(live.ws(tid), {"token": tokens[q]}, pace=False)
             for q in range(n)}
    watcher = await Client.open(live.ws(tid), {"invite": table["invite"]}, pace=False)
    await start(http, table)
    rng = random.Random(seed)
    await asyncio.gather(*(play(seats[q], eager(random.Random(rng.random())), tolerate=TOLERATE)
                           for q in range(n)),
                         watcher.state(lambda m: m["status"] == "over"))
    text = await record(http, tid)
    for c in (*seats.values(), watcher):
        await c.close()
    return Played(tid, game, options, seed, NAMES[:n], text,
                  {q: c.log for q, c in seats.items()}, watcher.log,
                  (tid, table["invite"], *tokens.values()))


def eager(rng: random.Random) -> Chooser:
    """Random legal moves, but mostly the longest (melds, claims: deals end sooner); in a window,
    a pass more often than not."""
    def choose(message: dict[str, Any]) -> str | None:
        legal = [str(a) for a in message["view"]["legal"]]
        if message["can_pass"] and (not legal or rng.random() < 0.6):
            return None
        if rng.random() < 0.8:
            longest = max(len(a.split()) for a in legal)
            legal = [a for a in legal if len(a.split()) == longest]
        return rng.choice(legal)
    return choose


@dataclass
class Truth:
    """What the rules let each seat know at one state counter."""

    over: bool
    hidden: dict[int, set[str]]  # seat -> cards of other hands it may not know
    hidden_public: set[str]  # cards of any hand a spectator may not know
    mandatory: frozenset[int]  # seats that must act (not merely may claim)
    actors: frozenset[int]


def cards_in(text: str) -> set[str]:
    """The words of a text (card strings among them)."""
    return set(re.findall(r"[A-Za-z0-9]+", JOKER_AS.sub("", text)))


def shown_by_rules(state: Any, seat: int) -> list[int]:
    """The other hands the rules show ``seat``: its partners' in Sedmice once the stock is gone
    (the capture games' ``partner_sees_hand``)."""
    rules = state.rules
    if not getattr(rules, "partner_sees_hand", False) or state.stock or state.teams is None:
        return []
    return [q for q in state.sides[state.side_of[seat]] if q != seat]


def truth_of(played: Played) -> dict[int, Truth]:
    """Replay the game from its seed and the record's actions: the truth at every counter."""
    game, preset = resolve(played.game)
    rules = game.rules(preset, played.options)
    match = game.new_match(rules, played.names, seed=played.seed)
    data = parse_toml(played.record)
    n = len(played.names)
    out: dict[int, Truth] = {}
    counter = 1
    for k, deal in enumerate(data["deal"]):
        state = match.new_deal()
        public: set[str] = set()
        seen: dict[int, set[str]] = {q: set() for q in range(n)}
        actions = list(deal["actions"])
        for i in range(len(actions) + 1):
            hands = {q: set(state.view(q).to_json()["hand"] or ()) for q in range(n)}
            tables = [state.view(q).table() for q in range(n)]
            for zone in tables[0].zones:
                if zone.kind == "hand" or zone.cards is None:
                    continue
                if all(t.zone(zone.id).cards == zone.cards for t in tables[1:]):
                    public |= cards_in(" ".join(zone.cards))
            for q in range(n):
                seen[q] |= {c.split("=")[0] for c in hands[q]}
                for partner in shown_by_rules(state, q):
                    seen[q] |= hands[partner]
            all_cards = set().union(*hands.values())
            hidden = {s: {c for t in range(n) if t != s for c in hands[t]} - seen[s] - public
                      for s in range(n)}
            actors = state.actors()
            mandatory = frozenset(q for q in actors if not state.view(q).can_pass)
            if tables[0].moment.window is not None:
                # A window the table shows holds every seat that may let it pass: each may see
                # itself in it, whether or not it can claim (that alone stays hidden).
                actors |= {q for q in range(n) if state.view(q).can_pass}
            out[counter] = Truth(state.is_over, hidden, all_cards - public, mandatory, actors)
            if i < len(actions):
                public |= cards_in(actions[i])
                state.apply(state.parse(actions[i]))
                counter += 1
        assert state.is_over, f"deal {k + 1} of the record does not end"
        match.finish_deal()
        counter += 1  # the next deal is a new state
    rebuilt = game.record_text(match, f"hoola server table {played.tid}")
    assert rebuilt == played.record, "the replay from the seed is not the server's record"
    return out


def leaks(messages: list[dict[str, Any]], truth: dict[int, Truth], seat: int | None,
          secrets: tuple[str, ...] = ()) -> list[str]:
    """Every hidden card (and hidden claimant) a seat's (or the spectator's) messages show.

    ``secrets`` are random strings the server made (a table id such as ``Ah-B_uBW2EIQ``): they
    are taken out before the words are read, so that a piece of one is not mistaken for a card."""
    found = []
    counter = 0
    for m in messages:
        if m["type"] == "state":
            counter = m["counter"]
        # A claim's outcome comes just before the state it made: judge it by that state.
        t = truth.get(counter + 1 if m["type"] == "claim" else counter)
        if t is None or t.over or m["type"] == "welcome" or (
                m["type"] == "state" and m["status"] != "playing"):
            continue
        hidden = t.hidden_public if seat is None else t.hidden[seat]
        text = json.dumps(m)
        for noise in secrets:
            text = text.replace(noise, " ")
        words = cards_in(text)
        shown = words & {c.split("=")[0] for c in hidden}
        if shown:
            found.append(f"counter {counter}: {sorted(shown)} in {str(m)[:300]}")
        if m["type"] == "state" and m["moment"] is not None:
            allowed = t.mandatory | ({seat} & t.actors if seat is not None else set())
            extra = set(m["moment"]["actors"]) | set(m["table"]["moment"]["actors"])
            if extra - allowed:
                found.append(f"counter {counter}: claimants {sorted(extra - allowed)} shown to "
                             f"{seat}")
    return found


def test_no_message_shows_a_card_its_receiver_may_not_see(
        live: Live, monkeypatch: pytest.MonkeyPatch) -> None:
    # The scripts act as fast as the server answers: lift the rate limit for them.
    monkeypatch.setattr(play_socket, "RATE", 1e6)
    monkeypatch.setattr(play_socket, "BURST", 10**6)

    async def main() -> list[Played]:
        async with httpx.AsyncClient(base_url=live.http, timeout=60) as http:
            done: list[Played] = []

            async def game_of(k: int, name: str, n: int, options: dict[str, Any],
                              deals: int) -> None:
                total, seed = 0, 1000 * k
                while total < deals:  # a match may end before its deals (a target reached)
                    played = await play_table(live, http, name, n, options, deals - total, seed)
                    done.append(played)
                    total += parse_toml(played.record)["deal"].__len__()
                    seed += 1

            await asyncio.gather(*(game_of(k, *spec) for k, spec in enumerate(TABLES)))
            return done

    started = time.monotonic()
    tables = run(main(), timeout=240)
    played_in = time.monotonic() - started
    problems: list[str] = []
    checked = {"deals": 0, "messages": 0}
    for played in tables:
        verdict = verify_text(played.record)
        assert verdict.ok, verdict.problems
        truth = truth_of(played)
        checked["deals"] += len(parse_toml(played.record)["deal"])
        for seat, log in [*played.seats.items(), (None, played.spectator)]:
            no_internals(log)
            checked["messages"] += len(log)
            problems += [f"{played.game} table {played.tid} seat {seat}: {p}"
                         for p in leaks(log, truth, seat, played.secrets)]
    assert not problems, "\n".join(problems[:20])
    assert checked["deals"] >= sum(t[3] for t in TABLES)
    claims = sum(1 for p in tables for log in p.seats.values() for m in log
                 if m["type"] == "claim")
    assert claims > 0, "no claim was contested: the windows went untested"
    print(checked, "claims", claims, f"played in {played_in:.1f} s, checked in "
          f"{time.monotonic() - started - played_in:.1f} s")


def test_the_checker_finds_a_leak() -> None:
    """The checker itself: a message showing another seat's hidden card is caught."""
    game = get_game("hoola")
    rules = game.rules(None, {})
    names = ["A", "B"]
    match = game.new_match(rules, names, seed=1)
    state = match.new_deal()
    mine = state.view(0).to_json()
    theirs = state.view(1).to_json()["hand"]
    truth = {1: Truth(False, {0: set(theirs), 1: set(mine["hand"])}, set(theirs) | set(
        mine["hand"]), frozenset({0}), frozenset({0, 1}))}
    table = {"moment": {"actors": [0]}, "log": []}
    clean = {"type": "state", "counter": 1, "status": "playing", "view": mine,
             "moment": {"actors": [0]}, "table": table}
    assert leaks([clean], truth, 0) == []
    dirty = dict(clean, table=dict(table, log=[f"B drew {theirs[0]}"]))
    assert leaks([dirty], truth, 0)
    assert leaks([dict(clean, moment={"actors": [0, 1]})], truth, 0)
    assert leaks([dict(clean, table=dict(table, moment={"actors": [1]}))], truth, None)
    assert leaks([clean], truth, None)  # a spectator sees no hand
    # A table id whose first piece reads as a hidden card is not a leak, but the card is.
    tid = f"{theirs[0]}-B_uBW2EIQ"
    assert leaks([dict(clean, table_id=tid)], truth, 0)  # the checker alone cannot tell
    assert leaks([dict(clean, table_id=tid)], truth, 0, (tid,)) == []
    assert leaks([dict(dirty, table_id=tid)], truth, 0, (tid,))

"""Accounts, rated tables and ratings on ``hoola serve``, through real HTTP and WebSocket clients.

- Signing up, in and out: the session cookie's flags, the session and the password never stored
  as they are (nor logged), a garbage cookie, a wrong password and a malformed request refused in
  one line and changing nothing; sign-ins limited per address and per account, table creation per
  account, requests from another site's page refused.
- A rated game against bots played to its end over a WebSocket moves the account's rating; the
  profile and the leaderboard show it; the ratings recomputed from the stored results, and rated
  again from the stored matches, are the same.
- A seat of a rated table is its account's: another account's session (or none) cannot play it
  or leave it with its token; a client cannot send a result; leaving a rated game is last place.
- A guest plays at once and keeps the game and its rating by signing up.
- The places of a match: money, partners as one side, Kalookie's pool by who went out when.
"""

from __future__ import annotations

import logging
import random
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")
pytest.importorskip("openskill")

import httpx
import sqlalchemy as sa
import websockets
from fastapi.testclient import TestClient

from hoola.bots.random import RandomBot
from hoola.core.driver import play_deal
from hoola.core.registry import get_game
from hoola.server import ratings
from hoola.server import store as st
from hoola.server.accounts import COOKIE, fast_hasher
from hoola.server.app import create_app
from hoola.server.limits import Limits
from hoola.server.store import Store
from server_client import (
    FAST,
    WAIT,
    Client,
    bearer,
    no_internals,
    play,
    run,
    serve_in_thread,
    start,
)

warnings.filterwarnings("ignore", message=".*httpx2.*")

PASSWORD = "correct horse battery"
RATED = {"game": "hoola", "rated": True, "deals": 1, "seats": [{"bot": "beginner"},
                                                              {"bot": "easy"}], **FAST}


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'accounts.db'}"


def client(db_url: str, limits: Limits | None = None, where: str = "192.0.2.1",
           https: bool = False, **options: Any) -> TestClient:
    app = create_app(db_url=db_url, limits=limits, hasher=fast_hasher(), **options)
    return TestClient(app, client=(where, 50000),
                      base_url="https://testserver" if https else "http://testserver")


def count(db_url: str, table: sa.Table) -> int:
    store = Store(db_url)
    try:
        with store.reading("a count") as conn:
            return int(conn.execute(sa.select(sa.func.count()).select_from(table)).scalar() or 0)
    finally:
        store.close()


def one_line(answer: httpx.Response, status: int, code: str) -> None:
    """A refusal: the status, the code and one sentence, no traceback."""
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["code"] == code, body
    assert "\n" not in body["message"] and 0 < len(body["message"]) < 200
    no_internals([body])


# -- accounts and sessions ----------------------------------------------------------------------

def test_sign_up_in_and_out_with_a_cookie_session(db: str) -> None:
    with client(db, https=True) as http:
        made = http.post("/api/account/signup", json={"name": "Alice", "password": PASSWORD})
        assert made.status_code == 200, made.text
        assert made.json()["account"]["name"] == "Alice"
        cookie = made.headers["set-cookie"]
        assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "Secure" in cookie
        assert "samesite=lax" in cookie.lower()
        assert http.get("/api/account/me").json()["account"]["name"] == "Alice"
        out = http.post("/api/account/signout")
        assert out.status_code == 200 and COOKIE in out.headers["set-cookie"]
        assert http.get("/api/account/me").json() == {"account": None}
        back = http.post("/api/account/signin", json={"name": "alice", "password": PASSWORD})
        assert back.status_code == 200 and back.json()["account"]["name"] == "Alice"
        assert http.get("/api/account/me").json()["account"]["name"] == "Alice"
    with client(db) as plain_http:  # over http the cookie is not Secure (a LAN game night)
        made = plain_http.post("/api/account/signup", json={"name": "Bob", "password": PASSWORD})
        assert "Secure" not in made.headers["set-cookie"]


def test_passwords_and_sessions_are_never_kept_or_logged_as_they_are(
        db: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    secret = "Sesame-Open-4471"
    with client(db) as http:
        made = http.post("/api/account/signup", json={"name": "Carol", "password": secret})
        token = made.cookies[COOKIE]
        http.post("/api/account/signin", json={"name": "Carol", "password": secret + "x"})
        http.post("/api/account/signin", json={"name": "Carol", "password": secret})
        http.post("/api/account/signin", json={"name": "Carol", "password": [secret]})
        http.post("/api/account/signup", json={"name": "Ca", "password": secret * 30})
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("accounts.db*"))
    for clear in (secret, token):
        assert clear.encode() not in stored
        assert clear not in caplog.text
    assert b"$argon2id$" in stored


def test_bad_input_gets_one_line_and_changes_nothing(db: str) -> None:
    with client(db) as http:
        http.post("/api/account/signup", json={"name": "Dave", "password": PASSWORD})
        http.post("/api/account/signout")
        before = count(db, st.accounts), count(db, st.sessions)
        for garbage in ("garbage", "A" * 43, "%00" * 40, "x" * 5000):
            http.cookies.set(COOKIE, garbage)
            assert http.get("/api/account/me").json() == {"account": None}
        one_line(http.post("/api/tables", json=RATED), 401, "not-signed-in")
        http.cookies.clear()
        one_line(http.post("/api/account/signin", json={"name": "Dave", "password": "nope-nope"}),
                 401, "bad-sign-in")
        one_line(http.post("/api/account/signin", json={"name": "Nobody", "password": PASSWORD}),
                 401, "bad-sign-in")
        one_line(http.post("/api/account/signin", content=b'{"name": "Dave", "pass'), 422,
                 "bad-request")
        one_line(http.post("/api/account/signup", json={"name": "Dave", "password": PASSWORD}),
                 400, "name-taken")
        one_line(http.post("/api/account/signup", json={"name": "DAVE", "password": PASSWORD}),
                 400, "name-taken")
        one_line(http.post("/api/account/signup", json={"name": "x y", "password": PASSWORD}),
                 400, "bad-name")
        one_line(http.post("/api/account/signup", json={"name": "Guest-1", "password": PASSWORD}),
                 400, "bad-name")
        one_line(http.post("/api/account/signup", json={"name": "Erin", "password": "short"}),
                 400, "bad-password")
        one_line(http.post("/api/account/signup", json={"name": "Erin", "password": 12345678}),
                 422, "bad-request")
        one_line(http.get("/api/accounts/nobody"), 404, "no-account")
        one_line(http.get("/api/leaderboard/chess"), 400, "no-game")
        assert (count(db, st.accounts), count(db, st.sessions)) == before


def test_sign_in_is_limited_per_account_and_per_address(db: str) -> None:
    limits = Limits(account_signins_per_minute=0.01, account_signins_burst=3,
                    signins_per_minute=0.01, signins_burst=5)
    with client(db, limits, where="192.0.2.10") as first:
        first.post("/api/account/signup", json={"name": "Frank", "password": PASSWORD})
        first.post("/api/account/signup", json={"name": "Grace", "password": PASSWORD})
        for _ in range(3):
            one_line(first.post("/api/account/signin",
                                json={"name": "Frank", "password": "guess-guess"}),
                     401, "bad-sign-in")
        # The account's share is spent: even the right password waits, from any address.
        refused = first.post("/api/account/signin", json={"name": "Frank", "password": PASSWORD})
        one_line(refused, 429, "rate-limited")
        assert int(refused.headers["Retry-After"]) >= 1
        first.post("/api/account/signin", json={"name": "Grace", "password": PASSWORD})
        # Five tries from this address: the sixth, to any account, waits.
        first.post("/api/account/signin", json={"name": "Grace", "password": PASSWORD})
        one_line(first.post("/api/account/signin", json={"name": "Grace", "password": PASSWORD}),
                 429, "rate-limited")
        other = TestClient(first.app, client=("192.0.2.11", 50000))
        one_line(other.post("/api/account/signin", json={"name": "Frank", "password": PASSWORD}),
                 429, "rate-limited")
        assert other.post("/api/account/signin",
                          json={"name": "Grace", "password": PASSWORD}).status_code == 200


def test_table_creation_is_limited_per_account(db: str) -> None:
    limits = Limits(waiting_tables_per_address=2)
    unrated = {"game": "hoola", "seats": [{"bot": "expert"}]}
    with client(db, limits, where="192.0.2.20") as home:
        home.post("/api/account/signup", json={"name": "Heidi", "password": PASSWORD})
        for _ in range(2):
            assert home.post("/api/tables", json=unrated).status_code == 200
        away = TestClient(home.app, client=("192.0.2.21", 50000), cookies=home.cookies)
        assert away.get("/api/account/me").json()["account"]["name"] == "Heidi"
        before = count(db, st.tables)
        one_line(away.post("/api/tables", json=RATED), 429, "rate-limited")
        assert count(db, st.tables) == before
        stranger = TestClient(home.app, client=("192.0.2.21", 50000))
        stranger.post("/api/account/signup", json={"name": "Ivan", "password": PASSWORD})
        assert stranger.post("/api/tables", json=RATED).status_code == 200


def test_requests_from_another_sites_page_are_refused(db: str) -> None:
    with client(db) as http:
        evil = {"Origin": "https://evil.example"}
        one_line(http.post("/api/account/signup", json={"name": "Judy", "password": PASSWORD},
                           headers=evil), 403, "bad-origin")
        assert count(db, st.accounts) == 0
        http.post("/api/account/signup", json={"name": "Judy", "password": PASSWORD},
                  headers={"Origin": "http://testserver"})
        one_line(http.post("/api/tables", json=RATED, headers=evil), 403, "bad-origin")
        assert count(db, st.tables) == 0


def test_a_rated_table_takes_only_what_a_rating_may_come_from(db: str) -> None:
    with client(db, externals={"mine": "python examples/random_bot.py"}) as http:
        http.post("/api/account/signup", json={"name": "Karl", "password": PASSWORD})
        one_line(http.post("/api/tables", json={**RATED, "seed": 7}), 400, "rated-seed")
        one_line(http.post("/api/tables", json={**RATED, "options": {"knock_limit": 5}}), 400,
                 "rated-options")
        one_line(http.post("/api/tables", json={**RATED, "deals": None}), 400, "rated-deals")
        one_line(http.post("/api/tables", json={**RATED, "seats": [{"bot": "mine"}]}), 400,
                 "rated-bot")
        made = http.post("/api/tables", json={**RATED, "name": "Someone",
                                              "seats": [{}, {"bot": "medium"}]}).json()
        assert made["rated"] and made["name"] == "Karl"  # the seat is the account's name
        one_line(http.post(f"/api/tables/{made['table_id']}/seats/1/bot", json={"bot": "mine"},
                           headers=bearer(made["token"])), 400, "rated-bot")
        listed = http.get(f"/api/tables/{made['table_id']}").json()
        assert listed["rated"] is True
        join = {"invite": made["invite"], "name": "Lena"}
        stranger = TestClient(http.app)
        one_line(stranger.post(f"/api/tables/{made['table_id']}/join", json=join), 401,
                 "not-signed-in")
        one_line(http.post(f"/api/tables/{made['table_id']}/join", json=join), 400,
                 "already-seated")
        assert [s["kind"] for s in http.get(f"/api/tables/{made['table_id']}").json()["seats"]] \
            == ["person", "empty", "bot"]


# -- rated games over WebSocket -------------------------------------------------------------------

async def seat_socket(live: Any, tid: str, token: str,
                      session: str | None) -> tuple[Client, dict[str, Any]]:
    """A seat's socket, with a session cookie (or none), and its answer to the hello: the
    welcome or an error."""
    headers = {"Cookie": f"{COOKIE}={session}"} if session else {}
    ws = await websockets.connect(live.ws(tid), max_size=None, open_timeout=WAIT,
                                  additional_headers=headers)
    sock = Client(ws)
    await sock.send({"type": "hello", "token": token})
    return sock, await sock.expect(lambda m: m["type"] in ("welcome", "error"))


async def sign_up(http: httpx.AsyncClient, name: str) -> str:
    r = await http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return str(r.cookies[COOKIE])


async def rated_game(live: Any, http: httpx.AsyncClient, session: str) -> str:
    """A rated Hoola table against two bots, played to its end by its account; its id."""
    r = await http.post("/api/tables", json=RATED)
    assert r.status_code == 200, r.text
    made = r.json()
    await start(http, made)
    sock, welcome = await seat_socket(live, made["table_id"], made["token"], session)
    assert welcome["type"] == "welcome", welcome
    over = await play(sock)
    await sock.close()
    assert over["status"] == "over"
    return str(made["table_id"])


def stored_ratings(store: Store) -> dict[tuple[str, str, int], tuple[float, float, int]]:
    with store.reading("the ratings") as conn:
        return {(r.account_id, r.game, r.players): (r.mu, r.sigma, r.games)
                for r in conn.execute(st.ratings.select())}


def test_a_rated_game_against_bots_moves_the_rating_and_recomputes_the_same(db: str) -> None:
    async def main() -> None:
        with serve_in_thread(db, hasher=fast_hasher()) as live:
            async with httpx.AsyncClient(base_url=live.http) as http:
                session = await sign_up(http, "Mallory")
                first = await rated_game(live, http, session)
                await rated_game(live, http, session)
                profile = (await http.get("/api/accounts/Mallory")).json()
                board = (await http.get("/api/leaderboard/hoola")).json()
            store = live.store
            assert store is not None
            [rating] = profile["ratings"]
            assert (rating["game"], rating["players"], rating["games"]) == ("hoola", 3, 2)
            assert rating["mu"] != ratings.DEFAULT.mu and rating["sigma"] < ratings.DEFAULT.sigma
            assert rating["provisional"] and rating["text"].endswith("?")
            assert profile["games"] == 2
            game = next(g for g in profile["recent"] if g["table_id"] == first)
            assert game["rated"] and 1 <= game["place"] <= 3 and "change" in game
            assert board["players"] == 3
            assert [(row["name"], row["text"]) for row in board["rows"]] == \
                [("Mallory", rating["text"])]
            # The ratings again from the stored results, in order: the same.
            again = ratings.recompute(store)
            kept = stored_ratings(store)
            assert kept.keys() == again.keys()
            for key, (mu, sigma, games) in kept.items():
                skill, n = again[key]
                assert (skill.mu, skill.sigma, n) == pytest.approx((mu, sigma, games))
            # And from the stored matches themselves: results and ratings gone, rated again.
            with store.writing("a test's reset") as conn:
                conn.execute(st.results.delete())
                conn.execute(st.ratings.delete())
            assert ratings.catch_up(store) == 2
            rated_again = stored_ratings(store)
            assert rated_again.keys() == kept.keys()
            for key, value in kept.items():
                assert rated_again[key] == pytest.approx(value)
    run(main())


def test_a_game_ended_but_not_rated_is_rated_at_the_next_start(db: str) -> None:
    """A process stopped between a rated game's last action and its rating (here: the rating
    taken away after): the next process rates it from the stored actions as it starts."""
    async def main() -> dict[tuple[str, str, int], tuple[float, float, int]]:
        with serve_in_thread(db, hasher=fast_hasher()) as live:
            async with httpx.AsyncClient(base_url=live.http) as http:
                await rated_game(live, http, await sign_up(http, "Sybil"))
            assert live.store is not None
            kept = stored_ratings(live.store)
            with live.store.writing("a test's reset") as conn:
                conn.execute(st.results.delete())
                conn.execute(st.ratings.delete())
        with serve_in_thread(db, hasher=fast_hasher()) as again:
            assert again.store is not None
            assert count(db, st.results) == 1
            assert stored_ratings(again.store) == kept
        return kept
    assert len(run(main())) == 1


def test_a_session_cannot_act_for_another_account_nor_forge_a_result(db: str) -> None:
    async def main() -> None:
        with serve_in_thread(db, hasher=fast_hasher()) as live:
            async with httpx.AsyncClient(base_url=live.http) as alice, \
                    httpx.AsyncClient(base_url=live.http) as bob:
                mine = await sign_up(alice, "Alice")
                theirs = await sign_up(bob, "Bob")
                made = (await alice.post("/api/tables", json={
                    **RATED, "turn_seconds": 600, "claim_seconds": 5})).json()
                tid = made["table_id"]
                # Alice's own socket, connected before the start: no stand-in plays for her.
                sock, welcome = await seat_socket(live, tid, made["token"], mine)
                assert welcome["type"] == "welcome", welcome
                await start(alice, made)
                # Alice's seat token with Bob's session, or with none: refused.
                for session in (theirs, None):
                    other, refusal = await seat_socket(live, tid, made["token"], session)
                    assert refusal["code"] == "not-your-seat", refusal
                    await other.closed()
                r = await bob.post(f"/api/tables/{tid}/leave", headers=bearer(made["token"]))
                one_line(r, 403, "not-your-seat")
                # Nor does the expert whisper to anyone at a rated table.
                r = await alice.get(f"/api/tables/{tid}/hint", headers=bearer(made["token"]))
                one_line(r, 400, "rated-hint")
                # Alice's own socket: a made-up result is no message the server takes.
                await sock.state(lambda m: m["status"] == "playing")
                await sock.send({"type": "result", "places": [0, 1, 2], "table_id": tid})
                assert (await sock.error())["code"] == "bad-type"
                await sock.send({"type": "act", "action": "B knock", "counter": 1})
                assert (await sock.error())["code"] in ("not-your-seat", "stale", "bad-action",
                                                        "out-of-turn", "illegal")
                for path in (f"/api/tables/{tid}/result", "/api/results", "/api/ratings"):
                    assert (await alice.post(path, json={"places": [0, 1, 2]})).status_code \
                        in (404, 405)
                # Alice is connected and her turn has ten minutes: nothing has ended the game,
                # and nothing said has rated it.
                assert (await sock.fresh_state())["status"] == "playing"
                assert live.store is not None
                assert stored_ratings(live.store) == {}
                assert count(db, st.results) == 0
                await sock.close()
    run(main())


def test_leaving_a_rated_game_is_last_place(db: str) -> None:
    async def main() -> None:
        with serve_in_thread(db, hasher=fast_hasher()) as live:
            async with httpx.AsyncClient(base_url=live.http) as alice, \
                    httpx.AsyncClient(base_url=live.http) as bob:
                mine = await sign_up(alice, "Alice")
                await sign_up(bob, "Bob")
                made = (await alice.post("/api/tables", json={
                    **RATED, "seats": [{}, {"bot": "medium"}], "turn_seconds": 600})).json()
                tid = made["table_id"]
                joined = await bob.post(f"/api/tables/{tid}/join",
                                        json={"invite": made["invite"], "name": "ignored"})
                assert joined.json()["name"] == "Bob"
                # Alice is connected (her turns wait for her) until she has left.
                sock, welcome = await seat_socket(live, tid, made["token"], mine)
                assert welcome["type"] == "welcome", welcome
                await start(alice, made)
                left = await alice.post(f"/api/tables/{tid}/leave", headers=bearer(made["token"]))
                assert left.status_code == 200 and left.json()["leaving"], left.text
                await sock.close()
                # Nobody is connected: stand-ins play both people's seats to the end.
                watcher = await Client.open(live.ws(tid), {"invite": made["invite"]})
                await watcher.state(lambda m: m["status"] == "over")
                await watcher.close()
            assert live.store is not None
            [(_, result, changes)] = ratings.results(live.store)
            alice_id = next(e["account"] for e in result["entrants"] if e)
            assert result["places"][0] == max(result["places"])  # Alice, seat 0, is last
            assert result["entrants"][0] == {"account": alice_id}
            assert result["entrants"][2] == {"bot": "medium"}
            assert set(changes) == {alice_id, result["entrants"][1]["account"]}
            assert changes[alice_id][2] < changes[alice_id][0]  # her mu fell
    run(main())


def test_a_guest_plays_at_once_and_keeps_the_game_by_signing_up(db: str) -> None:
    async def main() -> None:
        with serve_in_thread(db, hasher=fast_hasher()) as live:
            async with httpx.AsyncClient(base_url=live.http) as http:
                r = await http.post("/api/account/guest")
                guest = r.json()["account"]
                assert guest["guest"] and guest["name"].startswith("Guest-")
                await rated_game(live, http, str(r.cookies[COOKIE]))
                board = (await http.get("/api/leaderboard/hoola")).json()
                assert board["rows"] == []  # guests are not on the leaderboard
                named = await http.post("/api/account/signup",
                                        json={"name": "Nadia", "password": PASSWORD})
                assert named.json()["account"]["id"] == guest["id"]
                profile = (await http.get("/api/accounts/Nadia")).json()
                assert profile["games"] == 1 and profile["ratings"][0]["games"] == 1
                board = (await http.get("/api/leaderboard/hoola")).json()
                assert [row["name"] for row in board["rows"]] == ["Nadia"]
                assert (await http.get(f"/api/accounts/{guest['name']}")).status_code == 404
    run(main())


def test_an_unrated_table_keeps_invite_and_name_play_and_the_history_of_accounts(
        db: str) -> None:
    with client(db) as http:
        made = http.post("/api/tables", json={"game": "hoola", "name": "Host", "seats": [{}]})
        assert made.status_code == 200 and not made.json()["rated"]
        other = TestClient(http.app)
        other.post("/api/account/signup", json={"name": "Oscar", "password": PASSWORD})
        joined = other.post(f"/api/tables/{made.json()['table_id']}/join",
                            json={"invite": made.json()["invite"], "name": "Ozzy"})
        assert joined.status_code == 200 and joined.json()["name"] == "Ozzy"
        store = Store(db)
        try:
            with store.reading("the seats") as conn:
                held = [(r.seat, r.table_id) for r in conn.execute(st.seat_accounts.select())]
        finally:
            store.close()
        assert held == [(1, made.json()["table_id"])]


# -- the places of a match ------------------------------------------------------------------------

def fake_match(ranked: list[int]) -> Any:
    return SimpleNamespace(names=tuple("ABCDEF"[:len(ranked)]), places=lambda: list(ranked))


def test_places_as_the_game_ranks_them_ties_sharing() -> None:
    g = get_game("hoola")
    assert ratings.places(g, g.rules(), fake_match([1, 3, 1, 4])) == [0, 2, 0, 3]
    # One who leaves is last, whatever the game made of them.
    assert ratings.places(g, g.rules(), fake_match([1, 3, 1, 4]), left=[0]) == [3, 1, 0, 2]


def test_partners_share_their_place() -> None:
    g = get_game("capture")
    rules = g.rules("sedma")
    assert ratings.places(g, rules, fake_match([2, 1, 2, 1])) == [1, 0, 1, 0]
    # One who leaves takes the side down with them.
    assert ratings.places(g, rules, fake_match([2, 1, 2, 1]), left=[1]) == [0, 1, 0, 1]


def test_kalookie_places_by_who_went_out_when() -> None:
    g = get_game("kalookie")
    rules = g.rules("british", {"buy_ins": 0, "target": 30})
    match = g.new_match(rules, ["A", "B", "C", "D"], seed=11)
    bots = [RandomBot(q) for q in range(4)]
    while not match.is_over:
        play_deal(match.new_deal(), bots, rng=random.Random(len(match.deals)))
        match.finish_deal()
    ranked = match.places()
    went = {q: hand for hand, deal in enumerate(match.deals) for q in deal.out}
    assert match.winner is not None and ranked[match.winner] == 1 and len(went) == 3
    # The sooner out, the lower the place; nobody out in the same hand ties.
    for q in went:
        for p in went:
            if went[q] < went[p]:
                assert ranked[q] > ranked[p], (went, ranked)
    assert sorted(ranked) == [1, 2, 3, 4]
    # The ratings take the game's places, the winner last if they left.
    assert ratings.places(g, rules, match) == [r - 1 for r in ranked]
    assert ratings.places(g, rules, match, left=[match.winner])[match.winner] == 3
    # Nothing is left unpaid: what each takes away is its money.
    assert match.takings() == match.totals() and sum(match.takings()) == 0


def test_rating_a_ranking_keeps_the_bots_fixed() -> None:
    result = {"places": [1, 0, 2], "teams": [[0], [1], [2]],
              "entrants": [{"account": "a"}, {"bot": "master"}, {"account": "b"}]}
    moved = ratings._rate(result, {})
    assert set(moved) == {"a", "b"}
    assert moved["a"][1].mu > moved["b"][1].mu
    again = ratings._rate(result, {aid: after for aid, (_, after) in moved.items()})
    assert again["a"][0] == moved["a"][1]


def test_new_accounts_and_guests_are_limited_per_address(db: str) -> None:
    limits = Limits(signups_per_minute=0.01, signups_burst=2)
    with client(db, limits, where="192.0.2.30") as http:
        assert http.post("/api/account/guest").status_code == 200
        http.cookies.clear()
        assert http.post("/api/account/signup",
                         json={"name": "Peggy", "password": PASSWORD}).status_code == 200
        http.cookies.clear()
        before = count(db, st.accounts)
        one_line(http.post("/api/account/guest"), 429, "rate-limited")
        one_line(http.post("/api/account/signup", json={"name": "Rupert", "password": PASSWORD}),
                 429, "rate-limited")
        assert count(db, st.accounts) == before
        elsewhere = TestClient(http.app, client=("192.0.2.31", 50000))
        assert elsewhere.post("/api/account/guest").status_code == 200

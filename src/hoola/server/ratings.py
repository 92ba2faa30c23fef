"""Rated tables: each finished match's places, and the ratings they move, per game and table size.

The ratings are openskill's Plackett-Luce, through the lab's own code
(:func:`hoola.sim.ratings.rate_ranking`), on the match's *places*, as the server's engine played
it (never a client's word): the net money of the match (:meth:`~hoola.core.game.Match.totals`),
higher first, equal money a tie; in Kalookie's pool, who went out when (the later, the better; the
winner first); partners (:meth:`~hoola.core.game.Game.teams`) rated as one team. A person who left
the table during the game is placed last (with their partner), whatever the bot that took the
seat made of it.

Bots are anchors: each strength has a fixed rating (:data:`ANCHORS`) that no game moves, so a
rating earned against bots means something. A rating is shown as its ordinal (``mu - 3 sigma``)
with its uncertainty, and is *provisional* ("12.5?") while ``sigma`` is above
:data:`PROVISIONAL_SIGMA`.

Each result is stored with the ratings it moved, in one transaction, once per table (a second
attempt finds it there); :func:`recompute` plays every stored result again in order and gives the
same ratings.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa

from hoola.core.game import Game, Match
from hoola.server import store as st
from hoola.server.store import SeatRow, Store
from hoola.sim.ratings import START, Skill, rate_ranking

__all__ = ["ANCHORS", "DEFAULT", "PROVISIONAL_SIGMA", "Result", "catch_up", "leaderboard",
           "places", "ratings_of", "recompute", "record", "shown"]

log = logging.getLogger("hoola.server")

DEFAULT = START
"""A new account's rating in every game: openskill's own start, as the lab's."""
PROVISIONAL_SIGMA = 5.0
"""A rating is provisional while its uncertainty is above this (it starts at 8.33)."""
ANCHORS: dict[str, Skill] = {
    "beginner": Skill(15.0, 1.0), "random": Skill(15.0, 1.0),
    "easy": Skill(20.0, 1.0),
    "medium": Skill(25.0, 1.0), "expert": Skill(25.0, 1.0),
    "hard": Skill(30.0, 1.0), "ismcts": Skill(30.0, 1.0),
    "master": Skill(33.0, 1.0),
}
"""Each bot strength's fixed rating (the levels, and the kinds they play as)."""

Result = dict[str, Any]
"""A stored result: ``game``, ``players``, ``places``, ``teams``, ``entrants``."""


def shown(mu: float, sigma: float) -> dict[str, Any]:
    """A rating as pages show it: the ordinal, the uncertainty, provisional or not, and the text
    ("12.5?" while provisional)."""
    skill = Skill(mu, sigma)
    provisional = sigma > PROVISIONAL_SIGMA
    return {"mu": round(mu, 3), "sigma": round(sigma, 3), "ordinal": round(skill.ordinal, 1),
            "provisional": provisional,
            "text": f"{skill.ordinal:.1f}{'?' if provisional else ''}"}


# -- the places of a match ---------------------------------------------------------------------

def places(game: Game, rules: Any, match: Match, left: Sequence[int] = ()) -> list[int]:
    """Each seat's place in the finished ``match`` (0 the first; equal places tie) as its game
    ranks them (:meth:`Match.places`), partners sharing theirs; the seats in ``left`` last.

    >>> from hoola.core.registry import get_game
    >>> g = get_game("hoola")
    >>> from types import SimpleNamespace
    >>> m = SimpleNamespace(names=("A", "B", "C"), places=lambda: [2, 1, 2])
    >>> places(g, None, m), places(g, None, m, left=[1])
    ([1, 0, 1], [0, 2, 0])
    """
    n = len(match.names)
    ranked = match.places()
    keys = [(-1 if q in left else 0, -ranked[q]) for q in range(n)]
    teams = team_seats(game, rules, n)
    # A side one of whose players left is last with them.
    team_key = {q: min(keys[p] for p in team) for team in teams for q in team}
    ordered = sorted({team_key[q] for q in range(n)}, reverse=True)
    better = {key: sum(1 for team in teams if team_key[team[0]] > key) for key in ordered}
    return [better[team_key[q]] for q in range(n)]


def team_seats(game: Game, rules: Any, n: int) -> list[tuple[int, ...]]:
    """The sides of a table of ``n``: the game's partnerships, else everyone alone."""
    teams = game.teams(rules, n) if rules is not None else None
    return [tuple(t) for t in teams] if teams else [(q,) for q in range(n)]


# -- rating ------------------------------------------------------------------------------------

def _rate(result: Result, current: Mapping[str, Skill]) -> dict[str, tuple[Skill, Skill]]:
    """The ratings one result moves: account -> (before, after); bots are fixed."""
    entrants: list[dict[str, str] | None] = result["entrants"]
    teams: list[list[Skill]] = []
    fixed: list[list[bool]] = []
    who: list[list[str | None]] = []
    team_places: list[int] = []
    for team in result["teams"]:
        members = [(q, entrants[q]) for q in team if entrants[q] is not None]
        if not members:
            continue
        skills, anchors, ids = [], [], []
        for _, e in members:
            assert e is not None
            if "account" in e:
                skills.append(current.get(e["account"], DEFAULT))
                anchors.append(False)
                ids.append(e["account"])
            else:
                skills.append(ANCHORS.get(e.get("bot", ""), ANCHORS["medium"]))
                anchors.append(True)
                ids.append(None)
        teams.append(skills)
        fixed.append(anchors)
        who.append(ids)
        team_places.append(result["places"][members[0][0]])
    people = [a for ids in who for a in ids if a is not None]
    if len(teams) < 2 or not people:
        return {}
    after = rate_ranking(teams, team_places, fixed)
    return {aid: (teams[k][i], after[k][i]) for k, ids in enumerate(who)
            for i, aid in enumerate(ids) if aid is not None}


def record(store: Store, tid: str, config: Mapping[str, Any], seats: Sequence[SeatRow],
           game: Game, rules: Any, match: Match) -> dict[str, Any] | None:
    """Store the result of rated table ``tid`` that has just ended and move its entrants'
    ratings, in one transaction, once (a result already stored is left as it is). The changes
    (account -> before and after), or None for an unrated table."""
    if not config.get("rated"):
        return None
    n = len(match.names)
    with store.reading("the seats' accounts") as db:
        holders = {r.seat: r.account_id for r in db.execute(
            st.seat_accounts.select().where(st.seat_accounts.c.table_id == tid))
            if r.seat is not None}
    by_seat = {s.seat: s for s in seats}
    # A person who left is handed to a bot at the end of the deal: a seat an account took that
    # a bot holds now (or that is leaving) was left.
    left = [q for q in holders if q in by_seat and (by_seat[q].kind != "person"
                                                    or by_seat[q].leaving)]
    entrants: list[dict[str, str] | None] = []
    for q in range(n):
        if q in holders:
            entrants.append({"account": holders[q]})
        elif q in by_seat and by_seat[q].kind == "bot" and by_seat[q].bot:
            entrants.append({"bot": str(by_seat[q].bot)})
        else:
            entrants.append(None)  # a person's seat no account holds: not rated
    result: Result = {"game": game.name, "players": n,
                      "places": places(game, rules, match, left),
                      "teams": [list(t) for t in team_seats(game, rules, n)],
                      "entrants": entrants}
    for attempt in range(3):
        try:
            return _store(store, tid, result)
        except sa.exc.IntegrityError:
            # Another process stored this result, or a first rating of the same account, at
            # the same moment: look again.
            if attempt == 2:
                raise
    return None


def _store(store: Store, tid: str, result: Result) -> dict[str, Any]:
    game, n = result["game"], result["players"]
    accounts = [e["account"] for e in result["entrants"] if e and "account" in e]
    with store.writing("the rated result") as db:
        done = db.execute(sa.select(st.results.c.changes)
                          .where(st.results.c.table_id == tid)).first()
        if done is not None:
            return dict(json.loads(done.changes))
        rows = db.execute(st.ratings.select()
                          .where(st.ratings.c.account_id.in_(accounts))
                          .where(st.ratings.c.game == game).where(st.ratings.c.players == n)
                          .with_for_update()).all()
        current = {r.account_id: Skill(r.mu, r.sigma) for r in rows}
        games = {r.account_id: r.games for r in rows}
        moved = _rate(result, current)
        changes = {aid: [b.mu, b.sigma, a.mu, a.sigma] for aid, (b, a) in moved.items()}
        now = time.time()
        db.execute(st.results.insert().values(
            table_id=tid, game=game, players=n, places=json.dumps(result["places"]),
            entrants=json.dumps({"seats": result["entrants"], "teams": result["teams"]}),
            changes=json.dumps(changes), at=now))
        for aid, (_, after) in moved.items():
            if aid in current:
                db.execute(st.ratings.update()
                           .where(st.ratings.c.account_id == aid)
                           .where(st.ratings.c.game == game).where(st.ratings.c.players == n)
                           .values(mu=after.mu, sigma=after.sigma, games=games[aid] + 1,
                                   updated=now))
            else:
                db.execute(st.ratings.insert().values(account_id=aid, game=game, players=n,
                                                      mu=after.mu, sigma=after.sigma, games=1,
                                                      updated=now))
    return changes


def catch_up(store: Store) -> int:
    """Rate every rated table that is over but has no stored result (its process stopped in
    between); how many. The match is rebuilt from the table's stored actions."""
    from hoola.server.room import Room

    # The configuration is JSON text: the likely ones are found by their text, then read.
    query = (sa.select(st.tables).where(st.tables.c.status == "over")
             .where(st.tables.c.config.like('%"rated": true%'))
             .where(st.tables.c.id.not_in(sa.select(st.results.c.table_id)))
             .order_by(st.tables.c.finished, st.tables.c.created))
    with store.reading("the rated tables") as db:
        over = [st._table(r) for r in db.execute(query)]
    done = 0
    for row in over:
        if not row.config.get("rated"):
            continue
        try:
            room = Room(row, store.seats(row.id), store, lambda seat, message: None)
            room.rebuild()
            assert room.match is not None
            record(store, row.id, row.config, list(room.seats.values()), room.game, room.rules,
                   room.match)
            done += 1
        except Exception:
            log.exception("the rated table %s cannot be rated", row.id)
    return done


def results(store: Store) -> list[tuple[str, Result, dict[str, list[float]]]]:
    """Every stored result in the order it was rated: (table, result, changes)."""
    with store.reading("the results") as db:
        rows = db.execute(st.results.select().order_by(st.results.c.seq)).all()
    out = []
    for r in rows:
        entrants = json.loads(r.entrants)
        out.append((r.table_id, {"game": r.game, "players": r.players,
                                 "places": json.loads(r.places), "teams": entrants["teams"],
                                 "entrants": entrants["seats"]}, json.loads(r.changes)))
    return out


def recompute(store: Store) -> dict[tuple[str, str, int], tuple[Skill, int]]:
    """Every rating again from the stored results, in their order: (account, game, players)
    -> (rating, games rated). The same as the stored ratings (a test checks it)."""
    ratings: dict[tuple[str, str, int], tuple[Skill, int]] = {}
    for _, result, _ in results(store):
        game, n = result["game"], result["players"]
        current = {aid: skill for (aid, g, p), (skill, _) in ratings.items()
                   if g == game and p == n}
        for aid, (_, after) in _rate(result, current).items():
            ratings[(aid, game, n)] = (after, ratings.get((aid, game, n), (DEFAULT, 0))[1] + 1)
    return ratings


def ratings_of(store: Store, account_id: str) -> list[dict[str, Any]]:
    """An account's ratings, game by game and table size by size."""
    with store.reading("the ratings") as db:
        rows = db.execute(st.ratings.select().where(st.ratings.c.account_id == account_id)
                          .order_by(st.ratings.c.game, st.ratings.c.players)).all()
    return [{"game": r.game, "players": r.players, "games": r.games, **shown(r.mu, r.sigma)}
            for r in rows]


def leaderboard(store: Store, game: str, players: int | None = None,
                limit: int = 100) -> dict[str, Any]:
    """The named accounts rated at ``game`` (at ``players``, default: the table size with the
    most rated accounts), best ordinal first; guests are left out."""
    with store.reading("the leaderboard") as db:
        sizes = [(r.players, r.count) for r in db.execute(
            sa.select(st.ratings.c.players, sa.func.count().label("count"))
            .where(st.ratings.c.game == game).group_by(st.ratings.c.players)
            .order_by(st.ratings.c.players))]
        if players is None and sizes:
            players = max(sizes, key=lambda s: (s[1], -s[0]))[0]
        ordinal = st.ratings.c.mu - 3 * st.ratings.c.sigma
        rows = db.execute(
            sa.select(st.ratings, st.accounts.c.name)
            .join(st.accounts, st.accounts.c.id == st.ratings.c.account_id)
            .where(st.ratings.c.game == game).where(st.ratings.c.players == (players or 0))
            .where(st.accounts.c.guest.is_(False))
            .order_by(ordinal.desc(), st.accounts.c.name_key).limit(limit)).all()
    return {"game": game, "players": players, "sizes": [s for s, _ in sizes],
            "rows": [{"rank": k + 1, "name": r.name, "games": r.games, **shown(r.mu, r.sigma)}
                     for k, r in enumerate(rows)],
            "anchors": [{"bot": b, **shown(s.mu, s.sigma)} for b, s in ANCHORS.items()
                        if b in ("beginner", "easy", "medium", "hard", "master")]}

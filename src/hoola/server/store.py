"""Where the server keeps every table: SQLAlchemy Core over SQLite (the default) or PostgreSQL.

A table's row holds what it was created with (game, preset, options, seats, seed, timers); its
actions are rows in the order they were accepted, each stored before it is announced, so a table
is rebuilt from them after a restart (:mod:`hoola.server.room`). Tokens are kept only as SHA-256
digests: a stolen database file gives no seat away. The accounts, their sessions (digests too),
the seats they hold, the rated results and the ratings are tables of the same database
(:mod:`hoola.server.accounts`, :mod:`hoola.server.ratings`).

>>> store = Store("sqlite://")
>>> tid = store.create_table({"game": "hoola"}, host_digest=digest("t"), invite="inv")
>>> store.add_action(tid, 0, "A draw"), [a.text for a in store.actions(tid)]
(1, ['A draw'])
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from hoola.core.errors import HoolaError

__all__ = ["ActionRow", "PlaceTaken", "SeatRow", "Store", "StoreUnavailable", "TableRow",
           "digest", "new_token"]

log = logging.getLogger("hoola.server")


class StoreUnavailable(HoolaError):
    """The database refused a read or a write (a full disk, a database server down): nothing
    was changed, and the same request may succeed later."""

    code = "unavailable"


class PlaceTaken(HoolaError):
    """An action's place in its table's sequence is taken: another process plays the table."""

    code = "moved"

metadata = sa.MetaData()

tables = sa.Table(
    "tables", metadata,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("config", sa.Text, nullable=False),  # JSON: game, preset, options, timers, seed
    sa.Column("status", sa.String(16), nullable=False, default="waiting"),
    sa.Column("host_digest", sa.String(64), nullable=False),
    sa.Column("invite", sa.String(32), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
)

seats = sa.Table(
    "seats", metadata,
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),  # person, bot, empty
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("bot", sa.String(64), nullable=True),
    sa.Column("token_digest", sa.String(64), nullable=True),
    sa.Column("leaving", sa.Boolean, nullable=False, default=False),
)

actions = sa.Table(
    "actions", metadata,
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("deal", sa.Integer, nullable=False),
    sa.Column("text", sa.String(200), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

chat = sa.Table(
    "chat", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.String(300), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)


# -- accounts and ratings (:mod:`hoola.server.accounts`, :mod:`hoola.server.ratings`) ----------

accounts = sa.Table(
    "accounts", metadata,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("name", sa.String(24), nullable=False),
    sa.Column("name_key", sa.String(24), nullable=False, unique=True),  # the name, lower case
    sa.Column("password", sa.String(200), nullable=True),  # an argon2 hash; None for a guest
    sa.Column("guest", sa.Boolean, nullable=False, default=False),
    sa.Column("created", sa.Float, nullable=False),
)

sessions = sa.Table(
    "sessions", metadata,
    sa.Column("digest", sa.String(64), primary_key=True),  # of the cookie's token, as seats'
    sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id"), nullable=False,
              index=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
)

seat_accounts = sa.Table(
    "seat_accounts", metadata,
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id"), primary_key=True,
              index=True),
    sa.Column("seat", sa.Integer, nullable=True),  # None while the seat is being taken
)

results = sa.Table(
    "results", metadata,
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),  # the rating order
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), nullable=False,
              unique=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("places", sa.Text, nullable=False),  # JSON: each seat's place, 0 the first
    sa.Column("entrants", sa.Text, nullable=False),  # JSON: each seat's account, bot or null
    sa.Column("changes", sa.Text, nullable=False),  # JSON: account -> [mu, sigma, mu', sigma']
    sa.Column("at", sa.Float, nullable=False),
)

ratings = sa.Table(
    "ratings", metadata,
    sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("game", sa.String(32), primary_key=True),
    sa.Column("players", sa.Integer, primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)


_INSERT_ACTION = actions.insert()


def digest(token: str) -> str:
    """The SHA-256 digest of a token, as stored."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()  # any JSON text


def new_token() -> str:
    """A fresh secret: 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(32)


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table as stored."""

    id: str
    config: dict[str, Any]
    status: str
    host_digest: str
    invite: str
    created: float
    finished: float | None


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat as stored: who holds it (a person by token, a bot by kind) or nobody."""

    seat: int
    kind: str
    name: str
    bot: str | None
    token_digest: str | None
    leaving: bool


@dataclass(frozen=True, slots=True)
class ActionRow:
    """An accepted action: its place in the table's sequence, its deal, its notation."""

    seq: int
    deal: int
    text: str


class Store:
    """The tables, seats, actions and chat of a server, in one database."""

    def __init__(self, url: str = "sqlite:///hoola-server.db") -> None:
        kwargs: dict[str, Any] = {"future": True}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
            if url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = sa.pool.StaticPool
        self.engine = sa.create_engine(url, **kwargs)
        self.errors = 0  # reads and writes the database refused, since the start
        self.failing: set[str] = set()  # "read", "write": refused now, until one succeeds
        if url.startswith("sqlite"):
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        for attempt in range(5):
            try:
                metadata.create_all(self.engine)
                break
            except sa.exc.DBAPIError:
                # Servers started together on a new database race to create the tables: the
                # losers find them made (or half made) and look again.
                if attempt == 4:
                    raise
                time.sleep(0.05 * (attempt + 1))

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()

    # -- faults -------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _writing(self, what: str, place: bool = False) -> Iterator[sa.Connection]:
        """A transaction that stores ``what``. A refusal (a full disk, a database server gone)
        raises :class:`StoreUnavailable` with nothing written, and the operator is told once
        per outage; with ``place``, a taken key (an action's place) raises
        :class:`PlaceTaken`."""
        try:
            with self.engine.begin() as db:
                yield db
        except sa.exc.IntegrityError as exc:
            if place:
                raise PlaceTaken("another server has written this table's next action") \
                    from exc
            raise self._refused("write", what, exc) from exc
        except (sa.exc.SQLAlchemyError, OSError) as exc:
            raise self._refused("write", what, exc) from exc
        self._served("write")

    @contextlib.contextmanager
    def _reading(self, what: str) -> Iterator[sa.Connection]:
        """A connection that reads ``what``; a refusal raises :class:`StoreUnavailable`."""
        try:
            with self.engine.connect() as db:
                yield db
        except (sa.exc.SQLAlchemyError, OSError) as exc:
            raise self._refused("read", what, exc) from exc
        self._served("read")

    @contextlib.contextmanager
    def writing(self, what: str) -> Iterator[sa.Connection]:
        """A transaction of the other modules' tables here (accounts, ratings): a refusal is
        :class:`StoreUnavailable` as for the tables, a key already taken (a name, a result)
        the ``IntegrityError`` itself, for the caller to name."""
        try:
            with self.engine.begin() as db:
                yield db
        except sa.exc.IntegrityError:
            raise
        except (sa.exc.SQLAlchemyError, OSError) as exc:
            raise self._refused("write", what, exc) from exc
        self._served("write")

    def reading(self, what: str) -> contextlib.AbstractContextManager[sa.Connection]:
        """A connection that reads the other modules' tables here (accounts, ratings)."""
        return self._reading(what)

    def _refused(self, kind: str, what: str, exc: BaseException) -> StoreUnavailable:
        self.errors += 1
        if kind not in self.failing:
            self.failing.add(kind)
            cause = " ".join(str(exc).split())[:160]
            log.error("the database refused to %s %s (%s: %s); requests that need it are "
                      "answered 'unavailable' until it accepts again", kind, what,
                      type(exc).__name__, cause)
        return StoreUnavailable(f"the server cannot {kind} {what} now (its database refused); "
                                "nothing was changed: try again shortly")

    def _served(self, kind: str) -> None:
        if kind in self.failing:
            self.failing.discard(kind)
            log.warning("the database accepts %ss again", kind)

    # -- tables -------------------------------------------------------------------------------

    def create_table(self, config: dict[str, Any], *, host_digest: str, invite: str,
                     seat_rows: Sequence[SeatRow] = (),
                     holders: Mapping[int, str] | None = None) -> str:
        """A new table with its seats, ``holders`` the accounts that hold seats (seat ->
        account id), in one transaction; returns its id."""
        tid = secrets.token_urlsafe(9)
        with self._writing("a new table") as db:
            db.execute(tables.insert().values(id=tid, config=json.dumps(config), status="waiting",
                                              host_digest=host_digest, invite=invite,
                                              created=time.time(), finished=None))
            for s in seat_rows:
                db.execute(seats.insert().values(table_id=tid, seat=s.seat, kind=s.kind,
                                                 name=s.name, bot=s.bot,
                                                 token_digest=s.token_digest, leaving=s.leaving))
            for seat, account in (holders or {}).items():
                db.execute(seat_accounts.insert().values(table_id=tid, account_id=account,
                                                         seat=seat))
        return tid

    def table(self, tid: str) -> TableRow | None:
        """The table ``tid``, if there is one."""
        with self._reading("a table") as db:
            row = db.execute(tables.select().where(tables.c.id == tid)).first()
        return None if row is None else _table(row)

    def tables(self, status: Sequence[str] | None = None,
               limit: int | None = 200) -> list[TableRow]:
        """Tables, newest first, of the given statuses (``limit`` None: all of them)."""
        query = tables.select().order_by(tables.c.created.desc())
        if limit is not None:
            query = query.limit(limit)
        if status is not None:
            query = query.where(tables.c.status.in_(list(status)))
        with self._reading("the tables") as db:
            return [_table(r) for r in db.execute(query)]

    def table_ids(self, status: Sequence[str]) -> list[str]:
        """The ids of every table of the given statuses, newest first."""
        query = sa.select(tables.c.id).where(tables.c.status.in_(list(status))) \
            .order_by(tables.c.created.desc())
        with self._reading("the tables") as db:
            return [r.id for r in db.execute(query)]

    def start_table(self, tid: str, config: dict[str, Any]) -> None:
        """Mark the table in play with the configuration it starts with (the names fixed)."""
        with self._writing("the table's start") as db:
            db.execute(tables.update().where(tables.c.id == tid)
                       .values(status="playing", config=json.dumps(config)))

    def set_status(self, tid: str, status: str) -> None:
        """Mark the table waiting, playing or over."""
        values: dict[str, Any] = {"status": status}
        if status == "over":
            values["finished"] = time.time()
        with self._writing("the table's status") as db:
            db.execute(tables.update().where(tables.c.id == tid).values(**values))

    # -- seats --------------------------------------------------------------------------------

    def seats(self, tid: str) -> list[SeatRow]:
        """The table's seats in order."""
        with self._reading("the seats") as db:
            rows = db.execute(seats.select().where(seats.c.table_id == tid)
                              .order_by(seats.c.seat))
            return [SeatRow(r.seat, r.kind, r.name, r.bot, r.token_digest, bool(r.leaving))
                    for r in rows]

    def set_seat(self, tid: str, row: SeatRow) -> None:
        """Store who holds a seat now."""
        with self._writing("the seat") as db:
            db.execute(seats.update().where((seats.c.table_id == tid) & (seats.c.seat == row.seat))
                       .values(kind=row.kind, name=row.name, bot=row.bot,
                               token_digest=row.token_digest, leaving=row.leaving))

    # -- actions and chat ---------------------------------------------------------------------

    def add_action(self, tid: str, deal: int, text: str, seq: int | None = None) -> int:
        """Store an accepted action at place ``seq`` of the table's sequence (default: the
        end); its sequence number.

        The (table, seq) key makes a second writer of the same place fail (an IntegrityError)
        instead of forking the table's history: a process that lost a table cannot write on
        (:class:`PlaceTaken`).
        """
        with self._writing("the action", place=True) as db:
            if seq is None:
                last = db.execute(sa.select(sa.func.max(actions.c.seq))
                                  .where(actions.c.table_id == tid)).scalar()
                seq = (last or 0) + 1
            # One statement, parameters apart: a new .values() statement per action costs
            # twice the insert itself (the server stores every action on its event loop).
            db.execute(_INSERT_ACTION, {"table_id": tid, "seq": seq, "deal": deal, "text": text,
                                        "at": time.time()})
        return seq

    def actions(self, tid: str) -> list[ActionRow]:
        """Every stored action of the table, in order."""
        with self._reading("the actions") as db:
            rows = db.execute(actions.select().where(actions.c.table_id == tid)
                              .order_by(actions.c.seq))
            return [ActionRow(r.seq, r.deal, r.text) for r in rows]

    def add_chat(self, tid: str, seat: int | None, name: str, text: str) -> None:
        """Store a chat line."""
        with self._writing("the chat line") as db:
            db.execute(chat.insert().values(table_id=tid, seat=seat, name=name, text=text,
                                            at=time.time()))

    def chat(self, tid: str, limit: int = 50) -> list[tuple[str, str]]:
        """The last chat lines of a table, oldest first: (name, text)."""
        with self._reading("the chat") as db:
            rows = db.execute(chat.select().where(chat.c.table_id == tid)
                              .order_by(chat.c.id.desc()).limit(limit))
            return [(r.name, r.text) for r in rows][::-1]


def _table(row: Any) -> TableRow:
    return TableRow(row.id, json.loads(row.config), row.status, row.host_digest, row.invite,
                    row.created, row.finished)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()

"""Accounts: a name and a password (hashed with argon2), sessions in cookies, guests, and the seats
an account holds.

- **Passwords** are kept only as argon2id hashes (``argon2-cffi``, its RFC 9106 parameters) and
  are never logged; a sign-in with an unknown name costs as much as one with a wrong password, and
  both get the same answer.
- **Sessions** are a random token in an HttpOnly, SameSite=Lax cookie (Secure when the page was
  served over https), stored only as its SHA-256 digest, as the seats' tokens are; signing out
  deletes it. A garbage cookie is no session.
- **Guests** play at once: an account with a made-up name (``Guest-…``) and no password. Signing up
  while a guest names that account and gives it a password, so its games and ratings stay.
- **Seats**: every seat an account takes is kept (``seat_accounts``), for its history; at a rated
  table it binds the seat, and only that account's session may play it.
- **Limits**: sign-ins per address and per account name, sign-ups (guests too) per address, from
  :class:`~hoola.server.limits.Limits`; a refused attempt changes nothing and checks no password.

>>> accounts = Accounts(Store("sqlite://"), Limits(), hasher=fast_hasher())
>>> me = accounts.sign_up("Alice", "correct horse", "127.0.0.1")
>>> accounts.sign_in("alice", "correct horse", "127.0.0.1").name
'Alice'
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from starlette.requests import HTTPConnection
from starlette.responses import Response

from hoola.core.errors import HoolaError
from hoola.server import store as st
from hoola.server.limits import Buckets, LimitError, Limits
from hoola.server.store import Store, digest, new_token

__all__ = ["COOKIE", "SESSION_DAYS", "Account", "AccountError", "Accounts", "check_origin",
           "fast_hasher", "session_token"]

COOKIE = "hoola_session"
"""The session cookie's name."""
SESSION_DAYS = 30
"""How long a session lasts."""
NAME = re.compile(r"[A-Za-z0-9_-]{2,24}")
PASSWORD_CHARS = (8, 256)
"""The shortest and longest password, in characters."""


class AccountError(HoolaError):
    """An account request refused: a name taken, a bad password, no session."""

    code = "bad-account"


@dataclass(frozen=True, slots=True)
class Account:
    """An account as the routes see it (never its password's hash)."""

    id: str
    name: str
    guest: bool
    created: float

    def to_json(self) -> dict[str, Any]:
        """The account for its owner's page and the lobby."""
        return {"id": self.id, "name": self.name, "guest": self.guest, "created": self.created}


def fast_hasher() -> PasswordHasher:
    """A cheap argon2 hasher, for tests and doctests only (the server uses the library's own
    parameters)."""
    return PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


def session_token(conn: HTTPConnection) -> str | None:
    """The session token of a request's or a socket's cookie, if it looks like one."""
    token = conn.cookies.get(COOKIE)
    if isinstance(token, str) and 20 <= len(token) <= 100 and token.isascii():
        return token
    return None


class Accounts:
    """The accounts of a server, in its store's database."""

    def __init__(self, store: Store, limits: Limits,
                 hasher: PasswordHasher | None = None) -> None:
        self.store = store
        self.hasher = hasher or PasswordHasher()
        self.limits = limits
        self.signins = Buckets(limits.signins_per_minute / 60, limits.signins_burst)
        self.account_signins = Buckets(limits.account_signins_per_minute / 60,
                                       limits.account_signins_burst)
        self.signups = Buckets(limits.signups_per_minute / 60, limits.signups_burst)
        self.counting = threading.Lock()  # the routes run in worker threads
        # Verified against when the name is unknown: the answer takes as long as a wrong
        # password's, so timing tells no one which names exist.
        self._decoy = self.hasher.hash(secrets.token_urlsafe(16))

    # -- signing up and in --------------------------------------------------------------------

    def sign_up(self, name: str, password: str, address: str,
                guest: Account | None = None) -> Account:
        """A new account (or ``guest`` named, keeping its games); AccountError names what is
        wrong with the name or password."""
        name = _check_name(name)
        _check_password(password, name)
        self._take_signup(address)
        hashed = self.hasher.hash(password)
        values = {"name": name, "name_key": name.lower(), "password": hashed, "guest": False}
        try:
            with self.store.writing("the account") as db:
                if guest is not None and guest.guest:
                    db.execute(st.accounts.update().where(st.accounts.c.id == guest.id)
                               .values(**values))
                    return Account(guest.id, name, False, guest.created)
                aid, now = secrets.token_urlsafe(12), time.time()
                db.execute(st.accounts.insert().values(id=aid, created=now, **values))
        except sa.exc.IntegrityError:
            raise AccountError(f"the name {name} is taken: choose another",
                               "name-taken") from None
        return Account(aid, name, False, now)

    def guest(self, address: str) -> Account:
        """A new guest account, to play at once."""
        self._take_signup(address)
        for _ in range(5):
            name = f"Guest-{secrets.token_hex(3)}"
            aid, now = secrets.token_urlsafe(12), time.time()
            try:
                with self.store.writing("the guest") as db:
                    db.execute(st.accounts.insert().values(
                        id=aid, name=name, name_key=name.lower(), password=None, guest=True,
                        created=now))
            except sa.exc.IntegrityError:
                continue
            return Account(aid, name, True, now)
        raise AccountError("no guest name is free now: try again", "name-taken")

    def sign_in(self, name: str, password: str, address: str) -> Account:
        """The account whose name and password these are, or ``bad-sign-in``; limited per
        address and per name (``rate-limited``, no password checked)."""
        key = name.strip().lower()[:24] if isinstance(name, str) else ""
        with self.counting:
            if not self.signins.ready(address):
                raise self._limited(self.signins, address, "sign-ins from this address",
                                    self.limits.signins_per_minute)
            self._take(self.account_signins, key, "sign-ins to one account",
                       self.limits.account_signins_per_minute)
            self.signins.take(address)
        with self.store.reading("the account") as db:
            row = db.execute(st.accounts.select().where(st.accounts.c.name_key == key)).first()
        hashed = row.password if row is not None and row.password else self._decoy
        try:
            self.hasher.verify(hashed, password)
            ok = row is not None and row.password is not None
        except (VerificationError, VerifyMismatchError, InvalidHashError):
            ok = False
        if not ok or row is None:
            raise AccountError("that name and password do not match an account", "bad-sign-in")
        if self.hasher.check_needs_rehash(row.password):
            with self.store.writing("the account") as db:
                db.execute(st.accounts.update().where(st.accounts.c.id == row.id)
                           .values(password=self.hasher.hash(password)))
        return _account(row)

    def _take(self, bucket: Buckets, key: str, what: str, per_minute: float) -> None:
        if not bucket.take(key):
            raise self._limited(bucket, key, what, per_minute)

    def _take_signup(self, address: str) -> None:
        with self.counting:
            self._take(self.signups, address, "sign-ups", self.limits.signups_per_minute)

    @staticmethod
    def _limited(bucket: Buckets, key: str, what: str, per_minute: float) -> LimitError:
        wait = bucket.wait(key)
        return LimitError(f"at most {per_minute:g} {what} a minute: try again in "
                          f"{max(1, round(wait))} s", retry_after=wait)

    # -- sessions -----------------------------------------------------------------------------

    def open_session(self, account: Account, response: Response, conn: HTTPConnection) -> None:
        """A new session for ``account``, its cookie set on ``response``."""
        token, now = new_token(), time.time()
        expires = now + SESSION_DAYS * 86400
        with self.store.writing("the session") as db:
            db.execute(st.sessions.delete().where(st.sessions.c.expires < now))
            db.execute(st.sessions.insert().values(digest=digest(token), account_id=account.id,
                                                   created=now, expires=expires))
        response.set_cookie(COOKIE, token, max_age=SESSION_DAYS * 86400, httponly=True,
                            samesite="lax", secure=conn.url.scheme in ("https", "wss"),
                            path="/")

    def close_session(self, conn: HTTPConnection, response: Response) -> None:
        """Sign out: the session of ``conn``'s cookie is deleted, and the cookie."""
        token = session_token(conn)
        if token is not None:
            with self.store.writing("the session") as db:
                db.execute(st.sessions.delete().where(st.sessions.c.digest == digest(token)))
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                               secure=conn.url.scheme in ("https", "wss"))

    def of(self, conn: HTTPConnection) -> Account | None:
        """The account signed in on ``conn`` (a request or a socket), if any."""
        token = session_token(conn)
        if token is None:
            return None
        query = (sa.select(st.accounts).join(st.sessions,
                                              st.sessions.c.account_id == st.accounts.c.id)
                 .where(st.sessions.c.digest == digest(token))
                 .where(st.sessions.c.expires > time.time()))
        with self.store.reading("the session") as db:
            row = db.execute(query).first()
        return None if row is None else _account(row)

    def signed_in(self, conn: HTTPConnection) -> Account:
        """The account signed in on ``conn``, or ``not-signed-in``."""
        account = self.of(conn)
        if account is None:
            raise AccountError("sign in (or play as a guest) first", "not-signed-in")
        return account

    # -- accounts -----------------------------------------------------------------------------

    def named(self, name: str) -> Account | None:
        """The account of that name (any case), if there is one."""
        if not isinstance(name, str) or len(name) > 24:
            return None
        with self.store.reading("the account") as db:
            row = db.execute(st.accounts.select()
                             .where(st.accounts.c.name_key == name.lower())).first()
        return None if row is None else _account(row)

    def names(self, ids: list[str]) -> dict[str, Account]:
        """The accounts of these ids."""
        if not ids:
            return {}
        with self.store.reading("the accounts") as db:
            rows = db.execute(st.accounts.select().where(st.accounts.c.id.in_(ids)))
            return {r.id: _account(r) for r in rows}

    # -- seats --------------------------------------------------------------------------------

    def claim(self, tid: str, account: Account) -> None:
        """Reserve ``account``'s place at table ``tid`` before its seat is taken (one seat an
        account at a table: ``already-seated``)."""
        try:
            with self.store.writing("the seat's account") as db:
                db.execute(st.seat_accounts.insert().values(table_id=tid, account_id=account.id,
                                                            seat=None))
        except sa.exc.IntegrityError:
            raise AccountError(f"{account.name} already has a seat at this table",
                               "already-seated") from None

    def bind(self, tid: str, account: Account, seat: int | None) -> None:
        """The seat ``account`` took at ``tid`` (None: it took none, the place is given up)."""
        where = ((st.seat_accounts.c.table_id == tid)
                 & (st.seat_accounts.c.account_id == account.id))
        with self.store.writing("the seat's account") as db:
            if seat is None:
                db.execute(st.seat_accounts.delete().where(where))
            else:
                db.execute(st.seat_accounts.update().where(where).values(seat=seat))

    def release(self, tid: str, seat: int) -> None:
        """No account holds ``seat`` at ``tid`` any more (it was left before the game)."""
        with self.store.writing("the seat's account") as db:
            db.execute(st.seat_accounts.delete().where((st.seat_accounts.c.table_id == tid)
                                                       & (st.seat_accounts.c.seat == seat)))

    def holders(self, tid: str) -> dict[int, str]:
        """The accounts holding seats at ``tid``: seat -> account id."""
        with self.store.reading("the seats' accounts") as db:
            rows = db.execute(st.seat_accounts.select()
                              .where(st.seat_accounts.c.table_id == tid))
            return {r.seat: r.account_id for r in rows if r.seat is not None}

    def check_holder(self, tid: str, config: dict[str, Any], seat: int,
                     conn: HTTPConnection) -> None:
        """At a rated table, refuse ``not-your-seat`` unless the session on ``conn`` is the
        account that holds ``seat`` (a token alone does not act for an account)."""
        if not config.get("rated"):
            return
        holder = self.holders(tid).get(seat)
        account = self.of(conn)
        if holder is None or account is None or account.id != holder:
            raise AccountError("this seat of a rated table is another account's: sign in as "
                               "the account that took it", "not-your-seat")

    def seats_of(self, account_id: str, limit: int = 20) -> list[tuple[st.TableRow, int]]:
        """The finished tables ``account_id`` sat at, newest first, with its seat."""
        query = (sa.select(st.tables, st.seat_accounts.c.seat)
                 .join(st.seat_accounts, st.seat_accounts.c.table_id == st.tables.c.id)
                 .where(st.seat_accounts.c.account_id == account_id)
                 .where(st.seat_accounts.c.seat.is_not(None))
                 .where(st.tables.c.status == "over")
                 .order_by(st.tables.c.finished.desc()).limit(limit))
        with self.store.reading("the account's games") as db:
            return [(st._table(r), r.seat) for r in db.execute(query)]

    def games_played(self, account_id: str) -> int:
        """How many finished tables ``account_id`` sat at."""
        query = (sa.select(sa.func.count())
                 .select_from(st.seat_accounts.join(
                     st.tables, st.seat_accounts.c.table_id == st.tables.c.id))
                 .where(st.seat_accounts.c.account_id == account_id)
                 .where(st.seat_accounts.c.seat.is_not(None))
                 .where(st.tables.c.status == "over"))
        with self.store.reading("the account's games") as db:
            return int(db.execute(query).scalar() or 0)


def check_origin(conn: HTTPConnection) -> None:
    """Refuse ``bad-origin`` a request that a page of another site made (its ``Origin`` names
    another host): the session cookie is not for other sites to use."""
    origin = conn.headers.get("origin")
    if origin is None:
        return
    host = conn.headers.get("host") or conn.url.netloc
    if origin == "null" or urlsplit(origin).netloc.lower() != host.lower():
        raise AccountError("that request came from a page of another site", "bad-origin")


def _account(row: Any) -> Account:
    return Account(row.id, row.name, bool(row.guest), row.created)


def _check_name(given: Any) -> str:
    name = given.strip() if isinstance(given, str) else ""
    if not NAME.fullmatch(name):
        raise AccountError("a name is 2 to 24 letters, digits, _ or -", "bad-name")
    if name.lower().startswith(("guest", "bot")):
        raise AccountError("names beginning with Guest or Bot are the server's: choose another",
                           "bad-name")
    return name


def _check_password(password: Any, name: str) -> None:
    low, high = PASSWORD_CHARS
    if not isinstance(password, str) or not low <= len(password) <= high:
        raise AccountError(f"a password is {low} to {high} characters", "bad-password")
    if password.strip().lower() == name.lower():
        raise AccountError("a password is not the account's name", "bad-password")

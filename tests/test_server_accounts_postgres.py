"""Accounts and ratings on a real PostgreSQL server (Debian's ``postgresql``, started by :mod:`pg`):
the same guarantees as on SQLite (:mod:`test_server_accounts`), on the other database the server
promises. No skip: without PostgreSQL's binaries these tests fail, as the other PostgreSQL tests
do."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator

import pytest

pytest.importorskip("argon2")
pytest.importorskip("openskill")

import test_server_accounts as on
from pg import PostgresServer

_names = itertools.count(1)


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresServer]:
    with PostgresServer.running() as server:
        yield server


@pytest.fixture
def pg_url(postgres: PostgresServer) -> str:
    return postgres.create_database(f"hoola_accounts_{os.getpid()}_{next(_names)}")


def test_sign_up_in_and_out(pg_url: str) -> None:
    on.test_sign_up_in_and_out_with_a_cookie_session(pg_url)


def test_bad_input_changes_nothing(pg_url: str) -> None:
    on.test_bad_input_gets_one_line_and_changes_nothing(pg_url)


def test_a_rated_game_moves_the_rating_and_recomputes_the_same(pg_url: str) -> None:
    on.test_a_rated_game_against_bots_moves_the_rating_and_recomputes_the_same(pg_url)


def test_leaving_a_rated_game_is_last_place(pg_url: str) -> None:
    on.test_leaving_a_rated_game_is_last_place(pg_url)


def test_a_guest_keeps_the_game_by_signing_up(pg_url: str) -> None:
    on.test_a_guest_plays_at_once_and_keeps_the_game_by_signing_up(pg_url)

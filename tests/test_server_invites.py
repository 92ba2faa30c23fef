"""Letting friends in: invite links that name an address they can open, new tables private
unless told, the tables kept in the user's folder and ``hoola serve`` saying all of it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from hoola.cli import startup_line
from hoola.server.app import create_app
from hoola.server.where import (
    db_url_of,
    default_db_path,
    default_db_url,
    invite_origin,
    is_loopback,
)

GAME = {"game": "hoola", "name": "Host", "seats": [{"bot": "expert"}]}


def client(tmp_path: Path, lan: str | None = None) -> TestClient:
    return TestClient(create_app(db_url=f"sqlite:///{tmp_path / 't.db'}", lan=lan))


def test_invite_links_name_the_network_address_when_the_host_used_the_loopback(
        tmp_path: Path) -> None:
    http = client(tmp_path, lan="192.0.2.7")
    local = {"Host": "127.0.0.1:8000"}
    assert http.get("/api/origin", headers=local).json() == {"origin": "http://192.0.2.7:8000"}
    made = http.post("/api/tables", json=GAME, headers=local).json()
    assert made["invite_url"] == (f"http://192.0.2.7:8000/join/{made['table_id']}"
                                  f"?invite={made['invite']}")
    assert made["join_url"] == f"/join/{made['table_id']}?invite={made['invite']}"
    # The host opened it by a name or address friends share: that one stays.
    named = {"Host": "cards.example:8000"}
    assert http.get("/api/origin", headers=named).json() == {"origin": "http://cards.example:8000"}


def test_listening_on_the_loopback_keeps_the_address_the_browser_used(tmp_path: Path) -> None:
    http = client(tmp_path)
    got = http.get("/api/origin", headers={"Host": "localhost:8123"}).json()
    assert got == {"origin": "http://localhost:8123"}


def test_a_new_table_is_private_unless_told(tmp_path: Path) -> None:
    http = client(tmp_path)
    private = http.post("/api/tables", json=GAME).json()
    public = http.post("/api/tables", json={**GAME, "public": True}).json()
    listed = [t["table_id"] for t in http.get("/api/tables").json()]
    assert private["table_id"] not in listed and public["table_id"] in listed
    assert "invite" not in http.get(f"/api/tables/{private['table_id']}").json()


def test_loopback_hosts() -> None:
    assert all(map(is_loopback, ["127.0.0.1", "127.0.0.1:80", "localhost:8000", "[::1]:8000"]))
    assert not any(map(is_loopback, ["192.168.1.5:8000", "cards.example", "[2001:db8::1]:80"]))
    assert invite_origin("http", "[::1]:8000", "2001:db8::5") == "http://[2001:db8::5]:8000"


def test_the_tables_are_kept_in_the_users_folder(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HOOLA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_db_path() == tmp_path / "home" / ".hoola" / "hoola-server.db"
    monkeypatch.setenv("HOOLA_HOME", str(tmp_path / "fresh" / "hoola"))
    assert default_db_url() == f"sqlite:///{tmp_path / 'fresh' / 'hoola' / 'hoola-server.db'}"
    assert (tmp_path / "fresh" / "hoola").is_dir()  # made on a fresh machine


def test_db_takes_a_file_path_or_a_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert db_url_of("tables.db") == f"sqlite:///{tmp_path / 'tables.db'}"
    assert db_url_of("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"
    monkeypatch.setenv("HOOLA_HOME", str(tmp_path / "home"))
    assert db_url_of(None) == default_db_url()


def test_the_startup_line_says_where_the_tables_are_and_how_friends_get_in() -> None:
    local = startup_line("127.0.0.1", 8000, "sqlite:////home/a/.hoola/hoola-server.db", None)
    assert "http://127.0.0.1:8000" in local and "/home/a/.hoola/hoola-server.db" in local
    assert "--host 0.0.0.0" in local
    shared = startup_line("0.0.0.0", 8080, "sqlite:///x.db", "192.0.2.7")
    assert "http://192.0.2.7:8080" in shared and "--host" not in shared


def test_hoola_serve_on_a_fresh_machine_writes_nothing_in_the_current_folder(
        tmp_path: Path) -> None:
    """``hoola serve`` with no --db makes its folder and database in the user's home and says
    where (the server is stopped once it has said so)."""
    home, work = tmp_path / "home", tmp_path / "work"
    work.mkdir()
    code = ("import sys, uvicorn; uvicorn.run = lambda *a, **k: None; "
            "from hoola.cli import cli; sys.argv = ['hoola', 'serve']; cli()")
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], cwd=work, env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert f"tables in {home / '.hoola' / 'hoola-server.db'}" in out.stdout
    assert (home / ".hoola" / "hoola-server.db").exists()
    assert list(work.iterdir()) == []

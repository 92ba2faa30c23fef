"""A real PostgreSQL server for tests, from Debian's packages, in a temporary directory.

``PostgresServer`` runs ``initdb`` and then ``postgres`` itself (no system service, no cluster
of the machine's): the data directory and the socket directory are in a fresh temporary
directory, the server listens on loopback on a free port, with trust authentication for the
``postgres`` role. PostgreSQL refuses to run as root, so as root both run as the unprivileged
``postgres`` user (``setpriv``, which execs: the process we hold *is* the postmaster) and the
temporary directory is handed to that user. Durability is switched off (``fsync=off``): a test
database is thrown away.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

__all__ = ["PostgresMissing", "PostgresServer", "find_bin"]

RUN_AS = ("postgres", "nobody")
"""Users to run the server as when we are root, the first that exists."""


class PostgresMissing(RuntimeError):
    """PostgreSQL's server binaries are not installed."""


def find_bin(name: str) -> Path:
    """A PostgreSQL server binary: Debian keeps them in /usr/lib/postgresql/VERSION/bin (not on
    PATH), the newest version first; else PATH."""
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if found:
        return Path(found[-1])
    on_path = shutil.which(name)
    if on_path:
        return Path(on_path)
    raise PostgresMissing(f"PostgreSQL's {name} is not installed: apt-get install postgresql "
                          "(scripts/test.sh does)")


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class PostgresServer:
    """One throwaway PostgreSQL server; :meth:`start`, :meth:`create_database`, :meth:`stop`."""

    def __init__(self) -> None:
        self.initdb = find_bin("initdb")
        self.postgres = find_bin("postgres")
        self.root = Path(tempfile.mkdtemp(prefix="hoola-pg-"))
        self.data = self.root / "data"
        self.sockets = self.root / "run"
        self.log = self.root / "postgres.log"
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.prefix: list[str] = []
        self.owner: tuple[int, int] | None = None
        if os.geteuid() == 0:
            user = next((u for u in RUN_AS if _has_user(u)), None)
            if user is None:
                raise PostgresMissing("running as root with no unprivileged user to run "
                                      f"PostgreSQL as (tried {', '.join(RUN_AS)})")
            entry = pwd.getpwnam(user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
            self.prefix = ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}",
                           "--init-groups", "--"]
            self.owner = (entry.pw_uid, entry.pw_gid)

    def _run(self, args: list[str]) -> None:
        done = subprocess.run([*self.prefix, *args], capture_output=True, text=True,
                              cwd=self.root, check=False, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{Path(args[0]).name} failed ({done.returncode}): "
                               f"{(done.stderr or done.stdout).strip()[-2000:]}")

    def start(self, timeout: float = 60.0) -> None:
        """initdb, then the server on a free loopback port; returns once it accepts
        connections (polled, with the server's log in the error if it never does)."""
        self.sockets.mkdir()
        if self.owner is not None:
            os.chown(self.sockets, *self.owner)
        self._run([str(self.initdb), "-D", str(self.data), "-U", "postgres", "--auth=trust",
                   "--no-locale", "-E", "UTF8", "--no-sync"])
        for _attempt in range(5):  # the free port may be taken between finding and binding it
            self.port = free_port()
            with open(self.log, "ab") as log:
                self.process = subprocess.Popen(
                    [*self.prefix, str(self.postgres), "-D", str(self.data), "-p", str(self.port),
                     "-h", "127.0.0.1", "-k", str(self.sockets), "-c", "fsync=off",
                     "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
                     "-c", "max_connections=100"],
                    stdout=log, stderr=subprocess.STDOUT, cwd=self.root)
            if self._wait_ready(timeout):
                return
            self._kill()
            if "could not bind" not in self.log.read_text(errors="replace"):
                break
        raise RuntimeError("PostgreSQL did not start: "
                           + self.log.read_text(errors="replace")[-2000:])

    def _wait_ready(self, timeout: float) -> bool:
        import psycopg

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                return False
            try:
                with psycopg.connect(self.dsn("postgres"), connect_timeout=2):
                    return True
            except psycopg.OperationalError:
                time.sleep(0.05)  # polling the port: the server is still starting
        return False

    def dsn(self, database: str) -> str:
        """A libpq connection string to ``database``."""
        return f"host=127.0.0.1 port={self.port} user=postgres dbname={database}"

    def url(self, database: str) -> str:
        """The SQLAlchemy URL of ``database``."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A new, empty database; its SQLAlchemy URL."""
        import psycopg

        with psycopg.connect(self.dsn("postgres"), autocommit=True) as db:
            db.execute(f'CREATE DATABASE "{name}"')  # a name of ours, not input
        return self.url(name)

    def _kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(30)

    def stop(self) -> None:
        """Stop the server (a fast shutdown, then a kill) and remove its directory."""
        process = self.process
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGINT)  # fast shutdown: disconnects clients
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                self._kill()
        shutil.rmtree(self.root, ignore_errors=True)

    @classmethod
    @contextlib.contextmanager
    def running(cls) -> Iterator[PostgresServer]:
        """A started server, stopped on the way out."""
        server = cls()
        try:
            server.start()
            yield server
        finally:
            server.stop()


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True

"""Where a server keeps its tables and the address friends reach it at; the standard library
only, so that ``hoola serve`` can say both before the server's own dependencies load.

>>> is_loopback("127.0.0.1:8000"), is_loopback("localhost"), is_loopback("[::1]:8000")
(True, True, True)
>>> is_loopback("192.168.1.5:8000"), is_loopback("cards.example")
(False, False)
>>> invite_origin("http", "localhost:8000", "192.168.1.5")
'http://192.168.1.5:8000'
>>> invite_origin("http", "cards.example:8000", "192.168.1.5")
'http://cards.example:8000'
>>> invite_origin("http", "127.0.0.1:8000", None)
'http://127.0.0.1:8000'
"""

from __future__ import annotations

import ipaddress
import os
import socket
from pathlib import Path
from urllib.parse import urlsplit

__all__ = ["ALL_INTERFACES", "db_url_of", "default_db_path", "default_db_url", "invite_origin",
           "is_loopback", "lan_address"]

ALL_INTERFACES = frozenset({"0.0.0.0", "::", ""})
"""``--host`` values that listen on every network interface."""


def default_db_path() -> Path:
    """The tables' SQLite file when ``--db`` does not say: ``hoola-server.db`` in the user's
    ``~/.hoola`` folder (``$HOOLA_HOME`` instead, if set), never the current folder."""
    home = os.environ.get("HOOLA_HOME")
    return (Path(home) if home else Path.home() / ".hoola") / "hoola-server.db"


def default_db_url() -> str:
    """The SQLAlchemy URL of :func:`default_db_path`, its folder made if missing."""
    path = default_db_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def db_url_of(given: str | None) -> str:
    """The SQLAlchemy URL ``--db`` names: a URL as it is, a plain file path as the SQLite file
    there (``tables.db`` -> ``sqlite:////abs/path/tables.db``), nothing as the default."""
    if not given:
        return default_db_url()
    if "://" in given:
        return given
    return f"sqlite:///{Path(given).expanduser().resolve()}"


def is_loopback(host: str) -> bool:
    """Whether a ``Host`` header (name or address, with or without a port) names this machine's
    loopback, which nobody else can open."""
    name = host.strip().lower()
    if name.startswith("["):
        name = name[1:].partition("]")[0]
    elif name.count(":") == 1:
        name = name.partition(":")[0]
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's address on its local network (the one its default route leaves by), or
    None when it has none but the loopback."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            # Connecting a UDP socket sends nothing: it only picks the outgoing interface.
            probe.connect(("192.0.2.1", 9))
            found: str = probe.getsockname()[0]
    except OSError:
        try:
            found = socket.gethostbyname(socket.gethostname())
        except OSError:
            return None
    return None if is_loopback(found) or found == "0.0.0.0" else found


def invite_origin(scheme: str, host: str, lan: str | None) -> str:
    """The origin an invite link names: the address the host's browser used (its ``Host``
    header), unless that is the loopback and the server listens on every interface, in which
    case the machine's LAN address ``lan`` with the same port."""
    if lan and is_loopback(host):
        try:
            port = urlsplit(f"//{host}").port
        except ValueError:
            port = None
        shown = f"[{lan}]" if ":" in lan else lan
        return f"{scheme}://{shown}:{port}" if port else f"{scheme}://{shown}"
    return f"{scheme}://{host}"

"""The README's server demo (``examples/server_demo.py``) runs to its end: two scripted people
and two bots on ``hoola serve`` play Hoola, Kalookie and Sedma through real sockets, and every
downloaded record passes ``hoola verify``."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_server_demo_plays_three_games_to_records_that_verify(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "server_demo.py"), "--quick", "--seed", "4",
         "--deals", "2", "--kalookie-deals", "2", "--sedma-deals", "3", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=300, check=False,
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    for title in ("Hoola, a match of 2 deals", "Kalookie, a British game of 2 deals",
                  "Sedma, a game of 3 deals"):
        assert f"== {title}" in out
    assert out.count("hoola verify says: ok ") == 3
    assert out.count("final scoreboard: ") == 3
    assert "Totals: Ann " in out and "Money: Ann " in out  # Hoola's and Kalookie's scores
    records = sorted(p.name.split("-")[0] for p in tmp_path.glob("*.toml"))
    assert records == ["capture", "hoola", "kalookie"]
    assert out.rstrip().endswith("every record verifies")
    assert "Traceback" not in done.stderr


def _demo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "examples" / "server_demo.py"), *args],
                          capture_output=True, text=True, timeout=120, check=False,
                          env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))


def test_the_server_demo_refuses_bad_input_in_one_line() -> None:
    done = _demo("--deals", "0")
    assert done.returncode == 2
    assert "--deals must be at least 1" in done.stderr and "Traceback" not in done.stderr
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    done = _demo("--url", f"127.0.0.1:{port}")
    assert done.returncode == 1
    assert done.stderr.startswith(f"cannot play on 127.0.0.1:{port}: ")
    assert len(done.stderr.strip().splitlines()) == 1

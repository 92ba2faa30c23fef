"""The public Kalookie conformance records and the project's own hand-worked records verify."""

from __future__ import annotations

from pathlib import Path

import pytest

from hoola.games.kalookie.records import loads, verify

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = ROOT.parent.parent / "shared" / "conformance" / "kalookie"
if not PUBLIC.is_dir():  # a clone with ../shared beside it (.ci/run)
    PUBLIC = ROOT.parent / "shared" / "conformance" / "kalookie"
OWN = ROOT / "tests" / "records" / "kalookie-engine"
FILES = sorted(PUBLIC.glob("*.toml")) + sorted(OWN.glob("*.toml"))


def test_the_public_records_are_there() -> None:
    assert len(sorted(PUBLIC.glob("*.toml"))) >= 4


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_record_verifies(path: Path) -> None:
    assert verify(loads(path.read_text(encoding="utf-8"))) == []

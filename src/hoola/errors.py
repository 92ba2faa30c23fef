"""Moved to :mod:`hoola.core.errors` (kept while the game modules move into their package)."""

from hoola.core.errors import (
    HoolaError,
    IllegalActionError,
    NotationError,
    OutOfTurnError,
    RecordError,
    RulesError,
)

__all__ = [
    "HoolaError",
    "IllegalActionError",
    "NotationError",
    "OutOfTurnError",
    "RecordError",
    "RulesError",
]

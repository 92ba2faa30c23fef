"""One exception family for everything the engine refuses.

Every error has a stable ``code`` (a short kebab-case string a server can pass on) and a
one-sentence message that names the input and the rule broken.
"""

from __future__ import annotations

__all__ = [
    "HoolaError",
    "IllegalActionError",
    "NotationError",
    "OutOfTurnError",
    "RecordError",
    "RulesError",
]


class HoolaError(Exception):
    """Base class of every error the hoola package raises on purpose."""

    code: str = "hoola-error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        """The one-sentence explanation."""
        return str(self.args[0]) if self.args else ""


class NotationError(HoolaError, ValueError):
    """A card, card list or action string that cannot be read."""

    code = "bad-notation"


class RulesError(HoolaError, ValueError):
    """An unknown preset, unknown option key, or an option value of the wrong kind."""

    code = "bad-rules"


class IllegalActionError(HoolaError):
    """An action the rules do not allow in the current state (the state is left unchanged)."""

    code = "illegal-action"


class OutOfTurnError(IllegalActionError):
    """An action by a player who may not act now."""

    code = "out-of-turn"


class RecordError(HoolaError, ValueError):
    """A record file that is malformed (not a finding about the game it describes)."""

    code = "bad-record"

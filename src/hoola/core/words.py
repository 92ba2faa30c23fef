"""What a game says to players, as data: a key and its arguments, with the English text beside.

A game's prompts, hints and settlement lines are :class:`Said` values. The terminal and the logs
print ``text`` (English); the browser writes the sentence itself from ``key`` and ``args`` in the
player's language (``src/hoola/server/web/words.json`` holds every key in English and Korean, and
a test checks that none is missing). Arguments are plain: names, numbers as text, cards in record
notation (a front end draws them as glyphs), lists of cards as one space-separated string; an
argument may be a sentence itself (a prompt of two parts).

>>> said = say("prompt.to-play", who="Ann")
>>> said.text, said.to_json()
('Ann to play', {'key': 'prompt.to-play', 'text': 'Ann to play', 'args': {'who': 'Ann'}})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

__all__ = ["PHRASES", "Reason", "Said", "phrases", "reason", "say"]

PHRASES: Final[dict[str, str]] = {}
"""Every key any game may say, with its English template (``{name}`` for an argument)."""


@dataclass(frozen=True, slots=True)
class Said:
    """A sentence for a player: its ``key``, its ``args`` and its English ``text``."""

    key: str
    args: Mapping[str, str | Said] = field(default_factory=dict)
    text: str = ""

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> dict[str, Any]:
        """The sentence as JSON-ready data."""
        return {"key": self.key, "text": self.text,
                "args": {k: v.to_json() if isinstance(v, Said) else v
                         for k, v in self.args.items()}}


class Reason(str):
    """A sentence in English that carries its key and arguments too (``said``): a bot's reason,
    which the terminal and the tests read as text and the browser writes from its key."""

    __slots__ = ("said",)
    said: Said

    def __new__(cls, said: Said) -> Reason:
        made = super().__new__(cls, said.text)
        made.said = said
        return made


def reason(key: str, **args: object) -> Reason:
    """:func:`say` as a :class:`Reason`."""
    return Reason(say(key, **args))


def phrases(table: Mapping[str, str]) -> None:
    """Register a game's keys with their English templates (a key said twice must agree)."""
    for key, template in table.items():
        if PHRASES.get(key, template) != template:
            raise ValueError(f"the key {key} is registered with two different texts")
        PHRASES[key] = template


def say(key: str, **args: object) -> Said:
    """The sentence ``key`` with ``args`` (each written as text); a KeyError names a key that
    no game registered."""
    plain = {k: v if isinstance(v, Said) else str(v) for k, v in args.items()}
    return Said(key, plain, PHRASES[key].format(**{k: str(v) for k, v in plain.items()}))


phrases({
    "zone.your-hand": "Your hand",
    "zone.hand": "{who}'s hand",
    "zone.partner-hand": "{who}'s hand (partner)",
    "zone.meld": "m{id} ({who})",
    "score.points": "Points",
    "score.this-deal": "This deal",
    "score.this-hand": "This hand",
    "score.totals": "Totals",
    "match.deals-next": "{who} deals next",
    "prompt.to-play": "{who} to play",
    "prompt.to-act": "{who} to act",
    "prompt.over": "The deal is over",
    "prompt.and": "{first}; {then}",
})

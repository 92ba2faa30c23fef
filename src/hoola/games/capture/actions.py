"""The capture games' actions and their notation (``B play Ts``, ``B dark``, ``A stop``,
``B say ubij``).

>>> a = parse_action("B play 10h", ["A", "B"])
>>> a, format_action(a, ["A", "B"])
(Play(player=1, card=22), 'B play Th')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from hoola.core.cards import format_card, parse_card
from hoola.core.errors import NotationError
from hoola.games.capture.rules import SIGNALS

__all__ = ["NAME_RE", "Action", "Dark", "Play", "Say", "Stop", "format_action", "parse_action"]

NAME_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True, slots=True)
class Play:
    """``player`` plays ``card`` from hand (a lead, a follow, or the leader fighting on)."""

    player: int
    card: int


@dataclass(frozen=True, slots=True)
class Dark:
    """``player`` plays the top card of the stock unseen ("in the dark")."""

    player: int


@dataclass(frozen=True, slots=True)
class Stop:
    """The leader ends the trick: its current winner takes it."""

    player: int


@dataclass(frozen=True, slots=True)
class Say:
    """``player``, about to play, gives one spoken signal (``ubij``, ``pusti``, ``napuni``)."""

    player: int
    word: str


Action = Play | Dark | Stop | Say


def format_action(action: Action, names: Sequence[str]) -> str:
    """An action in record notation."""
    who = names[action.player]
    if isinstance(action, Play):
        return f"{who} play {format_card(action.card)}"
    if isinstance(action, Dark):
        return f"{who} dark"
    if isinstance(action, Stop):
        return f"{who} stop"
    return f"{who} say {action.word}"


def parse_action(text: str, names: Sequence[str]) -> Action:
    """An action from record notation; a NotationError says what cannot be read."""
    if not isinstance(text, str):
        raise NotationError(f"an action is text such as \"B play Ts\", not {type(text).__name__}",
                            "bad-action")
    words = text.split("#", 1)[0].split()
    if len(words) < 2:
        raise NotationError(f"cannot read action {text.strip()[:60]!r}: write a player and a verb, "
                            "such as \"B play Ts\", \"B dark\", \"A stop\" or \"B say ubij\"",
                            "bad-action")
    who, verb, args = words[0], words[1].lower(), words[2:]
    if who not in names:
        raise NotationError(f"{who[:64]!r} is not a player at this table ({', '.join(names)})",
                            "unknown-player")
    seat = list(names).index(who)
    if verb == "play":
        if len(args) != 1:
            raise NotationError(f"{who} play takes one card, such as \"{who} play Ts\"",
                                "bad-action")
        card = parse_card(args[0])
        if card >= 52:
            raise NotationError("the capture games are played without jokers", "bad-card")
        return Play(seat, card)
    if verb in ("dark", "stop") and args:
        raise NotationError(f"{who} {verb} takes nothing after it", "bad-action")
    if verb == "dark":
        return Dark(seat)
    if verb == "stop":
        return Stop(seat)
    if verb == "say":
        if len(args) != 1 or args[0].lower() not in SIGNALS:
            raise NotationError(f"the signals are {', '.join(SIGNALS)}, such as \"{who} say ubij\"",
                                "bad-signal")
        return Say(seat, args[0].lower())
    raise NotationError(f"unknown verb {verb[:20]!r}: the capture games' verbs are play, dark, "
                        "stop and say", "bad-action")

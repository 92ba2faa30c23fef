"""Each game family's encoding, and the game a name stands for (a preset's name stands for
its game: ``sedma``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hoola.core.game import Game
from hoola.core.registry import resolve
from hoola.rl.capture import CaptureEncoding
from hoola.rl.encoding import Encoding
from hoola.rl.hoola import HoolaEncoding
from hoola.rl.kalookie import KalookieEncoding

__all__ = ["ENCODINGS", "encoding_for", "resolve_game"]

ENCODINGS: dict[str, Callable[[Game, Any, int], Encoding]] = {
    "hoola": HoolaEncoding,
    "kalookie": KalookieEncoding,
    "capture": CaptureEncoding,
}
"""Each game family's encoding, by the game's registered name."""


def encoding_for(game: Game, rules: Any, players: int) -> Encoding:
    """The encoding of ``game`` at ``players`` seats under ``rules``; ValueError for a game with
    none yet."""
    make = ENCODINGS.get(game.name)
    if make is None:
        raise ValueError(f"{game.title} has no RL encoding yet; the encoded games are "
                         f"{', '.join(sorted(ENCODINGS))}")
    return make(game, rules, players)


def resolve_game(name: str | Game, rules: str | Any | None = None,
                 options: dict[str, Any] | None = None) -> tuple[Game, Any]:
    """The game and its rules from a name (a capture game's preset stands for its game:
    ``sedma``), a preset name or rules, and options over them."""
    if isinstance(name, str):
        game, implied = resolve(name)
        rules = implied if rules is None else rules
    else:
        game = name
    if rules is None or isinstance(rules, str):
        return game, game.rules(rules, options or {})
    return game, rules

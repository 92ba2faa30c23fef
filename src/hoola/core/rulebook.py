"""A game's presets and options as data for people: what ``hoola rules --json`` prints and the
lobby's form reads (each preset's title, meaning and source, each option's meaning, allowed
values and the value a preset gives it)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hoola.core.game import Game
from hoola.core.records import toml_value

__all__ = ["json_value", "rules_data", "sentence"]


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first and a full stop last."""
    text = text.strip()
    if not text:
        return text
    return text[0].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def json_value(value: object) -> object:
    """An option value as JSON: fractions as exact decimals, else as "1/3"; tables as objects."""
    if isinstance(value, Fraction):
        decimal = float(value)
        return decimal if Fraction(repr(decimal)) == value else str(value)
    if isinstance(value, tuple):
        return {str(k): v for k, v in value}
    return value


def rules_data(game: Game, preset: str) -> dict[str, Any]:
    """The game's presets and options under ``preset`` (a RulesError for an unknown one)."""
    chosen = game.rules(preset).options()
    # A game from outside the project may not say how to play it yet.
    how = getattr(game, "how_to_play", None)
    return {
        "game": game.name, "title": game.title,
        "how_to_play": how(preset) if callable(how) else "",
        "presets": [{"name": p.name, "title": p.title or p.name, "is_game": p.is_game,
                     "meaning": p.meaning, "source": p.source,
                     "sets": {k: json_value(v) for k, v in p.changes.items()}}
                    for p in game.presets()],
        "preset": preset,
        "options": [{"key": o.key, "value": json_value(chosen[o.key]),
                     "toml": toml_value(chosen[o.key]), "meaning": sentence(o.doc),
                     "values": o.values} for o in game.option_infos()],
    }

"""What a tournament plays: its format, the game and rules of its tables, and the format's
settings, checked once so that no table fails to start later.

Settings (a record's ``[settings]``; ``hoola tournament`` takes each as an option):

| key | formats | meaning | default |
|---|---|---|---|
| ``table_size`` | swiss, knockout | players at a table | 4 |
| ``rounds`` | swiss | rounds played | 3 |
| ``points`` | swiss | points by place at a table, first place first | k-1, ..., 1, 0 |
| ``bye`` | swiss | points of a bye | the mean of ``points`` |
| ``advance`` | knockout | places of each table that go on | half the table |
| ``deals`` | all | the most deals a table plays (Hoola plays them all) | 4, 200, 1000 |
| ``tables`` | blackpool | tables in all (ruling 16; at most two semi-finals' seats) | 8 |

``deals`` defaults to 4 for Hoola, which has no end of its own, 200 for the other games and
1000 at Blackpool's tables.

>>> s = Settings.make("swiss", table_size=4)
>>> [str(p) for p in s.points], str(s.bye)
(['3', '2', '1', '0'], '3/2')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from hoola.core.errors import HoolaError
from hoola.core.game import Game
from hoola.core.registry import get_game
from hoola.tournament.events import TournamentError, read_amount

__all__ = ["BLACKPOOL_ENTRANTS", "FORMATS", "Settings", "check_sizes", "table_rules"]

FORMATS: Final = ("swiss", "knockout", "blackpool")
BLACKPOOL_ENTRANTS: Final = (8, 32)
"""The fewest and the most entrants of a Blackpool tournament (ruling 16)."""

_KEYS: Final = {
    "swiss": ("table_size", "rounds", "points", "bye", "deals"),
    "knockout": ("table_size", "advance", "deals"),
    "blackpool": ("deals", "tables"),
}


def _bad(message: str) -> TournamentError:
    return TournamentError(message, "bad-settings")


def _whole(key: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad(f"setting {key} = {value!r} must be a whole number from {low} to {high}")
    return value


@dataclass(frozen=True, slots=True)
class Settings:
    """A format's settings, validated; :meth:`make` fills the defaults."""

    format: str
    table_size: int = 4
    rounds: int = 3
    points: tuple[Fraction, ...] = ()
    bye: Fraction = Fraction(0)
    advance: int = 2
    deals: int = 200
    tables: int = 8

    @classmethod
    def make(cls, format: str, game: str | None = None, **given: Any) -> Settings:
        """Settings of ``format`` from those ``given`` (a record's ``[settings]``), the rest by
        default; a TournamentError names an unknown key or a bad value."""
        if format not in FORMATS:
            raise _bad(f"unknown tournament format {format!r}: the formats are "
                       f"{', '.join(FORMATS)}")
        unknown = sorted(k for k in given if k not in _KEYS[format])
        if unknown:
            raise _bad(f"a {format} tournament has no setting {unknown[0]!r}; its settings are "
                       f"{', '.join(_KEYS[format])}")
        size = _whole("table_size", given.get("table_size", 4), 2, 16)
        points_given = given.get("points")
        if points_given is None:
            points = tuple(Fraction(size - 1 - i) for i in range(size))
        else:
            if not isinstance(points_given, list | tuple) or len(points_given) != size:
                raise _bad(f"setting points must list {size} numbers, one a place at a table "
                           f"of {size}")
            points = tuple(read_amount(p, "a place's points") for p in points_given)
        bye = read_amount(given["bye"], "setting bye") if "bye" in given else \
            sum(points, Fraction(0)) / len(points)
        # A table plays to its game's own end, within a bound; a game with no end of its own
        # (Hoola) plays a short match.
        deals_default = 1000 if format == "blackpool" else \
            200 if get_game(game).ends_by_itself else 4
        return cls(
            format=format, table_size=size,
            rounds=_whole("rounds", given.get("rounds", 3), 1, 100),
            points=points, bye=bye,
            advance=_whole("advance", given.get("advance", max(1, size // 2)), 1, size - 1),
            deals=_whole("deals", given.get("deals", deals_default), 1, 10_000),
            tables=_whole("tables", given.get("tables", 8), 2, 64))

    def as_mapping(self) -> dict[str, Any]:
        """The settings the format uses, as a record's ``[settings]`` writes them."""
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out = {k: values[k] for k in _KEYS[self.format]}
        if "points" in out:
            out["points"] = list(self.points)
        return out


def table_rules(game: Game, preset: str | None, options: Mapping[str, Any], format: str) -> Any:
    """The rules every table plays: the preset with its options; at a Blackpool table nobody
    buys in (``buy_ins = 0``: a player over the target leaves the table, ruling 16)."""
    if format == "blackpool":
        if not any(p.name == "blackpool" for p in game.presets()):
            raise _bad(f"the Blackpool tournament is played at Kalookie, not {game.name}")
        rules = game.rules(preset or "blackpool", {**options, "buy_ins": 0})
        if rules.scoring != "pool":
            raise _bad("the Blackpool tournament is a pool game: its tables need scoring = "
                       "\"pool\"")
        return rules
    return game.rules(preset, options)


def check_sizes(game_name: str, rules: Any, sizes: set[int]) -> None:
    """Raise a TournamentError unless a table of each size in ``sizes`` may play ``rules``."""
    game = get_game(game_name)
    for size in sorted(sizes):
        try:
            game.new_match(rules, [f"P{i + 1}" for i in range(size)], seed=0)
        except HoolaError as exc:
            raise _bad(f"tables of {size} cannot play these rules: {exc.message}") from exc

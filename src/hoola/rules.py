"""Rule options as data: one frozen :class:`Rules` value and the named presets.

Keys and presets follow ``shared/spec/hoola-rules.md``; the options the project adds for variations
the spec does not name yet (``knock_rule``, ``hertzog_no_meld_stake``, ``glenn_melds``) are in
``docs/rulings.md``.

>>> r = Rules.preset("classic")
>>> r.claims, r.four_sevens_timing
('next-only', 'turn-start')
>>> Rules.preset("pagat", knock_limit={2: 5, 4: 15}).knock_limit_for(3)
5
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from hoola.errors import RulesError

__all__ = ["PRESETS", "PRESET_SOURCES", "Rules"]

Number = int | Fraction

_CHOICES: dict[str, tuple[str, ...]] = {
    "claims": ("battle", "battle-next-priority", "next-only"),
    "face_values": ("standard", "ten"),
    "four_sevens_timing": ("any-time", "turn-start"),
    "no_meld_last": ("after-turn", "always", "never"),
    "no_meld_double": ("after-turn", "always", "never"),
    "seven_double": ("after-turn", "always", "never"),
    "discarder_pays_all": ("any-out", "hoola-only", "never"),
    "undercut": ("pays-all", "fixed"),
    "joker_value": ("double", "quintuple", "zero", "fourteen-triple", "twenty", "thirty"),
    "joker_multiplier": ("after-turn", "always"),
    "payments": ("rank", "hertzog"),
    "direction": ("anticlockwise", "clockwise"),
    "knock_rule": ("limit", "dealer-one-card"),
}
_NUMBERS = ("undercut_penalty", "dropout_compensation", "hertzog_no_meld_stake")


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option of a Hoola game; build one with :meth:`preset`.

    ``knock_limit`` is an int, or a tuple of ``(player_count, limit)`` pairs (a mapping is accepted
    and converted). ``preset`` names the preset the value was built from, so records can write the
    difference as ``[options]``.
    """

    preset_name: str = "pagat"
    claims: str = "battle"
    wrap_runs: bool = True
    lay_off_needs_own_meld: bool = True
    seven_set_extend: bool = False
    discard_to_go_out: bool = False
    knock_limit: int | tuple[tuple[int, int], ...] = 10
    knocks: bool = True
    blasts: bool = True
    four_sevens: bool = True
    hoola_only_out: bool = False
    blast_low: int = 15
    blast_high: int = 83
    seven_value_blast: int = 7
    seven_value_end: int = 14
    face_values: str = "standard"
    quad_in_hand_free: bool = False
    four_sevens_timing: str = "any-time"
    four_melded_sevens_win: bool = False
    grouping_sevens: bool = False
    no_meld_last: str = "after-turn"
    no_meld_double: str = "after-turn"
    seven_double: str = "after-turn"
    seven_in_hand_last: bool = False
    hoola_multiplier: int = 4
    hoola_needs_all_played: bool = False
    hoola_doubles_next: bool = False
    discarder_pays_all: str = "any-out"
    undercut: str = "pays-all"
    undercut_penalty: Number = 5
    pay_all_doubles: bool = False
    claim_for_blast_or_sevens: bool = False
    blast_multiplier: int = 1
    sevens_multiplier: int = 1
    jokers: int = 0
    joker_value: str = "double"
    joker_multiplier: str = "after-turn"
    joker_as_seven: bool = False
    dropout_compensation: Number = Fraction(1, 4)
    payments: str = "rank"
    direction: str = "anticlockwise"
    knock_rule: str = "limit"
    hertzog_no_meld_stake: Number = Fraction(1, 2)
    glenn_melds: bool = False

    # Computed from face_values, not an option.
    _values: tuple[int, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        for key, allowed in _CHOICES.items():
            value = getattr(self, key)
            if value not in allowed:
                raise RulesError(f"option {key} = {value!r} is not one of {', '.join(allowed)}",
                                 "bad-option-value")
        for key in _NUMBERS:
            value = getattr(self, key)
            try:
                number = Fraction(value) if not isinstance(value, bool) else None
            except (TypeError, ValueError, ZeroDivisionError):
                number = None
            if number is None or number < 0:
                raise RulesError(f"option {key} = {value!r} must be a number of zero or more",
                                 "bad-option-value")
            object.__setattr__(self, key, int(number) if number.denominator == 1 else number)
        for f in dataclasses.fields(self):
            if f.name.startswith("_") or f.name == "preset_name" or f.name in _CHOICES:
                continue
            value = getattr(self, f.name)
            if isinstance(f.default, bool) and not isinstance(value, bool):
                raise RulesError(f"option {f.name} = {value!r} must be true or false",
                                 "bad-option-value")
            if f.name in ("blast_low", "blast_high", "seven_value_blast", "seven_value_end",
                          "hoola_multiplier", "blast_multiplier", "sevens_multiplier", "jokers") \
                    and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise RulesError(f"option {f.name} = {value!r} must be a whole number of zero or "
                                 "more", "bad-option-value")
        if self.jokers not in (0, 1, 2):
            raise RulesError(f"option jokers = {self.jokers!r} must be 0, 1 or 2",
                             "bad-option-value")
        limit = self.knock_limit
        if isinstance(limit, Mapping):
            limit = tuple(sorted((int(k), v) for k, v in limit.items()))
        if isinstance(limit, bool) or not isinstance(limit, int | tuple) or (
                isinstance(limit, tuple) and (not limit or not all(
                    isinstance(v, int) and not isinstance(v, bool) for _, v in limit))):
            raise RulesError(f"option knock_limit = {self.knock_limit!r} must be a whole number or "
                             "a table such as {2 = 5, 3 = 10}", "bad-option-value")
        object.__setattr__(self, "knock_limit", limit)
        if self.preset_name not in PRESETS:
            raise RulesError(f"unknown preset {self.preset_name!r}; presets are "
                             f"{', '.join(PRESETS)}", "unknown-preset")
        court = 10 if self.face_values == "ten" else None
        values = [r + 1 for r in range(13)]
        if court:
            values[10] = values[11] = values[12] = court
        object.__setattr__(self, "_values", tuple(values))

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str = "pagat", **overrides: Any) -> Rules:
        """The named preset, with any option overridden (``Rules.preset("online", jokers=1)``)."""
        if name not in PRESETS:
            raise RulesError(f"unknown preset {name!r}; presets are {', '.join(PRESETS)}",
                             "unknown-preset")
        return cls.from_options(name, {**PRESETS[name], **overrides})

    @classmethod
    def from_options(cls, preset: str, options: Mapping[str, Any]) -> Rules:
        """Build from a preset name and a mapping of option keys (as in a record's [options])."""
        if preset not in PRESETS:
            raise RulesError(f"unknown preset {preset!r}; presets are {', '.join(PRESETS)}",
                             "unknown-preset")
        merged = {**PRESETS[preset], **options}
        for key in merged:
            if key not in cls.option_keys():
                raise RulesError(f"unknown rule option {key!r}", "unknown-option")
        values = {k: _coerce(v) for k, v in merged.items()}
        return cls(preset_name=preset, **values)

    @classmethod
    def option_keys(cls) -> tuple[str, ...]:
        """Every option key, in the order of the spec's table."""
        return tuple(f.name for f in dataclasses.fields(cls)
                     if not f.name.startswith("_") and f.name != "preset_name")

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated again)."""
        for key in changes:
            if key not in self.option_keys() and key != "preset_name":
                raise RulesError(f"unknown rule option {key!r}", "unknown-option")
        return dataclasses.replace(self, **{k: _coerce(v) for k, v in changes.items()})

    def options(self) -> dict[str, Any]:
        """Every option key with its value."""
        return {k: getattr(self, k) for k in self.option_keys()}

    def overrides(self) -> dict[str, Any]:
        """The options that differ from this value's preset (a record's ``[options]``)."""
        base = Rules.from_options(self.preset_name, {})
        return {k: v for k, v in self.options().items() if getattr(base, k) != v}

    # -- derived values -----------------------------------------------------------------------

    def knock_limit_for(self, players: int) -> int:
        """The knock limit for a deal of ``players`` players (ruling in docs/rulings.md)."""
        limit = self.knock_limit
        if isinstance(limit, int):
            return limit
        below = [v for n, v in limit if n <= players]
        return below[-1] if below else limit[0][1]

    def rank_value(self, rank: int) -> int:
        """Points of a non-seven rank (0 = ace .. 12 = king) under ``face_values``."""
        return self._values[rank]


def _coerce(value: Any) -> Any:
    if isinstance(value, float):
        f = Fraction(value).limit_denominator(1000)
        return int(f) if f.denominator == 1 else f
    if isinstance(value, str) and "/" in value:
        try:
            return Fraction(value)
        except (ValueError, ZeroDivisionError):
            return value
    if isinstance(value, list):
        raise RulesError(f"option value {value!r} must not be a list", "bad-option-value")
    if isinstance(value, Mapping):
        try:
            return tuple(sorted((int(k), v) for k, v in value.items()))
        except (TypeError, ValueError) as exc:
            raise RulesError(f"option table {value!r} needs player counts as keys",
                             "bad-option-value") from exc
    return value


PRESETS: dict[str, dict[str, Any]] = {
    "pagat": {},
    "classic": {"claims": "next-only", "four_sevens_timing": "turn-start"},
    "rummy-rulebook": {
        "quad_in_hand_free": True, "seven_double": "always", "hoola_needs_all_played": True,
        "discarder_pays_all": "hoola-only", "discard_to_go_out": True,
    },
    "online": {
        "claim_for_blast_or_sevens": True, "pay_all_doubles": True, "seven_double": "always",
        "no_meld_double": "always", "joker_multiplier": "always", "blast_multiplier": 7,
        "sevens_multiplier": 7, "blast_high": 80,
    },
    "two-player": {"knocks": False, "blasts": False, "four_sevens": False},
    "winjoy": {
        "claim_for_blast_or_sevens": True, "pay_all_doubles": True, "seven_double": "always",
        "no_meld_double": "always", "joker_multiplier": "always", "blast_multiplier": 7,
        "sevens_multiplier": 7, "seven_value_blast": 14,
    },
    "two-player-hoola-only": {"knocks": False, "blasts": False, "four_sevens": False,
                              "hoola_only_out": True},
    "old": {"claims": "next-only", "four_sevens_timing": "turn-start", "grouping_sevens": True,
            "four_melded_sevens_win": True},
    "hertzog": {"payments": "hertzog", "knock_rule": "dealer-one-card"},
    "glenn": {"glenn_melds": True},
    "court-ten": {"face_values": "ten"},
}

PRESET_SOURCES: dict[str, str] = {
    "pagat": "Battle Hoola as described on pagat.com (shared/seeds/hoola-pagat.txt).",
    "classic": "Older non-battle Hoola (pagat 'Hoola without Battles' and 'Waiting to claim Four "
               "Sevens'): only the next player takes a discard; four sevens at turn start.",
    "rummy-rulebook": "The Rummy Rulebook as noted on the Japanese page (hoola-japanese.txt, "
                      "note 3).",
    "online": "Online platforms (pagat 'Online Hoola': Hangame, Pmang, Winjoy): claims for "
              "blasts and sevens, doubled pay-all, x7 blasts and sevens, daepang at 80.",
    "two-player": "Two players without knocks, blasts or four sevens (pagat variations).",
    "winjoy": "Online rules as on Winjoy: sevens count 14 for blasts too (pagat 'Online Hoola').",
    "two-player-hoola-only": "Two players, going out only with a Hoola (pagat variations).",
    "old": "Traditional rules with sevens now rarely played (pagat): non-battle claims, four "
           "sevens at turn start, grouping sevens, winning with four melded sevens.",
    "hertzog": "Hertzog's payments and dealer-only stop (pagat doubtful variant 2).",
    "glenn": "Glenn's killed melds (pagat doubtful variant 3; docs/rulings.md).",
    "court-ten": "Picture cards count ten; a daepang is seven court cards (pagat doubtful "
                 "variant 1, Rummy Rulebook note 5).",
}

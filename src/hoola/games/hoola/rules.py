"""Rule options as data: one frozen :class:`Rules` value and the named presets.

Keys and presets follow ``shared/spec/hoola-rules.md``; the options the project adds for variations
the spec does not name yet (``knock_rule``, ``hertzog_no_meld_stake``) are in ``docs/rulings.md``,
with how the engine reads ruling 21 (``glenn_melds``).

>>> r = Rules.preset("classic")
>>> r.claims, r.four_sevens_timing
('next-only', 'turn-start')
>>> Rules.preset("pagat", knock_limit={2: 5, 4: 15}).knock_limit_for(3)
5
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from hoola.core.errors import RulesError
from hoola.core.records import toml_value

__all__ = ["OPTION_DOCS", "PRESETS", "PRESET_DOCS", "PRESET_SOURCES", "OptionDoc", "PresetDoc",
           "Rules", "toml_value"]

Number = int | Fraction
PLAYER_COUNTS = range(2, 8)


@dataclass(frozen=True, slots=True)
class OptionDoc:
    """One rule option as data: its kind, the values it takes, and what it means, in one line.

    ``kind`` is ``choice`` (one of ``choices``), ``bool``, ``whole`` (a whole number from
    ``minimum`` to ``maximum``), ``number`` (a whole number or fraction, zero or more) or
    ``knock-limit`` (a whole number, or a table by player count). Every front end shows these;
    :class:`Rules` checks values against them.
    """

    key: str
    kind: str
    meaning: str
    choices: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int | None = None

    @property
    def values(self) -> str:
        """The values the option takes, in the records' TOML spelling."""
        if self.kind == "choice":
            return ", ".join(f'"{c}"' for c in self.choices)
        if self.kind == "bool":
            return "true, false"
        if self.kind == "whole" and self.maximum is not None:
            return ", ".join(str(v) for v in range(self.minimum, self.maximum + 1))
        if self.kind == "whole":
            return f"a whole number, {self.minimum} or more"
        if self.kind == "number":
            return 'a number, 0 or more (2, 0.25, or "1/3")'
        return "a whole number, or a table by player count such as {2 = 5, 3 = 10, 4 = 15}"

    def check(self, value: Any) -> Any:
        """``value`` made canonical (fractions exact, tables as sorted pairs), or a RulesError."""
        if isinstance(value, float) and value.is_integer() and self.kind != "number":
            value = int(value)  # TOML and JSON may spell a whole number 15.0
        if self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return value
        elif self.kind == "bool":
            if isinstance(value, bool):
                return value
        elif self.kind == "whole":
            if _is_whole(value) and value >= self.minimum and (
                    self.maximum is None or value <= self.maximum):
                return value
        elif self.kind == "number":
            number = _fraction(value)
            if number is not None and number >= 0:
                return int(number) if number.denominator == 1 else number
        else:
            limit = _knock_limit(value)
            if limit is not None:
                return limit
        raise RulesError(f"option {self.key} = {_spelled(value)} is not allowed: the values "
                         f"are {self.values}", "bad-option-value")


def _spelled(value: Any) -> str:
    """A refused value as the user most likely wrote it (TOML where it has a spelling)."""
    if isinstance(value, bool | str | int | Fraction):
        return toml_value(value)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k} = {_spelled(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_spelled(v) for v in value) + "]"
    return repr(value)


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _fraction(value: Any) -> Fraction | None:
    """An exact number from an int, a Fraction, a float or a string such as "1/3"; else None."""
    if isinstance(value, bool) or not isinstance(value, int | Fraction | float | str):
        return None
    try:
        # A float's shortest text is what the user wrote: 0.1 is 1/10, not the binary value.
        return Fraction(repr(value) if isinstance(value, float) else value)
    except (ValueError, ZeroDivisionError, OverflowError):
        return None


def _knock_limit(value: Any) -> int | tuple[tuple[int, int], ...] | None:
    """A knock limit as an int or as sorted ``(player_count, limit)`` pairs; None if malformed."""
    if _is_whole(value):
        return value if value >= 0 else None
    if isinstance(value, Mapping):
        pairs: list[Any] = list(value.items())
    elif isinstance(value, tuple):
        pairs = list(value)
    else:
        return None
    table: dict[int, int] = {}
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            return None
        count, limit = pair
        if isinstance(count, str) and count.strip().isdigit():
            count = int(count)  # TOML table keys are strings
        if not _is_whole(count) or count not in PLAYER_COUNTS or count in table \
                or not _is_whole(limit) or limit < 0:
            return None
        table[count] = limit
    return tuple(sorted(table.items())) or None


def _options(*docs: OptionDoc) -> dict[str, OptionDoc]:
    return {d.key: d for d in docs}


_WHEN = ("after-turn", "always", "never")
OPTION_DOCS: dict[str, OptionDoc] = _options(
    OptionDoc("claims", "choice", "who may take a discard out of turn, and who wins a contested "
              "one (ruling 2)", ("battle", "battle-next-priority", "next-only")),
    OptionDoc("wrap_runs", "bool", "runs may wrap K-A-2; without, an ace ends a run at either "
              "end"),
    OptionDoc("lay_off_needs_own_meld", "bool", "adding to melds only after laying down a new "
              "meld of one's own (ruling 5)"),
    OptionDoc("seven_set_extend", "bool", "a set of three sevens takes the fourth seven"),
    OptionDoc("discard_to_go_out", "bool", "going out needs a last card to discard"),
    OptionDoc("knock_limit", "knock-limit", "the most points in hand for a knock (ruling 8)"),
    OptionDoc("knocks", "bool", "knocking ends play"),
    OptionDoc("blasts", "bool", "blasts (sopang, daepang) end play"),
    OptionDoc("four_sevens", "bool", "showing four sevens in hand ends play"),
    OptionDoc("hoola_only_out", "bool", "going out only with a Hoola"),
    OptionDoc("blast_low", "whole", "a sopang is seven cards of at most this many points"),
    OptionDoc("blast_high", "whole", "a daepang is seven cards of at least this many points"),
    OptionDoc("seven_value_blast", "whole", "a seven's points when counting a blast"),
    OptionDoc("seven_value_end", "whole", "a seven's points in hand at the end and for a knock"),
    OptionDoc("face_values", "choice", "J Q K count 11 12 13, or 10 each (a daepang is then seven "
              "court cards)", ("standard", "ten")),
    OptionDoc("quad_in_hand_free", "bool", "four of a kind in hand counts nothing at the end"),
    OptionDoc("four_sevens_timing", "choice", "when four sevens may be shown: at any moment, or "
              "at the start of one's turn", ("any-time", "turn-start")),
    OptionDoc("four_melded_sevens_win", "bool", "melding all four sevens wins, unless that card "
              "goes out (ruling 19)"),
    OptionDoc("grouping_sevens", "bool", "two sevens from hand take a lone melded seven into a "
              "set"),
    OptionDoc("no_meld_last", "choice", "a loser who melded nothing ranks last", _WHEN),
    OptionDoc("no_meld_double", "choice", "a loser who melded nothing pays double", _WHEN),
    OptionDoc("seven_double", "choice", "a loser pays double for each seven in hand", _WHEN),
    OptionDoc("seven_in_hand_last", "bool", "a loser holding a seven ranks last"),
    OptionDoc("hoola_multiplier", "whole", "every loser's payment after a Hoola is multiplied "
              "by this", minimum=1),
    OptionDoc("hoola_needs_all_played", "bool", "a Hoola counts only once every other player "
              "has had a turn"),
    OptionDoc("hoola_doubles_next", "bool", "the deal after a Hoola is played at double stake"),
    OptionDoc("discarder_pays_all", "choice", "the discarder whose card the winner went out with "
              "pays every loser's amount", ("any-out", "hoola-only", "never")),
    OptionDoc("undercut", "choice", "an undercut knocker pays every loser's amount, or a fixed "
              "penalty", ("pays-all", "fixed")),
    OptionDoc("undercut_penalty", "number", "with undercut = \"fixed\": what the knocker pays "
              "each opponent"),
    OptionDoc("pay_all_doubles", "bool", "a one-pays-all total is doubled at any table size"),
    OptionDoc("claim_for_blast_or_sevens", "bool", "a discard may be taken to complete a blast "
              "or four sevens"),
    OptionDoc("blast_multiplier", "whole", "payments after a blast are multiplied by this",
              minimum=1),
    OptionDoc("sevens_multiplier", "whole", "payments after four sevens are multiplied by this",
              minimum=1),
    OptionDoc("jokers", "whole", "jokers in the pack (ruling 18)", maximum=2),
    OptionDoc("joker_value", "choice", "what a joker left in hand counts", (
        "double", "quintuple", "zero", "fourteen-triple", "twenty", "thirty")),
    OptionDoc("joker_multiplier", "choice", "when a joker multiplies the rest of the hand",
              ("after-turn", "always")),
    OptionDoc("joker_as_seven", "bool", "a joker may complete four sevens"),
    OptionDoc("dropout_compensation", "number", "six or seven players: stakes per unit in hand "
              "to a player forced to drop"),
    OptionDoc("payments", "choice", "losers pay by rank, or Hertzog's 3/2/1", ("rank",
                                                                                "hertzog")),
    OptionDoc("direction", "choice", "how interfaces draw the order of play",
              ("anticlockwise", "clockwise")),
    OptionDoc("missions", "bool", "a mission drawn each deal multiplies the payments to a "
              "single winner who performs its feat (ruling 20; the project's own list of feats)"),
    OptionDoc("knock_rule", "choice", "who may stop the play without going out: a knock under "
              "the limit, or Hertzog's dealer holding one card", ("limit", "dealer-one-card")),
    OptionDoc("hertzog_no_meld_stake", "number", "with payments = \"hertzog\": what a loser "
              "who melded nothing pays"),
    OptionDoc("glenn_melds", "bool", "Glenn's building (ruling 21): runs and sets are built on "
              "a meld's top card, and a meld or branch reaching four cards is killed"),
)


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
    missions: bool = False
    knock_rule: str = "limit"
    hertzog_no_meld_stake: Number = Fraction(1, 2)
    glenn_melds: bool = False

    # Computed from face_values, not an option.
    _values: tuple[int, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.preset_name, str) or self.preset_name not in PRESETS:
            raise _unknown_preset(self.preset_name)
        for key, doc in OPTION_DOCS.items():
            object.__setattr__(self, key, doc.check(getattr(self, key)))
        court = 10 if self.face_values == "ten" else None
        values = [r + 1 for r in range(13)]
        if court:
            values[10] = values[11] = values[12] = court
        object.__setattr__(self, "_values", tuple(values))

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str = "pagat", **overrides: Any) -> Rules:
        """The named preset, with any option overridden (``Rules.preset("online", jokers=1)``)."""
        return cls.from_options(name, overrides)

    @classmethod
    def from_options(cls, preset: str, options: Mapping[str, Any]) -> Rules:
        """Build from a preset name and a mapping of option keys (as in a record's [options])."""
        if not isinstance(preset, str) or preset not in PRESETS:
            raise _unknown_preset(preset)
        if not isinstance(options, Mapping):
            raise RulesError(f"the options must be a table of keys and values, not {options!r}",
                             "bad-option-value")
        _check_keys(options)
        return cls(preset_name=preset, **{**PRESETS[preset], **options})

    @classmethod
    def option_keys(cls) -> tuple[str, ...]:
        """Every option key, in the order of the spec's table."""
        return tuple(OPTION_DOCS)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated again)."""
        _check_keys({k: v for k, v in changes.items() if k != "preset_name"})
        return dataclasses.replace(self, **changes)

    def options(self) -> dict[str, Any]:
        """Every option key with its value."""
        return {k: getattr(self, k) for k in OPTION_DOCS}

    def overrides(self) -> dict[str, Any]:
        """The options that differ from this value's preset (a record's ``[options]``)."""
        base = _preset(self.preset_name)
        return {k: v for k, v in self.options().items() if getattr(base, k) != v}

    # -- derived values -----------------------------------------------------------------------

    def knock_limit_for(self, players: int) -> int:
        """The knock limit for a deal of ``players`` players (ruling in docs/rulings.md)."""
        if not _is_whole(players) or players not in PLAYER_COUNTS:
            raise RulesError(f"a knock limit is for 2 to 7 players, not {players!r}",
                             "bad-player-count")
        limit = self.knock_limit
        if isinstance(limit, int):
            return limit
        below = [v for n, v in limit if n <= players]
        return below[-1] if below else limit[0][1]

    def rank_value(self, rank: int) -> int:
        """Points of a non-seven rank (0 = ace .. 12 = king) under ``face_values``."""
        if not _is_whole(rank) or not 0 <= rank <= 12:
            raise RulesError(f"rank {rank!r} is not a rank (0 = ace to 12 = king)", "bad-rank")
        return self._values[rank]


@functools.cache
def _preset(name: str) -> Rules:
    # Rules are frozen, so one value per preset serves every overrides(): a view's to_json()
    # asks for it at every move, and building and checking a preset each time was 6% of the
    # game server's time.
    return Rules.from_options(name, {})


def _unknown_preset(name: object) -> RulesError:
    return RulesError(f"unknown preset {name!r}; presets are {', '.join(PRESETS)}",
                      "unknown-preset")


def _check_keys(options: Mapping[Any, Any]) -> None:
    for key in options:
        if key not in OPTION_DOCS:
            raise RulesError(f"unknown rule option {key!r}", "unknown-option")


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
    "online-missions": {
        "claim_for_blast_or_sevens": True, "pay_all_doubles": True, "seven_double": "always",
        "no_meld_double": "always", "joker_multiplier": "always", "blast_multiplier": 7,
        "sevens_multiplier": 7, "blast_high": 80, "missions": True,
    },
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

@dataclass(frozen=True, slots=True)
class PresetDoc:
    """One preset as data: what it plays like, in one line, and where it comes from."""

    name: str
    meaning: str
    source: str

    @property
    def changes(self) -> dict[str, Any]:
        """The options the preset sets differently from pagat (canonical values)."""
        rules, pagat = Rules.preset(self.name), Rules.preset("pagat")
        return {k: v for k, v in rules.options().items() if getattr(pagat, k) != v}


PRESET_DOCS: dict[str, PresetDoc] = {d.name: d for d in (
    PresetDoc("pagat", "Battle Hoola: anyone may claim a discard; the default.",
              "pagat.com's Hoola (shared/seeds/hoola-pagat.txt)."),
    PresetDoc("classic", "Hoola without battles: only the next player takes a discard; four "
              "sevens only at turn start.",
              "pagat 'Hoola without Battles' and 'Waiting to claim Four Sevens'."),
    PresetDoc("rummy-rulebook", "Quads in hand free, sevens always double, Hoola only once all "
              "have played and only it makes the discarder pay all, a discard to go out.",
              "The Rummy Rulebook as noted on the Japanese page (hoola-japanese.txt, note 3)."),
    PresetDoc("online", "Claims for blasts and sevens, doubled pay-all, x7 blasts and sevens, "
              "daepang at 80.", "pagat 'Online Hoola' (Hangame, Pmang, Winjoy)."),
    PresetDoc("two-player", "Two players without knocks, blasts or four sevens.",
              "pagat variations: 'Two Players without Knocks, Blasts, etc.'"),
    PresetDoc("online-missions", "The online rules with missions: each deal a random feat "
              "(the project's own list) multiplies a single winner's payments by 2, 3 or 4.",
              "pagat 'Online Hoola' (an extra random multiplier for particular feats); the "
              "portals' lists are unpublished, so the feats are the project's own (ruling 20)."),
    PresetDoc("winjoy", "Online rules with sevens counting 14 for blasts too (daepang at 83).",
              "pagat 'Online Hoola': Winjoy."),
    PresetDoc("two-player-hoola-only", "Two players without knocks, blasts or four sevens, "
              "going out only with a Hoola.", "pagat variations: 'Some only allow going out "
              "with Hoola'."),
    PresetDoc("old", "Traditional rules with sevens: next-only claims, four sevens at turn start, "
              "grouping sevens, four melded sevens win.",
              "pagat: the rules with sevens now rarely played."),
    PresetDoc("hertzog", "Hertzog's 3/2/1 payments; only the dealer holding one card may stop "
              "the play.", "pagat doubtful variant 2."),
    PresetDoc("glenn", "Glenn's building: runs and sets built on a meld's top card; a meld or "
              "branch that reaches four cards leaves the table.",
              "pagat doubtful variant 3 (ruling 21; docs/rulings.md)."),
    PresetDoc("court-ten", "Picture cards count ten; a daepang is seven court cards.",
              "pagat doubtful variant 1, Rummy Rulebook note 5."),
)}

PRESET_SOURCES: dict[str, str] = {name: doc.source for name, doc in PRESET_DOCS.items()}
"""Where each preset comes from (kept for callers of the earlier name; see PRESET_DOCS)."""

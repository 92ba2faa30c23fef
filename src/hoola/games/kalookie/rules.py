"""Kalookie's rule options as data: one frozen :class:`Rules` value, the presets and their docs.

Keys, values and presets follow ``shared/spec/kalookie-rules.md`` (its options table); what the
project rules where the spec is silent is in ``docs/kalookie-rulings.md``.

>>> r = Rules.preset("north-american")
>>> r.hand_size_for(5), r.hand_size_for(3), r.pack_size
(13, 15, 108)
>>> Rules.preset("british", target=100).overrides()
{'target': 100}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hoola.core.errors import RulesError
from hoola.core.game import OptionInfo, PresetInfo

__all__ = ["OPTIONS", "PRESETS", "Rules"]

Number = int | Fraction
_LIMIT = 10**6  # no option value needs more; larger ones are typing slips

_CHOICES: dict[str, tuple[str, ...]] = {
    "aces": ("high", "high-or-low"),
    "run_build_limit": ("two-per-end", "two-total", "none"),
    "joker_release": ("both-suits", "interior", "one-card"),
    "discard_take": ("initial-or-melded", "meld-at-once"),
    "warnings": ("auto", "manual"),
    "reshuffle": ("once", "never"),
    "scoring": ("pool", "points", "cards"),
}
_BOOLS = ("initial_counts_builds", "kalookie_without_initial", "joker_sets", "identical_sets",
          "kalookie_double_penalties", "upcard_swap", "cut_joker")
_WHOLE = {"decks": (1, 3), "jokers": (0, 8), "joker_penalty": (0, _LIMIT),
          "ace_penalty": (0, _LIMIT), "initial_meld": (0, _LIMIT), "target": (1, _LIMIT),
          "buy_ins": (0, _LIMIT)}
_STAKES = ("call_up", "kalookie_stake", "initial_stake", "buy_in")
DEFAULT_PLAYERS = (2, 3, 4, 5)  # the seed: "from two to five players"


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option of a Kalookie game; build one with :meth:`preset`.

    ``hand_size`` is an int, or a tuple of ``(players, size)`` pairs (a mapping such as
    ``{2 = 15, 5 = 13}`` is accepted and converted); its keys are then the player counts allowed.
    """

    preset_name: str = "british"
    decks: int = 2
    jokers: int = 2
    hand_size: int | tuple[tuple[int, int], ...] = 13
    joker_penalty: int = 15
    ace_penalty: int = 11
    aces: str = "high"
    initial_meld: int = 40
    initial_counts_builds: bool = False
    kalookie_without_initial: bool = False
    run_build_limit: str = "two-per-end"
    joker_release: str = "both-suits"
    joker_sets: bool = False
    identical_sets: bool = False
    discard_take: str = "initial-or-melded"
    warnings: str = "auto"
    reshuffle: str = "once"
    target: int = 150
    call_up: Number = 1
    kalookie_stake: Number = 2
    initial_stake: Number = 5
    buy_in: Number = 5
    buy_ins: int = 2
    kalookie_double_penalties: bool = False
    scoring: str = "pool"
    upcard_swap: bool = False
    cut_joker: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.preset_name, str) or self.preset_name not in PRESETS:
            raise RulesError(f"unknown Kalookie preset {self.preset_name!r}: the presets are "
                             f"{', '.join(PRESETS)}", "unknown-preset")
        for key, allowed in _CHOICES.items():
            if getattr(self, key) not in allowed:
                raise RulesError(f"option {key} = {getattr(self, key)!r} is not one of "
                                 f"{', '.join(allowed)}", "bad-option-value")
        for key in _BOOLS:
            if not isinstance(getattr(self, key), bool):
                raise RulesError(f"option {key} = {getattr(self, key)!r} must be true or false",
                                 "bad-option-value")
        for key, (low, high) in _WHOLE.items():
            value = getattr(self, key)
            if not _is_int(value) or not low <= value <= high:
                raise RulesError(f"option {key} = {value!r} must be a whole number from {low} to "
                                 f"{high}", "bad-option-value")
        for key in _STAKES:
            object.__setattr__(self, key, _stake(key, getattr(self, key)))
        object.__setattr__(self, "hand_size", _hand_size(self.hand_size))

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str = "british", **overrides: Any) -> Rules:
        """The named preset with any option overridden (``Rules.preset("british", target=100)``)."""
        return cls.from_options(name, overrides)

    @classmethod
    def from_options(cls, preset: str, options: Mapping[str, Any]) -> Rules:
        """Rules from a preset name and option overrides (a record's ``[options]``)."""
        if not isinstance(preset, str) or preset not in PRESETS:
            raise RulesError(f"unknown Kalookie preset {preset!r}: the presets are "
                             f"{', '.join(PRESETS)}", "unknown-preset")
        if not isinstance(options, Mapping):
            raise RulesError("Kalookie options must be a table of key = value", "bad-option-value")
        keys = cls.option_keys()
        for key in options:
            if key not in keys:
                raise RulesError(f"unknown Kalookie rule option {key!r}", "unknown-option")
        return cls(preset_name=preset, **{**PRESETS[preset], **options})

    @classmethod
    def option_keys(cls) -> tuple[str, ...]:
        """Every option key, in the order of the spec's table."""
        return tuple(f.name for f in dataclasses.fields(cls) if f.name != "preset_name")

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated again)."""
        return Rules.from_options(self.preset_name, {**self.overrides(), **changes})

    def options(self) -> dict[str, Any]:
        """Every option key with its value."""
        return {k: getattr(self, k) for k in self.option_keys()}

    def overrides(self) -> dict[str, Any]:
        """The options that differ from this value's preset (a record's ``[options]``)."""
        base = Rules(preset_name=self.preset_name, **PRESETS[self.preset_name])
        return {k: v for k, v in self.options().items() if getattr(base, k) != v}

    # -- derived values -----------------------------------------------------------------------

    @property
    def pack_size(self) -> int:
        """Cards in the pack: 52 per deck and the jokers."""
        return 52 * self.decks + self.jokers

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The player counts allowed: the keys of a ``hand_size`` table, else two to five."""
        if isinstance(self.hand_size, tuple):
            return tuple(n for n, _ in self.hand_size)
        return DEFAULT_PLAYERS

    def hand_size_for(self, players: int) -> int:
        """Cards dealt to each of ``players`` players."""
        if isinstance(self.hand_size, int):
            return self.hand_size
        for n, size in self.hand_size:
            if n == players:
                return size
        raise RulesError(f"these rules deal no hand for {players} players (hand_size has "
                         f"{', '.join(str(n) for n, _ in self.hand_size)})", "bad-player-count")

    def check_players(self, players: int) -> None:
        """Raise a RulesError unless ``players`` may play a hand under these rules."""
        if not _is_int(players) or players not in self.player_counts:
            counts = [str(n) for n in self.player_counts]
            allowed = counts[0] if len(counts) == 1 else \
                f"{', '.join(counts[:-1])} or {counts[-1]}"
            raise RulesError(f"Kalookie under these rules is played by {allowed} players, not "
                             f"{players!r}", "bad-player-count")
        dealt = players * self.hand_size_for(players) + 1
        if dealt >= self.pack_size:
            raise RulesError(f"{players} hands of {self.hand_size_for(players)} cards and an "
                             f"upcard leave no stock in a pack of {self.pack_size} cards",
                             "bad-player-count")

    def card_value(self, card: int) -> int:
        """Penalty points of a card left in hand: ace ``ace_penalty``, joker ``joker_penalty``."""
        if card >= 52:
            return self.joker_penalty
        rank = card % 13
        return self.ace_penalty if rank == 0 else min(rank + 1, 10)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _stake(key: str, value: Any) -> Number:
    number: Fraction | None = None
    if isinstance(value, int | Fraction) and not isinstance(value, bool):
        number = Fraction(value)
    elif isinstance(value, float) and value == value and abs(value) <= _LIMIT:
        number = Fraction(repr(value))
    elif isinstance(value, str) and len(value) <= 20:
        try:
            number = Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            number = None
    if number is None or not 0 <= number <= _LIMIT:
        raise RulesError(f"option {key} = {value!r} must be a number from 0 to {_LIMIT}",
                         "bad-option-value")
    return int(number) if number.denominator == 1 else number


def _hand_size(value: Any) -> int | tuple[tuple[int, int], ...]:
    bad = RulesError(f"option hand_size = {value!r} must be a whole number from 1 to 30, or a "
                     "table of player count = size such as {2 = 15, 5 = 13}", "bad-option-value")
    if _is_int(value):
        if not 1 <= value <= 30:
            raise bad
        return int(value)
    pairs: list[tuple[Any, Any]]
    if isinstance(value, Mapping):
        pairs = list(value.items())
    elif isinstance(value, tuple | list):
        pairs = [tuple(p) if isinstance(p, tuple | list) else (p, None) for p in value]
    else:
        raise bad
    table: dict[int, int] = {}
    for key, size in pairs:
        try:
            players = int(key)
        except (TypeError, ValueError):
            raise bad from None
        if isinstance(key, bool) or str(players) != str(key).strip() or not 2 <= players <= 8 \
                or not _is_int(size) or not 1 <= size <= 30:
            raise bad
        table[players] = size
    if not table:
        raise bad
    return tuple(sorted(table.items()))


_NA: dict[str, Any] = {
    "jokers": 4, "hand_size": {2: 15, 3: 15, 4: 15, 5: 13, 6: 11}, "initial_meld": 51,
    "initial_counts_builds": True, "aces": "high-or-low", "ace_penalty": 15, "joker_penalty": 25,
    "joker_release": "one-card", "scoring": "points",
}

PRESETS: dict[str, dict[str, Any]] = {
    "british": {},
    "williamson": {"call_up": 1, "kalookie_stake": 2, "initial_stake": 3, "buy_in": 2},
    "swedish": {"target": 100, "call_up": 1, "kalookie_stake": 3, "initial_stake": 5,
                "buy_in": 5},
    "blackpool": {"initial_meld": 51, "target": 100},
    "three-deck": {"decks": 3, "jokers": 3, "joker_penalty": 25, "identical_sets": True,
                   "target": 301, "buy_ins": 2},
    "north-american": _NA,
    "scarne": {**_NA, "ace_penalty": 11, "joker_sets": True, "discard_take": "meld-at-once",
               "upcard_swap": True, "cut_joker": True, "scoring": "cards"},
}

PRESET_SOURCES: dict[str, str] = {
    "british": "British club Kalookie: the Victoria and Tiberius Sporting Clubs' rules as told on "
               "pagat.com (shared/seeds/kalookie.txt) with the spec's rulings 1-14.",
    "williamson": "Andrew Williamson's stakes (pagat): call-up 1, kalookie 2, initial stake 3, "
                  "buy-in 2.",
    "swedish": "Swedish Kalooki from Dan Glimne's Kortspels Guiden (pagat): target 100, stakes "
               "1 / 3 / 5 / 5.",
    "blackpool": "Blackpool as reported by Neil Darbyshire (pagat): initial meld 51, target 100.",
    "three-deck": "Damian Griffin's three-pack game (pagat): 159 cards, joker 25, sets of three "
                  "identical cards, target 301, two buy-ins.",
    "north-american": "North American Kaluki (USPCC Official Rules of Card Games, via pagat): four "
                      "jokers, 15/13/11 cards, initial 51 counting builds, aces high or low, ace "
                      "15, joker 25, one-card joker release, the winner scores the others' hands.",
    "scarne": "Scarne's East Coast Kaluki (Encyclopedia of Games, via pagat): as North American "
              "but aces 11, joker sets, the discard taken only to meld it, the dealer's upcard "
              "swap, the cut joker, and payment by cards left.",
}

OPTIONS: tuple[OptionInfo, ...] = (
    OptionInfo("decks", 2, "1-3", "Packs of 52 cards shuffled together."),
    OptionInfo("jokers", 2, "0-8", "Jokers added to the packs."),
    OptionInfo("hand_size", 13, "int, or a table {players = size}",
               "Cards dealt to each player; a table also says which player counts may play."),
    OptionInfo("joker_penalty", 15, "int", "Penalty points of a joker left in hand."),
    OptionInfo("ace_penalty", 11, "int",
               "Points of an ace, in hand and as a high ace in a meld (a low ace melds as 1)."),
    OptionInfo("aces", "high", "high, high-or-low",
               "Aces rank above the king only, or also below the two (A-2-3; never K-A-2)."),
    OptionInfo("initial_meld", 40, "int",
               "Points the new melds of a player's first melding turn must reach."),
    OptionInfo("initial_counts_builds", False, "true, false",
               "Builds made in the initial-meld turn count toward it when a new meld is made."),
    OptionInfo("kalookie_without_initial", False, "true, false",
               "A kalookie needs no initial-meld minimum."),
    OptionInfo("run_build_limit", "two-per-end", "two-per-end, two-total, none",
               "Cards one player may build on one run in one turn: two at each end, two in all, "
               "or any number."),
    OptionInfo("joker_release", "both-suits", "both-suits, interior, one-card",
               "How a melded joker is won back: a set's two missing suits or a run's card; only "
               "from a run's interior; or by one natural card from a set or a run."),
    OptionInfo("joker_sets", False, "true, false", "Three or four jokers may be a set (15 each)."),
    OptionInfo("identical_sets", False, "true, false",
               "Three identical cards are a set (the three-pack rule)."),
    OptionInfo("discard_take", "initial-or-melded", "initial-or-melded, meld-at-once",
               "Who may take the discard: after the initial meld or to make it; or only to lay it "
               "in a meld in the same turn."),
    OptionInfo("warnings", "auto", "auto, manual",
               "Announcing one, two or three cards left: done for the player, or an action "
               "('B warn') whose omission bars calling up on the next turn."),
    OptionInfo("reshuffle", "once", "once, never",
               "When the stock runs out: the discards form a new stock once, or the hand is void."),
    OptionInfo("target", 150, "int",
               "Penalty total above which a player is out (pool), or the points that win a "
               "points game."),
    OptionInfo("call_up", 1, "number", "Each loser's payment to the winner of a hand."),
    OptionInfo("kalookie_stake", 2, "number", "Each loser's payment after a kalookie."),
    OptionInfo("initial_stake", 5, "number", "Each player's stake into the pool at the start."),
    OptionInfo("buy_in", 5, "number", "The payment into the pool to buy back in."),
    OptionInfo("buy_ins", 2, "int", "Buy-ins allowed to each player in a game."),
    OptionInfo("kalookie_double_penalties", False, "true, false",
               "Penalty points are doubled after a kalookie."),
    OptionInfo("scoring", "pool", "pool, points, cards",
               "The pool game with buy-ins; a points game to the target; or one payment a card "
               "left (two a joker, doubled after a kaluki) with no game."),
    OptionInfo("upcard_swap", False, "true, false",
               "Before play the dealer may take the upcard and discard another card in its place."),
    OptionInfo("cut_joker", False, "true, false",
               "A joker shown at the bottom of the cut goes to the cutter (the dealer's right), "
               "who is dealt one card fewer."),
)


def preset_infos() -> tuple[PresetInfo, ...]:
    """Every preset with its source and what it changes from ``british``, the default first."""
    return tuple(PresetInfo(name, PRESET_SOURCES[name], dict(changes))
                 for name, changes in PRESETS.items())

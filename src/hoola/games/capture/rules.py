"""The capture games' rule options as data: one frozen :class:`Rules` value, six presets.

Keys, values and presets follow ``shared/spec/capture-rules.md`` (its options table); what the
project rules where the spec is silent is in ``docs/capture-rulings.md``. A preset may change
with the number of players (Hola for six: two packs, no Hola, no last trick, game to 500; Sedma
for three: two eights set aside): :meth:`Rules.for_players` gives the rules a table of that size
plays, an option given explicitly always winning.

>>> r = Rules.preset("hola").for_players(6)
>>> r.deck, r.hola_bonus, r.last_trick, r.target
(104, False, 0, 500)
>>> Rules.preset("sedma").for_players(3).removed
(20, 33)
>>> Rules.preset("ristikontra", lead_limit="none").overrides()
{'lead_limit': 'none'}
>>> Rules.preset("hola", wilds="7").overrides()
{'wilds': '7'}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hoola.core.cards import PIQUET_RANKS, RANKS, format_cards, pack, parse_cards, rank_of
from hoola.core.errors import HoolaError, RulesError
from hoola.core.game import OptionInfo, PresetInfo

__all__ = ["OPTIONS", "PRESETS", "Rules", "preset_infos"]

_LIMIT = 10**6
_DECKS = (52, 32, 104)
_SCORINGS = ("points", "sedma", "croatian", "ristikontra", "ristiklappi")
_CONTINUE = ("not-winning", "always")
_DEALERS = ("redeal", "fewer", "next", "clean")
_BOOLS = ("fighting", "hola_bonus", "partner_sees_hand", "signals", "play_in_dark", "phases")
SIGNALS = ("ubij", "pusti", "napuni")
"""Sedmice's spoken signals: take it, let it go, load it with points."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bad(key: str, value: Any, what: str) -> RulesError:
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    return RulesError(f"option {key} = {shown} must be {what}", "bad-option-value")


def _ranks(key: str, value: Any) -> tuple[int, ...]:
    if isinstance(value, tuple) and all(_is_int(r) and 0 <= r < 13 for r in value):
        return tuple(sorted(set(value)))
    words: list[Any]
    if isinstance(value, str):
        words = value.replace(",", " ").split()
    elif isinstance(value, list):
        words = value
    else:
        raise _bad(key, value, "ranks such as \"7 2\" (or \"none\")")
    if words in (["none"], ["-"]):
        return ()
    out = set()
    for w in words:
        text = str(w).strip().upper()
        text = "T" if text == "10" else text
        if isinstance(w, bool) or len(text) != 1 or text not in RANKS:
            raise _bad(key, value, "ranks such as \"7 2\" (or \"none\")")
        out.add(RANKS.index(text))
    return tuple(sorted(out))


def _points(value: Any) -> tuple[int, ...]:
    if isinstance(value, tuple) and len(value) == 13 and all(_is_int(v) for v in value):
        return value
    if not isinstance(value, Mapping):
        raise _bad("card_points", value, "a table by rank such as { A = 10, T = 10 }")
    table = [0] * 13
    seen: set[str] = set()
    for rank, points in value.items():
        text = str(rank).strip().upper()
        text = "T" if text == "10" else text
        if len(text) != 1 or text not in RANKS or not _is_int(points) \
                or not 0 <= points <= 1000:
            raise _bad("card_points", value, "a table by rank such as { A = 10, T = 10 } with "
                       "whole numbers from 0 to 1000")
        if text in seen:  # "T" and "10" are one rank: which value would count is a guess
            raise _bad("card_points", value, f"a table naming each rank once ({text} is named "
                       "twice)")
        seen.add(text)
        table[RANKS.index(text)] = points
    return tuple(table)


def _none_or_int(key: str, value: Any, low: int, high: int) -> int | None:
    if value is None or value == "none":
        return None
    if not _is_int(value) or not low <= value <= high:
        raise _bad(key, value, f"a whole number from {low} to {high}, or \"none\"")
    return int(value)


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option of a capture game; build one with :meth:`preset`.

    ``wilds`` are rank indices (0 = ace .. 12 = king), ``card_points`` the points of each rank
    index, ``removed`` the cards set aside before the deal.
    """

    preset_name: str = "hola"
    deck: int = 52
    removed: tuple[int, ...] = ()
    hand_size: int = 4
    wilds: tuple[int, ...] = (1, 6)
    fighting: bool = True
    leader_may_continue: str = "not-winning"
    card_points: tuple[int, ...] = (10, 0, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0)
    last_trick: int = 10
    hola_bonus: bool = True
    partner_sees_hand: bool = False
    signals: bool = False
    play_in_dark: bool = False
    lead_limit: int | None = None
    phases: bool = False
    scoring: str = "points"
    target: int = 250
    redeal_at_most: int | None = 50
    next_dealer: str = "redeal"
    given: frozenset[str] = frozenset()
    """The options given explicitly (a record's ``[options]``): they stay what they were given
    for every player count, even where they equal the preset's value."""

    def __post_init__(self) -> None:
        if not isinstance(self.preset_name, str) or self.preset_name not in PRESETS:
            raise RulesError(f"unknown capture-game preset {self.preset_name!r}: the presets are "
                             f"{', '.join(PRESETS)}", "unknown-preset")
        if self.deck not in _DECKS or not _is_int(self.deck):
            raise _bad("deck", self.deck, "52, 32 or 104")
        if self.scoring not in _SCORINGS:
            raise _bad("scoring", self.scoring, f"one of {', '.join(_SCORINGS)}")
        if self.leader_may_continue not in _CONTINUE:
            raise _bad("leader_may_continue", self.leader_may_continue,
                       "not-winning or always")
        if self.next_dealer not in _DEALERS:
            raise _bad("next_dealer", self.next_dealer, f"one of {', '.join(_DEALERS)}")
        if not isinstance(self.given, frozenset) or not self.given <= set(self.option_keys()):
            raise RulesError(f"given = {self.given!r} must be a set of option keys",
                             "bad-option-value")
        for key in _BOOLS:
            if not isinstance(getattr(self, key), bool):
                raise _bad(key, getattr(self, key), "true or false")
        if not _is_int(self.hand_size) or not 1 <= self.hand_size <= 26:
            raise _bad("hand_size", self.hand_size, "a whole number from 1 to 26")
        for key, high in (("last_trick", 1000), ("target", _LIMIT)):
            if not _is_int(getattr(self, key)) or not 0 <= getattr(self, key) <= high:
                raise _bad(key, getattr(self, key), f"a whole number from 0 to {high}")
        object.__setattr__(self, "wilds", _ranks("wilds", self.wilds))
        object.__setattr__(self, "card_points", _points(self.card_points))
        object.__setattr__(self, "lead_limit", _none_or_int("lead_limit", self.lead_limit, 1, 52))
        object.__setattr__(self, "redeal_at_most",
                           _none_or_int("redeal_at_most", self.redeal_at_most, 0, _LIMIT))
        object.__setattr__(self, "removed", self._removed(self.removed))

    def _removed(self, value: Any) -> tuple[int, ...]:
        if isinstance(value, tuple) and all(_is_int(c) for c in value):
            cards = list(value)
        elif isinstance(value, str | list):
            if value in ("none", ""):
                return ()
            try:
                cards = parse_cards(value if isinstance(value, str) else [str(v) for v in value])
            except HoolaError:
                raise _bad("removed", value, "cards such as \"8h 8d\" (or \"none\")") from None
        else:
            raise _bad("removed", value, "cards such as \"8h 8d\" (or \"none\")")
        full = self.full_pack()
        for c in set(cards):
            if not 0 <= c < 52 or cards.count(c) > full.count(c):
                raise _bad("removed", value, "cards of the pack, each at most as often as the "
                           "pack holds it")
        return tuple(sorted(cards))

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str = "hola", **overrides: Any) -> Rules:
        """The named preset with any option overridden (``Rules.preset("hola", target=100)``)."""
        return cls.from_options(name, overrides)

    @classmethod
    def from_options(cls, preset: str, options: Mapping[str, Any]) -> Rules:
        """Rules from a preset name and option overrides (a record's ``[options]``)."""
        if not isinstance(preset, str) or preset not in PRESETS:
            raise RulesError(f"unknown capture-game preset {preset!r}: the presets are "
                             f"{', '.join(PRESETS)}", "unknown-preset")
        if not isinstance(options, Mapping):
            raise RulesError("capture-game options must be a table of key = value",
                             "bad-option-value")
        keys = cls.option_keys()
        for key in options:
            if key not in keys:
                raise RulesError(f"unknown capture-game rule option {key!r}", "unknown-option")
        return cls(preset_name=preset, given=frozenset(options),
                   **{**PRESETS[preset], **options})

    @classmethod
    def option_keys(cls) -> tuple[str, ...]:
        """Every option key, in the order of the spec's table."""
        return tuple(f.name for f in dataclasses.fields(cls)
                     if f.name not in ("preset_name", "given"))

    def base(self) -> Rules:
        """The preset's own rules."""
        return Rules(preset_name=self.preset_name, **PRESETS[self.preset_name])

    def values(self) -> dict[str, Any]:
        """Every option key with the engine's value (ranks as indices, cards as numbers)."""
        return {k: getattr(self, k) for k in self.option_keys()}

    def options(self) -> dict[str, Any]:
        """Every option key with its value as records write them (ranks and cards as text,
        ``"none"`` for no value); ``Rules.from_options(preset, options())`` gives these rules."""
        return self.written(self.values())

    def overrides(self) -> dict[str, Any]:
        """The options given explicitly or differing from this value's preset, as records write
        them (a record's ``[options]``)."""
        base = self.base()
        return self.written({k: v for k, v in self.values().items()
                             if k in self.given or getattr(base, k) != v})

    def changes_from(self, other: Rules) -> dict[str, Any]:
        """The options whose values differ from ``other``'s, as records write them."""
        return self.written({k: v for k, v in self.values().items() if getattr(other, k) != v})

    @staticmethod
    def written(values: Mapping[str, Any]) -> dict[str, Any]:
        """Engine values as a record's ``[options]`` writes them (ranks and cards as text)."""
        out: dict[str, Any] = {}
        for key, value in values.items():
            if key == "wilds":
                value = " ".join(RANKS[r] for r in value) or "none"
            elif key == "removed":
                value = format_cards(value) or "none"
            elif key == "card_points":
                value = {RANKS[r]: p for r, p in enumerate(value) if p}
            elif value is None:
                value = "none"
            out[key] = value
        return out

    def for_players(self, players: int) -> Rules:
        """The rules a table of ``players`` plays: the preset's changes for that many players
        (Hola for six, Sedma for three) where no option was given explicitly."""
        key = (self, players)
        found = _FOR_PLAYERS.get(key)
        if found is None:
            changes = PLAYER_CHANGES.get(self.preset_name, {}).get(players, {})
            given = self.overrides()
            kept = {k: v for k, v in changes.items() if k not in given}
            found = dataclasses.replace(self, **kept) if kept else self
            if len(_FOR_PLAYERS) < _KEPT:
                _FOR_PLAYERS[key] = found
        return found

    # -- derived values -----------------------------------------------------------------------

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The numbers of players the preset is played by."""
        return PLAYERS[self.preset_name]

    def full_pack(self) -> list[int]:
        """The pack before any card is set aside: 52, 32 (A K Q J T 9 8 7) or 104 cards."""
        if self.deck == 32:
            return pack(ranks=PIQUET_RANKS)
        return pack(2 if self.deck == 104 else 1)

    def pack(self) -> list[int]:
        """The cards dealt, in canonical order (the removed ones left out)."""
        cards = _PACKS.get(self)
        if cards is None:
            left = self.full_pack()
            for c in self.removed:
                left.remove(c)
            cards = tuple(left)
            if len(_PACKS) < _KEPT:
                _PACKS[self] = cards
        return list(cards)

    def points_of(self, card: int) -> int:
        """The card points of ``card``."""
        return self.card_points[rank_of(card)]

    def check_players(self, players: int) -> None:
        """Raise a RulesError unless ``players`` may play under these rules."""
        if not _is_int(players) or players not in self.player_counts:
            counts = [str(n) for n in self.player_counts]
            allowed = counts[0] if len(counts) == 1 else \
                f"{', '.join(counts[:-1])} or {counts[-1]}"
            raise RulesError(f"{self.preset_name} is played by {allowed} players, not "
                             f"{players!r}", "bad-player-count")
        effective = self.for_players(players)
        if players * effective.hand_size > len(effective.pack()):
            raise RulesError(f"{players} hands of {effective.hand_size} cards need more than the "
                             f"{len(effective.pack())} cards of the pack", "bad-player-count")


# Worked out once per rules: every new hand asks for them (they were a quarter of a random hand).
_KEPT = 256
_FOR_PLAYERS: dict[tuple[Rules, int], Rules] = {}
_PACKS: dict[Rules, tuple[int, ...]] = {}


def teams_for(players: int) -> tuple[tuple[int, ...], ...] | None:
    """Partners sit opposite: four players A+C against B+D, six A+C+E against B+D+F; two and
    three play alone (None)."""
    if players < 4 or players % 2:
        return None
    return (tuple(range(0, players, 2)), tuple(range(1, players, 2)))


_SEDMA: dict[str, Any] = {
    "deck": 32, "wilds": (6,), "card_points": {"A": 10, "T": 10}, "last_trick": 10,
    "hola_bonus": False, "scoring": "sedma", "target": 10, "redeal_at_most": None,
    "next_dealer": "fewer",
}
_RISTI: dict[str, Any] = {
    "deck": 52, "hand_size": 6, "wilds": (), "fighting": False,
    "card_points": {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}, "last_trick": 0,
    "hola_bonus": False, "play_in_dark": True, "lead_limit": 3, "scoring": "ristikontra",
    "target": 7, "redeal_at_most": None, "next_dealer": "next",
}

PRESETS: dict[str, dict[str, Any]] = {
    "hola": {},
    "sedma": _SEDMA,
    "sedmice": {**_SEDMA, "partner_sees_hand": True, "signals": True, "scoring": "points",
                "target": 120},
    "sedmice-croatian": {**_SEDMA, "partner_sees_hand": True, "signals": True, "last_trick": 0,
                         "scoring": "croatian", "target": 12},
    "ristikontra": _RISTI,
    "ristiklappi": {**_RISTI, "hand_size": 5, "phases": True, "scoring": "ristiklappi",
                    "target": 0, "next_dealer": "clean"},
}

PLAYERS: dict[str, tuple[int, ...]] = {
    "hola": (2, 4, 6), "sedma": (2, 3, 4), "sedmice": (2, 4), "sedmice-croatian": (2, 4),
    "ristikontra": (2, 4), "ristiklappi": (2, 4),
}
"""The player counts of each preset: the seed's, and two alone wherever partners are usual."""

PLAYER_CHANGES: dict[str, dict[int, dict[str, Any]]] = {
    "hola": {6: {"deck": 104, "hola_bonus": False, "last_trick": 0, "target": 500}},
    "sedma": {3: {"removed": tuple(parse_cards("8h 8d"))}},
}

PRESET_MEANINGS: dict[str, str] = {
    "hola": "52 cards, 4 each, sevens and twos wild, the leader fights; aces and tens 10, the "
            "last trick 10, a Hola doubles; game to 250. Six players: two packs, game to 500.",
    "sedma": "32 cards, sevens wild, fighting; game points 3 / 2 / 1 a hand, game to 10. Three "
             "players set two eights aside.",
    "sedmice": "Sedma with partners who see each other's hands once the stock is gone, and the "
               "signals ubij, pusti, napuni; game to 120 card points.",
    "sedmice-croatian": "Sedmice without the last trick's 10 (80 a hand); game points 3 / 2 / 1, "
                        "40-40 to the last trick, game to 12.",
    "ristikontra": "52 cards, 6 each, no wilds, no fighting; A 11 T 10 K 4 Q 3 J 2; play in the "
                   "dark; three leads of a rank in a row at most; 61 wins a game point, game "
                   "to 7.",
    "ristiklappi": "Ristikontra with 5 cards and two phases: a queen won early makes a side dirty "
                   "until a king without a queen cleans it; one hand a game.",
}

PRESET_SOURCES: dict[str, str] = {
    "hola": "Hola as played in western Canada (CatsAtCards, shared/seeds/hola-sedma-"
            "ristikontra.txt).",
    "sedma": "Czech Sedma (CatsAtCards), with its two- and three-player variants.",
    "sedmice": "Sedmice of Herzegovina, Bosnia and Serbia (CatsAtCards).",
    "sedmice-croatian": "Croatian Sedmice (CatsAtCards).",
    "ristikontra": "Finnish Ristikontra (CatsAtCards).",
    "ristiklappi": "Ristiklappi, Lappi or Cross-clap (CatsAtCards).",
}

OPTIONS: tuple[OptionInfo, ...] = (
    OptionInfo("deck", 52, "52, 32, 104", "The pack: 52 cards, 32 (A K Q J T 9 8 7), or two "
               "packs of 52."),
    OptionInfo("removed", "none", "cards", "Cards set aside before the deal (Sedma for three: "
               "\"8h 8d\")."),
    OptionInfo("hand_size", 4, "int", "Cards in each hand, refilled from the stock after each "
               "trick."),
    OptionInfo("wilds", "7 2", "ranks", "Ranks that take over a trick whatever was led."),
    OptionInfo("fighting", True, "true, false", "After a round the leader may fight on for the "
               "trick with the led rank or a wild."),
    OptionInfo("leader_may_continue", "not-winning", "not-winning, always",
               "Who may fight on: a leader who is not winning the trick, or any leader."),
    OptionInfo("card_points", "{ A = 10, T = 10 }", "table by rank", "Points of each captured "
               "card."),
    OptionInfo("last_trick", 10, "int", "Points for winning the last trick."),
    OptionInfo("hola_bonus", True, "true, false", "Every point card and the last trick double "
               "the card points (a Hola)."),
    OptionInfo("partner_sees_hand", False, "true, false", "Once the stock is gone each player "
               "sees their partner's hand."),
    OptionInfo("signals", False, "true, false", "A player about to play may say ubij, pusti or "
               "napuni."),
    OptionInfo("play_in_dark", False, "true, false", "While the stock lasts, a player may play "
               "its top card instead of a card from hand."),
    OptionInfo("lead_limit", "none", "int or none", "Leads of one rank in a row allowed to one "
               "player (unless the hand holds nothing else)."),
    OptionInfo("phases", False, "true, false", "Ristiklappi's two phases: queens, kings, clean "
               "and dirty sides."),
    OptionInfo("scoring", "points", "points, sedma, croatian, ristikontra, ristiklappi",
               "Card points to the target, or game points each hand as the named game counts "
               "them, or Ristiklappi's outcomes."),
    OptionInfo("target", 250, "int", "Points (or game points) that win the game; Ristiklappi: "
               "games won, 0 for a series without end."),
    OptionInfo("redeal_at_most", 50, "int or none", "Hola: the dealer deals again when the other "
               "side scored at most this many points in the hand."),
    OptionInfo("next_dealer", "redeal", "redeal, fewer, next, clean",
               "Who deals next: Hola's (the same dealer unless the other side scored over "
               "redeal_at_most), the first player after the dealer on the side that scored fewer "
               "(Sedma), the next seat (Ristikontra), or the dishonourable side's opponents "
               "(Ristiklappi)."),
)


def preset_infos() -> tuple[PresetInfo, ...]:
    """Every preset with its source, meaning and what it changes from ``hola``."""
    hola = Rules.preset("hola")
    return tuple(PresetInfo(name, PRESET_SOURCES[name], Rules.preset(name).changes_from(hola),
                            PRESET_MEANINGS[name]) for name in PRESETS)

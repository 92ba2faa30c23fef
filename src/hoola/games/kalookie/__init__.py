"""Kalookie (Kaluki, Kalooki): the British club rummy and its Swedish and American cousins.

Two packs and two jokers (three and three, or two and four, by preset), 13 cards each, sets and
runs with jokers, a 40-point initial meld, building and joker release, a pool game with buy-ins.
The rules are ``shared/spec/kalookie-rules.md``; the project's own rulings are in
``docs/kalookie-rulings.md``. :data:`GAME` is what the registry holds.

>>> GAME.name, GAME.min_players, GAME.max_players, [p.name for p in GAME.presets()][:2]
('kalookie', 2, 6, ['british', 'williamson'])
>>> state = GAME.new_deal(GAME.rules("british"), ["A", "B", "C"], seed=7)
>>> state.format(state.apply(state.parse("B draw")))
'B draw'
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

from hoola.core.errors import RulesError
from hoola.core.game import OptionInfo, Player, PresetInfo
from hoola.games.kalookie.actions import (
    Action,
    Add,
    BuyIn,
    Discard,
    Draw,
    NewMeld,
    Retire,
    Swap,
    SwapUpcard,
    Take,
    Warn,
    format_action,
    parse_action,
)
from hoola.games.kalookie.deal import Deal, Standing
from hoola.games.kalookie.determinize import determinize
from hoola.games.kalookie.match import Match
from hoola.games.kalookie.melds import Meld
from hoola.games.kalookie.rules import OPTIONS, Rules, preset_infos
from hoola.games.kalookie.scoring import Settlement
from hoola.games.kalookie.state import DealState
from hoola.games.kalookie.views import View

__all__ = [
    "GAME",
    "Action",
    "Add",
    "BuyIn",
    "Deal",
    "DealState",
    "Discard",
    "Draw",
    "KalookieGame",
    "Match",
    "Meld",
    "NewMeld",
    "Retire",
    "Rules",
    "Settlement",
    "Standing",
    "Swap",
    "SwapUpcard",
    "Take",
    "View",
    "Warn",
    "format_action",
    "parse_action",
]


class KalookieGame:
    """Kalookie as the registry holds it: presets, options, deals, matches, determinization."""

    name = "kalookie"
    title = "Kalookie"
    min_players = 2
    max_players = 6  # North American rules deal 11 cards to six; British and others 2 to 5
    default_preset = "british"
    ends_by_itself = True  # the pool won, or a target reached

    def presets(self) -> Sequence[PresetInfo]:
        """The named presets, ``british`` first."""
        from hoola.games.kalookie.howto import PRESET_TITLES

        return tuple(dataclasses.replace(p, title=PRESET_TITLES.get(p.name, ""))
                     for p in preset_infos())

    def how_to_play(self, preset: str | None = None) -> str:
        """How to play, in a few sentences (``hoola rules``): :mod:`hoola.games.kalookie.howto`."""
        from hoola.games.kalookie.howto import HOW_TO_PLAY

        return HOW_TO_PLAY

    def option_infos(self) -> Sequence[OptionInfo]:
        """Every rule option with its documentation."""
        return OPTIONS

    def rules(self, preset: str | None = None, options: Mapping[str, Any] | None = None) -> Rules:
        """Frozen rules from a preset (default ``british``) and overrides."""
        return Rules.from_options(preset or self.default_preset, options or {})

    def teams(self, rules: Any, players: int) -> tuple[tuple[int, ...], ...] | None:
        """Everyone plays alone."""
        return None

    def new_deal(self, rules: Any, names: Sequence[str], *, seed: int | None = None) -> DealState:
        """One hand from a seeded shuffle, the first seat dealing."""
        return DealState.new(_rules(rules), list(names), seed=seed)

    def new_match(self, rules: Any, names: Sequence[str], *, seed: int | None = None,
                  until: int = 1) -> Match:
        """A whole game from seeded shuffles, the pool game played until ``until`` or fewer
        players are left (1: until it is won)."""
        return Match(_rules(rules), names, seed=seed, until=until)

    def determinize(self, view: Any, rng: random.Random) -> DealState:
        """A hand consistent with ``view``: the hidden cards re-dealt at random."""
        return determinize(view, rng)

    def expert(self, seed: int | None = None) -> Player:
        """Kalookie's rule-based bot (:class:`~hoola.games.kalookie.expert.ExpertBot`), with
        what a search asks of it (:class:`~hoola.games.kalookie.search.SearchGuide`)."""
        from hoola.games.kalookie.search import SearchGuide

        return SearchGuide(seed)

    def bots(self) -> Mapping[str, Callable[..., Player]]:
        """Kalookie's own bots (the expert, once written)."""
        try:
            self.expert()
        except NotImplementedError:
            return {}
        return {"expert": lambda seed=None, **o: self.expert(seed)}

    def format_action(self, action: Any, names: Sequence[str]) -> str:
        """An action in record notation (``"B add Ts on m2"``)."""
        from hoola.games.kalookie.actions import format_action

        return format_action(action, names)

    def record_text(self, match: Any, comment: str = "") -> str:
        """The game so far (a :class:`Match`) as a record's text, ``comment`` heading it."""
        from hoola.games.kalookie.records import dumps, record_of

        return dumps(record_of(match), comment=comment)

    def resume(self, text: str, *, seed: int | None = None) -> Match:
        """The game a record's text holds, its unfinished hand continued where it stopped."""
        from hoola.games.kalookie.records import resume

        return resume(text, seed=seed)

    def parse_action(self, text: str, names: Sequence[str]) -> Any:
        """An action from record notation (``"B add Ts on m2"``)."""
        from hoola.games.kalookie.actions import parse_action

        return parse_action(text, names)

    def verify_record(self, data: dict[str, Any], text: str = "") -> list[str]:
        """What differs between a Kalookie record (its parsed TOML) and the engine; [] when ok."""
        from hoola.games.kalookie.records import verify

        return verify(data)

    def tell_record(self, data: dict[str, Any], text: str = "") -> Iterator[str]:
        """A Kalookie record told move by move (``hoola replay``)."""
        from hoola.games.kalookie.replay import tell

        return tell(data)


def _rules(rules: Any) -> Rules:
    if not isinstance(rules, Rules):
        raise RulesError(f"{rules!r} is not Kalookie rules: build them with GAME.rules()",
                         "bad-rules")
    return rules


GAME: Final = KalookieGame()

"""The capture games: Hola, Sedma, Sedmice, Croatian Sedmice, Ristikontra and Ristiklappi.

One engine (``game = "capture"``), six presets: a trick is won by the last card of the led rank
(or a wild), the leader may fight on, hands are refilled from the stock, and aces and tens are
what count. The rules are ``shared/spec/capture-rules.md``; the project's own rulings are in
``docs/capture-rulings.md``. :data:`GAME` is what the registry holds.

>>> GAME.name, [p.name for p in GAME.presets()]
('capture', ['hola', 'sedma', 'sedmice', 'sedmice-croatian', 'ristikontra', 'ristiklappi'])
>>> state = GAME.new_deal(GAME.rules("sedma"), ["A", "B"], seed=7)
>>> state.format(state.legal_actions(1)[0])
'B play 7h'
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

from hoola.core.errors import RulesError
from hoola.core.game import OptionInfo, Player, PresetInfo, played_to_its_end
from hoola.games.capture.actions import Action, Dark, Play, Say, Stop, format_action, parse_action
from hoola.games.capture.determinize import determinize
from hoola.games.capture.match import Match
from hoola.games.capture.rules import OPTIONS, Rules, preset_infos, teams_for
from hoola.games.capture.state import DealState, Result
from hoola.games.capture.views import View

__all__ = ["GAME", "Action", "CaptureGame", "Dark", "DealState", "Match", "Play", "Result",
           "Rules", "Say", "Stop", "View", "format_action", "parse_action"]


class CaptureGame:
    """The capture games as the registry holds them: presets, options, deals, matches."""

    name = "capture"
    title = "Capture games"
    min_players = 2
    max_players = 6
    default_preset = "hola"
    ends_by_itself = True  # a side reaches the target

    def presets(self) -> Sequence[PresetInfo]:
        """The six presets, ``hola`` first: each a game of its own, known by its title."""
        from hoola.games.capture.howto import PRESET_TITLES

        return tuple(dataclasses.replace(p, title=PRESET_TITLES.get(p.name, ""), is_game=True)
                     for p in preset_infos())

    def how_to_play(self, preset: str | None = None) -> str:
        """How to play, in a few sentences (``hoola rules``): :mod:`hoola.games.capture.howto`."""
        from hoola.games.capture.howto import HOW_TO_PLAY

        return HOW_TO_PLAY.get(preset or self.default_preset, "")

    def option_infos(self) -> Sequence[OptionInfo]:
        """Every rule option with its documentation."""
        return OPTIONS

    def rules(self, preset: str | None = None, options: Mapping[str, Any] | None = None) -> Rules:
        """Frozen rules from a preset (default ``hola``) and overrides."""
        return Rules.from_options(preset or self.default_preset, options or {})

    def teams(self, rules: Any, players: int) -> tuple[tuple[int, ...], ...] | None:
        """Partners sit opposite with four or six players; two and three play alone."""
        return teams_for(players)

    def new_deal(self, rules: Any, names: Sequence[str], *, seed: int | None = None) -> DealState:
        """One hand from a seeded shuffle, the first seat dealing."""
        return DealState.new(_rules(rules), list(names), seed=seed)

    def new_match(self, rules: Any, names: Sequence[str], *, seed: int | None = None,
                  until: int = 1) -> Match:
        """A whole game from seeded shuffles (nobody is put out: ``until`` is 1)."""
        played_to_its_end(until, self.title)
        return Match(_rules(rules), names, seed=seed)

    def determinize(self, view: Any, rng: random.Random) -> DealState:
        """A hand consistent with ``view``: the unseen cards dealt at random."""
        return determinize(view, rng)

    def expert(self, seed: int | None = None) -> Player:
        """The capture games' rule-based bot (:class:`~hoola.games.capture.expert.ExpertBot`),
        with what a search asks of it (:class:`~hoola.games.capture.search.SearchGuide`)."""
        from hoola.games.capture.search import SearchGuide

        return SearchGuide(seed)

    def bots(self) -> Mapping[str, Callable[..., Player]]:
        """The capture games' own bots: the expert."""
        from hoola.games.capture.expert import ExpertBot

        return {"expert": lambda seed=None, **o: ExpertBot(seed, **o)}

    def format_action(self, action: Any, names: Sequence[str]) -> str:
        """An action in record notation (``"B play Ts"``)."""
        return format_action(action, names)

    def parse_action(self, text: str, names: Sequence[str]) -> Any:
        """An action from record notation."""
        return parse_action(text, names)

    def record_text(self, match: Any, comment: str = "") -> str:
        """The game so far as a record's text, ``comment`` heading it."""
        from hoola.games.capture.records import dumps, record_of

        return dumps(record_of(match), comment=comment)

    def resume(self, text: str, *, seed: int | None = None) -> Match:
        """The game a record's text holds, its unfinished hand continued where it stopped."""
        from hoola.games.capture.records import resume

        return resume(text, seed=seed)

    def verify_record(self, data: dict[str, Any], text: str = "") -> list[str]:
        """What differs between a capture-game record and the engine; [] when it holds."""
        from hoola.games.capture.records import verify

        return verify(data)

    def tell_record(self, data: dict[str, Any], text: str = "") -> Iterator[str]:
        """A capture-game record told move by move (``hoola replay``)."""
        from hoola.games.capture.records import tell

        return tell(data)


def _rules(rules: Any) -> Rules:
    if not isinstance(rules, Rules):
        raise RulesError(f"{rules!r} is not capture-game rules: build them with GAME.rules()",
                         "bad-rules")
    return rules


GAME: Final = CaptureGame()

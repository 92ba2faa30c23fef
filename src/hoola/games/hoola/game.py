"""Hoola as the registry holds it: the :class:`~hoola.core.game.Game` that front ends host.

>>> from hoola.core.registry import get_game
>>> game = get_game("hoola")
>>> game.title, game.min_players, game.max_players, game.presets()[0].name
('Hoola (훌라)', 2, 7, 'pagat')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

from hoola.core.errors import RecordError, RulesError
from hoola.core.game import MissionOutcome, OptionInfo, Player, PresetInfo, played_to_its_end
from hoola.games.hoola.howto import PRESET_TITLES
from hoola.games.hoola.match import Match
from hoola.games.hoola.rules import OPTION_DOCS, PRESET_DOCS, Rules
from hoola.games.hoola.state import DealState

__all__ = ["GAME", "HoolaGame"]


class HoolaGame:
    """Hoola (훌라), the Korean rummy: 2 to 5 players, 6 or 7 with drop-outs."""

    name = "hoola"
    title = "Hoola (훌라)"
    min_players = 2
    max_players = 7
    default_preset = "pagat"
    ends_by_itself = False  # a match lasts as many deals as the players agree

    def presets(self) -> Sequence[PresetInfo]:
        """Every preset with its source and what it changes from pagat."""
        return [PresetInfo(d.name, d.source, d.changes, d.meaning, PRESET_TITLES.get(d.name, ""))
                for d in PRESET_DOCS.values()]

    def how_to_play(self, preset: str | None = None) -> str:
        """How to play, in a few sentences (``hoola rules``): :mod:`hoola.games.hoola.howto`;
        for a preset that plays missions, their catalog (ruling 20) follows."""
        from hoola.games.hoola.howto import HOW_TO_PLAY
        from hoola.games.hoola.missions import catalog_text
        from hoola.games.hoola.rules import PRESETS

        if preset in PRESETS and Rules.preset(str(preset)).missions:
            return f"{HOW_TO_PLAY} {catalog_text()}"
        return HOW_TO_PLAY

    def option_infos(self) -> Sequence[OptionInfo]:
        """Every option with its pagat value, its values and its meaning."""
        pagat = Rules.preset("pagat").options()
        return [OptionInfo(d.key, pagat[d.key], d.values, d.meaning) for d in OPTION_DOCS.values()]

    def rules(self, preset: str | None = None, options: Mapping[str, Any] | None = None) -> Rules:
        """Rules from a preset (default pagat) and overrides."""
        if options is not None and not isinstance(options, Mapping):
            raise RulesError(f"options must be a table of key = value, not {options!r}")
        return Rules.preset(self.default_preset if preset is None else preset,
                            **dict(options or {}))

    def teams(self, rules: Any, players: int) -> tuple[tuple[int, ...], ...] | None:
        """Everyone plays alone."""
        return None

    def new_deal(self, rules: Any, names: Sequence[str], *, seed: int | None = None) -> DealState:
        """One deal from a seeded shuffle, the first seat dealing."""
        return DealState.new(rules, names, seed=seed)

    def new_match(self, rules: Any, names: Sequence[str], *, seed: int | None = None,
                  until: int = 1) -> Match:
        """Deals in sequence, the winner dealing next (nobody is put out: ``until`` is 1)."""
        played_to_its_end(until, self.title)
        return Match(rules, names, seed=seed)

    def determinize(self, view: Any, rng: random.Random) -> DealState:
        """A deal consistent with ``view`` (hidden cards re-dealt at random)."""
        from hoola.games.hoola.determinize import determinize

        return determinize(view, rng)

    def expert(self, seed: int | None = None) -> Player:
        """The rule-based expert bot, with what a search asks of it
        (:class:`~hoola.games.hoola.search.SearchGuide`)."""
        from hoola.games.hoola.search import SearchGuide

        return SearchGuide(seed=seed)

    def bots(self) -> Mapping[str, Callable[..., Player]]:
        """Hoola's own bots: greedy (ends play when it can, discards its highest card) and
        expert (rule-based, with its reasons)."""
        from hoola.games.hoola.expert import ExpertBot
        from hoola.games.hoola.greedy import GreedyBot

        return {"greedy": lambda seed=None, **o: GreedyBot(seed=seed, **o),
                "expert": lambda seed=None, **o: ExpertBot(seed=seed, **o)}

    def mission_feats(self) -> Sequence[str]:
        """The feats of the missions' catalog (ruling 20), in its order."""
        from hoola.games.hoola.missions import FEATS

        return tuple(FEATS)

    def mission_outcome(self, state: Any) -> MissionOutcome | None:
        """The finished deal's mission (ruling 20) and whether its single winner achieved it;
        None when the rules draw no mission or play has not ended."""
        result = state.result if isinstance(state, DealState) else None
        if result is None or result.mission is None:
            return None
        m = result.mission
        return MissionOutcome(m.feat, m.multiplier, bool(result.mission_achieved))

    def format_action(self, action: Any, names: Sequence[str]) -> str:
        """An action in record notation (``"B take 9d with 9s 9h"``)."""
        from hoola.games.hoola.actions import format_action

        return format_action(action, names)

    def record_text(self, match: Any, comment: str = "") -> str:
        """The match so far (a :class:`Match`) as a record's text, ``comment`` heading it; the
        totals are written once a deal has been counted."""
        from hoola.games.hoola.records import dumps, record_of

        header = "".join(f"# {line}".rstrip() + "\n" for line in comment.splitlines())
        totals = match.totals if match.counted else None
        return dumps(record_of(match.deals, rules=match.rules, totals=totals, comment=header))

    def resume(self, text: str, *, seed: int | None = None) -> Match:
        """The match a record's text holds, its unfinished deal continued where it stopped."""
        from hoola.games.hoola.records import loads, resume_match

        record = loads(text)
        if not record.deals:
            raise RecordError("cannot resume the match: the record holds no deal", "bad-record")
        return resume_match(record, seed=seed)

    def parse_action(self, text: str, names: Sequence[str]) -> Any:
        """An action from record notation (``"B take 9d with 9s 9h"``)."""
        from hoola.games.hoola.actions import parse_action

        return parse_action(text, names)

    def verify_record(self, data: dict[str, Any], text: str = "") -> list[str]:
        """The problems of a Hoola record's parsed TOML (none when it verifies)."""
        from hoola.games.hoola.records import record_from_data, verify

        return verify(record_from_data(data, text)).problems

    def tell_record(self, data: dict[str, Any], text: str = "") -> Iterator[str]:
        """A Hoola record told move by move (``hoola replay``)."""
        from hoola.games.hoola.records import record_from_data
        from hoola.games.hoola.replay import tell

        return tell(record_from_data(data, text))


GAME: Final = HoolaGame()

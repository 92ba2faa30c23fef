"""The small interface every front end speaks to every game (bots, sim, terminal, server, RL).

It is OpenSpiel's shape with one difference made explicit: several players may act at once (a
Hoola discard opens a claim window to everyone; a Kalookie player may still warn while the next one
draws), so ``actors()`` is a set, and when several act the game itself says which action stands
(:meth:`GameState.resolve`, given the decisions in the order they arrived).

A *game* (:class:`Game`) describes itself for interfaces: players allowed, teams, presets and
options with their documentation, notation, records and its own rule-based bot. A *deal*
(:class:`GameState`) is one hand from the shuffle to its settlement, including decisions the rules
take after the last card (Kalookie's buy-ins). A *match* (:class:`Match`) is the whole game: deals
in sequence with the running score, until the game's own end (a pool won, a target reached) or a
number of deals chosen by the front end.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

from hoola.core.errors import RulesError
from hoola.core.table import Table

__all__ = [
    "Action",
    "Game",
    "GameState",
    "GameWithMissions",
    "Match",
    "MissionOutcome",
    "OptionInfo",
    "Outcome",
    "Player",
    "PresetInfo",
    "Rules",
    "View",
    "game_heading",
    "own_game",
    "places_by",
    "played_to_its_end",
    "table_title",
]


@runtime_checkable
class Action(Protocol):
    """A frozen value naming the seat that acts; each game defines its own kinds."""

    @property
    def player(self) -> int:
        """The acting seat (0 = the first seat in play order)."""
        ...


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished deal went, as every game tells it to statistics (``GameState.outcome()``).

    ``end`` is the game's own name for how play ended (Hoola's ``knock``, Kalookie's ``call-up``),
    ``winners`` the seats that won (none when nobody did), ``dealer`` the seat that dealt (None
    in games without one), ``turns`` how many turns were begun. ``tags`` name events of the deal
    by the seats they befell, in the game's own words and order, every tag the game knows present
    even when empty (Hoola's ``undercut`` knocker, the seat that ``paid for all``), so that
    reports list the same rows whichever deals they count.
    """

    end: str
    winners: tuple[int, ...]
    dealer: int | None = None
    turns: int = 0
    tags: Mapping[str, tuple[int, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MissionOutcome:
    """A finished deal's mission, for statistics: the ``feat`` drawn at its start (the game's own
    id), its ``multiplier``, and whether the deal's winner ``achieved`` it (Hoola's ruling 20)."""

    feat: str
    multiplier: int
    achieved: bool


@runtime_checkable
class Rules(Protocol):
    """A game's frozen rule options (one value per option key)."""

    preset_name: str
    """The preset these rules start from."""

    def options(self) -> dict[str, Any]:
        """Every option key with its value, as records write them."""
        ...

    def overrides(self) -> dict[str, Any]:
        """The options whose values differ from the preset's."""
        ...


@runtime_checkable
class View(Protocol):
    """What one seat may know now: the only thing bots, clients and observations receive."""

    @property
    def player(self) -> int:
        """The seat this view belongs to."""
        ...

    @property
    def legal(self) -> Sequence[Any]:
        """Every action this seat may take now."""
        ...

    @property
    def can_pass(self) -> bool:
        """Whether doing nothing is allowed (a claimant letting a discard go)."""
        ...

    def table(self) -> Table:
        """The table as data for interfaces: zones of cards, scores, the moment."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data (cards in notation), holding nothing hidden."""
        ...


@runtime_checkable
class GameState(Protocol):
    """A deal in progress: what a front end may ask of it, and nothing else."""

    names: tuple[str, ...]
    history: list[Any]

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended, every after-deal decision included."""
        ...

    def actors(self) -> frozenset[int]:
        """The seats that may act now."""
        ...

    def legal_actions(self, player: int) -> list[Any]:
        """Every action ``player`` may take now (empty when they may not act)."""
        ...

    def can(self, action: Any) -> bool:
        """Whether ``action`` is legal now (never raises)."""
        ...

    def verify(self, action: Any) -> None:
        """Raise a specific :class:`~hoola.core.errors.HoolaError` unless ``action`` is legal."""
        ...

    def apply(self, action: Any) -> Any:
        """Check and apply ``action``; return the frozen record appended to the history."""
        ...

    def resolve(self, decisions: Sequence[Any]) -> Any | None:
        """Which of simultaneous decisions stands, given in the order they arrived.

        ``decisions`` holds at most one action per actor (a pass is simply absent). The answer is
        the action to apply next, or None when nothing may be applied yet (the player whose turn
        it is has not decided).
        """
        ...

    def view(self, player: int) -> View:
        """What ``player`` may know now."""
        ...

    def returns(self) -> Sequence[Fraction]:
        """Each seat's net stakes for this deal once it is over (zeros before)."""
        ...

    def format(self, action: Any) -> str:
        """The action in record notation (``"B draw"``)."""
        ...

    def parse(self, text: str) -> Any:
        """An action from record notation; a NotationError when it cannot be read."""
        ...

    def copy(self) -> GameState:
        """An independent copy."""
        ...

    def outcome(self) -> Outcome:
        """How the finished deal went, for statistics (an IllegalActionError before its end)."""
        ...


@runtime_checkable
class Match(Protocol):
    """A whole game: deals in sequence with the running score."""

    names: tuple[str, ...]

    @property
    def deals(self) -> Sequence[GameState]:
        """The deals dealt so far, in order; the last may still be in play."""
        ...

    @property
    def is_over(self) -> bool:
        """Whether the game has reached its own end (the pool won, a target reached)."""
        ...

    def new_deal(self) -> GameState:
        """Start the next deal (the previous one must be over and finished)."""
        ...

    def finish_deal(self) -> None:
        """Fold the finished last deal into the running score."""
        ...

    def totals(self) -> Sequence[Fraction]:
        """Each seat's net money (stakes, pool) over the deals finished so far."""
        ...

    def scoreboard(self) -> Table:
        """The running score as data for interfaces (totals, penalty sheets, the pool)."""
        ...

    def places(self) -> list[int]:
        """Each seat's place in the game as it stands (1 the first; equal places share, and
        partners share their side's): by the totals, or as the game ranks its players (a pool
        game: who is still in first, then who went out, the last to go first)."""
        ...

    def takings(self) -> list[Fraction]:
        """What each seat takes away if the game ends now: its totals, and a share of anything
        left unpaid (a pool nobody has won, shared by the players still in)."""
        ...


def played_to_its_end(until: int, title: str) -> None:
    """Refuse to play a game that puts nobody out ``until`` some players are left.

    >>> try:
    ...     played_to_its_end(2, "Hoola")
    ... except RulesError as exc:
    ...     print(exc.code)
    bad-until
    """
    if until != 1:
        raise RulesError(f"{title} puts nobody out: a game is played to its own end, not until "
                         f"{until!r} players are left", "bad-until")


def places_by(keys: Sequence[Any], *, higher: bool = False) -> list[int]:
    """Each item's place by its key (1 the first): the lowest key first, or the highest with
    ``higher``; equal keys share the best of their places.

    >>> places_by([5, 9, 5, 2], higher=True)
    [2, 1, 2, 4]
    """
    order = sorted(keys, reverse=higher)
    return [order.index(k) + 1 for k in keys]


@runtime_checkable
class GameWithMissions(Protocol):
    """A game whose deals may draw a mission: a feat that multiplies what a winner who performs
    it is paid (Hoola's ``missions``). The simulation lab asks it; a game without missions need
    not answer."""

    def mission_feats(self) -> Sequence[str]:
        """Every feat a mission may name, in the game's own order."""
        ...

    def mission_outcome(self, state: Any) -> MissionOutcome | None:
        """The finished deal's mission and whether its winner achieved it (None without one)."""
        ...


class Player(Protocol):
    """Anything that chooses from a view: a bot, a person at a terminal, a socket."""

    def act(self, view: Any) -> Any | None:
        """An action from ``view.legal``, or None to pass (only when ``view.can_pass``)."""
        ...


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """One rule option for interfaces: its key, default, allowed values and meaning."""

    key: str
    default: Any
    values: str
    doc: str


@dataclass(frozen=True, slots=True)
class PresetInfo:
    """One named preset: where it comes from, what it plays like, what it changes, and its
    ``title`` for people ("Battle Hoola", "Sedma"); ``is_game`` when the preset is a game of its
    own, known by its title alone (the capture games)."""

    name: str
    source: str
    changes: Mapping[str, Any] = field(default_factory=dict)
    meaning: str = ""
    title: str = ""
    is_game: bool = False


def own_game(game: Game, preset: str) -> str | None:
    """The title of ``preset`` where it is a game of its own ("Sedma"), else None."""
    info = next((p for p in game.presets() if p.name == preset), None)
    return info.title if info is not None and info.is_game and info.title else None


def game_heading(game: Game, preset: str) -> str:
    """How a front end introduces a game: "Sedma" where the preset is a game of its own, else
    "Kalookie, british rules"."""
    return own_game(game, preset) or f"{game.title}, {preset} rules"


def table_title(game: Game, preset: str) -> str:
    """What a table of ``game`` under ``preset`` is called: the preset's title where the preset
    is a game of its own ("Sedma"), else the game's and the preset's ("Kalookie · British club
    rules"); a preset the game does not list keeps its code name."""
    info = next((p for p in game.presets() if p.name == preset), None)
    if info is None or not info.title:
        return f"{game.title} · {preset}"
    return info.title if info.is_game else f"{game.title} · {info.title}"


class Game(Protocol):
    """A game family as the registry holds it: everything front ends need to host it."""

    name: str
    title: str
    min_players: int
    max_players: int
    default_preset: str
    ends_by_itself: bool
    """Whether a match reaches an end of its own (a pool won, a target reached); a game without
    one (Hoola) plays as many deals as its players agree."""

    def presets(self) -> Sequence[PresetInfo]:
        """The named presets, the default first."""
        ...

    def how_to_play(self, preset: str | None = None) -> str:
        """A few sentences for a newcomer, in the game's own words: its object, a turn, how a
        deal and the game end (under ``preset`` where presets are different games; "" when the
        game has none)."""
        ...

    def option_infos(self) -> Sequence[OptionInfo]:
        """Every rule option with its documentation."""
        ...

    def rules(self, preset: str | None = None, options: Mapping[str, Any] | None = None) -> Any:
        """Frozen rules from a preset and overrides; a RulesError names a bad key or value."""
        ...

    def teams(self, rules: Any, players: int) -> tuple[tuple[int, ...], ...] | None:
        """The partnerships for this many players (None when everyone plays alone)."""
        ...

    def new_deal(self, rules: Any, names: Sequence[str], *, seed: int | None = None) -> GameState:
        """One deal from a seeded shuffle (the first of a game)."""
        ...

    def new_match(self, rules: Any, names: Sequence[str], *, seed: int | None = None,
                  until: int = 1) -> Match:
        """A whole game from seeded shuffles. A game that puts players out (Kalookie's pool)
        ends when ``until`` or fewer are left (a tournament's semi-final is played until two
        are); a game that puts nobody out takes only 1 (:func:`played_to_its_end`)."""
        ...

    def determinize(self, view: Any, rng: random.Random) -> GameState:
        """A deal consistent with ``view``: hidden cards re-dealt at random (for search bots)."""
        ...

    def expert(self, seed: int | None = None) -> Player:
        """The game's own rule-based bot."""
        ...

    def bots(self) -> Mapping[str, Callable[..., Player]]:
        """The game's own bot kinds by name (``expert`` at least), each a factory taking the
        seed and the bot's options; the generic kinds (random, ismcts) come on top."""
        ...

    def format_action(self, action: Any, names: Sequence[str]) -> str:
        """An action in record notation with these player names."""
    def record_text(self, match: Any, comment: str = "") -> str:
        """The match so far as the text of a record that ``hoola verify`` accepts.

        Every deal is written, an unfinished last one too (its actions so far); ``comment``'s
        lines head the file as TOML comments (``# ...``), where a front end keeps its own notes.
        """
        ...

    def resume(self, text: str, *, seed: int | None = None) -> Match:
        """The match a record's text holds, to play on: finished deals counted, an unfinished
        last deal continued where it stopped, later deals shuffled from ``seed``.

        A record that does not replay raises :class:`~hoola.core.errors.RecordError`.
        """
        ...

    def parse_action(self, text: str, names: Sequence[str]) -> Any:
        """An action from record notation with these player names (a NotationError names what
        cannot be read); whether it is legal is for a deal to say."""
        ...

    def verify_record(self, data: dict[str, Any], text: str = "") -> list[str]:
        """What is wrong with a record of this game (its parsed TOML and its text); [] when ok.

        A malformed record raises :class:`~hoola.core.errors.RecordError`.
        """
        ...

    def tell_record(self, data: dict[str, Any], text: str = "") -> Iterator[str]:
        """A record told move by move, in lines; a RecordError after a refused action's line
        (unless the record says it must be refused)."""
        ...

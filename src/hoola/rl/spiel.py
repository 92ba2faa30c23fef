"""The games in OpenSpiel: ``python_hoola``, ``python_kalookie`` and ``python_capture``
registered from Python, a deal each, the preset and the table size as parameters
(``pyspiel.load_game("python_capture(preset=sedma,players=2)")``).

Chance is explicit. The deal is dealt card by card: each chance node lays the next card of the
shuffled pack (an outcome is a card's place in the unshuffled pack, every remaining place equally
likely), so the whole order of the pack, hands and stock, and so every draw, comes from chance
nodes before the first decision. A pile turned over when the stock runs out is shuffled from a
source seeded by that order (a mission, where the rules draw one, likewise). A window (a claim
on a Hoola discard) is a simultaneous node: the seats in it decide at once (the others have only
the pass, a no-op), and when several decided something, a chance node draws the order they
arrived in (who reached the table first) before the game's ``resolve`` settles them. The game is
declared ``SIMULTANEOUS``; ``pyspiel.convert_to_turn_based`` serves the sequential algorithms.
Observations are :mod:`hoola.rl.encoding`'s, tensor and string; a state serializes by its
history, and writes its deal as a record (``state.record_text()``).

>>> import pyspiel
>>> register()
>>> game = pyspiel.load_game("python_capture(preset=sedma,players=2)")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 32)
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable, Sequence
from itertools import permutations
from typing import Any

import numpy as np
import pyspiel

from hoola.core.flow import Moment, close, decide
from hoola.core.game import GameState
from hoola.rl.families import encoding_for, resolve_game

__all__ = ["DEALS", "RECORDS", "CaptureSpielGame", "HoolaSpielGame", "KalookieSpielGame",
           "register"]


def _hoola_deal(rules: Any, names: Sequence[str], rng: random.Random) -> GameState:
    from hoola.games.hoola.state import DealState

    return DealState.new(rules, list(names), rng=rng)


def _kalookie_deal(rules: Any, names: Sequence[str], rng: random.Random) -> GameState:
    from hoola.games.kalookie.state import DealState

    return DealState.new(rules, list(names), rng=rng)


def _capture_deal(rules: Any, names: Sequence[str], rng: random.Random) -> GameState:
    from hoola.games.capture.state import DealState

    return DealState.new(rules, list(names), rng=rng)


def _hoola_record(state: GameState) -> str:
    from hoola.games.hoola.records import dumps, record_of

    return dumps(record_of([state]))  # type: ignore[list-item]


def _kalookie_record(state: GameState) -> str:
    from hoola.games.kalookie.records import dumps, record_of

    return dumps(record_of([state]))  # type: ignore[list-item]


def _capture_record(state: GameState) -> str:
    from hoola.games.capture.records import dumps, record_of

    return dumps(record_of([state]))  # type: ignore[list-item]


RECORDS: dict[str, Callable[[GameState], str]] = {
    "hoola": _hoola_record,
    "kalookie": _kalookie_record,
    "capture": _capture_record,
}
"""How each family writes a deal as a record."""

DEALS: dict[str, Callable[[Any, Sequence[str], random.Random], GameState]] = {
    "hoola": _hoola_deal,
    "kalookie": _kalookie_deal,
    "capture": _capture_deal,
}
"""How each family deals from a random source (whose first shuffle lays the pack)."""

_GAMES = {"python_hoola": ("hoola", "pagat", 4), "python_kalookie": ("kalookie", "british", 4),
          "python_capture": ("capture", "sedma", 2)}
_LENGTH = {"hoola": 3000, "kalookie": 6000, "capture": 400}  # decisions a deal takes, at most


class _Pack(random.Random):
    """A random source whose first shuffle lays the cards in ``order`` (places in the list it
    is given); later shuffles, and every other draw, are seeded from that order. Without an
    order it only notes the pack it is asked to shuffle."""

    def __init__(self, order: Sequence[int] | None = None) -> None:
        super().__init__(hash(tuple(order)) if order is not None else 0)
        self.order = order
        self.pack: list[Any] | None = None

    def __reduce__(self) -> Any:
        return _restore_pack, (self.order, self.pack, self.getstate())

    def shuffle(self, x: Any, *args: Any) -> None:
        """The first time, the chance nodes' order; then a seeded shuffle."""
        if self.pack is None:
            self.pack = list(x)
            if self.order is not None:
                x[:] = [self.pack[i] for i in self.order]
            return
        super().shuffle(x)


def _restore_pack(order: Sequence[int] | None, pack: list[Any] | None, state: Any) -> _Pack:
    rng = _Pack(order)
    rng.pack = pack
    rng.setstate(state)
    return rng


class _Held:
    """An engine deal kept by an OpenSpiel state, with how it came about (the game's name, its
    preset, the seats, the chance nodes' order of the pack, the actions applied since).

    pyspiel copies a state with ``deepcopy`` (:meth:`__deepcopy__`: the engine's own fast
    ``copy``, the random source copied as it is) and pickles it (:meth:`__reduce__`: dealt again
    from the same order and the actions replayed, since a compiled engine's deal does not
    pickle)."""

    def __init__(self, state: GameState, source: tuple[str, str, tuple[str, ...], tuple[int, ...]],
                 applied: Sequence[Any] = ()) -> None:
        self.state = state
        self.source = source
        self.applied = list(applied)

    def apply(self, action: Any) -> None:
        """Play ``action`` on the deal, and remember it."""
        self.state.apply(action)
        self.applied.append(action)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        other = self.state.copy()
        rng = getattr(self.state, "rng", None)
        if rng is not None:
            other.rng = copy.deepcopy(rng, memo)  # type: ignore[attr-defined]
        return _Held(other, self.source, self.applied)

    def __reduce__(self) -> Any:
        return _replay, (self.source, tuple(self.applied))


def _deal(source: tuple[str, str, tuple[str, ...], tuple[int, ...]]) -> GameState:
    """The deal ``source`` names, dealt from its order of the pack."""
    name, preset, names, order = source
    game, rules = resolve_game(name, preset)
    return DEALS[game.name](rules, names, _Pack(order))


def _replay(source: tuple[str, str, tuple[str, ...], tuple[int, ...]],
            applied: Sequence[Any]) -> _Held:
    held = _Held(_deal(source), source)
    for action in applied:
        held.apply(action)
    return held


class _Game(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, game_type: Any, params: dict[str, Any]) -> None:
        name, preset, players = _GAMES[game_type.short_name]
        preset = str(params.get("preset", preset))
        players = int(params.get("players", players))
        game, rules = resolve_game(name, preset)
        names = [f"P{q + 1}" for q in range(players)]
        encoding = encoding_for(game, rules, players)
        deal = DEALS[game.name]
        probe = _Pack(None)
        deal(rules, names, probe)
        assert probe.pack is not None
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.size,
            max_chance_outcomes=max(len(probe.pack), math.factorial(players - 1)),
            num_players=players, min_utility=-1e6, max_utility=1e6, utility_sum=0.0,
            max_game_length=len(probe.pack) + _LENGTH[name])
        super().__init__(game_type, info, params)
        self.hoola_game, self.rules, self.names, self.preset = game, rules, names, preset
        self.encoding, self.deal, self.pack_size = encoding, deal, len(probe.pack)

    def new_initial_state(self) -> _State:
        return _State(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(self)


class _State(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: _Game) -> None:
        super().__init__(game)
        self.order: list[int] = []
        self.held: _Held | None = None
        self.pending: list[Any] | None = None  # decisions awaiting their order of arrival

    @property
    def state(self) -> GameState | None:
        """The deal (None while the pack is being dealt)."""
        return self.held.state if self.held is not None else None

    @property
    def spec(self) -> _Game:
        """The game (kept by pyspiel, never copied with the state)."""
        game: _Game = self.get_game()
        return game

    # -- whose node -------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.state is None or self.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        actors = self.state.actors()
        if len(actors) == 1:
            return next(iter(actors))
        return int(pyspiel.PlayerId.SIMULTANEOUS)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.state is None:
            left = sorted(set(range(self.spec.pack_size)) - set(self.order))
            return [(i, 1.0 / len(left)) for i in left]
        assert self.pending is not None
        n = math.factorial(len(self.pending))
        return [(i, 1.0 / n) for i in range(n)]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.state is not None
        enc = self.spec.encoding
        if player not in self.state.actors():
            return [enc.pass_id]  # a seat outside the window: its only move is the no-op
        return sorted(enc.legal_ids(self.state.view(player)))

    # -- moves ------------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        if self.state is None:
            self.order.append(action)
            if len(self.order) == self.spec.pack_size:
                spec = self.spec
                source = (spec.hoola_game.name, spec.preset, tuple(spec.names), tuple(self.order))
                self.held = _Held(_deal(source), source)
            return
        if self.pending is not None:
            arrived = list(permutations(self.pending))[action]
            self.pending = None
            self._settle(list(arrived))
            return
        player = self.current_player()
        self._settle([(player, action)])

    def _apply_actions(self, actions: Sequence[int]) -> None:
        assert self.state is not None
        enc = self.spec.encoding
        decided = [(q, a) for q, a in enumerate(actions)
                   if q in self.state.actors() and a != enc.pass_id]
        if len(decided) > 1:
            self.pending = decided  # a chance node draws the order they arrived in
            return
        self._settle(decided)

    def _settle(self, arrivals: list[tuple[int, int]]) -> None:
        """Take the decisions in the order they arrived; the game's resolve says which stands."""
        state = self.state
        assert state is not None
        enc = self.spec.encoding
        actors = state.actors()
        moment = Moment(0, actors, frozenset(q for q in actors if state.view(q).can_pass))
        arrived = {q for q, _ in arrivals}
        for q in sorted(actors - arrived):  # the window's other seats let it pass
            arrivals.append((q, enc.pass_id))
        chosen = None
        for seat, action_id in arrivals:
            action = enc.action(state.view(seat), action_id)
            chosen = decide(state, moment, seat, action) or chosen
        if chosen is None:
            close(moment)
            chosen = state.resolve(moment.decisions)
        assert self.held is not None
        self.held.apply(chosen)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"order {action}" if self.state is not None else f"card {action}"
        if self.state is None:
            return str(action)
        if action == self.spec.encoding.pass_id:
            return "pass"
        for a in self.state.view(player).legal:
            if self.spec.encoding.action_id(self.state.view(player), a) == action:
                return str(self.state.format(a))
        return f"action {action}"

    def record_text(self) -> str:
        """The deal so far as a record (``hoola verify`` accepts it); ValueError while the pack
        is still being dealt."""
        if self.state is None:
            raise ValueError("the pack is still being dealt: no deal to record yet")
        return RECORDS[self.spec.hoola_game.name](self.state)

    def is_terminal(self) -> bool:
        return self.state is not None and self.state.is_over

    def returns(self) -> list[float]:
        if self.state is None or not self.state.is_over:
            return [0.0] * len(self.spec.names)
        return [float(r) for r in self.state.returns()]

    def __str__(self) -> str:
        if self.state is None:
            return f"dealing: {len(self.order)} of {self.spec.pack_size} cards laid"
        return "\n".join(self.state.format(a) for a in self.state.history)


class _Observer:
    """What a seat sees: :mod:`hoola.rl.encoding`'s tensor and string (nothing while the pack
    is being dealt)."""

    def __init__(self, game: _Game) -> None:
        self.encoding = game.encoding
        self.tensor = np.zeros(game.encoding.obs_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: _State, player: int) -> None:
        self.tensor.fill(0.0)
        if state.state is not None:
            self.encoding.fill(state.state.view(player), self.tensor)

    def string_from(self, state: _State, player: int) -> str:
        if state.state is None:
            return "dealing"
        return self.encoding.text(state.state.view(player))


def _game_type(short_name: str) -> Any:
    name, preset, players = _GAMES[short_name]
    game, _rules = resolve_game(name)
    return pyspiel.GameType(
        short_name=short_name, long_name=f"Python {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players, min_num_players=game.min_players,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"preset": preset, "players": players})


# pyspiel keeps what is registered until the interpreter ends: module-level classes, which
# outlive its registry (a function made on the fly would be freed by it without the GIL).
_HOOLA_TYPE = _game_type("python_hoola")
_KALOOKIE_TYPE = _game_type("python_kalookie")
_CAPTURE_TYPE = _game_type("python_capture")


class HoolaSpielGame(_Game):
    """``python_hoola``: a Hoola deal (parameters ``preset``, ``players``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(_HOOLA_TYPE, params or {})


class KalookieSpielGame(_Game):
    """``python_kalookie``: a Kalookie hand (parameters ``preset``, ``players``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(_KALOOKIE_TYPE, params or {})


class CaptureSpielGame(_Game):
    """``python_capture``: a capture-game hand (parameters ``preset``, ``players``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(_CAPTURE_TYPE, params or {})


def register() -> None:
    """Register ``python_hoola``, ``python_kalookie`` and ``python_capture`` with pyspiel
    (once)."""
    known = set(pyspiel.registered_names())
    for game_type, cls in ((_HOOLA_TYPE, HoolaSpielGame), (_KALOOKIE_TYPE, KalookieSpielGame),
                           (_CAPTURE_TYPE, CaptureSpielGame)):
        if game_type.short_name not in known:
            pyspiel.register_game(game_type, cls)

"""One game played step by step through action ids: what every environment of :mod:`hoola.rl`
runs underneath.

An episode is a match of the game, ``deals`` deals long at most (one by default; a match that
ends earlier, as a capture game won, ends the episode). At each step one seat decides: in a
moment of one seat, that seat; in a window (a claim on a Hoola discard, a Kalookie warning)
every seat in it is asked in turn, in an order drawn from the episode's seed (who would reach a
real table first), each decision hidden from the others until the window closes (a seat's view
does not change meanwhile), and the game's ``resolve`` settles them in that order (the order is
kept in :attr:`Episode.arrivals`). Each seat's reward is its own result of each deal (its
``returns``: a partnership's seats each get their side's), paid when the deal ends.

>>> from hoola.core.registry import get_game
>>> game = get_game("capture")
>>> episode = Episode(game, game.rules("sedma"), 2, seed=3)
>>> while not episode.done:
...     seat = episode.seat
...     episode.step(seat, int(episode.mask(seat).nonzero()[0][0]))
>>> from hoola.core.records import verify_text
>>> sum(episode.totals) == 0, verify_text(episode.record_text()).ok
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from hoola.core.flow import FlowError, Moment, close, decide
from hoola.core.game import Game, GameState
from hoola.rl.encoding import Encoding, Floats, Mask
from hoola.rl.families import encoding_for

__all__ = ["Episode"]


class Episode:
    """A match between seats that act through ids (see the module)."""

    def __init__(self, game: Game, rules: Any, players: int, *, deals: int = 1,
                 seed: int | None = None, names: Sequence[str] | None = None) -> None:
        self.game = game
        self.rules = rules
        self.players = players
        self.deals = deals
        self.names = list(names or [f"P{q + 1}" for q in range(players)])
        self.encoding: Encoding = encoding_for(game, rules, players)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """Start a new match (from ``seed``, else a fresh one)."""
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self.rng = random.Random(f"arrivals {self.seed}")
        self.match = self.game.new_match(self.rules, self.names, seed=self.seed)
        self.state: GameState = self.match.new_deal()
        self.played = 1
        self.totals = [0.0] * self.players
        self.rewards = [0.0] * self.players
        self.done = False
        self.arrivals: list[int] = []
        self._open()

    # -- who decides ----------------------------------------------------------------------

    def _open(self) -> None:
        state = self.state
        actors = state.actors()
        order = sorted(actors)
        self._views: dict[int, Any] = {}
        self._legal: dict[int, dict[int, Any]] = {}
        passers: frozenset[int] = frozenset()
        if len(order) > 1:
            self.rng.shuffle(order)
            passers = frozenset(q for q in actors if self.view(q).can_pass)
        self.moment = Moment(len(state.history), actors, passers)
        self.waiting = order
        self.arrivals = []

    @property
    def seat(self) -> int | None:
        """The seat to decide now (None once the episode is done)."""
        return None if self.done else self.waiting[0]

    def view(self, seat: int) -> Any:
        """``seat``'s view; in a window, the same for every seat until it closes."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.state.view(seat)
        return view

    def observe(self, seat: int) -> Floats:
        """``seat``'s observation."""
        return self.encoding.observe(self.view(seat))

    def legal_ids(self, seat: int) -> dict[int, Any]:
        """``seat``'s legal ids now -> their actions (None: the pass); none for a seat not asked
        now."""
        if self.done or seat not in self.waiting:
            return {}
        ids = self._legal.get(seat)
        if ids is None:
            ids = self._legal[seat] = self.encoding.legal_ids(self.view(seat))
        return ids

    def mask(self, seat: int) -> Mask:
        """``seat``'s legal ids now as 0/1 (all 0 for a seat not asked now)."""
        out = np.zeros(self.encoding.size, dtype=np.int8)
        ids = self.legal_ids(seat)
        if ids:
            out[list(ids)] = 1
        return out

    def text(self, seat: int) -> str:
        """``seat``'s view for humans."""
        return self.encoding.text(self.view(seat))

    # -- deciding ---------------------------------------------------------------------------

    def step(self, seat: int, action_id: int) -> None:
        """``seat`` decides ``action_id`` (it must be the seat to decide, the id legal)."""
        if self.done:
            raise ValueError("the episode is over: reset it")
        if seat != self.waiting[0]:
            raise ValueError(f"seat {seat} may not decide now; seat {self.waiting[0]} decides")
        ids = self.legal_ids(seat)
        if action_id not in ids:
            raise ValueError(f"action {action_id} is not legal now (legal: "
                             f"{sorted(ids)[:12]}{'...' if len(ids) > 12 else ''})")
        self.act(seat, ids[action_id])

    def act(self, seat: int, action: Any | None) -> None:
        """``seat`` decides ``action`` (the engine's; None lets the moment pass)."""
        self.rewards = [0.0] * self.players
        state, moment = self.state, self.moment
        try:
            chosen = decide(state, moment, seat, action)
        except FlowError as error:
            raise ValueError(str(error)) from None
        self.waiting.pop(0)
        self.arrivals.append(seat)
        if chosen is None and self.waiting:
            return  # the window waits for the others
        if chosen is None:
            close(moment)
            chosen = state.resolve(moment.decisions)
            if chosen is None:
                raise ValueError("the seat to move let the moment pass")  # masks forbid it
        state.apply(chosen)
        if state.is_over:
            self._deal_over()
        if not self.done:
            self._open()

    def _deal_over(self) -> None:
        self.match.finish_deal()
        returns = [float(r) for r in self.state.returns()]
        self.rewards = returns
        self.totals = [t + r for t, r in zip(self.totals, returns, strict=True)]
        if self.match.is_over or self.played >= self.deals:
            self.done = True
            self.waiting = []
            return
        self.state = self.match.new_deal()
        self.played += 1

    def record_text(self) -> str:
        """The match so far as a record file (``hoola verify`` accepts it)."""
        return self.game.record_text(self.match)


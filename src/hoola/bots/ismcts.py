"""Information-set Monte Carlo search, for any game: guess the hidden cards many times, play
each guess out.

For one decision the bot samples deals consistent with its view (the game's
:meth:`~hoola.core.game.Game.determinize`, or its expert's own ``sample`` when it knows how good
players leave their cards), and in each sampled deal plays every candidate action to the end of
the deal with the game's expert bot choosing for everyone; the action with the best average
return over all samples wins. All candidates are tried on the same samples with the same random
sources (common random numbers), so the comparison between them is paired and much less noisy
than the returns themselves. A candidate other than the expert's own choice must beat it by
``margin`` standard errors, so that noise alone does not move the bot off good play.

The search is flat over the bot's own information set: the root is what the bot knows, its
children the candidate actions, and every later move is the rollout policy's. The candidates are
the expert's choice and, where the game's expert names them (``candidates``), the alternatives
worth searching; otherwise up to ``candidates`` other legal actions. The budget is ``playouts``
rollouts and ``seconds`` of wall time per decision, whichever ends first (at least one sample is
always played).

>>> from hoola.core.registry import get_game
>>> game = get_game("hoola")
>>> state = game.new_deal(game.rules("pagat"), ["A", "B", "C", "D"], seed=1)
>>> bot = IsmctsBot(seed=1, playouts=8)
>>> bot.act(state.view(0)) in state.legal_actions(0)
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

from hoola.core.driver import play_deal
from hoola.core.game import Game, GameState, Player
from hoola.core.registry import get_game

__all__ = ["IsmctsBot"]


class _Fixed:
    """The searching seat in a rollout: its first decision is the candidate, then the policy's."""

    __slots__ = ("choice", "policy", "used")

    def __init__(self, choice: Any, policy: Player) -> None:
        self.choice = choice
        self.policy = policy
        self.used = False

    def act(self, view: Any) -> Any:
        if not self.used:
            self.used = True
            return self.choice
        return self.policy.act(view)


class IsmctsBot:
    """Information-set Monte Carlo search over the bot's own decisions (see the module)."""

    name = "ismcts"

    def __init__(self, seed: int | None = None, *, game: Game | str | None = None,
                 playouts: int = 48, seconds: float = 1.0, candidates: int = 3,
                 margin: float = 1.0, lean: float = 2.0) -> None:
        self.game = game if game is not None and not isinstance(game, str) else get_game(game)
        self.rng = random.Random(seed)
        self.playouts = max(1, int(playouts))
        self.seconds = float(seconds)
        self.candidates = max(1, int(candidates))
        self.margin = float(margin)
        self.lean = float(lean)
        self.policy: Any = self.game.expert(seed)
        self.budget_seconds = self.seconds  # the stated time budget of one decision
        self.searched = 0  # decisions searched, rollouts played, seconds spent searching
        self.rollouts = 0
        self.search_seconds = 0.0

    def act(self, view: Any) -> Any:
        """The searched choice among ``view.legal`` (None: a pass, where passing is allowed)."""
        return self.explain(view)[0]

    def explain(self, view: Any) -> tuple[Any, str]:
        """The choice and a one-sentence reason (the search's estimate, or the expert's reason)."""
        if hasattr(self.policy, "explain"):
            prior, reason = self.policy.explain(view)
        else:
            prior, reason = self.policy.act(view), "The expert's choice."
        candidates = self._candidates(view, prior)
        if len(candidates) < 2:
            return prior, reason
        best, gain, samples = self._search(view, candidates)
        if best == prior:
            return prior, reason
        what = "letting it go" if best is None else \
            self.game.format_action(best, view.names).split(" ", 1)[-1]
        return best, (f"Search: {what} did better than the expert's choice by {gain:+.2f} stakes "
                      f"a deal over {samples} guesses at the hidden cards.")

    def _candidates(self, view: Any, prior: Any) -> list[Any]:
        own = getattr(self.policy, "candidates", None)
        if own is not None:
            return list(own(view, prior, self.candidates))
        options = [prior]
        others = [a for a in view.legal if a != prior]
        if view.can_pass and prior is not None:
            others.append(None)
        if len(others) > self.candidates - 1:
            others = self.rng.sample(others, self.candidates - 1)
        return options + others

    def _search(self, view: Any, candidates: Sequence[Any]) -> tuple[Any, float, int]:
        start = time.perf_counter()
        k = len(candidates)
        diffs: list[list[float]] = [[] for _ in range(k)]
        samples = 0
        while True:
            world = self._sample(view)
            seed = self.rng.randrange(2**62)
            rewards = [self._rollout(world, view.player, c, seed) for c in candidates]
            samples += 1
            for i, r in enumerate(rewards):
                diffs[i].append(r - rewards[0])
            if samples * k >= self.playouts or time.perf_counter() - start >= self.seconds:
                break
        self.searched += 1
        self.rollouts += samples * k
        self.search_seconds += time.perf_counter() - start
        best, gain = 0, 0.0
        for i in range(1, k):
            mean, se = _mean_se(diffs[i])
            if mean > gain and mean > self.margin * se:
                best, gain = i, mean
        return candidates[best], gain, samples

    def _sample(self, view: Any) -> GameState:
        own = getattr(self.policy, "sample", None)
        if own is not None:
            world: GameState = own(view, self.rng, self.lean)
            return world
        return self.game.determinize(view, self.rng)

    def _rollout(self, world: GameState, player: int, choice: Any, seed: int) -> float:
        state = world.copy()
        rng = random.Random(seed)
        if hasattr(state, "rng"):
            state.rng = rng  # the deal's own chance (a reshuffle) is common to every candidate
        players: list[Player] = [self.policy] * len(state.names)
        players[player] = _Fixed(choice, self.policy)
        play_deal(state, players, rng=rng)
        return float(state.returns()[player])


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)

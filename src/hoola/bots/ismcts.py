"""Information-set Monte Carlo search: guess the hidden cards many times, play each guess out.

For one decision the bot samples deals consistent with its view
(:func:`hoola.games.hoola.determinize.determinize`: the unseen cards shuffled into the other
hands and the
stock), and in each sampled deal plays every candidate action to the end of the deal with the
expert bot choosing for everyone; the action with the best average payment over all samples wins
the vote. All candidates are tried on the same samples with the same random sources (common
random numbers), so the comparison between them is paired and much less noisy than the payments
themselves. A candidate other than the expert's own choice must beat it by ``margin`` standard
errors, so that noise alone does not move the bot off good play.

The search is flat over the bot's own information set: the root is what the bot knows, its
children the candidate actions, and every later move is the rollout policy's. The budget is
``playouts`` rollouts and ``seconds`` of wall time per decision, whichever ends first (at least
one sample is always played). Only decisions with a real choice are searched: a forced move, an
immediate win (blast, four sevens) and the order of melds and additions are left to the expert.

>>> from hoola.games.hoola import DealState, Rules
>>> state = DealState.new(Rules.preset("pagat"), 4, seed=1)
>>> bot = IsmctsBot(seed=1, playouts=8)
>>> bot.act(state.view(0)) in state.legal_actions(0)
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from hoola.games.hoola.actions import Action, Blast, Discard, Draw, Knock, Sevens, Take
from hoola.games.hoola.determinize import determinize, state_from_view, unseen_cards
from hoola.games.hoola.expert import ExpertBot, Knowledge, card_value
from hoola.games.hoola.state import DealState
from hoola.games.hoola.views import View
from hoola.play import Player, play_deal

__all__ = ["IsmctsBot"]

Choice = Action | None


class _Fixed:
    """The searching seat in a rollout: its first decision is the candidate, then the policy's."""

    __slots__ = ("choice", "policy", "used")

    def __init__(self, choice: Choice, policy: Player) -> None:
        self.choice = choice
        self.policy = policy
        self.used = False

    def act(self, view: View) -> Action | None:
        if not self.used:
            self.used = True
            return self.choice
        return self.policy.act(view)


class IsmctsBot:
    """Information-set Monte Carlo search over the bot's own decisions (see the module)."""

    name = "ismcts"

    def __init__(self, seed: int | None = None, *, playouts: int = 48, seconds: float = 1.0,
                 candidates: int = 3, margin: float = 1.0, lean: float = 2.0) -> None:
        self.rng = random.Random(seed)
        self.playouts = max(1, int(playouts))
        self.seconds = float(seconds)
        self.candidates = max(1, int(candidates))
        self.margin = float(margin)
        self.lean = float(lean)
        self.policy = ExpertBot()
        self.budget_seconds = self.seconds  # the stated time budget of one decision
        self.searched = 0  # decisions searched, rollouts played, seconds spent searching
        self.rollouts = 0
        self.search_seconds = 0.0

    def act(self, view: View) -> Action | None:
        """The searched choice among ``view.legal`` (None lets a claimable discard go)."""
        return self.explain(view)[0]

    def explain(self, view: View) -> tuple[Action | None, str]:
        """The choice and a one-sentence reason (the search's estimate, or the expert's reason)."""
        prior, reason = self.policy.explain(view)
        candidates = self._candidates(view, prior)
        if len(candidates) < 2:
            return prior, reason
        best, gain, samples = self._search(view, candidates)
        if best == prior:
            return prior, reason
        what = "letting the discard go" if best is None else _describe(best, view)
        return best, (f"Search: {what} did better than the expert's choice by {gain:+.2f} stakes "
                      f"a deal over {samples} guesses at the hidden cards.")

    # -- the search -----------------------------------------------------------------------------

    def _candidates(self, view: View, prior: Choice) -> list[Choice]:
        legal = view.legal
        if any(isinstance(a, Sevens | Blast) for a in legal):
            return [prior]
        if any(isinstance(a, Take) and a.purpose for a in legal):
            return [prior]
        options: list[Choice] = [prior]
        knock = [a for a in legal if isinstance(a, Knock)]
        draws = [a for a in legal if isinstance(a, Draw)]
        takes = [a for a in legal if isinstance(a, Take)]
        if knock or takes:
            # The start of a turn or a claim window: knock, take or draw (or let it go).
            for a in (*knock, *takes[:1], *draws):
                if a not in options:
                    options.append(a)
            if view.can_pass and not view.is_my_turn and None not in options:
                options.append(None)
            return options[:self.candidates + 1]
        discards = [a for a in legal if isinstance(a, Discard)]
        if isinstance(prior, Discard) and len(discards) > 1:
            know = Knowledge(view)
            rules = view.rules
            ranked = sorted(discards, key=lambda a: -(card_value(a.card, rules)
                                                      - know.claim_danger(a.card)))
            for a in ranked:
                if a not in options:
                    options.append(a)
            return options[:self.candidates]
        return options

    def _search(self, view: View, candidates: Sequence[Choice]) -> tuple[Choice, float, int]:
        start = time.perf_counter()
        k = len(candidates)
        totals = [0.0] * k
        diffs: list[list[float]] = [[] for _ in range(k)]
        samples = 0
        while True:
            world = self._sample(view)
            seed = self.rng.randrange(2**62)
            rewards = [self._rollout(world, view.player, c, seed) for c in candidates]
            samples += 1
            for i, r in enumerate(rewards):
                totals[i] += r
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

    def _sample(self, view: View) -> DealState:
        """A deal consistent with the view; with ``lean`` above 0, opponents who have played
        hold low cards more often (good players discard their costly cards)."""
        if self.lean <= 0:
            return determinize(view, self.rng)
        rng, rules = self.rng, view.rules
        unseen = unseen_cards(view)
        rng.shuffle(unseen)
        hands: list[list[int]] = []
        order = list(range(len(view.hand_sizes)))
        dealt: dict[int, list[int]] = {}
        for q in order:
            if q == view.player:
                continue
            size = view.hand_sizes[q]
            if view.had_turn[q]:
                keyed = sorted(unseen, key=lambda c: rng.random() ** (
                    math.exp(self.lean * card_value(c, rules) / 14)))
                # Efraimidis-Spirakis: keys u ** (1 / w), the largest ``size`` win.
                chosen = keyed[-size:] if size else []
            else:
                chosen = unseen[:size]
            dealt[q] = chosen
            picked = set(chosen)
            unseen = [c for c in unseen if c not in picked] if size else unseen
        for q in order:
            hands.append(list(view.hand) if q == view.player else dealt[q])
        return state_from_view(view, hands, unseen[:view.stock_size], rng)

    def _rollout(self, world: DealState, player: int, choice: Choice, seed: int) -> float:
        state = world.copy()
        rng = random.Random(seed)
        state.rng = rng
        players: list[Player] = [self.policy] * state.n
        players[player] = _Fixed(choice, self.policy)
        play_deal(state, players, rng)
        result = state.result
        return float(result.payments.get(player, 0)) if result is not None else 0.0


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def _describe(action: Action, view: View) -> str:
    from hoola.games.hoola.actions import format_action

    text = format_action(action, view.names)
    return text.split(" ", 1)[1] if " " in text else text

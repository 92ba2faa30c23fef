"""A whole capture game: hands one after another, the score to the target, the next dealer.

``scoring = "points"`` (Hola, Sedmice) adds card points; when several sides reach the target in
the same hand the higher total wins, and a tie plays another hand. The game-point scorings
(Sedma, Croatian Sedmice, Ristikontra) add the hand's game points, Ristikontra's carried point
going to the next side that scores. Ristiklappi counts games won (each hand is a game): the
match ends when a side has won ``target`` games, never by itself with ``target = 0``.

>>> from hoola.games.capture.rules import Rules
>>> m = Match(Rules.preset("sedma"), ["A", "B", "C", "D"], seed=1)
>>> m.new_deal().dealer, m.labels
(0, ('A+C', 'B+D'))
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from hoola.core.errors import IllegalActionError
from hoola.core.game import places_by
from hoola.core.table import Moment, Score, Table
from hoola.core.words import say
from hoola.games.capture.rules import Rules, teams_for
from hoola.games.capture.state import DealState, side_label
from hoola.games.capture.views import score_label

__all__ = ["Match"]


class Match:
    """A game of one of the capture presets: deals in sequence with the running score."""

    def __init__(self, rules: Rules, names: Sequence[str], *, seed: int | None = None) -> None:
        self.rules = rules
        self.names = tuple(names)
        self.n = len(self.names)
        rules.check_players(self.n)
        self.effective = rules.for_players(self.n)
        teams = teams_for(self.n)
        self.sides = teams if teams is not None else tuple((q,) for q in range(self.n))
        self.labels = tuple(side_label(s, self.names) for s in self.sides)
        self.side_of = [next(i for i, s in enumerate(self.sides) if q in s)
                        for q in range(self.n)]
        self.rng = random.Random(seed)
        self.deals: list[DealState] = []
        self.finished = 0
        self.dealer = 0
        self.scores = [0] * len(self.sides)
        self.points = [0] * len(self.sides)  # card points of every finished hand
        self.carry = 0
        self.winner: int | None = None  # a side

    @property
    def is_over(self) -> bool:
        """Whether a side has won the game."""
        return self.winner is not None

    def new_deal(self) -> DealState:
        """Start the next hand from a seeded shuffle."""
        return self.start_deal()

    def start_deal(self, hands: Sequence[Sequence[int]] | None = None,
                   stock: Sequence[int] | None = None, *, dealer: int | None = None,
                   seed: int | None = None) -> DealState:
        """Start the next hand: ``hands`` and ``stock`` as a record gives them, else shuffled
        (from ``seed`` if given). ``dealer`` overrides the rules' next dealer."""
        if self.deals and self.finished < len(self.deals):
            raise IllegalActionError("the previous hand is not finished", "deal-not-over")
        if self.is_over:
            raise IllegalActionError(f"the game is over: {self.labels[self.winner or 0]} won",
                                     "match-over")
        if dealer is not None:
            self.dealer = dealer
        if hands is not None:
            state = DealState.explicit(self.rules, self.names, hands, stock or [], self.dealer)
        else:
            rng = random.Random(seed if seed is not None else self.rng.randrange(2**63))
            state = DealState.new(self.rules, self.names, dealer=self.dealer, rng=rng)
        state.standing = tuple(self.scores)
        state.carry = self.carry
        self.deals.append(state)
        return state

    def finish_deal(self) -> None:
        """Fold the finished last hand into the score; pass the deal on; find the winner."""
        if not self.deals or self.finished == len(self.deals):
            raise IllegalActionError("there is no hand to finish", "deal-not-over")
        last = self.deals[-1]
        r = last.result
        if r is None:
            raise IllegalActionError("the current hand is not over", "deal-not-over")
        self.finished += 1
        rules = self.effective
        for s, p in enumerate(r.points):
            self.points[s] += p
        if rules.scoring in ("sedma", "croatian", "ristikontra"):
            for s, g in enumerate(r.score):
                if g:
                    self.scores[s] += g + self.carry
                    self.carry = 0
            if r.carried:
                self.carry += 1
        else:
            for s, g in enumerate(r.score):
                self.scores[s] += g
        self.dealer = self._next_dealer(last)
        if rules.target > 0 or rules.scoring != "ristiklappi":
            reached = [s for s, t in enumerate(self.scores) if t >= rules.target]
            if reached:
                top = max(self.scores)
                best = [s for s, t in enumerate(self.scores) if t == top]
                if len(best) == 1:
                    self.winner = best[0]

    def _next_dealer(self, deal: DealState) -> int:
        rules, r, dealer, n = self.effective, deal.result, deal.dealer, self.n
        assert r is not None
        after = [(dealer + i) % n for i in range(1, n + 1)]
        if rules.next_dealer == "redeal":
            others = [s for s in range(len(self.sides)) if s != self.side_of[dealer]]
            if rules.redeal_at_most is not None and \
                    all(r.points[s] <= rules.redeal_at_most for s in others):
                return dealer
        elif rules.next_dealer == "fewer":
            top = max(r.score)
            return next((q for q in after if r.score[self.side_of[q]] < top), after[0])
        elif rules.next_dealer == "clean" and r.clean is not None and any(r.clean) \
                and not all(r.clean):
            return next(q for q in after if r.clean[self.side_of[q]])
        return after[0]

    def leader(self) -> int | None:
        """The side ahead (the winner once there is one); None while sides are level."""
        if self.winner is not None:
            return self.winner
        top = max(self.scores)
        best = [s for s, t in enumerate(self.scores) if t == top]
        return best[0] if len(best) == 1 and self.finished else None

    def record_totals(self) -> list[int]:
        """A record's ``[match] totals`` by side: game points where the preset scores them,
        else card points (Ristiklappi, which scores neither, its card points)."""
        return list(self.points if self.effective.scoring == "ristiklappi" else self.scores)

    def totals(self) -> list[Fraction]:
        """Each seat's side's score: game points where the preset counts them, else card
        points (Ristiklappi: games won)."""
        return [Fraction(self.scores[self.side_of[q]]) for q in range(self.n)]

    def places(self) -> list[int]:
        """Each seat's place by its side's score (1 the first; partners and equal scores
        share)."""
        return places_by(self.totals(), higher=True)

    def takings(self) -> list[Fraction]:
        """What each seat takes away: its side's score."""
        return self.totals()

    def scoreboard(self) -> Table:
        """The running score as data, by side."""
        rules = self.effective
        label = score_label(rules)
        scores = [Score(label.text, tuple(str(v) for v in self.scores), label)]
        teams = self.sides if len(self.sides) < self.n else None
        said = say("match.won", side=self.labels[self.winner]) if self.winner is not None else \
            say("match.deals-next", who=self.names[self.dealer])
        if self.winner is None and self.carry:
            said = say("match.carried" if self.carry > 1 else "match.carried-one", first=said,
                       n=self.carry)
        return Table(zones=(), moment=Moment(actors=(), turn=None,
                                             phase="over" if self.is_over else "play",
                                             prompt=said.text, say=said),
                     names=self.names, scores=tuple(scores), teams=teams)


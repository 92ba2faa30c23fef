"""A match: deals in sequence, the winner dealing next, stakes doubled after a Hoola if agreed."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from hoola.core.errors import HoolaError, RulesError
from hoola.core.game import places_by
from hoola.core.records import format_number
from hoola.core.table import Moment, Score, Table
from hoola.core.words import say
from hoola.games.hoola.inputs import check_names, check_seed
from hoola.games.hoola.rules import Rules
from hoola.games.hoola.state import DealState
from hoola.games.hoola.text import agree

__all__ = ["Match", "MatchError", "Totals", "next_dealer", "next_stake"]


class MatchError(HoolaError, ValueError):
    """A match asked to deal or count out of order (the deal in play is not over, or counted), or
    handed something that is not a deal."""

    code = "match-order"


def _check_state(state: object) -> None:
    if not isinstance(state, DealState):
        raise MatchError(f"{state!r} is not a deal (a DealState)", "bad-deal")


def next_dealer(state: DealState) -> int:
    """Ruling 16: the winner deals next; of several, the first in play order after the dealer."""
    _check_state(state)
    if state.result is None or not state.result.winners:
        return state.dealer
    winners = set(state.result.winners)
    for k in range(1, state.n + 1):
        seat = (state.dealer + k) % state.n
        if seat in winners:
            return seat
    return state.dealer


def next_stake(state: DealState) -> Fraction:
    """The next deal's stake: doubled after a Hoola with ``hoola_doubles_next``, else 1."""
    _check_state(state)
    if state.rules.hoola_doubles_next and state.result is not None \
            and state.result.end == "hoola":
        return state.stake * 2
    return Fraction(1)


class Totals(dict[int, Fraction]):
    """The running totals by seat; called, they are the list in seat order that the core's
    ``Match.totals()`` gives (front ends written before it read the mapping).

    >>> Totals({0: Fraction(1), 1: Fraction(-1)})()
    [Fraction(1, 1), Fraction(-1, 1)]
    """

    def __call__(self) -> list[Fraction]:
        return [self[q] for q in sorted(self)]


class Match:
    """Deals played one after another by the same players, with running totals.

    >>> m = Match(Rules.preset("pagat"), ["A", "B", "C"], seed=1)
    >>> m.new_deal().dealer
    0
    """

    def __init__(self, rules: Rules, names: Sequence[str], *, seed: int | None = None) -> None:
        if not isinstance(rules, Rules):
            raise RulesError(f"the rules must be a Rules value, not {rules!r}", "bad-rules")
        self.rules = rules
        self.names = check_names(names)
        self.rng = random.Random(check_seed(seed))
        self.deals: list[DealState] = []
        self.totals = Totals({q: Fraction(0) for q in range(len(self.names))})
        self.counted = 0  # deals whose payments are in the totals

    @property
    def is_over(self) -> bool:
        """Never: a Hoola match lasts as many deals as the players agree."""
        return False

    def new_deal(self) -> DealState:
        """Start the next deal (the previous one must be over)."""
        dealer, stake = 0, Fraction(1)
        if self.deals:
            last = self.deals[-1]
            if not last.is_over:
                raise MatchError("cannot deal again: the current deal is not over",
                                 "deal-not-over")
            dealer, stake = next_dealer(last), next_stake(last)
        state = DealState.new(self.rules, self.names, seed=self.rng.randrange(2**63),
                              dealer=dealer, stake=stake)
        self.deals.append(state)
        return state

    def finish_deal(self) -> None:
        """Add the finished last deal's payments to the totals (once)."""
        if not self.deals:
            raise MatchError("cannot count a deal: none has been dealt", "no-deal")
        last = self.deals[-1]
        if last.result is None:
            raise MatchError("cannot count the current deal: it is not over", "deal-not-over")
        if self.counted >= len(self.deals):
            raise MatchError("cannot count the last deal again: its payments are in the totals",
                             "deal-counted")
        for q, v in last.result.payments.items():
            self.totals[q] += v
        self.counted = len(self.deals)

    def places(self) -> list[int]:
        """Each seat's place by its totals (1 the first; equal totals share)."""
        return places_by(self.totals(), higher=True)

    def takings(self) -> list[Fraction]:
        """What each seat takes away: its totals (Hoola leaves nothing unpaid)."""
        return self.totals()

    def scoreboard(self) -> Table:
        """The running totals as data, and who deals next."""
        dealer = next_dealer(self.deals[-1]) if self.deals and self.deals[-1].is_over else \
            self.deals[-1].dealer if self.deals else 0
        return Table(zones=(), moment=Moment(actors=(), turn=None, phase="play",
                                             prompt=f"{agree(self.names[dealer], 'deal')} next",
                                             say=say("match.deals-next", who=self.names[dealer])),
                     names=tuple(self.names),
                     scores=(Score("Totals", tuple(format_number(t) for t in self.totals()),
                                   say("score.totals")),))

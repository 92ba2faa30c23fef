"""The whole game (ruling 13): hands in sequence, the pool, penalty totals, buy-ins, the winner.

``scoring = "pool"``: everyone stakes ``initial_stake`` into the pool; a player over the target
buys in or is out; the last player at or under the target takes the pool. ``"points"`` (North
American): the game ends when a player has scored ``target`` points or more. ``"cards"``
(Scarne): each hand stands alone and the game never ends by itself. The deal passes to the next
seat still in; a void hand is dealt again by the same dealer.

``until``: the pool game ends when at most that many players are left at or under the target
(a tournament's semi-final is played until two are left, ruling 16). With two or more left
nobody has won: the pool stays unpaid for the tournament to settle. A table with no buy-ins is
the option ``buy_ins = 0``.

>>> from hoola.games.kalookie.rules import Rules
>>> m = Match(Rules.preset("british"), ["A", "B", "C"], seed=1)
>>> m.pool, [str(t) for t in m.totals()], m.new_deal().dealer
(Fraction(15, 1), ['-5', '-5', '-5'], 0)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from hoola.core.errors import IllegalActionError, RulesError
from hoola.core.game import places_by
from hoola.core.table import Moment, Score, Table, Zone
from hoola.core.words import phrases, say
from hoola.games.kalookie.amounts import format_number
from hoola.games.kalookie.deal import Deal, Standing
from hoola.games.kalookie.rules import Rules
from hoola.games.kalookie.state import DealState

phrases({
    "score.money": "Money",
    "match.wins": "{who} wins",
    "match.left": "{n} players are left",
    "zone.pool": "Pool {amount}",
})

__all__ = ["Match"]


def _illegal(message: str, code: str) -> IllegalActionError:
    return IllegalActionError(message, code)


class Match:
    """A game of Kalookie: deals one after another with the running score."""

    def __init__(self, rules: Rules, names: Sequence[str], *, seed: int | None = None,
                 until: int = 1) -> None:
        if until != 1 and (isinstance(until, bool) or not isinstance(until, int)
                           or not 1 <= until < len(names)):
            raise RulesError(f"a game of {len(names)} players is played until 1 to "
                             f"{len(names) - 1} of them are left, not {until!r}", "bad-until")
        self.rules = rules
        self.until = until
        self.names = tuple(names)
        self.n = len(self.names)
        self.rng = random.Random(seed)
        self.standing = Standing.fresh(self.n)
        rules.check_players(self.n)
        self.deals: list[DealState] = []
        self.finished = 0
        self.dealer = 0
        pooled = rules.scoring == "pool"
        stake = Fraction(rules.initial_stake) if pooled else Fraction(0)
        self.pool = stake * self.n
        self.money = [-stake] * self.n
        self.out: list[int] = []
        self.winner: int | None = None
        self.ended = False  # the players left are ``until`` or fewer (the pool game)

    @property
    def is_over(self) -> bool:
        """Whether the game has its winner (pool or points), or is down to ``until`` players
        left; a Scarne game never ends itself."""
        return self.winner is not None or self.ended

    def new_deal(self) -> DealState:
        """Start the next hand from a seeded shuffle."""
        return self.start_deal()

    def start_deal(self, deal: Deal | None = None, *, dealer: int | None = None,
                   seed: int | None = None) -> DealState:
        """Start the next hand: ``deal`` as given, else shuffled (from ``seed`` if given).

        ``dealer`` overrides the seat the rules give (the next seat still in, the same after a
        void hand); later hands pass on from it.
        """
        if self.deals and self.finished < len(self.deals):
            raise _illegal("the previous hand is not finished", "deal-not-over")
        if self.winner is not None:
            raise _illegal(f"the game is over: {self.names[self.winner]} has won", "match-over")
        if self.ended:
            raise _illegal(f"the game is over: {self.until} players are left at or under the "
                           "target", "match-over")
        if dealer is not None:
            self.dealer = dealer
        rng = random.Random(seed if seed is not None else self.rng.randrange(2**63))
        state = DealState.new(self.rules, self.names, deal=deal, dealer=self.dealer,
                              standing=self.standing, rng=rng)
        self.deals.append(state)
        return state

    def finish_deal(self) -> None:
        """Fold the finished last hand into the running score, and pass the deal on."""
        if not self.deals or self.finished == len(self.deals):
            raise _illegal("there is no hand to finish", "deal-not-over")
        last = self.deals[-1]
        if not last.is_over or last.result is None or last.after is None:
            raise _illegal("the current hand is not over", "deal-not-over")
        self.finished += 1
        for q, amount in last.result.payments.items():
            self.money[q] += amount
        for q in last.bought:
            self.money[q] -= Fraction(self.rules.buy_in)
            self.pool += Fraction(self.rules.buy_in)
        self.out.extend(last.out)
        self.standing = last.after
        if last.result.winner is not None:
            self.dealer = self._next_in(self.dealer)
        self._settle_game(last.result.winner)

    def _next_in(self, seat: int) -> int:
        active = self.standing.active
        q = (seat + 1) % self.n
        while not active[q] and q != seat:
            q = (q + 1) % self.n
        return q

    def _settle_game(self, hand_winner: int | None) -> None:
        rules = self.rules
        if rules.scoring == "pool":
            alive = self.standing.seats()
            self.ended = len(alive) <= self.until
            if len(alive) <= 1:
                self.winner = alive[0] if alive else hand_winner
                if self.winner is not None:
                    self.money[self.winner] += self.pool
        elif rules.scoring == "points" and hand_winner is not None \
                and self.standing.scored[hand_winner] >= rules.target:
            self.winner = hand_winner

    def totals(self) -> list[Fraction]:
        """Each seat's net money over the finished hands: payments, stakes, the pool if won."""
        return list(self.money)

    def places(self) -> list[int]:
        """Each seat's place (1 the first; ties share). In the pool game the players still at
        or under the target come first, the lower penalty total first; then those who went out,
        the last to go first (out after the same hand: the lower total first, then in the
        order they were put out, from the seat after the hand's winner). Otherwise by money.
        """
        if self.rules.scoring != "pool":
            return places_by(self.money, higher=True)
        penalty = self.standing.penalty
        went: dict[int, tuple[int, int]] = {}
        for hand, state in enumerate(self.deals):
            for q in state.out:
                went.setdefault(q, (hand, len(went)))
        keys: list[tuple[int, int, int, int]] = []
        for q in range(self.n):
            if q in went:
                hand, order = went[q]
                keys.append((1, -hand, penalty[q], order))
            else:
                keys.append((0, 0, penalty[q], 0))
        return places_by(keys)

    def takings(self) -> list[Fraction]:
        """What each seat takes away: its money, and a pool nobody has won (a game stopped
        with several players still in) shared equally by them."""
        out = list(self.money)
        if self.rules.scoring == "pool" and self.winner is None and self.pool:
            alive = self.standing.seats()
            if len(alive) >= 2:
                for q in alive:
                    out[q] += self.pool / len(alive)
        return out

    def scoreboard(self) -> Table:
        """The running score as data: penalty totals, buy-ins, money, the pool."""
        st = self.standing
        scores = [Score("Penalty", tuple(str(p) for p in st.penalty), say("score.penalty")),
                  Score("Money", tuple(format_number(m) for m in self.money),
                        say("score.money"))]
        if self.rules.scoring == "pool":
            scores.insert(1, Score("Buy-ins", tuple(str(b) for b in st.buy_ins),
                                   say("score.buy-ins")))
        if self.rules.scoring == "points":
            scores.insert(0, Score("Points", tuple(str(s) for s in st.scored),
                                   say("score.points")))
        status = "over" if self.is_over else "play"
        said = say("match.wins", who=self.names[self.winner]) if self.winner is not None else \
            say("match.left", n=self.until) if self.ended else \
            say("match.deals-next", who=self.names[self.dealer])
        pool = say("zone.pool", amount=format_number(self.pool))
        zones = (Zone("pool", "pile", pool.text, count=0, say=pool),) \
            if self.rules.scoring == "pool" else ()
        return Table(zones=zones, moment=Moment(actors=(), turn=None, phase=status,
                                                prompt=said.text, say=said),
                     names=self.names, scores=tuple(scores))

"""What the capture games' expert reads from a view: the cards still out, who may hold a taker,
what a trick is worth to each side, and the odds that a side ends up winning the trick.

Only the view is used: the seat's hand, a partner's hand where the rules show it, and every card
played (all public). The other hands and the stock are the *unseen* cards, and a hidden hand of
``h`` cards is taken to be ``h`` of them drawn at random, so the chance that it holds a card of
some ranks is hypergeometric.

>>> from hoola.games.capture import GAME
>>> view = GAME.new_deal(GAME.rules("sedma"), ["A", "B"], seed=3).view(1)
>>> know = Knowledge(view)
>>> know.unseen, sum(know.counts)
(28, 28)
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from hoola.core.cards import rank_of
from hoola.games.capture.rules import Rules
from hoola.games.capture.views import View

__all__ = ["KING", "QUEEN", "Knowledge", "at_least"]

KING, QUEEN = 12, 11
DIRTY = 45.0  # card points a side's first queen in a first-phase trick is worth (Ristiklappi)
CLEAN = 25.0  # card points a dirty side's cleaning trick is worth (a king and no queen)
WORTH_A_FIGHT = 0.5  # least value (card points) of a trick that a side contests
LEAD = 25.0  # card points winning a trick (the next lead) is worth where a trick is one round
LEAD_FIGHTING = 3.0  # ... and where the leader may fight on (both measured on duplicate deals)
_PACKS: dict[Rules, tuple[int, ...]] = {}


@lru_cache(maxsize=8192)
def at_least(unseen: int, takers: int, hand: int, k: int) -> float:
    """The chance that ``hand`` cards drawn from ``unseen`` cards, ``takers`` of them of interest,
    hold at least ``k`` of those (hypergeometric).

    >>> at_least(10, 10, 3, 1), round(at_least(20, 4, 4, 1), 3)
    (1.0, 0.624)
    """
    if k <= 0:
        return 1.0
    takers = min(takers, unseen)
    hand = min(hand, unseen)
    if takers < k or hand < k:
        return 0.0
    total = comb(unseen, hand)
    below = sum(comb(takers, x) * comb(unseen - takers, hand - x) for x in range(k))
    return 1.0 - below / total


def pack_points(rules: Rules) -> int:
    """The card points of the whole pack."""
    counts = pack_counts(rules)
    return sum(k * rules.card_points[r] for r, k in enumerate(counts))


def pack_counts(rules: Rules) -> tuple[int, ...]:
    """How many cards of each rank the rules' pack holds."""
    counts = _PACKS.get(rules)
    if counts is None:
        tally = [0] * 13
        for c in rules.pack():
            tally[rank_of(c)] += 1
        counts = _PACKS[rules] = tuple(tally)
    return counts


class Knowledge:
    """The counts a decision needs, worked out once from the view (see the module)."""

    __slots__ = ("counts", "hand", "hidden", "last", "lead", "led", "me", "memo", "n", "out",
                 "points", "rules", "shown", "side", "side_of", "total", "unseen", "view", "wilds")

    def __init__(self, view: View) -> None:
        self.view = view
        self.rules = rules = view.rules
        self.me = view.player
        self.n = len(view.names)
        self.side_of = view.side_of
        self.side = view.side_of[view.player]
        self.wilds = rules.wilds
        self.points = rules.card_points
        self.led = view.led
        self.hand = view.hand
        self.shown = dict(view.shown)
        counts = list(pack_counts(rules))
        for c in view.hand:
            counts[c % 13] -= 1
        for _, cards in view.shown:
            for c in cards:
                counts[c % 13] -= 1
        for pile in view.captured:
            for c in pile:
                counts[c % 13] -= 1
        for _, c, _ in view.trick:
            counts[c % 13] -= 1
        self.counts = counts
        self.unseen = sum(counts)
        self.hidden = tuple(q for q in range(self.n) if q != self.me and q not in self.shown)
        self.total = pack_points(rules)
        self.out = self.points_out()
        self.last = self.is_last_trick()
        # Winning a trick is worth something beyond its cards (the lead, and cards that would
        # otherwise go to the others later): much where a trick is one round and cheap to win.
        self.lead = 0.0 if self.last else LEAD_FIGHTING if rules.fighting else LEAD
        # The odds depend on a trick's cards only through whether each side contests it, so
        # the cards that leave the trick to the same seat share one walk (see chance).
        self.memo: dict[tuple[object, ...], float] = {}

    # -- cards ---------------------------------------------------------------------------------

    def takers(self, led: int | None) -> frozenset[int]:
        """The ranks that take a trick led with ``led``: that rank and the wilds."""
        if led is None:
            return frozenset()
        return frozenset((led, *self.wilds))

    def unseen_of(self, ranks: frozenset[int]) -> int:
        """How many unseen cards have one of ``ranks``."""
        return sum(self.counts[r] for r in ranks)

    def points_out(self) -> int:
        """The card points not yet captured: in hands, the stock and the trick."""
        pts = self.points
        out = sum(pts[r] * k for r, k in enumerate(self.counts))
        out += sum(pts[c % 13] for c in self.hand)
        out += sum(pts[c % 13] for cs in self.shown.values() for c in cs)
        out += sum(pts[c % 13] for _, c, _ in self.view.trick)
        return out

    def held(self, seat: int, ranks: frozenset[int]) -> int | None:
        """How many cards of ``ranks`` ``seat`` holds, where this seat knows (else None)."""
        cards = self.hand if seat == self.me else self.shown.get(seat)
        if cards is None:
            return None
        return sum(1 for c in cards if c % 13 in ranks)

    # -- tricks --------------------------------------------------------------------------------

    def is_last_trick(self) -> bool:
        """Whether the trick under way is (very likely) the hand's last: the stock is gone and
        nobody holds more than the trick may take."""
        v = self.view
        if v.stock_size:
            return False
        played = {q for q, _, _ in v.trick}
        return all(s <= (0 if q in played else 1) for q, s in enumerate(v.hand_sizes)) or \
            max(v.hand_sizes) <= 1

    def value(self, cards: list[int], side: int, winner: int) -> float:
        """What a trick of ``cards`` taken by side ``winner`` is worth to ``side``, in card
        points: its points (and the last trick's) for or against, and in Ristiklappi the
        queens that make a side dirty and the kings that clean it."""
        v, rules, points = self.view, self.rules, self.points
        pts = 0
        for c in cards:
            pts += points[c % 13]
        if self.last:
            pts += rules.last_trick
        mine = winner == side
        out = float(pts + self.lead if mine else -pts - self.lead)
        if rules.phases:
            ranks = {c % 13 for c in cards}
            if v.phase1:
                if QUEEN in ranks and not v.dirty[winner]:
                    out += -DIRTY if mine else DIRTY
            elif KING in ranks and QUEEN not in ranks and v.dirty[winner] \
                    and not v.cleaned[winner]:
                out += CLEAN if mine else -CLEAN
        return out

    def willing(self, cards: list[int]) -> list[bool]:
        """Whether each side would spend a taker to win a trick of ``cards``."""
        k = len(self.view.sides)
        if not self.rules.phases:  # a trick is worth the same to every side
            worth = sum(self.points[c % 13] for c in cards) + self.lead + (
                self.rules.last_trick if self.last else 0)
            return [2 * worth > WORTH_A_FIGHT] * k
        out = []
        for s in range(k):
            other = (s + 1) % k
            out.append(self.value(cards, s, s) - self.value(cards, s, other) > WORTH_A_FIGHT)
        return out

    def chance(self, cards: list[int], led: int, winner: int, order: list[int], leader: int,
               mine_left: int, fights: int) -> float:
        """The chance that this seat's side takes the trick, once ``cards`` lie in it, seat
        ``winner`` winning, with ``order`` still to play this round, this seat holding
        ``mine_left`` takers, and ``fights`` more rounds the leader may start.

        Each seat of a side that is not winning takes whenever it can and its side finds the
        trick worth it (:meth:`willing`); a hidden seat can with the hypergeometric chance of
        holding one more taker; after a round the leader fights on the same way."""
        will = self.willing(cards)
        key = (tuple(will), led, self.side_of[winner], tuple(order), leader, mine_left, fights)
        known_odds = self.memo.get(key)
        if known_odds is not None:
            return known_odds
        odds = self.memo[key] = self._chance(will, led, winner, order, leader, mine_left, fights)
        return odds

    def _chance(self, will: list[bool], led: int, winner: int, order: list[int], leader: int,
                mine_left: int, fights: int) -> float:
        """:meth:`chance` worked out, given whether each side contests the trick."""
        ranks = self.takers(led)
        pool = self.unseen_of(ranks)
        side_of, me, view = self.side_of, self.me, self.view
        fighting = self.rules.fighting
        can_play = [s > 0 for s in view.hand_sizes]
        dark = self.rules.play_in_dark and view.stock_size > 0
        known = {q: self.held(q, ranks) for q in self.shown}
        known[me] = mine_left
        hands = view.hand_sizes
        unseen = self.unseen

        def can(q: int, used: dict[int, int], spent: int) -> float:
            k = used.get(q, 0) + 1
            held = known.get(q)
            if held is not None:
                return 1.0 if held >= k else 0.0
            # A hidden seat's hand less what it already spent here, the pool less the others'.
            return at_least(unseen - spent + used.get(q, 0), pool - spent + used.get(q, 0),
                            hands[q], k)

        def walk(i: int, order: list[int], win: int, used: dict[int, int], spent: int,
                 fights: int) -> float:
            while i < len(order):
                q = order[i]
                s = side_of[q]
                if s != win and will[s]:
                    p = can(q, used, spent)
                    if p <= 0.0:
                        i += 1
                        continue
                    taken = dict(used)
                    taken[q] = taken.get(q, 0) + 1
                    hidden = q not in known
                    yes = walk(i + 1, order, s, taken, spent + hidden, fights)
                    if p >= 1.0:
                        return yes
                    no = walk(i + 1, order, win, used, spent, fights)
                    return p * yes + (1 - p) * no
                i += 1
            s = side_of[leader]
            if fighting and fights > 0 and win != s and will[s]:
                p = can(leader, used, spent)
                if p > 0.0:
                    nxt = [(leader + j) % self.n for j in range(1, self.n)]
                    nxt = [q for q in nxt if can_play[q] or dark]
                    taken = dict(used)
                    taken[leader] = taken.get(leader, 0) + 1
                    yes = walk(0, nxt, s, taken, spent + (leader not in known), fights - 1)
                    return p * yes + (1 - p) * (win == self.side)
            return float(win == self.side)

        return walk(0, order, side_of[winner], {}, 0, fights)
